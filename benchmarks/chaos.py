"""The chaos run: ``python -m benchmarks.chaos [KILLS]`` (default 100; minutes, not for CI).

SQLite: two worker processes play 4 games each over one SQLite file (half of them against a
computer); both are SIGKILLed at a random moment, then a fresh service checks that every
acknowledged move is stored, every started game loads, and no game is left waiting on a computer
after one clock tick; then the next round starts over the same file. Prints the totals.

``--outbox [GAMES]`` (default 200): what players are told. Over SQLite, then PostgreSQL, GAMES
overdue games (half against a computer); one process is SIGKILLed after its deadline tick
committed a third of them, the next after it posted a fifth of its notices (before marking the last
one posted), then two processes finish; prints the changes committed, announced, announced twice
and lost (tests/outbox_worker.py).

``--postgres [KILLS]`` (default 50): three processes share one PostgreSQL database (a server
started for the run), each playing and ticking the deadline clock; every 0.5-2 s one of them, at
random, is SIGKILLed and replaced. Then the same checks, and the longest the clock went without
a tick from any process.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.table import print_table
from tests.crash_worker import check, kill_rolling, kill_round


def main(kills: int = 100) -> None:
    rng = random.Random(16)
    acks = lost = killed = rounds = 0
    unloadable: list[str] = []
    games = waiting = stuck = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "chaos.db"
        while killed < kills:
            result = kill_round(db, rounds, rng.uniform(0.8, 2.5), workers=min(2, kills - killed))
            outcome = asyncio.run(check(db, result.acks))
            rounds += 1
            killed += result.killed
            acks += len(result.acks)
            lost += outcome.lost
            unloadable += outcome.unloadable
            games = outcome.games
            waiting += outcome.waiting
            stuck += outcome.stuck
    print_table(
        [
            ("processes SIGKILLed (2 at a time, 4 concurrent games each)", f"{killed}", "100"),
            ("moves acknowledged before a kill", f"{acks}", ""),
            ("acknowledged moves lost", f"{lost}", "0"),
            (f"games loaded after the last kill (of {games + len(unloadable)})", f"{games}", "all"),
            ("games that failed to load, over all rounds", f"{len(unloadable)}", "0"),
            ("games waiting on a computer at a restart, over all rounds", f"{waiting}", ""),
            ("games still waiting after the restart's first clock tick (stuck)", f"{stuck}", "0"),
            ("wall time", f"{time.perf_counter() - start:.0f} s", ""),
        ]
    )
    for line in unloadable[:10]:
        print("unloadable:", line)


def main_postgres(kills: int = 50, workers: int = 3) -> None:
    from tests.postgres_server import PostgresServer

    server = PostgresServer()
    server.start()
    try:
        url = server.new_database()
        start = time.perf_counter()
        rolling = kill_rolling(url, kills, workers, random.Random(16), tick_every=0.5)
        outcome = asyncio.run(check(url, rolling.acks))
    finally:
        server.stop()
    first = rolling.ticks[0] if rolling.ticks else 0.0
    gaps = [b - a for a, b in zip(rolling.ticks, rolling.ticks[1:], strict=False) if a > first + 1]
    print_table(
        [
            (f"processes SIGKILLed (1 of {workers} at a time, each replaced)", f"{rolling.killed}", "50"),
            ("moves acknowledged", f"{len(rolling.acks)}", ""),
            ("acknowledged moves lost", f"{outcome.lost}", "0"),
            (f"games loaded after the run (of {outcome.games + len(outcome.unloadable)})", f"{outcome.games}", "all"),
            ("games waiting on a computer at the end", f"{outcome.waiting}", ""),
            ("games still waiting after one clock tick (stuck)", f"{outcome.stuck}", "0"),
            ("clock ticks, all processes", f"{len(rolling.ticks)}", ""),
            ("longest time without a tick from any process (ticks every 0.5 s)", f"{max(gaps, default=0):.2f} s", ""),
            ("wall time", f"{time.perf_counter() - start:.0f} s", ""),
        ]
    )
    for line in outcome.unloadable[:10]:
        print("unloadable:", line)


def main_outbox(games: int = 200) -> None:
    from tests.outbox_worker import run
    from tests.postgres_server import PostgresServer

    server = PostgresServer()
    server.start()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            for backend in ("SQLite", "PostgreSQL"):
                url = str(Path(folder) / "outbox.db") if backend == "SQLite" else server.new_database()
                start = time.perf_counter()
                scenario = run(url, Path(folder) / f"sink-{backend}", games=games, kill_after_commits=games // 3,
                               kill_after_posts=games // 5, last=2)  # fmt: skip
                c = scenario.counts
                rows += [
                    (f"{backend}: processes SIGKILLed (mid-tick after {games // 3} commits, mid-posting)",
                     f"{scenario.kills}", "2"),  # fmt: skip
                    (f"{backend}: changes committed by the clock ({games} overdue games)", f"{c.committed}", ""),
                    (f"{backend}: announced", f"{c.announced}", f"{c.committed}"),
                    (f"{backend}: announced twice", f"{c.duplicates}", "0"),
                    (f"{backend}: lost (committed, never announced)", f"{c.lost}", "0"),
                    (f"{backend}: messages re-sent with a used nonce (Discord keeps one)", f"{c.repeats}", "<= 1"),
                    (f"{backend}: left in the outbox", f"{c.unposted}", "0"),
                    (f"{backend}: wall time", f"{time.perf_counter() - start:.1f} s", ""),
                ]
    finally:
        server.stop()
    print_table(rows)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--outbox"]:
        main_outbox(int(sys.argv[2]) if len(sys.argv) > 2 else 200)
    elif sys.argv[1:2] == ["--postgres"]:
        main_postgres(int(sys.argv[2]) if len(sys.argv) > 2 else 50)
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
