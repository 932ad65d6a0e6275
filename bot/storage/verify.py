"""Recomputing every player's totals from the stored hands, games and matches.

:func:`verify` compares the totals kept incrementally by :mod:`bot.storage.results` with a full
recomputation written independently, in SQL, from the result rows, and lists every difference.
:func:`rebuild` replaces the totals by that recomputation (for bulk loads and repairs).
"""

from __future__ import annotations

import logging
from typing import Any

from bot.storage import board_counts
from bot.storage.boards import first_day, rebuild_boards
from bot.storage.buckets import COUNTERS, DAY_PREFIX
from bot.storage.database import Database
from bot.storage.seasons import SEASON_KEY_SQL

log = logging.getLogger(__name__)

# What each hand, game and match counts, per player, straight from the rows. The rules are those
# of bot.storage.results (its docstring), restated in SQL so that the two can check each other.
_CONTRIBUTIONS = """
WITH hand_counts AS (
    SELECT h.guild_id, h.day, h.preset, m.flagged, hp.user_id,
        0 AS rubbers_played, 0 AS rubbers_won, 0 AS rubber_points,
        0 AS games_played, 0 AS games_won,
        CASE WHEN hp.seat % 2 = 0 THEN h.points_0 ELSE h.points_1 END AS points,
        1 AS hands_played,
        CASE WHEN hp.seat = h.maker THEN 1 ELSE 0 END AS makes,
        CASE WHEN hp.seat = h.maker AND h.outcome IN ('made', 'march') THEN 1 ELSE 0 END
            AS makes_won,
        CASE WHEN hp.seat = h.maker AND h.outcome = 'euchred' THEN 1 ELSE 0 END
            AS euchres_suffered,
        CASE WHEN hp.seat % 2 != h.maker % 2 AND h.outcome = 'euchred'
            AND (h.defender IS NULL OR h.defender = hp.seat) THEN 1 ELSE 0 END
            AS euchres_inflicted,
        CASE WHEN hp.seat % 2 = h.maker % 2 AND h.outcome = 'march'
            AND (h.alone IS NULL OR h.alone = hp.seat) THEN 1 ELSE 0 END AS marches,
        CASE WHEN h.alone IS NOT NULL AND h.alone = hp.seat THEN 1 ELSE 0 END AS lone_tried,
        CASE WHEN h.alone IS NOT NULL AND h.alone = hp.seat
            AND h.outcome IN ('made', 'march') THEN 1 ELSE 0 END AS lone_made
    FROM hands AS h
    JOIN hand_players AS hp ON hp.hand_id = h.id
    JOIN matches AS m ON m.id = h.match_id
    WHERE hp.is_bot = 0 AND h.outcome != 'passed' {hand_filter}
),
game_counts AS (
    SELECT g.guild_id, g.day, g.preset, m.flagged, gp.user_id,
        0, 0, 0, 1, CASE WHEN gp.seat % 2 = g.winner THEN 1 ELSE 0 END, 0, 0, 0, 0, 0, 0, 0, 0, 0
    FROM games AS g
    JOIN game_players AS gp ON gp.game_id = g.id
    JOIN matches AS m ON m.id = g.match_id
    WHERE gp.is_bot = 0 {game_filter}
),
match_counts AS (
    SELECT m.guild_id, m.day, m.preset, m.flagged, mp.user_id,
        1, CASE WHEN mp.seat % 2 = m.winner THEN 1 ELSE 0 END,
        CASE WHEN mp.seat % 2 = 0 THEN m.rubber_points_0 ELSE m.rubber_points_1 END,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    FROM matches AS m
    JOIN match_players AS mp ON mp.match_id = m.id
    WHERE mp.is_bot = 0 AND m.status = 'finished' AND m.kind = 'rubber' {match_filter}
),
counts AS (
    SELECT * FROM hand_counts
    UNION ALL SELECT * FROM game_counts
    UNION ALL SELECT * FROM match_counts
)
"""

_SUMS = ", ".join(f"SUM({c}) AS {c}" for c in COUNTERS)
_COLUMNS = ", ".join(COUNTERS)
_NONZERO = " OR ".join(f"{c} != 0" for c in COUNTERS)

# Step 1: every result summed per player and day (one grouping over the results).
_DAYS = (
    _CONTRIBUTIONS
    + f"""
SELECT guild_id, day, user_id, preset, flagged, {_SUMS}
    FROM counts GROUP BY guild_id, day, user_id, preset, flagged
"""
)

