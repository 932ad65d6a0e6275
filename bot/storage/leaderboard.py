"""Leaderboards per server: a page of one metric's board with the viewer's own row, every row
of a board (for export), or one member's rank on it.

A board reads ``board_totals`` or ``player_totals`` (both kept by :mod:`bot.storage.results`),
never a scan of the server's hands. Unless asked (``include_bots=True``), results of matches in
which a computer player or a substitute played are left out.

Ranks are standard competition ranks: players with equal values share a rank and the next rank
skips (1, 2, 2, 4). Within a tie, rows are listed by user id so that pages are stable.

A member's own statistics, history and stored records are read by :mod:`bot.storage.player_stats`,
:mod:`bot.storage.history` and :mod:`bot.storage.records`.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.engine.quoting import quoted
from bot.engine.rules import PRESETS
from bot.storage.boards import first_day, in_window, window_board
from bot.storage.buckets import DAY_PREFIX
from bot.storage.database import Database
from bot.storage.errors import StatsError
from bot.storage.metrics import (  # noqa: F401 (the metrics are the leaderboards' own words)
    DEFAULT_METRIC,
    METRICS,
    MIN_GAMES_FOR_RATE,
    MIN_MAKES_FOR_RATE,
    MIN_RUBBERS_FOR_RATE,
    Metric,
    get_metric,
)
from bot.storage.names import shown_names
from bot.storage.seasons import PERIOD_DAYS, PeriodRange, period_range, utc

log = logging.getLogger(__name__)

PAGE_SIZE = 10


# ------------------------------------------------------------------------------ leaderboards


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One player on a leaderboard.

    ``numerator`` and ``denominator`` are, for a rate, what it divides (rubbers won of rubbers
    played); for a count, the count and how many rubbers, hands or games it came from.
    """

    rank: int
    position: int
    user_id: int
    name: str
    value: float | int
    numerator: int
    denominator: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """A page of a leaderboard and, when asked, the viewer's own row (on the page or not)."""

    guild_id: int
    metric: Metric
    period: str
    preset: str | None
    include_bots: bool
    page: int
    page_count: int
    total: int
    rows: tuple[LeaderboardRow, ...]
    viewer: LeaderboardRow | None = None
    season_name: str | None = None


# Far beyond any leaderboard, and its rows' offset far inside SQLite's integers.
_LAST_PAGE = 10**12


def page_number(page: int) -> int:
    """The page asked for, checked: pages are numbered from 1 (a history's as a board's).

    Raises:
        StatsError: not a page number, or far past any board's end.
    """
    if not isinstance(page, int) or page < 1:
        raise StatsError("Pages are numbered from 1.")
    if page > _LAST_PAGE:
        raise StatsError(f"There is no page {page}.")
    return page


@dataclass(frozen=True, slots=True)
class _Source:
    """Where a leaderboard's per-player totals come from: SQL giving one row per player.

    ``sql`` has a ``{viewer}`` slot for a condition on ``user_id`` (empty, or one player).
    ``indexed``: the counted rows of one board, read along the metric's own index.
    """

    sql: str
    params: dict[str, Any]
    path: str  # 'board', 'window' or 'detail', for tests and logs
    indexed: bool = False


def _sums(metric: Metric, sign: str = "") -> str:
    columns = sorted({metric.numerator, metric.denominator})
    return ", ".join(f"SUM({sign}{c}) AS {c}" for c in columns)


def _plain(metric: Metric) -> str:
    return ", ".join(sorted({metric.numerator, metric.denominator}))


