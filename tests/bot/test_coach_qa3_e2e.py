"""The coach as members use it at tables of each four-handed option, QA round 3: /hint on every
turn of a deal at a table with the Joker turned up (its suit named), stick the dealer, defend
alone and a partner taking it alone, answered privately to the member to act with no card that
member may not know; the others refused saying why; /review of the finished deal by a player
and by a spectator. And the grades' words for one decision and for decisions all costly."""

from __future__ import annotations

import random

import pytest

from bot.ai.coach import Grade
from bot.engine.deal import ROUND_ONE
from bot.tables import table as table_module
from bot.ui.coach import grades_embed
from tests.bot.helpers import (
    cards_shown,
    current_table_message,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)
from tests.support.fake_discord import FakeDiscord, FakeMember, FakeMessage

pytest_plugins = ["tests.support.fixtures"]

# The first search starts the computer players' worker process: a bound for a loaded machine.
SEARCH_WAIT = 120.0

# Seeds whose pack order turns up the Joker (found with bot.engine.commitment.pack_order).
JOKER_TURNED = {
    "modern": "0" * 62 + "16",  # 24 cards and the Joker
    "somerset": "0" * 62 + "11",  # 32 cards and the Joker
}


async def hint(fake: FakeDiscord, member: FakeMember) -> FakeMessage:
    message = await (await fake.slash(member, fake.channel, "hint")).message(timeout=SEARCH_WAIT)
    assert message.ephemeral and message.visible_to == member.id, message.text
    return message


async def take(bot, fake: FakeDiscord, action: str) -> None:
    """The member to act takes `action` with its button (or select) on the hand (My hand)."""
    table = table_of(bot, fake)
    member = member_at(bot, fake, table.match.to_act)
    hand = await (
        await fake.click(member, await current_table_message(fake, table), label="My hand")
    ).message()
    ids = [b["custom_id"] for b in hand.buttons if b.get("custom_id", "").endswith(":" + action)]
    if ids:
        clicked = await fake.click(member, hand, ids[0])
    else:
        picks = [c for c in hand.all_components() if "euchre:pick:" in str(c.get("custom_id"))]
        assert picks, (action, hand.text)
        clicked = await fake.click(member, hand, picks[0]["custom_id"], values=[action])
    assert (await clicked.response()).type == 7


@pytest.mark.parametrize(
    "preset,options",
    [
        ("modern", {"joker": True, "defend_alone": True}),  # stick the dealer, 24 cards
        ("somerset", {"joker": True, "stick_the_dealer": True}),  # 32 cards, partner alone
        ("jerome", {"defend_alone": True}),
    ],
)
async def test_hints_on_every_turn_of_a_deal_and_its_review(
    fake_discord, tmp_path, monkeypatch, preset, options
):
    fake = fake_discord
    seeds = iter([JOKER_TURNED[preset]] if preset in JOKER_TURNED else [])
    real_seed = table_module.new_seed
    monkeypatch.setattr(table_module, "new_seed", lambda rng=None: next(seeds, None) or real_seed())
    rng = random.Random(3)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, preset=preset, **options)
        await start(fake)
        table = table_of(bot, fake)
        match, deal = table.match, table.match.deal
        assert (deal.turn_up == "BJ") == ("joker" in options)
        eve = fake.add_member(fake.guild, "eve")
        phases = set()
        while len(match.deals) == 1:
            seat = match.to_act
            phases.add(deal.phase)
            given = (await hint(fake, member_at(bot, fake, seat))).text
            assert given.startswith("Hint\nThe expert would: **"), given
            known = set(deal.hands[seat]) | {deal.turn_up}
            known |= {c for _, t in deal.tricks for _, c in t} | {c for _, c in deal.trick}
            if seat == deal.dealer and deal.discarded:
                known.add(deal.discarded)
            assert cards_shown(given) <= known, (given, known)
            other = (seat + 1) % 4
            refused = (await hint(fake, member_at(bot, fake, other))).text
            if other in deal.sitting_out:
                assert refused.startswith("Your partner "), refused
            else:
                assert refused == "It is not your turn", refused
            assert (await hint(fake, eve)).text == "You are not seated at this table"
            legal = list(match.view_for(seat).deal.legal)
            # Mostly passes, so that round two and the dealer's stuck call come; else any.
            wanted = "pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal)
            await take(bot, fake, wanted)
        assert phases >= {"round_one", "play"}, phases
        if "joker" in options:
            assert "joker_suit" in phases
        for who in ("bob", "eve"):
            review = await fake.slash(fake.member(who), fake.channel, "review", deal="1")
            shown = await review.message()
            assert shown.ephemeral and shown.text.startswith("Review of deal 1"), shown.text
        grades = await review_grades(fake, "bob")
        assert grades.startswith("Your decisions in deal 1"), grades
        assert "0 other decision" not in grades and "All 1 of" not in grades, grades
        assert not bot.handler_errors


async def review_grades(fake: FakeDiscord, who: str) -> str:
    asked = await fake.slash(fake.member(who), fake.channel, "review", deal="1")
    await asked.message()
    grades = await asked.followup(0, timeout=SEARCH_WAIT)
    assert grades.ephemeral and grades.visible_to == fake.member(who).id
    return grades.text


def test_grades_of_one_decision_and_of_every_decision_costly_read_as_english():
    """A member who took one decision, as good as the expert's, read "All 1 of your decisions
    were as good as the expert's choice."; one whose every decision cost something read, under
    them, "0 other decisions as good as the expert's." The first says "Your one decision", and
    the line about the others is left out when there are none."""
    good = Grade(1, 3, ROUND_ONE, None, "pass", "pass", 0.0, 0.0, False, None)
    costly = Grade(1, 3, ROUND_ONE, None, "order", "pass", 0.2, 0.5, False, None)
    one = grades_embed([good], 3, 0, 1, "West").to_dict()["description"]
    assert one == "Your one decision was as good as the expert's choice."
    two = grades_embed([good, good], 3, 0, 1, "West").to_dict()["description"]
    assert two == "All 2 of your decisions were as good as the expert's choice."
    only_costly = grades_embed([costly], 3, 0, 1, "West").to_dict()["description"]
    assert only_costly.startswith("**Round one**: Order up; the expert: Pass."), only_costly
    assert "other decision" not in only_costly, only_costly
    mixed = grades_embed([costly, good], 3, 0, 1, "West").to_dict()["description"]
    assert mixed.endswith("\n1 other decision as good as the expert's."), mixed
