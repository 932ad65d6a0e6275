"""Small helpers every level shares: the trick on the table, hand shapes, the discard.

All of them read only a hand and public facts (the trick, the trump), so any level, and the
expert's playouts, may use them on any seat without peeking.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from bot.engine.cards import EFFECTIVE_SUIT, JOKER, POWER, SAME_COLOUR, SUITS, Card, Suit
from bot.engine.match import MatchView

# Plain-suit ranks high to low, for "the lowest card" and "the highest card".
PLAIN_ORDER = "AKQJT987"


def trick_winner(trick: Sequence[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    """The (seat, card) winning the trick so far."""
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    led = eff[trick[0][1]]
    best = trick[0]
    best_power = power[best[1]]
    for seat, card in trick[1:]:
        suit = eff[card]
        if (suit == trump or suit == led) and power[card] > best_power:
            best, best_power = (seat, card), power[card]
    return best


def beats(card: Card, best: Card, trump: Suit, led: Suit) -> bool:
    """Whether `card` played now would beat `best`, the card winning a trick led in `led`."""
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    suit = eff[card]
    if suit != trump and suit != led:
        return False
    best_suit = eff[best]
    if best_suit == trump and suit != trump:
        return False
    return power[card] > power[best]


def value(card: Card, trump: Suit) -> int:
    """A card's worth to keep: trumps above every plain card, aces above kings."""
    return POWER[trump][card]


def lowest(cards: Sequence[Card], trump: Suit) -> Card:
    """The card least worth keeping: the lowest plain card, or the lowest trump if all are trumps.

    Among equal plain ranks, the card of the longest suit goes first, keeping short suits
    for ruffing later.
    """
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    return min(cards, key=lambda c: (eff[c] == trump, power[c], c))


def highest(cards: Sequence[Card], trump: Suit) -> Card:
    """The strongest card of `cards`."""
    power = POWER[trump]
    return max(cards, key=lambda c: (power[c], c))


def cheapest_winner(
    cards: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: Suit
) -> Card | None:
    """The lowest card of `cards` that would win the trick now, or None."""
    if not trick:
        return None
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    led = eff[trick[0][1]]
    _, best = trick_winner(trick, trump)
    winners = [c for c in cards if beats(c, best, trump, led)]
    if not winners:
        return None
    # A plain card that wins is cheaper than any trump.
    return min(winners, key=lambda c: (eff[c] == trump, power[c]))


def hand_after_pickup(
    hand: Sequence[Card], turn_up: Card, trump: Suit, lone: bool, may_discard_turn_up: bool
) -> list[Card]:
    """The dealer's five cards after taking the turn-up and making the plain discard."""
    six = [*hand, turn_up]
    out = discard_choice(six, trump, turn_up, lone, may_discard_turn_up)
    six.remove(out)
    return six


def discard_choice(
    six: Sequence[Card], trump: Suit, turn_up: Card, lone: bool, may_discard_turn_up: bool
) -> Card:
    """The discard: the lowest card of a short suit, keeping aces (Somerset, "The Dealer").

    "Discard the lowest card of a short suit; with three trumps, ace, seven of one suit and an
    outside king, discard the king." A lone hand would rather keep two cards that win in one
    suit and make a void: "with three trumps, ace, king of hearts and ace of diamonds, discard
    the king of hearts, except when playing a lone hand, in which case discard the ace of
    diamonds."
    """
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    allowed = [c for c in six if may_discard_turn_up or c != turn_up]
    lay = [c for c in allowed if eff[c] != trump]
    if not lay:
        return min(allowed, key=lambda c: power[c])
    count = {s: 0 for s in SUITS}
    for c in six:
        count[eff[c]] += 1
    if lone:
        # Keep the cards that can win: a lone hand throws the singleton that leaves a void,
        # unless another suit holds a losing card.
        def lone_key(c: Card) -> tuple:
            suit_cards = [x for x in six if eff[x] == eff[c]]
            top = max(power[x] for x in suit_cards)
            return (count[eff[c]], top == power[c] and c[0] == "A", power[c])

        return min(lay, key=lone_key)
    non_aces = [c for c in lay if c[0] != "A"] or lay
    return min(non_aces, key=lambda c: (count[eff[c]], power[c], c))


def trump_cards(hand: Sequence[Card], trump: Suit) -> list[Card]:
    """The trumps of a hand, highest first."""
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    return sorted((c for c in hand if eff[c] == trump), key=lambda c: -power[c])


def outside_aces(hand: Sequence[Card], trump: Suit) -> int:
    eff = EFFECTIVE_SUIT[trump]
    return sum(1 for c in hand if c[0] == "A" and eff[c] != trump)


def has_right(hand: Sequence[Card], trump: Suit) -> bool:
    return ("J" + trump) in hand


def has_left(hand: Sequence[Card], trump: Suit) -> bool:
    return ("J" + SAME_COLOUR[trump]) in hand


def has_joker(hand: Sequence[Card]) -> bool:
    return JOKER in hand


def voids(hand: Sequence[Card], trump: Suit) -> int:
    """Plain suits the hand holds no card of."""
    eff = EFFECTIVE_SUIT[trump]
    held = {eff[c] for c in hand}
    return sum(1 for s in SUITS if s != trump and s not in held)


def strength(hand: Sequence[Card], trump: Suit) -> float:
    """A rough count of the tricks a hand takes with `trump`: trumps by rank, aces, voids.

    The scale is tricks: about 3 is a hand that should make the trump with a partner's help.
    """
    eff, power = EFFECTIVE_SUIT[trump], POWER[trump]
    total = 0.0
    trumps = 0
    for c in hand:
        if eff[c] == trump:
            trumps += 1
            p = power[c]
            if p >= 120:  # Joker, right bower
                total += 1.0
            elif p >= 110:  # left bower
                total += 0.85
            elif c[0] == "A":
                total += 0.7
            elif c[0] == "K":
                total += 0.55
            elif c[0] == "Q":
                total += 0.45
            else:
                total += 0.4
        elif c[0] == "A":
            total += 0.6
        elif c[0] == "K":
            total += 0.2 if ("A" + c[1]) in hand else 0.1
    if trumps >= 2:
        total += 0.25 * voids(hand, trump) * min(trumps - 1, 2)
    return total


def seeded_rng(seed: int | None, view: MatchView, salt: str = "") -> random.Random:
    """A generator that depends only on the seed and what the view shows.

    The same seed and the same view always give the same generator, so a player's choice can
    be replayed; nothing outside the view (least of all another seat's hand) can change it.
    """
    deal = view.deal
    text = repr(
        (
            seed,
            salt,
            deal.seat,
            deal.hand,
            deal.dealer,
            deal.turn_up,
            deal.declarations,
            deal.trick,
            deal.tricks,
            deal.phase,
            view.scores,
            view.game_number,
        )
    )
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))
