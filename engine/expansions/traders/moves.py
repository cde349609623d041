"""Traders & Builders' own events, declared here (engine/moves.py declares the base game's).
The expansion class hands them to the registry (``event_shapes``); RECORD.md says how they travel.

No ``from __future__ import annotations`` here: a TypedDict tells ``NotRequired`` fields only
from evaluated annotations.
"""

from typing import TypedDict


class GoodsEvent(TypedDict):
    """The player who completed a city takes its goods: good -> tokens."""

    type: str  # "goods"
    player: str
    goods: dict[str, int]


class ExtraTurnEvent(TypedDict):
    """The player's builder earned one more tile, played right after this turn."""

    type: str  # "extra_turn"
    player: str
