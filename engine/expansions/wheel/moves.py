"""The Wheel of Fortune's own move and events, declared here (engine/moves.py declares the base
game's).
How a set declares its moves, and why without ``from __future__ import annotations``: docs/EXPANSIONS.md.
"""

from typing import NotRequired, TypedDict


class RemoveMove(TypedDict):
    """The plague: ``player`` sends home their follower standing at ``at`` on (x, y)."""

    type: str  # "remove"
    x: int
    y: int
    at: str
    player: NotRequired[str]


class WheelEvent(TypedDict):
    """The pig moved ``steps`` sectors to ``sector`` for ``player``'s drawn tile."""

    type: str  # "wheel"
    sector: str
    steps: int
    player: str


class WheelSectorEvent(TypedDict):
    """The event of the sector the pig reached happened: what it gave each player."""

    type: str  # "wheel_event"
    sector: str
    points: dict[str, int]


class PlagueEvent(TypedDict):
    """``player`` sent home their follower at ``at`` on (x, y)."""

    type: str  # "plague"
    player: str
    x: int
    y: int
    at: str
