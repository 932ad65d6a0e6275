"""The coach as members use it, QA round 2: /hint at each phase of a deal played alone (the
lone hand's call, its partner's answer, the dealer's discard, a defence alone, the play), from
the members whose turn it is not and from one not seated, and while the table moves on under
the search; /review of the deal in play. What QA found is kept by a test."""

from __future__ import annotations

import asyncio
import random

from bot.tables import table as table_module
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


async def hint(fake: FakeDiscord, member: FakeMember) -> FakeMessage:
    message = await (await fake.slash(member, fake.channel, "hint")).message(timeout=SEARCH_WAIT)
    assert message.ephemeral and message.visible_to == member.id, message.text
    return message


async def take(bot, fake: FakeDiscord, action: str) -> None:
    """The member to act takes `action` with its button on the hand (My hand)."""
    table = table_of(bot, fake)
    member = member_at(bot, fake, table.match.to_act)
    hand = await (
        await fake.click(member, await current_table_message(fake, table), label="My hand")
    ).message()
    ids = [b["custom_id"] for b in hand.buttons if b.get("custom_id", "").endswith(":" + action)]
    assert ids, (action, hand.text)
    assert (await (await fake.click(member, hand, ids[0])).response()).type == 7


async def test_hints_through_a_deal_played_and_defended_alone(fake_discord, tmp_path):
    """Each phase's hint goes to the member to act only, names one of their actions and shows
    no card but their own and the turn-up; the others, and a member not seated, are refused
    saying why (the lone hand's partner and the lone defender's sit it out)."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, preset="somerset", defend_alone=True)
        await start(fake)
        table = table_of(bot, fake)
        match, deal = table.match, table.match.deal
        eve = fake.add_member(fake.guild, "eve")
        assert "not seated" in (await hint(fake, eve)).text
        review = await (await fake.slash(eve, fake.channel, "review", deal="1")).message()
        assert review.ephemeral and review.text == "That deal is not over yet."
        phases = []
        while deal.phase != "play" or not deal.tricks:
            seat = match.to_act
            given = await hint(fake, member_at(bot, fake, seat))
            phases.append(deal.phase)
            assert "The expert would: **" in given.text, given.text
            assert cards_shown(given.text) <= set(deal.hands[seat]) | {deal.turn_up}, given.text
            for other in set(range(4)) - {seat}:
                refused = (await hint(fake, member_at(bot, fake, other))).text
                plays = "defends" if deal.defender == (other + 2) % 4 else "plays"
                out = other in deal.sitting_out
                assert refused == (f"Your partner {plays} this deal alone: you sit it out" if out
                                   else "It is not your turn"), (other, refused)  # fmt: skip
            legal = match.view_for(seat).deal.legal
            # The eldest goes alone, his partner takes it from him, the first defender defends.
            wanted = next((a for a in ("order:alone", "alone", "defend") if a in legal), legal[0])
            await take(bot, fake, wanted)
        assert phases[:2] == ["round_one", "partner_alone"] and "play" in phases, phases
        assert "defend_alone" in phases and deal.defender is not None
        assert not bot.handler_errors


class HeldSearch:
    """The computer players' real search for hints, held until the test lets it run: so a
    test can act while the coach thinks, whatever the machine's speed."""

    def __init__(self, computers) -> None:
        self.computers = computers
        self.real = computers.analyse
        self.started = asyncio.Event()
        self.go = asyncio.Event()
        computers.analyse = self.analyse

    async def analyse(self, table_id, view):
        self.started.set()
        await self.go.wait()
        return await self.real(table_id, view)

    def next(self) -> None:
        self.started.clear()
        self.go.clear()


async def test_a_hint_whose_table_closed_during_the_search_says_the_table_closed(
    fake_discord, tmp_path
):
    """While the coach thought, the host closed the table: the hint's answer said "the turn
    moved on ... ask again on your next turn", at a table with no next turn. It says the
    table closed. A member who acts meanwhile is still told the turn moved on."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, preset="somerset")
        await start(fake)
        table = table_of(bot, fake)
        held = HeldSearch(bot.manager.computers)
        member = member_at(bot, fake, table.match.to_act)
        asked = await fake.slash(member, fake.channel, "hint")
        await held.started.wait()
        await (await fake.slash(member, fake.channel, "pass")).response()
        held.go.set()
        moved = (await asked.message(timeout=SEARCH_WAIT)).text
        assert moved.startswith("The turn moved on while the coach was thinking"), moved
        held.next()
        member = member_at(bot, fake, table.match.to_act)
        asked = await fake.slash(member, fake.channel, "hint")
        await held.started.wait()
        alice = fake.member("alice")
        confirm = await (await fake.slash(alice, fake.channel, "table close")).message()
        closed = await (await fake.click(alice, confirm, label="Close the table")).message()
        assert closed.text == "The table is closed."
        held.go.set()
        answer = await asked.message(timeout=SEARCH_WAIT)
        assert answer.ephemeral and answer.visible_to == member.id
        assert answer.text == "The table closed while the coach was thinking, so no hint is given"
        assert not bot.handler_errors


# A deal of the modern pack: the J♠ turned, seat 0's hand without a spade (or the J♣).
VOID_DEALER_SEED = "5c6e433715ba2bdd177219d30e7a269fd95bafc8f2a4d27bdcf4bb99f4bea973"


async def test_a_hint_after_the_dealer_showed_he_threw_out_the_turn_up_weighs_the_cards(
    fake_discord, tmp_path, monkeypatch
):
    """The dealer took up the J♠, threw it out (modern allows it) and showed out of spades: the
    next hint said "A forced action: nothing to weigh" to a member with four cards to play,
    since no sampled deal fitted (each left the jack in the dealer's hand or dealt it to
    another). It weighs the four cards, and its figures are the search's, after a restart
    too."""
    fake = fake_discord
    monkeypatch.setattr(table_module, "new_seed", lambda rng=None: VOID_DEALER_SEED)
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake, preset="modern")
        table = table_of(bot, fake)
        table._rng = random.Random(1)  # the cut for partners: seat 0 deals
        await start(fake)
        deal = table.match.deal
        assert deal.dealer == 0 and deal.turn_up == "JS"
        for seat, command, options in (
            (1, "order", {}),
            (0, "discard", {"card": "JS"}),
            (1, "play", {"card": "AS"}),
            (2, "play", {"card": "TS"}),
            (3, "play", {"card": "QS"}),
            (0, "play", {"card": "TD"}),
        ):
            member = member_at(bot, fake, seat)
            answer = await (await fake.slash(member, fake.channel, command, **options)).message()
            assert answer.ephemeral and deal.history[-1] == (seat, options.get("card", command))
    # Asked after a restart: the table comes back, and the coach's workers start anew.
    async with running_bot(fake, db) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.content for m in fake.public_messages(fake.channel)),
            what="the restored table's word",
        )
        deal = table_of(bot, fake).match.deal
        given = await hint(fake, member_at(bot, fake, 1))
        assert "forced action" not in given.text, given.text
        assert "of 360 sampled deals" in given.text and "points expected" in given.text
        assert cards_shown(given.text) <= set(deal.hands[1]) | {"JS"}
        assert not bot.handler_errors
