"""Computer levels: legal in every set family, deterministic for a seed and a fixed search, and
blind to the order of the undrawn tiles."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Game
from engine.ai import LEVELS, GreedyPlayer, RandomPlayer, computer_moves, determinized, make_player
from engine.ai.mcts import MctsPlayer
from engine.ai.players import random_move
from engine.expansions import Expansion
from engine.expansions.families import NAMED_FAMILIES
from engine.record import drawn_prefix, load

FAMILIES = {
    "base": ["base"],
    "rivers+castles+ferries+toll": ["base", "river1", "river2", "castles", "ferries", "toll"],
    "wheel+castles+ferries+toll": ["wheel", "castles", "ferries", "toll"],
}
LAKES = ("river1.lake", "river2.volcano_lake")


def quick(level: str, seed: int):
    return make_player(level, seed, playouts=6)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_games_of_every_family(family, level):
    game = Game(["Ann", "Bob", "Cy"], FAMILIES[family], seed=7)
    players = [quick(level, 1), GreedyPlayer(2), RandomPlayer(3)]
    kinds = set()
    while not game.finished:
        question = game.question()
        kinds.add(question.kind)
        before = len(game.moves)
        game.apply(players[game.actor].choose(game))  # an illegal move would raise IllegalMove
        assert len(game.moves) == before + 1
    assert game.finished and {"tile", "figure"} <= kinds


def twin_with_another_bag(game: Game, rng: random.Random) -> Game:
    """The same game (same moves, same position) whose undrawn tiles are in another order."""
    record = game.to_json()
    prefix = drawn_prefix(game)
    rest = record["pool"][len(prefix) :]
    river = [t for t in rest if t.startswith("river") and t not in LAKES]
    lakes = [t for t in rest if t in LAKES]
    land = [t for t in rest if not t.startswith("river")]
    rng.shuffle(river)
    rng.shuffle(land)
    twin, _events, error = load({**record, "pool": prefix + river + lakes + land})
    assert error is None and twin.question() == game.question()
    return twin


def positions(family: str, seeds: range, stops: tuple[int, ...]):
    for seed in seeds:
        game = Game(["Ann", "Bob"], FAMILIES[family], seed=seed)
        players = [GreedyPlayer(seed), RandomPlayer(seed + 1)]
        while not game.finished:
            kind = game.question().kind
            if (
                len(game.moves) in stops
                or kind in ("draw", "plague", "ferry", "ferry_move")
                or (kind == "figure" and len(game.moves) % 9 == 1)
            ):
                yield game
            game.apply(players[game.actor].choose(game))


@pytest.mark.parametrize("family", FAMILIES)
def test_no_level_reads_the_order_of_the_undrawn_tiles(family):
    rng = random.Random(5)
    kinds: set[str] = set()
    for n, game in enumerate(positions(family, range(3), (0, 9, 30))):
        if n % 3:  # every third position keeps the test short; the kinds are still reached
            continue
        kinds.add(game.question().kind)
        twin = twin_with_another_bag(game, rng)
        if twin.bag[twin.bag_pos :] == game.bag[game.bag_pos :]:
            continue  # one tile left, or all alike: nothing to permute
        for level in LEVELS:
            mine = quick(level, 11).choose(game)
            theirs = quick(level, 11).choose(twin)
            assert mine == theirs, (level, game.question().kind, len(game.moves))
        # (nor does the reference MCTS, played against the levels in benchmarks/ai.py)
        assert MctsPlayer(11, None, 4).choose(game) == MctsPlayer(11, None, 4).choose(twin)
    assert "tile" in kinds and "figure" in kinds
    if "castles" in FAMILIES[family]:
        assert "draw" in kinds  # a castle holder's choice between drawing and a castle


def test_the_reference_greedy_player_would_read_it():
    """Why the levels determinize: GreedyPlayer (the fixed reference) tries a castle holder's
    draw on a copy of the real bag; a determinization never holds the real order."""
    game = Game(["Ann", "Bob"], ["base", "castles"], seed=3)
    view = determinized(game, random.Random(1))
    assert sorted(view.bag[view.bag_pos :]) == sorted(game.bag[game.bag_pos :])
    twin = twin_with_another_bag(game, random.Random(2))
    assert determinized(twin, random.Random(1)).bag == view.bag


def test_a_fixed_search_is_a_function_of_the_position_and_the_seed():
    game = Game(["Ann", "Bob"], ["base"], seed=9)
    for _ in range(8):
        game.apply(GreedyPlayer(1).choose(game))
    assert quick("hard", 4).choose(game) == quick("hard", 4).choose(game)
    assert quick("easy", 4).choose(game) == quick("easy", 4).choose(game)


def test_computer_moves_make_a_whole_decision_for_a_seat():
    game = Game(["Ann", "Bob"], ["base", "castles", "ferries"], seed=2)
    turn, actor = game.turn, game.actor
    moves = computer_moves(game, "ai:hard:1")
    assert moves and (game.turn, game.actor) != (turn, actor)


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level 'godlike'"):
        make_player("godlike", 1)


def test_a_hint_is_a_legal_decision_that_never_reads_the_bag():
    from engine.ai import hint

    rng = random.Random(8)
    checked = 0
    for game in positions("rivers+castles+ferries+toll", range(2), (0, 12)):
        if game.question().kind not in ("tile", "draw"):
            continue
        moves, expected = hint(game, 5, playouts=12)
        twin = twin_with_another_bag(game, rng)
        assert hint(twin, 5, playouts=12) == (moves, expected)  # the real order changes nothing
        trial = game.clone()
        actor, turn = trial.actor, trial.turn
        for move in moves:
            trial.apply(move)  # legal, in order
        assert trial.finished or trial.actor != actor or trial.turn != turn  # the whole decision
        assert isinstance(expected, float)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_the_reference_greedy_player_judges_a_placement_with_its_figure():
    """A city cap next to the start tile's city closes it: 4 points with a knight on it. Every
    other placement gains nothing this turn, so a placer judging the tile alone would pick at
    random among them (1 in 4 here); the whole turn's gain finds the city every time."""
    placements = Game(["Ann", "Bob"], ["base"], pool=["base.E", "base.U", "base.V"]).legal_placements()
    assert sum(len(rots) for rots in placements.values()) == 4
    for seed in range(4):
        game = Game(["Ann", "Bob"], ["base"], pool=["base.E", "base.U", "base.V"])
        greedy = GreedyPlayer(seed)
        tile = greedy.choose(game)
        game.apply(tile)
        knight = greedy.choose(game)
        game.apply(knight)
        assert (tile, knight) == ({"type": "tile", "x": 0, "y": -1, "rot": 180}, {"type": "meeple", "at": "city:S"})
        assert game.scores == [4, 0] and game.supply[0] == 7  # scored, and the knight came back


