"""The /league commands: leagues, seasons run as ladders or competitions, fixtures,
standings, history.

Errors are handled once (``cog_app_command_error``): a ServiceError becomes a private
reply. Commands that may fail do their service work before answering, or defer
privately; a public defer comes only after the last thing that can fail. Public
messages ping only the players they are about, and names are escaped and clipped.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import present
from cogs.common import caller_of, channel_by_id, in_a_server, not_in_dms, service_of, table_of
from cogs.i18n import game_language, server_language, speak
from cogs.lobby import LobbyButton
from cogs.metrics import FAILED_POSTS
from engine.language import _, ngettext
from renderer.board import chart_png_bytes
from renderer.bracket import games_text, render_bracket
from renderer.standings import DivisionRow, LadderRow, change_text, rating_text, render_standings, render_tables
from service import Caller, ServiceError
from service.leagues import (
    CompetitionRules,
    FixtureView,
    LeagueNotice,
    LeagueService,
    PlayoffRules,
    TableRow,
    display_rating,
)
from storage.leagues import LeagueRow

log = logging.getLogger(__name__)
MAX_TEXT = 1900  # below Discord's 2000, for the ellipsis and a margin
NAME_LENGTH = 40

TIEBREAK_CHOICES = {
    "h2h": ["head_to_head", "points_scored"],
    "scored": ["points_scored", "head_to_head"],
    "buchholz": ["buchholz", "points_scored"],
}


def leagues_of(interaction: discord.Interaction) -> LeagueService:
    return interaction.client.leagues  # type: ignore[attr-defined]


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Text within ``limit`` characters, cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def name_md(name: str, limit: int = NAME_LENGTH) -> str:
    """A user-given name, safe inside a message: clipped, markdown escaped."""
    return discord.utils.escape_markdown(clip(name, limit))


def only_users(user_ids: list[str]) -> discord.AllowedMentions:
    users = [discord.Object(id=int(u)) for u in dict.fromkeys(user_ids) if u.isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


NO_MENTIONS = discord.AllowedMentions.none()


def _is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


def _role_ids(interaction: discord.Interaction) -> list[int]:
    return [role.id for role in getattr(interaction.user, "roles", [])]


def _mention(user_id: str | None, name: str) -> str:
    return present.mention(user_id, name_md(name))


class Leagues(commands.Cog):
    league = app_commands.Group(
        name="league", description="Community leagues: ladders, divisions, Swiss", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        service = getattr(bot, "leagues", None)
        if service is not None:
            service.notice_listeners.append(self.post_notice)
            service.outbox_posts = True  # each announcement is marked once posted (post_notice)

    async def cog_load(self) -> None:
        if getattr(self.bot, "leagues", None) is not None:
            self.deadlines.start()

    async def cog_unload(self) -> None:
        self.deadlines.cancel()
        service = getattr(self.bot, "leagues", None)
        if service is not None and self.post_notice in service.notice_listeners:
            service.notice_listeners.remove(self.post_notice)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        return in_a_server(interaction)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one place a domain error becomes a private reply."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = not_in_dms()
        elif not isinstance(original, ServiceError):
            log.error("league command failed", exc_info=original)
            text = _("Something went wrong on my side; the error is logged.")
        else:
            text = clip(str(original))
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    # ------------------------------------------------------------------ helpers
    async def _find(self, interaction: discord.Interaction, name: str) -> LeagueRow:
        return await leagues_of(interaction).find(caller_of(interaction), name[:NAME_LENGTH])

    async def _names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await leagues_of(interaction).store.leagues(str(interaction.guild_id))
        current = current[:100].lower()
        return [app_commands.Choice(name=lg.name, value=lg.name) for lg in found if current in lg.name.lower()][:25]

    async def post_notice(self, notice: LeagueNotice, channel: Any = None) -> None:
        """Announce what a competition did (marked posted: ``LeagueNotice.outbox``), then give each
        opened game its thread (each marks its own opening)."""
        channel = channel or await channel_by_id(self.bot, notice.channel_id)
        if channel is None:
            log.warning("league %s: no channel for %s", notice.league_id, notice.lines)
            return
        if notice.lines:
            names = await leagues_of_bot(self.bot).store.members(notice.league_id)
            pings = " ".join(_mention(u, names.get(u, "?")) for u in dict.fromkeys(notice.mentions))
            lines = (discord.utils.escape_markdown(discord.utils.escape_mentions(line)) for line in notice.lines)
            text = clip("\n".join(lines) + "\n" + pings)
            nonce = f"carc-n{notice.outbox[0]}" if notice.outbox else None  # a post repeated is kept once
            await channel.send(text, allowed_mentions=only_users(notice.mentions), nonce=nonce)
            if notice.outbox:
                try:
                    await leagues_of_bot(self.bot).mark_posted(notice.outbox)
                except Exception:  # posted again by the league clock after its hold, under the same nonce
                    log.exception("league %s: the announcement went out but is not marked", notice.league_id)
        for game in notice.games:
            await table_of(self.bot).open_game_thread(
                channel, game.game_id, notice.guild_id, game.user_ids, clip(game.title, 100), outbox=game.outbox
            )

    # ------------------------------------------------------------------ leagues
    @league.command(name="create", description="Create a league on this server (server managers)")
    @app_commands.describe(
        sets="Sets of its ladder games, comma-separated", players="Players per ladder game (2-6)",
        turn_hours="Hours per turn", organiser_role="Members with this role may run the league's seasons",
        clock="per-turn (turn_hours each turn), or a time bank such as 3d+12h cap 5d",
    )  # fmt: skip
    async def create(
        self, interaction: discord.Interaction, name: str, sets: str = "base",
        players: app_commands.Range[int, 2, 6] = 4, turn_hours: app_commands.Range[int, 1, 336] = 24,
        organiser_role: discord.Role | None = None, clock: str = "per-turn",
    ) -> None:  # fmt: skip
        row = await leagues_of(interaction).create(
            caller_of(interaction), name,
            sets=[s.strip()[:20] for s in sets[:200].split(",") if s.strip()], max_players=players,
            turn_limit=turn_hours * 3600, organiser_role=organiser_role.id if organiser_role else None,
            language=server_language(interaction), time_control=clock[:40],
        )  # fmt: skip
        sets_text = ", ".join(present.set_name(s) for s in row.options["sets"])
        text = _(
            "League **{league}** is open ({sets}; {n} players per game). "
            "Season 1 (a rating ladder) has started: `/league join` to take part."
        ).format(league=name_md(row.name), sets=sets_text, n=players)
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)

    @league.command(name="organisers", description="Name the role whose members run a league (server managers)")
    @app_commands.describe(role="Leave empty so that only server managers run the league")
    async def organisers(self, interaction: discord.Interaction, name: str, role: discord.Role | None = None) -> None:
        league = await self._find(interaction, name)
        await leagues_of(interaction).set_organiser_role(caller_of(interaction), league.id, role.id if role else None)
        if role:
            text = _("**{league}** is run by the members of {role}.").format(
                league=name_md(league.name), role=role.mention
            )
        else:
            text = _("**{league}** is run by server managers only.").format(league=name_md(league.name))
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @league.command(name="join", description="Join a league")
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        await leagues_of(interaction).join(caller_of(interaction), league.id, interaction.user.display_name)
        text = _(
            "You are in **{league}**. `/league fixtures` shows your matches; "
            "in a ladder season, open a rated game with `/league play`."
        ).format(league=name_md(league.name))
        await interaction.response.send_message(text, ephemeral=True)

    @league.command(name="leave", description="Leave a league (your results stay)")
    async def leave(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        await leagues_of(interaction).leave(caller_of(interaction), league.id)
        await interaction.response.send_message(
            _("You left **{league}**.").format(league=name_md(league.name)), ephemeral=True
        )

    @league.command(name="play", description="Open a lobby for a rated game (ladder seasons)")
    async def play(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        who = caller_of(interaction)
        row = await leagues_of(interaction).open_lobby(
            who, league.id, interaction.user.display_name, str(interaction.channel_id)
        )
        embed = present.lobby_embed(row)
        with speak(game_language(row)):
            embed.title = clip(_("{league} — rated game #{id}").format(league=league.name, id=row.id), 256)
        # A league lobby offers no computer players and no sets menu: the league fixes both.
        view = discord.ui.View(timeout=None)
        with speak(game_language(row)):
            for action in ("join", "leave", "start"):
                view.add_item(LobbyButton(row.id, action))
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        message = await interaction.original_response() if hasattr(interaction, "original_response") else None
        if message is not None:
            await service_of(interaction).attach(who, row.id, lobby_message=str(message.id))

    # ------------------------------------------------------------------ seasons
    @league.command(name="season", description="Start a season (ladder, divisions or Swiss) or end it (organisers)")
    @app_commands.describe(
        format="ladder: rated games when members like; divisions: round robin with promotion; swiss: N rounds",
        division_size="Players per division (divisions)", rounds="Rounds (Swiss)",
        best_of="1: one game per match; 3: best of three", window_days="Days to play each round's matches",
        sets="Sets of the matches, comma-separated; separate rounds with ; to rotate them",
        points="League points for win/draw/loss, e.g. 2/1/0", tiebreak="How players level on points are ordered",
        deadline_rule="A match unfinished at its deadline: awarded against the player to move, or lost by both",
        clock="Time control of the matches: per-turn, or a bank such as 3d+12h cap 5d (default: the league's)",
    )  # fmt: skip
    @app_commands.choices(
        action=[app_commands.Choice(name="start", value="start"), app_commands.Choice(name="end", value="end")],
        format=[app_commands.Choice(name=f, value=f) for f in ("ladder", "divisions", "swiss")],
        tiebreak=[
            app_commands.Choice(name="head to head, then points scored", value="h2h"),
            app_commands.Choice(name="points scored, then head to head", value="scored"),
            app_commands.Choice(name="Buchholz (opponents' points), then points scored", value="buchholz"),
        ],
        deadline_rule=[
            app_commands.Choice(name="awarded to the player not to move", value="award"),
            app_commands.Choice(name="lost by both", value="both_lose"),
        ],
    )
    @app_commands.choices(
        best_of=[app_commands.Choice(name="single game", value=1), app_commands.Choice(name="best of 3", value=3)]
    )
    async def season(
        self, interaction: discord.Interaction, name: str, action: str, format: str = "ladder",  # noqa: A002
        division_size: app_commands.Range[int, 3, 12] = 6, rounds: app_commands.Range[int, 1, 15] = 5,
        best_of: int = 1, window_days: app_commands.Range[int, 1, 90] = 14, sets: str | None = None,
        points: str = "2/1/0", tiebreak: str | None = None, deadline_rule: str = "award", clock: str | None = None,
    ) -> None:  # fmt: skip
        league = await self._find(interaction, name)
        service = leagues_of(interaction)
        who = caller_of(interaction)
        if action == "end":
            await interaction.response.defer(ephemeral=True)
            table = await service.end_season(who, league.id)
            podium = ", ".join(f"{s.rank}. {name_md(s.name)}" for s in table[:3]) or _("nobody played")
            await interaction.followup.send(_("The season is closed."), ephemeral=True)
            text = _("The season of **{league}** is over: {podium}. `/league history` keeps it.").format(
                league=name_md(league.name), podium=podium
            )
            await interaction.channel.send(clip(text), allowed_mentions=NO_MENTIONS)  # type: ignore[union-attr]
            return
        rules = None
        if format != "ladder":
            rules = self._rules(league, format, division_size, rounds, best_of, window_days, sets, points, tiebreak,
                                deadline_rule, clock)  # fmt: skip
        await interaction.response.defer(ephemeral=True)
        number = await service.start_season(who, league.id, rules, str(interaction.channel_id))
        if rules is None:
            text = _("Season {n} of **{league}** has started (a rating ladder): `/league play`.").format(
                n=number, league=name_md(league.name)
            )
        else:
            text = _(
                "Season {n} of **{league}** is a competition ({format}). Members: `/league join`. "
                "Organisers: `/league divisions` to seed (by rating), `/league assign` to move a player, "
                "then `/league kickoff`."
            ).format(n=number, league=name_md(league.name), format=format)
        await interaction.followup.send(_("Done."), ephemeral=True)
        await interaction.channel.send(clip(text), allowed_mentions=NO_MENTIONS)  # type: ignore[union-attr]

    @staticmethod
    def _rules(
        league: LeagueRow, format: str, division_size: int, rounds: int, best_of: int, window_days: int,  # noqa: A002
        sets: str | None, points: str, tiebreak: str | None, deadline_rule: str, clock: str | None = None,
    ) -> CompetitionRules:  # fmt: skip
        rotation = [[s.strip()[:20] for s in part.split(",") if s.strip()] for part in (sets or "")[:300].split(";")]
        rotation = [r for r in rotation if r] or [league.options["sets"]]
        try:
            win, draw, loss = (int(p) for p in points[:20].split("/"))
        except ValueError:
            raise ServiceError(_("league points are three numbers, win/draw/loss, e.g. 2/1/0")) from None
        chosen = TIEBREAK_CHOICES.get(tiebreak or ("buchholz" if format == "swiss" else "h2h"), TIEBREAK_CHOICES["h2h"])
        return CompetitionRules(
            format=format, division_size=division_size, rounds=rounds, best_of=best_of, sets=rotation,
            window_hours=window_days * 24, win=win, draw=draw, loss=loss, tiebreaks=chosen,
            deadline_rule=deadline_rule, turn_limit=league.options["turn_limit"],
            promote=min(2, division_size // 3), relegate=min(2, division_size // 3),
            timeout_policy=league.options["timeout_policy"],
            time_control=(clock or league.options.get("time_control", "per-turn"))[:40],
        )  # fmt: skip

    @league.command(name="divisions", description="The season's divisions; organisers seed them (by rating)")
    @app_commands.describe(reseed="Seed again from last season and the ratings (drops manual assignments)")
    async def divisions(self, interaction: discord.Interaction, name: str, reseed: bool = False) -> None:
        league = await self._find(interaction, name)
        service = leagues_of(interaction)
        who = caller_of(interaction)
        entrants = await service.entrants(who, league.id)
        if reseed or not entrants:
            entrants = await service.seed(who, league.id)
        lines = []
        for division in sorted({e.division for e in entrants}):
            names = ", ".join(name_md(e.name, 24) for e in entrants if e.division == division)
            lines.append("**" + _("Division {n}").format(n=division) + f"**: {names}")
        await interaction.response.send_message(clip("\n".join(lines)), ephemeral=True)

    @league.command(name="assign", description="Put a member into a division before kick-off (organisers)")
    async def assign(
        self, interaction: discord.Interaction, name: str, member: discord.User,
        division: app_commands.Range[int, 1, 20],
    ) -> None:  # fmt: skip
        league = await self._find(interaction, name)
        entrants = await leagues_of(interaction).assign(caller_of(interaction), league.id, str(member.id), division)
        size = sum(1 for e in entrants if e.division == division)
        text = ngettext(
            "{player} plays in division {division} ({n} player).",
            "{player} plays in division {division} ({n} players).",
            size,
        ).format(player=name_md(member.display_name), division=division, n=size)
        await interaction.response.send_message(text, ephemeral=True)

    @league.command(name="kickoff", description="Open the season's first round of matches (organisers)")
    async def kickoff(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        await interaction.response.defer(ephemeral=True)
        notice = await leagues_of(interaction).kickoff(caller_of(interaction), league.id)
        count = len(notice.games)
        await interaction.followup.send(
            ngettext("Round 1 is open: {n} match.", "Round 1 is open: {n} matches.", count).format(n=count),
            ephemeral=True,
        )
        await self.post_notice(notice, interaction.channel)

    @league.command(name="playoffs", description="After the groups: a knockout bracket of the top players (organisers)")
    @app_commands.describe(
        top="How many of the standings' best play the playoffs (byes when not a power of two)",
        best_of="Games per match (a match level after them goes on with one more game)",
        double="Double elimination: a player is out after a second defeat",
    )
    @app_commands.choices(best_of=[app_commands.Choice(name=f"best of {n}", value=n) for n in (1, 3, 5)])
    async def playoffs(
        self, interaction: discord.Interaction, name: str, top: app_commands.Range[int, 2, 32] = 8, best_of: int = 3,
        double: bool = False,
    ) -> None:  # fmt: skip
        league = await self._find(interaction, name)
        await interaction.response.defer(ephemeral=True)
        service = leagues_of(interaction)
        who = caller_of(interaction)
        notice = await service.start_playoffs(who, league.id, PlayoffRules(top=top, best_of=best_of, double=double))
        count = len(notice.games)
        await interaction.followup.send(
            ngettext("The playoffs are open: {n} match.", "The playoffs are open: {n} matches.", count).format(n=count),
            ephemeral=True,
        )
        await interaction.channel.send(  # type: ignore[union-attr]
            file=await self._bracket_file(who, league.id), allowed_mentions=NO_MENTIONS
        )
        await self.post_notice(notice, interaction.channel)

    async def _bracket_file(self, who: Caller, league_id: int, season: int | None = None) -> discord.File:
        """The bracket as a picture, drawn off the event loop."""
        view = await leagues_of_bot(self.bot).bracket(who, league_id, season)
        title = _("{league} · season {n} · playoffs").format(league=view.league, n=view.season)
        image = await asyncio.to_thread(lambda: chart_png_bytes(render_bracket(title, view.boxes, view.champion)))
        return present.png_file(image, "bracket.png")

    @league.command(name="bracket", description="The playoff bracket: every match, who won, who is left")
    async def bracket(self, interaction: discord.Interaction, name: str, season: int | None = None) -> None:
        league = await self._find(interaction, name)
        who = caller_of(interaction)
        view = await leagues_of(interaction).bracket(who, league.id, season)
        await interaction.response.defer()
        lines = [_("**{league}**, season {n}: playoffs, best of {best_of}").format(
            league=name_md(view.league), n=view.season, best_of=view.best_of)]  # fmt: skip
        for box in view.boxes:
            if box.state in ("open", "decided"):
                home, away = name_md(box.home or "—", 24), name_md(box.away or "—", 24)
                score = f"{games_text(box.home_won)}–{games_text(box.away_won) or '0'}"
                mark = "" if box.state == "decided" else " " + _("(playing)")
                lines.append(f"{box.stage}: {home} {score} {away}{mark}")
        if view.champion:
            lines.append(_("Champion: **{player}**").format(player=name_md(view.champion, 32)))
        await interaction.followup.send(
            clip("\n".join(lines)), file=await self._bracket_file(who, league.id, view.season),
            allowed_mentions=NO_MENTIONS,
        )  # fmt: skip

    @league.command(name="override", description="Set a match's result, with a reason kept in the log (organisers)")
    @app_commands.describe(match="The match number (from /league progress)", winner="Leave empty for a draw")
    async def override(
        self, interaction: discord.Interaction, name: str, match: int, reason: str, winner: discord.User | None = None
    ) -> None:
        league = await self._find(interaction, name)
        await interaction.response.defer(ephemeral=True)
        notice = await leagues_of(interaction).override(
            caller_of(interaction), league.id, match, str(winner.id) if winner else None, reason[:300]
        )
        await interaction.followup.send(_("Match #{id} is set.").format(id=match), ephemeral=True)
        await self.post_notice(notice, interaction.channel)

    # ------------------------------------------------------------------ reading
    @league.command(name="fixtures", description="Your next matches in a league's running season")
    async def fixtures(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        who = caller_of(interaction)
        mine = await leagues_of(interaction).fixtures_for(who, league.id, who.user_id)
        me = str(interaction.user.id)
        lines = [self._fixture_line(f, me) for f in mine[:20]]
        text = "\n".join(lines) or _("You have no match left to play this season.")
        await interaction.response.send_message(clip(text), ephemeral=True)

    @staticmethod
    def _fixture_line(f: FixtureView, me: str | None = None) -> str:
        home, away = name_md(f.home_name, 24), name_md(f.away_name or "", 24)
        opponent = away if f.home == me else home
        who = f"v {opponent}" if me else f"{home} v {away}"
        sets = ", ".join(present.set_name(s) for s in f.sets)
        if f.deadline is None:
            return _("Round {n}: {players} ({sets}) — later").format(n=f.round, players=who, sets=sets)
        game = _(", game #{id}").format(id=f.games[-1]) if f.games else ""
        state = ""
        if f.outcome is not None and f.outcome.decided:
            if f.away is None:
                state = " — " + _("bye")
            elif f.outcome.winner is None:
                state = " — " + _("draw")
            else:
                state = " — " + _("won by {player}").format(player=home if f.outcome.winner == f.home else away)
            if f.outcome.how in ("deadline", "override"):
                how = _("deadline") if f.outcome.how == "deadline" else _("override")
                state += f" ({how}: {discord.utils.escape_markdown(f.outcome.reason[:80])})"
        until = present.timestamp(f.deadline, "f")
        if f.stage is not None:  # a playoff match
            return _("Match #{id}, {stage}: {players} ({sets}{game}), until {when}{state}").format(
                id=f.fixture_id, stage=f.stage, players=who, sets=sets, game=game, when=until, state=state
            )
        return _("Match #{id}, round {n}: {players} ({sets}{game}), until {when}{state}").format(
            id=f.fixture_id, n=f.round, players=who, sets=sets, game=game, when=until, state=state
        )

    @league.command(name="progress", description="The current round's matches and how far they are")
    async def progress(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        matches = await leagues_of(interaction).progress(caller_of(interaction), league.id)
        decided = sum(1 for f in matches if f.outcome is not None and f.outcome.decided)
        if matches and matches[0].stage is not None:
            head = _("**{league}**, playoffs: {decided}/{total} decided").format(
                league=name_md(league.name), decided=decided, total=len(matches)
            )
        else:
            head = _("**{league}**, round {n}: {decided}/{total} decided").format(
                league=name_md(league.name), n=matches[0].round if matches else 0, decided=decided, total=len(matches)
            )
        lines = [self._fixture_line(f) for f in matches[:25]]
        await interaction.response.send_message(clip("\n".join([head, *lines])), ephemeral=True)

    @league.command(name="standings", description="The league table: divisions or ratings")
    async def standings(self, interaction: discord.Interaction, name: str, season: int | None = None) -> None:
        league = await self._find(interaction, name)
        service = leagues_of(interaction)
        who = caller_of(interaction)
        number = season or await service.current_season(who, league.id) or len(await service.store.seasons(league.id))
        competition = await service.competition(who, league.id, number)
        title = _("{league} · season {n}").format(league=league.name, n=number)
        if competition is not None:
            tables = await service.season_tables(who, league.id, number)
            if not any(tables.values()):
                await interaction.response.send_message(_("The divisions are not seeded yet."), ephemeral=True)
                return
            await interaction.response.defer()
            text, picture = self._tables_text(title, competition.rules["format"], tables), None
            labelled = [
                (
                    _("Swiss table") if competition.rules["format"] == "swiss" else _("Division {n}").format(n=d),
                    [_division_row(r) for r in rows],
                )
                for d, rows in tables.items()
            ]
            image = await asyncio.to_thread(lambda: chart_png_bytes(render_tables(title, labelled)))
        else:
            table = await service.standings(who, league.id, number)
            if not table:
                await interaction.response.send_message(
                    _("**{league}** has no rated player yet.").format(league=name_md(league.name)), ephemeral=True
                )
                return
            await interaction.response.defer()
            rows = [LadderRow(s.rank, s.name, display_rating(s.mu, s.sigma), s.games, s.provisional) for s in table]
            text = f"**{name_md(title, 80)}**\n" + "\n".join(
                f"{r.rank}. **{name_md(r.name, 32)}** {rating_text(r.rating, r.provisional)}"
                f"{_(' (provisional)') if r.provisional else ''}"
                for r in rows[:20]
            )
            image = await asyncio.to_thread(lambda: chart_png_bytes(render_standings(title, rows)))
        picture = present.png_file(image, "standings.png")
        await interaction.followup.send(clip(text), file=picture, allowed_mentions=NO_MENTIONS)

    @staticmethod
    def _tables_text(title: str, format: str, tables: dict[int, list[TableRow]]) -> str:  # noqa: A002
        out = [f"**{name_md(title, 80)}**"]
        for division, rows in tables.items():
            if format != "swiss":
                out.append("__" + _("Division {n}").format(n=division) + "__")
            for r in rows:
                mark = " ↑" if r.zone == "up" else " ↓" if r.zone == "down" else ""
                mark += f", Buchholz {r.buchholz}" if format == "swiss" else ""
                out.append(
                    _("{n}. **{player}** {points} pts ({won}-{drawn}-{lost}, {scored} scored)").format(
                        n=r.position, player=name_md(r.name, 24), points=r.points, won=r.won, drawn=r.drawn,
                        lost=r.lost, scored=r.scored,
                    )
                    + f" {rating_text(r.rating, r.provisional)} {change_text(r.rating_change)}{mark}"
                )  # fmt: skip
        return "\n".join(out)

    @league.command(name="history", description="The league's past seasons: winners, promotions, relegations")
    async def history(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        seasons = await leagues_of(interaction).history(caller_of(interaction), league.id)
        count = len(seasons)
        lines = [
            ngettext("**{league}** — {n} season", "**{league}** — {n} seasons", count).format(
                league=name_md(league.name), n=count
            )
        ]
        for s in reversed(seasons[-15:]):
            if s["ended_at"] is None:
                state = _("running")
            else:
                state = _("ended {when}").format(when=present.timestamp(s["ended_at"], "D"))
            leaders = ", ".join(
                (_("division {n}: ").format(n=d) if d else "") + name_md(n, 24) for d, n in s["leaders"]
            ) or "—"  # fmt: skip
            line = _("Season {n} ({format}, {state}): {leaders}").format(
                n=s["season"], format=s["format"], state=state, leaders=leaders
            )
            if s.get("champion"):
                line += _("; playoffs won by {player}").format(player=name_md(s["champion"], 24))
            if s["up"] or s["down"]:
                line += _("; up: {players}").format(players=", ".join(name_md(n, 24) for n in s["up"]) or "—")
                line += _("; down: {players}").format(players=", ".join(name_md(n, 24) for n in s["down"]) or "—")
            lines.append(line)
        await interaction.response.send_message(clip("\n".join(lines)), ephemeral=True)

    @league.command(name="player", description="A player's rating and rated games")
    async def player(self, interaction: discord.Interaction, name: str, member: discord.User | None = None) -> None:
        league = await self._find(interaction, name)
        target = member or interaction.user
        info = await leagues_of(interaction).player(caller_of(interaction), league.id, str(target.id))
        s = info["standing"]
        head = _("**{player}** in {league}: ").format(player=name_md(target.display_name), league=name_md(league.name))
        if s:
            head += _("rank {n}, rating {rating}").format(
                n=s.rank, rating=rating_text(display_rating(s.mu, s.sigma), s.provisional)
            )
            head += _(", provisional") if s.provisional else ""
        else:
            head += _("no rating")
        games = []
        for h in info["history"][-10:]:
            place = _("forfeited") if h["forfeited"] else _("rank {n}").format(n=h["rank"])
            games.append(
                ngettext(
                    "game #{id} (season {season}): {place}, {n} point",
                    "game #{id} (season {season}): {place}, {n} points",
                    h["score"],
                ).format(id=h["game"], season=h["season"], place=place, n=h["score"])
            )
        await interaction.response.send_message(clip(head + "\n" + "\n".join(games)), allowed_mentions=NO_MENTIONS)

    @league.command(name="games", description="The league's games")
    async def games(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        rows = await leagues_of(interaction).league_games(caller_of(interaction), league.id)
        lines = [f"#{r.id} {r.status} — {', '.join(name_md(s.name, 24) for s in r.seats)}" for r in rows[-20:]]
        await interaction.response.send_message(clip("\n".join(lines) or _("No games yet.")), ephemeral=True)

    # ------------------------------------------------------------------ deadlines
    @tasks.loop(minutes=5)
    async def deadlines(self) -> None:
        for notice in await leagues_of_bot(self.bot).tick():
            try:
                await self.post_notice(notice)
            except discord.HTTPException:
                FAILED_POSTS.labels("league").inc()
                log.exception("league %s: announcement failed", notice.league_id)

    @deadlines.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    for command in (organisers, join, leave, play, season, divisions, assign, kickoff, override, fixtures, progress,
                    standings, history, player, games, playoffs, bracket):  # fmt: skip
        command.autocomplete("name")(_names)
    del command


def leagues_of_bot(bot: Any) -> LeagueService:
    return bot.leagues  # type: ignore[no-any-return]


def _division_row(r: TableRow) -> DivisionRow:
    return DivisionRow(
        r.position, r.name, r.played, r.won, r.drawn, r.lost, r.points, r.scored, r.rating, r.rating_change,
        r.provisional, r.zone,
    )  # fmt: skip
