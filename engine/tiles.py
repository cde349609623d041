"""Tile types as data: parsing the TILES.md notation and precomputing rotations.

A tile type covers one or more cells. Each cell has four unit edges (N E S W) whose
terrain is one of field/road/city/river (or none, for the inner edges of a
multi-cell tile), and eight half-edges (NNW NNE ENE ESE SSE SSW WSW WNW) that
fields attach to. Segments are the pieces of features printed on the tile; they
name the edges ("ports") through which they continue onto neighbouring tiles.

Everything the board needs at placement time is precomputed here, per rotation,
so that placing a tile is a handful of list look-ups.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from engine.language import N_

# Directions: index = clockwise quarter turns from north. y grows south.
DIRS = "NESW"
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
HALVES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
HALF_INDEX = {h: i for i, h in enumerate(HALVES)}

# Terrain codes (small ints so that edge constraints are cheap tuples).
NONE, FIELD, ROAD, CITY, RIVER = 0, 1, 2, 3, 4
TERRAIN_CODE = {"X": NONE, "F": FIELD, "R": ROAD, "C": CITY, "I": RIVER}
TERRAIN_NAME = {NONE: N_("nothing"), FIELD: N_("a field"), ROAD: N_("a road"), CITY: N_("a city"), RIVER: N_("a river")}

DECORATIONS = ("farmhouse", "stable", "garden", "highwayman", "travellers")


#: the kinds of feature the notation knows (a segment's kind)
FEATURE_KINDS = ("road", "city", "field", "cloister", "castle")


def opposite_half(h: int) -> int:
    """The half-edge of the neighbouring cell that touches half-edge ``h``."""
    return ((h ^ 1) + 4) % 8


def rotate_offset(dx: int, dy: int, rot: int) -> tuple[int, int]:
    """Rotate a cell offset clockwise by ``rot`` degrees (y grows south)."""
    for _ in range(rot // 90):
        dx, dy = -dy, dx
    return dx, dy


class Segment(NamedTuple):
    """One feature piece of a tile type, in the tile's own orientation."""

    kind: str
    edges: tuple[tuple[int, int], ...]  # (cell index, direction)
    halves: tuple[tuple[int, int], ...]  # (cell index, half-edge), fields only
    cells: tuple[int, ...]  # cell indices the segment spans
    pennants: int = 0
    cities: tuple[int, ...] = ()  # fields: indices of the city segments touched
    decorations: tuple[str, ...] = ()  # roads: decorations beside this segment
    #: words of the notation after its edges other than "pennant" (``road{S} inn``, ``city{N,W} wine``,
    #: a field's ``pigsty``): each is read by the expansion that declares it (``Expansion.segment_marks``)
    marks: tuple[str, ...] = ()


def edge_key(demands: Sequence[int]) -> int:
    """Pack per-direction terrain demands (N, E, S, W) into one int (3 bits each)."""
    return demands[0] | demands[1] << 3 | demands[2] << 6 | demands[3] << 9


def key_demand(key: int, d: int) -> int:
    """The terrain a packed key demands on direction ``d``."""
    return (key >> (3 * d)) & 7


# The placement loop's packed tuples. They are plain tuples, not NamedTuples: CPython 3.11
# specializes indexing and unpacking of exact tuples only, and a NamedTuple there made every
# placement about 10% slower (measured: instructions per random base game). Their fields:
#
# EdgeLink, one land edge of a placed cell:
#   0 d: direction of the edge
#   1 step_x, 2 step_y: to the neighbouring cell
#   3 opposite: the neighbour's direction facing back
#   4 demand: this edge's terrain, shifted to where the neighbour's packed demand keeps it
#   5 terrain
#   6 edge_seg: segment on this edge (roads, cities, rivers)
#   7 half0, 8 half1: field segments on the edge's two halves
#   9 opposite_half0, 10 opposite_half1: the neighbour's half-edges touching them
EdgeLink = tuple[int, int, int, int, int, int, int, int, int, int, int]
# CellInfo, what the board needs of one cell of a rotated tile when it is placed:
#   0 dx, 1 dy: offset from the tile's cell u0
#   2 cell: cell index in the tile
#   3 terrain: per direction
#   4 edge_seg: per direction, segment index or -1
#   5 half_seg: per half-edge, segment index or -1
#   6 links: its EdgeLinks
CellInfo = tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[EdgeLink, ...]]
CELL_DX, CELL_DY, CELL_INDEX = 0, 1, 2


