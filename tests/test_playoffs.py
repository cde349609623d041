"""Playoffs: the bracket (seeding, byes, single and double elimination) as properties, and whole
playoffs through the league service on both backends, from a finished Swiss season to the champion."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service import ServiceError
from service.leagues import CompetitionRules, PlayoffRules
from service.leagues.playoffs import PENDING, build_bracket, resolve, seed_order, stage_name
from tests import test_leagues_competitions as competitions
from tests.helpers import anyone, as_
from tests.test_leagues_competitions import BOSS, members, play_turns

env = competitions.env  # the league services over each backend, with the notices they emitted


# ---------------------------------------------------------------------- the bracket
def test_seeds_meet_as_late_as_possible_and_the_top_seeds_get_the_byes():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    single = build_bracket(8, double=False)
    assert len(single) == 7 and Counter(m.round for m in single) == {1: 4, 2: 2, 3: 1}
    stages = [stage_name(m, 3, False) for m in (single[0], single[4], single[6])]
    assert stages == ["Quarter-finals", "Semi-finals", "Final"]
    double = build_bracket(8, double=True)
    assert len(double) == 14  # 2n - 2: everyone but the champion loses twice, the final's loser once
    assert Counter(m.bracket for m in double) == {"W": 7, "L": 6, "F": 1}
    assert [stage_name(m, 3, True) for m in double if m.bracket != "W"][-2:] == ["Losers' round 4", "Grand final"]
    # Five players: the bracket of eight, seeds 1-3 through without a game.
    state = resolve(build_bracket(5, False), ["a", "b", "c", "d", "e"], {})
    first = state.matches[:4]
    assert [(m.home, m.away) for m in first] == [("a", None), ("d", "e"), ("b", None), ("c", None)]
    assert [m.decided for m in first] == [True, False, True, True]
    assert [(m.home, m.away) for m in state.playable()] == [("d", "e"), ("b", "c")]  # b v c needs no wait
    assert state.matches[4].away == PENDING


@given(
    st.integers(2, 20), st.booleans(), st.randoms(use_true_random=False),
    st.floats(0, 0.2),  # how often a match is lost by both (its deadline under the "both lose" rule)
)  # fmt: skip
def test_any_results_lead_to_one_champion_and_nobody_plays_after_being_knocked_out(n, double, rng, both_lose):
    if double and n < 4:
        n = 4
    seeds = [f"p{i}" for i in range(1, n + 1)]
    bracket = build_bracket(n, double)
    results: dict[int, str | None] = {}
    losses: Counter[str] = Counter()
    for _step in range(200):
        state = resolve(bracket, seeds, results)
        if state.finished:
            break
        playable = state.playable()
        assert playable, "a bracket never waits on nothing"
        match = rng.choice(playable)
        for player in (match.home, match.away):
            assert losses[player] < (2 if double else 1), "a knocked-out player plays again"
        winner = None if rng.random() < both_lose else rng.choice([match.home, match.away])
        results[match.match.number] = winner
        for player in (match.home, match.away):
            if player != winner:
                losses[player] += 1
    assert state.finished
    if state.champion is not None:
        assert losses[state.champion] <= (1 if double else 0)
    if both_lose == 0:
        survivors = [p for p in seeds if losses[p] < (2 if double else 1)]
        # Who never went out either won it all, or lost the grand final having never lost before.
        assert set(survivors) <= {state.champion, *(m.loser for m in state.matches if m.match.bracket == "F")}
        played = sum(1 for m in state.matches if m.played)
        # Each match played makes one loss: everyone but the champion goes out (once, or twice)
        # except the grand final's loser, out after one loss when they came from the winners' side.
        assert played == (2 * n - 2 if double else n - 1)
        assert state.champion is not None


# ---------------------------------------------------------------------- through the service
async def finish_group_stage(games, leagues, league, rounds):
    for _ in range(rounds):
        for f in await leagues.progress(anyone("g1"), league.id):
            if f.away is not None and not f.outcome.decided:
                await play_turns(games, f.games[-1])


async def play_playoffs(games, leagues, league, notices):
    """Play every open playoff match's games until the bracket is decided; the games played."""
    played = 0
    for _ in range(100):
        open_games = [
            f.games[-1] for f in await leagues.progress(anyone("g1"), league.id)
            if f.away is not None and not f.outcome.decided and f.games
        ]  # fmt: skip
        if not open_games:
            return played
        for game_id in open_games:
            await play_turns(games, game_id, seed=played)
            played += 1
    raise AssertionError("the playoffs never ended")


