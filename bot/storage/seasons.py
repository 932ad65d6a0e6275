"""Seasons and periods: which bucket of `player_totals` a result goes into, and which a query reads.

A server's season is set by an admin (:func:`start_season`): it starts at the beginning of the
UTC day given and runs until the next season starts. Before a server's first season, and on a
server that never set one, the season is the calendar quarter (January-March, and so on).

Season keys, as stored in the buckets: the start day ``'2025-02-10'`` of an admin's season, or
``'2025-Q1'`` for a calendar quarter.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.engine.quoting import quoted
from bot.storage.buckets import ALL_BUCKET, COUNTERS, DAY_PREFIX, SEASON_PREFIX
from bot.storage.database import Database
from bot.storage.errors import StatsError

log = logging.getLogger(__name__)

PERIODS = ("all", "season", "30d", "7d")
PERIOD_DAYS = {"30d": 30, "7d": 7}


# The same rule as season_key(), in SQL, for recomputing buckets inside the database. `{guild}`
# and `{day}` are replaced by column expressions of the query it is used in (never by input).
SEASON_KEY_SQL = (
    "COALESCE((SELECT max(s.start_day) FROM seasons AS s"
    " WHERE s.guild_id = {guild} AND s.start_day <= {day}),"
    " substr({day}, 1, 4) || '-Q' || ((CAST(substr({day}, 6, 2) AS INTEGER) + 2) / 3))"
)


def utc(moment: datetime) -> datetime:
    """The moment in UTC; a naive datetime is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def timestamp(moment: datetime) -> str:
    """The stored form of a moment: ``'YYYY-MM-DDTHH:MM:SSZ'`` in UTC."""
    return utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_timestamp(text: str) -> datetime:
    """The moment a stored timestamp stands for (aware, UTC)."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def day_of(moment: datetime) -> str:
    """The stored UTC day ``'YYYY-MM-DD'`` of a moment."""
    return utc(moment).date().isoformat()


def quarter_key(day: str) -> str:
    """The calendar quarter ``'2025-Q1'`` of a day ``'2025-02-10'``."""
    return f"{day[:4]}-Q{(int(day[5:7]) + 2) // 3}"


def season_key(day: str, starts: Sequence[str]) -> str:
    """The season a day falls in.

    Args:
        day: ``'YYYY-MM-DD'``.
        starts: the server's season start days, sorted.

    Returns:
        The start day of the latest admin season begun on or before ``day``, or else the
        calendar quarter of ``day``.
    """
    i = bisect_right(starts, day)
    return starts[i - 1] if i else quarter_key(day)


async def season_starts(db: Database, guild_id: int) -> list[str]:
    """The server's admin-set season start days, sorted."""
    rows = await db.fetchall(
        "SELECT start_day FROM seasons WHERE guild_id = ? ORDER BY start_day", (guild_id,)
    )
    return [r[0] for r in rows]


@dataclass(frozen=True, slots=True)
class Season:
    """A server's season.

    Attributes:
        key: the bucket key (``'2025-02-10'`` or ``'2025-Q1'``).
        name: what to show (the admin's name, or ``'2025 Q1'``).
        start_day: its first day, ``'YYYY-MM-DD'``.
        end_day: the day after its last day, or None while no later season is set (a quarter
            always ends).
    """

    key: str
    name: str
    start_day: str
    end_day: str | None


async def current_season(db: Database, guild_id: int, now: datetime | None = None) -> Season:
    """The season the given moment (default: now) falls in on this server."""
    today = day_of(now or datetime.now(UTC))
    rows = await db.fetchall(
        "SELECT start_day, name FROM seasons WHERE guild_id = ? ORDER BY start_day", (guild_id,)
    )
    starts = [r["start_day"] for r in rows]
    i = bisect_right(starts, today)
    next_start = starts[i] if i < len(starts) else None
    if i:
        row = rows[i - 1]
        return Season(row["start_day"], row["name"], row["start_day"], next_start)
    year, quarter = int(today[:4]), (int(today[5:7]) + 2) // 3
    first = date(year, 3 * quarter - 2, 1)
    after = date(year + 1, 1, 1) if quarter == 4 else date(year, 3 * quarter + 1, 1)
    end = after.isoformat()
    if next_start is not None and next_start < end:
        end = next_start
    return Season(quarter_key(today), f"{year} Q{quarter}", first.isoformat(), end)


