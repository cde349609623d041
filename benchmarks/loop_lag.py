"""Event-loop lag while many games are played at once: ``python -m benchmarks.loop_lag``.

N games are played concurrently through the game service (random legal picks, as
players clicking), each turn followed by its turn picture, the way the bot posts
a turn; each game waits ``--pace`` seconds between turns (players read the board
before they click; 0 plays flat out, which measures the pool's throughput instead).
A probe coroutine wakes every millisecond and records how late it woke: that
lateness is what every other player's click waits. Two ways are compared in
one run, interleaved: the picture made on the event loop (the first version's
way) and made in the worker pool (``service.workers.Workers``).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.table import print_grid
from renderer.jobs import cell_labels, turn_pngs
from service import GameService, LobbyOptions, PlayResult
from service.workers import Workers
from storage import Store, open_database
from tests.helpers import SYSTEM, any_of, anyone, as_  # noqa: F401


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def probe(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append((time.perf_counter() - start - 0.001) * 1000)


async def play_game(
    service: GameService, pictures: Workers | None, game_id: int, turns: int, rng: random.Random,
    latencies: list[float], pace: float,
) -> int:  # fmt: skip
    done = 0
    view = await service.turn(await any_of(service, game_id), game_id)
    while not view.finished and done < turns:
        picks: list[int] = []
        while True:
            ask = await service.ask(as_(view.user_id or ""), game_id, picks, view.version)
            assert ask.question is not None
            picks.append(rng.randrange(len(ask.question.moves())))
            answer = await service.pick(as_(view.user_id or ""), game_id, picks, view.version)
            if isinstance(answer, PlayResult):
                break
        start = time.perf_counter()
        view = answer.turn
        record = await service.export(await any_of(service, game_id), game_id)
        legal = cell_labels(view.placements)
        if pictures is None:
            turn_pngs(record, legal or None)  # on the loop
        else:
            await pictures.run(turn_pngs, record, legal or None)
        latencies.append((time.perf_counter() - start) * 1000)
        done += 1
        await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)
    return done


async def run(games: int, turns: int, pictures: Workers | None, folder: Path, pace: float) -> dict[str, float]:
    db = await open_database(folder / f"lag-{games}-{pictures is not None}-{time.time_ns()}.db")
    seeds = itertools.count(1)
    service = GameService(Store(db), new_seed=lambda: next(seeds))
    ids = []
    for g in range(games):
        lobby = await service.create_lobby(
            as_(f"a{g}"), "Ann", LobbyOptions(sets=["base"], max_players=2, turn_limit=0)
        )
        await service.join(as_(f"b{g}"), lobby.id, "Bob")
        await service.start(as_(f"a{g}"), lobby.id)
        ids.append(lobby.id)
    lags: list[float] = []
    latencies: list[float] = []
    stop = asyncio.Event()
    prober = asyncio.create_task(probe(lags, stop))
    start = time.perf_counter()
    counts = await asyncio.gather(
        *(play_game(service, pictures, gid, turns, random.Random(gid), latencies, pace) for gid in ids)
    )
    elapsed = time.perf_counter() - start
    stop.set()
    await prober
    await db.close()
    return {
        "lag p50": statistics.median(lags),
        "lag p99": pct(lags, 0.99),
        "lag max": max(lags),
        "picture p50": statistics.median(latencies),
        "picture p99": pct(latencies, 0.99),
        "turns/s": sum(counts) / elapsed,
    }


async def main_async(games_list: list[int], turns: int, rounds: int, pace: float) -> None:
    pool = Workers(2)
    await pool.run(turn_pngs, {"players": ["A", "B"], "sets": ["base"], "seed": 1, "moves": []}, None)  # warm up
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for games in games_list:
            results: dict[str, list[dict[str, float]]] = {"on the loop": [], "worker pool": []}
            for _ in range(rounds):  # interleaved: A B A B
                results["on the loop"].append(await run(games, turns, None, Path(tmp), pace))
                results["worker pool"].append(await run(games, turns, pool, Path(tmp), pace))
            for way, runs in results.items():
                cols = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                rows.append(
                    [f"{games} games", way]
                    + [f"{cols[k]:.1f}" for k in ("lag p50", "lag p99", "lag max", "picture p50", "picture p99")]
                    + [f"{cols['turns/s']:.0f}"]
                )
    pool.close()
    print_grid(
        ["load", "pictures", "loop lag p50 ms", "p99 ms", "max ms", "turn→picture p50 ms", "p99 ms", "turns/s"], rows
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="16,64")
    parser.add_argument("--turns", type=int, default=12, help="turns per game")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a game's turns (0: flat out)")
    args = parser.parse_args()
    print(f"pace: {args.pace} s between a game's turns")
    asyncio.run(main_async([int(g) for g in args.games.split(",")], args.turns, args.rounds, args.pace))


if __name__ == "__main__":
    main()
