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
is computed from them (``season_tables``), so a rebuild cannot disagree with
what players saw.

``LeagueCore`` holds the operations; ``service.leagues.service.LeagueService`` is what callers use."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any, TypeVar

from engine.language import N_, _
from locales import language_of
from service import validate
from service.announce import in_language
from service.caller import Caller, acting_for, caller
from service.clock import CLAIM_TTL
from service.core import NOTICE_HOLD, PLAYED_HOLD
from service.games import GameService, utcnow
from service.leagues.competitions import (
    SYSTEM_USER,
    CompetitionRules,
    MatchOutcome,
    TableRow,
    build_tables,
    match_outcome,
    next_divisions,
    round_robin,
    swiss_pairs,
)
from service.leagues.playoffs import PLAYOFF_ROUND, PlayoffRules
from service.leagues.ratings import (
    DEFAULT_OPTIONS,
    Standing,
    apply_result,
    display_rating,
    ordinal,
    ranking_of,
    starting_rating,
)
from service.leagues.views import FixtureView, LeagueNotice, OpenedGame, _contained
from service.lobbies import LobbyOptions
from service.validate import ServiceError
from storage import Conflict, GameRow, NotFound
from storage.leagues import (
    CompetitionRow,
    EntrantRow,
    FixtureRow,
    LeagueRow,
    LeagueStore,
    MatchEntry,
    Rating,
    RatingKey,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

class LeagueCore:
    """The league operations; ``LeagueService`` below is what callers use (each call names its caller)."""

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

    @_contained
    async def league(self, league_id: int) -> LeagueRow:
        try:
            return await self.store.league(league_id)
        except NotFound as exc:
            raise ServiceError(str(exc)) from None

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
    async def current_season(self, league_id: int) -> int | None:
        seasons = await self.store.seasons(league_id)
        return seasons[-1].number if seasons and seasons[-1].ended_at is None else None

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

    @_contained
    async def kickoff(self, league_id: int, is_manager: bool, role_ids: list[int] | None = None) -> LeagueNotice:
        """Open the season's first round (its notice speaks the league's language)."""
        with in_language(await self._language(league_id)):
            return await self._kickoff(league_id, is_manager, role_ids)

    async def _language(self, league_id: int) -> str:
        """The language of a league's public notices and games (the server's when it was created)."""
        return language_of((await self._league_row(league_id)).options.get("language"))

    async def _kickoff(self, league_id: int, is_manager: bool, role_ids: list[int] | None) -> LeagueNotice:
        """Open the first round (seeding first if nobody has been placed yet)."""
        league = await self._league_row(league_id)
        self._check_organiser(league, is_manager, role_ids, N_("kick off a season"))
        competition = await self._running_competition(league)
        if await self.store.fixtures(league_id, competition.season):
            raise ServiceError(_("the season has already kicked off"))
        entrants = await self.store.entrants(league_id, competition.season)
        if not entrants:
            entrants = await self._seed(league_id, is_manager, role_ids)
        for division in {e.division for e in entrants}:
            if sum(1 for e in entrants if e.division == division) < 2:
                raise ServiceError(_("division {n} has fewer than 2 players").format(n=division))
        rules = CompetitionRules.from_json(competition.rules)
        if rules.format == "swiss" and rules.rounds > len(entrants) - (1 - len(entrants) % 2):
            raise ServiceError(
                _("{n} players cannot play {rounds} Swiss rounds without rematches").format(
                    n=len(entrants), rounds=rules.rounds
                )
            )
        async with self._lock(league_id):
            notice = await self._open_round(league, competition, 1)
        if notice is None:
            raise ServiceError(_("the season has already kicked off"))
        return notice

    # ------------------------------------------------------------------ rounds and matches
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

    async def _open_round(self, league: LeagueRow, competition: CompetitionRow, number: int) -> LeagueNotice | None:
        """Write a round's pairings and open its games; None if it is already open."""
        rules = CompetitionRules.from_json(competition.rules)
        season = competition.season
        entrants = await self.store.entrants(league.id, season)
        names = {e.user_id: e.name for e in entrants}
        sets = rules.sets_of_round(number)
        pairs: list[tuple[int, str, str | None, list[str]]] = []
        rematch_note = False
        if rules.format == "divisions":
            for division, rounds in self._schedule(rules, entrants).items():
                if number <= len(rounds):
                    pairs += [(division, a, b, sets) for a, b in rounds[number - 1]]
        else:
            fixtures = await self.store.fixtures(league.id, season)
            played = {frozenset((f.home, f.away)) for f in fixtures if f.away is not None}
            had_bye = {f.home for f in fixtures if f.away is None}
            tables = await self._season_tables(league.id, season)
            order = [r.user_id for r in tables.get(1, [])]
            if number == 1:
                order = [e.user_id for e in sorted(entrants, key=lambda e: e.seed)]
            try:
                matches, bye = swiss_pairs(order, played, had_bye)
            except ServiceError:  # more rounds than pairings left: better a rematch than a stalled tournament
                matches, bye = swiss_pairs(order, set(), had_bye)
                rematch_note = True
            pairs = [(1, a, b, sets) for a, b in matches] + ([(1, bye, None, sets)] if bye else [])
        now = self.clock()
        deadline = now + timedelta(hours=rules.window_hours)
        try:
            ids = await self.store.add_fixtures(league.id, season, number, pairs, now, deadline)
        except Conflict:
            return None
        total = self._round_count(rules, entrants)
        notice = LeagueNotice(
            league.id, season, competition.guild_id, competition.channel_id,
            [
                _("{league}, season {season}: round {n} of {total} is open until {deadline}.").format(
                    league=league.name, season=season, n=number, total=total,
                    deadline=f"<t:{int(deadline.timestamp())}:f>",
                )
            ],
        )  # fmt: skip
        if rematch_note:
            notice.lines.append(_("No pairing without a rematch was left: this round has rematches."))
        for fixture_id, (division, home, away, _unused) in zip(ids, pairs, strict=True):
            if away is None:
                with contextlib.suppress(Conflict):  # a crash's catch-up (tick) may have given it already
                    await self.store.log_match(fixture_id, "bye", {}, SYSTEM_USER, now)
                notice.lines.append(_("{player} has a bye this round (a win).").format(player=names[home]))
                continue
            fixture = FixtureRow(fixture_id, season, number, division, home, away, sets, now, deadline, [])
            opened = await self._open_game(league, competition, fixture, names, 1)
            if opened is not None:
                notice.games.append(opened)
            notice.mentions += [home, away]
        return notice

    async def _open_game(
        self, league: LeagueRow, competition: CompetitionRow, fixture: FixtureRow, names: dict[str, str], number: int,
        best_of: int | None = None, stage: str | None = None,
    ) -> OpenedGame | None:  # fmt: skip
        """Open game ``number`` of a match (``best_of``, ``stage``: a playoff match's, else the season's
        and its round)."""
        rules = CompetitionRules.from_json(competition.rules)
        best_of = rules.best_of if best_of is None else best_of
        assert fixture.away is not None
        options = LobbyOptions(
            sets=fixture.sets, max_players=2, turn_limit=rules.turn_limit, timeout_policy=rules.timeout_policy,
            language=league.options.get("language", "en"), time_control=rules.time_control,
        )  # fmt: skip
        if number > best_of:  # a knockout match still level: one more game decides it
            match = _(" (game {n}, a deciding game)").format(n=number)
        else:
            match = _(" (game {n} of up to {best_of})").format(n=number, best_of=best_of) if best_of > 1 else ""
        division = f"division {fixture.division}, " if rules.format == "divisions" and stage is None else ""
        where = stage or f"R{fixture.round}"
        title = f"{league.name} S{competition.season} {where}: {names[fixture.home]} v {names[fixture.away]}"
        try:
            home = acting_for(fixture.home, competition.guild_id)
            row = await self.games.create_lobby(
                home, names[fixture.home], options, competition.channel_id, True, league.id
            )  # fmt: skip
            await self.store.add_fixture_game(fixture.id, number, row.id)
            await self.games.join(acting_for(fixture.away, competition.guild_id), row.id, names[fixture.away])
            started = await self.games.start(home, row.id, False, title=title + match)
        except (ServiceError, Conflict) as exc:
            # A player who left the league cannot be seated: the deadline rules the match.
            log.warning("league %s fixture %s: game %s not opened: %s", league.id, fixture.id, number, exc)
            return None
        log.info("league %s: %s%s opened as game %s (%s)", league.id, division, title, row.id, match)
        return OpenedGame(row.id, [fixture.home, fixture.away], title + match, started.outbox)

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

    async def _after_decision(self, league: LeagueRow, competition: CompetitionRow) -> LeagueNotice | None:
        """Open the next round once every match of the current one is decided."""
        rules = CompetitionRules.from_json(competition.rules)
        outcomes = [(f, o) for f, o in await self._outcomes(league.id, competition.season, rules)
                    if f.round < PLAYOFF_ROUND]  # fmt: skip
        if not outcomes:
            return None
        current = max(f.round for f, _unused in outcomes)
        if any(not o.decided for f, o in outcomes if f.round == current):
            return None
        entrants = await self.store.entrants(league.id, competition.season)
        if current >= self._round_count(rules, entrants):
            return LeagueNotice(
                league.id, competition.season, competition.guild_id, competition.channel_id,
                [_("{league}, season {season}: every match is decided. An organiser starts the playoffs "
                   "(/league playoffs) or closes the season (/league season end).").format(
                    league=league.name, season=competition.season)],
            )  # fmt: skip
        return await self._open_round(league, competition, current + 1)

    async def _told(self, notice: T) -> T:
        """An announcement (a ``LeagueNotice``, or None) on its way out: in the outbox first when the
        front end marks what it posts. Its games' openings have outbox rows of their own (their start)."""
        if not self.outbox_posts or not isinstance(notice, LeagueNotice) or not notice.lines:
            return notice
        body = {
            "season": notice.season, "guild_id": notice.guild_id, "channel_id": notice.channel_id,
            "lines": notice.lines, "mentions": notice.mentions,
        }  # fmt: skip
        holder = f"{self.games.instance_id}/league"
        now = self.clock()
        notice.outbox = [await self.games.store.add_league_notice(notice.league_id, body, holder, now + PLAYED_HOLD,
                                                                  now)]  # fmt: skip
        return notice

    async def _left_unposted(self) -> list[LeagueNotice]:
        """Announcements whose process died before posting them, or whose post failed (their hold
        over): each handed to one process, without its games (their threads are opened from their
        own outbox rows)."""
        now = self.clock()
        out = []
        for row in await self.games.store.claim_league_notices(f"{self.games.instance_id}/league", now, NOTICE_HOLD):
            body = row.body
            lines, mentions = body.get("lines"), body.get("mentions")
            season = body.get("season")
            guild, channel = body.get("guild_id"), body.get("channel_id")
            out.append(LeagueNotice(
                row.league_id, season if isinstance(season, int) else 0,
                guild if isinstance(guild, str) else None, channel if isinstance(channel, str) else None,
                [str(line) for line in lines] if isinstance(lines, list) else [],
                mentions=[str(m) for m in mentions] if isinstance(mentions, list) else [], outbox=[row.id],
            ))  # fmt: skip
        return out

    async def mark_posted(self, outbox: list[int]) -> None:
        """A front end posted the announcements of these outbox rows (``LeagueNotice.outbox``)."""
        if not (isinstance(outbox, list) and all(validate.is_int(i) and 0 < i < 2**63 for i in outbox)):
            raise ServiceError(_("outbox rows are a list of numbers"))
        await self.games.store.notices_posted(outbox, self.clock())

    async def _emit(self, notice: LeagueNotice | None) -> None:
        notice = await self._told(notice)
        if notice is None:
            return
        for listener in self.notice_listeners:
            try:
                await listener(notice)
            except Exception:  # a front end's failure must not undo a recorded result
                log.exception("league notice for league %s", notice.league_id)

    async def _match_game_finished(self, game_id: int, ranking: list[dict[str, Any]]) -> None:
        found = await self.store.fixture_of_game(game_id)
        if found is None:
            return
        league_id, season, fixture_id = found
        league = await self._league_row(league_id)
        competition = await self.store.competition(league_id, season)
        if competition is None or await self._current_season(league_id) != season:
            return  # the season's tables closed with it: a game finished later is rated, not counted
        rules = CompetitionRules.from_json(competition.rules)
        firsts = [r for r in ranking if r["rank"] == 1]
        body = {
            "game_id": game_id,
            "scores": {r["user_id"]: r["score"] for r in ranking},
            "winner": firsts[0]["user_id"] if len(firsts) == 1 else None,
        }
        async with self._lock(league_id):
            try:
                await self.store.log_match(fixture_id, "game", body, SYSTEM_USER, self.clock())
            except Conflict:
                return  # already logged
            outcomes = await self._outcomes(league_id, season, rules)
            fixture, outcome = next((f, o) for f, o in outcomes if f.id == fixture_id)
            if not outcome.decided:
                entrants = {e.user_id: e.name for e in await self.store.entrants(league_id, season)}
                opened = await self._open_game(league, competition, fixture, entrants, len(fixture.games) + 1)
                notice = LeagueNotice(league_id, season, competition.guild_id, competition.channel_id, [])
                if opened is not None:
                    notice.games.append(opened)
                    notice.mentions += opened.user_ids
                    notice.lines.append(_("{match}: the match goes on.").format(match=opened.title))
                await self._emit(notice)
                return
            following = await self._after_decision(league, competition)
        await self._emit(following)

    async def tick(self) -> list[LeagueNotice]:
        """Rule on matches still open at their deadline, then open the rounds that are due.

        Call it periodically beside the game service's ``tick``; after a restart it catches
        up on every deadline that passed meanwhile.
        """
        notices = []
        now = self.clock()
        competitions = await self.store.running_competitions()
        if self.games.store.shared:  # each competition is ruled on by one of the processes ticking
            names = [f"league:{c.league_id}:{c.season}" for c in competitions]
            taken = set(await self.games.store.claim(names, self.games.instance_id, now, CLAIM_TTL))
            competitions = [c for c, name in zip(competitions, names, strict=True) if name in taken]
        for competition in competitions:
            try:
                with in_language(await self._language(competition.league_id)):
                    notices += [await self._told(n) for n in await self._tick_competition(competition, now)]
            except Exception:  # one league's failure never stops the clock for the others
                log.exception("league %s: deadline check failed", competition.league_id)
        if self.outbox_posts:
            try:
                notices += await self._left_unposted()
            except Exception:
                log.exception("the league clock cannot read the outbox")
        return notices

    async def _tick_competition(self, competition: CompetitionRow, now: datetime) -> list[LeagueNotice]:
        league = await self._league_row(competition.league_id)
        rules = CompetitionRules.from_json(competition.rules)
        season = competition.season
        outcomes = await self._outcomes(league.id, season, rules)
        # Catch up on match games that ended while their result was not counted (a crash
        # between rating a game and logging it for its match): counted before any ruling.
        logged = {e.body["game_id"] for e in await self.store.match_log(league.id, season) if e.kind == "game"}
        late = [f.games[-1] for f, o in outcomes if not o.decided and f.games and f.games[-1] not in logged]
        for game_id in late:
            row = await self.games.store.get_game(game_id)
            if row.status == "finished" and row.result:
                await self.record_game(game_id)
                outcomes = await self._outcomes(league.id, season, rules)
        # And on a round whose opening a crash cut short: its byes, and its first games.
        unopened = [f for f, o in outcomes if not o.decided and not f.games]
        if unopened:
            names = {e.user_id: e.name for e in await self.store.entrants(league.id, season)}
            reopened = LeagueNotice(league.id, season, competition.guild_id, competition.channel_id, [])
            async with self._lock(league.id):
                for fixture in unopened:
                    if fixture.away is None:
                        with contextlib.suppress(Conflict):  # another process's clock gave it first
                            await self.store.log_match(fixture.id, "bye", {}, SYSTEM_USER, now)
                        continue
                    opened = await self._open_game(league, competition, fixture, names, 1)
                    if opened is not None:
                        reopened.games.append(opened)
                        reopened.mentions += opened.user_ids
                        reopened.lines.append(_("{match}: the match is open.").format(match=opened.title))
            await self._emit(reopened if reopened.games else None)
            outcomes = await self._outcomes(league.id, season, rules)
        due = [f for f, o in outcomes if not o.decided and f.deadline <= now]
        if not due:
            return []
        names = {e.user_id: e.name for e in await self.store.entrants(league.id, season)}
        notice = LeagueNotice(league.id, season, competition.guild_id, competition.channel_id, [])
        stalled_games = []
        for fixture in due:
            if fixture.away is None:
                continue  # a bye is decided when its round opens
            staller, stalled = None, None
            if fixture.games:
                game_id = fixture.games[-1]
                try:
                    view = await self.games.turn(Caller.system(competition.guild_id), game_id)
                except ServiceError:
                    view = None
                if view is not None and not view.finished:
                    staller, stalled = view.user_id, game_id
            if staller is not None:
                back, _taken = await self.games.store.vacation(staller)
                turn_time = timedelta(seconds=rules.turn_seconds())
                if back is not None and back > fixture.opens_at and now < back + turn_time:
                    continue  # away during the window: ruled only once they have had a turn's time back
            winner = None
            if staller is None:
                reason = "the match window closed before the match could be played"
            else:
                reason = f"the match window closed with {names.get(staller, staller)} to play"
                if rules.deadline_rule == "award":
                    winner = fixture.away if staller == fixture.home else fixture.home
            body = {"winner": winner, "staller": staller, "rule": rules.deadline_rule, "reason": reason}
            try:
                await self.store.log_match(fixture.id, "deadline", body, SYSTEM_USER, now)
            except Conflict:
                continue  # another process sharing the database ruled on it (and posts it)
            if stalled is not None:
                stalled_games.append(stalled)
            home, away = names.get(fixture.home, "?"), names.get(fixture.away, "?")
            if staller is None:
                said = _("the match window closed before the match could be played")
            else:
                said = _("the match window closed with {player} to play").format(player=names.get(staller, staller))
            if winner:
                verdict = _("{player} is awarded the match").format(player=names.get(winner, "?"))
            else:
                verdict = _("both players lose it")
            notice.lines.append(
                _("{home} v {away}: {reason}; {verdict}.").format(home=home, away=away, reason=said, verdict=verdict)
            )
            notice.mentions += [fixture.home, fixture.away]
        for game_id in stalled_games:  # the match is decided: its game stops
            await self._abort(game_id)
        async with self._lock(league.id):
            following = await self._after_decision(league, competition)
        ruled = [notice] if notice.lines else []  # every due match may have been left to wait
        return ruled + ([following] if following is not None else [])

    @_contained
    async def override(
        self, league_id: int, fixture_id: int, winner: str | None, reason: str, by_user: str, is_manager: bool,
        role_ids: list[int] | None = None,
    ) -> LeagueNotice:  # fmt: skip
        """An organiser sets a match's result (``winner`` None: a draw), with a reason for the log."""
        with in_language(await self._language(league_id)):
            return await self._override(league_id, fixture_id, winner, reason, by_user, is_manager, role_ids)

    async def _override(
        self, league_id: int, fixture_id: int, winner: str | None, reason: str, by_user: str, is_manager: bool,
        role_ids: list[int] | None,
    ) -> LeagueNotice:  # fmt: skip
        league = await self._league_row(league_id)
        self._check_organiser(league, is_manager, role_ids, N_("override a result"))
        competition = await self._running_competition(league)
        reason = " ".join(reason.split())
        if not 3 <= len(reason) <= 200:
            raise ServiceError(_("give a reason of 3 to 200 characters (it is kept in the log)"))
        fixtures = {f.id: f for f in await self.store.fixtures(league_id, competition.season)}
        fixture = fixtures.get(fixture_id)
        if fixture is None or fixture.away is None:
            raise ServiceError(_("match #{id} is not a match of this season").format(id=fixture_id))
        if winner is not None and winner not in (fixture.home, fixture.away):
            raise ServiceError(_("the winner must be one of the match's two players"))
        names = {e.user_id: e.name for e in await self.store.entrants(league_id, competition.season)}
        await self.store.log_match(fixture_id, "override", {"winner": winner, "reason": reason}, by_user, self.clock())
        verdict = _("{player} wins").format(player=names.get(winner, "?")) if winner else _("a draw")
        notice = LeagueNotice(
            league_id, competition.season, competition.guild_id, competition.channel_id,
            [
                _("Result set by an organiser: {home} v {away}, {verdict} ({reason}).").format(
                    home=names[fixture.home], away=names[fixture.away], verdict=verdict, reason=reason
                )
            ],
            mentions=[fixture.home, fixture.away],
        )  # fmt: skip
        async with self._lock(league_id):
            following = await self._after_decision(league, competition)
        if following is not None:
            notice.lines += following.lines
            notice.games += following.games
            notice.mentions += following.mentions
        return notice

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
    _league_row = league
    _current_season = current_season
    _competition = competition
    _entrants = entrants
    _standings = standings
    _season_tables = season_tables
    _seed = seed
    _rating_changes = rating_changes
