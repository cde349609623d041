"""Results: ``/carc score``, ``stats`` (a player's finished games in this server), ``export`` (a game
in progress gives its public record: no seed, no future tile) and ``games`` (this server's; nothing
of another server)."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands

from cogs import present
from cogs.common import PhaseCog, caller_of, cooldown, game_id_of, say
from engine.language import N_, _, ngettext
from service import ServiceError


class Results(PhaseCog):
    @app_commands.command(name="score", description="Scores and followers left")
    async def score(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await game_id_of(interaction, game)
        view = await self.service.turn(caller_of(interaction), game_id)
        rows = [
            f"{present.COLOUR_SQUARES[list(view.scores).index(name) % 6]} **{present.safe(name, 40)}** — {score} "
            + ngettext("({n} follower left)", "({n} followers left)", view.supply[name]).format(n=view.supply[name])
            for name, score in sorted(view.scores.items(), key=lambda kv: -kv[1])
        ]
        head = _("Game #{id}, turn {turn}").format(id=game_id, turn=view.turn)
        await say(interaction, head + "\n" + "\n".join(rows))

    @app_commands.command(name="stats", description="A player's finished games here: wins, scores, points by kind")
    @cooldown()
    @app_commands.describe(player="Whose (yours by default)", league="Only this league's games (its name)")
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None, league: str | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = caller_of(interaction)
        user = player or interaction.user
        league_id = None
        if league:
            leagues = getattr(self.bot, "leagues", None)
            if leagues is None:
                raise ServiceError(_("leagues are not available"))
            league_id = (await leagues.find(who, league[:100])).id
        found = await self.service.stats(who, str(user.id), league_id)
        name = present.safe(found.name or user.display_name, 40)
        if not found.games:
            await interaction.followup.send(_("{player} has no finished game here yet.").format(player=name),
                                            ephemeral=True)  # fmt: skip
            return
        lines = [
            ngettext(
                "**{player}**: {n} game, {wins} won; {average:.0f} points a game on average",
                "**{player}**: {n} games, {wins} won; {average:.0f} points a game on average",
                found.games,
            ).format(player=name, n=found.games, wins=found.wins, average=found.average)
        ]
        if found.best is not None:
            lines.append(_("Best game: {score} points (game #{id})").format(score=found.best[0], id=found.best[1]))
        if found.categories:
            kinds = " · ".join(f"{word} {n}" for word, n in found.categories)
            lines.append(
                ngettext(
                    "Points by kind, latest game: {kinds}", "Points by kind, latest {n} games: {kinds}", found.recent
                ).format(n=found.recent, kinds=kinds)
            )
        await interaction.followup.send(present.clip("\n".join(lines)), ephemeral=True)

    @app_commands.command(name="export", description="The game's record (JSON), replayable offline")
    @cooldown()
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await game_id_of(interaction, game)
        record = await self.service.export(caller_of(interaction), game_id)
        data = json.dumps(record, indent=1).encode()
        await interaction.followup.send(
            _("Record of game #{id} ({command}).").format(
                id=game_id, command=f"`python -m engine.replay carcassonne-{game_id}.json`"
            ),
            file=discord.File(io.BytesIO(data), filename=f"carcassonne-{game_id}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="games", description="Your games and this server's")
    async def games(self, interaction: discord.Interaction) -> None:
        who = caller_of(interaction)
        mine = await self.service.games(who, user_id=who.user_id)
        here = await self.service.games(who)

        status = {"lobby": N_("lobby"), "active": N_("playing"), "finished": N_("finished"), "aborted": N_("aborted")}

        def line(row: Any) -> str:
            names = ", ".join(present.safe(s.name, 30) for s in row.seats[:6])
            return f"#{row.id} {_(status[row.status]) if row.status in status else row.status} — {names}"

        open_here = [r for r in here if r.status in ("lobby", "active")]
        text = "**" + _("Yours") + "**\n" + ("\n".join(line(r) for r in mine[-10:]) or _("none"))
        shown = open_here[-15:]
        text += "\n**" + _("Open on this server ({n})").format(n=len(open_here)) + "**\n"
        text += "\n".join(line(r) for r in shown) or _("none")
        if len(open_here) > len(shown):
            older = len(open_here) - len(shown)
            text += "\n" + ngettext("… and {n} older one", "… and {n} older ones", older).format(n=older)
        await say(interaction, present.clip(text))
