"""The standard computer player: the Somerset Club's "Suggestions about the play" (1888).

Every rule below cites the chapter of `rules/somerset-club-1888-laws-of-euchre.txt` it comes
from: "Eldest, or First Hand", "Second Hand" (the dealer's partner, who assists), "Third Hand",
"The Dealer", "The Bridge", "Lone Hands", and the "Coups". The chapters give scores for a game
of five; on other tables a score is read by the points each side still needs (four-all is
"each needs one").

Where the chapters are silent the player falls back on the easy player's plain habits (cheapest
winner, lowest loser), and it counts trumps and masters as they fall, as a careful club player
would.

The play is two ordered lists of small rules, `LEAD_RULES` and `FOLLOW_RULES`, each named in the
game's words and quoting the suggestion it comes from; the first rule that gives a card plays it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.ai.common import (
    beats,
    cheapest_winner,
    discard_choice,
    hand_after_pickup,
    highest,
    lowest,
    strength,
    trick_winner,
)
from bot.ai.knowledge import Knowledge, partner, side
from bot.ai.player import ComputerPlayer
from bot.engine.actions import ALONE as ALONE_ACTION
from bot.engine.actions import DEFEND, ORDER, ORDER_ALONE, PASS, call, order
from bot.engine.cards import EFFECTIVE_SUIT, JOKER, POWER, SAME_COLOUR, SUITS, Card, Suit
from bot.engine.deal import DISCARD, JOKER_SUIT, PARTNER_ALONE, PLAY, ROUND_ONE, ROUND_TWO

log = logging.getLogger(__name__)

ELDEST, SECOND, THIRD, DEALER = 0, 1, 2, 3

# Moods of the score ("The refinement of the game consists in playing to the score").
NORMAL, CAUTIOUS, BOLD, DESPERATE = "normal", "cautious", "bold", "desperate"


# ---------------------------------------------------------------------------------------------
# Reading a hand at a trump, in the chapters' words.


class Shape:
    """A hand seen with one suit as trump: bowers, trumps, lay aces, lay suits."""

    def __init__(self, hand: Sequence[Card], trump: Suit) -> None:
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        self.trump = trump
        self.trumps = sorted((c for c in hand if eff[c] == trump), key=lambda c: -power[c])
        self.n = len(self.trumps)
        # The Joker is above the right bower: count it as a bower of its own.
        self.right = ("J" + trump) in hand or JOKER in hand
        self.left = ("J" + SAME_COLOUR[trump]) in hand
        self.bowers = sum((("J" + trump) in hand, self.left, JOKER in hand))
        self.ace = ("A" + trump) in hand
        self.king = ("K" + trump) in hand
        self.queen = ("Q" + trump) in hand
        self.lay = [c for c in hand if eff[c] != trump]
        self.aces = sum(1 for c in self.lay if c[0] == "A")
        lay_suits = {eff[c] for c in self.lay}
        self.one_suit = len(lay_suits) <= 1
        self.suit_headed_by_ace = self.one_suit and self.aces == 1 and len(self.lay) >= 1
        self.voids = sum(1 for s in SUITS if s != trump and s not in lay_suits)
        self.small = [c for c in self.trumps if power[c] < POWER[trump]["Q" + trump]]

    def medium(self) -> bool:
        """Three trumps headed by the queen or better ("three medium trumps or better")."""
        return (
            self.n >= 3 and POWER[self.trump][self.trumps[0]] >= POWER[self.trump]["Q" + self.trump]
        )


def mood(k: Knowledge) -> str:
    """How the score bids a side play ("Suggestions": the score has great influence).

    BOLD: four-all or four-love in our favour (light assists, light take-ups); DESPERATE:
    four-one or four-two against us ("you may take a desperate chance"); CAUTIOUS: three-all,
    four-two or four-three in our favour ("a position of caution").
    """
    points = k.options.points
    need_us, need_them = points - k.my_score, points - k.their_score
    if need_us == 1 and (need_them == 1 or k.their_score == 0):
        return BOLD
    if need_them == 1 and need_us >= 3:
        return DESPERATE
    if (need_us == 2 and need_them == 2) or (need_us == 1 and need_them in (2, 3)):
        return CAUTIOUS
    return NORMAL


def at_bridge(k: Knowledge) -> bool:
    """Our side needs one and the adversaries can win this deal only by a lone hand ("The Bridge")."""
    o = k.options
    need_us, need_them = o.points - k.my_score, o.points - k.their_score
    return need_us == 1 and max(o.march_points, o.euchred_points) < need_them <= o.lone_march_points


# ---------------------------------------------------------------------------------------------
# Making the trump.


def eldest_orders(s: Shape, right_turned: bool) -> bool:
    """ "Eldest, or First Hand": order with three medium trumps or better and some strength in
    suit, provided you have nothing to go to; and "see your way absolutely clear to three tricks
    before ordering the right" (Third Hand)."""
    if right_turned:
        return s.n >= 4 or (s.left and s.ace and s.n >= 3 and s.aces >= 1)
    return third_orders(s, NORMAL) or (s.medium() and (s.one_suit or s.aces >= 1))


