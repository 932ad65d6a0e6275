"""The bot's own record of a variant's game, and its exact replay.

The same format as the four-handed record (`bot.engine.records`), told apart by its `variant`
object, which takes the place of the four-handed `options`:

    {
      "format": "euchre-bot-record", "version": 1,
      "variant": {"variant": "napoleon", "players": 5, "rounds": 1},   # Variant.options()
      "players": ["Ann", "Bob", "Cy", "Di", "Ed"] or null,
      "first_dealer": 0,
      "deals": [{
        "number": 1, "dealer": 0,
        "hands": [[5 cards] x players],        # as dealt, by seat
        "turn_up": "JH" or null, "kitty": [...],  # the rest of the pack, before any discard
        "actions": [[1, "bid:2"], [2, "pass"], ..., [1, "call:H"], [1, "JH"], ...],
        "deal_id": "euchre-bot deal 7:1:1", "commitment": "<hex>",  # verifiable deals
        "seed": "<hex>",                      # only once the deal is over
        "result": {"outcome": "made", "maker": 1, "trump": "H", "bid": 2,
                   "tricks": [0, 2, 0, 0, 0],  # by seat
                   "points": [-2, 8, -2, -2, -2],  # by side (partnerships) or by seat
                   "thrown": [], "declared": false, "early": true} or null
      }, ...],
      "scores": [...],             # by side or by seat; set-back's start at 5
      "over": true, "winner": 1
    }

The sides of each deal follow from the variant and the maker: the partnerships (side 0 the even
seats), or the maker against all the others (less the hands thrown up, in `thrown`). Reading a
record replays it through a `VariantMatch`: every action must be legal, the cards one pack, and
every stored result and score must be the replay's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import parse_card
from bot.engine.commitment import proof_fields
from bot.engine.errors import CardError, IllegalAction, OptionsError, RecordError
from bot.engine.variants.deal import PLAY, VariantDeal
from bot.engine.variants.match import VariantMatch
from bot.engine.variants.rules import TURN_UP, Variant, variant_from_options
from bot.engine.variants.scoring import VariantResult

RECORD_FORMAT = "euchre-bot-record"
RECORD_VERSION = 1


def variant_match_to_record(
    match: VariantMatch, players: Sequence[str] | None = None
) -> dict[str, Any]:
    """The bot's own record of a variant's match, finished or not."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": match.variant.options(),
        "players": list(players) if players else None,
        "first_dealer": match.first_dealer,
        "deals": [
            variant_deal_to_record(deal, number) for number, deal in enumerate(match.deals, 1)
        ],
        "scores": list(match.scores),
        "over": match.over,
        "winner": match.winner,
    }


def variant_deal_to_record(deal: VariantDeal, number: int) -> dict[str, Any]:
    """One deal as it appears in a variant record's `deals` list (numbered from 1)."""
    record: dict[str, Any] = {
        "number": number,
        "dealer": deal.dealer,
        "hands": [list(hand) for hand in deal.dealt],
        "turn_up": deal.turn_up,
        # The discard joins the kitty during the deal; the record keeps the kitty as dealt.
        "kitty": [c for c in deal.kitty if c != deal.discarded],
        "actions": [[seat, action] for seat, action in deal.history],
        "result": variant_result_to_dict(deal.result),
    }
    record.update(proof_fields(deal.seed, deal.deal_id, deal.is_over))
    return record


def variant_result_to_dict(result: VariantResult | None) -> dict[str, Any] | None:
    """A deal's result as plain JSON values (None stays None)."""
    if result is None:
        return None
    return {
        "outcome": result.outcome,
        "maker": result.maker,
        "trump": result.trump,
        "bid": result.bid,
        "tricks": list(result.tricks),
        "points": list(result.points),
        "thrown": list(result.thrown),
        "declared": result.declared,
        "early": result.early,
    }


def is_variant_record(data: Any) -> bool:
    """Whether a document is the bot's own record of a variant (it has a `variant` object)."""
    return isinstance(data, dict) and data.get("format") == RECORD_FORMAT and "variant" in data


@dataclass(frozen=True, slots=True)
class _RecordedDeal:
    number: int
    deal: VariantDeal
    actions: list[tuple[int, str]]
    result: Any


def variant_match_from_record(
    data: Any, rng: random.Random | None = None
) -> tuple[VariantMatch, tuple[str, ...]]:
    """Rebuild a variant's match by replaying its record.

    Args:
        data: the record (parsed JSON).
        rng: shuffles the deals played after the record's last one (a strong generator when None).

    Returns:
        (the match, the players' names by seat, empty when the record has none).

    Raises:
        RecordError: not such a record, cards that are not one pack, an illegal action (the
            message names the deal), or a stored result or score the replay does not give.
    """
    if not is_variant_record(data):
        raise RecordError(f"not a {RECORD_FORMAT} file of a variant")
    if data.get("version") != RECORD_VERSION:
        raise RecordError(
            f"record version {data.get('version')!r} is not supported (version {RECORD_VERSION} is)"
        )
    try:
        variant = variant_from_options(data["variant"])
    except OptionsError as exc:
        raise RecordError(f"variant: {exc}") from None
    players = _players(data.get("players"), variant)
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list) or not raw_deals:
        raise RecordError("'deals' must be a list of at least one deal")
    deals = [_recorded_deal(raw, n, variant) for n, raw in enumerate(raw_deals, start=1)]
    first_dealer = _seat(data.get("first_dealer"), "first_dealer", variant)
    match = _replay(variant, first_dealer, deals, rng)
    for key, value in (
        ("scores", list(match.scores)),
        ("over", match.over),
        ("winner", match.winner),
    ):
        if data.get(key) != value:
            raise RecordError(
                f"the record's {key} is {data.get(key)!r}, but the replay gives {value!r}"
            )
    return match, players


