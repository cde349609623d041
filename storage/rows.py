"""The rows of the game store as the service sees them (``GameRow``, ``SeatRow``, ``Loaded``), the
store's errors, and reading a game's row field by field: a damaged field is ``Corrupted``, naming it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from engine.language import _
from storage.backend import Tx


class NotFound(LookupError):
    """No such game (or seat)."""


class Conflict(RuntimeError):
    """The game changed since the caller looked (another move won), or is in the wrong state."""


class Corrupted(ValueError):
    """A stored row that cannot be read as what it should be (bad JSON, wrong type, bad time)."""

    def __init__(self, game_id: int, message: str) -> None:
        super().__init__(f"game #{game_id} cannot be loaded: {message}")
        self.game_id = game_id


GAME_STATUSES = ("lobby", "active", "finished", "aborted")
SEAT_STATUSES = ("playing", "resigned", "forfeited", "kicked")


def move_text(move: dict[str, Any]) -> str:
    """A move as the log stores it (snapshots keep a digest of these texts)."""
    return json.dumps(move)


class Appended(NamedTuple):
    version: int  # moves in the log
    revision: int  # changes to the game's row and seats (see _BUMP)


@dataclass
class Loaded:
    """One consistent read of a game: its row, its snapshot and its log up to the row's version."""

    row: GameRow
    snapshot: tuple[int, str, bytes] | None  # (seq, engine version, state: see GameService)
    moves: list[tuple[int, str, str]] | None  # (seq, user id, move JSON); None: the caller's cache is current


@dataclass
class SeatRow:
    user_id: str
    name: str
    seat: int | None
    is_ai: bool
    status: str


@dataclass
class GameRow:
    id: int
    guild_id: str | None
    channel_id: str | None
    thread_id: str | None
    lobby_message: str | None
    status: str
    creator_id: str
    options: dict[str, Any]
    setup: dict[str, Any] | None
    version: int
    turn_started_at: datetime | None
    reminded: int
    result: dict[str, Any] | None
    created_at: datetime
    seats: list[SeatRow] = field(default_factory=list)
    league_id: int | None = None
    revision: int = 0  # counts every change to the row and its seats (see _BUMP)
    clocks: dict[str, Any] | None = None  # a time-bank game's banks (service/timecontrol.py)

    def seat_of(self, user_id: str) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


async def read_game_row(tx: Tx, game_id: int) -> tuple[Any, list[Any]]:
    row = await tx.fetchrow("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise NotFound(_("there is no game #{id}").format(id=game_id))
    seats = await tx.fetch(
        "SELECT user_id, name, seat, is_ai, status FROM seats WHERE game_id = ? ORDER BY seat, joined_at, rowid",
        (game_id,),
    )
    return row, seats


def json_field(game_id: int, name: str, text: Any, kind: type, optional: bool) -> Any:
    if text is None and optional:
        return None
    if not isinstance(text, str | bytes):
        raise Corrupted(game_id, f"its {name} is not JSON text")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise Corrupted(game_id, f"its {name} is not valid JSON") from None
    if value is None and optional:
        return None
    if not isinstance(value, kind):
        raise Corrupted(game_id, f"its {name} is not a JSON {'object' if kind is dict else kind.__name__}")
    return value


def time_field(game_id: int, name: str, text: Any, optional: bool) -> datetime | None:
    if text is None and optional:
        return None
    try:
        value = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise Corrupted(game_id, f"its {name} is not a time") from None
    if value.tzinfo is None:
        raise Corrupted(game_id, f"its {name} has no time zone")
    return value


def int_field(game_id: int, name: str, value: Any, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise Corrupted(game_id, f"its {name} is not a non-negative integer")
    return value


def parse_game(row: Any, seats: list[Any]) -> GameRow:
    """A games row and its seats, checked field by field: Corrupted names the damaged field."""
    gid = row["id"]
    status = row["status"]
    if status not in GAME_STATUSES:
        raise Corrupted(gid, "its status is unknown")
    seat_rows = []
    for s in seats:
        if not isinstance(s["user_id"], str) or not isinstance(s["name"], str) or s["status"] not in SEAT_STATUSES:
            raise Corrupted(gid, "one of its seats is damaged")
        number = int_field(gid, "seat number", s["seat"], True)
        seat_rows.append(SeatRow(s["user_id"], s["name"], number, bool(s["is_ai"]), s["status"]))
    return GameRow(
        id=gid,
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        lobby_message=row["lobby_message"],
        status=status,
        creator_id=row["creator_id"],
        options=json_field(gid, "options", row["options"], dict, False),
        setup=json_field(gid, "setup", row["setup"], dict, True) if row["setup"] else None,
        version=int_field(gid, "version", row["version"]),  # type: ignore[arg-type]
        turn_started_at=time_field(gid, "turn start", row["turn_started_at"], True),
        reminded=int_field(gid, "reminder flag", row["reminded"]),  # type: ignore[arg-type]
        result=json_field(gid, "result", row["result"], dict, True) if row["result"] else None,
        created_at=time_field(gid, "creation time", row["created_at"], False),  # type: ignore[arg-type]
        seats=seat_rows,
        league_id=row["league_id"],
        revision=int_field(gid, "revision", row["revision"]),  # type: ignore[arg-type]
        clocks=json_field(gid, "clocks", row["clocks"], dict, True) if row["clocks"] else None,
    )
