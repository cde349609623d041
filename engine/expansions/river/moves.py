"""The rivers' own event, declared here (engine/moves.py declares the base game's).
How a set declares its moves, and why without ``from __future__ import annotations``: docs/EXPANSIONS.md.
"""

from typing import NotRequired, TypedDict


class TileReturnedEvent(TypedDict):
    """A river tile that fits nowhere yet goes back under the river stack."""

    type: str  # "tile_returned"
    tile: str
    player: NotRequired[str]
