"""Traders & Builders on concrete boards (RULES.md "Traders & Builders"): exact scores.

The start tile base.D has its city to the north and its road running west-east at (0, 0).
"""

from __future__ import annotations

import pytest

from engine import Game, IllegalMove
from engine.catalog import SET_TILES, TILE_TYPES
from engine.expansions.traders import Traders, builders, send_lonely_builders_home
from engine.figures import kind_of
from engine.replay import summary
from tests.helpers import PASS, meeple, play, scored, tile

SETS = ("base", "traders")


def figure(kind: str, at: str, **cell: int) -> dict:
    return {**meeple(at, **cell), "figure": kind}


def test_the_set_is_the_catalog_s_twenty_four_tiles_with_twenty_goods() -> None:
    tiles = SET_TILES["traders"]
    assert sum(t.count for t in tiles) == 24
    goods = [m for t in tiles for s in t.segments for m in s.marks]
    assert {g: goods.count(g) for g in set(goods)} == {"wine": 9, "grain": 6, "cloth": 5}
    inner = sorted(t.id for t in tiles for s in t.segments if s.kind == "field" and not s.halves)
    assert inner == [
        "traders.band_cap_cloth", "traders.band_cap_wine", "traders.corner_caps_cloth", "traders.two_corners_wine",
    ]  # fmt: skip
    bridge = TILE_TYPES["traders.bridge"]
    assert [s.edges for s in bridge.segments if s.kind == "road"] == [((0, 0), (0, 2)), ((0, 3), (0, 1))]


# A city of four tiles around a three-sided grain city at (0, -1); Ann's knight in it.
GRAIN_CITY = ["traders.three_sides_grain", "base.E", "base.U", "base.E"]


def test_goods_go_to_whoever_completes_the_city_not_to_its_knights() -> None:
    moves = [
        tile(0, -1, 180), meeple("city:S"),  # Ann's knight
        tile(-1, -1, 90), PASS,
        tile(1, 0), PASS,
        tile(1, -1, 270), PASS,  # Bob completes the city
    ]  # fmt: skip
    game, events = play(GRAIN_CITY, moves, sets=SETS)
    assert [e for e in events if e["type"] == "goods"] == [{"type": "goods", "player": "Bob", "goods": {"grain": 1}}]
    assert scored(events, final=False) == [("city", {"Ann": 8})]  # 4 tiles x 2, as usual
    assert game.finished
    # Bob holds the only grain: 10; nobody holds wine or cloth: nobody scores for them.
    assert scored(events, final=True) == [("grain", {"Bob": 10})]
    assert game.scores == [8, 10]
    out, _status = summary(game.to_json())
    assert out["goods"] == {"Ann": {"wine": 0, "grain": 0, "cloth": 0}, "Bob": {"wine": 0, "grain": 1, "cloth": 0}}


def test_tied_goods_each_score_ten() -> None:
    game = Game(["Ann", "Bob", "Cy"], list(SETS), seed=0, pool=[])
    state = game.expansion_state("traders")
    state.goods[0].update(wine=3, cloth=1)
    state.goods[1].update(wine=3)
    events: list = []
    game.expansions[0].final_scoring(game, events)
    assert [(e["feature"], e["points"]) for e in events] == [("wine", {"Ann": 10, "Bob": 10}), ("cloth", {"Ann": 10})]


def test_a_city_unfinished_at_the_end_gives_no_goods() -> None:
    game, events = play(GRAIN_CITY[:2], [tile(0, -1, 180), meeple("city:S"), tile(-1, -1, 90), PASS], sets=SETS)
    assert game.finished
    assert not [e for e in events if e["type"] == "goods"]
    assert scored(events, final=True) == [("city", {"Ann": 3})]  # 3 tiles, 1 each; no goods score


# A straight road east of the start tile: Ann's thief, then her builder on it.
ROAD = ["base.U"] * 7
BUILDER_MOVES = [
    tile(1, 0), meeple("road:E"),  # Ann's thief
    tile(-1, 0), PASS,
    tile(2, 0), figure("builder", "road:E"),  # Ann's builder joins her thief
    tile(0, 1), PASS,
]  # fmt: skip


