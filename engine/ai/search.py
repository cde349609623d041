"""``hard``: information-set Monte-Carlo search over the decision's move sequences.

The decision's options are its complete move sequences (a tile and its figure, a castle and its
figure, a ferry step, a plague answer...), listed on one determinization of the bag (``Bag``: the
real order is never read) as the search widens (``Options``); each gets a prior, what the position
holds at the end of the turn after it (``standing``). A draw ends its sequence, since what follows
depends on the tile: its prior is the mean, over a few sampled bags, of the turn then played as
the play-out policy plays it, so drawing is weighed against a castle at the same moment of the
turn.

Each iteration picks a sequence by UCB1 among the best-ranked
ones, plays it on a determinization (the k-th play-out of every sequence on the same one: common
random numbers), then plays on with the policy until ``depth`` turns after the decision's own
turn (the same horizon for every sequence: a castle line gets no extra turn over a draw), and
the position is judged by ``standing`` (the final margin if the game ends). Progressive widening
lets a new sequence in as the visits grow (``widen_base + widen_rate * sqrt(visits)``), so every
option is reachable given time and none is cut from the list; more time buys more
determinizations, more sequences tried and tighter means. Each sequence's prior counts as a
few play-outs (``prior_weight``), so little time gives ``normal``'s choice; the best mean is played.
Every sequence is listed first, whatever it costs (as ``normal`` lists them: hard never knows less
than normal); ``seconds`` then bounds the play-outs (anytime), so a decision whose listing alone
takes longer than the budget costs its listing (at most ~0.75 s measured in the expansion families'
crowded decisions). A fixed ``playouts`` makes the choice a pure function
of the position and the seed.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from dataclasses import dataclass, fields, replace
from typing import Any

from engine.ai.evaluation import DEFAULT_WEIGHTS, Weights, margin, standing
from engine.ai.players import PLACEMENTS, Bag, Planner, candidates, clone, figure_step_after
from engine.game import Game
from engine.moves import IllegalMove

Move = dict[str, Any]


@dataclass(frozen=True)
class Settings:
    """The search's knobs (``benchmarks/sprt.py`` plays one set of them against another)."""

    depth: int = 2  # turns played out after the decision's own turn before the position is judged
    # The play-outs a decision must afford at ``depth`` for the search to play out that deep; when the
    # first play-out says the budget buys fewer, every play-out stops one turn after the decision's
    # own (twice as many, each less noisy). 0: always ``depth``. Only under a time budget: a fixed
    # ``playouts`` keeps the choice a pure function of the position and the seed.
    deep_playouts: int = 0
    draw_samples: int = 4  # sampled bags behind a draw's prior
    policy_width: int = 2  # placements whose figure choices the play-out policy weighs (best by the tile alone)
    policy_sample: int = 10  # moves the play-out policy tries at most (drawn at random), past the decision's own turn
    widen_base: int = 4
    widen_rate: float = 1.5
    exploration: float = 1.0  # UCB1's constant, in standard deviations of the play-out values
    prior_weight: float = 3.0  # play-outs a sequence's prior counts for
    allowance: float = 0.0  # what a figure is taken to add to a placement until its figure choices are listed
    # Of the budget, at most, spent listing the sequences first; by default every one is listed whatever
    # it costs, as ``normal`` judges them all (a cut at 0.4 of 0.25 s, 0.1 s, left hard blind to options
    # normal saw wherever listing takes longer: 250-280 ms at the 90th percentile of the expansion
    # families' decisions), and the budget buys the play-outs beyond.
    listing_share: float = math.inf
    # how the play-out policy values positions (``evaluation.Weights``), and the search too but for ``value``
    weights: Weights = DEFAULT_WEIGHTS
    # How the positions the search compares are valued (the priors and the play-outs' ends), when not as
    # the play-out policy values them (None: ``weights``); ``value.completion=0.5`` in ``parse``. A value
    # apart from the policy's weights was tried by self-play and gained nothing yet (docs/BENCHMARKS.md).
    value: Weights | None = None

    @property
    def judged(self) -> Weights:
        """The weights the search judges positions by (``value``, or the policy's)."""
        return self.value or self.weights

    @classmethod
    def parse(cls, text: str) -> Settings:
        """Settings from ``"depth=1,policy_sample=6,completion=0.5"`` (the others as by default; a
        name that is no setting is one of the ``Weights``, see ``Weights.parse``; one prefixed
        ``value.`` is one of the ``value`` weights, the others as the policy's by default)."""
        changes: dict[str, Any] = {}
        known = {f.name: f.type for f in fields(cls) if f.name not in ("weights", "value")}
        weighed = []
        valued: list[str] = []  # (the ``value.`` weights, the prefix taken off)
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, number = item.partition("=")
            name = name.strip()
            if name.startswith("value."):
                valued.append(item.strip()[len("value.") :])
            elif name in known:
                # (a field's type is its name, or in the compiled engine the type itself)
                changes[name] = int(number) if known[name] in ("int", int) else float(number)
            else:
                weighed.append(item)
        try:
            weights = Weights.parse(",".join(weighed))
            value_weights = Weights.parse(",".join(valued)) if valued else None
        except ValueError as error:
            raise ValueError(f"{error}; or a search setting: one of {', '.join(known)}") from None
        return replace(cls(), weights=weights, value=value_weights, **changes)


