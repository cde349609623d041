"""Competition seasons through the league service: a divisional round robin with promotion
and relegation, a Swiss tournament, deadlines, overrides, rebuilds. Games are played with
``GameService.play``, each turn chosen by ``engine.ai.RandomPlayer`` among the legal moves."""

from collections import Counter
from datetime import timedelta

import pytest

from engine.ai import RandomPlayer
from service import GameService, ServiceError
from service.leagues import (
    CompetitionRules,
    LeagueService,
    build_tables,
    display_rating,
    match_outcome,
    round_robin,
    swiss_pairs,
)
from storage import Store
from storage.leagues import EntrantRow, FixtureRow, LeagueStore, MatchEntry
from tests.helpers import SYSTEM, Clock, any_of, anyone, as_, league_services  # noqa: F401

BOSS = as_("boss", "g1", manager=True)  # a manager of the league's server

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


@pytest.fixture
async def env(db_url):
    async with league_services(db_url) as (db, clock, games, leagues):
        notices = []

        async def heard(notice):
            notices.append(notice)

        leagues.notice_listeners.append(heard)
        yield games, leagues, clock, notices, db


async def members(leagues, count):
    league = await leagues.create(BOSS, "Central")
    await leagues.end_season(BOSS, league.id)  # the ladder season made at creation
    for i in range(count):
        await leagues.join(as_(f"u{i:02}", "g1"), league.id, NAMES[i])
    return league


async def play_turns(games, game_id, turns=None, seed=0):
    """Play a game's turns with a random player (all of them when ``turns`` is None)."""
    player = RandomPlayer(seed + game_id)
    guild = (await games.store.get_game(game_id)).guild_id  # the competition's server
    view = await games.turn(anyone(guild), game_id)
    count = 0
    while not view.finished and (turns is None or count < turns):
        _, game = await games.game(anyone(guild), game_id)
        trial = game.clone()
        actor, turn, moves = trial.actor, trial.turn, []
        while not trial.finished and trial.actor == actor and trial.turn == turn:
            move = player.choose(trial)
            trial.apply(move)
            moves.append(move)
        view = (await games.play(as_(view.user_id, guild), game_id, moves, view.version)).turn
        count += 1
    return view


async def open_games(leagues, league_id, season):
    """Game ids of the matches still undecided, by fixture."""
    progress = await leagues.progress(anyone("g1"), league_id)
    return {f.fixture_id: f.games[-1] for f in progress if f.outcome is not None and not f.outcome.decided}


def expected_rows(results, players, win=2, draw=1):
    """Independent tally: results = [(a, b, winner or None, score_a, score_b)]."""
    rows = {p: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "points": 0, "scored": 0} for p in players}
    for a, b, winner, score_a, score_b in results:
        for me, mine in ((a, score_a), (b, score_b)):
            row = rows[me]
            row["played"] += 1
            row["scored"] += mine
            if winner is None:
                row["drawn"] += 1
                row["points"] += draw
            elif winner == me:
                row["won"] += 1
                row["points"] += win
            else:
                row["lost"] += 1
    return rows


# ---------------------------------------------------------------------- pure parts
def test_round_robin_meets_everyone_once():
    players = [f"p{i}" for i in range(6)]
    rounds = round_robin(players)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(rounds) == 5 and len(pairs) == 15 and len(set(pairs)) == 15
    for r in rounds:
        assert sorted(p for pair in r for p in pair) == sorted(players)  # nobody twice in a round
    odd = round_robin(players[:5])
    assert len(odd) == 5 and all(len(r) == 2 for r in odd)
    assert len({frozenset(p) for r in odd for p in r}) == 10


def test_swiss_pairs_avoid_rematches_and_repeat_byes():
    order = ["a", "b", "c", "d", "e"]
    pairs, bye = swiss_pairs(order, {frozenset("ab"), frozenset("cd")}, {"e"})
    assert bye == "d"  # the lowest player without a bye yet
    assert pairs == [("a", "c"), ("b", "e")]
    with pytest.raises(ServiceError, match="no pairing without a rematch"):
        swiss_pairs(["a", "b"], {frozenset("ab")}, set())
    # Once everyone has had a bye, the lowest player gets a second one rather than no round.
    assert swiss_pairs(["a", "b", "c"], {frozenset("ab")}, {"a", "b", "c"}) == ([("a", "c")], "b")


