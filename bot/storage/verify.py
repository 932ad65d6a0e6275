"""Recomputing every player's totals from the stored hands, games and matches.

:func:`verify` compares the totals kept incrementally by :mod:`bot.storage.stats` with a full
recomputation written independently, in SQL, from the result rows, and lists every difference.
:func:`rebuild` replaces the totals by that recomputation (for bulk loads and repairs).
"""

from __future__ import annotations

import logging

from bot.storage.database import Database
from bot.storage.seasons import SEASON_KEY_SQL
from bot.storage.stats import COUNTERS

log = logging.getLogger(__name__)

# What each hand, game and match counts, per player, straight from the rows. The rules are those
# of bot.storage.stats (its docstring), restated in SQL so that the two can check each other.
_CONTRIBUTIONS = """
WITH hand_counts AS (
    SELECT h.guild_id, h.day, h.preset, m.flagged, hp.user_id,
        0 AS rubbers_played, 0 AS rubbers_won, 0 AS rubber_points,
        0 AS games_played, 0 AS games_won,
        CASE WHEN hp.seat % 2 = 0 THEN h.points_0 ELSE h.points_1 END AS points,
        1 AS hands_played,
        hp.seat = h.maker AS makes,
        hp.seat = h.maker AND h.outcome IN ('made', 'march') AS makes_won,
        hp.seat = h.maker AND h.outcome = 'euchred' AS euchres_suffered,
        hp.seat % 2 != h.maker % 2 AND h.outcome = 'euchred'
            AND (h.defender IS NULL OR h.defender = hp.seat) AS euchres_inflicted,
        hp.seat % 2 = h.maker % 2 AND h.outcome = 'march'
            AND (h.alone IS NULL OR h.alone = hp.seat) AS marches,
        h.alone IS NOT NULL AND h.alone = hp.seat AS lone_tried,
        h.alone IS NOT NULL AND h.alone = hp.seat
            AND h.outcome IN ('made', 'march') AS lone_made
    FROM hands AS h
    JOIN hand_players AS hp ON hp.hand_id = h.id
    JOIN matches AS m ON m.id = h.match_id
    WHERE hp.is_bot = 0 AND h.outcome != 'passed' {hand_filter}
),
game_counts AS (
    SELECT g.guild_id, g.day, g.preset, m.flagged, gp.user_id,
        0, 0, 0, 1, gp.seat % 2 = g.winner, 0, 0, 0, 0, 0, 0, 0, 0, 0
    FROM games AS g
    JOIN game_players AS gp ON gp.game_id = g.id
    JOIN matches AS m ON m.id = g.match_id
    WHERE gp.is_bot = 0 {game_filter}
),
match_counts AS (
    SELECT m.guild_id, m.day, m.preset, m.flagged, mp.user_id,
        1, mp.seat % 2 = m.winner,
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
),
keyed AS (
    SELECT counts.*, {season} AS season FROM counts
)
"""

_SUMS = ", ".join(f"SUM({c}) AS {c}" for c in COUNTERS)
_COLUMNS = ", ".join(COUNTERS)
_NONZERO = " OR ".join(f"{c} != 0" for c in COUNTERS)

_EXPECTED = (
    _CONTRIBUTIONS
    + f"""
SELECT guild_id, 'all' AS bucket, user_id, preset, flagged, {_SUMS}
    FROM keyed GROUP BY guild_id, user_id, preset, flagged
UNION ALL
SELECT guild_id, 'season:' || season, user_id, preset, flagged, {_SUMS}
    FROM keyed GROUP BY guild_id, season, user_id, preset, flagged
UNION ALL
SELECT guild_id, 'day:' || day, user_id, preset, flagged, {_SUMS}
    FROM keyed GROUP BY guild_id, day, user_id, preset, flagged
"""
)


def _expected_sql(guild_id: int | None) -> tuple[str, tuple[int, ...]]:
    season = SEASON_KEY_SQL.format(guild="counts.guild_id", day="counts.day")
    if guild_id is None:
        sql = _EXPECTED.format(hand_filter="", game_filter="", match_filter="", season=season)
        return sql, ()
    sql = _EXPECTED.format(
        hand_filter="AND h.guild_id = ?",
        game_filter="AND g.guild_id = ?",
        match_filter="AND m.guild_id = ?",
        season=season,
    )
    return sql, (guild_id, guild_id, guild_id)


_KEY = ("guild_id", "bucket", "user_id", "preset", "flagged")


