"""EuchreBot: the discord.py client that opens storage, restores tables and loads the cogs."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.config import Settings
from bot.storage.database import Database
from bot.tables.manager import TableManager
from bot.ui.guide import CommandTree
from bot.ui.live_hands import LiveHands
from bot.ui.table_messages import TableMessages
from bot.ui.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.errors",
    "cogs.tables",
    "cogs.play",
    "cogs.settings",
    "cogs.stats",
    "cogs.help",
    "cogs.admin",
)


class EuchreBot(commands.Bot):
    """The bot. Slash commands only: it needs no privileged intents.

    Args:
        settings: the bot's settings.
        computer_delay: seconds a computer player waits before moving (tests use 0).
        timers: run turn timers (tests that drive time themselves turn them off).
    """

    def __init__(
        self, settings: Settings, *, computer_delay: float = 1.0, timers: bool = True, **kwargs
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # Nothing the bot sends mentions anyone unless it says whom (a turn's ping does).
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=CommandTree,  # it keeps the synced commands' ids, for /help's mentions
            **kwargs,
        )
        self.settings = settings
        self.db: Database | None = None
        self.manager: TableManager | None = None
        self.table_messages = TableMessages(self)
        self.live_hands = LiveHands(self)
        self._computer_delay = computer_delay
        self._timers = timers

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database_path)
        self.manager = TableManager(
            self.db,
            turn_timeout=self.settings.turn_timeout,
            default_preset=self.settings.default_preset,
            computer_delay=self._computer_delay,
            listener=self.table_messages,
            timers=self._timers,
        )
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("slash commands synced to server %s", self.settings.dev_guild_id)

    async def on_ready(self) -> None:
        # Restore after the gateway is up, so the tables' channels can be told.
        if self.manager is not None and not getattr(self, "_restored", False):
            self._restored = True
            tables = await self.manager.restore()
            log.info("ready as %s; %d open tables restored", self.user, len(tables))

    async def close(self) -> None:
        await self.live_hands.close()
        if self.manager is not None:
            await self.manager.close()
        if self.db is not None:
            await self.db.close()
            self.db = None
        await super().close()