async def _source(
    db: Database,
    guild_id: int,
    metric: Metric,
    span: PeriodRange,
    preset: str | None,
    include_bots: bool,
    today: str,
    detail: bool = False,
) -> _Source:
    """Pick the cheapest exact source of a leaderboard's totals.

    * all presets, all time or the season: that board of ``board_totals``, one row per player
      (two with ``include_bots``, summed);
    * all presets, a rolling window: its board when its anchor is today; when the anchor is an
      earlier day, the board minus the day buckets that have left the window since;
    * anything else (one preset, a moment before the anchor, or ``detail``): ``player_totals``
      summed over days, presets and flags.
    """
    flagged = int(include_bots)
    base = {"guild": guild_id, "flagged": flagged}
    if include_bots:
        # Counted and flagged rows together: one group per player.
        board_sql = (
            f"SELECT user_id, {_sums(metric)} FROM board_totals"
            " WHERE guild_id = :guild AND board = :board AND flagged <= :flagged {viewer}"
            " GROUP BY user_id"
        )
    else:
        board_sql = (
            f"SELECT user_id, {_plain(metric)} FROM board_totals"
            " WHERE guild_id = :guild AND board = :board AND flagged = 0 {viewer}"
        )
    if preset is None and not detail:
        if span.period in ("all", "season"):
            return _Source(board_sql, {**base, "board": span.low}, "board", not include_bots)
        days = PERIOD_DAYS[span.period]
        anchor = await db.fetchval(
            "SELECT anchor_day FROM board_windows WHERE guild_id = ? AND days = ?",
            (guild_id, days),
        )
        board = window_board(days)
        if anchor == today:
            return _Source(board_sql, {**base, "board": board}, "board", not include_bots)
        if anchor is not None and anchor < today and in_window(anchor, today, days):
            # No result since the anchor: the days between the anchor's window and today's
            # have left, so take them out.
            drop_high = (date.fromisoformat(first_day(today, days)) - timedelta(days=1)).isoformat()
            sql = (
                f"SELECT user_id, {_sums(metric)} FROM ("
                f" SELECT user_id, {_plain(metric)} FROM board_totals"
                "  WHERE guild_id = :guild AND board = :board AND flagged <= :flagged {viewer}"
                f" UNION ALL SELECT user_id, {_negated(metric)} FROM player_totals"
                "  WHERE guild_id = :guild AND bucket BETWEEN :drop_low AND :drop_high"
                "  AND flagged <= :flagged {viewer}"
                ") AS totals GROUP BY user_id"
            )
            params = {
                **base,
                "board": board,
                "drop_low": DAY_PREFIX + first_day(anchor, days),
                "drop_high": DAY_PREFIX + drop_high,
            }
            return _Source(sql, params, "window")
    sql = (
        f"SELECT user_id, {_sums(metric)} FROM player_totals {{index}}"
        " WHERE guild_id = :guild AND bucket BETWEEN :low AND :high AND flagged <= :flagged"
        " AND (CAST(:preset AS TEXT) IS NULL OR preset = :preset) {viewer} GROUP BY user_id"
    )
    return _Source(sql, {**base, "low": span.low, "high": span.high, "preset": preset}, "detail")


def _negated(metric: Metric) -> str:
    return ", ".join(f"-{c}" for c in sorted({metric.numerator, metric.denominator}))


_INDEXED_WHERE = "guild_id = :guild AND board = :board AND flagged = 0"


def _ranked_sql(metric: Metric, source: _Source, viewer: bool) -> str:
    columns = (
        f"user_id, {metric.value} AS value, {metric.numerator} AS numerator,"
        f" {metric.denominator} AS denominator"
    )
    if source.indexed:
        user = " AND user_id = :viewer" if viewer else ""
        return (
            f"SELECT {columns} FROM board_totals WHERE {_INDEXED_WHERE}{user} AND {metric.qualify}"
        )
    inner = source.sql.replace("{viewer}", "AND user_id = :viewer" if viewer else "")
    # One player's detailed rows come by the per-player index, not a walk through the bucket.
    inner = inner.replace("{index}", "INDEXED BY player_totals_by_user" if viewer else "")
    return f"SELECT {columns} FROM ({inner}) AS totals WHERE {metric.qualify}"


async def _page_rows(
    db: Database, metric: Metric, source: _Source, offset: int, size: int
) -> list[Any]:
    return await db.fetchall(
        _page_sql(metric, source), {**source.params, "size": size, "offset": offset}
    )


def _page_sql(metric: Metric, source: _Source, window: str = "LIMIT :size OFFSET :offset") -> str:
    # Ordered by the value's own expression, so that the indexed path walks its index.
    order = metric.value if source.indexed else "value"
    return _ranked_sql(metric, source, False) + f" ORDER BY {order} DESC, user_id {window}"


