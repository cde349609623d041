"""Opening the database named by a URL: SQLite (the embedded default) or PostgreSQL.

``DATABASE_URL`` names it for every entry point: ``sqlite:///data/carcassonne.db`` (a path,
relative to the working folder; ``sqlite:////abs/path.db`` for an absolute one) or
``postgresql://user:password@host:port/dbname``. A bare path (no ``scheme://``) is an SQLite file;
any other scheme is refused (a mistyped ``mysql://`` or ``postgressql://`` must not become a
local file of that name). The older ``DATABASE_PATH`` is still read when ``DATABASE_URL`` is not
set.

SQLite serves one bot process per file: ``hold_sqlite_lock`` takes an OS lock on ``<file>.lock``
for the process's life, so a second process on the same file stops at start with one line
instead of dying later of "database is locked".
"""

from __future__ import annotations

import os
import re
from typing import IO

from storage.backend import Database, SchemaTooNew
from storage.migrations import MIGRATIONS, POSTGRES_MIGRATIONS

DEFAULT_PATH = "data/carcassonne.db"
LATEST = max(version for version, _sql in MIGRATIONS)
assert max(version for version, _sql in POSTGRES_MIGRATIONS) == LATEST, "each migration needs its PostgreSQL twin"
SCHEMES = ("sqlite:///", "postgresql://", "postgres://")

__all__ = [
    "Database", "SchemaTooNew", "LATEST", "UnknownDatabaseUrl", "SqliteInUse", "open_database", "database_url",
    "sqlite_path", "is_postgres", "check_url", "safe_url", "hold_sqlite_lock",
]  # fmt: skip


class UnknownDatabaseUrl(ValueError):
    """A database URL with a scheme this bot does not serve."""


class SqliteInUse(RuntimeError):
    """Another process holds this SQLite file."""


def database_url(explicit: str | os.PathLike[str] | None = None) -> str:
    """The database to use: ``explicit`` if given, else ``DATABASE_URL``, else ``DATABASE_PATH``,
    else the default SQLite file."""
    if explicit:
        return str(explicit)
    return os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH") or DEFAULT_PATH


def check_url(url: str) -> str:
    """``url`` itself when this bot can open it; raises ``UnknownDatabaseUrl`` (its message one
    line, the password masked) for any other ``scheme://``."""
    if url == ":memory:" or url.startswith(SCHEMES):
        return url
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]+):/", url)
    if scheme or url.startswith("sqlite:"):
        raise UnknownDatabaseUrl(
            f"DATABASE_URL {safe_url(url)!r}: unknown scheme {(scheme[1] if scheme else 'sqlite')!r}; "
            "use sqlite:///path/to/file.db or postgresql://user:password@host:5432/dbname"
        )
    return url


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """The file of an SQLite URL or bare path."""
    return url[len("sqlite:///") :] if url.startswith("sqlite:///") else url


def safe_url(url: str) -> str:
    """A database URL without its password, for every message and log line."""
    url = re.sub(r"(//[^:/@]*):[^@/]*@", r"\1:***@", url)
    return re.sub(r"(?i)(password=)[^&\s]*", r"\1***", url)


def hold_sqlite_lock(path: str) -> IO[bytes] | None:
    """Take the one-process lock of the SQLite file ``path`` (``<path>.lock``, an OS lock that
    lives as long as the returned file stays open, and dies with the process however it ends).
    Raises ``SqliteInUse`` when another process holds it; None where the OS has no such lock."""
    try:
        import fcntl
    except ImportError:  # not on a POSIX system: nothing to hold
        return None
    handle = open(f"{path}.lock", "a+b")  # noqa: SIM115  # held open for the process's life
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SqliteInUse(
            f"another bot process is running on {path}: SQLite serves one process; stop it first, "
            "or run several processes on PostgreSQL (DATABASE_URL=postgresql://...)"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n".encode())
    handle.flush()
    return handle


async def open_database(url: str | os.PathLike[str] | None = None, migrate: bool = True) -> Database:
    """Open (creating if needed) the database and bring its schema up to date (unless ``migrate``
    is False: then a tool reads the schema version itself)."""
    target = check_url(database_url(url))
    if is_postgres(target):
        from storage.postgres import open_postgres  # asyncpg is needed only here

        return await open_postgres(target, migrate)
    from storage.sqlite import open_sqlite

    return await open_sqlite(sqlite_path(target), migrate)
