"""What a table shows in its channel: the table message, finished deals, pings, news.

- One table message per deal: a fresh message per deal keeps the current one at the bottom of
  the channel. When a deal ends, its message is edited to show how it ended (the last trick,
  the result named for the makers' side, the running score) with a Review button, and the next
  deal gets its own message. A channel reads as a log of the match, about one message a deal.
  How a deal ended is drawn as it ends (the score then), and shown on that deal's message
  whenever the channel is next brought up to date, however late: a deal's message never stays
  in the middle of a trick, even when edits waited for the REST budget, a 429 or a restart.
  Which message shows which deal, and whether it is finished, is stored with the table.
- What happens to the table (someone leaves, times out, is replaced, comes back) is said once,
  in the table message's "At the table" lines, not in messages of its own.
- A ping on your turn is a message whose content mentions you (a mention in an embed never
  notifies), allowed to mention that one member only. At most one is alive per table: it is
  deleted when the turn moves on. Sending one runs to its end even when the turn timer that
  asked for it is cancelled (else a ping sent as the turn moved would never be deleted), and
  every ping sent is stored with the table until it is deleted, so a restart deletes those
  whose delete had not gone out (it waited for the REST budget) too. A ping may also be posted
  without the bot ever hearing its id (it stopped, or gave the request up as the turn moved,
  while Discord answered): the moment each ping is sent is stored before it goes, and until
  its id is, the channel is looked through after that moment for the bot's own pings not
  stored, which are deleted.
- Everything drawn is drawn under the table's lock: a request holds that lock until its action
  is stored, so no message ever shows an action that might still be undone.
- The players' private hands are brought up to date before the table message. Editing a hand
  answers through the interaction's token, which Discord's global limit of 50 requests a second
  does not count; the table message is an ordinary request that may wait its turn in the
  process's share of `REST_BUDGET`. With more tables at play than the budget has edits for, the
  game goes on from the hands, and each table message skips to the newest state when its turn
  comes: an edit asked for while another of the same table is still waiting is that one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from bot import request_left
from bot.engine.commitment import commitment
from bot.engine.match import MatchView
from bot.rerun import log_task_end
from bot.rest_budget import BudgetClosed
from bot.storage.errors import WriterClosed
from bot.tables.manager import Change, Handover
from bot.tables.table import CLOSED, Substitution, Table
from bot.ui import variant_views
from bot.ui.embeds import (
    cut_text,
    finished_embed,
    game_text,
    match_text,
    phase_words,
    proof_text,
    safe,
    table_embed,
)
from bot.ui.errors import UNKNOWN_CHANNEL, fit_content
from bot.ui.views import deal_number, finished_view, substitute_view, table_view

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)
# Where the seat to act is in a turn (`TableMessages._turn`).
_TURN_SEAT = 3

NO_MENTIONS = discord.AllowedMentions.none()
HAND_EXPIRED = (
    "Your private hand has expired (Discord keeps it editable for 15 minutes): "
    "press **My hand** on the table message to see it again."
)
HAND_RESTARTED = (
    "The bot restarted: a private hand opened before it no longer follows the game. "
    "Press **My hand** on the table message to see yours."
)
# What every ping says after its mention; how the pings the bot lost track of are known again.
PING_WORDS = ", it is your turn"
# How far back, and through how many messages, the channel is looked through for such a ping.
LOOK_BACK_MS = 10_000
LOOK_FOR = 100
HAND_LOST = {"expired": HAND_EXPIRED, "restarted": HAND_RESTARTED}


class TableMessages:
    """The Discord side of the manager's `TableListener`."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._notes: dict[int, list[str]] = {}  # news shown in the current table message
        self._pings: dict[int, _AlivePing] = {}  # each table's ping of its turn
        self._sending: dict[int, tuple[Any, ...]] = {}  # the turn whose ping is on its way
        self._ping_locks: dict[int, asyncio.Lock] = {}
        # Tables with an edit of their message waiting to start: it will draw the newest state.
        self._edit_waiting: set[int] = set()
        # Finished deals drawn as they ended, by (match, deal), until their message shows them;
        # and the deals already shown so (a deal's end may be told more than once).
        self._finished: dict[int, dict[tuple[int, int], _Finished]] = {}
        self._shown_finished: dict[int, set[tuple[int, int]]] = {}
        # Each table's offer of a seat to a substitute, until its request is done with: its
        # buttons are then taken off. Kept in memory only: after a restart, a press of an old
        # offer's button is still refused, saying why.
        self._offers: dict[int, _Offer] = {}
        # Channels Discord said were deleted (or whose server the bot left): nothing is
        # fetched from, or sent to, them again.
        self._gone: set[int] = set()

    async def tables_gone(self, channel_ids: list[int], reason: str) -> None:
        """The channels are gone: their tables are closed (`reason` says why) and their
        members' open hands say so; nothing is posted where no one can read it."""
        self._gone.update(channel_ids)
        for table in await self.bot.manager.close_gone(channel_ids, reason):
            await self.table_changed(Change(table, "closed", note=reason))

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        if channel_id in self._gone:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException as error:
                log.warning("channel %s is gone; its table cannot be shown", channel_id)
                if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
                    # Deleted while the bot was not told (it was down): the table is closed
                    # as on the deletion's event, once the caller let go of its locks.
                    gone = self.tables_gone([channel_id], "its channel was deleted")
                    asyncio.ensure_future(gone).add_done_callback(log_task_end)
                return None
        return channel  # type: ignore[return-value]

    def _lock(self, table: Table) -> asyncio.Lock:
        return self._locks.setdefault(table.id, asyncio.Lock())

    # -- the table message ------------------------------------------------------------------

    async def _draw(self, table: Table) -> tuple[discord.Embed, discord.ui.View, int | None] | None:
        """The table message as the table stands, drawn under its lock (so from stored state),
        and the deal in play it shows (None between matches: nothing to finish later)."""
        manager = self.bot.manager
        if not manager.knows(table):
            return None
        async with manager.lock_for(table):
            if table.status == CLOSED:
                return None
            if table.variant is not None:
                played = table.variant_match
                now = played.deal if played and table.playing else None
                embed = variant_views.table_embed(
                    table,
                    played.public_view() if played else None,
                    manager.deadlines.get(table.id),
                    self._notes.get(table.id, []),
                    commitment(now.seed, now.deal_id) if now and now.seed and now.deal_id else None,
                )
                return embed, table_view(table), _in_play(table)
            view = table.match.public_view() if table.match else None
            deadline = manager.deadlines.get(table.id)
            notes = self._notes.get(table.id, [])
            deal = table.match.deal if table.match and table.playing else None
            committed = (
                commitment(deal.seed, deal.deal_id)
                if deal is not None and deal.seed and deal.deal_id
                else None
            )
            embed = table_embed(table, view, deadline, notes, committed)
            return embed, table_view(table), _in_play(table)

    async def render(self, table: Table, fresh: bool = False, *, started: bool = False) -> None:
        """Bring the channel up to date: finished deals shown as they ended, then the table
        message edited, or a new one posted for a new deal (or on request: `fresh`; a match's
        start, `started`, is fresh unless its first deal has a message already); a message
        replaced for the same deal is deleted, so none is duplicated.

        An edit of a table whose next edit is already waiting (for the table's lock, which the
        edit before holds while it waits for the REST budget) is left to that one: it draws the
        table as it stands when its turn comes, this change included."""
        with self._unless_stopping(table):
            await self._render(table, fresh, started)

    async def _render(self, table: Table, fresh: bool, started: bool = False) -> None:
        if not fresh:
            if table.id in self._edit_waiting:
                return
            self._edit_waiting.add(table.id)
        async with self._lock(table):
            if not fresh:
                self._edit_waiting.discard(table.id)
            channel = await self._channel(table.channel_id)
            if channel is None:
                return
            await self._show_finished(table, channel)
            drawn = await self._draw(table)
            if drawn is None:
                return
            embed, view, number = drawn
            old, old_finished = table.message_id, table.message_finished
            current = (table.message_match or table.match_no, table.message_deal)
            shown = bool(old) and not old_finished and current == (table.match_no, number)
            # A match's start asks for a message of its own; one drawn for its first deal
            # since (a change shown before the start's own) is that message, not to be posted
            # again and the first deleted under a member's click.
            if shown and (not fresh or started):
                try:
                    await channel.get_partial_message(old).edit(embed=embed, view=view)  # type: ignore[attr-defined]
                    return
                except discord.HTTPException:
                    log.info("table %s: its message could not be edited; posting anew", table.id)
            message = await channel.send(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
            await self.bot.manager.touch_message(table, message.id, number)
            if old and not old_finished:  # a deal's message as it ended stays in the channel
                await self._delete(channel, old)

    async def _delete(self, channel: discord.abc.Messageable, message_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).delete()  # type: ignore[attr-defined]
        except discord.HTTPException:
            pass

    def _keep_finished(self, change: Change, lines: list[str]) -> bool:
        """Draw a deal as it ended, at once (under the table's lock), for its message: shown by
        the next bringing up to date, however long that waits (the score is the deal's), and
        the lines about it (a game won) posted right after it, in the channel's order.

        Returns:
            Whether it was kept (else the lines are the caller's to post).
        """
        table = change.table
        drawn = self._finished_embed(table, change.match_no, change.deal)
        key = (change.match_no, change.deal)
        if drawn is None or key in self._shown_finished.get(table.id, ()):
            return False
        view = finished_view(table.id, change.match_no, change.deal)
        self._finished.setdefault(table.id, {})[key] = _Finished(drawn, view, lines)
        return True

    async def _show_finished(self, table: Table, channel: discord.abc.Messageable) -> None:
        """Show every deal that ended as it ended (under the messages' lock): on its own
        message when that is the table message, else (a deal whose message was never posted,
        the edits having waited) on a message of its own; then the table message is new."""
        manager = self.bot.manager
        pending = self._finished.pop(table.id, {})
        shown = (table.message_match or table.match_no, table.message_deal or 0)
        if table.message_id is not None and not table.message_finished and shown[1]:
            drawing = pending.pop(shown, None)
            if drawing is None:  # drawn now: a restart lost the deal's drawing
                drawing = await self._finished_now(table, *shown)
            if drawing is not None:
                try:
                    await channel.get_partial_message(table.message_id).edit(  # type: ignore[attr-defined]
                        embed=drawing.embed, view=drawing.view
                    )
                    await manager.touch_message(
                        table, table.message_id, shown[1], match_no=shown[0], finished=True
                    )
                    self._mark_shown(table, shown)
                    await self._lines(channel, drawing.lines)
                except discord.HTTPException:
                    log.info("table %s: the finished deal's message could not be edited", table.id)
                    pending[shown] = drawing  # posted below instead
        for (match_no, deal), drawing in sorted(pending.items(), key=lambda kv: kv[0]):
            if (match_no, deal) in self._shown_finished.get(table.id, ()):
                # Shown finished meanwhile by another change's bringing up to date, drawn
                # again there without its lines (who won the game): they are posted here.
                await self._lines(channel, drawing.lines)
                continue
            message = await channel.send(
                embed=drawing.embed, view=drawing.view, allowed_mentions=NO_MENTIONS
            )
            await manager.touch_message(table, message.id, deal, match_no=match_no, finished=True)
            self._mark_shown(table, (match_no, deal))
            await self._lines(channel, drawing.lines)

    async def _lines(self, channel: discord.abc.Messageable, lines: list[str]) -> None:
        if lines:
            await channel.send("\n".join(lines)[:2000], allowed_mentions=NO_MENTIONS)

    def _mark_shown(self, table: Table, key: tuple[int, int]) -> None:
        """A deal now shown as it ended (only this match's are kept, to tell a repeat)."""
        shown = self._shown_finished.setdefault(table.id, set())
        shown.add(key)
        shown.difference_update({k for k in shown if k[0] < key[0]})

    async def _finished_now(self, table: Table, match_no: int, deal: int) -> _Finished | None:
        """A deal of the current match that is over, drawn now (its drawing as it ended was
        lost: a restart); None for a deal still in play or of another match."""
        manager = self.bot.manager
        if not manager.knows(table):
            return None
        async with manager.lock_for(table):
            drawn = self._finished_embed(table, match_no, deal)
        return None if drawn is None else _Finished(drawn, finished_view(table.id, match_no, deal))

    def _finished_embed(self, table: Table, match_no: int, number: int) -> discord.Embed | None:
        """A finished deal's message, four-handed or of the table's variant, drawn under the
        table's lock (None: that deal is not over, or not of this match)."""
        if table.variant is not None:
            return self._finished_variant_deal(table, match_no, number)
        return self._finished_deal(table, match_no, number)

    def _finished_variant_deal(
        self, table: Table, match_no: int, number: int
    ) -> discord.Embed | None:
        """A variant's finished deal message, drawn under the table's lock (None: that deal is
        not over, or not of this match)."""
        match = table.variant_match
        if match is None or table.match_no != match_no or not 0 < number <= len(match.deals):
            return None
        deal = match.deals[number - 1]
        if deal.result is None:
            return None
        return variant_views.finished_embed(
            table,
            number,
            deal.public_view(),
            deal.result,
            match.public_view(),
            variant_views.deal_proof(deal),
        )

    def _finished_deal(self, table: Table, match_no: int, number: int) -> discord.Embed | None:
        """The four-handed finished deal's message, drawn under the table's lock (None: that
        deal is not over, or not of this match)."""
        match = table.match
        if match is None or table.match_no != match_no or not 0 < number <= len(match.deals):
            return None
        deal = match.deals[number - 1]
        if deal.result is None:
            return None
        view: MatchView = match.public_view()
        proof = None
        if deal.seed is not None and deal.deal_id is not None:
            committed = commitment(deal.seed, deal.deal_id)
            proof = proof_text(deal.seed, committed, deal.deal_id)
        return finished_embed(table, number, deal.public_view(), deal.result, view, proof)

    async def _show_closed(self, table: Table, why: str) -> None:
        """The deals that ended are shown as they ended; the last table message says the table
        is closed, and keeps no button (a finished deal's message keeps its result, and the
        closing is said below it)."""
        async with self._lock(table):
            channel = await self._channel(table.channel_id)
            if channel is None:
                return
            await self._show_finished(table, channel)
            if table.message_id is None:
                return
            embed = discord.Embed(
                title="Euchre table: closed",
                description=f"This table is closed ({why}). Start a new one with /table create.",
                colour=discord.Colour.light_grey(),
            )
            if table.message_finished:
                await channel.send(embed=embed, allowed_mentions=NO_MENTIONS)
                return
            try:
                await channel.get_partial_message(table.message_id).edit(embed=embed, view=None)  # type: ignore[attr-defined]
            except discord.HTTPException:
                pass

    async def announce(self, table: Table, text: str) -> None:
        """A public line in the channel, mentioning no one."""
        channel = await self._channel(table.channel_id)
        if channel is not None and text:
            await channel.send(text[:2000], allowed_mentions=NO_MENTIONS)

    async def ask_substitute(self, table: Table, asked: Substitution) -> None:
        """Ask the member named substitute to take the seat, in a message that mentions them
        (and notifies no one else) with their buttons, Take the seat and Decline. The request
        is stored before: its buttons work after a restart too. Nothing is sent if it was
        answered or replaced meanwhile."""
        with self._unless_stopping(table):
            channel = await self._channel(table.channel_id)
            if channel is None:
                return
            async with self.bot.manager.lock_for(table):  # drawn from stored state
                if table.status == CLOSED or table.substitution is not asked:
                    return
                occupant = table.seats[asked.seat]
                holder = safe(occupant.name) if occupant else "A player"
                span = table.match_word
                consent = (
                    " The other players consent with **Consent to substitute** on the table"
                    " message."
                    if table.substitute_consenters()
                    else ""
                )
                text = (
                    f"<@{asked.user_id}>, {holder} asks you to take their seat"
                    f" ({table.seat_label(asked.seat)}) for the rest of the {span}: you are"
                    f" seated only if you press **Take the seat**.{consent}"
                )
                view = substitute_view(table)
            message = await channel.send(
                text[:2000],
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(asked.user_id)], everyone=False, roles=False
                ),
            )
            if table.id in self._offers:  # an older offer, answered or replaced meanwhile
                await self._close_offer(table)
            self._offers[table.id] = _Offer(asked, message.id, text[:2000], table.match_no)
            # Answered or replaced while it was on its way: its buttons go at once.
            await self._close_offer(table)

    def offer_shown(self, table: Table, number: int) -> bool:
        """Whether the offer of request `number` is in the channel with its buttons (not when
        posting it failed, nor since a restart, which keeps no offer)."""
        offer = self._offers.get(table.id)
        return offer is not None and offer.asked.number == number

    def offer_answered(self, table: Table, message_id: int | None) -> None:
        """The member asked answered on the offer's message, which that answer redrew: the
        offer is done with, nothing more to take off it."""
        offer = self._offers.get(table.id)
        if offer is not None and offer.message_id == message_id:
            del self._offers[table.id]

    async def _close_offer(self, table: Table, change: Change | None = None) -> None:
        """Take the buttons off the table's offer of a seat once its request is done with:
        the substitute took the seat, the request was replaced, withdrawn or declined, the
        rubber is over, or the table closed. The offer keeps its text, with a line saying
        what became of it."""
        offer = self._offers.get(table.id)
        if offer is None:
            return
        async with self.bot.manager.lock_for(table):  # drawn from stored state
            if self._offers.get(table.id) is not offer:
                return  # closed, or replaced, while this waited for the lock
            asked, now = offer.asked, table.substitution
            if table.status != CLOSED and now is not None and now.number == asked.number:
                return  # still waiting for an answer
            occupant = table.seats[asked.seat]
            if table.status == CLOSED:
                why = "The table closed: this seat is no longer offered."
            elif occupant is not None and occupant.user_id == asked.user_id:
                why = f"{safe(occupant.name)} took the seat."
            elif now is not None:
                why = "This request was replaced by a newer one."
            elif change is not None and change.withdrawn is not None:
                why = "This request was withdrawn."
            elif change is not None and change.note == "declined":
                why = f"{safe(asked.name)} declined."
            elif not table.playing or table.match_no != offer.match_no:
                span = table.match_word
                why = f"That {span} is over: this seat is no longer offered."
            else:
                why = "This request is no longer open."
            del self._offers[table.id]
        channel = await self._channel(table.channel_id)
        if channel is None:
            return
        try:
            await channel.get_partial_message(offer.message_id).edit(  # type: ignore[attr-defined]
                content=fit_content(f"{offer.text}\n{why}"), view=None, allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException:
            log.info("table %s: the offer of a seat could not be edited", table.id)

    # -- news at the table ------------------------------------------------------------------

    def _note(self, table: Table, line: str) -> None:
        notes = self._notes.setdefault(table.id, [])
        notes.append(line)
        del notes[:-5]

    def _news(self, change: Change) -> str | None:
        """The line a seating change adds to the table message, said once."""
        table, who = change.table, safe(change.who or "a player")
        seat = table.seat_label(change.seat) if change.seat is not None else None
        occupant = table.seats[change.seat] if change.seat is not None else None
        span = table.match_word
        if change.kind in ("left", "kicked"):
            by = "a moderator" if change.by_moderator else "the host"
            how = "left" if change.kind == "left" else f"was removed by {by}"
            # The last consent a substitute waited for was theirs: the substitute sits now.
            handed = f" {_handed_line(table, change.handed)}" if change.handed else ""
            if change.new_host is not None:  # the host left: the table starts the next rubber
                handed += f" {safe(change.new_host)} is the host now."
            if change.withdrawn is not None:
                asker = safe(change.withdrawn.by or "a player")
                place = table.seat_label(change.withdrawn.seat)
                handed += f" {asker}'s request that they take {place} is withdrawn."
            if occupant is not None and occupant.is_bot and table.playing:
                return (
                    f"{who} {how}: {safe(occupant.name)} plays {seat} for the rest of the {span}."
                    + handed
                )
            if occupant is not None and not occupant.is_bot and not table.playing:
                # The seat went to the first member waiting in line.
                return f"{who} {how}: {safe(occupant.name)}, first in line, sits at {seat}.{handed}"
            return f"{who} {how}.{handed}"
        if change.kind == "takeover":
            line = f"{who} timed out twice: a computer holds {seat} until `/table back`."
            return f"{line} {_handed_line(table, change.handed)}" if change.handed else line
        if change.kind == "timeout":
            return f"Time ran out for {who}: a computer made that move."
        if change.kind == "back":
            return f"{who} is back at {seat}."
        if change.kind == "substitute" and change.note == "declined":
            whose = f"{safe(occupant.name)}'s" if occupant else "the"
            return f"{who} declined to take {whose} seat ({seat})."
        if change.kind == "substitute" and change.handed is not None:
            return _handed_line(table, change.handed)
        return None

    # -- the listener -----------------------------------------------------------------------

    @contextlib.contextmanager
    def _unless_stopping(self, table: Table) -> Iterator[None]:
        """What the bot cannot show because it is stopping is let go quietly: a request still
        waiting for the REST budget is dropped (`BudgetClosed`), a message posted as the manager
        closed cannot be recorded (`WriterClosed`), one on its way finds the HTTP session
        closed. The table is drawn again at the next start (`table_restored`)."""
        try:
            yield
        except (BudgetClosed, WriterClosed):
            log.debug("table %s: not shown, the bot is stopping", table.id)
        except Exception:
            if not self.bot.is_closed():
                raise
            log.debug("table %s: not shown, the bot stopped", table.id, exc_info=True)

    async def table_changed(self, change: Change) -> None:
        with self._unless_stopping(change.table):
            await self._show_change(change)

    async def _show_change(self, change: Change) -> None:
        table = change.table
        # The hands first: their edits are not held back by the REST budget, and the player
        # to act waits for their buttons, not for the table message.
        self.bot.live_hands.refresh(table)
        ended_deal = change.hand is not None or change.variant_result is not None
        # Drawn under the table's lock, like the table message: from stored state only. A deal
        # that ended is drawn now, as it ended, whenever its message gets to show it.
        async with self.bot.manager.lock_for(table):
            lines = self._announcement(change)
            if ended_deal and self._keep_finished(change, lines):
                lines = []  # posted right after the deal's message
        if ended_deal:
            async with self._lock(table):
                channel = await self._channel(table.channel_id)
                if channel is not None:
                    await self._show_finished(table, channel)
        await self._turn_moved(table)
        if lines:
            await self.announce(table, "\n".join(lines))
        if change.kind != "closed":
            started = change.kind == "started"
            await self.render(table, fresh=started, started=started)
        else:
            await self._show_closed(table, change.note or "closed")
        await self._close_offer(table, change)
        if change.kind == "closed":  # nothing more is drawn for it: keep nothing of it
            self._offers.pop(table.id, None)
            self._notes.pop(table.id, None)
            self._locks.pop(table.id, None)
            self._ping_locks.pop(table.id, None)
            self._pings.pop(table.id, None)
            self._finished.pop(table.id, None)
            self._shown_finished.pop(table.id, None)
            await self.bot.live_hands.table_closed(table.id)

    def _announcement(self, change: Change) -> list[str]:
        """The news a change adds to the table message, and the lines it posts: the cut, games
        and matches ended, the table closed."""
        table = change.table
        news = self._news(change)
        if news:
            self._note(table, news)
        lines = []
        if change.kind == "started":
            self._notes.pop(table.id, None)
            if table.variant is not None:
                lines.append(variant_views.started_text(table))
            else:
                lines.append(cut_text(table, change.cut or []))
        if change.hand is not None or change.variant_result is not None:
            self._notes.pop(table.id, None)
        for number, game in enumerate(change.games, start=change.first_game):
            lines.append(game_text(game, number))
        match = table.match
        flag = (
            " (a computer or a substitute played: not counted on the leaderboards)"
            if table.flagged
            else ""
        )
        played = table.variant_match
        if change.match_over and table.variant is not None and played is not None:
            lines.append(
                variant_views.match_text(table, played.public_view()) + flag + _host_starts(table)
            )
        elif change.match_over and match is not None:
            lines.append(match_text(table, match.public_view()) + flag + _host_starts(table))
        if change.kind == "closed":
            lines.append(f"The table is closed ({change.note}).")
        return lines

    def _turn(self, table: Table) -> tuple[Any, ...] | None:
        """The turn a ping is for: the position and who is to act (a substitute taking the
        seat mid-turn makes it another turn: the old ping goes, the substitute is pinged)."""
        match = table.any_match
        if not table.playing or match is None or match.over or match.to_act is None:
            return None
        occupant = table.seats[match.to_act]
        who = occupant.user_id if occupant is not None else None
        return (table.match_no, len(match.deals), len(table.actions), match.to_act, who)

    async def _turn_moved(self, table: Table) -> None:
        """Delete a ping once its turn has passed; ping at once a member whose hand expired (or
        was left behind by a restart)."""
        turn = self._turn(table)
        pinged = self._pings.get(table.id)
        if pinged is not None and pinged.turn != turn:
            del self._pings[table.id]
            await self._unping(table, pinged.message_id)
        if turn is None:
            return
        occupant = table.seats[turn[_TURN_SEAT]]
        if occupant is None or occupant.is_bot:
            return
        lost = self.bot.live_hands.take_expired(table.id, occupant.user_id)
        if lost:
            await self._ping(table, turn, HAND_LOST[lost])

    async def _unping(self, table: Table, message_id: int) -> None:
        channel = await self._channel(table.channel_id)
        if channel is not None:
            await self._delete(channel, message_id)
        await self.bot.manager.note_ping(table, message_id, alive=False)

    async def _ping(self, table: Table, turn: tuple[Any, ...], extra: str = "") -> None:
        with self._unless_stopping(table):
            await self._send_ping(table, turn, extra)

    async def _send_ping(self, table: Table, turn: tuple[Any, ...], extra: str) -> None:
        occupant = table.seats[turn[_TURN_SEAT]]
        if occupant is None:
            return
        pinged = self._pings.get(table.id)
        if turn in (pinged and pinged.turn, self._sending.get(table.id)):
            # One ping a turn: a second asked for while the first is out or on its way (the
            # turn's timer and a hand found lost, or a restart's notice) is that one, which
            # is to carry what the second caller has to say too.
            if extra:
                await self._add_to_ping(table, turn, extra)
            return
        self._sending[table.id] = turn
        try:
            await self._send_one_ping(table, turn, extra, occupant.user_id)
        finally:
            if self._sending.get(table.id) == turn:
                del self._sending[table.id]

    async def _add_to_ping(self, table: Table, turn: tuple[Any, ...], extra: str) -> None:
        """Add to the turn's ping what a later caller has to say (how to get a lost hand back):
        an edit, which notifies no one again."""
        async with self._ping_lock(table):  # the ping on its way is out, or given up, first
            pinged = self._pings.get(table.id)
            if pinged is None or pinged.turn != turn or extra in pinged.text:
                return
            channel = await self._channel(table.channel_id)
            if channel is None:
                return
            text = f"{pinged.text} {extra}"
            try:
                await channel.get_partial_message(pinged.message_id).edit(  # type: ignore[attr-defined]
                    content=text, allowed_mentions=NO_MENTIONS
                )
            except discord.HTTPException:
                log.info("table %s: its ping could not be added to", table.id)
                return
            self._pings[table.id] = pinged._replace(text=text)

    async def _send_one_ping(
        self, table: Table, turn: tuple[Any, ...], extra: str, user_id: int
    ) -> None:
        channel = await self._channel(table.channel_id)
        if channel is None:
            return
        deal = table.match.deal if table.match else None
        deadline = self.bot.manager.deadlines.get(table.id)
        what = phase_words(deal, table.options) if deal else "your move"
        if table.variant_match is not None:
            what = variant_views.phase_words(table.variant_match.deal)
        due = f" — due <t:{int(deadline)}:R>" if deadline else ""
        text = f"<@{user_id}>{PING_WORDS} ({what}){due}."
        if extra:
            text += " " + extra
        # A member who asked never to be pinged is still told (a restart's notice, a hand that
        # expired), but their mention notifies no one.
        notify = self.bot.manager.pinged(table, turn[_TURN_SEAT])
        # One ping of a table on its way at a time, and none while the channel is looked
        # through for pings lost on the way: every ping posted before is then stored.
        lock = self._ping_lock(table)
        await lock.acquire()
        kept = False
        try:
            if self._turn(table) != turn:
                return  # the turn moved on while an earlier ping was on its way
            sent = discord.utils.time_snowflake(discord.utils.utcnow())
            if not await self.bot.manager.ping_on_its_way(table, sent):
                return
            try:
                with request_left.watch() as left:
                    # Cancelled while it waits for the REST budget (the turn moved on), nothing
                    # is sent.
                    message = await channel.send(
                        text,
                        allowed_mentions=discord.AllowedMentions(
                            users=[discord.Object(user_id)] if notify else False,
                            everyone=False,
                            roles=False,
                        ),
                    )
            except BaseException as error:
                # Refused by Discord, or given up before it left (it waited for the REST
                # budget as the turn moved on): nothing was posted. Given up on its way, or
                # answered with a server error, it may have been: it is looked for once this
                # ping lets go of the lock (or at the next start, if the bot stops).
                if not self.bot.is_closed():
                    refused = isinstance(error, discord.HTTPException) and error.status < 500
                    after = (
                        self._look_for_lost_pings(table, channel)
                        if left and not refused
                        else self.bot.manager.pings_looked_for(table, [sent])
                    )
                    asyncio.ensure_future(after).add_done_callback(log_task_end)
                raise
            # Sent: what follows runs to its end even if the caller (the turn's timer,
            # cancelled as the turn moves) is cancelled, else this ping, or the one before,
            # would never be deleted.
            keeping = asyncio.ensure_future(
                self._keep_ping(table, channel, _AlivePing(message.id, turn, text), sent, lock)
            )
            kept = True
            keeping.add_done_callback(log_task_end)
            await asyncio.shield(keeping)
        finally:
            if not kept:
                lock.release()

    async def _keep_ping(
        self,
        table: Table,
        channel: discord.abc.Messageable,
        ping: _AlivePing,
        sent: int,
        lock: asyncio.Lock,
    ) -> None:
        message_id = ping.message_id
        try:
            with self._unless_stopping(table):
                # Stored until it is deleted, so a stop before its delete goes out (the delete
                # may wait for the REST budget) still has it deleted at the next start.
                await self.bot.manager.note_ping(
                    table, message_id, alive=True, sent=sent, turn=(ping.turn, ping.text)
                )
                if self._turn(table) != ping.turn:
                    # The turn moved on while the ping was being sent: it pings for nothing now.
                    await self._delete(channel, message_id)
                    await self.bot.manager.note_ping(table, message_id, alive=False)
                    return
                old = self._pings.get(table.id)
                self._pings[table.id] = ping
                if old is not None:
                    await self._delete(channel, old.message_id)
                    await self.bot.manager.note_ping(table, old.message_id, alive=False)
        finally:
            lock.release()

    def _ping_lock(self, table: Table) -> asyncio.Lock:
        return self._ping_locks.setdefault(table.id, asyncio.Lock())

    async def _look_for_lost_pings(
        self, table: Table, channel: discord.abc.Messageable | None
    ) -> None:
        """Delete the pings posted without the bot hearing of it: the bot's pings in the
        channel since the first ping on its way was sent, other than the pings stored."""
        async with self._ping_lock(table):
            sent, me = list(table.pings_sent), self.bot.user
            if not sent or me is None:
                return
            with self._unless_stopping(table):
                if channel is not None:
                    # Discord's clock and this machine's may differ by a little.
                    after = discord.Object(min(sent) - (LOOK_BACK_MS << 22))
                    try:
                        async for message in channel.history(limit=LOOK_FOR, after=after):
                            if (
                                message.author.id == me.id
                                and PING_WORDS in message.content
                                and message.content.startswith("<@")
                                and message.id not in table.pings
                            ):
                                await self._delete(channel, message.id)
                    except (discord.Forbidden, discord.NotFound):
                        log.warning(
                            "table %s: cannot read its channel to delete a lost ping", table.id
                        )
                await self.bot.manager.pings_looked_for(table, sent)

    async def hand_expired(self, table: Table, user_id: int) -> None:
        """A member's hand could no longer be kept up to date: if it is their turn, say so now
        (else they are told when their turn comes)."""
        turn = self._turn(table)
        if turn is None:
            return
        occupant = table.seats[turn[_TURN_SEAT]]
        if occupant is not None and occupant.user_id == user_id:
            lost = self.bot.live_hands.take_expired(table.id, user_id)
            if lost:
                await self._ping(table, turn, HAND_LOST[lost])

    async def turn_reminder(self, table: Table, seat: int, deadline: float) -> None:
        """The manager's ping time for this turn has come (the member's or the table's choice)."""
        turn = self._turn(table)
        if turn is None or turn[_TURN_SEAT] != seat:
            return
        occupant = table.seats[seat]
        lost = (
            self.bot.live_hands.take_expired(table.id, occupant.user_id)
            if occupant is not None
            else None
        )
        await self._ping(table, turn, HAND_LOST[lost] if lost else "")

    async def table_restored(self, table: Table) -> None:
        """After a restart: the pings alive at the stop are deleted (the turn is pinged again when
        due), but for the ping of the turn still to be played, which stands; a table in play is
        told so, and its members' open hands, which no longer follow the game, are marked so
        each is told at their turn; the channel is brought up to date (a deal that ended while
        its edit waited is shown as it ended)."""
        # Before any wait: the turn's timer, started with the table, may ping at once.
        stale = list(table.pings)
        kept = table.turn_ping
        if kept is not None and kept[0] in stale and kept[1] == self._turn(table):
            # No move was made while the bot was down: the turn's ping stands, its member
            # notified once. What the restart has to tell them is added to it (an edit).
            self._pings[table.id] = _AlivePing(*kept)
            stale.remove(kept[0])
        if table.playing:
            self.bot.live_hands.lost_in_restart(table)
        with self._unless_stopping(table):
            for message_id in stale:
                await self._unping(table, message_id)
            await self._look_for_lost_pings(table, await self._channel(table.channel_id))
            if table.playing:
                await self.announce(
                    table,
                    "Table restored after a restart: play on where you left off"
                    " (open your hand again with **My hand**).",
                )
        await self.render(table)


def _host_starts(table: Table) -> str:
    """Who may start the next match, by name: the role passes on when a host leaves."""
    host = table.member_name(table.host_id)
    return (
        f" The host, {safe(host)}, can /table start another."
        if host
        else (" The host can /table start another.")
    )


def _handed_line(table: Table, handed: Handover) -> str:
    """The line saying who took a seat as substitute, and from whom: named by the seat taken,
    since a rubber may have had a substitute before, at another seat."""
    who = safe(handed.by or "a player")
    sub = table.seats[handed.seat]
    name = safe(sub.name) if sub is not None else "a substitute"
    if table.variant is not None:
        return f"{who} handed the seat to {name} for the rest of the game."
    return f"{who} handed the seat to {name} for the rest of the {table.match_word} (S.18)."


def _in_play(table: Table) -> int | None:
    """The number of the deal in play, or None when none is (between matches)."""
    return deal_number(table) if table.playing else None


class _AlivePing(NamedTuple):
    """A table's ping of its turn, in the channel: deleted once the turn passes, and added to
    (`_add_to_ping`) while it lasts."""

    message_id: int
    turn: tuple[Any, ...]
    text: str


@dataclass
class _Offer:
    """A table's offer of a seat to a substitute: the request, its message and what it says."""

    asked: Substitution
    message_id: int
    text: str
    match_no: int = 0


@dataclass
class _Finished:
    """A deal as it ended, for its message: the embed, the Review button, and the lines about
    it (a game or the match won) to post after it."""

    embed: discord.Embed
    view: discord.ui.View
    lines: list[str] = field(default_factory=list)
