"""The rivers' own event, declared here (engine/moves.py declares the base game's).
The expansion class hands it to the registry (``move_shapes``, ``event_shapes``); RECORD.md
says how it travels.

No ``from __future__ import annotations`` here: a TypedDict tells ``NotRequired`` fields only
from evaluated annotations.
"""

from typing import NotRequired, TypedDict


class TileReturnedEvent(TypedDict):
    """A river tile that fits nowhere yet goes back under the river stack."""

    type: str  # "tile_returned"
    tile: str
    player: NotRequired[str]
