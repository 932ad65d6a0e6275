"""Leaderboard-ready totals (``board_totals``): one row per player per board and flag.

Boards are ``all``, ``season:<key>`` and the rolling windows ``7d`` and ``30d``; ``flagged`` 0
holds what counts on the leaderboards (matches without computer players or substitutes), 1 the
results of flagged matches, added in when a leaderboard includes computer players. They are kept from the same deltas as ``player_totals``, in the same transaction, so
a leaderboard reads one row per player and groups nothing. How many players each board lists on
each leaderboard is kept beside them (:mod:`bot.storage.board_counts`): the bulk writers here
count the boards they rewrite again.

A rolling window holds the days up to the server's anchor day (``board_windows``): the latest
day on which a result was recorded. A result on a later day first moves the window forward,
taking out the days that leave it (read from the day buckets of ``player_totals``); a question
asked on a later day than the anchor subtracts those days on the fly (see
:mod:`bot.storage.leaderboard`).
"""

from __future__ import annotations

import logging
from datetime import date, timedelta
from functools import cache

from bot.storage import board_counts
from bot.storage.buckets import COUNTERS, DAY_PREFIX, SEASON_PREFIX
from bot.storage.database import Database

log = logging.getLogger(__name__)

WINDOWS: tuple[int, ...] = (7, 30)

_COLUMNS = ", ".join(COUNTERS)
_ZERO = " AND ".join(f"{c} = 0" for c in COUNTERS)

_INSERT = (
    f"INSERT INTO board_totals (guild_id, board, flagged, user_id, {_COLUMNS})"
    f" VALUES (?, ?, ?, ?, {', '.join('?' for _ in COUNTERS)})"
    " ON CONFLICT (guild_id, board, flagged, user_id) DO UPDATE SET "
)
UPSERT = _INSERT + ", ".join(f"{c} = board_totals.{c} + excluded.{c}" for c in COUNTERS)


@cache
def upsert_changing(changed: tuple[int, ...]) -> str:
    """The upsert of a board row that sets only the counters at the given positions.

    SQLite rewrites an index entry when the update assigns a column the index uses; the
    leaderboards' partial indexes are many, so a row update names only what it changes.
    """
    return _INSERT + ", ".join(
        f"{COUNTERS[i]} = board_totals.{COUNTERS[i]} + excluded.{COUNTERS[i]}" for i in changed
    )


def window_board(days: int) -> str:
    """The board name of a rolling window: ``'30d'``."""
    return f"{days}d"


def first_day(anchor: str, days: int) -> str:
    """The first day of a window of ``days`` days ending on ``anchor``."""
    return (date.fromisoformat(anchor) - timedelta(days=days - 1)).isoformat()


def in_window(day: str, anchor: str, days: int) -> bool:
    """Whether ``day`` is one of the ``days`` days ending on ``anchor``."""
    return first_day(anchor, days) <= day <= anchor


async def anchors(db: Database, guild_id: int) -> dict[int, str]:
    """The server's window anchors, by window length (none before its first result)."""
    rows = await db.fetchall(
        "SELECT days, anchor_day FROM board_windows WHERE guild_id = ?", (guild_id,)
    )
    return {int(r[0]): r[1] for r in rows}


async def _fill_from_days(
    db: Database, guild_id: int, board: str, low: str, high: str, sign: int
) -> None:
    """Add (sign 1) or take out (sign -1) the day buckets from ``low`` to ``high`` of a board."""
    sums = ", ".join(f"{sign} * SUM(t.{c})" for c in COUNTERS)
    await db.execute(
        f"INSERT INTO board_totals (guild_id, board, flagged, user_id, {_COLUMNS})"
        f" SELECT t.guild_id, ?, t.flagged, t.user_id, {sums}"
        " FROM player_totals AS t"
        " WHERE t.guild_id = ? AND t.bucket BETWEEN ? AND ?"
        " GROUP BY t.guild_id, t.flagged, t.user_id"
        " ON CONFLICT (guild_id, board, flagged, user_id) DO UPDATE SET "
        + ", ".join(f"{c} = board_totals.{c} + excluded.{c}" for c in COUNTERS),
        (board, guild_id, DAY_PREFIX + low, DAY_PREFIX + high),
    )


