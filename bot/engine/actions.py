"""The action codes of every game: built, read and told apart in this one module.

Codes are short stable strings that fit a button's custom_id, a record and an EGN file; they
are stored as they are, so none may ever change:

    pass          pass (in any auction); play with partner, not defend alone, keep one's hand
    order         order up / assist / take up the turn-up (round one)
    order:alone   the same, to play alone (four-handed)
    call:H        name a trump: round two, the Joker's suit, or the highest bidder's trump
    call:H:alone  name a trump to play alone (four-handed)
    alone         the maker's partner takes it alone (four-handed, S.94)
    defend        an adversary defends alone against a lone hand (four-handed option)
    bid:3         bid three tricks (French, Napoleon)
    bid:3:H       bid three tricks with hearts as trump (six-handed)
    declare       set-back: the maker declares he will take all five
    throw_up      set-back: throw up one's hand before the first lead
    JH            a card to discard or play
    discard       not a code one acts with: the dealer's discard as the others' views show it

A card is its code as in `bot.engine.cards`, always two characters; every other code is
longer. The engine and the computer players call the readers below in their hot loops, so the
codes stay strings: `is_card`, `suit_called`, `is_alone` and `makes_trump` read a code the
engine gave (from `legal_actions()` or a record) by a lookup or a slice. `parse` and
`read_call` also read what a player typed (`jh`, `10D`, `call:hearts`), kept in a cache;
`describe` gives the words a player reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.engine.cards import RANK_NAMES, SUIT_NAMES, SUITS, Card, Suit, parse_card, parse_suit
from bot.engine.errors import CardError

PASS = "pass"
ORDER = "order"
ALONE_SUFFIX = ":alone"
ORDER_ALONE = ORDER + ALONE_SUFFIX
ALONE = "alone"
DEFEND = "defend"
DECLARE = "declare"
THROW_UP = "throw_up"
CALL = "call:"
BID = "bid:"
HIDDEN_DISCARD = "discard"
MAX_BID = 5

# The kinds of action.
KIND_PASS = "pass"
KIND_ORDER = "order"
KIND_ORDER_ALONE = "order_alone"
KIND_CALL = "call"
KIND_CALL_ALONE = "call_alone"
KIND_ALONE = "alone"
KIND_DEFEND = "defend"
KIND_BID = "bid"
KIND_DECLARE = "declare"
KIND_THROW_UP = "throw_up"
KIND_CARD = "card"
KIND_UNKNOWN = "unknown"

# Small numbers as words: tricks bid, and how many other players a table has.
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


@dataclass(frozen=True, slots=True)
class Action:
    """A code, read.

    Attributes:
        kind: one of the `KIND_*` names.
        tricks: a bid's number of tricks (as written, not checked against five).
        suit: the suit of a call or a bid, if it names one.
        card: the card, for a card.
    """

    kind: str
    tricks: int | None = None
    suit: Suit | None = None
    card: Card | None = None


def call(suit: Suit, alone: bool = False) -> str:
    """The code that names `suit` trump (to play alone, with `alone`)."""
    return CALL + suit + ALONE_SUFFIX if alone else CALL + suit


def order(alone: bool = False) -> str:
    """The code that orders up the turn-up (to play alone, with `alone`)."""
    return ORDER_ALONE if alone else ORDER


def bid(tricks: int, suit: Suit | None = None) -> str:
    """The code of a bid of `tricks`, with its suit where the variant's bids name one."""
    return f"{BID}{tricks}" if suit is None else f"{BID}{tricks}:{suit}"


@lru_cache(maxsize=4096)
def parse(code: str) -> Action:
    """Read an action code; anything that is none is of kind `unknown` (never an error here).

    Cards are read as players write them (`jh`, `10D`, `J♥`); suits in calls and bids too
    (`call:hearts`). The alone forms have kinds of their own (`order_alone`, `call_alone`), so
    a game with no lone hands refuses them by kind.
    """
    text = code.strip()
    lowered = text.lower()
    kind = _WORDS.get(lowered)
    if kind is not None:
        return Action(kind)
    if lowered.startswith(CALL):
        alone = lowered.endswith(ALONE_SUFFIX)
        suit = _suit(text[len(CALL) : -len(ALONE_SUFFIX)] if alone else text[len(CALL) :])
        if suit is None:
            return Action(KIND_UNKNOWN)
        return Action(KIND_CALL_ALONE if alone else KIND_CALL, suit=suit)
    if lowered.startswith(BID):
        number, _, suit_text = text[len(BID) :].partition(":")
        if not number.strip().isdigit():
            return Action(KIND_UNKNOWN)
        suit = _suit(suit_text) if suit_text else None
        if suit_text and suit is None:
            return Action(KIND_UNKNOWN)
        return Action(KIND_BID, tricks=int(number), suit=suit)
    try:
        return Action(KIND_CARD, card=parse_card(text))
    except CardError:
        return Action(KIND_UNKNOWN)


_WORDS = {
    PASS: KIND_PASS,
    ORDER: KIND_ORDER,
    ORDER_ALONE: KIND_ORDER_ALONE,
    ALONE: KIND_ALONE,
    DEFEND: KIND_DEFEND,
    DECLARE: KIND_DECLARE,
    THROW_UP: KIND_THROW_UP,
}


