"""Leagues: members, seasons, rated games and standings.

Ratings use openskill's Plackett-Luce model: every finished league game is a
free-for-all ranked by final score (ties share a rank; players who forfeited
or were removed rank last). The results log is append-only; the ratings table
is a cache that ``rebuild`` recomputes from it with the very same steps, so an
incremental update and a rebuild give identical numbers.

A new season starts from the ratings the players had, with their uncertainty
widened by ``season_sigma_boost`` (added in quadrature, capped at the default).
Players with fewer than ``provisional_games`` rated games are provisional.
Ratings are shown as the conservative ordinal mu - 3 sigma.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from service.games import GameService, LobbyOptions, ServiceError, utcnow
from storage import Conflict, GameRow, NotFound
from storage.leagues import LeagueRow, LeagueStore, Rating, RatingKey

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
DEFAULT_OPTIONS: dict[str, Any] = {
    "sets": ["base"],
    "max_players": 4,
    "turn_limit": 24 * 3600,
    "timeout_policy": "forfeit",
    "season_sigma_boost": 2.0,
    "provisional_games": 5,
}


@dataclass
class Standing:
    rank: int
    user_id: str
    name: str
    ordinal: float
    mu: float
    sigma: float
    games: int  # rated games this season
    provisional: bool


def ranking_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game's ranking: by score, ties shared, forfeits last."""
    scores: dict[str, int] = result["scores"]
    users: dict[str, str] = result["users"]
    out_of_game = set(result.get("forfeited", []))
    playing = [n for n in scores if n not in out_of_game]
    rows = []
    for name in playing:
        rank = 1 + sum(1 for other in playing if scores[other] > scores[name])
        rows.append({"user_id": users[name], "name": name, "score": scores[name], "rank": rank, "forfeited": False})
    for name in out_of_game:
        rows.append(
            {"user_id": users[name], "name": name, "score": scores[name], "rank": len(playing) + 1, "forfeited": True}
        )
    return sorted(rows, key=lambda r: (r["rank"], r["name"]))


def starting_rating(ratings: dict[RatingKey, Rating], season: int, user_id: str, boost: float) -> Rating:
    """A player's rating when a game of ``season`` begins (carried over from earlier seasons)."""
    if (season, user_id) in ratings:
        return ratings[(season, user_id)]
    earlier = [s for s, u in ratings if u == user_id and s < season]
    if not earlier:
        return (DEFAULT_MU, DEFAULT_SIGMA, 0)
    mu, sigma, _ = ratings[(max(earlier), user_id)]
    return (mu, min(DEFAULT_SIGMA, math.sqrt(sigma * sigma + boost * boost)), 0)


def apply_result(
    ratings: dict[RatingKey, Rating], season: int, ranking: list[dict[str, Any]], boost: float
) -> dict[RatingKey, Rating]:
    """Rate one game: updates ``ratings`` in place and returns the entries it changed."""
    before = [starting_rating(ratings, season, r["user_id"], boost) for r in ranking]
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
    rated = MODEL.rate(teams, ranks=[r["rank"] for r in ranking])
    changed = {}
    for row, (_, _, games), (new,) in zip(ranking, before, rated, strict=True):
        key = (season, row["user_id"])
        changed[key] = ratings[key] = (new.mu, new.sigma, games + 1)
    return changed


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


