"""Leagues: rankings, openskill ratings, rebuilds, seasons and permissions."""

import math

import pytest
from openskill.models import PlackettLuce

from service import ServiceError
from service.leagues import DEFAULT_SIGMA, apply_result, ranking_of
from tests.helpers import league_services


@pytest.fixture
async def env(tmp_path):
    async with league_services(tmp_path / "league.db") as (_db, _clock, games, leagues):
        yield games, leagues


PLAYERS = {"u1": "Ann", "u2": "Bob", "u3": "Cy", "u4": "Dee"}


async def league_with_members(leagues, **options):
    league = await leagues.create("g1", "Friday", "boss", True, **options)
    for uid, name in PLAYERS.items():
        await leagues.join(league.id, uid, name)
    return league


async def play_out(games, game_id, resign: str | None = None):
    view = await games.turn(game_id)
    if resign:
        await games.resign(game_id, resign)
        view = await games.turn(game_id)
    while not view.finished:
        (x, y), rots = sorted(view.placements.items())[-1]
        draft = [{"type": "tile", "x": x, "y": y, "rot": rots[0]}]
        after = await games.options_after(game_id, view.user_id, view.version, draft)
        if after.step == "figure" and after.player == view.player:
            draft.append(after.choices[0].move)
        view = (await games.play(game_id, view.user_id, draft, view.version)).turn
    return view


async def league_game(games, leagues, league, seats, seed_offset=0, resign=None):
    lobby = await leagues.open_lobby(league.id, seats[0], PLAYERS[seats[0]])
    for uid in seats[1:]:
        await games.join(lobby.id, uid, PLAYERS[uid])
    await games.start(lobby.id, seats[0])
    await play_out(games, lobby.id, resign)
    return lobby.id


