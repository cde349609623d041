"""Each expansion's drawings: one module per expansion, ``renderer/expansions/<name>.py``, named
like its package ``engine/expansions/<name>``.

A module registers its figures' drawings with ``renderer.board.draws`` and its segment marks' art
with ``draws_mark`` (an inn beside its road, a cathedral, a good in its city); the core renderer
names no expansion: it asks ``load_all`` for what it has no drawing of yet.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

#: how a segment mark is drawn on a tile, by mark: fn(draw, tile, segment, s, at) where ``at`` turns a
#: point of the unrotated tile into the picture's (so the art stands upright)
MARK_ART: dict[str, Callable[..., None]] = {}
_loaded = False


def draws_mark(mark: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register the art of a segment mark (``@draws_mark("inn")``)."""

    def register(fn: Callable[..., None]) -> Callable[..., None]:
        MARK_ART[mark] = fn
        return fn

    return register


def load_all() -> None:
    """Import every expansion's drawing module once (each registers what it draws)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


def mark_art(mark: str) -> Any:
    """The drawing of a segment mark, or None if no expansion draws it."""
    if mark not in MARK_ART:
        load_all()
    return MARK_ART.get(mark)
