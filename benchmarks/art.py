"""The tile art's cost: ``python -m benchmarks.art [--before DIR] [--rounds N]``.

The same three turn pictures (base; rivers, castles, ferries and toll; the wheel), 4 players,
40 turns in, measured in a fresh process: drawing every tile's art the first time (the cold
cache), the turn picture once the art is cached, encoding it as the bot does (``png_bytes``),
and its size. With ``--before DIR`` (another checkout, e.g. ``git worktree add /tmp/before HEAD``)
the same code runs there, rounds interleaved (now, before, now, ...), so that the procedural art
is compared with the flat one on the same machine at the same time. Target: encoding <= 8 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from benchmarks.table import print_grid

# Runs in either checkout: only APIs both have.
MEASURE = r"""
import json, time
from engine import Game
from engine.ai import GreedyPlayer
from renderer.board import label_cells, png_bytes, render_turn
out = {}
for name, sets in (("base", ["base"]), ("rivers, castles, ferries, toll",
                   ["base", "river1", "river2", "castles", "ferries", "toll"]), ("wheel", ["base", "wheel"])):
    game = Game([f"P{i}" for i in range(4)], sets, seed=5)
    ais = [GreedyPlayer(5 + i) for i in range(4)]
    while not game.finished and (game.turn < 40 or game.step != "tile"):
        game.apply(ais[game.actor].choose(game))
    legal = label_cells(list(game.legal_placements()))
    t0 = time.perf_counter(); img = render_turn(game, legal); cold = time.perf_counter() - t0
    warm, encode = [], []
    for _ in range(9):
        t0 = time.perf_counter(); img = render_turn(game, legal); t1 = time.perf_counter()
        data = png_bytes(img); t2 = time.perf_counter()
        warm.append(t1 - t0); encode.append(t2 - t1)
    warm.sort(); encode.sort()
    out[name] = [cold * 1000, warm[4] * 1000, encode[4] * 1000, len(data) / 1024, img.width]
print(json.dumps(out))
"""


def measure(cwd: str) -> dict[str, list[float]]:
    done = subprocess.run([sys.executable, "-c", MEASURE], cwd=cwd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", help="another checkout to compare with (interleaved)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = {"now": here} | ({"before": os.path.abspath(args.before)} if args.before else {})
    samples: dict[str, list[dict[str, list[float]]]] = {tree: [] for tree in trees}
    for _round in range(args.rounds):
        for tree, cwd in trees.items():
            samples[tree].append(measure(cwd))
    rows = []
    for name in samples["now"][0]:
        for tree in trees:
            runs = [s[name] for s in samples[tree]]

            def med(k: int, runs: list[list[float]] = runs) -> float:
                return statistics.median(r[k] for r in runs)

            rows.append([name, tree, f"{med(0):.0f}", f"{med(1):.1f}", f"{med(2):.1f}", f"{med(3):.0f}",
                         f"{int(med(4))}"])  # fmt: skip
        if "before" in trees:
            now = statistics.median(s[name][2] for s in samples["now"])
            before = statistics.median(s[name][2] for s in samples["before"])
            rows.append([name, "encode now / before", "", "", f"{now / before:.2f}x", "", ""])
    print(f"turn pictures, median of {args.rounds} fresh processes per tree; target: encode <= 8 ms")
    print_grid(["game", "tree", "art cold ms", "picture ms", "encode ms", "KiB", "px wide"], rows)


if __name__ == "__main__":
    main()
