"""The Wheel of Fortune on concrete boards (RULES.md; the rule page's tax example)."""

from collections import Counter

import pytest

from engine import BadSetup, Game, IllegalMove
from engine.ai import RandomPlayer
from engine.game import FOLLOWERS
from engine.record import load
from tests.helpers import PASS, meeple, play, tile

SETS = ("base", "wheel")


def wheel_events(events):
    return [(e["sector"], e["points"]) for e in events if e["type"] == "wheel_event"]


def crown_scores(events):
    return [(e["sector"], e["points"]) for e in events if e["type"] == "scored" and e["feature"] == "crown"]


def test_sets_and_the_start_tile():
    standalone = Game(["A", "B"], ["wheel"], seed=1)
    assert len(standalone.bag) == 72 and sum(1 for t in standalone.bag if ".1" in t or ".2" in t or ".3" in t) == 19
    assert standalone.board.placements[0].tile.id == "wheel.start" and len(standalone.board.cells) == 16
    with_base = Game(["A", "B"], list(SETS), seed=1)
    assert len(with_base.bag) == 72 + 19 and with_base.bag.count("base.D") == 3
    with pytest.raises(BadSetup, match="cannot be combined with a river"):
        Game(["A", "B"], ["base", "wheel", "river1"])


def test_the_tax_example_blue_8_red_3():
    pool = ["base.M", "base.B", "base.N", "base.E", "base.M", "base.R", "wheel.U.1", "base.B"]
    game, events = play(
        pool,
        [
            tile(2, -1, 180), meeple("city:S"),  # Blue's knight: the wheel's city cap and a pennant
            tile(2, -2), PASS,
            tile(4, 0, 90), meeple("city:N"),  # Blue's second knight, on a city of its own for now
            tile(3, -2, 180), meeple("city:S"),  # Red's knight
            tile(4, -1, 270), PASS,  # a second pennant, joined to Blue's second city
            tile(3, -1), PASS,  # Red joins the three: Blue 2 knights, Red 1, 2 pennants; still open
        ],
        players=("Blue", "Red"),
        sets=SETS,
    )  # fmt: skip
    # Blue draws an icon 1: the pig goes from Fortune to Taxes.
    assert wheel_events(events) == [("taxes", {"Blue": 8, "Red": 3})]
    assert game.scores == [8, 3]
    assert game.expansion_state("wheel").pig == 1


def test_a_follower_alone_in_a_two_space_sector_scores_six():
    game, events = play(["base.B", "wheel.B.1", "base.B"], [tile(0, 4), meeple("crown:taxes")], sets=SETS)
    assert game.expansion_state("wheel").crowns["taxes"] == [None, None]  # scored and back
    assert crown_scores(events) == [("taxes", {"Ann": 6})]
    assert game.supply == [FOLLOWERS, FOLLOWERS]


def test_two_followers_in_a_two_space_sector_score_three_each():
    game, events = play(
        ["base.B", "base.B", "wheel.A.2", "base.B"],
        [tile(0, 4), meeple("crown:famine"), tile(3, 4), meeple("crown:famine")],
        sets=SETS,
    )
    assert crown_scores(events) == [("famine", {"Ann": 3, "Bob": 3})]


def test_storm_then_fortune():
    game, events = play(["wheel.F.3", "wheel.V.3", "base.B"], [tile(1, 4, 90), meeple("city:N")], sets=SETS)
    # Ann drew F.3 first: pig on Storm, 7 followers in every supply.
    assert wheel_events(game.start_events) == [("storm", {"Ann": 7, "Bob": 7})]
    # Bob's V.3: three more steps, back to Fortune: +3 for the player whose turn it is.
    assert wheel_events(events) == [("storm", {"Ann": 7, "Bob": 7}), ("fortune", {"Bob": 3})]
    assert game.scores == [7, 10]


