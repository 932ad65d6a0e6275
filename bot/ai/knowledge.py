"""What one seat knows: its hand, the public history, and what follows from them.

A computer player sees the table only through its seat's `MatchView`. `Knowledge` reads that
view once and works out what the seat can infer: the cards still unseen, the suits each other
seat has shown it is void in (it failed to follow), who holds the turn-up, and what the bidding
said (who passed at which suit). Nothing here can reach another seat's hand: the view holds none.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from bot.engine.actions import HIDDEN_DISCARD, ORDER, ORDER_ALONE, PASS, is_call, is_card
from bot.engine.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    POWER,
    SAME_COLOUR,
    SUITS,
    Card,
    Suit,
    make_pack,
)
from bot.engine.deal import DISCARD, SEATS
from bot.engine.match import MatchView

log = logging.getLogger(__name__)


def partner(seat: int) -> int:
    """The partner of a seat."""
    return (seat + 2) % SEATS


def side(seat: int) -> int:
    """The partnership of a seat (0: seats 0 and 2, 1: seats 1 and 3)."""
    return seat & 1


def is_bower(card: Card, trump: Suit) -> bool:
    """The right or left bower (or the Joker) of `trump`."""
    return card == JOKER or (card[0] == "J" and card[1] in (trump, SAME_COLOUR[trump]))


def trumps_of(hand: list[Card] | tuple[Card, ...], trump: Suit) -> list[Card]:
    """The trumps of a hand, highest first."""
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    return sorted((c for c in hand if eff[c] == trump), key=lambda c: -power[c])


@dataclass
class Knowledge:
    """Everything one seat may know at its turn, read from its view.

    Attributes:
        seat: the seat deciding.
        hand: its cards.
        trump: the trump, once made (None while bidding).
        played: every card played so far (finished tricks and the trick on the table).
        voids: for each seat, the suits (effective, under the trump) it has shown it lacks.
        holds: for each seat, cards known to be in its hand though unseen by others
            (the turn-up the dealer took up and has not played).
        unseen: the cards whose place this seat does not know: in another hand or the kitty.
        passed_one: seats that passed the turn-up in round one.
        passed_two: seats that passed in round two.
        maker_action: the declaration that made the trump.
    """

    view: MatchView
    seat: int
    hand: tuple[Card, ...]
    dealer: int
    phase: str
    legal: tuple[str, ...]
    turn_up: Card
    turn_up_suit: Suit | None
    turned_down: bool
    trump: Suit | None
    maker: int | None
    alone: int | None
    defender: int | None
    sitting_out: tuple[int, ...]
    played: set[Card] = field(default_factory=set)
    voids: list[set[Suit]] = field(default_factory=list)
    holds: list[set[Card]] = field(default_factory=list)
    unseen: list[Card] = field(default_factory=list)
    passed_one: set[int] = field(default_factory=set)
    passed_two: set[int] = field(default_factory=set)
    maker_action: str | None = None

    # -- the seats ---------------------------------------------------------------------

    @property
    def partner(self) -> int:
        return partner(self.seat)

    @property
    def side(self) -> int:
        return side(self.seat)

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % SEATS

    @property
    def options(self):
        return self.view.options

    @property
    def my_score(self) -> int:
        return self.view.scores[self.side]

    @property
    def their_score(self) -> int:
        return self.view.scores[1 - self.side]

    def position(self, seat: int | None = None) -> int:
        """Order of speaking from the dealer's left: 0 eldest, 1 second, 2 third, 3 dealer."""
        s = self.seat if seat is None else seat
        return (s - self.dealer - 1) % SEATS

    @property
    def we_made(self) -> bool:
        return self.maker is not None and side(self.maker) == self.side

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        return self.view.deal.trick

    @property
    def tricks(self) -> tuple[tuple[int, tuple[tuple[int, Card], ...]], ...]:
        return self.view.deal.tricks

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return self.view.deal.tricks_won

    def side_tricks(self, s: int) -> int:
        won = self.view.deal.tricks_won
        return won[s] + won[s + 2]

    # -- the cards ---------------------------------------------------------------------

    def remaining_trumps(self) -> list[Card]:
        """Trumps not yet played and not in this hand, highest first."""
        trump = self.trump
        if trump is None:
            return []
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        out = [c for c in self.unseen if eff[c] == trump]
        for s in range(SEATS):
            if s != self.seat:
                out += [c for c in self.holds[s] if eff[c] == trump]
        return sorted(out, key=lambda c: -power[c])

    def outstanding(self, suit: Suit) -> list[Card]:
        """Cards of `suit` (effective) others may still hold, highest first."""
        trump = self.trump
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        out = [c for c in self.unseen if eff[c] == suit]
        for s in range(SEATS):
            if s != self.seat:
                out += [c for c in self.holds[s] if eff[c] == suit]
        return sorted(out, key=lambda c: -power[c])

    def is_boss(self, card: Card) -> bool:
        """Whether no card still out can beat `card` in its own suit."""
        trump = self.trump
        eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
        suit, p = eff[card], power[card]
        for c in self.outstanding(suit):
            if power[c] > p:
                return False
        return True

    def opponents_may_trump(self, suit: Suit) -> bool:
        """Whether an active adversary has shown a void in `suit` but not in trumps."""
        for s in range(SEATS):
            if side(s) == self.side or s in self.sitting_out:
                continue
            if suit in self.voids[s] and self.trump not in self.voids[s]:
                return True
        return False