def _suit(text: str) -> Suit | None:
    try:
        return parse_suit(text)
    except CardError:
        return None


def describe(code: str) -> str:
    """Words for an action, as a player reads it: `bid three tricks in hearts`, `pass`."""
    action = parse(code)
    if action.kind == KIND_BID and action.tricks is not None:
        number = NUMBER_WORDS.get(action.tricks, str(action.tricks))
        words = f"bid {number} trick{'s' if action.tricks != 1 else ''}"
        return words + (f" in {SUIT_NAMES[action.suit]}" if action.suit else "")
    if action.kind in (KIND_CALL, KIND_CALL_ALONE) and action.suit:
        alone = " alone" if action.kind == KIND_CALL_ALONE else ""
        return f"name {SUIT_NAMES[action.suit]}{alone}"
    if action.kind == KIND_CARD and action.card:
        card = action.card
        return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}" if card[0] in RANK_NAMES else card
    return {
        KIND_PASS: "pass",
        KIND_ORDER: "order up",
        KIND_ORDER_ALONE: "order up alone",
        KIND_ALONE: "take it alone",
        KIND_DEFEND: "defend alone",
        KIND_DECLARE: "declare all five",
        KIND_THROW_UP: "throw up the hand",
    }.get(action.kind, "that action")  # not an action of the game: no code to show


# The bids open above each highest bid so far, without and with suits: built once.
BIDS_ABOVE: dict[int, tuple[str, ...]] = {
    high: (PASS, *(bid(n) for n in range(high + 1, MAX_BID + 1))) for high in range(MAX_BID + 1)
}
SUIT_BIDS_ABOVE: dict[int, tuple[str, ...]] = {
    high: (PASS, *(bid(n, s) for n in range(high + 1, MAX_BID + 1) for s in SUITS))
    for high in range(MAX_BID + 1)
}
CALLS: tuple[str, ...] = tuple(call(s) for s in SUITS)
# Round two of the turn-up auction: pass, or name a suit other than the one turned down.
ROUND_TWO: dict[Suit, tuple[str, ...]] = {
    down: (PASS, *(call(s) for s in SUITS if s != down)) for down in SUITS
}
ROUND_ONE: tuple[str, ...] = (PASS, ORDER)
DECLARING: tuple[str, ...] = (DECLARE, PASS)
THROWING: tuple[str, ...] = (THROW_UP, PASS)


# -- reading the codes the engine gives -------------------------------------------------------
# `legal_actions()` and the records hold only these spellings, so a lookup or a slice reads them.

_CALLS_READ: dict[str, tuple[Suit, bool]] = {
    **{call(s): (s, False) for s in SUITS},
    **{call(s, alone=True): (s, True) for s in SUITS},
}
# Every code that is a declaration (the `call:` and `bid:` codes besides).
DECLARATIONS = frozenset({PASS, ORDER, ORDER_ALONE, ALONE, DEFEND, DECLARE, THROW_UP})
_MAKING = frozenset({ORDER, ORDER_ALONE, *_CALLS_READ})


def is_card(code: str) -> bool:
    """Whether a code the engine gave is a card: a card's code is two characters, no other is
    (the hidden `discard` stands for one, and is no card)."""
    return len(code) == 2


def is_declaration(code: str) -> bool:
    """Whether a code is a declaration, not a card: one of `DECLARATIONS`, a call or a bid.
    Read as written (a player's `Pass` is not one), as the engine's refusals want it."""
    return code in DECLARATIONS or code.startswith((CALL, BID))


def is_call(code: str) -> bool:
    """Whether a code names a trump (`call:H`, `call:H:alone`)."""
    return code.startswith(CALL)


def is_bid(code: str) -> bool:
    """Whether a code is a bid of tricks (`bid:3`, `bid:3:H`)."""
    return code.startswith(BID)


def suit_called(code: str) -> Suit | None:
    """The suit a call the engine gave names (`call:H:alone` names H); None for any other code."""
    named = _CALLS_READ.get(code)
    return named[0] if named is not None else None


def is_alone(code: str) -> bool:
    """Whether a code declares a lone hand: `order:alone`, `call:H:alone`, or `alone`."""
    return code == ALONE or code.endswith(ALONE_SUFFIX)


def makes_trump(code: str) -> bool:
    """Whether a code orders up or names a trump (alone or not): what makes a maker, but for
    the dealer's naming of the Joker's suit, which is a call too."""
    return code in _MAKING


def read_call(code: str) -> tuple[Suit, bool] | None:
    """A call as a player may write it, to (suit, alone): `call:H`, `call:H:alone`, and a bare
    suit too (`H`, `hearts`, `hearts:alone`). None when it names no suit: the caller says what
    is open instead."""
    return _CALLS_READ.get(code) or _read_written_call(code)


@lru_cache(maxsize=1024)
def _read_written_call(code: str) -> tuple[Suit, bool] | None:
    text = code[len(CALL) :] if code.startswith(CALL) else code
    alone = text.endswith(ALONE_SUFFIX)
    if alone:
        text = text[: -len(ALONE_SUFFIX)]
    suit = _suit(text)
    return None if suit is None else (suit, alone)