def test_a_tile_extending_the_builder_s_road_gives_one_more_tile_once_a_turn() -> None:
    game, _events = play(ROAD, BUILDER_MOVES, sets=SETS)
    assert game.player_name == "Ann"
    events = game.apply(tile(3, 0))
    events += game.apply(PASS)
    assert {"type": "extra_turn", "player": "Ann"} in events
    ended = [e for e in events if e["type"] == "turn_ended"]
    assert ended[-1]["player"] == "Ann" and ended[-1]["next"] == "Ann"
    assert game.player_name == "Ann" and game.step == "tile"
    # The extra tile extends the road again: no third part.
    events = game.apply(tile(4, 0)) + game.apply(PASS)
    assert not [e for e in events if e["type"] == "extra_turn"]
    assert game.player_name == "Bob"


def test_the_builder_stands_only_beside_its_owner_s_follower_on_a_road_or_city() -> None:
    game, _ = play(ROAD, BUILDER_MOVES[:4] + [tile(2, 0)], sets=SETS)
    builder_moves = [m for m in game.legal_moves() if m.get("figure") == "builder"]
    assert builder_moves == [{"type": "meeple", "at": "road:E", "figure": "builder"}]
    with pytest.raises(IllegalMove, match="may not stand on the field"):
        game.apply(figure("builder", "field:NNW"))
    labels = [o.label for o in game.question().options if o.move.get("figure") == "builder"]
    assert labels == ["builder on the road running east–west"]
    game.apply(PASS)
    game.apply(tile(0, 1))  # Bob: no follower of his on that road
    with pytest.raises(IllegalMove, match="already holds one of your followers"):
        game.apply(figure("builder", "road:W"))


def test_the_builder_goes_home_with_its_road_and_scores_nothing() -> None:
    moves = [*BUILDER_MOVES, tile(3, 0), PASS]  # Ann's extra part follows
    game, _ = play([*ROAD[:5], "base.A", "base.A"], moves, sets=SETS)
    events = game.apply(tile(4, 0, 90)) + game.apply(PASS)  # Ann closes the east end (extra part)
    assert not scored(events)
    game.apply(tile(-2, 0, 270))  # Bob closes the west end
    events = game.apply(PASS)
    assert scored(events) == [("road", {"Ann": 7})]  # 7 tiles, the thief's; the builder weighs nothing
    assert game.hands() == [{"follower": 7, "builder": 1, "pig": 1}, {"follower": 7, "builder": 1, "pig": 1}]


def test_a_builder_with_no_follower_of_its_owner_left_goes_home() -> None:
    game, _ = play(ROAD, BUILDER_MOVES, sets=SETS)
    board = game.board
    road = board.find(board.placements[1].first_node)
    thief = next(f for f in board.followers[road] if len(f) == 2)
    board.remove_figure(thief)  # as the plague would
    game.return_figure(thief)
    send_lonely_builders_home(game)
    assert board.followers[road] is None
    assert game.hands()[0] == {"follower": 7, "builder": 1, "pig": 1}


# Ann's farmer north of the start road, Bob's farmer north of the city he closes; Ann's tile joins
# the two fields and she puts her pig there.
PIG_POOL = ["base.U", "base.E", "base.E"]
PIG_MOVES = [
    tile(1, 0), meeple("field:NNE"),
    tile(0, -1, 180), meeple("field:NNW"),  # closes the start tile's city (2 tiles, nobody's)
    tile(1, -1), figure("pig", "field:SSW"),
]  # fmt: skip


def test_the_pig_makes_each_completed_city_worth_four_to_its_owner_only() -> None:
    game, events = play(PIG_POOL, PIG_MOVES, sets=SETS)
    assert game.finished
    assert scored(events, final=True) == [("field", {"Ann": 4, "Bob": 3})]  # a tie: both score the field