async def start_season(db: Database, guild_id: int, name: str, at: datetime) -> Season:
    """Start a new season on a server (an admin's command).

    The season starts at the beginning of the UTC day of ``at`` (a season set twice for the
    same day is renamed). Results already recorded on or after that day move into it: the
    season buckets of the server are rebuilt from its day buckets, in one transaction.

    Args:
        db: the database.
        guild_id: the server.
        name: the season's name, shown with leaderboards.
        at: when it starts; may be in the past or the future.

    Returns:
        The season that starts then.

    Raises:
        StatsError: the name is empty or too long.
    """
    name = name.strip()
    if not name or len(name) > 100:
        raise StatsError("A season needs a name of 1 to 100 characters.")
    start = day_of(at)
    async with db.transaction():
        await db.execute(
            "INSERT INTO seasons (guild_id, start_day, name, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, start_day) DO UPDATE SET name = excluded.name",
            (guild_id, start, name, timestamp(datetime.now(UTC))),
        )
        await rebuild_season_buckets(db, guild_id)
        await rebuild_season_boards(db, guild_id)
    log.info("guild %s: season %r starts %s", guild_id, name, start)
    season = await current_season(db, guild_id, datetime.fromisoformat(start).replace(tzinfo=UTC))
    return season


async def rebuild_season_boards(db: Database, guild_id: int) -> None:
    """Recompute a server's season leaderboards (``board_totals``) from its season buckets."""
    from bot.storage import boards  # here: boards imports this module

    await boards.rebuild_season_boards(db, guild_id)


async def rebuild_season_buckets(db: Database, guild_id: int) -> None:
    """Recompute a server's season buckets from its day buckets (after its seasons changed).

    Each result adds the same numbers to its day bucket and to its season bucket, so a season's
    totals are exactly the sum of its days'. Call inside a transaction.
    """
    sums = ", ".join(f"SUM({c})" for c in COUNTERS)
    columns = ", ".join(COUNTERS)
    key = SEASON_KEY_SQL.format(guild="t.guild_id", day="substr(t.bucket, 5)")
    await db.execute(
        "DELETE FROM player_totals WHERE guild_id = ? AND bucket >= ? AND bucket < ?",
        (guild_id, SEASON_PREFIX, SEASON_PREFIX[:-1] + ";"),
    )
    await db.execute(
        f"INSERT INTO player_totals (guild_id, bucket, user_id, preset, flagged, {columns})"
        f" SELECT t.guild_id, ? || {key}, t.user_id, t.preset, t.flagged, {sums}"
        " FROM player_totals AS t"
        " WHERE t.guild_id = ? AND t.bucket >= ? AND t.bucket < ?"
        f" GROUP BY t.guild_id, {key}, t.user_id, t.preset, t.flagged",
        (SEASON_PREFIX, guild_id, DAY_PREFIX, DAY_PREFIX[:-1] + ";"),
    )


@dataclass(frozen=True, slots=True)
class PeriodRange:
    """The buckets a period reads, and its day range for queries over games.

    Attributes:
        period: ``all``, ``season``, ``30d`` or ``7d``.
        low, high: the bucket range (inclusive) in ``player_totals``.
        first_day, last_day: the days it covers (inclusive); None for no bound.
        season: the season, for ``season``.
    """

    period: str
    low: str
    high: str
    first_day: str | None
    last_day: str | None
    season: Season | None = None


def check_period(period: str) -> str:
    """The period, normalised; raises StatsError for an unknown one."""
    normal = (period or "all").strip().lower()
    if normal not in PERIODS:
        raise StatsError(f"Unknown period {quoted(period)}: choose one of {', '.join(PERIODS)}.")
    return normal


async def period_range(
    db: Database, guild_id: int, period: str, now: datetime | None = None
) -> PeriodRange:
    """Which buckets and days a period covers at a given moment.

    ``30d`` is the 30 UTC days ending today (today and the 29 before), ``7d`` the 7 ending
    today; ``season`` the server's current season; ``all`` everything.

    Raises:
        StatsError: an unknown period.
    """
    period = check_period(period)
    now = utc(now or datetime.now(UTC))
    today = now.date()
    if period == "all":
        return PeriodRange(period, ALL_BUCKET, ALL_BUCKET, None, None)
    if period == "season":
        season = await current_season(db, guild_id, now)
        bucket = SEASON_PREFIX + season.key
        last = None
        if season.end_day is not None:
            last = (date.fromisoformat(season.end_day) - timedelta(days=1)).isoformat()
        return PeriodRange(period, bucket, bucket, season.start_day, last, season)
    first = (today - timedelta(days=PERIOD_DAYS[period] - 1)).isoformat()
    last = today.isoformat()
    return PeriodRange(period, DAY_PREFIX + first, DAY_PREFIX + last, first, last)
