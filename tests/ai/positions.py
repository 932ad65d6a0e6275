"""Positions from the Somerset Club's "Suggestions about the play" and "Coups" (1888).

The book's seats: A deals, B is the eldest hand (A's left), C is A's partner and D sits at A's
right. Here A is seat 0, B seat 1, C seat 2, D seat 3, so A and C are side 0. The book shows
the dealer's hand after the discard "properly made"; where a position needs the hand as dealt,
the discarded card is one the book leaves unplaced.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import make_pack
from bot.engine.deal import Deal
from bot.engine.match import GameResult, Match, MatchView
from bot.engine.rules import build_options

A, B, C, D = 0, 1, 2, 3


def cards(text: str) -> list[str]:
    return text.split()


def position(
    hands: dict[int, str],
    turn_up: str,
    actions: Sequence[str] = (),
    *,
    preset: str = "somerset",
    scores: tuple[int, int] = (0, 0),
    games: Sequence[GameResult] = (),
    dealer: int = A,
    **overrides: object,
) -> Match:
    """A match whose first deal has these hands, with `actions` applied in turn.

    A seat whose hand is not given gets cards the others do not hold.
    """
    options = build_options(preset, **overrides)
    given = {seat: cards(text) for seat, text in hands.items()}
    used = {c for h in given.values() for c in h} | {turn_up}
    spare = [c for c in make_pack(options.lowest_rank, joker=options.joker) if c not in used]
    full = []
    for seat in range(4):
        hand = given.get(seat)
        if hand is None:
            hand, spare = spare[:5], spare[5:]
        assert len(hand) == 5, (seat, hand)
        full.append(hand)
    match = Match(options, dealer, deal_factory=lambda o, d: Deal.from_hands(o, d, full, turn_up))
    match.scores = list(scores)
    match.games = list(games)
    for action in actions:
        match.apply(action)
    return match


def view(match: Match) -> MatchView:
    return match.view_for(match.to_act)


# ---------------------------------------------------------------------------------------------
# The coups (A: dealer; the hands as the book shows them, with the discard where needed).

# Case I. Refusing to over trump. A adopts the 9 of clubs; B leads the knave of diamonds, C
# plays the seven, D ruffs with the ten of clubs: A throws the eight of spades.
CASE_1 = dict(
    hands={A: "JC AH KH 8S 7H", B: "AC QH 8H JD TS", C: "7D 8D TD QS TH", D: "KC TC AS 9S 9H"},
    turn_up="9C",
    actions=["pass", "pass", "pass", "order", "7H", "JD", "7D", "TC"],
    expected={"8S"},
)

# Case II. Leading through assistance: C assists the king of hearts; B leads the right through,
# C plays the ace, D the seven, "and A should play the king".
CASE_2 = dict(
    hands={A: "QH QS JS QC 7C", B: "JH 8H AC KS 9S", C: "JD AH AS 8S 7D", D: "8D 9D TD TC 7H"},
    turn_up="KH",
    actions=["pass", "order", "pass", "7C", "JH", "AH", "7H"],
    expected={"KH"},
)

# Case III. Ruffing a winning card in order to draw trumps and score two. Four to three for A
# and C; C assists. At the third trick C leads the ace of spades, D plays the king: A ruffs
# his partner's ace with the nine of hearts, then leads the left.
CASE_3 = dict(
    hands={A: "JD 7H QC 8C 7S", B: "QH TH AD KC 9S", C: "JH 8H AC AS TS", D: "AH KH KS KD TC"},
    turn_up="9H",
    actions=[
        "pass",
        "order",
        "pass",
        "7S",
        "TH",
        "JH",
        "KH",
        "7H",
        "AC",
        "TC",
        "8C",
        "KC",
        "AS",
        "KS",
    ],
    scores=(4, 3),
    expected={"9H"},
)

# Case V. Under-play in fourth hand with a large tenace. Three-all; A adopts the ace of
# diamonds. At the third trick C leads the left, D throws, A plays the seven of diamonds, and
# B "refuses to win by playing under with the ten of diamonds". (The book gives C and D each
# the ten of spades; C's is taken as the nine, a card C never plays.)
CASE_5 = dict(
    hands={A: "QD 7D 9H 7H 8C", B: "JD KD TD AH QH", C: "JH KH TH KS 9S", D: "KC JC QS TS 8H"},
    turn_up="AD",
    actions=[
        "pass",
        "pass",
        "pass",
        "order",
        "8C",
        "AH",
        "TH",
        "8H",
        "7H",
        "QH",
        "KH",
        "TS",
        "9H",
        "JH",
        "QS",
        "7D",
    ],
    scores=(3, 3),
    expected={"TD"},
)

# Case VI. Trumping your partner's trick to put the lead through the strong hand. Three-all; A
# adopts the ace of diamonds. At the third trick A leads the king of spades, B covers with the
# ace, C plays the queen, and D trumps his partner's ace with the queen of diamonds.
CASE_6 = dict(
    hands={A: "JD TD KS TC 7H", B: "AS 7S JH KC QC", C: "AH TH JC 7C QS", D: "KH 8H 9C 8C QD"},
    turn_up="AD",
    actions=[
        "pass",
        "pass",
        "pass",
        "order",
        "7H",
        "KC",
        "7C",
        "8C",
        "TC",
        "QC",
        "JC",
        "9C",
        "TD",
        "KS",
        "AS",
        "QS",
    ],
    scores=(3, 3),
    expected={"QD"},
)

# Case VII. Refusing to ruff when you hold the high trump. Three to one for B and D; C assists
# and A plays alone. At the third trick A leads the king of spades and B, holding the left
# bower, the highest trump out, refuses to ruff.
CASE_7 = dict(
    hands={A: "JC AC KS QS 7H", B: "JS 8C AH 9H 8H", C: "KC TC 9C 7D 9D", D: "AS 9S KD QD JH"},
    turn_up="QC",
    actions=["pass", "order", "alone", "7H", "AH", "JH", "QC", "JC", "8C", "9S", "KS"],
    scores=(1, 3),
    expected={"9H", "8H"},
)

# Case VIII. Game-all and four-all; B orders up the nine of diamonds. After taking the second
# trick C leads the eight of hearts instead of the ace, throwing the lead to D so that C's
# queen of trumps sits over B's king and ten.
CASE_8 = dict(
    hands={A: "JH QS QH 9H 7C", B: "AD KD TD AS TS", C: "QD 7D 8D AH 8H", D: "AC QC TC KH 9S"},
    turn_up="9D",
    actions=["order", "pass", "7C", "AD", "7D", "TC", "JH", "QS", "AS", "8D", "9S"],
    scores=(4, 4),
    games=(GameResult((5, 3), 0, 1), GameResult((2, 5), 1, 1)),
    expected={"8H"},
)


COUPS = {
    "case_1_refusing_to_over_trump": CASE_1,
    "case_2_concealing_the_queen": CASE_2,
    "case_3_ruffing_a_winner_to_draw_trumps": CASE_3,
    "case_5_under_play_with_a_tenace": CASE_5,
    "case_6_trumping_partners_trick": CASE_6,
    "case_7_refusing_to_ruff_with_the_high_trump": CASE_7,
    "case_8_throwing_the_lead": CASE_8,
}


def coup(name: str) -> tuple[Match, set[str]]:
    case = dict(COUPS[name])
    expected = case.pop("expected")
    return position(**case), expected


# ---------------------------------------------------------------------------------------------
# "Suggestions about the play": positions whose right declaration or card the chapters state.
# Each: the hands, the turn-up, the actions before the decision, the score, what is right.

SUGGESTIONS = {
    # Eldest: "Do not order (unless with great strength) if you can make it next; for example,
    # queen of clubs turned up, you hold right, ten, and nine of clubs, and king and ten of
    # spades; or left, ace and seven of clubs, seven of spades, and seven of diamonds. In both
    # of these cases pass, and make it next."
    "eldest_passes_with_right_ten_nine_to_make_it_next": dict(
        hands={B: "JC TC 9C KS TS"},
        turn_up="QC",
        actions=[],
        expected={"pass"},
    ),
    "eldest_passes_with_left_ace_seven_to_make_it_next": dict(
        hands={B: "JS AC 7C 7S 7D"},
        turn_up="QC",
        actions=[],
        expected={"pass"},
    ),
    "eldest_makes_it_next_after_the_turn_down": dict(
        hands={B: "JC TC 9C KS TS"},
        turn_up="QC",
        actions=["pass"] * 4,
        expected={"call:S"},
    ),
    # Eldest: "the dealer has turned down the king of spades, with ace, king, and seven of
    # hearts, knave of spades, and ten of clubs: make it next, and lead the left."
    "eldest_with_the_left_makes_it_next": dict(
        hands={B: "AH KH 7H JS TC"},
        turn_up="KS",
        actions=["pass"] * 4,
        expected={"call:C"},
    ),
    "eldest_who_made_it_next_leads_the_left": dict(
        hands={B: "AH KH 7H JS TC"},
        turn_up="KS",
        actions=["pass"] * 4 + ["call:C", "pass"],
        expected={"JS"},
    ),
    # Second hand: "Assist with three trumps."
    "second_hand_assists_with_three_trumps": dict(
        hands={C: "QH 9H 8H 7S 8D"},
        turn_up="TH",
        actions=["pass"],
        expected={"order"},
    ),
    # Second hand: "Do not assist the right with two small ones."
    "second_hand_does_not_assist_the_right_with_two_small_ones": dict(
        hands={C: "8H 7H KS 9C 8D"},
        turn_up="JH",
        actions=["pass"],
        expected={"pass"},
    ),
    # The dealer: "Take up ... right and ace."
    "dealer_takes_up_with_right_and_ace": dict(
        hands={A: "JD AD 8S 9C KH"},
        turn_up="9D",
        actions=["pass"] * 3,
        expected={"order"},
    ),
    # The dealer: "with three trumps, ace, seven of one suit, and outside king, discard the king."
    "dealer_discards_the_outside_king": dict(
        hands={A: "JC 8C AH 7H KD"},
        turn_up="9C",
        actions=["pass"] * 3 + ["order"],
        expected={"KD"},
    ),
    # The dealer: "With three trumps (clubs), ace, king of hearts, and ace of diamonds, discard
    # the king of hearts, except when playing a lone hand, in which case discard the ace of
    # diamonds."
    "dealer_discards_the_king_beside_two_aces": dict(
        hands={A: "JC 8C AH KH AD"},
        turn_up="9C",
        actions=["pass"] * 3 + ["order"],
        expected={"KH"},
    ),
    "dealer_alone_discards_the_lone_ace": dict(
        hands={A: "JC 8C AH KH AD"},
        turn_up="9C",
        actions=["pass"] * 3 + ["order:alone"],
        expected={"AD"},
    ),
    # Lone hands: "Clubs are trumps. Eldest hand has two small trumps, queen of hearts, and
    # queen and seven of spades. Lead the queen of hearts."
    "against_a_lone_hand_lead_the_short_suit": dict(
        hands={B: "8C 7C QH QS 7S", A: "JC JS AC KC AD"},
        turn_up="TC",
        actions=["pass"] * 3 + ["order:alone", "AD"],
        expected={"QH"},
    ),
    # "The eldest hand has the king of clubs, the king of hearts, the ace and seven of
    # diamonds, and the ten of spades. Lead the king of hearts."
    "against_a_lone_hand_lead_the_king_of_the_short_suit": dict(
        hands={B: "KC KH AD 7D TS", A: "JC JS AC QC AH"},
        turn_up="TC",
        actions=["pass"] * 3 + ["order:alone", "AH"],
        expected={"KH"},
    ),
    # Second hand: "If your partner refuses to adopt the turn-up, and the third hand declares
    # to play alone, lead a card of the same suit as the turn-down."
    "second_hand_leads_the_turn_down_against_third_hands_lone_hand": dict(
        hands={C: "9S AD KD QC 8C", D: "JH JD AH KH QH"},
        turn_up="KS",
        actions=["pass"] * 4 + ["pass", "pass", "call:H:alone"],
        expected={"9S"},
    ),
    # The bridge: at four to one the eldest orders up to stop a lone hand (and takes his chance
    # only with two lay aces or the ace and another in trumps).
    "eldest_at_the_bridge_orders_up": dict(
        hands={B: "9C 7S 8H 9D TD"},
        turn_up="TC",
        actions=[],
        scores=(1, 4),
        expected={"order"},
    ),
}


def suggestion(name: str) -> tuple[Match, set[str]]:
    case = dict(SUGGESTIONS[name])
    expected = case.pop("expected")
    return position(**case), expected
