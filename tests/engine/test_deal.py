"""One deal, law by law, on fixed hands (RULES.md §4-§6; S.74-S.101, J.5-J.9, H).

Unless a test says otherwise seat 0 deals, so seat 1 is the eldest hand, seat 2 the dealer's
partner (second hand) and seat 3 the third hand.
"""

from __future__ import annotations

import copy
import random

import pytest

from bot.engine.actions import PASS
from bot.engine.cards import JOKER, SUITS, make_pack, trick_winner
from bot.engine.deal import (
    DEFEND_ALONE,
    DISCARD,
    JOKER_SUIT,
    OVER,
    PARTNER_ALONE,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
    Deal,
    partner_of,
    round_one_word,
    side_of,
)
from bot.engine.errors import IllegalAction
from bot.engine.rules import build_options
from tests.engine.helpers import FIRST, act, cards, first_legal, make_deal, play_out

# Five top hearts with the ten turned: whoever holds them marches.
STRONG = "JH JD AH KH QH"


def snapshot(deal: Deal) -> object:
    """Everything a refused action must leave as it was."""
    return copy.deepcopy(
        (
            deal.phase,
            deal.to_act,
            deal.hands,
            deal.declarations,
            deal.history,
            deal.kitty,
            deal.trump,
            deal.maker,
            deal.alone,
            deal.defender,
            deal.sitting_out,
            deal.discarded,
            deal.won,
            deal.result,
        )
    )


def refused(deal: Deal, action: str, seat: int | None = None) -> str:
    """Apply an action that must be refused; check it changed nothing; return the reason."""
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as caught:
        deal.apply(action, deal.to_act if seat is None else seat)
    assert snapshot(deal) == before
    return str(caught.value)


# -- the deal ---------------------------------------------------------------------------------


def test_j5_deal_two_then_three_from_eldest_and_turn_the_21st():
    pack = make_pack("7")
    for dealer in range(4):
        deal = Deal.from_deck(build_options(), dealer, pack)
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            assert deal.hands[seat] == pack[2 * k : 2 * k + 2] + pack[8 + 3 * k : 11 + 3 * k]
        assert deal.turn_up == pack[20]
        assert deal.kitty == pack[21:]
        assert deal.eldest == (dealer + 1) % 4
        assert deal.to_act == deal.eldest and deal.phase == ROUND_ONE


@pytest.mark.parametrize(
    "preset, joker, size",
    [
        ("somerset", False, 32),
        ("jerome", True, 33),
        ("modern", False, 24),
        ("modern", True, 25),
    ],
)
def test_shuffled_deal_deals_every_card_once(preset, joker, size):
    opts = build_options(preset, joker=joker)
    deal = Deal.shuffled(opts, 3, random.Random(7))
    every = [c for h in deal.hands for c in h] + [deal.turn_up] + deal.kitty
    assert len(every) == size
    assert sorted(every) == sorted(make_pack(opts.lowest_rank, joker=joker))
    assert all(len(h) == 5 for h in deal.hands)
    assert deal.dealt == tuple(tuple(h) for h in deal.hands)


def test_unseeded_deal_uses_a_strong_shuffle_and_deals_every_card_once():
    deal = Deal.shuffled(build_options(), 0)
    every = [c for h in deal.hands for c in h] + [deal.turn_up] + deal.kitty
    assert sorted(every) == sorted(make_pack("7"))


def test_same_seed_same_deal():
    opts = build_options()
    first = Deal.shuffled(opts, 0, random.Random(42))
    again = Deal.shuffled(opts, 0, random.Random(42))
    assert first.hands == again.hands and first.turn_up == again.turn_up


