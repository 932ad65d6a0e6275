"""Private hands that follow the game: one message per player, edited as the table moves.

A player's hand is an ephemeral message, which only the interaction that made it can edit, for
15 minutes from that interaction (Discord's token lifetime). Each click in the hand is a new
interaction with a fresh token for the same message, so the bot keeps the latest interaction
per player and table and edits the message after every accepted action at the table, by anyone.
A player who keeps playing from the hand never needs to open it again.

The edits run in background tasks, after the click that caused them has been answered, and
coalesce: while one round of edits is under way, further changes only mark the table for one more
round, which then shows the newest state. The hand of the player to act comes first, in one task
per table, since that player is waiting for their buttons. The other hands show only the trick and
what was declared; they are drawn in a second task per table, which waits for one of a few
painting slots shared by every table: when many tables are busy, those edits queue and coalesce
(each draws the newest state once) instead of taking the time clicks need to be answered.

A hand whose token has run out (or whose message was dismissed) is dropped and remembered as
expired, so the next time that player's turn comes the table tells them how to get it back.
Shortly before its token runs out a hand is closed with a last edit saying so (`ENDED`):
left as last drawn, it would go on showing a turn, a trick and buttons long gone by. An
edit refused for a card's picture (its emoji gone, `CardEmojis.picture_refused`) is not that: the
hand is drawn again at once, its cards as text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import EuchreError
from bot.rerun import log_task_end
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

# Discord's token lives 15 minutes; stop a little before, so an edit never races the end.
TOKEN_LIFETIME = timedelta(minutes=14, seconds=30)
MOVED = "This hand moved to a newer message: use that one."
# A hand's last edit, while its token still lives: after it, the message cannot be kept up to date.
ENDED = (
    "This hand no longer follows the game: Discord lets the bot keep a private message up to"
    " date for 15 minutes only. Press **My hand** on the table message (or use /hand) to see"
    " your hand as the game goes on."
)
HELD = ("held",)  # what a hand shows while a computer holds the seat
HELD_TEXT = (
    "You timed out twice, so a computer plays {seat} for you. Use /table back to take the"
    " seat again: your hand comes back here."
)
# Tables whose waiting players' hands are drawn at the same time. Enough to keep up when the
# bot is idle; few enough that under load the clicks are answered first (bench/hands.py).
PAINTING_SLOTS = 8


@dataclass
class LiveHand:
    """The message showing one player's hand, and the latest interaction that can edit it."""

    interaction: discord.Interaction
    message_id: int | None
    shown: tuple[Any, ...] = ()  # the table's state when the message was last drawn
    ending: asyncio.TimerHandle | None = None  # when the hand is closed, before its token ends
    # What the answer that drew it said above the hand (`note`), kept there for the deal it
    # was said in while the turn is, or is not, the member's as it was then (`note_turn`).
    note: str | None = None
    note_turn: tuple[int, int, bool] | None = None
    look: str | None = None  # the member's choice of pictures or text it was drawn with


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
        # Members whose hands a restart left behind: no hand opened before it follows the game.
        self._restarted: set[tuple[int, int]] = set()
        # The turn's hand, and the waiting players' hands: a task and a "once more" mark each.
        self._turn = _Rounds()
        self._waiting = _Rounds()
        self._slots = asyncio.Semaphore(PAINTING_SLOTS)
        self._drawing: dict[tuple[int, int], asyncio.Lock] = {}
        self._ending: set[asyncio.Task[None]] = set()  # hands' last edits under way
        self._closed = False

    def follow(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction,
        message_id: int | None,
        shown: tuple[Any, ...],
        note: str | None = None,
    ) -> LiveHand | None:
        """The hand this interaction answered with is now the member's live hand.

        Args:
            shown: the table's state that answer drew. The table may have moved on while the
                answer was on its way (a computer's move): then the hand is drawn once more,
                else it would stay a move behind, its buttons not those of the turn.
            note: what the answer said above the hand (naming the suit turned down is a
                pass; the button was of an earlier deal). The next move at the table, maybe
                a computer's at once, redrew the hand without it before it could be read: it
                stays until the member's turn comes (or goes), or the deal ends.

        Returns:
            The hand it replaces when that was another message (to be closed), else None.
        """
        key = (table.id, user_id)
        old = self._hands.get(key)
        if old is not None and old.ending is not None:
            old.ending.cancel()
        hand = LiveHand(interaction, message_id, shown, look=self.bot.card_looks.of(user_id))
        if note:
            hand.note, hand.note_turn = note, _turn_of(table, user_id)
        self._hands[key] = hand
        if not self._closed:
            left = TOKEN_LIFETIME - (discord.utils.utcnow() - interaction.created_at)
            hand.ending = asyncio.get_running_loop().call_later(
                max(left.total_seconds(), 0.0), self._end_soon, table, user_id, hand
            )
        self._at.setdefault(table.id, set()).add(user_id)
        self._expired.discard(key)
        self._restarted.discard(key)
        if shown != state_key(table):
            self.refresh(table)
        if old is not None and old.message_id != message_id:
            return old
        return None

    def shows_now(self, table: Table, user_id: int, message_id: int | None) -> bool:
        """Whether `message_id` is the member's live hand, drawn for the table as it stands."""
        hand = self._hands.get((table.id, user_id))
        return hand is not None and hand.message_id == message_id and hand.shown == state_key(table)

    def has_live(self, table_id: int, user_id: int) -> bool:
        hand = self._hands.get((table_id, user_id))
        return hand is not None and not _expired(hand)

    def lost_in_restart(self, table: Table) -> None:
        """The bot restarted: the hands its seated members had open no longer follow the game,
        so each is told, at their next turn, how to get theirs back (a member whose seat a
        computer holds too: their hand was to come back at `/table back`)."""
        for occupant in table.seats:
            if occupant is None:
                continue
            member = occupant.held_for if occupant.is_bot else occupant.user_id
            if member is not None and (table.id, member) not in self._hands:
                self._restarted.add((table.id, member))

    def take_expired(self, table_id: int, user_id: int) -> str | None:
        """Why the member's hand stopped following the game since they were last told (and
        note them told): `expired` (Discord's 15 minutes), `restarted`, or None."""
        key = (table_id, user_id)
        hand = self._hands.get(key)
        if hand is not None and _expired(hand):
            self._forget(key)
            self._expired.add(key)
        if key in self._expired:
            self._expired.discard(key)
            self._restarted.discard(key)
            return "expired"
        if key in self._restarted:
            self._restarted.discard(key)
            return "restarted"
        return None

    def restyle(self, user_id: int) -> None:
        """Draw this member's live hands again: he changed how his messages show cards."""
        tables = {table.id: table for table in self.bot.manager.tables.values()}
        for table_id, member in list(self._hands):
            if member == user_id and table_id in tables:
                self.refresh(tables[table_id])

    def refresh(self, table: Table) -> None:
        """Bring every live hand at the table up to date, in the background."""
        if self._closed or not self._at.get(table.id):
            return
        self._turn.run(table.id, lambda: self._draw_turn(table))
        self._waiting.run(table.id, lambda: self._draw_waiting(table))

    async def _draw_turn(self, table: Table) -> None:
        while self._turn.start_round(table.id):
            user_id = _member_to_act(table)
            hand = self._hands.get((table.id, user_id)) if user_id is not None else None
            if user_id is not None and hand is not None:
                await self._redraw(table, user_id, hand)

    async def _draw_waiting(self, table: Table) -> None:
        while self._waiting.start_round(table.id):
            async with self._slots:
                # Read who waits once the slot is ours: the turn may have moved meanwhile.
                turn = _member_to_act(table)
                hands = [
                    (user_id, self._hands[(table.id, user_id)])
                    for user_id in self._at.get(table.id, ())
                    if user_id != turn
                ]
                await asyncio.gather(*(self._redraw(table, u, hand) for u, hand in hands))

    async def _redraw(self, table: Table, user_id: int, hand: LiveHand) -> None:
        # One drawing of a hand at a time: two edits in flight could land out of order and
        # leave an older state (a hand without its buttons) on screen.
        key = (table.id, user_id)
        lock = self._drawing.setdefault(key, asyncio.Lock())
        async with lock:
            await self._draw(table, user_id, hand)
        if self._hands.get(key) not in (hand, None):
            # A click replaced the hand while it was being drawn: its answer may have landed
            # before this edit; draw the newest state once more.
            self.refresh(table)

    async def _draw(self, table: Table, user_id: int, hand: LiveHand, again: bool = True) -> None:
        from bot.ui.respond import hand_message  # the hand's embed and buttons, under the lock

        key = (table.id, user_id)
        if self._hands.get(key) is not hand:
            return  # replaced or dropped while waiting for its turn to be drawn
        if _expired(hand):
            self._drop(key, hand, expired=True)
            await self.bot.table_messages.hand_expired(table, user_id)
            return
        try:
            shown, embed, view = await hand_message(self.bot, table, user_id)
        except EuchreError as error:
            held = table.held_seat_of(user_id)
            if held is not None and table.status != "closed":
                # A computer holds the seat after two time-outs: the hand waits without buttons
                # and comes back at `/table back`, when it is drawn again.
                if hand.shown != HELD:
                    text = HELD_TEXT.format(seat=table.seat_label(held))
                    if await self._edit(key, hand, content=text, embed=None, view=None):
                        hand.shown = HELD
                return
            # Not seated any more, or the table closed: close the hand, saying why.
            text = str(error)
            await self._edit(
                key, hand, content=f"This hand is closed: {text}.", embed=None, view=None
            )
            self._drop(key, hand)
            return
        look = self.bot.card_looks.of(user_id)
        if shown == hand.shown and look == hand.look:
            return
        if hand.note is not None and hand.note_turn != _turn_of(table, user_id):
            hand.note = None  # said of a turn gone by, or of an earlier deal
        if await self._edit(key, hand, content=hand.note, embed=embed, view=view):
            hand.shown, hand.look = shown, look
        elif key in self._expired:
            await self.bot.table_messages.hand_expired(table, user_id)
        elif again:
            # A card's picture was refused: drawn once more, its cards as text now.
            await self._draw(table, user_id, hand, again=False)

    def _end_soon(self, table: Table, user_id: int, hand: LiveHand) -> None:
        if self._closed or self._hands.get((table.id, user_id)) is not hand:
            return
        task = asyncio.create_task(self._end(table, user_id, hand), name=f"hand-end-{table.id}")
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)
        task.add_done_callback(log_task_end)

    async def _end(self, table: Table, user_id: int, hand: LiveHand) -> None:
        """The hand's token is about to run out: its last edit closes it, saying how to get a
        new one (at the member's turn the table says so too, `take_expired`)."""
        key = (table.id, user_id)
        async with self._drawing.setdefault(key, asyncio.Lock()):
            if self._hands.get(key) is not hand:
                return  # replaced, or dropped, meanwhile
            self._drop(key, hand, expired=True)
            try:
                await hand.interaction.edit_original_response(content=ENDED, embed=None, view=None)
            except discord.HTTPException as error:
                log.info("hand of member %s at table %s not closed: %s", user_id, table.id, error)
        await self.bot.table_messages.hand_expired(table, user_id)

    async def _edit(self, key: tuple[int, int], hand: LiveHand, **fields: Any) -> bool:
        try:
            await hand.interaction.edit_original_response(**fields)
            return True
        except discord.HTTPException as error:
            if self.bot.card_emojis.picture_refused(error):
                # A card's emoji is gone, not the hand: it still follows the game.
                return False
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

    async def table_closed(self, table_id: int) -> None:
        """The table closed: once its hands are drawn closed, saying why (the close's own
        refresh draws them), nothing of it is kept. A hand pressed later is answered from the
        button's ids (`respond.act`: the table has closed), not from here."""
        await asyncio.gather(self._turn.finish(table_id), self._waiting.finish(table_id))
        self.forget_table(table_id)

    def forget_table(self, table_id: int) -> None:
        for user_id in list(self._at.get(table_id, ())):
            self._forget((table_id, user_id))
        self._expired = {k for k in self._expired if k[0] != table_id}
        self._restarted = {k for k in self._restarted if k[0] != table_id}
        self._turn.forget(table_id)
        self._waiting.forget(table_id)

    def _forget(self, key: tuple[int, int]) -> None:
        hand = self._hands.pop(key)
        if hand.ending is not None:
            hand.ending.cancel()
        self._drawing.pop(key, None)
        members = self._at.get(key[0])
        if members is not None:
            members.discard(key[1])
            if not members:
                del self._at[key[0]]

    async def close(self) -> None:
        self._closed = True
        for hand in self._hands.values():
            if hand.ending is not None:
                hand.ending.cancel()
        for task in self._ending:
            task.cancel()
        await asyncio.gather(
            self._turn.cancel(), self._waiting.cancel(), *self._ending, return_exceptions=True
        )