class LeagueService:
    def __init__(self, games: GameService, store: LeagueStore, clock: Callable[[], datetime] = utcnow) -> None:
        self.games = games
        self.store = store
        self.clock = clock
        games.member_check = self.store.is_member
        games.finished_listeners.append(self.record_game)

    # ------------------------------------------------------------------ leagues
    async def create(self, guild_id: str, name: str, by_user: str, is_manager: bool, **options: Any) -> LeagueRow:
        if not is_manager:
            raise ServiceError("only server managers (Manage Server) can create a league")
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise ServiceError("a league name has 1 to 40 characters")
        if await self.store.league_by_name(guild_id, name) is not None:
            raise ServiceError(f"this server already has a league called {name!r}")
        merged = dict(DEFAULT_OPTIONS) | {k: v for k, v in options.items() if v is not None}
        checked = LobbyOptions(
            sets=merged["sets"], max_players=merged["max_players"], turn_limit=merged["turn_limit"],
            timeout_policy=merged["timeout_policy"], seed=0,
        ).checked()  # fmt: skip
        merged.update(sets=checked.sets)
        try:
            league_id = await self.store.create_league(guild_id, name, merged, by_user, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        await self.store.start_season(league_id, self.clock())
        return await self.store.league(league_id)

    async def find(self, guild_id: str, name: str) -> LeagueRow:
        league = await self.store.league_by_name(guild_id, name)
        if league is None:
            raise ServiceError(f"this server has no league called {name!r}")
        return league

    async def league(self, league_id: int) -> LeagueRow:
        try:
            return await self.store.league(league_id)
        except NotFound as exc:
            raise ServiceError(str(exc)) from None

    async def join(self, league_id: int, user_id: str, name: str) -> None:
        await self.league(league_id)
        try:
            await self.store.add_member(league_id, user_id, name, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None

    async def leave(self, league_id: int, user_id: str) -> None:
        try:
            await self.store.remove_member(league_id, user_id)
        except Conflict as exc:
            raise ServiceError(str(exc)) from None

    # ------------------------------------------------------------------ seasons
    async def current_season(self, league_id: int) -> int | None:
        seasons = await self.store.seasons(league_id)
        return seasons[-1].number if seasons and seasons[-1].ended_at is None else None

    async def start_season(self, league_id: int, is_manager: bool) -> int:
        if not is_manager:
            raise ServiceError("only server managers can start a season")
        await self.league(league_id)
        try:
            return await self.store.start_season(league_id, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None

    async def end_season(self, league_id: int, is_manager: bool) -> list[Standing]:
        """Close the running season; its final standings are kept as they are now."""
        if not is_manager:
            raise ServiceError("only server managers can end a season")
        season = await self.current_season(league_id)
        if season is None:
            raise ServiceError("no season is running")
        table = await self.standings(league_id, season)
        await self.store.end_season(league_id, season, [s.__dict__ for s in table], self.clock())
        return table

    # ------------------------------------------------------------------ games
    async def open_lobby(
        self, league_id: int, user_id: str, name: str, guild_id: str | None = None, channel_id: str | None = None
    ) -> GameRow:
        league = await self.league(league_id)
        if not await self.store.is_member(league_id, user_id):
            raise ServiceError(f"join the league {league.name!r} first (/league join)")
        season = await self.current_season(league_id)
        if season is None:
            raise ServiceError(f"{league.name!r} has no season running: a manager starts one with /league season")
        o = league.options
        options = LobbyOptions(
            sets=o["sets"], max_players=o["max_players"], turn_limit=o["turn_limit"], timeout_policy=o["timeout_policy"]
        )
        return await self.games.create_lobby(user_id, name, options, guild_id, channel_id, league_id=league_id)

    async def record_game(self, game_id: int) -> None:
        """Rate a finished league game (called by the game service when a game ends)."""
        row = await self.games.store.get_game(game_id)
        if row.league_id is None or row.status != "finished" or not row.result:
            return
        league = await self.store.league(row.league_id)
        seasons = await self.store.seasons(league.id)
        # The season in which the game started (it may have ended since).
        season = next((s.number for s in reversed(seasons) if s.started_at <= row.created_at), None)
        if season is None:
            return
        ranking = ranking_of(row.result)
        ratings = await self.store.ratings(league.id)
        changed = apply_result(ratings, season, ranking, league.options["season_sigma_boost"])
        try:
            await self.store.append_result(league.id, season, game_id, ranking, self.clock(), changed)
        except Conflict:
            return  # already rated

    async def rebuild(self, league_id: int | None = None) -> dict[int, int]:
        """Recompute ratings from the results log; returns results replayed per league."""
        leagues = [await self.league(league_id)] if league_id is not None else await self.store.leagues()
        done = {}
        for league in leagues:
            ratings: dict[RatingKey, Rating] = {}
            results = await self.store.results(league.id)
            for result in results:
                apply_result(ratings, result.season, result.ranking, league.options["season_sigma_boost"])
            await self.store.replace_ratings(league.id, ratings)
            done[league.id] = len(results)
        return done

    # ------------------------------------------------------------------ reading
    async def standings(self, league_id: int, season: int | None = None) -> list[Standing]:
        league = await self.league(league_id)
        seasons = await self.store.seasons(league_id)
        if season is None:
            season = seasons[-1].number if seasons else 1
        finished = next((s for s in seasons if s.number == season and s.standings is not None), None)
        if finished is not None:
            return [Standing(**row) for row in finished.standings]  # type: ignore[union-attr]
        ratings = await self.store.ratings(league_id)
        names = await self.store.members(league_id)
        totals: dict[str, int] = {}
        for (_, user), (_, _, games) in ratings.items():
            totals[user] = totals.get(user, 0) + games
        boost = league.options["season_sigma_boost"]
        rows = []
        for user in {u for (_, u) in ratings} | set(await self.store.members(league_id, active_only=True)):
            mu, sigma, games = starting_rating(ratings, season, user, boost)
            rows.append((ordinal(mu, sigma), user, mu, sigma, games))
        rows.sort(key=lambda r: (-r[0], names.get(r[1], r[1])))
        provisional = league.options["provisional_games"]
        return [
            Standing(
                i,
                user,
                names.get(user, user),
                round(o, 2),
                round(mu, 3),
                round(sigma, 3),
                games,
                totals.get(user, 0) < provisional,
            )  # fmt: skip
            for i, (o, user, mu, sigma, games) in enumerate(rows, start=1)
        ]

    async def player(self, league_id: int, user_id: str) -> dict[str, Any]:
        table = await self.standings(league_id)
        me = next((s for s in table if s.user_id == user_id), None)
        history = []
        for result in await self.store.results(league_id):
            for row in result.ranking:
                if row["user_id"] == user_id:
                    history.append({"game": result.game_id, "season": result.season, **row})
        if me is None and not history:
            raise ServiceError("that player has no rating in this league yet")
        return {"standing": me, "history": history}

    async def league_games(self, league_id: int) -> list[GameRow]:
        return [await self.games.store.get_game(i) for i in await self.store.game_ids(league_id)]
