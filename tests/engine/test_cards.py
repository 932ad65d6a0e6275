"""Cards, packs, parsing and the order of trumps (RULES.md §2, S.8, J.1-J.3, H)."""

from __future__ import annotations

import pytest

from bot.engine import cards
from bot.engine.cards import (
    JOKER,
    card_label,
    card_name,
    cut_value,
    effective_suit,
    follow_suit,
    is_trump,
    make_pack,
    parse_card,
    parse_suit,
    sort_hand,
    trick_power,
    trick_winner,
)
from bot.engine.errors import CardError, EuchreError
from tests.engine.helpers import cards as hand

# -- packs ------------------------------------------------------------------------------------


def test_j1_pack_of_thirty_two_cards_ace_to_seven():
    pack = make_pack("7")
    assert len(pack) == len(set(pack)) == 32
    assert {c[0] for c in pack} == set("AKQJT987")
    assert {c[1] for c in pack} == set("SHDC")


def test_modern_pack_of_twenty_four_cards_ace_to_nine():
    pack = make_pack("9")
    assert len(pack) == len(set(pack)) == 24
    assert {c[0] for c in pack} == set("AKQJT9")


@pytest.mark.parametrize("lowest, size", [("7", 33), ("9", 25)])
def test_h_joker_option_adds_one_joker(lowest, size):
    pack = make_pack(lowest, joker=True)
    assert len(pack) == len(set(pack)) == size
    assert pack.count(JOKER) == 1
    assert JOKER not in make_pack(lowest)


def test_unknown_lowest_rank_is_a_card_error():
    with pytest.raises(CardError):
        make_pack("5")


# -- parsing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, card",
    [
        ("JH", "JH"),
        ("jh", "JH"),
        (" Jh ", "JH"),
        ("TD", "TD"),
        ("td", "TD"),
        ("10D", "TD"),
        ("10d", "TD"),
        ("10♦", "TD"),
        ("J♥", "JH"),
        ("j♥", "JH"),
        ("A♠", "AS"),
        ("9♣", "9C"),
        ("jack of hearts", "JH"),
        ("Jack of Hearts", "JH"),
        ("ten of diamonds", "TD"),
        ("10 of diamonds", "TD"),
        ("knave of spades", "JS"),
        ("queen of clubs", "QC"),
        ("BJ", JOKER),
        ("bj", JOKER),
        ("joker", JOKER),
        ("Joker", JOKER),
    ],
)
def test_parse_card_codes_symbols_and_names(text, card):
    assert parse_card(text) == card


def test_an_unknown_card_or_suit_is_quoted_briefly_however_long():
    for parse, long in ((parse_card, "x" * 2100), (parse_suit, "purple" * 400)):
        with pytest.raises(CardError) as caught:
            parse(long)
        assert len(str(caught.value)) < 150 and "…”" in str(caught.value)


@pytest.mark.parametrize(
    "text", ["", "ZZ", "11H", "1D", "JX", "JHH", "jack of stars", "queen", "H"]
)
def test_parse_card_unknown_is_a_clear_card_error(text):
    with pytest.raises(CardError) as caught:
        parse_card(text)
    message = str(caught.value)
    assert "unknown card" in message and f"“{text}”" in message
    # Every engine error can be shown to a player; a CardError is also a ValueError.
    assert isinstance(caught.value, EuchreError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    "text, suit",
    [
        ("h", "H"),
        ("H", "H"),
        ("♥", "H"),
        ("hearts", "H"),
        ("Spades", "S"),
        ("diamond", "D"),
        ("♣", "C"),
    ],
)
def test_parse_suit(text, suit):
    assert parse_suit(text) == suit


def test_parse_suit_unknown_is_a_card_error():
    with pytest.raises(CardError, match="unknown suit"):
        parse_suit("stars")


def test_every_card_round_trips_through_its_name_and_label():
    for card in make_pack("7", joker=True):
        assert parse_card(card) == card
        assert parse_card(card.lower()) == card
        assert parse_card(card_name(card)) == card
        assert parse_card(card_label(card)) == card


def test_card_names_and_labels():
    assert card_name("JH") == "jack of hearts"
    assert card_name("TD") == "ten of diamonds"
    assert card_name(JOKER) == "Joker"
    assert card_label("TD") == "10♦"
    assert card_label("JH") == "J♥"


# -- the order of trumps ----------------------------------------------------------------------


def _power_order(trump, pack):
    trumps = [c for c in pack if is_trump(c, trump)]
    return sorted(trumps, key=lambda c: -trick_power(c, trump, trump))


