"""The built-in expansions: the one table that names them. For each set, the package in
``engine/expansions`` that serves it, its ``Expansion`` class, and the names of its tile rows in
the package's ``tiles.py``. The catalog reads the tiles from it, the registry the classes; neither
imports an expansion before a game (or a lookup) wants one of its sets."""

from __future__ import annotations

BUILT_IN: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "river1": ("river", "River", ("RIVER1",)),
    "river2": ("river", "River", ("RIVER2",)),
    "ferries": ("ferries", "Ferries", ("TILES",)),
    "castles": ("castles", "Castles", ("TILES",)),
    "wheel": ("wheel", "Wheel", ("START_TILES", "PLAIN_TILES", "ICON_TILES")),
    "toll": ("toll", "Tollkeepers", ("TILES",)),
    "inns": ("inns", "Inns", ("TILES",)),
    "traders": ("traders", "Traders", ("TILES",)),
}