class RotatedTile:
    """A tile type at one rotation, in board orientation relative to its cell u0."""

    # (A plain class rather than a dataclass: importing dataclasses and generating
    # their methods is a good part of a cold ``python -m engine.replay``.)
    def __init__(
        self,
        rot: int,
        offsets: list[tuple[int, int]],
        terrain: list[tuple[int, ...]],
        edge_seg: list[tuple[int, ...]],
        half_seg: list[tuple[int, ...]],
        targets: dict[tuple[int, str], int],
        canonical: list[tuple[int, str]],
    ) -> None:
        self.rot = rot
        self.offsets = offsets
        self.terrain = terrain  # per cell, per direction (N, E, S, W)
        self.packed_terrain = [edge_key(t) for t in terrain]  # per cell, as a frontier key packs demands
        self.edge_seg = edge_seg  # per cell, per direction: segment index or -1
        self.half_seg = half_seg  # per cell, per half-edge: segment index or -1
        self.targets = targets  # (cell index, "road:E") -> segment index
        self.canonical = canonical  # per segment: (cell index, preferred target name)
        # Per cell, what the board needs at placement (one link per edge that carries land).
        self.cell_info: list[CellInfo] = []

    def __repr__(self) -> str:
        return f"RotatedTile(rot={self.rot}, offsets={self.offsets})"


class TileType:
    """One tile type: compared and hashed by identity (one object per type)."""

    def __init__(
        self,
        id: str,
        count: int,
        cells: list[tuple[int, int]],
        terrain: list[tuple[int, ...]],
        segments: list[Segment],
        village: bool = False,
        marks: frozenset[str] = frozenset(),
        number: int = 0,
        loose_decorations: tuple[str, ...] = (),
    ) -> None:
        self.id = id
        self.count = count
        self.cells = cells
        self.terrain = terrain
        self.segments = segments
        self.village = village  # the base game's crossroads village: the roads end there
        # Words of the notation the core does not read: each is an expansion's (``Expansion.tile_marks``),
        # e.g. "lake" for the Ferries (its road stubs end at jetties).
        self.marks = marks
        self.number = number  # a number printed on the tile, for the expansion that reads it (the wheel's icons)
        self.loose_decorations = loose_decorations  # decorations beside no road
        self.rotations: list[RotatedTile] = []
        self.distinct_rots: tuple[int, ...] = (0, 90, 180, 270)
        # Packed edge demand -> fitting rotations (all of them / one per distinct look),
        # for every possible demand; filled on first use (see ``fit_tables``).
        self._fit_tables: tuple[FitTable, FitTable] | None = None
        # Per-segment columns, copied onto the board's node arrays in one go.
        self.seg_kinds: list[str] = []
        self.seg_open: list[int] = []
        self.seg_pennants: list[int] = []
        self.closable: tuple[int, ...] = ()  # roads and cities: can be completed
        self.field_cities: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (field segment, the city segments it touches)
        # (segment, its marks counted) of each segment with marks (Board.marks starts from these)
        self.seg_marks: tuple[tuple[int, dict[str, int]], ...] = ()
        self.multi_cell = len(cells) > 1
        self.n_segments = len(segments)

    def __repr__(self) -> str:
        return f"TileType({self.id!r})"

    def fit_tables(self) -> tuple[FitTable, FitTable]:
        """(all, distinct): packed demand -> rotations of this single-cell tile that match.

        Built once for every demand a cell can have (4 directions x 5 terrains),
        so that looking up a frontier cell is one list index.
        """
        if self._fit_tables is None:
            self._fit_tables = _fit_tables(self.terrain[0], self.distinct_rots)
        return self._fit_tables


