"""`python -m bot review RECORD [--json]`: every seat's grades for a record's deals.

Reads any record the bot reads (its own, EGN, EMN), replays each deal with the engine, and
grades every decision that was not forced against the expert's choice, as each seat saw it
(`bot.ai.coach`). A seat's costliest decisions come first, with the book's word where one
applies.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.ai.coach import Grade, cost_text, decisions, grade_all, points_text
from bot.ai.expert import ExpertPlayer
from bot.engine.match import Match
from bot.engine.quoting import shown
from bot.engine.records import Replay
from bot.numbers import parse_whole
from bot.tables.computer import REVIEW_BUDGET

EXIT_OK = 0
# The most worlds a decision `--budget` takes: a hundred times the bot's own reviews' and more,
# and a review that ends (a budget of a hundred million searched for hours).
MAX_BUDGET = 10_000
SEAT_NAMES = ("north", "east", "south", "west")


def register_commands(subparsers: Any) -> None:
    """Add ``review`` to the command line's subcommands."""
    review = subparsers.add_parser(
        "review",
        help="grade every decision of a game record (EGN, EMN, or the bot's own)",
    )
    review.add_argument("file", type=Path, help="the record to review")
    review.add_argument("--json", action="store_true", help="print one JSON object")
    review.add_argument(
        "--deal", type=_positive, action="append", help="review only this deal (repeatable)"
    )
    review.add_argument(
        "--budget",
        type=_budget,
        default=REVIEW_BUDGET,
        help=f"worlds searched a decision (default {REVIEW_BUDGET}, as the bot's reviews)",
    )
    review.set_defaults(handler=_review)


def _positive(text: str) -> int:
    """A deal number: read by the one rule for whole numbers (bot/numbers.py), quoted briefly
    when refused."""
    value = parse_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError("it must be 1 or more")
    return value


def _budget(text: str) -> int:
    """Worlds a decision: from 1 to `MAX_BUDGET`, so a review always ends."""
    value = _positive(text)
    if value > MAX_BUDGET:
        raise argparse.ArgumentTypeError(
            f"it must be at most {MAX_BUDGET} (the bot's own reviews search {REVIEW_BUDGET})"
        )
    return value


def _review(args: argparse.Namespace) -> int:
    from bot.cli import CommandError, read_replay

    replay = read_replay(args.file)  # warns as `replay` does of what it reads past
    if replay.variant_match is not None:
        raise CommandError("the coach reviews four-handed euchre: this record is of a variant")
    if args.deal:
        # A deal asked for that no match of the record has is named, not passed over.
        most = max(len(match.deals) for match, _, _ in _matches(replay))
        missing = sorted(number for number in set(args.deal) if number > most)
        if missing:
            raise CommandError(
                f"there is no deal {missing[0]} in this record: its deals are numbered 1 to {most}"
            )
    report = review_replay(replay, ExpertPlayer(budget=args.budget), args.deal)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(review_text(report))
    return EXIT_OK


def _matches(replay: Replay) -> list[tuple[Match, tuple[int, int], tuple[str, ...]]]:
    if replay.match is not None:
        return [(replay.match, (0, 0), replay.players)]
    return [(game.match, game.initial_score, game.players) for game in replay.games]


def review_replay(
    replay: Replay, expert: ExpertPlayer, deals: Sequence[int] | None = None
) -> dict[str, Any]:
    """What `review --json` prints: for each match (an EMN file holds several), each deal's
    grades by seat, costliest first, with each seat's total cost."""
    out = []
    for index, (match, initial, players) in enumerate(_matches(replay)):
        chosen = decisions(match, initial, deals)
        by_deal: dict[int, list[Grade]] = {}
        for grade in grade_all(expert, chosen):
            by_deal.setdefault(grade.deal, []).append(grade)
        out.append(
            {
                "match": index,
                "players": list(players) or None,
                "deals": [
                    {
                        "number": number,
                        "seats": [
                            _seat_report(seat, players, [g for g in grades if g.seat == seat])
                            for seat in range(4)
                        ],
                    }
                    for number, grades in sorted(by_deal.items())
                ],
            }
        )
    return {"kind": replay.kind, "budget": expert.budget, "matches": out}


def _seat_report(seat: int, players: Sequence[str], grades: list[Grade]) -> dict[str, Any]:
    return {
        "seat": seat,
        "player": players[seat] if players else SEAT_NAMES[seat],
        "cost": sum(g.cost for g in grades),
        "grades": [grade_to_dict(g) for g in grades],
    }


def grade_to_dict(grade: Grade) -> dict[str, Any]:
    """A grade as plain JSON values."""
    advice = grade.advice
    return {
        "phase": grade.phase,
        "trick": grade.trick,
        "action": grade.action,
        "best": grade.best,
        "cost": grade.cost,
        "cost_text": cost_text(grade.cost, grade.rubber),
        "points": grade.points,
        "unit": "rubber points / 10" if grade.rubber else "chance of winning the game",
        "book": None
        if advice is None
        else {
            "suggestion": advice.suggestion.key,
            "quote": advice.suggestion.quote,
            "place": advice.suggestion.place,
            "favours": list(advice.favours),
            "followed": advice.followed_by(grade.action),
            # Where the words say what a hand needs to make the trump and the book passes.
            "falls_short": advice.suggestion.asks if advice.falls_short else None,
            "note": advice.note or None,
        },
    }


def review_text(report: dict[str, Any]) -> str:
    """The review as lines of text: each deal, each seat's decisions costliest first."""
    lines = []
    for match in report["matches"]:
        if len(report["matches"]) > 1:
            lines.append(f"Game {match['match'] + 1}")
        for deal in match["deals"]:
            lines.append(f"Deal {deal['number']}")
            for seat in deal["seats"]:
                where = SEAT_NAMES[seat["seat"]]
                # A record without names names its players by their seats: said once.
                lines.append(
                    f"  {seat['player']}" + (f" ({where})" if seat["player"] != where else "")
                )
                for g in seat["grades"]:
                    lines.append("    " + _grade_text(g))
    return "\n".join(lines) if lines else "No finished deal to review."


def _grade_text(g: dict[str, Any]) -> str:
    where = f"trick {g['trick']}" if g["trick"] else g["phase"].replace("_", " ")
    if g["action"] == g["best"]:
        text = f"{where}: {g['action']}: the expert's choice"
    elif g["cost"] < 0.0005:
        text = f"{where}: {g['action']}: as good as the expert's {g['best']}"
    else:
        text = f"{where}: {g['action']}, expert {g['best']}: costs {g['cost_text']}"
        text += f"; {points_text(g['points'])}"
    book = g["book"]
    if book and g["action"] != g["best"]:
        said = "as" if book["followed"] else "against"
        text += f'; {said} the book: "{book["quote"]}" ({book["place"]})'
        if book.get("falls_short"):
            text += (
                f"; it passes with this hand, which has less than it asks for {book['falls_short']}"
            )
        if book.get("note"):
            text += f". {book['note']}"
    return text
