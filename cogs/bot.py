"""The Discord client: default intents, the game service, the cogs and persistent components."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs import metrics
from cogs.i18n import CatalogTranslator, listen
from cogs.leagues import Leagues
from cogs.lobby import (
    AddComputerSelect,
    CastlesSelect,
    ClockSelect,
    LanguageSelect,
    Lobby,
    LobbyButton,
    OptionsSelect,
    PickSelect,
    RematchButton,
    SetsSelect,
)
from cogs.panel import PanelButton, PanelSelect, TakeTurnButton
from cogs.play import Play
from cogs.results import Results
from cogs.table import Table
from locales import warm_up
from service import GameService, Limits
from service.leagues import LeagueService
from service.memory import tune_gc
from service.workers import Workers
from storage import Database, Store, open_database
from storage.leagues import LeagueStore

log = logging.getLogger(__name__)


class LocalisedTree(app_commands.CommandTree):
    """Every slash command and autocomplete answers in the user's language (Discord's ``locale``)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        listen(interaction)  # for the rest of this interaction's task
        metrics.started(interaction)
        return True


class CarcBot(commands.AutoShardedBot):
    """The bot; one process runs ``shard_ids`` of ``shard_count`` shards (all of them, as many as
    Discord recommends, when neither is given). Processes sharing a PostgreSQL database split the
    shards between them: each serves its servers' interactions; the deadline clock's notices go
    out through the REST API from whichever process claims the game (``service.clock``)."""

    def __init__(
        self, database_url: str | None = None, dev_guild: int | None = None, sync: bool = False,
        worker_processes: int | None = None, shard_ids: list[int] | None = None, shard_count: int | None = None,
    ) -> None:  # fmt: skip
        # User text (names, set lists) never pings @everyone, @here or a role; each message
        # that pings a player says so itself.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False),
            tree_cls=LocalisedTree,
            shard_ids=shard_ids,  # type: ignore[arg-type]  # None: all of them (discord.py's default)
            shard_count=shard_count,
        )
        self.database_url = database_url  # None: DATABASE_URL, else the default SQLite file
        self.worker_processes = worker_processes
        self.workers: Workers | None = None
        self.dev_guild = dev_guild
        self.sync_on_start = sync
        self.on_synced: Callable[[], None] | None = None  # told once the global sync succeeded
        self.service: GameService | None = None
        self.leagues: LeagueService | None = None
        self.table = Table(self)  # what every cog posts in a game's thread
        self._db: Database | None = None

    async def setup_hook(self) -> None:
        self._db = db = await open_database(self.database_url)
        self.workers = Workers(self.worker_processes)
        self.service = GameService(Store(db), limits=Limits.from_env())
        self.service.workers = self.workers
        self.leagues = LeagueService(self.service, LeagueStore(self.service.store))
        await add_cogs(self)
        await self.tree.set_translator(CatalogTranslator())  # commands in each user's language
        warm_up()  # the catalogs compile before the first interaction, not during it
        # Buttons and selects of old messages keep working after a restart.
        self.add_dynamic_items(
            LobbyButton, SetsSelect, AddComputerSelect, CastlesSelect, LanguageSelect, TakeTurnButton, PanelButton,
            PanelSelect, RematchButton, ClockSelect, PickSelect, OptionsSelect,
        )
        tune_gc()  # started: no pause of the collector walks the cached games at every turn
        metrics.serve(self)  # METRICS_PORT set: the Prometheus endpoint
        await self.workers.warm()  # the workers start now, not at the first turn's picture
        # Commands sync on purpose, not at every start (Discord rate-limits syncing).
        if self.dev_guild:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to the development guild %s", self.dev_guild)
        elif self.sync_on_start:
            await self.tree.sync()
            log.info("commands synced globally (they may take up to an hour to appear)")
            if self.on_synced is not None:
                self.on_synced()

    async def on_app_command_completion(self, interaction: discord.Interaction, _command: Any) -> None:
        metrics.handled(interaction, "command")

    async def close(self) -> None:
        await super().close()
        if self.workers is not None:
            self.workers.close()
        if self._db is not None:
            await self._db.close()


async def add_cogs(bot: commands.Bot | commands.AutoShardedBot) -> None:
    bot = cast(commands.Bot, bot)  # the cogs need only what both kinds of bot have
    """The cogs, one per game phase; the lobby's first: it owns the /carc group the others join."""
    await bot.add_cog(Lobby(bot))
    await bot.add_cog(Play(bot))
    await bot.add_cog(Results(bot))
    await bot.add_cog(Leagues(bot))


async def command_tree() -> list[dict]:
    """The slash command tree as Discord receives it (``python bot.py commands``)."""
    bot = CarcBot()
    await add_cogs(bot)
    translator = CatalogTranslator()
    return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]