#: one more than the largest packed demand a cell can have (4 directions x 5 terrains, 0: no neighbour)
KEY_SPACE = 1 + (RIVER | RIVER << 3 | RIVER << 6 | RIVER << 9)
#: a fit table: packed demand -> rotations (a tuple indexed by the demand: looking up every
#: frontier cell is the inner loop of listing placements, and indexing is cheaper than a dict
#: lookup)
FitTable = tuple[tuple[int, ...], ...]


@functools.cache
def _fit_tables(edges: tuple[int, int, int, int], distinct_rots: tuple[int, ...]) -> tuple[FitTable, FitTable]:
    # Shared by every tile type with the same edges (all the U variants, say).
    # A rotation fits a demand when every demanded direction has its terrain: the
    # demands it fits are the 16 subsets of its own edges, so only those are listed
    # (every other demand fits no rotation).
    fitting: dict[int, tuple[int, ...]] = {}
    for q in range(4):
        keys = [0]
        for d in range(4):
            keys += [k | edges[(d - q) % 4] << (3 * d) for k in keys]
        for key in keys:
            rots = fitting.get(key, ())
            if 90 * q not in rots:
                fitting[key] = rots + (90 * q,)
    every: list[tuple[int, ...]] = [()] * KEY_SPACE
    distinct: list[tuple[int, ...]] = [()] * KEY_SPACE
    for key, rots in fitting.items():
        every[key] = rots
        distinct[key] = tuple(r for r in rots if r in distinct_rots)
    # Tuples: immutable, shared, and of plain data the garbage collector stops looking at.
    return tuple(every), tuple(distinct)


_PORT = re.compile(r"^(\d*)([A-Z]+)$")
_MARK = re.compile(r"^[a-z_]+$")
_FEATURE = re.compile(r"^(road|city|field|river)\{([^}]*)\}(.*)$")


def _parse_port(token: str) -> tuple[int, str]:
    m = _PORT.match(token.strip())
    if not m:
        raise ValueError(f"bad port {token!r}")
    return int(m.group(1) or 0), m.group(2)


def count_marks(marks: tuple[str, ...]) -> dict[str, int]:
    """Each mark with how many times it is in ``marks``."""
    out: dict[str, int] = {}
    for mark in marks:
        out[mark] = out.get(mark, 0) + 1
    return out


def _segment_marks(tile_id: str, words: list[str]) -> tuple[str, ...]:
    """The marks after a segment's edges: lower-case words, each at most once."""
    for word in words:
        if not _MARK.match(word) or words.count(word) > 1:
            raise ValueError(f"{tile_id}: bad or repeated segment mark {word!r}")
    return tuple(words)


