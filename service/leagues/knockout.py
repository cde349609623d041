"""The playoffs' operations: starting a season's bracket, opening its matches as results come
in, the champion, and the bracket as the front ends show it (``playoffs`` holds the pure part)."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from engine.language import N_, _
from service.announce import in_language
from service.leagues.competitions import CompetitionRules
from service.leagues.playoffs import (
    PENDING,
    PLAYOFF_ROUND,
    BracketMatch,
    BracketState,
    PlayoffRules,
    build_bracket,
    column_name,
    resolve,
    stage_name,
)
from service.leagues.rounds import CompetitionRounds
from service.leagues.views import FixtureView, LeagueNotice, OpenedGame, _contained
from service.validate import ServiceError
from storage import Conflict
from storage.leagues import CompetitionRow, FixtureRow, LeagueRow, PlayoffRow

log = logging.getLogger(__name__)

CHAMPION_CLAIM = timedelta(days=3650)  # a season's champion is announced once, by one process


@dataclass
class BracketBox:
    """One match of the bracket as a picture or a list shows it."""

    number: int
    bracket: str  # "W", "L", "F"
    stage: str
    home: str | None  # a name; None: nobody (a bye); "?" not known yet
    away: str | None
    home_won: float
    away_won: float
    winner: str | None  # "home" | "away" | None
    state: str  # "waiting" (its players not known), "open", "decided", "walkover"
    feeds: list[int]  # the matches whose winners play this one (the picture's lines)
    fixture_id: int | None = None
    games: tuple[int, ...] = ()
    column: str = ""  # the short heading of its round in a picture ("Semi-finals", "Round 2")


@dataclass
class BracketView:
    league: str
    season: int
    best_of: int
    double: bool
    boxes: list[BracketBox]
    champion: str | None  # a name, once the final is decided


class KnockoutCore(CompetitionRounds):
    """``CompetitionRounds`` with playoffs after a competition's groups."""

    @_contained
    async def start_playoffs(
        self, league_id: int, rules: PlayoffRules, is_manager: bool, role_ids: list[int] | None = None
    ) -> LeagueNotice:
        """Seed the top players of the finished groups into a bracket and open its first matches."""
        with in_language(await self._language(league_id)):
            league = await self._league_row(league_id)
            self._check_organiser(league, is_manager, role_ids, N_("start the playoffs"))
            competition = await self._running_competition(league)
            season = competition.season
            group_rules = CompetitionRules.from_json(competition.rules)
            outcomes = [
                (f, o) for f, o in await self._outcomes(league_id, season, group_rules) if f.round < PLAYOFF_ROUND
            ]
            entrants = await self.store.entrants(league_id, season)
            if not outcomes:
                raise ServiceError(_("the season has not kicked off yet: its groups come first"))
            open_matches = sum(1 for _f, o in outcomes if not o.decided)
            last = max(f.round for f, _o in outcomes)
            if open_matches or last < self._round_count(group_rules, entrants):
                raise ServiceError(
                    _("the groups are not over ({n} matches still open, round {round} of {total}): "
                      "the playoffs start once every group match is decided").format(
                        n=open_matches, round=last, total=self._round_count(group_rules, entrants))
                )  # fmt: skip
            rules = rules.checked(len(entrants))
            seeds = self._seeds(await self._season_tables(league_id, season), rules.top)
            try:
                await self.store.create_playoffs(league_id, season, asdict(rules), seeds, self.clock())
            except Conflict as exc:
                raise ServiceError(str(exc)) from None
            async with self._lock(league_id):
                playoffs = await self.store.playoffs(league_id, season)
                assert playoffs is not None
                opened = await self._advance_playoffs(league, competition, playoffs)
            notice = opened or LeagueNotice(league_id, season, competition.guild_id, competition.channel_id, [])
            names = {e.user_id: e.name for e in entrants}
            kind = _("double elimination") if rules.double else _("single elimination")
            head = _("{league}, season {season}: the playoffs begin ({kind}, best of {n}). Seeds: {seeds}.").format(
                league=league.name, season=season, kind=kind, n=rules.best_of,
                seeds=", ".join(f"{i}. {names.get(u, u)}" for i, u in enumerate(seeds, start=1)),
            )  # fmt: skip
            notice.lines.insert(0, head)
            return notice

    @staticmethod
    def _seeds(tables: dict[int, list[Any]], top: int) -> list[str]:
        """The best ``top`` of the groups: the group winners first (the better record first, then
        the lower division number), then the runners-up, and so on."""
        rows = [row for table in tables.values() for row in table]
        rows.sort(key=lambda r: (r.position, -r.points, -(r.scored - r.against), -r.scored, r.division))
        return [r.user_id for r in rows[:top]]

    async def _after_decision(self, league: LeagueRow, competition: CompetitionRow) -> LeagueNotice | None:
        playoffs = await self.store.playoffs(league.id, competition.season)
        if playoffs is None:
            return await super()._after_decision(league, competition)
        return await self._advance_playoffs(league, competition, playoffs)

    async def _open_game(
        self, league: LeagueRow, competition: CompetitionRow, fixture: FixtureRow, names: dict[str, str], number: int,
        best_of: int | None = None, stage: str | None = None,
    ) -> OpenedGame | None:  # fmt: skip
        """A playoff match's next game carries the playoffs' best-of and the match's stage."""
        if fixture.round >= PLAYOFF_ROUND and (best_of is None or stage is None):
            playoffs = await self.store.playoffs(league.id, competition.season)
            if playoffs is not None:
                rules = PlayoffRules(**playoffs.rules)
                bracket = build_bracket(len(playoffs.seeds), rules.double)
                match = bracket[fixture.round - PLAYOFF_ROUND - 1]
                winners_rounds = max(m.round for m in bracket if m.bracket == "W")
                best_of, stage = rules.best_of, stage_name(match, winners_rounds, rules.double)
        return await super()._open_game(league, competition, fixture, names, number, best_of, stage)

    async def _bracket_state(
        self, league_id: int, season: int, competition: CompetitionRow, playoffs: PlayoffRow
    ) -> tuple[list[BracketMatch], BracketState, dict[int, tuple[FixtureRow, Any]]]:
        rules = PlayoffRules(**playoffs.rules)
        bracket = build_bracket(len(playoffs.seeds), rules.double)
        outcomes = await self._outcomes(league_id, season, CompetitionRules.from_json(competition.rules))
        by_match = {f.round - PLAYOFF_ROUND: (f, o) for f, o in outcomes if f.round >= PLAYOFF_ROUND}
        results = {n: o.winner for n, (_f, o) in by_match.items() if o.decided}
        return bracket, resolve(bracket, playoffs.seeds, results), by_match

    async def _advance_playoffs(
        self, league: LeagueRow, competition: CompetitionRow, playoffs: PlayoffRow
    ) -> LeagueNotice | None:
        """Open every match whose two players are now known; announce the champion once."""
        season = competition.season
        rules = PlayoffRules(**playoffs.rules)
        group_rules = CompetitionRules.from_json(competition.rules)
        bracket, state, by_match = await self._bracket_state(league.id, season, competition, playoffs)
        names = {e.user_id: e.name for e in await self.store.entrants(league.id, season)}
        winners_rounds = max(m.round for m in bracket if m.bracket == "W")
        notice = LeagueNotice(league.id, season, competition.guild_id, competition.channel_id, [])
        now = self.clock()
        deadline = now + timedelta(hours=group_rules.window_hours)
        sets = group_rules.sets_of_round(1)
        for entry in state.playable():
            number = entry.match.number
            if number in by_match:
                continue  # open already
            assert entry.home is not None and entry.away is not None
            stage = stage_name(entry.match, winners_rounds, rules.double)
            try:
                ids = await self.store.add_fixtures(
                    league.id, season, PLAYOFF_ROUND + number, [(0, entry.home, entry.away, sets)], now, deadline
                )
            except Conflict:
                continue  # another process opened it (and announces it)
            fixture = FixtureRow(
                ids[0], season, PLAYOFF_ROUND + number, 0, entry.home, entry.away, sets, now, deadline, []
            )
            opened = await self._open_game(league, competition, fixture, names, 1, rules.best_of, stage)
            notice.lines.append(
                _("{stage}: {home} v {away}, until {deadline}.").format(
                    stage=stage, home=names.get(entry.home, "?"), away=names.get(entry.away, "?"),
                    deadline=f"<t:{int(deadline.timestamp())}:f>",
                )
            )  # fmt: skip
            notice.mentions += [entry.home, entry.away]
            if opened is not None:
                notice.games.append(opened)
        if state.finished:
            taken = await self.games.store.claim(
                [f"champion:{league.id}:{season}"], self.games.instance_id, now, CHAMPION_CLAIM
            )
            if taken:
                if state.champion is None:
                    notice.lines.append(_("{league}, season {season}: the final was lost by both; no champion.").format(
                        league=league.name, season=season))  # fmt: skip
                else:
                    notice.lines.append(
                        _("🏆 {player} is the champion of {league}, season {season}! "
                          "An organiser closes the season with /league season end.").format(
                            player=names.get(state.champion, "?"), league=league.name, season=season)
                    )  # fmt: skip
                    notice.mentions.append(state.champion)
        return notice if notice.lines else None

    # ------------------------------------------------------------------ reading
    @_contained
    async def bracket(self, league_id: int, season: int | None = None) -> BracketView:
        """The season's bracket: every match, its players and games won, and the champion."""
        league = await self._league_row(league_id)
        if season is None:
            season = await self._current_season(league_id) or max(
                (s.number for s in await self.store.seasons(league_id)), default=1
            )
        competition = await self.store.competition(league_id, season)
        playoffs = await self.store.playoffs(league_id, season)
        if competition is None or playoffs is None:
            raise ServiceError(_("season {n} has no playoffs").format(n=season))
        rules = PlayoffRules(**playoffs.rules)
        bracket, state, by_match = await self._bracket_state(league_id, season, competition, playoffs)
        names = {e.user_id: e.name for e in await self.store.entrants(league_id, season)}
        winners_rounds = max(m.round for m in bracket if m.bracket == "W")

        def name(user: str | None) -> str | None:
            return user if user in (None, PENDING) else names.get(user, "?")

        boxes = []
        for entry in state.matches:
            match = entry.match
            fixture, outcome = by_match.get(match.number, (None, None))
            won = outcome.games_won if outcome is not None else {}
            if not entry.played:
                status = "walkover" if entry.decided else "waiting"
            else:
                status = "decided" if entry.decided else "open"
            side = None
            if entry.decided and entry.winner is not None:
                side = "home" if entry.winner == entry.home else "away"
            feeds = [n for kind, n in (match.home, match.away) if kind == "winner"]
            boxes.append(BracketBox(
                match.number, match.bracket, stage_name(match, winners_rounds, rules.double),
                name(entry.home), name(entry.away), won.get(entry.home or "", 0.0), won.get(entry.away or "", 0.0),
                side, status, feeds, fixture.id if fixture else None, tuple(fixture.games) if fixture else (),
                column_name(match, winners_rounds),
            ))  # fmt: skip
        champion = names.get(state.champion or "", None) if state.finished else None
        return BracketView(league.name, season, rules.best_of, rules.double, boxes, champion)

    @_contained
    async def progress(self, league_id: int) -> list[FixtureView]:
        """The current round's matches; in the playoffs, every playoff match so far."""
        league = await self._league_row(league_id)
        competition = await self._running_competition(league)
        playoffs = await self.store.playoffs(league_id, competition.season)
        if playoffs is None:
            return await super().progress(league_id)
        rules = PlayoffRules(**playoffs.rules)
        bracket = {m.number: m for m in build_bracket(len(playoffs.seeds), rules.double)}
        winners_rounds = max(m.round for m in bracket.values() if m.bracket == "W")
        names = {e.user_id: e.name for e in await self.store.entrants(league_id, competition.season)}
        group_rules = CompetitionRules.from_json(competition.rules)
        out = []
        for fixture, outcome in await self._outcomes(league_id, competition.season, group_rules):
            if fixture.round >= PLAYOFF_ROUND:
                view = self._fixture_view(fixture, names, outcome)
                view.stage = stage_name(bracket[fixture.round - PLAYOFF_ROUND], winners_rounds, rules.double)
                out.append(view)
        return out

    @_contained
    async def fixtures_for(self, league_id: int, user_id: str) -> list[FixtureView]:
        """A player's matches still to play, a playoff match named by its stage."""
        out = await super().fixtures_for(league_id, user_id)
        if not any(f.round >= PLAYOFF_ROUND for f in out):
            return out
        league = await self._league_row(league_id)
        competition = await self._running_competition(league)
        playoffs = await self.store.playoffs(league_id, competition.season)
        if playoffs is None:
            return out
        rules = PlayoffRules(**playoffs.rules)
        bracket = build_bracket(len(playoffs.seeds), rules.double)
        winners_rounds = max(m.round for m in bracket if m.bracket == "W")
        for view in out:
            if view.round >= PLAYOFF_ROUND:
                view.stage = stage_name(bracket[view.round - PLAYOFF_ROUND - 1], winners_rounds, rules.double)
        return out

    @_contained
    async def history(self, league_id: int) -> list[dict[str, Any]]:
        """The season archive, with each season's playoff champion."""
        out = await super().history(league_id)
        for entry in out:
            entry["champion"] = None
            playoffs = await self.store.playoffs(league_id, entry["season"])
            competition = await self.store.competition(league_id, entry["season"])
            if playoffs is None or competition is None:
                continue
            _bracket, state, _by_match = await self._bracket_state(league_id, entry["season"], competition, playoffs)
            if state.finished and state.champion is not None:
                names = {e.user_id: e.name for e in await self.store.entrants(league_id, entry["season"])}
                entry["champion"] = names.get(state.champion, "?")
        return out
