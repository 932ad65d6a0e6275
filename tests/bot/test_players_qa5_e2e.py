"""The four-handed table as players live it, through the real bot and the fake Discord (round
5): Discord's own events while a table is open (its channel deleted, the bot removed from the
server), commands where they make no sense, admin rights, card pictures, help and rules."""

from __future__ import annotations

from tests.bot.helpers import current_table_message, eventually, running_bot, table_of
from tests.bot.test_table_life_e2e import open_hands, seat_and_start
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


def requests_to(fake: FakeDiscord, channel_id: int, since: int) -> list[tuple[str, str]]:
    return [r for r in fake.requests[since:] if f"/channels/{channel_id}" in r[1]]


async def test_a_table_whose_channel_is_deleted_or_whose_server_removed_the_bot_is_closed(
    fake_discord, tmp_path
):
    """A game is under way in #euchre and a table waits in #euchre-2. #euchre is deleted: its
    table stayed open, its computers played on to no one, its members' seats and open hands
    held, and it came back at every start. Now it is closed (the game recorded as abandoned),
    the open hands say the table closed, and nothing more is sent to the channel. The bot is then removed
    from the server: the other table closes too, and a restart brings back neither."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    channel, second = fake.channel, fake.add_channel(fake.guild, "euchre-2")
    async with running_bot(fake, db) as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        await current_table_message(fake, table)
        hands = await open_hands(bot, fake)
        await (await fake.slash(fake.member("bob"), second, "table create")).response()
        since = len(fake.requests)
        del fake.guild.channels[channel.id]
        await fake.dispatch("CHANNEL_DELETE", channel.payload())
        await eventually(lambda: channel.id not in bot.manager.tables, what="the table closed")
        hand = next(iter(hands.values()))
        await fake.wait_for(lambda: "This hand is closed" in fake.messages_by_id[hand.id].content)
        assert table.status == "closed"
        await fake.dispatch("GUILD_DELETE", {"id": str(fake.guild.id)})
        await eventually(lambda: not bot.manager.tables, what="the other table closed")
        assert not requests_to(fake, channel.id, since), fake.requests[since:]
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
