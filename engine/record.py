"""Game records (RECORD.md): checking one and replaying it into a Game."""

from __future__ import annotations

from typing import Any

from engine.catalog import TILE_TYPES
from engine.game import BadSetup, Game, IllegalMove

Record = dict[str, Any]


class BadRecord(ValueError):
    """A record that is not a well-formed game record (exit status 2 in the replay)."""


def check(record: Any) -> None:
    """Raise BadRecord unless ``record`` has the shape of RECORD.md."""
    if not isinstance(record, dict):
        raise BadRecord("a record is a JSON object")
    if record.get("format", 1) != 1:
        raise BadRecord(f"unsupported record format {record.get('format')!r}")
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRecord('"players" must be a list of names')
    sets = record.get("sets", ["base"])
    if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
        raise BadRecord('"sets" must be a list of set names')
    if not isinstance(record.get("seed", 0), int) or isinstance(record.get("seed", 0), bool):
        raise BadRecord('"seed" must be an integer')
    pool = record.get("pool")
    if pool is not None and (not isinstance(pool, list) or not all(isinstance(t, str) for t in pool)):
        raise BadRecord('"pool" must be a list of tile ids')
    castles = record.get("castles")
    if castles is not None:
        if not isinstance(castles, dict):
            raise BadRecord('"castles" must map player names to lists of castle ids')
        for name, hand in castles.items():
            if name not in players:
                raise BadRecord(f"unknown player {name!r} in castles")
            if not isinstance(hand, list) or not all(isinstance(t, str) and t in TILE_TYPES for t in hand):
                raise BadRecord(f"bad castle hand for {name!r}")
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise BadRecord('"moves" must be a list')
    for i, move in enumerate(moves):
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise BadRecord(f'move {i} is not an object with a "type"')
        for key in ("tile", "castle"):
            if key in move and move[key] not in TILE_TYPES:
                raise BadRecord(f"move {i}: unknown tile id {move[key]!r}")
        if "player" in move and move["player"] not in players:
            raise BadRecord(f"move {i}: unknown player {move['player']!r}")


def new_game(record: Record) -> Game:
    """The game a record sets up, before any move. Raises BadRecord."""
    check(record)
    try:
        return Game(
            record["players"],
            record.get("sets", ["base"]),
            record.get("seed", 0),
            pool=record.get("pool"),
            castles=record.get("castles"),
        )
    except BadSetup as exc:
        raise BadRecord(str(exc)) from None


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
    return game, events, None