def test_ranking_ties_share_and_forfeits_come_last():
    result = {
        "scores": {"Ann": 30, "Bob": 42, "Cy": 30, "Dee": 50},
        "users": {"Ann": "u1", "Bob": "u2", "Cy": "u3", "Dee": "u4"},
        "forfeited": ["Dee"],
    }
    ranking = ranking_of(result)
    assert [(r["name"], r["rank"]) for r in ranking] == [("Bob", 1), ("Ann", 2), ("Cy", 2), ("Dee", 4)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ratings_match_openskill_for_two_to_six_players(players):
    model = PlackettLuce()
    ranks = [1, 2, 2, 4, 5, 5][:players]
    ranking = [{"user_id": f"p{i}", "rank": r} for i, r in enumerate(ranks)]
    ratings = {}
    apply_result(ratings, 1, ranking, 2.0)
    expected = model.rate([[model.rating()] for _ in range(players)], ranks=ranks)
    for i, (team,) in enumerate(expected):
        mu, sigma, games = ratings[(1, f"p{i}")]
        assert (mu, sigma, games) == (team.mu, team.sigma, 1)
    # A second game starts from the first one's ratings.
    apply_result(ratings, 1, list(reversed(ranking)), 2.0)
    teams = [[model.rating(mu=t.mu, sigma=t.sigma)] for (t,) in reversed(expected)]
    again = model.rate(teams, ranks=[r["rank"] for r in reversed(ranking)])
    assert ratings[(1, "p0")][:2] == (again[-1][0].mu, again[-1][0].sigma)


async def test_a_season_rates_games_and_a_rebuild_gives_the_same_numbers(env):
    games, leagues = env
    league = await league_with_members(leagues)
    played = [
        await league_game(games, leagues, league, ["u1", "u2", "u3"]),
        await league_game(games, leagues, league, ["u2", "u4"]),
        await league_game(games, leagues, league, ["u1", "u3", "u4", "u2"], resign="u3"),
    ]
    results = await leagues.store.results(league.id)
    assert [r.game_id for r in results] == played
    assert results[2].ranking[-1]["name"] == "Cy" and results[2].ranking[-1]["forfeited"]
    # The same numbers from openskill directly, game by game.
    model = PlackettLuce()
    expected = {}
    for result in results:
        teams = [[model.rating(*expected.get(r["user_id"], (None, None)))] for r in result.ranking]
        for r, (team,) in zip(
            result.ranking, model.rate(teams, ranks=[r["rank"] for r in result.ranking]), strict=True
        ):
            expected[r["user_id"]] = (team.mu, team.sigma)
    incremental = await leagues.store.ratings(league.id)
    assert {u: (mu, sigma) for (_, u), (mu, sigma, _) in incremental.items()} == expected
    await leagues.rebuild(league.id)
    assert await leagues.store.ratings(league.id) == incremental
    table = await leagues.standings(league.id)
    assert [s.ordinal for s in table] == sorted((s.ordinal for s in table), reverse=True)
    assert all(s.provisional for s in table)  # nobody has 5 rated games yet
    me = await leagues.player(league.id, "u2")
    assert [h["game"] for h in me["history"]] == played


async def test_a_new_season_widens_the_uncertainty_and_keeps_the_old_standings(env):
    games, leagues = env
    league = await league_with_members(leagues, season_sigma_boost=3.0)
    await league_game(games, leagues, league, ["u1", "u2"])
    before = {s.user_id: s for s in await leagues.standings(league.id)}
    final = await leagues.end_season(league.id, is_manager=True)
    assert await leagues.start_season(league.id, is_manager=True) == 2
    assert [s.user_id for s in await leagues.standings(league.id, 1)] == [s.user_id for s in final]
    now = {s.user_id: s for s in await leagues.standings(league.id)}
    for uid in ("u1", "u2"):
        assert now[uid].mu == before[uid].mu
        assert now[uid].sigma == pytest.approx(min(DEFAULT_SIGMA, math.hypot(before[uid].sigma, 3.0)), abs=1e-3)
        assert now[uid].games == 0
    await league_game(games, leagues, league, ["u1", "u2"])
    assert {r.season for r in await leagues.store.results(league.id)} == {1, 2}
    incremental = await leagues.store.ratings(league.id)
    await leagues.rebuild()
    assert await leagues.store.ratings(league.id) == incremental


async def test_only_managers_administer_and_only_members_play(env):
    games, leagues = env
    with pytest.raises(ServiceError, match="only server managers"):
        await leagues.create("g1", "Friday", "u1", False)
    league = await leagues.create("g1", "Friday", "boss", True, sets=["base", "toll"])
    with pytest.raises(ServiceError, match="already has a league"):
        await leagues.create("g1", "friday ", "boss", True)
    with pytest.raises(ServiceError, match="only server managers or the league.s organisers can end"):
        await leagues.end_season(league.id, is_manager=False)
    with pytest.raises(ServiceError, match="join the league"):
        await leagues.open_lobby(league.id, "u1", "Ann")
    await leagues.join(league.id, "u1", "Ann")
    with pytest.raises(ServiceError, match="already a member"):
        await leagues.join(league.id, "u1", "Ann")
    lobby = await leagues.open_lobby(league.id, "u1", "Ann")
    assert lobby.options["sets"] == ["base", "toll"]
    with pytest.raises(ServiceError, match="only members"):
        await games.join(lobby.id, "u9", "Zed")
    with pytest.raises(ServiceError, match="computer players cannot"):
        await games.add_ai(lobby.id, "u1")
    with pytest.raises(ServiceError, match="league's settings"):
        await games.set_options(lobby.id, "u1", sets=["base"])
    await leagues.leave(league.id, "u1")
    with pytest.raises(ServiceError, match="not a member"):
        await leagues.leave(league.id, "u1")


async def test_abandoned_games_are_not_rated(env):
    games, leagues = env
    league = await league_with_members(leagues)
    lobby = await leagues.open_lobby(league.id, "u1", "Ann")
    await games.join(lobby.id, "u2", "Bob")
    await games.start(lobby.id, "u1")
    await games.abort(lobby.id, "boss", is_manager=True)
    assert await leagues.store.results(league.id) == []
    assert await leagues.store.ratings(league.id) == {}
