"""Entry point.

    python bot.py              run the Discord bot (needs DISCORD_TOKEN in .env)
    python bot.py demo ...     computer players play a whole game offline (pictures, record, replay)
    python bot.py play ...     a game in the terminal, humans and computers
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path


def _load_env() -> None:
    try:
        from dotenv import load_dotenv
    except ImportError:  # the demo and the console run without it
        return
    load_dotenv()


def _sets(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def run_bot() -> int:
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
    _load_env()
    parser = argparse.ArgumentParser(prog="bot.py", description="Carcassonne on Discord")
    sub = parser.add_subparsers(dest="command")
    p_demo = sub.add_parser("demo", help="computer players play a whole game offline")
    p_demo.add_argument("--sets", default="base", help="comma-separated sets, e.g. base,toll")
    p_demo.add_argument("--players", type=int, default=3, choices=range(2, 7), metavar="N", help="2 to 6")
    p_demo.add_argument("--seed", type=int, default=1)
    p_demo.add_argument("--out", default="demo-out", help="folder for the database, pictures and record")
    p_demo.add_argument("--no-pictures", action="store_true", help="only the record")
    p_play = sub.add_parser("play", help="play in the terminal (commands are read from stdin)")
    p_play.add_argument("--sets", default="base")
    p_play.add_argument("--humans", default="You", help="comma-separated names of the human players")
    p_play.add_argument("--ai", type=int, default=1, help="number of computer players")
    p_play.add_argument("--seed", type=int, default=None)
    p_play.add_argument("--db", default=os.environ.get("DATABASE_PATH", "data/carcassonne.db"))
    p_play.add_argument("--pictures", default=None, help="folder for a board picture before each turn")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from console.demo import run_demo

        return asyncio.run(run_demo(_sets(args.sets), args.players, args.seed, Path(args.out), not args.no_pictures))
    if args.command == "play":
        from console.play import run_console

        humans = [h.strip() for h in args.humans.split(",") if h.strip()]
        pictures = Path(args.pictures) if args.pictures else None
        return asyncio.run(run_console(_sets(args.sets), humans, args.ai, args.seed, Path(args.db), pictures))
    return run_bot()


if __name__ == "__main__":
    sys.exit(main())
