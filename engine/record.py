"""Game records (RECORD.md): checking one and replaying it into a Game."""

from __future__ import annotations

from typing import Any

from engine.catalog import TILE_TYPES
from engine.expansions.registry import expansion_classes
from engine.game import BadSetup, Game, IllegalMove

Record = dict[str, Any]


class BadRecord(ValueError):
    """A record that is not a well-formed game record (exit status 2 in the replay).

    ``move`` is the index of the faulty move when one is at fault, ``reason`` the message
    without it, so that a caller numbering moves differently (the service counts from 1, as
    the log's seq) can word it its own way.
    """

    def __init__(self, message: str, move: int | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.move, self.reason = move, reason or message


def _bad_move(i: int, reason: str) -> BadRecord:
    return BadRecord(f"move {i}: {reason}", i, reason)


MAX_PLAYERS = 6
MAX_NAME = 100  # characters in a player name, a set name, a tile id or any move field
MAX_NUMBER = 10**6  # coordinates and rotations; anything bigger is no board
MAX_SEED = 2**256  # new games draw 128 random bits (RECORD.md); older records hold smaller seeds
MOVE_FIELDS_INT = ("x", "y", "rot")


def _clip(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _names(value: Any, what: str, limit: int | None = None) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and 0 < len(v) <= MAX_NAME for v in value):
        raise BadRecord(f'"{what}" must be a list of names')
    if limit is not None and len(value) > limit:
        raise BadRecord(f'"{what}" holds more than {limit} entries')
    return value


def _check_move(i: int, move: Any, players: list[str]) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise _bad_move(i, 'not an object with a "type"')
    for key, value in move.items():
        if not isinstance(key, str) or len(key) > 32:
            raise _bad_move(i, f"bad field name {_clip(key)}")
        kind = type(value)  # plain ints and texts (every field of a JSON move) checked first
        if kind is int or (kind is not str and _is_int(value)):
            if abs(value) > MAX_NUMBER:
                raise _bad_move(i, f"{key} is out of range")
        elif (kind is not str and not isinstance(value, str)) or len(value) > MAX_NAME:
            raise _bad_move(i, f"{key} must be a whole number or a short text, not {_clip(value)}")
    for key in MOVE_FIELDS_INT:
        value = move.get(key)
        if value is not None and type(value) is not int and not _is_int(value):
            raise _bad_move(i, f"{key} must be a whole number")
    for key in ("tile", "castle"):
        if key in move and move[key] not in TILE_TYPES:
            raise _bad_move(i, f"unknown tile id {_clip(move[key])}")
    if "player" in move and move["player"] not in players:
        raise _bad_move(i, f"unknown player {_clip(move['player'])}")


def check(record: Any) -> None:
    """Raise BadRecord unless ``record`` has the shape of RECORD.md."""
    if not isinstance(record, dict):
        raise BadRecord("a record is a JSON object")
    if record.get("format", 1) != 1:
        raise BadRecord(f"unsupported record format {record.get('format')!r}")
    players = _names(record.get("players"), "players", MAX_PLAYERS)
    _names(record.get("sets", ["base"]), "sets", 16)
    seed = record.get("seed", 0)
    if not _is_int(seed) or abs(seed) > MAX_SEED:
        raise BadRecord('"seed" must be an integer')
    pool = record.get("pool")
    if pool is not None and (not isinstance(pool, list) or not all(isinstance(t, str) for t in pool)):
        raise BadRecord('"pool" must be a list of tile ids')
    hidden = record.get("hidden")
    if hidden is not None:
        if not _is_int(hidden) or not 0 <= hidden <= MAX_NUMBER:
            raise BadRecord('"hidden" must be a number of tiles')
        if pool is None or "seed" in record:
            raise BadRecord('a record with "hidden" tiles lists the drawn tiles in "pool" and has no "seed"')
    castles = record.get("castles")
    if castles is not None:
        if not isinstance(castles, dict):
            raise BadRecord('"castles" must map player names to lists of castle ids')
        for name, hand in castles.items():
            if name not in players:
                raise BadRecord(f"unknown player {_clip(name)} in castles")
            if not isinstance(hand, list) or not all(isinstance(t, str) and t in TILE_TYPES for t in hand):
                raise BadRecord(f"bad castle hand for {_clip(name)}")
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise BadRecord('"moves" must be a list')
    for i, move in enumerate(moves):
        _check_move(i, move, players)


def new_game(record: Record, begin: bool = True) -> Game:
    """The game a record sets up, before any move. Raises BadRecord. With ``begin`` False the
    first turn is not started (no question is asked yet): for engine.snapshot to restore into."""
    check(record)
    pool = record.get("pool")
    if record.get("hidden") is not None:
        pool = [*(pool or []), *_stand_ins(record)]
    sets = record.get("sets", ["base"])
    # Each expansion's own setup fields (RECORD.md: the castles dealt), by what the expansion declares.
    extra = {key: record[key] for cls in expansion_classes(sets) for key in cls.options if key in record}
    try:
        return Game(record["players"], sets, record.get("seed", 0), pool=pool, begin=begin, **extra)
    except BadSetup as exc:
        raise BadRecord(str(exc)) from None
    except (TypeError, ValueError, KeyError, IndexError) as exc:  # a setup the engine cannot even check
        raise BadRecord(f"impossible setup ({type(exc).__name__})") from None


def load(record: Record) -> tuple[Game, list[dict[str, Any]], tuple[int, str] | None]:
    """Replay a record: (game, every event, (index, message) of the first illegal move).

    Moves before an illegal one count; the game is left as they made it.
    """
    game = new_game(record)
    events = list(game.start_events)
    for i, move in enumerate(record.get("moves", [])):
        try:
            events += game.apply(move)
        except IllegalMove as exc:
            return game, events, (i, str(exc))
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            # A well-formed move the engine's checks did not foresee: the record is unusable.
            raise _bad_move(i, f"cannot be applied ({type(exc).__name__})") from None
    return game, events, None


def game_from_record(record: Record) -> Game:
    """The game a record replays to; raises BadRecord, or IllegalMove at its first illegal move."""
    game, _events, error = load(record)
    if error is not None:
        raise IllegalMove(f"move {error[0]}: {error[1]}")
    return game


# ---------------------------------------------------------------------- hidden tiles
def public_record(game: Game) -> Record:
    """The record of ``game`` that a player may see (RECORD.md ``hidden``).

    A finished game's record is whole. Of a game in progress it lists the tiles drawn so far,
    in draw order, and only the number of the others: no seed, no order of the undrawn tiles,
    nothing from which they could be derived. It replays exactly to the current position.
    """
    record = game.to_json()
    if game.finished:
        return record
    drawn = drawn_prefix(game)
    del record["seed"]
    record["pool"] = drawn
    record["hidden"] = len(game.initial_bag) - len(drawn)
    return record


def drawn_prefix(game: Game) -> list[str]:
    """The start of the game's bag that play has uncovered: the shortest prefix of the bag as
    dealt that holds every tile drawn so far (a river tile put back under the river stack is
    drawn again later, so the tiles drawn are the prefix's, in another order)."""
    wanted: dict[str, int] = {}
    for tile_id in game.bag[: game.bag_pos]:
        wanted[tile_id] = wanted.get(tile_id, 0) + 1
    missing = sum(wanted.values())
    taken = 0
    for tile_id in game.initial_bag:
        if missing == 0:
            break
        taken += 1
        if wanted.get(tile_id, 0) > 0:
            wanted[tile_id] -= 1
            missing -= 1
    return list(game.initial_bag[:taken])


def _stand_ins(record: Record) -> list[str]:
    """Tiles that stand for the hidden ones, in an order that says nothing about theirs: the bag
    that seed 0 deals for these sets, less the drawn tiles (it keeps the river's order rules). A
    replay never draws them: it stops at the position where the record was taken."""
    try:
        template = Game(record["players"], record.get("sets", ["base"]), 0, castles=record.get("castles"),
                        begin=False).initial_bag  # fmt: skip
    except BadSetup as exc:
        raise BadRecord(str(exc)) from None
    left = list(template)
    for tile_id in record["pool"]:
        if tile_id in left:
            left.remove(tile_id)
    if len(left) != record["hidden"]:
        raise BadRecord(f'"hidden" says {record["hidden"]} tiles are left, the sets leave {len(left)}')
    return left
