"""``python -m benchmarks.sprt --settings "depth=1" [--against "" | --against-level normal] [--family F]
[--seconds 0.25] [--against-seconds S] [--elo0 0 --elo1 30]``: is a change to hard's search an
improvement? Self-play under a sequential probability ratio test, as engine projects tune their search.

Hard with ``--settings`` (``engine.ai.search.Settings.parse``: the knobs changed from the defaults)
plays hard with ``--against`` (the defaults when empty), or the level ``--against-level``, in pairs
of two-player games: one seed, each player first once (the pair is the unit: the seat and the bag
cancel out within it), each player's generator seeded apart from the game's seed. After each pair
the generalized SPRT's log-likelihood ratio of "the change is worth ``--elo1``" against "it is worth
``--elo0``" is updated (normal approximation on the pairs' mean scores, as Fishtest does); the run
stops when it leaves ``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]`` (not before ``--min-pairs``),
or after ``--max-pairs`` or ``--minutes``, or when it is stopped (Ctrl-C or a plain ``kill``: it sums
up the pairs played). ``--first-pair N`` starts at another seed, for a fresh test of the same change.
``--against-seconds`` gives the other player another budget (does more time buy strength?).
``--settings`` may change the evaluation's weights too (``engine.ai.evaluation.Weights``:
``completion=0.5``), or only those the search judges positions by, its play-out policy unchanged
(``value.completion=0.5``). ``--tested SPEC`` plays another player than hard with settings: ``normal:WEIGHTS``
is normal with those weights (``normal:completion=0.5``; a kind of figure by name is its worth in
hand, in plain followers: ``normal:big=0,pig=0``; the others as declared), and ``--against-level``
takes the same (``normal:`` alone: the defaults).
Reported: pairs played, the score with its 95% interval, the Elo difference it means, the mean
margin a game with its 95% interval, the LLR and the verdict (H1: accept the change; H0: reject it; none yet).
Minutes to hours, not for CI.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import signal
import statistics
import sys
import time
from typing import Any

from benchmarks.ai import player_seed, reference_or_level
from engine import Game
from engine.ai.evaluation import Weights
from engine.ai.players import OneMove
from engine.ai.search import Search, Settings
from engine.expansions.families import NAMED_FAMILIES

Job = tuple[str, str, str, str, int, float, float]
VARIANCE_FLOOR = 0.01  # of the pairs' scores: pairs all alike so far (say, each a win and a loss) have none


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def elo_of(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def llr(pairs: list[float], elo0: float, elo1: float) -> float:
    """The generalized SPRT's log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``), from the
    pairs' mean scores (each in [0, 1]), by the normal approximation."""
    n = len(pairs)
    if n < 2:
        return 0.0
    # (a floor: a few pairs say little of the spread, and no spread would make any lead certain)
    variance = max(statistics.pvariance(pairs), VARIANCE_FLOOR)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * statistics.fmean(pairs) - s0 - s1) / (2 * variance)


def _player(spec: str, seed: int, seconds: float) -> Any:
    """``hard:<settings>`` (search settings and weights, as ``Settings.parse`` reads them),
    ``normal:<weights>`` (``Weights.parse``), a reference player or a level."""
    if spec.startswith("hard:"):
        return Search(seed, seconds, None, Settings.parse(spec[5:]))
    if spec.startswith("normal:"):
        return OneMove(seed, weights=Weights.parse(spec[7:]))
    return reference_or_level(spec, seed, seconds, None)


def play_pair(job: Job) -> tuple[int, float, float]:
    """Both games of one seed (each player first once): (the pair's number, the tested player's mean
    score, mean margin)."""
    tested, other, family, label, pair, seconds, other_seconds = job
    seed = 5000 + pair  # (the pair's number, from --first-pair on)
    score = margin = 0.0
    for tested_first in (True, False):
        names = ["T", "O"] if tested_first else ["O", "T"]
        game = Game(names, NAMED_FAMILIES[family], seed=seed)
        players = {
            "T": _player(tested, player_seed(label, pair, "T" if tested_first else "t"), seconds),
            "O": _player(other, player_seed(label, pair, "O" if tested_first else "o"), other_seconds),
        }
        while not game.finished:
            game.apply(players[game.players[game.actor]].choose(game))
        scores = game.score_table()
        diff = scores["T"] - scores["O"]
        score += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        margin += diff
    return pair, score / 2, margin / 2


