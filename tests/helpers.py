"""Building concrete games for rules tests: a pool and the moves, as in a record."""

from __future__ import annotations

import io
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engine
from engine import Game
from renderer.summary import REPLAY_SPLIT_MS


def tile(x: int, y: int, rot: int = 0, tile_id: str | None = None) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "tile", "x": x, "y": y, "rot": rot}
    if tile_id:
        move["tile"] = tile_id
    return move


def meeple(at: str, **cell: int) -> dict[str, Any]:
    return {"type": "meeple", "at": at, **cell}


PASS = {"type": "pass"}


def play(
    pool: list[str],
    moves: list[dict[str, Any]],
    players: tuple[str, ...] = ("Ann", "Bob"),
    sets: tuple[str, ...] = ("base",),
    **options: Any,
) -> tuple[Game, list[dict[str, Any]]]:
    game = Game(list(players), list(sets), seed=0, pool=pool, **options)
    events = list(game.start_events)
    for move in moves:
        events += game.apply(move)
    return game, events


def scored(events: list[dict[str, Any]], final: bool | None = None) -> list[tuple[str, dict[str, int]]]:
    return [
        (e["feature"], e["points"]) for e in events if e["type"] == "scored" and (final is None or e["final"] == final)
    ]


class Clock:
    """A settable clock for the service; ``tick`` seconds pass at every reading."""

    def __init__(self, tick: int = 0) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
        self.tick = timedelta(seconds=tick)

    def __call__(self) -> datetime:
        self.now += self.tick
        return self.now


@asynccontextmanager
async def league_services(path: Path | str) -> AsyncIterator[tuple[Any, Clock, Any, Any]]:
    """(database, clock, game service, league service) over a new database (a file or a URL); games'
    seeds count up."""
    from service import GameService
    from service.leagues import LeagueService
    from storage import Store, open_database
    from storage.leagues import LeagueStore

    db = await open_database(path)
    clock = Clock(1)
    games = GameService(Store(db), clock, new_seed=itertools.count(1).__next__)
    try:
        yield db, clock, games, LeagueService(games, LeagueStore(games.store), clock)
    finally:
        await db.close()


def turn_frames(data: bytes) -> list[Image.Image]:
    """The replay GIF as its viewer sees each turn: the frame shown at the end of the turn
    (a turn whose changes lie far apart is two frames, the first held REPLAY_SPLIT_MS)."""
    gif = Image.open(io.BytesIO(data))
    out = []
    for k in range(gif.n_frames):
        gif.seek(k)
        if gif.info["duration"] != REPLAY_SPLIT_MS:
            out.append(gif.convert("RGB"))
    return out


# ---------------------------------------------------------------------- callers
def as_(user_id: str, guild_id: str | None = None, manager: bool = False, roles: Any = ()) -> Any:
    """A user acting in a server (``guild_id``), or offline (no server) as the terminal does."""
    from service import Caller

    if guild_id is None:  # an offline game has no server to manage: a test may still say it does
        return Caller(user_id, None, "offline", manager, tuple(roles or ()))
    return Caller.member(user_id, guild_id, manager, tuple(roles or ()))


def anyone(guild_id: str | None) -> Any:
    """The service acting for a server's games (reads that need no particular player)."""
    from service import Caller

    return Caller.system(guild_id)


SYSTEM = anyone(None)  # reaches the games of no server (the service tests' games)


class Drafted:
    """What the question asks once a draft of the turn's first moves is made (through ``ask``)."""

    def __init__(self, question: Any) -> None:
        self.question = question
        self.step = question.kind if question is not None else None
        self.player = question.player if question is not None else None
        self.choices = [option for option in question.options] if question is not None else []
        if question is not None and question.pass_label is not None:
            self.choices.append(_Pass(question.pass_label))


class _Pass:
    def __init__(self, label: str) -> None:
        self.label, self.move = label, {"type": "pass"}


async def draft_question(service: Any, who: Any, game_id: int, version: int, draft: list[dict[str, Any]]) -> Drafted:
    """The question after ``draft`` (moves among those offered), asked as the panel asks: by picks."""
    from service import ServiceError

    picks: list[int] = []
    for move in draft:
        ask = await service.ask(who, game_id, picks, version)
        if len(ask.moves) > len(picks) and ask.moves[-1] == move:
            continue  # a forced choice the service made (a single option)
        offered = ask.question.moves() if ask.question is not None else []
        matches = [i for i, m in enumerate(offered) if {k: m.get(k) for k in move} == move]
        if not matches:
            raise ServiceError(f"{move} is not on offer")
        picks.append(matches[0])
    return Drafted((await service.ask(who, game_id, picks, version)).question)


async def any_of(service: Any, game_id: int) -> Any:
    """The service acting for the server a game belongs to (tests reading a game as its thread shows it)."""
    from service import Caller

    return Caller.system((await service.store.get_game(game_id)).guild_id)


#: a test that reads the engine's objects as Python objects do (``vars``, a TypedDict's inherited keys):
#: the compiled engine's (engine/_compiled.py, CARC_ENGINE=compiled) are native classes, without them
python_engine_only = pytest.mark.skipif(
    engine.IMPLEMENTATION == "compiled", reason="reads the engine's objects as Python objects (vars, annotations)"
)
