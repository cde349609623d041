"""The question and the wording: every step, option and event of random games reads
as words, never as internal ids; moves and events have their declared shapes."""

from __future__ import annotations

import random
import re
from typing import Any, get_type_hints

import pytest

import engine
from engine import Game
from engine.catalog import SET_TILES
from engine.event_words import QUIET_EVENTS, describe
from engine.expansions import Expansion, Step
from engine.expansions.registry import event_shapes, expansion_for, move_shapes, register, unregister
from engine.expansions.sets import BUILT_IN
from engine.moves import EVENT_TYPES, MOVE_TYPES, IllegalMove
from tests.families import EACH
from tests.families import FAMILIES as ALL_FAMILIES

FAMILIES = [*ALL_FAMILIES, ["wheel"], ["wheel", "inns", "traders"], *EACH]
# Internal ids players must never read: tile ids, step names, half-edge names, raw joins.
INTERNAL = re.compile(
    r"\b(?:" + "|".join(SET_TILES) + r")\.[A-Za-z_]+|\bferry_move\b"
    r"|\b(?:NNW|NNE|ENE|ESE|SSE|SSW|WSW|WNW)\b|\b[NESW]-[NESW]\b"
)


def check_shape(obj: dict[str, Any], declared: dict[str, type]) -> None:
    kind = declared[obj["type"]]
    if engine.IMPLEMENTATION == "compiled":
        return  # (mypyc's TypedDicts do not show their bases' keys to get_type_hints)
    hints = get_type_hints(kind, include_extras=True)
    required = set(kind.__required_keys__)  # type: ignore[attr-defined]
    assert required <= set(obj), (obj, required - set(obj))
    assert set(obj) <= set(hints), (obj, set(obj) - set(hints))


def assert_words(text: str) -> None:
    assert text and text.strip() == text, repr(text)
    assert not INTERNAL.search(text), text


@pytest.mark.parametrize("sets", FAMILIES, ids=lambda s: "+".join(s))
@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_random_games_word_every_question_option_and_event(sets: list[str], players: int) -> None:
    seed = players * 101 + len(sets)
    game = Game([f"P{i}" for i in range(players)], sets, seed=seed)
    rng = random.Random(seed)
    events = list(game.start_events)
    kinds: set[str] = set()
    while True:
        for event in events:
            check_shape(event, event_shapes())
            assert_words(describe(event))
            kinds.add(event["type"])
        if game.finished:
            assert game.question() is None
            break
        question = game.question()
        assert question is not None
        assert question.player == game.players[game.actor]
        assert question.kind == game.step
        assert_words(question.prompt)
        if question.pass_label is not None:
            assert_words(question.pass_label)
        moves = question.moves()
        assert moves == game.legal_moves()
        assert moves, f"the {question.kind} step asks with no option"
        for option in question.options:
            check_shape(option.move, move_shapes())
            assert_words(option.label)
        labels = [o.label for o in question.options]
        if question.kind != "tile":  # tile options are told apart by cell and rotation
            assert len(set(labels)) == len(labels), labels
        move = rng.choice(moves)
        events = game.apply(move)
        assert (
            any(e["type"] == "turn_ended" for e in events)
            == (game.finished or game.turn != question.turn or game.players[game.actor] != question.player)
            or question.kind == "plague"
        )
    assert {"tile_placed", "turn_ended", "game_over"} <= kinds
    if "wheel" in sets:
        assert "wheel" in kinds and "wheel_event" in kinds


def test_turn_ended_marks_each_turn_and_names_the_next_player() -> None:
    game = Game(["Ann", "Bob"], ["base"], seed=3)
    first = game.question()
    assert first is not None and first.kind == "tile" and first.player == "Ann"
    events = game.apply(first.options[0].move)
    assert game.step == "figure"  # same turn: no turn_ended yet
    assert not any(e["type"] == "turn_ended" for e in events)
    events = game.apply({"type": "pass"})
    ended = [e for e in events if e["type"] == "turn_ended"]
    assert ended == [{"type": "turn_ended", "player": "Ann", "turn": 1, "next": "Bob"}]
    assert describe(ended[0]) == "End of Ann's turn 1. Bob plays next."
    assert game.question().player == "Bob"  # type: ignore[union-attr]


