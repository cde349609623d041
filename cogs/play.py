"""The play phase: turn posts' Take turn (cogs.panel), ``/carc place`` with its autocomplete,
``board``, ``tiles``, ``rules``, leaving and removing players, turn DMs, and the deadline clock."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import present
from cogs.common import PhaseCog, caller_of, cooldown, game_id_of, parse_cell, picture, say, table_of
from cogs.i18n import speak, user_language
from cogs.metrics import FAILED_POSTS
from cogs.panel import PanelState, played, show_panel
from engine.catalog import SET_TILES
from engine.expansions.registry import set_title
from engine.language import _, ngettext
from engine.words import tile_name
from renderer.board import label_cells
from renderer.jobs import bag_png, board_pieces_png, board_png, cell_labels
from service import Caller, PlayResult, ServiceError, TurnView
from service.clock import TICK_EVERY
from service.rules import rules_section

log = logging.getLogger(__name__)

class Play(PhaseCog):
    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self._failing: set[int] = set()  # games whose notices failed (logged once)
        self._unposted: list[Any] = []  # the notices of the tick being posted, not posted yet

    async def cog_load(self) -> None:
        await super().cog_load()
        if getattr(self.bot, "service", None) is not None:
            self.service.outbox_turns = True  # the turn posts (cogs.table.announce) mark their outbox rows
            self.deadlines.start()

    async def cog_unload(self) -> None:
        self.deadlines.cancel()
        with contextlib.suppress(Exception):  # shutting down: another instance may take the clock at once
            await self.service.not_posted(self._unposted)  # what the cancelled loop did not post yet
            await self.service.release_clock()

    @app_commands.command(name="place", description="Play your turn in one command (the panel opens for what is left)")
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
        game_id = await game_id_of(interaction, game)
        who = caller_of(interaction)
        view = await self.service.turn(who, game_id)
        labels = label_cells(list(view.placements))
        target = parse_cell(cell, labels) if view.placements else (0, 0)
        picks = await self.service.picks_for(who, game_id, target, rot, spot)
        answer = await self.service.pick(who, game_id, picks, view.version)
        if isinstance(answer, PlayResult):
            if answer.again:  # a committed draw: the panel asks for the tile
                await show_panel(interaction, PanelState(game_id, answer.turn.version, []))
                return
            await say(interaction, played(answer.lines))
            await table_of(self.bot).announce(answer.turn, answer.lines, interaction.channel, answer.outbox)
            return
        await show_panel(interaction, PanelState(game_id, view.version, picks))

    async def _question_for(self, interaction: discord.Interaction) -> TurnView | None:
        try:
            game = getattr(interaction.namespace, "game", None)
            game_id = await game_id_of(interaction, game if isinstance(game, int) else None)
            view: TurnView = await self.service.turn(caller_of(interaction), game_id)
        except (ServiceError, ValueError):
            return None
        return view if view.user_id == str(interaction.user.id) else None

    @place.autocomplete("cell")
    async def _cells(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._question_for(interaction)
        if view is None or not view.placements:
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

    @place.autocomplete("rot")  # type: ignore[arg-type]  # discord.py types every autocomplete as a text one
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
            who = caller_of(interaction)
            picks = await self.service.picks_for(who, view.game_id, target, rot if isinstance(rot, int) else None, None)
            ask = await self.service.ask(who, view.game_id, picks)
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
    @app_commands.command(name="board", description="The whole board as it stands (only you see it)")
    @cooldown()
    @app_commands.describe(
        around="Only part of the board: around a cell (x,y), or a quarter: nw, ne, sw, se", game="The game's number"
    )
    async def board(self, interaction: discord.Interaction, around: str | None = None, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await game_id_of(interaction, game)
        who = caller_of(interaction)
        view = await self.service.turn(who, game_id)
        region: Any = None
        if around and around.strip().lower() in ("nw", "ne", "sw", "se"):
            region = around.strip().lower()
        elif around:
            x, y = parse_cell(around, {})
            region = (x, y, 3)
        language = user_language(interaction)
        pngs: list[bytes] = []
        # The current choice of the player to move, lettered as their turn post letters it.
        legal = cell_labels(view.placements) or None
        if region is None and self.service.workers is not None:  # whole, and in quarters if too big to read
            try:
                pngs = await self.service.picture(who, board_pieces_png, game_id, legal, language=language)
            except Exception:  # a picture is never a reason to fail: the answer says it could not be made
                log.exception("board pieces for game %s", game_id)
        else:
            png = await picture(self.service, board_png, game_id, region, legal, who=who, language=language)
            pngs = [png] if png else []
        if not pngs:
            raise ServiceError(_("The picture could not be made; please try again."))
        names = ["board.png", "board-nw.png", "board-ne.png", "board-sw.png", "board-se.png"]
        await interaction.followup.send(
            _("Game #{id}, turn {turn}").format(id=game_id, turn=view.turn),
            files=[present.png_file(png, name) for png, name in zip(pngs, names, strict=False)],
            ephemeral=True,
        )

    @app_commands.command(name="hint", description="What the hard computer would play now (if the game allows hints)")
    @cooldown()
    @app_commands.describe(game="The game's number")
    async def hint(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # it thinks about a second
        game_id = await game_id_of(interaction, game)
        who = caller_of(interaction)
        view = await self.service.turn(who, game_id)
        advice = await self.service.hint(who, game_id)
        letters = label_cells(list(view.placements))
        steps = []
        for move, label in zip(advice.moves, advice.labels, strict=True):
            if move["type"] in ("tile", "castle") and "rot" in move:  # as the turn picture letters it
                label = f"{letters.get((move['x'], move['y']), '?')} ({move['x']}, {move['y']}) · {move['rot']}°"
            steps.append(label)
        text = _("Hint for game #{id}, turn {turn}: {moves}.").format(
            id=game_id, turn=view.turn, moves="; ".join(steps)
        ) + "\n" + _(
            "You stand {now:+.0f} against the best other player (scores, and what your followers hold); "
            "after this, the hard computer expects {expected:+.0f} two turns from now."
        ).format(now=advice.now, expected=advice.expected)
        await interaction.followup.send(present.clip(text), ephemeral=True)

    @app_commands.command(name="tiles", description="What is left in the bag")
    @cooldown()
    async def tiles(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await game_id_of(interaction, game)
        who = caller_of(interaction)
        bag = await self.service.bag(who, game_id)
        counts: dict[str, int] = {}
        for tile_id, n in bag.items():
            counts[tile_name(tile_id)] = counts.get(tile_name(tile_id), 0) + n
        text = ", ".join(f"{name} ×{n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        left = sum(bag.values())
        said = ngettext("{n} tile left: {tiles}", "{n} tiles left: {tiles}", left).format(n=left, tiles=text)
        title = ngettext("Game #{id}: {n} tile left", "Game #{id}: {n} tiles left", left).format(id=game_id, n=left)
        png = await picture(self.service, bag_png, game_id, bag, title, who=who, language=user_language(interaction))
        files = [present.png_file(png, "tiles.png")] if png and bag else []
        await interaction.followup.send(present.clip(said), files=files, ephemeral=True)

    @app_commands.command(name="rules", description="The short rules of a set")
    @app_commands.choices(set=[app_commands.Choice(name=set_title(s), value=s) for s in SET_TILES])
    async def rules(self, interaction: discord.Interaction, set: str = "base") -> None:  # noqa: A002
        await say(interaction, rules_text(set, user_language(interaction)))

    @app_commands.command(
        name="resign",
        description="Leave a game: in a duel the other player wins at once; with more players your turns are automatic",
    )
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await game_id_of(interaction, game)
        who = caller_of(interaction)
        lines = await self.service.resign(who, game_id)
        await say(interaction, _("You left game #{id}.").format(id=game_id))
        view = await self.service.turn(who, game_id)
        await table_of(self.bot).announce(view, lines, interaction.channel, getattr(lines, "outbox", None))

    @app_commands.command(name="settings", description="Your notification settings")
    @app_commands.describe(dm="Also send me a direct message when it is my turn")
    async def settings(self, interaction: discord.Interaction, dm: bool) -> None:
        # The DMs speak the language Discord reports for the player now.
        language = user_language(interaction)
        await self.service.save_player(caller_of(interaction), interaction.user.display_name, dm, language)
        await say(interaction, _("Turn DMs are on.") if dm else _("Turn DMs are off."))

    @app_commands.command(name="vacation", description="Pause your turns' clocks in every game for some days")
    @app_commands.describe(days="How many days (0: you are back)")
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 366]) -> None:
        who = caller_of(interaction)
        until = await self.service.vacation(who, interaction.user.display_name, days)
        if until is None:
            await say(interaction, _("Welcome back: your turns' clocks run again."))
            return
        # The others are told where the game now waits for this player.
        for row in await self.service.games(who, who.user_id, status="active"):
            view = await self.service.turn(Caller.system(row.guild_id), row.id)
            if view.user_id == who.user_id:
                channel = await table_of(self.bot).thread_of(row.id, row.guild_id)
                if channel is not None:
                    with speak(view.language):
                        line = present.away_line(view.player or "?", until)
                    with contextlib.suppress(discord.HTTPException):
                        await channel.send(present.clip(line), allowed_mentions=present.NO_PINGS)
        await say(
            interaction,
            _(
                "You are on vacation until {until}: in every game, your turns wait for you, with no reminder "
                "and no timeout, and start over when you are back. /carc vacation days:0 ends it early."
            ).format(until=f"<t:{int(until.timestamp())}:f>"),
        )

    @app_commands.command(name="forget-me", description="Remove your name and settings from the bot's records")
    @app_commands.describe(confirm="True to do it (without it, what would be removed is explained)")
    async def forget_me(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        if not confirm:
            await say(
                interaction,
                _(
                    "This removes your settings (turn DMs, their language) and your name from every game you "
                    "played and every league you joined, records included: you become \"Player N\" there. "
                    "Your moves stay, under that name, so the games stay whole. Run /carc forget-me confirm:True "
                    "to do it; it cannot be undone."
                ),
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        games = await self.service.forget_me(caller_of(interaction))
        await interaction.followup.send(
            ngettext(
                "Done: your settings are gone and your name was removed from {n} game.",
                "Done: your settings are gone and your name was removed from {n} games.",
                games,
            ).format(n=games),
            ephemeral=True,
        )

    @app_commands.command(name="kick", description="Remove a player from a game (server managers)")
    async def kick(self, interaction: discord.Interaction, player: discord.User, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game_id = await game_id_of(interaction, game)
        who = caller_of(interaction)
        lines = await self.service.kick(who, game_id, str(player.id))
        await say(
            interaction,
            _("{player} was removed from game #{id}.").format(player=present.safe(player.display_name, 40), id=game_id),
        )
        view = await self.service.turn(who, game_id)
        await table_of(self.bot).announce(view, lines, interaction.channel, getattr(lines, "outbox", None))

    # ------------------------------------------------------------------ unknown components
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A ``carc:`` button or menu that no component of this release answers (an old release's,
        or a forged id) gets a kind private answer instead of Discord's "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str) or not custom_id.startswith("carc:") or _answered(custom_id):
            return
        with speak(user_language(interaction)), contextlib.suppress(discord.HTTPException):
            await say(interaction, _("This button is from an older version of the bot; open a new lobby."))

    # ------------------------------------------------------------------ deadlines
    @tasks.loop(seconds=TICK_EVERY.total_seconds())
    async def deadlines(self) -> None:
        try:
            notices = await self.service.tick()
        except Exception:  # the clock must keep ticking for every other game
            log.exception("the deadline tick failed")
            return
        # Each notice is in the outbox since its change committed: it is marked posted once its
        # post went out; a failed post is offered again at the next tick (of any process), and what
        # a killed process left unposted is posted by the next one that ticks.
        self._unposted = list(notices)
        for notice in notices:
            try:
                await table_of(self.bot).post_notice(notice)
            except Exception:
                FAILED_POSTS.labels("notice").inc()
                if notice.game_id not in self._failing:
                    log.exception("notice for game %s failed", notice.game_id)
                self._failing.add(notice.game_id)
                self._unposted.remove(notice)
                with contextlib.suppress(Exception):
                    await self.service.not_posted([notice])
                continue
            self._failing.discard(notice.game_id)
            self._unposted.remove(notice)
            try:
                await self.service.posted([notice])
            except Exception:  # the next tick marks it (the loop posted it): logged, not reposted
                log.exception("notice for game %s posted but not marked", notice.game_id)

    @deadlines.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()


def _answered(custom_id: str) -> bool:
    """Whether a component of this release takes this custom id (its template matches it whole)."""
    stack: list[type] = [discord.ui.DynamicItem]
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        template = getattr(cls, "__discord_ui_compiled_template__", None)
        if template is not None and template.fullmatch(custom_id):
            return True
    return False


def rules_text(set_name: str, language: str = "en") -> str:
    """The section of the rules digest for a set, in ``language`` (service.rules: the base game's
    in ``service/rules.md``, each expansion's in its package, with their translations)."""
    section = rules_section(set_name, language)
    if section is None:
        return _("No rules for {set}.").format(set=present.safe(set_name, 20))
    return present.clip(section)
