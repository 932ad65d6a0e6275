"""/admin: commands for the bot's owners and server managers.

The bot syncs its commands by itself at start when they changed (`bot/command_sync.py`);
`/admin sync` forces a sync, for instance after the commands were removed on Discord's side.
`/admin status` shows what every process of the bot is doing (shards, tables, the age of its
leases, actions per second, Discord's 429s; which stopped, and when), from the reports they store
(`bot/storage/processes.py`) and the tables' leases (`bot/storage/leases.py`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_sync import sync_commands
from bot.engine.quoting import quoted
from bot.storage import leases, processes
from bot.ui.respond import answer
from bot.ui.status import status_embed

if TYPE_CHECKING:
    from bot.client import EuchreBot


class Admin(commands.Cog):
    """Syncing slash commands, and the bot's status."""

    admin = app_commands.Group(
        name="admin",
        description="Bot administration",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    def _is_owner(self, user_id: int) -> bool:
        return user_id in self.bot.settings.owner_ids

    @admin.command(name="sync")
    @app_commands.describe(
        scope="global: every server (takes up to an hour); here: this server at once"
    )
    async def sync(
        self, interaction: discord.Interaction, scope: Literal["global", "here"] = "global"
    ) -> None:
        """Sync the slash commands to Discord (bot owners only)."""
        if not self._is_owner(interaction.user.id):
            await answer(interaction, "Only the bot's owners (OWNER_IDS) can sync commands.")
            return
        if scope not in ("global", "here"):
            # Discord offers the two choices only in its own client: a request may carry any
            # text, and anything but "here" would publish to every server (up to an hour).
            await answer(
                interaction,
                f"Unknown scope {quoted(scope)}: choose global or here. Nothing synced.",
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        db = self.bot.db
        if scope == "here" and interaction.guild is not None:
            self.bot.tree.copy_global_to(guild=interaction.guild)
            synced = await sync_commands(self.bot.tree, db, interaction.guild)
        else:
            synced = await sync_commands(self.bot.tree, db, None)
        await interaction.followup.send(f"Synced {len(synced)} commands ({scope}).", ephemeral=True)

    @admin.command(name="status")
    async def status(self, interaction: discord.Interaction) -> None:
        """What every process of the bot is doing (bot owners only)."""
        if not self._is_owner(interaction.user.id):
            await answer(interaction, "Only the bot's owners (OWNER_IDS) can see its status.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.report_status()  # this process's own line is as of now
        reports = await processes.reports(self.bot.db)
        held = await leases.held(self.bot.db)
        embed = status_embed(
            reports,
            time.time(),
            self.bot.process_name,
            held,
            self.bot.manager.lease_seconds,
            self.bot.shard_count,
        )
        await interaction.followup.send(embed=embed, ephemeral=True)


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Admin(bot))
