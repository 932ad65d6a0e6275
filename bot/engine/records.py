"""Game records: the project's own JSON format, and reading any record the bot knows.

EGN (see `egn.py`) holds one four-handed game under a fixed set of rules. The bot's own record
holds what EGN cannot: a rubber and its games, every option in force, a partner taking it alone,
defend alone, the Joker. It is also what the game manager stores to bring a table back after a
restart, so it round-trips an unfinished match exactly: the same deal, phase, seat to act and hands.

    {
      "format": "euchre-bot-record", "version": 1,
      "options": {...Options.to_dict()},
      "players": ["Ann", "Bob", "Cy", "Di"] or null,
      "first_dealer": 0,
      "deals": [{
        "number": 1, "game": 0, "dealer": 0,
        "hands": [[5 cards] x 4],            # as dealt, by seat
        "turn_up": "JH", "kitty": ["9S", "8C"],  # the rest of the pack, before any discard
        "actions": [[1, "pass"], [2, "order"], [0, "9D"], [1, "AS"], ...],   # Deal.history
        "result": {"outcome": "made", "maker": 2, "trump": "H", "alone": null,
                   "defender": null, "tricks": [3, 2], "points": [1, 0]} or null
      }, ...],
      "games": [{"scores": [5, 3], "winner": 0, "value": 1, "carried": 0}, ...],
      "final_score": [2, 1],       # the game being played, or the last game once the match is over
      "rubber_points": [1, 0],
      "over": false, "winner": null
    }

Deals are numbered from 1, games from 0; sides are 0 (seats 0 and 2) and 1 (seats 1 and 3).
Reading a record replays it through a `Match`: every action must be legal, the cards must be
exactly one pack, and every stored result, game and score must agree with the replay.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.engine.cards import make_pack, parse_card
from bot.engine.commitment import proof_fields
from bot.engine.deal import PLAY, SEATS, Deal, HandResult
from bot.engine.egn import (
    FILE_TYPE,
    MATCH_FILE_TYPE,
    EgnGame,
    import_egn,
    import_emn,
    seat_refusal,
)
from bot.engine.errors import CardError, IllegalAction, OptionsError, RecordError
from bot.engine.fields import flag, items, mapping, same, text, texts, whole
from bot.engine.match import GameResult, Match
from bot.engine.quoting import shown
from bot.engine.rules import Options, options_from_dict
from bot.engine.variants.match import VariantMatch
from bot.engine.variants.records import is_variant_record, variant_match_from_record

log = logging.getLogger(__name__)

RECORD_FORMAT = "euchre-bot-record"
RECORD_VERSION = 1


# ---------------------------------------------------------------------------------------------
# Writing


def match_to_record(match: Match, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The bot's own record of a match, finished or not (see the module's docstring).

    Args:
        match: the match.
        players: the players' names by seat, if known.
    """
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "options": match.options.to_dict(),
        "players": list(players) if players else None,
        "first_dealer": match.first_dealer,
        "deals": [
            _deal_record(deal, number, game)
            for number, (deal, game) in enumerate(
                zip(match.deals, match.game_of_deal, strict=True), start=1
            )
        ],
        "games": [_game_record(game) for game in match.games],
        "final_score": list(match.scores),
        "rubber_points": list(match.rubber_points),
        "over": match.over,
        "winner": match.winner,
    }


def _deal_record(deal: Deal, number: int, game: int) -> dict[str, Any]:
    record: dict[str, Any] = {
        "number": number,
        "game": game,
        "dealer": deal.dealer,
        "hands": [list(hand) for hand in deal.dealt],
        "turn_up": deal.turn_up,
        # The discard joins the kitty during the deal; the record keeps the kitty as dealt.
        "kitty": [c for c in deal.kitty if c != deal.discarded],
        "actions": [[seat, action] for seat, action in deal.history],
        "result": result_to_dict(deal.result),
    }
    record.update(proof_fields(deal.seed, deal.deal_id, deal.is_over))
    return record


def deal_to_record(deal: Deal, number: int, game: int) -> dict[str, Any]:
    """One deal as it appears in the `deals` list of the bot's own record (numbered from 1)."""
    return _deal_record(deal, number, game)


def result_to_dict(result: HandResult | None) -> dict[str, Any] | None:
    """A hand's result as plain JSON values (None stays None)."""
    if result is None:
        return None
    return {
        "outcome": result.outcome,
        "maker": result.maker,
        "trump": result.trump,
        "alone": result.alone,
        "defender": result.defender,
        "tricks": list(result.tricks),
        "points": list(result.points),
    }


