"""What the other games of the rule books differ in, as data (RULES.md §7-§8).

Every variant plays its tricks on the shared core (`bot.engine.tricks`); what sets one apart
is held in a frozen `Variant`: the seats, the pack for that many players, the deal's direction,
the auction, who plays against whom, whether a deal may end early, and the scoring. The deal
(`variants.deal`) and the match (`variants.match`) read these fields and nothing else, so a
variant is a line of `make_variant`, not a copy of the four-handed deal.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from bot.engine.cards import Card, make_pack
from bot.engine.errors import OptionsError

# The auctions.
TURN_UP = "turn_up"  # the regular game's two rounds over a turned card (H; set-back)
BID = "bid"  # one bid of tricks each, then the highest bidder names trump (French, Napoleon)
BID_SUIT = "bid_suit"  # one bid of tricks and a suit each (six-handed)

# The scorings.
POINTS = "points"  # points up to a game
CHIPS = "chips"  # Napoleon: chips change hands each deal, summing to zero
SET_BACK = "set_back"  # count down from 5 to 0

TWO_HANDED = "two-handed"
THREE_HANDED = "three-handed"
FRENCH = "french"
NAPOLEON = "napoleon"
SIX_HANDED = "six-handed"
SETBACK = "set-back"
NAMES = (TWO_HANDED, THREE_HANDED, FRENCH, NAPOLEON, SIX_HANDED, SETBACK)
# What each game is called wherever the bot names it to a member.
TITLES = {
    TWO_HANDED: "Two-handed euchre",
    THREE_HANDED: "Three-handed euchre",
    FRENCH: "French euchre",
    NAPOLEON: "Napoleon",
    SIX_HANDED: "Six-handed euchre",
    SETBACK: "Set-back euchre",
}

# Six-handed euchre deals the whole pack: "two of the sevens are discarded" (K). The books do
# not say which two; the bot takes out the black sevens.
SIX_HANDED_OUT = ("7S", "7C")
SET_BACK_START = 5


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant's rules for a given number of players.

    Attributes:
        name: the variant's name (`two-handed`, `french`, ...).
        players: the seats at the table, numbered 0 to players - 1 from the first dealer's left.
        pack: the cards in play, in a fixed order.
        deal_right: the cards go round to the dealer's right (Napoleon, K); otherwise left.
        auction: `turn_up`, `bid` or `bid_suit`.
        partners: two partnerships seated alternately (side = seat % 2); otherwise each plays
            for himself and the maker plays against all the others.
        maker_leads: the maker leads to the first trick (Napoleon); otherwise the eldest does.
        early_end: the deal ends as soon as the bid is made or can no longer be made (Napoleon).
        throw_up: a player other than the maker may throw up his hand before the first lead
            (set-back).
        scoring: `points`, `chips` or `set_back`.
        game: points for a game (`points` scoring); 0 otherwise.
        rounds: for chips, how many times each player deals before the match ends.
        declare_all: set-back option: the maker may declare all five (K).
        euchre_deducts: set-back option: a euchre also lets each adversary deduct 2 (K).
    """

    name: str
    players: int
    pack: tuple[Card, ...]
    deal_right: bool = False
    auction: str = TURN_UP
    partners: bool = False
    maker_leads: bool = False
    early_end: bool = False
    throw_up: bool = False
    scoring: str = POINTS
    game: int = 5
    rounds: int = 0
    declare_all: bool = False
    euchre_deducts: bool = False

    @property
    def sides(self) -> int:
        """How many scores the match keeps: two sides, or one per player."""
        return 2 if self.partners else self.players

    def side_of(self, seat: int) -> int:
        """Who a seat scores for: its partnership, or itself."""
        return seat & 1 if self.partners else seat

    def options(self) -> dict[str, Any]:
        """The choices that make this variant, as stored in a record (`variant_from_options`)."""
        data: dict[str, Any] = {"variant": self.name, "players": self.players}
        if self.scoring == POINTS:
            data["points"] = self.game
        if self.scoring == CHIPS:
            data["rounds"] = self.rounds
        if self.scoring == SET_BACK:
            data["declare_all"] = self.declare_all
            data["euchre_deducts"] = self.euchre_deducts
        return data


_SEATS = {
    TWO_HANDED: (2, 2),
    THREE_HANDED: (3, 3),
    FRENCH: (4, 4),
    NAPOLEON: (2, 7),
    SIX_HANDED: (6, 6),
    # Five each and a turn-up from 32 cards: at most six.
    SETBACK: (2, 6),
}
_GAME = {TWO_HANDED: 5, THREE_HANDED: 5, FRENCH: 15, SIX_HANDED: 25}


