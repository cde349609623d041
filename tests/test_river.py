"""The River and The River II: setup, placement rules, fields, the extra turn."""

import pytest

from engine import BadSetup, Game, IllegalMove
from engine.ai import RandomPlayer
from engine.expansions.river import is_river
from engine.record import load
from engine.tiles import DX, DY, RIVER
from tests.helpers import PASS, meeple, play, scored, tile

R1 = ("base", "river1")
R2 = ("base", "river2")
BOTH = ("base", "river1", "river2")


def river_walk(game: Game) -> dict[int, list[str]]:
    """Follow the river from the spring over the board; the turns of each branch.

    Independent of the expansion's own bookkeeping: it reads only the placed tiles.
    """
    board = game.board
    branches: dict[int, list[str]] = {}
    queue = [((1, 0), 1, 0)]  # (cell the water enters, flow direction, branch)
    seen = {(0, 0)}
    next_branch = 1
    while queue:
        (x, y), flow, branch = queue.pop()
        branches.setdefault(branch, [])
        placed = board.cells.get((x, y))
        if placed is None:
            continue  # an open end
        assert (x, y) not in seen, "the river runs into itself: branches joined"
        seen.add((x, y))
        p = board.placements[placed[0]]
        q = p.rot // 90
        segments = [[(d + q) % 4 for _, d in s.edges] for s in p.tile.segments if s.kind == "river"]
        incoming = (flow + 2) % 4
        through = next(s for s in segments if incoming in s)
        for out in [d for d in through if d != incoming]:
            branches[branch].append("S" if out == flow else "R" if out == (flow + 1) % 4 else "L")
            queue.append(((x + DX[out], y + DY[out]), out, branch))
        for other in [s for s in segments if s is not through]:
            queue.append(((x + DX[other[0]], y + DY[other[0]]), other[0], next_branch))
            next_branch += 1
    return branches


def turns_are_legal(turns: list[str]) -> bool:
    for a, b in zip(turns, turns[1:], strict=False):
        if a == b != "S":
            return False
    curves = [t for t in turns if t != "S"]
    return all(not (a == b == c) for a, b, c in zip(curves, curves[1:], curves[2:], strict=False))


def play_river_phase(seed: int, sets) -> Game:
    game = Game(["Ann", "Bob", "Cy"], list(sets), seed=seed)
    ai = RandomPlayer(seed)
    while not game.finished and (game.step != "tile" or is_river(game.drawn.id)):
        game.apply(ai.choose(game))
    return game


@pytest.mark.parametrize("sets, river_tiles", [(R1, 12), (R2, 12), (BOTH, 22)])
def test_setup_puts_the_river_first_fork_first_lake_last(sets, river_tiles):
    game = Game(["Ann", "Bob"], list(sets), seed=3)
    river = [t for t in game.bag if is_river(t)]
    assert len(river) + 1 == river_tiles  # plus the spring on the board
    assert game.bag[: len(river)] == river  # every river tile before the others
    assert game.board.placements[0].tile.id == ("river1.spring" if "river1" in sets else "river2.spring")
    assert game.bag.count("base.D") == 3  # the base start tile goes into the bag too
    if "river2" in sets:
        assert river[0] == "river2.fork" and river[-1] == "river2.volcano_lake" and "river2.city_end" in river
    else:
        assert river[-1] == "river1.lake"
    if sets == BOTH:
        assert "river1.lake" not in game.bag and "river2.spring" not in game.bag


def test_pools_must_keep_the_river_order():
    with pytest.raises(BadSetup, match="fork comes first"):
        Game(["Ann", "Bob"], list(R2), pool=["river2.curve", "river2.fork", "river2.volcano_lake"])
    with pytest.raises(BadSetup, match="last river tile of the pool must be the lake"):
        Game(["Ann", "Bob"], list(R1), pool=["river1.curve", "river1.lake", "river1.straight"])
    with pytest.raises(BadSetup, match="before the other tiles"):
        Game(["Ann", "Bob"], list(R1), pool=["river1.curve", "base.B", "river1.lake"])
    with pytest.raises(BadSetup, match="setup tile"):
        Game(["Ann", "Bob"], list(R1), pool=["river1.spring", "river1.lake"])


def test_a_river_tile_must_continue_the_river():
    game = Game(["Ann", "Bob"], list(R1), pool=["river1.straight", "river1.lake", "base.B"])
    # North of the spring the edges match (field to field) but the river is not continued.
    with pytest.raises(IllegalMove, match="must continue the river"):
        game.apply(tile(0, -1, 0))
    assert game.legal_placements() == {(1, 0): (0,)}


def test_no_immediate_u_turn_but_the_other_way_is_fine():
    pool = ["river1.curve", "river1.curve_g", "river1.lake", "base.B"]
    game, _ = play(pool, [tile(1, 0, 0), PASS], sets=R1)  # flows east, turns right (south)
    with pytest.raises(IllegalMove, match="U-turn"):
        game.apply(tile(1, 1, 90))  # a second right turn: back west
    assert 90 not in game.legal_placements()[(1, 1)]
    game.apply(tile(1, 1, 180))  # turning left (east) is allowed
    assert game.expansion_state("river").turns[0] == ["R", "L"]


