"""The set families that the generic tests and the benchmarks play, built from the table of
built-in sets (``sets.BUILT_IN``): a new set joins every family it combines with, and neither a
test nor a benchmark names it.

- ``FAMILIES``: the base game alone; the rivers with every set that combines with them; the Wheel
  of Fortune with the base game and every set that combines with it (``NAMED_FAMILIES``: the same,
  each under its label);
- ``EACH``: each built-in set with the base game;
- ``RIVER_FAMILIES``: the base game with each river, then with every river.

``family_label`` names a family in a benchmark's table. Importing this module loads every built-in
expansion (to ask which sets combine): the engine itself never imports it.
"""

from __future__ import annotations

from engine.expansions.sets import BUILT_IN
from engine.game import check_sets
from engine.moves import BadSetup

BASE = "base"


def with_everything(start: list[str]) -> list[str]:
    """``start`` with every built-in set that combines with it (in the table's order), in canonical order."""
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


def package_sets(package: str) -> list[str]:
    """The built-in sets one package serves, in the table's order ("river": river1, river2)."""
    return [name for name, (served_by, _cls, _rows) in BUILT_IN.items() if served_by == package]


def family_label(sets: list[str], lead: list[str] | None = None) -> str:
    """A family's name for a benchmark's table: its sets joined by "+", the base game first, then
    ``lead`` (the sets the family is built around), then the others; all the sets of a package
    serving several are said once, by the package's name in the plural ("rivers")."""
    ahead = [BASE, *(lead or [])]
    ordered = [name for name in ahead if name in sets] + [name for name in sets if name not in ahead]
    words: list[str] = []
    for name in ordered:
        package = BUILT_IN[name][0] if name in BUILT_IN else ""
        siblings = package_sets(package) if package else []
        if len(siblings) > 1 and all(s in sets for s in siblings):
            name = package + "s"
        if name not in words:
            words.append(name)
    return "+".join(words)


RIVER_SETS = package_sets("river")
RIVERS = with_everything([BASE, *RIVER_SETS])
WHEEL = with_everything([BASE, "wheel"])
FAMILIES: list[list[str]] = [[BASE], RIVERS, WHEEL]
#: each built-in set with the base game (its land tiles)
EACH: list[list[str]] = [check_sets([BASE, name]) for name in BUILT_IN]
#: the families by name, as the benchmarks' tables show them
NAMED_FAMILIES: dict[str, list[str]] = {
    family_label([BASE]): [BASE],
    family_label(RIVERS, RIVER_SETS): RIVERS,
    family_label(WHEEL, ["wheel"]): WHEEL,
}
#: the base game with each river alone, then with every river (the rivers' own rules at work)
RIVER_FAMILIES: list[list[str]] = [*(check_sets([BASE, name]) for name in RIVER_SETS), check_sets([BASE, *RIVER_SETS])]
