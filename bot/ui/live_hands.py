"""Private hands that follow the game: one message per player, edited as the table moves.

A player's hand is an ephemeral message, which only the interaction that made it can edit, for
15 minutes from that interaction (Discord's token lifetime). Each click in the hand is a new
interaction with a fresh token for the same message, so the bot keeps the latest interaction
per player and table and edits the message after every accepted action at the table, by anyone.
A player who keeps playing from the hand never needs to open it again.

The edits run in one background task per table, after the click that caused them has been
answered, and coalesce: while one round of edits is under way, further changes only mark the
table for one more round, which then shows the newest state. A hand whose token has run out (or
whose message was dismissed) is dropped and remembered as expired, so the next time that player's
turn comes the table tells them how to get it back.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import EuchreError
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

# Discord's token lives 15 minutes; stop a little before, so an edit never races the end.
TOKEN_LIFETIME = timedelta(minutes=14, seconds=30)
MOVED = "This hand moved to a newer message: use that one."


@dataclass
class LiveHand:
    """The message showing one player's hand, and the latest interaction that can edit it."""

    interaction: discord.Interaction
    message_id: int | None
    shown: tuple[Any, ...] = ()  # the table's state when the message was last drawn


def state_key(table: Table) -> tuple[Any, ...]:
    """What a hand shows changes only with these: the actions taken, the match, who sits where."""
    return (
        table.status,
        table.match_no,
        len(table.actions),
        tuple((o.user_id, o.is_bot) if o else None for o in table.seats),
    )


class LiveHands:
    """Every player's live hand, by (table id, member id)."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot
        self._hands: dict[tuple[int, int], LiveHand] = {}
        self._at: dict[int, set[int]] = {}  # the members with a live hand, by table
        self._expired: set[tuple[int, int]] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._closed = False

    def follow(
        self, table: Table, user_id: int, interaction: discord.Interaction, message_id: int | None
    ) -> LiveHand | None:
        """The hand this interaction answered with is now the member's live hand.

        Returns:
            The hand it replaces when that was another message (to be closed), else None.
        """
        key = (table.id, user_id)
        old = self._hands.get(key)
        self._hands[key] = LiveHand(interaction, message_id, state_key(table))
        self._at.setdefault(table.id, set()).add(user_id)
        self._expired.discard(key)
        if old is not None and old.message_id != message_id:
            return old
        return None

    def has_live(self, table_id: int, user_id: int) -> bool:
        hand = self._hands.get((table_id, user_id))
        return hand is not None and not _expired(hand)

    def take_expired(self, table_id: int, user_id: int) -> bool:
        """Whether the member's hand expired since they were last told (and note them told)."""
        key = (table_id, user_id)
        hand = self._hands.get(key)
        if hand is not None and _expired(hand):
            self._forget(key)
            self._expired.add(key)
        if key in self._expired:
            self._expired.discard(key)
            return True
        return False

    def refresh(self, table: Table) -> None:
        """Bring every live hand at the table up to date, in the background."""
        if self._closed or not self._at.get(table.id):
            return
        task = self._tasks.get(table.id)
        if task is not None and not task.done():
            self._again.add(table.id)
            return
        task = asyncio.create_task(self._refresh(table), name=f"hands-{table.id}")
        self._tasks[table.id] = task
        task.add_done_callback(_log_failure)

    async def _refresh(self, table: Table) -> None:
        while True:
            self._again.discard(table.id)
            keys = [(table.id, user_id) for user_id in self._at.get(table.id, ())]
            hands = [(key, self._hands[key]) for key in keys]
            await asyncio.gather(*(self._redraw(table, key[1], hand) for key, hand in hands))
            if table.id not in self._again:
                return

    async def _redraw(self, table: Table, user_id: int, hand: LiveHand) -> None:
        from bot.ui.respond import hand_message  # the hand's embed and buttons, under the lock

        key = (table.id, user_id)
        if _expired(hand):
            self._drop(key, hand, expired=True)
            await self.bot.table_messages.hand_expired(table, user_id)
            return
        try:
            shown, embed, view = await hand_message(self.bot, table, user_id)
        except EuchreError as error:
            # Not seated any more, or the table closed: close the hand, saying why.
            text = str(error)
            await self._edit(
                key, hand, content=f"This hand is closed: {text}.", embed=None, view=None
            )
            self._drop(key, hand)
            return
        if shown == hand.shown:
            return
        if await self._edit(key, hand, content=None, embed=embed, view=view):
            hand.shown = shown
        elif key in self._expired:
            await self.bot.table_messages.hand_expired(table, user_id)

    async def _edit(self, key: tuple[int, int], hand: LiveHand, **fields: Any) -> bool:
        try:
            await hand.interaction.edit_original_response(**fields)
            return True
        except discord.HTTPException as error:
            # The token ran out, or the member dismissed the message.
            log.info("hand of member %s at table %s closed: %s", key[1], key[0], error)
            self._drop(key, hand, expired=True)
            return False

    def _drop(self, key: tuple[int, int], hand: LiveHand, expired: bool = False) -> None:
        if self._hands.get(key) is hand:
            self._forget(key)
            if expired:
                self._expired.add(key)

    async def close_old(self, hand: LiveHand) -> None:
        """A hand replaced by a newer message: it keeps no button to click."""
        if _expired(hand):
            return
        try:
            await hand.interaction.edit_original_response(content=MOVED, embed=None, view=None)
        except discord.HTTPException:
            pass

    def forget_table(self, table_id: int) -> None:
        for user_id in list(self._at.get(table_id, ())):
            self._forget((table_id, user_id))
        self._expired = {k for k in self._expired if k[0] != table_id}

    def _forget(self, key: tuple[int, int]) -> None:
        del self._hands[key]
        members = self._at.get(key[0])
        if members is not None:
            members.discard(key[1])
            if not members:
                del self._at[key[0]]

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _expired(hand: LiveHand) -> bool:
    return discord.utils.utcnow() - hand.interaction.created_at > TOKEN_LIFETIME


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("refreshing hands failed", exc_info=task.exception())
