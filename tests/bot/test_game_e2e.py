"""Four members play through Discord: slash commands and buttons against the real bot.

The bot runs for real (discord.py, aiosqlite on a file) against the fake Discord of
tests/support; every check here is on what Discord was asked to show, to whom.
"""

from __future__ import annotations

import asyncio

from bot.ui.views import deal_number
from tests.bot.helpers import (
    act_once,
    cards_shown,
    components_text,
    enabled_actions,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


def hidden_cards(deal) -> set[str]:
    """Cards no public message may show during a deal: every card still in a hand, the kitty and the discard."""
    hidden = {card for hand in deal.hands for card in hand} | set(deal.kitty)
    hidden.discard(deal.turn_up)
    return hidden


def check_no_leak(bot, fake: FakeDiscord) -> None:
    """No public message of the current deal (every version of it) shows a hidden card."""
    table = table_of(bot, fake)
    if table.match is None or table.message_deal != deal_number(table):
        return
    hidden = hidden_cards(table.match.deal)
    for message in fake.public_messages(fake.channel):
        if message.id < table.message_id or message.text.startswith("**Cutting for partners"):
            continue
        for text in [message.text, components_text(message)] + [str(v) for v in message.history]:
            leaked = cards_shown(text) & hidden
            assert not leaked, f"public message shows unplayed cards {leaked}: {text!r}"


async def test_four_members_play_a_whole_game_through_discord(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, points=3)
        await start(fake)
        table = table_of(bot, fake)
        assert table.playing
        steps = 0
        while table.playing:
            await act_once(bot, fake)
            steps += 1
            check_no_leak(bot, fake)
            assert steps < 2000
        check_no_leak(bot, fake)
        assert table.match.over
        await fake.wait_for(
            lambda: any("win the game" in m.text for m in fake.public_messages(fake.channel))
        )
        # Every hand shown to anyone was shown ephemerally, and only to its holder.
        for message in fake.messages:
            if "Your hand" in message.text:
                assert message.ephemeral and message.visible_to is not None
        assert not bot.handler_errors


async def test_restart_mid_hand_resumes_it(fake_discord, tmp_path):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        for _ in range(7):
            await act_once(bot, fake)
        table = table_of(bot, fake)
        before = table.match.public_view()
        hands = [table.match.view_for(s).deal.hand for s in range(4)]
    async with running_bot(fake, db) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.text for m in fake.public_messages(fake.channel))
        )
        table = table_of(bot, fake)
        assert table.match.public_view() == before
        assert [table.match.view_for(s).deal.hand for s in range(4)] == hands
        deals = len(table.match.deals)
        while len(table.match.deals) == deals:
            await act_once(bot, fake)
        assert table.match.hand_results


async def test_double_click_applies_once(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        member = member_at(bot, fake, table.match.to_act)
        hand = await (await fake.slash(member, fake.channel, "hand")).message()
        action = enabled_actions(hand)[0]
        before = len(table.actions)
        first, second = await asyncio.gather(
            fake.click(member, hand, action), fake.click(member, hand, action)
        )
        await first.response()
        await second.response()
        assert len(table.actions) == before + 1


async def test_stale_button_from_an_earlier_deal_is_answered_politely(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        old_hand = await (await fake.slash(member, fake.channel, "hand")).message()
        old_action = next(a for a in enabled_actions(old_hand) if a.endswith(":pass"))
        # The hand's token runs out, so the message keeps the buttons it was drawn with.
        fake.token_lifetime = 0
        deals = len(table.match.deals)
        while len(table.match.deals) == deals:
            await act_once(bot, fake)
        clicked = await fake.click(member, old_hand, old_action)
        message = await clicked.message()
        assert "earlier deal" in message.text or "no longer" in message.text
        assert not bot.handler_errors


async def test_turn_timer_reminds_then_a_computer_moves_then_holds_the_seat(fake_discord, tmp_path):
    fake = fake_discord
    bot_settings = {"timers": True}
    async with running_bot(fake, tmp_path / "euchre.db", **bot_settings) as bot:
        bot.manager.turn_timeout = 0.4
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)

        def ever_said(words: str) -> str | None:
            """The first public text in the channel with these words, counting messages since
            deleted (a ping goes once its turn has passed) and every version of one edited."""
            for message in fake.messages_by_id.values():
                if message.ephemeral or message.channel_id != fake.channel.id:
                    continue
                for text in [str(version) for version in message.history] + [message.text]:
                    if words in text:
                        return text
            return None

        # Every turn times out in 0.4 s: by the time this test looks, more turns may have timed
        # out, so it checks what the channel said of the first one, not the table as it is now.
        ping = await fake.wait_for(lambda: ever_said("it is your turn"))
        await fake.wait_for(lambda: ever_said("Time ran out"))
        first = table.seats[table.actions[0][0]]  # the seat whose turn timed out first
        member = fake.guild.members[first.held_for or first.user_id]
        assert f"<@{member.id}>" in ping
        assert ever_said(f"Time ran out for {member.name}")
        # A member times out again at the next turn of that seat: a computer holds it.
        await fake.wait_for(lambda: ever_said("timed out twice"))
        # From now on turns last long enough for the member to come back and stay.
        bot.manager.turn_timeout = 120
        seat = next(s for s, o in enumerate(table.seats) if o.held_for is not None)
        member = fake.guild.members[table.seats[seat].held_for]
        text = (await (await fake.slash(member, fake.channel, "table back")).message()).text
        assert "welcome back" in text.lower()
        assert table.seat_of(member.id) == seat


async def test_one_member_and_three_computers_play_a_whole_rubber(fake_discord, tmp_path):
    fake = fake_discord
    alice = fake.member("alice")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await (await fake.slash(alice, fake.channel, "table create")).response()
        for _ in range(3):
            await (await fake.slash(alice, fake.channel, "table addbot", level="easy")).response()
        await (await fake.slash(alice, fake.channel, "table start")).response()
        table = table_of(bot, fake)
        assert table.options.is_rubber
        steps = 0
        while table.playing:
            if (
                table.match.to_act is not None
                and table.seats[table.match.to_act].user_id == alice.id
            ):
                await act_once(bot, fake)
                check_no_leak(bot, fake)
                steps += 1
            else:
                await asyncio.sleep(0.005)  # the computers play in the background
            assert steps < 1000
        match = table.match
        assert len(match.games) in (3, 4) and sum(match.rubber_points) <= 10
        result = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "win the rubber" in m.content),
                None,
            )
        )
        assert "not counted on the leaderboards" in result.content  # computers played
        assert not bot.handler_errors