def _fixture(fid, home, away, division=1):
    now = Clock()()
    return FixtureRow(fid, 1, 1, division, home, away, ["base"], now, now, [])


def _entry(eid, fid, kind, **body):
    return MatchEntry(eid, fid, kind, body, "x", Clock()())


def test_best_of_three_is_decided_early_and_draws_count_half():
    fixture = _fixture(1, "a", "b")
    games = [
        _entry(1, 1, "game", game_id=1, scores={"a": 30, "b": 20}, winner="a"),
        _entry(2, 1, "game", game_id=2, scores={"a": 25, "b": 25}, winner=None),
    ]
    assert not match_outcome(fixture, games, 3).decided  # 1.5 - 0.5, one game left
    third = _entry(3, 1, "game", game_id=3, scores={"a": 10, "b": 40}, winner="b")
    outcome = match_outcome(fixture, [*games, third], 3)
    assert (outcome.decided, outcome.winner, outcome.draw) == (True, None, True)  # 1.5 - 1.5
    assert outcome.scored == {"a": 65, "b": 85}
    late = _entry(4, 1, "deadline", winner="a", reason="late")
    assert match_outcome(fixture, [*games, third, late], 3).how == "games"  # decided before the deadline
    override = _entry(5, 1, "override", winner="b", reason="a played with the wrong tiles")
    ruled = match_outcome(fixture, [*games, third, late, override], 3)
    assert (ruled.winner, ruled.how, ruled.reason) == ("b", "override", "a played with the wrong tiles")


def test_tables_break_ties_by_head_to_head_then_points_scored():
    # a, b, c each win one of their matches against each other; d loses all three.
    entrants = [EntrantRow(u, u.upper(), 1, i) for i, u in enumerate("abcd", start=1)]
    results = [("a", "b", 30, 10), ("b", "c", 22, 20), ("c", "a", 40, 12), ("a", "d", 20, 5),
               ("b", "d", 21, 6), ("c", "d", 11, 9)]  # fmt: skip
    fixtures = [_fixture(i, h, a) for i, (h, a, _, _) in enumerate(results, start=1)]
    log = [
        _entry(i, i, "game", game_id=i, scores={h: sh, a: sa}, winner=h) for i, (h, a, sh, sa) in enumerate(results, 1)
    ]
    rules = CompetitionRules(division_size=4, promote=1, relegate=1)
    table = build_tables(rules, entrants, fixtures, log, {})[1]
    # Level on 4 points; head to head is level too (2 each); points scored: c 71, a 62, b 53.
    assert [(r.user_id, r.points, r.scored, r.against) for r in table] == [
        ("c", 4, 71, 43), ("a", 4, 62, 55), ("b", 4, 53, 56), ("d", 0, 20, 52),
    ]  # fmt: skip
    # Two level on points where head to head and points scored disagree: b beat c, c scored more.
    results = [("a", "b", 30, 10), ("b", "c", 21, 20), ("c", "a", 40, 12), ("a", "d", 20, 5),
               ("b", "d", 15, 15), ("c", "d", 25, 25)]  # fmt: skip
    log = [
        _entry(i, i, "game", game_id=i, scores={h: sh, a: sa}, winner=h if sh != sa else None)
        for i, (h, a, sh, sa) in enumerate(results, 1)
    ]
    table = build_tables(rules, entrants, fixtures, log, {})[1]
    assert [(r.user_id, r.points, r.won, r.drawn, r.lost, r.scored) for r in table] == [
        ("a", 4, 2, 0, 1, 62), ("b", 3, 1, 1, 1, 46), ("c", 3, 1, 1, 1, 85), ("d", 2, 0, 2, 1, 45),
    ]  # fmt: skip
    assert [r.zone for r in table] == [None, None, None, None]  # one division: nobody moves
    by_score = build_tables(CompetitionRules(division_size=4, tiebreaks=["points_scored"]), entrants, fixtures, log, {})
    assert [r.user_id for r in by_score[1]] == ["a", "c", "b", "d"]
    # An override is an entry of its own: c's win over a becomes a's, and a pulls clear.
    log.append(_entry(7, 3, "override", winner="a", reason="c played an extra tile"))
    table = build_tables(rules, entrants, fixtures, log, {})[1]
    assert [(r.user_id, r.points) for r in table] == [("a", 6), ("b", 3), ("d", 2), ("c", 1)]