def _stop(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tests = parser.add_mutually_exclusive_group(required=True)
    tests.add_argument("--settings", help='the tested search settings, e.g. "depth=1,policy_sample=6"')
    tests.add_argument("--tested", help='another tested player, e.g. "normal:big=0" (see above)')
    parser.add_argument("--against", default="", help="the other player's search settings (default: the defaults)")
    parser.add_argument("--against-level", default=None, help="play this level (normal, greedy...) instead")
    parser.add_argument("--family", default="base", choices=list(NAMED_FAMILIES))
    parser.add_argument("--seconds", type=float, default=0.25, help="each search's seconds a decision")
    parser.add_argument(
        "--against-seconds", type=float, default=None, help="the other player's seconds (default: --seconds)"
    )
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=30.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-pairs", type=int, default=300)
    parser.add_argument("--first-pair", type=int, default=0, help="the first pair's number (fresh seeds: a new test)")
    parser.add_argument("--min-pairs", type=int, default=20, help="pairs played before any verdict")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long, verdict or not")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    tested = args.tested or f"hard:{args.settings}"
    other_seconds = args.seconds if args.against_seconds is None else args.against_seconds
    other = args.against_level or f"hard:{args.against}"
    for spec in (tested, other):
        try:
            _player(spec, 0, args.seconds)
        except ValueError as error:
            parser.error(str(error))
    label = f"sprt|{tested}|{other}|{args.family}|{args.seconds}"
    if other_seconds != args.seconds:  # (the label seeds the players: an equal budget keeps the old seeds)
        label += f"|{other_seconds}"
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    numbers = range(args.first_pair, args.first_pair + args.max_pairs)
    jobs: list[Job] = [(tested, other, args.family, label, pair, args.seconds, other_seconds) for pair in numbers]
    pairs: list[float] = []
    margins: list[float] = []
    verdict, ratio = "none yet", 0.0
    start = time.perf_counter()
    signal.signal(signal.SIGTERM, _stop)
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        try:
            for pair, score, margin in pool.imap_unordered(play_pair, jobs):
                pairs.append(score)
                margins.append(margin)
                ratio = llr(pairs, args.elo0, args.elo1)
                # (the pair's own result too, by its number: a log is enough to sum up a run stopped
                # from outside, or to compare two runs on the same seeds pair by pair)
                print(
                    f"{len(pairs)} pairs: score {statistics.fmean(pairs):.3f}, "
                    f"margin {statistics.fmean(margins):+.1f}, "
                    f"LLR {ratio:+.2f} [{lower:.2f}, {upper:.2f}] (pair {pair}: {score:.2f}, {margin:+.1f})",
                    file=sys.stderr,
                    flush=True,
                )
                if len(pairs) >= args.min_pairs and (ratio >= upper or ratio <= lower):
                    verdict = "H1: accept the change" if ratio >= upper else "H0: reject the change"
                    break
                if args.minutes is not None and time.perf_counter() - start > 60 * args.minutes:
                    verdict = f"none after {args.minutes:g} minutes"
                    break
        except KeyboardInterrupt:  # (Ctrl-C or a plain kill: stopped by hand, summed up all the same)
            verdict = "none: stopped"
        pool.terminate()
    if not pairs:
        return
    n = len(pairs)
    mean = statistics.fmean(pairs)
    half = 1.96 * statistics.pstdev(pairs) / math.sqrt(n) if n > 1 else 0.5
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    spread = 1.96 * statistics.pstdev(margins) / math.sqrt(n) if n > 1 else 0.0
    budgets = f"{args.seconds:g} s" + ("" if other_seconds == args.seconds else f" against {other_seconds:g} s")
    print(f"{tested} vs {other}, {args.family}, {budgets} a decision, elo0 {args.elo0:g} elo1 {args.elo1:g}")
    print(
        f"{n} pairs ({2 * n} games, {time.perf_counter() - start:.0f} s): score {100 * mean:.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}], Elo {elo_of(mean):+.0f} [{elo_of(low):+.0f}, {elo_of(high):+.0f}], "
        f"margin {statistics.fmean(margins):+.1f} [{statistics.fmean(margins) - spread:+.1f}, "
        f"{statistics.fmean(margins) + spread:+.1f}], LLR {ratio:+.2f} [{lower:.2f}, {upper:.2f}]: {verdict}"
    )


if __name__ == "__main__":
    main()
