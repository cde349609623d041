"""The deadline tick over 2,000 active games, per-turn limits against time banks, on SQLite and
PostgreSQL: ``python -m benchmarks.tick [--games N] [--rounds N] [--backend sqlite|postgresql|both]``.

The games are those of ``benchmarks.restart`` (copies of games played through the service, their
turns started over the last day: most not due, some needing their reminder, 0.5 % timed out).
One file keeps them per-turn (a day a turn), the other makes each a time bank (``1d+12h cap 3d``,
every bank a day at the turn's start), so both have the same games due. Interleaved in one run,
each round on fresh copies: the first tick after a restart (it sends the due reminders and rules
the timed-out turns), the whole catch-up (ticks until every notice is handed out: one tick hands
out 500 at most, and stops after its time budget) and the next tick (nothing new is due: the
steady cost every 10 s). Then turns at 50 a second on random games while the clock ticks every
second, after the catch-up; every tick's notices are marked posted, as the bot's loop does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.restart import NOW, copy_sqlite, multiply, remove_sqlite, templates
from benchmarks.table import print_grid
from service import Caller, GameService, ServiceError
from service.clock import CLAIM_TTL
from storage import Store, open_database
from storage.copy import copy_database
from tests.helpers import as_
from tests.postgres_server import PostgresServer

BANK = "1d+12h cap 3d"


def as_banks(path: Path) -> None:
    """Every active game a time-bank game whose player to move has a day in the bank."""
    conn = sqlite3.connect(path)
    conn.execute("BEGIN")
    rows = conn.execute("SELECT id, options, setup FROM games WHERE status = 'active'").fetchall()
    for game_id, options, setup in rows:
        players = len(json.loads(setup)["players"])
        opts = json.loads(options) | {"time_control": BANK}
        # The actor's index does not matter to the tick's arithmetic: every bank holds a day.
        clocks = {"left": [86400] * players, "actor": 0}
        conn.execute(
            "UPDATE games SET options = ?, clocks = ? WHERE id = ?", (json.dumps(opts), json.dumps(clocks), game_id)
        )
    conn.execute("COMMIT")
    conn.close()


async def catch_up(service: GameService) -> int:
    """Tick (marking what each tick hands out posted, as the bot's loop does) until nothing is left
    to tell: the games left to a later tick and the notices beyond one tick's share. The notices told."""
    told = 0
    for _ in range(100):
        notices = await service.tick()
        await service.posted(notices)
        told += len(notices)
        if not notices and not service.tick_left:
            return told
    raise RuntimeError("the clock never caught up")


async def ticks(path: Path | str) -> tuple[float, float, float, int, float]:
    """The first tick after a restart, the whole catch-up (every notice handed out), the next
    tick (the steady cost), the notices and the longest batch."""
    db = await open_database(path)
    service = GameService(Store(db), clock=lambda: NOW)
    start = time.perf_counter()
    notices = await service.tick()
    first = time.perf_counter() - start
    longest = service.tick_longest_batch
    await service.posted(notices)
    told = len(notices) + await catch_up(service)
    whole = time.perf_counter() - start
    start = time.perf_counter()
    await service.tick()
    steady = time.perf_counter() - start
    await db.close()
    return first, whole, steady, told, longest


async def turns_while_ticking(path: Path | str, seconds: float, rate: float) -> tuple[list[float], list[float]]:
    """Turns arriving at ``rate`` a second on random games for ``seconds`` while the clock ticks
    every second (ten times the bot's pace) after its catch-up: (turn latencies, tick durations)."""
    db = await open_database(path)
    service = GameService(Store(db), clock=lambda: NOW)
    await catch_up(service)  # the restart's catch-up first: what follows is the steady state
    ids = await service.store.game_ids(status="active")
    rng = random.Random(2)
    latencies: list[float] = []
    tick_times: list[float] = []
    stop = time.perf_counter() + seconds

    async def ticker() -> None:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            notices = await service.tick()
            tick_times.append(time.perf_counter() - start)
            await service.posted(notices)  # the bot's loop marks each notice once it is posted
            await asyncio.sleep(1.0)

    async def one_turn(game_id: int) -> None:
        try:
            row = await service.store.get_game(game_id)
            view = await service.turn(Caller.system(row.guild_id), game_id)
            if view.finished or not view.placements or not view.user_id or view.user_id.startswith("ai:"):
                return
            (x, y), rots = next(iter(view.placements.items()))
            who = as_(view.user_id, row.guild_id)
            start = time.perf_counter()
            try:
                await service.play(who, game_id, [{"type": "tile", "x": x, "y": y, "rot": rots[0]}, {"type": "pass"}],
                                   view.version)  # fmt: skip
            except ServiceError:  # no figure was asked after that tile: the tile alone
                await service.play(who, game_id, [{"type": "tile", "x": x, "y": y, "rot": rots[0]}], view.version)
            latencies.append(time.perf_counter() - start)
        except ServiceError:
            return  # that game moved on meanwhile (another turn of it arrived first)

    clock_task = asyncio.create_task(ticker())
    turns = []
    while time.perf_counter() < stop:
        turns.append(asyncio.create_task(one_turn(rng.choice(ids))))
        await asyncio.sleep(1 / rate)
    await asyncio.gather(*turns, clock_task)
    await db.close()
    return latencies, tick_times


async def postgres_copy(server: PostgresServer, sqlite_path: Path) -> str:
    """A PostgreSQL database holding what the SQLite file holds (``bot.py migrate-db``'s copy)."""
    url = server.new_database()
    source, target = await open_database(sqlite_path), await open_database(url)
    try:
        await copy_database(source, target)
    finally:
        await source.close()
        await target.close()
    return url


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="of turns while the clock ticks")
    parser.add_argument("--rate", type=float, default=50.0, help="turns a second, on random games")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="sqlite",
                        help="postgresql: a throw-away server of this machine, fsync on")  # fmt: skip
    args = parser.parse_args()
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    server = None
    if "postgresql" in backends:
        server = PostgresServer(durable=True)
        server.start()
    try:
        await measure(args, backends, server)
    finally:
        if server is not None:
            server.stop()


