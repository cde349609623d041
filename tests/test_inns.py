"""Inns & Cathedrals on concrete boards (RULES.md "Inns & Cathedrals"): exact scores.

The start tile base.D has its city to the north and its road running west-east at (0, 0).
"""

from __future__ import annotations

import pytest

from engine import Game, IllegalMove
from engine.catalog import SET_TILES, TILE_TYPES
from engine.replay import summary
from tests.helpers import PASS, meeple, play, scored, tile

SETS = ("base", "inns")


def big(at: str, **cell: int) -> dict:
    return {**meeple(at, **cell), "figure": "big"}


def test_the_set_is_the_catalog_s_eighteen_tiles() -> None:
    tiles = SET_TILES["inns"]
    assert sum(t.count for t in tiles) == 18
    marks = [m for t in tiles for s in t.segments for m in s.marks for _n in range(t.count)]
    assert sorted(marks) == ["cathedral"] * 2 + ["inn"] * 6
    assert sum(s.pennants for t in tiles for s in t.segments) == 3
    inner = [t.id for t in tiles for s in t.segments if s.kind == "field" and not s.halves]
    assert inner == ["inns.four_cities"]


# A road from (-1, 0) to (2, 0): cloister road ends at both sides, an inn straight at (1, 0).
INN_ROAD = ["inns.inn_straight", "base.A", "base.A"]
INN_MOVES = [tile(1, 0), meeple("road:E"), tile(2, 0, 90), PASS, tile(-1, 0, 270), PASS]


def test_a_completed_road_with_an_inn_scores_two_per_tile() -> None:
    game, events = play(INN_ROAD, INN_MOVES, sets=SETS)
    assert scored(events, final=False) == [("road", {"Ann": 8})]  # 4 tiles x 2
    assert game.scores == [8, 0]


def test_the_same_road_without_an_inn_scores_one_per_tile() -> None:
    _game, events = play(["base.U", "base.A", "base.A"], INN_MOVES, sets=SETS)
    assert scored(events, final=False) == [("road", {"Ann": 4})]


def test_an_unfinished_inn_road_scores_nothing_at_the_end() -> None:
    game, events = play(
        ["inns.inn_straight", "base.A"], [tile(1, 0), meeple("road:E"), tile(2, 0, 90), PASS], sets=SETS
    )
    assert game.finished
    assert scored(events, final=True) == [("road", {"Ann": 0})]
    assert game.scores == [0, 0]
    plain, events = play(["base.U", "base.A"], [tile(1, 0), meeple("road:E"), tile(2, 0, 90), PASS], sets=SETS)
    assert scored(events, final=True) == [("road", {"Ann": 3})]


def test_two_inns_on_one_road_still_give_two_per_tile() -> None:
    pool = ["inns.inn_straight", "inns.inn_straight", "base.A", "base.A"]
    moves = [tile(1, 0), meeple("road:E"), tile(2, 0), PASS, tile(3, 0, 90), PASS, tile(-1, 0, 270), PASS]
    game, events = play(pool, moves, sets=SETS)
    assert scored(events, final=False) == [("road", {"Ann": 10})]  # 5 tiles x 2, not x 4


def test_the_inn_of_a_junction_belongs_to_its_east_road_only() -> None:
    """inns.inn_junction: the inn stands beside road{E}; the west road is a plain road."""
    pool = ["inns.inn_junction", "base.A"]
    game, events = play(pool, [tile(1, 0), meeple("road:W"), tile(-1, 0, 270), PASS], sets=SETS)
    assert scored(events, final=False) == [("road", {"Ann": 3})]  # (-1,0), (0,0), (1,0): 1 each


def test_the_river_ii_inn_is_an_inn_only_with_inns() -> None:
    for sets, expected in ((["base", "river2", "inns"], 4), (["base", "river2"], 2)):
        game = Game(["Ann", "Bob"], sets, seed=0, pool=[])
        board = game.board
        board.place(TILE_TYPES["base.D"], 0, 0, 0)  # a road running west-east
        last = board.place(TILE_TYPES["river2.inn_bridge"], 1, 0, 0)
        road = board.find(next(n for n in board.tile_nodes(last) if board.kind[n] == "road"))
        assert game.feature_value(road, final=False) == expected, sets


