"""A euchre night as one EMN file (Euchre Match Notation, matchFormat PROGRESSIVE).

Each table of each round is one or more EGN games (`egn.match_to_egn`: a rubber is several
games), with its four players by id; the night's players, their final totals and the winners
are the match's metadata. A table whose play EGN cannot say (a partner taking it alone, a
turned-up Joker) is left out, and the description names it, rather than the file failing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.egn import MATCH_FILE_TYPE, match_to_egn
from bot.engine.errors import RecordError
from bot.engine.match import Match

EMN_VERSION = "1.0"
TEXT_LIMIT = 64  # an EMN player's id or name


@dataclass(frozen=True)
class PlayedTable:
    """One table of a night as played: its round, its place, who sat where and its match.

    Attributes:
        seats: each seat's (player id, name), north to west.
    """

    round: int
    position: int
    seats: tuple[tuple[str, str], ...]
    match: Match


def night_emn(
    night_id: int,
    title: str,
    date: str,
    tables: Sequence[PlayedTable],
    totals: Sequence[tuple[str, str, int]],
) -> dict[str, Any]:
    """The night as an EMN document.

    Args:
        night_id: the night's id (the match id is ``night-<id>``).
        title: the night's title (the league's name, say).
        date: when it was played.
        tables: every table played, in order.
        totals: each player's (id, name, points), best first.
    """
    players: dict[str, str] = {pid: name for pid, name, _ in totals}
    games: list[dict[str, Any]] = []
    left_out: list[str] = []
    for table in tables:
        where = f"Round {table.round}, table {table.position}"
        names = [name[:TEXT_LIMIT] for _, name in table.seats]
        try:
            documents = match_to_egn(table.match, names, title=where)
        except RecordError as error:
            left_out.append(f"{where} ({error})")
            continue
        for pid, name in table.seats:
            players.setdefault(pid, name)
        for document in documents:
            if document["deals"]:
                games.append(
                    {
                        "gameIndex": len(games),
                        "players": [pid for pid, _ in table.seats],
                        "gameData": document,
                    }
                )
    best = max((points for _, _, points in totals), default=0)
    metadata: dict[str, Any] = {
        "matchId": f"night-{night_id}",
        "title": title[:128],
        "date": date[:64],
        "players": [{"id": pid[:TEXT_LIMIT], "name": n[:TEXT_LIMIT]} for pid, n in players.items()],
        "matchFormat": {"type": "PROGRESSIVE"},
        "result": {
            "status": "COMPLETED",
            "winner": [pid for pid, _, points in totals if points == best] if totals else [],
            "scores": {pid: points for pid, _, points in totals},
        },
    }
    if left_out:
        metadata["description"] = ("Not recorded, EGN cannot say it: " + "; ".join(left_out))[:1024]
    return {
        "fileType": MATCH_FILE_TYPE,
        "version": EMN_VERSION,
        "metadata": metadata,
        "games": games,
    }