def _game_record(game: GameResult) -> dict[str, Any]:
    return {
        "scores": list(game.scores),
        "winner": game.winner,
        "value": game.value,
        "carried": game.carried,
    }


# ---------------------------------------------------------------------------------------------
# Reading


@dataclass(frozen=True, slots=True)
class _RecordedDeal:
    number: int
    game: int
    deal: Deal
    actions: list[tuple[int, str]]
    result: dict[str, Any] | None


def match_from_record(data: Any, rng: random.Random | None = None) -> Match:
    """Rebuild a match from the bot's own record by replaying it.

    Args:
        data: the record (parsed JSON).
        rng: shuffles the deals played after the record's last one (a strong generator when None).

    Raises:
        RecordError: not such a record, cards that are not one pack, an illegal action (the
            message names the deal and trick), or a stored result the replay does not give.
    """
    _check_format(data)
    options = _options(data.get("options"))
    deals = _recorded_deals(data.get("deals"), options)
    first_dealer = _seat(data.get("first_dealer"), "first_dealer")
    match = _replay(options, first_dealer, deals, rng)
    _check_totals(match, data)
    return match


def match_so_far(options: Any, deals: Any) -> Match:
    """A match still being played, rebuilt from its options (as `Options.to_dict` writes them)
    and the records of its finished deals in order (as `deal_to_record` writes them), the first
    dealt by the first dealer. No stored totals are checked: the match has none yet.

    Raises:
        RecordError: bad options, cards that are not one pack, or an illegal action.
    """
    opts = _options(options)
    recorded = _recorded_deals(deals, opts)
    return _replay(opts, recorded[0].deal.dealer, recorded, None)


def deals_as_dealt(data: Any) -> list[Deal | RecordError]:
    """Each deal of the bot's own record as it was dealt, read on its own and not replayed
    (what checking a deal against its seed needs); a deal that cannot be read is its error.

    Raises:
        RecordError: not such a record, or no list of deals.
    """
    _check_format(data)
    options = _options(data.get("options"))
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list) or not raw_deals:
        raise RecordError("'deals' must be a list of at least one deal")
    pack = sorted(make_pack(options.lowest_rank, joker=options.joker))
    dealt: list[Deal | RecordError] = []
    for number, raw in enumerate(raw_deals, start=1):
        try:
            dealt.append(_recorded_deal(raw, number, options, pack).deal)
        except RecordError as exc:
            dealt.append(exc)
    return dealt


def record_players(data: dict[str, Any]) -> tuple[str, ...]:
    """The players' names of a record (empty when it has none)."""
    players = data.get("players")
    if players is None:
        return ()
    names = texts(players, "'players'")
    if len(names) != SEATS:
        raise RecordError(f"'players' must be four names or null, not {len(names)} names")
    return names


def record_hints(data: dict[str, Any]) -> dict[int, tuple[int, ...]]:
    """The seats that asked for a hint in each deal of the bot's own record, by deal number
    (from 1); a deal without a `hints` field had none.

    Raises:
        RecordError: no list of deals, or a `hints` field that is not a list of seats.
    """
    found: dict[int, tuple[int, ...]] = {}
    for number, raw in enumerate(items(data.get("deals"), "'deals'"), start=1):
        seats = raw.get("hints") if isinstance(raw, dict) else None
        if seats is not None:
            what = f"deal {number}: hints"
            found[number] = tuple(_seat(seat, what) for seat in items(seats, what))
    return found


