"""The other games of the rule books read by players who know the books, and played through a
night's mishaps, QA round 5: /rules at their tables, a Napoleon declared and its result, and a
restart at every phase of set-back with a computer at the table; what QA found is kept by a
test."""

from __future__ import annotations

import random

from tests.bot.helpers import (
    current_table_message,
    running_bot,
    table_of,
    variant_act_once,
)
from tests.bot.test_variants_qa2_e2e import deal_over, open_table, private, seat_members, take

pytest_plugins = ["tests.support.fixtures"]


async def test_rules_at_a_two_handed_table_asked_for_the_bowers_say_how_they_rank(
    fake_discord, tmp_path
):
    """H names the bowers and says the left bower must be played to a trump lead when it is
    the only trump; /rules topic:bowers at a two-handed table answered "here are this game's
    rules in full", which said nothing of the cards. They now end with how the cards rank.
    /help's line for /table join said one waits "when four sit": when every seat is taken."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        alice = fake.member("alice")
        await private(fake, alice, "table create", variant="two-handed", seats=2)
        said = await private(fake, alice, "rules", topic="bowers")
        assert "this game's rules in full" in said, said
        assert "the right bower" in said and "the left bower" in said, said
        assert "A K Q 10 9 8 7 of trumps" in said and "you must play it" in said, said
        assert "if both pass again, the deal passes" in said, said
        # /help said a member "waits in line when four sit", at a table of two.
        join = next(line for line in (await private(fake, alice, "help")).splitlines()
                    if line.startswith("</table join"))  # fmt: skip
        assert "wait in line when every seat is taken" in join and "four" not in join, join
        assert not bot.handler_errors


async def test_a_napoleon_declared_is_called_napoleon_in_the_deals_result(fake_discord, tmp_path):
    """The eldest goes Napoleon: the auction says "went Napoleon", and the finished deal's
    message says the same of him, not "bid five"."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await open_table(bot, fake, "napoleon", seed=3, seats=3)
        match = table_of(bot, fake).variant_match
        await take(bot, fake, "bid:5")
        await take(bot, fake, "call:H")
        while not match.deals[0].is_over:
            await take(bot, fake, match.legal_actions()[0])
        over = await fake.wait_for(lambda: deal_over(fake, 1), what="the deal's result")
        assert " went Napoleon and took " in over.text, over.text
        assert "went Napoleon\n" in over.text and "(Napoleon)" in over.text, over.text
        assert "bid five" not in over.text and "bid 5" not in over.text, over.text
        assert not bot.handler_errors


def restored(fake, old: set[int]) -> bool:
    """Whether the bot said a table was restored in a message not among `old`."""
    return any(
        "restored" in m.content and m.id not in old for m in fake.public_messages(fake.channel)
    )


def members_turn(table) -> bool:
    seat = table.variant_match.to_act
    return seat is not None and not table.seats[seat].is_bot


async def test_set_back_with_a_computer_resumes_exactly_after_a_restart_at_every_phase(
    fake_discord, tmp_path
):
    """Two members and a standard computer play set-back with the declaration; the bot is
    restarted the first time a member is to act in each phase (the turn-up's two rounds, the
    discard, the declaration, the throw-ups, the play) and once between games. Each time the
    game comes back exactly: every action kept once (none of the computer's taken twice or
    lost), the same phase, the turn on the table message; the next game starts."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    members = seat_members(fake, 2)
    seen: set[str] = set()
    before: list | None = None
    phase = ""
    async with running_bot(fake, db) as bot:
        await private(fake, members[0], "table create", variant="set-back", seats=3,
                      declare_all=True)  # fmt: skip
        await private(fake, members[1], "table join")
        await private(fake, members[0], "table addbot", level="standard")
        table_of(bot, fake)._rng = random.Random(6)
        await private(fake, members[0], "table start")
    while True:
        old = {m.id for m in fake.public_messages(fake.channel) if "restored" in m.content}
        async with running_bot(fake, db) as bot:
            table = table_of(bot, fake)
            if table.playing:
                await fake.wait_for(lambda old=old: restored(fake, old), what="the word")
            if before is not None:
                assert table.actions == before and table.variant_match.deal.phase == phase
                message = await current_table_message(fake, table)
                assert "Turn" in message.text, message.text
            while table.playing:
                if not members_turn(table):
                    await fake.wait_for(lambda t=table: not t.playing or members_turn(t))
                    continue
                phase = table.variant_match.deal.phase
                if phase not in seen:
                    seen.add(phase)
                    before = list(table.actions)
                    break
                await variant_act_once(bot, fake)
            else:
                assert seen >= {"round_one", "round_two", "discard", "declare", "throw_up"}
                assert "play" in seen
                break
            assert not bot.handler_errors
    async with running_bot(fake, db) as bot:
        assert "dealt" in await private(fake, members[0], "table start")
        assert not bot.handler_errors
