"""Buttons, selects and the turn panel.

Persistent components are ``DynamicItem``s whose ``custom_id`` carries the game
(and, for the turn button, the game version), so they keep working after a
restart and a click on an old one is recognised as stale. The turn panel is an
ephemeral view built step by step from the service's answers.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from cogs import present
from engine.catalog import SET_TILES
from engine.expansions.castles import CASTLE_IDS
from renderer.board import label_cells, png_bytes
from renderer.preview import render_preview
from service import AlreadyPlayed, ServiceError, TurnView
from service.games import choice_label

if TYPE_CHECKING:
    from service import GameService

log = logging.getLogger(__name__)
PAGE = 25  # Discord's limit of options in one select


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


async def say(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


# ---------------------------------------------------------------------- lobby
def lobby_view(row: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if row.status == "lobby":
        for action in ("join", "leave", "ai", "start"):
            view.add_item(LobbyButton(row.id, action))
        view.add_item(SetsSelect(row.id, row.options["sets"]))
        if "castles" in row.options["sets"] and row.options.get("castles") == "chosen":
            view.add_item(CastlesSelect(row.id))
    return view


async def refresh_lobby(interaction: discord.Interaction, change: Awaitable[Any]) -> None:
    """Apply a lobby change; show the lobby as it now is, or say why it could not change."""
    try:
        row = await change
    except ServiceError as exc:
        await say(interaction, str(exc))
        return
    await interaction.response.edit_message(embed=present.lobby_embed(row), view=lobby_view(row))


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"carc:lobby:(?P<game>\d+):(?P<action>\w+)"):
    LABELS = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "ai": ("Add computer", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
    }

    def __init__(self, game_id: int, action: str) -> None:
        label, style = self.LABELS.get(action, (action, discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"carc:lobby:{game_id}:{action}"))
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.carc import start_game  # the thread and first turn are the cog's business

        service = service_of(interaction)
        user = interaction.user
        if self.action == "join":
            await refresh_lobby(interaction, service.join(self.game_id, str(user.id), user.display_name))
        elif self.action == "leave":
            await refresh_lobby(interaction, service.leave(self.game_id, str(user.id)))
        elif self.action == "ai":
            await refresh_lobby(interaction, service.add_ai(self.game_id, str(user.id)))
        elif self.action == "start":
            await start_game(interaction, self.game_id)
        else:
            await say(interaction, "This button is from an older version of the bot; open a new lobby.")


class SetsSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"carc:sets:(?P<game>\d+)"):
    def __init__(self, game_id: int, chosen: list[str] | None = None) -> None:
        chosen = chosen or ["base"]
        options = [
            discord.SelectOption(label=present.SET_NAMES[name], value=name, default=name in chosen)
            for name in SET_TILES
        ]
        select = discord.ui.Select(
            custom_id=f"carc:sets:{game_id}", placeholder="Sets", min_values=1, max_values=len(options),
            options=options,
        )  # fmt: skip
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        await refresh_lobby(
            interaction, service.set_options(self.game_id, str(interaction.user.id), sets=self.item.values)
        )


class CastlesSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"carc:castles:(?P<game>\d+)"):
    """Each player picks their castles in the lobby (1 or 2, by the number of players at the start)."""

    def __init__(self, game_id: int) -> None:
        options = [discord.SelectOption(label=c.split(".", 1)[1].capitalize(), value=c) for c in CASTLE_IDS]
        select = discord.ui.Select(
            custom_id=f"carc:castles:{game_id}", placeholder="Your castles", min_values=1, max_values=2,
            options=options,
        )  # fmt: skip
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        await refresh_lobby(
            interaction, service.choose_castles(self.game_id, str(interaction.user.id), self.item.values)
        )


# ---------------------------------------------------------------------- turns
class TakeTurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"carc:turn:(?P<game>\d+):(?P<version>\d+)"):
    def __init__(self, game_id: int, version: int) -> None:
        button = discord.ui.Button(
            label="Take turn", style=discord.ButtonStyle.primary, custom_id=f"carc:turn:{game_id}:{version}"
        )
        super().__init__(button)
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = service_of(interaction)
        try:
            view = await service.turn(self.game_id)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        if view.finished:
            await say(interaction, f"Game #{self.game_id} is over.")
            return
        if view.version != self.version:
            await say(interaction, "This button belongs to a turn that has been played; use the newest one.")
            return
        if view.user_id != str(interaction.user.id):
            await say(interaction, f"It is {view.player}'s turn, not yours.")
            return
        panel = TurnPanel(service, view, str(interaction.user.id))
        await panel.show(interaction)


def turn_view(view: TurnView) -> discord.ui.View | None:
    if view.finished:
        return None
    out = discord.ui.View(timeout=None)
    out.add_item(TakeTurnButton(view.game_id, view.version))
    return out


class TurnPanel(discord.ui.View):
    """The ephemeral panel: cell, rotation, then each choice the rules ask; Confirm."""

    def __init__(self, service: GameService, view: TurnView, user_id: str) -> None:
        super().__init__(timeout=15 * 60)
        self.service = service
        self.start = view  # the turn as it was when the panel opened
        self.current = view  # what the player is asked now
        self.user_id = user_id
        self.draft: list[dict[str, Any]] = []
        self.cell: tuple[int, int] | None = None
        self.castle: str | None = None  # a castle being placed instead of drawing
        self.tile_name = view.tile
        self.page = 0
        self.done = False

    # -- drawing
    def _content(self) -> str:
        s = self.start
        if self.done:
            return "Played."
        if self.ready:
            summary = "; ".join(self._describe(m) for m in self.draft)
            return f"Your turn in game #{s.game_id}: {summary}. Confirm?"
        castle = self.castle.split(".", 1)[1].capitalize() if self.castle else None
        what = f"castle **{castle}**" if castle else f"**{self.current.tile}**"
        if self.current.step == "draw" and self.castle is None:
            return "Draw a tile, or place one of your castles instead."
        if self._placements() and self.cell is None:
            labels = " (the labels are on the board picture)" if self.castle is None else ""
            return f"Place {what}: pick a cell{labels}."
        if self._placements():
            x, y = self.cell  # type: ignore[misc]
            return f"{what} at ({x}, {y}): pick a rotation (follower spots are numbered)."
        return f"Choose ({self.current.step}):"

    @property
    def ready(self) -> bool:
        c = self.current
        return bool(self.draft) and (c.finished or c.turn != self.start.turn or c.player != self.start.player)

    def _describe(self, move: dict[str, Any]) -> str:
        if move["type"] == "tile":
            tile = self.tile_name or "the tile"
            return f"{tile} at ({move['x']}, {move['y']}) turned {move['rot']}°"
        return choice_label(move)

    def _build(self) -> None:
        self.clear_items()
        if self.done:
            return
        if self.ready:
            self.add_item(_Button("Confirm", discord.ButtonStyle.success, "panel:confirm", self._confirm))
            self.add_item(_Button("Start over", discord.ButtonStyle.secondary, "panel:restart", self._restart))
            return
        c = self.current
        placing = self._placements()
        if c.step == "draw" and self.castle is None:
            for i, choice in enumerate(c.choices):
                if choice.move["type"] == "draw":
                    self.add_item(_Button("Draw a tile", discord.ButtonStyle.primary, "panel:draw", self._draw(i)))
            for castle in dict.fromkeys(m.move["castle"] for m in c.choices if m.move["type"] == "castle"):
                name = castle.split(".", 1)[1].capitalize()
                self.add_item(
                    _Button(
                        f"Place {name}", discord.ButtonStyle.secondary, f"panel:castle:{castle}", self._castle(castle)
                    )
                )
        elif placing and self.cell is None:
            labels = label_cells(list(placing))
            cells = sorted(placing, key=lambda cell: (len(labels[cell]), labels[cell]))
            page = cells[self.page * PAGE : (self.page + 1) * PAGE]
            options = [
                discord.SelectOption(
                    label=f"{labels[cell]}  ({cell[0]}, {cell[1]})",
                    value=f"{cell[0]},{cell[1]}",
                    description="turns " + ", ".join(f"{r}°" for r in placing[cell]),
                )
                for cell in page
            ]
            self.add_item(_Select("panel:cell", "Cell", options, self._pick_cell))
            if len(cells) > PAGE:
                if self.page > 0:
                    self.add_item(_Button("◀ cells", discord.ButtonStyle.secondary, "panel:prev", self._prev))
                if (self.page + 1) * PAGE < len(cells):
                    self.add_item(_Button("cells ▶", discord.ButtonStyle.secondary, "panel:next", self._next))
        elif placing:
            for rot in placing[self.cell]:  # type: ignore[index]
                self.add_item(_Button(f"{rot}°", discord.ButtonStyle.primary, f"panel:rot:{rot}", self._rotation(rot)))
            self.add_item(_Button("Other cell", discord.ButtonStyle.secondary, "panel:back", self._back))
        else:
            page = c.choices[self.page * PAGE : (self.page + 1) * PAGE]
            options = [
                discord.SelectOption(label=choice.label[:100], value=str(self.page * PAGE + i))
                for i, choice in enumerate(page)
            ]
            self.add_item(_Select("panel:choice", "Your choice", options, self._pick_choice))
            if len(c.choices) > PAGE:
                if self.page > 0:
                    self.add_item(_Button("◀ more", discord.ButtonStyle.secondary, "panel:prev", self._prev))
                if (self.page + 1) * PAGE < len(c.choices):
                    self.add_item(_Button("more ▶", discord.ButtonStyle.secondary, "panel:next", self._next))
            if self.draft:
                self.add_item(_Button("Start over", discord.ButtonStyle.secondary, "panel:restart", self._restart))

    def _placements(self) -> dict[tuple[int, int], list[int]]:
        """Cell -> rotations of what is being placed: the drawn tile, or the castle picked."""
        c = self.current
        if c.step == "tile":
            return {cell: list(rots) for cell, rots in c.placements.items()}
        out: dict[tuple[int, int], list[int]] = {}
        if c.step == "draw" and self.castle is not None:
            for choice in c.choices:
                m = choice.move
                if m["type"] == "castle" and m["castle"] == self.castle:
                    out.setdefault((m["x"], m["y"]), []).append(m["rot"])
        return out

    async def _picture(self) -> discord.File | None:
        if self._placements() and self.cell is not None and not self.ready:
            _row, game = await self.service.game(self.start.game_id)
            preview = render_preview(game, *self.cell, castle=self.castle)
            return present.png_file(png_bytes(preview), "preview.png")
        return None

    async def show(self, interaction: discord.Interaction) -> None:
        """First display, after the Take turn click was deferred."""
        self._build()
        file = await self._picture()
        kwargs: dict[str, Any] = {"content": self._content(), "view": self, "ephemeral": True}
        if file:
            kwargs["file"] = file
        await interaction.followup.send(**kwargs)

    async def refresh(self, interaction: discord.Interaction) -> None:
        self._build()
        file = await self._picture()
        await interaction.response.edit_message(content=self._content(), view=self, attachments=[file] if file else [])

    # -- callbacks
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if str(interaction.user.id) != self.user_id:
            await say(interaction, "This panel is someone else's.")
            return False
        return True

    async def _still_current(self, interaction: discord.Interaction) -> bool:
        """False (and the panel closed with a word why) if the turn was played meanwhile."""
        try:
            now = await self.service.turn(self.start.game_id)
        except ServiceError as exc:
            now, reason = None, str(exc)
        else:
            reason = "This turn has already been played; use the newest Take turn button."
        if now is not None and now.version == self.start.version and not now.finished:
            return True
        self.done = True
        self.stop()
        await interaction.response.edit_message(content=reason, view=None, attachments=[])
        return False

    async def _pick_cell(self, interaction: discord.Interaction, values: list[str]) -> None:
        if not await self._still_current(interaction):
            return
        x, y = map(int, values[0].split(","))
        if (x, y) not in self._placements():
            await say(interaction, "That cell is not legal for this tile.")
            return
        self.cell = (x, y)
        await self.refresh(interaction)

    def _rotation(self, rot: int):
        async def pick(interaction: discord.Interaction) -> None:
            assert self.cell is not None
            move: dict[str, Any] = {"type": "tile", "x": self.cell[0], "y": self.cell[1], "rot": rot}
            if self.castle is not None:
                move = {"type": "castle", "castle": self.castle, **{k: move[k] for k in ("x", "y", "rot")}}
            self.castle, self.cell = None, None
            await self._advance(interaction, move)

        return pick

    def _draw(self, index: int):
        async def pick(interaction: discord.Interaction) -> None:
            await self._advance(interaction, self.current.choices[index].move)

        return pick

    def _castle(self, castle: str):
        async def pick(interaction: discord.Interaction) -> None:
            self.castle, self.cell, self.page = castle, None, 0
            await self.refresh(interaction)

        return pick

    async def _pick_choice(self, interaction: discord.Interaction, values: list[str]) -> None:
        index = int(values[0])
        if not 0 <= index < len(self.current.choices):
            await say(interaction, "That choice is not available any more.")
            return
        await self._advance(interaction, self.current.choices[index].move)

    async def _advance(self, interaction: discord.Interaction, move: dict[str, Any]) -> None:
        try:
            after = await self.service.options_after(
                self.start.game_id, self.user_id, self.start.version, self.draft + [move]
            )
        except AlreadyPlayed:
            self.done = True
            self.stop()
            await interaction.response.edit_message(
                content="This turn has already been played; use the newest Take turn button.", view=None, attachments=[]
            )
            return
        except ServiceError as exc:
            await say(interaction, f"Not possible: {exc}")
            return
        self.draft.append(move)
        if self.current.tile:
            self.tile_name = self.current.tile  # the tile just placed, for the summary
        self.current = after
        self.page = 0
        await self.refresh(interaction)

    async def _back(self, interaction: discord.Interaction) -> None:
        self.cell = None
        await self.refresh(interaction)

    async def _restart(self, interaction: discord.Interaction) -> None:
        self.draft, self.cell, self.castle, self.page, self.current = [], None, None, 0, self.start
        await self.refresh(interaction)

    async def _prev(self, interaction: discord.Interaction) -> None:
        self.page = max(0, self.page - 1)
        await self.refresh(interaction)

    async def _next(self, interaction: discord.Interaction) -> None:
        self.page += 1
        await self.refresh(interaction)

    async def _confirm(self, interaction: discord.Interaction) -> None:
        from cogs.carc import post_after_play  # posting in the thread is the cog's business

        await interaction.response.defer()
        try:
            result = await self.service.play(self.start.game_id, self.user_id, self.draft, self.start.version)
        except ServiceError as exc:
            self.done = True
            await interaction.edit_original_response(content=f"Not played: {exc}", view=None, attachments=[])
            return
        self.done = True
        self.stop()
        await interaction.edit_original_response(content="Played.", view=None, attachments=[])
        await post_after_play(interaction, self.start.game_id, result.lines, result.turn)


class _Button(discord.ui.Button):
    def __init__(self, label: str, style: discord.ButtonStyle, custom_id: str, action) -> None:
        super().__init__(label=label, style=style, custom_id=custom_id)
        self.action = action

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.action(interaction)


class _Select(discord.ui.Select):
    def __init__(self, custom_id: str, placeholder: str, options: list[discord.SelectOption], action) -> None:
        super().__init__(custom_id=custom_id, placeholder=placeholder, options=options, min_values=1, max_values=1)
        self.action = action

    async def callback(self, interaction: discord.Interaction) -> None:
        await self.action(interaction, list(self.values))
