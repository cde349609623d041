"""Castles in Germany on concrete boards (RULES.md; the rule page's examples 2 to 5)."""

import pytest

from engine import BadSetup, Game, IllegalMove
from engine.ai import RandomPlayer
from engine.catalog import TILE_TYPES
from engine.record import load
from tests.helpers import PASS, meeple, scored, tile

SETS = ("base", "castles")


def castle(castle_id, x, y, rot=0):
    return {"type": "castle", "castle": f"castles.{castle_id}", "x": x, "y": y, "rot": rot}


def play(pool, hands, moves, players=("Ann", "Bob")):
    """Play the moves; a player holding castles draws first when the next move is a tile."""
    game = Game(list(players), list(SETS), pool=pool, castles=hands)
    events = []
    for move in moves:
        if move["type"] == "tile" and game.step == "draw":
            events += game.apply({"type": "draw"})
        events += game.apply(move)
    return game, events


def test_hands_are_dealt_by_player_count_or_taken_from_the_record():
    assert [len(h) for h in Game(["A", "B", "C"], list(SETS), seed=1).state["castles"].hands.values()] == [2, 2, 2]
    four = Game(["A", "B", "C", "D"], list(SETS), seed=1).state["castles"].hands
    assert [len(h) for h in four.values()] == [1, 1, 1, 1]
    dealt = sum(four.values(), [])
    assert len(set(dealt)) == 4
    game = Game(["Ann", "Bob"], list(SETS), castles={"Ann": ["castles.eltz"], "Bob": []})
    assert game.to_json()["castles"] == {"Ann": ["castles.eltz"], "Bob": []}
    with pytest.raises(BadSetup, match="dealt twice"):
        Game(["Ann", "Bob"], list(SETS), castles={"Ann": ["castles.eltz"], "Bob": ["castles.eltz"]})
    with pytest.raises(BadSetup, match="not a castle"):
        Game(["Ann", "Bob"], list(SETS), castles={"Ann": ["base.A"]})
    with pytest.raises(BadSetup, match="never drawn"):
        Game(["Ann", "Bob"], list(SETS), pool=["castles.eltz"])


def test_a_castle_holder_draws_or_places_a_castle():
    game = Game(["Ann", "Bob"], list(SETS), pool=["base.B", "base.B"], castles={"Ann": ["castles.konradsheim"]})
    assert game.step == "draw" and game.drawn is None
    moves = game.legal_moves()
    assert moves[0] == {"type": "draw"} and castle("konradsheim", 1, 0) in moves
    with pytest.raises(IllegalMove, match="do not hold 'castles.eltz'"):
        game.apply(castle("eltz", 1, 0))
    with pytest.raises(IllegalMove, match="would be a road"):
        game.apply(castle("konradsheim", 0, 1))  # its road stubs would face the start tile's field
    game.apply({"type": "draw"})
    assert game.step == "tile" and game.drawn.id == "base.B"


def test_example_3_roads_and_city_around_castles():
    # Red's road of 3 tiles reaching one castle: 3 + 3.
    game, events = play(
        ["base.A"],
        {"Ann": ["castles.konradsheim"]},
        [castle("konradsheim", 1, 0), meeple("road:W"), tile(-1, 0, 270), PASS],
    )
    assert scored(events) == [("road", {"Ann": 6})]


def test_example_3_a_road_between_two_castles_scores_four_plus_six():
    game, events = play(
        ["base.U", "base.B"],
        {"Ann": ["castles.konradsheim"], "Bob": ["castles.wartburg"]},
        [
            castle("konradsheim", 1, 0), meeple("road:W"),  # Ann's thief on the start road
            tile(-1, 0), PASS,  # Bob draws a straight road
            tile(0, 1), PASS,
            castle("wartburg", -3, 0), PASS,  # its east stub closes the road
        ],
    )  # fmt: skip
    assert scored(events) == [("road", {"Ann": 10})]


def test_example_3_tied_knights_score_sixteen_each():
    game, events = play(
        ["base.B", "base.F", "base.B", "base.B", "base.B", "base.B", "base.G"],
        {"Ann": ["castles.konradsheim"], "Bob": ["castles.konigstein"]},
        [
            castle("konradsheim", 1, 0), PASS,  # its city cap looks east from (2,0)
            tile(0, 1), PASS,
            tile(3, 0), meeple("city:W"),  # Ann's knight: castle cap + pennant tile
            tile(3, 1), PASS,
            tile(4, 1), PASS,
            tile(5, 1), PASS,
            tile(0, 2), PASS,
            castle("konigstein", 5, 0), meeple("city:W"),  # Bob's knight on the other castle's cap
            tile(4, 0), PASS,  # closes the city: 4 cells + 1 pennant = 10, two castles: +6
        ],
    )  # fmt: skip
    assert scored(events, final=False) == [("city", {"Ann": 16, "Bob": 16})]


