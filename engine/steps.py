"""The pieces a turn is declared from: steps, and extra options of the figure step.

A turn is a chain of steps (see ``engine.turn.CORE_CHAIN``). Each step has one
job: on arriving it may do automatic work (``enter``); then either it has a
question (``asks``) and the game waits for a move of that step, or the chain goes
on to the next step by itself. Expansions insert their steps at named points
(``after``); no step ever calls another or moves the turn along by hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine._compiled import mypyc_attr
from engine.language import _
from engine.moves import Event, IllegalMove, Move

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType


#: What ``enter`` may return besides None (then ``asks`` says whether the step asks) or the
#: name of a step to go to: the step asks now, or it has nothing to ask (either way ``asks``
#: is not called: ``enter`` has just found out), or it has ended the game. Return these very
#: constants (the chain's runner tells them by identity).
ASKS, DONE, GAME_OVER = "<asks>", "<done>", "<game over>"


@mypyc_attr(allow_interpreted_subclasses=True)  # (an expansion outside the package subclasses it)
class Step:
    """One step of the turn. Automatic steps only override ``enter``."""

    #: the step's name (``game.step`` while it asks; records' "next"."step")
    name: ClassVar[str] = ""
    #: for an expansion's step: the name of the step it follows in the chain
    after: ClassVar[str] = ""
    #: move types this step answers (besides "pass" when ``pass_label`` is set)
    move_types: ClassVar[tuple[str, ...]] = ()

    def enter(self, game: Game, events: list[Event]) -> str | None:
        """Automatic work on arriving; may return the name of a step to go to instead, or
        ASKS, DONE or GAME_OVER (see above)."""
        return None

    def asks(self, game: Game) -> bool:
        """Whether the step has a question now (a step with nothing to ask is skipped)."""
        return False

    def actor(self, game: Game) -> int:
        """Who must answer (the player whose turn it is, unless the step says otherwise)."""
        return game.current

    def moves(self, game: Game) -> list[Move]:
        """Every legal move of the step, passing excluded."""
        return []

    def placed_tile(self, game: Game, move: Move) -> TileType | None:
        """The tile one of this step's moves puts on the board (the drawn tile, a castle), if any:
        what a picture outlines for the move."""
        return None

    def pass_label(self, game: Game) -> str | None:
        """What passing means here, or None if the step cannot be passed."""
        return None

    def may_pass(self, game: Game) -> bool:
        """Whether passing is allowed now (``pass_label`` is not None; a step whose passing
        never depends on the position may answer without wording the label)."""
        return self.pass_label(game) is not None

    def prompt(self, game: Game) -> str:
        """The question in words, e.g. "place the drawn tile"."""
        return _("answer the {step} step").format(step=self.name)

    def label(self, game: Game, move: Move) -> str:
        """How one of this step's moves reads in a list of options."""
        return move["type"]

    def tags(self, game: Game, move: Move) -> frozenset[str]:
        """How front ends show one of this step's moves (``engine.moves.OFF_TILE``...)."""
        return frozenset()

    def check(self, game: Game, move: Move) -> None:
        """Raise IllegalMove unless ``move`` is a legal move of this step now."""
        if move["type"] == "pass" and not self.may_pass(game):
            raise IllegalMove(
                _("you cannot pass now: {player} must {question}").format(
                    player=game.players[game.actor], question=self.prompt(game)
                )
            )

    def play(self, game: Game, move: Move, events: list[Event]) -> bool:
        """Play a checked move; True when the step is done (False: it asks again)."""
        return True


@mypyc_attr(allow_interpreted_subclasses=True)  # (an expansion outside the package subclasses it)
class FigureOption:
    """A kind of figure an expansion offers in the figure step, instead of a follower
    on the new tile (a follower on a crown space, a tollhouse...)."""

    #: move types this option answers (it may share "meeple" with the core: see ``owns``)
    move_types: ClassVar[tuple[str, ...]] = ()

    def owns(self, move: Move) -> bool:
        """Whether a move of the figure step is this option's."""
        return False

    def moves(self, game: Game) -> list[Move]:
        return []

    def label(self, game: Game, move: Move) -> str:
        return move["type"]

    #: the tags of its moves' options (``engine.moves.OFF_TILE`` for a figure off the placed tile)
    tags: frozenset[str] = frozenset()

    def check(self, game: Game, move: Move) -> None:
        """Raise IllegalMove unless the move can be played now."""

    def play(self, game: Game, move: Move, events: list[Event]) -> None:
        """Play a checked move."""