def _counts_sql(
    metric: Metric,
    source: _Source,
    top: str = ":top",
    viewer_value: str = ":viewer_value",
    viewer_id: str = ":viewer_id",
    ranked: str | None = None,
) -> str:
    """What a page needs besides its rows, as one SELECT of four columns.

    (players listed, players above the page's top value, players above the viewer's value,
    players with the viewer's value listed before him). ``top``, ``viewer_value`` and
    ``viewer_id`` are SQL for those values (parameters by default; sub-selects of the page's own
    statement in :func:`_one_page_sql`); ``ranked``, the name of the listed rows already summed,
    when the statement has them.
    """
    if source.indexed:
        # The listed players as kept (bot/storage/board_counts.py), not counted along the
        # whole index at each view; then counts of ranges along the metric's index.
        listed = f"{_INDEXED_WHERE} AND {metric.qualify}"
        value = metric.value

        def count(bound: str) -> str:
            # The range's own bound is written first: given two lower bounds on a column
            # (``points > :v`` and the index's ``points > 0``), SQLite seeks by the first one
            # written and filters by the other, so written after the listing condition it would
            # walk the whole board (1.7 ms at 10,000 players) to count a few players above.
            return f"(SELECT count(*) FROM board_totals WHERE {bound} AND {listed})"

        total = (
            "COALESCE((SELECT players FROM board_counts WHERE guild_id = :guild"
            f" AND board = :board AND metric = '{metric.key}'), 0)"
        )
        # The players above the viewer, counted from the nearer end of the index: from the top
        # for a value in the upper half of the board's range (its first and last entries), or
        # as the listed players less those at or below it. Either way the same number; the
        # nearer end walks at most about half the board where the values spread evenly.
        # (CASE runs only the branch it takes.)
        end = f"(SELECT {value} FROM board_totals WHERE {listed} ORDER BY {value}"
        first, last = f"{end} DESC, user_id LIMIT 1)", f"{end}, user_id DESC LIMIT 1)"
        above_viewer = (
            f"CASE WHEN {viewer_value} IS NULL THEN 0"
            f" WHEN 2 * {viewer_value} >= {first} + {last}"
            f" THEN {count(f'{value} > {viewer_value}')}"
            f" ELSE {total} - {count(f'{value} <= {viewer_value}')} END"
        )
        return (
            f"SELECT {total} AS total,"
            f" {count(f'{value} > {top}')} AS above_top,"
            f" {above_viewer} AS above_viewer,"
            f" {count(f'{value} = {viewer_value} AND user_id < {viewer_id}')} AS tied_before"
        )
    # One pass over the summed rows.
    return (
        "SELECT count(*) AS total,"
        f" COALESCE(SUM(CASE WHEN value > {top} THEN 1 ELSE 0 END), 0) AS above_top,"
        f" COALESCE(SUM(CASE WHEN value > {viewer_value} THEN 1 ELSE 0 END), 0) AS above_viewer,"
        f" COALESCE(SUM(CASE WHEN value = {viewer_value} AND user_id < {viewer_id}"
        " THEN 1 ELSE 0 END), 0) AS tied_before"
        f" FROM {ranked or f'({_ranked_sql(metric, source, False)}) AS ranked'}"
    )


def _one_page_sql(metric: Metric, source: _Source, offset: int, size: int) -> str:
    """A page, the viewer's row, the counts and the names, in one statement.

    On PostgreSQL each statement is a round trip that costs more than a page's index walks, so a
    page is asked for at once. Its rows come back in order, the page's rows (``part`` 0) and
    then the viewer's (``part`` 1, none when the viewer is not listed or ``:viewer`` is NULL),
    each with the four counts and the player's name; a page with neither gives one row of counts
    alone. Parameters: the source's and ``:viewer``.

    The page's size and offset are written into the statement, not passed: PostgreSQL plans a
    LIMIT it cannot see as a tenth of the board, finds that plan dearer than one for the page at
    hand, and so plans the statement again at every view (0.4 ms at 1M hands, more than the
    round trips saved). With the numbers written in, a page's statement is planned once and its
    plan kept, like the other statements; there is one such statement per page number, and the
    first pages, the ones looked at most, keep theirs.
    """
    columns = "user_id, value, numerator, denominator"
    window = f"LIMIT {size:d} OFFSET {offset:d}"
    if source.indexed:
        # Each part reads the board along the metric's index (or its primary key, for the
        # viewer) on its own, as separate statements would: no summed rows to share.
        ranked = ""
        page = _page_sql(metric, source, window)
        viewer = _ranked_sql(metric, source, True)
        summed = None
    else:
        # The rows are sums over several rows per player: sum them once, for every part.
        ranked = f"ranked AS ({_ranked_sql(metric, source, False)}),"
        page = f"SELECT {columns} FROM ranked ORDER BY value DESC, user_id {window}"
        viewer = f"SELECT {columns} FROM ranked WHERE user_id = :viewer"
        summed = "ranked"
    counts = _counts_sql(
        metric,
        source,
        # The page is in order, so its top value is its greatest (NULL on an empty page, which
        # counts nobody above it).
        top="(SELECT max(value) FROM page)",
        viewer_value="(SELECT value FROM viewer)",
        viewer_id="(SELECT user_id FROM viewer)",
        ranked=summed,
    )
    return (
        f"WITH {ranked}"
        f" page AS ({page}),"
        f" viewer AS ({viewer}),"
        f" counts AS ({counts}),"
        f" listed AS (SELECT 0 AS part, {columns} FROM page"
        f" UNION ALL SELECT 1 AS part, {columns} FROM viewer)"
        # Every listed row carries the counts' one row; a LEFT JOIN keeps that row when nobody
        # is listed (an empty board, a page past the end, or rank_of's empty page).
        " SELECT counts.total, counts.above_top, counts.above_viewer, counts.tied_before,"
        " listed.part, listed.user_id, listed.value, listed.numerator, listed.denominator,"
        # One lookup by primary key per listed row (at most a page and the viewer), whatever
        # the planner guesses of the page's size: a join may be planned as a scan of every name.
        " (SELECT name FROM player_names"
        "  WHERE player_names.guild_id = :guild AND player_names.user_id = listed.user_id) AS name"
        " FROM counts LEFT JOIN listed ON 1 = 1"
        # The page's own order, then the viewer.
        " ORDER BY listed.part, listed.value DESC, listed.user_id"
    )


