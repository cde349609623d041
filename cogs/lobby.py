"""The lobby phase: ``/carc new``, the lobby message (Join, Leave, Start, the sets, Add a computer,
castles and language menus), starting a game in its thread, and aborting a game."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands

from cogs import present
from cogs.common import (
    Localised,
    PhaseCog,
    caller_of,
    game_id_of,
    guarded,
    missing_permissions,
    needs,
    say,
    service_of,
    table_of,
)
from cogs.i18n import game_language, server_language, speak
from engine.ai import LEVELS
from engine.catalog import SET_TILES
from engine.expansions import SeatPick
from engine.expansions.registry import lobby_options
from engine.game import known_sets
from engine.language import N_, _, sentence
from locales import LANGUAGES
from service import Caller, LobbyOptions, ServiceError
from service.timecontrol import PER_TURN, PRESETS, BadTimeControl, canonical, parse
from storage import GameRow

# /carc new's sets option lists the sets the game knows (the sets table, and any registered
# expansion's); the translator words the template in each language with the same list.
SETS_TEMPLATE = "Sets, comma-separated: {sets}"
SETS_HELP = app_commands.locale_str(
    SETS_TEMPLATE.format(sets=", ".join(known_sets())), template=SETS_TEMPLATE, sets=", ".join(known_sets())
)
log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- lobby
def lobby_view(row: Any) -> discord.ui.View:
    """The lobby message's buttons and menus (public: in the game's language)."""
    with speak(game_language(row)):
        return _lobby_view(row)


MENU_ROWS = 4  # Discord's five action rows: one for the buttons, four for menus


def _lobby_view(row: Any) -> discord.ui.View:
    """Every setting of the lobby has a control, whatever the sets: the buttons, the sets, a
    computer to add, each players' pick (castles chosen...), the language, the time control and
    every option the expansions declare (castles dealt or chosen...). When they are more than
    Discord's rows hold, the settings share one "Game options" menu (and the computer's level
    joins it if need be), so no control is ever dropped."""
    view = discord.ui.View(timeout=None)
    if row.status != "lobby":
        return view
    league = row.league_id is not None
    for action in ("join", "leave", "start"):
        view.add_item(LobbyButton(row.id, action))
    menus: list[Any] = []
    if not league:  # a league game uses the league's sets and settings, and has no computer seats
        menus += [SetsSelect(row.id, row.options["sets"]), AddComputerSelect(row.id)]
    for _cls, option in lobby_options(row.options["sets"]):  # players' own picks (castles chosen...)
        if option.pick is not None and row.options.get(option.name, option.default) == option.pick.when:
            menus.append(PickSelect(row.id, option.name))
    if not league:
        declared = any(len(o.choices) > 1 for _cls, o in lobby_options(row.options["sets"]))
        clock = row.options.get("time_control", PER_TURN)
        own: list[Any] = [LanguageSelect(row.id, game_language(row)), ClockSelect(row.id, clock)]
        if declared:
            own.append(OptionsSelect(row.id, row, ("opt",)))
        if len(menus) + len(own) <= MENU_ROWS:
            menus += own
        else:
            folded: tuple[str, ...] = ("lang", "clock", "opt")
            if len(menus) + 1 > MENU_ROWS:  # the computer's level joins the options menu too
                menus = [m for m in menus if not isinstance(m, AddComputerSelect)]
                folded += ("ai",)
            menus.append(OptionsSelect(row.id, row, folded))
    for menu in menus[:MENU_ROWS]:
        view.add_item(menu)
    return view


async def refresh_lobby(interaction: discord.Interaction, change: Any) -> None:
    """Apply a lobby change; show the lobby as it now is, or say privately why it could not change."""
    try:
        row = await change
    except ServiceError as exc:
        await say(interaction, str(exc))
        return
    await interaction.response.edit_message(
        embed=present.lobby_embed(row), view=lobby_view(row), allowed_mentions=present.NO_PINGS
    )


class LobbyButton(
    Localised, discord.ui.DynamicItem[discord.ui.Button], template=r"carc:lobby:(?P<game>\d{1,18}):(?P<action>\w+)"
):
    LABELS = {
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "ai": (N_("Add computer"), discord.ButtonStyle.secondary),
        "start": (N_("Start"), discord.ButtonStyle.primary),
    }

    def __init__(self, game_id: int, action: str) -> None:
        label, style = self.LABELS.get(action, (action[:20], discord.ButtonStyle.secondary))
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_(label), style=style, custom_id=f"carc:lobby:{game_id}:{action}"
        )
        super().__init__(button)
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        who = caller_of(interaction)
        if self.action == "join":
            await refresh_lobby(interaction, service.join(who, self.game_id, interaction.user.display_name))
        elif self.action == "leave":
            await refresh_lobby(interaction, service.leave(who, self.game_id))
        elif self.action == "ai":
            await refresh_lobby(interaction, service.add_ai(who, self.game_id))
        elif self.action == "start":
            await start_game(interaction, self.game_id)
        else:
            await say(interaction, _("This button is from an older version of the bot; open a new lobby."))


class LobbyMenu(Localised):
    """What the lobby's menus share: the custom id ``carc:KIND:GAME`` names the game; a choice
    changes the lobby (``change``), which then shows as it now is, or says privately why not.
    A mixin before ``discord.ui.DynamicItem``, which takes each menu's own template."""

    KIND = ""

    def __init__(self, game_id: int, placeholder: str, options: list[discord.SelectOption], most: int = 1) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"carc:{self.KIND}:{game_id}", placeholder=placeholder, min_values=1, max_values=most,
            options=options,
        )  # fmt: skip
        super().__init__(select)  # type: ignore[call-arg]  # DynamicItem's, next in the MRO
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[no-untyped-def]
        return cls(int(match["game"]))  # type: ignore[call-arg]

    def change(self, service: Any, who: Caller, values: list[str]) -> Awaitable[GameRow]:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in self.item.values]  # type: ignore[attr-defined]
        change = self.change(service_of(interaction), caller_of(interaction), values)
        await guarded(interaction, refresh_lobby(interaction, change))


