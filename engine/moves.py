"""The engine's vocabulary: errors, moves, events and the question (a leaf module).

Moves and events travel as plain JSON objects (RECORD.md); each kind has one
TypedDict that documents its fields. ``MOVE_TYPES`` and ``EVENT_TYPES`` map a
``"type"`` of the base game to its TypedDict; an expansion declares its own
moves and events in its package (``Expansion.move_shapes``, ``event_shapes``),
and ``engine.expansions.registry`` assembles them all (``move_shapes()``,
``event_shapes()``), so tests can check every emitted object against its
declaration. The question (``Question``) is what every front end
renders: who acts now, what kind of decision, every option as a legal move with
a label a player can read, and whether and how they may pass.
"""

from typing import Any, NamedTuple, NotRequired, TypedDict

Move = dict[str, Any]
Event = dict[str, Any]


class IllegalMove(Exception):
    """A move that the rules do not allow now; the message is meant for the player."""


class BadSetup(ValueError):
    """A game that cannot be set up: unknown set, impossible combination, bad pool."""


# ---------------------------------------------------------------------- moves
class TileMove(TypedDict):
    """Place the drawn tile; ``tile``, if given, must be the drawn tile's id."""

    type: str  # "tile"
    x: int
    y: int
    rot: int  # 0, 90, 180 or 270, clockwise
    tile: NotRequired[str]
    player: NotRequired[str]


class MeepleMove(TypedDict):
    """Place a follower: ``at`` names a feature of the new tile ("road:E", "field:NNE",
    "cloister", "castle") or a crown space of the wheel ("crown:taxes"); ``figure`` another kind
    of figure (engine.figures), placed where its kind may stand."""

    type: str  # "meeple"
    at: str
    x: NotRequired[int]
    y: NotRequired[int]
    figure: NotRequired[str]  # a kind of figure other than the plain follower: "big", "builder", "pig"
    player: NotRequired[str]


class PassMove(TypedDict):
    """Place no figure, or skip an optional step."""

    type: str  # "pass"
    player: NotRequired[str]


#: the base game's moves; each expansion declares its own (``Expansion.move_shapes``)
MOVE_TYPES: dict[str, type] = {
    "tile": TileMove,
    "meeple": MeepleMove,
    "pass": PassMove,
}


# ---------------------------------------------------------------------- events
class TileDrawnEvent(TypedDict):
    type: str  # "tile_drawn"
    player: str
    tile: str


class TilePlacedEvent(TypedDict):
    type: str  # "tile_placed"
    player: str
    tile: str
    x: int
    y: int
    rot: int


class MeeplePlacedEvent(TypedDict):
    """``x``/``y`` are absent for a follower on a crown space of the wheel."""

    type: str  # "meeple_placed"
    player: str
    at: str
    x: NotRequired[int]
    y: NotRequired[int]
    figure: NotRequired[str]  # absent for a plain follower


class TileDiscardedEvent(TypedDict):
    type: str  # "tile_discarded"
    tile: str
    player: NotRequired[str]


class ScoredEvent(TypedDict):
    """A feature scored; ``points`` per scoring player. Crowns of the wheel carry
    ``sector`` instead of a cell; ``returned`` lists whose followers went home."""

    type: str  # "scored"
    feature: str
    points: dict[str, int]
    final: bool
    x: NotRequired[int]
    y: NotRequired[int]
    at: NotRequired[str]
    sector: NotRequired[str]
    returned: NotRequired[list[str]]


class TurnEndedEvent(TypedDict):
    """The end of a turn: front ends never have to infer it."""

    type: str  # "turn_ended"
    player: str
    turn: int
    next: NotRequired[str]  # who plays the next turn (absent when the game is over)


class GameOverEvent(TypedDict):
    type: str  # "game_over"
    scores: dict[str, int]
    winners: list[str]


#: the base game's events; each expansion declares its own (``Expansion.event_shapes``)
EVENT_TYPES: dict[str, type] = {
    "tile_drawn": TileDrawnEvent,
    "tile_placed": TilePlacedEvent,
    "meeple_placed": MeeplePlacedEvent,
    "tile_discarded": TileDiscardedEvent,
    "scored": ScoredEvent,
    "turn_ended": TurnEndedEvent,
    "game_over": GameOverEvent,
}


# ---------------------------------------------------------------------- the question
# An option's tag: the figure it places stands off the placed tile (a crown space of the wheel), so a
# front end does not number it among the tile's follower spots.
OFF_TILE = "off_tile"


class Option(NamedTuple):
    """One legal answer to the question: the move, how it reads for a player, and tags that tell
    front ends how to show it (``OFF_TILE``) without knowing which expansion offers it."""

    move: Move
    label: str
    tags: frozenset[str] = frozenset()


class BoardFigure(NamedTuple):
    """Something standing on the board as front ends draw it: a plain view, never an expansion's own
    state. ``kind`` names the drawing ("follower", or an expansion's: "pig", "crowns", "ferry",
    "toll"); ``cells`` where it is drawn (what a replay redraws when it changes); ``owner`` the player it
    belongs to, if any; ``data`` what the drawing needs besides (hashable)."""

    kind: str
    cells: tuple[tuple[int, int], ...]
    owner: int | None
    data: tuple[Any, ...] = ()


class HeldItem(NamedTuple):
    """Something a player holds off the board, as front ends show it in a player's hand: ``kind`` names
    its drawing ("follower", or an expansion's: "castle"), ``number`` how many, ``name`` what it is
    called for players when each one is told apart (a castle's name), else ""."""

    kind: str
    number: int
    name: str = ""


class Question(NamedTuple):
    """What the game asks now.

    ``kind`` is the step asking (the core's "tile" and "figure", or an expansion's
    own: "draw", "plague", "ferry", "ferry_move"...); ``prompt`` says it in words. ``options``
    holds every legal move except passing; ``pass_label`` says what passing means,
    and is None when passing is not allowed. ``tile`` is the drawn tile's id, if any.
    """

    player: str
    kind: str
    prompt: str
    options: tuple[Option, ...]
    pass_label: str | None = None
    tile: str | None = None
    turn: int = 0

    @property
    def can_pass(self) -> bool:
        return self.pass_label is not None

    def moves(self) -> list[Move]:
        """Every legal move, passing included."""
        out = [o.move for o in self.options]
        if self.pass_label is not None:
            out.append({"type": "pass"})
        return out
