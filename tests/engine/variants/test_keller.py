"""RULES.md §8 (K), sentence by sentence: French euchre, Napoleon, six-handed and set-back.

Seat 0 deals unless a test says otherwise, so seat 1 is the eldest.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import POWER, make_pack
from bot.engine.variants import VariantDeal, VariantMatch, make_variant
from bot.engine.variants.deal import BIDDING, DECLARE, OVER, PLAY, THROW_UP, TRUMP
from tests.engine.variants.helpers import act_all, play_highest, variant_deal

TOP_HEARTS = "JH JD AH KH QH"

# -- French euchre --------------------------------------------------------------------------


def test_french_24_cards_four_players_in_two_partnerships_no_turn_up() -> None:
    variant = make_variant("french")
    assert variant.players == 4 and len(variant.pack) == 24
    assert variant.partners and [variant.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    deal = VariantDeal.shuffled(variant, 0, random.Random(1))
    assert deal.turn_up is None and deal.phase == BIDDING
    assert [len(h) for h in deal.hands] == [5, 5, 5, 5] and len(deal.kitty) == 4


def test_french_each_bids_once_from_the_eldest_higher_than_every_earlier_bid_or_passes() -> None:
    deal = variant_deal("french", {})
    assert deal.to_act == 1
    assert deal.legal_actions() == ("pass", "bid:1", "bid:2", "bid:3", "bid:4", "bid:5")
    deal.apply("bid:3", 1)
    assert deal.to_act == 2 and deal.legal_actions() == ("pass", "bid:4", "bid:5")
    act_all(deal, (2, "pass"), (3, "bid:4"), (0, "pass"))
    # Each has bid once: the highest bidder names the trump.
    assert deal.phase == TRUMP and deal.maker == 3 and deal.bid == 4


def test_french_a_bid_of_five_ends_the_bidding() -> None:
    deal = variant_deal("french", {})
    act_all(deal, (1, "pass"), (2, "bid:5"))
    assert deal.phase == TRUMP and deal.to_act == 2 and deal.maker == 2


def test_french_the_highest_bidder_names_trump_and_the_eldest_leads() -> None:
    deal = variant_deal("french", {})
    act_all(deal, (1, "pass"), (2, "bid:3"), (3, "pass"), (0, "pass"))
    assert deal.to_act == 2 and set(deal.legal_actions()) == {
        "call:S",
        "call:H",
        "call:D",
        "call:C",
    }
    deal.apply("call:D", 2)
    assert deal.trump == "D" and deal.phase == PLAY and deal.to_act == 1


def test_french_no_lone_hands() -> None:
    deal = variant_deal("french", {})
    assert not any("alone" in a for a in deal.legal_actions())


def _french(bid: int, maker_hand: str) -> VariantDeal:
    deal = variant_deal("french", {1: maker_hand})
    deal.apply(f"bid:{bid}", 1)
    while deal.phase == BIDDING:
        deal.apply("pass", deal.to_act)
    deal.apply("call:H", 1)
    play_highest(deal)
    return deal


def test_french_tricks_score_one_each_but_never_more_than_the_bid() -> None:
    deal = _french(3, TOP_HEARTS)
    assert deal.result is not None
    assert deal.result.tricks[1] + deal.result.tricks[3] == 5
    assert deal.result.points == (0, 3)


def test_french_a_side_that_fails_its_bid_scores_nothing_and_the_adversaries_score_the_bid() -> (
    None
):
    deal = _french(5, "JH 9S 9C TS TC")
    assert deal.result is not None
    assert deal.result.outcome == "euchred" and deal.result.points == (5, 0)


def test_french_all_pass_the_deal_passes() -> None:
    deal = variant_deal("french", {})
    act_all(deal, (1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"))
    assert deal.phase == OVER and deal.result is not None
    assert deal.result.outcome == "passed" and deal.result.points == (0, 0)


def test_french_game_is_fifteen_points() -> None:
    assert make_variant("french").game == 15
    match = _random_match("french", 4, 7)
    assert match.winner is not None and match.scores[match.winner] >= 15


# -- Napoleon -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_napoleon_two_to_seven_players_each_for_himself_five_cards_each(players: int) -> None:
    variant = make_variant("napoleon", players)
    assert not variant.partners and variant.sides == players
    deal = VariantDeal.shuffled(variant, 0, random.Random(players))
    assert [len(h) for h in deal.hands] == [5] * players


@pytest.mark.parametrize(
    ("players", "size", "lowest"),
    [(2, 24, "9"), (4, 24, "9"), (5, 32, "7"), (6, 32, "7"), (7, 36, "6")],
)
def test_napoleon_pack_by_player_count(players: int, size: int, lowest: str) -> None:
    pack = make_variant("napoleon", players).pack
    assert len(pack) == size
    assert sorted(pack) == sorted(make_pack(lowest if lowest != "6" else "7", sixes=lowest == "6"))


def test_napoleon_deals_right_to_left() -> None:
    variant = make_variant("napoleon", 5)
    deck = list(variant.pack)
    deal = VariantDeal.from_deck(variant, 0, deck)
    # The dealer's right (seat 4) gets the first two cards, then seat 3, ..., the dealer last.
    assert deal.hands[4][:2] == deck[0:2]
    assert deal.hands[3][:2] == deck[2:4]
    assert deal.hands[0][:2] == deck[8:10]
    assert deal.hands[4][2:] == deck[10:13]


def test_napoleon_each_bids_once_and_the_dealer_bids_last() -> None:
    deal = variant_deal("napoleon", {}, players=4)
    order = []
    while deal.phase == BIDDING:
        order.append(deal.to_act)
        deal.apply("pass", deal.to_act)
    assert order == [1, 2, 3, 0]


def test_napoleon_a_bid_of_five_napoleon_ends_the_bidding() -> None:
    deal = variant_deal("napoleon", {}, players=4)
    act_all(deal, (1, "bid:2"), (2, "bid:5"))
    assert deal.phase == TRUMP and deal.maker == 2


def test_napoleon_the_highest_bidder_names_trump_and_leads() -> None:
    deal = variant_deal("napoleon", {}, players=4)
    act_all(deal, (1, "bid:2"), (2, "bid:3"), (3, "pass"), (0, "pass"), (2, "call:S"))
    assert deal.trump == "S" and deal.phase == PLAY and deal.to_act == 2


def _napoleon(bid: int, maker_hand: str, players: int = 4) -> VariantDeal:
    deal = variant_deal("napoleon", {1: maker_hand}, players=players)
    deal.apply(f"bid:{bid}", 1)
    while deal.phase == BIDDING:
        deal.apply("pass", deal.to_act)
    deal.apply("call:H", 1)
    play_highest(deal)
    return deal


def test_napoleon_a_made_bid_collects_one_chip_per_trick_bid_from_each_opponent() -> None:
    deal = _napoleon(3, TOP_HEARTS)
    assert deal.result is not None
    assert deal.result.outcome == "made" and deal.result.points == (-3, 9, -3, -3)


def test_napoleon_a_made_napoleon_collects_ten_from_each_opponent() -> None:
    deal = _napoleon(5, TOP_HEARTS)
    assert deal.result is not None
    assert deal.result.points == (-10, 30, -10, -10)


def test_napoleon_a_failed_bid_pays_each_opponent_one_chip_per_trick_bid() -> None:
    deal = _napoleon(4, "JH 9S 9C TS TC")
    assert deal.result is not None
    assert deal.result.outcome == "euchred" and deal.result.points == (4, -12, 4, 4)


def test_napoleon_the_deal_ends_as_soon_as_the_bid_is_made() -> None:
    deal = _napoleon(2, TOP_HEARTS)
    assert deal.result is not None and deal.result.early
    assert len(deal.tricks) == 2 and deal.won[1] == 2
    assert all(len(h) == 3 for h in deal.hands)


def test_napoleon_the_deal_ends_as_soon_as_the_bid_can_no_longer_be_made() -> None:
    # The maker holds no trump and nothing high: after the first two tricks go elsewhere, four
    # can no longer be made.
    deal = _napoleon(4, "9S 9C TS TC QD")
    assert deal.result is not None and deal.result.early
    assert len(deal.tricks) == 2 and deal.won[1] == 0


def test_napoleon_chips_are_the_variants_points_and_sum_to_zero() -> None:
    match = _random_match("napoleon", 5, 11)
    assert match.over and len(match.deals) == 5  # each deals once
    assert sum(match.scores) == 0
    for result in match.hand_results:
        assert sum(result.points) == 0


# -- Six-handed -----------------------------------------------------------------------------


def test_six_handed_two_partnerships_of_three_seated_alternately() -> None:
    variant = make_variant("six-handed")
    assert variant.players == 6 and variant.partners
    assert [variant.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]


def test_six_handed_thirty_cards_two_sevens_removed_all_dealt_five_each() -> None:
    variant = make_variant("six-handed")
    assert len(variant.pack) == 30
    assert sorted(set(make_pack("7")) - set(variant.pack)) == ["7C", "7S"]
    deal = VariantDeal.shuffled(variant, 0, random.Random(2))
    assert [len(h) for h in deal.hands] == [5] * 6 and deal.kitty == []


def test_six_handed_bidding_as_french_but_each_bid_names_its_suit_which_becomes_trump() -> None:
    deal = variant_deal("six-handed", {})
    legal = deal.legal_actions()
    assert "bid:1:S" in legal and "bid:5:C" in legal and "bid:3" not in legal
    act_all(
        deal, (1, "bid:2:D"), (2, "bid:3:C"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass")
    )
    # No naming after the bidding: the winning bid's suit is trump, and the eldest leads.
    assert deal.maker == 2 and deal.trump == "C" and deal.bid == 3
    assert deal.phase == PLAY and deal.to_act == 1


def test_six_handed_tricks_count_at_most_the_bid_and_a_failed_side_gives_the_bid() -> None:
    made = variant_deal("six-handed", {1: TOP_HEARTS})
    made.apply("bid:2:H", 1)
    while made.phase == BIDDING:
        made.apply("pass", made.to_act)
    play_highest(made)
    assert made.result is not None and made.result.points == (0, 2)
    failed = variant_deal("six-handed", {1: "9S 9C TS TC 8D"})
    failed.apply("bid:5:H", 1)
    play_highest(failed)
    assert failed.result is not None
    assert failed.result.outcome == "euchred" and failed.result.points == (5, 0)


def test_six_handed_game_is_twenty_five_points() -> None:
    assert make_variant("six-handed").game == 25
    match = _random_match("six-handed", 6, 5)
    assert match.winner is not None and match.scores[match.winner] >= 25


# -- Set-back -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_set_back_two_or_more_players_each_for_himself_starting_at_five(players: int) -> None:
    match = VariantMatch(make_variant("set-back", players), 0, random.Random(1))
    assert match.scores == [5] * players and not match.variant.partners


def test_set_back_the_maker_is_made_by_the_turn_up_auction() -> None:
    deal = variant_deal("set-back", {1: TOP_HEARTS}, players=3, turn_up="TH")
    assert deal.legal_actions() == ("pass", "order")
    deal.apply("order", 1)
    assert deal.maker == 1 and deal.trump == "H" and deal.to_act == 0  # the dealer discards


def _set_back(maker_hand: str, others: dict[int, str], throws: dict[int, str], **options: object):
    deal = variant_deal("set-back", {1: maker_hand, **others}, players=3, turn_up="TH", **options)
    deal.apply("order", 1)
    deal.apply("TC" if "TC" in deal.hands[0] else deal.legal_actions()[0], 0)  # the discard
    if deal.phase == DECLARE:
        deal.apply(throws.pop(1, "pass"), 1)
    while deal.phase == THROW_UP:
        deal.apply(throws.get(deal.to_act, "pass"), deal.to_act)
    play_highest(deal)
    return deal


def test_set_back_a_maker_taking_three_or_four_tricks_deducts_one() -> None:
    deal = _set_back("JH JD AH 9C 9S", {0: "AC KC QC JC TC", 2: "AS KS QS JS TS"}, {})
    assert deal.result is not None and deal.won == [0, 3, 2]
    assert deal.result.points == (1, -1, 0)  # the dealer took no trick


def test_set_back_a_march_deducts_two() -> None:
    deal = _set_back(TOP_HEARTS, {}, {})
    assert deal.result is not None and deal.result.outcome == "march"
    assert deal.result.points[1] == -2


def test_set_back_a_euchred_maker_adds_two() -> None:
    deal = _set_back("JH 9C 9S 8C 8S", {0: "AC KC QC JC TC", 2: "AS KS QS JS TS"}, {})
    assert deal.result is not None and deal.result.outcome == "euchred"
    assert deal.won == [0, 1, 4]
    assert deal.result.points == (1, 2, 0)  # the dealer took no trick: one more


def test_set_back_a_player_who_takes_no_trick_adds_one() -> None:
    deal = _set_back(TOP_HEARTS, {}, {})
    assert deal.result is not None and deal.won == [0, 5, 0]
    assert deal.result.points == (1, -2, 1)


def test_set_back_no_trick_adds_nothing_to_a_player_who_threw_up_his_hand() -> None:
    deal = _set_back(TOP_HEARTS, {}, {2: "throw_up"})
    assert deal.result is not None and deal.result.thrown == (2,)
    assert deal.active == (0, 1)  # the thrown hand takes no part
    assert deal.result.points == (1, -2, 0)


def test_set_back_the_first_to_reach_zero_wins() -> None:
    match = _random_match("set-back", 2, 3)
    assert match.winner is not None and match.scores[match.winner] == 0
    assert all(score > 0 for seat, score in enumerate(match.scores) if seat != match.winner)


def test_set_back_option_declaring_all_five_and_taking_them_wins_outright() -> None:
    deal = _set_back(TOP_HEARTS, {}, {1: "declare"}, declare_all=True)
    assert deal.result is not None and deal.result.declared
    assert deal.result.points[1] == -5  # from the standing of 5 to 0


def test_set_back_option_declaring_all_five_and_failing_sets_back_by_the_whole_score() -> None:
    deal = _set_back("JH JD AH 9C 9S", {0: "AC KC QC JC TC"}, {1: "declare"}, declare_all=True)
    assert deal.result is not None and deal.result.outcome != "march"
    assert deal.result.points[1] == 5


def test_set_back_option_a_euchre_also_lets_each_adversary_deduct_two() -> None:
    deal = _set_back(
        "JH 9C 9S 8C 8S",
        {0: "AC KC QC JC TC", 2: "AS KS QS JS TS"},
        {},
        euchre_deducts=True,
    )
    assert deal.result is not None and deal.result.outcome == "euchred"
    # The dealer deducts two for the euchre and is set back one for taking no trick.
    assert deal.result.points == (-1, 2, -2)


def test_set_back_a_declarer_who_is_not_the_dealer_leads() -> None:
    deal = variant_deal("set-back", {2: TOP_HEARTS}, players=3, turn_up="TH", declare_all=True)
    act_all(deal, (1, "pass"), (2, "order"))
    act_all(deal, (0, deal.legal_actions()[0]), (2, "declare"))
    act_all(deal, (1, "pass"), (0, "pass"))
    assert deal.phase == PLAY and deal.to_act == 2


def _random_match(name: str, players: int, seed: int) -> VariantMatch:
    """A match to its end, each action the first legal one that is not a pass when there is one
    (so set-back's scores come down)."""
    match = VariantMatch(make_variant(name, players), 0, random.Random(seed))
    rng = random.Random(seed)
    while not match.over:
        legal = match.legal_actions()
        bolder = [a for a in legal if a not in ("pass", "throw_up")]
        match.apply(rng.choice(bolder or list(legal)), match.to_act)
    return match


def test_set_back_several_reaching_zero_at_once_the_nearest_the_dealers_left_wins() -> None:
    deal = variant_deal(
        "set-back",
        {1: "JH 9C 9S 8C 8S", 0: "AC KC QC JC TC", 2: "AS KS QS JS TS"},
        players=3,
        turn_up="TH",
        euchre_deducts=True,
    )
    match = VariantMatch(deal.variant, 0, deal_factory=lambda v, dealer: deal)
    match.scores = [1, 5, 2]
    match.apply("order", 1)
    match.apply("TC", 0)
    match.apply("pass", 2)
    match.apply("pass", 0)
    while not deal.is_over:
        power = POWER[deal.trump]
        match.apply(max(match.legal_actions(), key=lambda c: (power[c], c)), match.to_act)
    # The maker is euchred: the dealer deducts 2 and adds 1 for no trick, seat 2 deducts 2.
    assert match.scores == [0, 7, 0] and match.over
    assert match.winner == 2  # from the dealer's (seat 0) left: seat 1, then seat 2