class _Trial(Expansion):
    """A trial expansion: unfinished features score nothing at the end, and the first player
    gets 5 points from its own end-of-game scoring."""

    name = "trial"
    sets = ("trial",)
    titles = {"trial": "Trial"}

    def value(self, game: Game, root: int, final: bool, points: int, player: int | None) -> int:
        return 0 if final else points

    def final_scoring(self, game: Game, events: list) -> None:
        game.scores[0] += 5


@pytest.fixture
def trial_set():
    from engine.expansions.registry import register, unregister

    register(_Trial)
    yield "trial"
    unregister(_Trial)


def test_the_evaluation_sees_the_expansions_scoring(trial_set):
    """An open feature is worth what it scores completed (``final=False``) times the chance it is
    completed, and what it scores unfinished otherwise, each through the engine's one value of a
    feature: the trial's rule (an unfinished feature scores nothing) reaches the computers with no
    code of theirs. The chance falls as the last tiles are drawn (``Weights.late``)."""
    from engine.ai.evaluation import FOLLOWER_IN_HAND, Weights, feature_value, holdings

    pool = ["base.E", "base.U", "base.V"]
    # (no fall: the chance as with a full bag; and the open cells not looked at: the city's ends on a
    # hole with these tiles, see test_a_city_that_ends_on_a_hole_keeps_none_of_its_chance)
    always, falling = Weights(late=0, scarce=0, reserve=0), Weights(scarce=0, reserve=0)
    for sets in (["base"], ["base", trial_set]):
        game = Game(["Ann", "Bob"], sets, pool=pool)
        game.apply({"type": "tile", "x": 0, "y": 1, "rot": 180})  # (a city cap facing away from the start tile)
        game.apply({"type": "meeple", "at": "city:S"})
        in_hand = [FOLLOWER_IN_HAND * game.bag_left / len(game.bag) * s for s in game.supply]
        root = game.board.find(game.node_at(0, 1, "city:S"))
        assert game.board.open[root] == 1 and feature_value(game, root, False) == 2  # one edge open; 2 completed
        chance = always.completion
        late = chance * game.bag_left / Weights().late  # (one tile left of the 20 the chance falls over)
        if sets == ["base"]:
            assert feature_value(game, root, True) == 1
            assert holdings(game, always) == pytest.approx([in_hand[0] + chance * 2 + (1 - chance) * 1, in_hand[1]])
            assert holdings(game, falling) == pytest.approx([in_hand[0] + late * 2 + (1 - late) * 1, in_hand[1]])
        else:
            assert feature_value(game, root, True) == 0
            assert holdings(game, always) == pytest.approx([in_hand[0] + 5 + chance * 2, in_hand[1]])
            assert holdings(game, falling) == pytest.approx([in_hand[0] + 5 + late * 2, in_hand[1]])
            assert game.scores == [0, 0]  # valuing the end-of-game scoring changed nothing


