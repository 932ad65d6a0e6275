"""Answering members: the flows slash commands and buttons share.

A domain error (`EuchreError`) raised here propagates to the cog's error handler, which answers
it ephemerally; so these functions only write the happy path and the stale-button case.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.engine.deal import (
    ALONE,
    CALL,
    DEFEND,
    DEFEND_ALONE,
    DISCARD,
    JOKER_SUIT,
    ORDER,
    ORDER_ALONE,
    PARTNER_ALONE,
    PASS,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
)
from bot.engine.errors import EuchreError
from bot.tables.table import Table, TableError
from bot.ui.embeds import hand_embed
from bot.ui.views import deal_number, hand_view

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

STALE = "That button belongs to an earlier deal or table. Here is your hand as it is now."

_DECLARATIONS = frozenset({PASS, ORDER, ORDER_ALONE, ALONE, DEFEND})
# Where the deal stands before the first card, said to a member who tries to play or discard.
_BEFORE_THE_PLAY = {
    JOKER_SUIT: "The Joker is turned up: the dealer names the suit it stands for, then the bidding begins.",
    ROUND_ONE: "The bidding is on: no card is played until trump is made.",
    ROUND_TWO: "The bidding is on: no card is played until trump is made.",
    PARTNER_ALONE: "Trump is made and the maker's partner may take it alone: the play has not begun.",
    DEFEND_ALONE: "A lone hand is declared and its adversaries may defend alone: the play has not begun.",
}


def _is_declaration(action: str) -> bool:
    return action in _DECLARATIONS or action.startswith(CALL)


def _command_of(declaration: str) -> str:
    """The slash command that makes a declaration (`call:H:alone` is /call)."""
    if declaration == PASS:
        return "/pass"
    if declaration.startswith(ORDER):
        return "/order"
    if declaration.startswith(CALL):
        return "/call"
    return "/alone"  # alone, or defend alone


def _commands_open(legal: tuple[str, ...]) -> str:
    """The slash commands that make the declarations open now: `/pass or /order`."""
    names = list(dict.fromkeys(_command_of(a) for a in legal))
    if len(names) < 2:
        return names[0] if names else "/hand"
    return ", ".join(names[:-1]) + " or " + names[-1]


def phase_refusal(table: Table, user_id: int, action: str) -> str | None:
    """Why a seated member's action belongs to another part of the deal, or None.

    The engine reads whatever is not a declaration during the play as a card, so without
    this `/pass` in the play was answered "unknown card 'pass'", and a card during the
    bidding "'JH' is not a declaration open to you now". Said for every seated member (the
    phase is the same for all), with what they can do instead; whatever else is wrong (not
    seated, no game, not their turn in the same phase) is left to the manager and the engine.

    Args:
        table: the channel's table.
        user_id: the member acting.
        action: an action code: a declaration (`pass`, `call:H:alone`) or a card (`JH`).

    Returns:
        The answer to give the member (nothing is to change), or None to go on and act.
    """
    match = table.match
    seat = table.seat_of(user_id)
    if match is None or not table.playing or seat is None:
        return None
    deal = match.deal
    mine = deal.to_act == seat
    out = seat in deal.sitting_out
    if _is_declaration(action):
        if deal.phase == PLAY:
            head, command = "The bidding is over: it's the play now", "/play"
        elif deal.phase == DISCARD:
            head, command = "Trump is made: the dealer discards now", "/discard"
        else:
            return None  # the bidding: the engine says which declarations are open
        if out:
            return f"{head}, and you sit out this hand."
        if mine:
            return f"{head}. Use {command} or the buttons in /hand."
        if deal.phase == PLAY:
            return f"{head}. Wait for your turn, then use /play or the buttons in /hand."
        return f"{head}. Wait for your turn."
    before = _BEFORE_THE_PLAY.get(deal.phase)
    if before is None:
        return None  # the discard or the play: a card is what is wanted
    if out:
        return f"{before} You sit out this hand."
    if mine:
        return (
            f"{before} Use {_commands_open(tuple(deal.legal_actions()))}, or the buttons in /hand."
        )
    return f"{before} Wait for your turn."


def manager_of(interaction: discord.Interaction):
    bot: EuchreBot = interaction.client  # type: ignore[assignment]
    return bot.manager


async def answer(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def show_hand(
    interaction: discord.Interaction, table: Table, edit: bool = False, note: str | None = None
) -> None:
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
        await interaction.response.send_message(
            content=note, embed=embed, view=buttons, ephemeral=True
        )


async def act(
    interaction: discord.Interaction,
    action: str,
    *,
    table_id: int | None = None,
    deal: int | None = None,
    from_hand: bool = False,
) -> None:
    """Make a declaration or play a card, then show the hand as it now is.

    A click from the ephemeral hand edits that same message; a slash command answers with a
    new ephemeral hand.
    """
    manager = manager_of(interaction)
    table = manager.tables.get(interaction.channel_id)
    if table_id is not None and (
        table is None or table.id != table_id or deal != deal_number(table)
    ):
        if table is None or table.id != table_id or table.seat_of(interaction.user.id) is None:
            await answer(interaction, "That table has moved on: this button is no longer in use.")
            return
        await show_hand(interaction, table, edit=from_hand, note=STALE)
        return
    if table is None:
        raise TableError("there is no table in this channel: start one with /table create")
    refusal = phase_refusal(table, interaction.user.id, action)
    if refusal is not None:
        if from_hand:
            # A hand shown earlier in the deal: show it as it is now, with why.
            await show_hand(interaction, table, edit=True, note=refusal)
            return
        raise TableError(refusal)
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
        change = await manager.join(
            interaction.channel_id, interaction.user.id, interaction.user.display_name
        )
        await answer(
            interaction,
            "You sit at the table."
            if change.note == "seated"
            else "The seats are full: you wait in line.",
        )
        await listener.table_changed(change)
    elif what == "start":
        change = await manager.start(interaction.channel_id, interaction.user.id)
        await answer(interaction, "The cards are cut and dealt.")
        await listener.table_changed(change)
    elif what == "consent":
        change = await manager.consent(interaction.channel_id, interaction.user.id)
        await answer(interaction, "You consent to the substitute.")
        await listener.table_changed(change)


__all__ = ["act", "answer", "phase_refusal", "show_hand", "table_button", "EuchreError"]
