"""Holes and scarce cells: how many of the tiles left could fill an open cell.

A cell whose placed neighbours demand a mix of edges that none of the undrawn tiles (nor the tile in
hand) has is a **hole**: it can never be filled, so a road or city that ends on it can never be
completed (players make such holes to block a rival's city). A cell that only a copy or two of the
tiles left could fill is **scarce**: the feature that ends on it will probably stay open. The
computer players weigh an open road's or city's chance of completion by its scarcest open cell
(``engine.ai.evaluation``). Counted from which tiles are left, never their order, and by the tiles'
edges alone: a rule that forbids a placement the edges allow (the river's) is not consulted, and a
multi-cell tile counts for a cell one of its cells matches, the rest of it unchecked (so a cell is
called a hole only when nothing left can have its edges).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import TYPE_CHECKING

from engine.board import demanded
from engine.catalog import TILE_TYPES
from engine.tiles import CITY, DX, DY, KEY_SPACE, ROAD

if TYPE_CHECKING:
    from engine.game import Game

Cell = tuple[int, int]
#: packed demand -> (step x, step y, the neighbour's direction facing back) of each side on which it
#: demands a road or a city
_CLOSABLE_SIDES = tuple(
    tuple((DX[d], DY[d], (d + 2) % 4) for d in range(4) if (key >> (3 * d)) & 7 in (ROAD, CITY))
    for key in range(KEY_SPACE)
)


@functools.cache
def _fit_table(tile_id: str) -> bytes:
    """Packed demand (``engine.tiles.edge_key``) -> 1 when the tile's edges meet it: a single-cell tile
    at some rotation (its fit table), a multi-cell tile by any of its cells. A table, since every open
    cell of every position the computers judge looks itself up."""
    tile = TILE_TYPES[tile_id]
    if not tile.multi_cell:
        return bytes(1 if rots else 0 for rots in tile.fit_tables()[0])
    table = bytearray(KEY_SPACE)
    for rotated in tile.rotations:
        for terrain in rotated.packed_terrain:
            for key in range(1, KEY_SPACE):
                if terrain & demanded(key) == key:
                    table[key] = 1
    return bytes(table)


def _left_key(game: Game) -> tuple[tuple[str, ...], str | None]:
    return tuple(game.bag[game.bag_pos :]), game.drawn.id if game.drawn is not None and game.step == "tile" else None


class _Supply:
    """What the tiles left fit: ``copies(key)``, how many of them meet the packed demand ``key``,
    counted once per demand."""

    __slots__ = ("left", "_tables", "_counted", "_below")

    def __init__(self, undrawn: tuple[str, ...], in_hand: str | None) -> None:
        self.left = Counter(undrawn)
        if in_hand is not None:
            self.left[in_hand] += 1
        self._tables = [(copies, _fit_table(tile_id)) for tile_id, copies in self.left.items()]
        self._counted: dict[int, int] = {}
        self._below: dict[int, dict[int, int]] = {}

    def copies(self, key: int) -> int:
        found = self._counted.get(key)
        if found is None:
            found = self._counted[key] = sum(copies for copies, table in self._tables if table[key])
        return found

    def below(self, limit: int) -> dict[int, int]:
        """Packed demand -> its copies when it demands a road or a city and fewer than ``limit``
        fit it, else -1; filled by ``judge`` as ``scarce_roots`` meets each demand (it looks up
        every open cell of every position judged: one look-up a cell, most answered -1)."""
        found = self._below.get(limit)
        if found is None:
            found = self._below[limit] = {}
        return found

    def judge(self, key: int, limit: int) -> int:
        """``below(limit)``'s entry for ``key``, counted and kept."""
        copies = self.copies(key) if _CLOSABLE_SIDES[key] else limit
        found = self.below(limit)[key] = copies if copies < limit else -1
        return found


@functools.lru_cache(maxsize=64)
def _supply(undrawn: tuple[str, ...], in_hand: str | None) -> _Supply:
    # (by the undrawn tiles in their order: every position a look-ahead judges from one position of
    # one shuffled bag shares it, and the order is only a key here, never read)
    return _Supply(undrawn, in_hand)


def supply(game: Game) -> dict[Cell, int]:
    """Each open cell with how many of the tiles left fit it by their edges (0: a hole)."""
    copies = _supply(*_left_key(game)).copies
    return {cell: copies(key) for cell, key in game.board.frontier.items()}


def holes(game: Game) -> list[Cell]:
    """The open cells no tile left fits: none can ever be filled."""
    return [cell for cell, copies in supply(game).items() if not copies]


def scarce_roots(game: Game, limit: int) -> dict[int, int]:
    """The roads and cities that end on a cell fewer than ``limit`` of the tiles left fit: root ->
    how many fit its scarcest open cell (0: it ends on a hole and can never be completed)."""
    # (the board's cache of its layout, Board.layout_cache, which a placement or a ferry's change
    # replaces: kept by where the tiles left start in the bag, the tile in hand at the tile step
    # included, so that the figure step and the next player's tile step share it. A copy copies it, and
    # what a copy changes in the bag from there on (a determinization, a river tile put back) is only
    # the order of the tiles left.)
    first_left = game.bag_pos - 1 if game.drawn is not None and game.step == "tile" else game.bag_pos
    cache_key = ("scarce roots", limit, first_left)
    board = game.board
    found = board.layout_cache.get(cache_key)
    if found is not None:
        return found
    counts = _supply(*_left_key(game))
    below = counts.below(limit)
    cells, find, sides_of = board.cells, board.find, _CLOSABLE_SIDES
    found = {}
    for (x, y), key in board.frontier.items():
        copies = below.get(key)
        if copies is None:
            copies = counts.judge(key, limit)
        if copies < 0:
            continue
        for dx, dy, facing in sides_of[key]:
            _placement, first, info = cells[(x + dx, y + dy)]
            segment = info[4][facing]  # (the neighbour's road or city edge facing this cell)
            if segment >= 0:
                root = find(first + segment)
                if copies < found.get(root, limit):
                    found[root] = copies
    board.layout_cache[cache_key] = found
    return found
