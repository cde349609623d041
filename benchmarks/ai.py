"""``python -m benchmarks.ai [--games N] [--seconds S] [--playouts P] [--only ROW]``: computer levels
against each other.

Two-player games, seeds paired with the seats swapped (each seed is played twice, each player
first once); win rate of the first-named player (ties count half) with a 95% Wilson interval,
mean score margin, thinking time per decision (p50/p99) and the search's playouts per second.
Runs in 2 processes. Minutes, not for CI.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from typing import Any

from benchmarks.table import print_grid
from engine import Game
from engine.ai import GreedyPlayer, RandomPlayer, make_player

FAMILIES = {
    "base": ["base"],
    "rivers+castles+ferries+toll": ["base", "river1", "river2", "castles", "ferries", "toll"],
    "wheel+castles+ferries+toll": ["wheel", "castles", "ferries", "toll"],
}
ROWS = [
    ("hard", "greedy", "base"),
    ("hard", "normal", "base"),
    ("normal", "greedy", "base"),
    ("normal", "easy", "base"),
    ("greedy", "random", "base"),
    ("easy", "random", "base"),
    ("easy", "greedy", "base"),
    ("hard", "greedy", "rivers+castles+ferries+toll"),
    ("hard", "greedy", "wheel+castles+ferries+toll"),
]


def _player(name: str, seed: int, seconds: float | None, playouts: int | None) -> Any:
    if name == "greedy":
        return GreedyPlayer(seed)
    if name == "random":
        return RandomPlayer(seed)
    return make_player(name, seed, seconds, playouts)


def play(job: tuple[str, str, str, int, bool, float | None, int | None]) -> tuple[float, float, list[float], int]:
    """One game: (first-named player's result 1/0.5/0, its margin, its thinking times, playouts)."""
    a, b, family, seed, a_first, seconds, playouts = job
    names = ["A", "B"] if a_first else ["B", "A"]
    game = Game(names, FAMILIES[family], seed=seed)
    players = {"A": _player(a, seed * 2 + 1, seconds, playouts), "B": _player(b, seed * 2 + 2, seconds, playouts)}
    times: list[float] = []
    searched = 0
    while not game.finished:
        name = game.players[game.actor]
        start = time.perf_counter()
        move = players[name].choose(game)
        if name == "A":
            times.append(time.perf_counter() - start)
            searched += getattr(players[name], "last_playouts", 0)
            if hasattr(players[name], "last_playouts"):
                players[name].last_playouts = 0
        game.apply(move)
    scores = game.score_table()
    margin = scores["A"] - scores["B"]
    return (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0), float(margin), times, searched


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40, help="games per row (even: seeds are paired)")
    parser.add_argument("--seconds", type=float, default=None, help="thinking per decision (hard's default: 1 s)")
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--only", default=None, help="rows whose text contains this")
    args = parser.parse_args()
    rows = []
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        for a, b, family in ROWS:
            label = f"{a} vs {b}, {family}"
            if args.only and args.only not in label:
                continue
            jobs = [(a, b, family, 1000 + g // 2, g % 2 == 0, args.seconds, args.playouts) for g in range(args.games)]
            start = time.perf_counter()
            results = pool.map(play, jobs)
            wall = time.perf_counter() - start
            score = sum(r[0] for r in results)
            low, high = wilson(score, len(results))
            times = sorted(t for r in results for t in r[2])
            searched = sum(r[3] for r in results)
            thinking = sum(times)
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0
            rows.append(
                (
                    label,
                    f"{len(results)}",
                    f"{100 * score / len(results):.0f}% [{100 * low:.0f}, {100 * high:.0f}]",
                    f"{statistics.mean(r[1] for r in results):+.1f}",
                    f"{1000 * statistics.median(times):.0f} / {1000 * p99:.0f} ms" if times else "-",
                    f"{searched / thinking:.0f}" if searched and thinking else "-",
                    f"{wall:.0f} s",
                )
            )
            print(rows[-1], flush=True)
    print()
    headers = ["row", "games", "win rate [95% CI]", "margin", "think p50/p99", "playouts/s", "wall"]
    print_grid(headers, [list(r) for r in rows])


if __name__ == "__main__":
    main()