def parse_tile(
    tile_id: str,
    count: int,
    edges: str | list[str],
    features: str,
    cells: list[tuple[int, int]] | None = None,
    number: int = 0,
) -> TileType:
    """Build a tile type from the TILES.md notation.

    ``features`` is a ';'-separated list such as
    ``city{N} pennant; road{W,E}; field{WNW,ENE}->N; deco farmhouse road{W,E}``.
    Multi-cell tiles prefix ports with their cell index (``1NNE``).
    """
    cells = cells or [(0, 0)]
    edge_rows = [edges] if isinstance(edges, str) else edges
    if len(edge_rows) != len(cells):
        raise ValueError(f"{tile_id}: {len(edge_rows)} edge rows for {len(cells)} cells")
    terrain = [tuple(TERRAIN_CODE[c] for c in row) for row in edge_rows]
    segments: list[Segment] = []
    pending_cities: list[tuple[int, list[tuple[int, int]]]] = []  # field index, city ports
    village = False
    marks: set[str] = set()
    loose: list[str] = []
    decorations: list[tuple[str, frozenset[tuple[int, int]]]] = []
    for raw in features.split(";"):
        part = raw.strip()
        if not part:
            continue
        if part in ("cloister", "castle"):
            seg_cells = (0,) if part == "cloister" else tuple(range(len(cells)))
            segments.append(Segment(part, (), (), seg_cells))
            continue
        if part == "village":
            village = True
            continue
        if _MARK.match(part):  # a bare word: an expansion's mark ("lake")
            marks.add(part)
            continue
        if part.startswith("deco "):
            _, name, where = part.split(None, 2)
            if name not in DECORATIONS:
                raise ValueError(f"{tile_id}: unknown decoration {name}")
            if where == "-":
                loose.append(name)
            else:
                m = _FEATURE.match(where)
                if not m or m.group(1) != "road":
                    raise ValueError(f"{tile_id}: decoration must stand beside road{{..}} or -")
                beside = frozenset((ci, DIRS.index(d)) for ci, d in map(_parse_port, m.group(2).split(",")))
                decorations.append((name, beside))
            continue
        m = _FEATURE.match(part)
        if not m:
            raise ValueError(f"{tile_id}: cannot read feature {part!r}")
        kind, ports_text, rest = m.group(1), m.group(2), m.group(3).strip()
        everything = ports_text.strip() == "*"
        if not ports_text.strip() and kind != "field":
            raise ValueError(f"{tile_id}: only a field may touch no edge: {part!r}")
        ports = [] if everything or not ports_text.strip() else [_parse_port(p) for p in ports_text.split(",")]
        if kind == "field":
            inner = not ports_text.strip()  # field{}: an inner field, touching no edge
            if inner:
                halves: tuple[tuple[int, int], ...] = ()
            elif everything:
                halves = tuple((0, i) for i in range(8))
            else:
                halves = tuple((ci, HALF_INDEX[h]) for ci, h in ports)
            seg_cells = (0,) if inner else tuple(sorted({ci for ci, _ in halves}))
            words = rest.split()
            if words and words[0].startswith("->"):
                touched = [_parse_port(p) for p in words.pop(0)[2:].split(",")]
                pending_cities.append((len(segments), [(ci, DIRS.index(d)) for ci, d in touched]))
            segments.append(Segment("field", (), halves, seg_cells, marks=_segment_marks(tile_id, words)))
        else:
            edge_ports = tuple((ci, DIRS.index(d)) for ci, d in ports)
            words = rest.split()
            pennants = 1 if "pennant" in words else 0
            seg_marks = _segment_marks(tile_id, [w for w in words if w != "pennant"])
            if words.count("pennant") > 1:
                raise ValueError(f"{tile_id}: a mark stands once on a segment: {rest!r}")
            seg_cells = tuple(sorted({ci for ci, _ in edge_ports}))
            segments.append(Segment(kind, edge_ports, (), seg_cells, pennants, marks=seg_marks))
    # Resolve field -> city contacts and road decorations now that all segments exist.
    for fi, city_edges in pending_cities:
        idx = []
        for port in city_edges:
            hits = [i for i, s in enumerate(segments) if s.kind == "city" and port in s.edges]
            if len(hits) != 1:
                raise ValueError(f"{tile_id}: field touches no city at {port}")
            idx.append(hits[0])
        s = segments[fi]
        segments[fi] = s._replace(cities=tuple(idx))
    for name, beside in decorations:
        hits = [i for i, s in enumerate(segments) if s.kind == "road" and frozenset(s.edges) == beside]
        if len(hits) != 1:
            raise ValueError(f"{tile_id}: no road {sorted(beside)} for decoration {name}")
        s = segments[hits[0]]
        segments[hits[0]] = s._replace(decorations=s.decorations + (name,))
    tile = TileType(tile_id, count, list(cells), terrain, segments, village, frozenset(marks), number, tuple(loose))
    tile.seg_kinds = [seg.kind for seg in segments]
    tile.seg_open = [len(seg.edges) for seg in segments]
    tile.seg_pennants = [seg.pennants for seg in segments]
    tile.closable = tuple(i for i, seg in enumerate(segments) if seg.kind in ("road", "city"))
    tile.field_cities = tuple((i, seg.cities) for i, seg in enumerate(segments) if seg.kind == "field")
    tile.seg_marks = tuple((i, count_marks(seg.marks)) for i, seg in enumerate(segments) if seg.marks)
    _precompute_rotations(tile)
    return tile


