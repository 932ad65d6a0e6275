"""`python -m bot verify-deal FILE`: check a match's deals against the seeds shown after them.

Every deal the bot deals shows a commitment before it is dealt and its seed once it is over
(bot/engine/commitment.py). Given the bot's own record of a match, four-handed or of a variant
(as `/record` gives it), this recomputes, for every deal, the commitment from the seed and the
pack order from the seed, and checks them against the commitment recorded and the cards
actually dealt.

Exit codes: 0 when every deal holds; 1 when a deal does not (each named with the reason, even
where the cards moved break the play that follows: the deal is checked as dealt, on its own); 2
for a file that cannot be read as a record, or whose deals hold but whose play does not replay.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from bot.engine.commitment import proof_problem, variant_proof_problem
from bot.engine.errors import EuchreError
from bot.engine.quoting import shown
from bot.engine.records import deals_as_dealt, read_record
from bot.engine.variants.records import is_variant_record, variant_deals_as_dealt

EXIT_FAILED = 1


def register_commands(subparsers: Any) -> None:
    """Add `verify-deal` to the command line."""
    check = subparsers.add_parser(
        "verify-deal",
        help="check every deal of a match record against its commitment and its seed",
    )
    check.add_argument("file", type=Path, help="the bot's own record of a match (/record)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(handler=verify_deals)


def verify_deals(args: Any) -> int:
    """Check every deal of the record (or of each record of a list, as `simulate --record`
    writes for several matches).

    Each deal is checked as it was dealt, on its own: a card moved from one hand to another
    breaks the play that follows too, but it is that deal that fails its seed (exit 1, the deal
    named), not the file. A record whose deals all verify but whose play does not replay is
    not a record of the bot's (exit 2)."""
    from bot.cli import EXIT_OK, CommandError, load_json

    data = load_json(args.file)
    documents = data if isinstance(data, list) and data else [data]
    results, unreplayable = [], []
    for index, document in enumerate(documents, start=1):
        where = f"{args.file}" + (f", match {index}" if len(documents) > 1 else "")
        replay_error = None
        try:
            replay = read_record(document)
        except EuchreError as exc:
            replay_error = f"{where}: {exc}"
        else:
            if replay.variant_match is None and replay.match is None:
                raise CommandError(f"{where}: deals can be checked in the bot's own records only")
        try:
            if is_variant_record(document):
                dealt: list[Any] = variant_deals_as_dealt(document)
                check: Any = variant_proof_problem
            else:
                dealt, check = deals_as_dealt(document), proof_problem
        except EuchreError:
            raise CommandError(replay_error or f"{where}: not a record of the bot's") from None
        prefix = f"match {index}, " if len(documents) > 1 else ""
        results.extend(_check_match(dealt, document["deals"], prefix, check))
        if replay_error is not None:
            unreplayable.append(replay_error)
    code = _report(results, args.json, EXIT_OK, replays=not unreplayable)
    if code == EXIT_OK and unreplayable:
        raise CommandError(unreplayable[0])
    for problem in unreplayable:
        print(f"and the record does not replay: {problem}", file=sys.stderr)
    return code


def _check_match(
    dealt: list[Any], raw_deals: list[Any], prefix: str, check: Any
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    # The table, match and deal number the first deal's identity names: the next deals'
    # must name the same match, numbered on from it (a game's record starts mid-match).
    first: tuple[str, int] | None = None
    for number, deal in enumerate(dealt, start=1):
        name = f"{prefix}deal {number}"
        raw = raw_deals[number - 1]
        if isinstance(deal, EuchreError):
            results.append({"deal": name, "verified": False, "problem": str(deal)})
            continue
        if raw.get("result") is None:  # its seed is shown only once it is over
            results.append({"deal": name, "verified": False, "skipped": "not over"})
            continue
        recorded = raw.get("commitment")
        problem = check(deal, recorded if isinstance(recorded, str) else None)
        if problem is None:
            # A commitment binds one deal of one match: an identity naming another deal
            # (or one reused) would let a seed be swapped between deals unnoticed.
            problem, first = _identity_problem(deal.deal_id, number, first)
        results.append({"deal": name, "verified": problem is None, "problem": problem})
    return results


_IDENTITY = re.compile(r"euchre-bot deal (\d+):(\d+):(\d+)")


def _identity_problem(
    deal_id: str | None, number: int, first: tuple[str, int] | None
) -> tuple[str | None, tuple[str, int] | None]:
    """Why a deal's identity is not the one its place in the record gives, or None; and what
    the first identity set (its table and match, and its deal number less its place)."""
    found = _IDENTITY.fullmatch(deal_id or "")
    if found is None:
        return f"its identity {shown(deal_id)} names no deal of the bot's", first
    table_match, offset = f"{found[1]}:{found[2]}", int(found[3]) - number
    if first is None:
        return None, (table_match, offset)
    if table_match != first[0]:
        return (
            f"its commitment is bound to table {found[1]}, match {found[2]}, not to the"
            " match of the record's other deals"
        ), first
    if offset != first[1]:
        return (
            f"its commitment is bound to deal {found[3]} of its match, not to deal"
            f" {number + first[1]}"
        ), first
    return None, first


def _report(results: list[dict[str, Any]], as_json: bool, ok: int, replays: bool = True) -> int:
    """Print each deal's verdict; exit `ok` only when some deal was checked and all hold (a
    record with no deal over has nothing to check, which is not a pass)."""
    failed = [r for r in results if r.get("problem")]
    checked = sum(1 for r in results if not r.get("skipped"))
    if as_json:
        verified = not failed and checked > 0 and replays
        print(json.dumps({"deals": results, "verified": verified}, indent=2))
    else:
        for r in results:
            if r.get("skipped"):
                print(f"{r['deal']}: not over, its seed is not shown yet")
            elif r["problem"]:
                print(f"{r['deal']}: does not verify: {r['problem']}")
            else:
                print(f"{r['deal']}: verified")
        print(f"{checked - len(failed)} of {checked} deals verified")
        if not checked:
            print("no deal of this record is over, so there is nothing to check yet")
    return EXIT_FAILED if failed or not checked else ok
