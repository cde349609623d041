"""Opening the database: WAL, foreign keys, and the numbered migrations."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import aiosqlite

from storage.migrations import MIGRATIONS

DEFAULT_PATH = "data/carcassonne.db"

T = TypeVar("T")


class Database:
    """One aiosqlite connection; every write goes through ``transaction``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def close(self) -> None:
        await self.conn.close()

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` on the connection's own thread: one round trip for a whole read
        or transaction, instead of one per statement and per fetch. ``fn`` must not block on the
        event loop; the caller holds the store's lock so no other statement interleaves."""
        conn = self.conn
        # aiosqlite has no public "run this callable on your thread"; _execute is the queue it
        # uses for every statement (stable since 0.17).
        return await conn._execute(lambda: fn(conn._conn))  # type: ignore[attr-defined]

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0


async def open_database(path: str | os.PathLike[str] | None = None) -> Database:
    """Open (creating if needed) the database and bring its schema up to date."""
    path = str(path or os.environ.get("DATABASE_PATH") or DEFAULT_PATH)
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    # explicit BEGIN/COMMIT; check_same_thread=False lets Store.change_token read one pragma
    # from the event loop's thread (SQLite's serialized mode makes that safe).
    conn = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA busy_timeout = 5000")
    # Switching a new file to WAL needs a lock SQLite does not wait for (no busy handler), so a
    # second process opening the same new file at the same moment retries instead of failing.
    for attempt in range(50):
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 49:
                await conn.close()
                raise
            await asyncio.sleep(0.05)
    # FULL: in WAL mode NORMAL may lose the last commits on power loss; FULL costs ~nothing here.
    await conn.execute("PRAGMA synchronous = FULL")
    await conn.execute("PRAGMA foreign_keys = ON")
    db = Database(conn)
    try:
        await migrate(db)
    except Exception:
        await conn.close()
        raise
    return db


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer version of the bot than this one."""


LATEST = max(version for version, _sql in MIGRATIONS)


async def migrate(db: Database) -> list[int]:
    """Apply the migrations newer than the database; returns the versions applied.

    Each one re-reads the schema version inside its write transaction, so two processes
    starting together over a new database never apply the same migration twice. A database
    newer than this code is refused (SchemaTooNew): running old code on it could damage it.
    """
    current = await db.schema_version()
    if current > LATEST:
        raise SchemaTooNew(
            f"the database is at schema version {current}, this code knows up to {LATEST}: "
            "run the newer version of the bot (or restore a backup taken before the upgrade)"
        )
    applied = []
    for version, sql in MIGRATIONS:
        if version <= await db.schema_version():
            continue
        await db.conn.execute("BEGIN IMMEDIATE")
        try:
            if version <= await db.schema_version():  # another process got there first
                await db.conn.execute("COMMIT")
                continue
            for statement in _statements(sql):
                await db.conn.execute(statement)
            await db.conn.execute(f"PRAGMA user_version = {version}")
            await db.conn.execute("COMMIT")
        except Exception:
            await db.conn.execute("ROLLBACK")
            raise
        applied.append(version)
    return applied


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (triggers keep their BEGIN ... END bodies)."""
    out, buf = [], []
    depth = 0
    for line in sql.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("--"):
            continue
        buf.append(line)
        upper = stripped.upper()
        if upper.startswith("BEGIN") or " BEGIN " in f" {upper} ":
            depth += 1
        if upper.startswith("END") or upper.endswith(" END;"):
            depth -= 1
        if stripped.endswith(";") and depth <= 0:
            out.append("\n".join(buf))
            buf, depth = [], 0
    if buf:
        out.append("\n".join(buf))
    return out