class AddComputerSelect(
    LobbyMenu, discord.ui.DynamicItem[discord.ui.Select], template=r"carc:addai:(?P<game>\d{1,18})"
):
    """Seat a computer player, choosing its level (the lobby's creator only)."""

    KIND = "addai"
    LEVELS = {
        "easy": (N_("Easy"), N_("Plays sensibly, makes mistakes a beginner can punish")),
        "normal": (N_("Normal"), N_("Takes the best move it sees this turn")),
        "hard": (N_("Hard"), N_("Thinks ahead: plays whole games out in its head (about a second a move)")),
    }

    def __init__(self, game_id: int) -> None:
        options = [
            discord.SelectOption(label=_(label), value=level, description=_(about)[:100])
            for level, (label, about) in self.LEVELS.items()
        ]
        super().__init__(game_id, _("Add a computer player…"), options)

    def change(self, service: Any, who: Caller, values: list[str]) -> Awaitable[GameRow]:
        return service.add_ai(who, self.game_id, (values or ["normal"])[0][:10])


class SetsSelect(LobbyMenu, discord.ui.DynamicItem[discord.ui.Select], template=r"carc:sets:(?P<game>\d{1,18})"):
    KIND = "sets"

    def __init__(self, game_id: int, chosen: list[str] | None = None) -> None:
        chosen = chosen or ["base"]
        options = [
            discord.SelectOption(label=present.set_name(name), value=name, default=name in chosen) for name in SET_TILES
        ]
        super().__init__(game_id, _("Sets"), options, most=len(options))

    def change(self, service: Any, who: Caller, values: list[str]) -> Awaitable[GameRow]:
        return service.set_options(who, self.game_id, sets=values)


