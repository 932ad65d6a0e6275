"""The standard player's play, rule by rule: `LEAD_RULES` and `FOLLOW_RULES` in `bot/ai/standard.py`.

Each rule is tried in order and the first that gives a card plays it. For every rule here is a
position (from seeded games against the standard player) where that rule is the one that decides;
the comment says what the rules without it would have played, so each position shows the rule at
work. The quotes of the rule books are in the rules' docstrings.
"""

from __future__ import annotations

import pytest

from bot.ai import make_player
from bot.ai.knowledge import read
from bot.ai.standard import FOLLOW_RULES, LEAD_RULES, FollowFacts, LeadFacts
from tests.ai.positions import A, B, C, D, position, view

# rule name: (the position's arguments, the card the rule plays)
RULE_POSITIONS = {
    # The rules without it would play TH.
    "lead_against_a_lone_hand": (
        dict(
            hands={
                A: "QH KH 7C JC JD",
                B: "TD QS 9S 8D 7S",
                C: "TH AC 9H KD JS",
                D: "9D TS KS 9C QD",
            },
            turn_up="8C",
            dealer=A,
            scores=(1, 4),
            preset="somerset",
            actions=["order", "alone", "JD"],
        ),
        "KD",
    ),
    # The rules without it would play AC.
    "lead_trump_for_partner_who_made": (
        dict(
            hands={
                A: "KC TD QD 9H AC",
                B: "9D 7S JC TH 7H",
                C: "QH KS JH JD KD",
                D: "8D 8S JS 7D KH",
            },
            turn_up="AD",
            dealer=D,
            scores=(3, 0),
            preset="somerset",
            actions=["pass", "pass", "order", "JS"],
        ),
        "TD",
    ),
    # The rules without it would play QD.
    "lead_best_card_without_trump": (
        dict(
            hands={
                A: "9S JS TH KS 9D",
                B: "QC 8H TS JH TD",
                C: "AD JC 9C QS 9H",
                D: "8D 8S JD KH QD",
            },
            turn_up="KC",
            dealer=C,
            scores=(2, 2),
            preset="somerset",
            actions=["pass", "pass", "order", "9H"],
        ),
        "KH",
    ),
    # The rules without it would play AS.
    "lead_the_master_trump": (
        dict(
            hands={
                A: "7D 8H TD 8S 9D",
                B: "8C AD 9S 8D KC",
                C: "TH QS AS JD AC",
                D: "QH 7H JH AH 9C",
            },
            turn_up="QD",
            dealer=B,
            scores=(2, 0),
            preset="somerset",
            actions=["order", "pass", "9S"],
        ),
        "JD",
    ),
    # The rules without it would play AC.
    "lead_trump_having_made_it_next": (
        dict(
            hands={
                A: "AH QH TC 8C 7H",
                B: "8H 9H TD TS JH",
                C: "TH JD 8S 7C AC",
                D: "7S KD AS JC KC",
            },
            turn_up="7D",
            dealer=B,
            scores=(1, 0),
            preset="somerset",
            actions=["pass", "pass", "pass", "pass", "call:H", "pass"],
        ),
        "JD",
    ),
    # The rules without it would play 9H.
    "draw_trumps_with_a_small_one": (
        dict(
            hands={
                A: "8D 8H QD QS 7H",
                B: "8C JS 9C 9D KD",
                C: "QH KC QC 7C 9H",
                D: "JH AD 7D KS AS",
            },
            turn_up="TC",
            dealer=B,
            scores=(0, 4),
            preset="somerset",
            actions=["order", "pass", "9D"],
        ),
        "7C",
    ),
    # The rules without it would play AS.
    "lead_two_bowers_and_an_ace": (
        dict(
            hands={
                A: "QS TD 9D TC KC",
                B: "8D 9S 7S 8S JD",
                C: "TH JH AC QD 7C",
                D: "JC TS 8H AS JS",
            },
            turn_up="QC",
            dealer=C,
            scores=(0, 0),
            preset="jerome",
            actions=["pass", "pass", "pass", "order", "QD"],
        ),
        "JC",
    ),
    # The rules without it would play 7H.
    "lead_trumps_with_two_aces": (
        dict(
            hands={
                A: "JH AH TS JS QC",
                B: "9D AC TD 8C KD",
                C: "AS KC 9H 7H AD",
                D: "8D 8S KH 9C QH",
            },
            turn_up="8H",
            dealer=B,
            scores=(0, 4),
            preset="somerset",
            actions=["pass", "order", "pass", "8C"],
        ),
        "9H",
    ),
    # The rules without it would play JS.
    "lead_trumps_through_the_assisting_hand": (
        dict(
            hands={
                A: "TH QH TD 8H JS",
                B: "JD AC 9H QD JC",
                C: "9D KS 8C AH QS",
                D: "7S TC KH 7D KC",
            },
            turn_up="KD",
            dealer=D,
            scores=(1, 3),
            preset="somerset",
            actions=["pass", "order", "pass", "7S"],
        ),
        "TD",
    ),
    # The rules without it would play AD.
    "lead_trump_two_points_up": (
        dict(
            hands={
                A: "AH TH QH QD JC",
                B: "TS JD KS KH KC",
                C: "AS QS AC JS AD",
                D: "JH QC 9H 9C 9D",
            },
            turn_up="9S",
            dealer=B,
            scores=(9, 7),
            preset="modern",
            actions=["pass", "pass", "pass", "order", "JD"],
        ),
        "JS",
    ),
    # The rules without it would play AC.
    "lead_a_master_lay_card": (
        dict(
            hands={
                A: "QC 7S TS 8S JC",
                B: "TC 8H AS JH AD",
                C: "9H 7C JD KS JS",
                D: "7H AH 9D AC 8D",
            },
            turn_up="TD",
            dealer=C,
            scores=(2, 4),
            preset="somerset",
            actions=["order", "pass", "7C"],
        ),
        "AH",
    ),
    # The last rule: it always gives a card.
    "lead_plain": (
        dict(
            hands={
                A: "JH 8S 8H 7D KH",
                B: "9D JC 7C 9H 8D",
                C: "7S TH JS KS TS",
                D: "9C JD KC AD QH",
            },
            turn_up="QC",
            dealer=B,
            scores=(4, 1),
            preset="somerset",
            actions=["order", "pass", "9D"],
        ),
        "TH",
    ),
    # The rules without it would play AS.
    "ruff_partners_winner_to_draw_trumps": (
        dict(
            hands={
                A: "AC TS QS 9H JD",
                B: "KH AH KC 9D JC",
                C: "QC AD 9S KD QD",
                D: "AS 9C JS KS JH",
            },
            turn_up="TC",
            dealer=D,
            scores=(1, 2),
            preset="modern",
            actions=["pass", "order", "JH", "AC", "JC", "QC", "TC", "AH", "9S"],
        ),
        "9C",
    ),
    # The rules without it would play JC.
    "leave_partners_sure_trick": (
        dict(
            hands={
                A: "QD TS KS AC QC",
                B: "TH 9D 8H JH KD",
                C: "AH JD AS 7S JC",
                D: "7C 7D TC JS QS",
            },
            turn_up="9C",
            dealer=C,
            scores=(0, 0),
            preset="somerset",
            actions=["order:alone", "pass", "JD", "7C", "QC"],
        ),
        "9C",
    ),
    # The rules without it would play AS.
    "never_trump_partners_trick": (
        dict(
            hands={
                A: "JS QS 8H JH AC",
                B: "8D QH TS TC KH",
                C: "7D 9H KS JC 9C",
                D: "JD QC 7C AS KC",
            },
            turn_up="KD",
            dealer=A,
            scores=(1, 4),
            preset="somerset",
            actions=["order", "pass", "8H", "KH", "9H"],
        ),
        "7C",
    ),
    # The rules without it would play TS.
    "cover_partner_with_a_master": (
        dict(
            hands={
                A: "KH KS TH JD AS",
                B: "7S AD KD QH JH",
                C: "JS 8H QD 7H QS",
                D: "QC 9S TC TS 9H",
            },
            turn_up="AH",
            dealer=A,
            scores=(3, 0),
            preset="somerset",
            actions=["pass", "order", "alone", "KS", "7S"],
        ),
        "9S",
    ),
    # The rules without it would play 9D.
    "play_the_higher_of_equal_trumps": (
        dict(
            hands={
                A: "KC QD AC QH 9H",
                B: "AH JD 8H KD 7S",
                C: "TD JS 9D TS AD",
                D: "9S 8C TH 9C 7H",
            },
            turn_up="7D",
            dealer=A,
            scores=(2, 0),
            preset="somerset",
            actions=["pass", "order", "pass", "QD", "JD"],
        ),
        "TD",
    ),
    # The last rule: it always gives a card.
    "throw_when_you_cannot_win": (
        dict(
            hands={
                A: "QH KH 7C JC JD",
                B: "TD QS 9S 8D 7S",
                C: "TH AC 9H KD JS",
                D: "9D TS KS 9C QD",
            },
            turn_up="8C",
            dealer=A,
            scores=(1, 4),
            preset="somerset",
            actions=["order", "alone", "JD", "KD"],
        ),
        "9D",
    ),
    # The rules without it would play TS.
    "take_trumps_with_a_certain_winner": (
        dict(
            hands={
                A: "JC JH KD QH 9S",
                B: "AS 9H JS TS KS",
                C: "9C KC 7H QC TH",
                D: "7C QD 8C 9D 8H",
            },
            turn_up="QS",
            dealer=D,
            scores=(0, 0),
            preset="somerset",
            actions=["pass", "order:alone", "pass", "9S"],
        ),
        "JS",
    ),
    # The rules without it would play 9H.
    "do_not_finesse_in_lay_cards": (
        dict(
            hands={
                A: "AD 9C AH TS AC",
                B: "QD 7C 8H 7D JD",
                C: "JH 9H TC 9D KC",
                D: "7H QH KH 9S QC",
            },
            turn_up="8C",
            dealer=A,
            scores=(1, 1),
            preset="somerset",
            actions=["pass", "order:alone", "pass", "8H"],
        ),
        "JH",
    ),
    # The rules without it would play 8H.
    "win_with_the_cheapest_card": (
        dict(
            hands={
                A: "KS 8D TD JS 7C",
                B: "TC AH 7S KD 7H",
                C: "KH TH 7D 8C JD",
                D: "QH 8H 8S QC QS",
            },
            turn_up="9H",
            dealer=B,
            scores=(0, 0),
            preset="somerset",
            actions=["order:alone", "pass", "7S", "TH"],
        ),
        "QH",
    ),
    # The rules without it would play JH.
    "refuse_to_overtrump": (
        dict(
            hands={
                A: "JC 9C 8C 7H AC",
                B: "AH TC QC KH JS",
                C: "9D AS 7D QS KC",
                D: "8D JD 8H QD 7C",
            },
            turn_up="JH",
            dealer=A,
            scores=(4, 0),
            preset="somerset",
            actions=["pass", "pass", "pass", "order", "8C", "JS", "AS", "8H"],
        ),
        "9C",
    ),
    # The rules without it would play AS.
    "refuse_to_ruff_with_the_high_trump": (
        dict(
            hands={
                A: "AH KD KH KS QC",
                B: "QD QS 7H 7S JD",
                C: "9C 8C QH TH 9S",
                D: "JS 9H AS 8H 7D",
            },
            turn_up="TS",
            dealer=B,
            scores=(3, 2),
            preset="somerset",
            actions=["order:alone", "pass", "7H", "9C"],
        ),
        "7D",
    ),
    # The rules without it would play JS.
    "do_not_ruff_a_small_card_with_the_right_alone": (
        dict(
            hands={
                A: "9D QS JC TH KH",
                B: "KC QC 9H AC JS",
                C: "AD KD 9S JD TD",
                D: "9C TC QD TS KS",
            },
            turn_up="AS",
            dealer=D,
            scores=(3, 0),
            preset="somerset",
            pack=24,
            defend_alone=True,
            actions=["pass", "order", "pass", "QD", "9D"],
        ),
        "9H",
    ),
    # The rules without it would play 7D.
    "ruff_over_the_turn_up": (
        dict(
            hands={
                A: "QD JH 7D TC 9H",
                B: "AD KC AS 8S 7H",
                C: "QH JC 7C 7S 8H",
                D: "QS KH 8C AH JD",
            },
            turn_up="8D",
            dealer=B,
            scores=(4, 1),
            preset="somerset",
            actions=["order", "pass", "7H", "7S", "QS"],
        ),
        "QD",
    ),
    # The rules without it would play TC.
    "ruff_with_the_lowest_trump": (
        dict(
            hands={
                A: "AH 8D 8C JC TD",
                B: "AD 7S 8S TH 9C",
                C: "QS AS 7D 8H QD",
                D: "9H QH TC QC KC",
            },
            turn_up="JH",
            dealer=B,
            scores=(4, 1),
            preset="somerset",
            actions=["order", "pass", "9C", "AS"],
        ),
        "9H",
    ),
}


