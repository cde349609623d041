"""What the parts of the game service share: its state, authorisation and loading a game.

``GameService`` (service.games) joins the parts (lobbies, turns, clock) as mixins over this core;
each part calls the others only through the methods declared here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from engine import Game
from engine.language import _
from service import validate
from service.caller import Caller, caller
from service.gamelog import GameLog
from service.validate import ServiceError
from service.views import TurnView
from service.workers import Workers
from storage import GameRow, Store


class ServiceCore:
    store: Store
    log: GameLog
    clock: Callable[[], datetime]
    new_seed: Callable[[], int]
    workers: Workers | None
    limits: Any  # service.games.Limits
    instance_id: str
    member_check: Callable[[int, str], Awaitable[bool]] | None
    _failing: dict[int, str]
    _lease_holder: str | None
    active_games: int

    @staticmethod
    def authorize(row: GameRow, who: Caller) -> None:
        """A game is reached only from its own server (offline games only offline)."""
        if not who.may_see(row.guild_id):
            raise ServiceError(_("there is no game #{id} in this server").format(id=row.id))

    async def game(self, who: Caller, game_id: int) -> tuple[GameRow, Game]:
        """The stored row and its replayed game, read consistently under the game's lock.

        The game is the cached object: callers clone it before trying moves on it.
        """
        who, game_id = caller(who), validate.game_id(game_id)
        async with self.log.lock(game_id):
            row, game = await self.log.load(game_id)  # usually the cached game: no round trip
        self.authorize(row, who)
        return row, game

    # Implemented by the parts (declared here so that each part may call the others).
    async def lobby(self, who: Caller, game_id: int) -> GameRow:
        raise NotImplementedError

    async def turn(self, who: Caller, game_id: int, *, language: str | None = None) -> TurnView:
        raise NotImplementedError

    async def run_automatic(
        self, who: Caller, game_id: int, on_turn: Callable[[Game, list[dict[str, Any]]], Any] | None = None
    ) -> list[dict[str, Any]]:
        raise NotImplementedError