def test_having_a_follower_in_hand_is_worth_a_reserve():
    """A player with a follower still in hand can claim what the tiles to come bring, one with none
    cannot: ``Weights.reserve`` points for having one at all, beside each one's worth (which falls
    with the bag), falling to nothing over the last round of tiles."""
    from engine.ai.evaluation import FOLLOWER_IN_HAND, Weights, hand_worths, holdings

    weights = Weights(reserve=4.0, scarce=0)
    game = Game(["Ann", "Bob"], ["base"], seed=3)
    each = FOLLOWER_IN_HAND * game.bag_left / len(game.bag)  # (a full bag: 71 tiles)
    assert holdings(game, weights) == pytest.approx([7 * each + 4, 7 * each + 4])
    for _ in range(7):
        game.take_figure(0)  # (Ann's followers all away)
    for _ in range(6):
        game.take_figure(1)  # (Bob keeps one)
    assert holdings(game, weights) == pytest.approx([0.0, each + 4])
    assert holdings(game, replace(weights, reserve=0.0)) == pytest.approx([0.0, each])
    rng, last_round = random.Random(1), []
    while not game.finished:
        game.apply(random_move(game, rng))
        if game.bag_left == 1 and game.step == "tile":  # (the last round: half of it left to claim with)
            last_round.append(hand_worths(game, follower=0.0, reserve=4.0))
            assert last_round[-1] == [2.0 if game.supply[p] else 0.0 for p in (0, 1)]
    assert last_round and hand_worths(game, reserve=4.0) == [0.0, 0.0]  # (the game over: nothing left to claim)


def test_the_parts_of_a_position_add_up_to_its_holdings():
    """``benchmarks/valuation.py`` fits what each part of a position is worth: the parts it splits a
    position into, weighted as the valuation weighs them now, are the holdings, in every family, under
    the default weights and others."""
    from benchmarks.valuation import components, current_worths
    from engine.ai.evaluation import Weights, holdings

    for family, sets in NAMED_FAMILIES.items():
        for weights in (Weights(), Weights(reserve=2.5, city_share=1.4, follower_in_hand=2.0, per_open_edge=0.3)):
            worths = current_worths(weights)
            game = Game(["Ann", "Bob"], sets, seed=7)
            rng = random.Random(7)
            while not game.finished:
                parts = components(game, weights)
                summed = [sum(a * b for a, b in zip(row, worths, strict=True)) for row in parts]
                assert summed == pytest.approx(holdings(game, weights), abs=1e-9), (family, game.turn)
                game.apply(random_move(game, rng))


