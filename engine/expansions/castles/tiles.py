"""Castles in Germany: six double tiles (layouts reconstructed, see TILES.md).

Unit edges clockwise: a=u0.N, b=u1.N, c=u1.E, d=u1.S, e=u0.S, f=u0.W; u0 is the west
cell at rotation 0, u1 the east one. The castle building spans both cells.
"""

from engine.tiledata import perimeter_features

CELLS = [(0, 0), (1, 0)]
UNIT_EDGES = {"a": (0, "N"), "b": (1, "N"), "c": (1, "E"), "d": (1, "S"), "e": (0, "S"), "f": (0, "W")}

# id: (city edge, road edges)
LAYOUTS = {
    "castles.konigstein": ("f", "abd"),
    "castles.konradsheim": ("c", "aef"),
    "castles.rieneck": ("a", "cdf"),
    "castles.eltz": ("b", "def"),
    "castles.wartburg": ("e", "abc"),
    "castles.bentheim": ("d", "acf"),
}


def _tile(tile_id: str, city: str, roads: str) -> tuple:
    rim = []
    terrain = {0: ["X"] * 4, 1: ["X"] * 4}
    for name in "abcdef":
        ci, d = UNIT_EDGES[name]
        t = "C" if name == city else "R" if name in roads else "F"
        rim.append((ci, d, t))
        terrain[ci]["NESW".index(d)] = t
    edges = ["".join(terrain[0]), "".join(terrain[1])]
    return (tile_id, 1, edges, "castle; " + perimeter_features(rim), CELLS)


TILES = [_tile(tile_id, city, roads) for tile_id, (city, roads) in LAYOUTS.items()]
