"""A restart with many active games: ``python -m benchmarks.restart [--games N] [--rounds N]``.

An SQLite file holds N active games (copies of a few games played through the service, 20
to 150 moves each, base, castles and toll; their turns started over the last day, with a day
to play: most are not due, some need their reminder, a few have timed out). Each round
copies the file, then times a restart: opening the database (migrations checked), a new
``GameService``, and its first deadline tick, done. Interleaved in one run:

- before: the first tick loads every active game (as it did), from its snapshot;
- before, from the log: the same with no usable snapshot (as when snapshots were records);
- after: the tick reads one row per active game and loads only the games that are due.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchmarks.table import print_table
from engine.ai import computer_moves
from service import GameService, LobbyOptions
from storage import Store, open_database
from storage.times import iso
from tests.helpers import SYSTEM, anyone, as_  # noqa: F401

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
LENGTHS = (20, 45, 70, 95, 120, 150)


class OldTick(GameService):
    """The first tick as it was: every active game loaded and looked at."""

    async def tick(self):  # type: ignore[override]
        if await self.store.take_clock_lease(self.instance_id, self.clock(), timedelta(minutes=5)) is not None:
            return []
        now = self.clock()
        notices = []
        for game_id in await self.store.game_ids(status="active"):
            try:
                notice = await self._tick_game(game_id, now)
            except Exception as exc:
                self._clock_failed(game_id, exc)
                continue
            if notice is not None:
                notices.append(notice)
        return notices


async def templates(path: Path) -> None:
    """A few games played through the service, one per length."""
    db = await open_database(path)
    service = GameService(Store(db), clock=lambda: NOW)
    for n, length in enumerate(LENGTHS):
        opts = LobbyOptions(sets=["base", "castles", "toll"], seed=n, turn_limit=24 * 3600)
        lobby = await service.create_lobby(as_("u0"), "Ann", opts)
        await service.join(as_("u1"), lobby.id, "Bob")
        await service.join(as_("u2"), lobby.id, "Cy")
        await service.start(as_("u0"), lobby.id)
        while True:
            row, game = await service.game(SYSTEM, lobby.id)
            if game.finished or row.version >= length:
                break
            moves = computer_moves(game.clone(), "ai:greedy:1")
            await service.play(as_(row.setup["users"][game.actor]), lobby.id, moves, row.version)  # type: ignore[index]
    await db.close()


def multiply(path: Path, games: int) -> None:
    """Copies of the templates up to ``games`` active games, their turns started at random."""
    rng = random.Random(1)
    conn = sqlite3.connect(path)
    conn.execute("BEGIN")
    ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE status = 'active' ORDER BY id")]
    for n in range(games - len(ids)):
        source = ids[n % len(ids)]
        cur = conn.execute(
            "INSERT INTO games (guild_id, channel_id, thread_id, lobby_message, status, creator_id, options, setup,"
            " version, turn_started_at, reminded, result, created_at, updated_at, league_id)"
            " SELECT guild_id, channel_id, thread_id, lobby_message, status, creator_id, options, setup, version,"
            " turn_started_at, reminded, result, created_at, updated_at, league_id FROM games WHERE id = ?",
            (source,),
        )
        new = cur.lastrowid
        conn.execute(
            "INSERT INTO seats (game_id, user_id, name, seat, is_ai, status, joined_at)"
            " SELECT ?, user_id, name, seat, is_ai, status, joined_at FROM seats WHERE game_id = ?",
            (new, source),
        )
        conn.execute(
            "INSERT INTO moves (game_id, seq, user_id, move, created_at)"
            " SELECT ?, seq, user_id, move, created_at FROM moves WHERE game_id = ?",
            (new, source),
        )
        conn.execute(
            "INSERT INTO snapshots (game_id, seq, engine_version, state)"
            " SELECT ?, seq, engine_version, state FROM snapshots WHERE game_id = ?",
            (new, source),
        )
    for (game_id,) in conn.execute("SELECT id FROM games WHERE status = 'active'").fetchall():
        age = rng.uniform(0, 24 * 3600) if rng.random() > 0.005 else 25 * 3600  # 0.5 %: timed out
        reminded = 1 if age > 18 * 3600 and rng.random() > 0.02 else 0  # most reminders already sent
        conn.execute(
            "UPDATE games SET turn_started_at = ?, reminded = ? WHERE id = ?",
            (iso(NOW - timedelta(seconds=age)), reminded, game_id),
        )
    conn.execute("COMMIT")
    conn.close()


async def restart(path: Path, kind: type[GameService], from_log: bool) -> tuple[float, int]:
    start = time.perf_counter()
    db = await open_database(path)
    store = Store(db)
    service = kind(store, clock=lambda: NOW)
    if from_log:  # snapshots as they were (the record) do not shorten the load: none to use
        store.save_snapshot = _no_write  # type: ignore[method-assign]
        service.store.load_game = _without_snapshot(store.load_game)  # type: ignore[method-assign]
    notices = await service.tick()
    elapsed = time.perf_counter() - start
    await db.close()
    return elapsed, len(notices)


async def _no_write(*args: object, **kwargs: object) -> None:
    return None


def _without_snapshot(load):  # type: ignore[no-untyped-def]
    async def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
        loaded = await load(*args, **kwargs)
        loaded.snapshot = None
        return loaded

    return wrapped


SQLITE_FILES = ("", "-wal", "-shm")  # a database and its write-ahead log


def copy_sqlite(source: Path, target: Path) -> None:
    """Copy an SQLite database with its write-ahead log."""
    for suffix in SQLITE_FILES:
        if Path(str(source) + suffix).exists():
            shutil.copy(str(source) + suffix, str(target) + suffix)


def remove_sqlite(path: Path) -> None:
    for suffix in SQLITE_FILES:
        Path(str(path) + suffix).unlink(missing_ok=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        master = Path(folder) / "master.db"
        await templates(master)
        multiply(master, args.games)
        cases = {
            "before: the first tick loads every game (state snapshots)": (OldTick, False),
            "before: the first tick loads every game (from the log)": (OldTick, True),
            "after: the first tick loads the games that are due": (GameService, False),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        notices: dict[str, int] = {}
        for r in range(args.rounds):
            for name, (kind, from_log) in cases.items():
                copy = Path(folder) / f"round{r}.db"
                copy_sqlite(master, copy)
                elapsed, count = await restart(copy, kind, from_log)
                times[name].append(elapsed)
                notices[name] = count
                remove_sqlite(copy)
    rows = []
    for name, samples in times.items():
        figure = f"{statistics.median(samples):.3f} s ({min(samples):.3f}-{max(samples):.3f})"
        rows.append((f"{name}, {notices[name]} notices", figure, "<= 1 s" if name.startswith("after") else ""))
    print(f"restart + first deadline tick over {args.games} active games; median (min-max) of {args.rounds} rounds")
    print_table(rows)


if __name__ == "__main__":
    asyncio.run(main())