DEFAULT = Settings()
DEPTH = DEFAULT.depth


def decided(game: Game, actor: int, turn: int) -> bool:
    return game.finished or game.turn != turn or game.actor != actor


def policy_step(world: Game, rng: random.Random | None = None, settings: Settings = DEFAULT) -> tuple[Game, list[Move]]:
    """The play-out policy, a quicker ``normal``: the placements ranked by what the position holds
    after the tile (``policy_sample`` of them drawn with ``rng`` when there are more), the best
    ``policy_width`` of them weighed with their best figure choice; any other step, its move with
    the best standing. Returns the position after its move (a placement with its figure: two
    moves) and the moves; ``world`` itself is not changed."""
    actor, weights = world.actor, settings.weights
    ranked: list[tuple[float, int, Move, Game]] = []
    moves = candidates(world)
    if rng is not None and len(moves) > settings.policy_sample:
        moves = rng.sample(moves, settings.policy_sample)
    for n, move in enumerate(moves):
        after = clone(world)
        after.apply(move)
        ranked.append((standing(after, actor, weights), n, move, after))
    if len(ranked) == 1:
        return ranked[0][3], [ranked[0][2]]
    ranked.sort(key=lambda r: (-r[0], r[1]))
    if ranked[0][2]["type"] not in PLACEMENTS:
        return ranked[0][3], [ranked[0][2]]
    best, best_state, best_moves = float("-inf"), ranked[0][3], [ranked[0][2]]
    for value, _n, move, after in ranked[: settings.policy_width]:
        if not figure_step_after(world, after):
            if value > best:
                best, best_state, best_moves = value, after, [move]
            continue
        for figure in after.legal_moves():
            end = clone(after)
            end.apply(figure)
            value = standing(end, actor, weights)
            if value > best:
                best, best_state, best_moves = value, end, [move, figure]
    return best_state, best_moves


def finish_turn(world: Game, actor: int, turn: int, settings: Settings = DEFAULT) -> tuple[Game, list[Move]]:
    """The rest of ``actor``'s decision played by the policy: the position after it, and the moves."""
    moves: list[Move] = []
    while not decided(world, actor, turn):
        world, played = policy_step(world, None, settings)
        moves += played
    return world, moves


