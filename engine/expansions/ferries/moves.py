"""The Ferries' own move and event, declared here (engine/moves.py declares the base game's).
The expansion class hands them to the registry (``move_shapes``, ``event_shapes``); RECORD.md
says how they travel.

No ``from __future__ import annotations`` here: a TypedDict tells ``NotRequired`` fields only
from evaluated annotations.
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
