"""Traders & Builders (RULES.md "Traders & Builders"): goods, the builder and the pig.

- **Goods** are marks of city segments (``city{N,W} wine``). Whoever places the tile (or castle)
  that completes a city takes one token per good of that city (``on_completed``), whoever holds the
  city; at the end the most tokens of each good score 10 (ties: each), nobody for a good nobody has.
- **The builder** is a kind of figure that joins a road or city already holding one of its owner's
  followers and weighs nothing. When a later tile of its owner extends that feature (decided when
  the tile is placed), the owner plays one more part of the turn right after, at most once a turn
  (``on_place``, ``end_of_turn``, ``next_player``). It goes home with its feature, or as soon as none
  of its owner's followers is left there (checked when a tile is placed and at the end of each turn:
  after the plague, after ferry moves).
- **The pig** joins a field holding one of its owner's farmers; if its owner scores that field at
  the end, each completed city is worth 4 to them instead of 3 (``value``). River II's pigsty does
  the same for every player who scores its field, never more than 4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.expansions import Expansion, HeldItem
from engine.expansions.traders.moves import ExtraTurnEvent, GoodsEvent
from engine.figures import FigureKind, kind_of
from engine.language import N_, _, ngettext
from engine.words import names

if TYPE_CHECKING:
    from engine.game import Game
    from engine.moves import Event
    from engine.tiles import TileType

GOODS = ("wine", "grain", "cloth")
GOODS_POINTS = 10
PIGSTY = "pigsty"
GOOD_NAMES = {"wine": N_("wine"), "grain": N_("grain"), "cloth": N_("cloth")}

BUILDER = FigureKind(
    "builder",
    per_player=1,
    strength=0,
    follower=False,
    stands_on=frozenset(("road", "city")),
    joins_own=True,
    noun=N_("builder"),
    option=N_("builder on {feature}"),
    placed=N_("{player} put their builder on {feature}."),
)
PIG = FigureKind(
    "pig",
    per_player=1,
    strength=0,
    follower=False,
    stands_on=frozenset(("field",)),
    joins_own=True,
    noun=N_("pig"),
    option=N_("pig on {feature}"),
    placed=N_("{player} put their pig on {feature}."),
    drawing="farm_pig",  # "pig" is the Wheel of Fortune's marker
)


@dataclass
class TradersState:
    """Each player's goods tokens; whether the player to move has earned the builder's extra part
    (not played yet) and whether it was announced; whether this turn's extra part has begun (set
    until the turn ends: with the rivers, through the river's normal tile that may follow it)."""

    goods: list[dict[str, int]]
    extra_next: bool = False
    in_extra: bool = False
    announced: bool = False

    def copy(self) -> TradersState:
        """An independent copy (engine.copying: a look-ahead copies the state for every move it tries)."""
        return TradersState([dict(g) for g in self.goods], self.extra_next, self.in_extra, self.announced)


def _state(game: Game) -> TradersState:
    state: TradersState = game.state["traders"]
    return state


def builders(game: Game) -> list[tuple[int, tuple]]:
    """(root, builder) of every builder on the board."""
    followers = game.board.followers
    # (the roots with figures, kept by the board: the computers ask this of every position they judge)
    return [
        (root, f)
        for root in game.board.figure_roots()
        for f in followers[root] or ()
        if len(f) > 2 and f[2] == "builder"
    ]


def send_lonely_builders_home(game: Game) -> None:
    """A builder whose owner has no follower left on its feature goes home."""
    board = game.board
    for root, builder in builders(game):
        owner = builder[0]
        if not any(f[0] == owner and game.is_follower(f) for f in board.followers[root] or ()):
            board.remove_figure(builder)
            game.return_figure(builder)


# What a builder standing on an open road or city is worth to its owner over the rest of the game,
# in points, with the whole bag still to play: the extra tiles it may bring (an extra tile is worth
# about a turn's gain). Scaled down as the bag empties. Tuned with benchmarks/ai.py.
BUILDER_PROSPECT = 4.0


