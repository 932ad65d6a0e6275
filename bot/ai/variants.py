"""Computer players for the variants, at two levels: pure functions of one seat's view.

    player = make_variant_player("standard", seed=7)
    action = player.choose(match.view_for(seat))   # one of view.deal.legal

Each plays for his side, or, where each plays for himself, against the maker when he is not
the maker: the maker's adversaries are one another's allies for the deal (K, "all the other
players combine to defeat him").

- `easy`: makes the trump or bids three with three trumps and a bower, leads its aces, takes a
  trick as cheaply as it can unless an ally holds it, never declares (it throws up as
  `standard` does).
- `standard`: counts its hand in tricks (`bot.ai.common.strength`) and bids what it can make,
  with an allowance for a partner's help; leads trumps while it holds the best one left, keeps
  track of the cards played, takes a first trick where a trickless hand would be set back, and
  in set-back throws up a hand with no trick in it, but never against a declaration of all
  five.

`expert` is not offered for the variants: its sampler models the four-handed deal's hidden
cards (the turn-up, the discard, the partnerships), not these.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.common import (
    cheapest_winner,
    discard_choice,
    hand_after_pickup,
    has_left,
    has_right,
    highest,
    lowest,
    strength,
    trick_winner,
    trump_cards,
)
from bot.engine import actions as act
from bot.engine.cards import EFFECTIVE_SUIT, POWER, SUITS, Card, Suit
from bot.engine.variants.deal import (
    BIDDING,
    DECLARE,
    DISCARD,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
    THROW_UP,
    TRUMP,
    VariantDealView,
)
from bot.engine.variants.match import VariantMatchView
from bot.engine.variants.rules import BID_SUIT, SET_BACK
from bot.engine.variants.scoring import MARCH_POINTS

VARIANT_LEVELS = ("easy", "standard")


def allies(view: VariantDealView, seat: int) -> bool:
    """Whether `seat` plays on the same side as the viewer in this deal."""
    me = view.seat
    assert me is not None
    if view.partners:
        return (seat & 1) == (me & 1)
    maker = view.maker
    if seat == me:
        return True
    return maker is not None and me != maker and seat != maker


def _good_enough(hand: Sequence[Card], trump: Suit) -> bool:
    """Three trumps, one of them a bower."""
    return len(trump_cards(hand, trump)) >= 3 and (has_right(hand, trump) or has_left(hand, trump))


def _best_suit(hand: Sequence[Card], suits: Sequence[Suit] = SUITS) -> Suit:
    return max(suits, key=lambda s: (strength(hand, s), s))


# Set-back: a hand counted below this, by the number of players, is thrown up: kept, it takes no
# trick in most deals and costs a point. The more players, the fewer tricks each: with four
# standard players keeping hands down to 0.45, most games had not ended after 500 deals; at 1.5
# they end in about ten. (Two-handed, throwing up hands the maker a march.)
_THROW_UP_BELOW = {2: 0.45, 3: 1.0}
_THROW_UP_BELOW_MANY = 1.5


class VariantPlayer:
    """A level: `choose(view)` returns one of `view.deal.legal`; subclasses decide each phase."""

    level = ""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # kept for the common interface; no choice here is random

    def choose(self, view: VariantMatchView) -> str:
        """One of the seat's legal actions. A forced action takes no thought.

        Raises:
            ValueError: the view offers this seat no action.
        """
        deal = view.deal
        legal = deal.legal
        if not legal:
            raise ValueError("this seat has nothing to do")
        if len(legal) == 1:
            return legal[0]
        action = self.decide(view)
        return action if action in legal else legal[0]

    def decide(self, view: VariantMatchView) -> str:
        deal = view.deal
        hand = list(deal.hand or ())
        phase = deal.phase
        if phase == ROUND_ONE:
            return self.order(view, hand)
        if phase == DISCARD:
            assert deal.trump is not None and deal.turn_up is not None
            return discard_choice(hand, deal.trump, deal.turn_up, False, False)
        if phase == ROUND_TWO:
            return self.name_in_round_two(view, hand)
        if phase == BIDDING:
            return self.bid(view, hand)
        if phase == TRUMP:
            return act.call(_best_suit(hand))
        if phase == DECLARE:
            return self.declare(view, hand)
        if phase == THROW_UP:
            return self.throw_up(view, hand)
        if phase == PLAY:
            return self.card(view, hand)
        return deal.legal[0]

    # Each level writes these.
    def order(self, view: VariantMatchView, hand: list[Card]) -> str:
        raise NotImplementedError

    def name_in_round_two(self, view: VariantMatchView, hand: list[Card]) -> str:
        raise NotImplementedError

    def bid(self, view: VariantMatchView, hand: list[Card]) -> str:
        raise NotImplementedError

    def declare(self, view: VariantMatchView, hand: list[Card]) -> str:
        return act.PASS

    def throw_up(self, view: VariantMatchView, hand: list[Card]) -> str:
        """Set-back: throw up a hand that counts too little to take a trick. Every level does:
        with many players most hands kept take no trick and are set back one, and a game of
        five or six at which the easy computers kept every hand did not end in 400 deals,
        even with a member who threw up his.

        Never against a declaration of all five (K): a hand thrown up takes no trick, so with
        every other hand thrown up the declarer would take all five unopposed and win the game
        outright, where a single trick sets him back by his whole score. Nor, for the same
        reason, when a march would bring the maker to 0 and everyone before this seat threw
        up: the last hand kept is all that stands between him and the game."""
        deal = view.deal
        trump = deal.trump
        assert trump is not None and deal.maker is not None and deal.seat is not None
        if deal.declared:
            return act.PASS
        if view.scores[deal.maker] <= MARCH_POINTS and _alone_against_maker(deal):
            return act.PASS
        below = _THROW_UP_BELOW.get(view.variant.players, _THROW_UP_BELOW_MANY)
        return act.THROW_UP if strength(hand, trump) < below else act.PASS

    def card(self, view: VariantMatchView, hand: list[Card]) -> str:
        raise NotImplementedError


def _alone_against_maker(deal: VariantDealView) -> bool:
    """Set-back's throw-ups: whether every other player who has spoken threw up his hand, so
    that this seat's hand may be the last kept against the maker."""
    order = [(deal.dealer + k) % deal.players for k in range(1, deal.players + 1)]
    before = order[: order.index(deal.seat)] if deal.seat in order else []
    return all(s in deal.thrown for s in before if s != deal.maker)


