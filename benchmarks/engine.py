"""Engine speed: ``python -m benchmarks.engine [--games N] [--think S] [--compare TREE [--rounds R]]``.

Random 2-player base games played to the end through the public API (every
legal placement enumerated each turn, random follower choices, final scoring),
legal-placement enumeration, and replaying a full game's record; then, per set
family, random games per second and the ``hard`` computer's playouts per second
(its search run for ``--think`` seconds on positions of random games).

``--compare TREE`` measures this source tree against another checkout (e.g. a worktree of
``main``; ``.`` for this one, to set its two engines side by side with ``--old-engine python
--new-engine compiled``) instead: each round runs one subprocess per tree, the order alternating between rounds,
so both see the same drift of a shared machine; the table gives each tree's best and median round
and the ratio of this tree's to the other's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.table import print_grid, print_table
from engine import Game
from engine.ai import RandomPlayer
from engine.ai.search import Search
from engine.expansions.families import NAMED_FAMILIES
from engine.record import load

# base, the rivers with every set that combines with them, the wheel with base and every set that
# combines with it (engine/expansions/families.py: built from the table of sets)
FAMILIES = NAMED_FAMILIES


def play_random(seed: int, sets: list[str] | None = None) -> Game:
    game = Game(["Ann", "Bob"], sets or ["base"], seed=seed)
    ai = RandomPlayer(seed)
    while not game.finished:
        game.apply(ai.choose(game))
    return game


def games_per_second(n: int, rounds: int = 5) -> tuple[float, float]:
    """(best, median) rate over several rounds: this machine's speed drifts a lot
    between runs (shared cores), so the best round is the figure for the code."""
    rates = []
    for r in range(rounds):
        start = time.perf_counter()
        for seed in range(r * n, (r + 1) * n):
            play_random(seed)
        rates.append(n / (time.perf_counter() - start))
    return max(rates), statistics.median(rates)


def enumeration_us(n: int) -> float:
    """Mean time to list every legal placement of the drawn tile, over real positions."""
    samples = []
    for seed in range(n):
        game = Game(["Ann", "Bob"], ["base"], seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            if game.step == "tile":
                tile = game.drawn
                start = time.perf_counter()
                game.board.fitting_placements(tile)
                samples.append(time.perf_counter() - start)
            game.apply(ai.choose(game))
    return statistics.mean(samples) * 1e6


def replay_ms(n: int) -> tuple[float, float]:
    records = [play_random(seed).to_json() for seed in range(n)]
    times = []
    for record in records:
        start = time.perf_counter()
        load(record)
        times.append(time.perf_counter() - start)
    return statistics.mean(times) * 1e3, max(times) * 1e3


def family_games_per_second(sets: list[str], n: int) -> float:
    start = time.perf_counter()
    for seed in range(n):
        play_random(seed, sets)
    return n / (time.perf_counter() - start)


def search_playouts_per_second(sets: list[str], seconds: float, games: int = 2) -> tuple[float, float]:
    """(playouts per second, median sequences listed a decision) of ``hard``'s search on the tile
    and castle decisions of a few random games (every eighth turn); the search lists a decision's
    sequences as it widens, so more time lists more."""
    done, spent, options = 0, 0.0, []
    for seed in range(games):
        game = Game(["Ann", "Bob"], sets, seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            if game.step in ("tile", "draw") and game.turn % 8 == 1:
                search = Search(seed, seconds, None)
                start = time.perf_counter()
                search.think(game)
                spent += time.perf_counter() - start
                done += search.last_playouts
                options.append(search.last_options)
            game.apply(ai.choose(game))
    return done / spent, statistics.median(options)


def one_round(games: int, think: float) -> dict[str, float]:
    """One round of the rates ``--compare`` sets side by side (random games and playouts per second)."""
    play_random(0)  # warm the tile tables
    rates = {"random base games/s": games_per_second(games, rounds=1)[0]}
    for family, sets in FAMILIES.items():
        rates[f"{family}: random games/s"] = family_games_per_second(sets, max(4, games // 10))
        rates[f"{family}: hard's playouts/s"] = search_playouts_per_second(sets, think, games=1)[0]
    return rates


def compare(other: Path, rounds: int, games: int, think: float, engines: dict[str, str | None]) -> None:
    """This tree against ``other``: rounds interleaved, each tree in its own process, alternately first;
    ``engines`` sets each side's CARC_ENGINE ("python", "compiled"; None: as the tree chooses)."""
    trees = {"new": Path(__file__).resolve().parent.parent, "old": other.resolve()}
    results: dict[str, list[dict[str, float]]] = {"new": [], "old": []}
    for r in range(rounds):
        for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
            env = dict(os.environ, PYTHONPATH=str(trees[name]))
            env.pop("CARC_ENGINE", None)
            if engines[name]:
                env["CARC_ENGINE"] = str(engines[name])
            # This file's code run in the tree measured, on its engine (as a script in benchmarks/, its
            # name would hide the engine package: it is run from ``-c`` instead).
            code = f"import sys; sys.argv = {[__file__, '--round', '--games', str(games), '--think', str(think)]!r}; "
            code += f"exec(compile(open({__file__!r}).read(), {__file__!r}, 'exec'), {{'__name__': '__main__'}})"
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, cwd=trees[name], check=True, capture_output=True, text=True
            )
            results[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(f"round {r + 1}/{rounds} {name} done", file=sys.stderr)
    rows = []
    for measure in results["new"][0]:
        old = [res[measure] for res in results["old"]]
        new = [res[measure] for res in results["new"]]
        rows.append(
            [
                measure,
                f"{max(old):.0f}",
                f"{statistics.median(old):.0f}",
                f"{max(new):.0f}",
                f"{statistics.median(new):.0f}",
                f"x{max(new) / max(old):.2f}",
                f"x{statistics.median(new) / statistics.median(old):.2f}",
            ]
        )
    ran = {name: engines[name] or "as the tree chooses" for name in trees}
    print(f"old: {trees['old']} ({ran['old']})  new: {trees['new']} ({ran['new']})  ({rounds} rounds interleaved)")
    print_grid(["measure", "old best", "old median", "new best", "new median", "best", "median"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per timing round")
    parser.add_argument("--think", type=float, default=0.5, help="seconds of search a position (playouts/s)")
    parser.add_argument("--compare", type=Path, help="another source tree to measure this one against")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of --compare (each tree once a round)")
    for side in ("old", "new"):
        parser.add_argument(
            f"--{side}-engine", choices=("python", "compiled"), help=f"the engine the {side} side runs (CARC_ENGINE)"
        )
    parser.add_argument("--round", action="store_true", help=argparse.SUPPRESS)  # one round of --compare, as JSON
    args = parser.parse_args()
    if args.round:
        print(json.dumps(one_round(args.games, args.think)))
        return
    if args.compare is not None:
        compare(args.compare, args.rounds, args.games, args.think, {"old": args.old_engine, "new": args.new_engine})
        return
    play_random(0)  # warm the tile tables
    gps, median = games_per_second(args.games)
    enum = enumeration_us(max(10, args.games // 10))
    mean_replay, worst_replay = replay_ms(max(10, args.games // 5))
    rows = [
        ("random base games per second (2 players, best of 5)", f"{gps:.0f}", ">= 400"),
        ("random base games per second (median of 5)", f"{median:.0f}", ""),
        ("legal-placement enumeration, mean", f"{enum:.1f} us", ""),
        ("full-game replay, mean", f"{mean_replay:.2f} ms", "< 10 ms"),
        ("full-game replay, worst", f"{worst_replay:.2f} ms", ""),
    ]
    for family, sets in FAMILIES.items():
        rate = family_games_per_second(sets, max(4, args.games // 10))
        playouts, options = search_playouts_per_second(sets, args.think)
        rows.append((f"{family}: random games per second", f"{rate:.0f}", ""))
        rows.append((f"{family}: hard's playouts per second (sequences listed)", f"{playouts:.0f} ({options:g})", ""))
    print_table(rows)
    print(f"random base games per second: {gps:.0f}")


if __name__ == "__main__":
    main()
