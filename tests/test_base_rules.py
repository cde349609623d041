"""The base game on concrete boards, with exact scores (RULES.md, base game)."""

import pytest

from engine import IllegalMove
from tests.helpers import PASS, meeple, play, scored, tile


def test_completed_road_scores_one_per_tile_and_returns_the_thief():
    game, events = play(
        ["base.A", "base.A"],
        [tile(1, 0, 90), meeple("road:W"), tile(-1, 0, 270), PASS],
    )
    assert scored(events, final=False) == [("road", {"Ann": 3})]
    assert game.scores == [3, 0]
    assert game.finished
    assert game.supply == [7, 7]


def test_completed_city_scores_two_per_tile_and_pennant():
    game, events = play(
        ["base.M", "base.E"],
        [tile(0, -1, 180), meeple("city:S"), tile(1, -1, 270), PASS],
    )
    assert scored(events, final=False) == [("city", {"Ann": 8})]  # 3 tiles, 1 pennant
    assert game.scores == [8, 0]


def test_two_tile_city_scores_four_and_the_knight_comes_straight_back():
    game, events = play(["base.E", "base.B"], [tile(0, -1, 180), meeple("city:S")])
    assert scored(events) == [("city", {"Ann": 4})]
    assert game.supply[0] == 7
    assert game.player_name == "Bob"


def test_completed_cloister_scores_nine():
    pool = ["base.B", "base.A", "base.A"] + ["base.B"] * 5
    moves = [tile(0, 1), meeple("cloister"), tile(1, 0, 90), PASS, tile(-1, 0, 270), PASS]
    for x, y in [(-1, 1), (1, 1), (-1, 2), (0, 2)]:
        moves += [tile(x, y), PASS]
    game, events = play(pool, moves)
    assert scored(events) == []
    assert game.board.occupied_around(game.board.find(game.board.tile_nodes(1)[0])) == 7
    events = game.apply(tile(1, 2)) + game.apply(PASS)
    assert scored(events) == [("cloister", {"Ann": 9})]
    assert game.supply[0] == 7


def test_incomplete_features_at_the_end():
    game, events = play(
        ["base.M", "base.U", "base.B"],
        [tile(0, -1, 180), meeple("city:S"), tile(1, 0), meeple("road:W"), tile(1, 1), meeple("cloister")],
    )
    assert game.finished
    final = scored(events, final=True)
    assert ("road", {"Bob": 2}) in final  # 2 tiles
    assert ("city", {"Ann": 3}) in final  # 2 tiles + 1 pennant
    assert ("cloister", {"Ann": 3}) in final  # itself + (1,0) + (0,0)
    assert game.scores == [6, 2]


def test_farmers_score_three_per_completed_city_once_per_field():
    # F1 (Ann) touches the start city and the city at (0,-2)/(0,-3); F2 (Bob) only the latter.
    game, events = play(
        ["base.E", "base.E", "base.B", "base.E"],
        [
            tile(0, -1, 180), meeple("field:NNW"),
            tile(0, -2, 0), PASS,
            tile(0, 1), PASS,
            tile(0, -3, 180), meeple("field:NNW"),
        ],
    )  # fmt: skip
    assert game.finished
    assert scored(events, final=True) == [("field", {"Ann": 6}), ("field", {"Bob": 3})]
    assert game.scores == [6, 3]


def test_farmers_ignore_incomplete_cities():
    # base.N rotated 180 has city{S,E}: joined to the start city but open to the east.
    game, events = play(["base.N", "base.B"], [tile(0, -1, 180), meeple("field:NNW"), tile(0, 1), PASS])
    assert game.board.kind[game.board.tile_nodes(1)[0]] == "city"
    assert scored(events, final=True) == [("field", {"Ann": 0})]


def test_tied_followers_each_score_the_full_road():
    game, events = play(
        ["base.D", "base.V", "base.V", "base.A", "base.A"],
        [
            tile(0, -1, 180), meeple("road:E"),
            tile(1, 0, 90), meeple("road:W"),
            tile(1, -1, 0), PASS,
            tile(-1, 0, 270), PASS,
            tile(-1, -1, 270), PASS,
        ],
    )  # fmt: skip
    assert scored(events) == [("road", {"Ann": 6, "Bob": 6})]
    assert game.scores == [6, 6]


def test_majority_two_against_one_takes_the_whole_road():
    game, events = play(
        ["base.D", "base.A", "base.U", "base.V", "base.V", "base.V", "base.V", "base.A"],
        [
            tile(0, -1, 180), meeple("road:E"),  # Ann: road on row -1 (closes the start city)
            tile(1, 0, 90), meeple("road:W"),  # Bob: the start road, closed east by a cloister
            tile(0, -2, 0), meeple("road:W"),  # Ann: road on row -2
            tile(1, -2, 0), PASS,
            tile(1, -1, 90), PASS,  # joins rows -2 and -1
            tile(-1, -1, 270), PASS,
            tile(-1, 0, 180), PASS,  # joins row -1 to the start road
            tile(-1, -2, 270), PASS,  # closes the last end
        ],
    )  # fmt: skip
    assert scored(events) == [("road", {"Ann": 9})]
    assert game.scores == [9, 0]
    assert game.supply == [7, 7]


def test_no_follower_on_a_feature_that_already_has_one():
    game, _ = play(["base.U", "base.U", "base.B"], [tile(1, 0), meeple("road:W"), tile(2, 0)])
    assert {"type": "meeple", "at": "road:W"} not in game.legal_moves()
    before = game.to_json()
    with pytest.raises(IllegalMove, match="already has a follower"):
        game.apply(meeple("road:E"))
    assert game.to_json() == before
    game.apply(meeple("field:NNW"))  # the field is free
    assert game.supply == [6, 6]


def test_unplaceable_tile_is_discarded_and_the_next_drawn():
    game, events = play(["base.E", "base.C", "base.B"], [tile(0, -1, 180), PASS])
    assert {"type": "tile_discarded", "tile": "base.C"} in events
    assert game.drawn.id == "base.B"
    assert game.player_name == "Bob"


def test_game_ends_when_the_bag_is_empty():
    game, events = play(["base.B"], [tile(0, 1), PASS])
    assert game.finished
    assert events[-1] == {"type": "game_over", "scores": {"Ann": 0, "Bob": 0}, "winners": ["Ann", "Bob"]}
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        game.apply(PASS)


def test_player_runs_out_of_followers():
    pool = ["base.B"] * 16
    moves = []
    for i in range(14):
        moves += [tile(0, i + 1), meeple("cloister")]
    game, _ = play(pool, moves)
    assert game.supply == [0, 0]
    # With nothing to place, the figure step is skipped: the next move is a tile again.
    game.apply(tile(0, 15))
    assert game.step == "tile" and game.player_name == "Bob"
