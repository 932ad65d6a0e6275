"""The trick-taking core every variant shares: follow suit, win tricks, lead again.

It knows nothing of bidding or scoring. A deal of any variant is a `TrickPlay`: once its trump
is made it calls `start_tricks` with the trump, the seats that play (a lone hand's partner sits
out) and the first leader, then `play_card` for each card. Two- to seven-handed games use it as
it is.

This is the hot path of the computer players' search, so the legal cards are worked out once
per turn and kept, and the trick's winner is kept up to date card by card.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import EFFECTIVE_SUIT, POWER, SUIT_NAMES, Card, Suit
from bot.engine.errors import IllegalAction

_NEXT: dict[tuple[int, tuple[int, ...]], list[int]] = {}


def _next_seats(n: int, active: tuple[int, ...]) -> list[int]:
    """The next seat to play after each active seat, skipping those who sit out (cached)."""
    key = (n, active)
    table = _NEXT.get(key)
    if table is None:
        table = [0] * n
        for i, seat in enumerate(active):
            table[seat] = active[(i + 1) % len(active)]
        _NEXT[key] = table
    return table


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
        "hands", "trump", "active", "to_play", "trick", "tricks", "won", "_next",
        "_effective", "_power", "_led", "_size", "_winner", "_best", "_legal",
    )

    def start_tricks(self, trump: Suit, active: Sequence[int], leader: int) -> None:
        """Begin the play: `self.hands` must hold every seat's cards."""
        n = len(self.hands)
        self.trump = trump
        self.active = active = tuple(sorted(active))
        self.to_play = leader
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[tuple[int, list[tuple[int, Card]]]] = []
        self.won = [0] * n
        self._next = _next_seats(n, active)
        self._effective = EFFECTIVE_SUIT[trump]
        self._power = POWER[trump]
        self._led: Suit | None = None
        self._size = len(self.active)
        self._winner = leader
        self._best = 0
        self._legal: list[Card] | None = None

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the trick on the table (the trump for a led left bower)."""
        return self._led

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play: the suit led if it can follow, else any.

        The list is kept until the next card is played: read it, do not change it.
        """
        legal = self._legal
        if legal is None:
            hand = self.hands[self.to_play]
            led = self._led
            if led is not None:
                effective = self._effective
                legal = [c for c in hand if effective[c] == led] or hand[:]
            else:
                legal = hand[:]
            self._legal = legal
        return legal

    def refusal(self, card: Card) -> IllegalAction:
        """Why the seat to play may not play `card`."""
        hand = self.hands[self.to_play]
        if card not in hand:
            return IllegalAction("you do not hold that card")
        return IllegalAction(f"you must follow {SUIT_NAMES[self._led]}")

    def play_card(self, card: Card) -> None:
        """Play `card` for the seat to play.

        Raises:
            IllegalAction: the card is not held, or it does not follow suit when it must.
        """
        if card not in (self._legal or self.legal_cards()):
            raise self.refusal(card)
        seat = self.to_play
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        self._legal = None
        suit = self._effective[card]
        if self._led is None:
            self._led = suit
            self._winner, self._best = seat, self._power[card]
        elif suit == self.trump or suit == self._led:
            power = self._power[card]
            if power > self._best:
                self._winner, self._best = seat, power
        if len(trick) < self._size:
            self.to_play = self._next[seat]
            return
        winner = self._winner
        self.tricks.append((winner, trick))
        self.won[winner] += 1
        self.trick = []
        self._led = None
        self.to_play = winner if self.hands[winner] else None
