"""Expansions plug into the game through these hooks.

The core calls only the hooks an expansion overrides, so a base game pays nothing
for the expansions it does not use, and the core never asks which sets are on.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType

Move = dict[str, Any]
Event = dict[str, Any]


class Expansion:
    """Base class: every hook does nothing. Override what the expansion needs."""

    name = ""
    #: move types this expansion validates and applies itself
    move_types: tuple[str, ...] = ()
    #: steps of the turn this expansion runs (it answers ``step_moves`` for them)
    steps: tuple[str, ...] = ()
    #: follower targets off the new tile that this expansion handles, e.g. "crown" for "crown:taxes"
    targets: tuple[str, ...] = ()

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
    def turn_start(self, game: Game) -> bool:
        """Return True if this expansion opened a step instead of the automatic draw."""
        return False

    def on_draw(self, game: Game, tile: TileType, events: list[Event]) -> bool:
        """A tile was drawn; return True if a step must run before it is placed."""
        return False

    def placement_problem(self, game: Game, tile: TileType, x: int, y: int, rot: int) -> str | None:
        """Why an edge-legal placement is still forbidden, or None."""
        return None

    def unplaceable(self, game: Game, tile: TileType, events: list[Event]) -> bool:
        """The drawn tile fits nowhere: return True if this expansion put it back into
        the bag (the core then draws the next tile), False to let the core discard it."""
        return False

    def on_place(self, game: Game, placement: int, events: list[Event]) -> None:
        """A tile (or castle) was just placed."""

    def figure_moves(self, game: Game) -> list[Move]:
        """Moves offered in the figure step besides followers on the new tile."""
        return []

    def figure_allowed(self, game: Game) -> bool:
        """False forbids any figure (follower, tollhouse...) this turn."""
        return True

    def after_figure(self, game: Game, events: list[Event]) -> bool:
        """Run after the figure step; return True if it opened a step of its own."""
        return False

    def step_moves(self, game: Game) -> list[Move]:
        """Legal moves of a step this expansion owns."""
        return []

    def validate(self, game: Game, move: Move) -> None:
        """Raise IllegalMove if a move of one of ``move_types`` cannot be played now."""

    def apply(self, game: Game, move: Move, events: list[Event]) -> None:
        """Play a validated move of one of ``move_types``."""

    def completed_roots(self, game: Game) -> list[int]:
        """Extra features to check for completion this turn (e.g. after a ferry move)."""
        return []

    def on_completed(self, game: Game, root: int, events: list[Event]) -> None:
        """A road or city was completed this turn (with or without followers)."""

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

    def record_fields(self, game: Game) -> dict[str, Any]:
        """Setup fields this expansion adds to the game's record (RECORD.md)."""
        return {}


HOOKS = (
    "start_tile",
    "set_tiles",
    "bag",
    "check_pool",
    "setup",
    "turn_start",
    "on_draw",
    "placement_problem",
    "unplaceable",
    "on_place",
    "figure_moves",
    "figure_allowed",
    "after_figure",
    "completed_roots",
    "on_completed",
    "bonus",
    "end_of_turn",
    "next_player",
    "may_continue",
    "final_scoring",
)


def overridden(expansions: list[Expansion], hook: str) -> list[Any]:
    """The bound methods of the expansions that override ``hook``."""
    base = getattr(Expansion, hook)
    return [getattr(e, hook) for e in expansions if getattr(type(e), hook) is not base]
