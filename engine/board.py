"""The board: placed tiles, the frontier of open cells, and features.

Features are kept incrementally with a union-find over segment nodes: each
segment of each placed tile is a node; placing a tile joins its nodes to the
neighbours' across matching edges. A root node carries its feature's aggregate:
open edge count (0 = complete), pennants and followers; the members of a feature
form a circular list (``nxt``) so that two features merge in O(1).

Links between nodes are always derivable from the board (edges between cells,
plus ferry joins on lake tiles), so a component can be rebuilt from scratch when
a ferry changes a road (``rebuild_roads``): the rest of the board is untouched.

The code is written for speed (the benchmark plays hundreds of whole games a
second): per-node data lives in parallel lists, and the hot loops are inlined.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from engine.joins import add_marks, join_city_nodes, join_marks
from engine.language import _
from engine.tiles import CITY, DX, DY, FIELD, TERRAIN_NAME, CellInfo, RotatedTile, TileType, count_marks, key_demand
from engine.words import DIRECTION_WORDS, direction

NEIGHBOURS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
AREA_KINDS = ("cloister", "castle")
CLOSABLE_KINDS = ("road", "city")
NO_MARKS: Mapping[str, int] = MappingProxyType({})
Cell = tuple[int, int]
Follower = tuple  # (player index, node the figure stands on[, its kind unless a plain follower])
#: A board cell: (which placement covers it, that placement's first node, the cell's CellInfo);
#: a plain tuple for the placement loop (see engine.tiles on CellInfo)
PlacedCell = tuple[int, int, CellInfo]


class Placement:
    __slots__ = ("tile", "x", "y", "rot", "first_node", "around")

    def __init__(self, tile: TileType, x: int, y: int, rot: int, first_node: int) -> None:
        self.tile = tile
        self.x = x
        self.y = y
        self.rot = rot
        self.first_node = first_node  # node id of the tile's segment 0
        # segment index -> the cells around that area segment (Board.surroundings: fixed once placed,
        # and a placement is shared by every copy of the board)
        self.around: dict[int, tuple[Cell, ...]] | None = None

    def __repr__(self) -> str:
        return f"Placement({self.tile.id!r}, x={self.x}, y={self.y}, rot={self.rot}, first_node={self.first_node})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Placement):
            return NotImplemented
        return (self.tile, self.x, self.y, self.rot, self.first_node) == (
            other.tile,
            other.x,
            other.y,
            other.rot,
            other.first_node,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value (as the dataclass was)

    @property
    def cells(self) -> list[Cell]:
        rt = self.tile.rotations[self.rot // 90]
        return [(self.x + dx, self.y + dy) for dx, dy in rt.offsets]


def demanded(key: int) -> int:
    """The bits of the directions a packed frontier key demands something on (7 in each 3-bit
    field that is not 0): a tile's packed edges ``t`` meet the demands when ``t & demanded(key) == key``."""
    any_bit = (key | key >> 1 | key >> 2) & 0o1111  # each field's lowest bit: set when the field is not 0
    return any_bit * 7


