"""Entry point.

python bot.py              run the Discord bot (needs DISCORD_TOKEN in .env); it checks its settings, the
                           database and the metrics port first (each failure one line, exit 2) and
                           registers the slash commands when they changed (SYNC_COMMANDS; --sync forces it)
python bot.py --shards 0-1 --shard-count 4
                           run shards 0 and 1 of 4 (the other processes run the rest; PostgreSQL)
python bot.py demo ...     computer players play a whole game offline (pictures, record, replay)
python bot.py play ...     a game in the terminal, humans and computers
python bot.py commands     the slash command tree as JSON
python bot.py invite       the invite URL with the permissions the bot needs
python bot.py migrate      apply the database's schema migrations (start-up does it too)
python bot.py migrate-db --to postgresql://...
                           copy the SQLite database into PostgreSQL and verify every game
python bot.py backup DEST  a consistent copy of the database, while the bot runs
python bot.py restore SRC  put a backup back (refused while a bot runs on the database, unless --force)
python bot.py health       exit 0 when the database answers, its schema is current and the clock ticks
                           (--here: only this machine's bot processes are judged, a container's own)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path

from locales import LANGUAGES
from storage.database import (
    SqliteInUse,
    UnknownDatabaseUrl,
    check_url,
    database_url,
    hold_sqlite_lock,
    is_postgres,
    sqlite_path,
)


def _load_env() -> None:
    try:
        from dotenv import load_dotenv
    except ImportError:  # the demo and the console run without it
        return
    load_dotenv()


def _sets(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def shard_ids(text: str) -> list[int]:
    """``0-3`` or ``0,2,5`` (ranges and single ids, comma-separated) as a sorted list of shard ids."""
    ids: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        first, _, last = part.partition("-")
        if not first.isdecimal() or (last and not last.isdecimal()):
            raise argparse.ArgumentTypeError(f"{part!r} is not a shard id or range (0-3, 0,2)")
        ids.update(range(int(first), int(last or first) + 1))
    if not ids:
        raise argparse.ArgumentTypeError("no shard id given")
    return sorted(ids)


def run_bot(sync: bool, shards: list[int] | None = None, shard_count: int | None = None) -> int:
    """Check everything that can be checked here (settings, the database, the metrics port) before
    logging in to Discord, each failure one line and exit 2; then run the bot."""
    from console import host

    if shards is not None or shard_count is not None:
        if shards is None or shard_count is None:
            return host.fail("--shards and --shard-count go together (e.g. --shards 0-1 --shard-count 4)")
        if shards[-1] >= shard_count:
            return host.fail(f"shard {shards[-1]} does not exist: ids run from 0 to {shard_count - 1}")
    try:
        url = check_url(database_url())
    except UnknownDatabaseUrl as exc:
        return host.fail(str(exc))
    if shards is not None and shard_count is not None and not is_postgres(url) and len(shards) < shard_count:
        return host.fail(
            "several bot processes need a shared database: set DATABASE_URL to a PostgreSQL server "
            "(SQLite serves one process, which then runs every shard)"
        )
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        return host.fail(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there "
            "(or export DISCORD_TOKEN). `python bot.py demo` runs without Discord."
        )
    if host.application_id(token, None) is None or token.count(".") != 2:
        return host.fail(
            "DISCORD_TOKEN does not look like a bot token (three parts separated by dots): copy it again "
            "from the developer portal's Bot page"
        )
    try:
        workers = host.setting_number("WORKER_PROCESSES", None, low=1)
        metrics_port = host.metrics_port(shards)
    except host.HostError as exc:
        return host.fail(str(exc))
    lock = None
    if not is_postgres(url) and url != ":memory:":
        try:  # one process per SQLite file, for this process's whole life
            Path(sqlite_path(url)).parent.mkdir(parents=True, exist_ok=True)
            lock = hold_sqlite_lock(sqlite_path(url))
        except SqliteInUse as exc:
            return host.fail(str(exc))
        except OSError as exc:
            return host.fail(host.explain(exc, url) or f"cannot use {sqlite_path(url)}: {exc}")
    try:
        asyncio.run(host.check_database(url))
        # One process registers the commands for all: the one running shard 0 (or every shard).
        sync_state = host.CommandSync(url, sync, leader=shards is None or 0 in shards)
    except host.HostError as exc:
        return host.fail(str(exc))
    import aiohttp
    import discord

    from cogs.bot import CarcBot

    host.setup_logging()
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    if metrics_port is not None:
        os.environ["METRICS_PORT"] = str(metrics_port)  # this process's own (METRICS_PORT + its first shard)
    bot = CarcBot(url, int(guild) if guild.isdigit() else None, sync_state.wanted, worker_processes=workers,
                  shard_ids=shards, shard_count=shard_count)  # fmt: skip
    bot.on_synced = sync_state.done
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        return host.fail("Discord refused the token in DISCORD_TOKEN: check it in the developer portal's Bot page")
    except host.HostError as exc:
        return host.fail(str(exc))
    except (OSError, aiohttp.ClientError) as exc:  # no network, no DNS, Discord unreachable
        line = host.explain(exc, url)
        return host.fail(line or f"cannot reach Discord ({exc}): check this machine's network and DNS")
    except Exception as exc:  # a bug: its traceback, in the log's own format (JSON stays JSON)
        line = host.explain(exc, url)
        if line is not None:
            return host.fail(line)
        logging.getLogger("bot").critical("the bot stopped: %s", exc, exc_info=True)
        return 1
    finally:
        if lock is not None:
            lock.close()
    return 0


async def rebuild_leagues(db_path: str) -> int:
    from service import GameService
    from service.leagues import LeagueService
    from storage import Store, open_database
    from storage.database import is_postgres
    from storage.leagues import LeagueStore

    if not is_postgres(db_path) and not Path(sqlite_path(db_path)).exists():
        print(f"no database at {db_path}", file=sys.stderr)
        return 2
    db = await open_database(db_path)
    try:
        games = GameService(Store(db))
        leagues = LeagueService(games, LeagueStore(games.store))

        async def kept(league_id: int) -> tuple[object, list[object]]:
            """Ratings, and the tables ended seasons keep (competitions' division tables too)."""
            seasons = await leagues.store.seasons(league_id)
            return await leagues.store.ratings(league_id), [s.standings for s in seasons]

        before = {}
        for league_id in await leagues.store.league_ids():
            with contextlib.suppress(Exception):  # a damaged league is reported by the rebuild itself
                before[league_id] = await kept(league_id)
        done = await leagues.rebuild()
        for league_id, results in done.items():
            ratings, tables = await kept(league_id)
            notes = []
            if ratings != before.get(league_id, (None, None))[0]:
                notes.append("ratings corrected")
            if tables != before.get(league_id, (None, None))[1]:
                notes.append("season tables corrected")
            matches = 0
            for season in await leagues.store.seasons(league_id):
                matches += len(await leagues.store.match_log(league_id, season.number))
            print(
                f"league #{league_id}: {results} results replayed, {matches} match log entries, "
                f"{', '.join(notes) or 'unchanged'}"
            )
        for league_id, why in sorted(leagues.unrebuilt.items()):
            print(f"league #{league_id}: not rebuilt: {why}", file=sys.stderr)
        if not done and not leagues.unrebuilt:
            print("no league in this database")
        return 1 if leagues.unrebuilt else 0
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    _load_env()
    parser = argparse.ArgumentParser(prog="bot.py", description="Carcassonne on Discord")
    sub = parser.add_subparsers(dest="command")
    p_demo = sub.add_parser("demo", help="computer players play a whole game offline")
    p_demo.add_argument("--sets", default="base", help="comma-separated sets, e.g. base,toll")
    p_demo.add_argument("--players", type=int, default=3, choices=range(2, 7), metavar="N", help="2 to 6")
    p_demo.add_argument("--seed", type=int, default=None, help="the game's seed (a new game each run by default)")
    p_demo.add_argument("--out", default="demo-out", help="folder for the database, pictures and record")
    p_demo.add_argument("--no-pictures", action="store_true", help="only the record")
    p_demo.add_argument("--lang", default="en", choices=sorted(LANGUAGES), help="language of the game: en or fr")
    # Not DATABASE_URL: the demo never writes into the bot's database unless told to.
    p_demo.add_argument("--db", default=None, help="the demo's database (OUT/demo.db by default)")
    p_play = sub.add_parser("play", help="play in the terminal (commands are read from stdin)")
    p_play.add_argument("--sets", default="base", help="comma-separated sets, e.g. base,toll")
    p_play.add_argument("--humans", default="You", help="comma-separated names of the human players")
    p_play.add_argument("--ai", type=int, default=1, help="number of computer players")
    p_play.add_argument("--seed", type=int, default=None, help="the game's seed (a new game each run by default)")
    # Not the bot's database: a terminal game never writes into the live one unless told to.
    p_play.add_argument("--db", default="data/terminal.db", help="the terminal's own database (data/terminal.db)")
    p_play.add_argument("--resume", type=int, default=None, metavar="GAME", help="go on with a game saved by quit")
    p_play.add_argument("--pictures", default=None, help="folder for a board picture before each turn")
    p_play.add_argument("--lang", default="en", choices=sorted(LANGUAGES), help="language of the game: en or fr")
    sub.add_parser("commands", help="print the slash command tree as JSON")
    p_rebuild = sub.add_parser("league-rebuild", help="recompute every league's ratings from its results")
    database = database_url()  # DATABASE_URL (or the older DATABASE_PATH), else data/carcassonne.db
    p_rebuild.add_argument("--db", default=database, help="an SQLite file or a database URL (DATABASE_URL)")
    sub.add_parser("invite", help="print the invite URL with the permissions integer the bot needs")
    sub.add_parser("migrate", help="apply the schema migrations").add_argument(
        "--db", default=database, help="DATABASE_URL by default"
    )
    p_health = sub.add_parser("health", help="check the database, the clock and the worker processes")
    p_health.add_argument("--db", default=database, help="DATABASE_URL by default")
    p_health.add_argument("--here", action="store_true",
                          help="judge only this machine's bot processes (a container's health check)")  # fmt: skip
    p_move = sub.add_parser("migrate-db", help="copy the database into another (SQLite to PostgreSQL) and verify it")
    p_move.add_argument("--to", required=True, metavar="URL", help="the target, e.g. postgresql://user@host/carcassonne")
    p_move.add_argument("--db", default=database, help="the source (DATABASE_URL, else the SQLite file)")
    p_backup = sub.add_parser("backup", help="a consistent copy of the database, safe while the bot runs")
    p_backup.add_argument("dest", help="a new file (SQLite) or a pg_dump archive (PostgreSQL)")
    p_backup.add_argument("--db", default=database, help="DATABASE_URL by default")
    p_restore = sub.add_parser("restore", help="put a backup back in place of the database")
    p_restore.add_argument("src", help="a file made by backup")
    p_restore.add_argument("--db", default=database, help="DATABASE_URL by default")
    p_restore.add_argument("--force", action="store_true", help="even while a bot runs on the database")
    parser.add_argument("--sync", action="store_true", help="sync the slash commands with Discord at start")
    parser.add_argument("--shards", type=shard_ids, default=None, metavar="IDS",
                        help="the shards this process runs: 0-1 or 0,2 (with --shard-count; needs PostgreSQL)")
    parser.add_argument("--shard-count", type=int, default=None, metavar="N", help="the shards of all processes")
    args = parser.parse_args(argv)
    from console import host

    try:
        host.setting_number("DATABASE_POOL", 10, low=1, high=1000)  # read by the PostgreSQL backend
        return _dispatch(args)
    except host.HostError as exc:
        return host.fail(str(exc))
    except Exception as exc:  # a host's mistake is one line; anything else is a bug, with its traceback
        line = host.explain(exc, _database_of(args))
        if line is None:
            raise
        return host.fail(line)


def _database_of(args: argparse.Namespace) -> str:
    """The database the command works on (what a failure names)."""
    if args.command == "demo":
        return str(args.db or Path(args.out) / "demo.db")
    return str(getattr(args, "db", None) or database_url())


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "commands":
        import json

        from cogs.bot import command_tree

        print(json.dumps(asyncio.run(command_tree()), indent=1))
        return 0
    if args.command in ("invite", "migrate", "migrate-db", "backup", "restore", "health"):
        return _host(args)
    if args.command == "league-rebuild":
        check_url(args.db)
        return asyncio.run(rebuild_leagues(args.db))
    if args.command == "demo":
        from console.demo import run_demo

        return asyncio.run(
            run_demo(_sets(args.sets), args.players, args.seed, Path(args.out), not args.no_pictures, args.lang,
                     database=args.db)  # fmt: skip
        )
    if args.command == "play":
        from console.play import run_console

        humans = [h.strip() for h in args.humans.split(",") if h.strip()]
        pictures = Path(args.pictures) if args.pictures else None
        return asyncio.run(
            run_console(
                _sets(args.sets),
                humans,
                args.ai,
                args.seed,
                Path(args.db),
                pictures,
                language=args.lang,
                resume=args.resume,
            )  # fmt: skip
        )
    return run_bot(args.sync, args.shards, args.shard_count)


def _host(args: argparse.Namespace) -> int:
    from console import host

    for url in (getattr(args, "db", None), getattr(args, "to", None)):
        if url:
            check_url(url)  # a mistyped scheme is refused, never taken for a file name

    if args.command == "invite":
        status, text = host.invite(os.environ.get("DISCORD_TOKEN"), os.environ.get("APPLICATION_ID"))
        print(text, file=sys.stdout if status == 0 else sys.stderr)
        return status
    if args.command == "migrate":
        return asyncio.run(host.migrate(args.db))
    if args.command == "migrate-db":
        return asyncio.run(host.migrate_db(args.db, args.to))
    if args.command == "backup":
        return host.backup(args.db, args.dest)
    if args.command == "restore":
        return host.restore(args.src, args.db, args.force)
    status, lines = asyncio.run(host.health(args.db, here=args.here))
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