def third_orders(s: Shape, m: str) -> bool:
    """ "Third Hand": "there are certain hands which by their strength compel you to order"."""
    return (
        s.n >= 4
        or (s.bowers >= 2 and s.n >= 3)
        or (s.bowers >= 2 and s.aces >= 1)
        or (s.n >= 3 and s.aces >= 2)
        or (s.n >= 3 and s.suit_headed_by_ace)
        or (s.right and s.ace and s.n >= 3)
        or (s.left and s.ace and s.king and (s.aces >= 1 or s.one_suit or m != CAUTIOUS))
        or (s.left and (s.king or s.queen) and s.n >= 3 and s.aces >= 1)
        or (s.ace and s.king and s.n >= 3 and s.aces >= 1)
    )


def second_assists(s: Shape, m: str, right_turned: bool) -> bool:
    """ "Second Hand": "Do not assist too light. This is the most common error in Euchre." """
    if right_turned and s.n == 2 and not s.small == []:
        # "Do not assist the right with two small ones."
        if len(s.small) == 2:
            return m == BOLD
    firm = s.n >= 3 or (s.right and s.n >= 2) or (s.left and s.n >= 2 and s.aces >= 1)
    if firm:
        return True
    # "Dependent upon the score": not in a position of caution.
    if m != CAUTIOUS and (
        (s.left and s.n >= 2)
        or (s.n >= 2 and s.aces >= 2)
        or (s.ace and s.n >= 2 and s.aces >= 1)
        or (s.n >= 2 and s.suit_headed_by_ace and len(s.lay) >= 3)
    ):
        return True
    if s.ace and s.n >= 2 and s.aces >= 1 and right_turned:
        return True  # "always, however, if right is turned"
    # "Ace and another, and king and another ... only at four-all or four-love in your favour."
    return m == BOLD and s.n >= 2 and (s.ace or s.king)


def dealer_takes_up(s: Shape, m: str, kq_third: bool) -> bool:
    """ "The Dealer": the take-up list, counted on the hand after the discard."""
    firm = (
        s.n >= 3
        or (s.right and (s.ace or s.king or s.queen))
        or (s.right and s.n >= 2 and (s.one_suit or s.aces >= 1))
        or (s.left and s.ace and s.aces >= 1)
        or (s.left and s.n >= 2 and s.aces >= 1 and kq_third)
        or (s.n >= 2 and s.aces >= 2)
    )
    if m == CAUTIOUS:
        # "Scores of three-all and four to two in dealer's favour require more than ordinary
        # caution": only the firmest of the list.
        return s.n >= 3 and (s.bowers >= 1 or s.ace) or (s.right and s.ace)
    if firm:
        return True
    if s.ace and s.king and s.suit_headed_by_ace:
        return m != CAUTIOUS  # "dependent upon score"
    # "With the score at four-all or four-love in his favour, the dealer may play a lighter hand."
    return m == BOLD and s.n >= 2 and (s.bowers >= 1 or s.ace)


def lone_hand(s: Shape, m: str, position: int, assisted: bool = False) -> bool:
    """ "Lone Hands": sure hands always; light ones only when the score allows.

    "With the score three-all, four-all, or any score in your favour, do not risk a light lone
    hand. With the score four-one or four-two against you, you may take a desperate chance."
    "The eldest hand has the best position to play a lone hand, and the dealer the next best."
    "With an assistance you may play a lone hand with less strength."
    """
    sure = (
        s.n >= 5
        or (s.n >= 4 and s.bowers >= 2)
        or (s.n >= 4 and s.right and s.ace and s.aces >= 1)
        or (s.n >= 3 and s.bowers >= 2 and s.ace and s.aces >= 2)
        or (s.n >= 3 and s.bowers >= 3 and s.aces >= 1)
    )
    if sure:
        return True
    light = (
        (s.n >= 4 and s.right and (s.aces >= 1 or s.voids >= 1))
        or (s.n >= 3 and s.bowers >= 2 and (s.ace or s.aces >= 1))
        or (s.n >= 4 and s.bowers >= 1 and s.ace and s.voids >= 1)
    )
    if m == DESPERATE:
        return light or (s.n >= 3 and s.bowers >= 2)
    if not light or m in (CAUTIOUS, BOLD):
        return False
    # The second and third hands "have the weakest positions": there a light lone hand wants
    # an assistance, or a void to ruff with.
    return position in (ELDEST, DEALER) or assisted or s.voids >= 1


def good_to_make(s: Shape, position: int, next_suit: bool, m: str) -> bool:
    """Round two. "Make it next when you can, and do not cross the suit, unless very strong"
    (Eldest); "It requires a stronger hand to ... make the trump in this position" (Third Hand);
    the dealer "may make it with somewhat less strength" (The Dealer)."""
    fair = (s.n >= 3 and (s.bowers >= 1 or s.ace)) or (s.bowers >= 1 and s.n >= 2 and s.aces >= 1)
    strong = third_orders(s, m)
    very = s.n >= 4 or (s.bowers >= 2 and s.n >= 3) or (s.right and s.n >= 3 and s.aces >= 1)
    if position == DEALER:
        return fair or (s.n >= 2 and s.bowers >= 1) or strong
    if position == ELDEST:
        return (fair or strong) if next_suit else very
    if position == SECOND:
        # "If your partner turn down black, make it red if you can": the second hand crosses.
        return fair or strong if not next_suit else strong
    return strong if next_suit else very


