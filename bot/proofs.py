"""`python -m bot verify-deal FILE`: check a match's deals against the seeds shown after them.

Every deal the bot deals shows a commitment before it is dealt and its seed once it is over
(bot/engine/commitment.py). Given the bot's own record of a match, four-handed or of a variant
(as `/record` gives it), this recomputes, for every deal, the commitment from the seed and the
pack order from the seed, and checks them against the commitment recorded and the cards
actually dealt.

Exit codes: 0 when every deal holds; 1 when a deal does not (each named with the reason); 2 for
a file that cannot be read as a record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.engine.commitment import proof_problem, variant_proof_problem
from bot.engine.errors import EuchreError
from bot.engine.records import read_record

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
    writes for several matches)."""
    from bot.cli import EXIT_OK, CommandError, load_json

    data = load_json(args.file)
    documents = data if isinstance(data, list) and data else [data]
    results = []
    for index, document in enumerate(documents, start=1):
        where = f"{args.file}" + (f", match {index}" if len(documents) > 1 else "")
        try:
            replay = read_record(document)
        except EuchreError as exc:
            raise CommandError(f"{where}: {exc}") from None
        prefix = f"match {index}, " if len(documents) > 1 else ""
        if replay.variant_match is not None:
            deals: list[Any] = replay.variant_match.deals
            check: Any = variant_proof_problem
        elif replay.match is not None:
            deals, check = replay.match.deals, proof_problem
        else:
            raise CommandError(f"{where}: deals can be checked in the bot's own records only")
        results.extend(_check_match(deals, document["deals"], prefix, check))
    return _report(results, args.json, EXIT_OK)


def _check_match(
    deals: list[Any], raw_deals: list[Any], prefix: str, check: Any
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for number, deal in enumerate(deals, start=1):
        name = f"{prefix}deal {number}"
        if not deal.is_over:  # its seed is shown only once it is over
            results.append({"deal": name, "verified": False, "skipped": "not over"})
            continue
        raw = raw_deals[number - 1] if number <= len(raw_deals) else {}
        recorded = raw.get("commitment") if isinstance(raw, dict) else None
        problem = check(deal, recorded if isinstance(recorded, str) else None)
        results.append({"deal": name, "verified": problem is None, "problem": problem})
    return results


def _report(results: list[dict[str, Any]], as_json: bool, ok: int) -> int:
    failed = [r for r in results if r.get("problem")]
    if as_json:
        print(json.dumps({"deals": results, "verified": not failed}, indent=2))
    else:
        for r in results:
            if r.get("skipped"):
                print(f"{r['deal']}: not over, its seed is not shown yet")
            elif r["problem"]:
                print(f"{r['deal']}: does not verify: {r['problem']}")
            else:
                print(f"{r['deal']}: verified")
        checked = sum(1 for r in results if not r.get("skipped"))
        print(f"{checked - len(failed)} of {checked} deals verified")
    return EXIT_FAILED if failed else ok
