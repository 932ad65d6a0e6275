"""RULES.md §7 (H), sentence by sentence: two- and three-handed euchre.

Seat 0 deals unless a test says otherwise, so seat 1 is the non-dealer (the eldest).
"""

from __future__ import annotations

import random

import pytest

from bot.engine.errors import IllegalAction
from bot.engine.variants import VariantDeal, VariantMatch, make_variant
from bot.engine.variants.deal import DISCARD, OVER, PLAY, ROUND_ONE, ROUND_TWO
from tests.engine.variants.helpers import act_all, play_highest, snapshot, variant_deal

# Seat 1 (the non-dealer) against the dealer's aces and kings of clubs and spades.
MAKER_THREE = "JH JD AH 9C 9S"  # the bowers and ace take three; the nines lose
MAKER_MARCH = "JH JD AH KH QH"
MAKER_ONE = "JH 9C 9S 8C 8S"  # the right bower alone
DEALER = "AC AS KC KS 7D"


def test_two_handed_pack_is_32_cards_dealt_two_then_three_and_eleventh_turned_up() -> None:
    variant = make_variant("two-handed")
    assert len(variant.pack) == 32
    deck = list(variant.pack)
    deal = VariantDeal.from_deck(variant, 0, deck)
    # The non-dealer (seat 1) is dealt first: two, then the dealer two, then three each.
    assert deal.hands[1] == [deck[0], deck[1], deck[4], deck[5], deck[6]]
    assert deal.hands[0] == [deck[2], deck[3], deck[7], deck[8], deck[9]]
    assert deal.turn_up == deck[10]
    assert len(deal.kitty) == 32 - 11


def test_two_handed_non_dealer_may_order_it_up_or_pass() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TH")
    assert deal.to_act == 1 and deal.phase == ROUND_ONE
    assert set(deal.legal_actions()) == {"pass", "order"}
    deal.apply("order", 1)
    assert deal.maker == 1 and deal.trump == "H"
    assert deal.phase == DISCARD and deal.to_act == 0  # the dealer takes it up


def test_two_handed_then_the_dealer_may_take_it_up_or_pass() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TH")
    deal.apply("pass", 1)
    assert deal.to_act == 0 and set(deal.legal_actions()) == {"pass", "order"}
    deal.apply("order", 0)
    assert deal.maker == 0 and deal.phase == DISCARD
    assert "TH" in deal.hands[0]


def test_two_handed_dealer_puts_out_one_of_his_own_cards_not_the_turn_up() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TH")
    deal.apply("order", 1)
    assert "TH" not in deal.legal_actions()
    before = snapshot(deal)
    with pytest.raises(IllegalAction, match="not the turn-up"):
        deal.apply("TH", 0)
    assert snapshot(deal) == before
    deal.apply("7D", 0)
    assert deal.phase == PLAY and deal.to_act == 1 and "7D" in deal.kitty


def test_two_handed_both_pass_then_non_dealer_may_name_another_suit_and_dealer_must_play() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TC")
    act_all(deal, (1, "pass"), (0, "pass"))
    assert deal.phase == ROUND_TWO and deal.to_act == 1
    assert set(deal.legal_actions()) == {"pass", "call:S", "call:H", "call:D"}
    deal.apply("call:H", 1)
    # The dealer has no say: the play begins at once, the non-dealer leading.
    assert deal.maker == 1 and deal.trump == "H"
    assert deal.phase == PLAY and deal.to_act == 1


def test_two_handed_turned_down_suit_cannot_be_named() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TC")
    act_all(deal, (1, "pass"), (0, "pass"))
    before = snapshot(deal)
    with pytest.raises(IllegalAction, match="clubs was turned down"):
        deal.apply("call:C", 1)
    assert snapshot(deal) == before


def test_two_handed_non_dealer_passes_again_then_dealer_may_name_it() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TC")
    act_all(deal, (1, "pass"), (0, "pass"), (1, "pass"))
    assert deal.to_act == 0 and deal.phase == ROUND_TWO
    deal.apply("call:S", 0)
    assert deal.maker == 0 and deal.trump == "S" and deal.phase == PLAY


def test_two_handed_both_pass_twice_the_deal_passes() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TC")
    act_all(deal, (1, "pass"), (0, "pass"), (1, "pass"), (0, "pass"))
    assert deal.phase == OVER and deal.result is not None
    assert deal.result.outcome == "passed" and deal.result.points == (0, 0)