# A city of six tiles with one pennant around a cathedral at (0, -1).
CATHEDRAL_CITY = ["inns.cathedral", "base.E", "base.E", "base.M", "base.E"]
CATHEDRAL_MOVES = [
    tile(0, -1), meeple("city:N"),
    tile(0, -2, 180), PASS,
    tile(1, -1, 270), PASS,
    tile(-1, -1, 90), PASS,
    tile(-1, -2, 180), PASS,
]  # fmt: skip


def test_a_completed_cathedral_city_scores_three_per_tile_and_pennant() -> None:
    game, events = play(CATHEDRAL_CITY, CATHEDRAL_MOVES, sets=SETS)
    assert scored(events, final=False) == [("city", {"Ann": 21})]  # (6 tiles + 1 pennant) x 3


def test_an_unfinished_cathedral_city_scores_nothing_at_the_end() -> None:
    game, events = play(CATHEDRAL_CITY[:4], CATHEDRAL_MOVES[:8], sets=SETS)
    assert game.finished
    assert scored(events, final=True) == [("city", {"Ann": 0})]


def test_farmers_count_a_completed_cathedral_city_as_three() -> None:
    """Bob's farmer north of the cathedral city touches it: 3, as any city. (The last tile leaves
    no free feature: the figure step is skipped.)"""
    moves = [*CATHEDRAL_MOVES[:2], tile(0, -2, 180), meeple("field:WNW"), *CATHEDRAL_MOVES[4:-1]]
    game, events = play(CATHEDRAL_CITY, moves, sets=SETS)
    assert ("field", {"Bob": 3}) in scored(events, final=True)


# Ann's big follower on the start road, Bob's follower on a road south of it; a loop joins them.
BIG_ROAD = ["base.U", "base.U", "base.V", "base.V", "base.U", "base.A", "base.A"]


def test_the_big_follower_weighs_two_in_a_majority_and_goes_home() -> None:
    moves = [
        tile(1, 0), big("road:E"),  # Ann's big follower on the start road
        tile(0, 1), meeple("road:E"),  # Bob's follower on a road of its own
        tile(2, 0), PASS,
        tile(2, 1, 90), PASS,
        tile(1, 1), PASS,  # Ann joins the two roads
        tile(-1, 0, 270), PASS,
        tile(-1, 1, 270), PASS,  # Ann completes the road: 8 tiles
    ]  # fmt: skip
    game, events = play(BIG_ROAD, moves, sets=SETS)
    assert scored(events, final=False) == [("road", {"Ann": 8})]  # 2 against 1: Ann alone, the usual 8
    assert game.hands() == [{"follower": 7, "big": 1}, {"follower": 7, "big": 1}]
    placed = next(e for e in events if e["type"] == "meeple_placed")
    assert placed == {"type": "meeple_placed", "player": "Ann", "x": 1, "y": 0, "at": "road:E", "figure": "big"}


def test_each_player_has_one_big_follower() -> None:
    game, _ = play(["base.U", "base.U", "base.U"], [tile(1, 0), big("road:E"), tile(0, 1), PASS], sets=SETS)
    game.apply(tile(-1, 0))
    assert not [m for m in game.legal_moves() if m.get("figure") == "big"]
    with pytest.raises(IllegalMove, match="no big follower left"):
        game.apply(big("field:NNE"))
    assert game.legal_moves()  # nothing changed: a plain follower is still offered
    assert {"type": "meeple", "at": "field:NNW"} in game.legal_moves()


def test_the_big_follower_is_offered_and_named_by_its_role() -> None:
    game, _ = play(["base.U"], [tile(1, 0)], sets=SETS)
    labels = {o.label for o in game.question().options if o.move.get("figure") == "big"}
    assert labels == {
        "big follower as thief on the road running east–west",
        "big follower as farmer on the field to the north",
        "big follower as farmer on the field to the south",
    }


