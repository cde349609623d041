"""Which expansion serves which set: the built-in ones (``sets.BUILT_IN``) and the registered ones."""

from __future__ import annotations

import functools
import importlib

from engine.catalog import add_set, remove_set
from engine.expansions import Expansion, LobbyOption
from engine.expansions.sets import BUILT_IN
from engine.figures import FOLLOWER, FigureKind
from engine.language import N_
from engine.moves import EVENT_TYPES, MOVE_TYPES

# The built-in expansions by set (engine/expansions/sets.py): (package in engine.expansions,
# class). A package is imported the first time a game uses one of its sets (a base game loads none).
_BUILT_IN: dict[str, tuple[str, str]] = {name: (package, cls) for name, (package, cls, _rows) in BUILT_IN.items()}
#: the expansions loaded so far (or registered), by set
EXPANSIONS: dict[str, type[Expansion]] = {}


def register(cls: type[Expansion]) -> None:
    """Make an expansion's sets playable, with the tiles it brings (``tile_rows``); an expansion
    outside ``engine`` (a test's toy) plugs in this way, touching nothing else."""
    for set_name, rows in cls.tile_rows.items():
        add_set(set_name, functools.partial(list, rows))
    for set_name in cls.sets:
        EXPANSIONS[set_name] = cls


def unregister(cls: type[Expansion]) -> None:
    for set_name in cls.sets:
        if EXPANSIONS.get(set_name) is cls:
            del EXPANSIONS[set_name]
            _BUILT_IN.pop(set_name, None)
    for set_name in cls.tile_rows:
        remove_set(set_name)


def expansion_for(set_name: str) -> type[Expansion] | None:
    """The expansion class serving a set (None for the base set or an unknown one)."""
    cls = EXPANSIONS.get(set_name)
    if cls is None and set_name in _BUILT_IN:
        module, name = _BUILT_IN[set_name]
        register(getattr(importlib.import_module(f"engine.expansions.{module}"), name))
        cls = EXPANSIONS.get(set_name)
    return cls


def expansion_classes(sets: list[str]) -> list[type[Expansion]]:
    """The expansion classes the sets need, each once, in the order of ``sets``."""
    out: list[type[Expansion]] = []
    for s in sets:
        cls = expansion_for(s)
        if cls is not None and cls not in out:
            out.append(cls)
    return out


def _every_expansion() -> list[type[Expansion]]:
    """Every expansion, built in (loaded now if need be) or registered."""
    built_in = [expansion_for(s) for s in list(_BUILT_IN)]
    return [cls for cls in dict.fromkeys([*built_in, *EXPANSIONS.values()]) if cls is not None]


def scored_feature_word(feature: str) -> str | None:
    """An expansion's name for a kind of scored feature (untranslated message), if one declares it."""
    return next((cls.scored_features[feature] for cls in _every_expansion() if feature in cls.scored_features), None)


def figure_owner(place: str) -> type[Expansion] | None:
    """The expansion whose figure option puts a figure at ``place`` (off the board), if any."""
    return next((cls for cls in _every_expansion() if place in cls.figure_places), None)


def figure_kind(name: str) -> FigureKind | None:
    """A kind of figure any expansion declares, by name (the plain follower is the core's)."""
    if name == FOLLOWER.name:
        return FOLLOWER
    return next((k for cls in _every_expansion() for k in cls.figure_kinds if k.name == name), None)


def event_shapes() -> dict[str, type]:
    """Every event type's declaration: the base game's (engine.moves.EVENT_TYPES) and each expansion's."""
    out = dict(EVENT_TYPES)
    for cls in _every_expansion():
        out.update(cls.event_shapes)
    return out


def move_shapes() -> dict[str, type]:
    """Every move type's declaration: the base game's (engine.moves.MOVE_TYPES) and each expansion's."""
    out = dict(MOVE_TYPES)
    for cls in _every_expansion():
        out.update(cls.move_shapes)
    return out


def event_owner(event_type: str) -> type[Expansion] | None:
    """The expansion that emits (and words) an event type, if any."""
    return next((cls for cls in _every_expansion() if event_type in cls.event_types), None)


def lobby_options(sets: list[str]) -> list[tuple[type[Expansion], LobbyOption]]:
    """The lobby options the expansions of these sets offer, each with its expansion, in set order."""
    return [(cls, option) for cls in expansion_classes(sets) for option in cls.lobby_options]


def every_lobby_option_name() -> set[str]:
    """The names of every expansion's lobby options (the keys a lobby's stored options may hold)."""
    return {option.name for cls in _every_expansion() for option in cls.lobby_options}


BASE_TITLE = N_("Base game")


def set_title(set_name: str) -> str:
    """A set's title for players, untranslated (``_()`` words it): the base game's, or what its
    expansion declares (``Expansion.titles``); an unknown set is its own name."""
    if set_name == "base":
        return BASE_TITLE
    cls = expansion_for(set_name)
    return cls.titles.get(set_name, set_name) if cls is not None else set_name


def state_types() -> dict[tuple[str, str], type]:
    """(module, name) -> class of every expansion's declared state classes (what a snapshot may
    hold besides plain data)."""
    return {(t.__module__, t.__qualname__): t for cls in _every_expansion() for t in cls.state_types}