def test_without_the_pig_both_score_three() -> None:
    game, events = play(PIG_POOL, [*PIG_MOVES[:5], PASS], sets=SETS)
    assert scored(events, final=True) == [("field", {"Ann": 3, "Bob": 3})]


def test_the_pig_needs_its_owner_s_farmer_in_the_field() -> None:
    game, _ = play(PIG_POOL, PIG_MOVES[:4], sets=SETS)
    game.apply(tile(1, -1))
    assert {m["at"] for m in game.legal_moves() if m.get("figure") == "pig"} == {"field:ENE"}
    game2, _ = play(PIG_POOL, [tile(1, 0), PASS, tile(0, -1, 180), PASS, tile(1, -1)], sets=SETS)
    assert not [m for m in game2.legal_moves() if m.get("figure") == "pig"]


@pytest.mark.parametrize("sets, expected", [(["base", "river2", "traders"], 4), (["base", "river2"], 3)])
def test_the_river_ii_pigsty_is_a_pig_for_every_scorer_with_traders(sets: list[str], expected: int) -> None:
    game = Game(["Ann", "Bob"], sets, seed=0, pool=[])
    board = game.board
    sty = board.place(TILE_TYPES["river2.pigsty_curve"], 10, 0, 0)
    board.place(TILE_TYPES["base.E"], 11, 0, 90)  # a city cap facing east...
    board.place(TILE_TYPES["base.E"], 12, 0, 270)  # ...closed by one facing west
    pasture = next(n for n in board.tile_nodes(sty) if "pigsty" in board.segment_of(n).marks)
    root = board.find(pasture)
    assert game.feature_value(root, final=True) == expected
    assert game.feature_value(root, final=True, player=1) == expected  # never more than 4


def test_a_castle_joining_the_builder_s_road_gives_the_extra_tile() -> None:
    """Placing a castle is placing a tile: konradsheim's west road stub extends Ann's builder's road."""
    game = Game(["Ann", "Bob"], ["base", "castles", "traders"], pool=["base.U"] * 6,
                castles={"Ann": ["castles.konradsheim"], "Bob": []})  # fmt: skip
    draw = {"type": "draw"}
    for move in [draw, *BUILDER_MOVES[:2], *BUILDER_MOVES[2:4], draw, *BUILDER_MOVES[4:8]]:
        game.apply(move)
    events = game.apply({"type": "castle", "castle": "castles.konradsheim", "x": 3, "y": 0, "rot": 0})
    events += game.apply(PASS)
    assert {"type": "extra_turn", "player": "Ann"} in events
    assert game.player_name == "Ann"


def test_the_extra_tile_comes_even_when_the_first_tile_completed_the_builder_s_road() -> None:
    """Ann's tile closes the road her builder stands on: the road scores, thief and builder go home,
    and she still plays one more tile (publisher's notes)."""
    pool = ["base.U", "base.A", "base.U", "base.U", "base.A", "base.U"]
    moves = [
        tile(1, 0), meeple("road:E"),
        tile(-1, 0, 270), PASS,  # Bob closes the west end
        tile(2, 0), figure("builder", "road:E"),
        tile(0, 1), PASS,
    ]  # fmt: skip
    game, _ = play(pool, moves, sets=SETS)
    events = game.apply(tile(3, 0, 90)) + game.apply(PASS)  # Ann closes the east end
    assert scored(events) == [("road", {"Ann": 5})]
    assert {"type": "extra_turn", "player": "Ann"} in events
    assert game.player_name == "Ann" and game.hands()[0] == {"follower": 7, "builder": 1, "pig": 1}


