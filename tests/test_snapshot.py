"""Engine snapshots: a game restored from its state snapshot plays on exactly as the game
replayed from its record (same questions, legal moves, events, scores and record)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from engine import Game
from engine.ai import GreedyPlayer, RandomPlayer, make_player
from engine.snapshot import FROM_SETUP, SAVED, STATE_FORMAT, TRANSIENT, BadSnapshot, dump, restore
from tests.families import EACH
from tests.families import FAMILIES as ALL_FAMILIES
from tests.helpers import python_engine_only

FAMILIES = [
    *ALL_FAMILIES,
    *EACH,
    ["wheel"],
    ["base", "river1", "castles", "ferries", "toll"],
    ["base", "river2", "ferries", "toll"],
    ["base", "wheel", "ferries"],
    ["base", "castles", "wheel", "toll"],
]


def setup_of(game: Game) -> dict[str, Any]:
    return {k: v for k, v in game.to_json().items() if k != "moves"}


def restored(game: Game) -> Game:
    """``game`` rebuilt from its setup and a snapshot of its state."""
    return restore(setup_of(game), dump(game), [dict(m) for m in game.moves])


def state_of(game: Game) -> Any:
    """Everything a snapshot saves, as plain data (to compare two games)."""
    return pickle.loads(dump(game))


def same_position(a: Game, b: Game) -> None:
    assert state_of(a) == state_of(b)
    assert a.legal_moves() == b.legal_moves()
    assert a.question() == b.question()
    assert a.next_info() == b.next_info()
    assert a.score_table() == b.score_table()
    assert a.to_json() == b.to_json()


@python_engine_only
def test_the_snapshot_covers_every_attribute_of_a_game() -> None:
    """A new attribute of Game must be saved, or said to come from the setup (then bump STATE_FORMAT)."""
    for sets in FAMILIES:
        game = Game(["A", "B", "C"], sets, seed=3)
        assert set(vars(game)) == SAVED | FROM_SETUP | TRANSIENT, sets
    assert not SAVED & FROM_SETUP and not SAVED & TRANSIENT and not FROM_SETUP & TRANSIENT


@pytest.mark.parametrize("sets", FAMILIES, ids=lambda s: "+".join(s))
def test_a_restored_game_plays_on_as_the_replayed_one(sets: list[str]) -> None:
    seen_steps: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        players = [f"P{i}" for i in range(rng.randint(2, 5))]
        game = Game(players, sets, seed=seed)
        # (easy places figures as a person would, at a fraction of the whole-turn greedy's cost)
        ai = RandomPlayer(seed) if seed % 2 else make_player("easy", seed)
        while not game.finished:
            if rng.random() < 0.15 or game.step not in ("tile", "figure"):
                seen_steps.add(game.step)
                copy, twin = restored(game), game.clone()
                same_position(copy, twin)
                # Both play on with the same moves to the end, in step.
                other = RandomPlayer(seed + 100)
                for _ in range(12):
                    if twin.finished:
                        break
                    move = other.choose(twin)
                    assert copy.apply(dict(move)) == twin.apply(dict(move))
                    same_position(copy, twin)
            game.apply(ai.choose(game))
        same_position(restored(game), game)  # a finished game too
    mid_turn = {"plague", "draw", "castles", "ferry", "ferry_move"} & seen_steps
    if "wheel" in sets:
        assert "plague" in seen_steps or "wheel" in seen_steps, seen_steps
    if "castles" in sets:
        assert "draw" in mid_turn, seen_steps
    if "ferries" in sets:
        assert "ferry" in mid_turn or "ferry_move" in mid_turn, seen_steps


def test_a_snapshot_refuses_damaged_or_foreign_data() -> None:
    game = Game(["A", "B"], ["base"], seed=1)
    ai = GreedyPlayer(1)
    for _ in range(20):
        game.apply(ai.choose(game))
    data = dump(game)
    moves = [dict(m) for m in game.moves]

    def attempt(blob: bytes, count: int = len(moves), setup: dict[str, Any] | None = None) -> None:
        restore(setup or setup_of(game), blob, moves[:count])

    with pytest.raises(BadSnapshot):
        attempt(data, count=len(moves) - 1)  # covers other moves
    with pytest.raises(BadSnapshot):
        attempt(data[: len(data) // 2])  # cut short
    with pytest.raises(BadSnapshot):
        attempt(b"not a pickle at all")
    with pytest.raises(BadSnapshot, match="plain data only"):
        attempt(pickle.dumps(Game))  # a class: refused, never imported
    with pytest.raises(BadSnapshot, match="plain data only"):
        attempt(pickle.dumps((STATE_FORMAT, print)))
    older = pickle.loads(data)
    with pytest.raises(BadSnapshot, match="another format"):
        attempt(pickle.dumps((STATE_FORMAT + 1, *older[1:])))
    three = {**setup_of(game), "players": ["A", "B", "C"]}
    with pytest.raises(BadSnapshot):
        attempt(data, setup=three)
    with pytest.raises(BadSnapshot):
        attempt(data, setup={**setup_of(game), "sets": ["nope"]})