def seats_allowed(name: str) -> tuple[int, int]:
    """The fewest and most players a variant takes.

    Raises:
        OptionsError: an unknown variant.
    """
    try:
        return _SEATS[name]
    except KeyError:
        raise OptionsError(f"unknown variant {name!r}: choose {', '.join(NAMES)}") from None


def napoleon_pack(players: int) -> tuple[Card, ...]:
    """Napoleon's pack (K): 24 cards for four or fewer, 32 for five or six, the sixes for seven."""
    if players <= 4:
        return tuple(make_pack("9"))
    return tuple(make_pack("7", sixes=players == 7))


def make_variant(name: str, players: int | None = None, **options: Any) -> Variant:
    """The rules of variant `name` for `players` players, with its options.

    Args:
        name: one of `NAMES`.
        players: the number of players; None takes the variant's fewest.
        options: `points` (a game's points, where points are played to a game), `rounds`
            (Napoleon: times each player deals, default 1), `declare_all` and
            `euchre_deducts` (set-back, default off).

    Raises:
        OptionsError: an unknown variant or option, or a seat count the variant does not allow.
    """
    low, high = seats_allowed(name)
    count = low if players is None else players
    if type(count) is not int or not low <= count <= high:
        allowed = str(low) if low == high else f"{low} to {high}"
        raise OptionsError(f"{name} is played by {allowed} players, not {players}")
    pack32 = tuple(make_pack("7"))
    if name in (TWO_HANDED, THREE_HANDED):
        variant = Variant(name, count, pack32, game=_GAME[name])
    elif name == FRENCH:
        variant = Variant(
            name, count, tuple(make_pack("9")), auction=BID, partners=True, game=_GAME[name]
        )
    elif name == SIX_HANDED:
        pack = tuple(c for c in pack32 if c not in SIX_HANDED_OUT)
        variant = Variant(name, count, pack, auction=BID_SUIT, partners=True, game=_GAME[name])
    elif name == NAPOLEON:
        variant = Variant(
            name,
            count,
            napoleon_pack(count),
            deal_right=True,
            auction=BID,
            maker_leads=True,
            early_end=True,
            scoring=CHIPS,
            game=0,
            rounds=1,
        )
    else:
        variant = Variant(name, count, pack32, throw_up=True, scoring=SET_BACK, game=0)
    return _with_options(variant, options)


_OPTIONS = {
    POINTS: {"points": "game"},
    CHIPS: {"rounds": "rounds"},
    SET_BACK: {"declare_all": "declare_all", "euchre_deducts": "euchre_deducts"},
}
_FIELD_TYPES = {f.name: f.type for f in fields(Variant)}
# What each scoring's variants are: an option belongs to the variants of its scoring.
_SCORINGS = {
    POINTS: (TWO_HANDED, THREE_HANDED, FRENCH, SIX_HANDED),
    CHIPS: (NAPOLEON,),
    SET_BACK: (SETBACK,),
}
# The options only the variants have (`points` is the four-handed game's too).
VARIANT_ONLY_OPTIONS = ("rounds", "declare_all", "euchre_deducts")


def option_owners(key: str) -> tuple[str, ...]:
    """The variants that take option `key` (none for a key no variant has)."""
    return tuple(
        name for scoring, names in _SCORINGS.items() if key in _OPTIONS[scoring] for name in names
    )


def no_such_option(name: str, key: str) -> str:
    """Why variant (or game) `name` refuses option `key`: which games have it, if any do."""
    owners = option_owners(key)
    if not owners:
        return f"{name} has no option '{key}'"
    return f"{name} has no option '{key}': it is an option of {', '.join(owners)}"


def _with_options(variant: Variant, options: dict[str, Any]) -> Variant:
    allowed = _OPTIONS[variant.scoring]
    values: dict[str, Any] = {}
    for key, value in options.items():
        if value is None:
            continue
        if key not in allowed:
            raise OptionsError(no_such_option(variant.name, key))
        field = allowed[key]
        if _FIELD_TYPES[field] == "bool":
            if not isinstance(value, bool):
                raise OptionsError(f"option '{key}' must be true or false, not {value!r}")
        elif type(value) is not int or not 1 <= value <= 100:
            raise OptionsError(f"option '{key}' must be a whole number from 1 to 100")
        values[field] = value
    return replace(variant, **values)


def variant_from_options(data: Any) -> Variant:
    """A variant back from `Variant.options()` (a record's `variant` object).

    Raises:
        OptionsError: not such an object, or values `make_variant` refuses.
    """
    if not isinstance(data, dict) or not isinstance(data.get("variant"), str):
        raise OptionsError("the variant must be an object with its name under 'variant'")
    rest = {k: v for k, v in data.items() if k not in ("variant", "players")}
    return make_variant(data["variant"], data.get("players"), **rest)
