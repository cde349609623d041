"""The seam between the stores and a database driver: a transaction's statements, one dialect of SQL.

``Store`` and ``LeagueStore`` write their SQL once, with ``?`` placeholders and the subset of SQL
that SQLite and PostgreSQL share (``INSERT ... ON CONFLICT``, ``RETURNING``-free inserts through
``Tx.insert``). A backend runs a transaction *body* — an ``async def body(tx)`` — and gives it a
``Tx``; what differs between the engines stays in the backend:

- SQLite (``storage.sqlite``) runs the whole body on its connection's thread in one round trip;
- PostgreSQL (``storage.postgres``) runs it on a pooled asyncpg connection, rows locked with
  ``Tx.lock`` so that several processes over one database serialise on the rows they change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
Row = Any  # sqlite3.Row or asyncpg.Record: both read by column name and by position


class IntegrityError(Exception):
    """A constraint refused a write (a unique key taken, an append-only table touched), whatever
    the driver: the stores turn it into Conflict where it means "someone got there first"."""


@contextmanager
def integrity_errors(*driver_errors: type[BaseException]) -> Iterator[None]:
    """Raise the driver's constraint errors as ``IntegrityError``."""
    try:
        yield
    except driver_errors as exc:
        raise IntegrityError(str(exc)) from exc


class Tx(ABC):
    """The statements of one transaction (SQL with ``?`` placeholders)."""

    dialect: str  # "sqlite" | "postgresql"

    @abstractmethod
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchrow(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(sql, args)
        return rows[0] if rows else None

    @abstractmethod
    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run an INSERT into a table with an ``id`` key; returns the new row's id."""

    @abstractmethod
    async def lock(self, table: str, row_id: int) -> bool:
        """Hold the row ``table.id = row_id`` until the transaction ends, so that another process's
        read-modify-write of it waits; False when there is no such row."""


class Database(ABC):
    """One database: transactions, its schema version, and what tells a process that another
    one changed it."""

    dialect: str
    url: str
    #: several processes may share it (PostgreSQL): caches are checked against the stored version,
    #: the clock claims each due game, and no process assumes it is alone.
    shared: bool

    @abstractmethod
    async def transaction(self, body: Callable[[Tx], Awaitable[T]], write: bool = True) -> T:
        """Run ``body(tx)`` in one transaction: committed when it returns, rolled back when it
        raises. A write transaction excludes other writers of the rows it locks (SQLite: of the
        whole database); a read sees one consistent state."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self) -> list[int]:
        """Apply the migrations newer than the database (one process at a time); returns the
        versions applied. Raises SchemaTooNew for a database newer than this code."""

    def data_version(self) -> int | None:
        """A number that changes when another connection commits, read without a round trip;
        None when the backend has none (the caller then asks the database)."""
        return None

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """One statement in its own write transaction (host tools and tests reaching below the
        stores; the stores themselves use ``transaction``)."""

        async def body(tx: Tx) -> int:
            return await tx.execute(sql, args)

        return await self.transaction(body)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """One query in its own read transaction."""

        async def body(tx: Tx) -> list[Row]:
            return await tx.fetch(sql, args)

        return await self.transaction(body, write=False)


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer version of the bot than this one."""


def schema_too_new(current: int, latest: int) -> SchemaTooNew:
    return SchemaTooNew(
        f"the database is at schema version {current}, this code knows up to {latest}: "
        "run the newer version of the bot (or restore a backup taken before the upgrade)"
    )