def test_friendly_rating_scale():
    assert display_rating(25.0, 25 / 3) == 1000  # a newcomer
    assert display_rating(30.0, 2.0) == 1000 + 40 * 24
    assert display_rating(0.0, 10.0) == 0  # never negative


def test_rules_are_checked():
    assert CompetitionRules(sets=[["river1", "base"]]).checked().sets == [["base", "river1"]]
    for bad, message in [
        (dict(format="cup"), "a competition is one of"),
        (dict(best_of=2), "best of 3"),
        (dict(tiebreaks=["coin"]), "tie-breakers"),
        (dict(win=1, draw=2), "loss <= draw <= win"),
        (dict(sets=[["river1"]]), "sets river1"),
        (dict(promote=4), "at most half"),
        (dict(time_control="3 days"), "not a time control"),
    ]:
        with pytest.raises(ServiceError, match=message):
            CompetitionRules(**bad).checked()


# ---------------------------------------------------------------------- a divisional season
async def test_a_divisional_season_with_promotion_and_relegation(env):
    games, leagues, clock, notices, db = env
    league = await members(leagues, 12)
    rules = CompetitionRules(format="divisions", division_size=6, window_hours=7 * 24)
    season = await leagues.start_season(BOSS, league.id, rules, channel_id="chan")
    with pytest.raises(ServiceError, match="only server managers or the league's organisers"):
        await leagues.kickoff(as_("boss", "g1"), league.id)
    with pytest.raises(ServiceError, match="the bot opens its matches"):
        await leagues.open_lobby(as_("u00", "g1"), league.id, "Ann")
    entrants = await leagues.seed(BOSS, league.id)
    # Nobody is rated yet: seeded by name, six per division.
    assert [(e.name, e.division) for e in entrants] == [(n, 1 if i < 6 else 2) for i, n in enumerate(NAMES)]
    first = await leagues.kickoff(BOSS, league.id)
    assert len(first.games) == 6 and "round 1 of 5" in first.lines[0]
    division_of = {e.user_id: e.division for e in entrants}
    stalled = overridden = None
    for number in range(1, 6):
        open_now = await open_games(leagues, league.id, season)
        assert len(open_now) == 6
        fixture_ids = sorted(open_now)
        if number == 3:  # one match stalls: its second player never moves
            stalled = fixture_ids[-1]
            stalled_view = await play_turns(games, open_now[stalled], turns=1)
        for fid in fixture_ids:
            if fid != stalled or number != 3:
                await play_turns(games, open_now[fid])
        if number == 3:
            assert (await leagues.progress(anyone("g1"), league.id))[-1].outcome.decided is False
            assert await leagues.tick() == []  # not due yet
            clock.now += timedelta(days=8)
            ruled = await leagues.tick()
            assert "is awarded the match" in ruled[0].lines[0]
            assert (await games.lobby(await any_of(games, open_now[stalled]), open_now[stalled])).status == "aborted"
            assert "round 4 of 5" in ruled[1].lines[0]
        if number == 4:
            overridden = fixture_ids[0]
    # Everything decided: the listener heard every round open and the end.
    assert "every match is decided" in notices[-1].lines[0]
    fixtures = await leagues.store.fixtures(league.id, season)
    assert len(fixtures) == 30
    for division in (1, 2):
        pairs = [frozenset((f.home, f.away)) for f in fixtures if f.division == division]
        assert len(pairs) == 15 == len(set(pairs))  # every pair of the division once
        assert all(division_of[p] == division for pair in pairs for p in pair)
    # An organiser overrides a round 4 result, with a reason, as a log entry of its own.
    target = next(f for f in fixtures if f.id == overridden)
    before_log = await leagues.store.match_log(league.id, season)
    notice = await leagues.override(BOSS, league.id, target.id, target.away, "home player used a banned set")
    assert "Result set by an organiser" in notice.lines[0]
    log = await leagues.store.match_log(league.id, season)
    assert log[: len(before_log)] == before_log and log[-1].kind == "override"
    assert log[-1].body == {"winner": target.away, "reason": "home player used a banned set"}
    # The tables against an independent tally of the games, the deadline and the override.
    by_fixture = {}
    for entry in log:
        by_fixture.setdefault(entry.fixture_id, []).append(entry)
    tally = []
    for f in fixtures:
        entries = by_fixture[f.id]
        final = [e for e in entries if e.kind in ("override", "deadline")]
        game = next((e for e in entries if e.kind == "game"), None)
        scores = game.body["scores"] if game else {}
        winner = final[-1].body["winner"] if final else game.body["winner"]
        tally.append((f.home, f.away, winner, scores.get(f.home, 0), scores.get(f.away, 0)))
    stalled_fixture = next(f for f in fixtures if f.id == stalled)
    staller = stalled_view.user_id
    assert tally[fixtures.index(stalled_fixture)][2] == ({stalled_fixture.home, stalled_fixture.away} - {staller}).pop()
    tables = await leagues.season_tables(anyone("g1"), league.id, season)
    for division, table in tables.items():
        players = [p for p, d in division_of.items() if d == division]
        expected = expected_rows([t for t in tally if t[0] in players], players)
        for row in table:
            got = {k: getattr(row, k) for k in ("played", "won", "drawn", "lost", "points", "scored")}
            assert got == expected[row.user_id], row.name
        assert [r.points for r in table] == sorted((r.points for r in table), reverse=True)
        assert sum(r.points for r in table) == 2 * 15  # 2 points a match, win or draw
    up = [r.user_id for r in tables[2][:2]]
    down = [r.user_id for r in tables[1][-2:]]
    assert [r.zone for r in tables[1]] == [None, None, None, None, "down", "down"]
    assert [r.zone for r in tables[2]] == ["up", "up", None, None, None, None]
    # Ratings moved with the games played (not with the deadline or the override).
    changes = await leagues.rating_changes(anyone("g1"), league.id, season)
    assert len(await leagues.store.results(league.id)) == 29  # 30 matches, one never finished
    assert any(c != 0 for _, c, _ in changes.values())
    # End of season: archived, rebuilt identically; the next season moves players.
    await leagues.end_season(BOSS, league.id)
    seasons = await leagues.store.seasons(league.id)
    kept = seasons[-1].standings
    ratings = await leagues.store.ratings(league.id)
    await leagues.rebuild(league.id)
    assert (await leagues.store.seasons(league.id))[-1].standings == kept
    assert await leagues.store.ratings(league.id) == ratings
    fresh = LeagueService(GameService(Store(db), clock), LeagueStore(Store(db)), clock)
    assert await fresh.season_tables(anyone("g1"), league.id, season) == tables
    history = await leagues.history(anyone("g1"), league.id)
    assert history[-1]["format"] == "divisions"
    assert [d for d, _ in history[-1]["leaders"]] == [1, 2]
    assert sorted(history[-1]["up"]) == sorted(r.name for r in tables[2][:2])
    second = await leagues.start_season(BOSS, league.id, rules, channel_id="chan")
    placed = {e.user_id: e.division for e in await leagues.seed(BOSS, league.id)}
    for user, division in division_of.items():
        expected = 1 if user in up else 2 if user in down else division
        assert placed[user] == expected, user
    assert Counter(placed.values()) == {1: 6, 2: 6}
    assert second == season + 1


