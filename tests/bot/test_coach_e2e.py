"""The coach end to end, the real bot against the fake Discord: /hint answers the member to act
privately, and a finished deal's Review brings the clicker's own grades, privately, after the
deal's review. Neither shows a card still hidden from that member."""

from __future__ import annotations

from tests.bot.helpers import (
    act_once,
    cards_shown,
    current_table_message,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)

pytest_plugins = ["tests.support.fixtures"]

# The first search starts the computer players' worker process: a bound for a loaded machine.
SEARCH_WAIT = 120.0


async def test_hint_and_graded_review_are_private(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        hint = await (await fake.slash(member, fake.channel, "hint")).message(timeout=SEARCH_WAIT)
        assert hint.ephemeral and hint.visible_to == member.id
        assert "The expert would" in hint.text
        deal = table.match.deal
        assert cards_shown(hint.text) <= set(deal.hands[seat]) | {deal.turn_up}
        # Another member asking out of turn is refused, privately.
        other = member_at(bot, fake, (seat + 1) % 4)
        refusal = await (await fake.slash(other, fake.channel, "hint")).message()
        assert refusal.ephemeral and "not your turn" in refusal.text
        first = await current_table_message(fake, table)
        while len(table.match.deals) == 1:
            await act_once(bot, fake)

        def finished():
            message = fake.messages_by_id[first.id]
            return "Review" in str(message.buttons) and message

        message = await fake.wait_for(finished)
        clicker = member_at(bot, fake, 2)
        clicked = await fake.click(clicker, message, label="Review")
        review = await clicked.message()
        assert review.ephemeral and review.visible_to == clicker.id
        grades = await clicked.followup(0, timeout=SEARCH_WAIT)
        assert grades.ephemeral and grades.visible_to == clicker.id
        assert "Your decisions in deal 1" in grades.text
        dealt = table.match.deals[0]
        assert cards_shown(grades.text) <= set(dealt.dealt[2]) | {dealt.turn_up}
        assert not bot.handler_errors
