"""The table as players live it, where a player does what the table did not expect: buttons
of a hand message the bot could not close, pressed later in the same deal."""

from __future__ import annotations

from bot.engine.deal import DISCARD, PLAY
from tests.bot.helpers import (
    act_once,
    current_table_message,
    enabled_actions,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)

pytest_plugins = ["tests.support.fixtures"]


async def test_a_discard_button_left_from_before_a_restart_plays_no_card(fake_discord, tmp_path):
    """The dealer opens the hand to discard, the bot restarts (the old hand is no longer
    followed, so nothing takes its buttons away), and he discards with /discard. Later in the
    deal, on his turn to play, a press of one of that old message's "Discard" buttons must
    not play the card: the member pressed Discard, and the discard is made."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        eldest = member_at(bot, fake, table.match.to_act)
        await (await fake.slash(eldest, fake.channel, "order")).response()
        assert table.match.deal.phase == DISCARD
        dealer_seat = table.match.deal.dealer
        dealer = member_at(bot, fake, dealer_seat)
        table_message = await current_table_message(fake, table)
        old_hand = await (await fake.click(dealer, table_message, label="My hand")).message()
        assert any(str(b.get("label", "")).startswith("Discard") for b in old_hand.buttons)
    async with running_bot(fake, db) as bot:
        table = table_of(bot, fake)
        discard = table.match.view_for(dealer_seat).deal.legal[0]
        await (await fake.slash(dealer, fake.channel, "discard", card=discard)).message()
        while not (table.match.deal.phase == PLAY and table.match.to_act == dealer_seat):
            await act_once(bot, fake)
        legal = table.match.view_for(dealer_seat).deal.legal
        button = next(
            b
            for b in fake.messages_by_id[old_hand.id].buttons
            if not b.get("disabled") and b["custom_id"].rsplit(":", 1)[1] in legal
        )
        assert button["label"].startswith("Discard")
        card = button["custom_id"].rsplit(":", 1)[1]
        actions = len(table.actions)
        clicked = await fake.click(dealer, old_hand, button["custom_id"])
        answer = await clicked.message()
        assert len(table.actions) == actions, "a Discard button played a card to the trick"
        assert card in table.match.view_for(dealer_seat).deal.hand
        assert "nothing to discard" in answer.text.lower()
        # The old message is the hand as it is now: the cards to play, none to discard.
        assert answer.id == old_hand.id
        assert not any(str(b.get("label", "")).startswith("Discard") for b in answer.buttons)
        assert not bot.handler_errors


async def test_a_hand_from_before_a_restart_pressed_out_of_turn_shows_the_turn_as_it_is(
    fake_discord, tmp_path
):
    """A hand opened before a restart still says "Your turn", with its buttons, once the member
    has acted another way (/pass). Pressed, it is refused, and the same message then shows the
    hand as it is now with why: not a new message beside a hand that goes on saying it is
    their turn, to be pressed again and again."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        table_message = await current_table_message(fake, table)
        old_hand = await (await fake.click(member, table_message, label="My hand")).message()
        assert "Your turn" in old_hand.text
    async with running_bot(fake, db) as bot:
        table = table_of(bot, fake)
        await (await fake.slash(member, fake.channel, "pass")).message()
        assert table.match.to_act != seat
        stale = fake.messages_by_id[old_hand.id]
        assert "Your turn" in stale.text, "the old hand was put right: nothing left to check"
        actions = len(table.actions)
        clicked = await fake.click(member, stale, enabled_actions(stale)[0])
        answer = await clicked.message()
        assert len(table.actions) == actions
        assert answer.id == old_hand.id and answer.ephemeral
        assert "not your turn" in answer.text.lower()
        assert "Your turn" not in answer.text and not enabled_actions(answer)
        assert not bot.handler_errors