@dataclass(frozen=True, slots=True)
class _OnePage:
    """What :func:`_one_page_sql` returns, taken apart."""

    rows: list[Any]
    viewer: Any
    names: dict[int, str]
    total: int
    above_top: int
    above_viewer: int
    tied_before: int


async def _one_page(
    db: Database, metric: Metric, source: _Source, offset: int, size: int, viewer_id: int | None
) -> _OnePage:
    found = await db.fetchall(
        _one_page_sql(metric, source, offset, size), {**source.params, "viewer": viewer_id}
    )
    first = found[0]
    listed = [r for r in found if r["part"] is not None]
    return _OnePage(
        rows=[r for r in listed if r["part"] == 0],
        viewer=next((r for r in listed if r["part"] == 1), None),
        # A player with no stored name is shown by id (see _row).
        names={r["user_id"]: r["name"] for r in listed if r["name"] is not None},
        total=int(first["total"]),
        above_top=int(first["above_top"] or 0),
        above_viewer=int(first["above_viewer"] or 0),
        tied_before=int(first["tied_before"] or 0),
    )


def _ranks(rows: list[Any], offset: int, above_top: int) -> list[int]:
    """Competition ranks of a page's rows (sorted by value, highest first).

    The page's top value may be shared with rows of earlier pages: its rank is one more than the
    players above it. Any other value starts on this page, at its first row's position.
    """
    ranks = []
    for i, r in enumerate(rows):
        if r["value"] == rows[0]["value"]:
            ranks.append(1 + above_top)
        elif r["value"] != rows[i - 1]["value"]:
            ranks.append(offset + i + 1)
        else:
            ranks.append(ranks[-1])
    return ranks


def _row(r: Any, metric: Metric, rank: int, position: int, names: dict[int, str]) -> LeaderboardRow:
    value = float(r["value"]) if metric.is_rate else int(r["value"])
    return LeaderboardRow(
        rank=rank,
        position=position,
        user_id=int(r["user_id"]),
        name=names.get(int(r["user_id"]), str(r["user_id"])),
        value=value,
        numerator=int(r["numerator"]),
        denominator=int(r["denominator"]),
    )


async def _prepare(
    db: Database,
    guild_id: int,
    metric: str | None,
    period: str,
    preset: str | None,
    include_bots: bool,
    now: datetime | None,
    detail: bool,
) -> tuple[Metric, PeriodRange, _Source]:
    chosen = get_metric(metric)
    if preset is not None and preset not in PRESETS:
        # A name the bot has no rules of would only give an empty board, titled with it.
        raise StatsError(
            f"There are no {quoted(preset)} rules: choose one of {', '.join(PRESETS)}."
        )
    moment = utc(now or datetime.now(UTC))
    span = await period_range(db, guild_id, period, moment)
    source = await _source(
        db, guild_id, chosen, span, preset, include_bots, moment.date().isoformat(), detail
    )
    return chosen, span, source


