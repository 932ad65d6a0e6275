"""Euchre Game Notation (EGN 1.4): read, replay and write four-handed games.

An EGN file (NextSuit-Labs/euchre-game-notation, schema in `data/egn/`) records one game: its
players, the score it starts from, a ruleset, and each deal as the dealer, the up card, the calls
and the tricks in the order the cards fell. Who led and who won each trick is left to a rules
engine, so importing a file means replaying it through ours: every call and every card goes
through `Deal.apply`, and anything the rules refuse is a `RecordError` naming the deal and trick.

What the format says, as this module reads it:

- Cards are a rank (`9 T J Q K A`, `7 8` in 32-card games, `N` for a nine) and a suit letter
  (`s h d c`, either case). `R` and `L` are the right and left bower and `B` the Joker; a suit
  `t` is the trump and `n` the suit of its colour ("next"). A card with an unknown rank or suit
  (`X`, `x`) or a "green" suit (`g`) cannot be replayed and is refused. The letter `h` is hearts
  (the specification also lists it as the second green suit, which would be ambiguous).
- `calls` run from the dealer's left: four in round one (`Pass` or `Order`), then up to four in
  round two (`Pass` or the suit named). The first call that is not a pass makes the trump, and
  `isAlone` on that phase says its maker plays alone; so EGN cannot say that the maker's partner
  took it alone (S.94). `aloneDefender` names the seat that defends alone, when allowed.
- A lone hand's tricks have three cards (two with a lone defender too); the first lead is left of
  the dealer (skipping a seat that sits out) or, with `loner_lead` LEFT_OF_LONER, left of the loner.
- `playerCards` (the hands as dealt) and `discard` are optional. When hands are not recorded they
  are rebuilt from the tricks: each seat held what it played, the dealer also the up card he took
  and his discard. Cards no one saw (a lone hand's partner's, an unrecorded discard, cards still in
  hand when a file stops mid-deal) are filled from the unseen cards, choosing only cards the seat
  could have held: none of a suit it failed to follow.
- Absent ruleset fields take the schema's defaults (RULES.md §9), so `std` (stick the dealer) is on
  and the pack is 24 cards unless a file says otherwise.
- A deal may also be a string: the "condensed" bit-packed form (Base64URL) of the EGN binary
  format. Versions 0-3 are decoded as the reference implementation writes them (its deck order is
  rank then suit in the order s h c d, whatever its prose says).
- Files of versions 1.0 and 1.1 (snake_case keys, `kitty`, `initialLead`, 1-based phase numbers) are
  read as the reference `egn-upgrade` tool upgrades them; a recorded `initialLead` is checked.
- An EMN file (Euchre Match Notation) holds several EGN games; `import_emn` replays each.
- Every field's JSON type is checked where it is read (`fields.py`). Tournament software writes
  two things the rules refuse but a reader can make sense of: deals played after the game was
  won, and a deal started again under the same `dealNumber`. Read leniently (the default) they
  are replayed with a warning (`EgnGame.warnings`); read strictly they are refused. A discard
  recorded for a dealer who sits out for his lone partner (OpenSpiel's euchre has the dealer
  take up before the go-alone decision) changes nothing, and is read and kept either way.

Writing: `match_to_egn` turns a `Match` into one EGN document per game (a rubber is several games;
lap points carried into a game become its `initialScore`), with every ruleset field that differs
from the schema's defaults, the hands as dealt, the discard, and the final score of each finished
game. A deal in which a seat asked for a hint says so in an annotation of its first call ("[hint]
Ann (seat 0) asked the bot for a hint ..."), a note a reader keeps apart from the play. What EGN
cannot say (a partner taking it alone, a turned-up Joker, other points for a march) is refused with
a message naming it: the project's own record format (`records.py`) holds those.
"""

from __future__ import annotations

import base64
import binascii
import logging
import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from bot.engine.actions import DEFEND, ORDER, ORDER_ALONE, PASS, is_alone, suit_called
from bot.engine.actions import call as call_code
from bot.engine.actions import order as order_code
from bot.engine.cards import (
    JOKER,
    SAME_COLOUR,
    SUIT_NAMES,
    SUITS,
    Card,
    Suit,
    effective_suit,
    make_pack,
    trick_winner,
)
from bot.engine.deal import (
    DEFEND_ALONE,
    DISCARD,
    PLAY,
    SEATS,
    Deal,
    partner_of,
)
from bot.engine.errors import IllegalAction, OptionsError, RecordError
from bot.engine.fields import flag, items, mapping, text, texts, whole
from bot.engine.match import Match
from bot.engine.quoting import shown
from bot.engine.rules import GAME, LEFT_OF_DEALER, LEFT_OF_LONER, Options, build_options

log = logging.getLogger(__name__)

FILE_TYPE = "Euchre Game Notation"
MATCH_FILE_TYPE = "Euchre Match Notation"
VERSION = "1.4"
# How an annotation of a deal played with a hint begins (see `match_to_egn`).
HINT_MARK = "[hint]"

# The schema's defaults for every ruleset field (RULES.md §9).
RULESET_DEFAULTS: dict[str, Any] = {
    "std": True,
    "min_rank": 9,
    "winning_score": 10,
    "num_deals": 0,
    "canadian": False,
    "loner_lead": "LEFT_OF_DEALER",
    "loner_march_score": 4,
    "loner_euchred_score": 2,
    "defend_alone": False,
    "farmers": False,
    "partners_best": False,
    "go_under": False,
    "joker": False,
    "num_players": 4,
    "allow_no_trump": False,
    "fast_break": False,
    "four_trick_tokens": False,
}
# Ruleset fields the bot cannot play when they differ from the default, and why.
_UNPLAYABLE = {
    "num_deals": "games of a fixed number of deals",
    "canadian": "the Canadian loner",
    "farmers": "farmer's hands",
    "partners_best": "passing the partner's best card to a loner",
    "go_under": "going under",
    "allow_no_trump": "no-trump calls",
    "fast_break": "the fast break",
    "four_trick_tokens": "four-trick tokens",
}
# Points EGN cannot change: a plain march, a made hand and a euchre are fixed by the format.
_FIXED_POINTS = {
    "march_points": 2,
    "made_points": 1,
    "euchred_points": 2,
    "lone_made_points": 1,
}
_DEFEND_ALONE_POINTS = 4

PASS_CALL = "Pass"
ORDER_CALL = "Order"
_MAX_CALLS = 2 * SEATS
_TRICKS = 5
_HAND = 5


# ---------------------------------------------------------------------------------------------
# Cards


_RANKS = {"7": "7", "8": "8", "9": "9", "N": "9", "T": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}
_SUIT_LETTERS = {"S": "S", "H": "H", "D": "D", "C": "C"}


def egn_card(code: Any, trump: Suit | None = None) -> Card:
    """Our card code for an EGN card (`"Jd"` -> `"JD"`, `"Nc"` -> `"9C"`, `"B"` -> `"BJ"`).

    Args:
        code: the EGN card.
        trump: the trump suit, needed to read `R`, `L` and the suits `t` and `n`.

    Raises:
        RecordError: not a card, a card whose rank or suit is unknown, or a bower or trump-relative
            suit when no trump is made.
    """
    if not isinstance(code, str) or not 1 <= len(code) <= 2:
        raise RecordError(f"{shown(code)} is not an EGN card")
    if code == "B":
        return JOKER
    if code in ("R", "L"):
        if trump is None:
            raise RecordError(f"card {code!r} (a bower) needs a trump, and none is made yet")
        return "J" + (trump if code == "R" else SAME_COLOUR[trump])
    if len(code) != 2:
        raise RecordError(f"{shown(code)} is not an EGN card")
    rank, suit = code[0].upper(), code[1]
    if rank == "X" or suit in "xX":
        raise RecordError(f"card {code!r} is not fully known, so it cannot be replayed")
    if rank not in _RANKS:
        raise RecordError(f"{code!r} is not an EGN card: unknown rank {code[0]!r}")
    return _RANKS[rank] + _egn_suit(code, suit, trump)


def _egn_suit(code: str, letter: str, trump: Suit | None) -> Suit:
    if letter.upper() in _SUIT_LETTERS:
        return _SUIT_LETTERS[letter.upper()]
    if letter in ("t", "n"):
        if trump is None:
            raise RecordError(f"card {code!r} names the trump suit, and none is made yet")
        return trump if letter == "t" else SAME_COLOUR[trump]
    if letter == "g":
        raise RecordError(f"card {code!r} is of a generic 'green' suit, so it cannot be replayed")
    raise RecordError(f"{code!r} is not an EGN card: unknown suit {letter!r}")