def test_an_open_city_is_worth_less_the_more_edges_it_has_open():
    """Each further open edge multiplies the chance of completion by ``per_open_edge``: a one-tile
    city with one edge open (a cap) is worth more than one with two (a corner); both score 1
    unfinished and 2 completed."""
    from engine.ai.evaluation import Weights, holdings

    weights = Weights(late=0, scarce=0)  # (the chance as with a full bag, whatever fits the open cells)
    held = {}
    # (the cap's city faces south; the corner's south and east)
    for tile, at in (("base.E", "city:S"), ("base.N", "city:S")):
        game = Game(["Ann", "Bob"], ["base"], pool=[tile, "base.E", "base.U"])
        game.apply({"type": "tile", "x": 0, "y": 1, "rot": 180})
        game.apply({"type": "meeple", "at": at})
        root = game.board.find(game.node_at(0, 1, at))
        assert (game.feature_value(root, True), game.feature_value(root, False)) == (1, 2)
        held[game.board.open[root]] = holdings(game, weights)[0] - holdings(game, replace(weights, completion=0.0))[0]
    chance = weights.completion
    assert held == pytest.approx({1: chance * (2 - 1), 2: chance * weights.per_open_edge * (2 - 1)})


def test_a_city_that_ends_on_a_hole_keeps_none_of_its_chance():
    """A cell whose neighbours demand edges no tile left has (here a city edge, with only roads in the
    bag) is a hole: the city that ends on it can never be completed, so it is worth what it scores
    unfinished. With a cap left (in hand) the same cell is scarce, one tile fits it, and the city
    keeps 1 / ``scarce`` of its chance. The start tile's city, open to the north, is in the same case,
    and its road is scarce (the straight road and the curve fit its ends, the cap not)."""
    from engine.ai.evaluation import Weights, holdings
    from engine.holes import holes, scarce_roots

    weights = Weights(late=0)
    chance_term = {}
    for left in (["base.U", "base.V"], ["base.E", "base.U"]):
        game = Game(["Ann", "Bob"], ["base"], pool=["base.E", *left])
        game.apply({"type": "tile", "x": 0, "y": 1, "rot": 180})  # (a cap whose city faces south)
        game.apply({"type": "meeple", "at": "city:S"})
        cap = game.board.find(game.node_at(0, 1, "city:S"))
        start = game.board.find(game.node_at(0, 0, "city:N"))
        road = game.board.find(game.node_at(0, 0, "road:E"))  # (the start tile's: U and V fit its ends, E not)
        copies = 0 if left == ["base.U", "base.V"] else 1
        assert sorted(holes(game)) == ([(0, -1), (0, 2)] if copies == 0 else [])
        assert scarce_roots(game, 12) == {cap: copies, start: copies, road: 2 if copies == 0 else 1}
        assert scarce_roots(game, 1) == ({cap: 0, start: 0} if copies == 0 else {})
        chance_term[left[0]] = holdings(game, weights)[0] - holdings(game, replace(weights, completion=0.0))[0]
        ignored = replace(weights, scarce=0.0)  # (the open cells not looked at: the chance of one open edge)
        assert holdings(game, ignored)[0] - holdings(game, replace(ignored, completion=0.0))[0] == pytest.approx(
            weights.completion * (2 - 1)
        )
    assert chance_term == pytest.approx({"base.U": 0.0, "base.E": weights.completion / weights.scarce * (2 - 1)})


def test_holes_are_found_from_which_tiles_are_left_never_their_order():
    """The same position with the undrawn tiles in another order has the same holes (a tile in
    hand counts as left until it is placed)."""
    from engine.holes import holes

    found = set()
    for seed in range(6):
        game = Game(["Ann", "Bob"], ["base"], seed=0)
        player = RandomPlayer(0)
        while game.turn < 40:
            game.apply(player.choose(game))
        rest = game.bag[game.bag_pos :]
        random.Random(seed).shuffle(rest)
        game.bag[game.bag_pos :] = rest
        found.add(tuple(sorted(holes(game))))
    assert found == {((-3, 1), (-1, 2), (2, -1), (3, 3))}