async def test_assign_moves_a_player_before_kickoff_only(env):
    games, leagues, clock, notices, db = env
    league = await members(leagues, 7)
    await leagues.start_season(BOSS, league.id, CompetitionRules(division_size=4, promote=1, relegate=1))
    entrants = await leagues.seed(BOSS, league.id)
    assert Counter(e.division for e in entrants) == {1: 4, 2: 3}
    moved = await leagues.assign(BOSS, league.id, "u06", 1)
    assert Counter(e.division for e in moved) == {1: 5, 2: 2}
    with pytest.raises(ServiceError, match="does not exist"):
        await leagues.assign(BOSS, league.id, "u06", 4)
    await leagues.kickoff(BOSS, league.id)
    with pytest.raises(ServiceError, match="has kicked off"):
        await leagues.assign(BOSS, league.id, "u00", 2)
    with pytest.raises(ServiceError, match="already kicked off"):
        await leagues.kickoff(BOSS, league.id)
    # Five players: two matches and one player sitting out per round; fixtures list the schedule.
    mine = await leagues.fixtures_for(anyone("g1"), league.id, "u00")
    assert len(mine) == 4 and len({f.away if f.home == "u00" else f.home for f in mine}) == 4
    # u00 sits out round 1; its four matches are the later rounds of the schedule.
    assert [f.round for f in mine] == [2, 3, 4, 5] and all(f.deadline is None and not f.games for f in mine)
    theirs = await leagues.fixtures_for(anyone("g1"), league.id, "u01")
    assert theirs[0].round == 1 and theirs[0].deadline is not None and len(theirs[0].games) == 1


