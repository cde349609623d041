"""The Tollkeepers: tollhouses on villages collect from the roads that end there.

State (``game.state["toll"]``, a ``TollState``): player index -> the ``House`` of their
tollhouse once placed, and the tollhouses that collected for travellers this
turn (they flip at the end of the turn, so every road of one turn uses the
value the tollhouse had when the turn started).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.expansions import Event, Expansion, FigureOption, Move
from engine.expansions.toll.moves import TollEvent, TollMove
from engine.language import N_, _, ngettext
from engine.moves import BoardFigure, IllegalMove
from engine.words import cell

if TYPE_CHECKING:
    from engine.game import Game

DECORATIONS = ("farmhouse", "stable", "garden", "highwayman")


@dataclass
class House:
    """A player's tollhouse: the village it stands on, and its value (1 or 2)."""

    x: int
    y: int
    value: int


@dataclass
class TollState:
    """Each player's tollhouse once placed, and the tollhouses that collected for travellers this
    turn (they flip at its end)."""

    houses: dict[int, House] = field(default_factory=dict)
    flip: list[int] = field(default_factory=list)

    def copy(self) -> TollState:
        """An independent copy (engine.copying: a look-ahead copies the state for every move it tries)."""
        return TollState({p: House(h.x, h.y, h.value) for p, h in self.houses.items()}, list(self.flip))


def _state(game: Game) -> TollState:
    state = game.state.get("toll")
    if state is None:  # (not setdefault: that would build a new state at every call)
        state = game.state["toll"] = TollState()
    return state  # type: ignore[no-any-return]


def village_cells(game: Game) -> list[tuple[int, int]]:
    """The cells of the village tiles placed so far, in placement order."""
    # Asked whenever the figure step has no follower to offer: the list is kept in the game's
    # scratch and only the placements made since it was last asked are looked at.
    placements = game.board.placements
    seen, cells = game.scratch.get("toll villages", (0, ()))
    if seen < len(placements):
        cells += tuple((p.x, p.y) for p in placements[seen:] if p.tile.village)
        game.scratch["toll villages"] = (len(placements), cells)
    return list(cells)


def village_roads(game: Game, cell: tuple[int, int]) -> list[int]:
    """Road nodes of the stubs that end at the village on ``cell``."""
    board = game.board
    p = board.placements[board.cells[cell][0]]
    return [p.first_node + i for i, s in enumerate(p.tile.segments) if s.kind == "road"]


def road_sights(game: Game, root: int) -> tuple[int, int]:
    """(decorations, travellers groups) beside the road's own segments."""
    decorations = travellers = 0
    for n in game.board.members(root):
        for name in game.board.segment_of(n).decorations:
            if name == "travellers":
                travellers += 1
            elif name in DECORATIONS:
                decorations += 1
    return decorations, travellers


class Tollhouse(FigureOption):
    """Instead of a follower: put the tollhouse on a free village, or move it there."""

    move_types = ("toll",)

    def owns(self, move: Move) -> bool:
        return move["type"] == "toll"

    def moves(self, game: Game) -> list[Move]:
        houses = _state(game).houses
        taken = {(h.x, h.y) for h in houses.values()}
        return [{"type": "toll", "x": x, "y": y} for x, y in village_cells(game) if (x, y) not in taken]

    def label(self, game: Game, move: Move) -> str:
        house = _state(game).houses.get(game.current)
        where = cell(move["x"], move["y"])
        if house is None:
            return _("tollhouse on the village at {cell}").format(cell=where)
        return _("move your tollhouse (value {value}) to the village at {cell}").format(
            value=house.value, cell=where
        )

    def check(self, game: Game, move: Move) -> None:
        x, y = move.get("x"), move.get("y")
        if type(x) is not int or type(y) is not int:
            raise IllegalMove(_('a toll move needs whole numbers "x" and "y"'))
        placed = game.board.cells.get((x, y))
        if placed is None or not game.board.placements[placed[0]].tile.village:
            raise IllegalMove(_("there is no village at {cell}").format(cell=cell(x, y)))
        for owner, house in _state(game).houses.items():
            if (house.x, house.y) == (x, y):
                if owner == game.current:
                    raise IllegalMove(
                        _("your tollhouse already stands on the village at {cell}").format(cell=cell(x, y))
                    )
                raise IllegalMove(
                    _("{player}'s tollhouse already stands on the village at {cell}").format(
                        player=game.players[owner], cell=cell(x, y)
                    )
                )

    def play(self, game: Game, move: Move, events: list[Event]) -> None:
        houses = _state(game).houses
        house = houses.get(game.current)
        moved = house is not None
        value = house.value if house else 1
        houses[game.current] = House(move["x"], move["y"], value)
        events.append(
            {
                "type": "toll",
                "action": "moved" if moved else "placed",
                "player": game.players[game.current],
                "x": move["x"],
                "y": move["y"],
                "value": value,
            }
        )