def card_to_egn(card: Card) -> str:
    """The EGN code of one of our cards: rank and lowercase suit (`"JH"` -> `"Jh"`), `"B"` for the Joker."""
    return "B" if card == JOKER else card[0] + card[1].lower()


# ---------------------------------------------------------------------------------------------
# Rulesets


def egn_options(ruleset: dict[str, Any] | None) -> Options:
    """The options an EGN ruleset plays by; absent fields take the schema's defaults.

    EGN fixes a march at 2, a made hand at 1 and a euchre at 2; it cannot say that the maker's
    partner took it alone, so `partner_alone` is off; and it does not forbid discarding the up card.

    Raises:
        RecordError: an unknown field, a bad value, or a rule the bot cannot play (the message
            names the field).
    """
    rules = _ruleset_with_defaults(ruleset)
    for name, what in _UNPLAYABLE.items():
        if rules[name] != RULESET_DEFAULTS[name]:
            raise RecordError(
                f"ruleset field '{name}' = {rules[name]!r}: the bot cannot play {what}"
            )
    if rules["num_players"] != SEATS:
        raise RecordError(
            f"ruleset field 'num_players' = {rules['num_players']!r}: only four-handed games can be replayed"
        )
    if rules["min_rank"] not in (7, 9):
        raise RecordError(
            f"ruleset field 'min_rank' = {rules['min_rank']!r}: the pack must go down to 9 (24 cards) or 7 (32 cards)"
        )
    if rules["winning_score"] == 0:
        raise RecordError(
            "ruleset field 'winning_score' = 0: games with no winning score cannot be replayed"
        )
    try:
        return build_options(
            "modern",
            match=GAME,
            pack=24 if rules["min_rank"] == 9 else 32,
            points=rules["winning_score"],
            stick_the_dealer=rules["std"],
            lone_march_points=rules["loner_march_score"],
            lone_euchred_points=rules["loner_euchred_score"],
            loner_lead=LEFT_OF_LONER if rules["loner_lead"] == "LEFT_OF_LONER" else LEFT_OF_DEALER,
            defend_alone=rules["defend_alone"],
            defend_alone_points=_DEFEND_ALONE_POINTS,
            joker=rules["joker"],
            partner_alone=False,
            discard_turn_up=True,
            **_FIXED_POINTS,
        )
    except OptionsError as exc:
        raise RecordError(f"ruleset: {exc}") from None


def _ruleset_with_defaults(ruleset: dict[str, Any] | None) -> dict[str, Any]:
    """Every ruleset field, typed: the file's value where it has one, else the default."""
    rules = dict(RULESET_DEFAULTS)
    for name, value in mapping({} if ruleset is None else ruleset, "metadata 'ruleset'").items():
        if name not in RULESET_DEFAULTS:
            raise RecordError(f"unknown ruleset field {shown(name)}")
        what, default = f"ruleset field '{name}'", RULESET_DEFAULTS[name]
        if isinstance(default, bool):
            rules[name] = flag(value, what)
        elif isinstance(default, int):
            rules[name] = whole(value, what)
        else:
            rules[name] = text(value, what)
    if rules["loner_lead"] not in ("LEFT_OF_DEALER", "LEFT_OF_LONER"):
        raise RecordError(
            f"ruleset field 'loner_lead' must be LEFT_OF_DEALER or LEFT_OF_LONER, not {shown(rules['loner_lead'])}"
        )
    return rules


def egn_ruleset(options: Options) -> dict[str, Any]:
    """The EGN ruleset of our options: every field that differs from the schema's defaults.

    A `somerset` table gives `{"std": False, "min_rank": 7, "winning_score": 5,
    "loner_euchred_score": 4}`.

    Raises:
        RecordError: an option EGN cannot express (named in the message).
    """
    for name, points in _FIXED_POINTS.items():
        if getattr(options, name) != points:
            raise RecordError(
                f"EGN cannot record option '{name}' = {getattr(options, name)} (EGN scores it {points})"
            )
    if options.defend_alone and options.defend_alone_points != _DEFEND_ALONE_POINTS:
        raise RecordError(
            f"EGN cannot record option 'defend_alone_points' = {options.defend_alone_points} (EGN scores it 4)"
        )
    rules = {
        "std": options.stick_the_dealer,
        "min_rank": 9 if options.pack == 24 else 7,
        "winning_score": options.points,
        "loner_lead": "LEFT_OF_LONER" if options.loner_lead == LEFT_OF_LONER else "LEFT_OF_DEALER",
        "loner_march_score": options.lone_march_points,
        "loner_euchred_score": options.lone_euchred_points,
        "defend_alone": options.defend_alone,
        "joker": options.joker,
    }
    return {name: value for name, value in rules.items() if value != RULESET_DEFAULTS[name]}


# ---------------------------------------------------------------------------------------------
# Reading a document: its structure, before any rule is applied


@dataclass(frozen=True, slots=True)
class EgnDeal:
    """One deal as written in an EGN file, its cards still EGN codes.

    Attributes:
        position: the deal's place in the file, from 1 (what error messages call "deal N").
        dealer: the dealer's seat.
        up_card: the card turned up.
        player_cards: the hands as dealt, by seat; an empty hand is one not recorded.
        calls: the calls, from the dealer's left.
        alone: the maker plays alone.
        defender: the seat defending alone, or None.
        defence_known: the file says whether anyone defended alone (`aloneDefender`).
        discard: the dealer's discard, when recorded.
        tricks: the cards of each trick in the order played.
        initial_lead: the first leader, as older files record it.
        kitty: the undealt cards, as older files record them.
    """

    position: int
    dealer: int
    up_card: str
    player_cards: tuple[tuple[str, ...], ...] | None
    calls: tuple[str, ...]
    alone: bool
    defender: int | None
    defence_known: bool
    discard: str | None
    tricks: tuple[tuple[str, ...], ...]
    initial_lead: int | None = None
    kitty: tuple[str, ...] = ()


_VERSION = re.compile(r"^1\.\d+(?:\.\d+)?$")


def _check_header(data: Any, file_type: str) -> None:
    """Check the file type and the version (any 1.x: older files are read as `egn-upgrade` reads them)."""
    if not isinstance(data, dict):
        raise RecordError(f"not an {_short(file_type)} file: the document must be a JSON object")
    if data.get("fileType") != file_type:
        raise RecordError(
            f"not an {_short(file_type)} file: fileType is {shown(data.get('fileType'))}, not {file_type!r}"
        )
    version = data.get("version")
    if "version" not in data:
        raise RecordError(f"the {_short(file_type)} file has no version (1.x is supported)")
    if not isinstance(version, str):
        # A version written as the number 1.4 would read "version 1.4 is not supported".
        raise RecordError(f"version must be a string such as '1.4', not {shown(version)}")
    match = _VERSION.match(version)
    if match is None:
        raise RecordError(f"{_short(file_type)} version {shown(version)} is not supported (1.x is)")


def _short(file_type: str) -> str:
    return "EMN" if file_type == MATCH_FILE_TYPE else "EGN"


def _field(obj: dict[str, Any], *names: str, default: Any = None) -> Any:
    """The first of `names` present in `obj` (the current key, then its legacy spelling)."""
    for name in names:
        if name in obj:
            return obj[name]
    return default


def _read_deal(raw: Any, position: int, min_rank: int) -> EgnDeal:
    """One deal of the file (an object, or a condensed string) in EGN terms."""
    if isinstance(raw, str):
        raw = unpack_deal(raw, position, min_rank)
    where = f"deal {position}"
    if not isinstance(raw, dict):
        raise RecordError(f"{where} must be an object or a condensed deal string")
    state = _field(raw, "initialState", "initial_state")
    if not isinstance(state, dict):
        raise RecordError(f"{where} has no initialState")
    dealer = whole(state.get("dealer"), f"{where}: dealer", 0, SEATS - 1)
    up_card = _field(state, "upCard", "up_card")
    if not isinstance(up_card, str):
        raise RecordError(f"{where} has no upCard")
    bidding, play = _phases(raw.get("phases", []), where)
    return EgnDeal(
        position=position,
        dealer=dealer,
        up_card=up_card,
        player_cards=_player_cards(_field(state, "playerCards", "player_cards"), where),
        calls=texts(bidding.get("calls", []), f"{where}: calls") if bidding else (),
        alone=_alone(bidding, play, where),
        defender=_defender(bidding, where),
        defence_known=_field(bidding or {}, "aloneDefender", "alone_defender") is not None,
        discard=_discard(bidding, where),
        tricks=_tricks(play, where),
        initial_lead=_initial_lead(play, where),
        kitty=tuple(c for c in texts(state.get("kitty", []), f"{where}: kitty") if c),
    )


