"""``LeagueService``: the league operations as callers reach them, each call naming its caller
(``service.caller.Caller``): a league is reached only from its own server; managers and the
organisers' role come with the caller."""

from __future__ import annotations

from typing import Any

from engine.language import _
from service import validate
from service.caller import Caller, caller
from service.leagues.competitions import CompetitionRules, TableRow
from service.leagues.knockout import BracketView, KnockoutCore
from service.leagues.playoffs import PlayoffRules
from service.leagues.ratings import Standing
from service.leagues.views import FixtureView, LeagueNotice
from service.validate import ServiceError
from storage import GameRow
from storage.leagues import CompetitionRow, EntrantRow, LeagueRow


@validate.boundary
class LeagueService(KnockoutCore):
    """Leagues, seasons and competitions. Every call that reads or changes a league names its caller
    (``service.caller``): a league is reached only from its own server, its administration by the
    server's managers or its organisers' role (``Caller.roles``)."""

    async def _reach(self, who: Caller, league_id: int) -> LeagueRow:
        who, league_id = caller(who), validate.league_id(league_id)
        league = await self._league_row(league_id)
        if not who.may_see(league.guild_id):
            raise ServiceError(_("there is no league #{id} in this server").format(id=league_id))
        return league

    @staticmethod
    def _server(who: Caller) -> str:
        who = caller(who)
        if who.guild_id is None:
            raise ServiceError(_("leagues belong to a server: use the commands there"))
        return who.guild_id

    async def create(self, who: Caller, name: str, **options: Any) -> LeagueRow:  # type: ignore[override]
        guild = self._server(who)
        return await super().create(guild, name, who.user_id, who.manager, **options)

    async def find(self, who: Caller, name: str) -> LeagueRow:  # type: ignore[override]
        return await super().find(self._server(who), name)

    async def league(self, who: Caller, league_id: int) -> LeagueRow:  # type: ignore[override]
        return await self._reach(who, league_id)

    async def set_organiser_role(self, who: Caller, league_id: int, role_id: int | None) -> LeagueRow:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().set_organiser_role(league_id, role_id, who.manager)

    async def join(self, who: Caller, league_id: int, name: str) -> None:  # type: ignore[override]
        await self._reach(who, league_id)
        await super().join(league_id, who.user_id, name)

    async def leave(self, who: Caller, league_id: int) -> None:  # type: ignore[override]
        await self._reach(who, league_id)
        await super().leave(league_id, who.user_id)

    async def current_season(self, who: Caller, league_id: int) -> int | None:  # type: ignore[override]
        await self._reach(who, league_id)
        return await self._current_season(league_id)

    async def start_season(  # type: ignore[override]
        self, who: Caller, league_id: int, rules: CompetitionRules | None = None, channel_id: str | None = None
    ) -> int:
        league = await self._reach(who, league_id)
        return await super().start_season(league_id, who.manager, rules, league.guild_id, channel_id, list(who.roles))

    async def end_season(self, who: Caller, league_id: int) -> list[Standing]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().end_season(league_id, who.manager, list(who.roles))

    async def competition(  # type: ignore[override]
        self, who: Caller, league_id: int, season: int | None = None
    ) -> CompetitionRow | None:
        await self._reach(who, league_id)
        return await self._competition(league_id, season)

    async def seed(self, who: Caller, league_id: int) -> list[EntrantRow]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await self._seed(league_id, who.manager, list(who.roles))

    async def entrants(self, who: Caller, league_id: int) -> list[EntrantRow]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await self._entrants(league_id)

    async def assign(  # type: ignore[override]
        self, who: Caller, league_id: int, user_id: str, division: int
    ) -> list[EntrantRow]:
        await self._reach(who, league_id)
        return await super().assign(league_id, user_id, division, who.manager, list(who.roles))

    async def kickoff(self, who: Caller, league_id: int) -> LeagueNotice:  # type: ignore[override]
        await self._reach(who, league_id)
        return await self._told(await super().kickoff(league_id, who.manager, list(who.roles)))

    async def start_playoffs(  # type: ignore[override]
        self, who: Caller, league_id: int, rules: PlayoffRules
    ) -> LeagueNotice:
        await self._reach(who, league_id)
        if not isinstance(rules, PlayoffRules):
            raise validate.InvalidInput("playoff rules are expected")
        return await self._told(await super().start_playoffs(league_id, rules, who.manager, list(who.roles)))

    async def bracket(self, who: Caller, league_id: int, season: int | None = None) -> BracketView:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().bracket(league_id, season)

    async def override(  # type: ignore[override]
        self, who: Caller, league_id: int, fixture_id: int, winner: str | None, reason: str
    ) -> LeagueNotice:
        await self._reach(who, league_id)
        notice = await super().override(league_id, fixture_id, winner, reason, who.user_id, who.manager,
                                        list(who.roles))  # fmt: skip
        return await self._told(notice)

    async def standings(self, who: Caller, league_id: int, season: int | None = None) -> list[Standing]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await self._standings(league_id, season)

    async def rating_changes(  # type: ignore[override]
        self, who: Caller, league_id: int, season: int
    ) -> dict[str, tuple[int, int, bool]]:
        await self._reach(who, league_id)
        return await self._rating_changes(league_id, season)

    async def season_tables(  # type: ignore[override]
        self, who: Caller, league_id: int, season: int | None = None
    ) -> dict[int, list[TableRow]]:
        await self._reach(who, league_id)
        return await self._season_tables(league_id, season)

    async def fixtures_for(self, who: Caller, league_id: int, user_id: str) -> list[FixtureView]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().fixtures_for(league_id, user_id)

    async def progress(self, who: Caller, league_id: int) -> list[FixtureView]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().progress(league_id)

    async def history(self, who: Caller, league_id: int) -> list[dict[str, Any]]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().history(league_id)

    async def player(self, who: Caller, league_id: int, user_id: str) -> dict[str, Any]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().player(league_id, user_id)

    async def league_games(self, who: Caller, league_id: int) -> list[GameRow]:  # type: ignore[override]
        await self._reach(who, league_id)
        return await super().league_games(league_id)
