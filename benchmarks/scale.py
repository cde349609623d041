"""Scale: ``python -m benchmarks.scale [--games 2000,20000] [--seconds 10] [--rounds 2]``.

For each number of active games: one SQLite file and one PostgreSQL database (a server started for
the run) hold the same games (4-player base games, turns of 24 h started over the last day). Then,
interleaved round by round, clients play turns as fast as they can for ``--seconds``:

- SQLite, one bot process;
- PostgreSQL, one, two and four bot processes (real processes; the games split between them).

32 clients in all (split between the processes), each playing the games of its share in turn.
Prints turns/s, p50/p99 latency of a play, and each process's peak memory; then the deadline clock's
first tick over all the games from a cold start (what a restart costs), on both backends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchmarks.table import print_grid
from service import GameService, LobbyOptions, ServiceError
from storage import Store, open_database
from storage.copy import copy_database
from storage.times import iso
from tests.helpers import anyone, as_

CLIENTS = 32
TEMPLATES = 50  # games started through the service; the rest are copies of them
NOW = datetime.now(UTC)


async def build_sqlite(path: Path, games: int) -> None:
    """``games`` started games: TEMPLATES through the service, the rest copied row by row in SQL."""
    db = await open_database(path)
    try:
        service = GameService(Store(db))
        for n in range(TEMPLATES):
            opts = LobbyOptions(sets=["base"], seed=n, turn_limit=24 * 3600)
            lobby = await service.create_lobby(as_("a", "g"), "Ann", opts)
            for uid, name in (("b", "Bob"), ("c", "Cy"), ("d", "Dee")):
                await service.join(as_(uid, "g"), lobby.id, name)
            await service.start(as_("a", "g"), lobby.id)
        rng = random.Random(1)

        async def multiply(tx) -> None:  # type: ignore[no-untyped-def]
            for n in range(games - TEMPLATES):
                source = n % TEMPLATES + 1
                new = await tx.insert(
                    "INSERT INTO games (guild_id, status, creator_id, options, setup, version, turn_started_at,"
                    " reminded, created_at, updated_at) SELECT guild_id, status, creator_id, options, setup, 0, ?,"
                    " 0, created_at, updated_at FROM games WHERE id = ?",
                    (iso(NOW - timedelta(seconds=rng.uniform(0, 23 * 3600))), source),
                )
                await tx.execute(
                    "INSERT INTO seats (game_id, user_id, name, seat, is_ai, status, joined_at)"
                    " SELECT ?, user_id, name, seat, is_ai, status, joined_at FROM seats WHERE game_id = ?",
                    (new, source),
                )

        await db.transaction(multiply)
    finally:
        await db.close()


async def copy_to(source: Path, url: str) -> None:
    src, dst = await open_database(source), await open_database(url)
    try:
        await copy_database(src, dst)
    finally:
        await src.close()
        await dst.close()


# ---------------------------------------------------------------------- a bot process
async def worker(url: str, part: int, parts: int, clients: int, seconds: float) -> None:
    """Load this process's share of the games, say READY, wait for GO, play for ``seconds``."""
    db = await open_database(url)
    service = GameService(Store(db))
    ids = [g for g in await service.store.game_ids(status="active") if g % parts == part]
    views = [await service.turn(anyone("g"), g) for g in ids]
    print("READY", flush=True)
    sys.stdin.readline()
    latencies: list[float] = []
    until = time.perf_counter() + seconds
    shares = [views[c::clients] for c in range(clients)]
    turns = sum(await asyncio.gather(*(client(service, share, until, latencies) for share in shares)))
    await db.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"turns": turns, "latencies": latencies, "rss_mb": rss}), flush=True)


async def client(service: GameService, views: list, until: float, latencies: list[float]) -> int:  # type: ignore[type-arg]
    turns = 0
    while time.perf_counter() < until:
        for i, view in enumerate(views):
            if view.finished or time.perf_counter() >= until:
                continue
            (x, y), rots = next(iter(view.placements.items()))
            moves = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}, {"type": "pass"}]
            start = time.perf_counter()
            who = as_(view.user_id, "g")
            try:
                views[i] = (await service.play(who, view.game_id, moves, view.version)).turn
            except ServiceError:  # no figure was asked after that tile: the tile alone
                views[i] = (await service.play(who, view.game_id, moves[:1], view.version)).turn
            latencies.append(time.perf_counter() - start)
            turns += 1
    return turns