def _after_pickup(deal: VariantDealView, hand: list[Card]) -> list[Card]:
    """The hand this seat would hold were the turn-up made trump (the dealer's after his discard)."""
    assert deal.turn_up is not None and deal.turn_up_suit is not None
    if deal.seat == deal.dealer:
        return hand_after_pickup(hand, deal.turn_up, deal.turn_up_suit, False, False)
    return hand


class EasyVariantPlayer(VariantPlayer):
    """Plays legally and plainly."""

    level = "easy"

    def order(self, view: VariantMatchView, hand: list[Card]) -> str:
        deal = view.deal
        assert deal.turn_up_suit is not None
        return act.ORDER if _good_enough(_after_pickup(deal, hand), deal.turn_up_suit) else act.PASS

    def name_in_round_two(self, view: VariantMatchView, hand: list[Card]) -> str:
        down = view.deal.turn_up_suit
        best = _best_suit(hand, [s for s in SUITS if s != down])
        return act.call(best) if _good_enough(hand, best) else act.PASS

    def bid(self, view: VariantMatchView, hand: list[Card]) -> str:
        best = _best_suit(hand)
        if not _good_enough(hand, best):
            return act.PASS
        suit = best if view.variant.auction == BID_SUIT else None
        return act.bid(3, suit)

    def card(self, view: VariantMatchView, hand: list[Card]) -> str:
        deal = view.deal
        trump = deal.trump
        assert trump is not None and deal.seat is not None
        legal = list(deal.legal)
        eff = EFFECTIVE_SUIT[trump]
        if not deal.trick:
            aces = [c for c in legal if c[0] == "A" and eff[c] != trump]
            if aces:
                return aces[0]
            trumps = [c for c in legal if eff[c] == trump]
            if trumps and deal.maker is not None and allies(deal, deal.maker):
                return highest(trumps, trump)
            return lowest(legal, trump)
        winner, _ = trick_winner(deal.trick, trump)
        if allies(deal, winner):
            return lowest(legal, trump)
        win = cheapest_winner(legal, deal.trick, trump)
        return win if win is not None else lowest(legal, trump)


