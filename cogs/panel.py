"""The turn panel: the Take turn button and the private panel it opens.

Every component is a persistent ``DynamicItem``: its ``custom_id`` carries all it
needs, so it keeps working after a restart and long after the 15 minutes an
interaction token lives. The panel renders the service's answer to "what
must this user decide now, given the picks so far" (``GameService.ask``); its
components carry the game, the version the player saw and the picks made so far,
so the panel holds no state and never re-derives the turn. A normal turn takes
three interactions: Take turn, where the tile goes (cell and rotation in one
choice when they fit in one menu), and the figure — which plays the turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from cogs import present
from cogs.common import Localised, caller_of, guarded, picture, pictures, say, service_of, table_of
from engine.language import _, sentence
from engine.moves import Question
from engine.words import tile_name
from renderer.board import label_cells
from renderer.jobs import cell_labels, preview_png, turn_pngs
from service import AlreadyPlayed, Ask, PlayResult, ServiceError, TurnView

PAGE = 25  # Discord's limit of options in one select
BUTTONS = 20  # options shown as buttons (4 rows of 5; the last row keeps Back / No figure)


# ---------------------------------------------------------------------- turns
class TakeTurnButton(
    Localised, discord.ui.DynamicItem[discord.ui.Button],
    template=r"carc:turn:(?P<game>\d{1,18}):(?P<version>\d{1,9})",
):  # fmt: skip
    """On every turn message. Any Take turn button of a game opens the panel of whoever
    must decide now: an older message's button never leads nowhere."""

    def __init__(self, game_id: int, version: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_("Take turn"), style=discord.ButtonStyle.primary, custom_id=f"carc:turn:{game_id}:{version}"
        )
        super().__init__(button)
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._open(interaction))

    async def _open(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = service_of(interaction)
        try:
            view = await service.turn(caller_of(interaction), self.game_id)
        except ServiceError as exc:
            await say(interaction, str(exc))
            return
        if view.finished:
            await say(interaction, _("Game #{id} is over.").format(id=self.game_id))
            return
        if view.user_id != str(interaction.user.id):
            who = present.safe(view.player or "?", 40)
            if view.started_at:
                text = _("It is {player}'s decision in game #{id}, not yours (waiting since {when}).").format(
                    player=who, id=self.game_id, when=present.timestamp(view.started_at)
                )
            else:
                text = _("It is {player}'s decision in game #{id}, not yours.").format(player=who, id=self.game_id)
            await say(interaction, text)
            return
        await show_panel(interaction, PanelState(self.game_id, view.version, []))


def turn_view(view: TurnView) -> discord.ui.View | None:
    if view.finished:
        return None
    out = discord.ui.View(timeout=None)
    out.add_item(TakeTurnButton(view.game_id, view.version))
    return out


# ---------------------------------------------------------------------- the panel
@dataclass
class PanelState:
    """Where a panel stands: the game version the player saw and the picks made so far;
    ``page`` and ``group`` only say which part of a long list is on screen."""

    game_id: int
    version: int
    picks: list[int]
    page: int = 0
    group: int | None = None

    def custom_id(self, kind: str, act: str) -> str:
        picks = ".".join(map(str, self.picks))
        return f"carc:{kind}:{self.game_id}:{self.version}:{picks}:{act}"


_PANEL = r":(?P<game>\d{1,18}):(?P<version>\d{1,9}):(?P<picks>(?:\d{1,4}(?:\.\d{1,4}){0,11})?):(?P<act>[a-z]\d{0,4})"


def _state(match: re.Match[str]) -> PanelState:
    picks = [int(p) for p in match["picks"].split(".") if p]
    return PanelState(int(match["game"]), int(match["version"]), picks)


class PanelButton(Localised, discord.ui.DynamicItem[discord.ui.Button], template="carc:pb" + _PANEL):
    def __init__(self, state: PanelState, act: str, label: str, style: discord.ButtonStyle) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=present.clip(label, 80), style=style, custom_id=state.custom_id("pb", act)
        )
        super().__init__(button)
        self.state, self.act = state, act

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(_state(match), match["act"], item.label or "?", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, on_panel(interaction, self.state, self.act))


class PanelSelect(Localised, discord.ui.DynamicItem[discord.ui.Select], template="carc:ps" + _PANEL):
    """A menu of the panel; ``slot`` tells two menus of one message apart (custom ids are unique)."""

    def __init__(
        self, state: PanelState, placeholder: str, options: list[discord.SelectOption], slot: str = "s"
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=state.custom_id("ps", slot), placeholder=present.clip(placeholder, 150),
            options=options or [discord.SelectOption(label="—", value="x")], min_values=1, max_values=1,
        )  # fmt: skip
        super().__init__(select)
        self.state = state

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        made = cls(_state(match), "", [])
        made.item = item
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(getattr(self.item, "values", []) or [])
        act = values[0] if values and re.fullmatch(r"[a-z]\d{0,4}", values[0]) else "r"
        await guarded(interaction, on_panel(interaction, self.state, act))