def test_example_4_a_road_looping_back_to_the_same_half_counts_four_cells():
    game, events = play(
        ["base.V", "base.V", "base.V", "base.B"],
        {"Ann": ["castles.konradsheim"]},
        [tile(0, 1, 270), meeple("road:E"), tile(1, 1, 0), PASS, tile(0, 2, 180), PASS, tile(-1, 1), PASS,
         castle("konradsheim", 1, 2), PASS],
    )  # fmt: skip
    assert scored(events) == [("road", {"Ann": 7})]


def test_example_5_a_road_looping_to_the_other_half_counts_six_cells():
    game, events = play(
        ["base.A", "base.V", "base.V", "base.U", "base.U"],
        {"Bob": ["castles.wartburg"]},
        [tile(1, 0, 90), PASS, tile(2, 0, 270), meeple("road:E"), tile(3, 0, 0), PASS, tile(2, 1, 90), PASS,
         tile(3, 1, 90), PASS, castle("wartburg", 2, 2), PASS],
    )  # fmt: skip
    assert scored(events) == [("road", {"Bob": 9})]


KONRADSHEIM_AROUND = [
    tile(1, -1, 90), PASS, tile(2, -1), PASS, tile(1, 1, 90), PASS, tile(2, 1), PASS, tile(3, 0, 270), PASS,
]  # fmt: skip


def test_example_2_an_unfinished_castle_scores_its_surroundings_plus_two():
    game, events = play(
        ["base.U", "base.B", "base.U", "base.B", "base.E"],
        {"Ann": ["castles.konradsheim"]},
        [castle("konradsheim", 1, 0), meeple("castle")] + KONRADSHEIM_AROUND,
    )
    assert game.finished
    assert ("castle", {"Ann": 8}) in scored(events, final=True)


def test_a_surrounded_castle_scores_twelve_for_its_lord():
    game, events = play(
        ["base.U", "base.B", "base.U", "base.B", "base.E", "base.E", "base.B", "base.B", "base.B"],
        {"Ann": ["castles.konradsheim"]},
        [castle("konradsheim", 1, 0), meeple("castle")] + KONRADSHEIM_AROUND
        + [tile(0, -1, 180), PASS, tile(3, -1), PASS, tile(0, 1), PASS, tile(3, 1), PASS],
    )  # fmt: skip
    assert ("castle", {"Ann": 12}) in scored(events, final=False)
    assert game.supply[0] == 7


