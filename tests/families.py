"""The set families the generic tests play, built from the table of built-in sets
(engine/expansions/sets.py): a new set joins every family it combines with, with no test to edit.

- the base game alone;
- the rivers with every set that combines with them;
- the Wheel of Fortune with the base game and every set that combines with it.

(tests/test_same_games.py keeps its own pinned families: its digest is of the older sets' games.)
"""

from __future__ import annotations

from engine.expansions.sets import BUILT_IN
from engine.game import check_sets
from engine.moves import BadSetup


def _with_everything(start: list[str]) -> list[str]:
    sets = list(start)
    for name in BUILT_IN:
        if name in sets:
            continue
        try:
            check_sets([*sets, name])
        except BadSetup:
            continue  # it does not combine with this start (the wheel with a river)
        sets.append(name)
    return check_sets(sets)


RIVERS = _with_everything(["base", "river1", "river2"])
WHEEL = _with_everything(["base", "wheel"])
FAMILIES: list[list[str]] = [["base"], RIVERS, WHEEL]
#: each built-in set with the base game (its land tiles)
EACH: list[list[str]] = [check_sets(["base", name]) for name in BUILT_IN]
