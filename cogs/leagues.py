"""The /league commands: create, join, seasons, standings, players, games."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import present
from cogs.components import lobby_view, say, service_of
from renderer.board import png_bytes
from renderer.standings import render_standings
from service import ServiceError
from service.leagues import LeagueService


def leagues_of(interaction: discord.Interaction) -> LeagueService:
    return interaction.client.leagues  # type: ignore[attr-defined]


def _is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


class Leagues(commands.Cog):
    league = app_commands.Group(name="league", description="Community leagues with ratings")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _find(self, interaction: discord.Interaction, name: str):
        try:
            return await leagues_of(interaction).find(str(interaction.guild_id), name)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return None

    async def _names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await leagues_of(interaction).store.leagues(str(interaction.guild_id))
        return [app_commands.Choice(name=lg.name, value=lg.name) for lg in found if current.lower() in lg.name.lower()][
            :25
        ]

    @league.command(name="create", description="Create a league on this server (server managers)")
    @app_commands.describe(
        sets="Sets of its games, comma-separated", players="Players per game (2-6)", turn_hours="Hours per turn"
    )
    async def create(
        self, interaction: discord.Interaction, name: str, sets: str = "base",
        players: app_commands.Range[int, 2, 6] = 4, turn_hours: app_commands.Range[int, 1, 336] = 24,
    ) -> None:  # fmt: skip
        try:
            row = await leagues_of(interaction).create(
                str(interaction.guild_id), name, str(interaction.user.id), _is_manager(interaction),
                sets=[s.strip() for s in sets.split(",") if s.strip()], max_players=players,
                turn_limit=turn_hours * 3600,
            )  # fmt: skip
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        sets_text = ", ".join(present.SET_NAMES.get(s, s) for s in row.options["sets"])
        await interaction.response.send_message(
            f"League **{row.name}** is open ({sets_text}; {players} players per game). "
            "Season 1 has started: `/league join` to take part."
        )

    @league.command(name="join", description="Join a league")
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        if league is None:
            return
        try:
            await leagues_of(interaction).join(league.id, str(interaction.user.id), interaction.user.display_name)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await say(interaction, f"You are in **{league.name}**. Open a rated game with `/league play`.")

    @league.command(name="leave", description="Leave a league (your results stay)")
    async def leave(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        if league is None:
            return
        try:
            await leagues_of(interaction).leave(league.id, str(interaction.user.id))
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await say(interaction, f"You left **{league.name}**.")

    @league.command(name="play", description="Open a lobby for a rated game of a league")
    async def play(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        if league is None:
            return
        await interaction.response.defer()
        user = interaction.user
        try:
            row = await leagues_of(interaction).open_lobby(
                league.id, str(user.id), user.display_name, str(interaction.guild_id), str(interaction.channel_id)
            )
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        embed = present.lobby_embed(row)
        embed.title = f"{league.name} — rated game #{row.id}"
        message = await interaction.followup.send(embed=embed, view=lobby_view(row), wait=True)
        await service_of(interaction).attach(row.id, lobby_message=str(getattr(message, "id", "")))

    @league.command(name="season", description="Start or end a season (server managers)")
    @app_commands.choices(
        action=[app_commands.Choice(name="start", value="start"), app_commands.Choice(name="end", value="end")]
    )
    async def season(self, interaction: discord.Interaction, name: str, action: str) -> None:
        league = await self._find(interaction, name)
        if league is None:
            return
        service = leagues_of(interaction)
        try:
            if action == "start":
                number = await service.start_season(league.id, _is_manager(interaction))
                text = f"Season {number} of **{league.name}** has started, from the current ratings."
            else:
                table = await service.end_season(league.id, _is_manager(interaction))
                podium = ", ".join(f"{s.rank}. {s.name}" for s in table[:3]) or "nobody played"
                text = f"The season of **{league.name}** is over: {podium}."
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await interaction.response.send_message(text)

    @league.command(name="standings", description="The league table")
    async def standings(self, interaction: discord.Interaction, name: str, season: int | None = None) -> None:
        league = await self._find(interaction, name)
        if league is None:
            return
        await interaction.response.defer()
        table = await leagues_of(interaction).standings(league.id, season)
        if not table:
            await interaction.followup.send(f"**{league.name}** has no rated player yet.")
            return
        rows = [(s.rank, s.name, s.ordinal, s.mu, s.sigma, s.games, s.provisional) for s in table]
        title = f"{league.name} — season {season}" if season else league.name
        text = "\n".join(
            f"{s.rank}. **{s.name}** {s.ordinal:.1f}{' (provisional)' if s.provisional else ''}" for s in table[:20]
        )
        picture = present.png_file(png_bytes(render_standings(title, rows)), "standings.png")
        await interaction.followup.send(text[:1900], file=picture)

    @league.command(name="player", description="A player's rating and rated games")
    async def player(self, interaction: discord.Interaction, name: str, member: discord.User | None = None) -> None:
        league = await self._find(interaction, name)
        if league is None:
            return
        target = member or interaction.user
        try:
            info = await leagues_of(interaction).player(league.id, str(target.id))
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        s = info["standing"]
        head = f"**{target.display_name}** in {league.name}: "
        head += f"rank {s.rank}, rating {s.ordinal:.1f} (mu {s.mu:.1f}, sigma {s.sigma:.2f})" if s else "no rating"
        if s and s.provisional:
            head += ", provisional"
        games = []
        for h in info["history"][-10:]:
            place = "forfeited" if h["forfeited"] else f"rank {h['rank']}"
            games.append(f"game #{h['game']} (season {h['season']}): {place}, {h['score']} points")
        await interaction.response.send_message((head + "\n" + "\n".join(games))[:1900])

    @league.command(name="games", description="The league's games")
    async def games(self, interaction: discord.Interaction, name: str) -> None:
        league = await self._find(interaction, name)
        if league is None:
            return
        rows = await leagues_of(interaction).league_games(league.id)
        lines = [f"#{r.id} {r.status} — {', '.join(s.name for s in r.seats)}" for r in rows[-20:]]
        await interaction.response.send_message(("\n".join(lines) or "No games yet.")[:1900], ephemeral=True)

    for command in (join, leave, play, season, standings, player, games):
        command.autocomplete("name")(_names)
    del command