# ---------------------------------------------------------------------------------------------


class StandardPlayer(ComputerPlayer):
    """The Somerset rules of thumb as a small rule set. No choice is random; `seed` is kept for
    the common interface."""

    level = "standard"

    def decide(self, k: Knowledge) -> str:
        phase = k.phase
        if phase == JOKER_SUIT:
            return call(max(SUITS, key=lambda s: strength(k.hand, s)))
        if phase == ROUND_ONE:
            return self.round_one(k)
        if phase == ROUND_TWO:
            return self.round_two(k)
        if phase == PARTNER_ALONE:
            return self.take_it_from_partner(k)
        if phase == DISCARD:
            return self.discard(k)
        if phase == PLAY:
            return self.play(k)
        return self.defend_alone(k)

    # -- bidding --------------------------------------------------------------------------

    def round_one(self, k: Knowledge) -> str:
        trump = k.turn_up_suit
        assert trump is not None  # the Joker's suit is named before the bidding
        position = k.position()
        m = mood(k)
        right_turned = k.turn_up in ("J" + trump, JOKER)
        hand = list(k.hand)
        if position == DEALER:
            after = hand_after_pickup(hand, k.turn_up, trump, False, k.options.discard_turn_up)
            s = Shape(after, trump)
            eff = EFFECTIVE_SUIT[trump]
            third_suits = {eff[c] for c in after if eff[c] != trump}
            kq_third = any(("K" + x) in after and ("Q" + x) in after for x in third_suits)
            # "If the dealer is better at next, and holds both bowers of the cross-suit, it is
            # good euchre to pass."
            cross = [x for x in SUITS if x not in (trump, SAME_COLOUR[trump])]
            if all(("J" + x) in hand for x in cross) and strength(hand, cross[0]) > strength(
                after, trump
            ):
                return PASS
            if dealer_takes_up(s, m, kq_third):
                alone = lone_hand(s, m, DEALER, assisted=False)
                return order(alone)
            return PASS
        s = Shape(hand, trump)
        if position == SECOND:
            if second_assists(s, m, right_turned):
                return order(lone_hand(s, m, SECOND))
            return PASS
        if position == THIRD:
            if third_orders(s, m) and (not right_turned or eldest_orders(s, True)):
                return order(lone_hand(s, m, THIRD))
            return PASS
        # Eldest. "Do not order (unless with great strength) if you can make it next."
        next_shape = Shape(hand, SAME_COLOUR[trump])
        great = s.n >= 4 or (s.bowers >= 2 and s.n >= 3)
        can_next = good_to_make(next_shape, ELDEST, True, m)
        if eldest_orders(s, right_turned) and (great or not can_next):
            return order(lone_hand(s, m, ELDEST))
        if at_bridge(k) and not (s.aces >= 2 or (s.ace and s.n >= 2)):
            # "The Bridge": at four to one or two, the eldest orders up to stop a lone hand;
            # "now the same players take their chances with two lay aces, or the ace and
            # another in trumps", so with those he passes.
            return ORDER
        return PASS

    def round_two(self, k: Knowledge) -> str:
        position = k.position()
        m = mood(k)
        down = k.turn_up_suit
        assert down is not None  # the suit turned down in round one
        nxt = SAME_COLOUR[down]
        hand = list(k.hand)
        options = [x for x in SUITS if x != down]
        shapes = {x: Shape(hand, x) for x in options}
        # "Make it next when you can": next first for the eldest; the second hand looks to
        # the other colour ("If your partner turn down black, make it red").
        strongest = sorted(options, key=lambda x: -strength(hand, x))
        for x in strongest:
            if good_to_make(shapes[x], position, x == nxt, m):
                alone = lone_hand(shapes[x], m, position)
                return call(x, alone)
        if PASS in k.legal:
            return PASS
        return call(strongest[0])  # stuck: the best suit

    def take_it_from_partner(self, k: Knowledge) -> str:
        """ "Should your partner declare to play alone, and you have a fair trump hand with no
        weakness in lay suits, it is good play to take it from him" (Lone Hands); and "with an
        assistance you may play a lone hand with less strength" (the dealer after an assist)."""
        trump = k.trump
        assert trump is not None  # made before this is asked
        hand = list(k.hand)
        if k.seat == k.dealer and not k.turned_down:
            hand = hand_after_pickup(hand, k.turn_up, trump, True, k.options.discard_turn_up)
        s = Shape(hand, trump)
        m = mood(k)
        if k.alone is not None:
            no_weak_lay = all(c[0] == "A" for c in s.lay)
            if s.n >= 3 and s.bowers >= 1 and no_weak_lay:
                return ALONE_ACTION
            return PASS
        return ALONE_ACTION if lone_hand(s, m, k.position(), assisted=True) else PASS

    def defend_alone(self, k: Knowledge) -> str:
        """Defend alone only with two sure trump tricks or three trumps headed by a bower."""
        assert k.trump is not None  # a lone hand has made it
        s = Shape(list(k.hand), k.trump)
        if s.bowers >= 2 or (s.n >= 3 and s.bowers >= 1):
            return DEFEND if DEFEND in k.legal else PASS
        return PASS

    def discard(self, k: Knowledge) -> str:
        trump = k.trump
        assert trump is not None  # made before this is asked
        hand = list(k.hand)
        eff = EFFECTIVE_SUIT[trump]
        if k.alone is not None and side(k.alone) != k.side and k.position(k.alone) == THIRD:
            # "If the third hand declares to play alone it has become an established custom for
            # the dealer to discard next in suit, and for his partner to lead it to him."
            nxt = [c for c in hand if eff[c] == SAME_COLOUR[trump] and eff[c] != trump]
            allowed = [c for c in nxt if k.options.discard_turn_up or c != k.turn_up]
            if allowed:
                return lowest(allowed, trump)
        # "He should discard the lowest card of a short suit" (The Dealer).
        return discard_choice(hand, trump, k.turn_up, k.alone == k.seat, k.options.discard_turn_up)

    # -- the play -------------------------------------------------------------------------

    def play(self, k: Knowledge) -> str:
        if not k.trick:
            return self.lead(k)
        return self.follow(k)

    def lead(self, k: Knowledge) -> str:
        """The first rule of `LEAD_RULES` that gives a card (the last always does)."""
        f = LeadFacts.read(k)
        for rule in LEAD_RULES:
            card = rule(f)
            if card is not None:
                return card
        raise AssertionError("the last lead rule always gives a card")

    def follow(self, k: Knowledge) -> str:
        """The first rule of `FOLLOW_RULES` that gives a card (the last always does)."""
        f = FollowFacts.read(k)
        for rule in FOLLOW_RULES:
            card = rule(f)
            if card is not None:
                return card
        raise AssertionError("the last follow rule always gives a card")


