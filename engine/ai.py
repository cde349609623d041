"""Computer players: they choose among the engine's legal moves.

``RandomPlayer`` picks uniformly at random (a cell, then a rotation, then any
figure choice); ``GreedyPlayer`` takes the move that gains the most points right
now, judged by playing it on a copy of the game, and places followers sensibly.
Both are deterministic for a given seed, and both are fixed references for tests
and benchmarks: they may look at the real bag while trying a move.

The players behind computer seats come from ``make_player(level, seed, ...)``:
``easy``, ``normal`` and ``hard``. They never read the order of the undrawn tiles:
every look-ahead runs on a *determinization*, a copy of the game whose undrawn
tiles are put in canonical order and shuffled with the player's own generator
(river tiles among river tiles, the lake last), so permuting the real bag never
changes their choice.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
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


# ---------------------------------------------------------------------- what a computer may see
LAKES = ("river1.lake", "river2.volcano_lake")


def determinized(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` in which the undrawn tiles are in an order drawn from ``rng`` alone:
    the real order is never read (the tiles are sorted first). River tiles stay before the
    land tiles and the lake stays last among them, as the engine deals them."""
    out = game.clone()
    rest = out.bag[out.bag_pos :]
    river = sorted(t for t in rest if t.startswith("river") and t not in LAKES)
    lakes = sorted(t for t in rest if t in LAKES)
    land = sorted(t for t in rest if not t.startswith("river"))
    rng.shuffle(river)
    rng.shuffle(land)
    out.bag[out.bag_pos :] = river + lakes + land
    return out


def _decided(game: Game, actor: int, turn: int) -> bool:
    return game.finished or game.turn != turn or game.actor != actor


def _margin(game: Game, me: int) -> float:
    """My score minus the best other score."""
    others = [s for i, s in enumerate(game.scores) if i != me]
    return float(game.scores[me] - (max(others) if others else 0))


def _follower_value(before: Game, after: Game, move: Move, farmers: bool) -> float:
    """A standing follower is an investment in an open feature (GreedyPlayer's rule of thumb)."""
    if move["type"] != "meeple" or after.supply[before.actor] >= before.supply[before.actor]:
        return 0.0
    at = str(move["at"])
    progress = 1 - before.bag_left / max(1, len(before.bag))
    if at.startswith("field"):
        return (1.5 if progress > 0.66 else -1.0) if farmers else -3.0
    if at.startswith("city") or at == "cloister" or at == "castle":
        return 1.0
    return 0.5


def _candidates(game: Game) -> list[Move]:
    if game.step == "tile":
        return [
            {"type": "tile", "x": x, "y": y, "rot": r} for (x, y), rots in game.legal_placements().items() for r in rots
        ]
    return game.legal_moves()


# What an open feature held by a player is worth to them, as a share of what it would score if the
# game ended now (a city completed scores twice that), and what a follower still in hand is worth
# at the start of the game (it falls to nothing by the end). Tuned with benchmarks/ai.py.
CITY_SHARE = 1.4
OTHER_SHARE = 1.0
FIELD_SHARE = 0.6
FOLLOWER_IN_HAND = 1.5
DEPTH = 2  # turns a hard computer's playout looks ahead before judging the position


def _holdings(game: Game) -> list[float]:
    """Each player's score plus what their standing followers are likely to bring: the open
    features they hold, valued as the final scoring would count them (a share), and the
    followers they still have in hand."""
    board = game.board
    out = [float(s) for s in game.scores]
    parent, kinds = board.parent, board.kind
    for root, standing in enumerate(board.followers):
        if not standing or parent[root] != root:
            continue
        winners = game.majority(root)
        if not winners:
            continue
        kind = kinds[root]
        share = CITY_SHARE if kind == "city" else FIELD_SHARE if kind == "field" else OTHER_SHARE
        points = game.feature_value(root, True) * share
        for p in winners:
            out[p] += points
    left = game.bag_left / max(1, len(game.bag))
    for p, supply in enumerate(game.supply):
        out[p] += FOLLOWER_IN_HAND * left * supply
    return out


def _standing(game: Game, me: int) -> float:
    """My holdings minus the best other player's."""
    held = _holdings(game)
    others = [h for i, h in enumerate(held) if i != me]
    return held[me] - (max(others) if others else 0.0)


class _Greedy:
    """One-move look-ahead on a determinization, judged by what the position holds (``normal``:
    scores, and the open features and followers each player has, see ``_holdings``); ``noise``
    makes it miss and ``plain`` judges by the score alone (``easy``)."""

    def __init__(self, seed: int, noise: float = 0.0, farmers: bool = True, plain: bool = False) -> None:
        self.rng = random.Random(seed)
        self.noise, self.farmers, self.plain = noise, farmers, plain

    def values(self, game: Game) -> list[tuple[float, Move]]:
        me = game.actor
        view = determinized(game, self.rng)
        out = []
        if self.plain:
            for move in _candidates(view):
                after = view.clone()
                after.apply(move)
                gain = _margin(after, me) - _margin(view, me)
                out.append((gain + _follower_value(view, after, move, self.farmers), move))
            return out
        for move in _candidates(view):
            after = view.clone()
            after.apply(move)
            out.append((_standing(after, me), move))
        return out

    def choose(self, game: Game) -> Move:
        values = self.values(game)
        if self.noise and self.rng.random() < self.noise:
            values.sort(key=lambda vm: -vm[0])
            return self.rng.choice(values[: max(1, min(len(values), 5))])[1]
        best = max(v for v, _m in values)
        return self.rng.choice([m for v, m in values if v >= best - 1e-9])