class Tollkeepers(Expansion):
    name = "toll"
    sets = ("toll",)
    state_types = (TollState, House)
    titles = {"toll": N_("The Tollkeepers")}
    event_types = ("toll",)
    event_shapes = {"toll": TollEvent}
    move_shapes = {"toll": TollMove}

    def figure_options(self) -> list[FigureOption]:
        return [Tollhouse()]

    def board_figures(self, game: Game) -> list[BoardFigure]:
        """Each player's tollhouse on its village, with its value."""
        state = game.state.get("toll")  # (read only: none placed yet, no state yet)
        houses = state.houses if state is not None else {}
        return [BoardFigure("toll", ((h.x, h.y),), player, (h.x, h.y, h.value)) for player, h in houses.items()]

    @staticmethod
    def describe(event: Event) -> str | None:
        action, who = event["action"], event["player"]
        where = cell(event["x"], event["y"]) if "x" in event else ""
        if action == "placed":
            return _("{player} placed their tollhouse (value {value}) on the village at {cell}.").format(
                player=who, value=event["value"], cell=where
            )
        if action == "moved":
            return _("{player} moved their tollhouse (value {value}) to the village at {cell}.").format(
                player=who, value=event["value"], cell=where
            )
        if action == "collected":
            if not event["points"]:
                return _("{player}'s tollhouse at {cell} collects nothing (no decoration on the road).").format(
                    player=who, cell=where
                )
            return ngettext(
                "{player}'s tollhouse at {cell} collects {n} point.",
                "{player}'s tollhouse at {cell} collects {n} points.",
                event["points"],
            ).format(player=who, cell=where, n=event["points"])
        if action == "flipped":
            return _("{player}'s tollhouse turns to value {value} (it collected from travellers).").format(
                player=who, value=event["value"]
            )
        if action == "final":
            return ngettext(
                "Final scoring: {player}'s tollhouse collects {n} point.",
                "Final scoring: {player}'s tollhouse collects {n} points.",
                event["points"],
            ).format(player=who, n=event["points"])
        return None

    def on_completed(self, game: Game, root: int, events: list[Event]) -> None:
        if game.board.kind[root] != "road":
            return
        state = _state(game)
        for owner, house in sorted(state.houses.items()):
            if not any(game.board.find(n) == root for n in village_roads(game, (house.x, house.y))):
                continue
            decorations, travellers = road_sights(game, root)
            value = house.value
            points = value * decorations + 3 * value * travellers
            game.scores[owner] += points
            if travellers and owner not in state.flip:
                state.flip.append(owner)
            events.append(
                {
                    "type": "toll",
                    "action": "collected",
                    "player": game.players[owner],
                    "x": house.x,
                    "y": house.y,
                    "value": value,
                    "points": points,
                }
            )

    def end_of_turn(self, game: Game, events: list[Event]) -> None:
        state = _state(game)
        for owner in state.flip:
            house = state.houses[owner]
            house.value = 3 - house.value
            events.append({"type": "toll", "action": "flipped", "player": game.players[owner], "value": house.value})
        state.flip = []

    def final_scoring(self, game: Game, events: list[Event]) -> None:
        board = game.board
        for owner, house in sorted(_state(game).houses.items()):
            roots = {board.find(n) for n in village_roads(game, (house.x, house.y))}
            points = 0
            for root in roots:
                if board.open[root] > 0:
                    points += sum(road_sights(game, root))
            game.scores[owner] += points
            events.append(
                {
                    "type": "toll",
                    "action": "final",
                    "player": game.players[owner],
                    "x": house.x,
                    "y": house.y,
                    "points": points,
                }
            )