# ---------------------------------------------------------------------------------------------
# The play: what a decision reads once (`LeadFacts`, `FollowFacts`), then the rules in the order
# they are tried (`LEAD_RULES`, `FOLLOW_RULES`). Each rule gives a card, or None when it does not
# apply; the first card given is played, so a rule may count on those before it having declined.
# The facts are built once per card, by position, and no rule changes them; they are not frozen
# because a frozen dataclass's checked `__init__` made a decision 10-20% slower, and the expert
# and the benches ask for many.


@dataclass(slots=True)
class LeadFacts:
    """What every lead rule reads, worked out once per lead by `read`.

    Attributes:
        trumps, lay: the legal cards in trumps and in the lay suits.
        trumps_out: trumps not played and not in this hand, highest first.
        boss_lay: lay cards that are masters of a suit no adversary is known to trump.
            (Against a lone hand, whose rule reads neither, these two are left empty.)
        against_lone: an adversary plays alone.
        eldest_opening: the hand's `Shape` when this is the eldest hand's first lead against
            the makers (no lone hand) and it holds a trump, else None.
    """

    k: Knowledge
    trump: Suit
    eff: dict[Card, Suit]
    power: dict[Card, int]
    legal: list[Card]
    trumps: list[Card]
    lay: list[Card]
    trumps_out: list[Card]
    boss_lay: list[Card]
    first_lead: bool
    trump_led_before: bool
    we_made: bool
    maker_is_partner: bool
    against_lone: bool
    eldest_opening: Shape | None

    @classmethod
    def read(cls, k: Knowledge) -> LeadFacts:
        trump = k.trump
        assert trump is not None  # made before this is asked
        legal = list(k.legal)
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        trumps = [c for c in legal if eff[c] == trump]
        lay = [c for c in legal if eff[c] != trump]
        tricks = k.tricks
        first_lead = not tricks
        seat, maker, alone = k.seat, k.maker, k.alone
        we_made = maker is not None and side(maker) == side(seat)
        against_lone = alone is not None and side(alone) != side(seat)
        boss_lay: list[Card] = []
        if not against_lone:
            boss_lay = [c for c in lay if k.is_boss(c) and not k.opponents_may_trump(eff[c])]
        eldest_opening = None
        if not we_made and not against_lone and trumps and first_lead and k.position() == ELDEST:
            eldest_opening = Shape(list(k.hand), trump)
        return cls(
            k,
            trump,
            eff,
            power,
            legal,
            trumps,
            lay,
            [] if against_lone else k.remaining_trumps(),
            boss_lay,
            first_lead,
            any(eff[t[0][1]] == trump for _, t in tricks),
            we_made,
            maker == partner(seat),
            against_lone,
            eldest_opening,
        )


def lead_against_a_lone_hand(f: LeadFacts) -> Card | None:
    """ "In playing against a lone hand, you should lead from a short suit or suit of equals"
    (Lone Hands), and the two conventions of the second hand (`lead_against_lone`)."""
    return lead_against_lone(f.k, f.lay or f.legal) if f.against_lone else None


