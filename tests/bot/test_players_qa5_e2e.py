"""The four-handed table as players live it, through the real bot and the fake Discord (round
5): Discord's own events while a table is open (its channel deleted, the bot removed from the
server), commands where they make no sense, admin rights, card pictures, help and rules."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest_asyncio
from aiohttp import web

from bot.ui.errors import CANNOT_POST
from tests.bot.helpers import (
    NAMES,
    current_table_message,
    enabled_actions,
    eventually,
    running_bot,
    table_of,
)
from tests.bot.test_table_life_e2e import open_hands, seat_and_start
from tests.support.fake_discord import FakeChannel, FakeDiscord, FakeHTTPError

pytest_plugins = ["tests.support.fixtures"]


class DeletedAtPost(FakeDiscord):
    """The fake Discord, where a moderator deletes ``doomed`` just as the bot posts in it (the
    shared fake deletes channels only when the bot asks)."""

    doomed: FakeChannel | None = None

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        channel = self.doomed
        if channel is not None and int(request.match_info["channel_id"]) == channel.id:
            self.doomed = None
            del self.guilds[channel.guild_id].channels[channel.id]
            await self.dispatch("CHANNEL_DELETE", channel.payload())
        return await super()._post_message(request)


@pytest_asyncio.fixture
async def deleting_fake() -> AsyncIterator[DeletedAtPost]:
    async with DeletedAtPost.serve() as fake:
        fake.seed()
        yield fake


def requests_to(fake: FakeDiscord, channel_id: int, since: int) -> list[tuple[str, str]]:
    return [r for r in fake.requests[since:] if f"/channels/{channel_id}" in r[1]]


async def test_a_table_whose_channel_is_deleted_or_whose_server_removed_the_bot_is_closed(
    fake_discord, tmp_path
):
    """A game is under way in #euchre, a table waits in a thread of it and another in
    #euchre-2. #euchre is deleted: its table (and its thread's) stayed open, its computers
    played on to no one, its members' seats and open hands held, and it came back at every
    start. Now they are closed (the game recorded as abandoned), the open hands say the
    table closed, and nothing more is sent to the channel or the thread. The bot is then
    removed from the server: the other table closes too, and a restart brings back none."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    channel, second = fake.channel, fake.add_channel(fake.guild, "euchre-2")
    async with running_bot(fake, db) as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        await current_table_message(fake, table)
        hands = await open_hands(bot, fake)
        await (await fake.slash(fake.member("bob"), second, "table create")).response()
        thread = fake.add_thread(channel, "side game")  # deleted with its channel
        await (await fake.slash(fake.member("carol"), thread, "table create")).response()
        await eventually(lambda: bot.manager.tables[thread.id].message_id, what="its message")
        since = len(fake.requests)
        del fake.guild.channels[channel.id]
        del fake.guild.channels[thread.id]
        await fake.dispatch("CHANNEL_DELETE", channel.payload())
        await eventually(
            lambda: not {channel.id, thread.id} & set(bot.manager.tables),
            what="the tables of the channel and its thread closed",
        )
        hand = next(iter(hands.values()))
        await fake.wait_for(lambda: "This hand is closed" in fake.messages_by_id[hand.id].content)
        assert table.status == "closed"
        # An outage is no removal: the table stays (the next command is read after the event).
        await fake.dispatch("GUILD_DELETE", {"id": str(fake.guild.id), "unavailable": True})
        await (await fake.slash(fake.member("dave"), second, "table join")).response()
        assert second.id in bot.manager.tables
        await fake.dispatch("GUILD_DELETE", {"id": str(fake.guild.id)})
        await eventually(lambda: not bot.manager.tables, what="the other table closed")
        assert not requests_to(fake, channel.id, since), fake.requests[since:]
        assert not requests_to(fake, thread.id, since), fake.requests[since:]
        assert not bot.handler_errors
    async with running_bot(fake, db) as bot:
        assert not bot.manager.tables
        assert not bot.handler_errors