class _Rounds:
    """One task per table that redraws in rounds: a change while a round is under way asks for
    one more round, not one more task."""

    def __init__(self) -> None:
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def run(self, table_id: int, draw: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self._again.add(table_id)
        task = self._tasks.get(table_id)
        if task is None or task.done():
            task = asyncio.create_task(draw(), name=f"hands-{table_id}")
            self._tasks[table_id] = task
            task.add_done_callback(log_task_end)

    def start_round(self, table_id: int) -> bool:
        """Whether another round is asked for (and take the request)."""
        if table_id in self._again:
            self._again.discard(table_id)
            return True
        return False

    async def finish(self, table_id: int) -> None:
        """Until the table's rounds asked for so far are drawn (or cancelled: the bot stops)."""
        task = self._tasks.get(table_id)
        if task is not None:
            await asyncio.wait([task])

    def forget(self, table_id: int) -> None:
        self._tasks.pop(table_id, None)
        self._again.discard(table_id)

    async def cancel(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _member_to_act(table: Table) -> int | None:
    match = table.any_match
    if match is None or match.over or match.to_act is None:
        return None
    occupant = table.seats[match.to_act]
    return occupant.user_id if occupant is not None and not occupant.is_bot else None


def _turn_of(table: Table, user_id: int) -> tuple[int, int, bool]:
    """The match and deal being played, and whether the member is the one to act in it."""
    match = table.any_match
    deals = len(match.deals) if match is not None else 0
    return (table.match_no, deals, _member_to_act(table) == user_id)


def _expired(hand: LiveHand) -> bool:
    return discord.utils.utcnow() - hand.interaction.created_at > TOKEN_LIFETIME
