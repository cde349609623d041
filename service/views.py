"""What the service hands its front ends: plain values, never the live game it mutates."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.moves import Question


@dataclass
class TurnView:
    """Whose decision the game awaits, with everything a panel needs to offer it."""

    game_id: int
    guild_id: str | None  # the server the game belongs to (None: an offline game)
    version: int
    finished: bool
    turn: int
    step: str | None
    player: str | None  # engine name of whoever must act
    user_id: str | None
    tile: str | None
    question: Question | None  # what the game asks now (None once it is over)
    scores: dict[str, int]
    supply: dict[str, int]
    bag_left: int
    started_at: datetime | None
    deadline: datetime | None
    language: str = "en"  # the game's; the question is worded in it (or as asked)
    # A time-bank game's clocks: each player's time left as the view was made (the player to
    # move's running down since the turn began); None in a per-turn game.
    clocks: dict[str, int] | None = None

    @property
    def placements(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """The cells the question offers (a tile's placements, or a castle's), with their rotations:
        what a board picture letters and ``/carc place`` completes."""
        cells: dict[tuple[int, int], list[int]] = {}
        if self.question is not None:
            for option in self.question.options:
                move = option.move
                if move["type"] in ("tile", "castle"):
                    rots = cells.setdefault((move["x"], move["y"]), [])
                    if move["rot"] not in rots:
                        rots.append(move["rot"])
        return {cell: tuple(sorted(rots)) for cell, rots in cells.items()}


@dataclass
class PlayResult:
    events: list[dict[str, Any]]
    lines: list[str]
    turn: TurnView
    again: bool = False  # the same player decides again in the same turn (after a committed draw, say)
    # The outbox rows of this turn's post (its moves and the automatic turns after them): the front
    # end marks them posted (GameService.mark_posted) once the post went out; else a tick posts them.
    outbox: list[int] = field(default_factory=list)


class Said(list[str]):
    """The lines a change tells (a resignation, a removal), with the outbox rows they stand for:
    the front end marks them posted (``GameService.mark_posted``) once its post went out."""

    def __init__(self, lines: list[str], outbox: list[int] | None = None) -> None:
        super().__init__(lines)
        self.outbox = list(outbox or [])


@dataclass
class Notice:
    """What players are to be told from the outbox: a reminder due, a turn timed out, a computer
    moved, a turn played or a game started whose post did not go out (its process died)."""

    kind: str  # "reminder" | "timeout" | "moved" | "played" | "left" | "started"
    game_id: int
    guild_id: str | None
    user_id: str
    player: str
    lines: list[str]
    turn: TurnView | None = None
    outbox: list[int] = field(default_factory=list)  # the outbox rows it posts (GameService.posted marks them)
    title: str | None = None  # "started": the name of the game's thread


@dataclass
class Ask:
    """What one user must decide now, given the choices made so far in their turn.

    ``picks`` are positions in each successive question's ``moves()`` (options, then
    passing); ``moves`` are the moves they stand for. When the picks complete the
    decision (the turn passes to someone else, or the game ends), ``question`` is
    None and ``done`` is True: the moves are ready for ``play``.
    """

    turn: TurnView  # the stored game, before the picks
    picks: list[int]
    moves: list[dict[str, Any]]
    question: Question | None
    done: bool
    spot_numbers: dict[int, int] = field(default_factory=dict)  # option index -> number on the preview
    labels: list[str] = field(default_factory=list)  # how each pick read when it was made


@dataclass
class Hint:
    """What the hard computer would play for the caller's decision (``/carc hint``)."""

    game_id: int
    version: int
    moves: list[dict[str, Any]]  # the whole decision: the tile, then the figure...
    labels: list[str]  # each move as its question words it
    now: float  # how far ahead of the best other player the caller stands now (points, holdings counted)
    expected: float  # ... and two turns after these moves, as the computer expects it


@dataclass
class PlayerStats:
    """A player's finished games in one server (or one league): ``/carc stats``."""

    user_id: str
    name: str | None  # as in their latest game
    games: int
    wins: int  # ties for first count
    average: float
    best: tuple[int, int] | None  # (score, game id)
    categories: list[tuple[str, int]]  # points by category over the latest STATS_RECENT games, worded
    recent: int  # how many games the categories cover