def test_two_handed_no_lone_hands() -> None:
    deal = variant_deal("two-handed", {1: MAKER_THREE, 0: DEALER}, turn_up="TH")
    assert not any("alone" in a for a in deal.legal_actions())
    before = snapshot(deal)
    with pytest.raises(IllegalAction):
        deal.apply("order:alone", 1)
    assert snapshot(deal) == before


def _two_handed(maker_hand: str) -> VariantDeal:
    deal = variant_deal("two-handed", {1: maker_hand, 0: DEALER}, turn_up="TH")
    act_all(deal, (1, "order"), (0, "7D"))
    play_highest(deal)
    return deal


def test_two_handed_three_or_four_tricks_score_one() -> None:
    deal = _two_handed(MAKER_THREE)
    assert deal.result is not None
    assert deal.result.tricks == (2, 3)
    assert deal.result.outcome == "made" and deal.result.points == (0, 1)


def test_two_handed_march_scores_two() -> None:
    deal = _two_handed(MAKER_MARCH)
    assert deal.result is not None
    assert deal.result.outcome == "march" and deal.result.points == (0, 2)


def test_two_handed_euchred_maker_gives_his_adversary_two() -> None:
    deal = _two_handed(MAKER_ONE)
    assert deal.result is not None
    assert deal.result.tricks == (4, 1)
    assert deal.result.outcome == "euchred" and deal.result.points == (2, 0)


def test_two_handed_game_is_five_points() -> None:
    match = VariantMatch(make_variant("two-handed"), 0, random.Random(3))
    rng = random.Random(4)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()), match.to_act)
    assert match.winner is not None
    assert match.scores[match.winner] >= 5
    # The game ended at the first deal that brought a player to five.
    totals = [0, 0]
    for result in match.hand_results[:-1]:
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        assert max(totals) < 5


def test_three_handed_fifteen_cards_dealt_five_each_and_the_next_turned_up() -> None:
    variant = make_variant("three-handed")
    deck = list(variant.pack)
    deal = VariantDeal.from_deck(variant, 0, deck)
    assert [len(h) for h in deal.hands] == [5, 5, 5]
    assert deal.turn_up == deck[15]
    assert sorted(c for h in deal.hands for c in h) == sorted(deck[:15])


def test_three_handed_the_maker_plays_against_the_other_two() -> None:
    deal = variant_deal("three-handed", {1: MAKER_MARCH}, turn_up="TH")
    act_all(deal, (1, "order"))
    assert deal.adversaries() == (0, 2)
    deal.apply(deal.legal_actions()[0], 0)
    assert deal.active == (0, 1, 2)  # all three play
    play_highest(deal)
    assert deal.result is not None
    assert deal.result.outcome == "march" and deal.result.points == (0, 2, 0)


def test_three_handed_auction_is_as_two_handed_from_the_eldest_round_to_the_dealer() -> None:
    deal = variant_deal("three-handed", {1: MAKER_THREE}, turn_up="TC")
    assert deal.to_act == 1
    act_all(deal, (1, "pass"), (2, "pass"), (0, "pass"))
    assert deal.phase == ROUND_TWO and deal.to_act == 1
    act_all(deal, (1, "pass"), (2, "pass"), (0, "pass"))
    assert deal.result is not None and deal.result.outcome == "passed"


def test_three_handed_euchred_maker_gives_each_adversary_two() -> None:
    deal = variant_deal(
        "three-handed", {1: MAKER_ONE, 0: DEALER, 2: "AD KD QD JC QS"}, turn_up="TH"
    )
    act_all(deal, (1, "order"), (0, "7D"))
    play_highest(deal)
    assert deal.result is not None
    assert deal.result.outcome == "euchred"
    assert deal.result.points == (2, 0, 2)


def test_three_handed_three_or_four_tricks_score_the_maker_one() -> None:
    deal = variant_deal(
        "three-handed", {1: MAKER_THREE, 0: DEALER, 2: "AD KD QD 8D 7C"}, turn_up="TH"
    )
    act_all(deal, (1, "order"), (0, "7D"))
    play_highest(deal)
    assert deal.result is not None
    assert deal.won[1] in (3, 4)
    assert deal.result.outcome == "made" and deal.result.points == (0, 1, 0)


def test_three_handed_each_plays_for_himself_and_game_is_five_points() -> None:
    match = VariantMatch(make_variant("three-handed"), 0, random.Random(5))
    assert len(match.scores) == 3  # a score for each player, no partnerships
    rng = random.Random(6)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()), match.to_act)
    assert match.winner is not None and match.scores[match.winner] >= 5
    totals = [0, 0, 0]
    for result in match.hand_results[:-1]:
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        assert max(totals) < 5  # the game ended at the first deal that brought anyone to five
