"""The game log and what is kept of it in memory: loading, snapshots, committing a turn.

A game is stored as its setup plus an append-only move log (the truth) and a state snapshot
every few moves (a cache checked against the log). ``GameLog`` loads a game consistently
under its lock, keeps the replayed games of running games in memory while their stored version
is unchanged, and commits a turn's moves in one versioned transaction, so two submissions for
the same turn never both count.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import logging
import os
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from engine import ENGINE_VERSION, Game, snapshot
from engine.language import _
from engine.record import BadRecord, check, load
from engine.snapshot import STATE_FORMAT, BadSnapshot
from service import timecontrol, validate
from service.validate import ServiceError
from storage import Conflict, GameRow, NotFound, Store
from storage.outbox import Outgoing
from storage.rows import Corrupted, Loaded, move_text
from storage.times import iso, parse_time

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 5  # moves between two snapshots (saved with the moves, in their transaction)
CACHE_SIZE = 2000  # replayed games kept in memory (least recently used go first)
# At a turn's deadline: "skip" plays it automatically (first placement, no figure); "computer" has a
# computer of the normal level play it for the player, who keeps their seat; "forfeit" takes the
# player out and plays all their turns automatically.
TIMEOUT_POLICIES = ("skip", "computer", "forfeit")


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


class GameLog:
    """Loads and commits games; keeps running games replayed in memory (see the module)."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock
        # id -> (version, replayed game) of running games, least recently used first
        self._games: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        # A lock lives while someone holds or awaits it; a finished game's lock goes away.
        self._locks: weakref.WeakValueDictionary[int, _GameLock] = weakref.WeakValueDictionary()
        # id -> (store change token, row) of the cached games: while the token is unchanged no
        # row changed, and a load needs no round trip (see Store.change_token).
        self._rows: dict[int, tuple[tuple[int, int, int] | None, GameRow]] = {}
        # id -> (version, running digest of the log's move texts) of the cached games, so that a
        # snapshot's digest of the moves it covers costs the new moves only (see _snapshot_blob).
        self._log_hashes: dict[int, tuple[int, Any]] = {}
        # Called with a game's id once its last move is stored (the league service rates it).
        self.finished_listeners: list[Callable[[int], Awaitable[Any]]] = []
        self.commits = 0  # decisions this process stored (metrics)

    def lock(self, game_id: int) -> _GameLock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = _GameLock()
        return lock

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._rows.pop(game_id, None)
        self._log_hashes.pop(game_id, None)

    def cache(self, game_id: int, version: int, game: Game, running: bool) -> None:
        if not running:
            self.forget(game_id)  # finished and aborted games leave memory
            return
        self._games[game_id] = (version, game)
        self._games.move_to_end(game_id)
        while len(self._games) > CACHE_SIZE:
            evicted, _game = self._games.popitem(last=False)
            self._rows.pop(evicted, None)
            self._log_hashes.pop(evicted, None)

    async def row(self, game_id: int) -> GameRow:
        """The game's stored row and seats (any status)."""
        try:
            return await self.store.get_game(game_id)
        except NotFound as exc:
            raise ServiceError(str(exc)) from None
        except Corrupted as exc:
            raise GameCorrupted(str(exc)) from None

    async def load(self, game_id: int) -> tuple[GameRow, Game]:
        """One read of row, seats, snapshot and log (bounded by the version read); the cached
        game when it is current. Hold the game's lock.

        Current means: on a database of this process alone (SQLite), no commit touched the
        game since it was cached (``Store.change_token``, no round trip); on a shared one
        (PostgreSQL), its stored revision is the cached row's (one read: another process may
        have written)."""
        cached = self._games.get(game_id)
        known = self._rows.get(game_id)
        shared = self.store.shared
        token = None if shared else self.store.change_token(game_id)  # read before the row
        if cached and known and known[1].version == cached[0]:
            if shared:
                fresh = await self.store.revision(game_id) == known[1].revision
            else:
                fresh = token is not None and known[0] == token
            if fresh:
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
            game = await self.replay(loaded)
        self.cache(game_id, row.version, game, row.status == "active")
        if (shared or token is not None) and row.status == "active":
            self._rows[game_id] = (token, dataclasses.replace(row))
        return row, game

    def after_own_write(self, game_id: int, changed: GameRow | None = None, revision: int | None = None) -> None:
        """Keep the remembered row current across this service's own write, when that write
        is the only change since it was read: the token moved by exactly one (SQLite), or the
        write's ``revision`` is the row's next (a shared database)."""
        known = self._rows.pop(game_id, None)
        if known is None:
            return
        if self.store.shared:
            if revision is not None and revision == known[1].revision + 1:
                self._rows[game_id] = (None, dataclasses.replace(changed or known[1], revision=revision))
            return
        token = self.store.change_token(game_id)
        if token is None or known[0] is None or token != (*known[0][:2], known[0][2] + 1):
            return
        self._rows[game_id] = (token, changed or known[1])

    async def replay(self, loaded: Loaded) -> Game:
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
                # Another process's seal (no shared SNAPSHOT_KEY, or a restart) is no news.
                level = logging.INFO if isinstance(exc, SealedElsewhere) else logging.WARNING
                log.log(level, "game #%s: its snapshot is not used (%s); the log wins", row.id, exc)
        if game is None:
            game = _from_log(row, setup, moves)
            if stored is not None or len(texts) >= SNAPSHOT_EVERY:
                digest = self._log_hashes[row.id][1].hexdigest()
                await self.store.save_snapshot(
                    row.id, len(texts), ENGINE_VERSION, _snapshot_blob(game, setup, digest), replace=True
                )
        return game

    async def commit(
        self, row: GameRow, before: Game, after: Game, entries: list[tuple[str, dict]], notice: Outgoing | None = None
    ) -> None:
        """Store a turn's moves (versioned: AlreadyPlayed if another got in first), with what
        players are to be told of them (``notice``, to the outbox in the same transaction)."""
        new_turn = after.turn != before.turn or after.actor != before.actor or after.finished
        result = _result(row, after) if after.finished else None
        now = self.clock()
        hashed = self._log_hashes.get(row.id)
        if hashed is not None and hashed[0] == row.version:
            log_hash = hashed[1].copy()
        else:  # not loaded from the store (just started): the texts the log holds
            log_hash = _log_hash([move_text(m) for m in before.moves])
        for n, (_user, move) in enumerate(entries, start=row.version):
            log_hash.update((("\n" if n else "") + move_text(move)).encode())
        version = row.version + len(entries)
        clocks = _charged(row, before, after, now) if new_turn and not after.finished else None
        snapshot = None
        if after.finished or version // SNAPSHOT_EVERY > row.version // SNAPSHOT_EVERY:
            setup = {k: v for k, v in row.setup.items() if k != "users"}  # type: ignore[union-attr]
            snapshot = (ENGINE_VERSION, _snapshot_blob(after, setup, log_hash.hexdigest()))
        try:
            version, revision = await self.store.append_moves(
                row.id, row.version, entries, now, new_turn, result, snapshot, clocks, notice
            )
        except Conflict:
            self.forget(row.id)
            raise AlreadyPlayed(_("that turn has already been played; here is the current one")) from None
        self.commits += 1
        self.cache(row.id, version, after, not after.finished)
        if not after.finished:
            self._log_hashes[row.id] = (version, log_hash)
            stored = dataclasses.replace(row, version=version)
            if new_turn:  # as the row now reads back: the time to the second, no reminder yet
                stored.turn_started_at, stored.reminded = parse_time(iso(now)), 0
                stored.clocks = clocks or stored.clocks
            self.after_own_write(row.id, stored, revision)
        if after.finished:
            for listener in self.finished_listeners:
                try:
                    await listener(row.id)
                except Exception:  # a listener's failure must not undo a stored move
                    log.exception("after game #%s ended", row.id)