async def on_panel(interaction: discord.Interaction, state: PanelState, act: str) -> None:
    """A click on the panel: ``o{n}`` picks option n, ``g{k}`` opens group k of a long
    list, ``p{n}`` shows page n, ``b`` takes the last pick back, ``r`` shows it again."""
    await interaction.response.defer()  # updates the panel message; never a public "thinking"
    kind, number = act[0], int(act[1:] or 0)
    if kind == "o":
        state = PanelState(state.game_id, state.version, state.picks + [number])
    elif kind == "g":
        state.group = number
    elif kind == "p":
        state.page = number
    elif kind == "b":
        state = PanelState(state.game_id, state.version, state.picks[:-1])
    service = service_of(interaction)
    try:
        who = caller_of(interaction)
        if kind == "o":
            answer = await service.pick(who, state.game_id, state.picks, state.version)
        else:
            answer = await service.ask(who, state.game_id, state.picks, state.version)
    except AlreadyPlayed:
        await _close(interaction, _("This decision has been made already (or the game moved on): press the "
                                    "Take turn button of the newest turn message."))  # fmt: skip
        return
    except ServiceError as exc:
        await say(interaction, str(exc))
        return
    if isinstance(answer, PlayResult):
        if answer.again:  # a committed draw, say: the same player goes on in the same turn
            await _update(interaction, PanelState(state.game_id, answer.turn.version, []))
            return
        await _close(interaction, played(answer.lines))
        await table_of(interaction.client).announce(answer.turn, answer.lines, interaction.channel, answer.outbox)
        return
    await _update(interaction, state, answer)


async def _close(interaction: discord.Interaction, text: str) -> None:
    await interaction.edit_original_response(content=present.clip(text), view=None, attachments=[])


async def _update(interaction: discord.Interaction, state: PanelState, ask: Ask | None = None) -> None:
    try:
        ask = ask or await service_of(interaction).ask(caller_of(interaction), state.game_id, [], state.version)
        content, view, files = await render_panel(interaction, state, ask)
    except ServiceError as exc:
        await _close(interaction, str(exc))
        return
    await interaction.edit_original_response(content=content, view=view, attachments=files)


async def show_panel(interaction: discord.Interaction, state: PanelState) -> None:
    """The first display of a panel, after an ephemeral defer."""
    try:
        ask = await service_of(interaction).ask(caller_of(interaction), state.game_id, state.picks, state.version)
        content, view, files = await render_panel(interaction, state, ask)
    except ServiceError as exc:
        await say(interaction, str(exc))
        return
    await interaction.followup.send(content=content, view=view, files=files, ephemeral=True)


def _placement_label(move: dict[str, Any], labels: dict[tuple[int, int], str]) -> str:
    where = f"{labels.get((move['x'], move['y']), '?')} ({move['x']}, {move['y']})"
    if move["type"] == "castle":
        where = _("{castle} at {cell}").format(castle=tile_name(move["castle"]), cell=where)
    return f"{where} · {move['rot']}°"


def played(lines: list[str]) -> str:
    """The private answer to a move that was played: what it did (the thread shows the rest)."""
    return _("Played: {what}").format(what=" ".join(present.safe(line, 200) for line in lines[:3]))


async def render_panel(
    interaction: discord.Interaction, state: PanelState, ask: Ask
) -> tuple[str, discord.ui.View, list[discord.File]]:
    """The panel's text, components and picture for the service's answer."""
    question = ask.question
    assert question is not None
    view = discord.ui.View(timeout=None)
    files: list[discord.File] = []
    moves = question.moves()
    head = _("Game #{id}, turn {turn} — {question}.").format(
        id=state.game_id, turn=question.turn, question=question.prompt
    )
    done = "; ".join(ask.labels)
    lines = [head] + ([_("So far: {choices}.").format(choices=done)] if done else [])
    placing = [i for i, m in enumerate(moves) if "rot" in m]
    others = [i for i in range(len(moves)) if i not in placing]
    if placing:
        lines += await _placement_panel(interaction, state, question, moves, placing, view, files)
    if others:
        lines += _choice_panel(state, question, ask, moves, others, view, bool(placing))
        if question.kind == "figure" and ask.moves and ask.moves[-1].get("type") in ("tile", "castle"):
            placed = ask.moves[-1]
            png = await picture(service_of(interaction), preview_png, ask.turn.game_id, placed["x"], placed["y"],
                                placed.get("castle"), placed["rot"], who=caller_of(interaction))  # fmt: skip
            if png:
                files.append(present.png_file(png, "preview.png"))
    if state.picks and len(view.children) < 25:
        view.add_item(PanelButton(state, "b", _("◀ Back"), discord.ButtonStyle.secondary))
    return present.clip("\n".join(lines)), view, files


