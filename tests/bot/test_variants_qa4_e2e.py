"""The other games at the table as their players live them on Discord, QA round 4: members and
computers at a table of each, what each reads in the hand and the table message; what QA found
is kept by a test."""

from __future__ import annotations

import random

from tests.bot.helpers import (
    current_table_message,
    member_at,
    running_bot,
    table_of,
    variant_act_once,
)
from tests.bot.test_variants_qa2_e2e import open_table, private, snapshot_text, take

pytest_plugins = ["tests.support.fixtures"]


def members_turn(table) -> bool:
    """Whether a member is to act (not a computer, and not between deals)."""
    seat = table.variant_match.to_act
    return seat is not None and not table.seats[seat].is_bot


async def test_napoleon_with_two_computers_names_each_by_its_seat_and_no_one_after_a_removal(
    fake_discord, tmp_path
):
    """alice and bob played Napoleon with two standard computers: the hand said "Waiting for
    Computer (standard)" for either. Each is named with its seat where it acts. Once the game
    was over the host removed bob, and the table message read "(empty)" in the last game's
    chips (and as its winner, had bob won): it names the seats between games."""
    fake = fake_discord
    alice, bob = fake.member("alice"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await private(fake, alice, "table create", variant="napoleon", seats=4)
        await private(fake, bob, "table join")
        for _ in range(2):
            await private(fake, alice, "table addbot", level="standard")
        table = table_of(bot, fake)
        table._rng = random.Random(4)
        await private(fake, alice, "table start")
        while table.playing:
            if members_turn(table):
                await variant_act_once(bot, fake)
            else:
                await fake.wait_for(lambda: not table.playing or members_turn(table))
        # Every message the bot sent or edited, public or private, as it was sent.
        texts = [snapshot_text(event) for event in fake.log]
        assert any("Waiting for\nComputer (standard) at " in t for t in texts)
        assert not any("Waiting for\nComputer (standard)\n" in t for t in texts)
        assert "(empty)" not in (await current_table_message(fake, table)).text
        seat = table.seat_of(bob.id)
        kicked = await (await fake.slash(alice, fake.channel, "table kick", member=bob)).message()
        assert "was removed" in kicked.text
        before = table.message_id
        await private(fake, alice, "table show")  # the table message, posted again
        shown = await fake.wait_for(
            lambda: table.message_id != before and fake.messages_by_id.get(table.message_id),
            what="the table message after the removal",
        )
        last = shown.text.split("Last game", 1)[1]
        assert "(empty)" not in last and f"{table.seat_label(seat).capitalize()}: " in last, last
        assert "Auction" not in shown.text and "Last trick" not in shown.text, shown.text
        assert not bot.handler_errors


async def test_a_set_back_maker_left_alone_is_offered_no_card_and_marches(fake_discord, tmp_path):
    """alice made trump at set-back; bob and carol threw up their hands. The bot plays her
    cards for her, yet her hand offered them to click, "Your turn: play", a click racing the
    bot's. Her hand offers none and says they are played for her; she marches."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await open_table(bot, fake, "set-back", seed=5, seats=3)
        table = table_of(bot, fake)
        match = table.variant_match
        deal = match.deal
        maker = match.to_act  # the eldest makes trump at his first turn
        while not deal.unopposed:
            legal = match.legal_actions()
            if match.to_act == maker:
                action = next((a for a in legal if a != "pass"), legal[0])
            elif "throw_up" in legal:
                action = "throw_up"
            else:
                action = "pass" if "pass" in legal else legal[0]
            await take(bot, fake, action)
        member = member_at(bot, fake, maker)
        table_message = await current_table_message(fake, table)
        hand = await (await fake.click(member, table_message, label="My hand")).message()
        cards = [b for b in hand.buttons if b.get("custom_id", "").startswith("euchre:hand:")]
        assert cards and all(b.get("disabled") for b in cards), hand.buttons
        assert "played for you" in hand.text and "Your turn" not in hand.text, hand.text
        await fake.wait_for(lambda: deal.is_over, what="the maker's cards, played for him")
        assert deal.result.outcome == "march" and deal.result.tricks[maker] == 5
        assert not bot.handler_errors