def _pack(view: MatchView) -> list[Card]:
    options = view.options
    return make_pack(options.lowest_rank, joker=options.joker)


def read(view: MatchView) -> Knowledge:
    """Read a seat's view into `Knowledge`.

    Raises:
        ValueError: the view is the public view (it has no seat).
    """
    deal = view.deal
    if deal.seat is None or deal.hand is None:
        raise ValueError("a computer player needs a seat's view, not the public view")
    seat = deal.seat
    k = Knowledge(
        view=view,
        seat=seat,
        hand=tuple(deal.hand),
        dealer=deal.dealer,
        phase=deal.phase,
        legal=tuple(deal.legal),
        turn_up=deal.turn_up,
        turn_up_suit=deal.turn_up_suit,
        turned_down=deal.turned_down,
        trump=deal.trump,
        maker=deal.maker,
        alone=deal.alone,
        defender=deal.defender,
        sitting_out=tuple(deal.sitting_out),
    )
    k.voids = [set() for _ in range(SEATS)]
    k.holds = [set() for _ in range(SEATS)]

    # The bidding: who passed at which suit, and the words that made the trump. Passes after
    # the trump is made (declining to go alone or to defend alone) say nothing of the suit.
    passes = 0
    for s, action in deal.declarations:
        if k.maker_action is not None:
            break
        if action == PASS:
            if passes < SEATS:
                k.passed_one.add(s)
            else:
                k.passed_two.add(s)
            passes += 1
        elif action in (ORDER, ORDER_ALONE):
            k.maker_action = action
        elif is_call(action) and passes >= SEATS:
            k.maker_action = action
        # Otherwise: the dealer naming the Joker's suit before round one.

    # The play: every card seen, and every failure to follow.
    trump = deal.trump
    played: set[Card] = set()
    all_tricks = [t for _, t in deal.tricks]
    if deal.trick:
        all_tricks.append(deal.trick)
    if trump is not None:
        eff = EFFECTIVE_SUIT[trump]
        for trick in all_tricks:
            led = eff[trick[0][1]]
            for s, card in trick:
                played.add(card)
                if eff[card] != led:
                    k.voids[s].add(led)
    k.played = played

    # Where the turn-up is: turned down, it lies in the kitty; taken up, the dealer holds it
    # until he plays it (or he discarded it, where the options allow that).
    known: set[Card] = set(deal.hand) | played
    if deal.discard is not None:
        known.add(deal.discard)
    turn_up = deal.turn_up
    # The dealer took it up if he is discarding or has discarded (his discard is a card code
    # in his own view, "discard" in the others').
    taken_up = deal.phase == DISCARD or any(
        s == deal.dealer and (action == HIDDEN_DISCARD or is_card(action))
        for s, action in deal.declarations
    )
    if not taken_up or turn_up in played or seat == deal.dealer:
        known.add(turn_up)
    elif not view.options.discard_turn_up or trump not in k.voids[deal.dealer]:
        # The dealer may have thrown the turn-up out where the options allow it, but holding
        # it is by far the likelier: treat it as held unless he showed he has no trump.
        k.holds[deal.dealer].add(turn_up)
        known.add(turn_up)
    else:
        # He showed he has no trump, so he threw the turn-up out: it lies in the kitty, in no
        # hand (`sampling.original_hands` makes it his discard).
        known.add(turn_up)
    k.unseen = [c for c in _pack(view) if c not in known]
    return k


def suit_counts(hand: tuple[Card, ...] | list[Card], trump: Suit | None) -> dict[Suit, int]:
    """How many cards of each suit (effective under `trump`) a hand holds."""
    eff = EFFECTIVE_SUIT[trump]
    counts = dict.fromkeys(SUITS, 0)
    for c in hand:
        counts[eff[c]] += 1
    return counts
