"""Expansions plug into the game through declared steps and these hooks.

An expansion declares which sets it serves and how they combine, the steps it
inserts into the turn (``steps``: each names the step it follows), the extra
figures it offers in the figure step (``figure_options``), and overrides the
hooks it needs. The core calls only the hooks an expansion overrides, so a base
game pays nothing for the expansions it does not use, and the core never asks
which sets are on. Whoever emits an event also words it (``describe``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine._compiled import mypyc_attr
from engine.figures import FigureKind
from engine.moves import BoardFigure, Event, HeldItem, Move
from engine.steps import FigureOption, Step

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType

__all__ = [
    "Expansion", "Event", "Move", "HOOKS", "overridden", "Step", "FigureOption", "BoardFigure", "LobbyOption",
    "SeatPick", "HeldItem",
]  # fmt: skip


@dataclass(frozen=True)
class SeatPick:
    """What each player picks in the lobby while an option has the value ``when`` (castle hands)."""

    when: str  # the option's value under which the players pick ("chosen")
    key: str  # where the lobby keeps the picks, user id -> values ("castle_choices")
    prompt: str  # the lobby menu's placeholder (a message to translate: "Your castles")
    choices: Callable[[], list[str]]  # the values a player may pick (castle ids)
    label: Callable[[str], str]  # how a value reads for players (its tile's name)
    most: int  # at most this many each; the exact count is checked at the start
    distinct: bool = True  # no two players pick the same value


@dataclass(frozen=True)
class LobbyOption:
    """A choice an expansion offers in the lobby: the service validates it, front ends render it
    generically (a menu, a field of the lobby message), and ``Expansion.game_options`` turns it into
    the game's keyword options."""

    name: str  # kept in the lobby's options under this key
    title: str  # a message to translate ("Castles")
    choices: tuple[tuple[str, str], ...]  # (value, what it means: a message to translate)
    default: str
    pick: SeatPick | None = None


