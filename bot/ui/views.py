"""Buttons that survive restarts: every id carries what its click needs.

Buttons are `DynamicItem`s whose `custom_id` names the table and the deal they were drawn for
(`euchre:act:12:3:call:H`), so after a restart discord.py still routes a click to them, and a
click on a message from an earlier deal is recognised as stale and answered politely.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.engine.deal import DISCARD, PLAY
from bot.engine.match import MatchView
from bot.tables.table import Table
from bot.ui.cards import action_label, card_label, card_style
from bot.ui.errors import reply_error

# Actions are card codes or declarations such as `call:H:alone`: letters, digits and colons.
_ACTION = r"[A-Za-z0-9:]+"


def deal_number(table: Table) -> int:
    """The number of the deal being played (0 before any), as written into button ids."""
    return len(table.match.deals) if table.match else 0


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"euchre:act:(?P<table>\d+):(?P<deal>\d+):(?P<action>{_ACTION})",
):
    """A card to play or discard, or a declaration, on a player's private hand."""

    def __init__(
        self,
        table_id: int,
        deal: int,
        action: str,
        label: str = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                row=row,
                custom_id=f"euchre:act:{table_id}:{deal}:{action}",
            )
        )
        self.table_id, self.deal, self.action = table_id, deal, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> HandButton:
        return cls(int(match["table"]), int(match["deal"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.act(
                interaction, self.action, table_id=self.table_id, deal=self.deal, from_hand=True
            )
        except Exception as error:
            await reply_error(interaction, error)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"euchre:table:(?P<table>\d+):(?P<what>hand|join|start|consent)",
):
    """A button on the public table message. It carries no hidden information."""

    LABELS = {
        "hand": "My hand",
        "join": "Join",
        "start": "Start",
        "consent": "Consent to substitute",
    }
    STYLES = {
        "hand": discord.ButtonStyle.primary,
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.secondary,
        "consent": discord.ButtonStyle.success,
    }

    def __init__(self, table_id: int, what: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[what],
                style=self.STYLES[what],
                custom_id=f"euchre:table:{table_id}:{what}",
            )
        )
        self.table_id, self.what = table_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> TableButton:
        return cls(int(match["table"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.table_button(interaction, self.table_id, self.what)
        except Exception as error:
            await reply_error(interaction, error)


def table_view(table: Table) -> discord.ui.View:
    """The public table message's buttons: My hand while playing; Join and Start while seating."""
    view = discord.ui.View(timeout=None)
    if table.playing:
        view.add_item(TableButton(table.id, "hand"))
    else:
        view.add_item(TableButton(table.id, "join"))
        view.add_item(TableButton(table.id, "start"))
    if table.substitution is not None:
        view.add_item(TableButton(table.id, "consent"))
    return view


def hand_view(table: Table, seat: int, view: MatchView) -> discord.ui.View:
    """A player's hand as card buttons (only legal ones enabled) and the declarations open now."""
    deal = view.deal
    number = deal_number(table)
    items = discord.ui.View(timeout=None)
    legal = set(deal.legal)
    cards_act = deal.phase in (PLAY, DISCARD) and deal.to_act == seat
    for i, card in enumerate(deal.hand or ()):
        label = card_label(card) if deal.phase != DISCARD else f"Discard {card_label(card)}"
        items.add_item(
            HandButton(
                table.id,
                number,
                card,
                label=label,
                style=card_style(card),
                disabled=not (cards_act and card in legal),
                row=i // 5,
            )
        )
    if deal.to_act == seat and not cards_act:
        for i, action in enumerate(deal.legal):
            items.add_item(
                HandButton(
                    table.id,
                    number,
                    action,
                    label=action_label(action, seat, deal.dealer),
                    style=discord.ButtonStyle.primary
                    if action != "pass"
                    else discord.ButtonStyle.secondary,
                    row=2 + i // 5,
                )
            )
    return items


DYNAMIC_ITEMS = (HandButton, TableButton)