def lead_trump_for_partner_who_made(f: LeadFacts) -> Card | None:
    """ "Always lead a trump when your partner has ordered up, or made the trump ... If you have
    left and small one, lead the left ... With any two others, lead smallest." """
    if not (f.we_made and f.maker_is_partner and f.trumps):
        return None
    if not (f.first_lead or not f.trump_led_before):
        return None
    trumps, trump = f.trumps, f.trump
    left = "J" + SAME_COLOUR[trump]
    if left in trumps and len(trumps) == 2:
        return left
    if f.k.is_boss(trumps[0]) or len(trumps) >= 3:
        return highest(trumps, trump)
    return lowest(trumps, trump)


def lead_best_card_without_trump(f: LeadFacts) -> Card | None:
    """Partner made the trump and this hand has none: "If you have no trump, play your best
    card." """
    if f.we_made and f.maker_is_partner and not f.trumps and f.first_lead:
        return highest(f.legal, f.trump)
    return None


def lead_the_master_trump(f: LeadFacts) -> Card | None:
    """Our trump, trumps still out, and the highest of them in hand: lead it (the master is
    counted as it falls). Except that the dealer "with right and another ... should not lead the
    right unless he can follow with an ace" (The Dealer)."""
    k = f.k
    if not (f.we_made and f.trumps and f.trumps_out):
        return None
    top = highest(f.trumps, f.trump)
    if not k.is_boss(top):
        return None
    right_and_another = (
        k.seat == k.dealer
        and len(f.trumps) == 1
        and not f.boss_lay
        and k.maker == k.seat
        and len(k.tricks) == 1
    )
    return None if right_and_another else top


def lead_trump_having_made_it_next(f: LeadFacts) -> Card | None:
    """ "Make it next ... and lead the left"; "with ace and two others (without the king), lead
    ace in next, and small one when crossing the suit" (Eldest): the maker's first lead in the
    second round, without the master trump."""
    k = f.k
    if not (f.we_made and f.trumps and f.trumps_out):
        return None
    if not (k.turned_down and k.maker == k.seat and f.first_lead):
        return None
    if k.turn_up_suit and SAME_COLOUR[k.turn_up_suit] == f.trump:
        return highest(f.trumps, f.trump)
    return lowest(f.trumps, f.trump)


def draw_trumps_with_a_small_one(f: LeadFacts) -> Card | None:
    """Our trump, trumps still out, two or more in hand and no master lay card to cash: lead
    the smallest trump to draw theirs (the easy player's plain habit; the chapters are
    silent)."""
    if f.we_made and f.trumps_out and len(f.trumps) >= 2 and not f.boss_lay:
        return lowest(f.trumps, f.trump)
    return None


def lead_two_bowers_and_an_ace(f: LeadFacts) -> Card | None:
    """The eldest against the makers: "two bowers and an outside ace ... lead them"."""
    s = f.eldest_opening
    if s is not None and s.bowers >= 2 and s.aces >= 1:
        return highest(f.trumps, f.trump)
    return None


def lead_trumps_with_two_aces(f: LeadFacts) -> Card | None:
    """The eldest against the makers: "one or two trumps and two aces, lead trumps"."""
    s = f.eldest_opening
    if s is not None and s.n <= 2 and s.aces >= 2:
        return highest(f.trumps, f.trump)
    return None


def lead_trumps_through_the_assisting_hand(f: LeadFacts) -> Card | None:
    """The eldest, the second hand having assisted: "If the right is not turned, lead trumps
    through the assisting hand", except with left and small, ace and small, a large tenace, or
    at four-three (a position of caution)."""
    s, k, trump = f.eldest_opening, f.k, f.trump
    if s is None or k.maker_action not in (ORDER, ORDER_ALONE) or k.turned_down:
        return None
    if k.maker != partner(k.dealer) or k.turn_up in ("J" + trump, JOKER):
        return None
    tenace = s.right and (s.ace or s.king) and s.aces == 0
    small_pair = s.n == 2 and (s.left or s.ace)
    if tenace or small_pair or mood(k) == CAUTIOUS:
        return None
    return lowest(f.trumps, trump) if not k.is_boss(f.trumps[0]) else f.trumps[0]


def lead_trump_two_points_up(f: LeadFacts) -> Card | None:
    """The eldest, the dealer having taken up: "With three trumps, and the score two points in
    your favour, lead a trump, if the turn-up is not above the king." """
    s, k, trump = f.eldest_opening, f.k, f.trump
    if s is None or k.maker_action not in (ORDER, ORDER_ALONE) or k.turned_down:
        return None
    if (
        k.maker == k.dealer
        and s.n >= 3
        and k.my_score - k.their_score >= 2
        and f.power[k.turn_up] <= f.power["K" + trump]
    ):
        return highest(f.trumps, trump)
    return None


def lead_a_master_lay_card(f: LeadFacts) -> Card | None:
    """A lay card no one can beat or trump: cash the highest (counting masters as they fall)."""
    return highest(f.boss_lay, f.trump) if f.boss_lay else None


