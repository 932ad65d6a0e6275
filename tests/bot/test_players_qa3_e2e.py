"""The four-handed table as players live it, through the real bot and the fake Discord: what
is left of a table once it closes; a click Discord delivers twice; the offer of a seat once
it is answered, replaced or its table closed."""

from __future__ import annotations

import logging

from tests.bot.helpers import eventually, running_bot, table_of
from tests.bot.test_table_life_e2e import (
    choose,
    hand_buttons,
    live,
    member_at,
    open_hands,
    seat_and_start,
)

pytest_plugins = ["tests.support.fixtures"]


async def play_out(bot, fake, hands):
    """Play the match from the hands opened; the last click (its handle)."""
    table = table_of(bot, fake)
    clicked = None
    while table.playing:
        seat = table.match.to_act
        member = member_at(bot, fake, seat)

        def ready(seat=seat):
            current = live(fake, hands[seat])
            return hand_buttons(current, table) and current

        hand = await eventually(ready, what=f"{member.name}'s hand to show the turn")
        clicked = await fake.click(member, hand, choose(hand_buttons(hand, table)))
        assert (await clicked.response()).type == 7
    return clicked


async def test_the_last_click_delivered_twice_is_answered_without_an_error(
    fake_discord, tmp_path, caplog
):
    """The click that ends the match reaches the bot twice (a gateway replaying events after a
    resumed session). It is applied once, and the second delivery, already answered, is let
    go: no second acknowledgement, which Discord refuses, and no error logged."""
    fake = fake_discord
    caplog.set_level(logging.INFO)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern", points=1)
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        last = await play_out(bot, fake, hands)
        actions = len(table.actions)
        await fake.redeliver(last)
        await eventually(
            lambda: "delivered again" in caplog.text or bot.handler_errors,
            what="the second delivery to be handled",
        )
        assert len(table.actions) == actions and not table.playing
        assert not [e for e in fake.errors if "40060" in e], fake.errors
        assert not bot.handler_errors, bot.handler_errors
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
