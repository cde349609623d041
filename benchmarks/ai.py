"""``python -m benchmarks.ai [--games N] [--budgets 1,0.25] [--playouts P] [--mcts-iterations N]
[--first-pair N] [--only TEXT] [--extra]``: the computer levels against each other and the references.

Two-player games, seeds paired with the seats swapped (each seed is played twice, each player
first once); each player's generator is seeded apart from the game's seed (from the row, the
pair and the seat), so a player never shares its coin with the bag. Reported: the win rate of
the first-named player (ties count half) with a 95% Wilson interval, the mean score margin,
thinking time per decision (p50/p99; a decision with one option or the rest of a planned
sequence costs nothing) and the search's playouts per second. The rows: hard against the
reference greedy, hard against normal and hard against the reference MCTS (``engine.ai.mcts``: at
hard's seconds a decision, or at ``--mcts-iterations``), each at every budget of ``--budgets`` (hard's
seconds a decision; 1 s is its default), and normal against greedy and against the MCTS, on base
and on both expansion families; ``--extra`` adds the easy and random rows; ``--first-pair N`` plays
other seeds (more games of a row run before). Runs in ``--processes`` processes. Minutes, not for CI.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

from benchmarks.table import print_grid
from engine import Game
from engine.ai import DEFAULT_SECONDS, GreedyPlayer, RandomPlayer, make_player
from engine.ai.mcts import MctsPlayer
from engine.expansions.families import NAMED_FAMILIES

# base, the rivers with every set that combines with them, the wheel with base and every set that
# combines with it (engine/expansions/families.py: built from the table of sets)
FAMILIES = NAMED_FAMILIES
SEARCH_ROWS = [("hard", "greedy"), ("hard", "normal"), ("hard", "mcts")]  # played at every budget
FIXED_ROWS = [("normal", "greedy"), ("normal", "mcts")]  # normal has no budget (the MCTS: 1 s or --mcts-iterations)
EXTRA_ROWS = [("normal", "easy"), ("greedy", "random"), ("easy", "random"), ("easy", "greedy")]

Job = tuple[str, str, str, int, int, bool, float | None, int | None, int | None]


REFERENCES = ("greedy", "random", "mcts")  # the reference players ``reference_or_level`` makes beside the levels


def reference_or_level(
    name: str, seed: int, seconds: float | None, playouts: int | None, mcts_iterations: int | None = None
) -> Any:
    """A reference player (``greedy``, ``random``, ``mcts``: at ``seconds`` a decision, hard's default
    without, or at ``mcts_iterations``) or a level, by name."""
    if name == "mcts":
        budget = DEFAULT_SECONDS["hard"] if seconds is None else seconds
        return MctsPlayer(seed, None if mcts_iterations else budget, mcts_iterations)
    if name == "greedy":
        return GreedyPlayer(seed)
    if name == "random":
        return RandomPlayer(seed)
    return make_player(name, seed, seconds, playouts)


def player_seed(label: str, pair: int, seat: str) -> int:
    """A player's seed, from the row, the pair of games and the seat: never from the game's seed."""
    return random.Random(f"{label}|{pair}|{seat}").getrandbits(48)


def play(job: Job) -> tuple[float, float, list[float], int]:
    """One game: (first-named player's result 1/0.5/0, its margin, its thinking times, playouts)."""
    a, b, family, seed, pair, a_first, seconds, playouts, mcts_iterations = job
    label = f"{a} vs {b}, {family}, {seconds}"
    names = ["A", "B"] if a_first else ["B", "A"]
    game = Game(names, FAMILIES[family], seed=seed)
    players = {
        "A": reference_or_level(a, player_seed(label, pair, "A"), seconds, playouts, mcts_iterations),
        "B": reference_or_level(b, player_seed(label, pair, "B"), seconds, playouts, mcts_iterations),
    }
    times: list[float] = []
    searched = 0
    while not game.finished:
        name = game.players[game.actor]
        player = players[name]
        start = time.perf_counter()
        move = player.choose(game)
        if name == "A":
            times.append(time.perf_counter() - start)
            if hasattr(player, "last_playouts"):
                searched += player.last_playouts
                player.last_playouts = 0
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


def rows_to_play(budgets: list[float], extra: bool) -> list[tuple[str, str, str, float | None]]:
    out: list[tuple[str, str, str, float | None]] = []
    for family in FAMILIES:
        for a, b in SEARCH_ROWS:
            out += [(a, b, family, seconds) for seconds in budgets]
        out += [(a, b, family, None) for a, b in FIXED_ROWS]
        if extra and family == "base":
            out += [(a, b, family, None) for a, b in EXTRA_ROWS]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40, help="games per row (even: seeds are paired)")
    parser.add_argument("--fixed-games", type=int, default=None, help="games per row without a search (--games)")
    parser.add_argument("--budgets", default=f"{DEFAULT_SECONDS['hard']:g},0.25", help="hard's seconds a decision")
    parser.add_argument("--playouts", type=int, default=None, help="a fixed search instead of a time budget")
    parser.add_argument(
        "--mcts-iterations", type=int, default=None, help="the reference MCTS's iterations a decision (default: timed)"
    )
    parser.add_argument("--first-pair", type=int, default=0, help="the first pair's number (fresh seeds: more games)")
    parser.add_argument("--only", default=None, help="rows whose label contains this")
    parser.add_argument("--extra", action="store_true", help="also the easy and random rows (base)")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    if args.mcts_iterations is not None and args.mcts_iterations < 1:
        parser.error("--mcts-iterations must be at least 1")
    budgets = [float(b) for b in args.budgets.split(",")]
    chosen = []
    for a, b, family, seconds in rows_to_play(budgets, args.extra):
        budget = "-" if seconds is None else f"{seconds:g} s"
        label = f"{a} vs {b}, {family}"
        if not args.only or args.only in f"{label}, {budget}":
            chosen.append((a, b, family, seconds, budget, label))
    if not chosen:  # (say so at once, not after an hour of other rows)
        parser.error(f"no row matches --only {args.only!r}: rows read like 'hard vs normal, {list(FAMILIES)[1]}, 1 s'")
    rows = []
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        for a, b, family, seconds, budget, label in chosen:
            count = args.games if seconds is not None or args.fixed_games is None else args.fixed_games
            pairs = [(args.first_pair + g // 2, g % 2 == 0) for g in range(count)]
            jobs: list[Job] = [
                (a, b, family, 1000 + pair, pair, a_first, seconds, args.playouts, args.mcts_iterations)
                for pair, a_first in pairs
            ]
            start = time.perf_counter()
            results = pool.map(play, jobs, chunksize=1)
            wall = time.perf_counter() - start
            score = sum(r[0] for r in results)
            low, high = wilson(score, len(results))
            times = sorted(t for r in results for t in r[2])
            searched = sum(r[3] for r in results)
            thinking = sum(times)
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0
            rows.append(
                [
                    label,
                    budget,
                    f"{len(results)}",
                    f"{100 * score / len(results):.0f}% [{100 * low:.0f}, {100 * high:.0f}]",
                    f"{statistics.mean(r[1] for r in results):+.1f}",
                    f"{1000 * statistics.median(times):.0f} / {1000 * p99:.0f} ms" if times else "-",
                    f"{searched / thinking:.0f}" if searched and thinking else "-",
                    f"{wall:.0f} s",
                ]
            )
            print(rows[-1], flush=True)
    print()
    headers = ["row", "hard's budget", "games", "win rate [95% CI]", "margin", "think p50/p99", "playouts/s", "wall"]
    print_grid(headers, rows)


if __name__ == "__main__":
    main()
