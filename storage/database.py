"""Opening the database named by a URL: SQLite (the embedded default) or PostgreSQL.

``DATABASE_URL`` names it for every entry point: ``sqlite:///data/carcassonne.db`` (a path,
relative to the working folder; ``sqlite:////abs/path.db`` for an absolute one) or
``postgresql://user:password@host:port/dbname``. A bare path is an SQLite file; the older
``DATABASE_PATH`` is still read when ``DATABASE_URL`` is not set.
"""

from __future__ import annotations

import os

from storage.backend import Database, SchemaTooNew
from storage.migrations import MIGRATIONS, POSTGRES_MIGRATIONS

DEFAULT_PATH = "data/carcassonne.db"
LATEST = max(version for version, _sql in MIGRATIONS)
assert max(version for version, _sql in POSTGRES_MIGRATIONS) == LATEST, "each migration needs its PostgreSQL twin"

__all__ = ["Database", "SchemaTooNew", "LATEST", "open_database", "database_url", "sqlite_path", "is_postgres"]


def database_url(explicit: str | os.PathLike[str] | None = None) -> str:
    """The database to use: ``explicit`` if given, else ``DATABASE_URL``, else ``DATABASE_PATH``,
    else the default SQLite file."""
    if explicit:
        return str(explicit)
    return os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH") or DEFAULT_PATH


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """The file of an SQLite URL or bare path."""
    return url[len("sqlite:///") :] if url.startswith("sqlite:///") else url


async def open_database(url: str | os.PathLike[str] | None = None, migrate: bool = True) -> Database:
    """Open (creating if needed) the database and bring its schema up to date (unless ``migrate``
    is False: then a tool reads the schema version itself)."""
    target = database_url(url)
    if is_postgres(target):
        from storage.postgres import open_postgres  # asyncpg is needed only here

        return await open_postgres(target, migrate)
    from storage.sqlite import open_sqlite

    return await open_sqlite(sqlite_path(target), migrate)
