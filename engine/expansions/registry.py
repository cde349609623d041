"""Which expansion module serves which set: the one place that names them all."""

from __future__ import annotations

from engine.expansions import Expansion
from engine.expansions.castles import Castles
from engine.expansions.ferries import Ferries
from engine.expansions.river import River
from engine.expansions.toll import Tollkeepers
from engine.expansions.wheel import Wheel

EXPANSIONS: dict[str, type[Expansion]] = {}


def register(cls: type[Expansion]) -> None:
    """Make an expansion's sets playable (tests register toy expansions this way)."""
    for set_name in cls.sets:
        EXPANSIONS[set_name] = cls


def unregister(cls: type[Expansion]) -> None:
    for set_name in cls.sets:
        if EXPANSIONS.get(set_name) is cls:
            del EXPANSIONS[set_name]


def expansion_classes(sets: list[str]) -> list[type[Expansion]]:
    """The expansion classes the sets need, each once, in the order of ``sets``."""
    out: list[type[Expansion]] = []
    for s in sets:
        cls = EXPANSIONS.get(s)
        if cls is not None and cls not in out:
            out.append(cls)
    return out


def scored_feature_word(feature: str) -> str | None:
    """An expansion's name for a kind of scored feature (untranslated message), if one declares it."""
    for cls in EXPANSIONS.values():
        if feature in cls.scored_features:
            return cls.scored_features[feature]
    return None


def event_owner(event_type: str) -> type[Expansion] | None:
    """The expansion that emits (and words) an event type, if any."""
    for cls in EXPANSIONS.values():
        if event_type in cls.event_types:
            return cls
    return None


for _cls in (River, Castles, Ferries, Wheel, Tollkeepers):
    register(_cls)