@pytest.mark.parametrize("family", sorted(NAMED_FAMILIES))
def test_the_scarce_roads_and_cities_a_copy_keeps_are_those_it_would_find_afresh(family):
    """The scarce roads and cities are kept with the board's layout (``Board.layout_cache``) and
    copied with it, so that the positions a look-ahead reaches without placing a tile (a figure
    choice, the next player's draw, a determinization, a ferry's move, which replaces them) ask
    the open cells once: on every position of determinized games played on from random positions
    of every family, the kept answer is the one found afresh, and it is kept for some of them."""
    from engine.holes import scarce_roots

    kept = asked = 0
    game = Game(["Ann", "Bob", "Cyd"], NAMED_FAMILIES[family], seed=7)
    player, rng = RandomPlayer(7), random.Random(7)
    while not game.finished:
        if game.turn % 3 == 0:
            scarce_roots(game, 12)
            for _ in range(2):
                world = determinized(game, rng)
                for _ in range(8):
                    if world.finished:
                        break
                    fresh = world.clone()
                    fresh.board.layout_cache = {}
                    kept += bool(world.board.layout_cache)
                    asked += 1
                    assert scarce_roots(world, 12) == scarce_roots(fresh, 12)
                    world.apply(player.choose(world))
        game.apply(player.choose(game))
    assert asked > 100 and kept > asked // 3


def test_an_open_inn_road_is_worth_the_inns_price_by_its_chance():
    """An inn road scores nothing unfinished at the end and twice its tiles completed: the
    computers value it by the chance it is completed (it used to be worth nothing to them until
    completed), with no code of the inns' in the evaluation."""
    from engine.ai.evaluation import Weights, holdings

    weights = Weights(late=0, scarce=0)  # (two tiles left: each open cell is scarce, see the test above)
    game = Game(["Ann", "Bob"], ["base", "inns"], pool=["inns.inn_straight", "base.U", "base.V"])
    game.apply({"type": "tile", "x": 1, "y": 0, "rot": 0})  # (the inn's road joins the start tile's, open both ways)
    game.apply({"type": "meeple", "at": "road:E"})
    root = game.board.find(game.node_at(1, 0, "road:E"))
    assert (game.board.open[root], game.feature_value(root, True), game.feature_value(root, False)) == (2, 0, 4)
    held = holdings(game, weights)[0] - holdings(game, replace(weights, completion=0.0))[0]
    assert held == pytest.approx(weights.completion * weights.per_open_edge * 4)


def test_normal_takes_an_inn_road_the_old_valuation_left_alone():
    """With the inn's road worth nothing to it until completed, normal drew the inn tile, extended the
    start road and kept its follower; valued by its chance, the road gets a follower (every seed)."""
    from engine.ai.evaluation import Weights
    from engine.ai.players import OneMove

    pool = ["inns.inn_straight"] + ["base.U", "base.V", "base.E", "base.B", "base.K", "base.L"] * 3
    for seed in range(4):
        figures = {}
        for name, weights in (("now", Weights()), ("old", Weights.parse("city_share=1.4,completion=0,late=0"))):
            game = Game(["Ann", "Bob"], ["base", "inns"], pool=pool)
            normal = OneMove(seed, weights=weights)
            game.apply(normal.choose(game))
            figures[name] = normal.choose(game)
        assert figures == {"now": {"type": "meeple", "at": "road:E"}, "old": {"type": "pass"}}, seed


def test_a_field_counts_all_its_points_once_the_bag_is_empty():
    """A field counts ``field_share`` of its points while the bag is full, all of them once it is
    empty (the holdings are then the final scoring)."""
    from engine.ai.evaluation import Weights, holdings

    game = Game(["Ann", "Bob"], ["base"], pool=["base.E", "base.U"])
    game.apply({"type": "tile", "x": 0, "y": -1, "rot": 180})  # (the cap closes the start tile's city)
    game.apply({"type": "meeple", "at": "field:NNW"})  # (the field beside it)
    root = game.board.find(game.node_at(0, -1, "field:NNW"))
    assert game.feature_value(root, True) == 3 and game.bag_left == 0 and not game.finished  # (the last tile in hand)
    assert holdings(game, Weights())[0] - game.scores[0] == pytest.approx(3)  # (and no reserve: the bag is empty)
    assert holdings(game, Weights(late=0))[0] - game.scores[0] == pytest.approx(3 * Weights().field_share)