def run_processes(url: str, processes: int, seconds: float) -> tuple[float, list[float], list[float]]:
    """(turns/s, latencies, peak MB per process) of ``processes`` bot processes playing at once."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "benchmarks.scale", "--worker", url, str(part), str(processes),
             str(CLIENTS // processes), str(seconds)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        for part in range(processes)
    ]
    for proc in procs:  # every process has loaded its games
        assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("GO\n")
        proc.stdin.flush()
    reports = [json.loads(proc.communicate(timeout=seconds + 600)[0]) for proc in procs]
    turns = sum(r["turns"] for r in reports)
    return turns / seconds, [x for r in reports for x in r["latencies"]], [r["rss_mb"] for r in reports]


async def cold_tick(url: str) -> tuple[float, int, float]:
    """A restarted process's first deadline tick over every game (seconds, notices: it catches up
    on every reminder due), then the next one (seconds: the steady state, nothing new due)."""
    db = await open_database(url)
    try:
        service = GameService(Store(db))
        start = time.perf_counter()
        notices = await service.tick()
        first = time.perf_counter() - start
        start = time.perf_counter()
        await service.tick()
        return first, len(notices), time.perf_counter() - start
    finally:
        await db.close()


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000 if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="2000,20000", help="active games, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="of play per case and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--processes", default="1,2,4", help="PostgreSQL process counts")
    args = parser.parse_args()
    from tests.postgres_server import PostgresServer

    server = PostgresServer()
    server.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            for games in (int(g) for g in args.games.split(",")):
                path = Path(folder) / f"scale-{games}.db"
                began = time.perf_counter()
                asyncio.run(build_sqlite(path, games))
                url = server.new_database()
                asyncio.run(copy_to(path, url))
                print(f"\n{games} active games (built and copied in {time.perf_counter() - began:.0f} s)", flush=True)
                cases = [("SQLite, 1 process", str(path), 1)] + [
                    (f"PostgreSQL, {n} process{'es' if n > 1 else ''}", url, n)
                    for n in (int(p) for p in args.processes.split(","))
                ]
                results: dict[str, tuple[list[float], list[float], list[float]]] = {c[0]: ([], [], []) for c in cases}
                for _ in range(args.rounds):
                    for name, target, processes in cases:
                        rate, latencies, rss = run_processes(target, processes, args.seconds / args.rounds)
                        results[name][0].append(rate)
                        results[name][1].extend(latencies)
                        results[name][2].extend(rss)
                grid = []
                base = statistics.median(results[cases[0][0]][0])
                for name, (rates, latencies, rss) in results.items():
                    rate = statistics.median(rates)
                    grid.append([
                        name, f"{rate:.0f} ({min(rates):.0f}-{max(rates):.0f})", f"{rate / base:.2f}",
                        f"{percentile(latencies, 0.5):.1f}", f"{percentile(latencies, 0.99):.1f}", f"{max(rss):.0f}",
                    ])  # fmt: skip
                print_grid(["bot processes", "turns/s (range)", "vs SQLite", "p50 ms", "p99 ms", "MB/process"], grid)
                ticks = []
                for name, target in (("SQLite", str(path)), ("PostgreSQL", url)):
                    first, notices, steady = asyncio.run(cold_tick(target))
                    ticks.append([name, f"{first:.2f} s", str(notices), f"{steady:.2f} s"])
                print_grid([f"tick over {games} games", "first (catch-up)", "notices", "next (steady)"], ticks)
    finally:
        server.stop()
    print(f"\n{CLIENTS} clients in all; goal: p99 <= 50 ms at 20,000 games, a tick <= 1 s")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        url, part, parts, clients, seconds = sys.argv[2:7]
        asyncio.run(worker(url, int(part), int(parts), int(clients), float(seconds)))
    else:
        main()
