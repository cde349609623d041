"""The River and The River II (RULES.md, river page).

State (``game.state["river"]``, a ``RiverState``):
- ``ends``: open river ends, the empty cell the river points at -> its ``RiverEnd``
  (the branch, and the direction the water flows into that cell);
- ``turns``: per branch, the turns of its tiles so far ("L", "R" or "S"); an arm
  of the fork starts with the turn it took leaving the fork;
- ``next_branch``, and ``extra_turn`` (who placed the last river tile: they place no figure
  on it and play a normal turn at once).

A river tile must continue an open end; a curve may not turn the same way as
the branch's previous tile (an immediate U-turn), nor as its previous two
curves (three the same way, even with straights between); branches never
join; the river may not point at a cell it could never continue from; and the
remaining river tiles (the river stack is known to all) must still fit in full,
in some order (``completable``). A drawn river tile that fits nowhere goes back
under the other river tiles, just before the lake (``unplaceable``).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from engine.catalog import TILE_TYPES
from engine.expansions import Event, Expansion
from engine.expansions.river.moves import TileReturnedEvent
from engine.language import N_, _, sentence
from engine.tiles import DX, DY, edge_key
from engine.words import cell, tile_name

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType

RIVER_SETS = ("river1", "river2")
FORK = "river2.fork"
LAKES = ("river1.lake", "river2.volcano_lake")
#: Positions one completability check may visit. A check that runs out finds no
#: completion, so the placement is refused: every position the river reaches has a
#: completion that a search from it finds again within the budget (it visits only
#: positions its parent's search visited), so the river never gets stuck.
SEARCH_BUDGET = 2_000


_RIVER_PREFIXES = tuple(f"{s}." for s in RIVER_SETS)


def is_river(tile_id: str) -> bool:
    # tile_set(tile_id) in RIVER_SETS, without splitting the id (this runs for every placement tried)
    return tile_id.startswith(_RIVER_PREFIXES) or tile_id in RIVER_SETS


@dataclass(frozen=True)
class RiverEnd:
    """An open end of the river: its branch, and the direction the water flows into the cell."""

    branch: int
    dir: int

    def __reduce__(self) -> tuple[type[RiverEnd], tuple[int, int]]:
        # (a snapshot pickles it by its constructor: the compiled engine's frozen class takes no
        # attribute set after it is made, as unpickling by default would)
        return RiverEnd, (self.branch, self.dir)


@dataclass
class RiverState:
    ends: dict[tuple[int, int], RiverEnd]
    turns: dict[int, list[str]]
    next_branch: int
    extra_turn: int | None = None

    def copy(self) -> RiverState:
        """An independent copy (engine.copying: a look-ahead copies the state for every move it tries;
        a RiverEnd is frozen, so shared)."""
        turns = {branch: list(taken) for branch, taken in self.turns.items()}
        return RiverState(dict(self.ends), turns, self.next_branch, self.extra_turn)


def _state(game: Game) -> RiverState:
    return game.state["river"]  # type: ignore[no-any-return]


def river_tiles(sets: list[str]) -> tuple[list[str], str | None, str]:
    """(river tiles to shuffle, the fork or None, the lake that comes last) for the sets."""
    from engine.catalog import SET_TILES, expand

    both = "river1" in sets and "river2" in sets
    tiles: list[str] = []
    for s in RIVER_SETS:
        if s in sets:
            tiles += expand(SET_TILES[s])
    drop = {"river1.spring", "river2.spring", FORK}
    if "river2" in sets:
        drop.add("river2.volcano_lake")
        if both:
            drop.add("river1.lake")
        lake = "river2.volcano_lake"
    else:
        drop.add("river1.lake")
        lake = "river1.lake"
    fork = FORK if "river2" in sets else None
    return [t for t in tiles if t not in drop], fork, lake


def river_stack(game: Game) -> list[str]:
    """The river tiles still to draw, in draw order (the lake last)."""
    bag, start = game.bag, game.bag_pos
    end = start
    while end < len(bag) and is_river(bag[end]):
        end += 1
    return bag[start:end]


# ---------------------------------------------------------------------- turns
# A branch's history, as much as the rules need: (its last tile's turn, its last
# curve, the curve before that); "L", "R", "S" or None.
History = tuple[str | None, str | None, str | None]


def _turn(flow: int, out: int) -> str:
    """The turn of water that flows in direction ``flow`` and leaves in direction ``out``."""
    return "S" if out == flow else ("R" if out == (flow + 1) % 4 else "L")


def _history(turns: list[str]) -> History:
    curves = [t for t in turns if t != "S"]
    return (
        turns[-1] if turns else None,
        curves[-1] if curves else None,
        curves[-2] if len(curves) > 1 else None,
    )


def _after(history: History, turn: str) -> History:
    return ("S", history[1], history[2]) if turn == "S" else (turn, turn, history[1])


def _turn_problem(history: History, turn: str) -> str | None:
    if turn == "S":
        return None
    if history[0] == turn:
        return _("the river may not turn the same way twice in a row (a U-turn)")
    if history[1] == turn and history[2] == turn:
        return _("the river may not turn the same way three times in a row")
    return None


# ---------------------------------------------------------------------- shapes
class Look(NamedTuple):
    """A river tile at one rotation, as the search needs it."""

    edges: tuple[int, ...]  # terrain per direction N, E, S, W
    rivers: tuple[tuple[int, ...], ...]  # the directions of each river segment
    packed: int  # the edges packed as tiles.edge_key does


@functools.cache
def _looks(tile: TileType, rot: int) -> Look:
    rt = tile.rotations[rot // 90]
    rivers: dict[int, list[int]] = {}
    for d in range(4):
        si = rt.edge_seg[0][d]
        if si >= 0 and tile.segments[si].kind == "river":
            rivers.setdefault(si, []).append(d)
    return Look(rt.terrain[0], tuple(tuple(ds) for ds in rivers.values()), edge_key(rt.terrain[0]))


@functools.cache
def _shape(tile_id: str) -> tuple[Look, ...]:
    """Every distinct look of a river tile; tiles with the same looks are interchangeable."""
    tile = TILE_TYPES[tile_id]
    looks = {_looks(tile, rot) for rot in tile.distinct_rots}
    return tuple(sorted(looks))


def _net_ends(shape: tuple[Look, ...]) -> int:
    """Open ends a tile adds: -1 for an end (lake), 0 for a continuation, +1 for the fork."""
    return sum(len(dirs) for dirs in shape[0].rivers) - 2


# ---------------------------------------------------------------------- completability
End = tuple[int, int, int, History]  # the cell the river points at, its flow, the branch's history


class _OutOfBudget(Exception):
    pass


class Completion:
    """Can the remaining river tiles all be placed, in some order, by the rules?

    A depth-first search over placements (same tile looks merged, the lake last):
    the end with the fewest choices first, then the placements that lead away from
    the river; a memo of the positions seen; cuts: an open end for every tile that
    closes one, room (free cells reachable from the ends) for every tile; and a
    position in open country (``_open_country``) counts as completed. It answers
    True only with a completion in hand, and False after ``SEARCH_BUDGET`` positions.
    """

    def __init__(self, occupied: dict[tuple[int, int], tuple[int, int, int, int]], stack: list[str]) -> None:
        self.occupied = occupied
        lake = stack[-1] if stack and stack[-1] in LAKES else None
        body = list(stack)
        if lake is not None:
            body.pop()
        tally: dict[tuple[Look, ...], int] = {}
        for t in body:
            tally[_shape(t)] = tally.get(_shape(t), 0) + 1
        shapes = sorted(tally)
        self.shapes = shapes
        self.counts = tuple(tally[s] for s in shapes)
        self.net = tuple(_net_ends(s) for s in shapes)
        self.lake = _shape(lake) if lake is not None else None
        self.memo: dict[tuple, bool] = {}
        self.nodes = 0

    def run(self, ends: tuple[End, ...]) -> bool:
        """True if a completion was found (within ``SEARCH_BUDGET`` positions)."""
        try:
            return self._solve(tuple(sorted(ends)), self.counts, self.lake is not None)
        except _OutOfBudget:
            return False

    def _solve(self, ends: tuple[End, ...], counts: tuple[int, ...], lake: bool) -> bool:
        left = sum(counts)
        if not left and not lake:
            return True
        if not ends:
            return False
        key = (frozenset(self.occupied.items()), ends, counts, lake)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > SEARCH_BUDGET:
            raise _OutOfBudget
        closers = (1 if lake else 0) + sum(c for c, n in zip(counts, self.net, strict=True) if n < 0)
        forks = sum(c for c, n in zip(counts, self.net, strict=True) if n > 0)
        if not forks and self._open_country(ends, counts, lake, closers):
            self.memo[key] = True
            return True
        children, live = self._children(ends, counts, lake)
        result = False
        if closers <= live + forks:
            occupied = self.occupied
            for i, (_unused, _unused, cell, edges, new_ends, new_counts, new_lake) in enumerate(children):
                if i == 1 and not self._room(ends, left + lake):
                    break
                occupied[cell] = edges
                try:
                    result = self._solve(new_ends, new_counts, new_lake)
                finally:
                    del occupied[cell]
                if result:
                    break
        self.memo[key] = result
        return result

    def _children(self, ends: tuple[End, ...], counts: tuple[int, ...], lake: bool) -> tuple[list, int]:
        """(every placement of a remaining tile, best first; how many ends take some tile)."""
        occupied = self.occupied
        # The order depends on the position only (the centre of the river's box), so
        # that a search from a child position retraces its part of the parent's search.
        xs = [x for x, _unused in occupied]
        ys = [y for _unused, y in occupied]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        # The lake comes last: it is tried only when no other tile is left.
        options: list[tuple[int, tuple[Look, ...]]] = [(i, self.shapes[i]) for i, c in enumerate(counts) if c]
        if not options and lake and self.lake is not None:
            options = [(-1, self.lake)]
        children = []
        live = 0
        for e, (x, y, flow, history) in enumerate(ends):
            others = ends[:e] + ends[e + 1 :]
            taken = {(o[0], o[1]) for o in others}
            incoming = (flow + 2) % 4
            mine = []
            # What the placed neighbours demand, packed: a look fits if (packed & mask) == need.
            need = mask = 0
            for d in range(4):
                nb = occupied.get((x + DX[d], y + DY[d]))
                if nb is not None:
                    need |= nb[(d + 2) % 4] << 3 * d
                    mask |= 7 << 3 * d
            for i, shape in options:
                for edges, rivers, packed in shape:
                    if packed & mask != need:
                        continue
                    exits = _exits(x, y, flow, history, incoming, rivers, occupied, taken)
                    if exits is None:
                        continue
                    if i >= 0:
                        new_counts = counts[:i] + (counts[i] - 1,) + counts[i + 1 :]
                        new_lake = lake
                    else:
                        new_counts, new_lake = counts, False
                    # Closing tiles last; otherwise the placement whose ends lie farthest out.
                    score = min(((ex - cx) ** 2 + (ey - cy) ** 2 for ex, ey, _, _ in exits), default=-1.0)
                    mine.append((-score, (x, y), edges, tuple(sorted(others + tuple(exits))), new_counts, new_lake))
            if mine:
                live += 1
                # The end with the fewest choices first: it is the one that gets stuck.
                children += [(len(mine), *child) for child in mine]
        children.sort(key=lambda c: (c[0], c[1]))
        return children, live

    def _open_country(self, ends: tuple[End, ...], counts: tuple[int, ...], lake: bool, closers: int) -> bool:
        """Can the rest surely be placed in open country, with no search?

        An end is free when the quarter-plane ahead of it, on the side of a turn its
        branch may take next, and the row of cells behind each of its two edges, hold
        no tile and no other end. Its branch can then take any tiles: straights run
        on, curves alternate (starting with that turn), so the river climbs a
        staircase inside the quarter-plane that touches nothing but itself, and a
        closing tile ends it. One free end takes everything when at most one tile
        closes an end; with two closing tiles, one goes to another end that takes it
        now (nothing the free end places will touch it), or two free ends whose
        areas are apart take one each.
        """
        occupied = self.occupied
        areas: list[tuple[int, tuple[float, float, float, float]]] = []
        for e, (x, y, flow, history) in enumerate(ends):
            hx, hy = DX[flow], DY[flow]
            points = list(occupied) + [(o[0], o[1]) for o in ends if o[:2] != (x, y)]
            for turn, t in (("L", (flow + 3) % 4), ("R", (flow + 1) % 4)):
                if _turn_problem(history, turn):
                    continue
                tx, ty = DX[t], DY[t]
                for px, py in points:
                    u = (px - x) * hx + (py - y) * hy
                    v = (px - x) * tx + (py - y) * ty
                    if u >= -1 and v >= -1 and (u, v) != (-1, -1) and (u, v) != (-1, 0):
                        break  # (-1, 0) is the tile the water comes from
                else:
                    if closers <= 1:
                        return True
                    areas.append((e, _area(x, y, hx, hy, tx, ty)))
        if closers != 2 or not areas:
            return False
        closing = [self.shapes[i] for i, c in enumerate(counts) if c and self.net[i] < 0]
        if lake and self.lake is not None:
            closing.append(self.lake)
        free = {e for e, _unused in areas}
        for a, end in enumerate(ends):
            if free - {a} and self._closes_now(end, closing):
                return True
        return any(a != b and _apart(ra, rb) for i, (a, ra) in enumerate(areas) for b, rb in areas[i + 1 :])

    def _closes_now(self, end: End, closing: list[tuple[Look, ...]]) -> bool:
        """Does one of the closing tiles fit at this end now?"""
        x, y, flow, _unused = end
        incoming = (flow + 2) % 4
        need = mask = 0
        for d in range(4):
            nb = self.occupied.get((x + DX[d], y + DY[d]))
            if nb is not None:
                need |= nb[(d + 2) % 4] << 3 * d
                mask |= 7 << 3 * d
        return any(look.packed & mask == need and look.rivers == ((incoming,),) for shape in closing for look in shape)

    def _room(self, ends: tuple[End, ...], need: int) -> bool:
        """Are there at least ``need`` free cells reachable from the open ends?

        Beyond the box around the river everything is free: reaching it is room enough.
        """
        occupied = self.occupied
        xs = [x for x, _unused in occupied]
        ys = [y for _unused, y in occupied]
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
        seen = {(x, y) for x, y, _, _ in ends}
        todo = list(seen)
        while todo:
            x, y = todo.pop()
            if not (x0 < x < x1 and y0 < y < y1):
                return True
            for d in range(4):
                c = (x + DX[d], y + DY[d])
                if c not in seen and c not in occupied:
                    seen.add(c)
                    todo.append(c)
        return len(seen) >= need


INF = float("inf")


def _area(x: int, y: int, hx: int, hy: int, tx: int, ty: int) -> tuple[float, float, float, float]:
    """(x min, x max, y min, y max) of the quarter-plane ahead of (x, y) towards h and
    t, with one row behind each of its edges."""
    lo_x, hi_x, lo_y, hi_y = -INF, INF, -INF, INF
    for dx, dy in ((hx, hy), (tx, ty)):
        if dx > 0:
            lo_x = float(x - 1)
        elif dx < 0:
            hi_x = float(x + 1)
        if dy > 0:
            lo_y = float(y - 1)
        elif dy < 0:
            hi_y = float(y + 1)
    return lo_x, hi_x, lo_y, hi_y


def _apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[1] < b[0] or b[1] < a[0] or a[3] < b[2] or b[3] < a[2]


def _exits(
    x: int,
    y: int,
    flow: int,
    history: History,
    incoming: int,
    rivers: tuple[tuple[int, ...], ...],
    occupied: dict,
    taken: set[tuple[int, int]],
) -> list[End] | None:
    """The open ends a river tile at (x, y) leaves, or None if the rules forbid it there."""
    through = next((dirs for dirs in rivers if incoming in dirs), None)
    if through is None:
        return None
    exits: list[End] = []
    for dirs in rivers:
        if dirs is through:
            outs = [d for d in dirs if d != incoming]
            if not outs:
                continue
            turn = _turn(flow, outs[0])
            if _turn_problem(history, turn):
                return None
        else:  # an arm of the fork: the fork counts as that arm's turn
            outs = [dirs[0]]
            turn = _turn(flow, outs[0])
        d = outs[0]
        nx, ny = x + DX[d], y + DY[d]
        if (nx, ny) in occupied or (nx, ny) in taken or any((nx, ny) == (e[0], e[1]) for e in exits):
            return None
        back = (d + 2) % 4
        if all((nx + DX[k], ny + DY[k]) in occupied for k in range(4) if k != back):
            return None
        exits.append((nx, ny, d, _after(history, turn)))
    return exits


def _ends(state: RiverState) -> tuple[End, ...]:
    """The open ends of a river state, as the search takes them."""
    return tuple(sorted((*cell, e.dir, _history(state.turns[e.branch])) for cell, e in state.ends.items()))


class River(Expansion):
    name = "river"
    sets = RIVER_SETS
    titles = {"river1": N_("The River"), "river2": N_("The River II")}
    state_types = (RiverState, RiverEnd)
    setup_tiles = ("river1.spring", "river2.spring")
    event_types = ("tile_returned",)
    event_shapes = {"tile_returned": TileReturnedEvent}

    @staticmethod
    def describe(event: Event) -> str | None:
        return sentence(
            _("{tile} fits nowhere now: it goes back under the river tiles.").format(
                tile=tile_name(event["tile"], article=True)
            )
        )

    def __init__(self) -> None:
        # Completability answers by position (a pure function of it, so sharing the
        # cache between a game and its clones changes no result).
        self._completable: dict[tuple, bool] = {}

    # ------------------------------------------------------------------ setup
    def start_tile(self, game: Game) -> str | None:
        return "river1.spring" if "river1" in game.sets else "river2.spring"

    def bag(self, game: Game, bag: list[str], rng: random.Random) -> list[str]:
        shuffled, fork, lake = river_tiles(game.sets)
        # Keep the seeded shuffle's order of the river tiles; the fork leads, the lake closes.
        wanted = list(shuffled)
        river = []
        for t in bag:
            if t in wanted:
                wanted.remove(t)
                river.append(t)
        others = [t for t in bag if not is_river(t)]
        return ([fork] if fork else []) + river + [lake] + others

    def check_pool(self, game: Game, pool: list[str]) -> None:
        from engine.moves import BadSetup

        count = 0
        while count < len(pool) and is_river(pool[count]):
            count += 1
        if any(is_river(t) for t in pool[count:]):
            raise BadSetup("the pool must hold every river tile before the other tiles")
        river = pool[:count]
        if "river2" in game.sets and river and river[0] != FORK:
            raise BadSetup("with The River II the fork comes first in the pool")
        if river and river[-1] not in LAKES:
            raise BadSetup("the last river tile of the pool must be the lake")
        if "river1" in game.sets and "river2" in game.sets and "river1.lake" in river:
            raise BadSetup("with both rivers, river1.lake stays in the box")

    def setup(self, game: Game, rng: random.Random, options: dict) -> None:
        # The spring at (0,0), rotation 0, sends the river east.
        game.state["river"] = RiverState({(1, 0): RiverEnd(0, 1)}, {0: []}, 1)

    # ------------------------------------------------------------------ placing
    def _plan(self, game: Game, tile: TileType, x: int, y: int, rot: int) -> tuple[str | None, RiverState | None]:
        """(why not, or None; the state after it) for a river tile placed there, by the
        rules of the tile itself (continuing an end, turns, joins, room ahead)."""
        state = _state(game)
        end = state.ends.get((x, y))
        if end is None:
            return _("a river tile must continue the river: place it at an open end of the river"), None
        flow = end.dir
        incoming = (flow + 2) % 4
        rivers = _looks(tile, rot).rivers
        through = next((dirs for dirs in rivers if incoming in dirs), None)
        if through is None:
            return _("the river on this tile does not meet the open end"), None
        turns = state.turns[end.branch]
        ends = dict(state.ends)
        del ends[(x, y)]
        new_turns = dict(state.turns)
        next_branch = state.next_branch
        exits: list[tuple[int, int, list[str]]] = []  # (branch, direction, its turns)
        for dirs in rivers:
            if dirs is through:
                outs = [d for d in dirs if d != incoming]
                if not outs:
                    continue  # the river ends here (a lake), or an arm of the fork starts
                turn = _turn(flow, outs[0])
                problem = _turn_problem(_history(turns), turn)
                if problem:
                    return problem, None
                exits.append((end.branch, outs[0], turns + [turn]))
            else:  # the fork: each other arm starts a branch that has just turned its way
                exits.append((next_branch, dirs[0], turns + [_turn(flow, dirs[0])]))
                next_branch += 1
        for b, d, branch_turns in exits:
            nx, ny = x + DX[d], y + DY[d]
            if (nx, ny) in game.board.cells:
                return _("the river would run into the tile at {cell}").format(cell=cell(nx, ny)), None
            if (nx, ny) in ends:
                return _("the two branches of the river may never be joined"), None
            # Look ahead: the next river tile needs somewhere to go from there.
            ahead = [(nx + DX[k], ny + DY[k]) for k in range(4) if k != (d + 2) % 4]
            if all(c in game.board.cells for c in ahead):
                return _("the river would point at {cell}, from where it could never continue").format(
                    cell=cell(nx, ny)
                ), None
            ends[(nx, ny)] = RiverEnd(b, d)
            new_turns[b] = branch_turns
        return None, RiverState(ends, new_turns, next_branch)

    def _problem(
        self, game: Game, tile: TileType, x: int, y: int, rot: int, stack: list[str] | None = None
    ) -> str | None:
        """Why a river tile may not go there, with ``stack`` the river tiles still to place
        after it (by default the river stack of the game)."""
        problem, change = self._plan(game, tile, x, y, rot)
        if problem is not None:
            return problem
        if stack is None:
            stack = river_stack(game)
        if not stack:
            return None
        assert change is not None
        occupied = {c: info[2][3] for c, info in game.board.cells.items()}
        after = dict(occupied)
        after[(x, y)] = _looks(tile, rot).edges
        if self._completes(after, _ends(change), stack):
            return None
        # If the river cannot be completed anyway (castles walled it in, or an old
        # record), only the tile's own rules apply: place as much of it as fits.
        if self._completes(occupied, _ends(_state(game)), [tile.id, *stack]):
            return _("the rest of the river could then no longer be placed in full")
        return None

    def _completes(self, occupied: dict, ends: tuple[End, ...], stack: list[str]) -> bool:
        key = (frozenset(occupied.items()), ends, tuple(sorted(stack)))
        ok = self._completable.get(key)
        if ok is None:
            ok = self._completable[key] = Completion(occupied, stack).run(ends)
        return ok

    def placement_problem(self, game: Game, tile: TileType, x: int, y: int, rot: int) -> str | None:
        if not is_river(tile.id):
            return None
        return self._problem(game, tile, x, y, rot)

    def checks_placement(self, game: Game, tile: TileType) -> bool:
        return is_river(tile.id)

    def unplaceable(self, game: Game, tile: TileType, events: list[Event]) -> bool:
        """A drawn river tile fits nowhere: it goes back under the other river tiles
        (just before the lake) while another of them could be placed now."""
        if not is_river(tile.id):
            return False
        stack = river_stack(game)
        if not stack or stack[-1] not in LAKES:
            return False
        # The tile that would be placed instead must not be the lake (it stays last),
        # so that this cannot go round for ever: some tile ahead of the returned ones fits.
        if not any(self._placeable(game, TILE_TYPES[t], stack, tile.id) for t in sorted(set(stack[:-1]))):
            return False
        pos = game.bag_pos - 1
        assert game.bag[pos] == tile.id
        del game.bag[pos]
        game.bag_pos = pos
        game.bag.insert(pos + len(stack) - 1, tile.id)
        events.append({"type": "tile_returned", "tile": tile.id, "player": game.players[game.current]})
        return True

    def _placeable(self, game: Game, tile: TileType, stack: list[str], drawn: str) -> bool:
        """Could ``tile`` of the stack be placed now, if drawn instead of ``drawn``?"""
        if tile.id == drawn:
            return False
        rest = list(stack)
        rest.remove(tile.id)
        rest.insert(len(rest) - 1, drawn)
        for (x, y), rots in game.board.fitting_placements(tile).items():
            for rot in rots:
                if self._problem(game, tile, x, y, rot, rest) is None:
                    return True
        return False

    def on_place(self, game: Game, placement: int, events: list[Event]) -> None:
        p = game.board.placements[placement]
        if not is_river(p.tile.id):
            return
        problem, change = self._plan_after(game, p.tile, p.x, p.y, p.rot)
        assert problem is None and change is not None, problem
        game.state["river"] = change
        if self.last_river_tile(game):
            change.extra_turn = game.current
            self._completable.clear()

    def _plan_after(
        self, game: Game, tile: TileType, x: int, y: int, rot: int
    ) -> tuple[str | None, RiverState | None]:
        # The tile is on the board now: plan as if it were not (its own cells are free).
        cells = game.board.cells
        saved = {c: cells.pop(c) for c in [(x + dx, y + dy) for dx, dy in tile.rotations[rot // 90].offsets]}
        try:
            return self._plan(game, tile, x, y, rot)
        finally:
            cells.update(saved)

    def must_draw(self, game: Game) -> bool:
        # No castle (or anything else instead of a tile) while river tiles remain.
        return not self.last_river_tile(game)

    @staticmethod
    def last_river_tile(game: Game) -> bool:
        """No river tile is left to draw. The river tiles come first in the bag (the ``bag``
        hook puts them there, ``check_pool`` refuses a pool that does not, and a returned
        tile goes back among them), so only the next tile needs a look."""
        bag, pos = game.bag, game.bag_pos
        return pos >= len(bag) or not is_river(bag[pos])

    # ------------------------------------------------------------------ the extra turn
    def figure_allowed(self, game: Game) -> bool:
        # Whoever places the last river tile places no figure on it...
        return _state(game).extra_turn is None

    def next_player(self, game: Game) -> int | None:
        # ...and plays a normal turn at once.
        state = _state(game)
        player, state.extra_turn = state.extra_turn, None
        return player
