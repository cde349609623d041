"""Kinds of figures: what each one is, where it may stand, what it weighs in a majority.

A player's figures on the board are kept on the feature they stand on (``Board.followers``) as
``(player, node)`` for a plain follower — as every older game has them — and
``(player, node, kind)`` for any other kind (a big follower, a builder, a pig). The plain follower
is the core's kind; an expansion declares its own (``Expansion.figure_kinds``) and the core offers,
weighs and sends home every kind by these declarations alone.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.language import N_

#: where a figure of the core may stand (never on a river)
LAND = frozenset(("road", "city", "field", "cloister", "castle"))


class FigureKind(NamedTuple):
    """One kind of figure, as an expansion declares it."""

    name: str  # "follower", "big", "builder", "pig": a move's "figure" and a record's name
    per_player: int  # how many each player has
    strength: int  # what it weighs when majorities are decided (a builder or a pig: 0)
    follower: bool  # a follower (the plague, storm, taxes, famine and inquisition count it; a builder may join it)
    stands_on: frozenset[str]  # the feature kinds it may be put on
    joins_own: bool = False  # put only on a feature already holding one of its owner's followers (else: a free one)
    noun: str = N_("follower")  # what players call it (a message to translate)
    #: how an option to put it reads: "{role}" is the follower's role there (thief, knight...), "{feature}"
    #: where (a message to translate)
    option: str = N_("{role} on {feature}")
    #: how it reads in an event: "{player}", "{role}", "{feature}" (a message to translate)
    placed: str = N_("{player} put a {role} on {feature}.")
    #: how the renderer draws it (``renderer.board.draws``): its name unless another drawing has that name
    drawing: str = ""
    #: what one still in hand is worth to the computer players, in plain followers in hand (they value
    #: those at a few points early in the game, falling to nothing by its end): so that they do not
    #: spend a figure of this kind on a feature worth less than keeping it
    hand_worth: float = 1.0


FOLLOWER = FigureKind("follower", 7, 1, True, LAND)

Figure = tuple  # (player, node) or (player, node, kind): see the module's docstring


def kind_of(figure: Figure) -> str:
    """The kind of a figure standing on the board."""
    return figure[2] if len(figure) > 2 else "follower"
