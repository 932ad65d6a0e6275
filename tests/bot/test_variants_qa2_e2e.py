"""The other games of the rule books, QA round 2: members at every seat play them with options
the first round left out (Napoleon at seven, set-back's declaration and euchre deductions,
six-handed to more points), and every message the bot sends on the way is checked against
what its reader may know; what QA found is kept by a test."""

from __future__ import annotations

import random
import re

import pytest

from tests.bot.helpers import (
    VARIANT_ADVISER,
    cards_shown,
    components_text,
    current_table_message,
    member_at,
    running_bot,
    table_of,
)
from tests.support.fake_discord import FakeDiscord, FakeMember, FakeMessage, MessageEvent

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
    in the table's message and the deal's review. The declaration is open to him across a
    restart (the table's options come back with it)."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        # Seed 2 deals p1 the eldest J♦ 7♦ K♣ 8♦ 10♣ under the Q♣ turned, alice the dealer.
        await open_table(bot, fake, "set-back", seed=2, seats=2, declare_all=True)
        for action in ("order", "TS"):
            await take(bot, fake, action)
    async with running_bot(fake, db) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.content for m in fake.public_messages(fake.channel)),
            what="the restored table's word",
        )
        table = table_of(bot, fake)
        for action in ("declare", "pass"):
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


# -- what each reader may know, message by message -------------------------------------------


def snapshot_text(event: MessageEvent) -> str:
    """A message as the bot sent it at that event: its text, buttons and selects."""
    s = event.snapshot
    message = FakeMessage(
        0, 0, None, {}, content=s["content"], embeds=s["embeds"], components=s["components"]
    )
    return message.text + " " + components_text(message)


# A message names its deal in its footer (`Table 1 · deal 3`) or its title (`Deal 3: over`).
DEAL_OF = re.compile(r"(?:· deal |^Deal )(\d+)", re.M)


def known(deal, seat: int | None) -> set[str]:
    """The cards of a deal in play that the member at `seat` (None: anyone) may see: his own
    as dealt (and his discard, as dealer), the turn-up, and the cards played."""
    out = {c for _, trick in deal.tricks for _, c in trick} | {c for _, c in deal.trick}
    out |= {deal.turn_up} if deal.turn_up else set()
    if seat is not None:
        out |= set(deal.dealt[seat]) | ({deal.discarded} if seat == deal.dealer else set())
    return out


def dealt(deal) -> set[str]:
    """Every card of a finished deal that was dealt (no secret once it is over), not the kitty."""
    return {c for hand in deal.dealt for c in hand} | ({deal.turn_up} if deal.turn_up else set())


def law_points(deal) -> tuple[int, ...]:
    """A finished deal's points as the rule books give them (RULES.md §7-§8), apart from the
    engine's own scoring."""
    v, maker, won = deal.variant, deal.maker, deal.won
    points = [0] * v.sides
    if maker is None:
        return tuple(points)
    others = [s for s in range(v.players) if v.side_of(s) != v.side_of(maker)]
    taken = sum(won[s] for s in range(v.players) if v.side_of(s) == v.side_of(maker))
    if v.name == "napoleon":
        made = taken >= deal.bid
        each = (10 if deal.bid == 5 else deal.bid) * (1 if made else -1)
        for s in others:
            points[s] -= each
        points[maker] += each * len(others)
    elif v.name in ("french", "six-handed"):
        points[v.side_of(maker) if taken >= deal.bid else 1 - v.side_of(maker)] = deal.bid
    elif v.name == "set-back":
        playing = [s for s in range(v.players) if s not in deal.thrown]
        if deal.declared:
            points[maker] = -deal.standing[maker] if taken == 5 else deal.standing[maker]
        else:
            points[maker] = -2 if taken == 5 else -1 if taken >= 3 else 2
        for s in playing:
            if taken < 3 and v.euchre_deducts and s != maker:
                points[s] -= 2
            points[s] += 1 if won[s] == 0 else 0
    elif taken >= 3:
        points[maker] = 2 if taken == 5 else 1
    else:
        for s in others:
            points[s] = 2
    return tuple(points)


SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


async def act_by_command(bot, fake: FakeDiscord) -> None:
    """The member to act does what the standard computer would, by slash command where one
    says it (a single interaction: the walk stays short), else by the hand's buttons."""
    table = table_of(bot, fake)
    seat = table.variant_match.to_act
    member = member_at(bot, fake, seat)
    action = VARIANT_ADVISER.choose(table.variant_match.view_for(seat))
    deal = table.variant_match.deal
    parts = action.split(":")
    if action in ("pass", "order"):
        command, options = action, {}
    elif parts[0] == "bid":
        command, options = "bid", {"tricks": int(parts[1])}
        options |= {"suit": SUITS[parts[2]]} if len(parts) > 2 else {}
    elif parts[0] == "call":
        command, options = "call", {"suit": SUITS[parts[1]]}
    elif action in deal.hands[seat]:
        command, options = ("discard" if deal.phase == "discard" else "play"), {"card": action}
    else:
        await take(bot, fake, action)
        return
    before = len(table.actions)
    await private(fake, member, command, **options)
    # More than one when the command leaves a set-back maker unopposed: his cards are then
    # played for him.
    assert len(table.actions) > before, (command, options)


# Seeded deals, each game short: Napoleon at five (a 32-card pack) has a deal ended early and
# ends in a tie at the top; set-back at three has a hand thrown up and a euchre the
# adversaries deduct from.
WALKS = [
    ("napoleon", 6, {"seats": 5, "rounds": 1}),
    ("set-back", 182, {"seats": 3, "declare_all": True, "euchre_deducts": True}),
]


@pytest.mark.parametrize(("variant", "seed", "game"), WALKS, ids=[v for v, _, _ in WALKS])
async def test_members_play_a_variant_to_its_end_each_message_showing_only_what_its_reader_may_know(
    fake_discord, tmp_path, variant: str, seed: int, game: dict
):
    """Every message the bot creates or edits, public or private, is read as it was sent: it
    shows no card of a deal in play but its reader's own, the turn-up and the cards played (a
    finished deal shows its hands, never the kitty); each deal scores as the rule book says."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await open_table(bot, fake, variant, seed=seed, **game)
        table = table_of(bot, fake)
        match = table.variant_match
        seat_of = {table.seats[s].user_id: s for s in range(table.seat_count)}
        leaks, read = [], len(fake.log)
        while table.playing:
            await act_by_command(bot, fake)
            for event in fake.log[read:]:
                found = DEAL_OF.findall(snapshot_text(event))
                about = match.deals[int(found[-1]) - 1] if found else match.deal
                viewer = seat_of.get(event.visible_to) if event.visible_to else None
                allowed = dealt(about) if about.is_over else known(about, viewer)
                if extra := cards_shown(snapshot_text(event)) - allowed:
                    leaks.append((viewer, sorted(extra), snapshot_text(event)))
            read = len(fake.log)
        assert not leaks, leaks[0]
        finished = [d for d in match.deals if d.is_over]
        assert [d.result.points for d in finished] == [law_points(d) for d in finished]
        results = [d.result for d in finished]
        if variant == "napoleon":
            assert any(r.early for r in results) and match.winner is None
            assert await fake.wait_for(lambda: any("no single winner" in m.text for m in
                                                   fake.public_messages(fake.channel)))  # fmt: skip
        else:
            assert any(r.thrown for r in results) and any(r.outcome == "euchred" for r in results)
        assert not bot.handler_errors
