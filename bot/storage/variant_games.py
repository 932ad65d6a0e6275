"""The other variants' games: recording them, and the leaderboards and history they make.

Kept apart from the four-handed matches (`bot.storage.results`): a variant scores in its own unit
and never adds to rubber points. A game is allocated when it starts (`new_game_id`), finished by
`record_game` in the transaction that stores its last action (or abandoned when its table
closes), and each member's `variant_totals` row grows in that same transaction, so a
leaderboard reads totals and never scans games (migration `*_variant_games.sql`).

What a game counts, per member (computers get no totals): `games_played`, `games_won` for the
winners (the winning side's players, or the winning player), and `points`, the final score of
the member's side or seat, in the variant's unit: points to a game, Napoleon's net chips, or
set-back's points shed from the start of 5. A game in which a computer or a substitute played
is flagged and counts only when a leaderboard includes computers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.engine.variants.rules import CHIPS, NAMES, SET_BACK, SET_BACK_START, make_variant
from bot.numbers import parse_whole
from bot.storage.database import Database
from bot.storage.errors import StatsError, StorageError
from bot.storage.seasons import timestamp

PAGE = 10
GAME_PREFIX = "V"  # a variant game's id in /history and /record: V12

_NAMES = (
    "INSERT INTO player_names (guild_id, user_id, name) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name"
    " WHERE player_names.name != excluded.name"
)


@dataclass(frozen=True, slots=True)
class VariantSeat:
    """Who sat in a seat of a variant's game, the side it scored for and whether it won."""

    seat: int
    user_id: int
    name: str
    side: int
    is_bot: bool = False
    substitute: bool = False


@dataclass(frozen=True, slots=True)
class VariantGameRecord:
    """A variant's game as it ended (or was abandoned).

    Attributes:
        scores: the final scores, by side (partnerships) or by seat.
        winner: the winning side or seat; None for a tie or an abandoned game.
        record: the game's own record (`variant_match_to_record`).
    """

    guild_id: int
    game_id: int
    variant: str
    players: tuple[VariantSeat, ...]
    scores: tuple[int, ...]
    winner: int | None
    deals: int
    record: dict[str, Any]
    played_at: datetime
    flagged: bool = False
    abandoned: bool = False


def unit_points(variant: str, score: int) -> int:
    """What a final score adds to `points`: the score itself, or set-back's points shed."""
    return SET_BACK_START - score if make_variant(variant).scoring == SET_BACK else score


async def new_game_id(
    db: Database, guild_id: int, table_id: int, variant: str, players: int
) -> int:
    """Allocate a variant's game as it starts; its result is recorded with `record_game`."""
    return await db.fetchval(
        "INSERT INTO variant_games (guild_id, table_id, variant, players, status, started_at)"
        " VALUES (?, ?, ?, ?, 'playing', ?) RETURNING id",
        (guild_id, table_id, variant, players, timestamp(datetime.now(UTC))),
    )


async def record_game(db: Database, game: VariantGameRecord) -> int:
    """Finish a game allocated by `new_game_id` and add it to its members' totals.

    An abandoned game is stored (with its record so far) but counts for no one.

    Raises:
        StorageError: an unknown game, one already finished, or a winner not among the scores.
    """
    status = await db.fetchval(
        "SELECT status FROM variant_games WHERE id = ? AND guild_id = ?",
        (game.game_id, game.guild_id),
    )
    if status != "playing":
        raise StorageError(f"Variant game {game.game_id} is not in play (it is {status!r}).")
    if game.winner is not None and not 0 <= game.winner < len(game.scores):
        raise StorageError(f"A winner is a side or seat of the scores, not {game.winner!r}.")
    flagged = game.flagged or any(p.is_bot or p.substitute for p in game.players)
    await db.execute(
        "UPDATE variant_games SET status = ?, flagged = ?, scores = ?, winner = ?, deals = ?,"
        " record = ?, played_at = ? WHERE id = ?",
        (
            "abandoned" if game.abandoned else "finished",
            int(flagged),
            json.dumps(list(game.scores)),
            game.winner,
            game.deals,
            json.dumps(game.record, separators=(",", ":")),
            timestamp(game.played_at),
            game.game_id,
        ),
    )
    await db.executemany(
        "INSERT INTO variant_game_players"
        " (game_id, seat, user_id, name, is_bot, substitute, side, score, won)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
        " user_id = excluded.user_id, name = excluded.name, is_bot = excluded.is_bot,"
        " substitute = excluded.substitute, side = excluded.side, score = excluded.score,"
        " won = excluded.won",
        [
            (
                game.game_id,
                p.seat,
                p.user_id,
                p.name,
                int(p.is_bot),
                int(p.substitute),
                p.side,
                game.scores[p.side],
                int(p.side == game.winner),
            )
            for p in game.players
        ],
    )
    members = [p for p in game.players if not p.is_bot]
    await db.executemany(_NAMES, [(game.guild_id, p.user_id, p.name) for p in members])
    if game.abandoned:
        return game.game_id
    await db.executemany(
        "INSERT INTO variant_totals"
        " (guild_id, variant, user_id, flagged, games_played, games_won, points)"
        " VALUES (?, ?, ?, ?, 1, ?, ?)"
        " ON CONFLICT (guild_id, variant, user_id, flagged) DO UPDATE SET"
        " games_played = variant_totals.games_played + 1,"
        " games_won = variant_totals.games_won + excluded.games_won,"
        " points = variant_totals.points + excluded.points",
        [
            (
                game.guild_id,
                game.variant,
                p.user_id,
                int(flagged),
                int(p.side == game.winner),
                unit_points(game.variant, game.scores[p.side]),
            )
            for p in members
        ],
    )
    return game.game_id


