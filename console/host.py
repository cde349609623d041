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
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine.record import public_record
from storage.database import SchemaTooNew, SqliteInUse, UnknownDatabaseUrl, is_postgres, safe_url, sqlite_path

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


def counted(n: int, one: str, many: str) -> str:
    """``one`` or ``many`` for ``n`` ("1 game", "2 games"). The host's kit speaks English only:
    its words stay out of the players' catalogues."""
    return (one if n == 1 else many).format(n=n)


# ---------------------------------------------------------------------- one-line failures
class HostError(Exception):
    """A failure a host fixes by hand: its message is the one line to print (exit status 2)."""


def fail(message: str) -> int:
    """Print a host-facing failure as one line on stderr (a JSON object when LOG_FORMAT=json, so
    the log stays parseable), and return the exit status 2."""
    line = " ".join(message.split())  # one line, whatever a driver put in its message
    if os.environ.get("LOG_FORMAT", "text").strip().lower() == "json":
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        line = json.dumps({"time": now, "level": "CRITICAL", "logger": "bot", "message": line}, ensure_ascii=False)
    print(line, file=sys.stderr)
    return 2


def explain(exc: BaseException, url: str) -> str | None:
    """The one line a host needs for a failure to open or write the database ``url`` (the password
    masked), or None when ``exc`` is not one of those (a bug: its traceback is wanted)."""
    where = safe_url(url)
    if isinstance(exc, UnknownDatabaseUrl | SqliteInUse | HostError):
        return str(exc)
    if isinstance(exc, SchemaTooNew):
        return f"refused: {exc}"
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - a requirement
        asyncpg = None
    if asyncpg is not None and is_postgres(url):
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        user, name = parts.username or "(default user)", parts.path.lstrip("/") or "(default database)"
        if isinstance(exc, asyncpg.InvalidPasswordError):
            return f"PostgreSQL refused the password of user {user!r} ({where}): check DATABASE_URL"
        if isinstance(exc, asyncpg.InvalidCatalogNameError):
            return f"PostgreSQL has no database {name!r} ({where}): create it (createdb -O {user} {name})"
        if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
            return f"PostgreSQL refused user {user!r} ({where}): {exc}; create the role or fix DATABASE_URL"
        if isinstance(exc, asyncpg.InsufficientPrivilegeError):
            return f"PostgreSQL user {user!r} may not do that ({where}): {exc}"
        if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
            return f"PostgreSQL at {where}: {exc}"
        if isinstance(exc, OSError | asyncio.TimeoutError):
            host = parts.hostname or "localhost"
            why = "timed out" if not isinstance(exc, OSError) else (
                "connection refused" if isinstance(exc, ConnectionRefusedError) else exc.strerror or str(exc)
            )
            return (
                f"cannot reach PostgreSQL at {host}:{parts.port or 5432} ({why}): "
                "is the server running, and is DATABASE_URL's host right?"
            )
        return None
    path = sqlite_path(url)
    if isinstance(exc, PermissionError) or (
        isinstance(exc, OSError | sqlite3.OperationalError)
        and any(word in str(exc).lower() for word in ("read-only", "readonly", "unable to open", "permission"))
    ):
        folder = Path(path).parent
        return (
            f"cannot write the SQLite database {path} ({exc}): make its folder {folder}/ writable by this user, "
            "or choose a writable place (DATABASE_URL; --db or --out for the demo and the terminal)"
        )
    if isinstance(exc, sqlite3.DatabaseError):
        return f"the SQLite database {path} cannot be used: {exc}"
    return None


async def check_database(url: str) -> None:
    """Open the database ``url`` names and bring its schema up to date, before anything connects
    to Discord; raises ``HostError`` with the one line to print."""
    from storage.database import open_database

    try:
        db = await open_database(url)
    except Exception as exc:
        line = explain(exc, url)
        if line is None:
            raise
        raise HostError(line) from exc
    await db.close()


