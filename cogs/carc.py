"""The /carc commands, the game threads and the deadline clock."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import present
from cogs.components import lobby_view, say, service_of, turn_view
from engine.catalog import SET_TILES
from renderer.board import label_cells
from service import LobbyOptions, ServiceError, TurnView

log = logging.getLogger(__name__)

RULES_FILE = Path(__file__).resolve().parent.parent / "service" / "rules.md"
# What the bot needs in the channel of a lobby, and in its game thread.
NEEDED = {
    "send_messages": "Send Messages",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
}


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    perms = interaction.app_permissions
    return [label for attr, label in NEEDED.items() if not getattr(perms, attr, False)]


async def thread_of(interaction: discord.Interaction, game_id: int) -> discord.abc.Messageable:
    """The game's thread (or, failing that, the channel of the interaction)."""
    row = await service_of(interaction).lobby(game_id)
    if row.thread_id:
        channel = interaction.client.get_channel(int(row.thread_id))
        if channel is None:
            try:
                channel = await interaction.client.fetch_channel(int(row.thread_id))
            except discord.HTTPException:
                channel = None
        if channel is not None:
            return channel  # type: ignore[return-value]
    return interaction.channel  # type: ignore[return-value]


async def post_turn(channel: discord.abc.Messageable, service, game_id: int, view: TurnView, lines: list[str]) -> None:
    """The board, the drawn tile and the Take turn button, or the final result."""
    _row, game = await service.game(game_id)
    if view.finished:
        await channel.send(present.final_content(view, lines), files=present.final_files(game))
        return
    files = [present.board_file(game, view)]
    tile = present.tile_file(game)
    if tile:
        files.append(tile)
    await channel.send(present.turn_content(view, lines), files=files, view=turn_view(view))


async def post_after_play(interaction: discord.Interaction, game_id: int, lines: list[str], view: TurnView) -> None:
    channel = await thread_of(interaction, game_id)
    await post_turn(channel, service_of(interaction), game_id, view, lines)
    await notify_by_dm(interaction.client, service_of(interaction), view)


async def notify_by_dm(client: Any, service, view: TurnView) -> None:
    """A DM for players who asked for one (``/carc settings``)."""
    if view.finished or not view.user_id or not view.user_id.isdigit():
        return
    if not (await service.player_settings(view.user_id)).get("dm_turns"):
        return
    try:
        user = client.get_user(int(view.user_id)) or await client.fetch_user(int(view.user_id))
        await user.send(f"Your turn in Carcassonne game #{view.game_id}: place {view.tile}.")
    except discord.HTTPException:
        log.info("could not DM %s", view.user_id)


async def start_game(interaction: discord.Interaction, game_id: int) -> None:
    """Start button: a thread for the game, then its first turn."""
    missing = missing_permissions(interaction)
    if missing:
        await say(interaction, "I need these permissions in this channel first: " + ", ".join(missing) + ".")
        return
    service = service_of(interaction)
    await interaction.response.defer()
    try:
        view = await service.start(game_id, str(interaction.user.id))
    except ServiceError as exc:
        await say(interaction, str(exc))
        return
    row = await service.lobby(game_id)
    if interaction.message is not None:
        await interaction.message.edit(embed=present.lobby_embed(row), view=lobby_view(row))
    try:
        thread = await interaction.channel.create_thread(  # type: ignore[union-attr]
            name=f"Carcassonne #{game_id}", message=interaction.message, auto_archive_duration=10080
        )
    except discord.HTTPException as exc:
        log.warning("no thread for game %s: %s", game_id, exc)
        thread = interaction.channel
    else:
        await service.attach(game_id, thread_id=str(thread.id))
    names = ", ".join(f"{i + 1}. {s.name}" for i, s in enumerate(sorted(row.seats, key=lambda s: s.seat or 0)))
    await post_turn(thread, service, game_id, view, [f"Game #{game_id} starts. Seat order: {names}."])