# With River II the fork's two arms run side by side, so one city can span three river tiles (The
# River alone has too few curves to bring the river back beside itself: its tiles share no road or
# city). The spring sends the river east into the fork at (1, 0): one arm north into (1, -1), one east
# into (2, 0).
# Ann's follower on the city bridge at (2, 0) (its city runs north–south over the east arm), her builder
# on the north arm's city corner at (2, -1) (city south and east); Bob closes the north arm with the
# city end at (2, -2) and turns the east arm north at (3, 0), towards (3, -1), where the city corner's
# city points too. The city stays open to the south of (2, 0).
FORK_POOL = [
    "river2.fork", "river2.curve", "river2.city_bridge", "river2.pigsty_curve", "river2.city_corner",
    "river2.city_end", "river2.city_road", "river2.volcano_lake", "base.F", "base.B",
]  # fmt: skip
FORK_MOVES = [
    tile(1, 0), PASS,  # Ann: the fork
    tile(1, -1, 270), PASS,  # Bob: the north arm turns east
    tile(2, 0, 90), meeple("city:N"),  # Ann: the city bridge on the east arm, her follower on its city
    tile(3, 0), PASS,  # Bob: the east arm turns north
    tile(2, -1, 180), figure("builder", "city:E"),  # Ann: the north arm turns north, her builder joins
    tile(2, -2, 270), PASS,  # Bob: the city end closes the north arm
]  # fmt: skip
RIVER_SETS = ("base", "river2", "traders")


def builder_city_cells(game: Game) -> set[tuple[int, int]]:
    board = game.board
    (root,) = [root for root, builder in builders(game) if builder[0] == 0]
    assert sorted(kind_of(f) for f in board.followers[root]) == ["builder", "follower"]
    return board.feature_cells(root)


def test_the_river_s_normal_tile_after_an_extra_last_river_tile_earns_no_second_extra_part() -> None:
    """Ann's river tile extends her builder's city: one more part, and it draws the lake (the last
    river tile). The river's normal tile that follows is still that turn's: extending the city again,
    it earns nothing, and Bob plays next (EXPANSIONS.md, Traders & Builders with the rivers)."""
    game, _ = play(FORK_POOL, FORK_MOVES, sets=RIVER_SETS)
    assert builder_city_cells(game) == {(2, 0), (2, -1)}
    assert (game.player_name, game.drawn.id) == ("Ann", "river2.city_road")
    # Ann's city road on the east arm: its city cap joins the builder's city from the east.
    assert game.apply(tile(3, -1, 270)) == [
        {"type": "tile_placed", "player": "Ann", "tile": "river2.city_road", "x": 3, "y": -1, "rot": 270}
    ]
    assert builder_city_cells(game) == {(2, 0), (2, -1), (3, -1)}
    assert game.apply(PASS) == [
        {"type": "extra_turn", "player": "Ann"},
        {"type": "turn_ended", "player": "Ann", "turn": 7, "next": "Ann"},
        {"type": "tile_drawn", "player": "Ann", "tile": "river2.volcano_lake"},
    ]
    # The extra part: the lake closes the east arm; no figure on it, and the river's normal tile follows.
    assert game.apply(tile(3, -2, 270)) == [
        {"type": "tile_placed", "player": "Ann", "tile": "river2.volcano_lake", "x": 3, "y": -2, "rot": 270},
        {"type": "turn_ended", "player": "Ann", "turn": 8, "next": "Ann"},
        {"type": "tile_drawn", "player": "Ann", "tile": "base.F"},
    ]
    # The river's normal tile extends the builder's city again (south of the city bridge): same turn.
    assert game.apply(tile(2, 1, 90)) == [
        {"type": "tile_placed", "player": "Ann", "tile": "base.F", "x": 2, "y": 1, "rot": 90}
    ]
    assert builder_city_cells(game) == {(2, 0), (2, -1), (3, -1), (2, 1)}
    assert game.apply(PASS) == [
        {"type": "turn_ended", "player": "Ann", "turn": 9, "next": "Bob"},
        {"type": "tile_drawn", "player": "Bob", "tile": "base.B"},
    ]
    assert game.player_name == "Bob" and game.step == "tile"


