"""Words for players: tile names, where a feature lies, lists of names.

Every label and event text of the engine is built from these helpers, so that
no player ever reads an internal id (``base.G``, ``castles.eltz``) or a half-edge
name (``NNW``). Pure functions of tile data; no game state.
"""

from __future__ import annotations

import math

from engine.catalog import TILE_TYPES
from engine.language import N_, _, ngettext, pgettext
from engine.tiles import TileType

DIRECTION_WORDS = ("north", "east", "south", "west")  # record names; say them with ``direction``
_DIRECTIONS = {"north": N_("north"), "east": N_("east"), "south": N_("south"), "west": N_("west")}
ROLES = {"road": N_("thief"), "city": N_("knight"), "field": N_("farmer"), "cloister": N_("monk"), "castle": N_("lord")}
# Half-edge points on a unit cell centred on (0, 0), y growing south.
_HALF_POINTS = ((-0.5, -1), (0.5, -1), (1, -0.5), (1, 0.5), (0.5, 1), (-0.5, 1), (-1, 0.5), (-1, -0.5))
_COMPASS = (
    N_("east"), N_("south-east"), N_("south"), N_("south-west"),
    N_("west"), N_("north-west"), N_("north"), N_("north-east"),
)  # fmt: skip


def names(items: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy" (in the current language)."""
    if not items:
        return _("nobody")
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def cell(x: int, y: int) -> str:
    return f"({x}, {y})"


def direction(word: str) -> str:
    """A board direction ("north", "south-west"…) in the current language."""
    return _(_DIRECTIONS.get(word, word))


def _compass(vx: float, vy: float) -> str | None:
    if math.hypot(vx, vy) < 0.35:
        return None
    angle = math.degrees(math.atan2(vy, vx)) % 360  # 0 = east, 90 = south (y grows south)
    return _COMPASS[int(((angle + 22.5) % 360) // 45)]


_FEATURES = {"road": N_("the road"), "city": N_("the city"), "cloister": N_("the cloister"), "castle": N_("the castle")}
_FIELDS = {"": N_("the field"), "big": N_("the big field"), "small": N_("the small field")}
_FOLLOWER = N_("follower")


def feature_phrase(tile: TileType, rot: int, segment: int) -> str:
    """Where a segment of a placed tile lies, in board directions: "the road running
    west–east", "the city to the north", "the small field to the south-west". Two
    segments of one tile never read the same (a qualifier tells them apart)."""
    noun, where = _plain_parts(tile, rot, segment)
    twins = [i for i in range(len(tile.segments)) if i != segment and _plain_parts(tile, rot, i) == (noun, where)]
    if not twins:
        return _place(noun, where)
    seg = tile.segments[segment]
    if seg.kind == "field":
        by_city = bool(seg.cities)
        if any(bool(tile.segments[i].cities) != by_city for i in twins):
            noun = N_("the field next to the city") if by_city else N_("the field away from the city")
            return _place(noun, where)
        sizes = [len(tile.segments[i].halves) for i in twins]
        if all(n != len(seg.halves) for n in sizes):
            noun = N_("the larger field") if len(seg.halves) > max(sizes) else N_("the smaller field")
            return _place(noun, where)
    edges = sorted({DIRECTION_WORDS[(d + rot // 90) % 4] for _unused, d in seg.edges}) or sorted(
        {DIRECTION_WORDS[((h + 2 * (rot // 90)) % 8) // 2] for _unused, h in seg.halves}
    )
    return ngettext(
        "{feature} (along the {edges} edge, part {part})",
        "{feature} (along the {edges} edges, part {part})",
        len(edges),
    ).format(feature=_place(noun, where), edges=names([direction(e) for e in edges]), part=segment + 1)


def _place(noun: str, where: tuple[str, ...]) -> str:
    """A feature and where it lies: one direction or several, a run between two, or nowhere."""
    feature = _(noun)
    if not where:
        return feature
    if where[0] == "around":
        return _("{feature} around the tile").format(feature=feature)
    if where[0] == "running":
        return _("{feature} running {first}–{second}").format(
            feature=feature, first=direction(where[1]), second=direction(where[2])
        )
    return _("{feature} to the {directions}").format(feature=feature, directions=names([direction(w) for w in where]))


def _plain_parts(tile: TileType, rot: int, segment: int) -> tuple[str, tuple[str, ...]]:
    """(noun message, where) of a segment, before any qualifier."""
    seg = tile.segments[segment]
    q = rot // 90
    if seg.kind in ("cloister", "castle"):
        return _FEATURES[seg.kind], ()
    if seg.kind == "field" and not seg.halves:  # an inner field (TILES.md ``field{}``)
        return N_("the inner field"), ()
    if seg.kind == "field":
        halves = [(h + 2 * q) % 8 for _unused, h in seg.halves]
        vx = sum(_HALF_POINTS[h][0] for h in halves)
        vy = sum(_HALF_POINTS[h][1] for h in halves)
        size = "big" if len(halves) >= 6 else ("small" if len(halves) <= 2 else "")
        where = _compass(vx, vy)
        return _FIELDS[size], ((where,) if where else ("around",))
    noun = _FEATURES.get(seg.kind, seg.kind)
    dirs = sorted({(d + q) % 4 for _unused, d in seg.edges})
    words = tuple(DIRECTION_WORDS[d] for d in dirs)
    if seg.kind == "road" and len(dirs) == 2:
        return noun, ("running", *words)
    return noun, words


def role(kind: str) -> str:
    """The follower's role on a feature kind: thief, knight, farmer, monk, lord."""
    return _(ROLES.get(kind, _FOLLOWER))


def feature_word(kind: str) -> str:
    """ "the road", "the city"… in the current language."""
    return _(_FEATURES.get(kind, _FIELDS[""]))


# Each kind of tile as a noun, bare and with its indefinite article (French nouns have genders).
_NOUNS = {
    "city edge": (N_("city edge"), N_("a city edge")),
    "city across": (N_("city across"), N_("a city across")),
    "city corner": (N_("city corner"), N_("a city corner")),
    "three-sided city": (N_("three-sided city"), N_("a three-sided city")),
    "walled city": (N_("walled city"), N_("a walled city")),
    "two city edges": (N_("tile with two city edges"), N_("a tile with two city edges")),
    "cloister": (N_("cloister"), N_("a cloister")),
    "straight river": (N_("straight river"), N_("a straight river")),
    "river bend": (N_("river bend"), N_("a river bend")),
    "river spring": (N_("river spring"), N_("a river spring")),
    "river lake": (N_("river lake"), N_("a river lake")),
    "river end": (N_("river end"), N_("a river end")),
    "river fork": (N_("river fork"), N_("a river fork")),
    "road end": (N_("road end"), N_("a road end")),
    "straight road": (N_("straight road"), N_("a straight road")),
    "curved road": (N_("curved road"), N_("a curved road")),
    "village": (N_("village"), N_("a village")),
    "pair of road ends": (N_("pair of road ends"), N_("a pair of road ends")),
    "crossroads": (N_("crossroads"), N_("a crossroads")),
    "junction": (N_("junction"), N_("a junction")),
    "field": (N_("field"), N_("a field")),
    "pennant": (N_("pennant"), N_("a pennant")),
    "garden": (N_("garden"), N_("a garden")),
    "farmhouse": (N_("farmhouse"), N_("a farmhouse")),
    "stable": (N_("stable"), N_("a stable")),
    "highwayman": (N_("highwayman"), N_("a highwayman")),
    "travellers": (N_("travellers"), N_("a group of travellers")),
    "wheel": (N_("the Wheel of Fortune"), N_("the Wheel of Fortune")),
    "large tile": (N_("large tile"), N_("a large tile")),
    "unknown": (N_("unknown tile"), N_("an unknown tile")),
}


def tile_name(tile_id: str, article: bool = False) -> str:
    """A tile as players call it: "city corner with a curved road", "castle Eltz";
    with ``article``, as it reads in a sentence: "a city corner with a curved road"."""
    tile = TILE_TYPES.get(tile_id)
    if tile is None:
        unknown = _NOUNS["unknown"][article]
        return _(unknown)
    prefix, _sep, rest = tile_id.partition(".")
    if prefix == "castles":
        name = rest.replace("_", " ").title()
        if article:  # French: "le château Eltz"
            return pgettext("in a sentence", "castle {name}").format(name=name)
        return _("castle {name}").format(name=name)
    if tile.multi_cell:
        noun = _NOUNS["wheel"][article] if prefix == "wheel" else _NOUNS["large tile"][article]
        return _(noun)
    main, extras, jetties = _parts(tile)
    if main == "lake":
        text = ngettext("lake with {n} jetty", "lake with {n} jetties", jetties).format(n=jetties)
        if article:
            text = ngettext("a lake with {n} jetty", "a lake with {n} jetties", jetties).format(n=jetties)
    else:
        text = _(_NOUNS[main][article])
    if extras:
        listed = names([_extra(e, jetties) for e in extras])
        text = _("{tile} with {extras}").format(tile=text, extras=listed)
    from engine.expansions.registry import expansion_for  # (late: the registry reads the catalog)

    owner = expansion_for(tile.id.split(".", 1)[0])
    return owner.name_tile(tile, text) if owner is not None else text


def _extra(key: str, jetties: int) -> str:
    if key == "lake":
        return ngettext("a lake with {n} jetty", "a lake with {n} jetties", jetties).format(n=jetties)
    return _(_NOUNS[key][True])


def _parts(tile: TileType) -> tuple[str, list[str], int]:
    """(main noun key, extra noun keys, jetties) of a one-cell tile; keys of ``_NOUNS`` or "lake"."""
    terrain = tile.terrain[0]
    count = {t: sum(1 for e in terrain if e == t) for t in set(terrain)}
    kinds = [s.kind for s in tile.segments]
    main = ""
    extras: list[str] = []
    cities = [s for s in tile.segments if s.kind == "city"]
    if cities:
        edges = sum(len(s.edges) for s in cities)
        if len(cities) > 1:
            main = "two city edges"
        elif edges == 1:
            main = "city edge"
        elif edges == 2:
            dirs = sorted(d for _unused, d in cities[0].edges)
            main = "city across" if dirs[1] - dirs[0] == 2 else "city corner"
        else:
            main = "three-sided city" if edges == 3 else "walled city"
        if any(s.pennants for s in cities):
            extras.append("pennant")
    if "cloister" in kinds:
        if main:
            extras.append("cloister")
        else:
            main = "cloister"
    rivers = count.get(4, 0)
    if rivers:
        if rivers == 2:
            seg = next(s for s in tile.segments if s.kind == "river")
            dirs = sorted(d for _unused, d in seg.edges)
            river = "straight river" if len(dirs) == 2 and dirs[1] - dirs[0] == 2 else "river bend"
        elif rivers == 1:
            river = "river spring" if "spring" in tile.id else ("river lake" if "lake" in tile.id else "river end")
        else:
            river = "river fork"
        if main:
            extras.append(river)
        else:
            main = river
    roads = count.get(2, 0)
    road = ""
    if "lake" in tile.marks:  # a Ferries lake (its mark): the road stubs end at its jetties
        road = "lake"
    elif roads:
        road_segments = [s for s in tile.segments if s.kind == "road"]
        if roads == 1:
            road = "road end"
        elif roads == 2 and len(road_segments) == 1:
            dirs = sorted(d for _unused, d in road_segments[0].edges)
            road = "straight road" if dirs[1] - dirs[0] == 2 else "curved road"
        elif roads == 2:
            road = "village" if tile.village else "pair of road ends"
        else:
            road = "crossroads" if roads == 4 else "junction"
    if road:
        if main:
            extras.append(road)
        else:
            main = road
    main = main or "field"
    extras += sorted({d for s in tile.segments for d in s.decorations} | set(tile.loose_decorations))
    return main, extras, roads
