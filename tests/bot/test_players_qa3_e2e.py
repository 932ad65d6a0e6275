"""The four-handed table as players live it, through the real bot and the fake Discord: what
is left of a table once it closes; a click Discord delivers twice; the offer of a seat once
it is answered, replaced or its table closed."""

from __future__ import annotations

import logging

from tests.bot.helpers import (
    current_table_message,
    enabled_actions,
    eventually,
    running_bot,
    seat_four,
    start,
    table_of,
)
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


def kept_of(hands, table_id: int) -> dict[str, object]:
    """What the bot's live hands keep of a table, by where it is kept (nothing: empty)."""
    kept = {
        "hands": [k for k in hands._hands if k[0] == table_id],
        "at": hands._at.get(table_id),
        "drawing": [k for k in hands._drawing if k[0] == table_id],
        "expired": [k for k in hands._expired if k[0] == table_id],
        "restarted": [k for k in hands._restarted if k[0] == table_id],
        "turn rounds": table_id in hands._turn._tasks or table_id in hands._turn._again,
        "waiting rounds": table_id in hands._waiting._tasks or table_id in hands._waiting._again,
    }
    return {where: what for where, what in kept.items() if what}


async def test_a_closed_table_leaves_no_hand_behind_and_its_old_hands_say_it_closed(
    fake_discord, tmp_path
):
    """The four open their hands; the bot restarts (their hands no longer follow the game);
    the player to act opens theirs again and plays from it; Alice closes the table. The hand
    that followed the game says it is closed, the bot keeps nothing of the table's hands any
    more, and their hand from before the restart, pressed now, says the table has closed."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        old_hands = await open_hands(bot, fake)
    async with running_bot(fake, db) as bot:
        table = table_of(bot, fake)
        hands = bot.live_hands
        assert kept_of(hands, table.id)["restarted"]  # told at their turn how to get it back
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        message = await current_table_message(fake, table)
        hand = await (await fake.click(member, message, label="My hand")).message()
        clicked = await fake.click(member, hand, choose(hand_buttons(hand, table)))
        assert (await clicked.response()).type == 7
        assert kept_of(hands, table.id)["hands"]
        alice = fake.member("alice")
        asked = await (await fake.slash(alice, fake.channel, "table close")).message()
        await (await fake.click(alice, asked, label="Close the table")).response()
        assert table_of(bot, fake) is None
        await eventually(
            lambda: "This hand is closed" in live(fake, hand).text,
            what="the live hand to say it is closed",
        )
        await eventually(
            lambda: not kept_of(hands, table.id),
            what="the live hands to keep nothing of the table",
        )
        # The hand the player opened before the restart: nothing followed it since.
        stale = live(fake, old_hands[seat])
        pressed = await fake.click(member, stale, enabled_actions(stale)[0])
        answer = await pressed.message()
        assert answer.ephemeral and answer.visible_to == member.id
        assert "That table has closed" in answer.text, answer.text
        assert not kept_of(hands, table.id)
        assert not bot.handler_errors
