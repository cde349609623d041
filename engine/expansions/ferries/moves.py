"""The Ferries' own move and event, declared here (engine/moves.py declares the base game's).
How a set declares its moves, and why without ``from __future__ import annotations``: docs/EXPANSIONS.md.
"""

from typing import NotRequired, TypedDict


class FerryMove(TypedDict):
    """Place a ferry on the new lake tile, or move one; ``join`` names two jetties ("E-W")."""

    type: str  # "ferry"
    x: int
    y: int
    join: str
    player: NotRequired[str]


class FerryEvent(TypedDict):
    type: str  # "ferry"
    action: str  # "placed" | "moved"
    player: str
    x: int
    y: int
    join: str
