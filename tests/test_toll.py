"""The Tollkeepers on concrete boards (RULES.md, rule page examples)."""

import pytest

from engine import IllegalMove
from tests.helpers import PASS, meeple, play, scored, tile

SETS = ("base", "toll")


def toll(x, y):
    return {"type": "toll", "x": x, "y": y}


def collected(events):
    return [(e["player"], e["points"]) for e in events if e["type"] == "toll" and e["action"] == "collected"]


# A road from the village at (1,0) east: travellers at (2,0) and (3,0), a farmhouse at (4,0),
# closed by a cloister at (5,0). West of the village: the start road, a highwayman at (-1,0),
# a stable at (-2,0) (curving north) and a junction with a highwayman at (-2,-1).
EAST = [
    "toll.village_straight", "toll.straight", "toll.city_straight", "base.U.farmhouse", "base.A",
]  # fmt: skip
WEST = ["base.U.highwayman", "base.V.stable", "base.W.highwayman"]
EAST_MOVES = [
    tile(1, 0), toll(1, 0),  # Ann's tollhouse, value 1, instead of a follower
    tile(2, 0), meeple("road:W"),  # Bob's road
    tile(3, 0), PASS,
    tile(4, 0), PASS,
    tile(5, 0, 90), PASS,  # Ann completes the road
]  # fmt: skip


def test_example_1_seven_points_then_the_tollhouse_flips():
    game, events = play(EAST + WEST, EAST_MOVES, sets=SETS)
    assert collected(events) == [("Ann", 7)]  # 2 travellers x 3 + 1 farmhouse
    assert ("road", {"Bob": 5}) in scored(events)  # the road scores as usual
    assert game.scores == [7, 5]
    assert game.state["toll"].houses[0].value == 2
    flips = [e for e in events if e["type"] == "toll" and e["action"] == "flipped"]
    assert flips == [{"type": "toll", "action": "flipped", "player": "Ann", "value": 2}]


def test_example_2_six_points_with_value_two_and_no_flip():
    moves = EAST_MOVES + [tile(-1, 0), PASS, tile(-2, 0, 180), PASS, tile(-2, -1, 270)]
    game, events = play(EAST + WEST + ["base.B"], moves, sets=SETS)
    events = game.apply(PASS)
    # Bob completed it: 2 highwaymen x 2 + 1 stable x 2 for Ann's tollhouse.
    assert collected(events) == [("Ann", 6)]
    assert game.state["toll"].houses[0].value == 2


def test_two_tollhouses_on_one_road_both_collect():
    moves = EAST_MOVES + [tile(-1, 0), PASS, tile(-2, 0, 180), PASS, tile(-2, -1, 270)]
    game, _ = play(EAST + WEST + ["base.B"], moves, sets=SETS)
    events = game.apply(toll(-2, -1))  # Bob's tollhouse on the junction, value 1
    assert collected(events) == [("Ann", 6), ("Bob", 3)]


def test_decorations_beside_other_segments_of_a_junction_do_not_count():
    # base.W.stable has its stable beside road{E}; rotated 90 that stub points south,
    # away from the road that ends at the junction from the west.
    game, events = play(
        ["toll.village_straight", "base.W.stable", "base.B"],
        [tile(1, 0), toll(1, 0), tile(2, 0, 90), PASS],
        sets=SETS,
    )
    assert game.board.placements[2].tile.id == "base.W.stable"
    assert collected(events) == [("Ann", 0)]


def test_final_scoring_counts_one_per_sight_whatever_the_value():
    moves = EAST_MOVES[:6]  # the east road stays open at (3,0)
    game, events = play(EAST[:3] + ["base.B"], moves + [tile(0, 1), PASS], sets=SETS)
    assert game.finished
    final = [e for e in events if e["type"] == "toll" and e["action"] == "final"]
    assert final[0]["player"] == "Ann" and final[0]["points"] == 2  # two travellers groups, 1 each


def test_moving_keeps_the_value_and_one_village_holds_one_tollhouse():
    pool = EAST + ["toll.village_curve", "base.W", "base.B"]
    game, _ = play(pool, EAST_MOVES + [tile(1, 1)], sets=SETS)  # Bob: a village at (1,1)
    before = game.to_json()
    with pytest.raises(IllegalMove, match=r"Ann's tollhouse already stands on the village at \(1, 0\)"):
        game.apply(toll(1, 0))
    with pytest.raises(IllegalMove, match=r"no village at \(2, 0\)"):
        game.apply(toll(2, 0))
    assert game.to_json() == before
    events = game.apply(toll(1, 1))
    assert events[0] == {"type": "toll", "action": "placed", "player": "Bob", "x": 1, "y": 1, "value": 1}
    game.apply(tile(0, 1))  # Ann: base.W, another village
    assert toll(1, 1) not in game.legal_moves() and toll(0, 1) in game.legal_moves()
    with pytest.raises(IllegalMove, match="your tollhouse already stands"):
        game.apply(toll(1, 0))
    events = game.apply(toll(0, 1))
    assert events[0] == {"type": "toll", "action": "moved", "player": "Ann", "x": 0, "y": 1, "value": 2}


def test_toll_game_records_replay_to_the_same_state():
    from engine.record import load

    game, _ = play(EAST + WEST, EAST_MOVES, sets=SETS)
    replayed, _, error = load(game.to_json())
    assert error is None
    assert replayed.scores == game.scores
    assert replayed.state["toll"] == game.state["toll"]
