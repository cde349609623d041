"""Every illegal move gets a message a player can read, and changes nothing."""

import pytest

from engine import BadSetup, Game, IllegalMove
from tests.helpers import PASS, meeple, tile


@pytest.fixture
def game():
    return Game(["Ann", "Bob"], ["base"], pool=["base.E", "base.U", "base.B"])


@pytest.mark.parametrize(
    "move, message",
    [
        (tile(5, 5), r"\(5, 5\) does not touch any placed tile"),
        (tile(0, 0), r"\(0, 0\) is already taken"),
        (
            tile(0, -1, 0),
            r"the south edge of \(0, -1\) would be a field, but its neighbour at \(0, 0\) has a city there",
        ),
        (tile(0, -1, 45), "rot must be 0, 90, 180 or 270"),
        (tile(0, -1, 180, "base.C"), "the drawn tile is base.E, not base.C"),
        ({"type": "tile", "x": "a", "y": 0, "rot": 0}, "whole numbers"),
        (meeple("city:S"), "not possible now: Ann must place the drawn tile"),
        (PASS, "not possible now"),
        ({"type": "fly"}, "unknown move type 'fly'"),
        ({"x": 1}, 'a move is an object with a "type"'),
        ({"type": "tile", "x": 0, "y": -1, "rot": 180, "player": "Bob"}, "it is Ann's turn, not Bob's"),
    ],
)
def test_illegal_moves_explain_and_change_nothing(game, move, message):
    before = (game.to_json(), game.legal_moves(), game.step, game.turn)
    with pytest.raises(IllegalMove, match=message):
        game.apply(move)
    assert (game.to_json(), game.legal_moves(), game.step, game.turn) == before


@pytest.mark.parametrize(
    "move, message",
    [
        (meeple("city:N"), "no 'city:N'"),
        (meeple("monastery"), "no 'monastery'"),
        (meeple("road:W", x=3, y=3), r"\(3, 3\) is not a cell of the tile you just placed"),
        ({"type": "meeple"}, 'needs "at"'),
        (tile(1, 0), "not possible now: Ann must place a figure or pass"),
    ],
)
def test_illegal_figure_moves(game, move, message):
    game.apply(tile(0, -1, 180))
    before = (game.to_json(), game.legal_moves())
    with pytest.raises(IllegalMove, match=message):
        game.apply(move)
    assert (game.to_json(), game.legal_moves()) == before


def test_a_wrong_figure_move_leaves_the_turn_playable(game):
    game.apply(tile(0, -1, 180))
    with pytest.raises(IllegalMove):
        game.apply(meeple("road:E"))
    game.apply(meeple("city:S"))
    assert game.scores == [4, 0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": ["Ann"]}, "2 to 6 players"),
        ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "2 to 6 players"),
        ({"players": ["Ann", "Ann"]}, "distinct"),
        ({"sets": ["base", "dragons"]}, "unknown set 'dragons'"),
        ({"sets": ["river1"]}, "needs the base game"),
        ({"sets": ["base", "wheel", "river2"]}, "cannot be combined with a river"),
        ({"pool": ["base.ZZ"]}, "unknown tile id 'base.ZZ'"),
        ({"pool": ["toll.crossroads"]}, "not part of the sets base"),
        ({"pool": ["base.D", 5]}, "unknown tile id '5'"),
        ({"sets": ["base", "river1"], "pool": ["base.D", "river1.spring"]}, "is a setup tile"),
        ({"sets": ["base", "castles"], "pool": ["base.D", "castles.rieneck"]}, "castles are dealt"),
    ],
)
def test_impossible_setups_are_refused(kwargs, message):
    args = {"players": ["Ann", "Bob"], "sets": ["base"]} | kwargs
    with pytest.raises(BadSetup, match=message):
        Game(**args)
