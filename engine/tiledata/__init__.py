"""The base game's tiles (``base.py``) and the notation's helpers (docs/TILES.md); each
expansion's tiles live in its package (``engine/expansions/<name>/tiles.py``).

Each tile module lists ``(id, count, edges, features)`` rows in the TILES.md notation;
``engine.tiles.parse_tile`` turns them into tile types. Keep topology here, never in
rule code, so that a reconstructed layout can be corrected in one place.
"""


def perimeter_features(rim: list[tuple[int, str, str]]) -> str:
    """Features of a multi-cell tile whose land lies only on its rim.

    ``rim`` lists the tile's outer unit edges clockwise as (cell index, direction,
    terrain). Each road edge is a stub ending inside the tile, each city edge a
    one-edge cap, and the field arcs run between consecutive road stubs (a city
    cap does not cut a field; the arc that passes a cap touches that city).
    """
    halves = {"N": ("NNW", "NNE"), "E": ("ENE", "ESE"), "S": ("SSE", "SSW"), "W": ("WSW", "WNW")}
    parts = []
    for ci, d, t in rim:
        if t == "R":
            parts.append(f"road{{{ci}{d}}}")
        elif t == "C":
            parts.append(f"city{{{ci}{d}}}")
    roads = [i for i, (_, _, t) in enumerate(rim) if t == "R"]
    n = len(rim)
    for k, start in enumerate(roads):
        end = roads[(k + 1) % len(roads)]
        ci, d, _ = rim[start]
        ports = [f"{ci}{halves[d][1]}"]
        cities = []
        i = (start + 1) % n
        while i != end:
            ci, d, t = rim[i]
            if t == "F":
                ports += [f"{ci}{halves[d][0]}", f"{ci}{halves[d][1]}"]
            elif t == "C":
                cities.append(f"{ci}{d}")
            i = (i + 1) % n
        ci, d, _ = rim[end]
        ports.append(f"{ci}{halves[d][0]}")
        touch = "->" + ",".join(cities) if cities else ""
        parts.append("field{" + ",".join(ports) + "}" + touch)
    return "; ".join(parts)
