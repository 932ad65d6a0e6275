"""Cards, packs, and the order of cards once a trump is made.

A card is its canonical code, a short string: rank then suit, `"JH"`, `"TD"`, `"9S"`, `"AC"`,
and `"BJ"` for the Joker. Strings keep cards readable in logs, records and button ids, and
they hash and compare fast, which the search of the computer players needs.

Everything that depends on the trump (which suit a card follows, which card wins a trick) is
looked up in tables built once per trump suit: `effective_suit` and `trick_power` are the one
source of truth for the bowers and the Joker, used by following suit and by trick winners alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from sys import intern

from bot.engine.errors import CardError
from bot.engine.quoting import quoted

Card = str
Suit = str

SPADES, HEARTS, DIAMONDS, CLUBS = "S", "H", "D", "C"
SUITS: tuple[Suit, ...] = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_NAMES = {SPADES: "spades", HEARTS: "hearts", DIAMONDS: "diamonds", CLUBS: "clubs"}
SUIT_SYMBOLS = {SPADES: "♠", HEARTS: "♥", DIAMONDS: "♦", CLUBS: "♣"}
# The suit of the same colour: where the left bower comes from.
SAME_COLOUR = {SPADES: CLUBS, CLUBS: SPADES, HEARTS: DIAMONDS, DIAMONDS: HEARTS}

JOKER: Card = "BJ"

# Ranks high to low in plain suits. Sixes exist only for seven-handed Napoleon.
RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6")
RANK_NAMES = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "T": "ten",
    "9": "nine",
    "8": "eight",
    "7": "seven",
    "6": "six",
}
_PLAIN_VALUE = {rank: len(RANKS) - i for i, rank in enumerate(RANKS)}  # A=9 ... 6=1
# Cutting for partners and deal: jack high, then A K Q 10 9 8 7 (J.3, S.8); suits do not rank.
_CUT_VALUE = {"J": 20, **{r: v for r, v in _PLAIN_VALUE.items() if r != "J"}}


def rank_of(card: Card) -> str:
    """The rank letter of a card (`"T"` for a ten); `"B"` for the Joker."""
    return card[0]


def suit_of(card: Card) -> Suit | None:
    """The printed suit of a card, or None for the Joker (its suit is the trump's)."""
    return None if card == JOKER else card[1]


def make_pack(lowest: str = "7", joker: bool = False, sixes: bool = False) -> list[Card]:
    """A fresh pack in a fixed order.

    Args:
        lowest: the lowest rank kept: "7" for the 32-card pack, "9" for the 24-card pack.
        joker: add the Joker.
        sixes: add the four sixes (seven-handed Napoleon).
    """
    if lowest not in RANKS:
        raise CardError(f"unknown rank {quoted(lowest)}")
    keep = RANKS[: RANKS.index(lowest) + 1]
    if sixes and "6" not in keep:
        keep = keep + ("6",)
    # Interned, so every pack and every trump table holds the very same string for a card:
    # the tables' lookups then match on identity and never compare characters.
    pack = [intern(rank + suit) for suit in SUITS for rank in keep]
    if joker:
        pack.append(JOKER)
    return pack


# ---------------------------------------------------------------------------------------------
# Parsing: what players type, what records hold.

_SUIT_ALIASES = {
    "S": SPADES,
    "♠": SPADES,
    "♤": SPADES,
    "SPADE": SPADES,
    "SPADES": SPADES,
    "H": HEARTS,
    "♥": HEARTS,
    "♡": HEARTS,
    "HEART": HEARTS,
    "HEARTS": HEARTS,
    "D": DIAMONDS,
    "♦": DIAMONDS,
    "♢": DIAMONDS,
    "DIAMOND": DIAMONDS,
    "DIAMONDS": DIAMONDS,
    "C": CLUBS,
    "♣": CLUBS,
    "♧": CLUBS,
    "CLUB": CLUBS,
    "CLUBS": CLUBS,
}
_RANK_ALIASES = {
    "A": "A",
    "ACE": "A",
    "K": "K",
    "KING": "K",
    "Q": "Q",
    "QUEEN": "Q",
    "J": "J",
    "JACK": "J",
    "KNAVE": "J",
    "T": "T",
    "10": "T",
    "TEN": "T",
    "9": "9",
    "NINE": "9",
    "8": "8",
    "EIGHT": "8",
    "7": "7",
    "SEVEN": "7",
    "6": "6",
    "SIX": "6",
}
_JOKER_NAMES = {"BJ", "JOKER", "B", "JK", "🃏"}
_SHORT = re.compile(r"^(10|[AKQJT9876])\s*([SHDC♠♤♥♡♦♢♣♧])$")
_LONG = re.compile(r"^([A-Z0-9]+)\s+OF\s+([A-Z]+)$")


def parse_suit(text: str) -> Suit:
    """A suit from a letter, symbol or name (`"h"`, `"♥"`, `"hearts"`).

    Raises:
        CardError: the text names no suit.
    """
    suit = _SUIT_ALIASES.get(text.strip().upper())
    if suit is None:
        raise CardError(f"unknown suit {quoted(text)}: use spades, hearts, diamonds or clubs")
    return suit


def parse_card(text: str) -> Card:
    """A card from a code, symbol form or name, case-insensitive.

    Takes `JH`, `jh`, `TD`, `10D`, `10♦`, `J♥`, `jack of hearts`, `BJ`, `joker`.

    Raises:
        CardError: the text names no card.
    """
    raw = text.strip().upper()
    if raw in _JOKER_NAMES:
        return JOKER
    match = _SHORT.match(raw)
    if match:
        rank, suit = match.groups()
        return intern(_RANK_ALIASES[rank] + _SUIT_ALIASES[suit])
    match = _LONG.match(raw)
    if match and match.group(1) in _RANK_ALIASES and match.group(2) in _SUIT_ALIASES:
        return intern(_RANK_ALIASES[match.group(1)] + _SUIT_ALIASES[match.group(2)])
    raise CardError(f"unknown card {quoted(text)}: write it like JH, 10D, A♠ or 'queen of clubs'")


def card_name(card: Card) -> str:
    """Words for a card: `"jack of hearts"`, `"Joker"`."""
    if card == JOKER:
        return "Joker"
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def card_label(card: Card) -> str:
    """A short label with the suit symbol, as shown on buttons: `"J♥"`, `"10♦"`, `"🃏"`."""
    if card == JOKER:
        return "🃏"
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def cut_value(card: Card) -> int:
    """The value of a card cut for partners or deal: jack high, suits equal (S.8, J.3)."""
    return _CUT_VALUE[card[0]]


# ---------------------------------------------------------------------------------------------
# The trump: which suit each card follows and how strong it is in a trick.

# Power in a trick: trumps beat everything; among trumps the Joker, then the right bower,
# the left bower, then A K Q 10 9 8 7. Plain cards count only in the suit led.
_TRUMP_BASE = 100
_JOKER_POWER = 130
_RIGHT_POWER = 120
_LEFT_POWER = 110

_ALL_CARDS = make_pack("6", joker=True)


def _trump_tables(trump: Suit | None) -> tuple[dict[Card, Suit], dict[Card, int]]:
    effective: dict[Card, Suit] = {}
    power: dict[Card, int] = {}
    for card in _ALL_CARDS:
        rank, suit = card[0], card[1]
        if card == JOKER:
            # With no trump the Joker still must be given a suit; the variants with no
            # trump do not use it.
            effective[card] = trump or SPADES
            power[card] = _JOKER_POWER
        elif trump is not None and rank == "J" and suit == trump:
            effective[card], power[card] = trump, _RIGHT_POWER
        elif trump is not None and rank == "J" and suit == SAME_COLOUR[trump]:
            effective[card], power[card] = trump, _LEFT_POWER
        elif suit == trump:
            effective[card], power[card] = suit, _TRUMP_BASE + _PLAIN_VALUE[rank]
        else:
            effective[card], power[card] = suit, _PLAIN_VALUE[rank]
    return effective, power


_TABLES = {trump: _trump_tables(trump) for trump in (*SUITS, None)}
EFFECTIVE_SUIT: dict[Suit | None, dict[Card, Suit]] = {
    t: tables[0] for t, tables in _TABLES.items()
}
POWER: dict[Suit | None, dict[Card, int]] = {t: tables[1] for t, tables in _TABLES.items()}


def effective_suit(card: Card, trump: Suit | None) -> Suit:
    """The suit a card belongs to for following and leading: the left bower and Joker are trumps."""
    return EFFECTIVE_SUIT[trump][card]


def is_trump(card: Card, trump: Suit | None) -> bool:
    """Whether the card is a trump for every purpose (right and left bower, Joker included)."""
    return trump is not None and EFFECTIVE_SUIT[trump][card] == trump


def trick_power(card: Card, trump: Suit | None, led: Suit) -> int:
    """How strongly a card plays to a trick led in `led`: 0 when it can neither follow nor trump."""
    suit = EFFECTIVE_SUIT[trump][card]
    if suit == trump or suit == led:
        return POWER[trump][card]
    return 0


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """The index in `cards` (in the order played) of the card that wins the trick."""
    effective, power = _TABLES[trump]
    led = effective[cards[0]]
    best, best_power = 0, power[cards[0]]
    for i in range(1, len(cards)):
        card = cards[i]
        suit = effective[card]
        if suit == trump or suit == led:
            p = power[card]
            if p > best_power:
                best, best_power = i, p
    return best


def follow_suit(hand: Iterable[Card], led: Suit | None, trump: Suit | None) -> list[Card]:
    """The cards of `hand` that may be played to a trick led in `led` (None: any card leads)."""
    cards = list(hand)
    if led is None:
        return cards
    effective = EFFECTIVE_SUIT[trump]
    following = [c for c in cards if effective[c] == led]
    return following or cards


def sort_hand(hand: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """A hand in the order players hold it: trumps first, high to low, then suit by suit."""
    effective, power = _TABLES[trump]
    # Alternate colours (spades, hearts, clubs, diamonds) so suits are easy to tell apart.
    suits = [trump] if trump else []
    suits += [s for s in (SPADES, HEARTS, CLUBS, DIAMONDS) if s != trump]
    order = {s: i for i, s in enumerate(suits)}
    return sorted(hand, key=lambda c: (order[effective[c]], -power[c]))