def lead_plain(f: LeadFacts) -> Card | None:
    """Otherwise the Eldest's plain lead (`plain_lead`): an ace, a short suit, a suit of equals."""
    return plain_lead(f.k, f.lay or f.legal)


LEAD_RULES: tuple[Callable[[LeadFacts], Card | None], ...] = (
    lead_against_a_lone_hand,
    # Our side made the trump.
    lead_trump_for_partner_who_made,
    lead_best_card_without_trump,
    lead_the_master_trump,
    lead_trump_having_made_it_next,
    draw_trumps_with_a_small_one,
    # The adversaries made it: the eldest's first lead.
    lead_two_bowers_and_an_ace,
    lead_trumps_with_two_aces,
    lead_trumps_through_the_assisting_hand,
    lead_trump_two_points_up,
    # Either side.
    lead_a_master_lay_card,
    lead_plain,
)


def plain_lead(k: Knowledge, cards: list[Card]) -> Card:
    """ "Avoid, if you can, leading from suits of king, seven; queen, seven. If possible, lead
    an ace, or from a short suit of king or queen, or from a suit of equals" (Eldest). And
    "avoid leading the turn-down until at least one round of trumps has been played"."""
    trump = k.trump
    assert trump is not None  # made before this is asked
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    hand = list(k.hand)
    trump_led = any(eff[t[0][1]] == trump for _, t in k.tricks)
    shown_by_partner = {
        eff[card]
        for _, t in k.tricks
        for seat, card in t
        if seat == k.partner and eff[card] != eff[t[0][1]]
    }

    def key(c: Card) -> tuple:
        suit = eff[c]
        mine = sorted((x for x in hand if eff[x] == suit), key=lambda x: -power[x])
        equals = len(mine) >= 2 and abs(power[mine[0]] - power[mine[1]]) == 1
        broken = len(mine) >= 2 and not equals and mine[0][0] in "KQ"
        turn_down = k.turned_down and suit == k.turn_up_suit and not trump_led
        partner_shown = suit in shown_by_partner  # "do not lead the suit he has shown"
        return (
            eff[c] == trump,
            partner_shown,
            turn_down,
            broken,
            0 if c[0] == "A" else 1 if equals and c == mine[0] else 2 if len(mine) == 1 else 3,
            power[c] if len(mine) > 1 else -power[c],
        )

    return min(cards, key=key)


def lead_against_lone(k: Knowledge, cards: list[Card]) -> Card:
    """ "In playing against a lone hand, you should lead from a short suit or suit of
    equals" (Lone Hands), and the two conventions of the second hand."""
    trump = k.trump
    assert trump is not None  # made before this is asked
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    lone_pos = k.position(k.alone)
    if k.position() == SECOND and lone_pos == THIRD:
        turned = k.turn_up_suit
        assert turned is not None  # the Joker's suit is named before the bidding
        wanted = SAME_COLOUR[turned] if not k.turned_down else turned
        # Round one: the dealer discarded next in suit, "and his partner [leads] it to him";
        # round two: "lead a card of the same suit as the turn-down" (Second Hand).
        same = [c for c in cards if eff[c] == wanted and eff[c] != trump]
        if same and not k.tricks:
            return highest(same, trump)
    hand = list(k.hand)
    counts = {s: sum(1 for x in hand if eff[x] == s) for s in SUITS}
    singles = [c for c in cards if eff[c] != trump and counts[eff[c]] == 1 and c[0] != "A"]
    if singles:
        return max(singles, key=lambda c: power[c])
    aces = [c for c in cards if c[0] == "A" and eff[c] != trump]
    if aces:
        return aces[0]
    for c in sorted(cards, key=lambda c: -power[c]):
        mine = [x for x in hand if eff[x] == eff[c]]
        if len(mine) >= 2 and any(abs(power[x] - power[c]) == 1 for x in mine if x != c):
            return c
    return min(cards, key=lambda c: (eff[c] == trump, power[c]))


