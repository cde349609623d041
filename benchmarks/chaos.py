"""The chaos run: ``python -m benchmarks.chaos [KILLS]`` (default 100; minutes, not for CI).

Two worker processes play 4 games each over one SQLite file (half of them against a computer);
both are SIGKILLed at a random moment, then a fresh service checks that every acknowledged move
is stored, every started game loads, and no game is left waiting on a computer after one clock
tick; then the next round starts over the same file. Prints the totals.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.table import print_table
from tests.crash_worker import check, kill_round


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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
