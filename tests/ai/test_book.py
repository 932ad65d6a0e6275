"""The book's word: which Somerset suggestion applies in a position, quoted from the laws."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.ai.book import SUGGESTIONS, advise
from bot.ai.knowledge import read
from tests.ai.positions import A, B, C, D, position, suggestion, view

# The laws as published (Project Gutenberg's public-domain text), copied from the rule sources.
LAWS = Path(__file__).parents[1] / "data" / "rules" / "somerset-club-1888-laws-of-euchre.txt"

# The book's named positions (tests/ai/positions.py) and the suggestion each one is about.
NAMED = {
    "eldest_passes_with_right_ten_nine_to_make_it_next": "order_not_next",
    "eldest_passes_with_left_ace_seven_to_make_it_next": "order_not_next",
    "eldest_makes_it_next_after_the_turn_down": "make_it_next",
    "eldest_with_the_left_makes_it_next": "make_it_next",
    "second_hand_assists_with_three_trumps": "assist_light",
    "second_hand_does_not_assist_the_right_with_two_small_ones": "assist_light",
    "dealer_takes_up_with_right_and_ace": "dealer_takes_up",
    "dealer_discards_the_outside_king": "discard_short",
    "dealer_discards_the_king_beside_two_aces": "discard_short",
    "dealer_alone_discards_the_lone_ace": "discard_short",
    "against_a_lone_hand_lead_the_short_suit": "against_lone",
    "against_a_lone_hand_lead_the_king_of_the_short_suit": "against_lone",
    "second_hand_leads_the_turn_down_against_third_hands_lone_hand": "against_lone",
    "eldest_at_the_bridge_orders_up": "bridge",
}


def _laws_text() -> str:
    # The text marks italics with underscores ("_provided you have nothing to go to_").
    return re.sub(r"\s+", " ", LAWS.read_text(encoding="utf-8").replace("_", ""))


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_somerset_position_quotes_its_suggestion(name):
    match, expected = suggestion(name)
    advice = advise(read(view(match)))
    assert advice is not None and advice.suggestion.key == NAMED[name]
    # What the book favours there is the book's own answer.
    assert set(advice.favours) & expected


def test_every_quote_is_the_laws_own_words_at_its_place():
    text = _laws_text()
    for s in SUGGESTIONS.values():
        for part in re.split(r"\s*(?:\.\.\.|;)\s*", s.quote):
            words = part.strip().rstrip(".").strip()
            assert not words or words in text, (s.key, words)
        # The chapter and its page are those of the book's contents.
        assert re.search(re.escape(s.chapter) + r" +" + str(s.page) + r"\b", text), s.key


def test_lead_a_trump_for_partners_make():
    # B (the eldest) passes, C passes, D orders it up; A takes... the dealer discards; B, the
    # eldest, leads first, and his partner D made the trump.
    match = position(
        {A: "AH KH QS 9D 8D", B: "JH TH AS KS AC", C: "9S 8S 7S TD 7D", D: "AD KD QD JC TC"},
        turn_up="9H",
        actions=["pass", "pass", "order", "8D"],
    )
    k = read(view(match))
    assert k.seat == B and k.maker == D
    advice = advise(k)
    assert advice is not None and advice.suggestion.key == "lead_trump_partner_made"
    assert set(advice.favours) == {"JH", "TH"}


def test_ruff_with_one_small_trump():
    # Hearts trumps, D made it; B leads the ace of clubs and C, void of clubs with one small
    # trump (the ten), ruffs: "With one small trump, ruff as soon as you can."
    match = position(
        {A: "AH KH QS 9D 8D", B: "AC KC QC 7S TD", C: "TH AS KS 7D QD", D: "JH JD 9C 8C AD"},
        turn_up="9H",
        actions=["pass", "pass", "order", "8D", "AC"],
    )
    k = read(view(match))
    assert k.seat == C
    advice = advise(k)
    assert advice is not None and advice.suggestion.key == "ruff_one_small"
    assert advice.favours == ("TH",)


def test_do_not_lead_trumps_up_to_the_dealers_adoption():
    match = position(
        {A: "AH KH QS 9D 8D", B: "TH 7H AS KS AC", C: "9S 8S 7S TD 7D", D: "AD KD QD JC TC"},
        turn_up="JH",
        actions=["pass", "pass", "pass", "order", "8D"],
    )
    k = read(view(match))
    assert k.seat == B and k.maker == A
    advice = advise(k)
    assert advice is not None and advice.suggestion.key == "no_trump_to_dealer"
    assert "TH" not in advice.favours and "AS" in advice.favours


def test_a_light_lone_hand_is_answered_with_the_lone_hands_chapter():
    # B, the eldest, with two small trumps and nothing outside: ordering up alone is the blunder.
    match = position(
        {B: "TH 8H 9S 7D 8C"},
        turn_up="9H",
    )
    k = read(view(match))
    advice = advise(k, "order:alone")
    assert advice is not None and advice.suggestion.key == "light_lone"
    assert not advice.followed_by("order:alone")


def test_the_book_is_silent_where_no_suggestion_applies():
    match = position(
        {A: "AH KH QS 9D 8D", B: "AC KC QC 7S TD", C: "TH AS KS 7D QD", D: "JH JD 9C 8C AD"},
        turn_up="9H",
        actions=["pass", "pass", "order", "8D", "AC", "TH"],
    )
    assert advise(read(view(match))) is None


def test_eldest_orders_with_three_medium_trumps_and_an_ace():
    advice = advise(read(view(position({B: "AH KH QH AS 7C"}, turn_up="9H"))))
    assert advice is not None and advice.suggestion.key == "eldest_orders"
    assert advice.favours == ("order",)


def test_third_hand_orders_only_with_strength():
    match = position({D: "JH JD AH AS AC"}, turn_up="9H", actions=["pass", "pass"])
    advice = advise(read(view(match)))
    assert advice is not None and advice.suggestion.key == "third_orders"


def test_second_hand_makes_it_red_in_the_second_round():
    advice = advise(read(view(position({}, turn_up="9H", actions=["pass"] * 5))))
    assert advice is not None and advice.suggestion.key == "make_it_red"


def test_the_dealer_may_make_it_with_less_strength():
    # The dealer's hand: no lone hand (one of the best places for it would be quoted then).
    match = position({A: "QS KS 9S 7D 8C"}, turn_up="9H", actions=["pass"] * 7)
    advice = advise(read(view(match)))
    assert advice is not None and advice.suggestion.key == "dealer_makes"


def test_take_it_from_partner_is_asked_of_the_dealer_after_an_assist():
    match = position(
        {A: "AH KH QS 9D 8D", B: "JH TH AS KS AC", C: "JD QH 7S TD 7D", D: "AD KD QD JC TC"},
        turn_up="9H",
        actions=["pass", "order"],
    )
    advice = advise(read(view(match)))
    assert advice is not None and advice.suggestion.key == "take_it_from_partner"


ASSISTED = {A: "AH KH QS 9D 8D", B: "TH 7H AS KS AC", C: "JD JH 7S TD 7D", D: "AD KD QD JC TC"}


def test_lead_trumps_through_the_assisting_hand():
    match = position(ASSISTED, turn_up="9H", actions=["pass", "order", "pass", "QS"])
    advice = advise(read(view(match)))
    assert advice is not None and advice.suggestion.key == "lead_through_assist"
    assert set(advice.favours) == {"TH", "7H"}


def test_give_the_assisting_partner_a_trump():
    # A took the first trick by ruffing; C, who assisted, has played no trump.
    actions = ["pass", "order", "pass", "QS", "AS", "7S", "TC", "KH"]
    advice = advise(read(view(position(ASSISTED, turn_up="9H", actions=actions))))
    assert advice is not None and advice.suggestion.key == "trump_to_assistant"
    assert set(advice.favours) == {"AH", "9H"}