@dataclass(slots=True)
class FollowFacts:
    """What every follow rule reads, worked out once per card played to a trick by `read`.

    Attributes:
        led: the suit led (effective).
        win_seat, win_card: who is winning the trick so far, with what.
        partner_winning: that seat is this side's (the partner's).
        last: this is the last card of the trick.
        following: this hand can follow suit.
        win: the cheapest legal card that wins the trick now, or None.
        adversary_later: an adversary still plays to this trick after this hand.
        trumps, lay, ruffs: when this hand cannot follow suit (else empty), its trumps, its
            lay cards, and the trumps that would win the trick.
        ruffing: an adversary is winning, this hand cannot follow suit and can ruff.
    """

    k: Knowledge
    trump: Suit
    eff: dict[Card, Suit]
    power: dict[Card, int]
    legal: list[Card]
    trick: tuple[tuple[int, Card], ...]
    led: Suit
    win_seat: int
    win_card: Card
    partner_winning: bool
    last: bool
    following: bool
    win: Card | None
    we_made: bool
    adversary_later: bool
    trumps: list[Card]
    lay: list[Card]
    ruffs: list[Card]
    ruffing: bool

    @classmethod
    def read(cls, k: Knowledge) -> FollowFacts:
        trump = k.trump
        assert trump is not None  # made before this is asked
        legal = list(k.legal)
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        trick = k.trick
        led = eff[trick[0][1]]
        win_seat, win_card = trick_winner(trick, trump)
        seat, out = k.seat, k.sitting_out
        partner_winning = win_seat == partner(seat)
        following = eff[legal[0]] == led
        win = cheapest_winner(legal, trick, trump)
        # An adversary (the seat on either side) still to play to this trick after me.
        played = [s for s, _ in trick]
        left, right = (seat + 1) % 4, (seat + 3) % 4
        adversary_later = (left not in out and left not in played) or (
            right not in out and right not in played
        )
        trumps: list[Card] = []
        lay: list[Card] = []
        ruffs: list[Card] = []
        if not following:
            trumps = [c for c in legal if eff[c] == trump]
            lay = [c for c in legal if eff[c] != trump]
            ruffs = [c for c in trumps if beats(c, win_card, trump, led)]
        return cls(
            k,
            trump,
            eff,
            power,
            legal,
            trick,
            led,
            win_seat,
            win_card,
            partner_winning,
            len(trick) == 3 - len(out),  # last
            following,
            win,
            k.we_made,
            adversary_later,
            trumps,
            lay,
            ruffs,
            not partner_winning and win is not None and not following and bool(ruffs),  # ruffing
        )


# -- the partner is winning the trick


def ruff_partners_winner_to_draw_trumps(f: FollowFacts) -> Card | None:
    """Case III, "ruffing a winning card in order to draw trumps and score two": when the
    partner's lay card is winning, every trick so far is ours, and after ruffing with the
    lowest trump the rest of the hand is the master trump and masters, take the lead."""
    k, trump, eff = f.k, f.trump, f.eff
    led = f.led
    if not f.partner_winning or eff[f.win_card] == trump or not f.we_made:
        return None
    if any(eff[c] == led for c in f.legal):
        return None
    if k.side_tricks(1 - k.side) or not k.tricks:
        return None
    trumps = sorted(f.trumps, key=lambda c: f.power[c])
    if len(trumps) < 2:
        return None
    rest = [c for c in k.hand if c != trumps[0]]
    if not k.is_boss(trumps[-1]) or not all(k.is_boss(c) for c in rest):
        return None
    return trumps[0]


def leave_partners_sure_trick(f: FollowFacts) -> Card | None:
    """The partner's card is sure to win (no adversary to play after, or a master no one can
    trump), or this hand cannot beat it: throw away."""
    if not f.partner_winning:
        return None
    k, win_card = f.k, f.win_card
    partner_sure = (
        f.last
        or not f.adversary_later
        or (
            k.is_boss(win_card)
            and not (f.eff[win_card] != f.trump and k.opponents_may_trump(f.led))
        )
    )
    return throw(f, f.legal) if partner_sure or f.win is None else None


def never_trump_partners_trick(f: FollowFacts) -> Card | None:
    """Never trump a partner's trick that may yet win: throw away."""
    return throw(f, f.legal) if f.partner_winning and not f.following else None


def cover_partner_with_a_master(f: FollowFacts) -> Card | None:
    """The partner's card may be beaten by an adversary after: cover it with the cheapest
    master of the suit, when this hand holds one (else throw away)."""
    if not f.partner_winning:
        return None
    boss = [c for c in f.legal if f.k.is_boss(c) and f.power[c] > f.power[f.win_card]]
    return min(boss, key=lambda c: f.power[c]) if boss else throw(f, f.legal)


# -- an adversary is winning and this hand cannot beat him


def play_the_higher_of_equal_trumps(f: FollowFacts) -> Card | None:
    """Case II, led through: play the higher of equal trumps. "Few cases arise when you should
    conceal information from your partner, but this is one of them." """
    k, power = f.k, f.power
    if f.win is not None or not (f.following and f.led == f.trump and f.we_made):
        return None
    if side(f.trick[0][0]) == k.side:
        return None
    low = lowest(f.legal, f.trump)
    equal = [
        c
        for c in f.legal
        if c != low
        and power[c] > power[low]
        and not any(power[low] < power[x] < power[c] for x in k.outstanding(f.trump))
    ]
    return min(equal, key=lambda c: power[c]) if equal else None


def throw_when_you_cannot_win(f: FollowFacts) -> Card | None:
    """No card of this hand beats the adversary's: throw away."""
    return throw(f, f.legal) if f.win is None else None


# -- an adversary is winning and this hand follows suit and can beat him


def take_trumps_with_a_certain_winner(f: FollowFacts) -> Card | None:
    """ "When led through with right and another, play the right, except when the ace is
    turned" (Second Hand): in trumps, take with a certain winner when one is held."""
    if not f.following or f.win is None or not (f.eff[f.win] == f.trump and f.led == f.trump):
        return None
    sure = [c for c in f.legal if f.k.is_boss(c)]
    if sure and not f.last:
        return min(sure, key=lambda c: f.power[c])
    return None


