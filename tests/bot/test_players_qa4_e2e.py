"""The four-handed table as players live it, through the real bot and the fake Discord (round
4): a channel the bot may not post in; a click drawn for a turn that timed out; a substitute
who cannot see the channel; a member refused in the wrong channel, with tables elsewhere; a
turn's ping across a restart, and one chosen during the turn; who the host is once the host
left."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest_asyncio
from aiohttp import web

from bot.engine.deal import ROUND_ONE
from tests.bot.helpers import current_table_message, eventually, member_at, running_bot, table_of
from tests.bot.test_table_life_e2e import (
    hand_buttons,
    live,
    open_hands,
    play_from_hand,
    seat_and_start,
)
from tests.support.fake_discord import FakeDiscord, FakeHTTPError

pytest_plugins = ["tests.support.fixtures"]

SEND = discord.Permissions(send_messages=True).value


class PostingChecked(FakeDiscord):
    """The fake Discord, refusing a channel message the bot's permissions do not allow, as
    Discord does (the shared fake does not model permissions on posts)."""

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        guild = self.guilds[self._channel(request).guild_id]
        if not guild.permissions_of(self._bot_with_permissions()) & SEND:
            raise FakeHTTPError(403, 50013, "Missing Permissions")
        return await super()._post_message(request)


@pytest_asyncio.fixture
async def checked_fake() -> AsyncIterator[PostingChecked]:
    async with PostingChecked.serve() as fake:
        fake.seed()
        yield fake


def may_post(fake: FakeDiscord, allowed: bool) -> None:
    """Give or take the bot's Send Messages in the seeded guild (from @everyone and its role)."""
    if allowed:
        fake.guild.everyone_permissions |= SEND
        fake.bot_permissions |= SEND
    else:
        fake.guild.everyone_permissions &= ~SEND
        fake.bot_permissions &= ~SEND


async def test_a_table_in_a_channel_the_bot_may_not_post_in_is_refused_saying_why(
    checked_fake, tmp_path
):
    """The bot may not send messages in the channel: /table create opens no table (its message
    could not be posted), and says which permission is missing. Once it may, the table opens;
    when the permission is taken away mid-rubber, a member who joins the waiting line is told
    the table could not be brought up to date, not "Nothing was changed" (they did join)."""
    fake = checked_fake
    alice, erin = fake.member("alice"), fake.add_member(fake.guild, "erin")
    may_post(fake, False)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        refused = await (await fake.slash(alice, fake.channel, "table create")).message()
        assert refused.ephemeral and "**Send Messages**" in refused.text, refused.text
        assert "Embed Links" not in refused.text  # only what is missing is named
        assert table_of(bot, fake) is None
        may_post(fake, True)
        opened = await (await fake.slash(alice, fake.channel, "table create")).message()
        assert "Your table is open" in opened.text
        may_post(fake, False)
        joined = await fake.slash(erin, fake.channel, "table join")
        assert "You sit at" in (await joined.message()).text
        told = (await joined.followup(0)).text
        assert "may not post in this channel" in told and "Nothing was changed" not in told, told
        assert table_of(bot, fake).seat_of(erin.id) is not None
        assert not bot.handler_errors


