"""Keeping each channel's public table message up to date.

One table message per deal: Discord limits edits to old messages, and a fresh message per deal
keeps the current one at the bottom of the channel. Hands, games and rubbers that end are
announced in their own short messages so the channel reads as a log of the match.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.tables.manager import Change
from bot.tables.table import Table
from bot.ui.embeds import cut_text, game_text, match_text, result_text, seat_mention, table_embed
from bot.ui.views import deal_number, table_view

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)


class TableMessages:
    """The Discord side of the manager's `TableListener`."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone; its table cannot be shown", channel_id)
                return None
        return channel  # type: ignore[return-value]

    def _public_view(self, table: Table):
        return table.match.public_view() if table.match else None

    async def render(self, table: Table, fresh: bool = False) -> None:
        """Edit the table message of this deal, or post a new one for a new deal (or on request)."""
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            channel = await self._channel(table.channel_id)
            if channel is None:
                return
            deadline = self.bot.manager.deadlines.get(table.id)
            embed = table_embed(table, self._public_view(table), deadline)
            view = table_view(table)
            number = deal_number(table)
            if not fresh and table.message_id and table.message_deal == number:
                try:
                    await channel.get_partial_message(table.message_id).edit(embed=embed, view=view)  # type: ignore[union-attr]
                    return
                except discord.HTTPException:
                    log.info(
                        "table %s: its message could not be edited; posting a new one", table.id
                    )
            message = await channel.send(embed=embed, view=view)
            if table.status != "closed":
                await self.bot.manager.touch_message(table, message.id, number)

    async def announce(self, table: Table, text: str) -> None:
        channel = await self._channel(table.channel_id)
        if channel is not None and text:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))

    async def table_changed(self, change: Change) -> None:
        table = change.table
        lines = []
        if change.cut:
            lines.append("**Cutting for partners and deal** (jack high):\n" + cut_text(change.cut))
        if change.kind == "takeover":
            lines.append(
                f"{seat_mention(table, change.seat)} timed out twice: a computer holds the seat until `/table back`."
            )
        elif change.kind == "timeout":
            lines.append(
                f"Time ran out: a computer made that move for {seat_mention(table, change.seat)}."
            )
        if change.hand is not None:
            lines.append(result_text(table, change.hand))
        match = table.match
        for number, game in enumerate(change.games, start=change.first_game):
            lines.append(game_text(game, number))
        if change.match_over and match is not None:
            flag = (
                " (a computer or a substitute played: not counted on the leaderboards)"
                if table.flagged
                else ""
            )
            lines.append(
                match_text(table, match.public_view())
                + flag
                + " The host can /table start another."
            )
        if change.kind == "closed":
            lines.append(f"The table is closed ({change.note}).")
        if lines:
            await self.announce(table, "\n".join(lines))
        if change.kind != "closed":
            await self.render(table, fresh=change.hand is not None or change.kind == "started")

    async def turn_reminder(self, table: Table, seat: int, deadline: float) -> None:
        await self.announce(
            table, f"{seat_mention(table, seat)}, it is your turn — due <t:{int(deadline)}:R>."
        )

    async def table_restored(self, table: Table) -> None:
        await self.announce(table, "Table restored after a restart: play on where you left off.")
        await self.render(table, fresh=True)
