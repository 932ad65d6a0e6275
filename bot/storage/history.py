"""A member's history on a server: the matches played (finished and abandoned), newest first,
a page at a time, each from the member's side.

Read from the member's own rows of ``match_players``, never a walk through every match of the
server. The ids it shows (``M12`` for a match, ``G34`` for a game) are what
:mod:`bot.storage.records` takes.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage.database import Database
from bot.storage.errors import StatsError
from bot.storage.leaderboard import PAGE_SIZE, page_number
from bot.storage.names import shown_names
from bot.storage.seasons import parse_timestamp


@dataclass(frozen=True, slots=True)
class HistoryGame:
    """One game of a match, from the member's side: (ours, theirs)."""

    record_id: str
    game_number: int
    score: tuple[int, int]
    won: bool
    value: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One match (a rubber or a single game) a member played, from the member's side.

    ``record_id`` (``M12``) and the games' ``record_id`` (``G34``) are what ``/record`` takes.
    ``won`` is None for an abandoned or undecided match; ``rubber_points`` is (ours, theirs).
    """

    record_id: str
    match_id: int
    kind: str
    status: str
    flagged: bool
    preset: str | None
    played_at: datetime
    won: bool | None
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    rubber_points: tuple[int, int]
    games: tuple[HistoryGame, ...]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A page of a member's history, newest first."""

    guild_id: int
    user_id: int
    name: str
    page: int
    page_count: int
    total: int
    entries: tuple[HistoryEntry, ...]


async def history(
    db: Database, guild_id: int, user_id: int, page: int = 1, page_size: int = PAGE_SIZE
) -> HistoryPage:
    """A member's recent matches on a server (finished and abandoned), newest first.

    Raises:
        StatsError: the member has played no match here yet, or the page is past the end.
    """
    page = page_number(page)
    total = await db.fetchval(
        # CROSS JOIN keeps the member's own rows as the outer loop (index by user), rather than
        # a walk through every match of the server.
        "SELECT count(DISTINCT mp.match_id) FROM match_players AS mp"
        " CROSS JOIN matches AS m"
        " WHERE m.id = mp.match_id AND mp.user_id = ? AND m.guild_id = ? AND m.status != 'playing'",
        (user_id, guild_id),
        0,
    )
    if not total:
        raise StatsError("That member has no finished rubber or game on this server yet.")
    page_count = math.ceil(total / page_size)
    if page > page_count:
        raise StatsError(
            f"There is no page {page}: this history has {page_count} "
            f"page{'s' if page_count != 1 else ''}."
        )
    matches = await db.fetchall(
        "SELECT DISTINCT m.id, m.kind, m.status, m.flagged, m.preset, m.played_at, m.winner,"
        " m.rubber_points_0, m.rubber_points_1"
        " FROM match_players AS mp CROSS JOIN matches AS m"
        " WHERE m.id = mp.match_id AND mp.user_id = ? AND m.guild_id = ? AND m.status != 'playing'"
        " ORDER BY m.played_at DESC, m.id DESC LIMIT ? OFFSET ?",
        (user_id, guild_id, page_size, (page - 1) * page_size),
    )
    ids = [m["id"] for m in matches]
    marks = ", ".join("?" for _ in ids)
    players: dict[int, list[Any]] = defaultdict(list)
    for r in await db.fetchall(
        f"SELECT match_id, seat, user_id, name FROM match_players WHERE match_id IN ({marks})"
        " ORDER BY match_id, seat",
        ids,
    ):
        players[r["match_id"]].append(r)
    games: dict[int, list[Any]] = defaultdict(list)
    for r in await db.fetchall(
        "SELECT id, match_id, game_number, score_0, score_1, winner, value FROM games"
        f" WHERE match_id IN ({marks}) ORDER BY match_id, game_number",
        ids,
    ):
        games[r["match_id"]].append(r)
    names = await shown_names(db, guild_id, {user_id})
    entries = []
    for m in matches:
        seated = players[m["id"]]
        side = next(p["seat"] % 2 for p in seated if p["user_id"] == user_id)
        partners = tuple(
            p["name"] for p in seated if p["seat"] % 2 == side and p["user_id"] != user_id
        )
        opponents = tuple(p["name"] for p in seated if p["seat"] % 2 != side)
        points = (m["rubber_points_0"] or 0, m["rubber_points_1"] or 0)
        entries.append(
            HistoryEntry(
                record_id=f"M{m['id']}",
                match_id=m["id"],
                kind=m["kind"],
                status=m["status"],
                flagged=bool(m["flagged"]),
                preset=m["preset"],
                played_at=parse_timestamp(m["played_at"]),
                won=None
                if m["winner"] is None or m["status"] != "finished"
                else m["winner"] == side,
                partners=partners,
                opponents=opponents,
                rubber_points=(points[side], points[1 - side]),
                games=tuple(
                    HistoryGame(
                        record_id=f"G{g['id']}",
                        game_number=g["game_number"],
                        score=(
                            (g["score_0"], g["score_1"])
                            if side == 0
                            else (g["score_1"], g["score_0"])
                        ),
                        won=g["winner"] == side,
                        value=g["value"],
                    )
                    for g in games[m["id"]]
                ),
            )
        )
    return HistoryPage(
        guild_id=guild_id,
        user_id=user_id,
        name=names.get(user_id, str(user_id)),
        page=page,
        page_count=page_count,
        total=int(total),
        entries=tuple(entries),
    )