class Options:
    """A decision's options, listed as the search widens. Each first move is tried once on the
    determinization ``view``: one that ends the decision is an option at once, with its prior
    (what the position holds at the end of the turn; a draw's is sampled, see ``draw_prior``); one
    that the decision goes on from (a tile, then its figure) waits with the standing after it plus
    ``allowance`` until the widening reaches it, and is then expanded into its complete sequences
    (each second move, the rest finished by the policy), each with its prior. ``admit(n)`` lets
    options in, best prior first, until ``n`` are in (``admitted``, in order) or none is left, so
    every option is listed once the search has widened that far and the cost of listing grows
    with the time spent rather than with the decision's size. ``expand`` lists them all up front,
    or as many as a share of the budget allows (``listing_share``)."""

    def __init__(self, view: Game, rng: random.Random, settings: Settings = DEFAULT) -> None:
        self.view, self.rng, self.settings = view, rng, settings
        self.me, self.turn = view.actor, view.turn
        self.admitted: list[tuple[float, list[Move]]] = []
        self.listed = 0  # complete sequences listed so far
        self._waiting: list[tuple[float, int, list[Move], Game | None]] = []  # (-prior, order, moves, to expand)
        self._order = 0
        for move in candidates(view):
            after = clone(view)
            after.apply(move)
            if move["type"] == "draw":
                self._push(draw_prior(view, move, rng, settings), [move], None)
            elif decided(after, self.me, self.turn):
                self._push(standing(after, self.me, settings.judged), [move], None)
            else:
                self._push(standing(after, self.me, settings.judged) + settings.allowance, [move], after)

    @property
    def exhausted(self) -> bool:
        return not self._waiting

    def _push(self, prior: float, moves: list[Move], pending: Game | None) -> None:
        heapq.heappush(self._waiting, (-prior, self._order, moves, pending))
        self._order += 1
        if pending is None:
            self.listed += 1

    def admit(self, count: int) -> None:
        while len(self.admitted) < count and self._waiting:
            prior, _order, moves, pending = heapq.heappop(self._waiting)
            if pending is None:
                self.admitted.append((-prior, moves))
            else:
                self._expand(moves[0], pending)

    def expand(self, until: float | None) -> None:
        """List the complete sequences of the waiting first moves, best first, until the clock
        (``time.perf_counter``) passes ``until`` (None: all of them), so that the options' priors
        are as ``normal`` judges them wherever the time allows."""
        waiting = sorted(self._waiting)
        self._waiting = [entry for entry in waiting if entry[3] is None]
        pending = [entry for entry in waiting if entry[3] is not None]
        for n, (_prior, _order, moves, after) in enumerate(pending):
            if until is not None and time.perf_counter() >= until:
                self._waiting += pending[n:]
                break
            assert after is not None
            self._expand(moves[0], after)
        heapq.heapify(self._waiting)

    def _expand(self, first: Move, after: Game) -> None:
        for second in candidates(after):
            end = clone(after)
            end.apply(second)
            end, rest = finish_turn(end, self.me, self.turn, self.settings)
            self._push(standing(end, self.me, self.settings.judged), [first, second, *rest], None)

    def every(self) -> list[tuple[float, list[Move]]]:
        """Every option, best prior first (the whole list: for tests)."""
        self.admit(1 << 30)
        return self.admitted


def draw_prior(view: Game, draw: Move, rng: random.Random, settings: Settings = DEFAULT) -> float:
    """What drawing is worth at the end of the turn: the mean, over ``settings.draw_samples``
    sampled bags, of the standing after the drawn tile is played as the policy plays it."""
    me, turn = view.actor, view.turn
    bag = Bag(view)
    total = 0.0
    for _ in range(settings.draw_samples):
        world = bag.deal(view, rng)
        world.apply(draw)
        world, _moves = finish_turn(world, me, turn, settings)
        total += standing(world, me, settings.judged)
    return total / settings.draw_samples


