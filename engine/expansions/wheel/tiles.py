"""The Wheel of Fortune: the 4x4 start tile and its 72 land tiles (reconstructed)."""

from engine.tiledata import perimeter_features
from engine.tiledata.base import TILES as BASE_TILES

START = "wheel.start"
SECTORS = ("fortune", "taxes", "famine", "storm", "inquisition", "plague")
CROWN_SPACES = {"fortune": 0, "taxes": 2, "famine": 2, "storm": 2, "inquisition": 2, "plague": 1}

# Base tile (letter and variant) -> pig steps of its icon copies.
ICONS = {
    "B": [1],
    "E": [1],
    "U": [1],
    "J": [1],
    "N": [1],
    "W": [1],
    "A": [2],
    "D": [2],
    "H": [2],
    "P": [2],
    "R": [2],
    "U.farmhouse": [2],
    "V.stable": [2],
    "F": [3],
    "K": [3],
    "L": [3],
    "O": [3],
    "V": [1, 3],
}


def _start_tile() -> tuple:
    cells = [(x, y) for y in range(4) for x in range(4)]
    terrain = {i: ["X"] * 4 for i in range(16)}
    pattern = "FRCF"
    rim = []
    sides = [
        ("N", [(x, 0) for x in range(4)]),
        ("E", [(3, y) for y in range(4)]),
        ("S", [(x, 3) for x in range(3, -1, -1)]),
        ("W", [(0, y) for y in range(3, -1, -1)]),
    ]
    for d, side_cells in sides:
        for (x, y), t in zip(side_cells, pattern, strict=False):
            ci = y * 4 + x
            terrain[ci]["NESW".index(d)] = t
            rim.append((ci, d, t))
    edges = ["".join(terrain[i]) for i in range(16)]
    return (START, 1, edges, perimeter_features(rim), cells)


def _land_tiles() -> tuple[list[tuple], list[tuple]]:
    """(plain tiles, icon tiles) of the standalone game."""
    plain, icons = [], []
    for tile_id, count, edges, features in BASE_TILES:
        variant = tile_id.removeprefix("base.")
        steps = ICONS.get(variant, [])
        for n in steps:
            icons.append((f"wheel.{variant}.{n}", 1, edges, features, None, n))
        if count > len(steps):
            plain.append((f"wheel.{variant}", count - len(steps), edges, features))
    return plain, icons


START_TILE = _start_tile()
PLAIN_TILES, ICON_TILES = _land_tiles()
START_TILES = [START_TILE]  # as the catalog lists the set: the start tile first