def _phases(value: Any, where: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The bidding phase and the trick-play phase of a deal (either may be absent)."""
    if not isinstance(value, list) or len(value) > 2:
        raise RecordError(
            f"{where}: phases must be a list of a bidding phase and a trick-play phase"
        )
    bidding = play = None
    for phase in value:
        kind = phase.get("type") if isinstance(phase, dict) else None
        if kind == "EUCHRE_BIDDING" and bidding is None and play is None:
            bidding = phase
        elif kind in ("TRICK_PLAY", "TRICK_PLAY_PHASE") and play is None:
            play = phase
        else:
            raise RecordError(
                f"{where}: the phases must be one EUCHRE_BIDDING, then one TRICK_PLAY"
            )
    if bidding is not None and _field(bidding, "cardExchanges", "card_exchanges"):
        raise RecordError(f"{where}: card exchanges cannot be replayed")
    if play is not None and bidding is None:
        raise RecordError(f"{where} has tricks but no bidding")
    return bidding, play


def _player_cards(value: Any, where: str) -> tuple[tuple[str, ...], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > SEATS:
        raise RecordError(f"{where}: playerCards must be a list of four hands")
    hands = [texts(hand, f"{where}: playerCards") for hand in value]
    hands += [()] * (SEATS - len(hands))
    for seat, hand in enumerate(hands):
        if len(hand) not in (0, _HAND):
            raise RecordError(f"{where}: seat {seat} is dealt {len(hand)} cards, not {_HAND}")
    return tuple(hands) if any(hands) else None


def _alone(bidding: dict[str, Any] | None, play: dict[str, Any] | None, where: str) -> bool:
    alone = _field(bidding or {}, "isAlone", "is_alone", default=False)
    # Older files repeat isAlone on the play phase; it must agree.
    again = _field(play or {}, "isAlone", "is_alone", default=alone)
    if not isinstance(alone, bool) or again != alone:
        raise RecordError(f"{where}: isAlone must be true or false, and the same in both phases")
    return alone


def _defender(bidding: dict[str, Any] | None, where: str) -> int | None:
    seat = _field(bidding or {}, "aloneDefender", "alone_defender", default=-1)
    seat = whole(seat, f"{where}: aloneDefender", -1, SEATS - 1)
    return None if seat < 0 else seat


def _discard(bidding: dict[str, Any] | None, where: str) -> str | None:
    discard = (bidding or {}).get("discard")
    return None if discard is None else text(discard, f"{where}: discard") or None


def _tricks(play: dict[str, Any] | None, where: str) -> tuple[tuple[str, ...], ...]:
    if play is None:
        return ()
    tricks = play.get("tricks", [])
    if not isinstance(tricks, list):
        raise RecordError(f"{where}: tricks must be a list")
    if tricks and tricks[-1] == []:
        tricks = tricks[:-1]  # a trick not yet begun
    if len(tricks) > _TRICKS:
        raise RecordError(f"{where}: {len(tricks)} tricks, but a deal has {_TRICKS}")
    return tuple(texts(t, f"{where}, trick {i + 1}") for i, t in enumerate(tricks))


def _initial_lead(play: dict[str, Any] | None, where: str) -> int | None:
    lead = _field(play or {}, "initialLead", "initial_lead")
    return None if lead is None else whole(lead, f"{where}: initialLead", 0, SEATS - 1)


@dataclass(frozen=True, slots=True)
class EgnDocument:
    """An EGN file read but not yet replayed.

    Attributes:
        warnings: what the file gets wrong that a lenient reading reads past (see `read_document`).
    """

    metadata: dict[str, Any]
    players: tuple[str, ...]
    initial_score: tuple[int, int]
    final_score: tuple[int, int] | None
    ruleset: dict[str, Any]
    deals: tuple[EgnDeal, ...]
    warnings: tuple[str, ...] = ()


# Metadata written back by `EgnGame.to_egn`, each a string in the schema.
_KEPT_METADATA = ("gameId", "title", "description", "date")


def read_document(data: Any, strict: bool = False) -> EgnDocument:
    """Read an EGN document's structure (no rule is applied yet).

    Args:
        data: the parsed JSON.
        strict: refuse two deals with the same `dealNumber`. Tournament software writes such
            files when a deal is started again: read leniently, the later deal replaces the
            earlier one, with a warning.

    Raises:
        RecordError: not an EGN file, or a field missing or malformed (the message names it).
    """
    _check_header(data, FILE_TYPE)
    meta = data.get("metadata")
    if not isinstance(meta, dict):
        raise RecordError("EGN metadata is missing")
    for name in _KEPT_METADATA:
        if meta.get(name) is not None:
            text(meta[name], f"metadata '{name}'")
    ruleset = meta.get("ruleset") or {}
    min_rank = _ruleset_with_defaults(ruleset)["min_rank"]
    deals, warnings = _read_deals(items(data.get("deals"), "EGN 'deals'"), min_rank, strict)
    return EgnDocument(
        metadata=meta,
        players=_players(meta.get("players")),
        initial_score=_score(
            _field(meta, "initialScore", "initial_score", default=[0, 0]), "initialScore"
        ),
        final_score=_score(meta["finalScore"], "finalScore") if "finalScore" in meta else None,
        ruleset=ruleset,
        deals=deals,
        warnings=warnings,
    )


def _read_deals(
    raws: list[Any], min_rank: int, strict: bool
) -> tuple[tuple[EgnDeal, ...], tuple[str, ...]]:
    """Every deal of the file in order, and the warnings of a lenient reading.

    Each `dealNumber` must be the one before it plus one; a repeated number is refused when
    strict, else the later deal replaces the earlier.
    """
    deals: list[EgnDeal] = []
    warnings: list[str] = []
    before: int | None = None
    for position, raw in enumerate(raws, start=1):
        deal = _read_deal(raw, position, min_rank)
        number = raw.get("dealNumber") if isinstance(raw, dict) else None
        if number is not None:
            number = whole(number, f"deal {position}: dealNumber")
        if number is not None and before is not None and number != before + 1:
            if number != before or strict:
                raise RecordError(
                    f"deal {position} has dealNumber {number}, but follows deal number {before}"
                )
            warnings.append(
                f"deal {position} repeats dealNumber {number}: it replaces deal {deals[-1].position},"
                " which is left out"
            )
            deals.pop()
        deals.append(deal)
        before = number
    return tuple(deals), tuple(warnings)


def _players(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    names = []
    for player in items(value, "metadata 'players'"):
        if isinstance(player, dict):
            names.append(text(player.get("name"), "metadata 'players': a player's name"))
        else:
            names.append(text(player, "metadata 'players': a player's name"))
    return tuple(names)


def _score(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError(f"metadata '{what}' must be two scores, not {shown(value)}")
    return whole(value[0], f"metadata '{what}'"), whole(value[1], f"metadata '{what}'")


# ---------------------------------------------------------------------------------------------
# Condensed deals: the bit-packed Base64URL strings of the EGN binary format


_BIT_SUITS = ("s", "h", "c", "d")  # the reference implementation's suit order
_BIT_RANKS = ("6", "7", "8", "9", "T", "J", "Q", "K", "A")
_MIN_RANK_CODES = (9, 8, 7, 6)
_END_MARKER = "1010"


def _bit_deck(min_rank: int) -> list[str]:
    ranks = _BIT_RANKS[_BIT_RANKS.index(str(min_rank)) :]
    return [rank + suit for rank in ranks for suit in _BIT_SUITS]


class _Bits:
    """Reads a string of '0' and '1' the way the reference BitReader does."""

    def __init__(self, bits: str) -> None:
        self.bits, self.pos = bits, 0

    def read(self, count: int) -> str:
        if self.pos + count > len(self.bits):
            raise ValueError("not enough bits")
        chunk = self.bits[self.pos : self.pos + count]
        self.pos += count
        return chunk

    def integer(self, max_value: int) -> int:
        """An integer written in as many bits as `max_value` needs."""
        return int(self.read(max(1, max_value.bit_length())), 2)

    def flag(self) -> bool:
        return self.read(1) == "1"

    @property
    def rest(self) -> str:
        return self.bits[self.pos :]


def _to_bits(text: str) -> str:
    text = text.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise RecordError("a condensed deal is not valid Base64URL") from None
    return "".join(f"{byte:08b}" for byte in raw)


def unpack_deal(text: str, position: int = 1, min_rank: int = 9) -> dict[str, Any]:
    """Expand a condensed (bit-packed) EGN deal string into its EGN object.

    Versions 1 to 3 carry a 4-bit header; anything else is read as the headerless version 0, as
    the reference implementation does when a header does not decode.

    Raises:
        RecordError: the string decodes to no deal, or to one of another pack or seat count.
    """
    bits = _to_bits(text)
    version = {"0001": 1, "0010": 2, "0011": 3}.get(bits[:4], 0)
    try:
        deal = _unpack_versioned(_Bits(bits), version) if version else _unpack_v0(_Bits(bits))
    except (ValueError, IndexError):
        try:
            deal = _unpack_v0(_Bits(bits))
        except (ValueError, IndexError):
            raise RecordError(
                f"deal {position}: the condensed deal string cannot be decoded"
            ) from None
    players, deck_rank = deal.pop("_players"), deal.pop("_min_rank")
    if players != SEATS:
        raise RecordError(f"deal {position}: the condensed deal is for {players} players, not 4")
    if deck_rank != min_rank:
        raise RecordError(
            f"deal {position}: the condensed deal uses a pack down to {deck_rank}, the ruleset one down to {min_rank}"
        )
    deal["dealNumber"] = position - 1
    return deal


def _unpack_versioned(reader: _Bits, version: int) -> dict[str, Any]:
    reader.read(4)
    if version == 1:
        dealer, players, min_rank = reader.integer(3), SEATS, 9
    else:
        dealer, players = reader.integer(7), reader.integer(7) + 1
        min_rank = _MIN_RANK_CODES[reader.integer(3)]
    deck = _bit_deck(min_rank)
    up_card = deck[reader.integer(len(deck) - 1)]
    state: dict[str, Any] = {"dealer": dealer, "upCard": up_card}
    if version == 3:
        hands = _unpack_player_cards(reader, deck, players)
        if hands is not None:
            state["playerCards"] = hands
    remaining = list(deck)
    phases = _unpack_phases(
        reader, reader.integer(7), up_card, version, players, deck, remaining, _LineStart()
    )
    deal = {"initialState": state, "phases": phases, "_players": players, "_min_rank": min_rank}
    if reader.flag():
        _skip_alternative_lines(reader, deal, version, players, deck)
    if reader.read(4) != _END_MARKER:
        raise ValueError("no end marker")
    return deal


def _unpack_player_cards(reader: _Bits, deck: list[str], players: int) -> list[list[str]] | None:
    if not reader.flag():
        return None
    return [
        [deck[reader.integer(len(deck) - 1)] for _ in range(reader.integer(15))]
        for _ in range(players)
    ]


@dataclass(frozen=True, slots=True)
class _LineStart:
    """Where a line of play starts: the main line at the deal's start, or an analysis branch."""

    start: int = 0  # calls and cards of the main line before it
    first_trick: int | None = None  # cards left to play in a trick the branch begins inside
    alone: bool = False  # the main line's lone hand, for a branch that starts in the play
    defended: bool = False


def _unpack_phases(
    reader: _Bits,
    count: int,
    up_card: str,
    version: int,
    players: int,
    deck: list[str],
    remaining: list[str],
    line: _LineStart,
) -> list[dict[str, Any]]:
    phases: list[dict[str, Any]] = []
    alone, defended = line.alone, line.defended
    for index in range(count):
        if reader.read(1) == "0":
            bidding = _unpack_bidding(reader, up_card, version, players, deck, line.start)
            alone, defended = bidding["isAlone"], "aloneDefender" in bidding
            phases.append(bidding)
        else:
            size = _trick_size(players, alone, defended)
            first = line.first_trick if index == 0 else None
            phases.append(_unpack_play(reader, size, remaining, first))
    return phases


def _trick_size(players: int, alone: bool, defended: bool) -> int:
    """The cards in a trick; a header whose seat count leaves none does not decode."""
    size = players - (2 if defended else 1 if alone else 0)
    if size < 1:
        raise ValueError(f"{players} players leave no one to play a trick")
    return size


def _unpack_bidding(
    reader: _Bits,
    up_card: str,
    version: int,
    players: int,
    deck: list[str],
    start: int,
) -> dict[str, Any]:
    calls: list[str] = []
    made = False
    for _ in range(start, players):
        made = reader.flag()
        calls.append(ORDER_CALL if made else PASS_CALL)
        if made:
            break
    if not made:
        others = [s for s in _BIT_SUITS if s != up_card[1].lower()]
        for _ in range(max(0, start - players), players):
            value = reader.integer(3)
            calls.append(others[value - 1] if value else PASS_CALL)
            if value:
                break
    phase: dict[str, Any] = {
        "phaseNumber": 0,
        "type": "EUCHRE_BIDDING",
        "calls": calls,
        "isAlone": reader.flag(),
    }
    if version >= 2 and phase["isAlone"] and reader.flag():
        phase["aloneDefender"] = reader.integer(7)
    if version >= 3 and reader.flag():
        phase["discard"] = deck[reader.integer(len(deck) - 1)]
    _skip_annotations(reader)
    return phase


def _unpack_play(
    reader: _Bits, size: int, remaining: list[str], first_trick: int | None
) -> dict[str, Any]:
    tricks = []
    for number in range(reader.integer(7)):
        trick = []
        for _ in range(first_trick if number == 0 and first_trick is not None else size):
            if not remaining:
                break
            trick.append(remaining.pop(reader.integer(len(remaining) - 1)))
        tricks.append(trick)
    _skip_annotations(reader)
    return {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks}


def _skip_annotations(reader: _Bits) -> None:
    if not reader.flag():
        return
    for _ in range(reader.integer(255)):
        reader.integer(255)
        for _ in range(reader.integer(255)):
            reader.read(8 * reader.integer(65535))


def _skip_alternative_lines(
    reader: _Bits, deal: dict[str, Any], version: int, players: int, deck: list[str]
) -> None:
    """Read past the analysis lines (they are not part of the game) so the end marker can be checked."""
    up_card, main = deal["initialState"]["upCard"], deal["phases"]
    bidding: dict[str, Any] = next((p for p in main if p["type"] == "EUCHRE_BIDDING"), {})
    alone, defended = bool(bidding.get("isAlone")), "aloneDefender" in bidding
    size = _trick_size(players, alone, defended)
    for _ in range(reader.integer(255)):
        branch = reader.integer(65535)
        remaining = _remaining_at(main, branch, deck)
        played = branch - len(bidding.get("calls", []))
        first_trick = size - played % size if played > 0 and played % size else None
        line = _LineStart(branch, first_trick, alone, defended)
        _unpack_phases(reader, reader.integer(15), up_card, version, players, deck, remaining, line)


def _remaining_at(phases: list[dict[str, Any]], branch: int, deck: list[str]) -> list[str]:
    """The cards not yet played after `branch` actions (calls, then cards) of the main line."""
    remaining, actions = list(deck), 0
    for phase in phases:
        if phase["type"] == "EUCHRE_BIDDING":
            actions = min(branch, actions + len(phase["calls"]))
            continue
        for card in (c for t in phase["tricks"] for c in t):
            if actions >= branch:
                return remaining
            remaining.remove(card)
            actions += 1
    return remaining


def _unpack_v0(reader: _Bits) -> dict[str, Any]:
    """The headerless first version: 24 cards, no annotations, cards until the bits run out."""
    deck = _bit_deck(9)
    dealer = reader.integer(3)
    up_card = deck[reader.integer(len(deck) - 1)]
    deal: dict[str, Any] = {
        "initialState": {"dealer": dealer, "upCard": up_card},
        "phases": [],
        "_players": SEATS,
        "_min_rank": 9,
    }
    if _only_padding(reader):
        return deal
    calls: list[str] = []
    made = False
    for _ in range(SEATS):
        made = reader.flag()
        calls.append(ORDER_CALL if made else PASS_CALL)
        if made:
            break
    if not made:
        others = [s for s in _BIT_SUITS if s != up_card[1]]
        for _ in range(SEATS):
            value = reader.integer(3)
            calls.append(others[value - 1] if value else PASS_CALL)
            if value:
                break
    alone = reader.flag()
    deal["phases"].append(
        {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": alone}
    )
    if _only_padding(reader):
        return deal
    remaining, cards = list(deck), list[str]()
    while remaining and len(reader.rest) >= max(1, (len(remaining) - 1).bit_length()):
        if len(cards) % (3 if alone else 4) == 0 and _only_padding(reader):
            break
        cards.append(remaining.pop(reader.integer(len(remaining) - 1)))
    size = 3 if alone else SEATS
    tricks = [cards[i : i + size] for i in range(0, len(cards), size)]
    deal["phases"].append({"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks})
    return deal


def _only_padding(reader: _Bits) -> bool:
    rest = reader.rest
    return not rest or (len(rest) < 8 and "1" not in rest)


# ---------------------------------------------------------------------------------------------
# Replaying: the calls and the hands in engine terms


@dataclass(frozen=True, slots=True)
class _Bidding:
    """The calls of a deal as engine actions, and the trump they make."""

    actions: tuple[tuple[int, str], ...]
    maker: int | None
    trump: Suit | None
    alone: bool
    round_one: bool

    @property
    def lone(self) -> int | None:
        """The seat that plays alone (the maker, in EGN), or None."""
        return self.maker if self.alone else None


def _read_calls(egn: EgnDeal, turn_up: Card) -> _Bidding:
    """Turn the EGN calls into (seat, action) pairs, refusing calls that cannot be made."""
    where = f"deal {egn.position}"
    if len(egn.calls) > _MAX_CALLS:
        raise RecordError(f"{where}: {len(egn.calls)} calls, but there are at most {_MAX_CALLS}")
    up_suit = None if turn_up == JOKER else turn_up[1]
    actions: list[tuple[int, str]] = []
    for index, call in enumerate(egn.calls):
        seat = (egn.dealer + 1 + index) % SEATS
        if actions and actions[-1][1] != PASS:
            raise RecordError(f"{where}: seat {seat} calls {call!r} after the trump is made")
        action = _call_action(
            call, index < SEATS, up_suit, egn.alone, f"{where}, call {index + 1}: seat {seat}"
        )
        actions.append((seat, action))
    made = [(i, seat, a) for i, (seat, a) in enumerate(actions) if a != PASS]
    if not made:
        if egn.alone:
            raise RecordError(f"{where}: isAlone is set, but no one made the trump")
        return _Bidding(tuple(actions), None, None, False, False)
    index, maker, action = made[0]
    trump = up_suit if index < SEATS else suit_called(action)
    return _Bidding(tuple(actions), maker, trump, egn.alone, index < SEATS)


def _call_action(call: str, round_one: bool, up_suit: Suit | None, alone: bool, who: str) -> str:
    word = call.strip().lower() if isinstance(call, str) else ""
    if word == "pass":
        return PASS
    if word == "order":
        if not round_one:
            raise RecordError(
                f"{who} orders up in round two, when the up card is already turned down"
            )
        return order_code(alone)
    if word in ("n", "x"):
        what = "no trump" if word == "n" else "an unknown call"
        raise RecordError(f"{who} calls {what}, which cannot be replayed")
    if len(word) == 1 and word.upper() in SUITS:
        suit = word.upper()
        if round_one:
            raise RecordError(
                f"{who} names {SUIT_NAMES[suit]} in round one, when only the up card may be ordered"
            )
        if suit == up_suit:
            raise RecordError(
                f"{who} names {SUIT_NAMES[suit]} in round two, but {SUIT_NAMES[suit]} was turned down"
            )
        return call_code(suit, alone)
    raise RecordError(
        f"{who} makes an unknown call {call!r}: calls are Pass, Order or a suit letter"
    )


@dataclass(slots=True)
class _Play:
    """The tricks of a deal as (seat, card), worked out from the leads and the trick winners.

    Attributes:
        trump: the trump (None when no one made it).
        tricks: each trick as (seat, card) in the order played.
        sitting_out: the seats that sit out (a lone hand's partner, a lone defender's).
        shown_out: for each seat, the suits it failed to follow, so it held none of them.
    """

    trump: Suit | None
    tricks: list[list[tuple[int, Card]]]
    sitting_out: tuple[int, ...]
    shown_out: dict[int, set[Suit]]

    def may_hold(self, seat: int, card: Card) -> bool:
        """Whether `seat` could have held `card` through the recorded tricks without a revoke."""
        if seat in self.sitting_out or self.trump is None:
            return True
        return effective_suit(card, self.trump) not in self.shown_out[seat]

    def played_by(self, seat: int) -> list[Card]:
        return [card for trick in self.tricks for s, card in trick if s == seat]


def _first_leader(
    dealer: int, bidding: _Bidding, sitting_out: tuple[int, ...], options: Options
) -> int:
    """Who leads the first trick, as `Deal._start_play` decides (the replay checks it card by card)."""
    if bidding.lone is not None and options.loner_lead == LEFT_OF_LONER:
        leader = (bidding.lone + 1) % SEATS
    else:
        leader = (dealer + 1) % SEATS
    while leader in sitting_out:
        leader = (leader + 1) % SEATS
    return leader


def _read_play(
    egn: EgnDeal, bidding: _Bidding, options: Options, pack: list[Card], last_deal: bool
) -> _Play:
    """Give each trick's cards to their seats and note the suits each seat failed to follow."""
    where = f"deal {egn.position}"
    if egn.tricks and bidding.trump is None:
        raise RecordError(f"{where} has tricks, but no one made the trump")
    sitting_out = _sitting_out(egn, bidding)
    active = [s for s in range(SEATS) if s not in sitting_out]
    lead = _first_leader(egn.dealer, bidding, sitting_out, options)
    if egn.initial_lead is not None and egn.tricks and egn.initial_lead != lead:
        raise RecordError(
            f"{where}: initialLead is seat {egn.initial_lead}, but seat {lead} leads by the rules"
        )
    play = _Play(bidding.trump, [], sitting_out, {s: set() for s in range(SEATS)})
    for number, codes in enumerate(egn.tricks, start=1):
        unfinished = number == len(egn.tricks) and last_deal and 0 < len(codes) < len(active)
        if len(codes) != len(active) and not unfinished:
            lone = " (a lone hand's trick)" if sitting_out else ""
            raise RecordError(
                f"{where}, trick {number}: {len(codes)} cards, but a trick has {len(active)}{lone}"
            )
        cards = [_pack_card(c, bidding.trump, pack, f"{where}, trick {number}") for c in codes]
        seats = _trick_seats(lead, len(cards), active)
        play.tricks.append(list(zip(seats, cards, strict=True)))
        _note_shown_out(play, seats, cards)
        if not unfinished:
            lead = seats[trick_winner(cards, bidding.trump)]
    return play


def _pack_card(code: str, trump: Suit | None, pack: list[Card], where: str) -> Card:
    try:
        card = egn_card(code, trump)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if card not in pack:
        raise RecordError(f"{where}: {card} is not in the {len(pack)}-card pack")
    return card


def _sitting_out(egn: EgnDeal, bidding: _Bidding) -> tuple[int, ...]:
    if bidding.lone is None:
        if egn.defender is not None:
            raise RecordError(f"deal {egn.position}: aloneDefender is set, but no one plays alone")
        return ()
    out = [partner_of(bidding.lone)]
    if egn.defender is not None:
        if egn.defender % 2 == bidding.lone % 2:
            raise RecordError(
                f"deal {egn.position}: seat {egn.defender} cannot defend alone against his own side"
            )
        out.append(partner_of(egn.defender))
    return tuple(out)


def _trick_seats(lead: int, count: int, active: Sequence[int]) -> list[int]:
    start = active.index(lead)
    return [active[(start + i) % len(active)] for i in range(count)]


def _note_shown_out(play: _Play, seats: list[int], cards: list[Card]) -> None:
    led = effective_suit(cards[0], play.trump)
    for seat, card in zip(seats[1:], cards[1:], strict=True):
        if effective_suit(card, play.trump) != led:
            play.shown_out[seat].add(led)


# ---------------------------------------------------------------------------------------------
# Replaying: the hands as dealt, recorded or rebuilt


@dataclass(frozen=True, slots=True)
class _Hands:
    """The hands as dealt to replay a deal with, and how much of them the file recorded.

    Attributes:
        hands: the hands as dealt, by seat.
        discard: the card the dealer discards in the replay (None when he does not take up).
        known: the file recorded every hand.
        recorded: the discard the file records, if any.
    """

    hands: list[list[Card]]
    discard: Card | None
    known: bool
    recorded: Card | None

    @property
    def discard_known(self) -> bool:
        return self.recorded is not None


def _deal_hands(
    egn: EgnDeal, bidding: _Bidding, play: _Play, pack: list[Card], turn_up: Card
) -> _Hands:
    """The hands as dealt: recorded ones as they are, the others rebuilt from the play.

    A rebuilt hand is what the seat played; the dealer who took the up card also held it and his
    discard. Cards no one saw are filled from the unseen ones, each seat getting only cards it
    could have held (none of a suit it failed to follow).
    """
    where = f"deal {egn.position}"
    # The dealer takes up unless he sits out for a lone partner; a lone defender's partner sits
    # out only after the discard, so a dealer who sits out for that reason has taken up.
    takes_up = bidding.round_one and not (
        bidding.lone is not None and egn.dealer == partner_of(bidding.lone)
    )
    recorded = _recorded_hands(egn, bidding.trump, pack)
    discard = _pack_card(egn.discard, bidding.trump, pack, where) if egn.discard else None
    sat_out_discard = None
    if discard is not None and not takes_up:
        if not (bidding.round_one and bidding.alone):
            raise RecordError(
                f"{where}: a discard is recorded, but the dealer did not take up {turn_up}"
            )
        # OpenSpiel's euchre, and programs that follow it, have the dealer take up and discard
        # before the go-alone decision, so a dealer whose partner then goes alone has a discard
        # on record though he sits out. The play and the score are the same either way: his
        # hand as dealt holds the card he discarded (unless it was the up card itself).
        sat_out_discard, discard = discard, None
    kitty = [_pack_card(c, bidding.trump, pack, f"{where}, kitty") for c in egn.kitty]
    hidden = sat_out_discard if sat_out_discard != turn_up else None
    if hidden is not None and recorded[egn.dealer] and hidden not in recorded[egn.dealer]:
        raise RecordError(f"{where}: the dealer discards {hidden}, a card not in his hand")
    _check_cards(where, egn.dealer, turn_up, takes_up, discard or hidden, play, recorded, kitty)
    # Each seat's known cards; a dealer who took up and whose hand is not recorded holds six.
    known = {s: list(recorded[s]) if recorded[s] else play.played_by(s) for s in range(SEATS)}
    if hidden is not None and not recorded[egn.dealer]:
        known[egn.dealer].append(hidden)
    sizes = {s: _HAND for s in range(SEATS)}
    dealer_six = takes_up and not recorded[egn.dealer]
    if dealer_six:
        known[egn.dealer] = _dealer_cards(play.played_by(egn.dealer), turn_up, discard)
        sizes[egn.dealer] = _HAND + 1
    for seat in range(SEATS):
        if len(known[seat]) > sizes[seat]:
            raise RecordError(f"{where}: seat {seat} would hold {len(known[seat])} cards")
    if takes_up and discard is None:
        six = known[egn.dealer] + ([] if dealer_six else [turn_up])
        discard = _infer_discard(egn.dealer, six, play, turn_up)
    seen = (
        {c for cards in known.values() for c in cards}
        | {turn_up, *kitty}
        | ({discard} if discard else set())
    )
    pool = [c for c in pack if c not in seen]
    if takes_up and discard is None:
        # No one saw the discard: any unseen card will do, as it leaves the hand before the play.
        discard = pool.pop(0)
        known[egn.dealer].append(discard)
    needs = {s: sizes[s] - len(known[s]) for s in range(SEATS) if len(known[s]) < sizes[s]}
    filled = _assign(
        sorted(needs, key=lambda s: -len(play.shown_out[s])), needs, pool, play.may_hold
    )
    if filled is None:
        raise RecordError(
            f"{where}: no deal of the pack fits this play (a seat failed to follow a suit it must have held)"
        )
    for seat, cards in filled.items():
        known[seat].extend(cards)
    if dealer_six:
        known[egn.dealer].remove(turn_up)
    recorded_discard = discard if egn.discard else None
    return _Hands(
        [known[s] for s in range(SEATS)],
        discard,
        all(recorded),
        sat_out_discard or recorded_discard,
    )


def _recorded_hands(egn: EgnDeal, trump: Suit | None, pack: list[Card]) -> list[tuple[Card, ...]]:
    if egn.player_cards is None:
        return [()] * SEATS
    return [
        tuple(_pack_card(c, trump, pack, f"deal {egn.position}, seat {seat}'s hand") for c in codes)
        for seat, codes in enumerate(egn.player_cards)
    ]


def _check_cards(
    where: str,
    dealer: int,
    turn_up: Card,
    takes_up: bool,
    discard: Card | None,
    play: _Play,
    recorded: list[tuple[Card, ...]],
    kitty: list[Card],
) -> None:
    """Refuse a card found in two places: each card is in one hand, the kitty or the up card.

    The cards dealt come first, then the play trick by trick, so a card played where it cannot
    be is reported at the trick and seat where the record first goes wrong.
    """
    seen: dict[Card, tuple[int | None, str]] = {}

    def see(card: Card, seat: int | None, place: str) -> None:
        if card in seen and (seat is None or seen[card][0] != seat):
            raise RecordError(f"{where}: {card} is {seen[card][1]}, and also {place}")
        seen.setdefault(card, (seat, place))

    see(
        turn_up,
        dealer if takes_up else None,
        f"the up card taken up by seat {dealer}" if takes_up else "the up card",
    )
    for seat, hand in enumerate(recorded):
        if turn_up in hand or len(set(hand)) != len(hand):
            raise RecordError(f"{where}: seat {seat}'s hand holds the up card or a card twice")
        for card in hand:
            see(card, seat, f"dealt to seat {seat}")
    if discard is not None:
        see(discard, dealer, "the dealer's discard")
    for card in kitty:
        see(card, None, "in the kitty")
    played: dict[Card, tuple[int, int]] = {}
    for number, trick in enumerate(play.tricks, start=1):
        for seat, card in trick:
            wrong = _misplayed(card, seat, seen, played, discard if seat == dealer else None)
            if wrong:
                raise RecordError(f"{where}, trick {number}: seat {seat} plays {card}, {wrong}")
            played[card] = (number, seat)


def _misplayed(
    card: Card,
    seat: int,
    seen: dict[Card, tuple[int | None, str]],
    played: dict[Card, tuple[int, int]],
    discarded: Card | None,
) -> str | None:
    """Why `seat` cannot play `card` (None when it can), by where the card already is."""
    if card in played:
        number, other = played[card]
        who = "it" if other == seat else f"seat {other}"
        return f"which {who} played in trick {number}"
    if card == discarded:
        return "which it discarded"
    if card in seen and seen[card][0] != seat:
        return f"but {card} is {seen[card][1]}"
    return None


def _dealer_cards(played: list[Card], turn_up: Card, discard: Card | None) -> list[Card]:
    """The known cards among the dealer's six after taking up: his play, the up card, his discard."""
    cards = list(played)
    for card in (turn_up, discard):
        if card is not None and card not in cards:
            cards.append(card)
    return cards


def _infer_discard(dealer: int, six: list[Card], play: _Play, turn_up: Card) -> Card | None:
    """The unrecorded discard, when the known cards settle it; None when no one saw it."""
    unplayed = [c for c in six if c not in play.played_by(dealer)]
    must_go = [c for c in unplayed if not play.may_hold(dealer, c)]
    if must_go:
        return must_go[0]
    if len(six) == _HAND + 1 and unplayed:
        # All six known: one of the unplayed cards went; keep the up card if there is a choice.
        others = [c for c in unplayed if c != turn_up]
        return others[-1] if others else unplayed[0]
    return None


def _assign(
    seats: list[int],
    needs: dict[int, int],
    pool: list[Card],
    may_hold: Callable[[int, Card], bool],
) -> dict[int, list[Card]] | None:
    """Give each seat its count of pool cards it may hold (a small backtracking search)."""
    if not seats:
        return {}
    seat, rest = seats[0], seats[1:]
    fits = [c for c in pool if may_hold(seat, c)]
    for cards in combinations(fits, needs[seat]):
        left = [c for c in pool if c not in cards]
        others = _assign(rest, needs, left, may_hold)
        if others is not None:
            return {seat: list(cards), **others}
    return None


# ---------------------------------------------------------------------------------------------
# Replaying: the game


@dataclass(frozen=True, slots=True)
class ReplayedDeal:
    """A deal of an EGN game after its replay.

    Attributes:
        position: its place in the file, from 1.
        deal: the engine's deal, in the state the record leaves it.
        hands_known: the file recorded every hand (else some were rebuilt or filled).
        discard: the discard the file records (None when it records none).
        after_game: played after the game was won (a lenient reading checks it, scores it not).
    """

    position: int
    deal: Deal
    hands_known: bool
    discard: Card | None
    after_game: bool = False


@dataclass(slots=True)
class EgnGame:
    """An EGN game replayed through the engine.

    Attributes:
        options: the options its ruleset gives.
        players: the players' names by seat (may be empty).
        metadata: the file's metadata, for writing it back.
        initial_score: the score the record starts from.
        recorded_final: the `finalScore` the file records, if any.
        match: the engine's match (one game) after the replay.
        deals: the deals of the file, replayed.
        warnings: what a lenient reading read past, each naming the deal.
    """

    options: Options
    players: tuple[str, ...]
    metadata: dict[str, Any]
    initial_score: tuple[int, int]
    recorded_final: tuple[int, int] | None
    match: Match
    deals: list[ReplayedDeal]
    warnings: tuple[str, ...] = ()

    @property
    def final_score(self) -> tuple[int, int]:
        """The score after the last recorded deal (or the deal that won the game)."""
        return self.match.scores[0], self.match.scores[1]

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def title(self) -> str | None:
        title = self.metadata.get("title")
        return title if isinstance(title, str) else None

    def to_egn(self) -> dict[str, Any]:
        """Write the game back as EGN 1.4, recording only what the file knew (no rebuilt hand)."""
        deals = [
            _deal_to_egn(d.deal, i, hands=d.hands_known, discard=d.discard)
            for i, d in enumerate(self.deals)
        ]
        final = self.final_score if self.over or self.recorded_final else None
        meta = {k: v for k, v in self.metadata.items() if k in _KEPT_METADATA}
        return _document(self.options, self.players, self.initial_score, final, deals, meta)


def import_egn(data: Any, strict: bool = False) -> EgnGame:
    """Replay an EGN document (parsed JSON) through the engine.

    Args:
        data: the parsed JSON.
        strict: refuse what tournament software writes but the rules do not allow, which a
            lenient reading replays with a warning (`EgnGame.warnings`): deals played after
            the game was won (checked, not scored) and a repeated `dealNumber` (the later deal
            replaces the earlier).

    Raises:
        RecordError: the file is not EGN, the bot cannot play its ruleset, or the rules refuse a
            call or a card (the message names the deal, and the trick or call).
    """
    doc = read_document(data, strict)
    options = egn_options(doc.ruleset)
    if max(doc.initial_score) >= options.points:
        raise RecordError(
            f"initialScore {list(doc.initial_score)} already wins a game of {options.points}"
        )
    prepared = [_prepare(egn, options, i == len(doc.deals) - 1) for i, egn in enumerate(doc.deals)]
    match, after = _replay(prepared, options, doc.initial_score)
    warnings = list(doc.warnings)
    if after:
        if strict:
            raise RecordError(_after_the_game(prepared, after, match))
        warnings.append(_after_the_game(prepared, after, match) + ": checked, but not scored")
    game = EgnGame(
        options=options,
        players=doc.players,
        metadata=doc.metadata,
        initial_score=doc.initial_score,
        recorded_final=doc.final_score,
        match=match,
        deals=[
            ReplayedDeal(p.egn.position, p.deal, p.hands.known, p.hands.recorded, i >= after > 0)
            for i, p in enumerate(prepared)
        ],
        warnings=tuple(warnings),
    )
    if doc.final_score is not None and doc.final_score != game.final_score:
        raise RecordError(
            f"finalScore is {list(doc.final_score)}, but the deals replay to {list(game.final_score)}"
        )
    return game


def _after_the_game(prepared: list[_Prepared], after: int, match: Match) -> str:
    """What is wrong with deals that follow the deal that won the game."""
    first, last = prepared[after].egn.position, prepared[-1].egn.position
    if first == last:
        deals = f"deal {first} is"
    else:
        deals = f"deals {first} {'and' if last == first + 1 else 'to'} {last} are"
    return (
        f"{deals} played after the game was won: side {match.winner} reached "
        f"{match.options.points} in deal {prepared[after - 1].egn.position} "
        f"({_score_text(match.scores)})"
    )


def import_emn(data: Any, strict: bool = False) -> list[EgnGame]:
    """Replay each game of an EMN match file; the players' names come from the match's list.

    Args:
        data: the parsed JSON.
        strict: as for `import_egn`, for each game.

    Raises:
        RecordError: not an EMN file, or a game refused (the message names the game).
    """
    _check_header(data, MATCH_FILE_TYPE)
    meta = mapping(data.get("metadata", {}), "EMN metadata")
    names = _emn_players(meta.get("players", []))
    replayed = []
    for number, entry in enumerate(items(data.get("games"), "EMN 'games'"), start=1):
        entry = mapping(entry, f"game {number}")
        try:
            game = import_egn(entry.get("gameData"), strict)
        except RecordError as exc:
            raise RecordError(f"game {number}: {exc}") from None
        game.warnings = tuple(f"game {number}: {warning}" for warning in game.warnings)
        seats = _field(entry, "playersOverride", "players", default=None)
        if seats is not None:
            ids = [_player_id(s, f"game {number}: a player id") for s in items(seats, "players")]
            if all(s in names for s in ids):
                game.players = tuple(names[s] for s in ids)
        replayed.append(game)
    return replayed


def _emn_players(value: Any) -> dict[str | int, str]:
    """The match's players, by id."""
    names: dict[str | int, str] = {}
    for player in items(value, "EMN metadata 'players'"):
        player = mapping(player, "EMN metadata 'players': a player")
        player_id = _player_id(player.get("id"), "EMN metadata 'players': a player's id")
        names[player_id] = text(player.get("name"), "EMN metadata 'players': a player's name")
    return names


def _player_id(value: Any, what: str) -> str | int:
    if type(value) is int:
        return value
    return text(value, what)


@dataclass(frozen=True, slots=True)
class _Prepared:
    egn: EgnDeal
    bidding: _Bidding
    play: _Play
    hands: _Hands
    deal: Deal


def _prepare(egn: EgnDeal, options: Options, last_deal: bool) -> _Prepared:
    """Everything about one deal that needs no replay: its calls, its tricks' seats, its hands."""
    pack = make_pack(options.lowest_rank, joker=options.joker)
    turn_up = _pack_card(egn.up_card, None, pack, f"deal {egn.position}, up card")
    if turn_up == JOKER:
        raise RecordError(
            f"deal {egn.position}: the Joker is the up card, and EGN does not say which suit the dealer named"
        )
    bidding = _read_calls(egn, turn_up)
    play = _read_play(egn, bidding, options, pack, last_deal)
    hands = _deal_hands(egn, bidding, play, pack, turn_up)
    deal = Deal.from_hands(options, egn.dealer, hands.hands, turn_up)
    return _Prepared(egn, bidding, play, hands, deal)


def _replay(
    prepared: list[_Prepared], options: Options, initial: tuple[int, int]
) -> tuple[Match, int]:
    """Run every prepared deal through a `Match`, so the dealer's turn and the score are checked.

    Returns:
        The match, and the index of the first deal played after the game was won (0 when none
        was). Those deals are still replayed, each on its own, so the rules check them.
    """
    queue = list(prepared)
    spare = random.Random(0)

    def next_deal(opts: Options, dealer: int) -> Deal:
        if not queue:
            # The record ends here: the match needs a next deal to stand at, never played.
            return Deal.shuffled(opts, dealer, spare)
        return _dealt_by(queue.pop(0), dealer).deal

    first = prepared[0].egn.dealer if prepared else 0
    match = Match(options, first, deal_factory=next_deal)
    match.scores = [initial[0], initial[1]]
    for index, item in enumerate(prepared):
        if index and match.over:
            for previous, late in zip(prepared[index - 1 :], prepared[index:], strict=False):
                _follows(previous, late)
                _dealt_by(late, (previous.egn.dealer + 1) % SEATS)
                _replay_deal(late.deal, late)
            return match, index
        if index and match.deal is not item.deal:
            _follows(prepared[index - 1], item)
        _replay_deal(match, item)
    return match, 0


def _dealt_by(item: _Prepared, dealer: int) -> _Prepared:
    """The deal, when its dealer is the one whose turn it is to deal."""
    if item.egn.dealer != dealer:
        raise RecordError(
            f"deal {item.egn.position}: the dealer is seat {item.egn.dealer}, but the deal passes to seat {dealer}"
        )
    return item


def _follows(previous: _Prepared, item: _Prepared) -> None:
    """Refuse a deal that follows one not finished."""
    if not previous.deal.is_over:
        raise RecordError(
            f"deal {previous.egn.position} stops before its end, but deal {item.egn.position} follows"
        )


def _score_text(scores: Sequence[int]) -> str:
    return f"{scores[0]}-{scores[1]}"


def _replay_deal(target: Match | Deal, item: _Prepared) -> None:
    """Play a deal's calls and cards through `target`: the match, or the deal alone."""
    where = f"deal {item.egn.position}"
    deal = item.deal
    for number, (seat, action) in enumerate(item.bidding.actions, start=1):
        _apply(target, seat, action, f"{where}, call {number}: seat {seat} {_said(action)}")
    # A file may stop before the discard or the defence: only the play shows they happened.
    played = bool(item.play.tricks)
    discard = item.hands.discard
    if deal.phase == DISCARD and discard is not None and (played or item.hands.discard_known):
        _apply(target, deal.dealer, discard, f"{where}: the dealer discards {discard}")
    while (
        deal.phase == DEFEND_ALONE
        and (adversary := deal.to_act) is not None
        and (played or item.egn.defence_known)
    ):
        action = DEFEND if adversary == item.egn.defender else PASS
        said = "defends alone" if action == DEFEND else "does not defend alone"
        _apply(target, adversary, action, f"{where}: seat {adversary} {said}")
    if item.play.tricks and deal.phase != PLAY:
        raise RecordError(f"{where}: the calls do not end the bidding, yet tricks are played")
    for number, trick in enumerate(item.play.tricks, start=1):
        for seat, card in trick:
            if deal.to_act != seat:
                raise RecordError(
                    f"{where}, trick {number}: seat {deal.to_act} is to play, not seat {seat}"
                )
            _play(target, deal, seat, card, f"{where}, trick {number}")


def _said(action: str) -> str:
    if action == PASS:
        return "passes"
    alone = " alone" if is_alone(action) else ""
    suit = suit_called(action)
    if suit is None:
        return "orders up" + alone
    return f"names {SUIT_NAMES[suit]}" + alone


def _apply(target: Match | Deal, seat: int, action: str, what: str) -> None:
    try:
        target.apply(action, seat)
    except IllegalAction as exc:
        raise RecordError(f"{what}, but {exc}") from None


def seat_refusal(error: IllegalAction) -> str:
    """The engine's refusal, said to a player ("you do not hold that card"), said of a seat
    in a record ("does not hold that card", "must follow hearts")."""
    reason = str(error).removeprefix("you ")
    return "does not" + reason[len("do not") :] if reason.startswith("do not") else reason


def _play(target: Match | Deal, deal: Deal, seat: int, card: Card, where: str) -> None:
    if card not in deal.hands[seat]:
        raise RecordError(f"{where}: seat {seat} played {card}, a card not in that hand")
    try:
        target.apply(card, seat)
    except IllegalAction as exc:
        raise RecordError(f"{where}: seat {seat} played {card} but {seat_refusal(exc)}") from None


# ---------------------------------------------------------------------------------------------
# Writing


def match_to_egn(
    match: Match,
    players: Sequence[str] | None = None,
    title: str | None = None,
    hints: Mapping[int, Collection[int]] | None = None,
) -> list[dict[str, Any]]:
    """Write a match as EGN 1.4 documents, one per game (a rubber is several games).

    Each document holds the game's deals with the hands as dealt, the discard and the tricks; its
    `initialScore` is the lap carried in (0-0 otherwise); its `finalScore` the game's score once
    it is finished. Deals in which nothing happened yet are left out.

    `hints` names, by deal number (from 1, as the bot's own record numbers the match's deals),
    the seats that asked for a hint during that deal. Each such deal says so in an annotation
    of its first call, one line a seat: EGN's annotations are notes beside the play, which
    readers keep apart from the game (the schema strips them for its baseline hash), so the
    file still replays as the game was played.

    Raises:
        RecordError: something EGN cannot say: an option (see `egn_ruleset`), a partner taking it
            alone, or the Joker turned up.
    """
    egn_ruleset(match.options)  # refuse early what the ruleset cannot express
    return [
        _game_document(match, game, players, title, hints or {}) for game in _games_to_write(match)
    ]


def game_to_egn(
    match: Match,
    game: int,
    players: Sequence[str] | None = None,
    title: str | None = None,
    hints: Mapping[int, Collection[int]] | None = None,
) -> dict[str, Any]:
    """Game `game` (from 0) of a match as one EGN 1.4 document, as `match_to_egn` writes it.

    Only that game's deals need be ones EGN can say: a rubber whose other game had a partner
    taking it alone still gives this game as EGN.

    Raises:
        RecordError: the match has no such game to write, or something of this game EGN cannot
            say (see `match_to_egn`).
    """
    egn_ruleset(match.options)
    if game not in _games_to_write(match):
        raise RecordError(f"the match has no game {game + 1} to write")
    return _game_document(match, game, players, title, hints or {})


def _games_to_write(match: Match) -> range:
    """Every finished game, and the game in play once something has happened in it."""
    in_play = len(match.games)
    started = any(
        d.history for d, g in zip(match.deals, match.game_of_deal, strict=True) if g == in_play
    )
    return range(in_play + (1 if not match.over and (started or not match.games) else 0))


def _game_document(
    match: Match,
    game: int,
    players: Sequence[str] | None,
    title: str | None,
    hints: Mapping[int, Collection[int]],
) -> dict[str, Any]:
    deals = [
        (number, d)
        for number, (d, g) in enumerate(zip(match.deals, match.game_of_deal, strict=True), 1)
        if g == game and d.history
    ]
    final = match.games[game].scores if game < len(match.games) else None
    meta: dict[str, Any] = {}
    if title:
        meta["title"] = f"{title}, game {game + 1}" if match.options.is_rubber else title
    egn_deals: list[dict[str, Any]] = []
    for i, (number, d) in enumerate(deals):
        egn_deal = _deal_to_egn(d, i, hands=True, discard=d.discarded)
        _note_hints(egn_deal, sorted(set(hints.get(number, ()))), players)
        egn_deals.append(egn_deal)
    return _document(
        match.options, tuple(players or ()), _carried_in(match, game), final, egn_deals, meta
    )


def _hint_note(seat: int, players: Sequence[str] | None = None) -> str:
    """The annotation that says a seat asked for a hint during a deal. It names the seat, not
    its player: the record's players are those who hold the seats at its end, and a substitute
    may have taken the seat of the member who asked."""
    return f"{HINT_MARK} Seat {seat} asked the bot for a hint (/hint) during this deal."


def _note_hints(egn_deal: dict[str, Any], seats: list[int], players: Sequence[str] | None) -> None:
    """Annotate the first call of a deal with the seats that had a hint in it."""
    phases = egn_deal["phases"]
    if not seats or not phases:  # a seat with a hint made a call or played: never empty
        return
    first = phases[0]
    key = "callAnnotations" if first["type"] == "EUCHRE_BIDDING" else "playAnnotations"
    first.setdefault(key, {}).setdefault("0", []).extend(_hint_note(s, players) for s in seats)


def _carried_in(match: Match, game: int) -> tuple[int, int]:
    if game == 0:
        return 0, 0
    previous = match.games[game - 1]
    return (previous.carried, 0) if previous.winner == 0 else (0, previous.carried)


def _document(
    options: Options,
    players: tuple[str, ...],
    initial: tuple[int, int],
    final: tuple[int, int] | None,
    deals: list[dict[str, Any]],
    meta: dict[str, Any],
) -> dict[str, Any]:
    metadata = dict(meta)
    metadata["players"] = list(players) if players else [f"Seat {s}" for s in range(SEATS)]
    metadata["initialScore"] = list(initial)
    if final is not None:
        metadata["finalScore"] = list(final)
    ruleset = egn_ruleset(options)
    if ruleset:
        metadata["ruleset"] = ruleset
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": metadata, "deals": deals}


def _deal_to_egn(deal: Deal, number: int, hands: bool, discard: Card | None) -> dict[str, Any]:
    """One deal as an EGN object, with its hands as dealt when `hands`, and `discard` if any."""
    where = f"deal {number + 1}"
    if deal.turn_up == JOKER:
        raise RecordError(
            f"{where}: the Joker was turned up, and EGN cannot say which suit the dealer named"
        )
    if deal.alone is not None and deal.alone != deal.maker:
        raise RecordError(f"{where}: the maker's partner took it alone, which EGN cannot record")
    state: dict[str, Any] = {"dealer": deal.dealer, "upCard": card_to_egn(deal.turn_up)}
    if hands:
        state["playerCards"] = [[card_to_egn(c) for c in hand] for hand in deal.dealt]
    phases: list[dict[str, Any]] = []
    calls = _egn_calls(deal)
    if calls or deal.declarations:
        bidding: dict[str, Any] = {
            "phaseNumber": 0,
            "type": "EUCHRE_BIDDING",
            "calls": calls,
            "isAlone": deal.alone is not None,
        }
        if deal.options.defend_alone and deal.alone is not None and deal.phase != DEFEND_ALONE:
            bidding["aloneDefender"] = -1 if deal.defender is None else deal.defender
        if discard is not None:
            bidding["discard"] = card_to_egn(discard)
        phases.append(bidding)
    tricks = [[card_to_egn(c) for _, c in trick] for _, trick in deal.tricks]
    if deal.trick:
        tricks.append([card_to_egn(c) for _, c in deal.trick])
    if tricks:
        phases.append({"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks})
    return {"dealNumber": number, "initialState": state, "phases": phases}


def _egn_calls(deal: Deal) -> list[str]:
    """The EGN calls: passes up to the first call that makes the trump, which ends them."""
    calls: list[str] = []
    for _, action in deal.declarations:
        if action == PASS:
            calls.append(PASS_CALL)
        elif action in (ORDER, ORDER_ALONE):
            calls.append(ORDER_CALL)
            break
        elif (suit := suit_called(action)) is not None:
            calls.append(suit.lower())
            break
        if len(calls) == _MAX_CALLS:
            break
    return calls