class PickSelect(
    LobbyMenu, discord.ui.DynamicItem[discord.ui.Select],
    template=r"carc:pick:(?P<game>\d{1,18}):(?P<option>[a-z_]{1,30})",
):  # fmt: skip
    """Each player's picks for an expansion's lobby option (``SeatPick``: castles chosen in the
    lobby), rendered from what the expansion declares."""

    KIND = "pick"
    ID = "carc:pick:{game}:{option}"

    def __init__(self, game_id: int, option: str = "castles") -> None:
        self.option = option
        spec = _seat_pick(option)
        options = [discord.SelectOption(label=sentence(spec.label(v))[:100], value=v) for v in spec.choices()[:25]]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=self.ID.format(game=game_id, option=option), placeholder=_(spec.prompt), min_values=1,
            max_values=min(spec.most, len(options)), options=options,
        )  # fmt: skip
        discord.ui.DynamicItem.__init__(self, select)  # type: ignore[arg-type]
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[no-untyped-def]
        return cls(int(match["game"]), match["option"])

    def change(self, service: Any, who: Caller, values: list[str]) -> Awaitable[GameRow]:
        return service.choose(who, self.game_id, self.option, values)


class CastlesSelect(PickSelect, template=r"carc:castles:(?P<game>\d{1,18})"):
    """The castles menu of lobby messages posted before the menus were generic (they keep working)."""

    ID = "carc:castles:{game}"

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[no-untyped-def]
        return cls(int(match["game"]), "castles")


def _seat_pick(option: str) -> SeatPick:
    """The ``SeatPick`` of an expansion's lobby option (any expansion's, by the option's name)."""
    for _cls, spec in lobby_options(list(SET_TILES)):
        if spec.name == option and spec.pick is not None:
            return spec.pick
    raise ServiceError(_("nothing is chosen that way in this lobby"))


class LanguageSelect(
    LobbyMenu, discord.ui.DynamicItem[discord.ui.Select], template=r"carc:lang:(?P<game>\d{1,18})"
):
    """The language of the game's posts, chosen in its lobby (the server's by default)."""

    KIND = "lang"

    def __init__(self, game_id: int, chosen: str = "en") -> None:
        options = [
            discord.SelectOption(label=name, value=code, default=code == chosen) for code, name in LANGUAGES.items()
        ]
        super().__init__(game_id, _("Language of the game"), options)

    def change(self, service: Any, who: Caller, values: list[str]) -> Awaitable[GameRow]:
        return service.set_options(who, self.game_id, language=(values or ["en"])[0][:10])


class ClockSelect(LobbyMenu, discord.ui.DynamicItem[discord.ui.Select], template=r"carc:clock:(?P<game>\d{1,18})"):
    """The game's time control: a limit per turn, or a time bank (presets; ``/carc new clock:``
    takes any other)."""

    KIND = "clock"

    def __init__(self, game_id: int, chosen: str = PER_TURN) -> None:
        presets = list(PRESETS) + ([chosen] if chosen not in PRESETS else [])
        options = [
            discord.SelectOption(
                label=_("A limit per turn") if p == PER_TURN else _("Time bank {bank}").format(bank=p),
                value=p, default=p == chosen,
                description=None if p == PER_TURN else present.time_bank_words(parse(p))[:100],  # type: ignore[arg-type]
            )
            for p in presets
        ]  # fmt: skip
        super().__init__(game_id, _("Time control"), options)

    def change(self, service: Any, who: Caller, values: list[str]) -> Awaitable[GameRow]:
        return service.set_options(who, self.game_id, time_control=(values or [PER_TURN])[0][:40])


class OptionsSelect(
    LobbyMenu, discord.ui.DynamicItem[discord.ui.Select], template=r"carc:opts:(?P<game>\d{1,18})"
):
    """One menu for the lobby's settings that have no menu of their own: the options the
    expansions declare (castles dealt or chosen...), and when the rows are short the language,
    the time control and the computer to add. Each entry is one change ("kind:value"); the
    settings as they stand are in the lobby message."""

    KIND = "opts"

    def __init__(self, game_id: int, row: Any = None, kinds: tuple[str, ...] = ()) -> None:
        options: list[discord.SelectOption] = []
        if row is not None:
            options = _setting_entries(row, kinds)[:25]
        super().__init__(game_id, _("Game options…"), options or [discord.SelectOption(label="-", value="-")])

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[no-untyped-def]
        return cls(int(match["game"]))

    def change(self, service: Any, who: Caller, values: list[str]) -> Awaitable[GameRow]:
        kind, _sep, value = (values or [""])[0].partition(":")
        if kind == "lang":
            return service.set_options(who, self.game_id, language=value[:10])
        if kind == "clock":
            return service.set_options(who, self.game_id, time_control=value[:40])
        if kind == "ai":
            return service.add_ai(who, self.game_id, value[:10])
        name, _sep, choice = value.partition(":")
        if kind == "opt" and name:
            return service.set_options(who, self.game_id, **{name[:30]: choice[:30]})
        return _refused(_("This button is from an older version of the bot; open a new lobby."))