# Step 2: the buckets, from those days: all time, the day's season, and the day itself.
_BUCKETS = f"""
SELECT guild_id, 'all' AS bucket, user_id, preset, flagged, {_SUMS}
    FROM expected_days GROUP BY guild_id, user_id, preset, flagged
UNION ALL
SELECT guild_id, 'season:' || season, user_id, preset, flagged, {_SUMS}
    FROM (SELECT d.*, {SEASON_KEY_SQL.format(guild="d.guild_id", day="d.day")} AS season
          FROM expected_days AS d) AS dated
    GROUP BY guild_id, season, user_id, preset, flagged
UNION ALL
SELECT guild_id, 'day:' || day, user_id, preset, flagged, {_COLUMNS}
    FROM expected_days
"""


def _days_sql(guild_id: int | None) -> tuple[str, tuple[int, ...]]:
    if guild_id is None:
        return _DAYS.format(hand_filter="", game_filter="", match_filter=""), ()
    sql = _DAYS.format(
        hand_filter="AND h.guild_id = ?",
        game_filter="AND g.guild_id = ?",
        match_filter="AND m.guild_id = ?",
    )
    return sql, (guild_id, guild_id, guild_id)


async def _recompute(db: Database, guild_id: int | None) -> None:
    """Fill expected_days and expected_totals from the result rows."""
    sql, params = _days_sql(guild_id)
    await db.execute("DROP TABLE IF EXISTS expected_days")
    await db.execute("DROP TABLE IF EXISTS expected_totals")
    await db.execute(f"CREATE TEMP TABLE expected_days AS {sql}", params)
    await db.execute(
        f"CREATE TEMP TABLE expected_totals AS SELECT * FROM ({_BUCKETS}) AS b WHERE {_NONZERO}"
    )


async def _windows(db: Database) -> None:
    """Fill expected_windows: each server's windows as ranges of day buckets (worked out here:
    SQLite and PostgreSQL have no date arithmetic in common)."""
    await db.execute("DROP TABLE IF EXISTS expected_windows")
    await db.execute(
        "CREATE TEMP TABLE expected_windows (guild_id BIGINT, days BIGINT, low TEXT, high TEXT)"
    )
    windows = await db.fetchall("SELECT guild_id, days, anchor_day FROM board_windows")
    await db.executemany(
        "INSERT INTO expected_windows (guild_id, days, low, high) VALUES (?, ?, ?, ?)",
        [(w[0], w[1], DAY_PREFIX + first_day(w[2], w[1]), DAY_PREFIX + w[2]) for w in windows],
    )


async def _drop_temp(db: Database) -> None:
    for table in ("expected_days", "expected_totals", "expected_windows", "expected_boards"):
        await db.execute(f"DROP TABLE IF EXISTS {table}")


_KEY = ("guild_id", "bucket", "user_id", "preset", "flagged")
_BOARD_KEY = ("guild_id", "board", "flagged", "user_id")

# The boards that the recomputed detailed totals give: all time and seasons summed over presets
# per flag, and each server's windows over the days up to its anchor.
_EXPECTED_BOARDS = f"""
SELECT t.guild_id, t.bucket AS board, t.flagged, t.user_id, {_SUMS}
FROM expected_totals AS t
WHERE t.bucket = 'all' OR t.bucket >= 'season:' AND t.bucket < 'season;'
GROUP BY t.guild_id, t.bucket, t.flagged, t.user_id
UNION ALL
SELECT t.guild_id, w.days || 'd', t.flagged, t.user_id, {_SUMS}
FROM expected_windows AS w
JOIN expected_totals AS t ON t.guild_id = w.guild_id AND t.bucket BETWEEN w.low AND w.high
GROUP BY t.guild_id, w.days, t.flagged, t.user_id
"""


async def _differences(
    db: Database, expected: str, stored: str, key: tuple[str, ...], guild_id: int | None
) -> list[tuple[tuple[Any, ...], tuple[int, ...], tuple[int, ...]]]:
    """Rows that differ between a temp table of expected rows and a stored table.

    Returns:
        (key, stored counters, expected counters) per differing key; zeros stand for no row.
    """
    columns = ", ".join(key)
    guild = "" if guild_id is None else " AND guild_id = ?"
    params: tuple[int, ...] = () if guild_id is None else (guild_id,)
    missing = await db.fetchall(
        f"SELECT {columns}, {_COLUMNS} FROM {expected} WHERE ({_NONZERO}) {guild}"
        f" EXCEPT SELECT {columns}, {_COLUMNS} FROM {stored} WHERE true {guild}",
        params * 2,
    )
    extra = await db.fetchall(
        f"SELECT {columns}, {_COLUMNS} FROM {stored} WHERE ({_NONZERO}) {guild}"
        f" EXCEPT SELECT {columns}, {_COLUMNS} FROM {expected} WHERE true {guild}",
        params * 2,
    )
    want = {tuple(r[: len(key)]): tuple(r[len(key) :]) for r in missing}
    have = {tuple(r[: len(key)]): tuple(r[len(key) :]) for r in extra}
    zero = (0,) * len(COUNTERS)
    return [
        (k, have.get(k, zero), want.get(k, zero)) for k in sorted(set(want) | set(have), key=repr)
    ]


