"""Leagues: members, seasons, rated games and standings.

Ratings use openskill's Plackett-Luce model: every finished league game is a
free-for-all ranked by final score (ties share a rank; players who forfeited
or were removed rank last). The results log is append-only; the ratings table
is a cache that ``rebuild`` recomputes from it with the very same steps, so an
incremental update and a rebuild give identical numbers.

A new season starts from the ratings the players had, with their uncertainty
widened by ``season_sigma_boost`` (added in quadrature, capped at the default).
Players with fewer than ``provisional_games`` rated games are provisional.
Ratings are ranked by the conservative ordinal mu - 3 sigma and shown to players
on a friendly scale (``display_rating``: 1000 + 40 x ordinal, never negative).

A season is either a rating ladder (members open rated lobbies when they like)
or a competition (``CompetitionRules``): divisions playing a round robin with
promotion and relegation, or a Swiss tournament of N rounds. The bot opens each
round's matches (2-player games, single or best of 3), resolves matches still
open at their deadline by the league's rule, and organisers may override a
result with a reason. Fixtures and the match log are append-only; every table
is computed from them (``season_tables``, in ``service.leagues.reading``), so a rebuild cannot
disagree with what players saw.

``LeagueCore`` holds the operations on leagues, members, seasons, seeding and rated games (what they
show: ``service.leagues.reading``; a competition's rounds: ``service.leagues.rounds``);
``service.leagues.service.LeagueService`` is what callers use."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from datetime import datetime
from typing import Any

from engine.language import N_, _
from service import validate
from service.announce import in_language
from service.caller import Caller, caller
from service.games import GameService, utcnow
from service.leagues.competitions import (
    CompetitionRules,
    TableRow,
    next_divisions,
)
from service.leagues.ratings import (
    DEFAULT_OPTIONS,
    Standing,
    apply_result,
    ordinal,
    ranking_of,
    starting_rating,
)
from service.leagues.reading import LeagueReading
from service.leagues.views import LeagueNotice, _contained
from service.lobbies import LobbyOptions
from service.validate import ServiceError
from storage import Conflict, GameRow
from storage.leagues import (
    EntrantRow,
    LeagueRow,
    LeagueStore,
    Rating,
    RatingKey,
)

log = logging.getLogger(__name__)


class LeagueCore(LeagueReading):
    """The league operations (what they show: ``LeagueReading``); ``LeagueService`` is what callers use
    (each call names its caller)."""

    def __init__(self, games: GameService, store: LeagueStore, clock: Callable[[], datetime] = utcnow) -> None:
        self.games = games
        self.store = store
        self.clock = clock
        # Told what a competition did by itself after a game ended (the next game of a
        # best of 3, the next round); the Discord cog posts it.
        self.notice_listeners: list[Callable[[LeagueNotice], Awaitable[Any]]] = []
        # A front end that marks each announcement posted (``mark_posted``) says so: then each is
        # written to the outbox before it is handed out, and one it did not post (its process
        # died, its post failed) is handed out again by the next league tick, of any process.
        self.outbox_posts = False
        self._locks: dict[int, asyncio.Lock] = {}
        games.member_check = self.store.is_member
        games.finished_listeners.append(self.record_game)

    def _lock(self, league_id: int) -> asyncio.Lock:
        return self._locks.setdefault(league_id, asyncio.Lock())

    # ------------------------------------------------------------------ leagues
    async def create(self, guild_id: str, name: str, by_user: str, is_manager: bool, **options: Any) -> LeagueRow:
        if not is_manager:
            raise ServiceError(_("only server managers (Manage Server) can create a league"))
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise ServiceError(_("a league name has 1 to 40 characters"))
        if await self.store.league_by_name(guild_id, name) is not None:
            raise ServiceError(_("this server already has a league called {name!r}").format(name=name))
        merged = dict(DEFAULT_OPTIONS) | {k: v for k, v in options.items() if v is not None}
        checked = LobbyOptions(
            sets=merged["sets"], max_players=merged["max_players"], turn_limit=merged["turn_limit"],
            timeout_policy=merged["timeout_policy"], seed=0, language=merged["language"],
            time_control=merged["time_control"],
        ).checked()  # fmt: skip
        merged.update(sets=checked.sets, time_control=checked.time_control)
        try:
            league_id = await self.store.create_league(guild_id, name, merged, by_user, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        await self.store.start_season(league_id, self.clock())
        return await self.store.league(league_id)

    async def find(self, guild_id: str, name: str) -> LeagueRow:
        league = await self.store.league_by_name(guild_id, name)
        if league is None:
            raise ServiceError(_("this server has no league called {name!r}").format(name=name[:40]))
        return league

    @staticmethod
    def may_organise(league: LeagueRow, is_manager: bool, role_ids: list[int] | None = None) -> bool:
        """Server managers, and members of the league's organiser role, run its seasons."""
        role = league.options.get("organiser_role")
        return is_manager or (role is not None and int(role) in (role_ids or []))

    def _check_organiser(self, league: LeagueRow, is_manager: bool, role_ids: list[int] | None, what: str) -> None:
        if not self.may_organise(league, is_manager, role_ids):
            raise ServiceError(_("only server managers or the league's organisers can {action}").format(action=_(what)))

    @_contained
    async def set_organiser_role(self, league_id: int, role_id: int | None, is_manager: bool) -> LeagueRow:
        """Server managers name the role whose members run the league's seasons (None: nobody else)."""
        if not is_manager:
            raise ServiceError(_("only server managers (Manage Server) can name a league's organisers"))
        await self._league_row(league_id)
        await self.store.set_league_option(league_id, "organiser_role", role_id)
        return await self._league_row(league_id)

    @_contained
    async def join(self, league_id: int, user_id: str, name: str) -> None:
        user_id, name = validate.user_id(user_id), validate.display_name(name)
        await self._league_row(league_id)
        try:
            await self.store.add_member(league_id, user_id, name, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None

    @_contained
    async def leave(self, league_id: int, user_id: str) -> None:
        try:
            await self.store.remove_member(league_id, user_id)
        except Conflict as exc:
            raise ServiceError(str(exc)) from None

    # ------------------------------------------------------------------ seasons
    @_contained
    async def start_season(
        self, league_id: int, is_manager: bool, rules: CompetitionRules | None = None,
        guild_id: str | None = None, channel_id: str | None = None, role_ids: list[int] | None = None,
    ) -> int:  # fmt: skip
        """A new season: a rating ladder, or (with ``rules``) a competition whose divisions are
        seeded next and whose first round opens at ``kickoff``."""
        league = await self._league_row(league_id)
        self._check_organiser(league, is_manager, role_ids, N_("start a season"))
        checked = rules.checked() if rules is not None else None
        try:
            number = await self.store.start_season(league_id, self.clock())
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        if checked is not None:
            await self.store.create_competition(league_id, number, asdict(checked), guild_id, channel_id, self.clock())
        return number

    @_contained
    async def end_season(self, league_id: int, is_manager: bool, role_ids: list[int] | None = None) -> list[Standing]:
        """Close the running season; its final standings (and a competition's tables and
        movements) are kept as they are now."""
        league = await self._league_row(league_id)
        self._check_organiser(league, is_manager, role_ids, N_("end a season"))
        season = await self._current_season(league_id)
        if season is None:
            raise ServiceError(_("no season is running"))
        table = await self._standings(league_id, season)
        archive = await self._archive(league_id, season, table)
        await self.store.end_season(league_id, season, archive, self.clock())  # type: ignore[arg-type]
        competition = await self.store.competition(league_id, season)
        if competition is not None:  # matches left open end with the season
            rules = CompetitionRules.from_json(competition.rules)
            for fixture, outcome in await self._outcomes(league_id, season, rules):
                if not outcome.decided and fixture.games:
                    await self._abort(fixture.games[-1])
        return table

    async def _abort(self, game_id: int) -> None:
        with contextlib.suppress(ServiceError):
            row = await self.games.store.get_game(game_id)
            await self.games.abort(Caller.system(row.guild_id), game_id)

    async def _members_by_rating(self, league_id: int, season: int) -> list[tuple[str, str]]:
        """Active members, best rated first: (user id, name)."""
        league = await self._league_row(league_id)
        ratings = await self.store.ratings(league_id)
        members = await self.store.members(league_id, active_only=True)
        boost = league.options["season_sigma_boost"]

        def strength(user: str) -> tuple[float, str]:
            mu, sigma, _unused = starting_rating(ratings, season, user, boost)
            return (-ordinal(mu, sigma), members[user].lower())

        return [(u, members[u]) for u in sorted(members, key=strength)]

    @_contained
    async def seed(self, league_id: int, is_manager: bool, role_ids: list[int] | None = None) -> list[EntrantRow]:
        """Put the active members into divisions: last season's movements first (promoted up,
        relegated down), newcomers by rating into the lowest division; without a previous
        divisional season, by rating alone. Swiss: everyone in one group, seeded by rating."""
        league = await self._league_row(league_id)
        self._check_organiser(league, is_manager, role_ids, N_("seed a season"))
        competition = await self._running_competition(league)
        rules = CompetitionRules.from_json(competition.rules)
        ranked = await self._members_by_rating(league_id, competition.season)
        if len(ranked) < 2:
            raise ServiceError(_("a competition needs at least 2 members"))
        placed: dict[str, int] = {}
        if rules.format == "divisions":
            placed = await self._previous_divisions(league_id, competition.season)
        seeds = {user: i for i, (user, _unused) in enumerate(ranked, start=1)}
        names = dict(ranked)
        if rules.format == "swiss":
            division_of = dict.fromkeys(seeds, 1)
        else:
            kept = {u: d for u, d in placed.items() if u in names}
            division_of = {}
            # Compact the divisions that stayed (a division emptied by departures closes).
            for new, old in enumerate(sorted(set(kept.values())), start=1):
                division_of.update({u: new for u, d in kept.items() if d == old})
            newcomers = [u for u, _unused in ranked if u not in division_of]
            size = rules.division_size
            bottom = max(division_of.values(), default=0)
            for user in newcomers:
                if bottom == 0 or sum(1 for d in division_of.values() if d == bottom) >= size:
                    bottom += 1
                division_of[user] = bottom
            last = [u for u, d in division_of.items() if d == bottom]
            if len(last) < 2 and bottom > 1:  # a division of one plays nobody: join the one above
                for user in last:
                    division_of[user] = bottom - 1
        entrants = [EntrantRow(u, names[u], division_of[u], seeds[u]) for u in seeds]
        try:
            await self.store.set_entrants(league_id, competition.season, entrants)
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.store.entrants(league_id, competition.season)

    @_contained
    async def entrants(self, league_id: int) -> list[EntrantRow]:
        """The running competition's players by division and seed (empty until seeded)."""
        competition = await self._running_competition(await self._league_row(league_id))
        return await self.store.entrants(league_id, competition.season)

    async def _previous_divisions(self, league_id: int, season: int) -> dict[str, int]:
        for past in reversed([s for s in await self.store.seasons(league_id) if s.number < season]):
            archive = past.standings
            if isinstance(archive, dict) and archive.get("format") == "divisions":
                tables = {int(d): [TableRow(**r) for r in rows] for d, rows in archive["tables"].items()}
                return next_divisions(tables)
        return {}

    @_contained
    async def assign(
        self, league_id: int, user_id: str, division: int, is_manager: bool, role_ids: list[int] | None = None
    ) -> list[EntrantRow]:
        """An organiser puts one member into a division (before kick-off)."""
        league = await self._league_row(league_id)
        self._check_organiser(league, is_manager, role_ids, N_("assign divisions"))
        competition = await self._running_competition(league)
        entrants = await self.store.entrants(league_id, competition.season)
        if not entrants:
            entrants = await self._seed(league_id, is_manager, role_ids)
        if not await self.store.is_member(league_id, user_id):
            raise ServiceError(_("only members of the league can be placed in a division"))
        if not 1 <= division <= max(e.division for e in entrants) + 1:
            raise ServiceError(_("that division does not exist (a new one is numbered one below the last)"))
        by_user = {e.user_id: e for e in entrants}
        if user_id in by_user:
            by_user[user_id].division = division
        else:
            members = await self.store.members(league_id)
            by_user[user_id] = EntrantRow(user_id, members[user_id], division, len(by_user) + 1)
        try:
            await self.store.set_entrants(league_id, competition.season, list(by_user.values()))
        except Conflict as exc:
            raise ServiceError(str(exc)) from None
        return await self.store.entrants(league_id, competition.season)

    # ------------------------------------------------------------------ ladder games
    async def open_lobby(self, who: Caller, league_id: int, name: str, channel_id: str | None = None) -> GameRow:
        who = caller(who)
        league = await self._league_row(league_id)
        if not who.may_see(league.guild_id):
            raise ServiceError(_("there is no such league in this server"))
        if not await self.store.is_member(league_id, who.user_id):
            raise ServiceError(_("join the league {league!r} first (/league join)").format(league=league.name))
        season = await self._current_season(league_id)
        if season is None:
            raise ServiceError(
                _("{league!r} has no season running: a manager starts one with /league season").format(
                    league=league.name
                )
            )
        if await self.store.competition(league_id, season) is not None:
            raise ServiceError(_("this season is a competition: the bot opens its matches (/league fixtures)"))
        o = league.options
        options = LobbyOptions(
            sets=o["sets"], max_players=o["max_players"], turn_limit=o["turn_limit"],
            timeout_policy=o["timeout_policy"], language=o.get("language", "en"),
            time_control=o.get("time_control", "per-turn"),
        )  # fmt: skip
        return await self.games.create_lobby(who, name, options, channel_id, league_id=league_id)

    async def record_game(self, game_id: int) -> None:
        """Rate a finished league game and count it for its match (called by the game service)."""
        row = await self.games.log.row(validate.game_id(game_id))
        if row.league_id is None or row.status != "finished" or not row.result:
            return
        league = await self.store.league(row.league_id)
        seasons = await self.store.seasons(league.id)
        # The season in which the game started (it may have ended since).
        season = next((s.number for s in reversed(seasons) if s.started_at <= row.created_at), None)
        if season is None:
            return
        ranking = ranking_of(row.result)
        boost = league.options["season_sigma_boost"]

        def rate(ratings: dict[RatingKey, Rating]) -> dict[RatingKey, Rating]:
            return apply_result(ratings, season, ranking, boost)

        with contextlib.suppress(Conflict):  # already rated: it may still have to count for its match
            await self.store.append_result(league.id, season, game_id, ranking, self.clock(), rate)
        found = await self.store.fixture_of_game(game_id)
        if found is not None:  # a match game: what follows is posted in the league's language
            with in_language(await self._language(found[0])):
                await self._match_game_finished(game_id, ranking)

    async def _match_game_finished(self, game_id: int, ranking: list[dict[str, Any]]) -> None:
        """A rated game that is one of a competition's match games counts for its match: see
        ``service.leagues.rounds.CompetitionRounds`` (a league of rating ladders only has none)."""

    async def rebuild(self, league_id: int | None = None) -> dict[int, int]:
        """Recompute ratings from the results log, and the kept tables of ended seasons from
        the ratings, fixtures and match log; returns results replayed per league. A league whose
        rows are damaged is left as it is and named in ``self.unrebuilt`` (id -> why); the others
        are rebuilt."""
        ids = [league_id] if league_id is not None else await self.store.league_ids()
        done: dict[int, int] = {}
        self.unrebuilt: dict[int, str] = {}
        for one in ids:
            try:
                done[one] = await self._rebuild_one(one)
            except ServiceError as exc:
                if league_id is not None:
                    raise
                self.unrebuilt[one] = str(exc)
        return done

    @_contained
    async def _rebuild_one(self, league_id: int) -> int:
        for league in [await self._league_row(league_id)]:
            ratings: dict[RatingKey, Rating] = {}
            results = await self.store.results(league.id)
            for result in results:
                apply_result(ratings, result.season, result.ranking, league.options["season_sigma_boost"])
            await self.store.replace_ratings(league.id, ratings)
            for past in await self.store.seasons(league.id):
                if past.ended_at is not None and isinstance(past.standings, dict):
                    ladder = await self._ratings_table(league, past.number)
                    archive = await self._archive(league.id, past.number, ladder)
                    await self.store.replace_season_standings(league.id, past.number, archive)
        return len(results)

    # The core's own versions, for its internal calls (the public ones check the caller).
    _entrants = entrants
    _seed = seed
