"""Computer players: they choose among the engine's legal moves.

``RandomPlayer`` picks uniformly at random; ``GreedyPlayer`` takes the turn that gains the most
points right now (a tile placement judged with its best figure choice). Both are deterministic
for a given seed, and both are fixed references for tests and benchmarks: they may look at the
real bag while trying a move. ``mcts.MctsPlayer``, the third reference, is a plain determinized
Monte Carlo tree search (random play-outs, no evaluation) that never reads the bag's order: the
yardstick ``benchmarks/ai.py`` measures ``hard`` against at equal thinking time.

The players behind computer seats come from ``make_player(level, seed, ...)``: ``easy``,
``normal`` (``players.OneMove``) and ``hard`` (``search.Search``). They never read the order of
the undrawn tiles: every look-ahead runs on a *determinization*, a copy of the game whose
undrawn tiles are put in canonical order and shuffled with the player's own generator (river
tiles among river tiles, the lake last), so permuting the real bag never changes their choice.
What a position is worth to them is in ``evaluation`` (one function values every feature,
expansions' bonuses included).
"""

from __future__ import annotations

from typing import Any

from engine.ai.evaluation import feature_value, holdings
from engine.ai.evaluation import standing as _standing
from engine.ai.players import Bag, GreedyPlayer, OneMove, RandomPlayer, determinized
from engine.ai.search import DEPTH, Search
from engine.game import Game

__all__ = [
    "LEVELS", "DEFAULT_SECONDS", "DEPTH", "Bag", "GreedyPlayer", "RandomPlayer", "automatic_move", "computer_moves",
    "determinized", "feature_value", "hint", "holdings", "make_player", "seat_player", "standing",
]  # fmt: skip

Move = dict[str, Any]

# ---------------------------------------------------------------------- seats
LEVELS = ("easy", "normal", "hard")
DEFAULT_SECONDS = {"easy": 0.0, "normal": 0.0, "hard": 1.0}


def make_player(level: str, seed: int, seconds: float | None = None, playouts: int | None = None) -> Any:
    """A computer player of ``level`` (LEVELS) whose ``choose(game)`` returns a legal move for
    ``game.actor``. ``seconds`` caps its thinking per decision (each level has a default);
    ``playouts`` fixes the amount of search instead, and then the choice is a pure function of
    the position and the seed. None of them reads the order of the undrawn tiles."""
    if level == "easy":
        return OneMove(seed, noise=0.35, farmers=False, plain=True)
    if level == "normal":
        return OneMove(seed)
    if level == "hard":
        return Search(seed, DEFAULT_SECONDS["hard"] if seconds is None else seconds, playouts)
    raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")


def hint(game: Game, seed: int, seconds: float | None = None, playouts: int | None = None) -> tuple[list[Move], float]:
    """What ``hard`` would play for the decision ``game`` awaits (the whole sequence: tile and
    figure...), and how far ahead of the best other player it expects to stand ``DEPTH`` turns
    after this one (points: scores plus holdings, see ``evaluation.holdings``). Never reads the
    order of the bag."""
    search = Search(seed, DEFAULT_SECONDS["hard"] if seconds is None else seconds, playouts)
    plan = search.think(game)
    return plan, search.last_value


def standing(game: Game, player: int) -> float:
    """How far ahead of the best other player ``player`` stands now, in points (scores plus holdings)."""
    return _standing(game, player)


def seat_player(user_id: str, turn: int) -> Any:
    """The player behind a computer seat (``ai:LEVEL:N``; older ``ai:greedy:N`` seats play at
    ``normal``, ``ai:random:N`` at random), seeded by the turn so that a restarted process makes
    the same choice."""
    kind = user_id.split(":")[1] if user_id.count(":") >= 2 else "normal"
    seed = turn * 7919 + sum(map(ord, user_id))
    if kind == "random":
        return RandomPlayer(seed)
    return make_player(kind if kind in LEVELS else "normal", seed)


def computer_moves(game: Game, user_id: str | None) -> list[Move]:
    """The moves of one decision made for a seat: a computer player's (``user_id`` of an
    ``ai:`` seat), or the automatic ones for an absent player (None). ``game`` is used up."""
    player = seat_player(user_id, game.turn) if user_id else None
    start_turn, start_actor = game.turn, game.actor
    moves: list[Move] = []
    while not game.finished and game.turn == start_turn and game.actor == start_actor:
        move = player.choose(game) if player else automatic_move(game)
        game.apply(move)
        moves.append(move)
    return moves


def automatic_move(game: Game) -> Move:
    """The move made for an absent player: the first legal placement, no optional figure."""
    moves = game.legal_moves()
    for move in moves:
        if move["type"] == "pass":
            return move
    return moves[0]