# ---------------------------------------------------------------------- settings read at start
def setting_number(name: str, default: int | None, low: int = 0, high: int = 10**9) -> int | None:
    """The whole number in the environment's ``name`` (``default`` when unset); raises
    ``HostError`` for anything else, rather than falling back silently."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdecimal()) or not low <= int(text) <= high:
        raise HostError(f"{name}={text!r} is not a whole number from {low} to {high}: fix it in .env")
    return int(text)


def metrics_port(shards: list[int] | None) -> int | None:
    """This process's metrics port: ``METRICS_PORT`` (unset: no metrics) plus its first shard id
    when it runs some shards (so N processes on one machine take N ports), checked free on
    ``METRICS_HOST`` before the bot logs in."""
    import socket

    base = setting_number("METRICS_PORT", None, low=1, high=65535)
    if base is None:
        return None
    port = base + (shards[0] if shards else 0)
    if port > 65535:
        raise HostError(f"METRICS_PORT {base} + shard {port - base} is past 65535: choose a lower METRICS_PORT")
    address = os.environ.get("METRICS_HOST", "127.0.0.1").strip() or "127.0.0.1"
    try:
        infos = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as probe:
            probe.bind(infos[0][4])
    except OSError as exc:
        raise HostError(
            f"cannot serve metrics on {address}:{port} ({exc.strerror or exc}): another process has the port, "
            "or METRICS_HOST is not an address of this machine; set METRICS_PORT (or METRICS_HOST) in .env"
        ) from exc
    return port


class CommandSync:
    """Whether this start registers the slash commands with Discord, and the note that it did.

    ``SYNC_COMMANDS``: ``auto`` (the default) syncs when the command tree differs from the one
    this host last synced (its SHA-256 kept in ``commands.sha256``, in ``STATE_DIR``, else beside
    the SQLite database, else in ``data/``): the first start and the first start after an upgrade
    that changed the commands sync, other starts do not (Discord rate-limits syncing, and a
    global sync takes a while to reach every client). ``always`` syncs at every start, ``never``
    never; ``--sync`` syncs this once. Of several processes, only the ``leader`` (the one running
    shard 0) syncs by itself."""

    def __init__(self, url: str, forced: bool = False, leader: bool = True) -> None:
        mode = os.environ.get("SYNC_COMMANDS", "auto").strip().lower() or "auto"
        aliases = {"1": "always", "true": "always", "yes": "always", "0": "never", "false": "never", "no": "never"}
        mode = aliases.get(mode, mode)
        if mode not in ("auto", "always", "never"):
            raise HostError(f"SYNC_COMMANDS={mode!r}: use auto (the default), always or never")
        folder = os.environ.get("STATE_DIR", "").strip()
        if not folder:
            folder = "data" if is_postgres(url) or url == ":memory:" else str(Path(sqlite_path(url)).parent)
        self.file = Path(folder) / "commands.sha256"
        self.digest = tree_digest()
        try:
            synced = self.file.read_text().strip()
        except OSError:
            synced = ""
        changed = mode == "always" or (mode == "auto" and synced != self.digest)
        self.wanted = forced or (leader and changed)

    def done(self) -> None:
        """The commands were synced: remember which tree (a failure to write only costs a sync)."""
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            partial = self.file.with_suffix(".tmp")
            partial.write_text(self.digest + "\n")
            partial.replace(self.file)
        except OSError as exc:
            logging.getLogger(__name__).warning("cannot note the synced commands in %s: %s", self.file, exc)


def tree_digest() -> str:
    """SHA-256 of the slash command tree as Discord receives it (names, options, translations)."""
    import hashlib

    from cogs.bot import command_tree

    payload = json.dumps(asyncio.run(command_tree()), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


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
    """Apply the schema migrations to the database ``path`` names (an SQLite file or a URL),
    creating it when it does not exist yet (on SQLite as on PostgreSQL)."""
    from storage.database import open_database

    where = safe_url(path)
    try:
        db = await open_database(path, migrate=False)
        try:
            before = await db.schema_version()
            applied = await db.migrate()
        finally:
            await db.close()
    except Exception as exc:
        line = explain(exc, path)
        if line is None:
            raise
        return fail(line)
    if applied:
        print(f"{where}: schema {before} -> {applied[-1]} (applied {', '.join(map(str, applied))})")
    else:
        print(f"{where}: schema {before}, already current")
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
        out(f"no database at {safe_url(source)}")
        return 2
    try:
        src = await open_database(source)
    except Exception as exc:
        out(explain(exc, source) or f"cannot open {safe_url(source)}: {exc}")
        return 2
    try:
        dst = await open_database(target)
    except Exception as exc:
        await src.close()
        out(explain(exc, target) or f"cannot open {safe_url(target)}: {exc}")
        return 2
    try:
        already = await count_rows(dst)  # a second run says what it added
        counts = await copy_database(src, dst)
        theirs = await count_rows(dst)
        out("copied: " + ", ".join(
            f"{n} {table}" + (f" ({theirs[table] - already[table]} new)" if theirs[table] - already[table] != n else "")
            for table, n in counts.items() if n
        ))  # fmt: skip
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
        return fail(f"{dest} exists: give a new file name")
    if is_postgres(source):  # pg_dump's custom format: consistent while the bots write
        return _postgres_tool("pg_dump", ["--format=custom", "--file", dest, source], f"backed up to {dest}")
    source = sqlite_path(source)
    if not Path(source).exists():
        return fail(f"no database at {source}")
    try:
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        src = sqlite3.connect(source, timeout=30)
        out = sqlite3.connect(dest)
    except (OSError, sqlite3.Error) as exc:
        return fail(f"cannot write the backup {dest} ({exc}): choose a writable folder")
    try:
        with out:
            src.backup(out)  # page by page, under SQLite's own locking: every committed move is in
        # A backup is one file: no write-ahead log beside it when it is read or restored.
        out.execute("PRAGMA journal_mode=DELETE")
        games = out.execute("SELECT count(*) FROM games").fetchone()[0]
        moves = out.execute("SELECT count(*) FROM moves").fetchone()[0]
    except sqlite3.Error as exc:
        return fail(f"the backup of {source} into {dest} failed: {exc}")
    finally:
        out.close()
        src.close()
    print(f"backed up {source} to {dest}: {counted(games, '{n} game', '{n} games')}, "
          f"{counted(moves, '{n} move', '{n} moves')}")  # fmt: skip
    return 0


def _held_by_a_process(path: str) -> bool:
    """Whether a running bot process holds the SQLite file ``path`` (its one-process lock)."""
    from storage.database import hold_sqlite_lock

    if not Path(f"{path}.lock").exists():
        return False
    try:
        handle = hold_sqlite_lock(path)
    except SqliteInUse:
        return True
    except OSError:
        return False
    if handle is not None:
        handle.close()
    return False


def restore(source: str, dest: str, force: bool = False, now: datetime | None = None) -> int:
    """Put a backup in place of the database; refuses while a bot uses it, unless ``force`` (which
    overrides a recent clock beat, never a bot process still holding the SQLite file)."""
    if is_postgres(dest):
        try:
            beat = asyncio.run(_health_reads(dest))[2]
        except Exception:  # an empty or unreadable database: no bot runs on it
            beat = None
        if beat is not None and (now or datetime.now(UTC)) - beat < ALIVE and not force:
            print(f"a bot is running on {safe_url(dest)}: stop every process first, or pass --force", file=sys.stderr)
            return 1
        args = ["--clean", "--if-exists", "--no-owner", "--single-transaction", "--dbname", dest, source]
        return _postgres_tool("pg_restore", args, f"restored {safe_url(dest)} from {source}")
    dest = sqlite_path(dest)
    if not Path(source).exists():
        return fail(f"no backup at {source}")
    try:
        # immutable: reading the backup leaves no -wal or -shm file beside it
        check = sqlite3.connect(f"file:{source}?mode=ro&immutable=1", uri=True)
        ok = check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        check.execute("SELECT count(*) FROM games").fetchone()
        check.close()
    except sqlite3.Error as exc:
        return fail(f"{source} is not a readable backup: {exc}")
    if not ok:
        return fail(f"{source} fails SQLite's integrity check")
    if _held_by_a_process(dest):
        return fail(f"a bot process is running on {dest} (it holds {dest}.lock): stop it first, then restore")
    beat = _heartbeat(dest) if Path(dest).exists() else None
    if beat is not None and (now or datetime.now(UTC)) - beat < ALIVE and not force:
        print(
            f"a bot is running on {dest} (its clock beat at {beat:%H:%M:%S} UTC): stop it first, "
            "or pass --force to replace the database under it",
            file=sys.stderr,
        )
        return 1
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro&immutable=1", uri=True)
        out = sqlite3.connect(dest, timeout=30)
    except sqlite3.Error as exc:
        return fail(f"cannot write {dest} ({exc}): make its folder writable")
    try:
        with out:
            src.backup(out)
        out.execute("PRAGMA journal_mode=WAL")  # the bot's own mode, whatever the backup's
    except sqlite3.Error as exc:
        return fail(f"the restore of {dest} from {source} failed: {exc}")
    finally:
        out.close()
        src.close()
    print(f"restored {dest} from {source}")
    return 0


def _postgres_tool(name: str, args: list[str], done: str) -> int:
    """Run PostgreSQL's own ``pg_dump`` or ``pg_restore`` (the newest on this machine)."""
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if found is None:
        return fail(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    run = subprocess.run([found, *args], capture_output=True, text=True)
    if run.returncode != 0:
        said = run.stderr.strip().splitlines()
        fail(f"{name} failed: {safe_url(said[-1] if said else f'exit {run.returncode}')}")
        return 1
    print(done)
    return 0


# ---------------------------------------------------------------------- health
async def health(path: str, now: datetime | None = None, here: bool = False) -> tuple[int, list[str]]:
    """(0 healthy | 1 not, one line per check): the database opens and answers, its schema is
    current, a bot's deadline clock beat within the last minute, and every bot process that
    ticked (``here``: every one on this machine, a container's own) has its worker processes alive."""
    from storage.database import LATEST

    lines: list[str] = []
    healthy = True
    if not is_postgres(path) and not Path(sqlite_path(path)).exists():
        return 1, [f"database: none at {path} (python bot.py migrate creates it)"]
    try:
        version, active, beat, processes = await _health_reads(path)
    except Exception as exc:  # whatever the driver says: the database does not answer
        return 1, ["database: " + " ".join((explain(exc, path) or str(exc)).split())]
    if version == 0:
        return 1, [f"database: empty, no schema yet at {safe_url(path)} (python bot.py migrate creates it)"]
    lines.append(counted(active, "database: ok ({n} active game)", "database: ok ({n} active games)"))
    if version == LATEST:
        lines.append(f"schema: current ({version})")
    elif version > LATEST:
        healthy = False
        lines.append(f"schema: {version}, newer than this code's {LATEST} (run the newer version of the bot)")
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
        if here and not instance.startswith(f"{socket.gethostname()[:40]}-"):
            continue  # another machine's (another container's) process: its own check judges it
        size, alive = int(info.get("workers", 0) or 0), int(info.get("workers_alive", 0) or 0)
        restarts = int(info.get("worker_restarts", 0) or 0)
        note = counted(restarts, ", the pool restarted once", ", the pool restarted {n} times")
        note = note if restarts else ""
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
        if version == 0:  # nothing to read yet
            return 0, 0, None, []
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
    handler.addFilter(_no_voice_warning)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def _no_voice_warning(record: logging.LogRecord) -> bool:
    """The bot has no voice: discord.py's warnings that PyNaCl or davey (voice libraries) are
    missing say nothing to its host."""
    return not (record.name.startswith("discord") and "voice will NOT be supported" in record.getMessage())