async def _placement_panel(
    interaction: discord.Interaction, state: PanelState, question: Question, moves: list[dict[str, Any]],
    placing: list[int], view: discord.ui.View, files: list[discord.File],
) -> list[str]:  # fmt: skip
    cells = sorted({(moves[i]["x"], moves[i]["y"]) for i in placing}, key=lambda c: (c[1], c[0]))
    labels = label_cells(cells)
    groups: dict[tuple[Any, int, int], list[int]] = {}
    for i in placing:
        m = moves[i]
        groups.setdefault((m.get("castle"), m["x"], m["y"]), []).append(i)
    keys = sorted(groups, key=lambda k: (labels[(k[1], k[2])], str(k[0])))
    text: list[str] = []
    if question.kind == "tile":
        legal = cell_labels(cells)
        pngs = await pictures(service_of(interaction), turn_pngs, state.game_id, legal, who=caller_of(interaction))
        files += present.turn_files(pngs)
        text.append(_("Pick where the tile goes (the letters are on the picture), and how it is turned."))
    if len(placing) <= PAGE:
        options = [discord.SelectOption(label=_placement_label(moves[i], labels), value=f"o{i}") for i in placing]
        view.add_item(PanelSelect(state, _("Where and how"), options))
        return text
    if state.group is not None and 0 <= state.group < len(keys):
        key = keys[state.group]
        where = _placement_label(moves[groups[key][0]], labels).rsplit(" · ", 1)[0]
        text.append(_("{cell}: pick the rotation.").format(cell=where))
        for i in groups[key]:
            view.add_item(PanelButton(state, f"o{i}", f"{moves[i]['rot']}°", discord.ButtonStyle.primary))
        view.add_item(PanelButton(state, "r", _("Other cell"), discord.ButtonStyle.secondary))
        return text
    pages = (len(keys) + PAGE - 1) // PAGE
    page = min(max(state.page, 0), pages - 1)
    options = []
    for k, key in enumerate(keys[page * PAGE : (page + 1) * PAGE], start=page * PAGE):
        members = groups[key]
        label = _placement_label(moves[members[0]], labels)
        if len(members) == 1:
            options.append(discord.SelectOption(label=label, value=f"o{members[0]}"))
        else:
            turns = ", ".join(f"{moves[i]['rot']}°" for i in members)
            options.append(discord.SelectOption(label=label.rsplit(" · ", 1)[0], value=f"g{k}", description=turns))
    placeholder = _("Cell (page {page} of {pages})").format(page=page + 1, pages=pages) if pages > 1 else _("Cell")
    view.add_item(PanelSelect(state, placeholder, options))
    if page > 0:
        view.add_item(PanelButton(state, f"p{page - 1}", _("◀ cells"), discord.ButtonStyle.secondary))
    if page + 1 < pages:
        view.add_item(PanelButton(state, f"p{page + 1}", _("cells ▶"), discord.ButtonStyle.secondary))
    return text


def _choice_panel(
    state: PanelState, question: Question, ask: Ask, moves: list[dict[str, Any]], indices: list[int],
    view: discord.ui.View, crowded: bool,
) -> list[str]:  # fmt: skip
    labels = {i: (question.options[i].label if i < len(question.options) else question.pass_label or _("pass"))
              for i in indices}  # fmt: skip
    numbers = ask.spot_numbers
    lines = []
    for i in indices:
        if i in numbers:
            lines.append(f"**{numbers[i]}** — {labels[i]}")
    if numbers:
        lines.insert(0, _("Follower spots, numbered as on the preview:"))
    passing = [i for i in indices if moves[i]["type"] == "pass"]
    choices = [i for i in indices if i not in passing]
    if len(choices) <= (5 if crowded else BUTTONS):  # beside a placement menu: one row of buttons
        for i in choices:
            label = f"{numbers[i]} · {labels[i]}" if i in numbers else labels[i]
            view.add_item(PanelButton(state, f"o{i}", label, discord.ButtonStyle.primary))
    else:
        pages = max(1, (len(choices) + PAGE - 1) // PAGE)
        page = min(max(state.page, 0), pages - 1)
        options = [
            discord.SelectOption(
                label=present.clip(f"{numbers[i]} · {labels[i]}" if i in numbers else labels[i], 100), value=f"o{i}"
            )  # fmt: skip
            for i in choices[page * PAGE : (page + 1) * PAGE]
        ]
        if options:
            view.add_item(PanelSelect(state, _("Your choice"), options, slot="t"))
        if page > 0:
            view.add_item(PanelButton(state, f"p{page - 1}", _("◀ more"), discord.ButtonStyle.secondary))
        if page + 1 < pages:
            view.add_item(PanelButton(state, f"p{page + 1}", _("more ▶"), discord.ButtonStyle.secondary))
    for i in passing:
        view.add_item(PanelButton(state, f"o{i}", sentence(labels[i]), discord.ButtonStyle.secondary))
    return lines
