"""The game goes on from the players' hands while the table message waits for the REST budget.

A hand is edited through its interaction's token, which Discord's global limit does not count;
the table message is an ordinary request, held back when the process has spent its share of
`REST_BUDGET` (with many tables at play, for seconds). The next player's buttons must not wait
for it, and the edits the table message missed meanwhile come as one, of the newest state.
"""

from __future__ import annotations

import asyncio
import time

from tests.bot.helpers import (
    NAMES,
    current_table_message,
    enabled_actions,
    eventually,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)

pytest_plugins = ["tests.support.fixtures"]


async def quiet(fake) -> None:
    """Until the bot has sent no request for half a second."""
    while True:
        sent = len(fake.requests)
        await asyncio.sleep(0.5)
        if len(fake.requests) == sent:
            return


async def test_the_next_player_plays_while_the_table_message_waits_its_turn(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", settings={"rest_budget": 40.0}) as bot:
        # The card pictures are uploaded once at start (ordinary requests too): done first,
        # so that the table is drawn the same way before and after the budget is held.
        await eventually(
            lambda: bot.card_emojis.task is not None and bot.card_emojis.task.done(),
            what="the card pictures",
        )
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        # The joins' and the start's table messages are drawn after their answers: once the
        # bot has sent nothing for half a second they are all there, and the last is the deal's.
        await quiet(fake)
        table_message = await current_table_message(fake, table)
        hands = {}
        for name in NAMES:
            member = fake.member(name)
            hands[member.id] = await (await fake.slash(member, fake.channel, "hand")).message()
        edits = len(table_message.history)
        budget = bot.rest_budget
        assert budget is not None
        budget._next = time.monotonic() + 1000.0  # every counted request waits now
        for _ in range(4):
            member = member_at(bot, fake, table.match.to_act)
            hand = hands[member.id]
            actions = await fake.wait_for(
                lambda hand=hand: enabled_actions(hand),
                timeout=20,
                what="the next player's buttons while the table message waits",
            )
            clicked = await fake.click(member, hand, actions[0])
            assert (await clicked.response()).type == 7  # the hand, answered at once
        assert len(table_message.history) == edits  # all four still wait for the budget
        drawn = await bot.table_messages._draw(table)
        assert drawn is not None
        newest = drawn[0].to_dict()
        budget.release()
        await fake.wait_for(
            lambda: table_message.embeds and table_message.embeds[0] == newest,
            what="the table message showing the last of the four",
        )
        await asyncio.sleep(0.3)  # time for any further edit to arrive
        # The edit that held the table's turn, then one of the newest state for the rest.
        assert len(table_message.history) - edits == 2
        assert not bot.handler_errors
