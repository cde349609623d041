"""The game service: lobbies, turns, deadlines. Front-end agnostic and async.

Every front end (Discord cogs, the console, the demo) goes through this class.
Games live in the store as a setup plus an append-only move log; the service
keeps the replayed engine games in memory and persists each turn in one
transaction with a version check, so two submissions for the same turn never
both count.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import json
import logging
import random
import secrets
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine import ENGINE_VERSION, BadSetup, Game, IllegalMove, snapshot
from engine.ai import GreedyPlayer, RandomPlayer
from engine.expansions.castles import CASTLE_IDS
from engine.game import check_sets
from engine.language import N_, _, ngettext
from engine.moves import Question
from engine.record import BadRecord, check, load
from engine.snapshot import STATE_FORMAT, BadSnapshot
from engine.words import tile_name
from locales import LANGUAGES, spoken
from service import validate
from service.announce import announce, game_language, in_language
from service.validate import ServiceError
from service.workers import Workers, computer_turn
from storage import Conflict, GameRow, NotFound, Store
from storage.store import Corrupted, Loaded, iso, move_text, parse_time

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 5  # moves between two snapshots (saved with the moves, in their transaction)
TIMEOUT_POLICIES = ("skip", "forfeit")
CASTLE_MODES = ("dealt", "chosen")
AI_PREFIX = "ai:"
AUTO_USER = "auto"  # who the log credits for moves made on an absent player's behalf
CACHE_SIZE = 2000  # replayed games kept in memory (least recently used go first)
LEASE_TTL = timedelta(minutes=5)  # a clock whose holder has not ticked for this long is free


class AlreadyPlayed(ServiceError):
    pass


class GameCorrupted(ServiceError):
    """A game whose stored rows cannot be replayed. Only that game is affected."""


class _GameLock:
    """A per-game lock the task holding it may take again (loading inside ``play``)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    async def __aenter__(self) -> _GameLock:
        task = asyncio.current_task()
        if self._owner is not None and self._owner is task:
            self._depth += 1
            return self
        await self._lock.acquire()
        self._owner, self._depth = task, 1
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
            self._lock.release()


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class LobbyOptions:
    sets: list[str] = field(default_factory=lambda: ["base"])
    max_players: int = 5
    turn_limit: int = 24 * 3600  # seconds per turn; 0 = no limit
    timeout_policy: str = "skip"
    seed: int | None = None
    castles: str = "dealt"  # Castles in Germany: "dealt" with the seed, or "chosen" in the lobby
    language: str = "en"  # of the game's public posts (locales.LANGUAGES)

    def checked(self, new_seed: Callable[[], int] = lambda: secrets.randbelow(2**31)) -> LobbyOptions:
        """Validated options; a missing seed is drawn from ``new_seed``."""
        validate.names(self.sets, "the sets")
        validate.whole_number(self.max_players, N_("the number of players"))
        validate.whole_number(self.turn_limit, N_("the turn limit"))
        if self.seed is not None:
            validate.whole_number(self.seed, N_("the seed"))
        try:
            sets = check_sets(list(self.sets))
        except BadSetup as exc:
            raise ServiceError(str(exc)) from None
        if not 2 <= self.max_players <= 6:
            raise ServiceError(_("a game takes 2 to 6 players"))
        if self.turn_limit < 0 or (0 < self.turn_limit < 60):
            raise ServiceError(_("the turn limit is at least a minute (or 0 for none)"))
        if self.timeout_policy not in TIMEOUT_POLICIES:
            raise ServiceError(
                _("the timeout policy is one of {policies}").format(policies=", ".join(TIMEOUT_POLICIES))
            )
        if self.castles not in CASTLE_MODES:
            raise ServiceError(_("castles are dealt or chosen"))
        if self.language not in LANGUAGES:
            raise ServiceError(_("the language is one of {languages}").format(languages=", ".join(LANGUAGES)))
        seed = self.seed if self.seed is not None else new_seed()
        return LobbyOptions(
            sets, self.max_players, self.turn_limit, self.timeout_policy, seed, self.castles, self.language
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "sets": self.sets,
            "max_players": self.max_players,
            "turn_limit": self.turn_limit,
            "timeout_policy": self.timeout_policy,
            "seed": self.seed,
            "castles": self.castles,
            "language": self.language,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LobbyOptions:
        keys = ("sets", "max_players", "turn_limit", "timeout_policy", "seed", "castles", "language")
        return cls(**{k: data[k] for k in keys if k in data})


@dataclass
class Choice:
    """One option of a step, with the label a player sees."""

    label: str
    move: dict[str, Any]


@dataclass
class TurnView:
    """Whose decision the game awaits, with everything a panel needs to offer it."""

    game_id: int
    version: int
    finished: bool
    turn: int
    step: str | None
    player: str | None  # engine name of whoever must act
    user_id: str | None
    tile: str | None
    placements: dict[tuple[int, int], tuple[int, ...]]
    choices: list[Choice]  # the question's options then passing, each with its label
    question: Question | None  # what the game asks now (None once it is over)
    scores: dict[str, int]
    supply: dict[str, int]
    bag_left: int
    started_at: datetime | None
    deadline: datetime | None
    language: str = "en"  # the game's; the question and choices are worded in it (or as asked)


@dataclass
class PlayResult:
    events: list[dict[str, Any]]
    lines: list[str]
    turn: TurnView
    again: bool = False  # the same player decides again in the same turn (after a committed draw, say)


@dataclass
class Notice:
    """Something the deadline clock did: a reminder due, or a turn timed out."""

    kind: str  # "reminder" | "timeout"
    game_id: int
    user_id: str
    player: str
    lines: list[str]
    turn: TurnView | None = None


@dataclass
class Ask:
    """What one user must decide now, given the choices made so far in their turn.

    ``picks`` are positions in each successive question's ``moves()`` (options, then
    passing); ``moves`` are the moves they stand for. When the picks complete the
    decision (the turn passes to someone else, or the game ends), ``question`` is
    None and ``done`` is True: the moves are ready for ``play``.
    """

    turn: TurnView  # the stored game, before the picks
    picks: list[int]
    moves: list[dict[str, Any]]
    question: Question | None
    done: bool
    spot_numbers: dict[int, int] = field(default_factory=dict)  # option index -> number on the preview
    labels: list[str] = field(default_factory=list)  # how each pick read when it was made


class GameService:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utcnow,
        new_seed: Callable[[], int] = lambda: secrets.randbelow(2**31),
    ) -> None:
        self.store = store
        self.workers: Workers | None = None  # set by the bot: computer players think in its pool
        self.clock = clock
        self.new_seed = new_seed  # seeds of new games (tests make them predictable)
        # id -> (version, replayed game) of running games, least recently used first
        self._games: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        # A lock lives while someone holds or awaits it; a finished game's lock goes away.
        self._locks: weakref.WeakValueDictionary[int, _GameLock] = weakref.WeakValueDictionary()
        self.instance_id = uuid.uuid4().hex[:12]  # this process, for the clock's lease
        self._failing: dict[int, str] = {}  # game id -> the failure the clock last reported
        # id -> (store change token, row) of the cached games: while the token is unchanged no
        # row changed, and a load needs no round trip (see Store.change_token).
        self._rows: dict[int, tuple[tuple[int, int, int], GameRow]] = {}
        # id -> (version, running digest of the log's move texts) of the cached games, so that a
        # snapshot's digest of the moves it covers costs the new moves only (see _snapshot_blob).
        self._log_hashes: dict[int, tuple[int, Any]] = {}
        self._lease_holder: str | None = None  # the other instance holding the clock, once warned
        # Set by the league service: who may sit in a league game, and what to do when one ends.
        self.member_check: Callable[[int, str], Awaitable[bool]] | None = None
        self.finished_listeners: list[Callable[[int], Awaitable[Any]]] = []

    def _lock(self, game_id: int) -> _GameLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = _GameLock()
        return lock

    def _forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._rows.pop(game_id, None)
        self._log_hashes.pop(game_id, None)

    def _cache(self, game_id: int, version: int, game: Game, running: bool) -> None:
        if not running:
            self._forget(game_id)  # finished and aborted games leave memory
            return
        self._games[game_id] = (version, game)
        self._games.move_to_end(game_id)
        while len(self._games) > CACHE_SIZE:
            evicted, _game = self._games.popitem(last=False)
            self._rows.pop(evicted, None)
            self._log_hashes.pop(evicted, None)

    @staticmethod
    def _authorize(row: GameRow, guild_id: str | None) -> None:
        """An action on a game comes from that game's server (None: an offline front end)."""
        if guild_id is not None and row.guild_id != guild_id:
            raise ServiceError(_("there is no game #{id} in this server").format(id=row.id))

    # ------------------------------------------------------------------ lobbies
    async def create_lobby(
        self, creator_id: str, creator_name: str, options: LobbyOptions, guild_id: str | None = None,
        channel_id: str | None = None, seat_creator: bool = True, league_id: int | None = None,
    ) -> GameRow:  # fmt: skip
        """Open a lobby; its creator takes the first seat unless ``seat_creator`` is False
        (a host who only watches, like the offline demo)."""
        creator_id, creator_name = validate.user_id(creator_id), validate.display_name(creator_name)
        guild_id, channel_id = validate.guild_id(guild_id), validate.guild_id(channel_id)
        opts = options.checked(self.new_seed)
        now = self.clock()
        game_id = await self.store.create_game(creator_id, opts.to_json(), now, guild_id, channel_id, league_id)
        if seat_creator:
            await self.store.add_seat(game_id, creator_id, creator_name, False, now, opts.max_players)
        return await self.store.get_game(game_id)

    async def lobby(self, game_id: int, *, guild_id: str | None = None) -> GameRow:
        """The game's row and seats (any status); ``guild_id``: the server asking, if any."""
        game_id = validate.game_id(game_id)
        guild_id = validate.guild_id(guild_id)
        try:
            row = await self.store.get_game(game_id)
        except NotFound as exc:
            raise ServiceError(str(exc)) from None
        except Corrupted as exc:
            raise GameCorrupted(str(exc)) from None
        self._authorize(row, guild_id)
        return row

    async def join(self, game_id: int, user_id: str, name: str) -> GameRow:
        user_id, name = validate.user_id(user_id), validate.display_name(name)
        row = await self.lobby(game_id)
        league, check = row.league_id, self.member_check
        if league is not None and check is not None and not await check(league, user_id):
            raise ServiceError(_("only members of this game's league may join it (/league join)"))
        try:
            await self.store.add_seat(game_id, user_id, name, False, self.clock(), row.options["max_players"])
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(game_id)

    async def add_ai(self, game_id: int, by_user: str, greedy: bool = True) -> GameRow:
        by_user = validate.user_id(by_user)
        row = await self.lobby(game_id)
        if by_user != row.creator_id:
            raise ServiceError(_("only the player who opened the lobby can add computer players"))
        if row.league_id is not None:
            raise ServiceError(_("league games are rated: computer players cannot take part"))
        n = sum(1 for s in row.seats if s.is_ai) + 1
        kind = "greedy" if greedy else "random"
        try:
            await self.store.add_seat(
                game_id, f"{AI_PREFIX}{kind}:{n}", f"Bot {n}", True, self.clock(), row.options["max_players"]
            )
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(game_id)

    async def leave(self, game_id: int, user_id: str) -> GameRow:
        game_id, user_id = validate.game_id(game_id), validate.user_id(user_id)
        try:
            await self.store.remove_seat(game_id, user_id)
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(game_id)

    async def set_options(self, game_id: int, by_user: str, **changes: Any) -> GameRow:
        by_user = validate.user_id(by_user)
        row = await self.lobby(game_id)
        if by_user != row.creator_id:
            raise ServiceError(_("only the player who opened the lobby can change its options"))
        if row.status != "lobby":
            raise ServiceError(_("the game has already started"))
        if row.league_id is not None:
            raise ServiceError(_("a league game uses the league's settings"))
        merged = LobbyOptions.from_json(row.options)
        for key, value in changes.items():
            setattr(merged, key, value)
        opts = merged.checked()
        if len(row.seats) > opts.max_players:
            raise ServiceError(_("{n} players are already seated").format(n=len(row.seats)))
        try:  # other keys (the castles players already chose) stay
            await self.store.update_lobby_options(game_id, lambda o: o.update(opts.to_json()), self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(game_id)

    async def start(self, game_id: int, by_user: str, autoplay: bool = True) -> TurnView:
        """Fix the seat order (shuffled with the game's seed) and deal the first tile.

        With ``autoplay`` the computer players who sit first play at once; without,
        the caller runs ``run_automatic`` itself (to watch every turn).
        """
        game_id, by_user = validate.game_id(game_id), validate.user_id(by_user)
        async with self._lock(game_id):
            row = await self.lobby(game_id)
            if row.status != "lobby":
                raise ServiceError(_("the game has already started"))
            if by_user != row.creator_id:
                raise ServiceError(_("only the player who opened the lobby can start the game"))
            if len(row.seats) < 2:
                raise ServiceError(_("at least 2 players are needed to start"))
            opts = LobbyOptions.from_json(row.options)
            seats = list(row.seats)
            random.Random(opts.seed).shuffle(seats)
            names = _distinct_names([s.name for s in seats])
            hands = self._chosen_hands(row, opts, seats, names)
            try:
                game = Game(names, opts.sets, seed=opts.seed or 0, castles=hands)
            except BadSetup as exc:
                raise ServiceError(str(exc)) from None
            setup = {k: v for k, v in game.to_json().items() if k != "moves"}
            setup["users"] = [s.user_id for s in seats]
            try:
                await self.store.start_game(game_id, setup, setup["users"], self.clock())
            except Conflict as exc:
                raise ServiceError(str(exc)) from None
            self._games[game_id] = (0, game)
        if autoplay:
            await self.run_automatic(game_id)
        return await self.turn(game_id)

    async def choose_castles(self, game_id: int, user_id: str, castles: list[str]) -> GameRow:
        """A player's castles, picked in the lobby (when the lobby deals them by choice)."""
        user_id, castles = validate.user_id(user_id), validate.names(castles, "the castles", 2)
        row = await self.lobby(game_id)
        if row.status != "lobby":
            raise ServiceError(_("the game has already started"))
        if "castles" not in row.options["sets"] or row.options.get("castles") != "chosen":
            raise ServiceError(_("castles are not chosen in this lobby"))
        if row.seat_of(user_id) is None:
            raise ServiceError(_("join the lobby first"))
        if len(set(castles)) != len(castles) or not 1 <= len(castles) <= 2:
            raise ServiceError(_("choose one or two different castles"))
        if any(c not in CASTLE_IDS for c in castles):
            raise ServiceError(_("the castles are {castles}").format(castles=", ".join(CASTLE_IDS)))

        def pick(options: dict[str, Any]) -> None:
            chosen = options.setdefault("castle_choices", {})
            taken = {c for uid, hand in chosen.items() if uid != user_id for c in hand}
            clash = [c for c in castles if c in taken]
            if clash:
                raise Conflict(_("{castle} is already chosen by another player").format(castle=tile_name(clash[0])))
            chosen[user_id] = list(castles)

        try:
            await self.store.update_lobby_options(game_id, pick, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.lobby(game_id)

    @staticmethod
    def _chosen_hands(row: GameRow, opts: LobbyOptions, seats: list, names: list[str]) -> dict[str, list[str]] | None:
        """The hands picked in the lobby (computer players get what is left), or None to deal."""
        if "castles" not in opts.sets or opts.castles != "chosen":
            return None
        size = 2 if len(seats) <= 3 else 1
        chosen = row.options.get("castle_choices", {})
        hands: dict[str, list[str]] = {}
        for seat, name in zip(seats, names, strict=True):
            if seat.is_ai:
                continue
            hand = chosen.get(seat.user_id, [])
            if len(hand) != size:
                raise ServiceError(
                    ngettext(
                        "waiting for {player} to choose {n} castle", "waiting for {player} to choose {n} castles", size
                    ).format(player=seat.name, n=size)
                )
            hands[name] = hand
        left = [c for c in CASTLE_IDS if not any(c in h for h in hands.values())]
        random.Random(opts.seed).shuffle(left)
        for seat, name in zip(seats, names, strict=True):
            if seat.is_ai:
                hands[name], left = left[:size], left[size:]
        return hands

    async def abort(self, game_id: int, by_user: str, is_manager: bool, *, guild_id: str | None = None) -> GameRow:
        """Stop a game for good. ``is_manager``: the user manages the server they act in, which
        must be the game's (``guild_id``). A lobby's creator may abort it before it starts, and
        an unrated game while no other human is still playing; a rated game only managers."""
        game_id = validate.game_id(game_id)
        by_user = validate.user_id(by_user)
        async with self._lock(game_id):
            row = await self.lobby(game_id, guild_id=guild_id)
            if row.status not in ("lobby", "active"):
                raise ServiceError(_("game #{id} is already over").format(id=game_id))
            if not is_manager:
                if by_user != row.creator_id:
                    raise ServiceError(_("only a server manager or the lobby's creator can abort a game"))
                if row.status == "active":
                    if row.league_id is not None:
                        raise ServiceError(_("a league game in progress can only be aborted by a server manager"))
                    others = [s for s in row.seats if not s.is_ai and s.user_id != by_user and s.status == "playing"]
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
            self._forget(game_id)
            return await self.lobby(game_id)

    # ------------------------------------------------------------------ loading
    async def game(self, game_id: int, *, guild_id: str | None = None) -> tuple[GameRow, Game]:
        """The stored row and its replayed game, read consistently under the game's lock.

        The game is the cached object: callers clone it before trying moves on it.
        """
        game_id = validate.game_id(game_id)
        guild_id = validate.guild_id(guild_id)
        async with self._lock(game_id):
            row, game = await self._load(game_id)
        self._authorize(row, guild_id)
        return row, game

    async def _load(self, game_id: int) -> tuple[GameRow, Game]:
        """One read of row, seats, snapshot and log (bounded by the version read); the cached
        game when its version is current. Hold the game's lock."""
        cached = self._games.get(game_id)
        known = self._rows.get(game_id)
        token = self.store.change_token(game_id)  # read before the row: a change in between reloads
        if cached and known and token is not None and known[0] == token and known[1].version == cached[0]:
            self._games.move_to_end(game_id)
            return dataclasses.replace(known[1]), cached[1]
        try:
            loaded = await self.store.load_game(game_id, cached[0] if cached else None)
        except NotFound as exc:
            raise ServiceError(str(exc)) from None
        except Corrupted as exc:
            raise GameCorrupted(str(exc)) from None
        row = loaded.row
        if row.setup is None:
            raise ServiceError(_("game #{id} has not started yet").format(id=game_id))
        if loaded.moves is None and cached is not None:
            game = cached[1]
        else:
            _check_row(row)
            game = await self._replay(loaded)
        self._cache(game_id, row.version, game, row.status == "active")
        if token is not None and row.status == "active":
            self._rows[game_id] = (token, dataclasses.replace(row))
        return row, game

    def _after_own_write(self, game_id: int, changed: GameRow | None = None) -> None:
        """Keep the remembered row current across this service's own write, when that write
        is the only change since it was read (the token moved by exactly one)."""
        known = self._rows.pop(game_id, None)
        token = self.store.change_token(game_id)
        if known is None or token is None or token != (*known[0][:2], known[0][2] + 1):
            return
        self._rows[game_id] = (token, changed or known[1])

    async def _replay(self, loaded: Loaded) -> Game:
        """Rebuild the game: from its state snapshot plus the moves after it when the snapshot
        is this engine's and covers a prefix of the log, else from the whole log. The log wins:
        an unusable snapshot is logged, passed over, and written anew from the log."""
        row = loaded.row
        assert row.setup is not None and loaded.moves is not None
        setup = {k: v for k, v in row.setup.items() if k != "users"}
        moves = _parse_log(row, loaded.moves)
        texts = [text for _seq, _user, text in loaded.moves]
        self._log_hashes[row.id] = (len(texts), _log_hash(texts))
        stored, game = loaded.snapshot, None
        if stored is not None:
            try:
                game = _from_snapshot(stored, setup, moves, texts)
            except Exception as exc:  # whatever is wrong with it, the log is there
                log.warning("game #%s: its snapshot is not used (%s); the log wins", row.id, exc)
        if game is None:
            game = _from_log(row, setup, moves)
            if stored is not None or len(texts) >= SNAPSHOT_EVERY:
                digest = self._log_hashes[row.id][1].hexdigest()
                await self.store.save_snapshot(
                    row.id, len(texts), ENGINE_VERSION, _snapshot_blob(game, setup, digest), replace=True
                )
        return game

    # ------------------------------------------------------------------ turns
    async def turn(self, game_id: int, *, guild_id: str | None = None, language: str | None = None) -> TurnView:
        """The game as it stands, its question worded in the game's language (what everyone
        sees in its thread) or in ``language`` (a player's, for a direct message)."""
        row, game = await self.game(game_id, guild_id=guild_id)
        return self._view(row, game, language=language)

    def _view(self, row: GameRow, game: Game, version: int | None = None, language: str | None = None) -> TurnView:
        users = row.setup["users"] if row.setup else []
        finished = game.finished or row.status != "active"
        limit = row.options.get("turn_limit", 0)
        started = row.turn_started_at
        language = language or game_language(row)
        with in_language(language):
            question = None if finished else game.question()
        choices: list[Choice] = []
        if question is not None and question.kind != "tile":
            choices = [Choice(o.label, o.move) for o in question.options]
            if question.pass_label is not None:
                choices.append(Choice(question.pass_label, {"type": "pass"}))
        return TurnView(
            game_id=row.id,
            version=row.version if version is None else version,
            finished=finished,
            turn=game.turn,
            step=None if finished else game.step,
            player=None if finished else game.players[game.actor],
            user_id=None if finished else users[game.actor],
            tile=game.drawn.id if game.drawn is not None and not finished else None,
            placements=dict(game.legal_placements()) if not finished else {},
            choices=choices,
            question=question,
            scores=game.score_table(),
            supply=dict(zip(game.players, game.supply, strict=True)),
            bag_left=game.bag_left,
            started_at=started,
            deadline=started + timedelta(seconds=limit) if started and limit and not finished else None,
            language=language,
        )

    async def options_after(
        self, game_id: int, user_id: str, version: int, draft: list[dict[str, Any]], *, guild_id: str | None = None
    ) -> TurnView:
        """What the player is asked next once the draft moves are made (tried on a copy).

        The panel builds a turn step by step this way, then confirms it with ``play``.
        """
        user_id, draft = validate.user_id(user_id), validate.draft(draft)
        row, game = await self.game(game_id, guild_id=guild_id)
        self._check_turn(row, game, user_id, validate.version(version))
        trial = game.clone()
        try:
            for move in draft:
                trial.apply(move)
        except IllegalMove as exc:
            raise ServiceError(str(exc)) from None
        return self._view(row, trial, version)

    async def ask(
        self, game_id: int, user_id: str, picks: list[int], version: int | None = None, *, guild_id: str | None = None
    ) -> Ask:
        """What the user must decide now, after the picks made so far this turn
        (every front end renders this answer; none re-derives the turn)."""
        user_id, version = validate.user_id(user_id), validate.version(version)
        if not isinstance(picks, list | tuple) or len(picks) > validate.MAX_MOVES:
            raise validate.InvalidInput("picks must be a short list of option numbers")
        row, game = await self.game(game_id, guild_id=guild_id)
        self._check_turn(row, game, user_id, version)
        return self._ask(row, game, list(picks))

    def _ask(self, row: GameRow, game: Game, picks: list[int]) -> Ask:
        trial = game.clone()
        actor, turn = game.actor, game.turn
        moves: list[dict[str, Any]] = []
        labels: list[str] = []
        question = trial.question()
        for n, pick in enumerate(picks):
            if question is None or self._decided(trial, actor, turn):
                raise ServiceError(_("those choices go past the end of your decision"))
            options = question.moves()
            if type(pick) is not int or not 0 <= pick < len(options):
                raise AlreadyPlayed(_("choice {n} is no longer on offer; here is the current turn").format(n=n + 1))
            try:
                trial.apply(options[pick])
            except IllegalMove as exc:  # pragma: no cover - the engine offered it
                raise ServiceError(str(exc)) from None
            moves.append(options[pick])
            labels.append(question.options[pick].label if pick < len(question.options) else question.pass_label or "")
            question = trial.question()
        done = bool(moves) and self._decided(trial, actor, turn)
        spots: dict[int, int] = {}
        if not done and question is not None and question.kind == "figure" and moves:
            # Followers on the new tile are numbered as the preview numbers them.
            numbered = [i for i, o in enumerate(question.options) if o.move["type"] == "meeple"
                        and not str(o.move.get("at", "")).startswith("crown:")]  # fmt: skip
            spots = {i: k for k, i in enumerate(numbered, start=1)}
        return Ask(self._view(row, game), list(picks), moves, None if done else question, done, spots, labels)

    @staticmethod
    def _decided(game: Game, actor: int, turn: int) -> bool:
        """Whether the decision of ``actor`` in ``turn`` is complete on this copy."""
        return game.finished or game.turn != turn or game.actor != actor

    async def pick(
        self, game_id: int, user_id: str, picks: list[int], version: int | None = None, *, guild_id: str | None = None
    ) -> PlayResult | Ask:
        """Make the picks: plays them at once when they complete the decision, or when
        the last one draws a tile (a draw is committed: nobody peeks at the bag);
        otherwise returns the next question."""
        ask = await self.ask(game_id, user_id, picks, version, guild_id=guild_id)
        if ask.done or (ask.moves and ask.moves[-1]["type"] == "draw"):
            result = await self.play(game_id, user_id, ask.moves, ask.turn.version, guild_id=guild_id)
            ended = any(e["type"] == "turn_ended" for e in result.events)
            result.again = not ended and not result.turn.finished and result.turn.user_id == user_id
            return result
        return ask

    def _check_turn(self, row: GameRow, game: Game, user_id: str, version: int | None) -> None:
        if row.status == "finished" or game.finished:
            raise ServiceError(_("game #{id} is over").format(id=row.id))
        if row.status != "active":
            raise ServiceError(_("game #{id} is not running").format(id=row.id))
        if version is not None and version != row.version:
            raise AlreadyPlayed(_("that turn has already been played; here is the current one"))
        users = row.setup["users"]  # type: ignore[index]
        if users[game.actor] != user_id:
            seat = row.seat_of(user_id)
            if seat is None or seat.seat is None:
                raise ServiceError(_("you are not playing in game #{id}").format(id=row.id))
            raise ServiceError(_("it is {player}'s turn, not yours").format(player=game.players[game.actor]))

    async def play(
        self, game_id: int, user_id: str, moves: list[dict[str, Any]], version: int | None = None,
        *, guild_id: str | None = None,
    ) -> PlayResult:  # fmt: skip
        """Play one or more moves of the user's turn, atomically, then any automatic turns.

        ``version`` is the game version the player saw; if the game has moved on,
        AlreadyPlayed is raised and nothing changes.
        """
        game_id, user_id = validate.game_id(game_id), validate.user_id(user_id)
        moves, version = validate.moves(moves), validate.version(version)
        async with self._lock(game_id):
            row, game = await self.game(game_id, guild_id=guild_id)
            self._check_turn(row, game, user_id, version)
            trial = game.clone()
            events: list[dict[str, Any]] = []
            try:
                for move in moves:
                    if trial.finished or trial.players[trial.actor] != game.players[game.actor]:
                        raise ServiceError(_("those moves go past the end of your turn"))
                    events += trial.apply({k: v for k, v in move.items() if k != "player"})
            except IllegalMove as exc:
                raise ServiceError(str(exc)) from None
            await self._commit(row, game, trial, [(user_id, m) for m in trial.moves[len(game.moves) :]])
        events += await self.run_automatic(game_id)
        return PlayResult(events, announce(events, game_language(row)), await self.turn(game_id))

    async def picks_for(
        self, game_id: int, user_id: str, cell: tuple[int, int], rot: int | None, spot: str | None,
        *, guild_id: str | None = None,
    ) -> list[int]:  # fmt: skip
        """The picks that ``/carc place``'s cell, rotation and spot stand for (a spot is a
        preview number, or words of an option's label, or "none"); later questions stay open."""
        if rot is not None and not validate.is_int(rot):
            raise validate.InvalidInput(_("the rotation is one of 0, 90, 180, 270"))
        if spot is not None and not isinstance(spot, str):
            raise validate.InvalidInput(_("a spot is a number or words"))
        ask = await self.ask(game_id, user_id, [], guild_id=guild_id)
        question = ask.question
        picks: list[int] = []
        if question is not None and question.kind == "draw":
            draw = next((i for i, m in enumerate(question.moves()) if m["type"] == "draw"), None)
            if draw is None:
                raise ServiceError(_("the bag is empty: place a castle with the Take turn button"))
            return [draw]
        if question is None or question.kind != "tile":
            raise ServiceError(_("this decision is not a tile placement: use the Take turn button"))
        moves = question.moves()
        rots = sorted({m["rot"] for m in moves if (m["x"], m["y"]) == cell})
        if not rots:
            raise ServiceError(_("the tile cannot go on {cell}").format(cell=f"({cell[0]}, {cell[1]})"))
        if rot is None and len(rots) == 1:
            rot = rots[0]
        if rot not in rots:
            raise ServiceError(
                _("on {cell} the tile fits turned {rotations}").format(
                    cell=f"({cell[0]}, {cell[1]})", rotations=", ".join(f"{r}°" for r in rots)
                )
            )
        picks.append(next(i for i, m in enumerate(moves) if (m["x"], m["y"], m["rot"]) == (*cell, rot)))
        if spot is None:
            return picks
        after = await self.ask(game_id, user_id, picks, guild_id=guild_id)
        if after.question is None or after.question.kind != "figure":
            raise ServiceError(_("no figure can be placed on that tile this turn"))
        picks.append(_match_spot(after, spot))
        return picks

    async def _commit(self, row: GameRow, before: Game, after: Game, entries: list[tuple[str, dict]]) -> None:
        new_turn = after.turn != before.turn or after.actor != before.actor or after.finished
        result = self._result(row, after) if after.finished else None
        now = self.clock()
        hashed = self._log_hashes.get(row.id)
        if hashed is not None and hashed[0] == row.version:
            log_hash = hashed[1].copy()
        else:  # not loaded from the store (just started): the texts the log holds
            log_hash = _log_hash([move_text(m) for m in before.moves])
        for n, (_user, move) in enumerate(entries, start=row.version):
            log_hash.update((("\n" if n else "") + move_text(move)).encode())
        version = row.version + len(entries)
        snapshot = None
        if after.finished or version // SNAPSHOT_EVERY > row.version // SNAPSHOT_EVERY:
            setup = {k: v for k, v in row.setup.items() if k != "users"}  # type: ignore[union-attr]
            snapshot = (ENGINE_VERSION, _snapshot_blob(after, setup, log_hash.hexdigest()))
        try:
            version = await self.store.append_moves(row.id, row.version, entries, now, new_turn, result, snapshot)
        except Conflict:
            self._forget(row.id)
            raise AlreadyPlayed(_("that turn has already been played; here is the current one")) from None
        self._cache(row.id, version, after, not after.finished)
        if not after.finished:
            self._log_hashes[row.id] = (version, log_hash)
            stored = dataclasses.replace(row, version=version)
            if new_turn:  # as the row now reads back: the time to the second, no reminder yet
                stored.turn_started_at, stored.reminded = parse_time(iso(now)), 0
            self._after_own_write(row.id, stored)
        if after.finished:
            for listener in self.finished_listeners:
                try:
                    await listener(row.id)
                except Exception:  # a listener's failure must not undo a stored move
                    log.exception("after game #%s ended", row.id)

    def _result(self, row: GameRow, game: Game) -> dict[str, Any]:
        users = row.setup["users"]  # type: ignore[index]
        out_of_game = {s.user_id for s in row.seats if s.status != "playing"}
        return {
            "scores": game.score_table(),
            "users": dict(zip(game.players, users, strict=True)),
            "forfeited": [name for name, uid in zip(game.players, users, strict=True) if uid in out_of_game],
        }

    async def run_automatic(
        self, game_id: int, on_turn: Callable[[Game, list[dict[str, Any]]], Any] | None = None
    ) -> list[dict[str, Any]]:
        """Play the turns of computer players and of players who left, until a human must act.

        ``on_turn(game, events)`` is called after each automatic turn is stored.
        """
        events: list[dict[str, Any]] = []
        while True:
            async with self._lock(game_id):
                row, game = await self.game(game_id)
                if row.status != "active" or game.finished:
                    return events
                users = row.setup["users"]  # type: ignore[index]
                actor_id = users[game.actor]
                seat = row.seat_of(actor_id)
                if seat is None or (not seat.is_ai and seat.status == "playing"):
                    return events
                who = actor_id if seat.is_ai else AUTO_USER
                trial = game.clone()
                if seat.is_ai and self.workers is not None:  # a computer thinks off the event loop
                    moves = await self.workers.run(computer_turn, game.to_json(), actor_id)
                else:
                    moves = computer_moves(game.clone(), actor_id if seat.is_ai else None)
                turn_events: list[dict[str, Any]] = []
                for move in moves:
                    turn_events += trial.apply(move)
                await self._commit(row, game, trial, [(who, m) for m in trial.moves[len(game.moves) :]])
                events += turn_events
            if on_turn is not None:
                on_turn(trial, turn_events)

    async def resign(self, game_id: int, user_id: str, *, guild_id: str | None = None) -> list[str]:
        return await self._leave_game(game_id, user_id, "resigned", guild_id)

    async def kick(self, game_id: int, target_id: str, by_manager: bool, *, guild_id: str | None = None) -> list[str]:
        """Remove a player; ``by_manager``: the caller manages the game's server (``guild_id``)."""
        if not by_manager:
            raise ServiceError(_("only server managers can remove a player from a game"))
        return await self._leave_game(game_id, target_id, "kicked", guild_id)

    async def _leave_game(self, game_id: int, user_id: str, status: str, guild_id: str | None) -> list[str]:
        game_id, user_id = validate.game_id(game_id), validate.user_id(user_id)
        async with self._lock(game_id):
            row = await self.lobby(game_id, guild_id=guild_id)
            if row.status != "active":
                raise ServiceError(_("game #{id} is not running").format(id=game_id))
            seat = row.seat_of(user_id)
            if seat is None or seat.is_ai:
                raise ServiceError(_("that player is not in game #{id}").format(id=game_id))
            if seat.status != "playing":
                raise ServiceError(_("{player} has already left game #{id}").format(player=seat.name, id=game_id))
            await self.store.set_seat_status(game_id, user_id, status)
            row = await self.lobby(game_id)
            remaining = [s for s in row.seats if s.status == "playing" and not s.is_ai]
            with in_language(game_language(row)):
                if status == "resigned":
                    lines = [_("{player} resigned; their turns are played automatically.").format(player=seat.name)]
                else:
                    lines = [_("{player} was removed; their turns are played automatically.").format(player=seat.name)]
            if not remaining:
                with contextlib.suppress(Conflict):  # ended meanwhile (by another instance)
                    await self.store.finish(game_id, "aborted", None, self.clock())
                self._forget(game_id)
                with in_language(game_language(row)):
                    lines.append(_("No human player is left: the game is abandoned."))
                return lines
            events = await self.run_automatic(game_id)
        return lines + announce(events, game_language(row))

    async def game_for_thread(self, thread_id: str) -> int | None:
        """The game played in a Discord thread (or any front end's channel), if any."""
        return await self.store.game_id_by_thread(thread_id)

    async def attach(self, game_id: int, thread_id: str | None = None, lobby_message: str | None = None) -> None:
        """Remember where a front end shows the game (its thread, its lobby message)."""
        await self.store.set_discord_ids(game_id, thread_id, lobby_message)

    async def player_settings(self, user_id: str) -> dict[str, Any]:
        return await self.store.player_settings(user_id)

    async def save_player(
        self, user_id: str, name: str, dm_turns: bool | None = None, language: str | None = None
    ) -> None:
        """A player's settings: turn DMs on or off, and the language of those DMs (``locales``)."""
        if language is not None and language not in LANGUAGES:
            raise ServiceError(_("the language is one of {languages}").format(languages=", ".join(LANGUAGES)))
        await self.store.save_player(user_id, name, self.clock(), dm_turns, language)

    async def bag(self, game_id: int, *, guild_id: str | None = None) -> dict[str, int]:
        """Tiles left in the bag, by tile id."""
        _row, game = await self.game(game_id, guild_id=guild_id)
        counts: dict[str, int] = {}
        for tile_id in game.remaining_tiles():
            counts[tile_id] = counts.get(tile_id, 0) + 1
        return dict(sorted(counts.items()))

    async def export(self, game_id: int, *, guild_id: str | None = None) -> dict[str, Any]:
        """The game's record (RECORD.md), replayable with ``python -m engine.replay``."""
        _row, game = await self.game(game_id, guild_id=guild_id)
        return game.to_json()

    async def picture(
        self, job: Callable[..., bytes], game_id: int, *args: Any, guild_id: str | None = None,
        language: str | None = None,
    ) -> bytes:  # fmt: skip
        """A picture of the game made by ``job`` (one of renderer.jobs) from its record: in the
        worker pool when there is one (the bot), else right here (the console, the demo). Its
        words are in ``language`` (by default the one being spoken)."""
        record = await self.export(game_id, guild_id=guild_id)
        worded = functools.partial(job, language=language or spoken())
        if self.workers is None:
            return worded(record, *args)
        return bytes(await self.workers.run(worded, record, *args))

    async def games(
        self, user_id: str | None = None, guild_id: str | None = None, status: str | None = None
    ) -> list[GameRow]:
        """The games of a user and/or a server; a damaged row is left out (and logged), so one
        corrupted game never hides the others."""
        user_id = None if user_id is None else validate.user_id(user_id)
        guild_id = validate.guild_id(guild_id)
        if status is not None and status not in ("lobby", "active", "finished", "aborted"):
            raise ServiceError(f"unknown game status {validate.clip(status, 30)}")
        ids = await self.store.game_ids(status=status, guild_id=guild_id, user_id=user_id)
        rows: list[GameRow] = []
        for found in await self.store.get_games(ids):
            if isinstance(found, Corrupted):
                log.warning("listing games: %s", found)
            else:
                rows.append(found)
        return rows

    # ------------------------------------------------------------------ deadlines
    async def tick(self) -> list[Notice]:
        """Send due reminders and apply the timeout policy to expired turns.

        Call it periodically; after a restart it catches up on everything that
        expired while the process was down (each expired turn once). It never raises: a game
        that fails is logged (once per distinct failure) and the others go on. Only the
        instance holding the clock's lease ticks; another one over the same database waits.
        """
        try:
            holder = await self.store.take_clock_lease(self.instance_id, self.clock(), LEASE_TTL)
        except Exception:
            log.exception("the deadline clock cannot reach the database")
            return []
        if holder is not None:
            if self._lease_holder != holder:
                log.warning(
                    "another bot instance (%s) runs the deadline clock over this database; this one (%s)"
                    " does not tick while that one is alive. Run one instance per database.",
                    holder, self.instance_id,
                )  # fmt: skip
                self._lease_holder = holder
            return []
        self._lease_holder = None
        now = self.clock()
        try:
            clocks = await self.store.turn_clocks()
        except Exception:
            log.exception("the deadline clock cannot list the games")
            return []
        active = {c[0] for c in clocks}
        self._failing = {g: why for g, why in self._failing.items() if g in active}
        notices: list[Notice] = []
        # Only the games with something due are loaded (a restart loads no other game).
        for game_id in [c[0] for c in clocks if _due(c, now)]:
            try:
                notice = await self._tick_game(game_id, now)
            except Exception as exc:
                self._clock_failed(game_id, exc)
                continue
            self._failing.pop(game_id, None)
            if notice is not None:
                notices.append(notice)
        return notices

    async def release_clock(self) -> None:
        """Give up the deadline clock's lease (at shutdown), so another instance may take it
        at once instead of after LEASE_TTL."""
        await self.store.release_clock_lease(self.instance_id)

    def _clock_failed(self, game_id: int, exc: Exception) -> None:
        what = f"{type(exc).__name__}: {exc}"
        if self._failing.get(game_id) == what:
            return  # reported already; a game broken for days is not logged every minute
        self._failing[game_id] = what
        if isinstance(exc, ServiceError):
            log.warning("deadline clock: game #%s skipped: %s", game_id, exc)
        else:
            log.error("deadline clock: game #%s failed", game_id, exc_info=exc)

    async def _tick_game(self, game_id: int, now: datetime) -> Notice | None:
        async with self._lock(game_id):
            row, game = await self._load(game_id)
            limit = row.options.get("turn_limit", 0)
            if row.status != "active" or not limit or row.turn_started_at is None or game.finished:
                return None
            users = row.setup["users"]  # type: ignore[index]
            actor_id, actor = users[game.actor], game.players[game.actor]
            deadline = row.turn_started_at + timedelta(seconds=limit)
            if now >= deadline:
                lines = await self._time_out(row, game)
                if lines is None:
                    return None  # the player moved just in time (in another instance)
                return Notice("timeout", game_id, actor_id, actor, lines, await self.turn(game_id))
            due = now >= row.turn_started_at + timedelta(seconds=limit * 3 / 4)
            if not row.reminded and due and await self.store.mark_reminded(game_id, row.version):
                with in_language(game_language(row)):
                    lines = [
                        _("{player}, your turn in game #{id} ends in {duration}.").format(
                            player=actor, id=game_id, duration=_duration(deadline - now)
                        )
                    ]
                return Notice("reminder", game_id, actor_id, actor, lines)
            return None

    async def _time_out(self, row: GameRow, game: Game) -> list[str] | None:
        """Apply the timeout policy to the turn at ``row.version``, under the game's lock.

        Both policies are versioned writes: a move that got in first wins (None is returned),
        and a forfeit makes any later move of that player fail, so never both count.
        """
        users = row.setup["users"]  # type: ignore[index]
        actor_id, actor = users[game.actor], game.players[game.actor]
        if row.options.get("timeout_policy") == "forfeit":
            if not await self.store.set_seat_status(row.id, actor_id, "forfeited", expected_version=row.version):
                return None
            with in_language(game_language(row)):
                lines = [
                    _("{player} ran out of time and forfeits game #{id}; their turns are played automatically.").format(
                        player=actor, id=row.id
                    )
                ]
            return lines + announce(await self.run_automatic(row.id), game_language(row))
        trial = game.clone()
        events: list[dict[str, Any]] = []
        start_turn, start_actor = trial.turn, trial.actor
        while not trial.finished and trial.turn == start_turn and trial.actor == start_actor:
            events += trial.apply(automatic_move(trial))
        try:
            await self._commit(row, game, trial, [(AUTO_USER, m) for m in trial.moves[len(game.moves) :]])
        except AlreadyPlayed:
            return None
        language = game_language(row)
        with in_language(language):
            lines = [_("{player} ran out of time: the turn was played automatically (no figure).").format(player=actor)]
        return lines + announce(events, language) + announce(await self.run_automatic(row.id), language)


def _match_spot(ask: Ask, spot: str) -> int:
    """The option a player means by a spot: its preview number, "none", or words of its label."""
    question = ask.question
    assert question is not None
    text = spot.strip().lower()[:100]
    moves = question.moves()
    if text in ("", "none", "pass", "no", "-", "0"):
        if question.pass_label is None:
            raise ServiceError(_("a figure is needed here"))
        return len(moves) - 1
    if text.isascii() and text.isdigit() and len(text) <= 3:
        by_number = {n: i for i, n in ask.spot_numbers.items()}
        if int(text) in by_number:
            return by_number[int(text)]
        raise ServiceError(
            _("there is no spot {spot} on that tile (the preview numbers them 1 to {n})").format(
                spot=text, n=len(by_number)
            )
        )
    found = [i for i, o in enumerate(question.options) if text in o.label.lower()]
    if len(found) == 1:
        return found[0]
    listed = "; ".join(f"{ask.spot_numbers.get(i, '-')}: {o.label}" for i, o in enumerate(question.options))
    if found:
        return _raise(_("{spot!r} matches several spots: {spots}").format(spot=spot[:40], spots=listed)[:1500])
    return _raise(_("{spot!r} is not one of the spots: {spots}").format(spot=spot[:40], spots=listed)[:1500])


def _raise(message: str) -> int:
    raise ServiceError(message)


def computer_moves(game: Game, user_id: str | None) -> list[dict[str, Any]]:
    """The moves of one decision made for a seat: a computer player's (``user_id`` of an
    ``ai:`` seat), or the automatic ones for an absent player (None). ``game`` is used up."""
    player = _player_for(user_id, game.turn) if user_id else None
    start_turn, start_actor = game.turn, game.actor
    moves: list[dict[str, Any]] = []
    while not game.finished and game.turn == start_turn and game.actor == start_actor:
        move = player.choose(game) if player else automatic_move(game)
        game.apply(move)
        moves.append(move)
    return moves


def automatic_move(game: Game) -> dict[str, Any]:
    """The move made for an absent player: the first legal placement, no optional figure."""
    moves = game.legal_moves()
    for move in moves:
        if move["type"] == "pass":
            return move
    return moves[0]


def _player_for(user_id: str, turn: int) -> GreedyPlayer | RandomPlayer:
    # Seeded by the turn, so that a restarted process makes the same choice.
    kind = user_id.split(":")[1] if user_id.count(":") >= 2 else "greedy"
    seed = turn * 7919 + sum(map(ord, user_id))
    return GreedyPlayer(seed) if kind == "greedy" else RandomPlayer(seed)


def _distinct_names(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        name = (name or "player").strip()[:32] or "player"
        candidate, n = name, 2
        while candidate in out:
            candidate, n = f"{name} ({n})", n + 1
        out.append(candidate)
    return out


def _duration(delta: timedelta) -> str:
    minutes = max(1, int(delta.total_seconds() // 60))
    if minutes < 120:
        return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return ngettext("{n} hour", "{n} hours", minutes // 60).format(n=minutes // 60)


def _due(clock: tuple[int, str | None, str, int], now: datetime) -> bool:
    """Whether an active game's turn clock (id, turn start, options JSON, reminded) has its
    reminder or its timeout due; a row that does not read is due (its load says what is wrong)."""
    _game_id, started_text, options_text, reminded = clock
    try:
        limit = json.loads(options_text).get("turn_limit", 0)
        started = parse_time(started_text)
    except (TypeError, ValueError, AttributeError, RecursionError):
        return True
    if not validate.is_int(limit) or limit < 0:
        return True
    if not limit or started is None:
        return False
    if started.tzinfo is None:
        return True
    return now >= started + timedelta(seconds=limit * (1 if reminded else 3 / 4))


def _check_row(row: GameRow) -> None:
    """The fields of a started game that the service relies on, checked once at load."""
    fail = _("game #{id} cannot be loaded").format(id=row.id)
    setup = row.setup or {}
    players, users = setup.get("players"), setup.get("users")
    if not isinstance(players, list) or not isinstance(users, list) or not all(isinstance(u, str) for u in users):
        raise GameCorrupted(f"{fail}: its setup has no players or user ids")
    if len(users) != len(players):
        raise GameCorrupted(f"{fail}: its setup has {len(users)} user ids for {len(players)} players")
    missing = [u for u in users if row.seat_of(u) is None]
    if missing:
        raise GameCorrupted(f"{fail}: {len(missing)} of its seats are missing")
    limit = row.options.get("turn_limit", 0)
    if not validate.is_int(limit) or limit < 0:
        raise GameCorrupted(f"{fail}: its turn limit is not a number of seconds")
    if row.options.get("timeout_policy", "skip") not in TIMEOUT_POLICIES:
        raise GameCorrupted(f"{fail}: its timeout policy is unknown")


def _parse_log(row: GameRow, log_rows: list[tuple[int, str, str]]) -> list[dict[str, Any]]:
    """The moves of the log, checked to be complete and to be move objects."""
    fail = _("game #{id} cannot be loaded").format(id=row.id)
    for n, (seq, _user, _text) in enumerate(log_rows, start=1):
        if seq != n:
            raise GameCorrupted(f"{fail}: move {n} is missing from its log")
    if len(log_rows) != row.version:
        raise GameCorrupted(f"{fail}: its log holds {len(log_rows)} of its {row.version} moves")
    try:  # one parse of the whole log; a damaged move is found one by one below
        moves = json.loads("[" + ",".join(text for _seq, _user, text in log_rows) + "]")
    except (TypeError, ValueError, RecursionError):
        moves = None
    if moves is None or len(moves) != len(log_rows) or not all(isinstance(m, dict) for m in moves):
        moves = []
        for seq, _user, text in log_rows:
            try:
                move = json.loads(text)
            except (TypeError, ValueError, RecursionError):
                raise GameCorrupted(f"{fail}: move {seq} is not valid JSON") from None
            if not isinstance(move, dict):
                raise GameCorrupted(f"{fail}: move {seq} is not a move object")
            moves.append(move)
    return moves


def _from_log(row: GameRow, setup: dict[str, Any], moves: list[dict[str, Any]]) -> Game:
    """The game replayed from its setup and every move; GameCorrupted if it does not replay."""
    fail = _("game #{id} cannot be loaded").format(id=row.id)
    try:
        game, _events, error = load({**setup, "moves": moves})
    except BadRecord as exc:  # moves are numbered by their seq here, from 1
        where = "" if exc.move is None else f"move {exc.move + 1}: "
        raise GameCorrupted(f"{fail}: {where}{validate.shorten(exc.reason)}") from None
    except Exception:  # the engine choking on stored data must stay this game's problem
        log.exception("replaying game #%s", row.id)
        raise GameCorrupted(f"{fail}: its record does not replay") from None
    if error is not None:
        raise GameCorrupted(f"{fail}: move {error[0] + 1}: {validate.shorten(error[1])}")
    return game


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _setup_digest(setup: dict[str, Any]) -> str:
    return _digest(json.dumps(setup, sort_keys=True))


def _log_hash(texts: list[str]) -> Any:
    """The running digest of the log's first moves, as their stored texts (``move_text``)
    joined by newlines; ``update`` it with a newline and the next text to go on."""
    return hashlib.sha256("\n".join(texts).encode())


def _snapshot_blob(game: Game, setup: dict[str, Any], log_digest: str) -> bytes:
    """The stored snapshot of ``game``: a line of JSON saying what it was taken of (the state
    format, the number of moves, digests of the setup and of those moves' log texts) and
    the size and digest of what follows, then the engine state (engine.snapshot), as bytes."""
    state = snapshot.dump(game)
    head = {
        "state": STATE_FORMAT,
        "seq": len(game.moves),
        "setup": _setup_digest(setup),
        "moves": log_digest,
        "size": len(state),
        "data": hashlib.sha256(state).hexdigest(),
    }
    return json.dumps(head).encode() + b"\n" + state


def _from_snapshot(
    stored: tuple[int, str, bytes], setup: dict[str, Any], moves: list[dict[str, Any]], texts: list[str]
) -> Game:
    """The game restored from its snapshot, then the moves after it (``moves``: the whole log,
    parsed from ``texts``); raises (anything) when the snapshot is another engine's or format,
    covers another setup or log, is damaged, or does not restore."""
    seq, engine_version, blob = stored
    if engine_version != ENGINE_VERSION:
        raise BadSnapshot(f"written by engine version {validate.clip(str(engine_version), 20)}")
    head_text, _newline, state = blob.partition(b"\n")
    head = json.loads(head_text)
    if not isinstance(head, dict) or head.get("state") != STATE_FORMAT:
        raise BadSnapshot("not a state snapshot of this format")
    if head.get("seq") != seq or type(seq) is not int or not 0 <= seq <= len(moves):
        raise BadSnapshot(f"it covers {validate.clip(str(seq), 20)} moves of {len(moves)}")
    if head.get("setup") != _setup_digest(setup):
        raise BadSnapshot("it was taken of another setup")
    if head.get("moves") != _log_hash(texts[:seq]).hexdigest():
        raise BadSnapshot("it was taken of other moves than the log's")
    if head.get("size") != len(state):
        raise BadSnapshot(f"it holds {len(state)} bytes of state, not {validate.clip(str(head.get('size')), 20)}")
    if head.get("data") != hashlib.sha256(state).hexdigest():
        raise BadSnapshot("its data is damaged")
    # The game's moves are the log's own (parsed), never a copy kept in the snapshot.
    game = snapshot.restore(setup, state, moves[:seq])
    tail = moves[seq:]
    check({**setup, "moves": tail})
    for move in tail:
        game.apply(move)
    return game
