"""Seeded random games to the end, checking the invariants after every move."""

import random

import pytest

from engine import Game
from engine.ai import GreedyPlayer, RandomPlayer
from engine.game import FOLLOWERS
from engine.record import game_from_record, load
from engine.tiles import DX, DY


def edges_match(game: Game) -> bool:
    cells = game.board.cells
    for (x, y), (pidx, _, info) in cells.items():
        terrain = info[3]
        for d in range(4):
            nb = cells.get((x + DX[d], y + DY[d]))
            if nb is not None and nb[0] != pidx and nb[2][3][(d + 2) % 4] != terrain[d]:
                return False
    return True


def followers_on_board(game: Game) -> list[int]:
    count = [0] * len(game.players)
    for root, standing in enumerate(game.board.followers):
        if standing and game.board.parent[root] == root:
            for player, _ in standing:
                count[player] += 1
    return count


def play_random(seed: int, sets=("base",)) -> Game:
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rng.randint(2, 6))]
    game = Game(players, list(sets), seed=seed)
    ai = RandomPlayer(seed)
    last = list(game.scores)
    while not game.finished:
        game.apply(ai.choose(game))
        assert all(a >= b for a, b in zip(game.scores, last, strict=False))
        last = list(game.scores)
        on_board = followers_on_board(game)
        assert all(b + s == FOLLOWERS for b, s in zip(on_board, game.supply, strict=False)), (on_board, game.supply)
    assert edges_match(game)
    return game


def fingerprint(game: Game):
    board = game.board
    return (
        game.scores,
        game.supply,
        game.turn,
        game.finished,
        {c: (board.placements[v[0]].tile.id, board.placements[v[0]].rot) for c, v in board.cells.items()},
    )


@pytest.mark.parametrize("block", range(4))
def test_random_base_games_keep_the_invariants_and_replay(block):
    for seed in range(block * 50, block * 50 + 50):
        game = play_random(seed)
        assert game.bag_left == 0
        replayed, _, error = load(game.to_json())
        assert error is None
        assert fingerprint(replayed) == fingerprint(game)


def test_greedy_beats_random_on_average():
    wins = 0
    for seed in range(6):
        game = Game(["greedy", "random"], seed=seed)
        players = [GreedyPlayer(seed), RandomPlayer(seed)]
        while not game.finished:
            game.apply(players[game.actor].choose(game))
        wins += game.scores[0] > game.scores[1]
    assert wins >= 5


def test_same_seed_same_game():
    a, b = play_random(7), play_random(7)
    assert a.to_json() == b.to_json()
    assert fingerprint(a) == fingerprint(b)


def test_record_round_trip_mid_game():
    game = Game(["Ann", "Bob", "Cy"], seed=3)
    ai = RandomPlayer(3)
    for _ in range(25):
        game.apply(ai.choose(game))
    copy = game_from_record(game.to_json())
    assert fingerprint(copy) == fingerprint(game)
    assert copy.legal_moves() == game.legal_moves()
    assert copy.next_info() == game.next_info()


def features_from_scratch(game: Game) -> tuple[dict[int, int], dict[int, int]]:
    """Connected components and open edge counts recomputed from the cells alone."""
    board = game.board
    links: dict[int, set[int]] = {n: set() for n in range(len(board.parent))}
    open_edges = {n: len(board.segment_of(n).edges) for n in links}
    for (x, y), (pidx, first, info) in board.cells.items():
        for _d, sx, sy, od, _demand, _t, es, h0, h1, o0, o1 in info[6]:
            nb = board.cells.get((x + sx, y + sy))
            if nb is None or nb[0] == pidx:
                continue
            pairs = []
            if es >= 0:
                pairs.append((first + es, nb[1] + nb[2][4][od]))
                open_edges[first + es] -= 1
            if h0 >= 0:
                pairs += [(first + h0, nb[1] + nb[2][5][o0]), (first + h1, nb[1] + nb[2][5][o1])]
            for a, b in pairs:
                links[a].add(b)
                links[b].add(a)
    for a, b in board.ferry_link.items():  # a ferry joins two stubs of a lake and closes nothing
        links[a].add(b)
    component: dict[int, int] = {}
    for start in links:
        if start in component:
            continue
        stack = [start]
        component[start] = start
        while stack:
            n = stack.pop()
            for m in links[n]:
                if m not in component:
                    component[m] = start
                    stack.append(m)
    open_count: dict[int, int] = {}
    for n, c in component.items():
        open_count[c] = open_count.get(c, 0) + open_edges[n]
    return component, open_count


def test_incremental_features_equal_a_recomputation_from_scratch():
    for seed in range(12):
        game = Game(["A", "B", "C"], seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            game.apply(ai.choose(game))
            if game.step != "tile":
                continue
            component, open_count = features_from_scratch(game)
            board = game.board
            groups: dict[int, set[int]] = {}
            for n in component:
                groups.setdefault(board.find(n), set()).add(n)
            for root, nodes in groups.items():
                assert {component[n] for n in nodes} == {component[root]}
                assert set(board.members(root)) == nodes
                if board.kind[root] in ("road", "city"):
                    assert board.open[root] == open_count[component[root]]
            assert len(groups) == len(set(component.values()))


@pytest.mark.parametrize("sets", [("base", "toll")])
def test_random_expansion_games_keep_the_invariants_and_replay(sets):
    for seed in range(40):
        game = play_random(seed, sets)
        replayed, _, error = load(game.to_json())
        assert error is None
        assert fingerprint(replayed) == fingerprint(game)