class Search(Planner):
    def __init__(self, seed: int, seconds: float | None, playouts: int | None, settings: Settings = DEFAULT) -> None:
        self.rng = random.Random(seed)
        self.settings = settings
        self.seconds, self.playouts = seconds, playouts
        self.last_playouts = 0  # how many the last decision ran (benchmarks report playouts/s)
        self.last_value = 0.0  # what the chosen sequence was judged worth (see hint)
        self.last_options = 0  # how many sequences the last decision listed
        self.last_depth = settings.depth  # the turns the last decision's play-outs went past its own

    # ------------------------------------------------------------------ the search
    def think(self, game: Game) -> list[Move]:
        me, turn = game.actor, game.turn
        # (listing the options counts in the budget: a decision costs about ``seconds`` in all,
        # or its listing when that takes longer)
        budget = self.seconds if self.seconds is not None else 1.0
        start = time.perf_counter()
        deadline = start + budget
        bag = Bag(game)
        # Every position judged is a copy of this one: its board tracks its fields from the start (a
        # cache, Board.track_fields), so that no play-out walks a field from scratch.
        game = clone(game)
        game.board.track_fields()
        settings = self.settings
        options = Options(bag.deal(game, self.rng), self.rng, settings)
        options.expand(None if self.playouts is not None else start + settings.listing_share * budget)
        ranked = options.admitted
        options.admit(settings.widen_base)
        self.last_options = options.listed
        if len(ranked) == 1 and options.exhausted:
            self.last_value = ranked[0][0]
            self.last_playouts = 0
            return ranked[0][1]
        priors: list[float] = []
        visits: list[int] = []
        totals: list[float] = []
        squares = 0.0  # (of every play-out value: the spread scales the exploration)
        worlds: list[int] = []  # the seed of each sequence's k-th play-out
        done = 0
        horizon = turn + 1 + settings.depth
        # (the first play-out's cost decides the horizon, under a time budget: see ``deep_playouts``)
        probing = bool(settings.deep_playouts) and self.playouts is None and settings.depth > 1
        while True:
            if self.playouts is not None:
                if done >= self.playouts:
                    break
            elif time.perf_counter() >= deadline:
                break
            options.admit(settings.widen_base + int(settings.widen_rate * math.sqrt(done)))
            while len(priors) < len(ranked):
                priors.append(ranked[len(priors)][0])
                visits.append(0)
                totals.append(0.0)
            width = len(ranked)
            means = self._means(priors, visits, totals, width)
            index = self._select(means, visits, width, done, squares)
            # Common random numbers: the k-th play-out of every sequence runs on the same bag and the
            # same policy coin, so sequences are compared on the same worlds (far less noise).
            while len(worlds) <= visits[index]:
                worlds.append(self.rng.getrandbits(64))
            coin = random.Random(worlds[visits[index]])
            started = time.perf_counter()
            world = bag.deal(game, coin)
            try:
                for move in ranked[index][1]:
                    world.apply(move)
                value = self._playout(world, me, horizon, coin)
            except IllegalMove:  # a sequence that a sampled bag makes impossible: worth its mean here
                value = means[index]
            if probing:
                probing = False
                cost = time.perf_counter() - started
                if (deadline - time.perf_counter()) / max(cost, 1e-6) < settings.deep_playouts:
                    horizon = turn + 2  # the budget is too short for the depth: this play-out is not counted
                    continue
            visits[index] += 1
            totals[index] += value
            squares += value * value
            done += 1
        self.last_playouts = done
        self.last_options = options.listed
        self.last_depth = horizon - turn - 1
        if not visits:
            self.last_value = ranked[0][0]
            return ranked[0][1]
        means = self._means(priors, visits, totals, len(visits))
        best = max(range(len(visits)), key=lambda i: (means[i], visits[i], -i))
        self.last_value = means[best]
        return ranked[best][1]

    def _means(self, priors: list[float], visits: list[int], totals: list[float], width: int) -> list[float]:
        """Each sequence's value so far: its play-outs' mean, with its prior counted as
        ``prior_weight`` play-outs. The prior (the standing at the end of the turn) is shifted
        by how much the play-outs (``depth`` turns later) gain on the priors on average, so that
        a sequence is not favoured for having been played out more."""
        played = sum(visits[:width])
        # (float sums from 0.0: the compiled engine keeps a float a float)
        gain = sum(totals[:width], 0.0) - sum((visits[i] * priors[i] for i in range(width)), 0.0)
        offset = gain / played if played else 0.0
        weight = self.settings.prior_weight
        return [(weight * (priors[i] + offset) + totals[i]) / (weight + visits[i]) for i in range(width)]

    def _select(self, means: list[float], visits: list[int], width: int, done: int, squares: float) -> int:
        """UCB1 among the first ``width`` sequences (their means already hold their priors)."""
        if not done:
            return 0
        mean_all = sum(means, 0.0) / width
        spread = math.sqrt(max(4.0, squares / done - mean_all * mean_all))
        c = self.settings.exploration * spread
        log_n = math.log(done + 1)
        return max(range(width), key=lambda i: means[i] + c * math.sqrt(log_n / (visits[i] + 1)))

    def _playout(self, world: Game, me: int, horizon: int, coin: random.Random) -> float:
        """Play on with the policy until the turn ``horizon`` starts, then judge the position by
        what it holds; the final margin if the game ends first."""
        while not world.finished:
            if world.turn >= horizon:
                return standing(world, me, self.settings.judged)
            world, _moves = policy_step(world, coin, self.settings)
        return margin(world, me)
