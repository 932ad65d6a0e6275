"""The stored record of a finished match or game of a server, by the id
:mod:`bot.storage.history` shows (``M12``, ``G34``): what ``/record`` attaches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.engine.quoting import quoted
from bot.numbers import parse_whole
from bot.storage.database import Database
from bot.storage.errors import StatsError
from bot.storage.seasons import parse_timestamp


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """What ``/record`` attaches.

    For a match (``kind`` ``match``), ``record`` is the match's own JSON record. For a game
    (``kind`` ``game``), ``record`` describes the game (score, winner, value, players) and
    ``deals`` holds the records of its deals in order, ready to be written as EGN.
    """

    kind: str
    record_id: str
    match_id: int
    game_id: int | None
    preset: str | None
    options: dict[str, Any]
    played_at: datetime
    record: dict[str, Any]
    deals: tuple[dict[str, Any], ...] = ()
    #: For a game of a match still being played: the records of the match's deals up to the
    #: game's end, so that the game can be replayed in its match (its lap, its dealers).
    match_deals: tuple[dict[str, Any], ...] = ()


def parse_record_id(text: str | int) -> tuple[str, int]:
    """``M12`` is match 12 (a rubber or a single game); ``G34`` or ``34`` is game 34.

    Raises:
        StatsError: not such an id.
    """
    if isinstance(text, int):
        return "game", text
    raw = text.strip().upper().lstrip("#")
    kind = "game"
    if raw[:1] in ("M", "G"):
        kind = "match" if raw[0] == "M" else "game"
        raw = raw[1:]
    number = parse_whole(raw)
    if number is None:
        raise StatsError(
            f"{quoted(text)} is not a game or rubber id: /history shows them, like G12 or M3."
        )
    return kind, number


async def match_record(db: Database, guild_id: int, match_or_game_id: str | int) -> StoredRecord:
    """The stored record of a finished match or game of this server.

    Raises:
        StatsError: a malformed id, or no such finished match or game on this server.
    """
    kind, number = parse_record_id(match_or_game_id)
    if kind == "match":
        row = await db.fetchone(
            "SELECT id, preset, options, played_at, record FROM matches"
            " WHERE id = ? AND guild_id = ? AND status != 'playing'",
            (number, guild_id),
        )
        if row is None:
            raise StatsError(f"There is no finished rubber or game M{number} on this server.")
        return StoredRecord(
            kind="match",
            record_id=f"M{number}",
            match_id=row["id"],
            game_id=None,
            preset=row["preset"],
            options=json.loads(row["options"] or "{}"),
            played_at=parse_timestamp(row["played_at"]),
            record=json.loads(row["record"] or "{}"),
        )
    row = await db.fetchone(
        "SELECT id, match_id, game_number, score_0, score_1, winner, value, preset, options,"
        " played_at FROM games WHERE id = ? AND guild_id = ?",
        (number, guild_id),
    )
    if row is None:
        raise StatsError(f"There is no game G{number} on this server.")
    seated = await db.fetchall(
        "SELECT seat, user_id, name, is_bot, substitute FROM game_players WHERE game_id = ?"
        " ORDER BY seat",
        (number,),
    )
    deals = await db.fetchall(
        "SELECT record FROM hands WHERE match_id = ? AND game_number = ? ORDER BY deal_number",
        (row["match_id"], row["game_number"]),
    )
    in_play = await db.fetchone(
        "SELECT 1 FROM matches WHERE id = ? AND status = 'playing'", (row["match_id"],)
    )
    so_far = (
        await db.fetchall(
            "SELECT record FROM hands WHERE match_id = ? AND game_number <= ? ORDER BY deal_number",
            (row["match_id"], row["game_number"]),
        )
        if in_play is not None
        else []
    )
    return StoredRecord(
        kind="game",
        record_id=f"G{number}",
        match_id=row["match_id"],
        game_id=row["id"],
        preset=row["preset"],
        options=json.loads(row["options"]),
        played_at=parse_timestamp(row["played_at"]),
        record={
            "match_id": row["match_id"],
            "game_number": row["game_number"],
            "scores": [row["score_0"], row["score_1"]],
            "winner": row["winner"],
            "value": row["value"],
            "players": [
                {
                    "seat": p["seat"],
                    "user_id": p["user_id"],
                    "name": p["name"],
                    "is_bot": bool(p["is_bot"]),
                    "substitute": bool(p["substitute"]),
                }
                for p in seated
            ],
        },
        deals=tuple(json.loads(d["record"]) for d in deals),
        match_deals=tuple(json.loads(d["record"]) for d in so_far),
    )