async def advance_windows(
    db: Database, guild_id: int, day: str, current: dict[int, str] | None = None
) -> dict[int, str]:
    """Move the server's windows forward so that they end on ``day`` if it is later.

    Call before adding a result of ``day`` (inside the recording transaction): the days that
    leave a window are taken out; a window that was never set, or that ``day`` leaves entirely,
    is filled anew from the day buckets.

    Args:
        db: the database.
        guild_id: the server.
        day: the day of the result about to be added.
        current: the anchors as the caller just read them; read here when None.

    Returns:
        The anchors after the move, by window length.
    """
    if current is None or len(current) < len(WINDOWS):
        current = await anchors(db, guild_id)
    if all(day <= current[days] for days in WINDOWS if days in current) and len(current) == len(
        WINDOWS
    ):
        return current
    moved: dict[int, str] = {}
    for days in WINDOWS:
        anchor = current.get(days)
        if anchor is not None and day <= anchor:
            moved[days] = anchor
            continue
        board = window_board(days)
        start = first_day(day, days)
        if anchor is None or anchor < start:
            # Nothing of the old window stays: fill it from the days it now covers.
            await db.execute(
                "DELETE FROM board_totals WHERE guild_id = ? AND board = ?", (guild_id, board)
            )
            await _fill_from_days(db, guild_id, board, start, day, 1)
        else:
            leaving = (date.fromisoformat(start) - timedelta(days=1)).isoformat()
            await _fill_from_days(db, guild_id, board, first_day(anchor, days), leaving, -1)
            await db.execute(
                f"DELETE FROM board_totals WHERE guild_id = ? AND board = ? AND {_ZERO}",
                (guild_id, board),
            )
        # Players came in and left: count the window's listed players again.
        await board_counts.recount(db, guild_id, board_counts.one_board(board))
        await db.execute(
            "INSERT INTO board_windows (guild_id, days, anchor_day) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, days) DO UPDATE SET anchor_day = excluded.anchor_day",
            (guild_id, days, day),
        )
        moved[days] = day
    return moved


async def rebuild_season_boards(db: Database, guild_id: int) -> None:
    """Recompute a server's season boards from its season buckets (after its seasons changed)."""
    sums = ", ".join(f"SUM(t.{c})" for c in COUNTERS)
    await db.execute(
        "DELETE FROM board_totals WHERE guild_id = ? AND board >= ? AND board < ?",
        (guild_id, SEASON_PREFIX, SEASON_PREFIX[:-1] + ";"),
    )
    await db.execute(
        f"INSERT INTO board_totals (guild_id, board, flagged, user_id, {_COLUMNS})"
        f" SELECT t.guild_id, t.bucket, t.flagged, t.user_id, {sums}"
        " FROM player_totals AS t"
        " WHERE t.guild_id = ? AND t.bucket >= ? AND t.bucket < ?"
        " GROUP BY t.guild_id, t.bucket, t.flagged, t.user_id",
        (guild_id, SEASON_PREFIX, SEASON_PREFIX[:-1] + ";"),
    )
    await board_counts.recount(db, guild_id, board_counts.SEASON_BOARDS)


async def rebuild_boards(db: Database, guild_id: int) -> None:
    """Recompute every board of a server from ``player_totals``; windows end on its latest day.

    Call inside a transaction.
    """
    sums = ", ".join(f"SUM(t.{c})" for c in COUNTERS)
    await db.execute("DELETE FROM board_totals WHERE guild_id = ?", (guild_id,))
    await db.execute("DELETE FROM board_windows WHERE guild_id = ?", (guild_id,))
    await db.execute(
        f"INSERT INTO board_totals (guild_id, board, flagged, user_id, {_COLUMNS})"
        f" SELECT t.guild_id, t.bucket, t.flagged, t.user_id, {sums}"
        " FROM player_totals AS t"
        " WHERE t.guild_id = ? AND (t.bucket = 'all' OR t.bucket >= ? AND t.bucket < ?)"
        " GROUP BY t.guild_id, t.bucket, t.flagged, t.user_id",
        (guild_id, SEASON_PREFIX, SEASON_PREFIX[:-1] + ";"),
    )
    # The windows' counts are made as advance_windows fills them.
    await board_counts.recount(db, guild_id, board_counts.ALL_BOARDS)
    latest = await db.fetchval(
        "SELECT max(bucket) FROM player_totals WHERE guild_id = ? AND bucket >= ? AND bucket < ?",
        (guild_id, DAY_PREFIX, DAY_PREFIX[:-1] + ";"),
    )
    if latest is not None:
        await advance_windows(db, guild_id, latest[len(DAY_PREFIX) :])
