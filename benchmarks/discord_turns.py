"""Interactions per turn and milliseconds per interaction on Discord: ``python -m benchmarks.discord_turns``.

Whole games are played through the real bot and discord.py's request path against
the fake Discord API (tests/discord_api.py), by players who press Take turn and then
pick at random in the panel, for each set family. Printed: interactions per
decision (Take turn included; the first version needed 5-7 for a normal turn, 8-11
with castles, lakes and ferries) and the time the bot took to answer each one.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.table import print_grid
from tests.discord_api import User, components_of, running
from tests.test_discord_play import FAMILIES, PANEL_ACT, actor, open_game, turn_message


async def measure(family: str, seed: int, folder: Path) -> tuple[list[int], list[float]]:
    users = [User(1000 + i, n) for i, n in enumerate(["Ann", "Bob", "Cy"])]
    rng = random.Random(seed)
    per_decision: list[int] = []
    timings: list[float] = []
    async with running(folder, users) as (h, channel, _):
        game_id, thread = await open_game(h, channel, users, FAMILIES[family])

        async def act(coro: Any) -> Any:
            start = time.perf_counter()
            answer = await coro
            timings.append((time.perf_counter() - start) * 1000)
            return answer

        while (user := await actor(h, game_id, users)) is not None:
            answer = await act(h.click(user, turn_message(h, thread), "Take turn"))
            panel = answer.private[-1]
            clicks = 1
            while not h.fake.messages[int(panel["id"])]["content"].startswith("Played"):
                panel = h.fake.messages[int(panel["id"])]
                choices = []
                for c in components_of(panel):
                    if c["type"] == 3:
                        choices += [(c["custom_id"], o["value"]) for o in c["options"]]
                    elif PANEL_ACT.match(c["custom_id"])["act"] != "b":  # type: ignore[index]
                        choices.append((c["custom_id"], None))
                custom_id, value = rng.choice(choices)
                await act(h.select(user, panel, custom_id, [value]) if value else h.click(user, panel, custom_id))
                clicks += 1
            per_decision.append(clicks)
        assert not h.fake.violations, h.fake.violations
    return per_decision, timings


async def main_async(games: int) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for family in FAMILIES:
            decisions: list[int] = []
            timings: list[float] = []
            for seed in range(games):
                folder = Path(tmp) / f"{family}-{seed}"
                folder.mkdir()
                d, t = await measure(family, seed, folder)
                decisions += d
                timings += t
            ordered = sorted(timings)
            rows.append([
                family, str(len(decisions)), f"{statistics.median(decisions):.0f}",
                f"{sorted(decisions)[int(0.9 * len(decisions))]}", f"{max(decisions)}",
                f"{statistics.mean(decisions):.2f}", f"{statistics.median(timings):.1f}",
                f"{ordered[int(0.99 * len(ordered))]:.1f}",
            ])  # fmt: skip
    print_grid(["sets", "decisions", "interactions p50", "p90", "max", "mean", "ms per interaction p50", "p99"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="3-player games per set family")
    asyncio.run(main_async(parser.parse_args().games))


if __name__ == "__main__":
    main()
