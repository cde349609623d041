"""This engine against another checkout, in-process figures: ``python -m benchmarks.versus
[--games-before DIR] [--replay-before DIR] [--rounds R] [--games N] [--replays N]``.

- ``--games-before DIR``: random 2-player base games per second (``Game(["Ann", "Bob"],
  ["base"], seed=s)``, ``RandomPlayer(s)``, moves until the game is over), N games per process,
  and the same with Castles in Germany (``["base", "castles"]``);
  e.g. ``git worktree add /tmp/before 27deb1d``, the engine before the turn became a chain of
  steps. Each process also prints a digest of the games' records (played again, untimed):
  the same seeds must give the same games in both checkouts.
- ``--replay-before DIR``: replaying whole records in-process (``engine.record.load``: the
  setup, then every move applied), median milliseconds of N replays per process, for a full
  game of every set but the wheel (6 players: base, river1, river2, castles, ferries, toll)
  and a 2-player base game, both played by ``GreedyPlayer``s of this checkout. Each process
  prints a digest of what the replays returned (scores, events, the error if any), which
  must be the same in both checkouts.

Each measure runs a fresh process of this checkout and one of the other in turn, A B A B...,
R rounds; start-up and imports are left out (each process times its own loop). The machine
is shared and its speed drifts between runs: the ratio is taken pair by pair and medians
are quoted, with min-max.

Figures of the engine-speed work (2 shared cores, 11 rounds; ``--games-before`` a worktree at
27deb1d, ``--replay-before`` one at f40f07b, where the work began)::

    measure: median (min-max)        goal       now               before             now/before per pair  same
    base games per second (400)      >= before  889 (779-925)     860 (774-894)      1.03 (0.88-1.15)     yes
    replay ms, every set, 6 players  <= 3 ms    7.94 (7.77-8.93)  10.06 (9.55-10.54) 0.78 (0.74-0.89)     yes
    replay ms, base, 2 players                  1.10 (1.07-1.70)  1.32 (1.27-2.15)   0.83 (0.50-1.26)     yes

Random base+castles games per second against 27deb1d: 1.53 (1.47-1.68) per pair (5 rounds of
200 games; the goal was 1.25x). Against f40f07b, random base games per second: 1.20 (1.08-1.32)
per pair (9 rounds). Counted instructions (callgrind, no drift): a random base game 9.44M at 27deb1d, 10.09M at f40f07b,
9.13M now; the every-set replay 72.0M at f40f07b, 57.6M now (a third of it the river's
completability searches).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from benchmarks.cold import records
from benchmarks.table import print_grid

# Run inside the checkout measured (its own engine; the API both versions share).
GAMES = """
import hashlib, json, sys, time
from engine import Game
from engine.ai import RandomPlayer

def play(seed):
    game = Game(["Ann", "Bob"], sets, seed=seed)
    ai = RandomPlayer(seed)
    while not game.finished:
        game.apply(ai.choose(game))
    return game

n, sets = int(sys.argv[1]), sys.argv[2].split(",")
play(n)  # warm-up: tile tables, code paths
start = time.perf_counter()
for seed in range(n):
    play(seed)
elapsed = time.perf_counter() - start
digest = hashlib.sha256()
for seed in range(n):
    digest.update(json.dumps(play(seed).to_json(), sort_keys=True).encode())
print(n / elapsed, digest.hexdigest())
"""

REPLAY = """
import hashlib, json, statistics, sys, time
from engine.record import load

with open(sys.argv[1], encoding="utf-8") as fh:
    record = json.load(fh)
n = int(sys.argv[2])
game, events, error = load(record)  # warm-up
digest = hashlib.sha256(json.dumps([game.scores, events, error], sort_keys=True).encode()).hexdigest()
times = []
for _ in range(n):
    start = time.perf_counter()
    load(record)
    times.append(time.perf_counter() - start)
print(statistics.median(times) * 1000, digest)
"""


def run(checkout: str, code: str, *args: str) -> tuple[float, str]:
    """(figure, digest) printed by one fresh process of ``code`` in ``checkout``."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=checkout,
        env=dict(os.environ, PYTHONPATH=checkout),
        capture_output=True,
        text=True,
        check=True,
    )
    figure, digest = done.stdout.split()
    return float(figure), digest


def compare(label: str, goal: str, dirs: dict[str, str], rounds: int, code: str, *args: str) -> list[str]:
    figures: dict[str, list[float]] = {which: [] for which in dirs}
    digests: dict[str, set[str]] = {which: set() for which in dirs}
    for _ in range(rounds):
        for which, checkout in dirs.items():
            figure, digest = run(checkout, code, *args)
            figures[which].append(figure)
            digests[which].add(digest)
    pairs = [a / b for a, b in zip(figures["now"], figures["before"], strict=True)]
    same = "yes" if digests["now"] == digests["before"] and len(digests["now"]) == 1 else "NO"
    return [
        label,
        goal,
        *(f"{statistics.median(figures[w]):.2f} ({min(figures[w]):.2f}-{max(figures[w]):.2f})" for w in dirs),
        f"{statistics.median(pairs):.2f} ({min(pairs):.2f}-{max(pairs):.2f})",
        same,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games-before", help="checkout for random base games per second (e.g. at 27deb1d)")
    parser.add_argument("--replay-before", help="checkout for in-process replays (e.g. where this work began)")
    parser.add_argument("--rounds", type=int, default=9, help="pairs of processes per measure")
    parser.add_argument("--games", type=int, default=400, help="games per process")
    parser.add_argument("--replays", type=int, default=100, help="replays per process")
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = []
    if args.games_before:
        dirs = {"now": here, "before": os.path.abspath(args.games_before)}
        for sets, goal in (("base", ">= before"), ("base,castles", ">= 1.25x")):
            label = f"random {sets.replace(',', '+')} games per second ({args.games} games)"
            rows.append(compare(label, goal, dirs, args.rounds, GAMES, str(args.games), sets))
    if args.replay_before:
        dirs = {"now": here, "before": os.path.abspath(args.replay_before)}
        with tempfile.TemporaryDirectory() as folder:
            for name, path in records(folder).items():
                goal = "<= 3 ms" if name.startswith("every") else ""
                label = f"in-process replay ms, {name}"
                rows.append(compare(label, goal, dirs, args.rounds, REPLAY, path, str(args.replays)))
    if not rows:
        parser.error("give --games-before and/or --replay-before")
    print_grid(["measure: median (min-max)", "goal", "now", "before", "now/before per pair", "same results"], rows)


if __name__ == "__main__":
    main()
