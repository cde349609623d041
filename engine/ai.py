"""Computer players: they choose among the engine's legal moves.

``RandomPlayer`` picks uniformly at random (a cell, then a rotation, then any
figure choice); ``GreedyPlayer`` takes the move that gains the most points right
now, judged by playing it on a copy of the game, and places followers sensibly.
Both are deterministic for a given seed.
"""

from __future__ import annotations

import random
from typing import Any

from engine.game import Game

Move = dict[str, Any]


class RandomPlayer:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        pick = self.rng.random
        if game.step == "tile":
            # Cells, then rotations: no need to build every move object.
            placements = game.legal_placements()
            cells = list(placements)
            cell = cells[int(pick() * len(cells))]
            rots = placements[cell]
            return {"type": "tile", "x": cell[0], "y": cell[1], "rot": rots[int(pick() * len(rots))]}
        moves = game.legal_moves()
        return moves[int(pick() * len(moves))]


class GreedyPlayer:
    """Takes the move with the best immediate gain; ties go to the seeded coin.

    Gain = own points minus the best opponent's points after the move (and the
    automatic steps it triggers), on a copy of the game. A follower is worth a
    little on its own when its feature is still open, more on a city or a
    cloister than on a road, and farmers only in the last third of the game.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        me = game.actor
        best: list[Move] = []
        best_value = float("-inf")
        for move in self._candidates(game):
            after = game.clone()
            after.apply(move)
            value = self._gain(game, after, me) + self._follower_value(game, after, move)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return self.rng.choice(best)

    @staticmethod
    def _candidates(game: Game) -> list[Move]:
        if game.step == "tile":
            return [
                {"type": "tile", "x": x, "y": y, "rot": r}
                for (x, y), rots in game.legal_placements().items()
                for r in rots
            ]
        return game.legal_moves()

    @staticmethod
    def _gain(before: Game, after: Game, me: int) -> float:
        def margin(g: Game) -> int:
            others = [s for i, s in enumerate(g.scores) if i != me]
            return g.scores[me] - max(others)

        return float(margin(after) - margin(before))

    @staticmethod
    def _follower_value(before: Game, after: Game, move: Move) -> float:
        if move["type"] != "meeple":
            return 0.0
        if after.supply[before.actor] >= before.supply[before.actor]:
            return 0.0  # it scored and came straight back: the gain says it all
        # Still standing: an investment in an open feature.
        at = move["at"]
        progress = 1 - before.bag_left / max(1, len(before.bag))
        if at.startswith("field"):
            return 1.5 if progress > 0.66 else -1.0
        if at.startswith("city") or at == "cloister" or at == "castle":
            return 1.0
        return 0.5


# ---------------------------------------------------------------------- seats
LEVELS = ("easy", "normal", "hard")


def make_player(level: str, seed: int, seconds: float | None = None, playouts: int | None = None) -> Any:
    """A computer player of ``level`` (LEVELS)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")
    return GreedyPlayer(seed) if level != "easy" else RandomPlayer(seed)


def seat_player(user_id: str, turn: int) -> Any:
    """The player behind a computer seat (``ai:LEVEL:N``; older seats ``ai:greedy:N``, ``ai:random:N``),
    seeded by the turn so that a restarted process makes the same choice."""
    kind = user_id.split(":")[1] if user_id.count(":") >= 2 else "greedy"
    seed = turn * 7919 + sum(map(ord, user_id))
    if kind == "random":
        return RandomPlayer(seed)
    if kind in LEVELS:
        return make_player(kind, seed)
    return GreedyPlayer(seed)


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
