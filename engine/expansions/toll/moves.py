"""The Tollkeepers' own move and event, declared here (engine/moves.py declares the base game's).
How a set declares its moves, and why without ``from __future__ import annotations``: docs/EXPANSIONS.md.
"""

from typing import NotRequired, TypedDict


class TollMove(TypedDict):
    """Put or move the mover's tollhouse on the village of a cell (instead of a follower)."""

    type: str  # "toll"
    x: int
    y: int
    player: NotRequired[str]


class TollEvent(TypedDict):
    type: str  # "toll"
    action: str  # "placed" | "moved" | "collected" | "flipped" | "final"
    player: str
    x: NotRequired[int]
    y: NotRequired[int]
    value: NotRequired[int]
    points: NotRequired[int]
