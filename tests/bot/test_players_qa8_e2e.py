"""The four-handed table as players live it, through the real bot and the fake Discord (round
8): the private hand that follows the game, the turn's ping, and the cards as pictures."""

from __future__ import annotations

from datetime import timedelta

from bot.engine.cards import SUIT_NAMES
from bot.ui import live_hands
from tests.bot.helpers import current_table_message, eventually, member_at, running_bot, table_of
from tests.bot.test_table_life_e2e import hand_buttons, live, seat_and_start

pytest_plugins = ["tests.support.fixtures"]


async def test_a_hand_whose_token_is_about_to_end_says_so_and_keeps_no_buttons(
    fake_discord, tmp_path, monkeypatch
):
    """Discord lets the bot edit a private hand for 15 minutes. The bot stopped editing it
    then and left it as last drawn: a turn, a trick and buttons that went on showing long
    after the game moved on. Its last edit, before the token ends, now closes it saying how
    to see the hand again; at the member's turn the table pings him saying so."""
    monkeypatch.setattr(live_hands, "TOKEN_LIFETIME", timedelta(seconds=1))
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        eldest = member_at(bot, fake, table.match.to_act)
        message = await current_table_message(fake, table)
        hand = await (await fake.click(eldest, message, label="My hand")).message()
        assert hand_buttons(hand, table)
        ended = await eventually(
            lambda: live_hands.ENDED in live(fake, hand).content and live(fake, hand),
            what="the hand closed before its token ends",
        )
        assert not ended.embeds and not ended.buttons, ended
        assert table.match.to_act == table.seat_of(eldest.id)  # his turn still
        ping = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "has expired" in m.content),
                None,
            )
        )
        assert ping.notified == {eldest.id}, ping.content
        # A new hand follows the game again.
        again = await (await fake.click(eldest, message, label="My hand")).message()
        assert hand_buttons(again, table) and again.id != hand.id
        assert not bot.handler_errors


async def test_what_a_members_hand_answered_stays_on_it_until_his_turn_comes(
    fake_discord, tmp_path
):
    """In the second round Alice names the suit turned down: it counts as a pass (S.78), and
    the hand she is answered with says so. The next player's move redrew her hand without a
    word of it, a moment later (at once, where a computer sits next): she was left to wonder
    why her trump was not made. What her hand answered stays on it until her turn comes."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="jerome")
        table = table_of(bot, fake)
        for _ in range(4):  # the first round: everyone passes
            member = member_at(bot, fake, table.match.to_act)
            await (await fake.slash(member, fake.channel, "pass")).response()
        eldest_seat = table.match.to_act
        eldest = member_at(bot, fake, eldest_seat)
        down = SUIT_NAMES[table.match.deal.turn_up_suit]
        hand = await (await fake.slash(eldest, fake.channel, "call", suit=down)).message()
        assert "counts as a pass (S.78): you passed" in hand.content, hand.text
        following = member_at(bot, fake, table.match.to_act)
        await (await fake.slash(following, fake.channel, "pass")).response()
        shown = await eventually(
            lambda: bot.live_hands.shows_now(table, eldest.id, hand.id) and live(fake, hand),
            what="alice's hand redrawn after the next pass",
        )
        assert "counts as a pass (S.78): you passed" in shown.content, shown.text
        assert "Waiting for" in shown.text
        # Once her turn comes round (a new deal, here), the hand shows the turn alone.
        while table.match.to_act != eldest_seat or len(table.match.deals) == 1:
            member = member_at(bot, fake, table.match.to_act)
            await (await fake.slash(member, fake.channel, "pass")).response()
        turn = await eventually(
            lambda: bot.live_hands.shows_now(table, eldest.id, hand.id) and live(fake, hand),
            what="alice's hand redrawn for her turn",
        )
        assert not turn.content and "Your turn" in turn.text, turn.text
        assert not bot.handler_errors