class Traders(Expansion):
    name = "traders"
    sets = ("traders",)
    titles = {"traders": N_("Traders & Builders")}
    figure_kinds = (BUILDER, PIG)
    segment_marks = (*GOODS, PIGSTY)
    value_per_player = True
    scored_kinds = ("field",)  # (the pig and the pigsty)
    state_types = (TradersState,)
    event_types = ("goods", "extra_turn")
    event_shapes = {"goods": GoodsEvent, "extra_turn": ExtraTurnEvent}
    scored_features = {
        "wine": N_("the most wine"),
        "grain": N_("the most grain"),
        "cloth": N_("the most cloth"),
    }

    def setup(self, game: Game, rng: Any, options: dict[str, Any]) -> None:
        game.state["traders"] = TradersState([{g: 0 for g in GOODS} for _p in game.players])

    @staticmethod
    def name_tile(tile: TileType, name: str) -> str:
        good = next((m for seg in tile.segments for m in seg.marks if m in GOODS), None)
        return _("{tile} with {good}").format(tile=name, good=_(GOOD_NAMES[good])) if good else name

    @staticmethod
    def describe(event: Event) -> str | None:
        if event["type"] == "goods":
            taken = [
                ngettext("{n} {good} token", "{n} {good} tokens", n).format(n=n, good=_(GOOD_NAMES[good]))
                for good, n in event["goods"].items()
            ]
            return _("{player} takes {tokens} from the completed city.").format(
                player=event["player"], tokens=names(taken)
            )
        if event["type"] == "extra_turn":
            return _("{player}'s builder: {player} plays one more tile.").format(player=event["player"])
        return None

    # ------------------------------------------------------------------ goods
    def on_completed(self, game: Game, root: int, events: list[Event]) -> None:
        board = game.board
        if board.kind[root] != "city":
            return
        marks = board.feature_marks(root)
        taken = {good: marks[good] for good in GOODS if marks.get(good)}
        if not taken:
            return
        player = game.current
        hand = _state(game).goods[player]
        for good, n in taken.items():
            hand[good] += n
        events.append({"type": "goods", "player": game.players[player], "goods": taken})

    def final_scoring(self, game: Game, events: list[Event]) -> None:
        goods = _state(game).goods
        for good in GOODS:
            best = max(hand[good] for hand in goods)
            if best == 0:
                continue  # nobody holds it: nobody scores for it
            winners = [p for p, hand in enumerate(goods) if hand[good] == best]
            for p in winners:
                game.scores[p] += GOODS_POINTS
            events.append(
                {
                    "type": "scored",
                    "feature": good,
                    "points": {game.players[p]: GOODS_POINTS for p in winners},
                    "final": True,
                }
            )

    def replay_fields(self, game: Game) -> dict[str, Any]:
        return {"goods": dict(zip(game.players, (dict(h) for h in _state(game).goods), strict=True))}

    def held(self, game: Game, player: int) -> list[HeldItem]:
        """The goods tokens a player has taken, by good (shown in their hand)."""
        return [HeldItem(good, n) for good, n in sorted(_state(game).goods[player].items()) if n]

    # ------------------------------------------------------------------ the pig
    def value(self, game: Game, root: int, final: bool, points: int, player: int | None) -> int:
        board = game.board
        if board.kind[root] != "field" or not points:
            return points
        pig = PIGSTY in board.feature_marks(root)
        if not pig and player is not None:
            pig = any(f[0] == player and kind_of(f) == "pig" for f in board.followers[root] or ())
        if not pig:
            return points
        # One point more per completed city (4 instead of 3), once however many pigs.
        return points + sum(1 for c in board.cities_of_field(root) if board.open[c] == 0)

    # ------------------------------------------------------------------ the builder
    def prospects(self, game: Game) -> list[float]:
        out = [0.0] * len(game.players)
        left = game.bag_left / max(1, len(game.bag))
        for root, builder in builders(game):
            if game.board.open[root] > 0:  # an open feature: a tile of its owner's may still extend it
                out[builder[0]] += BUILDER_PROSPECT * left
        return out

    def on_place(self, game: Game, placement: int, events: list[Event]) -> None:
        send_lonely_builders_home(game)  # the plague may have taken the last follower beside one
        state = _state(game)
        if state.in_extra or state.extra_next:
            return  # the extra part never earns another, and a turn earns one at most
        board = game.board
        player = game.current
        for n in board.tile_nodes(placement):
            if board.kind[n] not in ("road", "city"):
                continue
            standing = board.followers[board.find(n)] or ()
            if any(f[0] == player and kind_of(f) == "builder" for f in standing):
                state.extra_next = True
                return

    def end_of_turn(self, game: Game, events: list[Event]) -> None:
        send_lonely_builders_home(game)  # after scoring, the plague and ferry moves
        state = _state(game)
        if state.extra_next and not state.announced:
            if game.bag_left > 0 or any(h(game) for h in game._hooks["may_continue"]):
                state.announced = True
                events.append({"type": "extra_turn", "player": game.players[game.current]})
            else:
                state.extra_next = False  # no tile left: no extra part

    def next_player(self, game: Game) -> int | None:
        # Called only when no earlier expansion gives the next part: after the last river tile the
        # river's normal tile comes first (one turn with it), and the extra part after that. So the
        # turn ends here, not in ``end_of_turn``: when the extra part placed the last river tile, the
        # river's normal tile still belongs to it (``in_extra`` stays set: it earns no other part).
        state = _state(game)
        if not state.extra_next:
            state.in_extra = False  # the turn is over: the next one may earn an extra part
            return None
        state.extra_next = state.announced = False
        state.in_extra = True
        return game.current
