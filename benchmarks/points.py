"""``python -m benchmarks.points [--a hard] [--b mcts] [--pairs N] [--seconds S] [--mcts-iterations N]
[--family F] [--first-pair N]``: where two players' points come from.

Two-player games, seeds paired with the seats swapped, each player's generator seeded apart from the
game's seed (as ``benchmarks/ai.py`` plays them). Tallied for each player, a game on average: the points
scored by kind of feature during play and at the end (an unfinished city, a farm, an expansion's
goods or crown...), the other points (the final score less those: a tollhouse's, a sector's of the
wheel...), and the figures placed by kind of feature. A diagnosis, not a verdict: which kind of
points one player earns and the other does not says where the weaker one's valuation or search falls
short. Minutes, not for CI.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections import Counter
from typing import Any

from benchmarks.ai import FAMILIES, REFERENCES, player_seed, reference_or_level, wilson
from benchmarks.table import print_grid
from engine import Game
from engine.ai import LEVELS

PLAYERS = (*LEVELS, *REFERENCES)

Job = tuple[str, str, str, int, bool, float | None, int | None]


def play(job: Job) -> tuple[dict[str, int], dict[str, int]]:
    """One game: the tallies of the first-named player and of the second."""
    a, b, family, pair, a_first, seconds, mcts_iterations = job
    label = f"points {a} vs {b}, {family}, {seconds}"
    names = ["A", "B"] if a_first else ["B", "A"]
    game = Game(names, FAMILIES[family], seed=1000 + pair)
    players: dict[str, Any] = {
        "A": reference_or_level(a, player_seed(label, pair, "A"), seconds, None, mcts_iterations),
        "B": reference_or_level(b, player_seed(label, pair, "B"), seconds, None, mcts_iterations),
    }
    tally = {"A": Counter[str](), "B": Counter[str]()}
    while not game.finished:
        name = game.players[game.actor]
        move = players[name].choose(game)
        if move.get("type") == "meeple":
            tally[name]["placed on a " + str(move.get("at", "?")).split(":")[0]] += 1
        for event in game.apply(move):
            if event.get("type") == "scored":
                when = "at the end" if event["final"] else "in play"
                for who, points in event["points"].items():
                    tally[who][f"{event['feature']} {when}"] += points
    for name, score in game.score_table().items():
        features = sum(v for k, v in tally[name].items() if not k.startswith("placed"))
        tally[name]["other points"] = score - features
        tally[name]["total"] = score
    return dict(tally["A"]), dict(tally["B"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--a", choices=PLAYERS, default="hard", help="the first player")
    parser.add_argument("--b", choices=PLAYERS, default="mcts", help="the second player")
    parser.add_argument("--pairs", type=int, default=8, help="pairs of games (each seed played twice)")
    parser.add_argument("--seconds", type=float, default=None, help="hard's (and a timed MCTS's) seconds a decision")
    parser.add_argument("--mcts-iterations", type=int, default=None, help="the MCTS's iterations a decision")
    parser.add_argument("--family", choices=list(FAMILIES), default="base")
    parser.add_argument("--first-pair", type=int, default=0, help="the first pair's number (fresh seeds)")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    if args.mcts_iterations is not None and args.mcts_iterations < 1:
        parser.error("--mcts-iterations must be at least 1")
    jobs: list[Job] = [
        (args.a, args.b, args.family, args.first_pair + p, a_first, args.seconds, args.mcts_iterations)
        for p in range(args.pairs)
        for a_first in (True, False)
    ]
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        results = pool.map(play, jobs, chunksize=1)
    first, second = Counter[str](), Counter[str]()
    wins = 0.0
    for mine, theirs in results:
        first.update(mine)
        second.update(theirs)
        wins += 1.0 if mine["total"] > theirs["total"] else 0.5 if mine["total"] == theirs["total"] else 0.0
    n = len(results)
    low, high = wilson(wins, n)
    rate = f"{100 * wins / n:.0f}% [{100 * low:.0f}, {100 * high:.0f}]"
    print(f"{args.a} vs {args.b}, {args.family}, {n} games: {args.a} scores {rate}")
    keys = sorted(set(first) | set(second), key=lambda k: (k == "total", k.startswith("placed"), k))
    rows = [[k, f"{first[k] / n:.2f}", f"{second[k] / n:.2f}", f"{(first[k] - second[k]) / n:+.2f}"] for k in keys]
    print_grid(["a game, on average", args.a, args.b, "difference"], rows, labels=1)


if __name__ == "__main__":
    main()
