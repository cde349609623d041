"""One bot process of tests/test_shared_database.py: it opens the shared database and races the
other processes on the same calls, then prints what it was told, one JSON object per line.

    python tests/shared_worker.py URL turns GAME_ID DECISIONS
        play the decision of whoever must act, DECISIONS times (the greedy computer's choice, the
        same in every process), each submitted at the same instant as the other processes'
    python tests/shared_worker.py URL league LEAGUE_ID
        start a Swiss season, then kick it off, each at the same instant as the others
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import computer_moves  # noqa: E402
from service import GameService, ServiceError  # noqa: E402
from service.leagues import CompetitionRules, LeagueService  # noqa: E402
from storage import Store, open_database  # noqa: E402
from storage.leagues import LeagueStore  # noqa: E402
from tests.helpers import anyone, as_  # noqa: E402

STEP = 0.05  # the processes submit on the same 50 ms boundary of the wall clock


async def together() -> None:
    """Wait for the next shared instant, so that every process's call lands at once."""
    now = time.time()
    await asyncio.sleep((int(now / STEP) + 2) * STEP - now)


def say(**what: object) -> None:
    print(json.dumps(what), flush=True)


async def turns(service: GameService, game_id: int, decisions: int) -> None:
    for _ in range(decisions):
        row, game = await service.game(anyone("g1"), game_id)
        if game.finished:
            break
        moves = computer_moves(game.clone(), "ai:greedy:1")
        user = row.setup["users"][game.actor]  # type: ignore[index]
        await together()
        try:
            await service.play(as_(user, row.guild_id), game_id, moves, row.version)
            say(version=row.version, accepted=True)
        except ServiceError as exc:
            say(version=row.version, accepted=False, why=str(exc))


async def league(leagues: LeagueService, league_id: int) -> None:
    boss = as_("boss", "g1", manager=True)
    await together()
    try:
        season = await leagues.start_season(boss, league_id, CompetitionRules(format="swiss", rounds=1))
        say(call="start_season", accepted=True, season=season)
    except ServiceError as exc:
        say(call="start_season", accepted=False, why=str(exc))
    await together()
    try:
        await leagues.kickoff(boss, league_id)
        say(call="kickoff", accepted=True)
    except ServiceError as exc:
        say(call="kickoff", accepted=False, why=str(exc))


async def main(url: str, mode: str, *args: str) -> None:
    db = await open_database(url)
    try:
        service = GameService(Store(db))
        if mode == "turns":
            await turns(service, int(args[0]), int(args[1]))
        else:
            await league(LeagueService(service, LeagueStore(service.store)), int(args[0]))
    finally:
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
