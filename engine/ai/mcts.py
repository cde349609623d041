"""``MctsPlayer``: the reference determinized Monte-Carlo tree search, a yardstick for ``hard``.

The plain MCTS of the Carcassonne literature, the kind of engine ``hard`` was measured against
outside this project. Each iteration deals a determinization of the bag (``Bag``: the order of the
undrawn tiles is never read), walks a tree of moves from the decision by UCB1 (a tile move keyed
with the tile drawn, so the tree branches on the draws, which every player sees), adds one move,
plays the game out at random to its end and credits each move of the walk with what the final
margin gives the player who made it (``results``: 0.5 level with the best other player, towards 1
as the lead grows; counting any win as 1 played worse: 27.5% of 20 base games against this, 400
iterations a decision, seeds paired). A move seen in only some determinizations competes by how
often it was available (information-set MCTS with availability counts: Cowling, Powley and
Whitehouse, 2012). No evaluation, no rules of thumb, no expansion's code: all it knows of the game
is the engine's legal moves and final scores, so every set plays. Like ``hard`` it plans its
whole decision at once (a tile and then its figure: the most visited moves while the decision lasts).

A reference for ``benchmarks/ai.py`` (``hard vs mcts``), never a seat's level: at ``seconds`` a
decision it is compared with ``hard`` at equal time; ``iterations`` fixes the work instead, and then
its choice is a pure function of the position and the seed.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from engine.ai.evaluation import lead
from engine.ai.players import Bag, Planner, candidates, random_move
from engine.game import Game

Move = dict[str, Any]
MoveKey = tuple[str | None, tuple[tuple[str, Any], ...]]

EXPLORATION = 0.7  # UCB1's constant for rewards between 0 and 1
MARGIN_SCALE = 20.0  # points of final margin that take a result from 0.5 to 0.88


class Node:
    """A move of the tree: who made it, on which turn, and what it brought them."""

    __slots__ = ("move", "mover", "turn", "children", "visits", "wins", "available")

    def __init__(self, move: Move | None, mover: int, turn: int) -> None:
        self.move, self.mover, self.turn = move, mover, turn
        self.children: dict[MoveKey, Node] = {}
        self.visits = 0
        self.wins = 0.0  # the mover's results over the visits
        self.available = 0  # the iterations in which this move was legal (among its siblings)


def move_key(game: Game, move: Move) -> MoveKey:
    """A move as the tree knows it: a tile move with the tile drawn (which the move does not name)."""
    drawn = game.drawn.id if move["type"] == "tile" and game.drawn is not None else None
    return drawn, tuple(move.items())


def results(game: Game) -> list[float]:
    """Each player's result of a finished game, between 0 and 1: 0.5 level with the best other
    player, towards 1 (or 0) as their lead (or gap) grows (a tanh of it, ``MARGIN_SCALE``)."""
    scores = game.scores
    return [0.5 + 0.5 * math.tanh(lead(scores, p) / MARGIN_SCALE) for p in range(len(scores))]


class MctsPlayer(Planner):
    """The reference determinized MCTS (see the module). ``last_playouts``: iterations of the last decision."""

    def __init__(
        self, seed: int, seconds: float | None = 1.0, iterations: int | None = None, exploration: float = EXPLORATION
    ) -> None:
        if seconds is None and iterations is None:
            raise ValueError("an MCTS needs seconds or iterations")
        if iterations is not None and iterations < 1:
            raise ValueError("an MCTS needs at least one iteration a decision")
        self.rng = random.Random(seed)
        self.seconds, self.iterations, self.exploration = seconds, iterations, exploration
        self.last_playouts = 0

    def think(self, game: Game) -> list[Move]:
        """The decision's moves: the most visited move, then its most visited follow-ups by the
        same player on the same turn."""
        me, turn = game.actor, game.turn
        root = Node(None, me, turn)
        bag = Bag(game)
        deadline = time.perf_counter() + (self.seconds or 0.0)
        done = 0
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif done and time.perf_counter() >= deadline:
                break
            self._iterate(root, bag.deal(game, self.rng))
            done += 1
        self.last_playouts = done
        plan: list[Move] = []
        node = root
        while node.children:
            best = max(node.children.values(), key=lambda n: (n.visits, n.wins))
            if best.mover != me or best.turn != turn or best.move is None:
                break
            plan.append(best.move)
            node = best
        return plan

    def _iterate(self, root: Node, world: Game) -> None:
        rng, c = self.rng, self.exploration
        path = [root]
        node = root
        while not world.finished:
            moves = candidates(world)
            keys = [move_key(world, m) for m in moves]
            children = node.children
            untried = [i for i, k in enumerate(keys) if k not in children]
            present = [children[k] for k in keys if k in children]
            for child in present:
                child.available += 1
            mover, turn = world.actor, world.turn
            if untried:
                i = untried[int(rng.random() * len(untried))]
                world.apply(moves[i])
                child = children[keys[i]] = Node(moves[i], mover, turn)
                child.available = 1
                path.append(child)
                break
            node = max(present, key=lambda n: n.wins / n.visits + c * math.sqrt(math.log(n.available) / n.visits))
            world.apply(node.move)  # type: ignore[arg-type]
            path.append(node)
        while not world.finished:
            world.apply(random_move(world, rng))
        outcome = results(world)
        for node in path:
            node.visits += 1
            node.wins += outcome[node.mover]