class _Search:
    """``hard``: flat Monte-Carlo over the decision's best move sequences.

    The decision's complete move sequences (tile and figure, ferry steps, a plague answer...) are
    listed on a determinization and ranked by what the position holds after them (``_holdings``);
    the best ``width`` of them are played out many times, each playout on a fresh determinization
    of the bag: the next ``DEPTH`` turns as ``normal`` plays them, then the position judged by its
    holdings; the sequence with the best mean is played. A draw ends a
    sequence (what comes after depends on the tile). ``seconds`` bounds the thinking; a fixed
    ``playouts`` makes the choice a pure function of the position and the seed.
    """

    def __init__(self, seed: int, seconds: float | None, playouts: int | None, width: int = 8) -> None:
        self.rng = random.Random(seed)
        self.seconds, self.playouts, self.width = seconds, playouts, width
        self._plan: tuple[tuple[int, int, int], list[Move]] | None = None
        self.last_playouts = 0  # how many the last decision ran (benchmarks report playouts/s)
        self.last_value = 0.0  # what the chosen sequence was judged worth (see hint)

    def choose(self, game: Game) -> Move:
        key = (game.turn, game.actor, len(game.moves))
        if self._plan is not None and self._plan[0] == key and self._plan[1]:
            move = self._plan[1][0]
            if move in game.legal_moves() or (move["type"] == "tile" and game.step == "tile"):
                rest = self._plan[1][1:]
                self._plan = ((game.turn, game.actor, len(game.moves) + 1), rest) if rest else None
                return move
        plan = self._think(game)
        rest = plan[1:]
        self._plan = ((game.turn, game.actor, len(game.moves) + 1), rest) if rest else None
        return plan[0]

    def _sequences(self, view: Game, limit: int = 300) -> list[tuple[float, list[Move]]]:
        """The decision's complete move sequences, each with what the position holds after it."""
        me, turn = view.actor, view.turn
        out: list[tuple[float, list[Move]]] = []

        def walk(state: Game, done: list[Move]) -> None:
            if len(out) >= limit:
                return
            for move in _candidates(state):
                after = state.clone()
                after.apply(move)
                if _decided(after, me, turn) or move["type"] == "draw":
                    out.append((_standing(after, me), [*done, move]))
                else:
                    walk(after, [*done, move])
                if len(out) >= limit:
                    return

        walk(view, [])
        return out

    def _think(self, game: Game) -> list[Move]:
        me = game.actor
        ranked = self._sequences(determinized(game, self.rng))
        ranked.sort(key=lambda vs: -vs[0])
        pool = [seq for _v, seq in ranked[: self.width]]
        if len(pool) == 1:
            self.last_value = ranked[0][0]
            return pool[0]
        totals = [0.0] * len(pool)
        counts = [0] * len(pool)
        deadline = time.perf_counter() + (self.seconds if self.seconds is not None else 1.0)
        budget = self.playouts
        done = 0
        for index in self._schedule(len(pool)):
            if budget is not None:
                if done >= budget:
                    break
            elif time.perf_counter() >= deadline:
                break
            world = determinized(game, self.rng)
            try:
                for move in pool[index]:
                    world.apply(move)
            except Exception:  # a sequence that a sampled draw makes impossible: not this world
                continue
            totals[index] += self._playout(world, me)
            counts[index] += 1
            done += 1
        self.last_playouts = done
        means = [totals[i] / counts[i] if counts[i] else float("-inf") for i in range(len(pool))]
        best = max(range(len(pool)), key=lambda i: (means[i], -i))
        self.last_value = means[best] if counts[best] else ranked[best][0]
        return pool[best]

    @staticmethod
    def _schedule(n: int) -> Iterator[int]:
        while True:
            yield from range(n)

    def _playout(self, world: Game, me: int) -> float:
        """Play the next ``DEPTH`` turns as ``normal`` would (the best holdings for whoever
        moves), then judge the position by the holdings; the final margin if the game ends."""
        turns = 0
        turn = world.turn
        while not world.finished:
            if world.turn != turn:
                turn, turns = world.turn, turns + 1
                if turns >= DEPTH:
                    return _standing(world, me)
            actor = world.actor
            best, best_move = float("-inf"), None
            for move in _candidates(world):
                after = world.clone()
                after.apply(move)
                value = _standing(after, actor)
                if value > best:
                    best, best_move = value, move
            world.apply(best_move)  # type: ignore[arg-type]
        return _margin(world, me)


# ---------------------------------------------------------------------- seats
LEVELS = ("easy", "normal", "hard")
DEFAULT_SECONDS = {"easy": 0.0, "normal": 0.0, "hard": 1.0}


def make_player(level: str, seed: int, seconds: float | None = None, playouts: int | None = None) -> Any:
    """A computer player of ``level`` (LEVELS) whose ``choose(game)`` returns a legal move for
    ``game.actor``. ``seconds`` caps its thinking per decision (each level has a default);
    ``playouts`` fixes the amount of search instead, and then the choice is a pure function of
    the position and the seed. None of them reads the order of the undrawn tiles."""
    if level == "easy":
        return _Greedy(seed, noise=0.35, farmers=False, plain=True)
    if level == "normal":
        return _Greedy(seed)
    if level == "hard":
        return _Search(seed, DEFAULT_SECONDS["hard"] if seconds is None else seconds, playouts)
    raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")


def hint(game: Game, seed: int, seconds: float | None = None, playouts: int | None = None) -> tuple[list[Move], float]:
    """What ``hard`` would play for the decision ``game`` awaits (the whole sequence: tile and
    figure...), and how far ahead of the best other player it expects to stand two turns later
    (points: scores plus holdings, see ``_holdings``). Never reads the order of the bag."""
    search = _Search(seed, DEFAULT_SECONDS["hard"] if seconds is None else seconds, playouts)
    plan = search._think(game)
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