@mypyc_attr(allow_interpreted_subclasses=True)  # (an expansion outside the package subclasses it)
class Expansion:
    """Base class: every hook does nothing. Override what the expansion needs."""

    name: ClassVar[str] = ""
    #: the sets this expansion serves (several sets may share one expansion)
    sets: ClassVar[tuple[str, ...]] = ()
    #: each set's title for players (a message to translate: N_("The Ferries"))
    titles: ClassVar[dict[str, str]] = {}
    #: True if its sets bring land tiles enough to play without the base game
    land_tiles: ClassVar[bool] = False
    #: tiles of its sets that only ever start the game (never in the bag)
    setup_tiles: ClassVar[tuple[str, ...]] = ()
    #: keyword options of ``Game(...)`` (and record fields) this expansion reads
    options: ClassVar[tuple[str, ...]] = ()
    #: event types this expansion emits (and words in ``describe``)
    event_types: ClassVar[tuple[str, ...]] = ()
    #: the TypedDict declaring each of its own event types' fields (as engine.moves.EVENT_TYPES does
    #: for the base game's): ``registry.event_shapes`` collects them
    event_shapes: ClassVar[dict[str, type]] = {}
    #: the TypedDict declaring each of its own move types' fields (the moves its steps and figure
    #: options answer, as engine.moves.MOVE_TYPES does for the base game's): ``registry.move_shapes``
    #: collects them, and the service refuses a move of any other type before the engine sees it
    move_shapes: ClassVar[dict[str, type]] = {}
    #: its own kinds of "scored" features -> what they are called in a scoring line (a message to
    #: translate, e.g. N_("the crown spaces of the wheel"))
    scored_features: ClassVar[dict[str, str]] = {}
    #: the marks of the tile notation it reads (bare words such as "lake", kept in ``TileType.marks``)
    tile_marks: ClassVar[tuple[str, ...]] = ()
    #: the classes of its state in ``game.state[name]`` (dataclasses of plain values: a snapshot
    #: may hold them; ``engine.copying.copy_plain`` copies them for look-ahead: no two places of a state
    #: share one mutable object)
    state_types: ClassVar[tuple[type, ...]] = ()
    #: what it asks in the lobby (``LobbyOption``); ``game_options`` reads the answers
    lobby_options: ClassVar[tuple[LobbyOption, ...]] = ()
    #: the tiles of its sets that the catalog does not hold (an expansion outside ``engine``): set
    #: name -> its rows in the TILES.md notation, (id, count, edges, features[, cells, icon])
    tile_rows: ClassVar[dict[str, list[tuple[Any, ...]]]] = {}
    #: places its figure options put a figure off the board (a move's ``at`` before ":", e.g. "crown"):
    #: its ``describe`` words the "meeple_placed" events of those places
    figure_places: ClassVar[tuple[str, ...]] = ()
    #: the kinds of figure it gives each player besides the followers (a big follower, a builder, a pig)
    figure_kinds: ClassVar[tuple[FigureKind, ...]] = ()
    #: the marks of road and city segments it reads (``road{S} inn``, ``city{N,W} wine``: ``Segment.marks``)
    segment_marks: ClassVar[tuple[str, ...]] = ()
    #: True if its ``value`` depends on which player asks (a pig helps only its owner)
    value_per_player: ClassVar[bool] = False
    #: the feature kinds whose value its ``value`` and ``bonus`` may change ("road", "city"...; empty: any
    #: kind): valuing a feature of another kind skips them (the computers value every feature with a
    #: figure in every position they judge)
    scored_kinds: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def conflict(cls, sets: list[str]) -> str | None:
        """Why these sets cannot be played together, or None."""
        return None

    @staticmethod
    def name_tile(tile: TileType, name: str) -> str:
        """How a tile of its sets is named for players, given the name the core makes of its
        geometry (the wheel adds its icon's number)."""
        return name

    @classmethod
    def game_options(
        cls, chosen: dict[str, str], picks: dict[str, dict[str, list[str]]], seats: list[tuple[str, bool]], seed: int
    ) -> dict[str, Any]:
        """The ``Game(...)`` keyword options from the lobby: ``chosen`` its options' values, ``picks``
        each ``SeatPick``'s values by player name, ``seats`` (player name, is a computer) in seat
        order. Raise BadSetup (its message says what is awaited) while the lobby is not ready."""
        return {}

    # --- the turn
    def steps(self) -> list[Step]:
        """The steps this expansion inserts into the turn."""
        return []

    def figure_options(self) -> list[FigureOption]:
        """Figures offered in the figure step besides a follower on the new tile."""
        return []

    @staticmethod
    def describe(event: Event) -> str | None:
        """One line for one of ``event_types``, for players."""
        return None

    # --- setup
    def start_tile(self, game: Game) -> str | None:
        """The tile this expansion starts the game with, if any."""
        return None

    def set_tiles(self, game: Game, set_name: str, tiles: list[TileType]) -> list[TileType]:
        """Which tiles of a set go into the bag with the other chosen sets."""
        return tiles

    def bag(self, game: Game, bag: list[str], rng: random.Random) -> list[str]:
        """Adjust the shuffled bag (add, remove or reorder tiles)."""
        return bag

    def check_pool(self, game: Game, pool: list[str]) -> None:
        """Raise BadSetup if an explicit pool (a record's draw order) breaks this set's rules."""

    def setup(self, game: Game, rng: random.Random, options: dict[str, Any]) -> None:
        """Extra state once the board and bag exist (hands, the wheel's pig...)."""

    # --- turn
    def on_draw(self, game: Game, tile: TileType, events: list[Event]) -> None:
        """A tile was drawn (before it is placed: the wheel's pig moves then)."""

    def must_draw(self, game: Game) -> bool:
        """True while the player to move has no alternative to drawing (the river phase)."""
        return False

    def unplaceable(self, game: Game, tile: TileType, events: list[Event]) -> bool:
        """The drawn tile fits nowhere: True if the expansion put it back into the bag
        (another tile is then drawn); False lets the core remove it from the game."""
        return False

    def placement_problem(self, game: Game, tile: TileType, x: int, y: int, rot: int) -> str | None:
        """Why an edge-legal placement is still forbidden, or None."""
        return None

    def checks_placement(self, game: Game, tile: TileType) -> bool:
        """Whether ``placement_problem`` may object to some place of ``tile`` now: False spares asking
        it for every place tried when the legal placements are listed (the river's rules concern
        river tiles only)."""
        return True

    def on_place(self, game: Game, placement: int, events: list[Event]) -> None:
        """A tile (or castle) was just placed."""

    def figure_allowed(self, game: Game) -> bool:
        """False forbids any figure (follower, tollhouse...) this turn."""
        return True

    def completed_roots(self, game: Game) -> list[int]:
        """Extra features to check for completion this turn (e.g. after a ferry move)."""
        return []

    def on_completed(self, game: Game, root: int, events: list[Event]) -> None:
        """A road or city was completed this turn (with or without followers)."""

    def value(self, game: Game, root: int, final: bool, points: int, player: int | None) -> int:
        """A feature's value given what it is worth so far (the core's count, then the expansions'
        before this one): an inn road unfinished at the end is worth 0, a completed one 2 per tile.
        ``player`` is who asks (None: any majority player)."""
        return points

    def bonus(self, game: Game, root: int, final: bool) -> int:
        """Extra points for each scoring player of a feature (after all other modifiers)."""
        return 0

    def end_of_turn(self, game: Game, events: list[Event]) -> None:
        """The turn's scoring is done."""

    def next_player(self, game: Game) -> int | None:
        """Who plays next, if not the next player in order."""
        return None

    def may_continue(self, game: Game) -> bool:
        """The bag is empty: may the player to move still take a turn?"""
        return False

    def final_scoring(self, game: Game, events: list[Event]) -> None:
        """Extra scoring at the end of the game."""

    def replay_fields(self, game: Game) -> dict[str, Any]:
        """Fields it adds to the replay's output (RECORD.md: Traders & Builders' "goods")."""
        return {}

    def record_fields(self, game: Game) -> dict[str, Any]:
        """Setup fields this expansion adds to the game's record (RECORD.md)."""
        return {}

    # --- what front ends draw
    def board_figures(self, game: Game) -> list[BoardFigure]:
        """This expansion's figures on the board as plain views (the pig, ferries, tollhouses...):
        a renderer draws each kind with its own function and reads nothing of the state."""
        return []

    def held(self, game: Game, player: int) -> list[HeldItem]:
        """What ``player`` holds of this expansion's off the board (castles in hand), shown in their
        hand beside their followers."""
        return []

    def prospects(self, game: Game) -> list[float]:
        """What each player may still gain from this expansion beyond any scoring the engine can
        count now, in points (the turns a builder may still give): the computer players add it to
        their judgement of a position (``engine.ai.evaluation.holdings``)."""
        return [0.0] * len(game.players)


HOOKS = (
    "start_tile",
    "set_tiles",
    "bag",
    "check_pool",
    "setup",
    "on_draw",
    "must_draw",
    "unplaceable",
    "placement_problem",
    "on_place",
    "figure_allowed",
    "completed_roots",
    "on_completed",
    "value",
    "bonus",
    "end_of_turn",
    "next_player",
    "may_continue",
    "final_scoring",
    "board_figures",
    "held",
    "prospects",
)


def overridden(expansions: list[Expansion], hook: str) -> list[Any]:
    """The bound methods of the expansions that override ``hook``."""
    base = getattr(Expansion, hook)
    return [getattr(e, hook) for e in expansions if getattr(type(e), hook) is not base]
