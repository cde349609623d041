"""The river is always completed (RULES.md, The River): placements that would strand
the rest of the river are refused, a river tile that fits nowhere goes back under the
stack, and each arm of the fork has just turned its way."""

import pytest

from engine import Game, IllegalMove
from engine.ai import RandomPlayer
from engine.expansions.river import is_river, river_stack
from engine.record import load
from tests.helpers import PASS, play, tile

R2 = ("base", "river2")
BASE_TAIL = ["base.V", "base.Rg", "base.F", "base.B"]


def turns_by_arm(game: Game) -> list[list[str]]:
    state = game.expansion_state("river")
    return sorted(state.turns[end.branch] for end in state.ends.values())


# ---------------------------------------------------------------------- the fork's arms
@pytest.mark.parametrize(
    "fork_rot, arm_cell, refused_rot, allowed_rot, arms",
    [
        # rot 0: arms north (left) and east (straight on); the north arm may not turn left (west).
        (0, (1, -1), 0, 270, [["L"], ["S"]]),
        # rot 180: arms south (right) and east; the south arm may not turn right (west).
        (180, (1, 1), 90, 180, [["R"], ["S"]]),
        # rot 270: arms north (left) and south (right).
        (270, (1, -1), 0, 270, [["L"], ["R"]]),
    ],
)
def test_each_arm_of_the_fork_has_just_turned_its_way(fork_rot, arm_cell, refused_rot, allowed_rot, arms):
    pool = ["river2.fork", "river2.curve", "river2.cloister", "river2.city_end", "river2.volcano_lake", *BASE_TAIL]
    game, _ = play(pool, [tile(1, 0, fork_rot), PASS], sets=R2)
    assert turns_by_arm(game) == arms
    x, y = arm_cell
    with pytest.raises(IllegalMove, match="U-turn"):
        game.apply(tile(x, y, refused_rot))  # a second turn the same way as the fork's
    assert refused_rot not in game.legal_placements()[arm_cell]
    game.apply(tile(x, y, allowed_rot))  # the other way round is fine


def test_the_straight_arm_of_the_fork_may_turn_either_way():
    pool = ["river2.fork", "river2.curve", "river2.cloister", "river2.city_end", "river2.volcano_lake", *BASE_TAIL]
    game, _ = play(pool, [tile(1, 0, 0), PASS], sets=R2)  # arms north and east
    # The east arm at (2,0) flows east: river2.curve (river W,S) at rot 0 turns right, at rot 90 left.
    assert set(game.legal_placements()[(2, 0)]) >= {0}
    game.apply(tile(2, 0, 0))
    assert turns_by_arm(game) == [["L"], ["S", "R"]]


# ---------------------------------------------------------------------- completability
def test_two_arms_may_not_grow_into_each_other():
    # Seed 7 of a random River II game: the fork's north arm ran straight on through a
    # city bridge to (1,-2); its east arm turned north at (2,0) and flows beside it into (2,-1).
    pool = [
        "river2.fork",
        "river2.city_bridge",
        "river2.road_curve",
        "river2.city_corner",
        "river2.cloister",
        "river2.curve",
        "river2.pigsty_curve",
        "river2.city_road",
        "river2.inn_bridge",
        "river2.city_end",
        "river2.volcano_lake",
        *BASE_TAIL,
    ]
    game, _ = play(pool, [tile(1, 0, 0), PASS, tile(1, -1, 0), PASS, tile(2, 0, 90), PASS], sets=R2)
    assert set(game.expansion_state("river").ends) == {(1, -2), (2, -1)}
    assert game.drawn.id == "river2.city_corner"
    # Turning the north arm east would cross in front of the east arm: edge-legal, a
    # legal turn, the look-ahead is free; but the other eight tiles could never all follow.
    assert game.board.fits(game.drawn, 1, -2, 0)
    with pytest.raises(IllegalMove, match="the rest of the river could then no longer be placed in full"):
        game.apply(tile(1, -2, 0))
    assert 0 not in game.legal_placements().get((1, -2), ())
    assert game.legal_placements()  # other placements remain