def _players(value: Any, variant: Variant) -> tuple[str, ...]:
    if value is None:
        return ()
    if (
        not isinstance(value, list)
        or len(value) != variant.players
        or not all(isinstance(p, str) for p in value)
    ):
        raise RecordError(f"'players' must be {variant.players} names or null")
    return tuple(value)


def _seat(value: Any, what: str, variant: Variant) -> int:
    if type(value) is not int or not 0 <= value < variant.players:
        raise RecordError(f"{what} must be a seat from 0 to {variant.players - 1}, not {value!r}")
    return value


def _card(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: {value!r} is not a card")
    try:
        card = parse_card(value)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if card != value:
        raise RecordError(f"{where}: write the card {value!r} as {card!r}")
    return card


def _recorded_deal(raw: Any, number: int, variant: Variant) -> _RecordedDeal:
    where = f"deal {number}"
    if not isinstance(raw, dict):
        raise RecordError(f"{where} must be an object")
    if raw.get("number", number) != number:
        raise RecordError(f"{where} is numbered {raw.get('number')!r}")
    hands = raw.get("hands")
    if not isinstance(hands, list) or len(hands) != variant.players:
        raise RecordError(f"{where}: 'hands' must be {variant.players} hands")
    cards = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != 5:
            raise RecordError(f"{where}: seat {seat} must be dealt 5 cards")
        cards.append([_card(c, where) for c in hand])
    turn_up = raw.get("turn_up")
    turn_up = None if turn_up is None else _card(turn_up, where)
    kitty = raw.get("kitty")
    if not isinstance(kitty, list):
        raise RecordError(f"{where}: 'kitty' must be a list")
    kitty = [_card(c, where) for c in kitty]
    everything = [c for hand in cards for c in hand] + kitty + ([turn_up] if turn_up else [])
    if sorted(everything) != sorted(variant.pack):
        raise RecordError(
            f"{where}: the hands, turn-up and kitty are not one {len(variant.pack)}-card pack"
        )
    if (turn_up is None) == (variant.auction == TURN_UP):
        raise RecordError(
            f"{where}: a {variant.name} deal {'has a' if turn_up is None else 'has no'} turn-up"
        )
    dealer = _seat(raw.get("dealer"), f"{where}: dealer", variant)
    deal = VariantDeal.from_hands(variant, dealer, cards, turn_up, kitty)
    for key in ("deal_id", "seed"):
        if key in raw:
            if not isinstance(raw[key], str):
                raise RecordError(f"{where}: '{key}' must be text")
            setattr(deal, key, raw[key])
    actions = []
    raw_actions = raw.get("actions")
    if not isinstance(raw_actions, list):
        raise RecordError(f"{where}: 'actions' must be a list")
    for item in raw_actions:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)):
            raise RecordError(f"{where}: an action must be [seat, action], not {item!r}")
        actions.append((_seat(item[0], f"{where}: an action's seat", variant), item[1]))
    return _RecordedDeal(number, deal, actions, raw.get("result"))


def variant_deals_as_dealt(data: Any) -> list[VariantDeal | RecordError]:
    """`bot.engine.records.deals_as_dealt` for a variant's record.

    Raises:
        RecordError: not such a record, or no list of deals.
    """
    if not is_variant_record(data):
        raise RecordError(f"not a {RECORD_FORMAT} file of a variant")
    try:
        variant = variant_from_options(data["variant"])
    except OptionsError as exc:
        raise RecordError(f"variant: {exc}") from None
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list) or not raw_deals:
        raise RecordError("'deals' must be a list of at least one deal")
    dealt: list[VariantDeal | RecordError] = []
    for number, raw in enumerate(raw_deals, start=1):
        try:
            dealt.append(_recorded_deal(raw, number, variant).deal)
        except RecordError as exc:
            dealt.append(exc)
    return dealt


def _replay(
    variant: Variant,
    first_dealer: int,
    deals: list[_RecordedDeal],
    rng: random.Random | None,
) -> VariantMatch:
    queue = list(deals)

    def next_deal(v: Variant, dealer: int) -> VariantDeal:
        if not queue:
            return VariantDeal.shuffled(v, dealer, rng)
        recorded = queue.pop(0)
        if recorded.deal.dealer != dealer:
            raise RecordError(
                f"deal {recorded.number}: the dealer is seat {recorded.deal.dealer}, "
                f"but the deal passes to seat {dealer}"
            )
        return recorded.deal

    if deals[0].deal.dealer != first_dealer:
        raise RecordError(f"deal 1 is not dealt by the first dealer {first_dealer}")
    match = VariantMatch(variant, first_dealer, deal_factory=next_deal)
    for recorded in deals:
        deal = recorded.deal
        if match.deal is not deal:
            raise RecordError(
                f"deal {recorded.number} follows a deal that is not finished, or the end of the game"
            )
        for seat, action in recorded.actions:
            if deal.is_over:
                raise RecordError(
                    f"deal {recorded.number}: seat {seat} acts ({action}) after the deal is over"
                )
            try:
                match.apply(action, seat)
            except IllegalAction as exc:
                where = f"trick {len(deal.tricks) + 1}" if deal.phase == PLAY else deal.phase
                raise RecordError(
                    f"deal {recorded.number} ({where}): seat {seat} cannot {action!r}: {exc}"
                ) from None
        replayed = variant_result_to_dict(deal.result)
        if replayed != recorded.result:
            raise RecordError(
                f"deal {recorded.number}: the record says {recorded.result}, "
                f"but the replay gives {replayed}"
            )
    return match