class Carc(commands.Cog):
    carc = app_commands.Group(name="carc", description="Play Carcassonne")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if getattr(self.bot, "service", None) is not None:
            self.deadlines.start()

    async def cog_unload(self) -> None:
        self.deadlines.cancel()

    # ------------------------------------------------------------------ helpers
    async def _game_id(self, interaction: discord.Interaction, game: int | None) -> int | None:
        if game is not None:
            return game
        found = await service_of(interaction).game_for_thread(str(interaction.channel_id))
        if found is None:
            await say(interaction, "Name the game (`game:` option), or use the command in the game's thread.")
        return found

    # ------------------------------------------------------------------ lobby
    @carc.command(name="new", description="Open a lobby for a new game")
    @app_commands.describe(
        sets="Sets, comma-separated: base, river1, river2, castles, ferries, wheel, toll",
        players="Most players (2-6)",
        turn_hours="Hours per turn (0 = no limit)",
        timeout="What happens when a turn runs out",
        castles="With Castles in Germany: dealt at random, or chosen in the lobby",
    )
    @app_commands.choices(
        timeout=[
            app_commands.Choice(name="skip the turn", value="skip"),
            app_commands.Choice(name="forfeit", value="forfeit"),
        ],
        castles=[app_commands.Choice(name="dealt", value="dealt"), app_commands.Choice(name="chosen", value="chosen")],
    )
    async def new(
        self, interaction: discord.Interaction, sets: str = "base", players: app_commands.Range[int, 2, 6] = 5,
        turn_hours: app_commands.Range[int, 0, 336] = 24, timeout: str = "skip", castles: str = "dealt",
    ) -> None:  # fmt: skip
        missing = missing_permissions(interaction)
        if missing:
            await say(interaction, "I need these permissions in this channel first: " + ", ".join(missing) + ".")
            return
        options = LobbyOptions(
            sets=[s.strip() for s in sets.split(",") if s.strip()], max_players=players,
            turn_limit=turn_hours * 3600, timeout_policy=timeout, castles=castles,
        )  # fmt: skip
        await interaction.response.defer()
        user = interaction.user
        try:
            row = await service_of(interaction).create_lobby(
                str(user.id), user.display_name, options, str(interaction.guild_id), str(interaction.channel_id)
            )
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        message = await interaction.followup.send(embed=present.lobby_embed(row), view=lobby_view(row), wait=True)
        await service_of(interaction).attach(row.id, lobby_message=str(getattr(message, "id", "")))

    # ------------------------------------------------------------------ playing
    @carc.command(name="place", description="Play your turn in one command")
    @app_commands.describe(cell="A legal cell", rot="Rotation in degrees", spot="A follower spot, or none")
    async def place(
        self, interaction: discord.Interaction, cell: str, rot: int, spot: str | None = None, game: int | None = None
    ) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        await interaction.response.defer(ephemeral=True)
        service = service_of(interaction)
        try:
            view = await service.turn(game_id)
            target = _parse_cell(cell, view)
            draft = [{"type": "tile", "x": target[0], "y": target[1], "rot": rot}]
            after = await service.options_after(game_id, str(interaction.user.id), view.version, draft)
            while not after.finished and after.turn == view.turn and after.player == view.player:
                choice = _pick(after, spot)
                spot = None  # one spot answers one choice; later choices pass
                draft.append(choice)
                after = await service.options_after(game_id, str(interaction.user.id), view.version, draft)
            result = await service.play(game_id, str(interaction.user.id), draft, view.version)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await say(interaction, "Played.")
        await post_after_play(interaction, game_id, result.lines, result.turn)

    @place.autocomplete("cell")
    async def _cells(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._view_for(interaction)
        if view is None or view.step != "tile":
            return []
        labels = label_cells(list(view.placements))
        out = []
        for c, label in sorted(labels.items(), key=lambda kv: (len(kv[1]), kv[1])):
            name = f"{label} ({c[0]}, {c[1]})"
            if current.lower() in name.lower():
                out.append(app_commands.Choice(name=name, value=f"{c[0]},{c[1]}"))
        return out[:25]

    @place.autocomplete("rot")
    async def _rots(self, interaction: discord.Interaction, current: int) -> list[app_commands.Choice[int]]:
        view = await self._view_for(interaction)
        cell_text = getattr(interaction.namespace, "cell", None)
        if view is None or not cell_text:
            return []
        try:
            cell = _parse_cell(cell_text, view)
        except ServiceError:
            return []
        return [app_commands.Choice(name=f"{r}°", value=r) for r in view.placements.get(cell, ())]

    @place.autocomplete("spot")
    async def _spots(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._view_for(interaction)
        ns = interaction.namespace
        if view is None or not getattr(ns, "cell", None) or getattr(ns, "rot", None) is None:
            return []
        try:
            cell = _parse_cell(ns.cell, view)
            draft = [{"type": "tile", "x": cell[0], "y": cell[1], "rot": int(ns.rot)}]
            after = await service_of(interaction).options_after(
                view.game_id, str(interaction.user.id), view.version, draft
            )
        except (ServiceError, ValueError):
            return []
        if after.turn != view.turn or after.player != view.player:
            return []
        choices = enumerate(after.choices, start=1)
        return [app_commands.Choice(name=c.label[:100], value=str(i)) for i, c in choices][:25]

    async def _view_for(self, interaction: discord.Interaction) -> TurnView | None:
        game = getattr(interaction.namespace, "game", None)
        service = service_of(interaction)
        game_id = game or await service.game_for_thread(str(interaction.channel_id))
        if game_id is None:
            return None
        try:
            return await service.turn(game_id)
        except ServiceError:
            return None

    # ------------------------------------------------------------------ information
    @carc.command(name="board", description="The board as it stands")
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        await interaction.response.defer()
        try:
            view = await service_of(interaction).turn(game_id)
            _row, g = await service_of(interaction).game(game_id)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await interaction.followup.send(f"Game #{game_id}, turn {view.turn}", file=present.board_file(g, view))

    @carc.command(name="score", description="Scores and followers left")
    async def score(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        try:
            view = await service_of(interaction).turn(game_id)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        rows = [
            f"**{name}** — {score} ({view.supply[name]} followers left)"
            for name, score in sorted(view.scores.items(), key=lambda kv: -kv[1])
        ]
        await interaction.response.send_message(f"Game #{game_id}, turn {view.turn}\n" + "\n".join(rows))

    @carc.command(name="tiles", description="What is left in the bag")
    async def tiles(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        try:
            bag = await service_of(interaction).bag(game_id)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        text = ", ".join(f"{tile} ×{n}" for tile, n in bag.items())
        await interaction.response.send_message(f"{sum(bag.values())} tiles left: {text}"[:1900], ephemeral=True)

    @carc.command(name="rules", description="The short rules of a set")
    @app_commands.choices(set=[app_commands.Choice(name=present.SET_NAMES[s], value=s) for s in SET_TILES])
    async def rules(self, interaction: discord.Interaction, set: str = "base") -> None:  # noqa: A002
        await interaction.response.send_message(rules_text(set), ephemeral=True)

    @carc.command(name="export", description="The game's record (JSON), replayable offline")
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        await interaction.response.defer(ephemeral=True)
        try:
            record = await service_of(interaction).export(game_id)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        data = json.dumps(record, indent=1).encode()
        await interaction.followup.send(
            f"Record of game #{game_id} (`python -m engine.replay carcassonne-{game_id}.json`).",
            file=discord.File(io.BytesIO(data), filename=f"carcassonne-{game_id}.json"),
            ephemeral=True,
        )

    @carc.command(name="games", description="Your games and this server's")
    async def games(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        mine = await service.games(user_id=str(interaction.user.id))
        here = await service.games(guild_id=str(interaction.guild_id))

        def line(row) -> str:
            names = ", ".join(s.name for s in row.seats)
            return f"#{row.id} {row.status} — {names}"

        text = "**Yours**\n" + ("\n".join(line(r) for r in mine[-10:]) or "none")
        text += "\n**This server**\n" + (
            "\n".join(line(r) for r in here if r.status in ("lobby", "active"))[-1500:] or "none"
        )
        await interaction.response.send_message(text, ephemeral=True)

    @carc.command(name="resign", description="Leave a game; your turns are then played automatically")
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        await interaction.response.defer()
        try:
            lines = await service_of(interaction).resign(game_id, str(interaction.user.id))
            view = await service_of(interaction).turn(game_id)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await interaction.followup.send("\n".join(lines)[:1900])
        await post_turn(await thread_of(interaction, game_id), service_of(interaction), game_id, view, [])

    @carc.command(name="settings", description="Your notification settings")
    @app_commands.describe(dm="Also send me a direct message when it is my turn")
    async def settings(self, interaction: discord.Interaction, dm: bool) -> None:
        await service_of(interaction).save_player(str(interaction.user.id), interaction.user.display_name, dm)
        await say(interaction, "Turn DMs are " + ("on." if dm else "off."))

    # ------------------------------------------------------------------ moderation
    @carc.command(name="abort", description="Stop a game for good (server managers, or the lobby's creator)")
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        try:
            await service_of(interaction).abort(game_id, str(interaction.user.id), _is_manager(interaction))
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await interaction.response.send_message(f"Game #{game_id} was aborted by {interaction.user.display_name}.")

    @carc.command(name="kick", description="Remove a player from a game (server managers)")
    async def kick(self, interaction: discord.Interaction, player: discord.User, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        if game_id is None:
            return
        if not _is_manager(interaction):
            await say(interaction, "Only server managers (Manage Server) can remove a player from a game.")
            return
        await interaction.response.defer()
        try:
            lines = await service_of(interaction).kick(game_id, str(player.id), by_manager=True)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        await interaction.followup.send("\n".join(lines)[:1900])

    # ------------------------------------------------------------------ deadlines
    @tasks.loop(minutes=1)
    async def deadlines(self) -> None:
        service = self.bot.service  # type: ignore[attr-defined]
        for notice in await service.tick():
            row = await service.lobby(notice.game_id)
            channel = self.bot.get_channel(int(row.thread_id)) if row.thread_id else None
            if channel is None:
                continue
            if notice.kind == "reminder":
                await channel.send(f"{present.mention(notice.user_id, notice.player)} " + " ".join(notice.lines))
            elif notice.turn is not None:
                await post_turn(channel, service, notice.game_id, notice.turn, notice.lines)

    @deadlines.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


def _is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


def _parse_cell(text: str, view: TurnView) -> tuple[int, int]:
    labels = {v.lower(): k for k, v in label_cells(list(view.placements)).items()}
    text = text.strip()
    first = text.split()[0].lower() if text else ""
    if first in labels:
        return labels[first]
    parts = text.replace("(", " ").replace(")", " ").replace(",", " ").split()
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        raise ServiceError(f"{text!r} is not a cell: give its label (A, B...) or x,y") from None


def _pick(view: TurnView, spot: str | None) -> dict[str, Any]:
    passing = [c.move for c in view.choices if c.move["type"] == "pass"]
    if spot is None or spot.strip().lower() in ("", "none", "pass"):
        if passing:
            return passing[0]
        raise ServiceError(f"this turn needs a choice: {', '.join(c.label for c in view.choices)}")
    text = spot.strip().lower()
    if text.isdigit() and 1 <= int(text) <= len(view.choices):
        return view.choices[int(text) - 1].move  # numbered as in the preview and the panel
    for c in view.choices:
        if text in c.label.lower():
            return c.move
    raise ServiceError(f"{spot!r} is not one of: {', '.join(c.label for c in view.choices)}")


def rules_text(set_name: str) -> str:
    """The section of the rules digest for a set (from service/rules.md)."""
    text = RULES_FILE.read_text(encoding="utf-8")
    sections = text.split("\n## ")
    for section in sections:
        if section.startswith(set_name + " ") or section.startswith(set_name + "\n"):
            return ("## " + section.strip())[:1900]
    return f"No rules for {set_name!r}."
