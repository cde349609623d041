"""Castles in Germany's own moves, declared here (engine/moves.py declares the base game's):
the draw and the castle.
How a set declares its moves, and why without ``from __future__ import annotations``: docs/EXPANSIONS.md.
"""

from typing import NotRequired, TypedDict


class DrawMove(TypedDict):
    """A player who may place a castle instead takes a tile from the bag."""

    type: str  # "draw"
    player: NotRequired[str]


class CastleMove(TypedDict):
    """Place a castle from the mover's hand instead of drawing."""

    type: str  # "castle"
    castle: str
    x: int
    y: int
    rot: int
    player: NotRequired[str]
