"""Every tile type of every set, and what each set brings.

A set's tiles are parsed the first time anything asks for one of them (a game of
the base set alone never parses The Wheel of Fortune's 60 tile types): the lookups
below behave as plain read-only dicts of every set and tile.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping

from engine.expansions.sets import BUILT_IN
from engine.tiledata import base
from engine.tiles import TileType, parse_tile


def _parse(rows: list[tuple]) -> list[TileType]:
    out = []
    for row in rows:
        tile_id, count, edges, features, *rest = row
        cells = rest[0] if rest else None
        icon = rest[1] if len(rest) > 1 else 0
        out.append(parse_tile(tile_id, count, edges, features, cells, icon))
    return out


def _expansion_rows(package: str, *names: str) -> Callable[[], list[tuple]]:
    """An expansion package's tile rows (``engine.expansions.<package>.tiles``), imported when the
    set's tiles are first wanted: a base game imports no expansion."""

    def rows() -> list[tuple]:
        module = importlib.import_module(f"engine.expansions.{package}.tiles")
        return [row for name in names for row in getattr(module, name)]

    return rows


# Each set's rows in the TILES.md notation, in catalog order: the base game's here, each
# expansion's in its own package.
_ROWS: dict[str, Callable[[], list[tuple]]] = {
    "base": lambda: base.TILES,
    **{name: _expansion_rows(package, *rows) for name, (package, _class, rows) in BUILT_IN.items()},
}
_IDS: dict[str, list[str]] = {}  # set -> its tile ids in catalog order, read on first use
_BY_ID: dict[str, TileType] = {}  # the tile types parsed so far
_PARSED: dict[str, list[TileType]] = {}


def set_ids(name: str) -> list[str]:
    """The tile ids of a set, in catalog order (without parsing its tiles)."""
    ids = _IDS.get(name)
    if ids is None:
        ids = _IDS[name] = [row[0] for row in _ROWS[name]()] if name in _ROWS else []
    return ids


def _parse_set(name: str) -> list[TileType]:
    tiles = _PARSED.get(name)
    if tiles is None:
        tiles = _parse(_ROWS[name]())
        _BY_ID.update((t.id, t) for t in tiles)
        _PARSED[name] = tiles
    return tiles


class _SetTiles(Mapping[str, list[TileType]]):
    """set name -> its tile types, in catalog order (parsed on first use)."""

    def __getitem__(self, name: str) -> list[TileType]:
        return _parse_set(name)

    def __iter__(self) -> Iterator[str]:
        return iter(_ROWS)

    def __len__(self) -> int:
        return len(_ROWS)

    def __contains__(self, name: object) -> bool:
        return name in _ROWS


class _TileTypes(Mapping[str, TileType]):
    """tile id -> tile type, every set's (parsed on first use of its set: a tile id names its set)."""

    def __getitem__(self, tile_id: str) -> TileType:
        tile = _BY_ID.get(tile_id)
        if tile is None:
            if tile_id not in self:
                raise KeyError(tile_id)
            _parse_set(tile_set(tile_id))
            tile = _BY_ID[tile_id]
        return tile

    def __iter__(self) -> Iterator[str]:
        return iter([tile_id for name in _ROWS for tile_id in set_ids(name)])

    def __len__(self) -> int:
        return sum(len(set_ids(name)) for name in _ROWS)

    def __contains__(self, tile_id: object) -> bool:
        return isinstance(tile_id, str) and tile_set(tile_id) in _ROWS and tile_id in set_ids(tile_set(tile_id))


SET_TILES: Mapping[str, list[TileType]] = _SetTiles()
TILE_TYPES: Mapping[str, TileType] = _TileTypes()
BASE_START = base.START


def add_set(name: str, rows: Callable[[], list[tuple]]) -> None:
    """Make a set's tiles known (an expansion outside the built-in ones brings its rows: see
    ``Expansion.tile_rows``); its tile ids must start with ``name`` and a dot, as every set's do."""
    ids = [row[0] for row in rows()]
    clash = [i for i in ids if not i.startswith(name + ".")]
    if clash or name in _ROWS:
        raise ValueError(f"set {name!r}: tile ids {clash[:3]} are not its own, or the set exists")
    _ROWS[name] = rows
    _IDS[name] = ids


def remove_set(name: str) -> None:
    """Forget a set added with ``add_set`` (tests remove their toy sets)."""
    for tile_id in set_ids(name):
        _BY_ID.pop(tile_id, None)
    _ROWS.pop(name, None)
    _IDS.pop(name, None)
    _PARSED.pop(name, None)


def tile_set(tile_id: str) -> str:
    """The set a tile id belongs to (its prefix)."""
    return tile_id.split(".", 1)[0]


def expand(tiles: list[TileType]) -> list[str]:
    """Tile ids with repeats, in catalog order (the order before a seeded shuffle)."""
    return [t.id for t in tiles for _ in range(t.count)]
