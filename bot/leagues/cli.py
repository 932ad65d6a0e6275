"""Command-line subcommands for league organisers: ``python -m bot league schedule``.

``python -m bot league schedule --players N [--json]`` prints a euchre night's progressive
schedule for N players (numbered 0..N-1): each round's tables as two partnerships, and who sits
out. With ``--json`` it prints one object, ``{"rounds": [{"tables": [[[a, b], [c, d]], ...],
"byes": [...]}, ...], "repeated_partnerships": k}``.

``bot/cli.py`` finds :func:`register_commands` through its ``COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.leagues.progressive import MAX_PLAYERS, MIN_PLAYERS, Schedule, schedule
from bot.leagues.rounds import opponent_counts
from bot.numbers import parse_whole

EXIT_OK = 0
EXIT_USAGE = 2


def register_commands(subparsers: Any) -> None:
    """Add ``league schedule`` to the command line's subcommands."""
    league = subparsers.add_parser("league", help="planning tools for community leagues")
    commands = league.add_subparsers(dest="league_command", metavar="COMMAND", required=True)
    plan = commands.add_parser(
        "schedule", help="print a progressive (euchre night) schedule of rotating partners"
    )
    plan.add_argument(
        "--players", required=True, type=_whole, help=f"{MIN_PLAYERS} to {MAX_PLAYERS} players"
    )
    plan.add_argument("--json", action="store_true", help="print one JSON object")
    plan.set_defaults(handler=_schedule)


def _whole(text: str) -> int:
    # ASCII digits only: int() also reads "1_2" and "١٢". A minus sign is kept, so that "-4"
    # is told the range rather than that it is no number.
    negative = text.strip().startswith("-")
    digits = text.strip()[1:] if negative else text.strip()
    value = parse_whole(digits)
    if value is None and digits.isascii() and digits.isdigit():
        # A whole number too long to read is told the range as well, not that it is none.
        shown = digits if len(digits) <= 20 else digits[:20] + "…"
        raise argparse.ArgumentTypeError(
            f"a schedule needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {'-' * negative}{shown}"
        )
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return -value if negative else value


def _schedule(args: argparse.Namespace) -> int:
    from bot.cli import CommandError  # the command line's own error: message and exit code 2

    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        raise CommandError(
            f"a schedule needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {args.players}"
        )
    plan = schedule(args.players)
    if args.json:
        print(json.dumps(plan.to_dict(), separators=(",", ":")))
    else:
        print(schedule_text(plan))
    return EXIT_OK


def schedule_text(plan: Schedule) -> str:
    """The schedule as lines of text: one line a round, then what it achieves."""
    out = plan.players % 4
    sitting = f" ({out} {'sits' if out == 1 else 'sit'} out each round)" if out else ""
    lines = [
        f"{plan.players} players, {len(plan.rounds)} rounds of {plan.players // 4} "
        f"table{'s' if plan.players >= 8 else ''}{sitting}"
    ]
    for number, rnd in enumerate(plan.rounds, start=1):
        tables = "; ".join(
            f"table {t}: {a} & {b} v {c} & {d}"
            for t, ((a, b), (c, d)) in enumerate(rnd.tables, start=1)
        )
        byes = f"; sitting out: {', '.join(map(str, rnd.byes))}" if rnd.byes else ""
        lines.append(f"Round {number}: {tables}{byes}")
    if plan.perfect:
        lines.append("Every two players are partners once and opponents twice.")
    else:
        met = opponent_counts(plan.rounds)
        counts = [met[(x, y)] for x in range(plan.players) for y in range(x + 1, plan.players)]
        lines.append(
            f"Repeated partnerships: {plan.repeated_partnerships}; "
            f"two players are opponents {min(counts)} to {max(counts)} times."
        )
    return "\n".join(lines)