class Board:
    """Placed tiles and the features they form. Knows geometry, not turns."""

    def __init__(self) -> None:
        self.cells: dict[Cell, PlacedCell] = {}
        self.placements: list[Placement] = []
        # open cell -> packed terrain its placed neighbours demand (tiles.edge_key)
        self.frontier: dict[Cell, int] = {}
        # Node columns, indexed by node id.
        self.parent: list[int] = []
        self.nxt: list[int] = []
        self.kind: list[str] = []
        self.node_place: list[int] = []
        # Aggregates, meaningful on roots.
        self.open: list[int] = []
        self.pennants: list[int] = []
        self.followers: list[list[Follower] | None] = []
        # The roots that have figures (``figure_roots``): kept wherever ``followers`` changes, so that
        # asking for them costs the figures, not the board (every position the computers judge asks).
        self.occupied: set[int] = set()
        # Occupied cloisters/castles -> their surrounding cells still empty.
        self.watched: dict[int, set[Cell]] = {}
        # Lake tiles: stub node -> the stub a ferry joins it to.
        self.ferry_link: dict[int, int] = {}
        # A cache: field root -> the city nodes its segments touch (``cities_of_field``; the computer
        # players value every field with a figure in every position they judge). Kept up to date once
        # used: a placed tile's fields enter it, and two fields that join join their entries (an
        # entry is dropped when either side has none); fields never split.
        self.field_cities: dict[int, tuple[int, ...]] = {}
        # A cache too: field root -> how many completed cities it touches (``completed_cities_of_field``),
        # dropped when another field joins it; all of it when a city is completed.
        self.field_done: dict[int, int] = {}
        # And: road or city root -> how many cells it spans (``feature_size``), dropped when another
        # feature joins it or a ferry rebuilds its road.
        self.feature_sizes: dict[int, int] = {}
        # Root -> the segment marks of its feature, counted (``feature_marks``), for the features that
        # have any; kept on every join, like the pennants (an inn's or a good's scoring asks them of
        # every feature valued, in every position the computers judge).
        self.marks: dict[int, dict[str, int]] = {}
        # A cache of what depends on where the tiles lie and how their features join (``engine.holes``:
        # the scarce roads and cities, by the tiles left), key -> value: emptied when a tile is placed
        # or a ferry rebuilds a road, and copied by a copy, so that the figure choices a look-ahead
        # weighs after a placement, and the turn after them, look at the open cells once.
        self.layout_cache: dict[tuple[str, int, int], dict[int, int]] = {}

    def clone(self) -> Board:
        """An independent copy (placements and tile data are shared: never mutated)."""
        other = Board.__new__(Board)
        other.cells = dict(self.cells)
        other.placements = list(self.placements)
        other.frontier = dict(self.frontier)
        other.parent = list(self.parent)
        other.nxt = list(self.nxt)
        other.kind = list(self.kind)
        other.node_place = list(self.node_place)
        other.open = list(self.open)
        other.pennants = list(self.pennants)
        other.followers = list(self.followers)  # the inner lists are replaced, never mutated
        other.occupied = set(self.occupied)
        other.watched = {n: set(empty) for n, empty in self.watched.items()}
        other.ferry_link = dict(self.ferry_link)
        other.field_cities = dict(self.field_cities)  # (the tuples are never mutated)
        other.field_done = dict(self.field_done)
        other.feature_sizes = dict(self.feature_sizes)
        other.marks = dict(self.marks)  # (the counts are never changed: a join makes a new one)
        other.layout_cache = dict(self.layout_cache)  # (its values are never changed)
        return other

    # ------------------------------------------------------------------ features
    def find(self, a: int) -> int:
        parent = self.parent
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(self, a: int, b: int, consumed: int) -> int:
        """Join the features of nodes a and b; ``consumed`` open edges get closed."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            self.open[ra] -= consumed
            return ra
        return self._merge(ra, rb, consumed)

    def _merge(self, ra: int, rb: int, consumed: int) -> int:
        """Join two distinct roots."""
        if ra > rb:  # the older node stays root: new tiles join old features
            ra, rb = rb, ra
        self.parent[rb] = ra
        if self.feature_sizes:
            self.feature_sizes.pop(ra, None)
            self.feature_sizes.pop(rb, None)
        field_cities = self.field_cities
        if field_cities or self.field_done:
            join_city_nodes(field_cities, self.field_done, ra, rb)
        nxt = self.nxt
        nxt[ra], nxt[rb] = nxt[rb], nxt[ra]
        self.open[ra] += self.open[rb] - consumed
        self.pennants[ra] += self.pennants[rb]
        if self.marks:
            join_marks(self.marks, ra, rb)
        fb = self.followers[rb]
        if fb:
            self.followers[ra] = (self.followers[ra] or []) + fb
            self.followers[rb] = None
            self.occupied.discard(rb)
            self.occupied.add(ra)
        return ra

    def members(self, node: int) -> Iterator[int]:
        """Every node of the feature containing ``node``."""
        nxt = self.nxt
        n = node
        while True:
            yield n
            n = nxt[n]
            if n == node:
                return

    def placement_of(self, node: int) -> Placement:
        return self.placements[self.node_place[node]]

    def segment_of(self, node: int):  # -> tiles.Segment
        p = self.placements[self.node_place[node]]
        return p.tile.segments[node - p.first_node]

    def node_cells(self, node: int) -> list[Cell]:
        p = self.placements[self.node_place[node]]
        offsets = p.tile.rotations[p.rot // 90].offsets
        seg = p.tile.segments[node - p.first_node]
        return [(p.x + offsets[ci][0], p.y + offsets[ci][1]) for ci in seg.cells]

    def feature_cells(self, node: int) -> set[Cell]:
        """Cells a feature spans ("tiles" in scoring: a double tile's cells count apart)."""
        out: set[Cell] = set()
        placements, node_place, nxt = self.placements, self.node_place, self.nxt
        n = node
        while True:
            p = placements[node_place[n]]
            if p.tile.multi_cell:
                out.update(self.node_cells(n))
            else:
                out.add((p.x, p.y))
            n = nxt[n]
            if n == node:
                return out

    def feature_size(self, node: int) -> int:
        """``len(feature_cells(node))``, cached in ``feature_sizes`` (the computer players value every
        road and city with a figure in every position they judge)."""
        root = node if self.parent[node] == node else self.find(node)  # (usually asked of a root)
        size = self.feature_sizes.get(root)
        if size is None:
            size = len(self.feature_cells(root))
            if self.kind[root] in CLOSABLE_KINDS:  # (the placement loop keeps the cache of these only)
                self.feature_sizes[root] = size
        return size

    def is_complete(self, root: int) -> bool:
        kind = self.kind[root]
        if kind in AREA_KINDS:
            return all(c in self.cells for c in self.surroundings(root))
        return kind != "field" and self.open[root] == 0

    def surroundings(self, node: int) -> set[Cell]:
        """Cells around an area feature (8 for a cloister, 10 for a castle)."""
        return set(self._around(node))

    def _around(self, node: int) -> tuple[Cell, ...]:
        """``surroundings``, kept on the placement (it never changes)."""
        p = self.placements[self.node_place[node]]
        si = node - p.first_node
        if p.around is None:
            p.around = {}
        around = p.around.get(si)
        if around is None:
            own = self.node_cells(node)
            cells = {(x + dx, y + dy) for x, y in own for dx, dy in NEIGHBOURS8}
            around = p.around[si] = tuple(sorted(cells.difference(own)))
        return around

    def occupied_around(self, node: int) -> int:
        cells = self.cells
        return sum(1 for c in self._around(node) if c in cells)

    def feature_marks(self, node: int) -> Mapping[str, int]:
        """The segment marks of the feature containing ``node`` (TILES.md: ``road{S} inn``), each with
        how many of its segments carry it (kept in ``marks``; not to be changed)."""
        if not self.marks:
            return NO_MARKS
        return self.marks.get(node if self.parent[node] == node else self.find(node), NO_MARKS)

    def recount_marks(self) -> None:
        """``marks`` counted again from the placed tiles (a board rebuilt from a snapshot)."""
        self.marks = {}
        parent = self.parent
        for p in self.placements:
            for si, counted in p.tile.seg_marks:
                root = p.first_node + si
                while parent[root] != root:  # (without find's path compression: the snapshot's columns stay as saved)
                    root = parent[root]
                add_marks(self.marks, root, counted)

    def cities_of_field(self, node: int) -> set[int]:
        """Roots of the cities a field touches."""
        parent = self.parent
        root = self.find(node)
        nodes = self._field_city_nodes(root)
        out = set()
        for r in nodes:
            while parent[r] != r:  # find() inlined, with its path compression
                parent[r] = parent[parent[r]]
                r = parent[r]
            out.add(r)
        if len(out) < len(nodes):  # each city once from now on, by its root (cities only ever join)
            self.field_cities[root] = tuple(out)
        return out

    def _field_city_nodes(self, root: int) -> tuple[int, ...]:
        """Nodes of the cities the segments of the field ``root`` touch, at least one of each
        (cached in ``field_cities``)."""
        found = self.field_cities.get(root)
        if found is None:
            nodes: list[int] = []
            placements, node_place, nxt = self.placements, self.node_place, self.nxt
            n = root
            while True:
                p = placements[node_place[n]]
                first = p.first_node
                nodes += [first + c for c in p.tile.segments[n - first].cities]
                n = nxt[n]
                if n == root:
                    break
            found = self.field_cities[root] = tuple(nodes)
        return found

    def track_fields(self) -> None:
        """Put every field in the ``field_cities`` cache (kept up to date from then on): for a look-ahead,
        whose positions are all copies of this board, so that none walks a field from scratch."""
        parent, kind = self.parent, self.kind
        for root in range(len(parent)):
            if parent[root] == root and kind[root] == "field":
                self._field_city_nodes(root)

    def completed_cities_of_field(self, node: int) -> int:
        """How many completed cities a field touches (what a farmer scores for; cached in ``field_done``)."""
        root = node if self.parent[node] == node else self.find(node)  # (usually asked of a root)
        done = self.field_done.get(root)
        if done is None:
            open_ = self.open
            done = self.field_done[root] = sum(1 for c in self.cities_of_field(root) if open_[c] == 0)
        return done

    def tile_nodes(self, placement_index: int) -> range:
        p = self.placements[placement_index]
        return range(p.first_node, p.first_node + len(p.tile.segments))

    # ------------------------------------------------------------------ followers
    def add_follower(self, player: int, node: int, kind: str = "follower") -> None:
        """Put a figure on a node: a plain follower is kept as (player, node), another kind as
        (player, node, kind) (engine.figures)."""
        root = self.find(node)
        figure = (player, node) if kind == "follower" else (player, node, kind)
        self.followers[root] = (self.followers[root] or []) + [figure]
        self.occupied.add(root)
        if self.kind[node] in AREA_KINDS and node not in self.watched:
            self.watched[node] = {c for c in self.surroundings(node) if c not in self.cells}

    def remove_follower(self, player: int, node: int) -> None:
        self.remove_figure((player, node))

    def remove_figure(self, figure: tuple) -> None:
        """Take one figure (as ``followers`` holds it) off the board."""
        root = self.find(figure[1])
        rest = list(self.followers[root] or [])
        rest.remove(figure)
        self.followers[root] = rest or None
        if not rest:
            self.occupied.discard(root)
            self.watched.pop(root, None)

    def clear_followers(self, root: int) -> list[Follower]:
        """Take every follower off a feature; returns them."""
        gone = self.followers[root] or []
        self.followers[root] = None
        self.occupied.discard(root)
        self.watched.pop(root, None)
        return gone

    def figure_roots(self) -> list[int]:
        """The roots of the features that have figures, in node order."""
        return sorted(self.occupied)

    def recount_occupied(self) -> None:
        """``occupied`` found again from the ``followers`` column (a board rebuilt from a snapshot)."""
        self.occupied = {n for n, standing in enumerate(self.followers) if standing}

    def completed_areas(self) -> list[int]:
        """Occupied cloisters/castles whose surroundings are now all placed."""
        return [n for n, empty in self.watched.items() if not empty]

    # ------------------------------------------------------------------ placing
    def mismatch(self, tile: TileType, x: int, y: int, rot: int) -> str | None:
        """Why the tile cannot go there by the edge rules, or None if it can."""
        rt = tile.rotations[rot // 90]
        for dx, dy in rt.offsets:
            if (x + dx, y + dy) in self.cells:
                return _("{cell} is already taken").format(cell=f"({x + dx}, {y + dy})")
        touches = False
        for ci, (dx, dy) in enumerate(rt.offsets):
            cx, cy = x + dx, y + dy
            key = self.frontier.get((cx, cy), 0)
            for d in range(4):
                need = key_demand(key, d)
                if not need:
                    continue
                touches = True
                have = rt.terrain[ci][d]
                if have != need:
                    return _(
                        "the {side} edge of {cell} would be {have}, but its neighbour at {other} has {need} there"
                    ).format(
                        side=direction(DIRECTION_WORDS[d]), cell=f"({cx}, {cy})", have=_(TERRAIN_NAME[have]),
                        other=f"({cx + DX[d]}, {cy + DY[d]})", need=_(TERRAIN_NAME[need]),
                    )  # fmt: skip
        if not touches:
            return _("{cell} does not touch any placed tile").format(cell=f"({x}, {y})")
        return None

    def fitting_placements(self, tile: TileType) -> dict[Cell, tuple[int, ...]]:
        """Where the tile matches all edges: cell -> rotations (one per distinct look).

        For a multi-cell tile the cell is where its cell u0 goes.
        """
        if not tile.multi_cell:
            table = (tile._fit_tables or tile.fit_tables())[1]
            return {c: rots for c, key in self.frontier.items() if (rots := table[key])}
        found: dict[Cell, list[int]] = {}
        for x, y, rot in self.multi_fits(tile):
            found.setdefault((x, y), []).append(rot)
        return {c: tuple(rots) for c, rots in sorted(found.items())}

    def fits_somewhere(self, tile: TileType) -> bool:
        """``bool(fitting_placements(tile))``, stopping at the first place found."""
        if tile.multi_cell:
            return next(self.multi_fits(tile), None) is not None
        table = (tile._fit_tables or tile.fit_tables())[1]
        return any(map(table.__getitem__, self.frontier.values()))

    def each_fit(self, tile: TileType) -> Iterator[tuple[int, int, int]]:
        """(x, y, rot) of every placement ``fitting_placements`` lists, found one by one (for a
        multi-cell tile not in the same order): a caller that needs only one stops early."""
        if tile.multi_cell:
            yield from self.multi_fits(tile)
            return
        table = (tile._fit_tables or tile.fit_tables())[1]
        for (x, y), key in self.frontier.items():
            for rot in table[key]:
                yield x, y, rot

    def multi_fits(self, tile: TileType) -> Iterator[tuple[int, int, int]]:
        """(x, y, rot) of every way a multi-cell tile matches all edges (one rotation per
        distinct look), found one by one: a caller that needs only one stops early."""
        cells, frontier = self.cells, self.frontier
        # Try every anchor that puts one of the tile's cells on the frontier (an anchor whose cell on
        # the frontier cell f cannot meet f's neighbours is skipped at once: it would fail below).
        for rot in tile.distinct_rots:
            rt = tile.rotations[rot // 90]
            own = list(zip(rt.offsets, rt.packed_terrain, strict=True))
            tried = set()
            for (fx, fy), at_f in frontier.items():
                demanded_f = ((at_f | at_f >> 1 | at_f >> 2) & 0o1111) * 7  # (demanded)
                for (dx, dy), terrain_f in own:
                    if terrain_f & demanded_f != at_f:
                        continue  # that cell of the tile would not meet the neighbours of f: no anchor here
                    ax, ay = fx - dx, fy - dy
                    if (ax, ay) in tried:
                        continue
                    tried.add((ax, ay))
                    # _multi_fits inlined (the castle searches try every anchor of every castle).
                    touches = False
                    for (ox, oy), terrain in own:
                        c = (ax + ox, ay + oy)
                        if c in cells:
                            break
                        key = frontier.get(c, 0)
                        if key:
                            if terrain & ((key | key >> 1 | key >> 2) & 0o1111) * 7 != key:  # (demanded)
                                break
                            touches = True
                    else:
                        if touches:
                            yield ax, ay, rot

    def fits(self, tile: TileType, x: int, y: int, rot: int) -> bool:
        """Do all edges match there (any rotation, equivalent ones included)?"""
        if not tile.multi_cell:
            key = self.frontier.get((x, y))
            return key is not None and rot in (tile._fit_tables or tile.fit_tables())[0][key]
        return self._multi_fits(tile.rotations[rot // 90], x, y)

    def _multi_fits(self, rt: RotatedTile, x: int, y: int) -> bool:
        """``mismatch(...) is None`` without building messages (the search tries many anchors)."""
        cells, frontier = self.cells, self.frontier
        touches = False
        for (dx, dy), terrain in zip(rt.offsets, rt.packed_terrain, strict=True):
            c = (x + dx, y + dy)
            if c in cells:
                return False
            key = frontier.get(c, 0)
            if key:
                if terrain & demanded(key) != key:
                    return False
                touches = True
        return touches

    def place(self, tile: TileType, x: int, y: int, rot: int) -> int:
        """Put a tile on the board (legality is the caller's business); returns its index."""
        rt = tile.rotations[rot // 90]
        parent = self.parent
        first = len(parent)
        pidx = len(self.placements)
        n = tile.n_segments
        self.placements.append(Placement(tile, x, y, rot, first))
        self.layout_cache = {}
        ids = range(first, first + n)
        parent.extend(ids)
        self.nxt.extend(ids)
        self.kind.extend(tile.seg_kinds)
        self.node_place.extend([pidx] * n)
        open_ = self.open
        open_.extend(tile.seg_open)
        self.pennants.extend(tile.seg_pennants)
        self.followers.extend([None] * n)
        cells, frontier, watched = self.cells, self.frontier, self.watched
        infos = rt.cell_info
        for info in infos:
            c = (x + info[0], y + info[1])
            cells[c] = (pidx, first, info)
            frontier.pop(c, None)
            if watched:
                for empty in watched.values():
                    empty.discard(c)
        nxt, pennants, followers, merge = self.nxt, self.pennants, self.followers, self._merge
        field_cities, field_done, feature_sizes = self.field_cities, self.field_done, self.feature_sizes
        marks, occupied = self.marks, self.occupied
        for si, counted in tile.seg_marks:
            marks[first + si] = counted
        if field_cities:  # (in use: see __init__)
            for si, cities in tile.field_cities:
                field_cities[first + si] = tuple([first + c for c in cities]) if cities else ()
        for info in infos:
            cx, cy = x + info[0], y + info[1]
            for _d, sx, sy, od, demand, t, es, h0, h1, o0, o1 in info[6]:
                nc = (cx + sx, cy + sy)
                nb = cells.get(nc)
                if nb is None:
                    frontier[nc] = frontier.get(nc, 0) | demand
                    continue
                if nb[0] == pidx:
                    continue
                nfirst, ninfo = nb[1], nb[2]
                # find() and _merge() inlined: this loop runs for every edge of every tile.
                if t != FIELD:
                    ra = first + es
                    while parent[ra] != ra:
                        parent[ra] = parent[parent[ra]]
                        ra = parent[ra]
                    rb = nfirst + ninfo[4][od]
                    while parent[rb] != rb:
                        parent[rb] = parent[parent[rb]]
                        rb = parent[rb]
                    if ra == rb:
                        open_[ra] -= 2
                    else:
                        if ra > rb:  # the older node stays root
                            ra, rb = rb, ra
                        parent[rb] = ra
                        if feature_sizes:
                            feature_sizes.pop(ra, None)
                            feature_sizes.pop(rb, None)
                        nxt[ra], nxt[rb] = nxt[rb], nxt[ra]
                        open_[ra] += open_[rb] - 2
                        pennants[ra] += pennants[rb]
                        if marks:
                            join_marks(marks, ra, rb)
                        fb = followers[rb]
                        if fb:
                            followers[ra] = (followers[ra] or []) + fb
                            followers[rb] = None
                            occupied.discard(rb)
                            occupied.add(ra)
                    if field_done and t == CITY and not open_[ra]:
                        field_done.clear()  # a city completed: fields touching it score more
                if t != CITY:
                    nh = ninfo[5]
                    n0 = nh[o0]
                    ra = first + h0
                    while parent[ra] != ra:
                        parent[ra] = parent[parent[ra]]
                        ra = parent[ra]
                    rb = nfirst + n0
                    while parent[rb] != rb:
                        parent[rb] = parent[parent[rb]]
                        rb = parent[rb]
                    if ra != rb:
                        if ra > rb:
                            ra, rb = rb, ra
                        parent[rb] = ra
                        if field_cities or field_done:
                            join_city_nodes(field_cities, field_done, ra, rb)
                        nxt[ra], nxt[rb] = nxt[rb], nxt[ra]
                        open_[ra] += open_[rb]
                        pennants[ra] += pennants[rb]
                        if marks:
                            join_marks(marks, ra, rb)
                        fb = followers[rb]
                        if fb:
                            followers[ra] = (followers[ra] or []) + fb
                            followers[rb] = None
                            occupied.discard(rb)
                            occupied.add(ra)
                    # Both halves of an edge usually belong to one field on each side.
                    n1 = nh[o1]
                    if h1 != h0 or n1 != n0:
                        ra = first + h1
                        while parent[ra] != ra:
                            parent[ra] = parent[parent[ra]]
                            ra = parent[ra]
                        rb = nfirst + n1
                        while parent[rb] != rb:
                            parent[rb] = parent[parent[rb]]
                            rb = parent[rb]
                        if ra != rb:
                            merge(ra, rb, 0)
        return pidx

    def completed_by(self, pidx: int) -> list[int]:
        """Roots of the roads and cities of a placement that are now complete."""
        out = []
        p = self.placements[pidx]
        first, parent, open_ = p.first_node, self.parent, self.open
        for si in p.tile.closable:
            r = first + si
            while parent[r] != r:  # find() inlined, with its path compression
                parent[r] = parent[parent[r]]
                r = parent[r]
            if open_[r] == 0 and r not in out:
                out.append(r)
        return out

    # ------------------------------------------------------------------ ferries
    def road_neighbours(self, node: int) -> list[int]:
        """Road nodes joined to ``node`` right now: across edges, and by a ferry."""
        out = []
        p = self.placements[self.node_place[node]]
        seg = p.tile.segments[node - p.first_node]
        rt = p.tile.rotations[p.rot // 90]
        q = p.rot // 90
        for ci, d in seg.edges:
            d = (d + q) % 4
            dx, dy = rt.offsets[ci]
            nb = self.cells.get((p.x + dx + DX[d], p.y + dy + DY[d]))
            if nb is not None:
                out.append(nb[1] + nb[2][4][(d + 2) % 4])
        partner = self.ferry_link.get(node)
        if partner is not None:
            out.append(partner)
        return out

    def rebuild_roads(self, nodes: list[int]) -> list[int]:
        """Recompute the roads containing ``nodes`` from the current links.

        Used when a ferry changes which stubs are joined: only those roads are
        rebuilt; followers stay on the nodes they stand on. Returns the new roots.
        """
        self.layout_cache = {}
        old: set[int] = set()
        for n in nodes:
            old.update(self.members(n))
        standing: dict[int, list[Follower]] = {}
        for r in {self.find(m) for m in old}:
            for figure in self.followers[r] or []:
                standing.setdefault(figure[1], []).append(figure)
        for n in old:
            self.feature_sizes.pop(n, None)
            self.marks.pop(n, None)
            seg = self.segment_of(n)
            self.parent[n] = n
            self.nxt[n] = n
            self.open[n] = len(seg.edges)
            self.pennants[n] = seg.pennants
            self.followers[n] = standing.get(n)
            if n in standing:
                self.occupied.add(n)
            else:
                self.occupied.discard(n)
            if seg.marks:
                self.marks[n] = count_marks(seg.marks)
        done: set[tuple[int, int]] = set()
        for n in sorted(old):
            for m in self.road_neighbours(n):
                pair = (min(n, m), max(n, m))
                if pair not in done:
                    done.add(pair)
                    # An edge link closes two open ends; a ferry joins stubs and closes none.
                    self.union(n, m, 0 if self.ferry_link.get(n) == m else 2)
        return sorted({self.find(n) for n in old})
