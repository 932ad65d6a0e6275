"""Answering members: the flows slash commands and buttons share.

A domain error (`EuchreError`) raised here propagates to the cog's error handler, which answers
it ephemerally; so these functions only write the happy path and the stale-button case.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.engine.errors import EuchreError
from bot.tables.table import Table, TableError
from bot.ui.embeds import hand_embed
from bot.ui.views import deal_number, hand_view

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

STALE = "That button belongs to an earlier deal or table. Here is your hand as it is now."


def manager_of(interaction: discord.Interaction):  # noqa: ANN201 - the manager type is in bot.tables
    bot: EuchreBot = interaction.client  # type: ignore[assignment]
    return bot.manager


async def answer(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def show_hand(interaction: discord.Interaction, table: Table, edit: bool = False, note: str | None = None) -> None:
    """The member's own hand, ephemeral (or edited in place when clicked from the hand)."""
    manager = manager_of(interaction)
    _, seat, view = await manager.view(table.channel_id, interaction.user.id)
    embed = hand_embed(table, seat, view)
    buttons = hand_view(table, seat, view)
    if edit and not interaction.response.is_done():
        await interaction.response.edit_message(content=note, embed=embed, view=buttons)
    elif interaction.response.is_done():
        await interaction.followup.send(content=note, embed=embed, view=buttons, ephemeral=True)
    else:
        await interaction.response.send_message(content=note, embed=embed, view=buttons, ephemeral=True)


async def act(
    interaction: discord.Interaction, action: str, *, table_id: int | None = None,
    deal: int | None = None, from_hand: bool = False,
) -> None:
    """Make a declaration or play a card, then show the hand as it now is.

    A click from the ephemeral hand edits that same message; a slash command answers with a
    new ephemeral hand.
    """
    manager = manager_of(interaction)
    table = manager.tables.get(interaction.channel_id)
    if table_id is not None and (table is None or table.id != table_id or deal != deal_number(table)):
        if table is None or table.id != table_id or table.seat_of(interaction.user.id) is None:
            await answer(interaction, "That table has moved on: this button is no longer in use.")
            return
        await show_hand(interaction, table, edit=from_hand, note=STALE)
        return
    if table is None:
        raise TableError("there is no table in this channel: start one with /table create")
    change = await manager.act(interaction.channel_id, interaction.user.id, action)
    await show_hand(interaction, table, edit=from_hand)
    listener = interaction.client.table_messages  # type: ignore[attr-defined]
    await listener.table_changed(change)


async def table_button(interaction: discord.Interaction, table_id: int, what: str) -> None:
    """Clicks on the public table message's buttons."""
    manager = manager_of(interaction)
    table = manager.tables.get(interaction.channel_id)
    if table is None or table.id != table_id:
        await answer(interaction, "That table has closed: start a new one with /table create.")
        return
    listener = interaction.client.table_messages  # type: ignore[attr-defined]
    if what == "hand":
        if table.seat_of(interaction.user.id) is None:
            await answer(interaction, "Only the players seated at this table have a hand to see.")
            return
        await show_hand(interaction, table)
    elif what == "join":
        change = await manager.join(interaction.channel_id, interaction.user.id, interaction.user.display_name)
        await answer(interaction, "You sit at the table." if change.note == "seated" else "The seats are full: you wait in line.")
        await listener.table_changed(change)
    elif what == "start":
        change = await manager.start(interaction.channel_id, interaction.user.id)
        await answer(interaction, "The cards are cut and dealt.")
        await listener.table_changed(change)
    elif what == "consent":
        change = await manager.consent(interaction.channel_id, interaction.user.id)
        await answer(interaction, "You consent to the substitute.")
        await listener.table_changed(change)


__all__ = ["act", "answer", "show_hand", "table_button", "EuchreError"]
