"""Every tile type of every set, parsed once at import, and what each set brings."""

from __future__ import annotations

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


BASE = _parse(base.TILES)
RIVER1 = _parse(river.RIVER1)
RIVER2 = _parse(river.RIVER2)
FERRIES = _parse(ferries.TILES)
CASTLES = _parse(castles.TILES)
WHEEL_START = _parse([wheel.START_TILE])[0]
WHEEL_PLAIN = _parse(wheel.PLAIN_TILES)
WHEEL_ICONS = _parse(wheel.ICON_TILES)
TOLL = _parse(toll.TILES)

SET_TILES: dict[str, list[TileType]] = {
    "base": BASE,
    "river1": RIVER1,
    "river2": RIVER2,
    "ferries": FERRIES,
    "castles": CASTLES,
    "wheel": [WHEEL_START] + WHEEL_PLAIN + WHEEL_ICONS,
    "toll": TOLL,
}

TILE_TYPES: dict[str, TileType] = {t.id: t for tiles in SET_TILES.values() for t in tiles}
BASE_START = base.START


def tile_set(tile_id: str) -> str:
    """The set a tile id belongs to (its prefix)."""
    return tile_id.split(".", 1)[0]


def expand(tiles: list[TileType]) -> list[str]:
    """Tile ids with repeats, in catalog order (the order before a seeded shuffle)."""
    return [t.id for t in tiles for _ in range(t.count)]
