"""Seeded random games: every river tile is placed, none is discarded, and every
river turn offers at least one placement (RULES.md: the river is always completable).

The long sweep (thousands of games) is marked slow; ``pytest -m slow`` runs it.
"""

import pytest

from engine import Game
from engine.ai import RandomPlayer
from engine.expansions.river import is_river

# Not castles: engine/expansions/castles.py offers castles during the river phase
# (RULES.md forbids it), and a castle can wall the river in.
SET_FAMILIES = [
    ("base", "river1"),
    ("base", "river2"),
    ("base", "river1", "river2"),
    ("base", "river2", "toll"),
    ("base", "river1", "ferries", "toll"),
    ("base", "river1", "river2", "ferries", "toll"),
]


def check_river_phase(sets: tuple[str, ...], seed: int) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"][: 2 + seed % 3]
    game = Game(players, list(sets), seed=seed)
    river_tiles = [t for t in game.bag if is_river(t)]
    ai = RandomPlayer(seed)
    events = list(game.start_events)
    while game.step != "tile" or is_river(game.drawn.id):
        if game.step == "tile":
            assert game.legal_placements(), (sets, seed, game.drawn.id)
        events += game.apply(ai.choose(game))
    placed = [e["tile"] for e in events if e["type"] == "tile_placed" and is_river(e["tile"])]
    assert sorted(placed) == sorted(river_tiles), (sets, seed)
    assert not [e for e in events if e["type"] == "tile_discarded" and is_river(e["tile"])], (sets, seed)
    returned = [e for e in events if e["type"] == "tile_returned"]
    assert all(is_river(e["tile"]) and e["player"] in players for e in returned)
    # Returning cannot go round for ever: between two placements each other tile of
    # the stack comes back at most once.
    run = longest = 0
    for e in events:
        if e["type"] == "tile_returned":
            run += 1
            longest = max(longest, run)
        elif e["type"] == "tile_placed":
            run = 0
    assert longest < len(river_tiles)


@pytest.mark.parametrize("sets", SET_FAMILIES)
def test_random_river_phases_place_every_river_tile(sets):
    for seed in range(40):
        check_river_phase(sets, seed)


@pytest.mark.slow
@pytest.mark.parametrize("sets", SET_FAMILIES)
def test_thousands_of_random_river_phases_place_every_river_tile(sets):
    for seed in range(40, 1040):
        check_river_phase(sets, seed)