async def leaderboard(
    db: Database,
    guild_id: int,
    metric: str | None = DEFAULT_METRIC,
    period: str = "all",
    preset: str | None = None,
    page: int = 1,
    include_bots: bool = False,
    now: datetime | None = None,
    viewer_id: int | None = None,
    page_size: int = PAGE_SIZE,
    *,
    detail: bool = False,
) -> LeaderboardPage:
    """A page of a server's leaderboard.

    Args:
        db: the database.
        guild_id: the server.
        metric: one of :data:`METRICS` (key or label).
        period: ``all``, ``season`` (the server's current season), ``30d`` or ``7d`` (UTC days
            ending today).
        preset: only results played under this preset; all presets by default.
        page: from 1; ten rows a page.
        include_bots: count matches with computer players or substitutes.
        now: the moment periods are measured from (default now).
        viewer_id: a member whose own row is wanted too, on this page or not.
        page_size: rows per page.
        detail: sum the detailed totals instead of reading the boards (for checks; slower).

    Returns:
        The page. An empty leaderboard has one empty page.

    Raises:
        StatsError: an unknown metric or period, or a page past the end.
    """
    page = page_number(page)
    chosen, span, source = await _prepare(
        db, guild_id, metric, period, preset, include_bots, now, detail
    )
    offset = (page - 1) * page_size
    found = await _one_page(db, chosen, source, offset, page_size, viewer_id)
    page_count = max(1, math.ceil(found.total / page_size))
    if page > page_count:
        raise StatsError(
            f"There is no page {page}: this leaderboard has {page_count} "
            f"page{'s' if page_count != 1 else ''}."
        )
    rows, names = found.rows, found.names
    listed = tuple(
        _row(r, chosen, rank, offset + i + 1, names)
        for i, (r, rank) in enumerate(zip(rows, _ranks(rows, offset, found.above_top), strict=True))
    )
    mine = None
    if found.viewer is not None:
        # On the page, the viewer's row is the page's; off it, ranked by the counts.
        mine = next((row for row in listed if row.user_id == viewer_id), None)
        if mine is None:
            rank = 1 + found.above_viewer
            mine = _row(found.viewer, chosen, rank, rank + found.tied_before, names)
    log.debug("leaderboard %s %s from %s", chosen.key, span.period, source.path)
    return LeaderboardPage(
        guild_id=guild_id,
        metric=chosen,
        period=span.period,
        preset=preset,
        include_bots=include_bots,
        page=page,
        page_count=page_count,
        total=found.total,
        rows=listed,
        viewer=mine,
        season_name=span.season.name if span.season else None,
    )


async def leaderboard_rows(
    db: Database,
    guild_id: int,
    metric: str | None = DEFAULT_METRIC,
    period: str = "all",
    preset: str | None = None,
    include_bots: bool = False,
    now: datetime | None = None,
    *,
    detail: bool = False,
) -> tuple[Metric, list[LeaderboardRow]]:
    """Every row of a leaderboard, in order (for CSV export)."""
    chosen, _, source = await _prepare(
        db, guild_id, metric, period, preset, include_bots, now, detail
    )
    # A page as long as any board (SQLite's LIMIT -1 is no limit; PostgreSQL refuses it).
    rows = await _page_rows(db, chosen, source, 0, 2**62)
    names = await shown_names(db, guild_id, {r["user_id"] for r in rows})
    listed = []
    rank = 0
    previous: object = None
    for position, r in enumerate(rows, start=1):
        if r["value"] != previous:
            rank, previous = position, r["value"]
        listed.append(_row(r, chosen, rank, position, names))
    return chosen, listed


async def rank_of(
    db: Database,
    guild_id: int,
    user_id: int,
    metric: str | None = DEFAULT_METRIC,
    period: str = "all",
    preset: str | None = None,
    include_bots: bool = False,
    now: datetime | None = None,
) -> LeaderboardRow | None:
    """A member's own row on a leaderboard, or None when not on it (not enough played)."""
    chosen, _, source = await _prepare(
        db, guild_id, metric, period, preset, include_bots, now, False
    )
    # An empty page: the viewer's row and counts alone.
    found = await _one_page(db, chosen, source, 0, 0, user_id)
    if found.viewer is None:
        return None
    rank = 1 + found.above_viewer
    return _row(found.viewer, chosen, rank, rank + found.tied_before, found.names)
