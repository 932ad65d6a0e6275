"""/hint and /review: the coach, privately."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables.table import CLOSED, TableError
from bot.ui import respond
from bot.ui.coach import hint_embed

if TYPE_CHECKING:
    from bot.client import EuchreBot

# A deal's id as the table shows it under its proof ("euchre-bot deal 12:1:3"), or just the
# three numbers.
DEAL_ID = re.compile(r"^\s*(?:euchre-bot deal\s+)?(\d{1,18}):(\d{1,9}):(\d{1,4})\s*$")
DEAL_NUMBER = re.compile(r"^\s*(\d{1,4})\s*$")


class Coach(commands.Cog):
    """Hints on one's turn and graded reviews of finished deals."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @app_commands.command(name="hint")
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        """On your turn, privately: what the expert would do, what the book says, and why."""
        manager = self.bot.manager
        table, number, seat, view = await manager.hint_view(
            respond.channel_id_of(interaction), interaction.user.id
        )
        # The search takes up to a couple of seconds: answer within Discord's three first.
        await interaction.response.defer(ephemeral=True, thinking=True)
        analysis = await manager.computers.analyse(table.id, view)
        # Given only if the decision is still to make: a member may act while the search runs.
        try:
            await manager.hint_given(table, number, seat, interaction.user.id, view)
        except TableError:
            if table.status == CLOSED:
                # No next turn comes at a closed table: "ask again on your next turn" misleads.
                raise TableError(
                    "the table closed while the coach was thinking, so no hint is given"
                ) from None
            raise
        with self.bot.card_looks.drawn_for(interaction.user.id):
            embed = hint_embed(analysis, seat, view.deal.dealer, view.deal.alone is not None)
        await interaction.followup.send(embed=embed, ephemeral=True)

    @app_commands.command(name="review")
    @app_commands.guild_only()
    @app_commands.describe(
        deal="the deal's number in this table's match, or its id (table:match:deal)"
    )
    async def review(self, interaction: discord.Interaction, deal: str) -> None:
        """Privately: a finished deal of this table, every card, and your decisions graded."""
        manager = self.bot.manager
        table = manager.tables.get(respond.channel_id_of(interaction))
        by_id = DEAL_ID.match(deal)
        by_number = DEAL_NUMBER.match(deal)
        if by_id:
            table_id, match_no, number = (int(x) for x in by_id.groups())
        elif by_number and table is not None:
            table_id, match_no, number = table.id, table.match_no, int(by_number.group(1))
        elif by_number:
            raise TableError("there is no table in this channel: give the deal's id instead")
        else:
            raise TableError(
                "give the deal's number in this table's match, or its id as table:match:deal"
                " (for example 12:1:3)"
            )
        await respond.review(interaction, table_id, match_no, number)


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Coach(bot))
