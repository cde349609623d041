"""The host's kit: ``python bot.py invite | migrate | backup | restore | health``, and the logs.

Everything here works on the database file (SQLite, the embedded default) while the bot runs:
a backup is a consistent copy made with SQLite's online backup API (copying a WAL database's
file is not safe); a restore refuses to replace a database a running bot is using (its clock
beat within the last minute) unless forced; ``health`` is what a container's or a service
manager's health check runs.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import glob
import json
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine.record import public_record
from storage.database import is_postgres, sqlite_path

# What the bot needs where it plays (README: "Running the Discord bot").
PERMISSIONS = {
    "send_messages": True,
    "create_public_threads": True,
    "send_messages_in_threads": True,
    "attach_files": True,
    "embed_links": True,
    "read_message_history": True,
}
ALIVE = timedelta(minutes=1)  # a clock heartbeat this recent means a bot is running on the database


# ---------------------------------------------------------------------- invite
def application_id(token: str | None, configured: str | None) -> int | None:
    """The application id: APPLICATION_ID, or the first part of a bot token (the bot's user id,
    which is its application's id, base64-encoded)."""
    if configured and configured.strip().isdigit():
        return int(configured.strip())
    if not token or "." not in token:
        return None
    head = token.split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def invite(token: str | None, configured: str | None) -> tuple[int, str]:
    """(exit status, what to print): the invite URL with the exact permissions integer."""
    import discord

    app = application_id(token, configured)
    permissions = discord.Permissions(**PERMISSIONS)
    if app is None:
        return 2, (
            "set APPLICATION_ID (the developer portal's General Information page) or DISCORD_TOKEN in .env; "
            f"the bot needs the permissions integer {permissions.value}"
        )
    url = discord.utils.oauth_url(app, permissions=permissions, scopes=("bot", "applications.commands"))
    return 0, f"{url}\npermissions integer: {permissions.value} ({', '.join(PERMISSIONS)})"


# ---------------------------------------------------------------------- migrate
async def migrate(path: str) -> int:
    """Apply the schema migrations to the database ``path`` names (an SQLite file or a URL)."""
    from storage.database import LATEST, SchemaTooNew, open_database

    if not is_postgres(path) and path != ":memory:" and not Path(sqlite_path(path)).exists():
        print(f"no database at {path}: the bot creates it (at schema {LATEST}) on its first start")
        return 0
    db = await open_database(path, migrate=False)
    try:
        before = await db.schema_version()
        try:
            applied = await db.migrate()
        except SchemaTooNew as exc:
            print(f"refused: {exc}", file=sys.stderr)
            return 1
    finally:
        await db.close()
    if applied:
        print(f"{path}: schema {before} -> {applied[-1]} (applied {', '.join(map(str, applied))})")
    else:
        print(f"{path}: schema {before}, already current")
    return 0


# ---------------------------------------------------------------------- moving to PostgreSQL
async def migrate_db(source: str, target: str, out: Callable[[str], None] = print) -> int:
    """Copy the database ``source`` names into ``target`` (SQLite to PostgreSQL, usually) and check
    the copy: the same rows per table, and every started game replayed on both sides to the same
    moves, scores and record. Safe to run twice (again after the bot played on: it catches up)."""
    from service import Caller, GameService, ServiceError
    from storage import Store, open_database
    from storage.copy import copy_database, count_rows

    if source == target:
        out("the source and the target are the same database")
        return 2
    if not is_postgres(source) and not Path(sqlite_path(source)).exists():
        out(f"no database at {source}")
        return 2
    src = await open_database(source)
    try:
        dst = await open_database(target)
    except Exception:
        await src.close()
        raise
    try:
        counts = await copy_database(src, dst)
        out("copied: " + ", ".join(f"{n} {table}" for table, n in counts.items() if n))
        theirs = await count_rows(dst)
        differ = [f"{t}: {n} here, {theirs[t]} there" for t, n in counts.items() if theirs[t] != n]
        if differ:
            out("the target holds other rows too (was it empty?): " + "; ".join(differ))
            return 1
        before, after = GameService(Store(src)), GameService(Store(dst))
        checked = damaged = 0
        for game_id in await before.store.game_ids(status="active") + await before.store.game_ids(status="finished"):
            row = await before.store.get_game(game_id)
            who = Caller.system(row.guild_id)
            try:
                _row, game = await before.game(who, game_id)
            except ServiceError:  # damaged in the source too: copied as it is, nothing to compare
                damaged += 1
                continue
            _row2, copied = await after.game(who, game_id)
            if (copied.moves, copied.scores, public_record(copied)) != (game.moves, game.scores, public_record(game)):
                out(f"game #{game_id} replays differently in the copy")
                return 1
            checked += 1
        note = f" ({damaged} damaged in the source, copied as they are)" if damaged else ""
        out(f"verified: {checked} games replay the same on both sides{note}")
        return 0
    finally:
        await src.close()
        await dst.close()


# ---------------------------------------------------------------------- backup and restore
def _heartbeat(path: str) -> datetime | None:
    """When a bot's deadline clock last beat on this database (None: never, or not readable)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT heartbeat FROM clock_lease WHERE id = 1").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    try:
        beat = datetime.fromisoformat(row[0]) if row else None
    except (TypeError, ValueError):
        return None
    return beat if beat is not None and beat.tzinfo is not None else None


def backup(source: str, dest: str) -> int:
    """A consistent copy of the database, safe while the bot writes to it."""
    if Path(dest).exists():
        print(f"{dest} exists: give a new file name", file=sys.stderr)
        return 2
    if is_postgres(source):  # pg_dump's custom format: consistent while the bots write
        return _postgres_tool("pg_dump", ["--format=custom", "--file", dest, source], f"backed up to {dest}")
    source = sqlite_path(source)
    if not Path(source).exists():
        print(f"no database at {source}", file=sys.stderr)
        return 2
    Path(dest).parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(source, timeout=30)
    out = sqlite3.connect(dest)
    try:
        with out:
            src.backup(out)  # page by page, under SQLite's own locking: every committed move is in
        games = out.execute("SELECT count(*) FROM games").fetchone()[0]
        moves = out.execute("SELECT count(*) FROM moves").fetchone()[0]
    finally:
        out.close()
        src.close()
    print(f"backed up {source} to {dest}: {games} games, {moves} moves")
    return 0


def restore(source: str, dest: str, force: bool = False, now: datetime | None = None) -> int:
    """Put a backup in place of the database; refuses while a bot uses it, unless ``force``."""
    if is_postgres(dest):
        try:
            beat = asyncio.run(_health_reads(dest))[2]
        except Exception:  # an empty or unreadable database: no bot runs on it
            beat = None
        if beat is not None and (now or datetime.now(UTC)) - beat < ALIVE and not force:
            print(f"a bot is running on {_safe_url(dest)}: stop every process first, or pass --force", file=sys.stderr)
            return 1
        args = ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--dbname", dest, source]
        return _postgres_tool("pg_restore", args, f"restored {_safe_url(dest)} from {source}")
    dest = sqlite_path(dest)
    if not Path(source).exists():
        print(f"no backup at {source}", file=sys.stderr)
        return 2
    try:
        check = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        ok = check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        check.execute("SELECT count(*) FROM games").fetchone()
        check.close()
    except sqlite3.Error as exc:
        print(f"{source} is not a readable backup: {exc}", file=sys.stderr)
        return 2
    if not ok:
        print(f"{source} fails SQLite's integrity check", file=sys.stderr)
        return 2
    beat = _heartbeat(dest) if Path(dest).exists() else None
    if beat is not None and (now or datetime.now(UTC)) - beat < ALIVE and not force:
        print(
            f"a bot is running on {dest} (its clock beat at {beat:%H:%M:%S} UTC): stop it first, "
            "or pass --force to replace the database under it",
            file=sys.stderr,
        )
        return 1
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    out = sqlite3.connect(dest, timeout=30)
    try:
        with out:
            src.backup(out)
    finally:
        out.close()
        src.close()
    print(f"restored {dest} from {source}")
    return 0


def _postgres_tool(name: str, args: list[str], done: str) -> int:
    """Run PostgreSQL's own ``pg_dump`` or ``pg_restore`` (the newest on this machine)."""
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        print(f"{name} is not installed (Debian: apt-get install postgresql-client)", file=sys.stderr)
        return 2
    run = subprocess.run([found, *args], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"{name} failed: {run.stderr.strip()[-2000:]}", file=sys.stderr)
        return 1
    print(done)
    return 0


def _safe_url(url: str) -> str:
    """A database URL without its password, for messages."""
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)


