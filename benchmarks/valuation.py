"""``python -m benchmarks.valuation [--games N] [--family F] [--weights W] [--first-game N]
[--processes P]``: what each part of a position is worth, fitted on self-play.

Normal (with ``--weights``: ``Weights.parse``, the defaults when empty) plays itself (two players,
each player's generator seeded apart from the game's seed); about one tile step in four is sampled,
and at each the position is split into the parts the computers' valuation adds up (``components``:
the score, an open city's points as they stand and its chance terms by open edges, a field's points
early and late, the open cities' share of a field, the followers in hand...), each player's apart.
The final margin (the first player's score minus the second's) is then fitted on the difference of
the two players' parts by least squares, phase by phase (by the tiles left): each coefficient is
what one unit of that part turned out to be worth by the end, in points, shown beside what the
valuation (``engine.ai.evaluation.Weights``) gives it now. A part whose fitted worth stands far from
today's is a weight to try (``benchmarks/sprt.py`` then decides): so the valuation is tuned on
outcomes, as engines tune theirs, and not by guessing. Intervals are 95%, clustered by game (the
positions of one game are not independent). Minutes, not for CI.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
from typing import Any

from benchmarks.ai import player_seed
from benchmarks.table import print_grid
from engine import Game
from engine.ai.evaluation import DEFAULT_WEIGHTS, FIELD_POINTS_A_CITY, Weights, end_bonus, hand_worths
from engine.ai.players import OneMove
from engine.board import CLOSABLE_KINDS
from engine.expansions.families import NAMED_FAMILIES
from engine.holes import scarce_roots

#: the parts of a position, in the order of ``components``' rows
PARTS = (
    "score",  # points scored
    "city as it stands",  # a city's points unfinished
    "road as it stands",
    "chance, 1 open edge",  # an open road or city: (completed - as it stands) x early x scarce
    "chance, 2 open edges",
    "chance, 3+ open edges",  # (x per_open_edge for each edge past the third)
    "field, late",  # a field's points x (1 - early)
    "field, early",  # a field's points x early
    "field's open cities",  # their points to the field by their chances (as valued now)
    "cloister, castle",  # what it scores as it stands
    "expansions' end and prospects",  # end-of-game scoring (x end_share) and prospects
    "followers in hand",  # x the share of the bag left (other kinds by their worth in plain followers)
    "a follower in hand",  # 1 while the player has one (falling to 0 over the last round of tiles)
    "to move",  # 1 for the player whose turn it is
)


def current_worths(weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """What the valuation gives one unit of each part (``PARTS``): ``holdings`` is the sum of the
    parts times these (tests/test_ai.py checks it)."""
    completion, per_edge = weights.completion, weights.per_open_edge
    return [
        1.0,
        weights.city_share,
        1.0,
        completion,
        completion * per_edge,
        completion * per_edge**2,
        1.0,
        weights.field_share,
        weights.field_open,
        1.0,
        1.0,
        weights.follower_in_hand,
        weights.reserve,
        0.0,
    ]


def components(game: Game, weights: Weights = DEFAULT_WEIGHTS) -> list[list[float]]:
    """Each player's parts of the position (a row of ``PARTS`` each), as ``holdings`` values them
    with ``weights``; their sum weighted by ``current_worths(weights)`` is ``holdings``."""
    board = game.board
    rows = [[0.0] * len(PARTS) for _ in game.scores]
    for p, score in enumerate(game.scores):
        rows[p][0] = float(score)
    kinds, edges = board.kind, board.open
    roots = board.figure_roots()
    values = game.feature_values(roots, True)
    early = min(1.0, game.bag_left / weights.late) if weights.late > 0 else 1.0
    scarce = scarce_roots(game, math.ceil(weights.scarce)) if weights.scarce > 0 else {}

    def scarcity(root: int) -> float:
        copies = scarce.get(root)
        return 1.0 if copies is None else copies / weights.scarce

    def odds(root: int) -> float:
        return weights.completion * early * weights.per_open_edge ** (edges[root] - 1) * scarcity(root)

    field_share = 1.0 - (1.0 - weights.field_share) * early
    for root, value in zip(roots, values, strict=True):
        kind, part = kinds[root], [0.0] * len(PARTS)
        if kind == "field":
            part[6], part[7] = value * (1 - early), value * early
            if weights.completion * early:
                done_cities = board.completed_cities_of_field(root)
                per_city = value / done_cities if done_cities else FIELD_POINTS_A_CITY
                part[8] = per_city * field_share * sum(odds(c) for c in board.cities_of_field(root) if edges[c])
        elif kind in CLOSABLE_KINDS:  # (one completed this turn scores when the turn ends: as it stands)
            part[1 if kind == "city" else 2] = value
            if edges[root] and weights.completion * early:
                now = value * weights.city_share if kind == "city" else float(value)
                gain = early * scarcity(root) * (game.feature_value(root, False) - now)
                part[2 + min(edges[root], 3)] = gain * weights.per_open_edge ** max(0, edges[root] - 3)
        else:
            part[9] = value
        for p in game.majority(root):  # (as holdings gives a feature's points)
            rows[p] = [a + b for a, b in zip(rows[p], part, strict=True)]
    extra = [weights.end_share * points for points in end_bonus(game)] if game.hooks("final_scoring") else None
    for hook in game.hooks("prospects"):
        more = hook(game)
        extra = [a + b for a, b in zip(extra or [0.0] * len(rows), more, strict=True)]
    in_hand = hand_worths(game, weights.hand, 1.0, 0.0)
    holds_one = hand_worths(game, weights.hand, 0.0, 1.0)  # (1 a player with a follower, as it falls)
    for p, row in enumerate(rows):
        row[10] = extra[p] if extra else 0.0
        row[11] = in_hand[p]
        row[12] = holds_one[p]
        row[13] = 1.0 if game.actor == p else 0.0
    return rows


Sample = tuple[int, int, list[list[float]], list[int]]  # (game, tiles left, parts, final scores)


def play(job: tuple[int, str, str]) -> list[Sample]:
    """One game of normal (with the weights ``Weights.parse`` reads) against itself, with its sampled
    positions, split into parts as those weights value them."""
    number, family, text = job
    weights = Weights.parse(text)
    seed = random.Random(f"valuation|{number}").getrandbits(32)
    game = Game(["A", "B"], NAMED_FAMILIES[family], seed=seed)
    players = [OneMove(player_seed(f"valuation, {family}", number, seat), weights=weights) for seat in "AB"]
    sampling = random.Random(seed)
    taken: list[tuple[int, list[list[float]]]] = []
    while not game.finished:
        if game.step == "tile" and sampling.random() < 0.25:
            taken.append((game.bag_left, components(game, weights)))
        game.apply(players[game.actor].choose(game))
    return [(number, left, parts, list(game.scores)) for left, parts in taken]


def fit(samples: list[Sample]) -> tuple[list[float], list[float], int] | None:
    """Least squares of the final margin on the parts' differences: (coefficients, their 95%
    half-intervals clustered by game, positions); None for too few positions. A part that never
    differs is left out (its coefficient nan)."""
    import numpy as np  # (a benchmark's dependency: requirements-dev.txt)

    x = np.array([[a - b for a, b in zip(parts[0], parts[1], strict=True)] for _g, _left, parts, _s in samples])
    y = np.array([scores[0] - scores[1] for _g, _left, _parts, scores in samples], dtype=float)
    games = np.array([g for g, _left, _parts, _s in samples])
    used = [i for i in range(x.shape[1]) if np.any(x[:, i])]
    if len(samples) <= 2 * len(used):
        return None
    xs = x[:, used]
    beta, *_ = np.linalg.lstsq(xs, y, rcond=None)
    residual = y - xs @ beta
    bread = np.linalg.pinv(xs.T @ xs)
    meat = np.zeros((len(used), len(used)))
    for g in np.unique(games):
        score = xs[games == g].T @ residual[games == g]
        meat += np.outer(score, score)
    spread = 1.96 * np.sqrt(np.diag(bread @ meat @ bread))
    coefficients, halves = [math.nan] * len(PARTS), [math.nan] * len(PARTS)
    for k, i in enumerate(used):
        coefficients[i], halves[i] = float(beta[k]), float(spread[k])
    return coefficients, halves, len(samples)


PHASES = ((48, 99), (24, 47), (12, 23), (0, 11))  # tiles left


def _without_followers(samples: list[Sample]) -> list[float]:
    """Of each phase's positions (but those with the bag empty, where the part is 0 for everyone), the
    share of players with no follower in hand."""
    index = PARTS.index("a follower in hand")
    shares = []
    for low, high in PHASES:
        rows = [row for _g, left, parts, _s in samples if low <= left <= high and left for row in parts]
        shares.append(sum(1 for row in rows if not row[index]) / max(1, len(rows)))
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--family", choices=sorted(NAMED_FAMILIES), default="base")
    parser.add_argument("--weights", default="", help='normal\'s weights, e.g. "reserve=0" (the defaults when empty)')
    parser.add_argument("--first-game", type=int, default=0, help="the first game's number (fresh seeds)")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    weights = Weights.parse(args.weights)  # (refused here, not in every worker)
    jobs = [(n, args.family, args.weights) for n in range(args.first_game, args.first_game + args.games)]
    samples: list[Sample] = []
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        for found in pool.imap_unordered(play, jobs, chunksize=4):
            samples += found
    fits: list[Any] = [fit([s for s in samples if low <= s[1] <= high]) for low, high in PHASES]
    headers = ["part", "now", *(f"{low}-{high} tiles left" for low, high in PHASES)]
    rows = []
    for i, (part, worth) in enumerate(zip(PARTS, current_worths(weights), strict=True)):
        cells = [part, f"{worth:.2f}"]
        for found in fits:
            value = found[0][i] if found else math.nan
            cells.append("-" if math.isnan(value) else f"{value:.2f} ± {found[1][i]:.2f}")
        rows.append(cells)
    rows.append(["positions", "", *(str(found[2]) if found else "0" for found in fits)])
    # (how often a player has no follower left to claim with: a part's worth is only fitted where it differs)
    rows.append(["no follower in hand", "", *(f"{share:.0%}" for share in _without_followers(samples))])
    weighed = f" ({args.weights})" if args.weights else ""
    print(f"{args.games} games of normal{weighed} against itself, {args.family}; each part's worth by the end:")
    print_grid(headers, rows)


if __name__ == "__main__":
    main()