async def test_organiser_role_and_sets_rotating_per_round_best_of_three(env):
    games, leagues, clock, notices, db = env
    league = await leagues.create(BOSS, "Rota", organiser_role=77)
    await leagues.end_season(BOSS, league.id)
    for i in range(3):
        await leagues.join(as_(f"u{i:02}", "g1"), league.id, NAMES[i])
    rules = CompetitionRules(division_size=3, best_of=3, sets=[["base"], ["base", "river1"]], promote=1, relegate=1)
    with pytest.raises(ServiceError, match="organisers can start"):
        await leagues.start_season(as_("boss", "g1", roles=[5]), league.id, rules)
    with pytest.raises(ServiceError, match="only server managers"):
        await leagues.set_organiser_role(as_("boss", "g1"), league.id, 5)
    assert (await leagues.set_organiser_role(BOSS, league.id, 5)).options["organiser_role"] == 5
    with pytest.raises(ServiceError, match="organisers can start"):
        await leagues.start_season(as_("boss", "g1", roles=[77]), league.id, rules)
    await leagues.set_organiser_role(BOSS, league.id, 77)
    await leagues.start_season(as_("boss", "g1", roles=[77]), league.id, rules)
    first = await leagues.kickoff(as_("boss", "g1", roles=[77]), league.id)
    assert len(first.games) == 1 and "bye" not in " ".join(first.lines)  # a round robin sits a player out
    fixture = (await leagues.progress(anyone("g1"), league.id))[0]
    assert fixture.sets == ["base"]
    await play_turns(games, fixture.games[0])
    fixture = (await leagues.progress(anyone("g1"), league.id))[0]
    assert len(fixture.games) == 2 and "the match goes on" in notices[-1].lines[0]
    while fixture.round == 1:
        await play_turns(games, fixture.games[-1])
        fixture = (await leagues.progress(anyone("g1"), league.id))[0]
    first_match = (await leagues.store.fixtures(league.id, 2))[0]
    assert 2 <= len(first_match.games) <= 3
    outcomes = await leagues.store.match_log(league.id, 2)
    winners = Counter(e.body["winner"] for e in outcomes if e.kind == "game")
    assert max(winners.values()) == 2 and len(outcomes) == len(first_match.games)
    second = fixture
    assert second.round == 2 and second.sets == ["base", "river1"]
    assert (await games.lobby(anyone("g1"), second.games[0])).options["sets"] == ["base", "river1"]