async def test_an_eight_player_double_elimination_best_of_3_to_the_champion(env):
    games, leagues, clock, notices, _db = env
    league = await members(leagues, 8)
    season = await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=3))
    await leagues.kickoff(BOSS, league.id)
    with pytest.raises(ServiceError, match="the groups are not over"):
        await leagues.start_playoffs(BOSS, league.id, PlayoffRules(top=8, best_of=3, double=True))
    await finish_group_stage(games, leagues, league, 3)
    assert "/league playoffs" in notices[-1].lines[0]
    with pytest.raises(ServiceError, match="organise"):
        await leagues.start_playoffs(as_("u00", "g1"), league.id, PlayoffRules(top=8))
    with pytest.raises(ServiceError, match="best of 1, 3 or 5"):
        await leagues.start_playoffs(BOSS, league.id, PlayoffRules(top=8, best_of=2))
    with pytest.raises(ServiceError, match="cannot take the top 16"):
        await leagues.start_playoffs(BOSS, league.id, PlayoffRules(top=16))
    table = (await leagues.season_tables(anyone("g1"), league.id, season))[1]
    notice = await leagues.start_playoffs(BOSS, league.id, PlayoffRules(top=8, best_of=3, double=True))
    assert "the playoffs begin (double elimination, best of 3)" in notice.lines[0]
    assert f"1. {table[0].name}, 2. {table[1].name}" in notice.lines[0]  # seeded from the standings
    assert len(notice.games) == 4 and all("Winners' quarter-finals" in g.title for g in notice.games)
    assert f"{table[0].name} v {table[7].name}" in notice.games[0].title  # 1 v 8
    with pytest.raises(ServiceError, match="already started"):
        await leagues.start_playoffs(BOSS, league.id, PlayoffRules(top=8, best_of=3, double=True))
    played = await play_playoffs(games, leagues, league, notices)
    bracket = await leagues.bracket(anyone("g1"), league.id)
    assert bracket.champion is not None and "is the champion" in notices[-1].lines[-1]
    assert sum("is the champion" in line for n in notices for line in n.lines) == 1
    decided = [b for b in bracket.boxes if b.state == "decided"]
    assert len(decided) == 14 and all(max(b.home_won, b.away_won) >= 2 for b in decided)  # best of 3
    assert 14 * 2 <= played <= 14 * 3 + 5  # two or three games a match (a level match: one more)
    # The groups' table is untouched by the playoffs (the ratings beside it move: the games are rated).
    def record(rows):
        return [(r.position, r.user_id, r.played, r.won, r.drawn, r.lost, r.points, r.scored) for r in rows]

    assert record((await leagues.season_tables(anyone("g1"), league.id, season))[1]) == record(table)
    await leagues.end_season(BOSS, league.id)
    history = await leagues.history(anyone("g1"), league.id)
    assert history[-1]["champion"] == bracket.champion


async def test_single_elimination_with_byes_and_a_match_ruled_at_its_deadline(env):
    games, leagues, clock, notices, _db = env
    league = await members(leagues, 6)
    await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=3, window_hours=48))
    await leagues.kickoff(BOSS, league.id)
    await finish_group_stage(games, leagues, league, 3)
    notice = await leagues.start_playoffs(BOSS, league.id, PlayoffRules(top=5, best_of=1))
    # Seeds 1-3 have byes: 4 v 5 plays its quarter-final, and 2 v 3 their semi-final at once.
    assert sorted(g.title.split(": ")[0][-14:] for g in notice.games) == ["Quarter-finals", "S2 Semi-finals"]
    (quarter,) = [f for f in await leagues.progress(anyone("g1"), league.id) if f.stage == "Quarter-finals"]
    mine = await leagues.fixtures_for(anyone("g1"), league.id, quarter.home)  # a player's own list names it too
    assert [f.stage for f in mine] == ["Quarter-finals"]
    await play_turns(games, quarter.games[-1])
    semis = [f for f in await leagues.progress(anyone("g1"), league.id) if f.stage == "Semi-finals"]
    assert len(semis) == 2 and quarter.outcome is not None
    # The first semi-final is played; at the other's deadline the player to move loses it (the season's rule).
    first, second = sorted(semis, key=lambda f: f.fixture_id)
    await play_turns(games, first.games[-1])
    stalled = await games.turn(anyone("g1"), second.games[-1])
    clock.now += timedelta(hours=49)
    ruled = await leagues.tick()
    assert "is awarded the match" in ruled[0].lines[0]
    final = [f for f in await leagues.progress(anyone("g1"), league.id) if f.stage == "Final"]
    assert len(final) == 1 and stalled.user_id not in (final[0].home, final[0].away)
    await play_turns(games, final[0].games[-1])
    bracket = await leagues.bracket(anyone("g1"), league.id)
    assert bracket.champion in (final[0].home_name, final[0].away_name)
    assert [b.state for b in bracket.boxes].count("walkover") == 3


async def test_a_level_knockout_match_goes_on_with_a_deciding_game():
    from service.leagues import match_outcome
    from storage.leagues import FixtureRow, MatchEntry

    fixture = FixtureRow(1, 1, 1001, 0, "a", "b", ["base"], None, None, [])  # type: ignore[arg-type]

    def game(winner):
        return MatchEntry(0, 1, "game", {"game_id": 0, "scores": {"a": 10, "b": 10}, "winner": winner}, "", None)  # type: ignore[arg-type]

    level = [game("a"), game(None), game("b")]  # 1.5 - 1.5 after three games
    assert match_outcome(fixture, level, 3).decided  # a group match: a draw
    assert not match_outcome(fixture, level, 3, knockout=True).decided
    decided = match_outcome(fixture, [*level, game("b")], 3, knockout=True)
    assert decided.decided and decided.winner == "b"