def test_inquisition_pays_two_per_monk():
    game, events = play(
        ["base.B", "base.E", "wheel.B.1", "wheel.V.3", "base.B"],
        [
            tile(0, 4), meeple("cloister"),  # Ann's monk
            tile(2, -1, 180), meeple("field:NNW"),  # Bob's farmer
            tile(3, 4), PASS,  # Ann's B.1 moved the pig to Taxes (no knight, no points)
        ],
        sets=SETS,
    )  # fmt: skip
    # Bob draws V.3: 1 + 3 = Inquisition. Ann has one monk.
    assert wheel_events(events) == [("taxes", {}), ("inquisition", {"Ann": 2})]


def test_famine_pays_every_farmer_for_the_completed_cities_of_its_field():
    game, events = play(
        ["base.E", "base.E", "wheel.A.2", "base.B"],
        [tile(2, -1, 180), meeple("field:NNW"), tile(4, 2, 270), meeple("field:NNW")],
        sets=SETS,
    )
    # Both farmers' fields touch a city completed with the wheel's cap; no majority is needed.
    assert wheel_events(events) == [("famine", {"Ann": 1, "Bob": 1})]


def test_plague_choices_forced_removals_and_players_with_nothing():
    pool = ["base.B", "base.U", "base.B", "wheel.F.3", "base.B", "wheel.A.2", "base.B"]
    game, events = play(
        pool,
        [
            tile(0, 4), meeple("crown:plague"),  # Ann on the one-space crown
            tile(1, -1, 90), meeple("road:N"),  # Bob's thief
            tile(3, 4), meeple("cloister"),  # Ann's monk (Ann drew B; next Bob draws F.3: Storm)
            tile(1, 4, 90), meeple("city:N"),  # Bob's knight
            tile(-1, 0), PASS,  # Ann; then Bob draws A.2: 3 + 2 = Plague
        ],
        sets=SETS,
    )  # fmt: skip
    assert game.step == "plague" and game.players[game.actor] == "Bob"
    choices = game.legal_moves()
    assert {(m["x"], m["y"], m["at"]) for m in choices} == {(1, -1, "road:N"), (1, 4, "city:N")}
    with pytest.raises(IllegalMove, match="Bob must send home one of their followers"):
        game.apply({"type": "remove", "x": 3, "y": 4, "at": "cloister", "player": "Bob"})
    game.apply(choices[0])  # Bob's choice
    assert game.players[game.actor] == "Ann"
    # Ann has one follower on land (the monk); the crown follower cannot be taken: forced.
    assert game.legal_moves() == [{"type": "remove", "player": "Ann", "x": 3, "y": 4, "at": "cloister"}]
    events = game.apply(game.legal_moves()[0])
    assert crown_scores(events) == [("plague", {"Ann": 3})]
    assert game.step == "tile" and game.player_name == "Bob"  # now Bob places the A.2


def test_a_player_with_no_follower_on_land_is_skipped_by_the_plague():
    game, _ = play(
        ["base.B", "wheel.F.3", "wheel.A.2", "base.B"],
        [tile(0, 4), meeple("cloister"), tile(1, 4, 90), PASS],
        sets=SETS,
    )  # fmt: skip
    # Ann drew A.2 (Storm + 2 = Plague): only Ann has a follower on land.
    assert game.step == "plague" and game.players[game.actor] == "Ann"
    game.apply(game.legal_moves()[0])
    assert game.step == "tile" and game.supply == [FOLLOWERS, FOLLOWERS]


def test_crown_spaces_fill_up():
    game, _ = play(
        ["base.B", "base.B", "base.B", "base.B"],
        [tile(0, 4), meeple("crown:plague"), tile(3, 4)],
        sets=SETS,
    )
    assert {"type": "meeple", "at": "crown:plague"} not in game.legal_moves()
    with pytest.raises(IllegalMove, match="crown spaces of Plague are taken"):
        game.apply(meeple("crown:plague"))
    with pytest.raises(IllegalMove, match="no crown space in 'fortune'"):
        game.apply(meeple("crown:fortune"))


