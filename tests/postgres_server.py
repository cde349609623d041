"""A real PostgreSQL server for the tests: initdb in a temporary folder, pg_ctl on a free loopback
port, one fresh database per test, stopped at the end of the session.

The server binaries come from the machine (Debian's ``postgresql`` package, which ``.ci/run``
installs where it is missing). Without them the PostgreSQL cases are skipped, unless
``REQUIRE_POSTGRES`` is set (CI): then they fail, so a missing server never passes unnoticed.
``TEST_DATABASE_URL`` points the tests at a server of one's own instead (a database the tests
may create databases on).
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One throw-away cluster; ``new_database()`` gives each test its own empty database."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable  # fsync on, as a host runs it (benchmarks); the tests need no durability
        self.folder: Path | None = None
        self.base_url = os.environ.get("TEST_DATABASE_URL", "")
        self._numbers = itertools.count(1)
        self._bin: Path | None = None
        self._as_postgres: list[str] = []

    def start(self) -> None:
        if self.base_url:
            return
        self._bin = _bin_dir()
        if self._bin is None:
            raise RuntimeError("no PostgreSQL server binaries (apt-get install postgresql)")
        self.folder = Path(tempfile.mkdtemp(prefix="carc-pg-"))
        if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres user
            shutil.chown(self.folder, "postgres", "postgres")
            self._as_postgres = ["runuser", "-u", "postgres", "--"]
        data = self.folder / "data"
        self._run("initdb", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "-D", str(data))
        port = _free_port()
        options = f"-k {self.folder} -h 127.0.0.1 -p {port} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off"
        self._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")
        self.base_url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        assert self._bin is not None
        subprocess.run([*self._as_postgres, str(self._bin / tool), *args], check=True, capture_output=True)

    def new_database(self, like: str | None = None) -> str:
        """A URL to a new database (created through the maintenance database): empty, or a copy of
        the database at URL ``like`` (PostgreSQL copies its files: fast, and nobody may be connected)."""
        name = f"carc_test_{os.getpid()}_{next(self._numbers)}"
        template = "template0" if like is None else '"' + like.rsplit("/", 1)[1] + '"'

        async def create() -> None:
            conn = await asyncpg.connect(self.base_url)
            try:
                await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE {template}')
            finally:
                await conn.close()

        # On a thread of its own: the caller may be a test already inside an event loop.
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, create()).result()
        return self.base_url.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
