"""Entry point.

    python bot.py              run the Discord bot (needs DISCORD_TOKEN in .env)
    python bot.py demo ...     AI players play a whole game offline and write its record
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from engine import BadSetup, Game
from engine.ai import GreedyPlayer, RandomPlayer


def demo(args: argparse.Namespace) -> int:
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    names = [f"AI {i + 1}" for i in range(args.players)]
    try:
        game = Game(names, sets, seed=args.seed)
    except BadSetup as exc:
        print(f"cannot set up that game: {exc}", file=sys.stderr)
        return 2
    players = [GreedyPlayer(args.seed + i) if i % 2 == 0 else RandomPlayer(args.seed + i) for i in range(args.players)]
    total, shown = game.bag_left, -1
    while not game.finished:
        game.apply(players[game.actor].choose(game))
        done = total - game.bag_left
        if done != shown and sys.stdout.isatty():
            shown = done
            bar = "#" * (30 * done // max(1, total))
            print(f"\r[{bar:<30}] {done}/{total} tiles", end="", flush=True)
    if shown >= 0:
        print()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    record_path = out / "record.json"
    record_path.write_text(json.dumps(game.to_json(), indent=1))
    for name, score in sorted(game.score_table().items(), key=lambda kv: -kv[1]):
        print(f"{name:>6}: {score}")
    print(f"record written to {record_path} (replay it: python -m engine.replay {record_path})")
    return 0


def run_bot() -> int:
    try:
        from dotenv import load_dotenv

        load_dotenv()
    except ImportError:
        pass
    if not os.environ.get("DISCORD_TOKEN"):
        print(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there "
            "(or export DISCORD_TOKEN). `python bot.py demo` runs without Discord.",
            file=sys.stderr,
        )
        return 2
    print("The Discord front end is not part of this build yet; `python bot.py demo` plays offline.", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description="Carcassonne on Discord")
    sub = parser.add_subparsers(dest="command")
    p_demo = sub.add_parser("demo", help="AI players play a whole game offline")
    p_demo.add_argument("--sets", default="base", help="comma-separated sets, e.g. base,river1")
    p_demo.add_argument("--players", type=int, default=2, choices=range(2, 7), metavar="N", help="2 to 6")
    p_demo.add_argument("--seed", type=int, default=1)
    p_demo.add_argument("--out", default="demo-out", help="folder for the record")
    args = parser.parse_args(argv)
    if args.command == "demo":
        return demo(args)
    return run_bot()


if __name__ == "__main__":
    sys.exit(main())
