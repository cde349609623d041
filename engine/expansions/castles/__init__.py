"""Castles in Germany (RULES.md, german-castles page).

State (``game.state["castles"]``, a ``CastlesState``): ``hands`` (player index -> castle ids still
held) and ``dealt`` (the hands at the start, for the record). A player holding
a castle that fits somewhere starts the turn with the ``draw`` step: draw a
tile or place a castle (not while river tiles are still to be played). Once the
bag is empty, the game goes on only while the player to move can place a castle;
a player whose drawn tile fits nowhere and empties the bag may still place one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.board import NEIGHBOURS8
from engine.catalog import TILE_TYPES, set_ids, tile_set
from engine.expansions import Event, Expansion, HeldItem, LobbyOption, Move, SeatPick, Step
from engine.expansions.castles.moves import CastleMove, DrawMove
from engine.language import N_, _, ngettext
from engine.moves import BadSetup, IllegalMove
from engine.words import cell, tile_name

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType

CASTLE_IDS = set_ids("castles")
CASTLE_ID_SET = frozenset(CASTLE_IDS)
BONUS = 3


def is_castle(tile_id: str) -> bool:
    return tile_set(tile_id) == "castles"


@dataclass
class CastlesState:
    """Each player's castles still in hand, and the hands dealt at the start (for the record)."""

    hands: dict[int, list[str]]
    dealt: dict[int, list[str]]

    def copy(self) -> CastlesState:
        """An independent copy (engine.copying: a look-ahead copies the state for every move it tries)."""
        return CastlesState({p: list(h) for p, h in self.hands.items()}, {p: list(h) for p, h in self.dealt.items()})


def _state(game: Game) -> CastlesState:
    return game.state["castles"]  # type: ignore[no-any-return]


def hand_size(players: int) -> int:
    return 2 if players <= 3 else 1


class CastleChoice(Step):
    """At the start of the turn, a castle holder draws a tile or places a castle."""

    name = "draw"
    after = "turn_start"
    move_types = ("draw", "castle")

    def asks(self, game: Game) -> bool:
        if not _state(game).hands.get(game.current) or game.must_draw() or game.placement is not None:
            return False
        return castle_fits(game)

    def moves(self, game: Game) -> list[Move]:
        draw: list[Move] = [{"type": "draw"}] if game.bag_left else []
        return draw + castle_placements(game)

    def placed_tile(self, game: Game, move: Move) -> TileType | None:
        return TILE_TYPES[move["castle"]] if move["type"] == "castle" else None

    def prompt(self, game: Game) -> str:
        if not game.bag_left:
            return _("place one of your castles (the bag is empty)")
        return _("draw a tile or place one of your castles")

    def label(self, game: Game, move: Move) -> str:
        if move["type"] == "draw":
            return _("draw a tile from the bag")
        return _("{castle} at {cell} turned {degrees}°").format(
            castle=tile_name(move["castle"]), cell=cell(move["x"], move["y"]), degrees=move["rot"]
        )

    def check(self, game: Game, move: Move) -> None:
        if move["type"] == "draw":
            if not game.bag_left:
                raise IllegalMove(_("the bag is empty: you can only place a castle"))
            return
        castle_id = move.get("castle")
        hand = _state(game).hands.get(game.current, [])
        if not isinstance(castle_id, str) or castle_id not in hand:
            held = ", ".join(tile_name(c) for c in hand) or _("none")
            raise IllegalMove(
                _("you do not hold {castle!r}; your castles: {held}").format(castle=str(castle_id)[:40], held=held)
            )
        tile = TILE_TYPES[castle_id]
        x, y, rot = game.check_placement(tile, move)
        problem = _near_castle(game, tile, x, y, rot)
        if problem:
            raise IllegalMove(problem)

    def play(self, game: Game, move: Move, events: list[Event]) -> bool:
        if move["type"] == "castle":
            _state(game).hands[game.current].remove(move["castle"])
            game.put_tile(TILE_TYPES[move["castle"]], move["x"], move["y"], move["rot"], events)
        return True  # a draw: the deal that follows draws the tile


def castle_placements(game: Game) -> list[Move]:
    """Every castle the current player may place, where and how (computed once per
    board and hand: the choice step asks it several times a turn)."""
    hand = _state(game).hands.get(game.current, [])
    key = ("castles", len(game.board.placements), game.current, tuple(hand))
    cached = game.scratch.get(key)
    if cached is None:
        cached = game.scratch[key] = _castle_placements(game)
    return [dict(m) for m in cached]


def castle_fits(game: Game) -> bool:
    """Whether the current player may place a castle somewhere: ``bool(castle_placements(game))``,
    found without listing them all (the choice step asks it every turn; a replay needs no list)."""
    hand = _state(game).hands.get(game.current, [])
    key = ("castles", len(game.board.placements), game.current, tuple(hand))
    listed = game.scratch.get(key)
    if listed is not None:
        return bool(listed)
    key = ("castle fits", *key[1:])
    fits = game.scratch.get(key)
    if fits is None:
        fits = game.scratch[key] = any(
            not _touches_castle(game, tile, x, y, rot)
            for tile in (TILE_TYPES[c] for c in hand)
            for x, y, rot in game.board.multi_fits(tile)
        )
    return fits


def _castle_placements(game: Game) -> list[Move]:
    moves = []
    for castle_id in _state(game).hands.get(game.current, []):
        tile = TILE_TYPES[castle_id]
        for (x, y), rots in game.board.fitting_placements(tile).items():
            for rot in rots:
                if not _touches_castle(game, tile, x, y, rot):
                    moves.append({"type": "castle", "castle": castle_id, "x": x, "y": y, "rot": rot})
    return moves