# ------------------------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class VariantRow:
    """One member's line of a variant's leaderboard."""

    rank: int
    user_id: int
    name: str
    games_played: int
    games_won: int
    points: int


@dataclass(frozen=True, slots=True)
class VariantBoard:
    """A variant's leaderboard (top ten) and the asking member's own line, if they played."""

    variant: str
    include_bots: bool
    rows: tuple[VariantRow, ...]
    own: VariantRow | None


def _order(variant: str) -> str:
    """Napoleon ranks by chips; the others by games won, then points."""
    if make_variant(variant).scoring == CHIPS:
        return "points DESC, games_won DESC"
    return "games_won DESC, points DESC"


def check_variant(variant: str) -> str:
    """The variant's name, or a clear refusal."""
    if variant not in NAMES:
        raise StatsError(f"unknown variant {variant!r}: choose {', '.join(NAMES)}")
    return variant


async def variant_board(
    db: Database, guild_id: int, variant: str, user_id: int, include_bots: bool = False
) -> VariantBoard:
    """A variant's leaderboard for a server, and `user_id`'s own line."""
    check_variant(variant)
    flags = (0, 1) if include_bots else (0,)
    marks = ", ".join("?" for _ in flags)
    rows = await db.fetchall(
        "SELECT t.user_id, COALESCE(n.name, 'member ' || t.user_id) AS name,"
        " SUM(t.games_played) AS games_played, SUM(t.games_won) AS games_won,"
        " SUM(t.points) AS points"
        " FROM variant_totals t LEFT JOIN player_names n"
        " ON n.guild_id = t.guild_id AND n.user_id = t.user_id"
        f" WHERE t.guild_id = ? AND t.variant = ? AND t.flagged IN ({marks})"
        f" GROUP BY t.user_id, n.name ORDER BY {_order(variant)}, t.user_id",
        (guild_id, variant, *flags),
    )
    ranked = tuple(
        VariantRow(i, r["user_id"], r["name"], r["games_played"], r["games_won"], r["points"])
        for i, r in enumerate(rows, start=1)
    )
    own = next((r for r in ranked if r.user_id == user_id), None)
    return VariantBoard(variant, include_bots, ranked[:PAGE], own)


@dataclass(frozen=True, slots=True)
class VariantGameLine:
    """One of a member's variant games, for /history."""

    game_id: int
    variant: str
    players: int
    won: bool
    score: int
    winner: int | None
    flagged: bool
    played_at: str


async def recent_games(
    db: Database, guild_id: int, user_id: int, limit: int = 5
) -> list[VariantGameLine]:
    """A member's latest finished variant games, newest first."""
    rows = await db.fetchall(
        "SELECT g.id, g.variant, g.players, g.winner, g.flagged, g.played_at, p.won, p.score"
        " FROM variant_game_players p JOIN variant_games g ON g.id = p.game_id"
        " WHERE p.user_id = ? AND g.guild_id = ? AND g.status = 'finished'"
        " ORDER BY g.id DESC LIMIT ?",
        (user_id, guild_id, limit),
    )
    return [
        VariantGameLine(
            r["id"],
            r["variant"],
            r["players"],
            bool(r["won"]),
            r["score"],
            r["winner"],
            bool(r["flagged"]),
            r["played_at"],
        )
        for r in rows
    ]


def parse_game_id(text: str) -> int | None:
    """The number of a variant game's id (`V12`), or None when the text is not one."""
    cleaned = text.strip().upper()
    if not cleaned.startswith(GAME_PREFIX):
        return None
    # ASCII digits within SQLite's integers only: `V²` or `V` and thirty digits is no game.
    return parse_whole(cleaned[1:])


async def game_record(db: Database, guild_id: int, game_id: int) -> tuple[str, dict[str, Any]]:
    """A finished (or abandoned) variant game's name and record.

    Raises:
        StatsError: no such game in this server, or one still being played.
    """
    row = await db.fetchone(
        "SELECT variant, status, record FROM variant_games WHERE id = ? AND guild_id = ?",
        (game_id, guild_id),
    )
    if row is None:
        raise StatsError(f"there is no game {GAME_PREFIX}{game_id} in this server")
    if row["record"] is None:
        raise StatsError(f"game {GAME_PREFIX}{game_id} is still being played")
    return row["variant"], json.loads(row["record"])


__all__ = [
    "GAME_PREFIX",
    "VariantBoard",
    "VariantGameLine",
    "VariantGameRecord",
    "VariantRow",
    "VariantSeat",
    "check_variant",
    "game_record",
    "new_game_id",
    "parse_game_id",
    "recent_games",
    "record_game",
    "unit_points",
    "variant_board",
]
