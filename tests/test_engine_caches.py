"""The engine's caches for the computer players' look-ahead agree with what they cache (the ferries
rebuild roads in the rivers family)."""

from __future__ import annotations

from engine import Game
from engine.ai import RandomPlayer
from engine.board import Board
from tests.families import FAMILIES


def _walked(board: Board, root: int) -> set[int]:
    """The roots of the cities a field touches, walked without the cache."""
    out = set()
    for n in board.members(root):
        p = board.placement_of(n)
        out.update(board.find(p.first_node + c) for c in p.tile.segments[n - p.first_node].cities)
    return out


def test_the_cached_cities_of_fields_stay_true_through_play_and_clones() -> None:
    for sets in FAMILIES:
        for seed in range(3):
            game = Game(["Ann", "Bob", "Cy"], sets, seed=seed)
            player = RandomPlayer(seed)
            while not game.finished:
                if game.turn % 4 == 0:
                    game = game.clone()  # the cache goes on in a copy as in the original
                board = game.board
                for root in range(len(board.parent)):
                    if board.parent[root] == root:
                        assert board.feature_size(root) == len(board.feature_cells(root))
                    if board.parent[root] == root and board.kind[root] == "field":
                        walked = _walked(board, root)
                        assert board.cities_of_field(root) == walked
                        assert board.completed_cities_of_field(root) == sum(1 for c in walked if board.open[c] == 0)
                assert board.field_cities  # in use from the first look
                game.apply(player.choose(game))
