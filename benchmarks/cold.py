"""Cold start: ``python -m benchmarks.cold [--before DIR] [--runs N]``.

Times whole ``python -m engine.replay RECORD`` processes (start-up, imports, the
replay and its output) on a full game of every set (6 players, rivers, castles,
ferries, toll) and on a 2-player base game, against ``python -c pass``. With
``--before DIR`` (another checkout, e.g. ``git worktree add /tmp/before <commit>``)
the same commands run there too, A B A B..., and their outputs must be identical.
The machine is shared and noisy: medians, with min-max.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchmarks.table import print_grid


def records(folder: str) -> dict[str, str]:
    """The records replayed, written to ``folder``: name -> path."""
    from benchmarks.pictures import EVERY_SET, played

    games = {
        "every set, 6 players": played(EVERY_SET, 6, 9),
        "base, 2 players": played(["base"], 2, 3),
    }
    paths = {}
    for i, (name, game) in enumerate(games.items()):
        paths[name] = os.path.join(folder, f"record{i}.json")
        with open(paths[name], "w", encoding="utf-8") as fh:
            json.dump(game.to_json(), fh)
    return paths


def run(cwd: str, args: list[str]) -> tuple[float, bytes]:
    """(wall ms, output) of one process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, check=False)
    return (time.perf_counter() - start) * 1000, done.stdout


def figure(times: list[float]) -> str:
    return f"{statistics.median(times):.0f} ({min(times):.0f}-{max(times):.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", help="another checkout to compare with (interleaved)")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = {"now": here} | ({"before": os.path.abspath(args.before)} if args.before else {})
    with tempfile.TemporaryDirectory() as folder:
        commands = {"python -c pass": ["-c", "pass"]} | {
            f"engine.replay, {name}": ["-m", "engine.replay", path] for name, path in records(folder).items()
        }
        rows = []
        for label, command in commands.items():
            times: dict[str, list[float]] = {which: [] for which in dirs}
            outputs: dict[str, set[bytes]] = {which: set() for which in dirs}
            for cwd in dirs.values():  # warm-up (file caches)
                run(cwd, command)
            for _ in range(args.runs):
                for which, cwd in dirs.items():
                    ms, out = run(cwd, command)
                    times[which].append(ms)
                    outputs[which].add(out)
            row = [label, "<= 80" if "replay" in label and "every" in label else ""]
            row += [figure(times[which]) for which in dirs]
            if args.before:
                assert outputs["now"] == outputs["before"], f"{label}: the outputs differ"
                pairs = [a / b for a, b in zip(times["now"], times["before"], strict=True)]
                row.append(f"{statistics.median(pairs):.2f}")
            rows.append(row)
    headers = ["whole process, wall ms: median (min-max)", "goal", *dirs] + (["now/before"] if args.before else [])
    print_grid(headers, rows)
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("(PYTHONDONTWRITEBYTECODE is set: every run compiles the engine's sources)")


if __name__ == "__main__":
    main()