def test_castles_never_touch_each_other_even_diagonally():
    game, _ = play(
        ["base.E", "base.B", "base.B"],
        {"Ann": ["castles.konradsheim"], "Bob": ["castles.eltz"]},
        [castle("konradsheim", 1, 0), PASS, tile(3, 0, 270), PASS, tile(0, 1), PASS],
    )
    assert game.player_name == "Bob" and game.step == "draw"
    placed = {(1, 0), (2, 0)}
    offered = [m for m in game.legal_moves() if m["type"] == "castle"]
    assert offered
    for move in offered:
        offsets = TILE_TYPES[move["castle"]].rotations[move["rot"] // 90].offsets
        for dx, dy in offsets:
            x, y = move["x"] + dx, move["y"] + dy
            assert all(max(abs(x - px), abs(y - py)) > 1 for px, py in placed), move
    # (3,1) touches the tile at (3,0) but lies diagonally next to the castle's cell (2,0).
    with pytest.raises(IllegalMove, match="may not touch another castle, not even diagonally"):
        game.apply(castle("eltz", 3, 1))


def test_after_the_last_tile_only_players_who_can_place_a_castle_go_on():
    # The rule page's 4-player example: P1 places the last tile, P2 and P3 place their castles,
    # P4 has none, so the game ends although P1 still holds one.
    hands = {"P1": ["castles.konradsheim"], "P2": ["castles.wartburg"], "P3": ["castles.eltz"], "P4": []}
    game = Game(["P1", "P2", "P3", "P4"], list(SETS), pool=["base.B"], castles=hands)
    game.apply({"type": "draw"})
    game.apply(tile(0, 1))
    game.apply(PASS)
    for player in ("P2", "P3"):
        assert game.player_name == player and game.step == "draw"
        moves = game.legal_moves()
        assert moves and all(m["type"] == "castle" for m in moves)  # nothing left to draw
        game.apply(moves[0])
        if game.step == "figure":
            game.apply(PASS)
    assert game.finished
    assert game.state["castles"].hands[0] == ["castles.konradsheim"]


def test_random_castle_games_replay():
    for seed in range(25):
        game = Game(["A", "B", "C"], ["base", "castles", "toll"], seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            game.apply(ai.choose(game))
        replayed, _, error = load(game.to_json())
        assert error is None and replayed.scores == game.scores


def test_a_player_whose_discarded_tile_empties_the_bag_may_still_place_a_castle():
    # Ann closes the start tile's city with base.E; Bob draws base.C (a walled city), which then
    # fits nowhere and leaves the game: the bag is empty, but Bob may still place his castle.
    hands = {"Ann": ["castles.konigstein"], "Bob": ["castles.konradsheim"]}
    game = Game(["Ann", "Bob"], list(SETS), pool=["base.E", "base.C"], castles=hands)
    game.apply({"type": "draw"})
    game.apply(tile(0, -1, 180))
    game.apply(PASS)
    assert game.player_name == "Bob" and game.step == "draw"
    events = game.apply({"type": "draw"})
    assert {"type": "tile_discarded", "tile": "base.C"} in events and game.bag_left == 0
    assert not game.finished and game.player_name == "Bob" and game.step == "draw"
    moves = game.legal_moves()
    assert moves and all(m["type"] == "castle" and m["castle"] == "castles.konradsheim" for m in moves)
    question = game.question()
    assert question is not None and question.prompt == "place one of your castles (the bag is empty)"
    events = game.apply(moves[0])
    assert events[0]["type"] == "tile_placed" and events[0]["tile"] == "castles.konradsheim"
    assert game.state["castles"].hands[1] == []


def test_no_castle_while_river_tiles_remain():
    hands = {"Ann": ["castles.konigstein"], "Bob": ["castles.konradsheim"]}
    game = Game(["Ann", "Bob"], ["base", "river1", "castles"], seed=4, castles=hands)
    river_turns = 0
    while any(t.startswith("river1.") for t in game.remaining_tiles()) or (
        game.drawn and game.drawn.id.startswith("river1.")
    ):
        assert game.step != "draw"  # no draw-or-castle choice during the river
        with pytest.raises(IllegalMove):
            game.apply({"type": "castle", "castle": "castles.konigstein", "x": 0, "y": 1, "rot": 0})
        game.apply(game.legal_moves()[0])
        river_turns += 1
    assert river_turns >= 10
    # The river is done: castle holders choose again at the start of their turns.
    while game.step not in ("draw",) and not game.finished:
        game.apply(game.legal_moves()[-1])
    assert game.step == "draw" and any(m["type"] == "castle" for m in game.legal_moves())


def test_the_quick_castle_test_agrees_with_the_full_list():
    """``castle_fits`` (any castle placement, found without listing them) says what
    ``castle_placements`` lists, at every decision of random castle games."""
    from engine.expansions.castles import castle_fits, castle_placements

    seen = {True: 0, False: 0}
    for seed in range(6):
        game = Game(["A", "B", "C"], ["base", "castles"], seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            quick, full = game.clone(), game.clone()  # clones start with empty caches
            fits = castle_fits(quick)
            assert fits == bool(castle_placements(full))
            seen[fits] += 1
            game.apply(ai.choose(game))
    assert seen[True] and seen[False]


def test_the_drawn_tiles_placements_are_listed_only_when_asked_and_then_by_every_rule():
    """The tile step only checks that the tile fits somewhere; the list made later
    keeps exactly the placements every rule allows."""
    game = Game(["A", "B"], ["base", "castles", "river1"], seed=4)
    ai = RandomPlayer(4)
    checked = 0
    while not game.finished:
        if game.step == "tile":
            assert game._placements is None  # not listed yet: the step needed no list
            listed = game.legal_placements()
            assert listed
            for (x, y), rots in game.board.fitting_placements(game.drawn).items():  # where the edges match
                for rot in rots:
                    move = {"type": "tile", "x": x, "y": y, "rot": rot}
                    try:
                        game.check_placement(game.drawn, move)
                        legal = True
                    except IllegalMove:
                        legal = False
                    assert legal == (rot in listed.get((x, y), ())), (x, y, rot)
                    checked += 1
        game.apply(ai.choose(game))
    assert checked > 100
