"""The Wheel of Fortune (RULES.md, wheel page).

State (``game.state["wheel"]``, a ``WheelState``): ``pig`` (index of the sector it stands on),
``crowns`` (sector -> players on its crown spaces, None for a free space) and,
during a plague, ``plague`` (the players still to give up a follower, in order).

A drawn tile with an icon moves the pig, runs the sector's event, scores the
sector's crown spaces and only then is placed (or, fitting nowhere, removed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.expansions import Event, Expansion, FigureOption, Move, Step
from engine.expansions.registry import figure_kind
from engine.expansions.wheel.moves import PlagueEvent, RemoveMove, WheelEvent, WheelSectorEvent
from engine.expansions.wheel.tiles import CROWN_SPACES, SECTORS, START
from engine.language import N_, _, ngettext
from engine.moves import OFF_TILE, BoardFigure, IllegalMove
from engine.words import cell, role

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType


@dataclass
class WheelState:
    """The pig's sector, the followers on each sector's crown spaces, and the players the plague
    still asks (in turn order; empty when no plague is being played)."""

    pig: int
    crowns: dict[str, list[int | None]]
    plague: list[int] = field(default_factory=list)
    #: (sector, space) of the crown spaces held by a follower of another kind than the plain one (a big
    #: follower: it takes one space and scores like a follower); immutable, so older snapshots read ()
    kinds_on_crowns: tuple[tuple[str, int, str], ...] = ()

    def copy(self) -> WheelState:
        """An independent copy (engine.copying: a look-ahead copies the state for every move it tries)."""
        crowns = {sector: list(spaces) for sector, spaces in self.crowns.items()}
        return WheelState(self.pig, crowns, list(self.plague), self.kinds_on_crowns)


def _state(game: Game) -> WheelState:
    return game.state["wheel"]  # type: ignore[no-any-return]


SECTOR_NAMES = {
    "fortune": N_("Fortune"),
    "taxes": N_("Taxes"),
    "famine": N_("Famine"),
    "storm": N_("Storm"),
    "inquisition": N_("Inquisition"),
    "plague": N_("Plague"),
}
SECTOR_EFFECTS = {
    "fortune": N_("the player who drew the tile scores 3"),
    "taxes": N_("each knight scores its city's pennants plus its owner's knights there"),
    "famine": N_("each farmer scores 1 per completed city its field touches"),
    "storm": N_("each player scores 1 per follower in supply"),
    "inquisition": N_("each player scores 2 per monk on the board"),
    "plague": N_("each player with followers on the land sends one home"),
}


def sector_name(sector: str) -> str:
    """A wheel sector's name in the current language."""
    return _(SECTOR_NAMES[sector]) if sector in SECTOR_NAMES else sector.capitalize()


def sector_effect(sector: str) -> str:
    """What a sector's event does, in the current language."""
    effect = SECTOR_EFFECTS.get(sector)
    return _(effect) if effect else ""


def land_followers(game: Game, player: int) -> list[int]:
    """Nodes where the player has a follower on a land tile (not on a crown space)."""
    board = game.board
    out = []
    for root in board.figure_roots():
        out += [f[1] for f in board.followers[root] or () if f[0] == player and game.is_follower(f)]
    return sorted(out)


