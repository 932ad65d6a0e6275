"""A rubber with the Joker and defend alone, one member and three computers, across restarts."""

from __future__ import annotations

import asyncio

from tests.bot.helpers import act_once, running_bot, seat_four, start, table_of
from tests.bot.test_game_e2e import check_no_leak

pytest_plugins = ["tests.support.fixtures"]


async def test_a_rubber_survives_restarts_while_computers_play(fake_discord, tmp_path):
    fake = fake_discord
    alice = fake.member("alice")
    db = tmp_path / "euchre.db"
    for restart in range(6):
        async with running_bot(fake, db) as bot:
            if restart == 0:
                await (
                    await fake.slash(
                        alice, fake.channel, "table create", joker=True, defend_alone=True
                    )
                ).response()
                for _ in range(3):
                    await (
                        await fake.slash(alice, fake.channel, "table addbot", level="standard")
                    ).response()
                await (await fake.slash(alice, fake.channel, "table start")).response()
            else:
                await fake.wait_for(
                    lambda n=restart: (
                        sum("restored" in m.content for m in fake.public_messages(fake.channel))
                        >= n
                    )
                )
            table = table_of(bot, fake)
            assert table.options.joker and table.options.defend_alone
            moves = 0
            # Alice plays her turns; the computers play theirs in the background; then a restart.
            while table.playing and moves < 30:
                if table.seats[table.match.to_act].user_id == alice.id:
                    await act_once(bot, fake)
                    check_no_leak(bot, fake)
                    moves += 1
                else:
                    await asyncio.sleep(0.005)
            assert not bot.handler_errors
            if not table.playing:
                # The last move is applied before it is announced: wait for the announcement
                # before this bot stops.
                await fake.wait_for(
                    lambda: any(
                        "win the rubber" in m.content for m in fake.public_messages(fake.channel)
                    ),
                    what="the rubber's result",
                )
                break
    assert not table.playing and table.match.over
    assert len(table.match.games) in (3, 4)
    assert not bot.handler_errors


async def test_a_restarted_bot_has_its_tables_before_it_takes_a_request(fake_discord, tmp_path):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    # Tables in other channels, stored before this channel's: telling each of their channels
    # that its table is back takes a while after the bot is ready.
    others = [fake.add_channel(fake.guild, f"table-{n}") for n in range(20)]
    async with running_bot(fake, db) as bot:
        for channel in others:
            await (await fake.slash(fake.member("mod"), channel, "table create")).message()
        await seat_four(fake)
        await start(fake)
        table_id = table_of(bot, fake).id
    async with running_bot(fake, db) as bot:
        # Ready: the gateway is up and members may click at once, before any channel is told
        # its table is back.
        table = table_of(bot, fake)
        assert table is not None and table.id == table_id
        await act_once(bot, fake)
        await fake.wait_for(
            lambda: any("restored" in m.content for m in fake.public_messages(fake.channel))
        )
        assert table_of(bot, fake) is table and len(table.actions) == 1
        assert not bot.handler_errors