def _charged(row: GameRow, before: Game, after: Game, now: datetime) -> dict[str, Any] | None:
    """A time-bank game's banks once ``before.actor``'s turn ended at ``now``: the time since the
    turn began taken from their bank, the increment added (once: this is the versioned write).
    Turns played inside the same commit (computers replying at once) took no time."""
    control = timecontrol.parse(row.options.get("time_control", timecontrol.PER_TURN))
    if control is None or row.clocks is None:
        return None
    left = list(row.clocks["left"])
    spent = (now - row.turn_started_at).total_seconds() if row.turn_started_at is not None else 0.0
    left[before.actor] = control.charge(left[before.actor], spent)
    return {"left": left, "actor": after.actor}


def turn_seconds(row: GameRow) -> int:
    """How long the player to move has for this turn, from its start: their bank in a time-bank
    game, else the game's turn limit (0: no limit)."""
    if row.clocks is not None:
        return int(row.clocks["left"][row.clocks["actor"]])
    return int(row.options.get("turn_limit", 0))


def _result(row: GameRow, game: Game) -> dict[str, Any]:
    """What a finished game's row keeps: scores, who played which colour, who forfeited."""
    users = row.setup["users"]  # type: ignore[index]
    out_of_game = {s.user_id for s in row.seats if s.status != "playing"}
    return {
        "scores": game.score_table(),
        "users": dict(zip(game.players, users, strict=True)),
        "forfeited": [name for name, uid in zip(game.players, users, strict=True) if uid in out_of_game],
    }


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
    try:
        control = timecontrol.parse(row.options.get("time_control", timecontrol.PER_TURN))
    except timecontrol.BadTimeControl:
        raise GameCorrupted(f"{fail}: its time control is unknown") from None
    if control is not None or row.clocks is not None:
        banks: Any = (row.clocks or {}).get("left")
        actor: Any = (row.clocks or {}).get("actor")
        cap = control.cap if control is not None else -1
        if (
            not isinstance(banks, list) or len(banks) != len(players)
            or not all(validate.is_int(b) and 0 <= b <= cap for b in banks)
            or not validate.is_int(actor) or not 0 <= actor < len(players)
        ):  # fmt: skip
            raise GameCorrupted(f"{fail}: its time banks are damaged")


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