class Plague(Step):
    """The plague: each player with followers on the land, in turn, sends one home."""

    name = "plague"
    after = "deal"
    move_types = ("remove",)

    def asks(self, game: Game) -> bool:
        return bool(_state(game).plague)

    def actor(self, game: Game) -> int:
        return _state(game).plague[0]

    def moves(self, game: Game) -> list[Move]:
        player = self.actor(game)
        return [
            {"type": "remove", "player": game.players[player], **game.describe_node(node)}
            for node in land_followers(game, player)
        ]

    def prompt(self, game: Game) -> str:
        return _("send one of your followers home (the plague)")

    def label(self, game: Game, move: Move) -> str:
        node = game.node_at(move["x"], move["y"], move["at"])
        return _("send home your {role} on {feature}").format(
            role=role(game.board.kind[node]), feature=game.node_phrase(node)
        )

    def _node(self, game: Game, move: Move) -> int:
        at = move.get("at")
        if not isinstance(at, str):
            raise IllegalMove(_('a remove move needs "at", e.g. "road:E", and the cell "x", "y"'))
        node = game.node_at(move.get("x"), move.get("y"), at)
        player = self.actor(game)
        mine = land_followers(game, player)
        if node in mine:
            return node
        # Any name of the follower's own segment is fine: match the segment, not the name.
        board = game.board
        segment = (board.node_place[node], node - board.placement_of(node).first_node)
        for n in mine:
            if (board.node_place[n], n - board.placement_of(n).first_node) == segment:
                return n
        where = ", ".join(game.node_phrase(n) for n in mine)
        raise IllegalMove(
            _("{player} must send home one of their followers: {where}").format(
                player=game.players[player], where=where
            )
        )

    def check(self, game: Game, move: Move) -> None:
        self._node(game, move)

    def play(self, game: Game, move: Move, events: list[Event]) -> bool:
        node = self._node(game, move)
        state = _state(game)
        player = state.plague[0]
        board = game.board
        figure = next(f for f in board.followers[board.find(node)] or () if f[0] == player and f[1] == node)
        board.remove_figure(figure)
        game.return_figure(figure)
        events.append({"type": "plague", "player": game.players[player], **game.describe_node(node)})
        state.plague.pop(0)
        if state.plague:
            return False
        _score_crowns(game, "plague", events)
        return True


class CrownSpace(FigureOption):
    """Instead of a follower on the new tile: a follower on a free crown space."""

    move_types = ("meeple",)
    tags = frozenset({OFF_TILE})  # on the wheel, not on the placed tile: not numbered among its spots

    def owns(self, move: Move) -> bool:
        at = move.get("at")
        return move["type"] == "meeple" and isinstance(at, str) and at.startswith("crown:")

    def moves(self, game: Game) -> list[Move]:
        crowns = _state(game).crowns
        free = [s for s in SECTORS if None in crowns.get(s, [])]
        moves: list[Move] = []
        if game.supply[game.current] > 0:
            moves += [{"type": "meeple", "at": f"crown:{s}"} for s in free]
        for kind in _other_followers(game):  # any follower may take a crown space (a big follower)
            moves += [{"type": "meeple", "at": f"crown:{s}", "figure": kind} for s in free]
        return moves

    def label(self, game: Game, move: Move) -> str:
        sector = move["at"].split(":", 1)[1]
        spaces = _state(game).crowns.get(sector, [])
        free = sum(1 for p in spaces if p is None)
        kind = game.figure_kinds.get(move.get("figure", "follower"))
        if kind is not None and kind.name != "follower":
            return ngettext(
                # Not "{figure} on the {sector} crown": a plain follower's option would read as part of it
                # (/carc place matches an option by words of its label).
                "{figure} on a crown space of {sector} on the wheel ({n} free space)",
                "{figure} on a crown space of {sector} on the wheel ({n} free spaces)",
                free,
            ).format(figure=_(kind.noun), sector=sector_name(sector), n=free)
        return ngettext(
            "follower on the {sector} crown of the wheel ({n} free space)",
            "follower on the {sector} crown of the wheel ({n} free spaces)",
            free,
        ).format(sector=sector_name(sector), n=free)

    def check(self, game: Game, move: Move) -> None:
        sector = move["at"].split(":", 1)[1]
        spaces = _state(game).crowns.get(sector)
        if spaces is None:
            raise IllegalMove(_("the wheel has no crown space in {sector!r}").format(sector=sector[:20]))
        figure = move.get("figure", "follower")
        if figure != "follower" and figure not in _other_followers(game, in_hand=False):
            raise IllegalMove(
                _("only a follower may take a crown space, not {figure!r}").format(figure=str(figure)[:40])
            )
        if game.in_hand(game.current, figure) == 0:
            raise IllegalMove(_("you have no follower left in your supply"))
        if None not in spaces:
            raise IllegalMove(_("the crown spaces of {sector} are taken").format(sector=sector_name(sector)))

    def play(self, game: Game, move: Move, events: list[Event]) -> None:
        sector = move["at"].split(":", 1)[1]
        state = _state(game)
        spaces = state.crowns[sector]
        space = spaces.index(None)
        spaces[space] = game.current
        figure = move.get("figure", "follower")
        game.take_figure(game.current, figure)
        event: Event = {"type": "meeple_placed", "player": game.players[game.current], "at": move["at"]}
        if figure != "follower":
            state.kinds_on_crowns = (*state.kinds_on_crowns, (sector, space, figure))
            event["figure"] = figure
        events.append(event)


