"""``python -m bot db recompute-league DB LEAGUE``: a league's stored totals and ratings
checked against a recompute from its stored results (`league_results.check_league`)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from bot.numbers import parse_whole
from bot.storage.cli import DB_HELP, EXIT_DIFFERENCES, EXIT_OK, BadDatabase, _fail, _open
from bot.storage.league_results import check_league
from bot.storage.leagues import league_by_id


def register_recompute(tools: Any) -> None:
    """Add ``db recompute-league DB LEAGUE`` to the database tools."""
    check = tools.add_parser(
        "recompute-league",
        help="recompute a league's totals and ratings from its stored results and compare",
    )
    check.add_argument("db", help=DB_HELP)
    check.add_argument("league", type=_league_id, help="the league's id")
    check.set_defaults(handler=lambda args: recompute(args.db, args.league))


def _league_id(text: str) -> int:
    number = parse_whole(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a league id")
    return number


def recompute(path: str | Path, league_id: int) -> int:
    """Print whether the league's stored totals and ratings are exactly what its results
    give; returns the exit code (0 the same, 1 differences, 2 a bad file or league)."""
    try:
        found = asyncio.run(_check(path, league_id))
    except BadDatabase as error:
        return _fail(str(error))
    if found is None:
        return _fail(f"{path} has no league {league_id}")
    name, games, problems = found
    if problems:
        print(f"{len(problems)} difference{'s' if len(problems) != 1 else ''} found in {name}:")
        for line in problems:
            print(f"  {line}")
        return EXIT_DIFFERENCES
    print(
        f"{name}: the stored totals and ratings are exactly what its results give"
        f" ({games} rated games replayed)."
    )
    return EXIT_OK


async def _check(path: str | Path, league_id: int) -> tuple[str, int, list[str]] | None:
    db = await _open(path)
    try:
        league = await league_by_id(db, league_id)
        if league is None:
            return None
        games = await db.fetchval(
            "SELECT COUNT(*) FROM league_games WHERE league_id = ? AND rated = 1", (league_id,), 0
        )
        return league.name, int(games), await check_league(db, league_id)
    finally:
        await db.close()
