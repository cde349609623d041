"""The deadline tick over 2,000 active games, per-turn limits against time banks:
``python -m benchmarks.tick [--games N] [--rounds N]``.

The games are those of ``benchmarks.restart`` (copies of games played through the service, their
turns started over the last day: most not due, some needing their reminder, 0.5 % timed out).
One file keeps them per-turn (a day a turn), the other makes each a time bank (``1d+12h cap 3d``,
every bank a day at the turn's start), so both have the same games due. Interleaved in one run,
each round on fresh copies: the first tick after a restart (it sends the due reminders and rules
the timed-out turns) and the next tick (nothing new is due: the steady cost every 10 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.restart import NOW, copy_sqlite, multiply, remove_sqlite, templates
from benchmarks.table import print_grid
from service import GameService
from storage import Store, open_database

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


async def ticks(path: Path) -> tuple[float, float, int]:
    db = await open_database(path)
    service = GameService(Store(db), clock=lambda: NOW)
    start = time.perf_counter()
    notices = await service.tick()
    first = time.perf_counter() - start
    start = time.perf_counter()
    await service.tick()
    steady = time.perf_counter() - start
    await db.close()
    return first, steady, len(notices)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        per_turn = Path(folder) / "per_turn.db"
        await templates(per_turn)
        multiply(per_turn, args.games)
        banks = Path(folder) / "banks.db"
        copy_sqlite(per_turn, banks)
        as_banks(banks)
        cases = {"per-turn (a day a turn)": per_turn, f"time banks ({BANK})": banks}
        first: dict[str, list[float]] = {name: [] for name in cases}
        steady: dict[str, list[float]] = {name: [] for name in cases}
        notices: dict[str, int] = {}
        for r in range(args.rounds):
            for name, master in cases.items():
                copy = Path(folder) / f"round{r}.db"
                copy_sqlite(master, copy)
                a, b, count = await ticks(copy)
                first[name].append(a)
                steady[name].append(b)
                notices[name] = count
                remove_sqlite(copy)

    def figure(samples: list[float]) -> str:
        return f"{statistics.median(samples):.3f} s ({min(samples):.3f}-{max(samples):.3f})"

    base = statistics.median(steady[next(iter(cases))])
    rows = [
        [f"{name}, {notices[name]} notices", figure(first[name]), figure(steady[name]),
         f"{statistics.median(steady[name]) / base:.2f}x"]
        for name in cases
    ]  # fmt: skip
    print(f"the deadline tick over {args.games} active games (SQLite); median (min-max) of {args.rounds} rounds;")
    print("target: a tick <= 1 s")
    print_grid(["case", "first tick (catch-up)", "next tick (steady)", "steady vs per-turn"], rows)


if __name__ == "__main__":
    asyncio.run(main())
