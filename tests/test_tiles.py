from collections import Counter

import pytest

from engine.catalog import SET_TILES, TILE_TYPES
from engine.tiles import CITY, FIELD, NONE, RIVER, ROAD


def total(set_name: str) -> int:
    return sum(t.count for t in SET_TILES[set_name])


def test_set_sizes_match_the_catalog():
    assert total("base") == 72
    assert total("river1") == 12
    assert total("river2") == 12
    assert total("ferries") == 8
    assert total("castles") == 6
    assert total("toll") == 10
    wheel = SET_TILES["wheel"]
    assert [t.id for t in wheel if len(t.cells) == 16] == ["wheel.start"]
    assert sum(t.count for t in wheel if t.id != "wheel.start") == 72
    assert sum(t.count for t in wheel if t.number) == 19
    icons = Counter(t.number for t in wheel if t.number for _ in range(t.count))
    assert icons == {1: 7, 2: 7, 3: 5}


def test_base_has_ten_pennants_and_the_printed_distribution():
    base = SET_TILES["base"]
    assert sum(s.pennants * t.count for t in base for s in t.segments) == 10
    letters = Counter()
    for t in base:
        letters[t.id.split(".")[1][0]] += t.count
    assert letters == {
        "A": 2, "B": 4, "C": 1, "D": 4, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3, "K": 3,
        "L": 3, "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1, "U": 8, "V": 9,
        "W": 4, "X": 1,
    }  # fmt: skip


@pytest.mark.parametrize("tile", list(TILE_TYPES.values()), ids=lambda t: t.id)
def test_segments_cover_every_edge_exactly_once(tile):
    for ci, terrain in enumerate(tile.terrain):
        for d, t in enumerate(terrain):
            kinds = {ROAD: "road", CITY: "city", RIVER: "river"}
            owners = [s for s in tile.segments if (ci, d) in s.edges]
            if t in kinds:
                assert len(owners) == 1 and owners[0].kind == kinds[t], (tile.id, ci, d)
            else:
                assert owners == [], (tile.id, ci, d)
            for h in (2 * d, 2 * d + 1):
                fields = [s for s in tile.segments if (ci, h) in s.halves]
                if t in (FIELD, ROAD, RIVER):
                    assert len(fields) == 1, (tile.id, ci, h)
                else:  # a city edge or an inner edge has no field half-edges
                    assert fields == [] and t in (CITY, NONE), (tile.id, ci, h)


@pytest.mark.parametrize("tile", list(TILE_TYPES.values()), ids=lambda t: t.id)
def test_rotations_turn_the_edges_clockwise(tile):
    for rt in tile.rotations:
        q = rt.rot // 90
        for ci, terrain in enumerate(tile.terrain):
            assert rt.terrain[ci] == tuple(terrain[(d - q) % 4] for d in range(4))
    assert tile.distinct_rots[0] == 0


def test_symmetric_tiles_offer_only_distinct_rotations():
    assert TILE_TYPES["base.C"].distinct_rots == (0,)
    assert TILE_TYPES["base.B"].distinct_rots == (0,)
    assert TILE_TYPES["base.U"].distinct_rots == (0, 90)
    assert TILE_TYPES["base.X"].distinct_rots == (0,)
    assert TILE_TYPES["base.V"].distinct_rots == (0, 90, 180, 270)
    # A decoration beside one road breaks the symmetry of the crossroads.
    assert TILE_TYPES["toll.crossroads"].distinct_rots == (0, 90, 180, 270)


def test_castle_tiles_cover_two_cells_with_a_lord_space():
    for t in SET_TILES["castles"]:
        assert t.cells == [(0, 0), (1, 0)]
        kinds = Counter(s.kind for s in t.segments)
        assert kinds["castle"] == 1 and kinds["city"] == 1 and kinds["road"] == 3 and kinds["field"] == 3
        castle = next(s for s in t.segments if s.kind == "castle")
        assert castle.cells == (0, 1)
    # Rotated by 90 degrees the second cell lies south of the first (RECORD.md).
    assert TILE_TYPES["castles.eltz"].rotations[1].offsets == [(0, 0), (0, 1)]


def test_wheel_start_has_land_only_on_its_rim():
    t = TILE_TYPES["wheel.start"]
    rim = sum(1 for terrain in t.terrain for e in terrain if e != NONE)
    assert rim == 16
    kinds = Counter(s.kind for s in t.segments)
    assert kinds == {"road": 4, "city": 4, "field": 4}
    assert all(len(s.cities) == 1 for s in t.segments if s.kind == "field")


def test_villages_are_where_the_catalog_says():
    with_village = {t.id for t in TILE_TYPES.values() if t.village}
    expected = {
        "toll.crossroads", "toll.junction", "toll.city_junction", "toll.village_straight", "toll.village_curve",
        "inns.cities_roads", "inns.inn_junction",
    }  # fmt: skip
    expected |= {t for t in TILE_TYPES if t.split(".")[0] in ("base", "wheel") and t.split(".")[1][0] in "LWX"}
    assert with_village == expected


def test_each_mark_of_the_notation_is_read_by_the_expansion_of_its_set():
    """A bare word of a tile's notation is a mark that one expansion reads (the Ferries' "lake"):
    a typo would be a mark nobody reads."""
    from engine.catalog import tile_set
    from engine.expansions.registry import expansion_for

    marked = {t.id: t.marks for t in TILE_TYPES.values() if t.marks}
    assert marked and all(marks == frozenset({"lake"}) for marks in marked.values())
    for tile_id, marks in marked.items():
        owner = expansion_for(tile_set(tile_id))
        assert owner is not None and marks <= set(owner.tile_marks), tile_id



def test_each_segment_mark_is_read_by_an_expansion():
    """A word after a segment's edges (``road{S} inn``) is a mark one expansion declares it reads
    (``Expansion.segment_marks``), whatever the tile's set (River II's inn is read by Inns & Cathedrals)."""
    from engine.expansions.registry import _every_expansion

    readers = {mark for cls in _every_expansion() for mark in cls.segment_marks}
    marks = {m for t in TILE_TYPES.values() for s in t.segments for m in s.marks}
    assert {"inn", "cathedral", "pigsty"} <= marks
    assert marks <= readers, marks - readers
