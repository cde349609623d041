"""Traders & Builders' own events, declared here (engine/moves.py declares the base game's).
How a set declares its moves, and why without ``from __future__ import annotations``: docs/EXPANSIONS.md.
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