def _near_castle(game: Game, tile: TileType, x: int, y: int, rot: int) -> str | None:
    board = game.board
    own = {(x + dx, y + dy) for dx, dy in tile.rotations[rot // 90].offsets}
    for cx, cy in own:
        for dx, dy in NEIGHBOURS8:
            placed = board.cells.get((cx + dx, cy + dy))
            if placed is not None and is_castle(board.placements[placed[0]].tile.id):
                return _("a castle may not touch another castle, not even diagonally (at {cell})").format(
                    cell=cell(cx + dx, cy + dy)
                )
    return None


def _touches_castle(game: Game, tile: TileType, x: int, y: int, rot: int) -> bool:
    """``_near_castle(...) is not None`` without the message, for the searches that try many places."""
    board = game.board
    cells, placements = board.cells, board.placements
    for ox, oy in tile.rotations[rot // 90].offsets:
        for dx, dy in NEIGHBOURS8:
            placed = cells.get((x + ox + dx, y + oy + dy))
            if placed is not None and placements[placed[0]].tile.id in CASTLE_ID_SET:
                return True
    return False


class Castles(Expansion):
    name = "castles"
    sets = ("castles",)
    titles = {"castles": N_("Castles in Germany")}
    options = ("castles",)
    state_types = (CastlesState,)
    scored_kinds = ("road", "city")  # (its bonus: a castle on a road or a city)
    move_shapes = {"draw": DrawMove, "castle": CastleMove}
    lobby_options = (
        LobbyOption(
            "castles", N_("Castles"), (("dealt", N_("dealt at the start")), ("chosen", N_("chosen in the lobby"))),
            "dealt",
            SeatPick("chosen", "castle_choices", N_("Your castles"), lambda: list(CASTLE_IDS), tile_name, 2),
        ),
    )  # fmt: skip

    @classmethod
    def game_options(
        cls, chosen: dict[str, str], picks: dict[str, dict[str, list[str]]], seats: list[tuple[str, bool]], seed: int
    ) -> dict[str, Any]:
        """Hands picked in the lobby (each player their count; computers get what is left, shuffled
        with the game's seed), or dealt at the start (nothing to pass)."""
        if chosen.get("castles") != "chosen":
            return {}
        size = hand_size(len(seats))
        chosen_hands = picks.get("castle_choices", {})
        hands: dict[str, list[str]] = {}
        for name, computer in seats:
            if computer:
                continue
            hand = chosen_hands.get(name, [])
            if len(hand) != size:
                raise BadSetup(
                    ngettext(
                        "waiting for {player} to choose {n} castle", "waiting for {player} to choose {n} castles", size
                    ).format(player=name, n=size)
                )
            hands[name] = list(hand)
        left = [c for c in CASTLE_IDS if not any(c in h for h in hands.values())]
        random.Random(seed).shuffle(left)
        for name, computer in seats:
            if computer:
                hands[name], left = left[:size], left[size:]
        return {"castles": hands}

    # ------------------------------------------------------------------ setup
    def bag(self, game: Game, bag: list[str], rng: random.Random) -> list[str]:
        return [t for t in bag if not is_castle(t)]  # castles are dealt, never drawn

    def check_pool(self, game: Game, pool: list[str]) -> None:
        if not CASTLE_ID_SET.isdisjoint(pool):  # the pool holds known tile ids only (checked before)
            raise BadSetup("castles are dealt to the players (the record's 'castles'), never drawn from the pool")

    def setup(self, game: Game, rng: random.Random, options: dict[str, Any]) -> None:
        given = options.get("castles")
        if given is None:
            deck = list(CASTLE_IDS)
            rng.shuffle(deck)
            size = hand_size(len(game.players))
            hands = {i: deck[i * size : (i + 1) * size] for i in range(len(game.players))}
        else:
            hands = {}
            seen: set[str] = set()
            if not isinstance(given, dict):
                raise BadSetup("castles maps player names to their castle ids")
            for name, castles in given.items():
                if name not in game.players:
                    raise BadSetup(f"castles dealt to {str(name)[:40]!r}, who is not playing")
                if not isinstance(castles, list) or len(castles) > 2:
                    raise BadSetup(f"{name!r} must hold one or two castles")
                for c in castles:
                    if not isinstance(c, str) or not is_castle(c) or c not in TILE_TYPES:
                        raise BadSetup(f"{str(c)[:40]!r} is not a castle")
                    if c in seen:
                        raise BadSetup(f"{c!r} is dealt twice")
                    seen.add(c)
                hands[game.players.index(name)] = list(castles)
            for i in range(len(game.players)):
                hands.setdefault(i, [])
        game.state["castles"] = CastlesState(hands, {i: list(h) for i, h in hands.items()})

    # ------------------------------------------------------------------ the turn
    def steps(self) -> list[Step]:
        return [CastleChoice()]

    def may_continue(self, game: Game) -> bool:
        return bool(_state(game).hands.get(game.current)) and castle_fits(game)

    # ------------------------------------------------------------------ scoring
    def bonus(self, game: Game, root: int, final: bool) -> int:
        board = game.board
        if final or board.kind[root] not in ("road", "city"):
            return 0
        castles = {board.node_place[n] for n in board.members(root) if is_castle(board.placement_of(n).tile.id)}
        return BONUS * len(castles)

    def held(self, game: Game, player: int) -> list[HeldItem]:
        return [HeldItem("castle", 1, tile_name(c)) for c in _state(game).hands.get(player, [])]

    def record_fields(self, game: Game) -> dict[str, Any]:
        dealt = _state(game).dealt
        return {"castles": {game.players[i]: list(h) for i, h in dealt.items()}}
