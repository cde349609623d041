"""What every cog shares: who is asking, private answers, error handling, pictures, cells.

Cogs are cut by game phase (``lobby``, ``play``, ``results``, ``leagues``); they reach each other
only through the bot's ``Table`` (cogs.table), never by importing or looking up another cog.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import metrics, present
from cogs.i18n import listen
from engine.language import _
from service import Caller, ServiceError

if TYPE_CHECKING:
    from cogs.table import Table
    from service import GameService

log = logging.getLogger(__name__)

# What the bot needs in the channel of a lobby, and in its game thread.
NEEDED = {
    "send_messages": "Send Messages",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
}
_CELL = re.compile(r"\(?\s*(-?[0-9]{1,4})\s*[, ]\s*(-?[0-9]{1,4})\s*\)?")


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


def table_of(client: Any) -> Table:
    return client.table  # type: ignore[no-any-return]


async def channel_by_id(bot: Any, channel_id: str | None) -> Any:
    """A channel (or thread) by its stored id: from the cache, else asked of Discord; None when
    the id is not one or the channel is gone or out of reach."""
    if not channel_id or not channel_id.isdigit():
        return None
    channel = bot.get_channel(int(channel_id))
    if channel is None:
        try:
            channel = await bot.fetch_channel(int(channel_id))
        except (discord.HTTPException, KeyError):
            return None
    return channel


def not_in_dms() -> str:
    return _("Carcassonne is played in a server: use the commands there, not in direct messages.")


def in_a_server(interaction: discord.Interaction) -> bool:
    """Every game and league command runs in a server (Discord does not offer them in DMs; a forged
    interaction from a DM is refused here, before any service call)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage(not_in_dms())
    return True


def caller_of(interaction: discord.Interaction) -> Caller:
    """The user behind an interaction, in the server it comes from (a DM reaches no game)."""
    if interaction.guild_id is None:
        raise ServiceError(not_in_dms())
    perms = getattr(interaction, "permissions", None)
    roles = tuple(role.id for role in getattr(interaction.user, "roles", []))  # a member's roles (organisers)
    return Caller.member(str(interaction.user.id), str(interaction.guild_id), bool(perms and perms.manage_guild), roles)


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    perms = interaction.app_permissions
    return [label for attr, label in NEEDED.items() if not getattr(perms, attr, False)]


def needs(missing: list[str]) -> str:
    return _("I need these permissions in this channel first: {permissions}.").format(permissions=", ".join(missing))


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


async def game_id_of(interaction: discord.Interaction, game: int | None) -> int:
    """The game a command is about: its ``game`` option, or the game of the thread it is used in."""
    if game is not None:
        return game
    found = await service_of(interaction).game_for_thread(caller_of(interaction), str(interaction.channel_id))
    if found is None:
        raise ServiceError(_("Name the game (`game:` option), or use the command in the game's thread."))
    return int(found)


async def say(interaction: discord.Interaction, text: str) -> None:
    """A private answer. Callers never defer publicly before it (DISCORD.md): after an
    ephemeral defer the followup stays private; without a defer it is the response."""
    text = present.clip(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=present.NO_PINGS)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=present.NO_PINGS)


async def guarded(interaction: discord.Interaction, action: Any) -> None:
    """Run a component's action; the one place its errors are handled: a ServiceError is
    answered privately, anything else is logged and answered privately without details."""
    metrics.started(interaction)
    try:
        await action
    except ServiceError as exc:
        await say(interaction, str(exc))
    except Exception:
        data: Any = interaction.data or {}
        log.exception("component %s failed", data.get("custom_id"))
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, _("Something went wrong on my side; nothing was changed. Please try again."))
    finally:
        metrics.handled(interaction, "component")


class Localised:
    """A component that answers in the clicking user's language (Discord's ``locale``)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        listen(interaction)
        return True


async def picture(
    service: GameService, job: Any, game_id: int, *args: Any, who: Caller, language: str | None = None
) -> bytes | None:
    """A picture for a message, or None: a picture helps, it is never a reason for a panel or
    a turn post to fail."""
    if service.workers is None:
        return None  # no pool: the event loop would draw it
    try:
        return bytes(await service.picture(who, job, game_id, *args, language=language))
    except Exception:
        log.exception("picture for game %s", game_id)
        return None


async def pictures(
    service: GameService, job: Any, game_id: int, *args: Any, who: Caller, language: str | None = None
) -> list[bytes]:
    """The pictures of a job that makes several (the turn's pieces), or none: like ``picture``."""
    if service.workers is None:
        return []
    try:
        return [bytes(png) for png in await service.picture(who, job, game_id, *args, language=language)]
    except Exception:
        log.exception("pictures for game %s", game_id)
        return []


class PhaseCog(commands.Cog):
    """A cog of one game phase. Its commands sit in the one ``/carc`` group (Discord shows one);
    its errors are answered once, here: a ServiceError privately, anything else logged."""

    group_name = "carc"

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service  # type: ignore[attr-defined,no-any-return]

    async def cog_load(self) -> None:
        # Commands declared with @app_commands.command join the /carc group the lobby cog owns,
        # instead of standing at the top level.
        group = self.bot.tree.get_command(self.group_name)
        if isinstance(group, app_commands.Group) and not getattr(self, "owns_group", False):
            for command in self.__cog_app_commands__:
                group.add_command(command)
            self.__cog_app_commands__ = []

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return in_a_server(interaction)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        try:
            await self._answer_error(interaction, error)
        finally:
            metrics.handled(interaction, "command")

    async def _answer_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            await say(interaction, not_in_dms())
            return
        cause = getattr(error, "original", error)
        if isinstance(cause, ServiceError):
            await say(interaction, str(cause))
            return
        if isinstance(error, app_commands.CommandOnCooldown):
            await say(interaction, _("Slow down: try again in {n} s.").format(n=max(1, round(error.retry_after))))
            return
        log.error("/%s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=cause)
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, _("Something went wrong on my side; nothing was changed. Please try again."))


def cooldown(rate: int = 3, per: float = 30.0) -> Any:
    """Expensive commands (pictures, records): ``rate`` uses per ``per`` seconds per user."""
    return app_commands.checks.cooldown(rate, per, key=lambda i: (i.guild_id, i.user.id))