async def test_a_table_whose_channel_was_deleted_while_the_bot_was_down_is_closed_at_the_start(
    fake_discord, tmp_path
):
    """The bot is down when the table's channel is deleted: at the start the table was
    restored, found its channel gone, and stayed open (and restored at every start) with a
    warning each time it had something to show. Now it is closed then, for good."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    channel = fake.channel
    async with running_bot(fake, db) as bot:
        await seat_and_start(fake, preset="modern")
        await current_table_message(fake, table_of(bot, fake))
    del fake.guild.channels[channel.id]
    async with running_bot(fake, db) as bot:
        await eventually(lambda: not bot.manager.tables, what="the table closed")
        assert not bot.handler_errors
    async with running_bot(fake, db) as bot:
        assert not bot.manager.tables


async def test_a_start_whose_channel_is_deleted_as_it_deals_is_no_error(deleting_fake, tmp_path):
    """The channel is deleted just as /table start posts the deal's table message: the bot
    logged it as a bug ("command failed") and told the host "Sorry, something went wrong on
    our side. Nothing was changed", though the cards were dealt. The host is told the channel
    was deleted, and the table is closed."""
    fake = deleting_fake
    alice = fake.member("alice")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await (await fake.slash(alice, fake.channel, "table create")).response()
        for name in NAMES[1:]:
            await (await fake.slash(fake.member(name), fake.channel, "table join")).response()
        fake.doomed = channel = fake.channel
        started = await fake.slash(alice, channel, "table start")
        told = await started.followup(0)
        assert told.ephemeral and "channel was deleted" in told.text, told.text
        assert "Nothing was changed" not in told.text
        await eventually(lambda: not bot.manager.tables, what="the table closed")
        assert not bot.handler_errors


SEND = discord.Permissions(send_messages=True).value


class EditsChecked(FakeDiscord):
    """The fake Discord, refusing the bot's posts and edits of channel messages once it may
    not send messages there, as Discord does (the shared fake does not check permissions)."""

    def _may_send(self, request: web.Request) -> None:
        guild = self.guilds[self._channel(request).guild_id]
        if not guild.permissions_of(self._bot_with_permissions()) & SEND:
            raise FakeHTTPError(403, 50013, "Missing Permissions")

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        self._may_send(request)
        return await super()._post_message(request)

    async def _patch_message(self, request: web.Request) -> web.StreamResponse:
        self._may_send(request)
        return await super()._patch_message(request)


@pytest_asyncio.fixture
async def edits_checked() -> AsyncIterator[EditsChecked]:
    async with EditsChecked.serve() as fake:
        fake.seed()
        yield fake


async def test_computers_playing_on_once_the_bot_may_not_post_log_no_bug(
    edits_checked, tmp_path, caplog
):
    """Alice plays with three computers; the bot's Send Messages is taken away mid-deal. Her
    move is made and she is told the table could not be brought up to date; each computer's
    move after it was logged as a bug ("showing a computer's move failed", a traceback), and
    so were the restart's word to the channel and the turn's ping after it. Now each is a
    warning, and the game goes on."""
    fake = edits_checked
    alice = fake.member("alice")
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await (
            await fake.slash(
                alice, fake.channel, "table create", preset="modern", ping="every turn"
            )
        ).response()
        for _ in range(3):
            await (await fake.slash(alice, fake.channel, "table addbot")).response()
        await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
        table = table_of(bot, fake)
        message = await current_table_message(fake, table)
        await eventually(lambda: table.match.to_act == 0, what="alice's turn")
        hand = await (await fake.click(alice, message, label="My hand")).message()
        fake.guild.everyone_permissions &= ~SEND
        fake.bot_permissions &= ~SEND
        actions = len(table.actions)
        clicked = await fake.click(alice, hand, enabled_actions(hand)[0])
        assert (await clicked.followup(0)).text == CANNOT_POST
        # The computers moved, and what each move showed is done with (`_showing`).
        await eventually(
            lambda: (
                len(table.actions) > actions + 1
                and not table.seats[table.match.to_act].is_bot
                and not bot.manager._showing
            ),
            what="the computers to move and a member's turn",
        )
        assert not bot.handler_errors, bot.handler_errors
    async with running_bot(fake, db, timers=True) as bot:
        refused = ("telling the channel the table was restored was refused", "ping was refused")
        await eventually(
            lambda: all(any(r in m for m in caplog.messages) for r in refused),
            what="the restart's word and the turn's ping refused",
        )
        assert not bot.handler_errors, bot.handler_errors