def test_three_curves_the_same_way_are_refused_even_with_straights_between():
    pool = ["river1.curve", "river1.straight", "river1.curve_g", "river1.straight", "river1.road_curve", "river1.lake"]
    game, _ = play(
        pool,
        [tile(1, 0, 0), PASS, tile(1, 1, 90), PASS, tile(1, 2, 90), PASS, tile(0, 2, 0), PASS],
        sets=R1,
    )
    assert game.expansion_state("river").turns[0] == ["R", "S", "R", "S"]
    # river1.road_curve (river{S,W}) at (-1,2) turned 180 sends the water north: a third right turn.
    with pytest.raises(IllegalMove, match="three times"):
        game.apply(tile(-1, 2, 180))
    assert turns_are_legal(["R", "S", "R", "S"]) and not turns_are_legal(["R", "S", "R", "S", "R"])


def test_the_branches_of_the_fork_are_never_joined():
    pool = ["river2.fork", "river2.curve", "river2.curve", "river2.volcano_lake", "base.B"]
    game, _ = play(pool, [tile(1, 0, 0), PASS, tile(2, 0, 90), PASS], sets=R2)
    # Branch north of the fork flows into (1,-1); the east branch now points at (2,-1).
    ends = game.expansion_state("river").ends
    assert set(ends) == {(1, -1), (2, -1)}
    with pytest.raises(IllegalMove, match="never be joined"):
        game.apply(tile(1, -1, 270))  # curve turning east, into the other branch's end


def test_the_last_river_tile_gives_no_figure_and_an_extra_turn():
    game, events = play(["river1.lake", "base.B", "base.B"], [tile(1, 0, 0)], sets=R1)
    assert game.player_name == "Ann"  # Ann placed the lake and plays again at once
    assert game.drawn.id == "base.B" and game.step == "tile"
    assert game.supply == [7, 7]
    game.apply(tile(0, 1))
    assert {"type": "meeple", "at": "cloister"} in game.legal_moves()  # a normal turn


def test_followers_never_on_the_river_and_the_river_separates_fields():
    pool = ["river2.fork", "river2.curve", "river2.curve", "river2.volcano_lake", "base.B"]
    game, _ = play(pool, [tile(1, 0, 0)], sets=R2)
    with pytest.raises(IllegalMove, match="not stand on the river"):
        game.apply(meeple("river:N"))
    game.apply(meeple("field:NNE"))  # Ann: the field between the fork's north and east arms
    game.apply(tile(2, 0, 90))  # Bob: the east branch turns north
    # The field inside the bend joins Ann's field; the one outside is across the river.
    assert {"type": "meeple", "at": "field:WNW"} not in game.legal_moves()
    with pytest.raises(IllegalMove, match="already has a follower"):
        game.apply(meeple("field:WNW"))
    game.apply(meeple("field:NNE"))
    farmers = [r for r, f in enumerate(game.board.followers) if f and game.board.kind[r] == "field"]
    assert len(farmers) == 2  # two farmers, two different fields


def test_farmers_beside_the_river_score_the_cities_of_their_own_field():
    pool = ["river1.cities", "river1.lake", "base.E", "base.B"]
    game, _ = play(pool, [tile(1, 0, 0), meeple("field:WNW"), tile(2, 0, 0)], sets=R1)
    assert game.player_name == "Bob"  # Bob placed the lake: an extra turn, no figure
    game.apply(tile(1, -1, 180))  # base.E closes the city north of the river
    game.apply(PASS)
    events = game.apply(tile(0, 1)) + game.apply(PASS)
    assert game.finished
    # The north city is complete, the south one is not: 3 points.
    assert ("field", {"Ann": 3}) in scored(events, final=True)


@pytest.mark.parametrize("sets", [R1, R2, BOTH])
def test_random_river_games_never_get_stuck_and_follow_the_rules(sets):
    for seed in range(500):
        game = play_river_phase(seed, sets)
        assert game.drawn is not None and not is_river(game.drawn.id), seed
        assert not any(is_river(t) for t in game.remaining_tiles())
        for turns in river_walk(game).values():
            assert turns_are_legal(turns), (seed, turns)
        # Every river edge faces a river edge or an empty cell.
        for (x, y), (_pidx, _, info) in game.board.cells.items():
            for d in range(4):
                if info[3][d] == RIVER:
                    nb = game.board.cells.get((x + DX[d], y + DY[d]))
                    assert nb is None or nb[2][3][(d + 2) % 4] == RIVER


@pytest.mark.parametrize("sets", [R1, BOTH])
def test_river_games_replay_from_their_records(sets):
    for seed in range(20):
        game = Game(["Ann", "Bob"], list(sets), seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            game.apply(ai.choose(game))
        replayed, _, error = load(game.to_json())
        assert error is None and replayed.scores == game.scores