async def test_a_click_drawn_for_a_turn_that_timed_out_plays_nothing_and_says_so(
    fake_discord, tmp_path
):
    """The eldest's hand is on screen with its buttons when their turn times out and a
    computer moves for them; the hand could not be redrawn (its token ran out, as when the
    click crosses the redraw). If the bidding comes round to them again, their old Pass would
    be read as a pass of the second round; else they were told only "It is not your turn".
    The click plays nothing, and the hand shown says time ran out and a computer moved."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        eldest = table.match.to_act
        member = member_at(bot, fake, eldest)
        message = await current_table_message(fake, table)
        hand = await (await fake.click(member, message, label="My hand")).message()
        passes = next(b for b in hand_buttons(hand, table) if b.endswith(":pass"))
        fake.token_lifetime = 0  # the hand stays as drawn, its turn's buttons on it
        await bot.manager.time_out_now(table)
        while table.match.deal.phase == ROUND_ONE and table.match.to_act != eldest:
            await public_or_private_pass(fake, member_at(bot, fake, table.match.to_act))
        actions = len(table.actions)
        clicked = await fake.click(member, live(fake, hand), passes)
        assert (await clicked.response()).type == 7  # the hand, edited in place
        shown = await clicked.message()
        assert shown.text.startswith("Time ran out on your turn"), shown.text
        assert len(table.actions) == actions
        assert not bot.handler_errors


async def public_or_private_pass(fake, member) -> None:
    """`member` passes with /pass (its answer is their hand, privately)."""
    answer = await (await fake.slash(member, fake.channel, "pass")).message()
    assert answer.ephemeral, answer.text


async def test_a_substitute_who_cannot_see_the_channel_is_not_asked_there(fake_discord, tmp_path):
    """Erin may not view the table's channel. Bob names her his substitute: the offer would
    be posted where she never sees it, and the request would wait for her answer all rubber.
    Bob is told she cannot see the channel, and no request is made."""
    fake = fake_discord
    view = discord.Permissions(view_channel=True).value
    fake.guild.everyone_permissions &= ~view
    for name in ("alice", "bob", "carol", "dave"):
        fake.member(name).permissions |= view
    erin, bob = fake.add_member(fake.guild, "erin"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        named = await fake.slash(bob, fake.channel, "table substitute", member=erin)
        told = await named.message()
        assert told.ephemeral and "cannot see this channel" in told.text, told.text
        assert "erin" in told.text
        assert table.substitution is None
        assert not [m for m in fake.public_messages(fake.channel) if erin.mention in m.content]
        assert not bot.handler_errors


async def test_a_member_in_the_wrong_channel_is_told_where_their_tables_are(fake_discord, tmp_path):
    """Alice plays with three computers in #euchre and times out twice: a computer holds her
    seat, until /table back. She also sits at Bob's table in #euchre-2. Her /table back there
    said only that no computer holds a seat of hers, and /hand in a channel with no table to
    start one: each now names the table she has, and what to do there."""
    fake = fake_discord
    alice, bob = fake.member("alice"), fake.member("bob")
    second, third = fake.add_channel(fake.guild, "euchre-2"), fake.add_channel(fake.guild, "chat")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await (await fake.slash(alice, fake.channel, "table create", preset="modern")).response()
        for _ in range(3):
            await (await fake.slash(alice, fake.channel, "table addbot")).response()
        await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
        table = table_of(bot, fake)
        for timeout in (1, 2):
            await eventually(lambda: table.match.to_act == 0, what="alice's turn")
            if timeout == 2:
                bot.manager.computer_delay = 600  # the game waits while she looks
            await bot.manager.time_out_now(table)
        assert table.held_seat_of(alice.id) == 0
        await (await fake.slash(bob, second, "table create")).response()
        await (await fake.slash(alice, second, "table join")).response()
        here = await (await fake.slash(alice, second, "table back")).message()
        assert here.ephemeral and "No computer is holding a seat of yours here" in here.text
        assert f"holds your seat at the table in {fake.channel.mention}" in here.text, here.text
        nowhere = (await (await fake.slash(alice, third, "hand")).message()).text
        assert "There is no table in this channel" in nowhere
        assert f"in {fake.channel.mention}: use /table back there" in nowhere, nowhere
        assert f"You are at the table in {second.mention}: use it there" in nowhere
        assert not bot.handler_errors


async def test_a_turn_pinged_before_a_restart_is_not_pinged_again_after_it(fake_discord, tmp_path):
    """Pings on every turn: the first to act is pinged, and the bot restarts before they act.
    Their ping was deleted and a new one notified them a second time for the same turn. Now
    the ping stands, and what the restart has to tell them (their open hand no longer follows
    the game) is added to it, notifying no one again."""
    fake = fake_discord
    db = tmp_path / "euchre.db"

    def pings_to(member):
        return [m for m in fake.messages_by_id.values() if member.id in m.notified]

    async with running_bot(fake, db, timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn", timeout=600)
        member = member_at(bot, fake, table_of(bot, fake).match.to_act)
        ping = await fake.wait_for(lambda: next(iter(pings_to(member)), None))
        await fake.wait_for(lambda: table_of(bot, fake).turn_ping is not None)
    async with running_bot(fake, db, timers=True) as bot:
        await fake.wait_for(lambda: "The bot restarted" in live(fake, ping).content)
        assert not live(fake, ping).deleted and [m.id for m in pings_to(member)] == [ping.id]
        assert live(fake, ping).content.startswith(f"{member.mention}, it is your turn")
        assert not bot.handler_errors


def at_the_table(fake, table) -> str:
    message = fake.messages_by_id.get(table.message_id)
    return message.text if message else ""


async def test_players_are_told_who_the_host_is_once_the_host_left(fake_discord, tmp_path):
    """Alice, the host, leaves mid-game: a computer plays north, and Bob is the host now,
    which no one was told. The table message says so; Carol's /table close is refused naming
    the host; the game's end says who can start another."""
    fake = fake_discord
    alice, carol = fake.member("alice"), fake.member("carol")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern", points=1)
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        await (await fake.slash(alice, fake.channel, "table leave")).response()
        await eventually(
            lambda: "bob is the host now" in at_the_table(fake, table),
            what="the table message to name the new host",
        )
        refused = await (await fake.slash(carol, fake.channel, "table close")).message()
        assert "Only the table's host, “bob”, can do that" in refused.text, refused.text
        while table.playing:
            await eventually(
                lambda: not table.playing or not table.seats[table.match.to_act].is_bot,
                what="a member's turn",
            )
            if table.playing:
                await play_from_hand(bot, fake, hands)
        ended = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "win the game" in m.content),
                None,
            )
        )
        assert "The host, bob, can /table start another." in ended.content, ended.content
        assert not bot.handler_errors


async def test_a_ping_chosen_during_ones_turn_counts_for_that_turn(fake_discord, tmp_path):
    """The table pings no one. During her turn the first to act chooses /settings ping every
    turn: she was told she would be pinged on every turn, and was not on this one, which her
    choice now plans anew (its time unchanged)."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="never", timeout=600)
        table = table_of(bot, fake)
        deadline = await eventually(lambda: bot.manager.deadlines.get(table.id))
        member = member_at(bot, fake, table.match.to_act)
        told = await (
            await fake.slash(member, fake.channel, "settings ping", when="every turn")
        ).message()
        assert "pinged on every turn" in told.text, told.text
        ping = await fake.wait_for(
            lambda: next((m for m in fake.messages_by_id.values() if member.id in m.notified), None)
        )
        assert "it is your turn" in ping.content
        assert bot.manager.deadlines[table.id] == deadline
        assert not bot.handler_errors
