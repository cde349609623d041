"""Words for players: tile names, where a feature lies, lists of names.

Every label and event text of the engine is built from these helpers, so that
no player ever reads an internal id (``base.G``, ``castles.eltz``) or a half-edge
name (``NNW``). Pure functions of tile data; no game state.
"""

from __future__ import annotations

import math

from engine.catalog import TILE_TYPES
from engine.tiles import TileType

DIRECTION_WORDS = ("north", "east", "south", "west")
ROLES = {"road": "thief", "city": "knight", "field": "farmer", "cloister": "monk", "castle": "lord"}
FEATURE_WORDS = {"road": "road", "city": "city", "field": "field", "cloister": "cloister", "castle": "castle"}
# Where each half-edge lies on a unit cell centred on (0, 0), y growing south.
_HALF_POINTS = ((-0.5, -1), (0.5, -1), (1, -0.5), (1, 0.5), (0.5, 1), (-0.5, 1), (-1, 0.5), (-1, -0.5))
_COMPASS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def names(items: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def cell(x: int, y: int) -> str:
    return f"({x}, {y})"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _compass(vx: float, vy: float) -> str | None:
    if math.hypot(vx, vy) < 0.35:
        return None
    angle = math.degrees(math.atan2(vy, vx)) % 360  # 0 = east, 90 = south (y grows south)
    return _COMPASS[int(((angle + 22.5) % 360) // 45)]


def feature_phrase(tile: TileType, rot: int, segment: int) -> str:
    """Where a segment of a placed tile lies, in board directions: "the road running
    west–east", "the city to the north", "the small field to the south-west". Two
    segments of one tile never read the same (a qualifier tells them apart)."""
    phrase = _plain_phrase(tile, rot, segment)
    twins = [i for i in range(len(tile.segments)) if i != segment and _plain_phrase(tile, rot, i) == phrase]
    if not twins:
        return phrase
    seg = tile.segments[segment]
    if seg.kind == "field":
        by_city = bool(seg.cities)
        if any(bool(tile.segments[i].cities) != by_city for i in twins):
            return phrase.replace("field", "field next to the city" if by_city else "field away from the city", 1)
        sizes = [len(tile.segments[i].halves) for i in twins]
        if all(n != len(seg.halves) for n in sizes):
            word = "larger" if len(seg.halves) > max(sizes) else "smaller"
            return phrase.replace("the ", f"the {word} ", 1).replace("big ", "").replace("small ", "")
    edges = sorted({DIRECTION_WORDS[(d + rot // 90) % 4] for _, d in seg.edges}) or sorted(
        {DIRECTION_WORDS[((h + 2 * (rot // 90)) % 8) // 2] for _, h in seg.halves}
    )
    return f"{phrase} (along the {names(edges)} edge{'s' if len(edges) > 1 else ''}, part {segment + 1})"


def _plain_phrase(tile: TileType, rot: int, segment: int) -> str:
    seg = tile.segments[segment]
    q = rot // 90
    kind = FEATURE_WORDS.get(seg.kind, seg.kind)
    if seg.kind in ("cloister", "castle"):
        return f"the {kind}"
    if seg.kind == "field":
        halves = [(h + 2 * q) % 8 for _, h in seg.halves]
        vx = sum(_HALF_POINTS[h][0] for h in halves)
        vy = sum(_HALF_POINTS[h][1] for h in halves)
        size = "big " if len(halves) >= 6 else ("small " if len(halves) <= 2 else "")
        where = _compass(vx, vy)
        return f"the {size}{kind} to the {where}" if where else f"the {size}{kind} around the tile"
    dirs = sorted({(d + q) % 4 for _, d in seg.edges})
    words = [DIRECTION_WORDS[d] for d in dirs]
    if seg.kind == "road" and len(dirs) == 2:
        return f"the road running {words[0]}–{words[1]}"
    if not words:
        return f"the {kind}"
    return f"the {kind} to the {names(words)}"


def role(kind: str) -> str:
    """The follower's role on a feature kind: thief, knight, farmer, monk, lord."""
    return ROLES.get(kind, "follower")


def tile_name(tile_id: str) -> str:
    """A tile as players call it: "city corner with a curved road", "castle Eltz"."""
    tile = TILE_TYPES.get(tile_id)
    if tile is None:
        return "an unknown tile"
    prefix, _, rest = tile_id.partition(".")
    if prefix == "castles":
        return "castle " + rest.replace("_", " ").title()
    if tile.multi_cell:
        return "the Wheel of Fortune" if prefix == "wheel" else "a large tile"
    return _describe_single(tile)


def _describe_single(tile: TileType) -> str:
    terrain = tile.terrain[0]
    count = {t: sum(1 for e in terrain if e == t) for t in set(terrain)}
    kinds = [s.kind for s in tile.segments]
    main = ""
    extras: list[str] = []  # each with its article: "a curved road"
    cities = [s for s in tile.segments if s.kind == "city"]
    if cities:
        edges = sum(len(s.edges) for s in cities)
        if len(cities) > 1:
            main = f"tile with {'two' if len(cities) == 2 else len(cities)} city edges"
        elif edges == 1:
            main = "city edge"
        elif edges == 2:
            dirs = sorted(d for _, d in cities[0].edges)
            main = "city across" if dirs[1] - dirs[0] == 2 else "city corner"
        else:
            main = "three-sided city" if edges == 3 else "walled city"
        if any(s.pennants for s in cities):
            extras.append("a pennant")
    if "cloister" in kinds:
        if main:
            extras.append("a cloister")
        else:
            main = "cloister"
    rivers = count.get(4, 0)
    if rivers:
        if rivers == 2:
            seg = next(s for s in tile.segments if s.kind == "river")
            dirs = sorted(d for _, d in seg.edges)
            river = "straight river" if len(dirs) == 2 and dirs[1] - dirs[0] == 2 else "river bend"
        elif rivers == 1:
            river = "river spring" if "spring" in tile.id else ("river lake" if "lake" in tile.id else "river end")
        else:
            river = "river fork"
        if main:
            extras.append(f"a {river}")
        else:
            main = river
    roads = count.get(2, 0)
    road = ""
    if tile.lake:
        road = f"lake with {roads} jetties"
    elif roads:
        road_segments = [s for s in tile.segments if s.kind == "road"]
        if roads == 1:
            road = "road end"
        elif roads == 2 and len(road_segments) == 1:
            dirs = sorted(d for _, d in road_segments[0].edges)
            road = "straight road" if dirs[1] - dirs[0] == 2 else "curved road"
        elif roads == 2:
            road = "village" if tile.village else "pair of road ends"
        else:
            road = "crossroads" if roads == 4 else "junction"
    if road:
        if main:
            extras.append(f"a {road}")
        else:
            main = road
    main = main or "field"
    decorations = sorted({d for s in tile.segments for d in s.decorations} | set(tile.loose_decorations))
    extras += [d if d == "travellers" else f"a {d}" for d in decorations]
    text = main + (f" with {names(extras)}" if extras else "")
    if tile.wheel_icon:
        text += f" (wheel icon {tile.wheel_icon})"
    return text
