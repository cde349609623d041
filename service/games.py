"""The game service: one object every front end (Discord cogs, the console, the demo) calls.

It is split by concern: ``lobbies`` (opening, seats, options, start, abort), ``turns`` (the
question, picks, moves, automatic moves), ``clock`` (deadlines), ``gamelog`` (loading,
snapshots, committing a turn), ``players`` (settings); this module joins them and holds what a
game's readers share (authorisation, the record, pictures, listings). Every call that reads or
changes a game names its caller (``service.caller``).
"""

from __future__ import annotations

import functools
import json
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from engine.language import _, ngettext
from engine.record import public_record
from locales import LANGUAGES, spoken
from service import validate
from service.announce import game_language, in_language
from service.caller import Caller, caller
from service.clock import Clock
from service.gamelog import GameLog
from service.lobbies import Lobbies, new_seed
from service.turns import Turns
from service.validate import ServiceError
from service.views import PlayerStats
from service.workers import Workers, category_totals
from storage import GameRow, Store
from storage.rows import Corrupted

log = logging.getLogger(__name__)
PictureT = TypeVar("PictureT", bytes, list[bytes])  # what a renderer job makes: a picture, or several
STATS_RECENT = 20  # the latest games /carc stats replays for points by category


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Limits:
    """What a public bot allows one user and one server (``.env``: LOBBIES_PER_USER, LOBBIES_PER_SERVER)."""

    lobbies_per_user: int = 3
    lobbies_per_server: int = 25
    vacation_days: int = 30  # a year's vacation days per player (VACATION_DAYS)

    @classmethod
    def from_env(cls) -> Limits:
        def number(name: str, default: int) -> int:
            text = os.environ.get(name, "").strip()
            return int(text) if text.isascii() and text.isdigit() else default

        return cls(
            number("LOBBIES_PER_USER", cls.lobbies_per_user), number("LOBBIES_PER_SERVER", cls.lobbies_per_server),
            number("VACATION_DAYS", cls.vacation_days),
        )


