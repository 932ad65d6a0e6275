"""A table pressed hard through the real bot and the fake Discord's gateway: the same button
pressed five times at once by one member, My hand by the four at once, a press delivered
twice. Each has one effect, and every interaction is acknowledged once."""

from __future__ import annotations

import asyncio

from tests.bot.helpers import current_table_message, eventually, running_bot, table_of
from tests.bot.test_table_life_e2e import (
    choose,
    hand_buttons,
    live,
    member_at,
    open_hands,
    seat_and_start,
)

pytest_plugins = ["tests.support.fixtures"]


async def test_bursts_of_presses_have_one_effect_each_and_each_is_answered_once(
    fake_discord, tmp_path
):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        hand = await eventually(
            lambda: hand_buttons(live(fake, hands[seat]), table) and live(fake, hands[seat]),
            what="the hand to show the turn",
        )
        button = choose(hand_buttons(hand, table))
        actions = len(table.actions)
        presses = await asyncio.gather(*(fake.click(member, hand, button) for _ in range(5)))
        again = await fake.redeliver(presses[0])
        for handle in [*presses, again]:
            await handle.response()
        await eventually(lambda: len(table.actions) > actions, what="the press to be applied")
        message = await current_table_message(fake, table)
        members = [member_at(bot, fake, s) for s in range(4)]
        shown = await asyncio.gather(
            *(fake.click(m, message, label="My hand") for m in members for _ in range(2))
        )
        for handle in shown:
            assert (await handle.message()).ephemeral
        # The computers play no seat here: the one press is the only move made.
        assert len(table.actions) == actions + 1, table.actions[actions:]
        assert not [e for e in fake.errors if "40060" in e], fake.errors
        assert not bot.handler_errors, bot.handler_errors
