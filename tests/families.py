"""The set families the generic tests play: engine/expansions/families.py builds them from the
table of built-in sets (engine/expansions/sets.py), for the benchmarks too; a new set joins every
family it combines with, with no test to edit.

(tests/test_same_games.py keeps its own pinned families: its digest is of the older sets' games.)
"""

from __future__ import annotations

from engine.expansions.families import EACH, FAMILIES, RIVERS, WHEEL

__all__ = ["EACH", "FAMILIES", "RIVERS", "WHEEL"]
