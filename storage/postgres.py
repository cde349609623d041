"""The shared backend: PostgreSQL through an asyncpg pool, for several bot processes at once.

Nothing here is cached across transactions: another process may write at any time. A write that
reads before it changes (a lobby's seats, a move's version, a season's number) first locks the row
it depends on (``Tx.lock``: ``SELECT ... FOR UPDATE``), so two processes doing it at once run one
after the other, each seeing the other's commit; unique keys catch the rest (a round opened twice,
a result recorded twice). Reads run at REPEATABLE READ, so a game's row, seats and log are one state.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from storage.backend import Database, Row, Tx, integrity_errors, schema_too_new
from storage.migrations import POSTGRES_MIGRATIONS

T = TypeVar("T")
LATEST = max(version for version, _sql in POSTGRES_MIGRATIONS)
# Any fixed number: the advisory lock that lets one process at a time migrate the schema.
_MIGRATION_LOCK = 0x6361_7263  # "carc"


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, …`` (the stores' SQL holds no literal ``?``)."""
    count = 0

    def number(_match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def _changed(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTx(Tx):
    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        with integrity_errors(asyncpg.IntegrityConstraintViolationError):
            return _changed(await self.conn.execute(numbered(sql), *args))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            with integrity_errors(asyncpg.IntegrityConstraintViolationError):
                await self.conn.executemany(numbered(sql), rows)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *args))

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        with integrity_errors(asyncpg.IntegrityConstraintViolationError):
            return int(await self.conn.fetchval(numbered(sql + " RETURNING id"), *args))

    async def lock(self, table: str, row_id: int) -> bool:
        return await self.conn.fetchval(f"SELECT 1 FROM {table} WHERE id = $1 FOR UPDATE", row_id) is not None


class PostgresDatabase(Database):
    dialect = "postgresql"
    shared = True

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:
        self.url = url
        self.pool = pool

    async def transaction(self, body: Callable[[Tx], Awaitable[T]], write: bool = True) -> T:
        async with self.pool.acquire() as conn:
            isolation = "read_committed" if write else "repeatable_read"
            async with conn.transaction(isolation=isolation, readonly=not write):
                return await body(PostgresTx(conn))

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        # One statement sees one state by itself: no BEGIN and COMMIT around it (two round trips).
        return list(await self.pool.fetch(numbered(sql), *args))

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await _schema_version(conn)

    async def migrate(self) -> list[int]:
        """Apply the migrations newer than the database, one process at a time (an advisory lock
        held for the transaction); each migration commits with its version."""
        applied = []
        async with self.pool.acquire() as conn:
            for version, sql in POSTGRES_MIGRATIONS:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    current = await _schema_version(conn)
                    if current > LATEST:
                        raise schema_too_new(current, LATEST)
                    if version <= current:
                        continue
                    await conn.execute(sql)
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
                applied.append(version)
        return applied

    async def close(self) -> None:
        await self.pool.close()


async def _schema_version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def open_postgres(url: str, migrate: bool = True) -> PostgresDatabase:
    """A pool over ``url`` (``DATABASE_POOL`` connections at most, 10 by default)."""
    size = int(os.environ.get("DATABASE_POOL", "10") or 10)
    pool = await asyncpg.create_pool(url, min_size=1, max_size=max(1, size))
    db = PostgresDatabase(url, pool)
    if migrate:
        try:
            await db.migrate()
        except Exception:
            await db.close()
            raise
    return db
