"""What a position is worth to the computer players, in points.

Every open feature is valued through ``feature_value``, the engine's own value of a feature
(``Game.feature_value``: its points with every expansion's modifiers and bonus), completed and
unfinished, weighed by the chance it is completed (``Weights``), its majority by
the engine's weighing of figures (a big follower counts 2, a builder or a pig nothing); the
expansions' end-of-game scoring (``final_scoring``: a tollhouse's open roads, goods...) is counted
through ``end_bonus``, and what an expansion says a player may still gain beyond any scoring (its
``prospects``: the extra tiles a builder may bring) is added; so an expansion's rules reach the
computers without code here. Figures
on the board are counted through the engine's own views (``Game.board_figures``), so a tollhouse
or a follower on a crown space is seen like a follower."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.board import CLOSABLE_KINDS
from engine.expansions.registry import figure_kind
from engine.game import Game
from engine.holes import scarce_roots

Move = dict[str, Any]

# What a follower still in hand is worth at the start of the game, in points (it falls to nothing by
# the end): the default of ``Weights.follower_in_hand``, kept as a name for the tests and benchmarks.
FOLLOWER_IN_HAND = 1.5
# What having a follower in hand at all is worth, in points, beside each one's worth: the default of
# ``Weights.reserve`` (docs/BENCHMARKS.md: fitted on self-play, then measured)
RESERVE = 4.0
# What a completed city brings a field in the base game, for a field that touches none yet (one that
# does is asked its own points a city: an expansion may change them)
FIELD_POINTS_A_CITY = 3


@dataclass(frozen=True)
class Weights:
    """How the computers value what a position holds beyond the scores (``holdings``). Tuned by
    self-play (docs/BENCHMARKS.md); ``benchmarks/sprt.py`` plays other weights against these.

    An open road or city is worth what it scores if completed (``Game.feature_value(root, False)``:
    a city's double, an inn's or a cathedral's, a castle's bonus...) times the chance it is, and
    what it scores unfinished at the end otherwise (``final``: an inn road nothing). The chance is
    ``completion`` with one open edge, times ``per_open_edge`` for each further one, and falls to
    nothing as the last ``late`` tiles are drawn; a field counts ``field_share`` of its points now,
    rising to all of them over those tiles (at the end the holdings are the final scoring), and
    ``field_open`` of the points each open city it touches would bring it, by that city's chance (a
    city's points to a field: the field's points a completed city, 3 in the base game). A road or
    city whose scarcest open cell few of the tiles left fit keeps a part of its chance (``scarce``),
    none when it ends on a hole, a cell nothing left fits (``engine.holes``). A follower in hand is
    worth ``follower_in_hand`` at the start, falling to nothing by the end, and having one at all is
    worth ``reserve`` more: in normal's games a player with none left could claim nothing the tiles
    to come brought, which cost about 4 points by the end from the middle of the game on
    (``benchmarks/valuation.py``)."""

    completion: float = 0.8
    per_open_edge: float = 0.5
    city_share: float = 1.0  # of an open city's unfinished points, beside its chance (before: 1.4, no chance)
    field_share: float = 0.6
    late: float = 20.0  # tiles left
    # A road or city whose scarcest open cell only n < ``scarce`` of the tiles left fit keeps n /
    # ``scarce`` of its chance (``engine.holes``; none on a hole, which nothing left fits); 0: the
    # open cells are not looked at
    scarce: float = 12.0
    # Of the points an open city would bring the fields it touches, by its chance of completion (0: a
    # field counts only its completed cities; 0.3 lifted normal by ~60 Elo on base, hard unchanged)
    field_open: float = 0.3
    end_share: float = 1.0  # the expansions' end-of-game points (final_scoring), as they stand now
    follower_in_hand: float = FOLLOWER_IN_HAND
    # What having a follower in hand at all is worth, in points, beside each one's worth, until the last
    # round of tiles: a player who has none can claim nothing the tiles to come bring (0: nothing)
    reserve: float = RESERVE
    # kind -> what one in hand is worth, in plain followers in hand (other than it declares:
    # ``FigureKind.hand_worth``); empty: as declared
    hand: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Weights:
        """Weights from ``"completion=0.5,big=0"`` (a field by name, or a kind of figure's worth in
        hand; the rest as by default); anything else is refused (ValueError)."""
        known = {f.name for f in fields(cls)} - {"hand"}
        changes: dict[str, Any] = {}
        hand: dict[str, float] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = (part.strip() for part in item.partition("="))
            if name in known:
                changes[name] = float(value)
            elif figure_kind(name) is not None:
                hand[name] = float(value)
            else:
                raise ValueError(f"unknown weight {name!r}: a kind of figure or one of {', '.join(sorted(known))}")
        return replace(cls(), hand=hand, **changes)


DEFAULT_WEIGHTS = Weights()


def feature_value(game: Game, root: int, final: bool) -> int:
    """What the feature ``root`` scores for each of its majority players, were it scored now: the
    engine's one value of a feature (``Game.feature_value``), the one place the computers ask it."""
    return game.feature_value(root, final)