def test_a_field_counts_its_open_cities_by_their_chance():
    """With ``field_open``, a farmer beside an open city holds that share of the 3 points the city
    brings the field once completed, by the city's chance (the start tile's city, one edge open); a
    field touching no open city adds nothing."""
    from engine.ai.evaluation import Weights, holdings

    weights = Weights(late=0, scarce=0, field_open=0.3)
    game = Game(["Ann", "Bob"], ["base"], pool=["base.U", "base.V", "base.E"])
    game.apply({"type": "tile", "x": 1, "y": 0, "rot": 0})  # (a straight road east of the start tile)
    game.apply({"type": "meeple", "at": "field:NNW"})  # (the field under the start tile's city)
    root = game.board.find(game.node_at(1, 0, "field:NNW"))
    city = game.board.find(game.node_at(0, 0, "city:N"))
    assert game.board.cities_of_field(root) == {city} and game.board.open[city] == 1
    assert game.feature_value(root, True) == 0
    held = holdings(game, weights)[0] - holdings(game, replace(weights, field_open=0.0))[0]
    assert held == pytest.approx(0.3 * 3 * weights.completion * weights.field_share)
    south = Game(["Ann", "Bob"], ["base"], pool=["base.U", "base.V", "base.E"])
    south.apply({"type": "tile", "x": 1, "y": 0, "rot": 0})
    south.apply({"type": "meeple", "at": "field:ESE"})  # (south of the road: it touches no city)
    assert holdings(south, weights) == pytest.approx(holdings(south, replace(weights, field_open=0.0)))


def test_the_search_lists_every_option_of_a_crowded_decision():
    """No silent cut: every (placement, next answer) pair of a decision is among hard's options."""
    from engine.ai.search import Options

    game = Game(["Ann", "Bob"], FAMILIES["wheel+castles+ferries+toll"], seed=4)
    players = [RandomPlayer(1), RandomPlayer(2)]

    def pairs() -> int:
        count = 0
        for cell, rots in game.legal_placements().items():
            for rot in rots:
                trial = game.clone()
                trial.apply({"type": "tile", "x": cell[0], "y": cell[1], "rot": rot})
                asked = trial.turn == game.turn and trial.actor == game.actor and not trial.finished
                count += len(trial.legal_moves()) if asked else 1  # (each answer of the next step)
        return count

    while not (game.step == "tile" and len(game.legal_placements()) > 20 and pairs() > 300):
        game.apply(players[game.actor].choose(game))
    options = Options(determinized(game, random.Random(3)), random.Random(4)).every()
    assert len(options) == pairs() > 300  # (the old search stopped listing at 300)
    assert len({repr(moves[:2]) for _prior, moves in options}) == len(options)  # each pair once


def test_the_search_settings_are_read_by_name_and_change_the_search():
    """``Settings.parse`` (what benchmarks/sprt.py plays): unknown knobs refused, the rest default;
    a shallower search is still a legal, seeded decision, and sees a different position."""
    from engine.ai.search import DEFAULT, Search, Settings

    assert Settings.parse("") == DEFAULT
    assert Settings.parse(" depth=1, exploration=0.5 ") == Settings(depth=1, exploration=0.5)
    with pytest.raises(ValueError, match="unknown weight 'dpth'.*or a search setting"):
        Settings.parse("dpth=1")
    weighed = Settings.parse("depth=1,completion=0.5,big=0")  # (the evaluation's weights by name too)
    assert (weighed.depth, weighed.weights.completion, dict(weighed.weights.hand)) == (1, 0.5, {"big": 0.0})
    with pytest.raises(ValueError):
        Settings.parse("depth=deep")
    game = Game(["Ann", "Bob"], ["base"], seed=9)
    for _ in range(8):
        game.apply(GreedyPlayer(1).choose(game))
    shallow = [Search(4, None, 12, Settings(depth=0)) for _ in range(2)]
    plans = [search.think(game) for search in shallow]
    assert plans[0] == plans[1]
    trial = game.clone()
    for move in plans[0]:
        trial.apply(move)  # (legal: an illegal move raises)
    assert (trial.turn, trial.actor) != (game.turn, game.actor)  # a whole decision
    deep = Search(4, None, 12)
    deep.think(game)
    # (judged at the start of the next turn rather than two turns later: another value)
    assert shallow[0].last_value != deep.last_value


