"""One error handler for every slash command: the tree's `on_error` (see bot/ui/errors.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.errors import reply_error


class Errors(commands.Cog):
    """Installs the tree's error handler."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error
        bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._previous  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await reply_error(interaction, error)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Errors(bot))