def end_bonus(game: Game) -> list[int]:
    """What each player would get from the expansions' end-of-game scoring were the game to end
    now (the hooks run with the scores set aside, then the scores are put back)."""
    hooks = game.hooks("final_scoring")
    if not hooks:
        return [0] * len(game.scores)
    kept = game.scores
    game.scores = [0] * len(kept)
    try:
        for hook in hooks:
            hook(game, [])
        return game.scores
    finally:
        game.scores = kept


def holdings(game: Game, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Each player's score plus what their figures are likely to bring: the open features they
    hold, each worth what it would score completed or at the end, by the chance it is completed
    (``Weights``), the expansions' end-of-game points and prospects, and the figures they still
    have in hand, with a reserve for having a follower at all (``hand_worths``)."""
    board = game.board
    out = [float(s) for s in game.scores]
    kinds, followers, edges = board.kind, board.followers, board.open
    roots = board.figure_roots()
    values = game.feature_values(roots, True)
    # (the last ``late`` tiles: the chances fall to nothing, the fields rise to their whole points)
    early = min(1.0, game.bag_left / weights.late) if weights.late > 0 else 1.0
    chance, per_edge = weights.completion * early, weights.per_open_edge
    completed: dict[int, int] = {}  # open road or city -> what it scores completed
    if chance:
        open_roots = [root for root in roots if edges[root] and kinds[root] in CLOSABLE_KINDS]
        completed = dict(zip(open_roots, game.feature_values(open_roots, False), strict=True))
    field_share, city_share = 1.0 - (1.0 - weights.field_share) * early, weights.city_share
    # open road or city -> the tiles left that fit its scarcest open cell: looked up when a chance is
    # first asked (a position where none is asked never walks its open cells)
    scarce: dict[int, int] | None = None if weights.scarce > 0 else {}
    # (the chances asked in the loop itself, without a closure or a generator: this runs in every
    # position the computers judge, and the compiled engine makes plain loops quickest)
    for root, value in zip(roots, values, strict=True):
        kind = kinds[root]
        if kind == "field":
            points = value * field_share
            if weights.field_open and chance:  # (its open cities' points, by their chances)
                done_cities = board.completed_cities_of_field(root)
                per_city = value / done_cities if done_cities else FIELD_POINTS_A_CITY
                odds = 0.0
                for city in board.cities_of_field(root):
                    if edges[city]:
                        if scarce is None:
                            scarce = scarce_roots(game, math.ceil(weights.scarce))
                        odds += completion_odds(city, edges[city], chance, per_edge, scarce, weights.scarce)
                points += weights.field_open * per_city * field_share * odds
        else:  # (a cloister, a castle, or a closed feature: what it scores now)
            points = value * city_share if kind == "city" else float(value)
            if (done := completed.get(root)) is not None:  # (open: toward its points completed, by its chance)
                if scarce is None:
                    scarce = scarce_roots(game, math.ceil(weights.scarce))
                points += completion_odds(root, edges[root], chance, per_edge, scarce, weights.scarce) * (done - points)
        if points:
            figures = followers[root] or ()  # (never empty here: the roots with figures)
            if len(figures) == 1 and len(figures[0]) == 2:  # one plain follower: its owner holds it
                out[figures[0][0]] += points
            else:
                for p in game.majority(root):
                    out[p] += points
    if game.hooks("final_scoring"):
        for p, extra in enumerate(end_bonus(game)):
            out[p] += weights.end_share * extra
    for hook in game.hooks("prospects"):  # what no scoring counts yet: a builder's extra tiles
        for p, prospect in enumerate(hook(game)):
            out[p] += prospect
    for p, in_hand in enumerate(hand_worths(game, weights.hand, weights.follower_in_hand, weights.reserve)):
        out[p] += in_hand
    return out


def completion_odds(
    root: int, open_edges: int, chance: float, per_edge: float, scarce: Mapping[int, int], limit: float
) -> float:
    """The chance the open road or city ``root`` is completed (``Weights``): ``chance`` with one open
    edge, ``per_edge`` as much for each further one, and a part of it by its scarcest open cell
    (``scarce``: root -> the tiles left that fit it, when fewer than ``limit``)."""
    found = chance * per_edge ** (open_edges - 1)
    copies = scarce.get(root)
    if copies is not None:
        found *= copies / limit
    return found


def hand_worths(
    game: Game, worths: Mapping[str, float] | None = None, follower: float = FOLLOWER_IN_HAND, reserve: float = 0.0
) -> list[float]:
    """What each player's figures still in hand are worth: ``follower`` a plain follower at the
    start of the game, falling to nothing by its end, and each other kind as many plain followers
    as it declares (``FigureKind.hand_worth``: a big follower two), or as ``worths`` says (kind ->
    plain followers: ``benchmarks/sprt.py`` measures other worths); and ``reserve`` points to each
    player who has a follower (of any kind) in hand at all, until the last round of tiles."""
    left = follower * game.bag_left / max(1, len(game.bag))
    kinds = game.figure_kinds
    # (the reserve falls to nothing as the last round of tiles is drawn: with the bag empty the holdings
    # are the final scoring but for the tile in hand)
    reserve = 0.0 if game.finished else reserve * min(1.0, game.bag_left / len(game.supply))
    if len(kinds) == 1 and not worths:  # (the plain follower only)
        return [left * supply + (reserve if supply else 0.0) for supply in game.supply]
    worth = {name: kind.hand_worth for name, kind in kinds.items()}
    worth.update(worths or {})
    # (each count asked: building every hand, as Game.hands does, costs more, and this runs in every
    # position the computers judge)
    count = game.in_hand
    return [
        left * sum((w * count(p, name) for name, w in worth.items()), 0.0)
        + (reserve if game.followers_in_hand(p) else 0.0)
        for p in range(len(game.supply))
    ]


def lead(values: Sequence[float], me: int) -> float:
    """My value minus the best other player's (nothing to subtract alone)."""
    others = [v for i, v in enumerate(values) if i != me]
    return values[me] - (max(others) if others else 0.0)


def standing(game: Game, me: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """My holdings minus the best other player's."""
    return lead(holdings(game, weights), me)


def margin(game: Game, me: int) -> float:
    """My score minus the best other score."""
    return float(lead(game.scores, me))


def figures_of(game: Game, player: int) -> int:
    """How many figures ``player`` has standing on the board, read from the engine's views: those
    the player owns (followers, a tollhouse) and their places on shared figures (a view without
    an owner lists who stands on its spaces, as the wheel's crown spaces do)."""
    count = 0
    for view in game.board_figures():
        if view.owner == player:
            count += 1
        elif view.owner is None:
            for item in view.data:
                if isinstance(item, tuple):
                    count += sum(1 for who in item if who == player)
    return count


def figure_value(before: Game, after: Game, move: Move, farmers: bool = True) -> float:
    """A rule of thumb for a figure the move left standing: an investment in an open feature,
    more on a city, a cloister or a castle than on a road, farmers only late in the game (never
    when ``farmers`` is off). Nothing when no figure of the mover's stands after the move than
    before (it scored and came straight back: the gain says it all)."""
    if move["type"] != "meeple":
        return 0.0
    me = before.actor
    if figures_of(after, me) <= figures_of(before, me):
        return 0.0
    at = str(move.get("at", ""))
    progress = 1 - before.bag_left / max(1, len(before.bag))
    if at.startswith("field"):
        return (1.5 if progress > 0.66 else -1.0) if farmers else -3.0
    if at.startswith("city") or at == "cloister" or at == "castle":
        return 1.0
    return 0.5