def _precompute_rotations(tile: TileType) -> None:
    seen: list[tuple[tuple, int]] = []  # (cells and edges, quarter turns) of each distinct look
    distinct = []
    for rot in (0, 90, 180, 270):
        q = rot // 90
        offsets = [rotate_offset(dx, dy, rot) for dx, dy in tile.cells]
        terrain = [tuple(t[(d - q) % 4] for d in range(4)) for t in tile.terrain]
        edge_seg = [[-1] * 4 for _ in tile.cells]
        half_seg = [[-1] * 8 for _ in tile.cells]
        targets: dict[tuple[int, str], int] = {}
        canonical: list[tuple[int, str]] = []
        for si, seg in enumerate(tile.segments):
            names: list[tuple[int, str]] = []
            for ci, d in sorted(seg.edges, key=lambda p: (p[0], (p[1] + q) % 4)):
                nd = (d + q) % 4
                edge_seg[ci][nd] = si
                names.append((ci, f"{seg.kind}:{DIRS[nd]}"))
            for ci, h in sorted(seg.halves, key=lambda p: (p[0], (p[1] + 2 * q) % 8)):
                nh = (h + 2 * q) % 8
                half_seg[ci][nh] = si
                names.append((ci, f"field:{HALVES[nh]}"))
            if not names:
                names = [(ci, seg.kind) for ci in seg.cells]
            for name in names:
                targets[name] = si
            canonical.append(names[0])
        rt = RotatedTile(
            rot,
            offsets,
            terrain,
            [tuple(r) for r in edge_seg],
            [tuple(r) for r in half_seg],
            targets,
            canonical,
        )
        for ci in range(len(tile.cells)):
            es, hs = rt.edge_seg[ci], rt.half_seg[ci]
            links = tuple(
                (d, dx, dy, back, terrain[ci][d] << shift, terrain[ci][d], es[d], hs[h0], hs[h0 + 1], oh0, oh1)
                for d, dx, dy, back, shift, h0, oh0, oh1 in _LINK_CONSTANTS
                if terrain[ci][d] != NONE
            )
            dx, dy = offsets[ci]
            rt.cell_info.append((dx, dy, ci, terrain[ci], es, hs, links))
        tile.rotations.append(rt)
        # Two rotations are the same placement when they draw the same tile: same
        # cells, edges and segments (with their attributes) in board orientation.
        # The segments are compared only when the cells and edges are the same.
        shape = (tuple(offsets), tuple(terrain))
        twins = [seen_q for seen_shape, seen_q in seen if seen_shape == shape]
        if twins:
            signature = _signature(tile, offsets, q)
            if any(_signature(tile, tile.rotations[seen_q].offsets, seen_q) == signature for seen_q in twins):
                continue
        seen.append((shape, q))
        distinct.append(rot)
    tile.distinct_rots = tuple(distinct)


# Per direction: (d, step x, step y, the neighbour's direction facing back, shift of
# the demand it keeps, the direction's first half-edge, the neighbour's half-edges).
_LINK_CONSTANTS = tuple(
    (d, DX[d], DY[d], (d + 2) % 4, 3 * ((d + 2) % 4), 2 * d, opposite_half(2 * d), opposite_half(2 * d + 1))
    for d in range(4)
)


def _signature(tile: TileType, offsets: list[tuple[int, int]], q: int) -> tuple:
    return tuple(sorted(_segment_signature(seg, offsets, q) for seg in tile.segments))


def _segment_signature(seg: Segment, offsets: list[tuple[int, int]], q: int) -> tuple:
    return (
        seg.kind,
        tuple(sorted((offsets[ci], (d + q) % 4) for ci, d in seg.edges)),
        tuple(sorted((offsets[ci], (h + 2 * q) % 8) for ci, h in seg.halves)),
        seg.pennants,
        seg.decorations,
        len(seg.cities),
        seg.marks,
    )