def test_a_big_farmer_stays_to_the_end_and_wins_the_field() -> None:
    """Ann's big farmer north of the start road, Bob's farmer north of the city he closes; Ann's
    tile joins the two fields: 2 against 1, Ann alone scores the one completed city."""
    pool = ["base.U", "base.E", "base.E"]
    moves = [
        tile(1, 0), big("field:NNE"),
        tile(0, -1, 180), meeple("field:NNW"),  # closes the start tile's city (nobody's)
        tile(1, -1), PASS,  # one field now
    ]  # fmt: skip
    game, events = play(pool, moves, sets=SETS)
    assert game.finished
    assert scored(events, final=True) == [("field", {"Ann": 3})]
    assert game.hands()[0]["big"] == 0  # a farmer never went home


def test_the_replay_shows_each_player_s_figures_by_kind() -> None:
    game, _ = play(INN_ROAD, INN_MOVES[:2], sets=SETS)
    out, status = summary(game.to_json())
    assert status == 0
    assert out["supply"] == {"Ann": 6, "Bob": 7}
    assert out["figures"] == {"Ann": {"follower": 6, "big": 1}, "Bob": {"follower": 7, "big": 1}}


def test_the_computer_players_see_an_unfinished_inn_road_at_nothing() -> None:
    game, _ = play(INN_ROAD, INN_MOVES[:2], sets=SETS)
    road = game.board.find(game.board.placements[1].first_node)
    assert game.board.kind[road] == "road"
    assert (game.feature_value(road, final=True), game.feature_value(road, final=False)) == (0, 4)
    assert game.feature_points(road, final=True) == 2  # the core's count alone, without the inn


def test_the_storm_counts_a_big_follower_in_supply_once() -> None:
    from engine.expansions.wheel import Wheel

    game = Game(["Ann", "Bob"], ["wheel", "inns"], seed=0, pool=[])
    events: list = []
    Wheel()._event(game, "storm", events)
    assert events[-1]["points"] == {"Ann": 8, "Bob": 8}  # 7 followers + the big one


def test_with_castles_the_castle_bonus_comes_after_the_inn() -> None:
    """Ann's thief on the road from her castle (konradsheim at (1, 0): a road stub west) through the
    start tile and an inn to a cloister: 4 cells x 2 for the inn, then +3 for the castle."""
    game = Game(["Ann", "Bob"], ["base", "castles", "inns"], pool=["inns.inn_straight", "base.A"],
                castles={"Ann": ["castles.konradsheim"], "Bob": []})  # fmt: skip
    events = game.apply({"type": "castle", "castle": "castles.konradsheim", "x": 1, "y": 0, "rot": 0})
    events += game.apply(meeple("road:W"))
    events += game.apply(tile(-1, 0)) + game.apply(PASS)  # Bob's inn
    events += game.apply(tile(-2, 0, 270)) + game.apply(PASS)  # Ann closes it (her hand is empty: no draw move)
    assert scored(events, final=False) == [("road", {"Ann": 11})]


def test_the_big_follower_takes_one_crown_space_and_scores_like_a_follower() -> None:
    from engine.expansions.wheel import _score_crowns

    game = Game(["Ann", "Bob"], ["wheel", "inns"], seed=3)
    game.apply(game.legal_moves()[0])  # Ann places her first tile
    crown = {"type": "meeple", "at": "crown:taxes", "figure": "big"}
    option = next(o for o in game.question().options if o.move == crown)
    assert option.label == "big follower on a crown space of Taxes on the wheel (2 free spaces)"
    events = game.apply(crown)
    assert events[0] == {"type": "meeple_placed", "player": "Ann", "at": "crown:taxes", "figure": "big"}
    assert game.hands()[0] == {"follower": 7, "big": 0}
    twin = Game(["Ann", "Bob"], ["wheel", "inns"], seed=3)  # the same with a plain follower
    twin.apply(twin.legal_moves()[0])
    twin.apply({"type": "meeple", "at": "crown:taxes"})
    scored_events: list = []
    _score_crowns(game, "taxes", scored_events)
    twin_events: list = []
    _score_crowns(twin, "taxes", twin_events)
    assert scored_events[0]["points"] == twin_events[0]["points"] == {"Ann": 6}  # alone on the taxes crown
    assert game.hands()[0] == {"follower": 7, "big": 1}
