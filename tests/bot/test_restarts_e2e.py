"""A rubber with the Joker and defend alone, one member and three computers, across restarts."""

from __future__ import annotations

import asyncio

from tests.bot.helpers import act_once, running_bot, table_of
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
                break
    assert not table.playing and table.match.over
    assert len(table.match.games) in (3, 4)
    assert any("win the rubber" in m.content for m in fake.public_messages(fake.channel))
