"""The other games of the rule books, QA round 3: what the computers at a table do where the
books (K) make a choice decide a set-back game, played through the bot."""

from __future__ import annotations

import random

from tests.bot.helpers import running_bot, table_of
from tests.bot.test_variants_qa2_e2e import deal_over, private, take

pytest_plugins = ["tests.support.fixtures"]


async def test_k_a_computer_keeps_its_hand_against_a_declaration_of_all_five(
    fake_discord, tmp_path
):
    """alice declared all five with the right bower and little else; the computer, dealt a
    hopeless hand, threw it up, so she took all five unopposed and won the game outright (K).
    It keeps its hand: its one trick sets her back by her whole score."""
    fake = fake_discord
    alice = fake.member("alice")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await private(fake, alice, "table create", variant="set-back", seats=2, declare_all=True)
        await private(fake, alice, "table addbot", level="standard")
        table = table_of(bot, fake)
        # Seed 163: the computer deals; alice holds 8♣ J♠ K♥ 8♥ A♥ under the 9♠ turned, the
        # computer K♦ 7♣ 10♥ 9♣ 9♥.
        table._rng = random.Random(163)
        assert "dealt" in await private(fake, alice, "table start")
        match = table.variant_match
        assert match.deal.dealer == 1 and table.seats[1].is_bot
        await take(bot, fake, "order")
        await fake.wait_for(lambda: match.deal.phase == "declare", what="the computer's discard")
        await take(bot, fake, "declare")
        await fake.wait_for(lambda: match.deal.phase == "play", what="the computer's choice")
        assert match.deal.thrown == []
        while not match.deals[0].is_over:
            if match.to_act == 0:
                await take(bot, fake, match.legal_actions()[0])
            else:
                await fake.wait_for(
                    lambda: match.deals[0].is_over or match.to_act == 0, what="the computer"
                )
        result = match.deals[0].result
        assert result.declared and result.outcome != "march" and result.points[0] == 5
        over = await fake.wait_for(lambda: deal_over(fake, 1), what="the deal's result")
        assert "the declaration failed" in over.text, over.text
        assert not match.over and not bot.handler_errors
