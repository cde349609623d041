"""What a league shows: its rows, seasons and competitions read back, the ratings table, the
division tables, fixtures and history (``LeagueReading``). Every table is computed from the
append-only logs (results, fixtures, match log), so a rebuild cannot disagree with what players
saw. ``service.leagues.core.LeagueCore`` adds the operations that change a league."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime
from typing import Any

from engine.language import _
from locales import language_of
from service.games import GameService
from service.leagues.competitions import (
    CompetitionRules,
    MatchOutcome,
    TableRow,
    build_tables,
    match_outcome,
    round_robin,
)
from service.leagues.playoffs import PLAYOFF_ROUND, PlayoffRules
from service.leagues.ratings import Standing, display_rating, ordinal, starting_rating
from service.leagues.views import FixtureView, _contained
from service.validate import ServiceError
from storage import GameRow, NotFound
from storage.leagues import CompetitionRow, EntrantRow, FixtureRow, LeagueRow, LeagueStore, MatchEntry


class LeagueReading:
    """The reading side of the league service (the state is set up by ``LeagueCore``)."""

    games: GameService
    store: LeagueStore
    clock: Callable[[], datetime]

    @_contained
    async def league(self, league_id: int) -> LeagueRow:
        try:
            return await self.store.league(league_id)
        except NotFound as exc:
            raise ServiceError(str(exc)) from None

    @_contained
    async def current_season(self, league_id: int) -> int | None:
        seasons = await self.store.seasons(league_id)
        return seasons[-1].number if seasons and seasons[-1].ended_at is None else None

    async def _archive(self, league_id: int, season: int, ladder: list[Standing]) -> Any:
        """What an ended season keeps: the ratings table, plus a competition's tables."""
        competition = await self.store.competition(league_id, season)
        if competition is None:
            return [asdict(s) for s in ladder]
        tables = await self._season_tables(league_id, season)
        return {
            "ratings": [asdict(s) for s in ladder],
            "format": competition.rules["format"],
            "tables": {str(d): [asdict(r) for r in rows] for d, rows in tables.items()},
        }

    @_contained
    async def competition(self, league_id: int, season: int | None = None) -> CompetitionRow | None:
        if season is None:
            season = await self._current_season(league_id)
        return None if season is None else await self.store.competition(league_id, season)

    async def _running_competition(self, league: LeagueRow) -> CompetitionRow:
        season = await self._current_season(league.id)
        competition = None if season is None else await self.store.competition(league.id, season)
        if competition is None:
            raise ServiceError(
                _("{league!r} has no competition running (its season is a rating ladder)").format(league=league.name)
            )
        return competition

    def _schedule(self, rules: CompetitionRules, entrants: list[EntrantRow]) -> dict[int, list[list[tuple[str, str]]]]:
        """A round robin's rounds, per division (entrants in seed order)."""
        out = {}
        for division in sorted({e.division for e in entrants}):
            players = [e.user_id for e in sorted(entrants, key=lambda e: e.seed) if e.division == division]
            out[division] = round_robin(players)
        return out

    def _round_count(self, rules: CompetitionRules, entrants: list[EntrantRow]) -> int:
        if rules.format == "swiss":
            return rules.rounds
        return max((len(r) for r in self._schedule(rules, entrants).values()), default=0)

    async def _outcomes(
        self, league_id: int, season: int, rules: CompetitionRules
    ) -> list[tuple[FixtureRow, MatchOutcome]]:
        fixtures = await self.store.fixtures(league_id, season)
        entries: dict[int, list[MatchEntry]] = {}
        for entry in await self.store.match_log(league_id, season):
            entries.setdefault(entry.fixture_id, []).append(entry)
        knockout = None
        if any(f.round >= PLAYOFF_ROUND for f in fixtures):  # the playoffs' matches: their own best-of
            playoffs = await self.store.playoffs(league_id, season)
            knockout = PlayoffRules(**playoffs.rules) if playoffs is not None else None
        out = []
        for f in fixtures:
            if f.round >= PLAYOFF_ROUND and knockout is not None:
                out.append((f, match_outcome(f, entries.get(f.id, []), knockout.best_of, knockout=True)))
            else:
                out.append((f, match_outcome(f, entries.get(f.id, []), rules.best_of)))
        return out

    # ------------------------------------------------------------------ reading
    @_contained
    async def standings(self, league_id: int, season: int | None = None) -> list[Standing]:
        """The ratings table of a season (for a competition: beside its division tables)."""
        league = await self._league_row(league_id)
        seasons = await self.store.seasons(league_id)
        if season is None:
            season = seasons[-1].number if seasons else 1
        finished = next((s for s in seasons if s.number == season and s.standings is not None), None)
        if finished is not None:
            kept = finished.standings
            rows = kept["ratings"] if isinstance(kept, dict) else kept
            return [Standing(**row) for row in rows]  # type: ignore[union-attr]
        return await self._ratings_table(league, season)

    async def _ratings_table(self, league: LeagueRow, season: int) -> list[Standing]:
        ratings = await self.store.ratings(league.id)
        names = await self.store.members(league.id)
        totals: dict[str, int] = {}
        for (s, user), (_unused, _unused, games) in ratings.items():
            if s <= season:
                totals[user] = totals.get(user, 0) + games
        boost = league.options["season_sigma_boost"]
        upto = {k: v for k, v in ratings.items() if k[0] <= season}
        rows = []
        for user in {u for (_unused, u) in upto} | set(await self.store.members(league.id, active_only=True)):
            mu, sigma, games = starting_rating(upto, season, user, boost)
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

    @_contained
    async def rating_changes(self, league_id: int, season: int) -> dict[str, tuple[int, int, bool]]:
        """user -> (friendly rating now, change since the season began, provisional)."""
        league = await self._league_row(league_id)
        ratings = await self.store.ratings(league_id)
        boost = league.options["season_sigma_boost"]
        before_season = {k: v for k, v in ratings.items() if k[0] < season}
        upto = {k: v for k, v in ratings.items() if k[0] <= season}
        provisional = league.options["provisional_games"]
        out = {}
        users = {u for (_unused, u) in upto} | {e.user_id for e in await self.store.entrants(league_id, season)}
        for user in users:
            mu0, sigma0, _unused = starting_rating(before_season, season, user, boost)
            mu, sigma, _unused = starting_rating(upto, season, user, boost)
            games = sum(g for (s, u), (_unused, _unused, g) in upto.items() if u == user)
            now = display_rating(mu, sigma)
            out[user] = (now, now - display_rating(mu0, sigma0), games < provisional)
        return out

    @_contained
    async def season_tables(self, league_id: int, season: int | None = None) -> dict[int, list[TableRow]]:
        """A competition season's division tables (Swiss: one table), computed from the log."""
        if season is None:
            season = await self._current_season(league_id) or max(
                (s.number for s in await self.store.seasons(league_id)), default=1
            )
        competition = await self.store.competition(league_id, season)
        if competition is None:
            raise ServiceError(_("season {n} is a rating ladder, not a competition").format(n=season))
        rules = CompetitionRules.from_json(competition.rules)
        return build_tables(
            rules,
            await self.store.entrants(league_id, season),
            await self.store.fixtures(league_id, season),
            await self.store.match_log(league_id, season),
            await self._rating_changes(league_id, season),
        )

    @_contained
    async def fixtures_for(self, league_id: int, user_id: str) -> list[FixtureView]:
        """A player's matches still to play this season: the open ones with their games and
        deadline, then (in a round robin) the later rounds of the schedule."""
        league = await self._league_row(league_id)
        competition = await self._running_competition(league)
        rules = CompetitionRules.from_json(competition.rules)
        entrants = await self.store.entrants(league_id, competition.season)
        names = {e.user_id: e.name for e in entrants}
        outcomes = await self._outcomes(league_id, competition.season, rules)
        out = []
        for fixture, outcome in outcomes:
            if user_id in (fixture.home, fixture.away) and fixture.away is not None and not outcome.decided:
                out.append(self._fixture_view(fixture, names, outcome))
        current = max((f.round for f, _unused in outcomes), default=0)
        if rules.format == "divisions":
            for division, rounds in self._schedule(rules, entrants).items():
                for number, pairs in enumerate(rounds, start=1):
                    for home, away in pairs:
                        if number > current and user_id in (home, away):
                            sets = rules.sets_of_round(number)
                            now = self.clock()
                            fixture = FixtureRow(
                                0, competition.season, number, division, home, away, sets, now, now, []
                            )
                            view = self._fixture_view(fixture, names, None)
                            view.deadline = None
                            out.append(view)
        return out

    @staticmethod
    def _fixture_view(fixture: FixtureRow, names: dict[str, str], outcome: MatchOutcome | None) -> FixtureView:
        return FixtureView(
            fixture.id, fixture.round, fixture.division, fixture.home, names.get(fixture.home, fixture.home),
            fixture.away, names.get(fixture.away, fixture.away) if fixture.away else None, fixture.sets,
            fixture.deadline, fixture.games, outcome,
        )  # fmt: skip

    @_contained
    async def progress(self, league_id: int) -> list[FixtureView]:
        """Every match of the current round, decided or not (for organisers)."""
        league = await self._league_row(league_id)
        competition = await self._running_competition(league)
        rules = CompetitionRules.from_json(competition.rules)
        names = {e.user_id: e.name for e in await self.store.entrants(league_id, competition.season)}
        outcomes = await self._outcomes(league_id, competition.season, rules)
        current = max((f.round for f, _unused in outcomes), default=0)
        return [self._fixture_view(f, names, o) for f, o in outcomes if f.round == current]

    @_contained
    async def history(self, league_id: int) -> list[dict[str, Any]]:
        """The season archive: each season's format, dates, and winners (and movements)."""
        out = []
        for past in await self.store.seasons(league_id):
            entry: dict[str, Any] = {
                "season": past.number, "started_at": past.started_at, "ended_at": past.ended_at,
                "format": "ladder", "leaders": [], "up": [], "down": [],
            }  # fmt: skip
            kept = past.standings
            if isinstance(kept, dict):
                entry["format"] = kept["format"]
                for division, rows in sorted(kept["tables"].items(), key=lambda kv: int(kv[0])):
                    if rows:
                        entry["leaders"].append((int(division), rows[0]["name"]))
                    entry["up"] += [r["name"] for r in rows if r["zone"] == "up"]
                    entry["down"] += [r["name"] for r in rows if r["zone"] == "down"]
            elif kept:
                entry["leaders"] = [(0, row["name"]) for row in kept[:3]]
            else:
                competition = await self.store.competition(league_id, past.number)
                entry["format"] = competition.rules["format"] if competition else "ladder"
                entry["leaders"] = []
            out.append(entry)
        return out

    @_contained
    async def player(self, league_id: int, user_id: str) -> dict[str, Any]:
        table = await self._standings(league_id)
        me = next((s for s in table if s.user_id == user_id), None)
        history = []
        for result in await self.store.results(league_id):
            for row in result.ranking:
                if row["user_id"] == user_id:
                    history.append({"game": result.game_id, "season": result.season, **row})
        if me is None and not history:
            raise ServiceError(_("that player has no rating in this league yet"))
        return {"standing": me, "history": history}

    @_contained
    async def league_games(self, league_id: int) -> list[GameRow]:
        return [await self.games.store.get_game(i) for i in await self.store.game_ids(league_id)]

    # The core's own versions, for its internal calls (the public ones below check the caller).

    async def _language(self, league_id: int) -> str:
        """The language of a league's public notices and games (the server's when it was created)."""
        return language_of((await self._league_row(league_id)).options.get("language"))

    # The reading's own versions, for internal calls (the public ones check the caller).
    _league_row = league
    _current_season = current_season
    _competition = competition
    _standings = standings
    _season_tables = season_tables
    _rating_changes = rating_changes
