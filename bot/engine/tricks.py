"""The trick-taking core every variant shares: follow suit, win tricks, lead again.

It knows nothing of bidding or scoring. A deal of any variant is a `TrickPlay`: once its trump
is made it calls `start_tricks` with the trump, the seats that play (a lone hand's partner sits
out) and the first leader, then `play_card` for each card. Two- to seven-handed games use it as
it is.

This is the hot path of the computer players' search (every playout plays its twenty cards
here), so the legal cards of the seat to play are worked out as soon as the turn passes to it,
and the trick's winner is kept up to date card by card. The hands are the deal's own: change
them only by playing cards, or the kept legal cards go stale.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import EFFECTIVE_SUIT, SUIT_NAMES, SUITS, Card, Suit, trick_power
from bot.engine.errors import IllegalAction

_Lead = tuple[dict[Card, int], frozenset[Card]]


def _lead_tables(trump: Suit | None, led: Suit) -> _Lead:
    """What a trick led in `led` needs, worked out once per trump and suit led.

    Returns:
        (how strongly each card plays to the trick: its power when it follows or trumps, 0
        when it can do neither; the cards that follow the suit led). Both come from
        `trick_power` and `EFFECTIVE_SUIT`, the one source of truth for the bowers and the
        Joker. With them a card is weighed with one lookup, and whether it follows is one
        test of a set.
    """
    effective = EFFECTIVE_SUIT[trump]
    powers = {card: trick_power(card, trump, led) for card in effective}
    follows = frozenset(card for card, suit in effective.items() if suit == led)
    return powers, follows


_LEADS: dict[Suit | None, dict[Suit, _Lead]] = {
    trump: {led: _lead_tables(trump, led) for led in SUITS} for trump in EFFECTIVE_SUIT
}

_STARTS: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], list[int]]] = {}


def _seating(key: tuple[int, tuple[int, ...]]) -> tuple[tuple[int, ...], list[int]]:
    """For (seats at the table, active seats): the active seats in seat order, and the next
    seat to play after each of them, skipping those who sit out.

    There are only a few seatings, so each is worked out once and kept in `_STARTS`.
    """
    n, active = key
    ordered = tuple(sorted(active))
    table = [0] * n
    for i, seat in enumerate(ordered):
        table[seat] = ordered[(i + 1) % len(ordered)]
    seating = _STARTS[key] = (ordered, table)
    return seating


class TrickPlay:
    """The play of one deal's tricks.

    Attributes:
        hands: each seat's cards (every seat, also those sitting out).
        trump: the trump suit, once made.
        active: the seats that play, in seat order.
        to_play: the seat whose card is next, or None when every card is played.
        trick: the cards on the table, as (seat, card) in the order played.
        tricks: every finished trick, as (winner, [(seat, card) in the order played]).
        won: tricks taken by each seat.
    """

    __slots__ = (
        "hands",
        "trump",
        "active",
        "to_play",
        "trick",
        "tricks",
        "won",
        "_next",
        "_effective",
        "_leads",
        "_powers",
        "_follows",
        "_led",
        "_leader",
        "_winner",
        "_best",
        "_legal",
    )

    hands: list[list[Card]]
    trump: Suit | None
    to_play: int | None

    def start_tricks(self, trump: Suit | None, active: Sequence[int], leader: int) -> None:
        """Begin the play: `self.hands` must hold every seat's cards."""
        n = len(self.hands)
        self.trump = trump
        key = (n, tuple(active))
        self.active, self._next = _STARTS.get(key) or _seating(key)
        self.to_play = leader
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[tuple[int, list[tuple[int, Card]]]] = []
        self.won = [0] * n
        self._effective = EFFECTIVE_SUIT[trump]
        self._leads = _LEADS[trump]  # each lead sets _powers and _follows from it
        self._led: Suit | None = None
        self._winner = leader
        self._best = 0
        self._legal: list[Card] = self.hands[leader][:]  # the leader may lead any card

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the trick on the table (the trump for a led left bower)."""
        return self._led

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play: the suit led if it can follow, else any.

        Worked out by `play_card` when the turn passes (empty once every card is played). The
        list is kept until the next card is played: read it, do not change it.
        """
        return self._legal

    def refusal(self, card: Card) -> IllegalAction:
        """Why the seat to play may not play `card`."""
        if self.to_play is None:
            return IllegalAction("every card is played")
        hand = self.hands[self.to_play]
        if card not in hand or self._led is None:
            return IllegalAction("you do not hold that card")
        return IllegalAction(f"you must follow {SUIT_NAMES[self._led]}")

    def play_card(self, card: Card) -> None:
        """Play `card` for the seat to play.

        Raises:
            IllegalAction: the card is not held, or it does not follow suit when it must.
        """
        if card not in self._legal:
            raise self.refusal(card)
        # Not None: `_legal` is empty once every card is played. (No cast: this is the hot path.)
        seat: int = self.to_play  # type: ignore[assignment]
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        if self._led is None:
            # The lead sets the suit led, and so how every later card of the trick weighs.
            led = self._led = self._effective[card]
            powers, self._follows = self._leads[led]
            self._powers = powers
            self._leader = self._winner = seat
            self._best = powers[card]
        else:
            power = self._powers[card]  # 0 when it neither follows nor trumps
            if power > self._best:
                self._winner, self._best = seat, power
        seat = self._next[seat]
        if seat != self._leader:  # every active seat has played when the turn is back to the leader
            # The next seat must follow the suit led if it can. Worked out here rather than
            # when asked, so a playout's legal_actions() costs no call; and as a plain loop,
            # the cheapest way in Python 3.11 (a list comprehension is a call of its own, and
            # `filter` costs a call per card).
            self.to_play = seat
            hand = self.hands[seat]
            follows = self._follows
            legal = []
            for held in hand:
                if held in follows:
                    legal.append(held)
            self._legal = legal or hand[:]
            return
        winner = self._winner
        self.tricks.append((winner, trick))
        self.won[winner] += 1
        self.trick = []
        self._led = None
        hand = self.hands[winner]
        if hand:
            self.to_play, self._legal = winner, hand[:]  # the winner leads any card
        else:
            self.to_play, self._legal = None, []