async def verify(db: Database, guild_id: int | None = None) -> list[str]:
    """Recompute every player's totals from the result rows and compare with the stored ones.

    Also checks that every match in which a computer player or a substitute shows is flagged.

    Args:
        db: the database.
        guild_id: one server only; every server by default.

    Returns:
        One line per difference; an empty list when the totals are consistent.
    """
    sql, params = _expected_sql(guild_id)
    where = "" if guild_id is None else "WHERE guild_id = ?"
    stored_params: tuple[int, ...] = () if guild_id is None else (guild_id,)
    key = ", ".join(_KEY)
    async with db.transaction(read_only=True):
        # A consistent snapshot of both sides, without the write lock; the temp table lives on
        # this connection only.
        await db.execute("DROP TABLE IF EXISTS temp.expected_totals")
        await db.execute(
            f"CREATE TEMP TABLE expected_totals AS SELECT * FROM ({sql}) WHERE {_NONZERO}", params
        )
        missing = await db.fetchall(
            f"SELECT {key}, {_COLUMNS} FROM temp.expected_totals"
            f" EXCEPT SELECT {key}, {_COLUMNS} FROM player_totals {where}",
            stored_params,
        )
        extra = await db.fetchall(
            f"SELECT {key}, {_COLUMNS} FROM player_totals"
            f" WHERE ({_NONZERO}) {'AND guild_id = ?' if guild_id is not None else ''}"
            f" EXCEPT SELECT {key}, {_COLUMNS} FROM temp.expected_totals",
            stored_params,
        )
        unflagged = await db.fetchall(
            "SELECT m.id FROM matches AS m WHERE m.flagged = 0"
            + ("" if guild_id is None else " AND m.guild_id = ?")
            + " AND (EXISTS (SELECT 1 FROM hands AS h JOIN hand_players AS p ON p.hand_id = h.id"
            "   WHERE h.match_id = m.id AND (p.is_bot OR p.substitute))"
            " OR EXISTS (SELECT 1 FROM games AS g JOIN game_players AS p ON p.game_id = g.id"
            "   WHERE g.match_id = m.id AND (p.is_bot OR p.substitute))"
            " OR EXISTS (SELECT 1 FROM match_players AS p"
            "   WHERE p.match_id = m.id AND (p.is_bot OR p.substitute)))"
            " ORDER BY m.id",
            stored_params,
        )
        await db.execute("DROP TABLE temp.expected_totals")

    recomputed = {tuple(r[: len(_KEY)]): tuple(r[len(_KEY) :]) for r in missing}
    stored = {tuple(r[: len(_KEY)]): tuple(r[len(_KEY) :]) for r in extra}
    problems: list[str] = []
    for k in sorted(set(recomputed) | set(stored), key=repr):
        want = recomputed.get(k, (0,) * len(COUNTERS))
        have = stored.get(k, (0,) * len(COUNTERS))
        diffs = ", ".join(
            f"{name} stored {h} recomputed {w}"
            for name, h, w in zip(COUNTERS, have, want, strict=True)
            if h != w
        )
        guild, bucket, user, preset, flagged = k
        problems.append(
            f"guild {guild} user {user} bucket {bucket} preset {preset}"
            f"{' (flagged)' if flagged else ''}: {diffs}"
        )
    for row in unflagged:
        problems.append(f"match {row[0]} had a computer player or a substitute but is not flagged")
    if problems:
        log.warning("verify found %d differences", len(problems))
    return problems


async def rebuild(db: Database, guild_id: int | None = None) -> int:
    """Replace the stored totals with a full recomputation from the result rows.

    Args:
        db: the database.
        guild_id: one server only; every server by default.

    Returns:
        How many total rows were written.
    """
    sql, params = _expected_sql(guild_id)
    async with db.transaction():
        if guild_id is None:
            await db.execute("DELETE FROM player_totals")
        else:
            await db.execute("DELETE FROM player_totals WHERE guild_id = ?", (guild_id,))
        await db.execute(
            f"INSERT INTO player_totals ({', '.join(_KEY)}, {_COLUMNS})"
            f" SELECT * FROM ({sql}) WHERE {_NONZERO}",
            params,
        )
        count = await db.fetchval(
            "SELECT count(*) FROM player_totals"
            + ("" if guild_id is None else " WHERE guild_id = ?"),
            () if guild_id is None else (guild_id,),
        )
    return int(count)
