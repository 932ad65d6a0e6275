"""Bad input to a variant: each refused with a reason a player can read, changing nothing."""

from __future__ import annotations

import pytest

from bot.engine.errors import IllegalAction, OptionsError
from bot.engine.variants import VariantMatch, make_variant
from bot.engine.variants.deal import OVER
from tests.engine.variants.helpers import act_all, snapshot, variant_deal

CODES = ("bid:", "call:", "throw_up", "order:")


def refused(deal, action: str, seat: int | None, reason: str) -> str:
    before = snapshot(deal)
    with pytest.raises(IllegalAction, match=reason) as caught:
        deal.apply(action, seat)
    assert snapshot(deal) == before
    message = str(caught.value)
    assert not any(code in message for code in CODES if code not in action), message
    return message


def test_a_bid_out_of_turn_is_refused() -> None:
    deal = variant_deal("french", {})
    refused(deal, "bid:3", 2, "not your turn")


def test_a_bid_not_higher_than_the_last_is_refused() -> None:
    deal = variant_deal("french", {})
    deal.apply("bid:3", 1)
    refused(deal, "bid:3", 2, "higher than three")
    refused(deal, "bid:2", 2, "higher than three")


def test_a_bid_above_five_is_refused() -> None:
    deal = variant_deal("napoleon", {}, players=3)
    refused(deal, "bid:6", 1, "above five")


def test_a_bid_of_no_trick_is_refused() -> None:
    deal = variant_deal("napoleon", {}, players=3)
    refused(deal, "bid:0", 1, "one trick at least")


def test_a_suit_named_in_a_bid_where_the_variant_takes_none_is_refused() -> None:
    deal = variant_deal("french", {})
    refused(deal, "bid:3:H", 1, "names no suit")


def test_a_bid_without_its_suit_in_six_handed_is_refused() -> None:
    deal = variant_deal("six-handed", {})
    refused(deal, "bid:3", 1, "names its trump suit")


@pytest.mark.parametrize(
    ("name", "players", "reason"),
    [
        ("two-handed", 3, "two-handed is played by 2 players, not 3"),
        ("three-handed", 4, "by 3 players"),
        ("french", 6, "by 4 players"),
        ("six-handed", 4, "by 6 players"),
        ("napoleon", 8, "by 2 to 7 players, not 8"),
        ("napoleon", 1, "by 2 to 7 players, not 1"),
        ("set-back", 7, "by 2 to 6 players"),
    ],
)
def test_a_seat_count_the_variant_does_not_allow_is_refused(
    name: str, players: int, reason: str
) -> None:
    with pytest.raises(OptionsError, match=reason):
        make_variant(name, players)


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(OptionsError, match="unknown variant 'railroad'"):
        make_variant("railroad", 4)


def test_an_option_the_variant_has_not_is_refused() -> None:
    with pytest.raises(OptionsError, match="napoleon has no option 'declare_all'"):
        make_variant("napoleon", 4, declare_all=True)


def test_set_back_throw_up_after_the_first_lead_is_refused() -> None:
    deal = variant_deal("set-back", {1: "JH JD AH KH QH"}, players=3, turn_up="TH")
    deal.apply("order", 1)
    act_all(deal, (0, deal.legal_actions()[0]), (2, "pass"), (0, "pass"))
    deal.apply("JH", 1)  # the first lead
    refused(deal, "throw_up", 2, "only after the trump is made, before the first lead")


def test_set_back_the_maker_cannot_throw_up() -> None:
    deal = variant_deal("set-back", {1: "JH JD AH KH QH"}, players=3, turn_up="TH")
    deal.apply("order", 1)
    refused(deal, "throw_up", 0, "you put out one of your own cards first")
    deal.apply(deal.legal_actions()[0], 0)
    # The throw-ups go round the others from the eldest: seat 2, then the dealer; not the maker.
    assert deal.to_act == 2
    refused(deal, "throw_up", 1, "not your turn")


def test_napoleon_maker_playing_on_after_the_deal_has_ended_is_refused() -> None:
    deal = variant_deal("napoleon", {1: "JH JD AH KH QH"}, players=4)
    deal.apply("bid:2", 1)
    while deal.result is None and deal.phase == "bidding":
        deal.apply("pass", deal.to_act)
    deal.apply("call:H", 1)
    while deal.phase != OVER:
        deal.apply(deal.legal_actions()[0], deal.to_act)
    assert deal.result is not None and deal.result.early
    refused(deal, deal.hands[1][0], 1, "this deal is over: the bid of two is made")


def test_napoleon_maker_playing_on_in_the_match_is_refused() -> None:
    match = VariantMatch(make_variant("napoleon", 3), 0)
    match.apply("bid:2", 1)
    act_all(match, (2, "pass"), (0, "pass"), (1, "call:S"))
    deal = match.deal
    while not deal.is_over:
        match.apply(match.legal_actions()[0], match.to_act)
    assert len(match.deals) == 2  # the next deal is dealt by seat 1; seat 2 bids first
    with pytest.raises(IllegalAction, match="not your turn"):
        match.apply(match.deal.hands[1][0], 1)
    assert len(match.deals) == 2 and match.deal.history == []


def test_a_card_during_the_bidding_is_refused() -> None:
    deal = variant_deal("french", {1: "JH JD AH KH QH"})
    message = refused(deal, "JH", 1, "not open to you now")
    assert "jack of hearts" in message


def test_a_bid_during_the_play_is_refused() -> None:
    deal = variant_deal("french", {})
    act_all(deal, (1, "bid:1"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "call:S"))
    refused(deal, "bid:2", 1, "play a card")