def test_an_extra_part_earned_by_the_last_river_tile_comes_after_the_river_s_normal_tile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lakes are all field, so no real last river tile extends a builder's feature: here the
    traders' ``on_place`` is told the lake did (as a tile joining the builder's city would), to check
    the turn that follows. The river's normal tile comes first and earns nothing of its own (even
    extending the city), then the one extra part (extending it again: nothing), then Bob."""
    on_place = Traders.on_place

    def lake_joins_the_builder(self: Traders, game: Game, placement: int, events: list) -> None:
        on_place(self, game, placement, events)
        if game.board.placements[placement].tile.id == "river2.volcano_lake":
            game.state["traders"].extra_next = True

    monkeypatch.setattr(Traders, "on_place", lake_joins_the_builder)
    pool = [*FORK_POOL[:3], "river2.cloister", *FORK_POOL[4:6], "river2.volcano_lake", "base.F", "base.F", "base.B"]
    moves = [*FORK_MOVES[:6], tile(3, 0), PASS, *FORK_MOVES[8:]]  # Bob's cloister: the east arm runs on east
    game, _ = play(pool, moves, sets=RIVER_SETS)
    assert (game.player_name, game.drawn.id) == ("Ann", "river2.volcano_lake")
    assert game.apply(tile(4, 0)) == [
        {"type": "tile_placed", "player": "Ann", "tile": "river2.volcano_lake", "x": 4, "y": 0, "rot": 0},
        {"type": "extra_turn", "player": "Ann"},
        {"type": "turn_ended", "player": "Ann", "turn": 7, "next": "Ann"},
        {"type": "tile_drawn", "player": "Ann", "tile": "base.F"},
    ]
    # The river's normal tile: it extends the builder's city south of the city bridge, earning nothing.
    events = game.apply(tile(2, 1, 90)) + game.apply(PASS)
    assert builder_city_cells(game) == {(2, 0), (2, -1), (2, 1)}
    assert events == [
        {"type": "tile_placed", "player": "Ann", "tile": "base.F", "x": 2, "y": 1, "rot": 90},
        {"type": "turn_ended", "player": "Ann", "turn": 8, "next": "Ann"},
        {"type": "tile_drawn", "player": "Ann", "tile": "base.F"},
    ]
    # The extra part: east of the city corner, the city again; then Bob.
    events = game.apply(tile(3, -1)) + game.apply(PASS)
    assert builder_city_cells(game) == {(2, 0), (2, -1), (2, 1), (3, -1)}
    assert events == [
        {"type": "tile_placed", "player": "Ann", "tile": "base.F", "x": 3, "y": -1, "rot": 0},
        {"type": "turn_ended", "player": "Ann", "turn": 9, "next": "Bob"},
        {"type": "tile_drawn", "player": "Bob", "tile": "base.B"},
    ]


def test_a_tile_completing_two_cities_gives_the_goods_of_each() -> None:
    """A wine city west and a grain city east of (0, -1), each open only towards it: Ann's three
    city caps there close both (and the start tile's city)."""
    pool = ["base.U", "traders.band_wine", "base.E", "base.U", "traders.corner_grain", "base.E", "inns.three_cities"]
    moves = [
        tile(-1, 0), PASS,
        tile(-1, -1), PASS,  # wine, open east and west
        tile(-2, -1, 90), PASS,  # closes its west
        tile(1, 0), PASS,
        tile(1, -1), PASS,  # grain, open west and north
        tile(1, -2, 180), PASS,  # closes its north
        tile(0, -1, 180), PASS,  # Ann: three caps close three cities
    ]  # fmt: skip
    game, events = play(pool, moves, sets=("base", "traders", "inns"))
    goods = [(e["player"], e["goods"]) for e in events if e["type"] == "goods"]
    assert sorted(goods, key=str) == [("Ann", {"grain": 1}), ("Ann", {"wine": 1})]
    assert scored(events, final=True) == [("wine", {"Ann": 10}), ("grain", {"Ann": 10})]


@pytest.mark.parametrize(
    "set_name, english, french",
    [("inns", "2 per tile", "2 par tuile"), ("traders", "score 10", "rapporte 10")],
)
def test_carc_rules_has_each_new_set_in_both_languages(set_name: str, english: str, french: str) -> None:
    from cogs.play import rules_text

    assert english in rules_text(set_name, "en") and french in rules_text(set_name, "fr")


def test_tiles_are_named_with_their_inn_cathedral_or_good() -> None:
    from engine.language import speaking
    from engine.words import tile_name
    from locales import translations

    assert tile_name("traders.corner_wine") == "city corner with wine"
    assert tile_name("inns.inn_junction", article=True) == "a junction with an inn"
    assert tile_name("inns.cathedral") == "walled city with a cathedral"
    with speaking(translations("fr")):
        assert tile_name("traders.corner_wine").endswith("avec du vin")


def test_at_famine_the_pig_s_owner_s_farmers_take_two_per_completed_city() -> None:
    """RULES.md (the pig with the Wheel of Fortune): each farmer of the pig's owner in its field
    scores 2 per completed city at Famine instead of 1; other farmers 1."""
    from engine.expansions.wheel import Wheel

    game = Game(["Ann", "Bob"], ["base", "wheel", "traders"], seed=0, pool=[])
    board = game.board
    west = board.place(TILE_TYPES["base.E"], 20, 0, 90)  # a city cap facing east...
    east = board.place(TILE_TYPES["base.E"], 21, 0, 270)  # ...closed by one facing west
    ann_field = next(n for n in board.tile_nodes(west) if board.kind[n] == "field")
    bob_field = next(n for n in board.tile_nodes(east) if board.kind[n] == "field")
    board.add_follower(0, ann_field)
    board.add_follower(0, ann_field, "pig")
    board.add_follower(1, bob_field)
    events: list = []
    Wheel()._event(game, "famine", events)
    assert events[-1]["points"] == {"Ann": 2, "Bob": 1}


def test_the_computers_value_the_extra_tiles_a_standing_builder_may_bring() -> None:
    """Ann's builder beside her thief on the open road: her holdings count the extra tiles it may
    bring (BUILDER_PROSPECT, scaled by the bag left), on top of the road, less what the builder was
    worth in hand; once the road is closed and the builder home, nothing. Given the choice, the
    computer puts the builder on the road."""
    from engine.ai import make_player
    from engine.ai.evaluation import FOLLOWER_IN_HAND, holdings
    from engine.expansions.traders import BUILDER, BUILDER_PROSPECT, Traders

    without, _ = play(ROAD, BUILDER_MOVES[:4] + [tile(2, 0), PASS, tile(0, 1), PASS], sets=SETS)
    standing, _ = play(ROAD, BUILDER_MOVES, sets=SETS)
    left = standing.bag_left / len(standing.bag)
    kept = FOLLOWER_IN_HAND * BUILDER.hand_worth * left  # (the builder in Ann's hand, without it on the road)
    assert holdings(standing)[0] - holdings(without)[0] == pytest.approx(BUILDER_PROSPECT * left - kept)
    assert holdings(standing)[1] == pytest.approx(holdings(without)[1])
    closed, _ = play(["base.U", "base.A", "base.U", "base.U", "base.A", "base.U"],
                     [tile(1, 0), meeple("road:E"), tile(-1, 0, 270), PASS, tile(2, 0), figure("builder", "road:E"),
                      tile(0, 1), PASS, tile(3, 0, 90), PASS], sets=SETS)  # fmt: skip
    assert [f for f in closed.board_figures() if f.owner == 0] == []  # all home: no prospect left
    assert Traders().prospects(closed) == [0.0, 0.0]
    for level in ("normal", "hard"):
        game, _ = play(ROAD, BUILDER_MOVES[:4] + [tile(2, 0)], sets=SETS)
        choice = make_player(level, seed=1, playouts=200).choose(game)  # (a fixed search: no clock)
        assert choice == {"type": "meeple", "at": "road:E", "figure": "builder"}, level
