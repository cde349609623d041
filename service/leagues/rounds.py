"""A competition's rounds and matches: the kick-off, each round's pairings and games, a match's
next game, the deadlines ruled by the league clock (``tick``), an organiser's ruling, and the
announcements they make (written to the outbox first when the front end marks what it posts).
``CompetitionRounds`` extends ``LeagueCore`` (members, seasons, seeding, ratings); the playoffs
(``service.leagues.knockout``) extend it in turn."""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any, TypeVar

from engine.language import N_, _
from service import validate
from service.announce import in_language
from service.caller import Caller, acting_for
from service.clock import CLAIM_TTL
from service.core import NOTICE_HOLD, PLAYED_HOLD
from service.leagues.competitions import (
    SYSTEM_USER,
    CompetitionRules,
    swiss_pairs,
)
from service.leagues.core import LeagueCore
from service.leagues.playoffs import PLAYOFF_ROUND
from service.leagues.views import LeagueNotice, OpenedGame, _contained
from service.lobbies import LobbyOptions
from service.validate import ServiceError
from storage import Conflict
from storage.leagues import CompetitionRow, FixtureRow, LeagueRow

log = logging.getLogger(__name__)
T = TypeVar("T")


class CompetitionRounds(LeagueCore):
    """The league operations of a competition's rounds and matches (see the module)."""

    @_contained
    async def kickoff(self, league_id: int, is_manager: bool, role_ids: list[int] | None = None) -> LeagueNotice:
        """Open the season's first round (its notice speaks the league's language)."""
        with in_language(await self._language(league_id)):
            return await self._kickoff(league_id, is_manager, role_ids)

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
