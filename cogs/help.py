"""/help and /rules: how a deal goes, the commands, and this table's rules in plain words.

The texts are in bot/ui/guide.py; this cog only finds the options to explain and answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.rules import build_options
from bot.ui.guide import (
    HELP_TOPIC_CHOICES,
    NO_MENTIONS,
    TOPIC_CHOICES,
    HelpMenu,
    help_answer,
    rules_embed,
    unknown_topic,
)
from bot.ui.variant_views import TITLES as VARIANT_TITLES
from bot.ui.variant_views import rules_embed as variant_rules_embed

if TYPE_CHECKING:
    from bot.client import EuchreBot


class Help(commands.Cog):
    """The guide to the game and the bot."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    @app_commands.describe(topic="a page of the guide; leave it out for the commands at the table")
    @app_commands.choices(topic=HELP_TOPIC_CHOICES)
    async def help(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        """The commands at the table, how a deal goes, and every command with its options."""
        # Only the commands this member may use here: their permissions in this channel.
        shown = help_answer(self.bot.tree, interaction.guild_id, topic, interaction.permissions)
        await interaction.response.send_message(
            shown.content,
            embed=shown.embed,
            view=shown.view,
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="rules")
    @app_commands.describe(topic="the rule to explain; leave it out for the list of topics")
    @app_commands.choices(topic=TOPIC_CHOICES)
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        """This table's rules in plain words, one topic at a time."""
        channel = interaction.channel_id
        table = self.bot.manager.tables.get(channel) if channel is not None else None
        if table is not None and table.variant is not None:
            # Another game of the rule books: its own rules, whatever the topic; a topic asked
            # for is one of four-handed euchre's, so the answer says why it shows them all.
            title = VARIANT_TITLES[table.variant.name]
            said = (
                None
                if topic is None
                else f"This table plays **{title}**: the topics of /rules are four-handed"
                " euchre's, so here are this game's rules in full."
            )
            await interaction.response.send_message(
                said,
                embed=variant_rules_embed(table.variant),
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )
            return
        if table is not None:
            options = table.options
        else:
            options = build_options(self.bot.settings.default_preset)
        embed = rules_embed(options, topic, at_table=table is not None)
        # A topic it has not (a stale client's, or forged) is said to be unknown, before the index.
        await interaction.response.send_message(
            unknown_topic(topic), embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS
        )


async def setup(bot: EuchreBot) -> None:
    bot.add_dynamic_items(HelpMenu)
    await bot.add_cog(Help(bot))
