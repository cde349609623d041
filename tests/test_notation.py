"""The tile notation's segment marks and inner fields (TILES.md "Segment marks", "Inner field"), and what
the board keeps of them and of the figures as features join."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import Game
from engine.ai import RandomPlayer
from engine.board import Board
from engine.catalog import TILE_TYPES
from engine.snapshot import dump, restore
from engine.tiles import parse_tile
from tests.families import FAMILIES
from tests.test_snapshot import setup_of


def test_a_mark_stays_on_its_own_segment_of_a_junction() -> None:
    tile = parse_tile("toy.junction", 1, "FRRR", "road{E} inn; road{S}; road{W}; village; field{*}")
    marks = {s.edges: s.marks for s in tile.segments if s.kind == "road"}
    assert marks == {((0, 1),): ("inn",), ((0, 2),): (), ((0, 3),): ()}


def test_pennant_and_other_marks_in_any_order() -> None:
    a = parse_tile("toy.a", 1, "CFFC", "city{N,W} pennant cathedral; field{ENE,ESE,SSE,SSW}->N")
    b = parse_tile("toy.b", 1, "CFFC", "city{N,W} cathedral pennant; field{ENE,ESE,SSE,SSW}->N")
    for tile in (a, b):
        city = tile.segments[0]
        assert (city.pennants, city.marks) == (1, ("cathedral",))


@pytest.mark.parametrize("features", ["city{N} wine wine; field{*}", "city{N} pennant pennant; field{*}"])
def test_a_mark_stands_once_on_a_segment(features: str) -> None:
    with pytest.raises(ValueError, match="mark"):
        parse_tile("toy.bad", 1, "CFFF", features)


def test_an_inner_field_touches_no_edge_but_its_cities() -> None:
    tile = parse_tile("toy.caps", 1, "CCCC", "city{N}; city{E}; city{S}; city{W}; field{}->N,E,S,W")
    inner = tile.segments[4]
    assert (inner.kind, inner.halves, inner.cells, inner.cities) == ("field", (), (0,), (0, 1, 2, 3))
    assert tile.rotations[0].targets[(0, "field")] == 4  # a farmer names it "field"
    with pytest.raises(ValueError, match="only a field"):
        parse_tile("toy.bad", 1, "CFFF", "city{}; field{*}")


def test_marks_are_counted_on_the_joined_feature() -> None:
    """Two inn straights joined by a plain straight: one road, two inns (counted on the join)."""
    board = Board()
    inn = parse_tile("toy.inn", 1, "FRFR", "road{W,E} inn; field{WNW,NNW,NNE,ENE}; field{ESE,SSE,SSW,WSW}")
    board.place(inn, 0, 0, 0)
    board.place(TILE_TYPES["base.U"], 1, 0, 0)
    last = board.place(inn, 2, 0, 0)
    road = board.find(board.placements[last].first_node)
    assert board.feature_marks(road) == {"inn": 2}
    field = board.find(board.placements[last].first_node + 1)
    assert board.feature_marks(field) == {}


def test_the_river_ii_inn_and_pigsty_are_segment_marks() -> None:
    bridge = TILE_TYPES["river2.inn_bridge"]
    assert [s.marks for s in bridge.segments if s.kind == "road"] == [("inn",)]
    pigsty = TILE_TYPES["river2.pigsty_curve"]
    assert [s.marks for s in pigsty.segments if s.kind == "field"] == [("pigsty",), ()]
    assert pigsty.loose_decorations == ("stable",)  # the Tollkeepers still see a stable beside no road


def walked_marks(board: Board, root: int) -> dict[str, int]:
    """The marks of a feature counted segment by segment, walking its members."""
    out: dict[str, int] = {}
    for n in board.members(root):
        for mark in board.segment_of(n).marks:
            out[mark] = out.get(mark, 0) + 1
    return out


def boards_of_random_games(sets: list[str]) -> Iterator[Board]:
    """The board after every move of three random games: the first played straight through, the
    others restored from a snapshot and cloned every seventh move (what the board keeps must be
    kept through its own changes, recounted from a snapshot and copied by a clone)."""
    for seed in range(3):
        game = Game(["A", "B"], sets, seed=seed)
        player = RandomPlayer(seed)
        while not game.finished:
            game.apply(player.choose(game))
            if seed and len(game.moves) % 7 == 0:
                game = restore(setup_of(game), dump(game), [dict(m) for m in game.moves]).clone()
            yield game.board


@pytest.mark.parametrize("sets", FAMILIES, ids=lambda s: "+".join(s))
def test_the_marks_kept_on_joins_are_those_of_the_segments(sets: list[str]) -> None:
    """Through whole random games (ferries moved, features joined), every feature's kept marks are
    what its segments carry."""
    marked = 0
    for board in boards_of_random_games(sets):
        for root in range(len(board.parent)):
            if board.parent[root] == root:
                assert dict(board.feature_marks(root)) == walked_marks(board, root)
                marked += bool(board.feature_marks(root))
    assert marked or not any(tile.seg_marks for tile in TILE_TYPES.values() if tile.id.split(".")[0] in sets)


@pytest.mark.parametrize("sets", FAMILIES, ids=lambda s: "+".join(s))
def test_the_roots_with_figures_are_kept_as_figures_come_and_go(sets: list[str]) -> None:
    """``Board.figure_roots`` (kept as figures are placed, join, score, are taken by the plague or
    moved by a ferry's new road) names exactly the roots whose ``followers`` hold figures."""
    seen = 0
    for board in boards_of_random_games(sets):
        assert board.figure_roots() == [n for n, standing in enumerate(board.followers) if standing]
        assert all(board.parent[n] == n for n in board.figure_roots())
        seen += len(board.figure_roots())
    assert seen
