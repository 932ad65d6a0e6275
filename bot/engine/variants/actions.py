"""The variants' action codes: built, read and told apart in this one module.

Codes are short stable strings that fit a button's custom_id and a record:

    pass          pass (in any auction), or keep one's hand when others may throw up
    order         order up / take up the turn-up (round one of the turn-up auction)
    call:H        name a trump: round two, or the highest bidder after the bidding
    bid:3         bid three tricks (French, Napoleon)
    bid:3:H       bid three tricks with hearts as trump (six-handed)
    declare       set-back: the maker declares he will take all five
    throw_up      set-back: throw up one's hand before the first lead
    JH            a card to discard or play

A card is its code as in `bot.engine.cards`. `parse` reads a code (and a card written another
way, `jh` or `10D`) into an `Action`; `describe` gives the words a player reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.engine.cards import RANK_NAMES, SUIT_NAMES, SUITS, Card, Suit, parse_card, parse_suit
from bot.engine.errors import CardError

PASS = "pass"
ORDER = "order"
DECLARE = "declare"
THROW_UP = "throw_up"
CALL = "call:"
BID = "bid:"
MAX_BID = 5

# The kinds of action.
KIND_PASS = "pass"
KIND_ORDER = "order"
KIND_CALL = "call"
KIND_BID = "bid"
KIND_DECLARE = "declare"
KIND_THROW_UP = "throw_up"
KIND_CARD = "card"
KIND_UNKNOWN = "unknown"

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


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


def call(suit: Suit) -> str:
    """The code that names `suit` trump."""
    return CALL + suit


def bid(tricks: int, suit: Suit | None = None) -> str:
    """The code of a bid of `tricks`, with its suit where the variant's bids name one."""
    return f"{BID}{tricks}" if suit is None else f"{BID}{tricks}:{suit}"


@lru_cache(maxsize=4096)
def parse(code: str) -> Action:
    """Read an action code; anything that is none is of kind `unknown` (never an error here).

    Cards are read as players write them (`jh`, `10D`, `J♥`); suits in calls and bids too
    (`call:hearts`).
    """
    text = code.strip()
    lowered = text.lower()
    if lowered in (PASS, ORDER, DECLARE, THROW_UP):
        return Action(lowered)
    if lowered.startswith(CALL):
        suit = _suit(text[len(CALL) :])
        return Action(KIND_CALL, suit=suit) if suit else Action(KIND_UNKNOWN)
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


def _suit(text: str) -> Suit | None:
    try:
        return parse_suit(text)
    except CardError:
        return None


def describe(code: str) -> str:
    """Words for an action, as a player reads it: `bid three tricks in hearts`, `pass`."""
    action = parse(code)
    if action.kind == KIND_BID and action.tricks is not None:
        number = _NUMBERS.get(action.tricks, str(action.tricks))
        words = f"bid {number} trick{'s' if action.tricks != 1 else ''}"
        return words + (f" in {SUIT_NAMES[action.suit]}" if action.suit else "")
    if action.kind == KIND_CALL and action.suit:
        return f"name {SUIT_NAMES[action.suit]}"
    if action.kind == KIND_CARD and action.card:
        card = action.card
        return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}" if card[0] in RANK_NAMES else card
    return {
        KIND_PASS: "pass",
        KIND_ORDER: "order up",
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
