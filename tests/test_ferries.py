"""The Ferries on concrete boards (RULES.md; the rule page's examples 3 to 5)."""

import pytest

from engine import Game, IllegalMove
from engine.ai import RandomPlayer
from engine.record import load
from tests.helpers import PASS, meeple, play, scored, tile
from tests.test_random_games import features_from_scratch

SETS = ("base", "ferries")


def ferry(x, y, join):
    return {"type": "ferry", "x": x, "y": y, "join": join}


def movable(game):
    return sorted({(m["x"], m["y"]) for m in game.legal_moves() if m["type"] == "ferry"})


def test_a_new_lake_needs_a_ferry_and_the_road_counts_the_lake_once():
    game, _ = play(["ferries.three", "base.A", "base.A"], [tile(1, 0), meeple("road:W")], sets=SETS)
    assert game.step == "ferry"
    assert game.legal_moves() == [ferry(1, 0, "E-S"), ferry(1, 0, "E-W"), ferry(1, 0, "S-W")]
    with pytest.raises(IllegalMove, match="must put a ferry on the new lake tile"):
        game.apply(PASS)
    with pytest.raises(IllegalMove, match="no jetty at N-S"):
        game.apply(ferry(1, 0, "N-S"))
    with pytest.raises(IllegalMove, match="lake tile you just placed"):
        game.apply(ferry(0, 0, "E-W"))
    events = game.apply(ferry(1, 0, "W-E"))
    assert events[0] == {"type": "ferry", "action": "placed", "player": "Ann", "x": 1, "y": 0, "join": "E-W"}
    game.apply(tile(-1, 0, 270))
    game.apply(PASS)
    assert movable(game) == [(1, 0)]  # Bob extended the road that holds the ferry
    game.apply(PASS)  # he leaves it
    events = game.apply(tile(2, 0, 90)) + game.apply(PASS)
    assert movable(game) == [(1, 0)] and scored(events) == []  # scoring waits for the ferry step
    events = game.apply(PASS)
    assert scored(events) == [("road", {"Ann": 4})]  # (-1,0), (0,0), the lake once, (2,0)


def test_moving_a_ferry_can_complete_a_road_then_reopen_it():
    game, _ = play(
        ["ferries.three", "base.A", "base.U", "base.B"],
        [tile(1, 0), meeple("road:W"), ferry(1, 0, "S-W"), tile(-1, 0, 270), PASS],
        sets=SETS,
    )
    assert movable(game) == [(1, 0)]
    # Bob turns the ferry away: Ann's road now ends at the jetty, complete.
    events = game.apply(ferry(1, 0, "E-S"))
    assert scored(events) == [("road", {"Ann": 3})]
    assert game.supply == [7, 7]
    # Ann extends the southern road and swings the ferry back: the scored road opens again.
    game.apply(tile(1, 1, 90))
    game.apply(PASS)
    assert movable(game) == [(1, 0)]
    events = game.apply(ferry(1, 0, "S-W"))
    assert scored(events) == [] and game.scores == [3, 0]  # nothing taken back
    west_road = game.board.find(game.board.tile_nodes(0)[1])
    assert game.board.open[west_road] > 0


def test_example_4_only_the_first_ferry_along_a_road_may_move():
    game, _ = play(
        ["ferries.three", "ferries.three", "base.A", "base.B"],
        [tile(1, 0), PASS, ferry(1, 0, "E-W"), tile(2, 0), PASS, ferry(2, 0, "E-W")],
        sets=SETS,
    )
    assert movable(game) == [(1, 0)]  # the first ferry seen from Bob's new lake
    game.apply(PASS)
    game.apply(tile(-1, 0, 270))
    game.apply(PASS)
    assert movable(game) == [(1, 0)]  # (2,0) is the second ferry on that road
    with pytest.raises(IllegalMove, match=r"ferry at \(2, 0\) may not move now"):
        game.apply(ferry(2, 0, "S-W"))


def test_example_5_a_lake_tile_lets_the_first_ferry_of_each_extended_road_move():
    moves = [
        tile(1, 0), PASS, ferry(1, 0, "S-W"),
        tile(2, 0, 90), PASS,
        tile(0, 1), PASS, ferry(0, 1, "E-W"),
        tile(2, 1), PASS, ferry(2, 1, "E-W"),
        tile(1, 1), PASS,
    ]  # fmt: skip
    pool = ["ferries.three", "base.A", "ferries.three", "ferries.three", "ferries.four", "base.B"]
    game, _ = play(pool, moves, sets=SETS)
    assert game.step == "ferry"
    for join in ("N-S", "E-W"):  # how the new ferry is placed does not matter
        trial = game.clone()
        trial.apply(ferry(1, 1, join))
        assert movable(trial) == [(0, 1), (1, 0), (2, 1)]
    game.apply(ferry(1, 1, "N-S"))
    for cell in [(0, 1), (1, 0)]:  # two of them move; each at most once
        game.apply(ferry(*cell, "E-S"))
        assert cell not in movable(game)
    game.apply(PASS)
    assert game.step == "tile"


def test_example_3_a_moved_ferry_separates_two_followers():
    game, _ = play(
        ["ferries.three", "base.U", "base.A", "base.B"],
        [tile(1, 0), meeple("road:E"), ferry(1, 0, "S-W"), tile(-1, 0), meeple("road:W")],
        sets=SETS,
    )
    board = game.board
    ann, bob = (
        board.find(n) for _, n in [board.followers[r][0] for r in range(len(board.followers)) if board.followers[r]]
    )
    assert ann != bob  # Ann's stub east, Bob's road west: two roads
    game.apply(PASS)  # Bob leaves the ferry
    game.apply(tile(-2, 0, 270))  # Ann closes the west end; the ferry is the first one met
    game.apply(PASS)
    game.apply(ferry(1, 0, "E-W"))  # now one road: Ann and Bob share it
    roots = {board.find(n) for r, f in enumerate(board.followers) if f for _, n in f}
    assert len(roots) == 1


@pytest.mark.parametrize("block", range(3))
def test_random_ferry_games_match_a_recomputation_from_scratch(block):
    for seed in range(block * 8, block * 8 + 8):
        game = Game(["A", "B", "C"], list(SETS) + ["toll"], seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            game.apply(ai.choose(game))
            component, open_count = features_from_scratch(game)
            board = game.board
            for n in component:
                if board.kind[n] == "road":
                    root = board.find(n)
                    assert set(board.members(root)) == {m for m in component if component[m] == component[n]}
                    assert board.open[root] == open_count[component[n]]
        replayed, _, error = load(game.to_json())
        assert error is None and replayed.scores == game.scores