# ---------------------------------------------------------------------- a Swiss tournament
async def test_a_five_round_swiss_with_an_odd_number_of_players(env):
    games, leagues, clock, notices, db = env
    league = await members(leagues, 9)
    rules = CompetitionRules(format="swiss", rounds=5, tiebreaks=["buchholz", "points_scored"], window_hours=48)
    season = await leagues.start_season(BOSS, league.id, rules)
    assert {e.division for e in await leagues.seed(BOSS, league.id)} == {1}
    await leagues.kickoff(BOSS, league.id)
    for number in range(1, 6):
        progress = await leagues.progress(anyone("g1"), league.id)
        assert {f.round for f in progress} == {number}
        byes = [f for f in progress if f.away is None]
        assert len(byes) == 1 and byes[0].outcome.winner == byes[0].home
        if number == 2:  # round 1's winners meet winners where they can
            table = {r.user_id: r.points for r in (await leagues.season_tables(anyone("g1"), league.id, season))[1]}
            level = sum(1 for f in progress if f.away and table[f.home] == table[f.away])
            assert level >= 3
        matches = sorted((f for f in progress if f.away is not None), key=lambda f: f.fixture_id)
        for f in matches[:-1] if number == 4 else matches:
            await play_turns(games, f.games[-1])
        if number == 4:  # the last match times out before anyone moves: the first player stalled
            view = await games.turn(anyone("g1"), matches[-1].games[-1])
            clock.now += timedelta(hours=49)
            ruled = await leagues.tick()
            assert "is awarded the match" in ruled[0].lines[0] and "round 5 of 5" in ruled[1].lines[0]
            deadline = [e for e in await leagues.store.match_log(league.id, season) if e.kind == "deadline"]
            assert len(deadline) == 1 and deadline[0].fixture_id == matches[-1].fixture_id
            assert deadline[0].body["staller"] == view.user_id
            assert deadline[0].body["winner"] == ({matches[-1].home, matches[-1].away} - {view.user_id}).pop()
    fixtures = await leagues.store.fixtures(league.id, season)
    pairs = [frozenset((f.home, f.away)) for f in fixtures if f.away is not None]
    assert len(pairs) == 20 == len(set(pairs))  # no rematch
    byes = [f.home for f in fixtures if f.away is None]
    assert len(byes) == 5 == len(set(byes))  # one bye per round, never twice to the same player
    assert Counter(f.round for f in fixtures) == {r: 5 for r in range(1, 6)}
    table = (await leagues.season_tables(anyone("g1"), league.id, season))[1]
    assert all(r.played == 5 for r in table)
    assert sum(r.points for r in table) == 2 * 25  # 20 matches and 5 byes
    assert all(r.zone is None for r in table)
    for row in table:  # Buchholz: the league points of the player's opponents
        opponents = [
            f.away if f.home == row.user_id else f.home for f in fixtures if f.away and row.user_id in (f.home, f.away)
        ]
        assert row.buchholz == sum(r.points for r in table if r.user_id in opponents)
    assert "every match is decided" in notices[-1].lines[0]
    incremental = await leagues.store.ratings(league.id)
    await leagues.rebuild()
    assert await leagues.store.ratings(league.id) == incremental
    assert (await leagues.season_tables(anyone("g1"), league.id, season))[1] == table


def test_standings_pictures_cut_names_with_an_ellipsis_and_fit_a_phone():
    from renderer.standings import WIDTH, DivisionRow, LadderRow, fit, render_standings, render_tables
    from renderer.tile_art import font

    face = font(26)
    assert fit("Ann", 100, face) == "Ann"
    cut = fit("Bartholomew Longname-Smithington", 150, face)
    assert cut.endswith("…") and face.getlength(cut) <= 150 and "Bartholomew".startswith(cut[:-1][:11])
    rows = [DivisionRow(i, f"Player {i} " + "w" * 40, 5, 3, 1, 1, 7, 120, 1040, -12, i == 2, zone)
            for i, zone in enumerate([None, None, None, None, "down", "down"], start=1)]  # fmt: skip
    img = render_tables("Central · season 3", [("Division 1", rows), ("Division 2", rows)])
    assert img.width == WIDTH == 800  # 400 px on a phone: body text stays 13 px high
    assert 800 < img.height < 1200
    ladder = render_standings("Friday · season 1", [LadderRow(1, "Ann", 1040, 7, False)])
    assert ladder.width == WIDTH