# ---------------------------------------------------------------------- health
async def health(path: str, now: datetime | None = None) -> tuple[int, list[str]]:
    """(0 healthy | 1 not, one line per check): the database opens and answers, its schema is
    current, a bot's deadline clock beat within the last minute, and every bot process that
    ticked has its worker processes alive."""
    from storage.database import LATEST

    lines: list[str] = []
    healthy = True
    if not is_postgres(path) and not Path(sqlite_path(path)).exists():
        return 1, [f"database: none at {path}"]
    try:
        version, active, beat, processes = await _health_reads(path)
        lines.append(f"database: ok ({active} active games)")
    except Exception as exc:  # whatever the driver says: the database does not answer
        return 1, [f"database: {exc}"]
    if version == LATEST:
        lines.append(f"schema: current ({version})")
    else:
        healthy = False
        lines.append(f"schema: {version}, the code expects {LATEST} (python bot.py migrate)")
    now = now or datetime.now(UTC)
    age = now - beat if beat is not None else None
    if age is not None and age < ALIVE:
        lines.append(f"clock: ticking (last beat {int(age.total_seconds())} s ago)")
    else:
        healthy = False
        lines.append("clock: not ticking (no bot has beaten its clock in the last minute)")
    for instance, when, info in processes:
        if when is None or now - when >= ALIVE:
            continue  # a process that stopped (or restarted under another id)
        size, alive = int(info.get("workers", 0) or 0), int(info.get("workers_alive", 0) or 0)
        restarts = int(info.get("worker_restarts", 0) or 0)
        note = f", the pool restarted {restarts} times" if restarts else ""
        lines.append(f"process {instance}: ticking, workers {alive}/{size} alive{note}")
        if alive < size:
            healthy = False
    return (0 if healthy else 1), lines


