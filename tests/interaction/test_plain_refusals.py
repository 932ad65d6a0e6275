"""No refusal shows an internal code: every refused declaration, card and stale button, in every
phase of a deal, is answered in the game's words, through the real command tree and view store.

An action code is what the engine and the buttons pass around (`call:H:alone`, `order:alone`,
`JH`); a member must never read one, nor one quoted as Python would quote it (`'pass'`).
"""

from __future__ import annotations

import copy
import re

from bot.engine.cards import SUIT_NAMES, SUITS
from bot.engine.deal import DEFEND_ALONE, DISCARD, PARTNER_ALONE, PLAY, ROUND_ONE, ROUND_TWO
from tests.interaction.helpers import act, action_ids, hand_of, legal, open_hand, start_four, to_act
from tests.support.fake_discord import FakeMember, FakeMessage
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

_QUOTE = "['\"‘’“”]"
# An action code: a declaration's, or a card's (`JH`, `TS`, `BJ`), alone or in quotes.
CODE = re.compile(
    r"call:|order:alone|:alone"
    rf"|{_QUOTE}(?:pass|order|alone|defend|call|[2-9TJQKA][SHDC]|BJ){_QUOTE}",
    re.IGNORECASE,
)


def assert_plain(text: str) -> None:
    assert text.strip(), "an empty refusal"
    assert not CODE.search(text), f"an action code shown to a member: {text}"


async def refusal(h: InteractionHarness, member: FakeMember | str, command: str, **options) -> str:
    """Run a command that must be refused; check it is private, changes nothing and is plain."""
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    assert_plain(exchange.text)
    return exchange.text


async def refused_click(
    h: InteractionHarness, member: FakeMember, custom_id: str, hand: FakeMessage
) -> str:
    """Click a button of a hand shown earlier (as a client that has not seen it change)."""
    async with h.unchanged():
        exchange = await h.click(member, custom_id, message=hand)
    assert_plain(exchange.text)
    return exchange.text


def declarations() -> list[tuple[str, dict]]:
    """Every declaration command with every option: pass, order (alone), each suit (alone), alone."""
    found: list[tuple[str, dict]] = [("pass", {}), ("order", {}), ("order", {"alone": True})]
    for suit in SUITS:
        found += [
            ("call", {"suit": SUIT_NAMES[suit]}),
            ("call", {"suit": SUIT_NAMES[suit], "alone": True}),
        ]
    return found + [("alone", {})]


def is_open(h: InteractionHarness, command: str, options: dict) -> bool:
    """Whether a declaration command makes an action the seat to act may take now."""
    actions = set(legal(h))
    alone = options.get("alone", False)
    if command == "pass":
        return "pass" in actions
    if command == "order":
        return ("order:alone" if alone else "order") in actions
    if command == "call":
        suit = next(s for s in SUITS if SUIT_NAMES[s] == options["suit"])
        deal = h.table().match.deal
        # Naming the suit turned down is a pass (S.78): open whenever a pass is.
        if deal.phase == ROUND_TWO and suit == deal.turn_up_suit:
            return "pass" in actions
        return f"call:{suit}" + (":alone" if alone else "") in actions
    return bool({"alone", "defend"} & actions)


async def refuse_every_closed_declaration(h: InteractionHarness) -> int:
    """The seat to act tries every declaration not open to it; another seat tries them all."""
    member, seat = to_act(h)
    deal = h.table().match.deal
    other = next(s for s in range(4) if s != seat and s not in deal.sitting_out)
    count = 0
    for command, options in declarations():
        if not is_open(h, command, options):
            await refusal(h, member, command, **options)
            count += 1
        assert "your turn" in (await refusal(h, h.member_at(other), command, **options)).lower()
        count += 1
    return count


async def refuse_cards(h: InteractionHarness) -> int:
    """Cards at the wrong time or of the wrong kind: by the seat to act and by another seat."""
    member, seat = to_act(h)
    deal = h.table().match.deal
    other = next(s for s in range(4) if s != seat and s not in deal.sitting_out)
    count = 0
    for command in ("play", "discard"):
        wanted = (deal.phase == PLAY and command == "play") or (
            deal.phase == DISCARD and command == "discard"
        )
        if not wanted:
            await refusal(h, member, command, card=hand_of(h, seat)[0])
            count += 1
        # A card of another hand: not held.
        await refusal(h, member, command, card=hand_of(h, other)[0])
        await refusal(h, h.member_at(other), command, card=hand_of(h, other)[0])
        count += 2
    return count