async def measure(args: argparse.Namespace, backends: list[str], server: PostgresServer | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        per_turn = Path(folder) / "per_turn.db"
        await templates(per_turn)
        multiply(per_turn, args.games)
        banks = Path(folder) / "banks.db"
        copy_sqlite(per_turn, banks)
        as_banks(banks)
        masters = {"per-turn (a day a turn)": per_turn, f"time banks ({BANK})": banks}
        cases: dict[str, Path | str] = {}
        for backend in backends:
            for name, master in masters.items():
                if backend == "sqlite":
                    cases[f"SQLite, {name}"] = master
                else:
                    assert server is not None
                    cases[f"PostgreSQL, {name}"] = await postgres_copy(server, master)

        def fresh(master: Path | str, label: str) -> Path | str:
            """A copy to spoil: each round starts from the same games."""
            if isinstance(master, str):
                assert server is not None
                return server.new_database(like=master)
            copy = Path(folder) / f"{label}.db"
            copy_sqlite(master, copy)
            return copy

        def drop(copy: Path | str) -> None:
            if isinstance(copy, Path):
                remove_sqlite(copy)

        first: dict[str, list[float]] = {name: [] for name in cases}
        whole: dict[str, list[float]] = {name: [] for name in cases}
        steady: dict[str, list[float]] = {name: [] for name in cases}
        longest: dict[str, list[float]] = {name: [] for name in cases}
        notices: dict[str, int] = {}
        for r in range(args.rounds):
            for name, master in cases.items():
                copy = fresh(master, f"round{r}")
                a, w, b, count, batch = await ticks(copy)
                first[name].append(a)
                whole[name].append(w)
                steady[name].append(b)
                longest[name].append(batch)
                notices[name] = count
                drop(copy)
        played: dict[str, tuple[list[float], list[float]]] = {}
        for name, master in cases.items():
            if "per-turn" in name:
                copy = fresh(master, "play")
                played[name.split(",")[0]] = await turns_while_ticking(copy, args.seconds, args.rate)
                drop(copy)

    def figure(samples: list[float]) -> str:
        return f"{statistics.median(samples):.3f} s ({min(samples):.3f}-{max(samples):.3f})"

    base = statistics.median(steady[next(iter(cases))])
    rows = [
        [f"{name}, {notices[name]} notices", figure(first[name]), figure(whole[name]), figure(longest[name]),
         figure(steady[name]), f"{statistics.median(steady[name]) / base:.2f}x"]
        for name in cases
    ]  # fmt: skip
    print(f"the deadline tick over {args.games} active games; median (min-max) of {args.rounds} rounds;")
    print(f"target: a tick <= 1 s; a batch (its claims held) well inside {CLAIM_TTL.total_seconds():.0f} s")
    print_grid(["case", "first tick", "whole catch-up", "longest batch", "next tick (steady)", "steady vs first case"],
               rows)  # fmt: skip

    def ms(samples: list[float], q: float) -> str:
        ordered = sorted(samples)
        return f"{ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000:.0f} ms" if ordered else "-"

    print(f"\nturns at {args.rate:.0f}/s on random games for {args.seconds:.0f} s while the clock ticks every second"
          " (goal: p99 <= 50 ms)")  # fmt: skip
    print_grid(["backend", "turns played", "p50", "p99", "ticks", "longest tick"],
               [[backend, str(len(latencies)), ms(latencies, 0.5), ms(latencies, 0.99), str(len(tick_times)),
                 ms(tick_times, 1.0)] for backend, (latencies, tick_times) in played.items()])  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