@validate.boundary
class GameService(Lobbies, Turns, Clock):
    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utcnow,
        new_seed: Callable[[], int] = new_seed,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.workers: Workers | None = None  # set by the bot: computer players think in its pool
        self.clock = clock
        self.new_seed = new_seed  # seeds of new games (tests make them predictable)
        self.limits = limits or Limits()
        self.log = GameLog(store, clock)
        # This process, for the clock's lease; its machine's name first, so that a container's
        # health check (`health --here`) judges its own process, not its neighbours'.
        self.instance_id = f"{socket.gethostname()[:40]}-{uuid.uuid4().hex[:8]}"
        self._failing: dict[int, str] = {}  # game id -> the failure the clock last reported
        self._lease_holder: str | None = None  # the other instance holding the clock, once warned
        self._offered: list[int] = []  # outbox rows the last tick handed the front end to post
        self._ticks = 0  # ticks so far (each tick holds the notices it writes under its own name)
        # A front end that posts each turn played and marks it posted (PlayResult.outbox,
        # mark_posted) says so: then a played turn's post is in the outbox too, and a post its
        # process never made (it died) is made by the clock. Off: the caller tells players itself.
        self.outbox_turns = False
        self.active_games = 0  # as the last clock tick counted them (metrics)
        self._turn_limits: dict[int, tuple[str, Any]] = {}  # game id -> (options JSON, its turn limit)
        self.tick_left = 0  # due games the last tick left to the next (its time budget ran out)
        self.tick_longest_batch = 0.0  # seconds: the longest a batch of the last tick held its claims
        # Set by the league service: who may sit in a league game.
        self.member_check: Callable[[int, str], Awaitable[bool]] | None = None

    @property
    def finished_listeners(self) -> list[Callable[[int], Awaitable[Any]]]:
        """Called with a game's id once it ends (the league service rates it)."""
        return self.log.finished_listeners

    # ------------------------------------------------------------------ what players may read
    async def bag(self, who: Caller, game_id: int) -> dict[str, int]:
        """Tiles left in the bag, by tile id (how many of each, never their order)."""
        _row, game = await self.game(who, game_id)
        counts: dict[str, int] = {}
        for tile_id in game.remaining_tiles():
            counts[tile_id] = counts.get(tile_id, 0) + 1
        return dict(sorted(counts.items()))

    async def export(self, who: Caller, game_id: int) -> dict[str, Any]:
        """The game's record (RECORD.md), replayable with ``python -m engine.replay``. Of a game
        in progress, the public record: the tiles drawn so far and how many are hidden, no seed."""
        _row, game = await self.game(who, game_id)
        return public_record(game)

    async def picture(
        self, who: Caller, job: Callable[..., PictureT], game_id: int, *args: Any, language: str | None = None
    ) -> PictureT:
        """A picture of the game made by ``job`` (one of renderer.jobs) from its record: in the
        worker pool when there is one (the bot), else right here (the console, the demo). Its
        words are in ``language`` (by default the one being spoken). The record is the full one:
        it stays in this process and its workers."""
        _row, game = await self.game(who, game_id)
        record = game.to_json()
        worded = functools.partial(job, language=language or spoken())
        if self.workers is None:
            return worded(record, *args)
        return await self.workers.run(worded, record, *args)  # type: ignore[no-any-return]

    async def games(self, who: Caller, user_id: str | None = None, status: str | None = None) -> list[GameRow]:
        """The games of the caller's server (or, offline, of no server), of a user if given; a
        damaged row is left out (and logged), so one corrupted game never hides the others."""
        who = caller(who)
        user_id = None if user_id is None else validate.user_id(user_id)
        if status is not None and status not in ("lobby", "active", "finished", "aborted"):
            raise validate.InvalidInput(f"unknown game status {validate.clip(status, 30)}")
        ids = await self.store.game_ids(status=status, guild_id=who.guild_id, user_id=user_id)
        rows: list[GameRow] = []
        for found in await self.store.get_games(ids):
            if isinstance(found, Corrupted):
                log.warning("listing games: %s", found)
            elif who.may_see(found.guild_id):  # game_ids matches every server when asked for none
                rows.append(found)
        return rows

    async def stats(self, who: Caller, user_id: str, league_id: int | None = None) -> PlayerStats:
        """A player's finished games in the caller's server (in one league of it, if given): games,
        wins, average and best score, and points by category over their latest games (replayed in
        the worker pool: the event loop replays nothing)."""
        user_id = validate.user_id(user_id)
        league_id = None if league_id is None else validate.league_id(league_id)
        rows = [
            r for r in await self.games(who, user_id=user_id, status="finished")
            if r.result and (league_id is None or r.league_id == league_id)
        ]  # fmt: skip
        played: list[tuple[GameRow, str, int, bool]] = []  # (row, their name, score, won)
        for row in rows:
            names = {uid: name for name, uid in (row.result or {}).get("users", {}).items()}
            scores = (row.result or {}).get("scores", {})
            name = names.get(user_id)
            if name is None or not isinstance(scores.get(name), int):
                continue
            played.append((row, name, scores[name], scores[name] == max(scores.values())))
        recent = sorted(played, key=lambda p: p[0].id)[-STATS_RECENT:]
        records = []
        for row, name, _score, _won in recent:
            moves = [json.loads(text) for _seq, _user, text in await self.store.moves(row.id)]
            setup = {k: v for k, v in (row.setup or {}).items() if k != "users"}
            records.append(({**setup, "moves": moves}, name))
        language = spoken()
        if self.workers is not None:
            categories = await self.workers.run(category_totals, records, language)
        else:
            categories = category_totals(records, language)
        scores = [p[2] for p in played]
        best = max(((p[2], p[0].id) for p in played), default=None)
        return PlayerStats(
            user_id, played[-1][1] if played else None, len(played), sum(1 for p in played if p[3]),
            sum(scores) / len(scores) if scores else 0.0, best, categories, len(recent),
        )  # fmt: skip

    async def game_for_thread(self, who: Caller, thread_id: str) -> int | None:
        """The game played in a Discord thread (or any front end's channel), if any."""
        game_id = await self.store.game_id_by_thread(validate.user_id(thread_id, "thread id"))
        if game_id is None:
            return None
        try:
            await self.lobby(who, game_id)
        except ServiceError:
            return None
        return game_id

    async def attach(
        self, who: Caller, game_id: int, thread_id: str | None = None, lobby_message: str | None = None
    ) -> None:
        """Remember where a front end shows the game (its thread, its lobby message)."""
        await self.lobby(who, game_id)
        thread_id, lobby_message = validate.guild_id(thread_id), validate.guild_id(lobby_message)
        await self.store.set_discord_ids(game_id, thread_id, lobby_message)

    # ------------------------------------------------------------------ players
    async def player_settings(self, who: Caller) -> dict[str, Any]:
        return await self.store.player_settings(caller(who).user_id)

    async def dm_settings(self, who: Caller, user_id: str) -> dict[str, Any]:
        """A player's turn-DM settings, read by the service acting for a server (the bot telling
        the player to move that it is their turn); no user reads another's."""
        if caller(who).kind != "system":
            raise ServiceError(_("only the bot reads another player's settings"))
        return await self.store.player_settings(validate.user_id(user_id))

    async def vacation(self, who: Caller, name: str, days: int) -> datetime | None:
        """Go away for ``days`` (0: come back now): the deadline clock neither reminds nor times out
        the player's turns meanwhile, in every game, and a turn waiting for them starts over when
        they are back. At most ``limits.vacation_days`` a year. Returns until when (None: back)."""
        who, name = caller(who), validate.display_name(name)
        if not validate.is_int(days) or not 0 <= days <= 366:
            raise validate.InvalidInput(_("a vacation is a number of days"))
        now = self.clock()
        until, taken = await self.store.vacation(who.user_id)
        year = str(now.year)
        if days == 0:
            if until is not None and until > now:  # back early: the days not taken are given back,
                taken[year] = max(0, taken.get(year, 0) - (until - now).days)
                await self.store.set_vacation(who.user_id, name, now, taken, now)  # and turns start now
            return None
        if until is not None and until > now:
            raise ServiceError(_("you are already on vacation (end it with days:0 first)"))
        allowance = self.limits.vacation_days - taken.get(year, 0)
        if days > allowance:
            raise ServiceError(
                ngettext("you have {n} vacation day left this year", "you have {n} vacation days left this year",
                         max(0, allowance)).format(n=max(0, allowance))
            )  # fmt: skip
        taken[year] = taken.get(year, 0) + days
        until = now + timedelta(days=days)
        await self.store.set_vacation(who.user_id, name, until, taken, now)
        return until

    async def away_until(self, who: Caller, user_id: str) -> datetime | None:
        """Until when a player is on vacation (None: not away): what the others are shown where the
        game waits for them."""
        caller(who)
        until, _taken = await self.store.vacation(validate.user_id(user_id))
        return until if until is not None and until > self.clock() else None

    async def forget_me(self, who: Caller) -> int:
        """Remove the caller's name and settings everywhere (``/carc forget-me``): they become
        "Player N" in each game they sat in (records included) and in their leagues; their moves
        stay, under that name. Returns how many games were renamed."""
        who = caller(who)

        def name_in(row: GameRow, seat: int) -> str:
            taken = {s.name for s in row.seats}
            with in_language(game_language(row)):
                n, name = seat + 1, _("Player {n}").format(n=seat + 1)
                while name in taken:
                    n += 1
                    name = _("Player {n}").format(n=n)
            return name

        games = await self.store.forget_player(who.user_id, name_in)
        for game_id in games:
            self.log.forget(game_id)  # its cached state holds the old name
        return len(games)

    async def save_player(
        self, who: Caller, name: str, dm_turns: bool | None = None, language: str | None = None
    ) -> None:
        """A player's settings: turn DMs on or off, and the language of those DMs (``locales``)."""
        who, name = caller(who), validate.display_name(name)
        if dm_turns is not None and not isinstance(dm_turns, bool):
            raise validate.InvalidInput(_("turn messages are on or off"))
        if language is not None and (not isinstance(language, str) or language not in LANGUAGES):
            raise ServiceError(_("the language is one of {languages}").format(languages=", ".join(LANGUAGES)))
        await self.store.save_player(who.user_id, name, self.clock(), dm_turns, language)
