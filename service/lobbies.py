"""Lobbies: opening a game, seats, options (the expansions' own among them), starting and aborting."""

from __future__ import annotations

import contextlib
import random
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from engine import BadSetup, Game
from engine.ai import LEVELS
from engine.catalog import SET_TILES
from engine.expansions.registry import every_lobby_option_name, lobby_options
from engine.game import check_sets
from engine.language import N_, _
from locales import LANGUAGES
from service import validate
from service.announce import announce, game_language, in_language
from service.caller import Caller, caller
from service.core import PLAYED_HOLD, ServiceCore
from service.gamelog import TIMEOUT_POLICIES
from service.timecontrol import PER_TURN, BadTimeControl, canonical, parse, starting_banks
from service.validate import ServiceError
from service.views import PlayResult
from storage import Conflict, GameRow

AI_PREFIX = "ai:"
REMATCH_CLAIM = timedelta(days=3650)  # a game's rematch is claimed for good: one per game
# The levels as a computer seat's name says them ("Bot 2 (hard)").
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
SEED_BITS = 128  # a seed is never guessed from the tiles a game shows (RECORD.md: hidden)


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


@dataclass
class LobbyOptions:
    sets: list[str] = field(default_factory=lambda: ["base"])
    max_players: int = 5
    turn_limit: int = 24 * 3600  # seconds per turn; 0 = no limit
    timeout_policy: str = "skip"
    seed: int | None = None
    # The expansions' own lobby options by name (``Expansion.lobby_options``), e.g. {"castles": "chosen"}
    # (Castles in Germany: the hands dealt with the seed, or chosen in the lobby). An option of a set
    # not played is left out; an option not chosen has its default.
    choices: dict[str, str] = field(default_factory=dict)
    language: str = "en"  # of the game's public posts (locales.LANGUAGES)
    hints: bool = False  # /carc hint may be asked (never in a rated game)
    time_control: str = PER_TURN  # or a time bank, "3d+12h cap 5d" (service/timecontrol.py)

    def checked(self, new_seed: Callable[[], int] = new_seed) -> LobbyOptions:
        """Validated options; a missing seed is drawn from ``new_seed``."""
        validate.names(self.sets, "the sets")
        validate.whole_number(self.max_players, N_("the number of players"))
        validate.whole_number(self.turn_limit, N_("the turn limit"))
        if self.seed is not None:
            validate.seed(self.seed)
        try:
            sets = check_sets(list(self.sets))
        except BadSetup as exc:
            raise ServiceError(str(exc)) from None
        if not 2 <= self.max_players <= 6:
            raise ServiceError(_("a game takes 2 to 6 players"))
        if self.turn_limit < 0 or (0 < self.turn_limit < 60):
            raise ServiceError(_("the turn limit is at least a minute (or 0 for none)"))
        if not isinstance(self.timeout_policy, str) or self.timeout_policy not in TIMEOUT_POLICIES:
            raise ServiceError(
                _("the timeout policy is one of {policies}").format(policies=", ".join(TIMEOUT_POLICIES))
            )
        choices = _checked_choices(self.choices, sets)
        if not isinstance(self.language, str) or self.language not in LANGUAGES:
            raise ServiceError(_("the language is one of {languages}").format(languages=", ".join(LANGUAGES)))
        if not isinstance(self.hints, bool):
            raise validate.InvalidInput(_("hints are on or off"))
        try:
            time_control = canonical(self.time_control)
        except BadTimeControl as exc:
            raise ServiceError(str(exc)) from None
        seed = self.seed if self.seed is not None else new_seed()
        return LobbyOptions(
            sets, self.max_players, self.turn_limit, self.timeout_policy, seed, choices, self.language, self.hints,
            time_control,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        # The expansions' options sit beside the others, under their own names (as stored before).
        return {
            "sets": self.sets,
            "max_players": self.max_players,
            "turn_limit": self.turn_limit,
            "timeout_policy": self.timeout_policy,
            "seed": self.seed,
            "language": self.language,
            "hints": self.hints,
            "time_control": self.time_control,
            **self.choices,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LobbyOptions:
        keys = ("sets", "max_players", "turn_limit", "timeout_policy", "seed", "language", "hints", "time_control")
        known = every_lobby_option_name()
        choices = {k: v for k, v in data.items() if k in known}
        return cls(**{k: data[k] for k in keys if k in data}, choices=choices)


def _checked_choices(choices: Any, sets: list[str]) -> dict[str, str]:
    """The expansions' lobby options for these sets: each value one of its choices (the default
    when not given); an option of a set not played yet is kept when valid (``/carc new
    castles:chosen`` then Castles added in the lobby: chosen), a name nobody offers is refused."""
    if not isinstance(choices, dict) or len(choices) > 20:
        raise validate.InvalidInput(_("the expansions' options are a few names and values"))
    known = every_lobby_option_name()
    unknown = [k for k in choices if k not in known]
    if unknown:
        raise validate.InvalidInput(_("unknown lobby option {name}").format(name=validate.clip(str(unknown[0]), 40)))
    out = {}
    for _cls, option in lobby_options(sets):
        value = choices.get(option.name, option.default)
        allowed = [v for v, _meaning in option.choices]
        if not isinstance(value, str) or value not in allowed:
            raise ServiceError(
                _("{option} is one of {values}").format(option=_(option.title), values=", ".join(allowed))
            )
        out[option.name] = value
    for _cls, option in lobby_options(list(SET_TILES)):  # the sets not played (yet)
        value = choices.get(option.name)
        if option.name not in out and isinstance(value, str) and value in [v for v, _m in option.choices]:
            out[option.name] = value
    return out


class Lobbies(ServiceCore):
    """The lobby calls of ``GameService`` (a mixin: the state is the service's)."""

    async def create_lobby(
        self, who: Caller, name: str, options: LobbyOptions, channel_id: str | None = None,
        seat_creator: bool = True, league_id: int | None = None,
    ) -> GameRow:  # fmt: skip
        """Open a lobby in the caller's server; its creator takes the first seat unless
        ``seat_creator`` is False (a host who only watches, like the offline demo)."""
        who, name = caller(who), validate.display_name(name)
        channel_id = validate.guild_id(channel_id)
        if not isinstance(options, LobbyOptions):
            raise validate.InvalidInput(_("the lobby's options are not options"))
        opts = options.checked(self.new_seed)
        if who.kind == "member":  # a league lobby a member opens (/league play) counts too
            await self._check_lobby_limits(who)
        now = self.clock()
        game_id = await self.store.create_game(who.user_id, opts.to_json(), now, who.guild_id, channel_id, league_id)
        if seat_creator:
            await self.store.add_seat(game_id, who.user_id, name, False, now, opts.max_players)
        return await self.store.get_game(game_id)

    async def _check_lobby_limits(self, who: Caller) -> None:
        """A public bot's limits (``.env``): open lobbies per server, and per user wherever they
        are, plain and league lobbies alike (only the matches a competition opens are not a
        member's). The per-user limit is global, not per server: what one person can make the bot
        hold is bounded whatever the number of servers they share with it (servers cost nothing to
        create), and being lower than the server's it keeps one member from filling a server."""
        open_here = await self.store.game_ids(status="lobby", guild_id=who.guild_id)
        mine = await self.store.open_lobbies_by(who.user_id)
        if len(mine) >= self.limits.lobbies_per_user:
            raise ServiceError(
                _("you already have {n} open lobbies (#{ids}): start or abort one first").format(
                    n=len(mine), ids=", #".join(str(i) for i in mine)
                )
            )
        if len(open_here) >= self.limits.lobbies_per_server:
            raise ServiceError(
                _("this server already has {n} open lobbies: start or abort one first").format(n=len(open_here))
            )

    async def lobby(self, who: Caller, game_id: int) -> GameRow:
        """The game's row and seats (any status), if it is within the caller's reach."""
        who, game_id = caller(who), validate.game_id(game_id)
        try:
            row = await self.log.row(game_id)
        except ServiceError:
            await self.reachable(who, game_id)
            raise
        self.authorize(row, who)
        return row

    async def join(self, who: Caller, game_id: int, name: str) -> GameRow:
        name = validate.display_name(name)
        row = await self.lobby(who, game_id)
        league, check = row.league_id, self.member_check
        if league is not None and check is not None and not await check(league, who.user_id):
            raise ServiceError(_("only members of this game's league may join it (/league join)"))
        try:
            await self.store.add_seat(game_id, who.user_id, name, False, self.clock(), row.options["max_players"])
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(who, game_id)

    async def add_ai(self, who: Caller, game_id: int, level: str = "normal") -> GameRow:
        """Seat a computer player of ``level`` (engine.ai.LEVELS)."""
        row = await self.lobby(who, game_id)
        if level not in LEVELS:
            raise validate.InvalidInput(_("the levels are {levels}").format(levels=", ".join(LEVELS)))
        if who.user_id != row.creator_id:
            raise ServiceError(_("only the player who opened the lobby can add computer players"))
        if row.league_id is not None:
            raise ServiceError(_("league games are rated: computer players cannot take part"))
        n = sum(1 for s in row.seats if s.is_ai) + 1
        with in_language(game_language(row)):  # the name every post of the game shows, with its level
            name = _("Bot {n} ({level})").format(n=n, level=_(LEVEL_WORDS[level]))
        try:
            await self.store.add_seat(
                game_id, f"{AI_PREFIX}{level}:{n}", name, True, self.clock(), row.options["max_players"]
            )
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(who, game_id)

    async def leave(self, who: Caller, game_id: int) -> GameRow:
        await self.lobby(who, game_id)
        try:
            await self.store.remove_seat(game_id, who.user_id)
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(who, game_id)

    async def set_options(self, who: Caller, game_id: int, **changes: Any) -> GameRow:
        row = await self.lobby(who, game_id)
        if who.user_id != row.creator_id:
            raise ServiceError(_("only the player who opened the lobby can change its options"))
        if row.status != "lobby":
            raise ServiceError(_("the game has already started"))
        if row.league_id is not None:
            raise ServiceError(_("a league game uses the league's settings"))
        known = set(LobbyOptions.__dataclass_fields__) - {"seed"}
        expansions = every_lobby_option_name()  # an expansion's option, by its name (castles="chosen")
        unknown = [key for key in changes if key not in known and key not in expansions]
        if unknown:
            raise validate.InvalidInput(_("unknown lobby option {name}").format(name=validate.clip(unknown[0], 40)))
        merged = LobbyOptions.from_json(row.options)
        for key, value in changes.items():
            if key in expansions:
                merged.choices = {**merged.choices, key: value}
            else:
                setattr(merged, key, value)
        opts = merged.checked()
        if len(row.seats) > opts.max_players:
            raise ServiceError(_("{n} players are already seated").format(n=len(row.seats)))
        try:  # other keys (the castles players already chose) stay
            await self.store.update_lobby_options(game_id, lambda o: o.update(opts.to_json()), self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(who, game_id)

    async def start(
        self, who: Caller, game_id: int, autoplay: bool = True, title: str | None = None
    ) -> PlayResult:
        """Fix the seat order (shuffled with the game's seed) and deal the first tile.

        With ``autoplay`` the computer players who sit first play at once, and the result says
        what they did (the front end posts it before the first human turn); without, the caller
        runs ``run_automatic`` itself (to watch every turn). With a front end that marks its
        posts (``outbox_turns``), the opening post (the game's thread, named ``title``, and the
        first turn) is in the outbox with the start: ``PlayResult.outbox``.
        """
        who, game_id = caller(who), validate.game_id(game_id)
        title = None if title is None else validate.shorten(title, 100)  # a thread's name: 100 at most
        async with self.log.lock(game_id):
            row = await self.lobby(who, game_id)
            if row.status != "lobby":
                raise ServiceError(_("the game has already started"))
            if who.user_id != row.creator_id and who.kind != "system":
                raise ServiceError(_("only the player who opened the lobby can start the game"))
            if len(row.seats) < 2:
                raise ServiceError(_("at least 2 players are needed to start"))
            opts = LobbyOptions.from_json(row.options)
            seats = list(row.seats)
            random.Random(opts.seed).shuffle(seats)
            names = _distinct_names([s.name for s in seats])
            try:
                extra = _game_options(row, opts, seats, names)
                game = Game(names, opts.sets, seed=opts.seed or 0, **extra)
            except BadSetup as exc:
                raise ServiceError(str(exc)) from None
            setup = {k: v for k, v in game.to_json().items() if k != "moves"}
            setup["users"] = [s.user_id for s in seats]
            banks = starting_banks(parse(opts.time_control), len(seats))
            clocks = None if banks is None else {"left": banks, "actor": game.actor}
            holder = f"{self.instance_id}/{uuid.uuid4().hex[:12]}" if self.outbox_turns else None
            notice = None
            if holder is not None:
                notice = self.outgoing(holder, "started", row, who.user_id, "", [], PLAYED_HOLD)
                notice.body["title"] = title or f"Carcassonne #{game_id}"
            try:
                await self.store.start_game(game_id, setup, setup["users"], self.clock(), clocks, notice)
            except Conflict as exc:
                raise ServiceError(str(exc)) from None
            self.log.cache(game_id, 0, game, True)
        # The computers who sit first play now; what they did is told in the same opening post.
        events = await self.run_automatic(who, game_id, notify=holder) if autoplay else []
        turn = await self.turn(who, game_id)
        outbox = await self.store.held_notices(holder) if holder is not None else []
        return PlayResult(events, announce(events, turn.language), turn, outbox=outbox)

    async def choose(self, who: Caller, game_id: int, option: str, values: list[str]) -> GameRow:
        """A player's picks for an expansion's lobby option (``SeatPick``: castles chosen in the lobby)."""
        if not isinstance(option, str) or len(option) > 40:
            raise validate.InvalidInput(_("which lobby option?"))
        values = validate.names(values, "the choices", 10)
        row = await self.lobby(who, game_id)
        user_id = who.user_id
        if row.status != "lobby":
            raise ServiceError(_("the game has already started"))
        offered = {o.name: o for _cls, o in lobby_options(row.options.get("sets", []))}
        spec = offered.get(option)
        pick = spec.pick if spec is not None else None
        if spec is None or pick is None or row.options.get(option, spec.default) != pick.when:
            raise ServiceError(_("nothing is chosen that way in this lobby"))
        if row.seat_of(user_id) is None:
            raise ServiceError(_("join the lobby first"))
        allowed = pick.choices()
        if len(set(values)) != len(values) or not 1 <= len(values) <= pick.most:
            raise ServiceError(_("choose 1 to {n} different ones").format(n=pick.most))
        if any(v not in allowed for v in values):
            raise ServiceError(_("the choices are {values}").format(values=", ".join(pick.label(v) for v in allowed)))

        def keep(options: dict[str, Any]) -> None:
            chosen = options.setdefault(pick.key, {})
            if pick.distinct:
                taken = {v for uid, mine in chosen.items() if uid != user_id for v in mine}
                clash = [v for v in values if v in taken]
                if clash:
                    said = _("{choice} is already chosen by another player")
                    raise Conflict(said.format(choice=pick.label(clash[0])))
            chosen[user_id] = list(values)

        try:
            await self.store.update_lobby_options(game_id, keep, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(who, game_id)

    async def abort(self, who: Caller, game_id: int) -> GameRow:
        """Stop a game for good. A manager of the game's server may always; a lobby's creator
        before it starts, and an unrated game while no other human is still playing."""
        who, game_id = caller(who), validate.game_id(game_id)
        async with self.log.lock(game_id):
            row = await self.lobby(who, game_id)
            if row.status not in ("lobby", "active"):
                raise ServiceError(_("game #{id} is already over").format(id=game_id))
            if not who.manager:
                if who.user_id != row.creator_id:
                    raise ServiceError(_("only a server manager or the lobby's creator can abort a game"))
                if row.status == "active":
                    if row.league_id is not None:
                        raise ServiceError(_("a league game in progress can only be aborted by a server manager"))
                    others = [
                        s for s in row.seats if not s.is_ai and s.user_id != who.user_id and s.status == "playing"
                    ]
                    if others:
                        raise ServiceError(
                            _(
                                "other players are still in this game: only a server manager can abort it (you can resign)"  # noqa: E501
                            )
                        )
            try:
                await self.store.finish(game_id, "aborted", None, self.clock())
            except Conflict as exc:
                raise ServiceError(str(exc)) from None
            self.log.forget(game_id)
            return await self.lobby(who, game_id)

    async def rematch(self, who: Caller, game_id: int, channel_id: str | None = None) -> GameRow:
        """A new lobby for the players of a finished game: the same sets and options, a new seed
        (``channel_id``: where it is posted, by default the old lobby's channel). The caller, one of
        those players, opens it in the first seat; the others and the computers are seated too, and
        each may leave. One rematch per game, whoever asks first; none for a rated game (the league
        opens its own matches)."""
        who, game_id = caller(who), validate.game_id(game_id)
        row = await self.lobby(who, game_id)
        if row.status != "finished":
            raise ServiceError(_("game #{id} is not over yet").format(id=game_id))
        if row.league_id is not None:
            raise ServiceError(_("league games are rated: the league opens its own matches"))
        mine = row.seat_of(who.user_id)
        if mine is None:
            raise ServiceError(_("only the players of game #{id} can ask for a rematch").format(id=game_id))
        options = LobbyOptions.from_json(row.options)
        options.seed, options.max_players = None, max(2, len(row.seats))
        first = await self.store.claim([f"rematch:{game_id}"], secrets.token_hex(8), self.clock(), REMATCH_CLAIM)
        if not first:
            raise ServiceError(_("a rematch of game #{id} has already been opened").format(id=game_id))
        lobby = await self.create_lobby(who, mine.name, options, channel_id or row.channel_id)
        now = self.clock()
        for seat in row.seats:
            if seat.user_id != who.user_id:
                with contextlib.suppress(Conflict):  # the lobby filled meanwhile: the rest join themselves
                    await self.store.add_seat(lobby.id, seat.user_id, seat.name, seat.is_ai, now, options.max_players)
        return await self.lobby(who, lobby.id)


def _game_options(row: GameRow, opts: LobbyOptions, seats: list, names: list[str]) -> dict[str, Any]:
    """The ``Game`` keyword options the expansions make of the lobby's choices and picks (raises
    BadSetup while a pick is awaited)."""
    by_user = dict(zip([s.user_id for s in seats], names, strict=True))
    seat_list = [(name, seat.is_ai) for seat, name in zip(seats, names, strict=True)]
    out: dict[str, Any] = {}
    for cls in dict.fromkeys(cls for cls, _option in lobby_options(opts.sets)):
        picks = {
            o.pick.key: {by_user[u]: list(v) for u, v in row.options.get(o.pick.key, {}).items() if u in by_user}
            for o in cls.lobby_options
            if o.pick is not None
        }
        out.update(cls.game_options(opts.choices, picks, seat_list, opts.seed or 0))
    return out


def _distinct_names(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        name = (name or "player").strip()[:32] or "player"
        candidate, n = name, 2
        while candidate in out:
            candidate, n = f"{name} ({n})", n + 1
        out.append(candidate)
    return out
