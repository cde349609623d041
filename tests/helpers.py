"""Building concrete games for rules tests: a pool and the moves, as in a record."""

from __future__ import annotations

import io
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

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
async def league_services(path: Path) -> AsyncIterator[tuple[Any, Clock, Any, Any]]:
    """(database, clock, game service, league service) over a new database file; games' seeds count up."""
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
