"""The other games of the rule books, QA round 2: members at every seat play them with options
the first round left out (Napoleon at seven, set-back's declaration and euchre deductions,
six-handed to more points), and every message the bot sends on the way is checked against
what its reader may know; what QA found is kept by a test."""

from __future__ import annotations

import random

from tests.bot.helpers import (
    current_table_message,
    member_at,
    running_bot,
    table_of,
)
from tests.support.fake_discord import FakeDiscord, FakeMember, FakeMessage

pytest_plugins = ["tests.support.fixtures"]


def seat_members(fake: FakeDiscord, count: int) -> list[FakeMember]:
    return [fake.member("alice")] + [fake.add_member(fake.guild, f"p{i}") for i in range(1, count)]


async def private(fake: FakeDiscord, member: FakeMember, command: str, **options) -> str:
    message = await (await fake.slash(member, fake.channel, command, **options)).message()
    assert message.ephemeral, message.text
    return message.text


async def open_table(bot, fake: FakeDiscord, variant: str, seed: int | None = None, **game):
    """A variant's table with a member at every seat, started; `seed` deals known cards (the
    table's generator draws the first dealer and each deal's seed)."""
    members = seat_members(fake, game["seats"])
    await private(fake, members[0], "table create", variant=variant, **game)
    for member in members[1:]:
        assert "You sit at" in await private(fake, member, "table join")
    if seed is not None:
        table_of(bot, fake)._rng = random.Random(seed)
    assert "dealt" in await private(fake, members[0], "table start")
    return members


async def take(bot, fake: FakeDiscord, action: str) -> None:
    """The member to act opens the hand (My hand) and takes `action` by its button or select."""
    table = table_of(bot, fake)
    member = member_at(bot, fake, table.variant_match.to_act)
    table_message = await current_table_message(fake, table)
    hand: FakeMessage = await (await fake.click(member, table_message, label="My hand")).message()
    buttons = {
        b["custom_id"].split(":", 5)[5]: b["custom_id"]
        for b in hand.buttons
        if not b.get("disabled") and b.get("custom_id", "").startswith("euchre:hand:")
    }
    if action in buttons:
        clicked = await fake.click(member, hand, buttons[action])
    else:
        pick = next(
            c
            for c in hand.all_components()
            if str(c.get("custom_id", "")).startswith("euchre:pick:")
        )
        assert action in [o["value"] for o in pick["options"]], (action, hand.text)
        clicked = await fake.click(member, hand, pick["custom_id"], values=[action])
    assert (await clicked.response()).type == 7  # the hand is edited in place


def deal_over(fake: FakeDiscord, number: int) -> FakeMessage | None:
    return next(
        (m for m in fake.public_messages(fake.channel) if f"Deal {number}: over" in m.text), None
    )


async def test_a_failed_declaration_of_all_five_at_set_back_says_so(fake_discord, tmp_path):
    """p1 declared all five and took three: set back by his score (K), the deal's result read
    "p1 took 3: made it. Set back (+) or down (−): p1 +5". It says the declaration failed,
    in the table's message and the deal's review."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        # Seed 2 deals p1 the eldest J♦ 7♦ K♣ 8♦ 10♣ under the Q♣ turned, alice the dealer.
        await open_table(bot, fake, "set-back", seed=2, seats=2, declare_all=True)
        table = table_of(bot, fake)
        for action in ("order", "TS", "declare", "pass"):
            await take(bot, fake, action)
        while not table.variant_match.deals[0].is_over:
            await take(bot, fake, table.variant_match.legal_actions()[0])
        result = table.variant_match.deals[0].result
        assert result.declared and result.tricks == (2, 3) and result.points == (0, 5)
        over = await fake.wait_for(lambda: deal_over(fake, 1), what="the deal's result")
        said = "**p1** declared all five and took 3: the declaration failed"
        assert said in over.text and "made it" not in over.text, over.text
        review = await private(fake, fake.member("alice"), "review", deal="1")
        assert said in review and "made it" not in review, review
        assert not bot.handler_errors
