"""The fixed reference players (``RandomPlayer``, ``GreedyPlayer``) and the one-move levels
(``easy``, ``normal``), with what every computer may see of the bag (``determinized``)."""

from __future__ import annotations

import random
from typing import Any

from engine.ai.evaluation import DEFAULT_WEIGHTS, Weights, figure_value, margin, standing
from engine.game import Game

Move = dict[str, Any]
PLACEMENTS = ("tile", "castle")  # moves that put a tile down (the figure step follows)


def clone(game: Game) -> Game:
    """``game.clone()``: a copy to try moves on (its expansions' state copied by
    ``engine.copying.copy_plain``, quicker than pickle, which this used before)."""
    return game.clone()


class RandomPlayer:
    """Picks uniformly at random: a cell, then a rotation, then any figure choice."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        return random_move(game, self.rng)


def random_move(game: Game, rng: random.Random) -> Move:
    """A legal move drawn with ``rng``: a tile's cell, then its rotation (no need to build every
    move object), or any move of another step."""
    pick = rng.random
    if game.step == "tile":
        placements = game.legal_placements()
        cells = list(placements)
        cell = cells[int(pick() * len(cells))]
        rots = placements[cell]
        return {"type": "tile", "x": cell[0], "y": cell[1], "rot": rots[int(pick() * len(rots))]}
    moves = game.legal_moves()
    return moves[int(pick() * len(moves))]


def candidates(game: Game) -> list[Move]:
    """Every legal move of the current step (a tile step's from its placements, quicker)."""
    if game.step == "tile":
        return [
            {"type": "tile", "x": x, "y": y, "rot": r} for (x, y), rots in game.legal_placements().items() for r in rots
        ]
    return game.legal_moves()


class Planner:
    """A player that thinks out a whole decision at once (``think``: a tile and then its figure...)
    and plays the rest of its plan, move by move, while the decision lasts and the plan stays legal."""

    _plan: tuple[tuple[int, int, int], list[Move]] | None = None

    def think(self, game: Game) -> list[Move]:
        raise NotImplementedError

    def choose(self, game: Game) -> Move:
        if self._plan is not None and self._plan[0] == (game.turn, game.actor, len(game.moves)):
            move, *rest = self._plan[1]
            if move in candidates(game):
                self._keep(game, rest)
                return move
        first, *rest = self.think(game)
        self._keep(game, rest)
        return first

    def _keep(self, game: Game, rest: list[Move]) -> None:
        """``rest`` is played from the next move of this decision on (the position's key then)."""
        self._plan = ((game.turn, game.actor, len(game.moves) + 1), rest) if rest else None


def figure_step_after(before: Game, after: Game) -> bool:
    """True when ``after`` (``before`` with a placement played) asks the same player for a figure."""
    return not after.finished and after.step == "figure" and after.turn == before.turn and after.actor == before.actor


class GreedyPlayer:
    """The reference: takes the turn that gains the most points right now; ties go to the seeded coin.

    A tile (or castle) placement is judged together with its best figure choice, so the whole
    turn's gain decides where the tile goes: own points minus the best opponent's after the
    placement, its automatic scoring and the figure (each tried on a copy of the game), plus a
    little for a figure left standing on an open feature (``figure_value``). Other decisions are
    judged the same way, one move at a time. A fixed reference for tests and benchmarks: it may
    look at the real bag while trying a move (the levels never do).
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        me = game.actor
        base = margin(game, me)
        best: list[Move] = []
        best_value = float("-inf")
        for move in candidates(game):
            after = clone(game)
            after.apply(move)
            value = margin(after, me) - base + figure_value(game, after, move)
            if move["type"] in PLACEMENTS and figure_step_after(game, after):
                options = []
                for figure in after.legal_moves():
                    end = clone(after)
                    end.apply(figure)
                    options.append(margin(end, me) - base + figure_value(after, end, figure))
                value = max(options)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return self.rng.choice(best)


# ---------------------------------------------------------------------- what a computer may see
LAKES = ("river1.lake", "river2.volcano_lake")


class Bag:
    """The undrawn tiles of a position as a computer knows them: which tiles, never their order
    (they are sorted first). ``deal(game, rng)`` is a determinization: a copy of ``game`` whose
    undrawn tiles are in an order drawn from ``rng`` alone; river tiles stay before the land
    tiles and the lake stays last among them, as the engine deals them. Sorting once serves
    every determinization of a decision."""

    def __init__(self, game: Game) -> None:
        rest = game.bag[game.bag_pos :]
        self.river = sorted(t for t in rest if t.startswith("river") and t not in LAKES)
        self.lakes = sorted(t for t in rest if t in LAKES)
        self.land = sorted(t for t in rest if not t.startswith("river"))

    def deal(self, game: Game, rng: random.Random) -> Game:
        out = clone(game)
        river, land = list(self.river), list(self.land)
        rng.shuffle(river)
        rng.shuffle(land)
        out.bag[out.bag_pos :] = river + self.lakes + land
        return out


def determinized(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` in which the undrawn tiles are in an order drawn from ``rng`` alone
    (see ``Bag``): the real order is never read."""
    return Bag(game).deal(game, rng)


def turn_values(view: Game, judge: Any) -> list[tuple[float, Move]]:
    """Each legal move of ``view`` with ``judge(position, mover)`` of where it leads; a placement
    is judged with its best figure choice (the whole turn)."""
    me = view.actor
    out = []
    for move in candidates(view):
        after = clone(view)
        after.apply(move)
        if move["type"] in PLACEMENTS and figure_step_after(view, after):
            best = float("-inf")
            for figure in after.legal_moves():
                end = clone(after)
                end.apply(figure)
                best = max(best, judge(end, me))
            out.append((best, move))
        else:
            out.append((judge(after, me), move))
    return out


class OneMove:
    """One-move look-ahead on a determinization. ``normal``: each move judged by what the position
    holds after it (``standing``: the scores, the open features each player holds, the expansions'
    end-of-game points and the followers in hand), a placement with its best figure choice.
    ``easy`` (``plain``): by the score alone and a rule of thumb for figures, one move at a time,
    and ``noise`` makes it miss now and then. ``weights``: how ``standing`` values what a position
    holds (``benchmarks/sprt.py`` plays normal with other weights)."""

    def __init__(
        self,
        seed: int,
        noise: float = 0.0,
        farmers: bool = True,
        plain: bool = False,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.rng = random.Random(seed)
        self.noise, self.farmers, self.plain, self.weights = noise, farmers, plain, weights

    def values(self, game: Game) -> list[tuple[float, Move]]:
        me = game.actor
        view = determinized(game, self.rng)
        if not self.plain:
            weights = self.weights
            return turn_values(view, standing if weights is DEFAULT_WEIGHTS else lambda g, p: standing(g, p, weights))
        out = []
        base = margin(view, me)
        for move in candidates(view):
            after = clone(view)
            after.apply(move)
            out.append((margin(after, me) - base + figure_value(view, after, move, self.farmers), move))
        return out

    def choose(self, game: Game) -> Move:
        values = self.values(game)
        if self.noise and self.rng.random() < self.noise:
            values.sort(key=lambda vm: -vm[0])
            return self.rng.choice(values[: max(1, min(len(values), 5))])[1]
        best = max(v for v, _m in values)
        return self.rng.choice([m for v, m in values if v >= best - 1e-9])