async def _refused(text: str) -> GameRow:
    raise ServiceError(text)


def _setting_entries(row: Any, kinds: tuple[str, ...]) -> list[discord.SelectOption]:
    """The menu entries that change one setting of the lobby each, from what it is now."""
    out = []
    if "opt" in kinds:
        for _cls, option in lobby_options(row.options["sets"]):
            now = row.options.get(option.name, option.default)
            for value, meaning in option.choices:
                if value != now:
                    label = f"{_(option.title)}: {_(meaning)}"
                    out.append(discord.SelectOption(label=label[:100], value=f"opt:{option.name}:{value}"))
    if "lang" in kinds:
        for code, name in LANGUAGES.items():
            if code != game_language(row):
                label = f"{_('Language of the game')}: {name}"
                out.append(discord.SelectOption(label=label[:100], value=f"lang:{code}"))
    if "clock" in kinds:
        chosen = row.options.get("time_control", PER_TURN)
        for p in PRESETS:
            if p != chosen:
                label = _("A limit per turn") if p == PER_TURN else _("Time bank {bank}").format(bank=p)
                out.append(discord.SelectOption(label=label[:100], value=f"clock:{p}"))
    if "ai" in kinds:
        for level, (label, about) in AddComputerSelect.LEVELS.items():
            out.append(discord.SelectOption(label=_("Add a computer: {level}").format(level=_(label))[:100],
                                            value=f"ai:{level}", description=_(about)[:100]))  # fmt: skip
    return out