def _describe(have: tuple[int, ...], want: tuple[int, ...]) -> str:
    return ", ".join(
        f"{name} stored {h} recomputed {w}"
        for name, h, w in zip(COUNTERS, have, want, strict=True)
        if h != w
    )


async def verify(db: Database, guild_id: int | None = None) -> list[str]:
    """Recompute every player's totals from the result rows and compare with the stored ones.

    Checks ``player_totals`` against the results, ``board_totals`` against those recomputed
    totals (all time, seasons, and each window up to its anchor day), ``board_counts`` against a
    count of the stored board rows, and that every match in which a computer player or a
    substitute shows is flagged.

    Args:
        db: the database.
        guild_id: one server only; every server by default.

    Returns:
        One line per difference; an empty list when the totals are consistent.
    """
    stored_params: tuple[int, ...] = () if guild_id is None else (guild_id,)
    async with db.transaction(read_only=True):
        # A consistent snapshot of both sides, without the write lock; the temp tables live on
        # this connection only.
        await _recompute(db, guild_id)
        await _windows(db)
        await db.execute("DROP TABLE IF EXISTS expected_boards")
        await db.execute(f"CREATE TEMP TABLE expected_boards AS {_EXPECTED_BOARDS}")
        totals = await _differences(db, "expected_totals", "player_totals", _KEY, guild_id)
        boards = await _differences(db, "expected_boards", "board_totals", _BOARD_KEY, guild_id)
        counts = await board_counts.differences(db, guild_id)
        unflagged = await db.fetchall(
            "SELECT m.id FROM matches AS m WHERE m.flagged = 0"
            + ("" if guild_id is None else " AND m.guild_id = ?")
            + " AND (EXISTS (SELECT 1 FROM hands AS h JOIN hand_players AS p ON p.hand_id = h.id"
            "   WHERE h.match_id = m.id AND (p.is_bot = 1 OR p.substitute = 1))"
            " OR EXISTS (SELECT 1 FROM games AS g JOIN game_players AS p ON p.game_id = g.id"
            "   WHERE g.match_id = m.id AND (p.is_bot = 1 OR p.substitute = 1))"
            " OR EXISTS (SELECT 1 FROM match_players AS p"
            "   WHERE p.match_id = m.id AND (p.is_bot = 1 OR p.substitute = 1)))"
            " ORDER BY m.id",
            stored_params,
        )
        await _drop_temp(db)

    problems: list[str] = []
    for (guild, bucket, user, preset, flagged), have, want in totals:
        problems.append(
            f"guild {guild} user {user} bucket {bucket} preset {preset}"
            f"{' (flagged)' if flagged else ''}: {_describe(have, want)}"
        )
    for (guild, board, flagged, user), have, want in boards:
        problems.append(
            f"guild {guild} user {user} board {board}"
            f"{' (flagged)' if flagged else ''}: {_describe(have, want)}"
        )
    problems.extend(counts)
    for row in unflagged:
        problems.append(f"match {row[0]} had a computer player or a substitute but is not flagged")
    if problems:
        log.warning("verify found %d differences", len(problems))
    return problems


async def rebuild(db: Database, guild_id: int | None = None) -> int:
    """Replace the stored totals and boards with a full recomputation from the result rows.

    The windows of each server end on its latest day with a result.

    Args:
        db: the database.
        guild_id: one server only; every server by default.

    Returns:
        How many rows of detailed totals were written.
    """
    async with db.transaction():
        await _recompute(db, guild_id)
        if guild_id is None:
            await db.execute("DELETE FROM player_totals")
        else:
            await db.execute("DELETE FROM player_totals WHERE guild_id = ?", (guild_id,))
        await db.execute(
            f"INSERT INTO player_totals ({', '.join(_KEY)}, {_COLUMNS})"
            " SELECT * FROM expected_totals"
        )
        await _drop_temp(db)
        if guild_id is None:
            guilds = [
                r[0] for r in await db.fetchall("SELECT DISTINCT guild_id FROM player_totals")
            ]
            await db.execute("DELETE FROM board_totals")
            await db.execute("DELETE FROM board_windows")
            await db.execute("DELETE FROM board_counts")
        else:
            guilds = [guild_id]
        for guild in guilds:
            await rebuild_boards(db, guild)
        count = await db.fetchval(
            "SELECT count(*) FROM player_totals"
            + ("" if guild_id is None else " WHERE guild_id = ?"),
            () if guild_id is None else (guild_id,),
        )
    return int(count)