# Standard: what a partner's hand is worth to the bid, in tricks. A French partner holds five
# of the 24 cards; the two six-handed partners ten of 30.
_PARTNER_TRICKS = {2: 1.0, 3: 1.0}
# A bid is what the hand counts for less this margin: a failed bid gives the adversaries as
# much as a made one would have scored.
_BID_MARGIN = 0.5
# Six-handed: with three to a side, holding the bid matters more than its risk (measured: a
# margin of 0.5 and above lost duels to easy that 0.0 won).
_SIX_HANDED_MARGIN = 0.0
# The counts of a hand (`strength`) at which each level of play is worth making.
# Making the trump against one adversary, and against two or more (measured in duels against
# easy: 2.2 beat 1.9, 2.5 and 2.9 two-handed; 2.5 beat 1.9, 2.2 and 3.0 three-handed).
_ORDER_ALONE = 2.2
_ORDER_AGAINST_TWO_OR_MORE = 2.5
_DECLARE_ALL = 4.6


class StandardVariantPlayer(VariantPlayer):
    """Sound rules of thumb: bid what the hand counts for, lead trumps while they are the best."""

    level = "standard"

    def order(self, view: VariantMatchView, hand: list[Card]) -> str:
        deal = view.deal
        assert deal.turn_up_suit is not None
        count = strength(_after_pickup(deal, hand), deal.turn_up_suit)
        return act.ORDER if count >= self._needed(view) else act.PASS

    def name_in_round_two(self, view: VariantMatchView, hand: list[Card]) -> str:
        down = view.deal.turn_up_suit
        best = _best_suit(hand, [s for s in SUITS if s != down])
        return act.call(best) if strength(hand, best) >= self._needed(view) else act.PASS

    def _needed(self, view: VariantMatchView) -> float:
        """The count of a hand that makes three tricks against every other player."""
        needed = _ORDER_ALONE if view.variant.players == 2 else _ORDER_AGAINST_TWO_OR_MORE
        if view.variant.scoring == SET_BACK:
            needed += 0.2  # a euchre sets back two: be surer
        return needed

    def bid(self, view: VariantMatchView, hand: list[Card]) -> str:
        deal = view.deal
        if view.variant.partners and _high_bidder(deal) in _partners(deal):
            return act.PASS  # a partner holds the bid: outbidding him only raises our own stake
        best = _best_suit(hand)
        count = strength(hand, best)
        if view.variant.partners:
            count += _PARTNER_TRICKS[view.variant.players // 2]
        margin = (
            _SIX_HANDED_MARGIN
            if view.variant.players == 6 and view.variant.partners
            else _BID_MARGIN
        )
        tricks = min(act.MAX_BID, int(count - margin))
        if _good_enough(hand, best):
            tricks = max(tricks, 3)  # three trumps and a bower make three often enough
        tricks = max(tricks, _sure_tricks(hand, best, view.variant.pack))
        if tricks <= (deal.bid or 0) or tricks < 1:
            return act.PASS
        return act.bid(tricks, best if view.variant.auction == BID_SUIT else None)

    def declare(self, view: VariantMatchView, hand: list[Card]) -> str:
        """Declare a hand that counts for all five, unless a plain march already wins: at two
        or less a march deducts the whole score, and a declaration only adds the risk of being
        set back by it (K)."""
        deal = view.deal
        trump = deal.trump
        assert trump is not None and deal.seat is not None
        if view.scores[deal.seat] <= MARCH_POINTS:
            return act.PASS
        return act.DECLARE if strength(hand, trump) >= _DECLARE_ALL else act.PASS

    def card(self, view: VariantMatchView, hand: list[Card]) -> str:
        deal = view.deal
        trump = deal.trump
        assert trump is not None and deal.seat is not None
        legal = list(deal.legal)
        if not deal.trick:
            return self._lead(view, legal, trump)
        return self._follow(view, legal, trump)

    def _lead(self, view: VariantMatchView, legal: list[Card], trump: Suit) -> Card:
        deal = view.deal
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        out = _unplayed(view)
        trumps = [c for c in legal if eff[c] == trump]
        we_made = deal.maker is not None and allies(deal, deal.maker)
        # Draw trumps while holding the best one left: each round takes two of theirs.
        if trumps and we_made:
            top = highest(trumps, trump)
            if all(power[top] > power[c] for c in out if eff[c] == trump):
                return top
        # Otherwise a card that is the best left in its suit, an ace first.
        for card in sorted(legal, key=lambda c: -power[c]):
            suit = eff[card]
            if suit != trump and all(power[card] > power[c] for c in out if eff[c] == suit):
                return card
        if trumps and we_made and len(trumps) >= 2:
            return highest(trumps, trump)
        return lowest(legal, trump)

    def _follow(self, view: VariantMatchView, legal: list[Card], trump: Suit) -> Card:
        deal = view.deal
        me = deal.seat
        assert me is not None
        winner, best = trick_winner(deal.trick, trump)
        win = cheapest_winner(legal, deal.trick, trump)
        # A player of set-back who has no trick yet is set back one if he takes none: he takes
        # one where he can, even from an ally.
        needs_a_trick = view.variant.scoring == SET_BACK and deal.tricks_won[me] == 0
        if win is None:
            return lowest(legal, trump)
        if allies(deal, winner) and not needs_a_trick:
            # An ally's card that will hold is left to win; one that may be beaten is overtaken
            # only by a card sure to hold, or the trick may cost two good cards of one side.
            if self._holds(view, best, trump) or not self._holds(view, win, trump):
                return lowest(legal, trump)
        return win

    def _holds(self, view: VariantMatchView, best: Card, trump: Suit) -> bool:
        """Whether `best` is likely to win the trick: the last to play after it are allies,
        or no unplayed card of its suit or trump beats it."""
        deal = view.deal
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        played = len(deal.trick) + 1  # counting this seat's card
        active = deal.players - len(deal.thrown)
        if played == active:
            return True
        suit = eff[best]
        return all(
            power[c] <= power[best] or (eff[c] != suit and eff[c] != trump) for c in _unplayed(view)
        )


def _sure_tricks(hand: Sequence[Card], trump: Suit, pack: Sequence[Card]) -> int:
    """The trumps held in an unbroken run from the highest in the pack: each takes a trick."""
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    trumps = sorted((c for c in pack if eff[c] == trump), key=lambda c: -power[c])
    held = set(hand)
    run = 0
    while run < len(trumps) and trumps[run] in held:
        run += 1
    return run


def _high_bidder(deal: VariantDealView) -> int | None:
    """The seat of the highest bid so far (the last bid made: each must be higher)."""
    bids = [seat for seat, action in deal.declarations if act.is_bid(action)]
    return bids[-1] if bids else None


def _partners(deal: VariantDealView) -> tuple[int, ...]:
    me = deal.seat
    assert me is not None
    return tuple(s for s in range(deal.players) if s != me and (s & 1) == (me & 1))


def _unplayed(view: VariantMatchView) -> set[Card]:
    """The cards of the pack this seat has not seen: not in its hand, not played.

    (A card seen in another's hand cannot be: the turn-up, once taken, is only the dealer's.)
    """
    deal = view.deal
    seen = set(deal.hand or ())
    seen.update(card for _, trick in deal.tricks for _, card in trick)
    seen.update(card for _, card in deal.trick)
    return {c for c in view.variant.pack if c not in seen}


def make_variant_player(level: str, seed: int | None = None) -> VariantPlayer:
    """A computer player of the variants at `level` (`easy` or `standard`).

    Raises:
        ValueError: an unknown level, or `expert`, which the variants do not offer.
    """
    name = (level or "standard").strip().lower()
    if name == "easy":
        return EasyVariantPlayer(seed)
    if name == "standard":
        return StandardVariantPlayer(seed)
    raise ValueError(f"the variants offer the levels {', '.join(VARIANT_LEVELS)}, not {level!r}")