class RematchButton(
    Localised, discord.ui.DynamicItem[discord.ui.Button], template=r"carc:rematch:(?P<game>\d{1,18})"
):
    """On a finished game's final post: a new lobby for the same players, sets and options."""

    def __init__(self, game_id: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_("Rematch"), style=discord.ButtonStyle.primary, custom_id=f"carc:rematch:{game_id}"
        )
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):  # type: ignore[override]
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._open(interaction))

    async def _open(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        who = caller_of(interaction)
        old = await service.lobby(who, self.game_id)
        # The new lobby goes where the old one was (the game's thread cannot hold another thread).
        channel: Any = None
        if old.channel_id is not None and interaction.client is not None:
            channel = interaction.client.get_channel(int(old.channel_id))
            if channel is None:
                with contextlib.suppress(discord.HTTPException):
                    channel = await interaction.client.fetch_channel(int(old.channel_id))
        row = await service.rematch(who, self.game_id)
        target = channel or interaction.channel
        message = await target.send(  # type: ignore[union-attr]
            embed=present.lobby_embed(row), view=lobby_view(row), allowed_mentions=present.NO_PINGS
        )
        await service.attach(who, row.id, lobby_message=str(message.id))
        await say(interaction, _("Rematch: lobby #{id} is open in <#{channel}>; everyone is seated, Start when ready.")
                  .format(id=row.id, channel=message.channel.id))  # fmt: skip


async def start_game(interaction: discord.Interaction, game_id: int) -> None:
    """The Start button: the game's thread, who has which colour, the first turn."""
    missing = missing_permissions(interaction)
    if missing:
        await say(interaction, needs(missing))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = service_of(interaction)
    who = caller_of(interaction)
    try:
        started = await service.start(who, game_id, title=f"Carcassonne #{game_id}")
    except ServiceError as exc:
        await say(interaction, str(exc))
        return
    row = await service.lobby(who, game_id)
    if interaction.message is not None:
        try:
            await interaction.message.edit(embed=present.lobby_embed(row), view=lobby_view(row))
        except discord.HTTPException as exc:
            log.info("lobby message of game %s not updated: %s", game_id, exc)
    await table_of(interaction.client).open_game_thread(
        interaction.channel, game_id, row.guild_id, [], f"Carcassonne #{game_id}", interaction.message, started.lines,
        started.outbox,
    )  # fmt: skip
    await say(interaction, _("Game #{id} has started: see its thread.").format(id=game_id))


class Lobby(PhaseCog):
    """Owns the ``/carc`` group; the other phase cogs add their commands to it."""

    carc = app_commands.Group(name="carc", description="Play Carcassonne", guild_only=True)
    owns_group = True

    @carc.command(name="new", description="Open a lobby for a new game")
    @app_commands.describe(
        sets=SETS_HELP,
        players="Most players (2-6)",
        turn_hours="Hours per turn (0 = no limit)",
        timeout="What happens when a turn runs out",
        castles="With Castles in Germany: dealt at random, or chosen in the lobby",
        language="Language of the game's posts (the server's by default)",
        computers="Computer players to seat at once (more can be added in the lobby)",
        level="How well the computer players play",
        hints="Allow /carc hint: what the hard computer would play (off by default)",
        clock="per-turn, or a time bank: 3d+12h cap 5d (slow), 15m+30s (live)",
    )
    @app_commands.choices(
        level=[app_commands.Choice(name=name, value=name) for name in LEVELS],
        timeout=[
            app_commands.Choice(name="skip the turn", value="skip"),
            app_commands.Choice(name="a computer plays the turn", value="computer"),
            app_commands.Choice(name="forfeit", value="forfeit"),
        ],
        castles=[app_commands.Choice(name="dealt", value="dealt"), app_commands.Choice(name="chosen", value="chosen")],
        language=[app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()],
    )
    async def new(
        self, interaction: discord.Interaction, sets: str = "base", players: app_commands.Range[int, 2, 6] = 5,
        turn_hours: app_commands.Range[int, 0, 336] = 24, timeout: str = "skip", castles: str = "dealt",
        language: str | None = None, computers: app_commands.Range[int, 0, 5] = 0, level: str = "normal",
        hints: bool = False, clock: str = PER_TURN,
    ) -> None:  # fmt: skip
        missing = missing_permissions(interaction)
        if missing:
            raise ServiceError(needs(missing))
        options = LobbyOptions(
            sets=[s.strip().lower()[:20] for s in sets.split(",")[:10] if s.strip()], max_players=players,
            turn_limit=turn_hours * 3600, timeout_policy=timeout,
            language=language or server_language(interaction), hints=hints, time_control=clock[:40],
            choices={"castles": castles},  # Castles in Germany's lobby option (left out without its set)
        )  # fmt: skip
        who = caller_of(interaction)
        row = await self.service.create_lobby(who, interaction.user.display_name, options, str(interaction.channel_id))
        for _seat in range(min(computers, options.max_players - 1)):
            row = await self.service.add_ai(who, row.id, level)
        await interaction.response.send_message(
            embed=present.lobby_embed(row), view=lobby_view(row), allowed_mentions=present.NO_PINGS
        )
        message = await interaction.original_response()
        await self.service.attach(who, row.id, lobby_message=str(message.id))

    @new.autocomplete("clock")
    async def clock_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The presets, and what is typed once it reads as a time control."""
        choices = [p for p in PRESETS if current.lower().replace(" ", "") in p.replace(" ", "")]
        with contextlib.suppress(BadTimeControl):
            typed = canonical(current[:40])
            if current.strip() and typed not in choices:
                choices.insert(0, typed)
        return [app_commands.Choice(name=c, value=c) for c in choices[:25]]

    @carc.command(name="abort", description="Stop a game for good (server managers, or the lobby's creator)")
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await game_id_of(interaction, game)
        row = await self.service.abort(caller_of(interaction), game_id)
        with speak(game_language(row)):
            text = _("Game #{id} was aborted by {player}.").format(
                id=game_id, player=present.safe(interaction.user.display_name, 40)
            )
        await interaction.response.send_message(text, allowed_mentions=present.NO_PINGS)
