"""River speed: ``python -m benchmarks.river [--games N] [--against DIR]``.

Random 3-player games with each river family, timed over the river phase (where the
river rules run: completability checks, returned tiles) and over the whole game.
``--against DIR`` times another checkout of the project (e.g. ``git worktree add
/tmp/before <commit>``) in the same run, rounds interleaved, since this machine's
speed drifts between runs; the engine is imported from each tree in a subprocess.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path


def river_families() -> dict[str, list[str]]:
    """Each river with the base game, then every river, by label (built from the table of sets)."""
    from engine.expansions.families import RIVER_FAMILIES, family_label

    return {family_label(sets): sets for sets in RIVER_FAMILIES}


def measure(games: int, families: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """Per family: mean ms of the river phase, mean ms of a whole game, river tiles lost per game."""
    from engine import Game
    from engine.ai import RandomPlayer
    from engine.expansions.river import is_river

    out: dict[str, dict[str, float]] = {}
    for family, sets in families.items():
        river_s = whole_s = 0.0
        lost = 0
        for seed in range(games):
            start = time.perf_counter()
            game = Game(["Ann", "Bob", "Cy"], sets, seed=seed)
            ai = RandomPlayer(seed)
            events: list[dict] = []
            while not game.finished and (game.step != "tile" or is_river(game.drawn.id)):
                events += game.apply(ai.choose(game))
            river_s += time.perf_counter() - start
            while not game.finished:
                game.apply(ai.choose(game))
            whole_s += time.perf_counter() - start
            lost += sum(1 for e in events if e["type"] == "tile_discarded" and is_river(e["tile"]))
        out[family] = {"river_ms": river_s / games * 1e3, "game_ms": whole_s / games * 1e3, "lost": lost / games}
    return out


def measure_in(tree: Path, games: int, families: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """``measure`` run on the engine of another checkout (the families are this tree's: an older
    checkout may not build them)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = (
        f"import json, runpy; m = runpy.run_path({str(Path(__file__))!r}); "
        f"print(json.dumps(m['measure']({games}, {families!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    from benchmarks.table import print_table

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per family per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout to time in the same run")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = {"this tree": here} | ({"against": args.against} if args.against else {})
    families = river_families()
    best: dict[str, dict[str, dict[str, float]]] = {}
    for _ in range(args.rounds):  # interleaved: one round of each tree in turn
        for name, tree in trees.items():
            result = measure_in(tree, args.games, families)
            for family, figures in result.items():
                kept = best.setdefault(name, {}).setdefault(family, figures)
                for key in ("river_ms", "game_ms"):
                    kept[key] = min(kept[key], figures[key])
    rows = []
    for name in trees:
        for family, f in best[name].items():
            rows.append((f"{name}: {family} river phase, mean (best of {args.rounds})", f"{f['river_ms']:.1f} ms", ""))
            rows.append((f"{name}: {family} whole game, mean", f"{f['game_ms']:.1f} ms", ""))
            rows.append((f"{name}: {family} river tiles lost per game", f"{f['lost']:.2f}", "0"))
    print_table(rows)


if __name__ == "__main__":
    main()