async def test_ending_a_season_stops_its_open_matches(env):
    games, leagues, clock, notices, db = env
    league = await members(leagues, 4)
    with pytest.raises(ServiceError, match="cannot play 4 Swiss rounds"):
        await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=4))
        await leagues.kickoff(BOSS, league.id)
    await leagues.end_season(BOSS, league.id)
    season = await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=3))
    await leagues.kickoff(BOSS, league.id)
    matches = await leagues.progress(anyone("g1"), league.id)
    await play_turns(games, matches[0].games[0])
    tables = await leagues.season_tables(anyone("g1"), league.id, season)
    await leagues.end_season(BOSS, league.id)
    assert (await games.lobby(anyone("g1"), matches[1].games[0])).status == "aborted"
    kept = (await leagues.store.seasons(league.id))[-1].standings
    assert [r["points"] for r in kept["tables"]["1"]] == [r.points for r in tables[1]] and sorted(
        r.points for r in tables[1]
    ) == [0, 0, 0, 2]
    assert await leagues.tick() == []  # an ended season has no deadlines
    with pytest.raises(ServiceError, match="no competition running"):
        await leagues.progress(anyone("g1"), league.id)


async def test_a_match_game_left_uncounted_by_a_crash_is_counted_by_the_clock(env):
    games, leagues, clock, notices, db = env
    league = await members(leagues, 2)
    season = await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=1))
    await leagues.kickoff(BOSS, league.id)
    match = (await leagues.progress(anyone("g1"), league.id))[0]
    games.finished_listeners.remove(leagues.record_game)  # the process dies as the game ends
    await play_turns(games, match.games[0])
    games.finished_listeners.append(leagues.record_game)
    assert await leagues.store.match_log(league.id, season) == []
    clock.now += timedelta(days=30)  # long past the deadline: the game still counts, not a ruling
    assert await leagues.tick() == []
    log = await leagues.store.match_log(league.id, season)
    assert [e.kind for e in log] == ["game"] and len(await leagues.store.results(league.id)) == 1
    row = (await leagues.season_tables(anyone("g1"), league.id, season))[1]
    assert sorted((r.won, r.lost, r.drawn) for r in row) in ([(0, 1, 0), (1, 0, 0)], [(0, 0, 1), (0, 0, 1)])
    assert "every match is decided" in notices[-1].lines[0]


async def test_a_round_whose_opening_was_cut_short_is_completed_by_the_clock(env):
    games, leagues, clock, notices, db = env
    league = await members(leagues, 3)
    season = await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=3))
    await leagues.seed(BOSS, league.id)
    # The process dies right after writing round 1's pairings: no bye logged, no game opened.
    now = clock()
    await leagues.store.add_fixtures(league.id, season, 1, [(1, "u00", "u01", ["base"]), (1, "u02", None, ["base"])],
                                     now, now + timedelta(days=14))  # fmt: skip
    assert await leagues.tick() == []
    match, bye = sorted(await leagues.progress(anyone("g1"), league.id), key=lambda f: f.away is None)
    assert bye.outcome.how == "bye" and len(match.games) == 1
    assert (await games.turn(anyone("g1"), match.games[0])).user_id in ("u00", "u01")
    assert notices[-1].games[0].game_id == match.games[0] and "the match is open" in notices[-1].lines[0]


async def test_fixtures_and_the_match_log_are_append_only(env):
    from storage import IntegrityError

    games, leagues, clock, notices, db = env
    league = await members(leagues, 2)
    season = await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=1))
    await leagues.kickoff(BOSS, league.id)
    match = (await leagues.progress(anyone("g1"), league.id))[0]
    await play_turns(games, match.games[0])
    entry = (await leagues.store.match_log(league.id, season))[0]
    with pytest.raises(Exception, match="already in the match log"):
        await leagues.store.log_match(match.fixture_id, "game", entry.body, "x", clock())
    for sql in ("UPDATE match_log SET kind = 'bye'", "DELETE FROM match_log", "UPDATE fixtures SET away = NULL",
                "DELETE FROM fixtures"):  # fmt: skip
        with pytest.raises(IntegrityError, match="append-only"):
            await db.execute(sql)


