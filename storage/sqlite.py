"""The embedded backend: one SQLite file, one connection, one thread.

Every transaction runs whole on the connection's own thread, in one round trip from the event
loop: the body's ``await tx.…`` calls complete at once there (each statement is a plain
``sqlite3`` call), so the body coroutine is driven to its end without an event loop. A single
worker thread also serialises the transactions, which SQLite's one connection needs. (aiosqlite
does the same per statement; it offers no public way to run a whole transaction on its thread.)

SQLite serves one bot process: WAL lets tools read while it runs, but the deadline clock's lease
(see ``service.clock``) is what keeps a second process from ticking too.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from storage.backend import Database, Row, Tx, integrity_errors, schema_too_new
from storage.migrations import MIGRATIONS

T = TypeVar("T")
LATEST = max(version for version, _sql in MIGRATIONS)


class SqliteTx(Tx):
    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        with integrity_errors(sqlite3.IntegrityError):
            return self.conn.execute(sql, args).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with integrity_errors(sqlite3.IntegrityError):
            self.conn.executemany(sql, rows)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return self.conn.execute(sql, args).fetchall()

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        with integrity_errors(sqlite3.IntegrityError):
            return int(self.conn.execute(sql, args).lastrowid)  # type: ignore[arg-type]

    async def lock(self, table: str, row_id: int) -> bool:
        # BEGIN IMMEDIATE already excludes every other writer; only the row's existence is news.
        return self.conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (row_id,)).fetchone() is not None


def _drive(coro: Coroutine[Any, Any, T]) -> T:
    """Run a transaction body that never suspends (its awaits are SqliteTx's) to its end."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("an SQLite transaction body awaited something other than its Tx")


class SqliteDatabase(Database):
    dialect = "sqlite"
    shared = False

    def __init__(self, path: str) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        self.conn: sqlite3.Connection | None = None
        # Held while the connection's thread uses it. data_version, called on the event loop's
        # thread, only reads when it is free: a statement stepped there while a transaction
        # begins here left that transaction on a stale snapshot, and BEGIN IMMEDIATE then fails
        # at once with "database is locked" (SQLITE_BUSY_SNAPSHOT: no busy handler is called).
        self._in_use = threading.Lock()

    async def _run(self, job: Callable[[], T]) -> T:
        # The caller's context goes along: the language a Conflict's message is written in.
        context = contextvars.copy_context()

        def exclusive() -> T:
            with self._in_use:
                return context.run(job)

        return await asyncio.get_running_loop().run_in_executor(self._thread, exclusive)

    async def open(self) -> None:
        self.conn = await self._run(self._connect)

    def _connect(self) -> sqlite3.Connection:
        # Explicit BEGIN/COMMIT (isolation_level None); check_same_thread=False lets data_version
        # read one pragma from the event loop's thread, never while this thread uses it (_in_use).
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5)
        conn.row_factory = sqlite3.Row
        # Switching a new file to WAL needs a lock SQLite does not wait for (no busy handler), so a
        # second process opening the same new file at the same moment retries instead of failing.
        for attempt in range(50):
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    conn.close()
                    raise
                time.sleep(0.05)
        # FULL: in WAL mode NORMAL may lose the last commits on power loss; FULL costs ~nothing here.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    async def transaction(self, body: Callable[[Tx], Awaitable[T]], write: bool = True) -> T:
        conn = self.conn
        assert conn is not None, "the database is not open"

        def job() -> T:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result: T = _drive(body(SqliteTx(conn)))  # type: ignore[arg-type]
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        return await self._run(job)

    def data_version(self) -> int | None:
        if self.conn is None or not self._in_use.acquire(blocking=False):
            return None  # the connection is busy on its thread: the caller asks the database
        try:
            return int(self.conn.execute("PRAGMA data_version").fetchall()[0][0])
        except sqlite3.Error:
            return None
        finally:
            self._in_use.release()

    async def schema_version(self) -> int:
        return await self._run(lambda: _user_version(self.conn))  # type: ignore[arg-type]

    async def migrate(self) -> list[int]:
        return await self._run(lambda: _migrate(self.conn))  # type: ignore[arg-type]

    async def close(self) -> None:
        if self.conn is not None:
            await self._run(self.conn.close)
            self.conn = None
        self._thread.shutdown(wait=True)

    async def backup_to(self, dest: str) -> None:
        """A consistent copy of the database while it is in use (SQLite's online backup)."""

        def job() -> None:
            target = sqlite3.connect(dest)
            try:
                self.conn.backup(target)  # type: ignore[union-attr]
            finally:
                target.close()

        await self._run(job)


def _user_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def _migrate(conn: sqlite3.Connection) -> list[int]:
    """Apply the migrations newer than the database; returns the versions applied.

    Each one re-reads the schema version inside its write transaction, so two processes
    starting together over a new database never apply the same migration twice. A database
    newer than this code is refused (SchemaTooNew): running old code on it could damage it.
    """
    current = _user_version(conn)
    if current > LATEST:
        raise schema_too_new(current, LATEST)
    applied = []
    for version, sql in MIGRATIONS:
        if version <= _user_version(conn):
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if version <= _user_version(conn):  # another process got there first
                conn.execute("COMMIT")
                continue
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except Exception:
            conn.execute("ROLLBACK")
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


async def open_sqlite(path: str | os.PathLike[str], migrate: bool = True) -> SqliteDatabase:
    path = str(path)
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = SqliteDatabase(path)
    await db.open()
    if migrate:
        try:
            await db.migrate()
        except Exception:
            await db.close()
            raise
    return db