@pytest.mark.parametrize(
    "trump, order",
    [
        ("H", ["JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H"]),
        ("D", ["JD", "JH", "AD", "KD", "QD", "TD", "9D", "8D", "7D"]),
        ("S", ["JS", "JC", "AS", "KS", "QS", "TS", "9S", "8S", "7S"]),
        ("C", ["JC", "JS", "AC", "KC", "QC", "TC", "9C", "8C", "7C"]),
    ],
)
def test_j2_s8_trump_order_right_left_then_ace_to_seven(trump, order):
    assert _power_order(trump, make_pack("7")) == order


def test_h_joker_is_highest_trump():
    for trump in "SHDC":
        order = _power_order(trump, make_pack("7", joker=True))
        assert order[0] == JOKER
        assert order[1] == "J" + trump
        assert len(order) == 10
        # The Joker wins a trick against both bowers whoever leads.
        right, left = "J" + trump, "J" + cards.SAME_COLOUR[trump]
        assert trick_winner([right, JOKER, left], trump) == 1
        assert trick_winner([JOKER, right, left], trump) == 0


def test_h_joker_is_a_trump_for_following_and_leading():
    assert effective_suit(JOKER, "D") == "D"
    assert is_trump(JOKER, "C")
    # A trump led: the Joker follows it.
    assert follow_suit(hand("BJ AS KS"), "D", "D") == [JOKER]
    # The Joker led calls for trumps.
    assert follow_suit(hand("9D AS KS"), effective_suit(JOKER, "D"), "D") == ["9D"]


def test_j2_suit_of_same_colour_loses_its_jack():
    """The other suit of trump's colour is A K Q 10 9 8 7: its jack is the left bower."""
    diamonds = [c for c in make_pack("7") if effective_suit(c, "H") == "D"]
    assert sorted(diamonds, key=lambda c: -trick_power(c, "H", "D")) == [
        "AD",
        "KD",
        "QD",
        "TD",
        "9D",
        "8D",
        "7D",
    ]


def test_j2_other_two_suits_keep_their_jack_between_queen_and_ten():
    spades = [c for c in make_pack("7") if effective_suit(c, "H") == "S"]
    assert sorted(spades, key=lambda c: -trick_power(c, "H", "S")) == [
        "AS",
        "KS",
        "QS",
        "JS",
        "TS",
        "9S",
        "8S",
        "7S",
    ]


def test_left_bower_is_a_trump_for_every_purpose():
    # Hearts trumps: the jack of diamonds is a heart, not a diamond.
    assert effective_suit("JD", "H") == "H"
    assert is_trump("JD", "H")
    assert not is_trump("JD", "S")
    # Having the suit: a diamond led, the left bower does not follow it.
    assert follow_suit(hand("JD 9S"), "D", "H") == ["JD", "9S"]
    # The left bower led is a trump lead, so trumps must follow it.
    assert trick_winner(["JD", "AH", "AD"], "H") == 0
    assert trick_winner(["AD", "JD"], "H") == 1


def test_h_left_bower_must_follow_trump():
    """H: "If trumps are led, and you only have left bower, you must play it"."""
    assert follow_suit(hand("JD AD KS QC 9C"), "H", "H") == ["JD"]


def test_follow_suit_any_card_when_void_or_leading():
    assert follow_suit(hand("9S TS"), "C", "H") == ["9S", "TS"]
    assert follow_suit(hand("9S TS"), None, "H") == ["9S", "TS"]


def test_trick_winner_highest_trump_else_highest_of_suit_led():
    assert trick_winner(hand("KS AS 9S QS"), "H") == 1
    assert trick_winner(hand("KS AS 7H QS"), "H") == 2
    assert trick_winner(hand("KS AD AC QS"), "H") == 0  # off-suit aces do not win
    assert trick_winner(hand("9H JH JD AH"), "H") == 1
    assert trick_winner(hand("TC JC"), "H") == 1  # a plain jack between queen and ten
    assert trick_winner(hand("QC JC"), "H") == 0


def test_trick_power_zero_for_a_card_that_neither_follows_nor_trumps():
    assert trick_power("AD", "H", "S") == 0
    assert trick_power("7H", "H", "S") > trick_power("AS", "H", "S") > 0


# -- cutting values and sorting ---------------------------------------------------------------


def test_s8_j3_cutting_jack_high_then_ace_to_seven_suits_equal():
    order = ["J", "A", "K", "Q", "T", "9", "8", "7"]
    values = [cut_value(r + "S") for r in order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    for rank in order:
        assert len({cut_value(rank + s) for s in "SHDC"}) == 1


def test_sort_hand_trumps_first_high_to_low():
    assert sort_hand(hand("9S JD AH 7C JH"), "H")[:3] == ["JH", "JD", "AH"]
    assert sorted(sort_hand(hand("9S JD AH 7C JH"))) == sorted(hand("9S JD AH 7C JH"))
