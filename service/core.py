"""What the parts of the game service share: its state, authorisation and loading a game.

``GameService`` (service.games) joins the parts (lobbies, turns, clock) as mixins over this core;
each part calls the others only through the methods declared here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
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
from storage.outbox import Outgoing

# How long a process holds the outbox rows it is to post (service/clock.py): a process that died
# before posting them leaves them to whichever process ticks after that.
NOTICE_HOLD = timedelta(seconds=20)
# How long the process that played a turn holds its notice for the post it makes at once (a picture
# to draw first): past that, the clock of any process posts it (the process died, or its post failed).
PLAYED_HOLD = timedelta(minutes=2)


def no_game(game_id: int) -> ServiceError:
    """The refusal for any game out of the caller's reach: another server's, or none."""
    return ServiceError(_("there is no game #{id} in this server").format(id=game_id))


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
    _offered: list[int]
    outbox_turns: bool
    _ticks: int
    active_games: int
    tick_left: int
    _turn_limits: dict[int, tuple[str, Any]]
    tick_longest_batch: float

    def outgoing(
        self, holder: str, kind: str, row: GameRow, user_id: str, player: str, lines: list[str],
        hold: timedelta = NOTICE_HOLD,
    ) -> Outgoing:  # fmt: skip
        """A notice for the outbox, held by ``holder`` (who posts it once it commits) for ``hold``."""
        body = {"guild_id": row.guild_id, "user_id": user_id, "player": player, "lines": lines}
        return Outgoing(kind, body, holder, self.clock() + hold)

    @staticmethod
    def authorize(row: GameRow, who: Caller) -> None:
        """A game is reached only from its own server (offline games only offline)."""
        if not who.may_see(row.guild_id):
            raise no_game(row.id)

    async def reachable(self, who: Caller, game_id: int) -> None:
        """After a game failed to load (missing, a lobby, damaged): the one answer for a game that
        is not within the caller's reach, whatever its state (no telling another server's lobby
        from its running game, or from no game at all); the load's own error otherwise."""
        found, guild_id = await self.store.guild_of(game_id)
        if not found or not who.may_see(guild_id):
            raise no_game(game_id)

    async def game(self, who: Caller, game_id: int) -> tuple[GameRow, Game]:
        """The stored row and its replayed game, read consistently under the game's lock.

        The game is the cached object: callers clone it before trying moves on it.
        """
        who, game_id = caller(who), validate.game_id(game_id)
        try:
            async with self.log.lock(game_id):
                row, game = await self.log.load(game_id)  # usually the cached game: no round trip
        except ServiceError:
            await self.reachable(who, game_id)
            raise
        self.authorize(row, who)
        return row, game

    # Implemented by the parts (declared here so that each part may call the others).
    async def lobby(self, who: Caller, game_id: int) -> GameRow:
        raise NotImplementedError

    async def turn(self, who: Caller, game_id: int, *, language: str | None = None) -> TurnView:
        raise NotImplementedError

    async def run_automatic(
        self, who: Caller, game_id: int, on_turn: Callable[[Game, list[dict[str, Any]]], Any] | None = None,
        notify: str | None = None,
    ) -> list[dict[str, Any]]:  # fmt: skip
        raise NotImplementedError