def deciding_rule(match) -> tuple[str, str]:
    """The rule that decides the seat to play's card, and the card."""
    k = read(view(match))
    rules, facts = (
        (FOLLOW_RULES, FollowFacts.read(k)) if k.trick else (LEAD_RULES, LeadFacts.read(k))
    )
    for rule in rules:
        card = rule(facts)
        if card is not None:
            return rule.__name__, card
    raise AssertionError("no rule gave a card")


@pytest.mark.parametrize("name", list(RULE_POSITIONS))
def test_rule_decides_its_position(name):
    spec, card = RULE_POSITIONS[name]
    match = position(**spec)
    assert deciding_rule(match) == (name, card)
    assert make_player("standard").choose(view(match)) == card


def test_the_lead_rules_in_order():
    assert [rule.__name__ for rule in LEAD_RULES] == [
        "lead_against_a_lone_hand",
        "lead_trump_for_partner_who_made",
        "lead_best_card_without_trump",
        "lead_the_master_trump",
        "lead_trump_having_made_it_next",
        "draw_trumps_with_a_small_one",
        "lead_two_bowers_and_an_ace",
        "lead_trumps_with_two_aces",
        "lead_trumps_through_the_assisting_hand",
        "lead_trump_two_points_up",
        "lead_a_master_lay_card",
        "lead_plain",
    ]


def test_the_follow_rules_in_order():
    assert [rule.__name__ for rule in FOLLOW_RULES] == [
        "ruff_partners_winner_to_draw_trumps",
        "leave_partners_sure_trick",
        "never_trump_partners_trick",
        "cover_partner_with_a_master",
        "play_the_higher_of_equal_trumps",
        "throw_when_you_cannot_win",
        "take_trumps_with_a_certain_winner",
        "do_not_finesse_in_lay_cards",
        "win_with_the_cheapest_card",
        "refuse_to_overtrump",
        "refuse_to_ruff_with_the_high_trump",
        "do_not_ruff_a_small_card_with_the_right_alone",
        "ruff_over_the_turn_up",
        "ruff_with_the_lowest_trump",
        "throw_away",
    ]


def test_every_rule_has_a_position_and_says_where_it_comes_from():
    # `throw_away` only closes the list: a hand that cannot follow suit and can win has a ruff.
    rules = [*LEAD_RULES, *FOLLOW_RULES]
    assert {rule.__name__ for rule in rules} - set(RULE_POSITIONS) == {"throw_away"}
    assert all(rule.__doc__ for rule in rules)