def _seal_key() -> bytes:
    """The key snapshots are sealed with: ``SNAPSHOT_KEY`` (the same for every process sharing a
    database), else one drawn for this process. The database never holds it: a snapshot whose
    scores were edited, even with its digests recomputed, does not carry a valid seal and loses to
    the log. Without SNAPSHOT_KEY a process trusts only its own snapshots (after a restart, or
    another process's, a game's first load replays its log and seals it anew)."""
    text = os.environ.get("SNAPSHOT_KEY", "")
    return text.encode() if len(text) >= 16 else secrets.token_bytes(32)


SEAL_KEY = _seal_key()
SEAL_ID = hashlib.sha256(b"carcassonne snapshot key " + SEAL_KEY).hexdigest()[:12]  # which key, not the key


class SealedElsewhere(BadSnapshot):
    """A snapshot sealed with another key than this process's: usable only where that key is."""


def _seal(head_text: bytes, state: bytes) -> str:
    return hmac.new(SEAL_KEY, head_text + b"\n" + state, hashlib.sha256).hexdigest()


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
        "key": SEAL_ID,
    }
    head_text = json.dumps(head).encode()
    return head_text + b"\n" + _seal(head_text, state).encode() + b"\n" + state


def _from_snapshot(
    stored: tuple[int, str, bytes], setup: dict[str, Any], moves: list[dict[str, Any]], texts: list[str]
) -> Game:
    """The game restored from its snapshot, then the moves after it (``moves``: the whole log,
    parsed from ``texts``); raises (anything) when the snapshot is another engine's or format,
    covers another setup or log, is damaged, or does not restore."""
    seq, engine_version, blob = stored
    if engine_version != ENGINE_VERSION:
        raise BadSnapshot(f"written by engine version {validate.clip(str(engine_version), 20)}")
    head_text, _newline, rest = blob.partition(b"\n")
    seal, _newline, state = rest.partition(b"\n")
    head = json.loads(head_text)
    if not isinstance(head, dict) or head.get("state") != STATE_FORMAT:
        raise BadSnapshot("not a state snapshot of this format")
    if head.get("key") != SEAL_ID:
        raise SealedElsewhere("sealed with another key (no shared SNAPSHOT_KEY, or a restart without one)")
    if not hmac.compare_digest(seal, _seal(head_text, state).encode()):
        raise BadSnapshot("its seal does not match: damaged or edited")
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