def test_option_labels_speak_of_places_and_roles() -> None:
    # base.D (city edge, road west-east) placed east of the start tile, unturned.
    game = Game(["Ann", "Bob"], ["base"], seed=0, pool=["base.D", "base.U"])
    game.apply({"type": "tile", "x": 1, "y": 0, "rot": 0})
    labels = {o.move["at"]: o.label for o in game.question().options}  # type: ignore[union-attr]
    assert labels["city:N"] == "knight on the city to the north"
    assert labels["road:E"] == "thief on the road running east–west"
    assert labels["field:ENE"] == "farmer on the small field to the north"
    assert labels["field:ESE"] == "farmer on the field to the south"
    assert len(labels) == 4
    assert game.question().pass_label == "no figure this turn"  # type: ignore[union-attr]


@pytest.mark.parametrize("set_name", BUILT_IN)
def test_each_expansion_declares_the_shapes_of_its_own_moves_and_events(set_name: str) -> None:
    """An expansion's moves and events are declared in its own package (``move_shapes``,
    ``event_shapes``), and the base game's module declares none of them (the wheel's crown spaces
    answer the core's "meeple" move)."""
    cls = expansion_for(set_name)
    assert cls is not None
    expansion = cls()
    answered = {t for step in expansion.steps() for t in step.move_types}
    answered |= {t for option in expansion.figure_options() for t in option.move_types}
    assert answered - set(MOVE_TYPES) == set(cls.move_shapes), (set_name, answered, set(cls.move_shapes))
    assert set(cls.event_types) <= set(cls.event_shapes) | set(EVENT_TYPES), set_name
    assert not set(cls.move_shapes) & set(MOVE_TYPES) and not set(cls.event_shapes) & set(EVENT_TYPES)


def test_quiet_events_are_still_worded() -> None:
    assert describe({"type": "tile_drawn", "player": "Ann", "tile": "base.V"}) == "Ann draws a curved road."
    assert {"tile_drawn", "turn_ended"} == QUIET_EVENTS


class Blessing(Step):
    """A toy step after the figure: the player may bless the tile (one point)."""

    name = "bless"
    after = "figure"
    move_types = ("bless",)

    def asks(self, game: Game) -> bool:
        return game.placement is not None

    def moves(self, game: Game) -> list[dict[str, Any]]:
        return [{"type": "bless"}]

    def pass_label(self, game: Game) -> str | None:
        return "no blessing"

    def prompt(self, game: Game) -> str:
        return "bless the tile or not"

    def label(self, game: Game, move: dict[str, Any]) -> str:
        return "bless it (1 point)"

    def play(self, game: Game, move: dict[str, Any], events: list[dict[str, Any]]) -> bool:
        if move["type"] == "bless":
            game.scores[game.current] += 1
            events.append({"type": "blessed", "player": game.players[game.current]})
        return True


class Toy(Expansion):
    name = "toy"
    sets = ("toy",)
    event_types = ("blessed",)

    def steps(self) -> list[Step]:
        return [Blessing()]

    @staticmethod
    def describe(event: dict[str, Any]) -> str | None:
        return f"{event['player']} blesses the tile."


@pytest.fixture
def toy() -> Any:
    register(Toy)
    yield Toy
    unregister(Toy)


def test_a_toy_expansion_plugs_in_a_step_without_touching_the_core(toy: Any) -> None:
    game = Game(["Ann", "Bob"], ["base", "toy"], seed=0, pool=["base.B", "base.B", "base.B"])
    game.apply({"type": "tile", "x": 0, "y": 1, "rot": 0})
    game.apply({"type": "pass"})  # no follower
    question = game.question()
    assert question is not None and question.kind == "bless" and question.player == "Ann"
    assert [o.label for o in question.options] == ["bless it (1 point)"]
    events = game.apply({"type": "bless"})
    assert [describe(e) for e in events if e["type"] == "blessed"] == ["Ann blesses the tile."]
    assert game.scores == [1, 0] and game.question().player == "Bob"  # type: ignore[union-attr]
    with pytest.raises(IllegalMove, match="not possible now"):
        game.apply({"type": "bless"})  # Bob's tile step
    game.apply({"type": "tile", "x": 0, "y": 2, "rot": 0})
    # Bob has followers: the figure step asks; then the toy step; passing both ends the turn.
    game.apply({"type": "pass"})
    events = game.apply({"type": "pass"})
    assert [e["type"] for e in events][-2:] == ["turn_ended", "tile_drawn"] and game.scores == [1, 0]
