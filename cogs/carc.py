"""The /carc commands, the game threads and the deadline clock.

Errors are handled once (``cog_app_command_error``): a ``ServiceError`` becomes a
private answer. Commands whose answer may be an error never defer publicly: they
answer privately, and post what everyone should see as a message of its own.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import present
from cogs.components import PanelState, guild_of, lobby_view, picture, played, say, show_panel, turn_view
from cogs.i18n import game_language, server_language, speak, user_language
from engine.catalog import SET_TILES
from engine.language import N_, _, ngettext
from engine.words import tile_name
from locales import LANGUAGES
from renderer.board import label_cells
from renderer.jobs import board_png, final_png, replay_gif, turn_png
from service import LobbyOptions, PlayResult, ServiceError, TurnView

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
_CELL = re.compile(r"\(?\s*(-?[0-9]{1,4})\s*[, ]\s*(-?[0-9]{1,4})\s*\)?")


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    perms = interaction.app_permissions
    return [label for attr, label in NEEDED.items() if not getattr(perms, attr, False)]


def _is_manager(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


def parse_cell(text: str, labels: dict[tuple[int, int], str]) -> tuple[int, int]:
    """A cell as a player names it: its label on the turn picture ("B"), or "x,y"."""
    text = text.strip()[:40]
    by_label = {v.lower(): k for k, v in labels.items()}
    first = text.split()[0].lower() if text else ""
    if first in by_label:
        return by_label[first]
    found = _CELL.fullmatch(text) or _CELL.match(text)
    if found is None:
        raise ServiceError(
            _("{text} is not a cell: give its letter on the picture (A, B...) or x,y").format(
                text=present.safe(text, 40)
            )
        )
    return int(found[1]), int(found[2])


class Carc(commands.Cog):
    carc = app_commands.Group(name="carc", description="Play Carcassonne")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._failing: set[int] = set()  # games whose notices failed (logged once)

    async def cog_load(self) -> None:
        if getattr(self.bot, "service", None) is not None:
            self.deadlines.start()

    async def cog_unload(self) -> None:
        self.deadlines.cancel()
        with contextlib.suppress(Exception):  # shutting down: another instance may take the clock at once
            await self.service.release_clock()

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        cause = getattr(error, "original", error)
        if isinstance(cause, ServiceError):
            await say(interaction, str(cause))
            return
        log.error("/carc failed", exc_info=cause)
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, _("Something went wrong on my side; nothing was changed. Please try again."))

    @property
    def service(self) -> Any:
        return self.bot.service  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ posting
    async def thread_of(self, game_id: int, fallback: Any = None) -> Any:
        """The game's thread (or, failing that, ``fallback``)."""
        row = await self.service.lobby(game_id)
        if row.thread_id:
            channel = self.bot.get_channel(int(row.thread_id))
            if channel is None:
                try:
                    channel = await self.bot.fetch_channel(int(row.thread_id))
                except discord.HTTPException:
                    channel = None
            if channel is not None:
                return channel
        return fallback

    async def post_turn(self, channel: Any, game_id: int, view: TurnView, lines: list[str]) -> None:
        """The board, what happened, and the Take turn button; or the final result (in the game's language)."""
        if channel is None:
            return
        with speak(view.language):
            await self._post_turn(channel, game_id, view, lines)

    async def _post_turn(self, channel: Any, game_id: int, view: TurnView, lines: list[str]) -> None:
        if view.finished:
            files = []
            png = await picture(self.service, final_png, game_id, language=view.language)
            if png:
                files.append(present.png_file(png, "final.png"))
            gif = await picture(self.service, replay_gif, game_id, language=view.language)
            if gif and len(gif) < 8 * 1024 * 1024:
                files.append(present.png_file(gif, "replay.gif"))
            await channel.send(present.final_content(view, lines), files=files, allowed_mentions=present.NO_PINGS)
            return
        legal = {f"{x},{y}": label for (x, y), label in label_cells(list(view.placements)).items()}
        png = await picture(self.service, turn_png, game_id, legal or None, language=view.language)
        files = [present.png_file(png, "board.png")] if png else []
        await channel.send(
            present.turn_content(view, lines),
            files=files,
            view=turn_view(view),
            allowed_mentions=present.ping(view.user_id),
        )

    async def announce(self, game_id: int, view: TurnView, lines: list[str], fallback: Any = None) -> None:
        """Post the turn in the game's thread and DM the next player if they asked for it."""
        try:
            await self.post_turn(await self.thread_of(game_id, fallback), game_id, view, lines)
        except discord.HTTPException as exc:  # a deleted thread or a lost permission: the game goes on
            log.warning("could not post game %s in its thread: %s", game_id, exc)
        await self.notify_by_dm(view)

    async def after_play(self, interaction: discord.Interaction, game_id: int, result: PlayResult) -> None:
        await self.announce(game_id, result.turn, result.lines, interaction.channel)

    async def notify_by_dm(self, view: TurnView) -> None:
        """A DM for players who asked for one (``/carc settings``): the tile and the thread."""
        if view.finished or not present.is_snowflake(view.user_id):
            return
        try:
            settings = await self.service.player_settings(view.user_id)
            if not settings.get("dm_turns"):
                return
            row = await self.service.lobby(view.game_id)
            language = settings.get("language", "en")
            mine = await self.service.turn(view.game_id, language=language)  # the question in their words
            question = mine.question
            with speak(language):
                what = question.prompt if question is not None else _("play")
                if row.thread_id:
                    text = _("Your turn in Carcassonne game #{id} in {thread}: {question}.").format(
                        id=view.game_id, thread=f"<#{row.thread_id}>", question=what
                    )
                else:
                    text = _("Your turn in Carcassonne game #{id}: {question}.").format(id=view.game_id, question=what)
            user = self.bot.get_user(int(view.user_id)) or await self.bot.fetch_user(int(view.user_id))
            await user.send(present.clip(text), allowed_mentions=present.NO_PINGS)
        except (discord.HTTPException, ServiceError):
            log.info("could not DM %s", view.user_id)

    async def start_game(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Start button: the game's thread, who has which colour, the first turn."""
        missing = missing_permissions(interaction)
        if missing:
            await say(interaction, needs(missing))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.service.start(game_id, str(interaction.user.id))
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        row = await self.service.lobby(game_id)
        if interaction.message is not None:
            try:
                await interaction.message.edit(embed=present.lobby_embed(row), view=lobby_view(row))
            except discord.HTTPException as exc:
                log.info("lobby message of game %s not updated: %s", game_id, exc)
        await self.open_game_thread(interaction.channel, game_id, [], f"Carcassonne #{game_id}", interaction.message)
        await say(interaction, _("Game #{id} has started: see its thread.").format(id=game_id))

    async def open_game_thread(
        self, channel: Any, game_id: int, user_ids: list[str], title: str, starter: Any = None
    ) -> None:
        """A thread for a started game (from its lobby message when there is one), the
        seats with their colours, the players pinged, and the first turn."""
        service = self.service
        try:
            if starter is not None:
                thread = await starter.create_thread(name=present.clip(title, 100), auto_archive_duration=10080)
            else:
                thread = await channel.create_thread(
                    name=present.clip(title, 100), auto_archive_duration=10080, type=discord.ChannelType.public_thread
                )
        except (discord.HTTPException, AttributeError) as exc:
            log.warning("no thread for game %s: %s", game_id, exc)
            thread = channel
        else:
            await service.attach(game_id, thread_id=str(thread.id))
        view = await service.turn(game_id)
        pings = " ".join(present.mention(u, "") for u in user_ids if present.is_snowflake(u))
        with speak(view.language):
            head = _("Game #{id} starts. Seats and colours: {seats}.").format(
                id=game_id, seats=present.seat_line(list(view.scores))
            )
        if pings:
            await thread.send(
                present.clip(f"{pings} {head}"),
                allowed_mentions=present.ping_users(user_ids),
            )
            head = ""
        await self.post_turn(thread, game_id, view, [head] if head else [])
        await self.notify_by_dm(view)

    # ------------------------------------------------------------------ helpers
    async def _game_id(self, interaction: discord.Interaction, game: int | None) -> int:
        if game is not None:
            return game
        found = await self.service.game_for_thread(str(interaction.channel_id))
        if found is None:
            raise ServiceError(_("Name the game (`game:` option), or use the command in the game's thread."))
        return int(found)

    # ------------------------------------------------------------------ lobby
    @carc.command(name="new", description="Open a lobby for a new game")
    @app_commands.describe(
        sets="Sets, comma-separated: base, river1, river2, castles, ferries, wheel, toll",
        players="Most players (2-6)",
        turn_hours="Hours per turn (0 = no limit)",
        timeout="What happens when a turn runs out",
        castles="With Castles in Germany: dealt at random, or chosen in the lobby",
        language="Language of the game's posts (the server's by default)",
    )
    @app_commands.choices(
        timeout=[
            app_commands.Choice(name="skip the turn", value="skip"),
            app_commands.Choice(name="forfeit", value="forfeit"),
        ],
        castles=[app_commands.Choice(name="dealt", value="dealt"), app_commands.Choice(name="chosen", value="chosen")],
        language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()],
    )
    async def new(
        self, interaction: discord.Interaction, sets: str = "base", players: app_commands.Range[int, 2, 6] = 5,
        turn_hours: app_commands.Range[int, 0, 336] = 24, timeout: str = "skip", castles: str = "dealt",
        language: str | None = None,
    ) -> None:  # fmt: skip
        missing = missing_permissions(interaction)
        if missing:
            raise ServiceError(needs(missing))
        options = LobbyOptions(
            sets=[s.strip().lower()[:20] for s in sets.split(",")[:10] if s.strip()], max_players=players,
            turn_limit=turn_hours * 3600, timeout_policy=timeout, castles=castles,
            language=language or server_language(interaction),
        )  # fmt: skip
        user = interaction.user
        row = await self.service.create_lobby(str(user.id), user.display_name, options, guild_of(interaction),
                                              str(interaction.channel_id))  # fmt: skip
        await interaction.response.send_message(
            embed=present.lobby_embed(row), view=lobby_view(row), allowed_mentions=present.NO_PINGS
        )
        message = await interaction.original_response()
        await self.service.attach(row.id, lobby_message=str(message.id))

    # ------------------------------------------------------------------ playing
    @carc.command(name="place", description="Play your turn in one command (the panel opens for what is left)")
    @app_commands.describe(
        cell="A legal cell: its letter on the turn picture, or x,y",
        rot="Rotation in degrees (can be left out when only one fits)",
        spot="A follower spot number from the preview, words of a choice, or none",
        game="The game's number (not needed in its thread)",
    )
    async def place(
        self, interaction: discord.Interaction, cell: str, rot: int | None = None, spot: str | None = None,
        game: int | None = None,
    ) -> None:  # fmt: skip
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self._game_id(interaction, game)
        user_id = str(interaction.user.id)
        guild = guild_of(interaction)
        view = await self.service.turn(game_id, guild_id=guild)
        labels = label_cells(list(view.placements))
        target = parse_cell(cell, labels) if view.step == "tile" else (0, 0)
        picks = await self.service.picks_for(game_id, user_id, target, rot, spot, guild_id=guild)
        answer = await self.service.pick(game_id, user_id, picks, view.version, guild_id=guild)
        if isinstance(answer, PlayResult):
            if answer.again:  # a committed draw: the panel asks for the tile
                await show_panel(interaction, PanelState(game_id, answer.turn.version, []))
                return
            await say(interaction, played(answer.lines))
            await self.after_play(interaction, game_id, answer)
            return
        await show_panel(interaction, PanelState(game_id, view.version, picks))

    async def _question_for(self, interaction: discord.Interaction) -> TurnView | None:
        try:
            game = getattr(interaction.namespace, "game", None)
            game_id = (
                int(game) if isinstance(game, int) else await self.service.game_for_thread(str(interaction.channel_id))
            )
            if game_id is None:
                return None
            view: TurnView = await self.service.turn(game_id, guild_id=guild_of(interaction))
        except (ServiceError, ValueError):
            return None
        return view if view.user_id == str(interaction.user.id) else None

    @place.autocomplete("cell")
    async def _cells(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._question_for(interaction)
        if view is None or view.step != "tile":
            return []
        labels = label_cells(list(view.placements))
        current = current.lower()[:40]
        out = []
        for c, label in sorted(labels.items(), key=lambda kv: (len(kv[1]), kv[1])):
            rots = ", ".join(f"{r}°" for r in view.placements[c])
            name = _("{label} ({x}, {y}) — turned {rotations}").format(label=label, x=c[0], y=c[1], rotations=rots)
            if current in name.lower():
                out.append(app_commands.Choice(name=present.clip(name, 100), value=f"{c[0]},{c[1]}"))
        return out[:25]

    @place.autocomplete("rot")
    async def _rots(self, interaction: discord.Interaction, current: int) -> list[app_commands.Choice[int]]:
        view = await self._question_for(interaction)
        cell_text = getattr(interaction.namespace, "cell", None)
        if view is None or not isinstance(cell_text, str):
            return []
        try:
            target = parse_cell(cell_text, label_cells(list(view.placements)))
        except ServiceError:
            return []
        return [app_commands.Choice(name=f"{r}°", value=r) for r in view.placements.get(target, ())]

    @place.autocomplete("spot")
    async def _spots(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._question_for(interaction)
        ns = interaction.namespace
        if view is None or not isinstance(getattr(ns, "cell", None), str):
            return []
        try:
            target = parse_cell(ns.cell, label_cells(list(view.placements)))
            rot = getattr(ns, "rot", None)
            picks = await self.service.picks_for(view.game_id, str(interaction.user.id), target,
                                                 rot if isinstance(rot, int) else None, None,
                                                 guild_id=guild_of(interaction))  # fmt: skip
            ask = await self.service.ask(view.game_id, str(interaction.user.id), picks, guild_id=guild_of(interaction))
        except ServiceError:
            return []
        if ask.question is None or ask.question.kind != "figure":
            return []
        out = []
        for i, option in enumerate(ask.question.moves()):
            number = ask.spot_numbers.get(i)
            label = ask.question.options[i].label if i < len(ask.question.options) else _("no figure")
            value = str(number) if number else ("none" if option["type"] == "pass" else label)
            out.append(app_commands.Choice(name=present.clip(f"{number or '-'} · {label}", 100), value=value[:100]))
        return out[:25]

    # ------------------------------------------------------------------ information
    @carc.command(name="board", description="The whole board as it stands (only you see it)")
    @app_commands.describe(
        around="Only part of the board: around a cell (x,y), or a quarter: nw, ne, sw, se", game="The game's number"
    )
    async def board(self, interaction: discord.Interaction, around: str | None = None, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self._game_id(interaction, game)
        view = await self.service.turn(game_id, guild_id=guild_of(interaction))
        region: Any = None
        if around and around.strip().lower() in ("nw", "ne", "sw", "se"):
            region = around.strip().lower()
        elif around:
            x, y = parse_cell(around, {})
            region = (x, y, 3)
        png = await picture(self.service, board_png, game_id, region, language=user_language(interaction))
        if png is None:
            raise ServiceError(_("The picture could not be made; please try again."))
        await interaction.followup.send(
            _("Game #{id}, turn {turn}").format(id=game_id, turn=view.turn),
            file=present.png_file(png, "board.png"),
            ephemeral=True,
        )

    @carc.command(name="score", description="Scores and followers left")
    async def score(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        view = await self.service.turn(game_id, guild_id=guild_of(interaction))
        rows = [
            f"{present.COLOUR_SQUARES[list(view.scores).index(name) % 6]} **{present.safe(name, 40)}** — {score} "
            + ngettext("({n} follower left)", "({n} followers left)", view.supply[name]).format(n=view.supply[name])
            for name, score in sorted(view.scores.items(), key=lambda kv: -kv[1])
        ]
        head = _("Game #{id}, turn {turn}").format(id=game_id, turn=view.turn)
        await say(interaction, head + "\n" + "\n".join(rows))

    @carc.command(name="tiles", description="What is left in the bag")
    async def tiles(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        bag = await self.service.bag(game_id, guild_id=guild_of(interaction))
        counts: dict[str, int] = {}
        for tile_id, n in bag.items():
            counts[tile_name(tile_id)] = counts.get(tile_name(tile_id), 0) + n
        text = ", ".join(f"{name} ×{n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        left = sum(bag.values())
        await say(
            interaction,
            present.clip(
                ngettext("{n} tile left: {tiles}", "{n} tiles left: {tiles}", left).format(n=left, tiles=text)
            ),
        )

    @carc.command(name="rules", description="The short rules of a set")
    @app_commands.choices(set=[app_commands.Choice(name=present.SET_NAMES[s], value=s) for s in SET_TILES])
    async def rules(self, interaction: discord.Interaction, set: str = "base") -> None:  # noqa: A002
        await say(interaction, rules_text(set, user_language(interaction)))

    @carc.command(name="export", description="The game's record (JSON), replayable offline")
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self._game_id(interaction, game)
        record = await self.service.export(game_id, guild_id=guild_of(interaction))
        data = json.dumps(record, indent=1).encode()
        await interaction.followup.send(
            _("Record of game #{id} ({command}).").format(
                id=game_id, command=f"`python -m engine.replay carcassonne-{game_id}.json`"
            ),
            file=discord.File(io.BytesIO(data), filename=f"carcassonne-{game_id}.json"),
            ephemeral=True,
        )

    @carc.command(name="games", description="Your games and this server's")
    async def games(self, interaction: discord.Interaction) -> None:
        mine = await self.service.games(user_id=str(interaction.user.id), guild_id=guild_of(interaction))
        here = await self.service.games(guild_id=guild_of(interaction))

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

    @carc.command(name="resign", description="Leave a game; your turns are then played automatically")
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self._game_id(interaction, game)
        lines = await self.service.resign(game_id, str(interaction.user.id), guild_id=guild_of(interaction))
        await say(interaction, _("You left game #{id}.").format(id=game_id))
        await self.announce(game_id, await self.service.turn(game_id), lines, interaction.channel)

    @carc.command(name="settings", description="Your notification settings")
    @app_commands.describe(dm="Also send me a direct message when it is my turn")
    async def settings(self, interaction: discord.Interaction, dm: bool) -> None:
        # The DMs speak the language Discord reports for the player now.
        language = user_language(interaction)
        await self.service.save_player(str(interaction.user.id), interaction.user.display_name, dm, language)
        await say(interaction, _("Turn DMs are on.") if dm else _("Turn DMs are off."))

    # ------------------------------------------------------------------ moderation
    @carc.command(name="abort", description="Stop a game for good (server managers, or the lobby's creator)")
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._game_id(interaction, game)
        await self.service.abort(
            game_id, str(interaction.user.id), _is_manager(interaction), guild_id=guild_of(interaction)
        )
        with speak(game_language(await self.service.lobby(game_id))):
            text = _("Game #{id} was aborted by {player}.").format(
                id=game_id, player=present.safe(interaction.user.display_name, 40)
            )
        await interaction.response.send_message(text, allowed_mentions=present.NO_PINGS)

    @carc.command(name="kick", description="Remove a player from a game (server managers)")
    async def kick(self, interaction: discord.Interaction, player: discord.User, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await self._game_id(interaction, game)
        lines = await self.service.kick(
            game_id, str(player.id), by_manager=_is_manager(interaction), guild_id=guild_of(interaction)
        )
        await say(
            interaction,
            _("{player} was removed from game #{id}.").format(player=present.safe(player.display_name, 40), id=game_id),
        )
        await self.announce(game_id, await self.service.turn(game_id), lines, interaction.channel)

    # ------------------------------------------------------------------ deadlines
    @tasks.loop(minutes=1)
    async def deadlines(self) -> None:
        try:
            notices = await self.service.tick()
        except Exception:  # the clock must keep ticking for every other game
            log.exception("the deadline tick failed")
            return
        for notice in notices:
            try:
                await self._post_notice(notice)
                self._failing.discard(notice.game_id)
            except Exception:
                if notice.game_id not in self._failing:
                    log.exception("notice for game %s failed", notice.game_id)
                self._failing.add(notice.game_id)

    async def _post_notice(self, notice: Any) -> None:
        channel = await self.thread_of(notice.game_id)
        if notice.kind == "reminder":
            if channel is not None:
                await channel.send(
                    present.clip(f"{present.mention(notice.user_id, notice.player)} " + " ".join(notice.lines)),
                    allowed_mentions=present.ping(notice.user_id),
                )
        elif notice.turn is not None:
            await self.post_turn(channel, notice.game_id, notice.turn, notice.lines)
            await self.notify_by_dm(notice.turn)

    @deadlines.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


def needs(missing: list[str]) -> str:
    return _("I need these permissions in this channel first: {permissions}.").format(permissions=", ".join(missing))


def rules_text(set_name: str, language: str = "en") -> str:
    """The section of the rules digest for a set, in ``language`` (``service/rules.md``, or its
    translation ``service/rules.<language>.md``, written from the French rule pages)."""
    path = RULES_FILE.with_suffix(f".{language}.md")
    text = (path if path.exists() else RULES_FILE).read_text(encoding="utf-8")
    for section in text.split("\n## "):
        if section.startswith(set_name + " ") or section.startswith(set_name + "\n"):
            return present.clip("## " + section.strip())
    return _("No rules for {set}.").format(set=present.safe(set_name, 20))
