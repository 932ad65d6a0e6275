"""Autocomplete of /play and /discard cards and of /call suits, through real interactions."""

from __future__ import annotations

from bot.engine.cards import card_label, card_name
from bot.engine.deal import DISCARD, PLAY
from tests.interaction.helpers import act, hand_of, legal, start_four, to_act
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def values(h: InteractionHarness, member, command: str, typed: str) -> list[str]:
    return [c["value"] for c in await h.autocomplete(member, command, "card", typed)]


async def test_play_offers_only_the_members_legal_cards(interactions):
    h = interactions
    table = await start_four(h)
    # Play on until the seat to act must follow suit, so legal and held differ (any deal).
    for _ in range(300):
        if table.match.deal.phase == PLAY:
            member, seat = to_act(h)
            if set(legal(h)) != set(hand_of(h, seat)):
                break
        await act(h)
    else:
        raise AssertionError("no seat was ever held to follow suit")
    offered = await values(h, member, "play", "")
    assert set(offered) == set(legal(h)) and len(offered) == len(legal(h))
    # The others, whose turn it is not, see their own hand; an onlooker sees nothing.
    for other in range(4):
        if other != seat and h.table().match.deal.hands[other]:
            assert set(await values(h, h.member_at(other), "play", "")) == set(hand_of(h, other))
    assert await values(h, "erin", "play", "") == []


async def test_a_card_typed_as_code_symbol_short_form_or_name(interactions):
    h = interactions
    table = await start_four(h, preset="somerset")
    # A ten somewhere, for the `10h` form: a somerset deal leaves twelve cards out, so pass
    # deals out until one is held.
    for _ in range(30):
        holder = next((s for s in range(4) if any(c[0] == "T" for c in hand_of(h, s))), None)
        if holder is not None:
            break
        for _ in range(8):
            await act(h, "pass")
    else:
        raise AssertionError("no ten was dealt in thirty deals")
    member = h.member_at(holder)
    hand = hand_of(h, holder)
    ten = next(c for c in hand if c[0] == "T")
    for typed in (
        ten,
        ten.lower(),
        card_label(ten),
        f"10{ten[1].lower()}",
        card_name(ten),
        card_name(ten).upper(),
    ):
        offered = await values(h, member, "play", typed)
        assert offered == [ten], (typed, offered)
    jack_or_other = next(c for c in hand if c != ten)
    assert await values(h, member, "discard", card_label(jack_or_other)) == [jack_or_other]
    # A word of a card's name narrows to the cards that have it; nothing held, nothing offered.
    suit_word = card_name(ten).split()[-1]
    assert set(await values(h, member, "play", suit_word)) == {c for c in hand if c[1] == ten[1]}
    assert await values(h, member, "play", "eleven of cups") == []
    assert table.playing


async def test_discard_offers_the_dealers_cards_but_the_turn_up(interactions):
    h = interactions
    table = await start_four(h, preset="somerset", partner_alone=False)
    deal = table.match.deal
    await act(h, "order")
    assert deal.phase == DISCARD
    dealer, seat = to_act(h)
    offered = await values(h, dealer, "discard", "")
    assert set(offered) == set(hand_of(h, seat)) - {deal.turn_up} and len(offered) == 5


async def test_call_offers_suits_by_name(interactions):
    h = interactions
    await start_four(h)
    member, _ = to_act(h)
    names = [c["value"] for c in await h.autocomplete(member, "call", "suit", "")]
    assert sorted(names) == ["clubs", "diamonds", "hearts", "spades"]
    assert [c["value"] for c in await h.autocomplete(member, "call", "suit", "he")] == ["hearts"]
    assert await h.autocomplete(member, "call", "suit", "x") == []


async def test_no_table_no_cards(interactions):
    h = interactions
    assert await values(h, "alice", "play", "") == []
    await h.command("alice", "table create")
    assert await values(h, "alice", "play", "j") == []