def test_the_search_may_judge_positions_by_other_weights_than_its_policy_plays_by():
    """``Settings.value``: ``value.``-prefixed weights are how the search judges the positions it
    compares (the options' priors, the play-outs' ends), while its play-out policy keeps
    ``weights``; none given, the search judges as its policy plays. A value that ignores every open
    feature's chance judges the same options by other priors."""
    from engine.ai.search import Options, Settings

    split = Settings.parse("depth=1,completion=0.5,value.completion=0,value.reserve=1")
    assert (split.weights.completion, split.weights.reserve) == (0.5, 4.0)
    assert split.value is not None and (split.value.completion, split.value.reserve) == (0.0, 1.0)
    assert split.judged is split.value
    plain = Settings.parse("completion=0.5")
    assert plain.value is None and plain.judged is plain.weights
    with pytest.raises(ValueError, match="unknown weight 'depth'"):
        Settings.parse("value.depth=1")  # (a knob of the search is no weight)
    game = Game(["Ann", "Bob"], ["base"], seed=9)
    for _ in range(8):
        game.apply(GreedyPlayer(1).choose(game))
    priors = {}
    for text in ("", "value.completion=0"):
        listed = Options(determinized(game, random.Random(3)), random.Random(3), Settings.parse(text)).every()
        priors[text] = {repr(moves): prior for prior, moves in listed}
    assert priors[""].keys() == priors["value.completion=0"].keys()  # (the same options)
    assert priors[""] != priors["value.completion=0"]


def test_the_horizon_shortens_when_the_budget_buys_too_few_playouts():
    """``deep_playouts``: the first play-out's cost says how many the budget buys; below the
    threshold every play-out stops one turn after the decision's own. Thresholds no machine can
    miss: a billion play-outs are never affordable, and 0 turns the rule off; a fixed number of
    play-outs keeps the horizon (the choice stays a pure function of the seed)."""
    from engine.ai.search import Search, Settings

    game = Game(["Ann", "Bob"], ["base"], seed=9)
    for _ in range(8):
        game.apply(GreedyPlayer(1).choose(game))
    short = Search(4, 0.5, None, Settings(deep_playouts=10**9))  # (time to list the options, whatever the load)
    short.think(game)
    assert short.last_depth == 1
    off = Search(4, 0.05, None, Settings(deep_playouts=0))
    off.think(game)
    assert off.last_depth == 2
    fixed = Search(4, None, 6, Settings(deep_playouts=10**9))
    fixed.think(game)
    assert fixed.last_depth == 2 and fixed.last_playouts == 6


def test_the_sprt_ratio_leans_towards_the_hypothesis_the_scores_fit():
    from benchmarks.sprt import elo_of, expected_score, llr

    assert expected_score(0) == 0.5 and round(elo_of(expected_score(50))) == 50
    winning = [0.75, 0.5, 1.0, 0.5] * 10  # a mean of 0.69: far above elo1 = 30 (0.543)
    losing = [0.25, 0.5, 0.0, 0.5] * 10
    assert llr(winning, 0, 30) > 2.94 and llr(losing, 0, 30) < -2.94  # past the bounds at alpha = beta = 5%
    assert llr(winning[:8], 0, 30) < llr(winning, 0, 30)  # more evidence, a stronger verdict
    assert llr([0.5], 0, 30) == 0.0


