"""/help and /rules: how a deal goes, the commands, and this table's rules in plain words.

The texts are in bot/ui/guide.py; this cog only finds the options to explain and answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.rules import build_options
from bot.ui.guide import TOPIC_CHOICES, CommandTree, command_lines, help_embed, rules_embed
from bot.ui.variant_views import rules_embed as variant_rules_embed

if TYPE_CHECKING:
    from bot.client import EuchreBot


class Help(commands.Cog):
    """The guide to the game and the bot."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How a deal of Euchre goes, and every command of this bot."""
        tree = self.bot.tree
        guild_id = interaction.guild_id

        def mention(name: str) -> str:
            if isinstance(tree, CommandTree):
                return tree.mention(name, guild_id)
            return f"/{name}"

        embed = help_embed(command_lines(tree), mention)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="rules")
    @app_commands.describe(topic="the rule to explain; leave it out for the list of topics")
    @app_commands.choices(topic=TOPIC_CHOICES)
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        """This table's rules in plain words, one topic at a time."""
        channel = interaction.channel_id
        table = self.bot.manager.tables.get(channel) if channel is not None else None
        if table is not None and table.variant is not None:
            # Another game of the rule books: its own rules, whatever the topic.
            await interaction.response.send_message(
                embed=variant_rules_embed(table.variant), ephemeral=True
            )
            return
        if table is not None:
            options = table.options
        else:
            options = build_options(self.bot.settings.default_preset)
        embed = rules_embed(options, topic, at_table=table is not None)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Help(bot))