@pytest.mark.parametrize("sets", [("wheel",), ("base", "wheel", "castles", "toll", "ferries")])
def test_random_wheel_games_keep_followers_and_replay(sets):
    seen = Counter()
    for seed in range(20):
        game = Game(["A", "B", "C"], list(sets), seed=seed)
        ai = RandomPlayer(seed)
        while not game.finished:
            for e in game.apply(ai.choose(game)):
                if e["type"] == "wheel":
                    seen[e["sector"]] += 1
            crowns = Counter(p for v in game.state["wheel"].crowns.values() for p in v if p is not None)
            on_board = Counter(
                p for r, f in enumerate(game.board.followers) if f and game.board.parent[r] == r for p, _ in f
            )
            assert all(on_board[p] + crowns[p] + game.supply[p] == FOLLOWERS for p in range(3))
        replayed, _, error = load(game.to_json())
        assert error is None and replayed.scores == game.scores
    assert set(seen) == {"fortune", "taxes", "famine", "storm", "inquisition", "plague"}


def test_the_event_stands_when_the_icon_tile_then_fits_nowhere(monkeypatch):
    # No board with the 4x4 wheel leaves an icon tile without a place in a few moves, so the
    # tile is made to fit no demand at all: the pig still moves and the event is played.
    from engine.catalog import TILE_TYPES

    icon_tile = TILE_TYPES["wheel.B.1"]
    nowhere = tuple(() for _demand in icon_tile.fit_tables()[0])  # no rotation meets any demand
    monkeypatch.setattr(icon_tile, "_fit_tables", (nowhere, nowhere))
    game, events = play(["base.B", "wheel.B.1", "base.B"], [tile(0, 4), meeple("crown:taxes")], sets=SETS)
    kinds = [e["type"] for e in events]
    assert kinds.index("wheel") < kinds.index("tile_discarded")
    assert {"type": "tile_discarded", "tile": "wheel.B.1"} in events
    assert crown_scores(events) == [("taxes", {"Ann": 6})]
    assert game.drawn.id == "base.B" and game.player_name == "Bob"


def test_plague_accepts_any_name_of_the_followers_feature():
    pool = ["base.B", "base.U", "base.B", "wheel.F.3", "base.B", "wheel.A.2", "base.B"]
    game, _ = play(
        pool,
        [
            tile(0, 4), meeple("crown:plague"),
            tile(1, -1, 90), meeple("road:N"),  # Bob's thief on a road running north-south
            tile(3, 4), meeple("cloister"),
            tile(1, 4, 90), meeple("city:N"),
            tile(-1, 0), PASS,
        ],
        sets=SETS,
    )  # fmt: skip
    assert game.step == "plague" and game.players[game.actor] == "Bob"
    with pytest.raises(IllegalMove, match="has no 'road:E' there"):
        game.apply({"type": "remove", "x": 1, "y": -1, "at": "road:E", "player": "Bob"})
    events = game.apply({"type": "remove", "x": 1, "y": -1, "at": "road:S", "player": "Bob"})
    assert events == [{"type": "plague", "player": "Bob", "x": 1, "y": -1, "at": "road:N"}]
    assert game.players[game.actor] == "Ann"


def test_a_follower_on_a_crown_space_is_said_to_be_there_in_both_languages():
    from engine.event_words import describe
    from engine.language import speaking
    from locales import translations

    game, _ = play(["base.B", "base.B"], [tile(0, 4)], sets=SETS)
    (placed,) = [e for e in game.apply(meeple("crown:plague")) if e["type"] == "meeple_placed"]
    assert describe(placed) == f"{game.players[0]} put a follower on the Plague crown of the wheel."
    with speaking(translations("fr")):
        assert describe(placed) == f"{game.players[0]} a posé un partisan sur la couronne Peste de la roue."