async def test_a_french_league_posts_and_opens_its_games_in_french(env):
    """A league created on a French server: its notices and its match games speak French,
    whoever triggers them."""
    games, leagues, clock, notices, db = env
    league = await leagues.create(BOSS, "Ligue", language="fr")
    await leagues.end_season(BOSS, league.id)
    for i in range(4):
        await leagues.join(as_(f"u{i:02}", "g1"), league.id, NAMES[i])
    await leagues.start_season(BOSS, league.id, CompetitionRules(division_size=4, promote=1, relegate=1))
    await leagues.seed(BOSS, league.id)
    first = await leagues.kickoff(BOSS, league.id)
    assert first.lines[0].startswith("Ligue, saison 2 : la ronde 1 sur 3 est ouverte jusqu'au <t:")
    game = await games.lobby(anyone("g1"), first.games[0].game_id)
    assert game.options["language"] == "fr"
    view = await games.turn(anyone("g1"), game.id)
    assert view.language == "fr" and view.question is not None and view.question.prompt.startswith("poser")
    with pytest.raises(ServiceError, match="invalid|one of"):
        await leagues.create(BOSS, "Other", language="tlh")


async def test_two_processes_ticking_at_a_deadline_rule_each_match_once(env):
    """Two league services over one database (two processes) tick at the same moment past a
    round's deadline: each stalled match is ruled on once, announced once, the next round opened
    once."""
    import asyncio

    games, leagues, clock, notices, db = env
    league = await members(leagues, 4)
    season = await leagues.start_season(BOSS, league.id, CompetitionRules(format="swiss", rounds=2, window_hours=48))
    await leagues.kickoff(BOSS, league.id)
    other = LeagueService(GameService(games.store, clock), LeagueStore(games.store), clock)
    clock.now += timedelta(hours=49)  # nobody played: both matches stall
    ours, theirs = await asyncio.gather(leagues.tick(), other.tick())
    rulings = [e for e in await leagues.store.match_log(league.id, season) if e.kind == "deadline"]
    assert len(rulings) == 2 and len({e.fixture_id for e in rulings}) == 2
    said = [line for notice in ours + theirs for line in notice.lines]
    assert sum("both players lose it" in line or "is awarded" in line for line in said) == 2
    assert sum("round 2 of 2" in line for line in said) == 1
    assert len([f for f in await leagues.store.fixtures(league.id, season) if f.round == 2]) == 2


async def test_a_player_on_vacation_is_not_ruled_against_before_a_turns_time_back(env):
    games, leagues, clock, notices, db = env
    league = await members(leagues, 2)
    rules = CompetitionRules(format="swiss", rounds=1, window_hours=48, turn_limit=24 * 3600)
    season = await leagues.start_season(BOSS, league.id, rules)
    await leagues.kickoff(BOSS, league.id)
    (match,) = await leagues.progress(anyone("g1"), league.id)
    mover = (await games.turn(anyone("g1"), match.games[0])).user_id
    back = await games.vacation(as_(mover, "g1"), "Away", 3)  # past the 48 h window
    clock.now += timedelta(hours=49)
    assert await leagues.tick() == []  # the window closed while they were away: no ruling yet
    clock.now = back + timedelta(hours=23)
    assert await leagues.tick() == []  # back, with a turn's time to play
    clock.now = back + timedelta(hours=25)
    ruled = await leagues.tick()
    assert ruled and "is awarded the match" in ruled[0].lines[0]
    assert [e.kind for e in await leagues.store.match_log(league.id, season)] == ["deadline"]


async def test_a_season_with_a_time_bank_opens_its_matches_with_it(env):
    games, leagues, clock, _notices, _db = env
    league = await members(leagues, 2)
    rules = CompetitionRules(format="swiss", rounds=1, time_control="2d + 12h cap 3d")
    await leagues.start_season(BOSS, league.id, rules)
    await leagues.kickoff(BOSS, league.id)
    match = (await leagues.progress(anyone("g1"), league.id))[0]
    row = await games.store.get_game(match.games[0])
    assert row.options["time_control"] == "2d+12h cap 3d"
    view = await games.turn(anyone("g1"), match.games[0])
    mover = view.player
    assert 2 * 86400 - 10 < view.clocks[mover] <= 2 * 86400  # this clock's every reading is a second later
    clock.now += timedelta(hours=5)
    view = await play_turns(games, match.games[0], turns=1)
    assert 2 * 86400 + 7 * 3600 - 10 < view.clocks[mover] <= 2 * 86400 + 7 * 3600  # 48h - 5h + 12h