def _other_followers(game: Game, in_hand: bool = True) -> list[str]:
    """The kinds of follower other than the plain one (a big follower) the player to move has in hand."""
    return [k.name for k in game._extra_kinds if k.follower and (not in_hand or game.in_hand(game.current, k.name))]


def _score_crowns(game: Game, sector: str, events: list[Event]) -> None:
    spaces = _state(game).crowns.get(sector)
    if not spaces:
        return
    standing = [p for p in spaces if p is not None]
    if not standing:
        return
    each = 3 if len(spaces) == 1 or len(standing) == 2 else 6
    points: dict[str, int] = {}
    state = _state(game)
    kinds = {space: kind for s, space, kind in state.kinds_on_crowns if s == sector}
    for space, player in enumerate(spaces):
        if player is None:
            continue
        game.scores[player] += each
        game.return_figure((player, -1, kinds.get(space, "follower")))  # a crown space is no node
        points[game.players[player]] = points.get(game.players[player], 0) + each
    state.crowns[sector] = [None] * len(spaces)
    if kinds:
        state.kinds_on_crowns = tuple(k for k in state.kinds_on_crowns if k[0] != sector)
    events.append({"type": "scored", "feature": "crown", "sector": sector, "points": points, "final": False})


class Wheel(Expansion):
    name = "wheel"
    sets = ("wheel",)
    state_types = (WheelState,)

    @staticmethod
    def name_tile(tile: TileType, name: str) -> str:
        if not tile.number:
            return name
        return _("{tile} (wheel icon {n})").format(tile=name, n=tile.number)

    titles = {"wheel": N_("The Wheel of Fortune")}
    land_tiles = True
    setup_tiles = (START,)
    event_types = ("wheel", "wheel_event", "plague")
    event_shapes = {"wheel": WheelEvent, "wheel_event": WheelSectorEvent, "plague": PlagueEvent}
    move_shapes = {"remove": RemoveMove}
    scored_features = {"crown": N_("a crown of the wheel")}
    figure_places = ("crown",)

    @classmethod
    def conflict(cls, sets: list[str]) -> str | None:
        if "wheel" in sets and ("river1" in sets or "river2" in sets):
            return _("The Wheel of Fortune cannot be combined with a river: both need to be the start tile")
        return None

    def steps(self) -> list[Step]:
        return [Plague()]

    def figure_options(self) -> list[FigureOption]:
        return [CrownSpace()]

    @staticmethod
    def describe(event: Event) -> str | None:
        kind = event["type"]
        if kind == "wheel":
            sector = sector_name(event["sector"])
            return ngettext(
                "The pig moves {n} sector to {sector} ({player}'s tile): {effect}.",
                "The pig moves {n} sectors to {sector} ({player}'s tile): {effect}.",
                event["steps"],
            ).format(
                n=event["steps"], sector=sector, player=event["player"],
                effect=sector_effect(event["sector"]),
            )  # fmt: skip
        if kind == "wheel_event":
            points = event["points"]
            gains = ", ".join(f"{n} +{p}" for n, p in points.items()) if points else _("nobody scores")
            return _("{sector}: {gains}.").format(sector=sector_name(event["sector"]), gains=gains)
        if kind == "meeple_placed":  # on a crown space (figure_places)
            figure = figure_kind(event["figure"]) if "figure" in event else None
            if figure is not None:
                return _("{player} put their {figure} on the {sector} crown of the wheel.").format(
                    player=event["player"], figure=_(figure.noun), sector=sector_name(event["at"].partition(":")[2])
                )
            return _("{player} put a follower on the {sector} crown of the wheel.").format(
                player=event["player"], sector=sector_name(event["at"].partition(":")[2])
            )
        if kind == "plague":
            feature = event["at"].split(":")[0]
            return _("The plague: {player} sends home their {role} at {cell}.").format(
                player=event["player"], role=role(feature), cell=cell(event["x"], event["y"])
            )
        return None

    def start_tile(self, game: Game) -> str | None:
        return START

    def set_tiles(self, game: Game, set_name: str, tiles: list[TileType]) -> list[TileType]:
        if set_name == "wheel" and "base" in game.sets:
            return [t for t in tiles if t.number]  # with the base game: only the icon tiles
        return tiles

    def setup(self, game: Game, rng: Any, options: dict[str, Any]) -> None:
        game.state["wheel"] = WheelState(0, {s: [None] * n for s, n in CROWN_SPACES.items() if n})

    def board_figures(self, game: Game) -> list[BoardFigure]:
        """The pig on its sector, and the followers on each sector's crown spaces (drawn over the
        wheel tile, whose cell is the top-left of its 4x4 footprint)."""
        start = next(p for p in game.board.placements if p.tile.id == START)
        footprint = tuple(start.cells)
        state = _state(game)
        out = [BoardFigure("pig", footprint, None, (start.x, start.y, state.pig))]
        for name, spaces in state.crowns.items():
            out.append(BoardFigure("crowns", footprint, None, (start.x, start.y, SECTORS.index(name), tuple(spaces))))
        return out

    # ------------------------------------------------------------------ the pig
    def on_draw(self, game: Game, tile: TileType, events: list[Event]) -> None:
        if not tile.number:
            return
        state = _state(game)
        state.pig = (state.pig + tile.number) % len(SECTORS)
        sector = SECTORS[state.pig]
        events.append({"type": "wheel", "sector": sector, "steps": tile.number, "player": game.player_name})
        if sector == "plague":
            order = [(game.current + k) % len(game.players) for k in range(len(game.players))]
            state.plague = [p for p in order if land_followers(game, p)]
            if state.plague:
                return  # the plague step asks each of them; the crowns score after it
        else:
            self._event(game, sector, events)
        _score_crowns(game, sector, events)

    def _event(self, game: Game, sector: str, events: list[Event]) -> None:
        board = game.board
        gained = [0] * len(game.players)
        if sector == "fortune":
            gained[game.current] = 3
        elif sector == "storm":
            gained = [game.followers_in_hand(p) for p in range(len(game.players))]
        else:
            for root in board.figure_roots():
                figures = board.followers[root] or []
                # Only followers count (a big follower once); a builder or a pig is none.
                standing = [f for f in figures if game.is_follower(f)]
                kind = board.kind[root]
                if sector == "taxes" and kind == "city":
                    for player, *_unused in standing:
                        mine = sum(1 for f in standing if f[0] == player)
                        gained[player] += board.pennants[root] + mine
                elif sector == "famine" and kind == "field":
                    cities = sum(1 for c in board.cities_of_field(root) if board.open[c] == 0)
                    # What an expansion adds to the field's final value for a player (a pig: 1 more per
                    # city) each of their farmers gains here too (RULES.md: the pig at Famine).
                    plain = game.feature_points(root, True) if cities else 0
                    for player, *_unused in standing:
                        more = game.feature_value(root, True, player) - plain if plain else 0
                        gained[player] += cities + more
                elif sector == "inquisition" and kind == "cloister":
                    for player, *_unused in standing:
                        gained[player] += 2
        for player, points in enumerate(gained):
            game.scores[player] += points
        events.append(
            {
                "type": "wheel_event",
                "sector": sector,
                "points": {game.players[p]: n for p, n in enumerate(gained) if n},
            }
        )