def _check_format(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a {RECORD_FORMAT} file")
    if not same(data.get("version"), RECORD_VERSION):
        raise RecordError(
            f"record version {shown(data.get('version'))} is not supported (version {RECORD_VERSION} is)"
        )


# Each option's reader, by the type `Options` declares for it: its JSON type is checked here,
# where a file is read, so that `true` or `5.7` is not taken for a number of points.
_READERS: dict[str, Callable[[Any, str], object]] = {"int": whole, "bool": flag, "str": text}
_OPTION_READERS = {f.name: _READERS[str(f.type)] for f in fields(Options)}


def _options(value: Any) -> Options:
    options = mapping(value, "'options'")
    for name, option in options.items():
        if name in _OPTION_READERS:
            _OPTION_READERS[name](option, f"option '{name}'")
    try:
        return options_from_dict(options)
    except OptionsError as exc:
        raise RecordError(f"options: {exc}") from None


def _seat(value: Any, what: str) -> int:
    return whole(value, what, 0, SEATS - 1)


def _recorded_deals(value: Any, options: Options) -> list[_RecordedDeal]:
    if not isinstance(value, list) or not value:
        raise RecordError("'deals' must be a list of at least one deal")
    pack = sorted(make_pack(options.lowest_rank, joker=options.joker))
    return [_recorded_deal(raw, number, options, pack) for number, raw in enumerate(value, start=1)]


def _recorded_deal(raw: Any, number: int, options: Options, pack: list[str]) -> _RecordedDeal:
    where = f"deal {number}"
    if not isinstance(raw, dict):
        raise RecordError(f"{where} must be an object")
    if whole(raw.get("number", number), f"{where}: 'number'") != number:
        raise RecordError(f"{where} is numbered {raw['number']}")
    hands = raw.get("hands")
    if (
        not isinstance(hands, list)
        or len(hands) != SEATS
        or not all(isinstance(h, list) for h in hands)
    ):
        raise RecordError(f"{where}: 'hands' must be four hands")
    cards = [[_card(c, where) for c in hand] for hand in hands]
    for seat, hand in enumerate(cards):
        if len(hand) != 5:
            raise RecordError(f"{where}: seat {seat} is dealt {len(hand)} cards, not 5")
    turn_up = _card(raw.get("turn_up"), where)
    kitty = [_card(c, where) for c in items(raw.get("kitty"), f"{where}: 'kitty'")]
    if sorted([c for hand in cards for c in hand] + [turn_up] + kitty) != pack:
        raise RecordError(
            f"{where}: the hands, turn-up and kitty are not one {len(pack)}-card pack"
        )
    deal = Deal.from_hands(
        options, _seat(raw.get("dealer"), f"{where}: dealer"), cards, turn_up, kitty
    )
    result = raw.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError(f"{where}: 'result' must be an object or null")
    game = whole(raw.get("game"), f"{where}: 'game'")
    if "deal_id" in raw:
        deal.deal_id = text(raw["deal_id"], f"{where}: 'deal_id'")
    if "seed" in raw:
        deal.seed = text(raw["seed"], f"{where}: 'seed'")
    return _RecordedDeal(number, game, deal, _actions(raw.get("actions"), where), result)


def _card(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: {shown(value)} is not a card")
    try:
        card = parse_card(value)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if card != value:
        raise RecordError(f"{where}: write the card {shown(value)} as {card!r}")
    return card


def _actions(value: Any, where: str) -> list[tuple[int, str]]:
    actions = []
    for item in items(value, f"{where}: 'actions'"):
        if not (isinstance(item, list) and len(item) == 2):
            raise RecordError(f"{where}: an action must be [seat, action], not {shown(item)}")
        seat = _seat(item[0], f"{where}: an action's seat")
        actions.append((seat, text(item[1], f"{where}: an action")))
    return actions


def _replay(
    options: Options,
    first_dealer: int,
    deals: list[_RecordedDeal],
    rng: random.Random | None,
) -> Match:
    """Play every recorded action through a `Match` dealing the recorded hands."""
    queue = list(deals)

    def next_deal(opts: Options, dealer: int) -> Deal:
        if not queue:
            return Deal.shuffled(opts, dealer, rng)
        recorded = queue.pop(0)
        if recorded.deal.dealer != dealer:
            raise RecordError(
                f"deal {recorded.number}: the dealer is seat {recorded.deal.dealer}, but the deal passes to seat {dealer}"
            )
        return recorded.deal

    if deals[0].deal.dealer != first_dealer:
        raise RecordError(
            f"deal 1 is dealt by seat {deals[0].deal.dealer}, not by the first dealer {first_dealer}"
        )
    match = Match(options, first_dealer, deal_factory=next_deal)
    for recorded in deals:
        if match.deal is not recorded.deal:
            raise RecordError(
                f"deal {recorded.number} follows a deal that is not finished, or the end of the match"
            )
        if match.game_number != recorded.game:
            raise RecordError(
                f"deal {recorded.number} is recorded in game {recorded.game}, but it is in game {match.game_number}"
            )
        for seat, action in recorded.actions:
            _apply(match, recorded, seat, action)
        _check_result(recorded)
    return match


def _apply(match: Match, recorded: _RecordedDeal, seat: int, action: str) -> None:
    deal = recorded.deal
    if deal.is_over:
        raise RecordError(
            f"deal {recorded.number}: seat {seat} acts ({shown(action)}) after the deal is over"
        )
    if seat != deal.to_act:
        raise RecordError(
            f"deal {recorded.number}: seat {seat} acts ({shown(action)}), but seat {deal.to_act} is to act"
        )
    try:
        match.apply(action, seat)
    except IllegalAction as exc:
        if deal.phase == PLAY:
            trick = len(deal.tricks) + 1
            raise RecordError(
                f"deal {recorded.number}, trick {trick}: seat {seat} played {shown(action)}"
                f" but {seat_refusal(exc)}"
            ) from None
        raise RecordError(
            f"deal {recorded.number}: seat {seat} cannot {shown(action)} ({deal.phase}): {exc}"
        ) from None


def _check_result(recorded: _RecordedDeal) -> None:
    replayed = result_to_dict(recorded.deal.result)
    stored = recorded.result
    if same(stored, replayed):
        return
    where = f"deal {recorded.number}"
    if stored is None or replayed is None:
        raise RecordError(
            f"{where}: the record's result is {shown(stored)}, but the replay gives {replayed}"
        )
    for key in (*replayed, *stored):
        if key not in stored:
            raise RecordError(f"{where}: the record's result has no {shown(key)}")
        if key not in replayed:
            raise RecordError(f"{where}: the record's result has an unknown field {shown(key)}")
        if not same(stored[key], replayed[key]):
            raise RecordError(
                f"{where}: the record's result has {key} {shown(stored[key])}, but the replay gives {replayed[key]!r}"
            )


def _check_totals(match: Match, data: dict[str, Any]) -> None:
    """The games, scores and winner the record stores must be those of the replay."""
    stored = {
        key: data.get(key) for key in ("games", "final_score", "rubber_points", "over", "winner")
    }
    replayed = {
        "games": [_game_record(g) for g in match.games],
        "final_score": list(match.scores),
        "rubber_points": list(match.rubber_points),
        "over": match.over,
        "winner": match.winner,
    }
    for key, value in replayed.items():
        if not same(stored[key], value):
            raise RecordError(
                f"the record's {key} is {shown(stored[key])}, but the replay gives {value!r}"
            )


# ---------------------------------------------------------------------------------------------
# Any record


@dataclass(frozen=True, slots=True)
class Replay:
    """A record of any kind the bot reads, replayed.

    Attributes:
        kind: "record" (the bot's own), "variant" (the bot's own, of a variant), "egn" or "emn".
        match: the replayed match, for the bot's own record.
        players: the players' names by seat, for the bot's own records.
        games: the replayed EGN games (one for EGN, several for EMN).
        variant_match: the replayed game, for the bot's own record of a variant.
    """

    kind: str
    match: Match | None = None
    players: tuple[str, ...] = ()
    games: tuple[EgnGame, ...] = ()
    variant_match: VariantMatch | None = None

    @property
    def warnings(self) -> tuple[str, ...]:
        """What a lenient reading read past (see `import_egn`), each naming the game and deal."""
        return tuple(warning for game in self.games for warning in game.warnings)


def read_record(data: Any, strict: bool = False) -> Replay:
    """Replay a record of any kind the bot knows: its own (of the regular game or a variant), EGN
    or EMN (told apart by their fields).

    Args:
        data: the parsed JSON.
        strict: refuse what an EGN or EMN file from tournament software gets wrong and a
            lenient reading replays with a warning (see `import_egn`).

    Raises:
        RecordError: a document of no known kind, or one its replay refuses.
    """
    if is_variant_record(data):
        variant_match, players = variant_match_from_record(data)
        return Replay("variant", players=players, variant_match=variant_match)
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        return Replay("record", match=match_from_record(data), players=record_players(data))
    if isinstance(data, dict) and data.get("fileType") == FILE_TYPE:
        return Replay("egn", games=(import_egn(data, strict),))
    if isinstance(data, dict) and data.get("fileType") == MATCH_FILE_TYPE:
        return Replay("emn", games=tuple(import_emn(data, strict)))
    if isinstance(data, dict) and "fileType" in data:
        raise RecordError(f"not a game record: fileType is {shown(data['fileType'])}")
    if (
        isinstance(data, list)
        and data
        and all(isinstance(d, dict) and d.get("format") == RECORD_FORMAT for d in data)
    ):
        # What `simulate --record` writes for several matches: verify-deal reads the list.
        raise RecordError(
            f"this file holds {len(data)} match records (simulate --record of several"
            " matches): this command reads one; verify-deal checks them all"
        )
    raise RecordError(f"not a game record: expected an EGN or EMN file, or a {RECORD_FORMAT} file")
