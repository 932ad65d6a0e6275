"""What players read of the bidding: the suit named for a turned-up Joker (RULES §6), the
partner's choice "Alone / Play with partner" (RULES §4), and members' names, which never turn
into pictures, times or links whatever markup they hold."""

from __future__ import annotations

import pytest

import bot.tables.table as table_module
from bot.engine.cards import JOKER
from bot.engine.commitment import new_seed, pack_order
from bot.engine.deal import DEFEND_ALONE, JOKER_SUIT, PARTNER_ALONE, PLAY
from tests.interaction.helpers import act, action_ids, open_hand, start_four
from tests.support.fake_discord import FakeMessage
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

TURN_UP = 20  # the card turned after five each are dealt (J.5; bot/engine/deal.py deal_hands)


def labels(hand: FakeMessage) -> set[str]:
    """The words on the hand's enabled declaration buttons."""
    ids = set(action_ids(hand).values())
    return {b["label"] for b in hand.buttons if b.get("custom_id") in ids}


async def until(h: InteractionHarness, phase: str) -> None:
    """The seats to act take the first action open to them until the deal reaches `phase`."""
    deal = h.table().match.deal
    while deal.phase != phase:
        await act(h, deal.legal_actions()[0])


async def test_a_turned_up_joker_reads_as_the_suit_the_dealer_named_not_as_trump_made(
    interactions, monkeypatch
):
    h = interactions
    seed = next(s for s in iter(new_seed, None) if pack_order(s, 24, True)[TURN_UP] == JOKER)
    monkeypatch.setattr(table_module, "new_seed", lambda *rng: seed)
    table = await start_four(h, preset="modern", joker=True)
    deal = table.match.deal
    assert deal.phase == JOKER_SUIT
    await h.command(h.member_at(deal.dealer), "call", suit="hearts")
    dealer = table.seats[deal.dealer].name
    named = f"{dealer} named hearts for the Joker"
    eldest = h.member_at(deal.to_act)
    for text in (h.table_message().text, (await h.command(eldest, "hand")).text):
        # Nobody has made trump yet: the Joker is the turn-up of hearts, to order up or pass.
        assert named in text and "made it" not in text, text
        assert "🃏 (hearts)" in text, text
    while not deal.is_over:
        await act(h)
    exchange = await h.command("alice", "review", deal="1")
    review = next(m.text for m in exchange.messages if "Review of deal 1" in m.text)
    assert named in review and "Turn-up\n🃏 (hearts)" in review, review
    assert "made it hearts" not in review, review


async def test_the_makers_partner_chooses_alone_or_play_with_partner(interactions):
    h = interactions
    table = await start_four(h, preset="somerset")
    deal = table.match.deal
    await act(h, "order")
    await until(h, PARTNER_ALONE)
    partner = table.seats[deal.to_act].name
    hand = await open_hand(h, h.member_at(deal.to_act))
    assert labels(hand) == {"Take it alone", "Play with partner"}
    await act(h, "pass")
    text = h.table_message().text
    assert f"{partner} plays with partner" in text and f"{partner} passed" not in text, text


@pytest.mark.parametrize("defend_alone", [False, True])
async def test_the_partner_of_a_lone_maker_chooses_alone_or_to_let_him_play_alone(
    interactions, defend_alone
):
    # His pass sits him out: it is no "playing with partner", nor a choice not to defend.
    h = interactions
    table = await start_four(h, preset="somerset", defend_alone=defend_alone)
    deal = table.match.deal
    maker = table.seats[deal.to_act].name
    await act(h, "order:alone")  # the eldest: his partner, third hand, has not spoken yet
    assert deal.phase == PARTNER_ALONE
    member = h.member_at(deal.to_act)
    partner = table.seats[deal.to_act].name
    hand = await open_hand(h, member)
    assert labels(hand) == {"Take it alone", "Let partner play alone"}
    choice = "his partner takes it from him alone, or lets him play alone"
    assert choice in hand.text and choice in h.table_message().text
    refused = await h.command(member, "play", card=deal.hands[deal.to_act][0])
    assert "let him play alone: the play has not begun" in refused.text, refused.text
    await act(h, "pass")
    said = f"{partner} lets {maker} play alone"
    texts = [h.table_message().text, (await h.command(member, "hand")).text]
    while not deal.is_over:
        await act(h)
    exchange = await h.command("alice", "review", deal="1")
    texts += [m.text for m in h.public_messages() if "Deal 1: over" in m.text]
    texts += [m.text for m in exchange.messages if "Review of deal 1" in m.text]
    assert len(texts) == 4
    for text in texts:
        assert said in text, text
        assert f"{partner} does not defend alone" not in text, text
        assert f"{partner} plays with partner" not in text, text


async def test_a_turned_up_jokers_naming_stays_on_the_finished_deal(interactions, monkeypatch):
    # Nine declarations (the naming, a passed round one, a second round to its last hand):
    # the finished deal showed the last eight, without the suit the Joker stood for.
    h = interactions
    seed = next(s for s in iter(new_seed, None) if pack_order(s, 24, True)[TURN_UP] == JOKER)
    monkeypatch.setattr(table_module, "new_seed", lambda *rng: seed)
    table = await start_four(h, preset="modern", joker=True)
    deal = table.match.deal
    await h.command(h.member_at(deal.dealer), "call", suit="hearts")
    named = f"{table.seats[deal.dealer].name} named hearts for the Joker"
    for _ in range(7):
        await act(h, "pass")
    await act(h, "call:S")
    assert len(deal.declarations) == 9
    while not deal.is_over:
        await act(h)
    finished = [m.text for m in h.public_messages() if "Deal 1: over" in m.text]
    assert finished and named in finished[0], finished


async def test_an_adversary_of_a_lone_hand_chooses_to_defend_alone_or_not(interactions):
    h = interactions
    table = await start_four(h, preset="somerset", defend_alone=True)
    deal = table.match.deal
    await act(h, "order:alone")
    await until(h, DEFEND_ALONE)
    adversary = table.seats[deal.to_act].name
    hand = await open_hand(h, h.member_at(deal.to_act))
    assert labels(hand) == {"Defend alone", "Do not defend alone"}
    await act(h, "pass")
    assert f"{adversary} does not defend alone" in h.table_message().text


# Discord's `<…>` markup, which a message draws as a card's picture, a time or a link.
MARKUP = ("<:AS:1577678516789444608>", "<a:x:157767851678944460>", "<t:0:R>", "</table start:1>")


async def test_names_written_as_discord_markup_read_as_typed(interactions):
    h = interactions
    world = h.world
    channel = f"<#{world.channel.id}>"
    names = [*MARKUP[:3], f"{MARKUP[3]} {channel} <id:customize>"]
    members = [world.add_member(world.guild, name) for name in names]
    assert (await h.command(members[0], "table create", preset="modern")).ephemeral
    for member in members[1:]:
        assert (await h.command(member, "table join")).ephemeral
    assert (await h.command(members[0], "table start", keep_seats=True)).ephemeral
    table = h.table()
    await until(h, PLAY)
    await act(h)  # a card on the table: the trick line names its player
    hand = (await h.command(h.member_at((table.match.to_act + 1) % 4), "hand")).text
    assert "Waiting for" in hand and "On the table" in hand
    for text in [hand, *(m.text for m in h.public_messages())]:
        shown = [form for form in (*MARKUP, channel, "<id:customize>") if form in text]
        assert not shown, text
    # The names still read as typed: what keeps them from being drawn is invisible.
    seats = h.table_message().text.replace("\u200b", "")
    assert all(name in seats for name in names), seats
