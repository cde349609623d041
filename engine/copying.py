"""Copying a game's plain state quickly (``Game.clone``: a look-ahead clones a game for every move it tries).

The expansions' state (``Expansion.state_types``) and the figures in hand are plain values: numbers,
strings, None, and lists, dicts, tuples, sets and dataclasses of them. ``copy_plain`` copies such a
value several times as fast as pickling it or ``copy.deepcopy``: it knows those types, shares what
is immutable (atoms, a tuple or frozen dataclass of atoms, frozensets), lets a class with a
``copy()`` method copy itself (the expansions' state classes do: quicker still) and hands anything
else to ``copy.deepcopy``. Unlike ``deepcopy`` it does not keep two references to one mutable
object as one: no state shares a list or a dataclass between two places.
"""


from __future__ import annotations

import copy
import dataclasses
from typing import Any

#: the immutable values that are shared, never copied
ATOMS = frozenset((int, str, float, bool, type(None)))


def copy_plain(value: Any) -> Any:
    """An independent copy of a plain value (see the module)."""
    kind = type(value)
    if kind in ATOMS:
        return value
    # (the types of a container's items are looked at in C first: most hold atoms only)
    if kind is list:
        if ATOMS.issuperset(map(type, value)):
            return value.copy()
        return [v if type(v) in ATOMS else copy_plain(v) for v in value]
    if kind is dict:  # (keys are immutable: cells, names, player indices)
        if ATOMS.issuperset(map(type, value.values())):
            return value.copy()
        return {k: v if type(v) in ATOMS else copy_plain(v) for k, v in value.items()}
    if kind is tuple:
        return value if ATOMS.issuperset(map(type, value)) else tuple(copy_plain(v) for v in value)
    if kind is frozenset:
        return value
    if kind is set:
        return {copy_plain(v) for v in value}
    own = getattr(kind, "copy", None)
    if own is not None:  # a state class that copies itself (quicker than the walk below)
        return own(value)
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None:
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        if params.frozen and all(type(v) in ATOMS for v in fields.values()):
            return value
        return dataclasses.replace(value, **{k: copy_plain(v) for k, v in fields.items() if type(v) not in ATOMS})
    return copy.deepcopy(value)