async def test_no_refusal_in_any_phase_shows_an_action_code(interactions):
    h = interactions
    table = await start_four(h, preset="somerset", defend_alone=True)
    deal = table.match.deal
    refusals = 0

    # Round one. The hand shown now keeps its ordering buttons for later.
    assert deal.phase == ROUND_ONE
    eldest, _ = to_act(h)
    first_hand = copy.deepcopy(await open_hand(h, eldest))  # as first shown, never edited
    ordering = {a: cid for a, cid in action_ids(first_hand).items() if a.startswith("order")}
    assert set(ordering) == {"order", "order:alone"}
    refusals += await refuse_every_closed_declaration(h)
    refusals += await refuse_cards(h)
    await refusal(h, "erin", "pass")
    await refusal(h, "erin", "hand")

    # Round two: the old hand's ordering buttons reach the rules, which refuse them in words.
    for _ in range(4):
        await act(h, "pass")
    assert deal.phase == ROUND_TWO
    for code, custom_id in ordering.items():
        text = await refused_click(h, eldest, custom_id, first_hand)
        assert "turn-up cannot be ordered now" in text, (code, text)
    member, seat = to_act(h)
    second_hand = copy.deepcopy(await open_hand(h, member))
    naming = {a: cid for a, cid in action_ids(second_hand).items() if a.startswith("call:")}
    refusals += await refuse_every_closed_declaration(h)
    refusals += await refuse_cards(h)

    # A suit named alone: the partner may take it alone, then the adversaries defend alone.
    suit = next(a for a in legal(h) if a.startswith("call:") and a.endswith(":alone"))
    await act(h, suit)
    assert deal.phase == PARTNER_ALONE
    for custom_id in naming.values():
        assert "not your turn" in await refused_click(h, member, custom_id, second_hand)
    refusals += await refuse_every_closed_declaration(h)
    refusals += await refuse_cards(h)
    await act(h, "pass")
    assert deal.phase == DEFEND_ALONE
    refusals += await refuse_every_closed_declaration(h)
    refusals += await refuse_cards(h)
    while deal.phase == DEFEND_ALONE:
        await act(h, "pass")

    # The play: declarations, the old hand's buttons, and cards not held or not following.
    assert deal.phase == PLAY
    refusals += await refuse_every_closed_declaration(h)
    refusals += await refuse_cards(h)
    if deal.to_act == seat:
        for custom_id in naming.values():
            assert "bidding is over" in await refused_click(h, member, custom_id, second_hand)
    await act(h, legal(h)[0])  # a lead, so the next seat must follow
    player, at = to_act(h)
    not_following = [c for c in hand_of(h, at) if c not in legal(h)]
    for card in not_following:
        assert "must follow" in await refusal(h, player, "play", card=card)
    refusals += len(not_following)

    # The next deal: the dealer discards after the turn-up is ordered.
    number = len(table.match.deals)
    while table.playing and len(table.match.deals) == number:
        await act(h)
    deal = table.match.deal
    for custom_id in ordering.values():
        assert "earlier deal" in await refused_click(h, eldest, custom_id, first_hand)
    await act(h, "order")
    while deal.phase == PARTNER_ALONE:
        await act(h, "pass")
    assert deal.phase == DISCARD
    refusals += await refuse_every_closed_declaration(h)
    refusals += await refuse_cards(h)
    dealer = h.member_at(deal.dealer)
    assert "turn-up cannot be discarded" in await refusal(h, dealer, "discard", card=deal.turn_up)
    assert refusals > 100


async def test_stick_the_dealer_refusals_are_plain(interactions):
    h = interactions
    table = await start_four(h)  # modern: stick the dealer
    deal = table.match.deal
    for _ in range(7):
        await act(h, "pass")
    dealer, seat = to_act(h)
    assert seat == deal.dealer
    text = await refusal(h, dealer, "pass")
    assert "the dealer cannot pass now: with stick the dealer" in text.lower()
    down = SUIT_NAMES[deal.turn_up_suit]
    text = await refusal(h, dealer, "call", suit=down)
    assert f"{down} was turned down" in text.lower()
    for alone in (False, True):
        text = await refusal(h, dealer, "order", alone=alone)
        assert "the dealer must name another suit" in text


async def test_a_bid_or_a_discard_during_the_bidding_is_answered_for_what_it_is(interactions):
    """/bid belongs to the games that bid tricks, and /discard to the dealer once trump is
    made: at a four-handed table in the bidding each says so, not "no card is played"."""
    h = interactions
    await start_four(h)
    member, seat = to_act(h)
    card = hand_of(h, seat)[0]
    for who in (member, h.member_at((seat + 1) % 4)):
        text = (await refusal(h, who, "bid", tricks=3)).lower()
        assert "/order" in text and "no card is played" not in text
        text = (await refusal(h, who, "discard", card=card)).lower()
        assert "no card is discarded until trump is made" in text and "played" not in text