def test_seats_sides_and_words():
    assert [side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert [round_one_word(s, 0) for s in (1, 2, 3, 0)] == [
        "order up",
        "assist",
        "order up",
        "take up",
    ]


# -- round one: ordering up, assisting, taking up (S.74-S.76, J.6) ----------------------------


def test_s74_eldest_orders_up():
    deal = make_deal({1: STRONG}, "TH")
    assert deal.legal_actions() == ("pass", "order", "order:alone")
    act(deal, "order")
    assert (deal.maker, deal.trump, deal.alone) == (1, "H", None)
    # S.74: the third hand may take it from him.
    assert (deal.phase, deal.to_act, deal.legal_actions()) == (PARTNER_ALONE, 3, ("alone", "pass"))
    act(deal, "pass")
    # S.86: the dealer takes the turn-up and discards one card.
    assert (deal.phase, deal.to_act) == (DISCARD, 0)
    assert len(deal.hands[0]) == 6 and "TH" in deal.hands[0]
    discard = deal.legal_actions()[0]
    act(deal, discard)
    assert deal.discarded == discard and discard in deal.kitty and len(deal.hands[0]) == 5
    assert (deal.phase, deal.to_act, deal.sitting_out) == (PLAY, 1, ())
    assert deal.declarations == [(1, "order"), (3, "pass"), (0, discard)]
    result = play_out(deal)
    assert (result.outcome, result.maker, result.tricks, result.points) == (
        "march",
        1,
        (0, 5),
        (0, 2),
    )


def test_s75_dealers_partner_assists():
    deal = make_deal({2: STRONG}, "TH")
    act(deal, "pass", "order")
    assert deal.maker == 2
    # S.75: the dealer may take it from him.
    assert (deal.phase, deal.to_act) == (PARTNER_ALONE, 0)
    act(deal, "pass")
    assert (deal.phase, deal.to_act) == (DISCARD, 0)
    act(deal, deal.legal_actions()[0])
    assert (deal.phase, deal.to_act) == (PLAY, 1)
    assert play_out(deal).points == (2, 0)


def test_s76_third_hand_orders_up():
    deal = make_deal({3: STRONG}, "TH")
    act(deal, "pass", "pass", "order")
    # The eldest, his partner, has passed at this trump: no choice to go alone for him.
    assert (deal.maker, deal.phase, deal.to_act) == (3, DISCARD, 0)
    act(deal, deal.legal_actions()[0])
    assert play_out(deal).points == (0, 2)


def test_s76_dealer_takes_up():
    deal = make_deal({0: STRONG}, "TH")
    act(deal, "pass", "pass", "pass", "order")
    assert (deal.maker, deal.trump, deal.phase, deal.to_act) == (0, "H", DISCARD, 0)
    assert deal.legal_actions() == tuple(cards(STRONG))  # anything but the turn-up (S.88)
    act(deal, "QH")
    assert deal.hands[0] == cards("JH JD AH KH TH")
    assert play_out(deal).points == (2, 0)


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("position", range(4))
def test_round_one_ordering_from_each_seat(dealer, position):
    """Position 0 is the eldest, 3 the dealer; only the eldest's and the dealer's partner's
    partners (the third hand and the dealer) have not spoken and may take it alone."""
    maker = (dealer + 1 + position) % 4
    deal = make_deal({maker: STRONG}, "TH", dealer=dealer)
    act(deal, *["pass"] * position, "order")
    assert deal.maker == maker and deal.trump == "H"
    assert [s for s, _ in deal.declarations] == [(dealer + 1 + k) % 4 for k in range(position + 1)]
    if position in (0, 1):
        assert (deal.phase, deal.to_act) == (PARTNER_ALONE, partner_of(maker))
        act(deal, "pass")
    assert (deal.phase, deal.to_act) == (DISCARD, dealer)
    act(deal, deal.legal_actions()[0])
    assert (deal.phase, deal.to_act) == (PLAY, (dealer + 1) % 4)
    result = play_out(deal)
    assert result.outcome == "march" and result.maker == maker and result.dealer == dealer
    assert result.points[side_of(maker)] == 2 and result.points[1 - side_of(maker)] == 0


# -- alone (S.93-S.101, J.6-J.8) --------------------------------------------------------------


def test_s74_eldest_alone():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order:alone")
    assert (deal.alone, deal.phase, deal.to_act) == (1, PARTNER_ALONE, 3)
    act(deal, "pass")
    assert deal.alone == 1 and deal.sitting_out == (3,)
    act(deal, deal.legal_actions()[0])  # the dealer, an adversary, still discards
    assert (deal.phase, deal.to_act, deal.active) == (PLAY, 1, (0, 1, 2))
    result = play_out(deal)
    assert (result.alone, result.outcome, result.points) == (1, "march", (0, 4))


def test_s101_lone_partner_sits_out():
    """The dealer's partner assists alone: the dealer lays his hand down, takes no turn-up
    and makes no discard, and plays no card."""
    deal = make_deal({2: STRONG}, "TH")
    dealer_hand = list(deal.hands[0])
    act(deal, "pass", "order:alone")
    assert (deal.phase, deal.to_act) == (PARTNER_ALONE, 0)
    act(deal, "pass")
    assert deal.sitting_out == (0,)
    assert deal.phase == PLAY and deal.to_act == 1  # no discard
    assert deal.hands[0] == dealer_hand and deal.discarded is None
    play_out(deal)
    assert all(seat != 0 for _, trick in deal.tricks for seat, _ in trick)
    assert all(len(trick) == 3 for _, trick in deal.tricks)
    assert deal.hands[0] == dealer_hand
    assert deal.result.points == (4, 0)


def test_s76_third_hand_alone_and_j9_first_active_left_of_dealer_leads():
    deal = make_deal({3: STRONG}, "TH")
    act(deal, "pass", "pass", "order:alone")
    assert deal.phase == DISCARD  # no partner phase: the eldest has passed
    act(deal, deal.legal_actions()[0])
    # J.9: the eldest sits out, so the dealer's partner is the first player on the left.
    assert deal.sitting_out == (1,)
    assert (deal.phase, deal.to_act) == (PLAY, 2)


def test_j9_first_active_left_of_dealer_leads():
    for dealer in range(4):
        third = (dealer + 3) % 4
        deal = make_deal({third: STRONG}, "TH", dealer=dealer)
        act(deal, "pass", "pass", "order:alone")
        act(deal, deal.legal_actions()[0])
        assert deal.to_act == (dealer + 2) % 4
        assert deal.tricks == [] and play_out(deal).points[side_of(third)] == 4
        assert deal.tricks[0][1][0][0] == (dealer + 2) % 4


def test_s76_dealer_takes_it_up_alone():
    deal = make_deal({0: STRONG}, "TH")
    act(deal, "pass", "pass", "pass", "order:alone")
    assert (deal.alone, deal.sitting_out, deal.phase) == (0, (2,), DISCARD)
    act(deal, "QH")
    assert deal.to_act == 1
    assert play_out(deal).points == (4, 0)


def test_s94_partner_takes_it_alone():
    deal = make_deal({3: STRONG}, "TH")
    act(deal, "order")  # the eldest orders up
    act(deal, "alone")  # the third hand: "I take it from you"
    assert (deal.maker, deal.alone, deal.sitting_out) == (1, 3, (1,))
    assert deal.declarations == [(1, "order"), (3, "alone")]
    assert deal.phase == DISCARD  # the dealer is an adversary and discards as usual
    act(deal, deal.legal_actions()[0])
    assert deal.to_act == 2  # the eldest sits out
    result = play_out(deal)
    assert (result.maker, result.alone, result.points) == (1, 3, (0, 4))


def test_s94_partner_takes_it_from_a_lone_player():
    deal = make_deal({3: STRONG}, "TH")
    act(deal, "order:alone", "alone")
    assert (deal.alone, deal.sitting_out) == (3, (1,))


def test_s75_s96_dealer_takes_it_alone_from_assisting_partner_before_discarding():
    deal = make_deal({0: STRONG}, "TH")
    act(deal, "pass", "order")
    assert (deal.phase, deal.to_act) == (PARTNER_ALONE, 0)
    act(deal, "alone")
    # S.96: alone is said before the discard is quitted.
    assert (deal.alone, deal.maker, deal.sitting_out, deal.phase) == (0, 2, (2,), DISCARD)
    act(deal, "QH")
    assert play_out(deal).points == (4, 0)


@pytest.mark.parametrize("position", [2, 3])
def test_s93_no_partner_alone_when_partner_has_passed(position):
    """The third hand or the dealer orders: his partner passed at this trump (S.93, S.99, J.7)."""
    maker = (1 + position) % 4
    deal = make_deal({maker: STRONG}, "TH")
    act(deal, *["pass"] * position, "order")
    assert deal.phase == DISCARD
    assert "alone" not in deal.legal_actions()
    assert refused(deal, "alone", partner_of(maker)) == "it is not your turn"


def test_j7_no_lone_hand_at_a_trump_passed():
    """J.7: the eldest passed the turn-up; his partner orders it up; the eldest may not take it."""
    deal = make_deal({3: STRONG}, "TH")
    act(deal, "pass", "pass", "order")
    assert deal.phase == DISCARD and deal.to_act == 0
    assert refused(deal, "alone", 1) == "it is not your turn"


def test_modern_partner_alone_off():
    deal = make_deal({3: STRONG}, "TH", preset="modern")
    act(deal, "order")
    assert (deal.phase, deal.to_act) == (DISCARD, 0)
    assert refused(deal, "alone", 3) == "it is not your turn"
    deal = make_deal({0: STRONG}, "TH", preset="modern")
    act(deal, "pass", "order")
    assert deal.phase == DISCARD and deal.alone is None
    assert "alone" not in deal.legal_actions()


def test_s98_j8_one_declaration_only():
    """Alone is part of the declaration: the maker cannot add it afterwards, nor can a player
    who assisted (J.8)."""
    deal = make_deal({1: STRONG}, "TH", preset="modern")
    act(deal, "order")
    assert refused(deal, "alone", 1) == "it is not your turn"
    deal = make_deal({2: STRONG}, "TH")
    act(deal, "pass", "order", "pass")
    assert deal.phase == DISCARD
    assert refused(deal, "alone", 2) == "it is not your turn"
    assert refused(deal, "alone").startswith("you cannot take it alone from your partner now")


def test_s95_no_lone_hand_for_those_ordered_up():
    """The eldest orders up: the dealer and his partner are ordered up and never get alone."""
    deal = make_deal({1: STRONG}, "TH", defend_alone=False)
    act(deal, "order", "pass")
    while not deal.is_over:
        if side_of(deal.to_act) == 0:
            assert not {"alone", "order:alone", "defend"} & set(deal.legal_actions())
        act(deal, first_legal(deal))


def test_round_one_refuses_what_is_not_a_round_one_declaration():
    """Each refusal says in words what was tried and what the first round allows the seat,
    never the action's code."""
    deal = make_deal({1: STRONG}, "TH")
    tried = {
        "call:S": "spades cannot be named now",
        "call:S:alone": "spades cannot be named now",
        "alone": "you cannot take it alone from your partner now",
        "defend": "there is no lone hand to defend against now",
        "JH": "no card can be played now",
        "order up": "that cannot be done now",
    }
    for action, head in tried.items():
        reason = refused(deal, action)
        assert reason.startswith(head + ": in the first round you pass or order up"), reason
        assert "call:" not in reason and "'" not in reason
    act(deal, "pass")  # the dealer's partner assists where the eldest orders up
    assert "you pass or assist the turn-up" in refused(deal, "call:S")


def test_refusals_never_show_an_action_code():
    """In every phase, an action that is not open is refused in words: no `call:`, no
    `order:alone`, no code in quotes."""
    codes = ("pass", "order", "order:alone", "alone", "defend", "call:S", "call:D:alone", "JH")
    deals = []
    deal = make_deal({1: STRONG}, "TH")
    deals.append(copy.deepcopy(deal))  # round one
    act(deal, "pass", "pass", "pass", "pass")
    deals.append(copy.deepcopy(deal))  # round two
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order", "pass")
    deals.append(copy.deepcopy(deal))  # the discard
    act(deal, first_legal(deal))
    deals.append(copy.deepcopy(deal))  # the play
    deals.append(make_deal({}, "BJ", joker=True))  # the Joker's suit
    for deal in deals:
        for action in codes:
            if action in deal.legal_actions():
                continue
            reason = refused(deal, action)
            assert "call:" not in reason and ":alone" not in reason, reason
            assert f"'{action}'" not in reason and f'"{action}"' not in reason, reason


def test_partner_alone_refuses_other_actions():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order")
    reason = refused(deal, "order")
    assert "alone" in reason and "pass" in reason


# -- the discard (S.86-S.88) ------------------------------------------------------------------


def test_s88_turn_up_cannot_be_discarded():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order", "pass")
    assert "TH" in deal.hands[0] and "TH" not in deal.legal_actions()
    assert refused(deal, "TH") == "the turn-up cannot be discarded (S.88)"
    assert refused(deal, "10h") == "the turn-up cannot be discarded (S.88)"


@pytest.mark.parametrize("preset", ["jerome", "modern"])
def test_turn_up_may_be_discarded_in_jerome_and_modern(preset):
    deal = make_deal({1: STRONG}, "TH", preset=preset)
    act(deal, "order")
    if deal.phase == PARTNER_ALONE:
        act(deal, "pass")
    assert "TH" in deal.legal_actions()
    act(deal, "TH")
    assert deal.discarded == "TH" and "TH" not in deal.hands[0] and "TH" in deal.kitty


def test_discard_must_be_a_card_held():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order", "pass")
    assert refused(deal, "JH") == "you do not hold that card"
    assert refused(deal, "pass") == "you cannot pass now: you discard a card now"
    assert refused(deal, deal.hands[0][0], seat=1) == "it is not your turn"


def test_discard_accepts_any_spelling_of_the_card():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order", "pass")
    held = deal.hands[0][0]
    act(deal, held.lower())
    assert deal.discarded == held


# -- round two (S.77, S.78, J.6, J.7) ---------------------------------------------------------


def _turn_down(deal: Deal) -> None:
    act(deal, "pass", "pass", "pass", "pass")
    assert (deal.phase, deal.to_act) == (ROUND_TWO, deal.eldest)


def test_s77_turned_down_then_round_two_from_the_eldest():
    deal = make_deal({1: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    legal = deal.legal_actions()
    assert legal[0] == "pass"
    assert set(legal[1:]) == {f"call:{s}{a}" for s in "SDC" for a in ("", ":alone")}
    assert deal.public_view().turned_down


@pytest.mark.parametrize("position", range(4))
def test_round_two_naming_by_each_seat(position):
    maker = (1 + position) % 4
    deal = make_deal({maker: "JS JC AS KS QS"}, "TH")
    dealer_hand = list(deal.hands[0])
    _turn_down(deal)
    act(deal, *["pass"] * position, "call:S")
    assert (deal.maker, deal.trump, deal.alone) == (maker, "S", None)
    if position in (0, 1):
        # The partner has not spoken in round two: he may take it alone (J.6).
        assert (deal.phase, deal.to_act) == (PARTNER_ALONE, partner_of(maker))
        act(deal, "pass")
    # No discard in round two: the turn-up stays turned down.
    assert (deal.phase, deal.to_act) == (PLAY, 1)
    assert deal.hands[0] == dealer_hand and deal.discarded is None
    result = play_out(deal)
    assert result.outcome == "march" and result.trump == "S"
    assert result.points[side_of(maker)] == 2


def test_round_two_alone():
    deal = make_deal({1: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    act(deal, "call:S:alone")
    assert deal.declarations[-1] == (1, "call:S:alone")
    act(deal, "pass")  # the third hand leaves it to him
    assert (deal.alone, deal.sitting_out, deal.phase, deal.to_act) == (1, (3,), PLAY, 1)
    assert play_out(deal).points == (0, 4)


def test_j6_note_alone_in_round_two_after_passing_round_one():
    """J.6 NOTE: the right to play alone is the same the second time round."""
    deal = make_deal({3: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    act(deal, "pass", "pass", "call:S:alone")
    assert deal.alone == 3 and deal.phase == PLAY and deal.to_act == 2


def test_j6_partner_takes_it_alone_in_round_two():
    deal = make_deal({3: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    act(deal, "call:S", "alone")
    assert (deal.maker, deal.alone, deal.sitting_out) == (1, 3, (1,))
    assert play_out(deal).points == (0, 4)


def test_j7_no_lone_hand_after_passing_in_round_two():
    deal = make_deal({3: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    act(deal, "pass", "pass", "call:S")
    # The eldest passed a second time: he may not take it alone; play begins.
    assert deal.phase == PLAY and deal.alone is None
    assert all(a != "alone" for _, a in deal.declarations)


def test_s78_naming_turned_down_suit_is_a_pass():
    deal = make_deal({1: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    assert "call:H" not in deal.legal_actions()
    act(deal, "call:H")
    assert (deal.maker, deal.trump, deal.to_act) == (None, None, 2)
    assert deal.declarations[-1] == (1, "pass")
    act(deal, "call:H:alone")
    assert (deal.maker, deal.to_act, deal.declarations[-1]) == (None, 3, (2, "pass"))


def test_round_two_refuses_ordering_the_turn_up():
    deal = make_deal({1: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    assert refused(deal, "order") == (
        "the turn-up cannot be ordered now: hearts was turned down, so name another suit, "
        "alone or not, or pass"
    )
    assert "name another suit" in refused(deal, "call:X")


def test_round_two_takes_a_suit_by_name():
    deal = make_deal({1: "JS JC AS KS QS"}, "TH")
    _turn_down(deal)
    act(deal, "spades")
    assert (deal.maker, deal.trump) == (1, "S")


def test_s77_all_pass_twice_the_deal_is_at_an_end():
    deal = make_deal({}, "TH", dealer=2)
    act(deal, *["pass"] * 8)
    assert deal.is_over and deal.phase == OVER and deal.to_act is None
    assert deal.legal_actions() == ()
    result = deal.result
    assert (result.outcome, result.maker, result.trump, result.points) == (
        "passed",
        None,
        None,
        (0, 0),
    )
    assert result.dealer == 2 and result.scoring_side is None
    assert refused(deal, "pass", seat=3) == "this deal is over"
    assert refused(deal, "pass", seat=None) == "this deal is over"


# -- stick the dealer -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset, overrides", [("modern", {}), ("somerset", {"stick_the_dealer": True})]
)
def test_stick_the_dealer(preset, overrides):
    deal = make_deal({0: "JS JC AS KS QS"}, "TH", preset=preset, **overrides)
    _turn_down(deal)
    act(deal, "pass", "pass", "pass")  # the others may pass
    assert deal.to_act == 0
    legal = deal.legal_actions()
    assert "pass" not in legal and len(legal) == 6
    assert refused(deal, "pass") == (
        "the dealer cannot pass now: with stick the dealer, the dealer must name a trump"
    )
    assert "must name another suit" in refused(deal, "call:H")
    act(deal, "call:S")
    assert (deal.maker, deal.trump, deal.phase) == (0, "S", PLAY)


def test_stick_the_dealer_off_lets_the_dealer_pass():
    deal = make_deal({}, "TH")
    _turn_down(deal)
    act(deal, "pass", "pass", "pass")
    assert "pass" in deal.legal_actions()


# -- defend alone ------------------------------------------------------------------------------


# The eldest goes alone on nothing; the dealer holds every high heart.
WEAK = "9S TS 9C TC QS"


@pytest.mark.parametrize("preset", ["somerset", "modern"])
def test_defend_alone(preset):
    deal = make_deal({1: WEAK, 0: STRONG}, "TH", preset=preset, defend_alone=True)
    act(deal, "order:alone")
    if deal.phase == PARTNER_ALONE:
        act(deal, "pass")
    act(deal, "QH")  # the dealer discards first
    # The adversaries speak in turn from the dealer's left: seat 2, then the dealer.
    assert (deal.phase, deal.to_act, deal.legal_actions()) == (DEFEND_ALONE, 2, ("defend", "pass"))
    act(deal, "pass")
    assert (deal.phase, deal.to_act) == (DEFEND_ALONE, 0)
    act(deal, "defend")
    assert deal.defender == 0 and set(deal.sitting_out) == {2, 3}
    assert deal.declarations[-2:] == [(2, "pass"), (0, "defend")]
    assert (deal.phase, deal.to_act, deal.active) == (PLAY, 1, (0, 1))
    result = play_out(deal)
    assert all(len(trick) == 2 for _, trick in deal.tricks)
    assert (result.outcome, result.defender, result.points) == ("euchred", 0, (4, 0))


def test_defend_alone_first_adversary_defends():
    deal = make_deal({1: WEAK, 2: STRONG}, "TH", defend_alone=True)
    act(deal, "order:alone", "pass", FIRST)
    act(deal, "defend")
    assert deal.defender == 2 and set(deal.sitting_out) == {0, 3}
    assert deal.phase == PLAY and deal.to_act == 1


def test_defend_alone_both_pass():
    deal = make_deal({1: WEAK, 0: STRONG}, "TH", preset="modern", defend_alone=True)
    act(deal, "order:alone", "QH", "pass", "pass")
    assert (deal.phase, deal.defender, deal.sitting_out) == (PLAY, None, (3,))
    # A lone hand euchred with nobody defending alone: modern gives the adversaries 2.
    assert play_out(deal).points == (2, 0)


def test_defend_alone_only_against_a_lone_hand_and_only_when_on():
    deal = make_deal({1: STRONG}, "TH", defend_alone=True)
    act(deal, "order", "pass", FIRST)
    assert deal.phase == PLAY
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order:alone", "pass", FIRST)
    assert deal.phase == PLAY


def test_defend_alone_refuses_other_actions():
    deal = make_deal({1: WEAK, 0: STRONG}, "TH", defend_alone=True)
    act(deal, "order:alone", "pass", "QH")
    assert "defend alone" in refused(deal, "alone")


# -- who leads ---------------------------------------------------------------------------------


def test_loner_lead_left_of_loner():
    # The third hand goes alone: left of him sits the dealer; left of the dealer, the eldest
    # sits out, so by J.9 the dealer's partner leads.
    leaders = {}
    for lead in ("left_of_dealer", "left_of_loner"):
        deal = make_deal({3: STRONG}, "TH", loner_lead=lead)
        act(deal, "pass", "pass", "order:alone")
        act(deal, deal.legal_actions()[0])
        leaders[lead] = deal.to_act
    assert leaders == {"left_of_dealer": 2, "left_of_loner": 0}


def test_loner_lead_left_of_loner_skips_seats_sitting_out():
    # The third hand alone; seat 2 defends alone, so the dealer (left of the loner) sits out,
    # and so does the eldest (the loner's partner): seat 2 leads.
    deal = make_deal({3: STRONG}, "TH", loner_lead="left_of_loner", defend_alone=True)
    act(deal, "pass", "pass", "order:alone", FIRST)
    assert (deal.phase, deal.to_act) == (DEFEND_ALONE, 2)
    act(deal, "defend")
    assert set(deal.sitting_out) == {0, 1}
    assert (deal.phase, deal.to_act) == (PLAY, 2)


def test_loner_lead_applies_only_to_lone_hands():
    deal = make_deal({3: STRONG}, "TH", loner_lead="left_of_loner")
    act(deal, "pass", "pass", "order", FIRST)
    assert deal.to_act == 1


# -- play (J.9, RULES.md §5) -------------------------------------------------------------------


def test_h_left_bower_must_follow_trump():
    # Hearts trumps; the eldest leads the right bower; seat 2 holds only the left as a trump.
    deal = make_deal({1: "JH AS KS QS 9S", 2: "JD AD KD AC KC"}, "TH")
    act(deal, "order", "pass", FIRST)
    act(deal, "JH")
    assert deal.legal_actions() == ["JD"]
    assert refused(deal, "AD") == "you must follow hearts"
    act(deal, "JD")


def test_left_bower_led_calls_for_trumps():
    deal = make_deal({1: "JD AS KS QS 9S", 2: "9H AD KD AC KC"}, "TH")
    act(deal, "order", "pass", FIRST)
    act(deal, "JD")
    assert deal.led_suit == "H"
    assert deal.legal_actions() == ["9H"]  # the diamonds do not follow a led left bower
    assert refused(deal, "AD") == "you must follow hearts"


def test_follow_suit_and_refusals_in_play():
    deal = make_deal({1: "AS KS JH 9C TC", 2: "QS 9D TD QD KD"}, "TH")
    act(deal, "order", "pass", FIRST)
    before = deal.to_act
    assert refused(deal, "QS", seat=2) == "it is not your turn"
    assert refused(deal, "QS") == "you do not hold that card"
    assert refused(deal, "order") == (
        "the turn-up cannot be ordered now: the bidding is over, so play a card"
    )
    assert deal.to_act == before
    act(deal, "AS")
    assert deal.legal_actions() == ["QS"]
    assert refused(deal, "9D") == "you must follow spades"
    act(deal, "QS")
    assert deal.trick == [(1, "AS"), (2, "QS")]


def test_void_player_may_play_any_card():
    deal = make_deal({1: "AS KS JH 9C TC", 2: "QD 9D TD JS KD"}, "TH")
    act(deal, "order", "pass", FIRST, "9C")
    assert sorted(deal.legal_actions()) == sorted(deal.hands[2])


def test_trick_winner_leads_next_and_tricks_add_to_five():
    deal = make_deal({}, "9H")
    act(deal, "order", "pass", FIRST)
    rng = random.Random(3)
    while not deal.is_over:
        act(deal, rng.choice(list(deal.legal_actions())))
    assert len(deal.tricks) == 5 and sum(deal.won) == 5
    leader = 1
    for winner, trick in deal.tricks:
        assert trick[0][0] == leader
        assert [s for s, _ in trick] == [(leader + i) % 4 for i in range(4)]
        assert trick[trick_winner([c for _, c in trick], "H")][0] == winner
        leader = winner
    assert deal.result.tricks == (deal.won[0] + deal.won[2], deal.won[1] + deal.won[3])


def test_apply_without_a_seat_acts_for_the_seat_to_act():
    deal = make_deal({1: STRONG}, "TH")
    deal.apply("order")
    assert deal.maker == 1


# -- the Joker (H, RULES.md §6) ----------------------------------------------------------------


def test_h_joker_turn_up_dealer_names_suit():
    deal = make_deal({1: "JD AD KD QD TD"}, "BJ", joker=True)
    assert (deal.phase, deal.to_act) == (JOKER_SUIT, 0)
    assert deal.legal_actions() == tuple(f"call:{s}" for s in SUITS)
    assert "dealer names the suit" in refused(deal, "pass")
    assert "dealer names the suit" in refused(deal, "order")
    assert refused(deal, "call:D", seat=1) == "it is not your turn"
    assert "alone is declared later" in refused(deal, "call:D:alone")
    act(deal, "call:D")
    # The Joker now stands for a diamond turn-up; round one begins from the eldest.
    assert (deal.turn_up_suit, deal.phase, deal.to_act) == ("D", ROUND_ONE, 1)
    act(deal, "order", "pass")
    assert deal.trump == "D" and JOKER in deal.hands[0]
    assert refused(deal, "BJ") == "the turn-up cannot be discarded (S.88)"
    act(deal, deal.legal_actions()[0])
    assert JOKER in deal.hands[0]
    # The dealer's Joker beats the eldest's right bower.
    play_out(deal)
    joker_trick = next(w for w, t in deal.tricks if any(c == JOKER for _, c in t))
    assert joker_trick == 0


def test_h_joker_turn_up_turned_down_is_the_named_suit():
    deal = make_deal({}, "BJ", joker=True)
    act(deal, "call:C", "pass", "pass", "pass", "pass")
    assert deal.phase == ROUND_TWO and "call:C" not in deal.legal_actions()
    act(deal, "call:C")
    assert deal.declarations[-1] == (1, "pass")


def test_h_joker_in_hand_is_the_highest_trump_in_play():
    deal = make_deal({1: "JH AS KS QS 9S", 2: "BJ AD KD AC KC"}, "TH", joker=True)
    act(deal, "order", "pass", FIRST, "JH")
    assert deal.legal_actions() == ["BJ"]  # the Joker is a trump and must follow
    act(deal, "BJ")
    play_out(deal)
    assert deal.tricks[0][0] == 2


# -- views: what each seat may know -----------------------------------------------------------


def _card_codes(value: object) -> set[str]:
    """Every card code anywhere in a view (hands, tricks, declarations, results)."""
    pack = set(make_pack("7", joker=True))
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in pack:
                found.add(item)
        elif isinstance(item, tuple | list):
            stack.extend(item)
        elif hasattr(item, "__dataclass_fields__"):
            stack.extend(getattr(item, f) for f in item.__dataclass_fields__)
    return found


def test_views_hold_only_what_a_seat_may_know():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order", "pass")
    discard = deal.hands[0][0]
    act(deal, discard, "JH")  # the discard, then the eldest leads
    played = {c for _, c in deal.trick}
    public = deal.public_view()
    assert public.seat is None and public.hand is None and public.discard is None
    assert public.legal == ()
    assert _card_codes(public) == {"TH"} | played
    assert (0, "discard") in public.declarations
    for seat in range(4):
        view = deal.view_for(seat)
        assert sorted(view.hand) == sorted(deal.hands[seat])
        allowed = {"TH"} | played | set(deal.hands[seat])
        if seat == 0:
            assert view.discard == discard and (0, discard) in view.declarations
            allowed.add(discard)
        else:
            assert view.discard is None and (0, "discard") in view.declarations
        assert _card_codes(view) <= allowed
        assert view.legal == (tuple(deal.legal_actions()) if seat == deal.to_act else ())
    assert deal.view_for(2).hand_sizes == (5, 4, 5, 5)


def test_view_shows_public_facts_of_the_deal():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order:alone", "pass")
    view = deal.public_view()
    assert (view.dealer, view.phase, view.to_act, view.turn_up, view.turn_up_suit) == (
        0,
        DISCARD,
        0,
        "TH",
        "H",
    )
    assert (view.trump, view.maker, view.alone, view.sitting_out) == ("H", 1, 1, (3,))
    assert view.declarations == ((1, "order:alone"), (3, "pass"))
    act(deal, deal.legal_actions()[0])
    play_out(deal)
    view = deal.public_view()
    assert view.result == deal.result and len(view.tricks) == 5
    assert view.last_trick == view.tricks[-1][1] and view.last_winner == view.tricks[-1][0]
    assert view.tricks_won == tuple(deal.won)


def test_history_is_declarations_then_cards():
    deal = make_deal({1: STRONG}, "TH")
    act(deal, "order", "pass")
    discard = deal.legal_actions()[0]
    act(deal, discard)
    play_out(deal)
    history = deal.history
    assert history[:3] == [(1, "order"), (3, "pass"), (0, discard)]
    assert len(history) == 3 + 20
    assert [c for _, c in history[3:]] == [c for _, t in deal.tricks for _, c in t]


@pytest.mark.parametrize(
    "preset, options",
    [
        ("somerset", {}),
        ("somerset", {"joker": True, "defend_alone": True}),
        ("modern", {"stick_the_dealer": True, "partner_alone": True, "defend_alone": True}),
    ],
)
def test_an_action_of_another_part_of_the_deal_is_out_of_phase(preset, options):
    """Declarations are what the bidding takes (round one, round two, the Joker's suit, a lone
    hand's choices), cards what the discard and the play take: every legal action is in phase,
    and an action of the other kind is out of it, whoever's turn. Over random deals, so every
    part of the deal is met."""
    opts = build_options(preset, **options)
    met = set()
    for seed in range(150):
        rng = random.Random(seed)
        deal = Deal.shuffled(opts, seed % 4, rng)
        while deal.phase != OVER:
            met.add(deal.phase)
            card = deal.hands[deal.to_act][0] if deal.hands[deal.to_act] else "9S"
            assert not any(deal.out_of_phase(a) for a in deal.legal_actions())
            taking_cards = deal.phase in (DISCARD, PLAY)
            assert deal.out_of_phase(PASS) is taking_cards
            assert deal.out_of_phase("call:H:alone") is taking_cards
            assert deal.out_of_phase(card) is not taking_cards
            deal.apply(rng.choice(list(deal.legal_actions())))
        assert not deal.out_of_phase(PASS) and not deal.out_of_phase("JH")  # over: the engine says
    assert {ROUND_ONE, ROUND_TWO, DISCARD, PLAY} <= met
