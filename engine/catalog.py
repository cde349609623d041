"""Every tile type of every set, and what each set brings.

A set's tiles are parsed the first time anything asks for one of them (a game of
the base set alone never parses The Wheel of Fortune's 60 tile types): the lookups
below behave as plain read-only dicts of every set and tile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from engine.tiledata import base, castles, ferries, river, toll, wheel
from engine.tiles import TileType, parse_tile


def _parse(rows: list[tuple]) -> list[TileType]:
    out = []
    for row in rows:
        tile_id, count, edges, features, *rest = row
        cells = rest[0] if rest else None
        icon = rest[1] if len(rest) > 1 else 0
        out.append(parse_tile(tile_id, count, edges, features, cells, icon))
    return out


# Each set's rows in the TILES.md notation, in catalog order.
_ROWS: dict[str, Callable[[], list[tuple]]] = {
    "base": lambda: base.TILES,
    "river1": lambda: river.RIVER1,
    "river2": lambda: river.RIVER2,
    "ferries": lambda: ferries.TILES,
    "castles": lambda: castles.TILES,
    "wheel": lambda: [wheel.START_TILE] + wheel.PLAIN_TILES + wheel.ICON_TILES,
    "toll": lambda: toll.TILES,
}
# tile id -> its set, every set's ids in catalog order
_SET_OF: dict[str, str] = {row[0]: s for s, rows in _ROWS.items() for row in rows()}
_BY_ID: dict[str, TileType] = {}  # the tile types parsed so far
_PARSED: dict[str, list[TileType]] = {}


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
    """tile id -> tile type, every set's (parsed on first use of its set)."""

    def __getitem__(self, tile_id: str) -> TileType:
        tile = _BY_ID.get(tile_id)
        if tile is None:
            _parse_set(_SET_OF[tile_id])
            tile = _BY_ID[tile_id]
        return tile

    def __iter__(self) -> Iterator[str]:
        return iter(_SET_OF)

    def __len__(self) -> int:
        return len(_SET_OF)

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in _SET_OF


SET_TILES: Mapping[str, list[TileType]] = _SetTiles()
TILE_TYPES: Mapping[str, TileType] = _TileTypes()
BASE_START = base.START


def add_set(name: str, rows: Callable[[], list[tuple]]) -> None:
    """Make a set's tiles known (an expansion outside the built-in ones brings its rows: see
    ``Expansion.tile_rows``); its tile ids must start with ``name`` and a dot, as every set's do."""
    ids = [row[0] for row in rows()]
    clash = [i for i in ids if not i.startswith(name + ".") or _SET_OF.get(i, name) != name]
    if clash:
        raise ValueError(f"set {name!r}: tile ids {clash[:3]} are not its own")
    _ROWS[name] = rows
    _SET_OF.update((i, name) for i in ids)


def remove_set(name: str) -> None:
    """Forget a set added with ``add_set`` (tests remove their toy sets)."""
    for tile_id in [i for i, s in _SET_OF.items() if s == name]:
        del _SET_OF[tile_id]
        _BY_ID.pop(tile_id, None)
    _ROWS.pop(name, None)
    _PARSED.pop(name, None)


def set_ids(name: str) -> list[str]:
    """The tile ids of a set, in catalog order (without parsing its tiles)."""
    return [tile_id for tile_id, s in _SET_OF.items() if s == name]


def tile_set(tile_id: str) -> str:
    """The set a tile id belongs to (its prefix)."""
    return tile_id.split(".", 1)[0]


def expand(tiles: list[TileType]) -> list[str]:
    """Tile ids with repeats, in catalog order (the order before a seeded shuffle)."""
    return [t.id for t in tiles for _ in range(t.count)]