async def _health_reads(url: str) -> tuple[int, int, datetime | None, list[tuple[str, datetime | None, dict]]]:
    """(schema version, active games, the clock's last beat, what each bot process last said)."""
    from storage import Store
    from storage.database import open_database

    db = await open_database(url, migrate=False)
    try:
        version = await db.schema_version()
        active = (await db.fetch("SELECT count(*) FROM games WHERE status = 'active'"))[0][0]
        rows = await db.fetch("SELECT heartbeat FROM clock_lease WHERE id = 1")
        processes = await Store(db).instances() if version >= 10 else []
    finally:
        await db.close()
    try:
        beat = datetime.fromisoformat(rows[0][0]) if rows else None
    except (TypeError, ValueError):
        beat = None
    return version, active, beat if beat is not None and beat.tzinfo is not None else None, processes


# ---------------------------------------------------------------------- logs
class JsonLines(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the game's id when a record
    carries one (``log.info(..., extra={"game": id})``) or names one ("game #12", "game 12")."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        game = getattr(record, "game", None)
        if game is None:
            game = _game_in(out["message"])
        if game is not None:
            out["game"] = game
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def _game_in(message: str) -> int | None:
    found = re.search(r"\bgame #?(\d{1,18})\b", message)
    return int(found[1]) if found else None


def setup_logging() -> None:
    """LOG_LEVEL (INFO) and LOG_FORMAT (text, or json: one object per line) from the environment."""
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    handler = logging.StreamHandler()
    if os.environ.get("LOG_FORMAT", "text").strip().lower() == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