# ---------------------------------------------------------------------- returned tiles
def test_a_river_tile_that_fits_nowhere_goes_back_under_the_stack_and_is_placed_later():
    # Seed 9 of a random River II game: the south arm has ended beside a city at (2,1);
    # the only open end, (2,0), flows east with that city end's field below it.
    pool = [
        "river2.fork",
        "river2.curve",
        "river2.city_end",
        "river2.inn_bridge",
        "river2.cloister",
        "river2.pigsty_curve",
        "river2.city_bridge",
        "river2.city_corner",
        "river2.road_curve",
        "river2.city_road",
        "river2.volcano_lake",
        *BASE_TAIL,
    ]
    game, events = play(pool, [tile(1, 0, 180), PASS, tile(1, 1, 180), PASS, tile(2, 1, 0), PASS], sets=R2)
    # The inn bridge's roads would face the field below (2,0): it goes back, just before the lake.
    tail = [e for e in events if e["type"] in ("tile_drawn", "tile_returned", "tile_discarded")][-3:]
    assert tail == [
        {"type": "tile_drawn", "player": "Bob", "tile": "river2.inn_bridge"},
        {"type": "tile_returned", "player": "Bob", "tile": "river2.inn_bridge"},
        {"type": "tile_drawn", "player": "Bob", "tile": "river2.cloister"},
    ]
    assert game.player_name == "Bob" and game.drawn.id == "river2.cloister"
    assert river_stack(game) == [
        "river2.pigsty_curve",
        "river2.city_bridge",
        "river2.city_corner",
        "river2.road_curve",
        "river2.city_road",
        "river2.inn_bridge",
        "river2.volcano_lake",
    ]
    assert game.bag_left == 7 + len(BASE_TAIL)  # nothing left the game
    # Play the river out: the inn bridge comes back and is placed; nothing is discarded.
    ai = RandomPlayer(9)
    while game.step != "tile" or is_river(game.drawn.id):
        events += game.apply(ai.choose(game))
    placed = [e["tile"] for e in events if e["type"] == "tile_placed"]
    assert "river2.inn_bridge" in placed and sorted(placed) == sorted(pool[:11])  # every river tile
    assert not [e for e in events if e["type"] == "tile_discarded"]
    # The record replays to the same bag order and board.
    replayed, _, error = load(game.to_json())
    assert error is None
    assert replayed.bag == game.bag and replayed.bag_pos == game.bag_pos
    assert [(p.tile.id, p.x, p.y, p.rot) for p in replayed.board.placements] == [
        (p.tile.id, p.x, p.y, p.rot) for p in game.board.placements
    ]


def test_an_arm_may_not_turn_into_the_pocket_of_a_u_turn():
    # Seed 289 of a random River I+II game: the fork's north arm ran north from (1,-1)
    # to (1,-3), turned east over the top to (2,-3) and ended beside a city at (3,-3).
    # The east arm flows into (2,0), just below the pocket that U leaves open.
    pool = [
        "river2.fork",
        "river1.city_road",
        "river2.city_bridge",
        "river2.city_corner",
        "river2.inn_bridge",
        "river2.city_end",
        "river1.city_corner",
        "river1.cities",
        "river1.road_curve",
        "river1.curve",
        "river1.straight",
        "river2.road_curve",
        "river2.curve",
        "river2.city_road",
        "river1.straight",
        "river1.cloister_road",
        "river1.curve_g",
        "river1.bridge",
        "river2.pigsty_curve",
        "river2.cloister",
        "river2.volcano_lake",
        *BASE_TAIL,
    ]
    moves = [tile(1, 0, 0), tile(1, -1, 90), tile(1, -2, 0), tile(1, -3, 0), tile(2, -3, 90), tile(3, -3, 0)]
    game, _ = play(pool, [m for move in moves for m in (move, PASS)], sets=("base", "river1", "river2"))
    assert set(game.expansion_state("river").ends) == {(2, 0)}
    assert game.drawn.id == "river1.city_corner"
    # Turning north at (2,0) leads into the pocket (2,-1), (2,-2) under the U: the
    # fourteen tiles left could never all follow. Turning south is fine.
    assert game.board.fits(game.drawn, 2, 0, 180)
    with pytest.raises(IllegalMove, match="the rest of the river could then no longer be placed in full"):
        game.apply(tile(2, 0, 180))
    assert game.legal_placements() == {(2, 0): (90,)}
    game.apply(tile(2, 0, 90))