def do_not_finesse_in_lay_cards(f: FollowFacts) -> Card | None:
    """ "Do not finesse in lay cards": win with the highest when others are to play."""
    win = f.win
    if not f.following or win is None or f.last or f.eff[win] == f.trump:
        return None
    top = highest([c for c in f.legal if f.eff[c] == f.led], f.trump)
    return top if beats(top, f.win_card, f.trump, f.led) else win


def win_with_the_cheapest_card(f: FollowFacts) -> Card | None:
    """Following suit, the last to play (or in trumps without a certain winner): win as cheaply
    as can be."""
    return f.win if f.following else None


# -- an adversary is winning and this hand can ruff


def refuse_to_overtrump(f: FollowFacts) -> Card | None:
    """Coup I, "refusing to over trump": an adversary has ruffed; rather than spend the right
    over his small trump, throw a lay card and keep the tenace (right and a small one). "It is
    not good euchre to do this when your partner has assisted." """
    k = f.k
    if not f.ruffing or f.eff[f.win_card] != f.trump or not f.lay or not f.we_made:
        return None
    if len(f.trumps) < 2 or len(f.ruffs) != 1 or not k.is_boss(f.ruffs[0]):
        return None
    assisted = k.maker == k.partner or (
        k.maker == k.seat
        and k.seat == k.dealer
        and not k.turned_down
        and partner(k.dealer) not in k.passed_one
    )
    return None if assisted else throw(f, f.lay)


def refuse_to_ruff_with_the_high_trump(f: FollowFacts) -> Card | None:
    """Case VII, "refusing to ruff when you hold the high trump": the lone hand led a card my
    partner may still beat; the high trump keeps its trick for later."""
    k = f.k
    if (
        f.ruffing
        and k.alone is not None
        and side(k.alone) != k.side
        and f.trick[0][0] == k.alone
        and f.eff[f.win_card] != f.trump
        and not k.is_boss(f.win_card)
        and not f.last
        and f.lay
        and k.is_boss(highest(f.trumps, f.trump))
    ):
        return throw(f, f.lay)
    return None


def do_not_ruff_a_small_card_with_the_right_alone(f: FollowFacts) -> Card | None:
    """ "When playing second to a small card, do not ruff with right alone if it is the first
    trick. Ruff with left alone" (Second Hand)."""
    k, trump, led = f.k, f.trump, f.led
    if not f.ruffing or len(k.tricks) != 0 or len(f.trick) != 1:
        return None
    if len(f.trumps) != 1 or f.trumps[0] != "J" + trump:
        return None
    if led != trump and f.power[f.trick[0][1]] < f.power["Q" + led] and f.lay:
        return throw(f, f.lay)
    return None


def ruff_over_the_turn_up(f: FollowFacts) -> Card | None:
    """ "If you ruff, it is usually well to beat the turn-up" (Third Hand): ruff high enough
    that the adversary after cannot over-ruff cheaply."""
    k = f.k
    if not f.ruffing or f.last:
        return None
    over_turn = [c for c in f.ruffs if f.power[c] > f.power.get(k.turn_up, 0)]
    if k.position() == THIRD and over_turn and k.turn_up != JOKER and not k.turned_down:
        return min(over_turn, key=lambda c: f.power[c])
    return None


def ruff_with_the_lowest_trump(f: FollowFacts) -> Card | None:
    """Otherwise ruff as cheaply as can be."""
    return min(f.ruffs, key=lambda c: f.power[c]) if f.ruffing else None


def throw_away(f: FollowFacts) -> Card | None:
    """Closes the list so that some rule always gives a card: throw away. (Not reached in play:
    a hand that cannot follow suit and can win the trick has a ruff.)"""
    return throw(f, f.legal)


FOLLOW_RULES: tuple[Callable[[FollowFacts], Card | None], ...] = (
    # The partner is winning the trick.
    ruff_partners_winner_to_draw_trumps,
    leave_partners_sure_trick,
    never_trump_partners_trick,
    cover_partner_with_a_master,
    # An adversary is winning and this hand cannot beat him.
    play_the_higher_of_equal_trumps,
    throw_when_you_cannot_win,
    # It follows suit and can beat him.
    take_trumps_with_a_certain_winner,
    do_not_finesse_in_lay_cards,
    win_with_the_cheapest_card,
    # It cannot follow suit and can ruff.
    refuse_to_overtrump,
    refuse_to_ruff_with_the_high_trump,
    do_not_ruff_a_small_card_with_the_right_alone,
    ruff_over_the_turn_up,
    ruff_with_the_lowest_trump,
    throw_away,
)


def throw(f: FollowFacts, cards: list[Card]) -> Card:
    """The card to throw away: the lowest, but "throw away the ace as soon as possible on
    your partner's trick" when holding ace and king of a suit (The Dealer)."""
    trump, eff = f.trump, f.eff
    if f.partner_winning and eff[cards[0]] != f.led:
        for c in cards:
            if c[0] == "A" and eff[c] != trump and ("K" + c[1]) in cards:
                return c
    return lowest(cards, trump)
