"""The Ferries (RULES.md, ferries page).

Every road of a lake tile is a stub ending at a jetty. After the figure step on
a new lake tile, the player puts a ferry on it joining two stubs (step
``ferry``). Then, for every road the new tile extended, the first ferry met
along it may be moved once to any pair of its tile (step ``ferry_move``; a
pass ends it). Scoring comes after. A moved ferry can complete a road (it
scores) or reopen one (nothing is taken back); only the roads through the
moved ferries' tiles are rebuilt.

State (``game.state["ferries"]``, a ``FerriesState``): ``at`` (cell -> join such as "E-W"), and
for the turn in progress ``movable`` (cells whose ferry may still move),
``touched`` (stub nodes whose roads changed), ``before`` (the roads among them
that were complete before this turn's changes, so that an unchanged road is not
scored twice) and ``fresh`` (roads this turn's changes completed: a later move
that touches one without changing it must not hide it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

from engine.expansions import Event, Expansion, Move, Step
from engine.expansions.ferries.moves import FerryEvent, FerryMove
from engine.language import N_, _
from engine.moves import BoardFigure, IllegalMove
from engine.tiles import DIRS, DX, DY, TileType
from engine.words import DIRECTION_WORDS, cell, direction, names

if TYPE_CHECKING:
    from engine.game import Game


def _key(x: int, y: int) -> tuple[int, int]:
    return x, y


@dataclass
class FerriesState:
    """Where the ferries are, and what the turn in progress changed (see the module)."""

    at: dict[tuple[int, int], str] = field(default_factory=dict)  # cell -> join, such as "E-W"
    movable: list[tuple[int, int]] = field(default_factory=list)
    touched: list[int] = field(default_factory=list)
    before: list[list[int]] = field(default_factory=list)
    fresh: list[list[int]] = field(default_factory=list)

    def copy(self) -> FerriesState:
        """An independent copy (engine.copying: a look-ahead copies the state for every move it tries)."""
        return FerriesState(
            dict(self.at), list(self.movable), list(self.touched), [list(m) for m in self.before],
            [list(m) for m in self.fresh],
        )  # fmt: skip


def is_lake(tile: TileType) -> bool:
    """A Ferries lake tile (its notation's "lake" mark): its road stubs end at jetties."""
    return "lake" in tile.marks


def _state(game: Game) -> FerriesState:
    return game.state["ferries"]  # type: ignore[no-any-return]


def stubs(game: Game, cell: tuple[int, int]) -> dict[int, int]:
    """Board direction -> road node of each stub of the lake tile on ``cell``."""
    board = game.board
    p = board.placements[board.cells[cell][0]]
    q = p.rot // 90
    return {(seg.edges[0][1] + q) % 4: p.first_node + i for i, seg in enumerate(p.tile.segments) if seg.kind == "road"}


def join_name(a: int, b: int) -> str:
    a, b = sorted((a, b))
    return f"{DIRS[a]}-{DIRS[b]}"


def join_words(join: str) -> str:
    """ "E-W" -> "east and west"."""
    a, b = join.split("-")
    return names([direction(DIRECTION_WORDS[DIRS.index(a)]), direction(DIRECTION_WORDS[DIRS.index(b)])])


def parse_join(text: Any) -> tuple[int, int] | None:
    if not isinstance(text, str) or len(text.split("-")) != 2:
        return None
    a, b = text.upper().split("-")
    if a not in DIRS or b not in DIRS or a == b:
        return None
    return DIRS.index(a), DIRS.index(b)


def _check_ferry(game: Game, move: Move) -> tuple[int, int, tuple[int, int]]:
    x, y = move.get("x"), move.get("y")
    if type(x) is not int or type(y) is not int:
        raise IllegalMove(_('a ferry move needs whole numbers "x" and "y"'))
    pair = parse_join(move.get("join"))
    if pair is None:
        raise IllegalMove(_('"join" names two jetties, such as "E-W"'))
    if (x, y) not in game.board.cells or not is_lake(game.board.placements[game.board.cells[(x, y)][0]].tile):
        raise IllegalMove(_("there is no lake at {cell}").format(cell=cell(x, y)))
    if not set(pair) <= set(stubs(game, (x, y))):
        raise IllegalMove(
            _("the lake at {cell} has no jetty at {join}").format(cell=cell(x, y), join=str(move["join"])[:10])
        )
    return x, y, pair


class PlaceFerry(Step):
    """After the figure step on a new lake tile: put a ferry on it joining two jetties."""

    name = "ferry"
    after = "figure"
    move_types = ("ferry",)

    def asks(self, game: Game) -> bool:
        return game.placement is not None and is_lake(game.board.placements[game.placement].tile)

    def moves(self, game: Game) -> list[Move]:
        p = game.board.placements[game.placement]  # type: ignore[index]
        dirs = sorted(stubs(game, (p.x, p.y)))
        return [{"type": "ferry", "x": p.x, "y": p.y, "join": join_name(a, b)} for a, b in combinations(dirs, 2)]

    def prompt(self, game: Game) -> str:
        return _("put a ferry on the new lake tile")

    def label(self, game: Game, move: Move) -> str:
        return _("ferry joining the {jetties} jetties").format(jetties=join_words(move["join"]))

    def check(self, game: Game, move: Move) -> None:
        p = game.board.placements[game.placement]  # type: ignore[index]
        if (move.get("x"), move.get("y")) != (p.x, p.y):
            raise IllegalMove(
                _("the new ferry goes on the lake tile you just placed, at {cell}").format(cell=cell(p.x, p.y))
            )
        _check_ferry(game, move)

    def play(self, game: Game, move: Move, events: list[Event]) -> bool:
        _set_ferry(game, move, "placed", events)
        return True


class MoveFerries(Step):
    """Then the first ferry on each road the new tile extended may move once."""

    name = "ferry_move"
    after = "ferry"
    move_types = ("ferry",)

    def enter(self, game: Game, events: list[Event]) -> str | None:
        _state(game).movable = first_ferries(game) if game.placement is not None else []
        return None

    def asks(self, game: Game) -> bool:
        return bool(_state(game).movable)

    def moves(self, game: Game) -> list[Move]:
        moves: list[Move] = []
        state = _state(game)
        for key in state.movable:
            x, y = key
            dirs = sorted(stubs(game, (x, y)))
            for a, b in combinations(dirs, 2):
                if join_name(a, b) != state.at[key]:
                    moves.append({"type": "ferry", "x": x, "y": y, "join": join_name(a, b)})
        return moves

    def pass_label(self, game: Game) -> str | None:
        return _("leave the ferries as they are")

    def may_pass(self, game: Game) -> bool:
        return True

    def prompt(self, game: Game) -> str:
        return _("move a ferry on a road you extended, or leave them")

    def label(self, game: Game, move: Move) -> str:
        return _("move the ferry at {cell} to join {jetties}").format(
            cell=cell(move["x"], move["y"]), jetties=join_words(move["join"])
        )

    def check(self, game: Game, move: Move) -> None:
        if move["type"] == "pass":
            return
        x, y, pair = _check_ferry(game, move)
        key = _key(x, y)
        if key not in _state(game).movable:
            raise IllegalMove(
                _("the ferry at {cell} may not move now: only the first ferry on each road you extended").format(
                    cell=cell(x, y)
                )
            )
        if join_name(*pair) == _state(game).at[key]:
            raise IllegalMove(_("the ferry already joins those jetties; pass to leave it"))

    def play(self, game: Game, move: Move, events: list[Event]) -> bool:
        state = _state(game)
        if move["type"] == "pass":
            state.movable = []
            return True
        _set_ferry(game, move, "moved", events)
        state.movable.remove(_key(move["x"], move["y"]))
        return not state.movable


def _set_ferry(game: Game, move: Move, action: str, events: list[Event]) -> None:
    x, y = move["x"], move["y"]
    pair = parse_join(move["join"])
    assert pair is not None
    a, b = pair
    board = game.board
    state = _state(game)
    nodes = stubs(game, (x, y))
    fresh = {tuple(m) for m in state.fresh}
    # Remember which complete roads existed before this turn, so only changed ones score.
    state.before += [m for m in _complete_roads(game, nodes.values()) if tuple(m) not in fresh]
    state.touched += list(nodes.values())
    for n in nodes.values():
        board.ferry_link.pop(n, None)
    board.ferry_link[nodes[a]] = nodes[b]
    board.ferry_link[nodes[b]] = nodes[a]
    board.rebuild_roads(list(nodes.values()))
    state.at[_key(x, y)] = join_name(a, b)
    # Roads this change completed: a later move of the turn that leaves one as it is keeps it scoring.
    before = {tuple(m) for m in state.before}
    state.fresh += [m for m in _complete_roads(game, nodes.values()) if tuple(m) not in before]
    events.append(
        {
            "type": "ferry",
            "action": action,
            "player": game.players[game.current],
            "x": x,
            "y": y,
            "join": join_name(a, b),
        }
    )


def _complete_roads(game: Game, nodes: Any) -> list[list[int]]:
    """The members of each complete road through these nodes (sorted node ids)."""
    board = game.board
    roots = {board.find(n) for n in nodes}
    return [sorted(board.members(r)) for r in sorted(roots) if board.open[r] == 0]


def first_ferries(game: Game) -> list[tuple[int, int]]:
    """Cells of the first ferry met on each road the new tile extended."""
    return Ferries.first_ferries(game)


class Ferries(Expansion):
    name = "ferries"
    sets = ("ferries",)
    tile_marks = ("lake",)
    state_types = (FerriesState,)
    titles = {"ferries": N_("The Ferries")}
    event_types = ("ferry",)
    event_shapes = {"ferry": FerryEvent}
    move_shapes = {"ferry": FerryMove}

    def setup(self, game: Game, rng: Any, options: dict[str, Any]) -> None:
        game.state["ferries"] = FerriesState()

    def board_figures(self, game: Game) -> list[BoardFigure]:
        """Each ferry on its lake: the cell, and the two jetties it joins ("N-S")."""
        out = []
        for key, join in _state(game).at.items():
            x, y = key
            out.append(BoardFigure("ferry", ((x, y),), None, (x, y, join)))
        return out

    def steps(self) -> list[Step]:
        return [PlaceFerry(), MoveFerries()]

    @staticmethod
    def describe(event: Event) -> str | None:
        where, jetties = cell(event["x"], event["y"]), join_words(event["join"])
        if event["action"] == "placed":
            return _("{player} put a ferry on the lake at {cell}, joining the {jetties} jetties.").format(
                player=event["player"], cell=where, jetties=jetties
            )
        return _("{player} moved the ferry at {cell} to join the {jetties} jetties.").format(
            player=event["player"], cell=where, jetties=jetties
        )

    # ------------------------------------------------------------------ roads
    @staticmethod
    def first_ferries(game: Game) -> list[tuple[int, int]]:
        """Cells of the first ferry met on each road the new tile extended."""
        if not _state(game).at:
            return []  # no ferry on the board yet: none to meet
        board = game.board
        p = board.placements[game.placement]  # type: ignore[index]
        own = set(p.cells)
        found: list[tuple[int, int]] = []
        rt = p.tile.rotations[p.rot // 90]
        for seg in p.tile.segments:
            if seg.kind != "road":
                continue
            for ci, d in seg.edges:
                d = (d + p.rot // 90) % 4
                cx, cy = p.x + rt.offsets[ci][0], p.y + rt.offsets[ci][1]
                hit = Ferries._walk(game, (cx + DX[d], cy + DY[d]), (d + 2) % 4, own)
                if hit and hit not in found:
                    found.append(hit)
        return found

    @staticmethod
    def _walk(game: Game, cell: tuple[int, int], entry: int, own: set[tuple[int, int]]) -> tuple[int, int] | None:
        """Follow a road from ``cell`` (entered through its edge ``entry``); the first ferry's cell."""
        board = game.board
        ferries = _state(game).at
        seen: set[tuple[int, int, int]] = set()
        while cell in board.cells and cell not in own and (cell[0], cell[1], entry) not in seen:
            seen.add((cell[0], cell[1], entry))
            pidx, first, info = board.cells[cell]
            node = first + info[4][entry]
            p = board.placements[pidx]
            q = p.rot // 90
            seg = p.tile.segments[node - p.first_node]
            if is_lake(p.tile):
                return _key(*cell) if _key(*cell) in ferries and node in board.ferry_link else None
            exits = [((d + q) % 4, ci) for ci, d in seg.edges if not (ci == info[2] and (d + q) % 4 == entry)]
            if not exits:
                return None  # the road ends here (village, city, cloister, castle)
            d, ci = exits[0]
            dx, dy = p.tile.rotations[q].offsets[ci]
            x0, y0 = p.x + dx, p.y + dy
            cell, entry = (x0 + DX[d], y0 + DY[d]), (d + 2) % 4
        return None

    # ------------------------------------------------------------------ scoring
    def completed_roots(self, game: Game) -> list[int]:
        board = game.board
        state = _state(game)
        before = {tuple(m) for m in state.before}
        out = []
        for n in state.touched:
            root = board.find(n)
            if root in out or board.open[root] != 0:
                continue
            if tuple(sorted(board.members(root))) not in before:
                out.append(root)
        return out

    def end_of_turn(self, game: Game, events: list[Event]) -> None:
        state = _state(game)
        state.movable, state.touched, state.before, state.fresh = [], [], [], []