def test_the_figures_in_hand_are_valued_by_kind():
    """A big follower in hand is worth two plain ones, a builder and a pig one each (their
    ``hand_worth``), falling with the bag like the followers; so normal keeps its big follower
    for a feature where its weight tells, rather than spending it where a plain one does as well."""
    from engine.ai.evaluation import FOLLOWER_IN_HAND, hand_worths

    game = Game(["Ann", "Bob"], ["base", "inns", "traders"], seed=3)
    left = FOLLOWER_IN_HAND * game.bag_left / len(game.bag)
    assert hand_worths(game) == pytest.approx([left * (7 + 2 + 1 + 1)] * 2)
    base = Game(["Ann", "Bob"], ["base"], seed=3)
    assert hand_worths(base) == pytest.approx([FOLLOWER_IN_HAND * base.bag_left / len(base.bag) * 7] * 2)

    pool = ["base.U", "base.A", "base.B", "base.C", "base.E", "base.K", "base.L", "base.V"]
    for seed in range(6):
        game = Game(["Ann", "Bob"], ["base", "inns"], pool=pool)
        normal = make_player("normal", seed)
        moves = []
        while game.turn == 1 and not game.finished:
            move = normal.choose(game)
            moves.append(move)
            game.apply(move)
        assert moves[-1]["type"] == "meeple" and "figure" not in moves[-1], (seed, moves)  # a plain follower
        assert game.in_hand(0, "big") == 1


def test_the_sprt_plays_normal_with_other_worths_of_the_figures_in_hand():
    """``normal:`` is normal itself; ``normal:big=0`` values a big follower in hand at nothing, as
    normal did before the kinds declared their worth, and so spends it on the first road it sees."""
    from benchmarks.sprt import _player
    from engine.ai.evaluation import Weights

    pool = ["base.U", "base.A", "base.B", "base.C", "base.E", "base.K", "base.L", "base.V"]
    for seed in range(3):
        turns = {}
        for spec in ("normal", "normal:", "normal:big=0"):
            game = Game(["Ann", "Bob"], ["base", "inns"], pool=pool)
            player = _player(spec, seed, 0.0)
            turns[spec] = [player.choose(game)]
            game.apply(turns[spec][0])
            turns[spec].append(player.choose(game))
        assert turns["normal:"] == turns["normal"]
        assert turns["normal"][1]["type"] == "meeple" and "figure" not in turns["normal"][1]
        assert turns["normal:big=0"][1] == {**turns["normal"][1], "figure": "big"}
    with pytest.raises(ValueError):
        Weights.parse("giant=2")


@pytest.mark.parametrize("family", FAMILIES)
def test_the_reference_mcts_plays_whole_games_of_every_family(family):
    game = Game(["Ann", "Bob", "Cy"], FAMILIES[family], seed=8)
    mcts = MctsPlayer(1, None, 3)
    players = [mcts, GreedyPlayer(2), RandomPlayer(3)]
    calls = searches = 0
    turns = set()
    while not game.finished:
        if game.actor == 0:
            calls += 1
            turns.add(game.turn)
        game.apply(players[game.actor].choose(game))  # an illegal move would raise IllegalMove
        if mcts.last_playouts:
            assert mcts.last_playouts == 3
            searches += 1
            mcts.last_playouts = 0
    # a search for each of Ann's turns at least (a castle holder's draw ends one: the tile is new);
    # so few iterations plan no further than the first move (see the next test for a whole plan)
    assert game.finished and len(turns) <= searches <= calls
    with pytest.raises(ValueError):
        MctsPlayer(1, None, 0)


def test_the_reference_mcts_finds_the_turn_that_leads_and_repeats_it_for_a_seed():
    """Three tiles in all: the city cap that closes the start tile's city with a knight on it (4
    points, the knight back) is the turn that leads; the random play-outs find it for every seed,
    the knight is played as planned with the tile (no second search), and a fixed number of
    iterations gives the same plan again."""
    for seed in range(4):
        game = Game(["Ann", "Bob"], ["base"], pool=["base.E", "base.U", "base.V"])
        mcts = MctsPlayer(seed, None, 200)
        tile = mcts.choose(game)
        assert mcts.last_playouts == 200
        game.apply(tile)
        mcts.last_playouts = 0
        knight = mcts.choose(game)
        assert mcts.last_playouts == 0  # the rest of the plan
        assert (tile, knight) == ({"type": "tile", "x": 0, "y": -1, "rot": 180}, {"type": "meeple", "at": "city:S"})
    game = Game(["Ann", "Bob"], ["base"], seed=9)
    for _ in range(8):
        game.apply(GreedyPlayer(1).choose(game))
    assert MctsPlayer(4, None, 30).think(game) == MctsPlayer(4, None, 30).think(game)
