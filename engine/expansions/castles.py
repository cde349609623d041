"""Castles in Germany (RULES.md, german-castles page).

State (``game.state["castles"]``): ``hands`` (player index -> castle ids still
held) and ``dealt`` (the hands at the start, for the record). A player holding
a castle that fits somewhere starts the turn with the ``draw`` step: draw a
tile or place a castle. Once the bag is empty, the game goes on only while the
player to move can place a castle.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from engine.board import NEIGHBOURS8
from engine.catalog import SET_TILES, TILE_TYPES, tile_set
from engine.expansions import Event, Expansion, Move
from engine.game import BadSetup, IllegalMove

if TYPE_CHECKING:
    from engine.game import Game
    from engine.tiles import TileType

CASTLE_IDS = [t.id for t in SET_TILES["castles"]]
BONUS = 3


def is_castle(tile_id: str) -> bool:
    return tile_set(tile_id) == "castles"


def _state(game: Game) -> dict[str, Any]:
    return game.state["castles"]


def hand_size(players: int) -> int:
    return 2 if players <= 3 else 1


class Castles(Expansion):
    name = "castles"
    move_types = ("draw", "castle")
    steps = ("draw",)

    # ------------------------------------------------------------------ setup
    def bag(self, game: Game, bag: list[str], rng: random.Random) -> list[str]:
        return [t for t in bag if not is_castle(t)]  # castles are dealt, never drawn

    def check_pool(self, game: Game, pool: list[str]) -> None:
        if any(is_castle(t) for t in pool):
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
            for name, castles in given.items():
                if name not in game.players:
                    raise BadSetup(f"castles dealt to {name!r}, who is not playing")
                for c in castles:
                    if not is_castle(c) or c not in TILE_TYPES:
                        raise BadSetup(f"{c!r} is not a castle")
                    if c in seen:
                        raise BadSetup(f"{c!r} is dealt twice")
                    seen.add(c)
                hands[game.players.index(name)] = list(castles)
            for i in range(len(game.players)):
                hands.setdefault(i, [])
        game.state["castles"] = {"hands": hands, "dealt": {i: list(h) for i, h in hands.items()}}

    # ------------------------------------------------------------------ placing castles
    def castle_placements(self, game: Game) -> list[Move]:
        """Every castle the current player may place, where and how."""
        moves = []
        for castle_id in _state(game)["hands"].get(game.current, []):
            tile = TILE_TYPES[castle_id]
            for (x, y), rots in game.board.fitting_placements(tile).items():
                for rot in rots:
                    if self._near_castle(game, tile, x, y, rot) is None:
                        moves.append({"type": "castle", "castle": castle_id, "x": x, "y": y, "rot": rot})
        return moves

    @staticmethod
    def _near_castle(game: Game, tile: TileType, x: int, y: int, rot: int) -> str | None:
        board = game.board
        own = {(x + dx, y + dy) for dx, dy in tile.rotations[rot // 90].offsets}
        for cx, cy in own:
            for dx, dy in NEIGHBOURS8:
                placed = board.cells.get((cx + dx, cy + dy))
                if placed is not None and is_castle(board.placements[placed[0]].tile.id):
                    return f"a castle may not touch another castle, not even diagonally (at ({cx + dx}, {cy + dy}))"
        return None

    def turn_start(self, game: Game) -> bool:
        if not _state(game)["hands"].get(game.current):
            return False
        if game.bag_left == 0 or self.castle_placements(game):
            game.step = "draw"
            return True
        return False  # a castle that fits nowhere: the tile is drawn as usual

    def may_continue(self, game: Game) -> bool:
        return bool(_state(game)["hands"].get(game.current)) and bool(self.castle_placements(game))

    def step_moves(self, game: Game) -> list[Move]:
        draw: list[Move] = [{"type": "draw"}] if game.bag_left else []
        return draw + self.castle_placements(game)

    def validate(self, game: Game, move: Move) -> None:
        if game.step != "draw":
            raise IllegalMove("drawing or placing a castle is done at the start of your turn")
        if move["type"] == "draw":
            if not game.bag_left:
                raise IllegalMove("the bag is empty: you can only place a castle")
            return
        if move["type"] != "castle":
            raise IllegalMove("draw a tile or place one of your castles")
        castle_id = move.get("castle")
        hand = _state(game)["hands"].get(game.current, [])
        if castle_id not in hand:
            raise IllegalMove(f"you do not hold {castle_id!r}; your castles: {', '.join(hand) or 'none'}")
        tile = TILE_TYPES[castle_id]
        x, y, rot = game.check_placement(tile, move)
        problem = self._near_castle(game, tile, x, y, rot)
        if problem:
            raise IllegalMove(problem)

    def apply(self, game: Game, move: Move, events: list[Event]) -> None:
        if move["type"] == "draw":
            game.draw(events)
            return
        _state(game)["hands"][game.current].remove(move["castle"])
        game.put_tile(TILE_TYPES[move["castle"]], int(move["x"]), int(move["y"]), int(move["rot"]), events)

    # ------------------------------------------------------------------ scoring
    def bonus(self, game: Game, root: int, final: bool) -> int:
        board = game.board
        if final or board.kind[root] not in ("road", "city"):
            return 0
        castles = {board.node_place[n] for n in board.members(root) if is_castle(board.placement_of(n).tile.id)}
        return BONUS * len(castles)

    def record_fields(self, game: Game) -> dict[str, Any]:
        dealt = _state(game)["dealt"]
        return {"castles": {game.players[i]: list(h) for i, h in dealt.items()}}
