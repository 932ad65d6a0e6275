"""Leaderboards, a player's statistics, match history and stored records, per server.

Every question reads ``player_totals`` (kept by :mod:`bot.storage.results`) or one player's own
rows, never a scan of the server's hands. Unless asked (``include_bots=True``), results of
matches in which a computer player or a substitute played are left out.

Ranks are standard competition ranks: players with equal values share a rank and the next rank
skips (1, 2, 2, 4). Within a tie, rows are listed by user id so that pages are stable.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.engine.quoting import quoted
from bot.numbers import parse_whole
from bot.storage.boards import COUNTERS, first_day, in_window, window_board
from bot.storage.database import Database
from bot.storage.errors import NoGamesYet, StatsError
from bot.storage.seasons import (
    ALL_BUCKET,
    DAY_PREFIX,
    PERIOD_DAYS,
    PeriodRange,
    parse_timestamp,
    period_range,
    utc,
)

log = logging.getLogger(__name__)

PAGE_SIZE = 10
MIN_RUBBERS_FOR_RATE = 5
MIN_GAMES_FOR_RATE = 5
MIN_MAKES_FOR_RATE = 5
MIN_PARTNER_GAMES = 3  # games together before a partner can be "best partner"
MIN_OPPONENT_GAMES = 3  # games against a pair before its record is shown


# ------------------------------------------------------------------------------ metrics


@dataclass(frozen=True, slots=True)
class Metric:
    """A leaderboard's measure.

    Attributes:
        key: its name in commands (``rubbers_won``).
        label: what to show (``Rubbers won``).
        value: the SQL of the value over the counters (constants of this module, not input).
        numerator, denominator: for a rate, the counters it divides (shown as "12 of 20"); for a
            count, the count and what it came from (shown as "in 20 rubbers").
        minimum: a rate lists players with at least this ``denominator``; a count lists players
            with at least one.
        is_rate: the value is a fraction between 0 and 1.

    Each metric has a partial index ``board_<key>`` on ``board_totals`` (migration 0003) over
    exactly the rows it lists (``qualify``), in its order: a page is a short walk along it.
    """

    key: str
    label: str
    value: str
    numerator: str
    denominator: str
    minimum: int = 1
    is_rate: bool = False

    @property
    def qualify(self) -> str:
        """The SQL condition for a player to be listed (literal, to match the partial index)."""
        if self.is_rate:
            return f"{self.denominator} >= {self.minimum:d}"
        return f"{self.numerator} > 0"


def _rate(key: str, label: str, won: str, played: str, minimum: int) -> Metric:
    return Metric(key, label, f"CAST({won} AS REAL) / {played}", won, played, minimum, True)


def _count(key: str, label: str, counter: str, base: str) -> Metric:
    return Metric(key, label, counter, counter, base)


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        _count("rubbers_won", "Rubbers won", "rubbers_won", "rubbers_played"),
        _count("rubber_points", "Rubber points", "rubber_points", "rubbers_played"),
        _rate(
            "rubber_win_rate",
            "Rubber win rate",
            "rubbers_won",
            "rubbers_played",
            MIN_RUBBERS_FOR_RATE,
        ),
        _count("points", "Points", "points", "hands_played"),
        _rate("makers_success", "Makers' success", "makes_won", "makes", MIN_MAKES_FOR_RATE),
        _count("euchres_inflicted", "Euchres inflicted", "euchres_inflicted", "hands_played"),
        _count("lone_hands_made", "Lone hands made", "lone_made", "hands_played"),
        _count("games_won", "Games won", "games_won", "games_played"),
        _rate("game_win_rate", "Game win rate", "games_won", "games_played", MIN_GAMES_FOR_RATE),
    )
}
DEFAULT_METRIC = "rubbers_won"


def get_metric(name: str | None) -> Metric:
    """The metric named ``name`` (its key or label, any case; default rubbers won).

    Raises:
        StatsError: no such metric.
    """
    if not name:
        return METRICS[DEFAULT_METRIC]
    wanted = name.strip().lower().replace(" ", "_").replace("'", "")
    for metric in METRICS.values():
        if wanted in (metric.key, metric.label.lower().replace(" ", "_").replace("'", "")):
            return metric
    raise StatsError(f"Unknown leaderboard {name!r}: choose one of {', '.join(METRICS)}.")


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


def _page_number(page: int) -> int:
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
        # Four counts along the metric's index: the listed rows, and three short ranges.
        where = f"FROM board_totals WHERE {_INDEXED_WHERE} AND {metric.qualify}"
        value = metric.value
        return (
            f"SELECT (SELECT count(*) {where}) AS total,"
            f" (SELECT count(*) {where} AND {value} > {top}) AS above_top,"
            f" (SELECT count(*) {where} AND {value} > {viewer_value}) AS above_viewer,"
            f" (SELECT count(*) {where} AND {value} = {viewer_value}"
            f" AND user_id < {viewer_id}) AS tied_before"
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
    page = _page_number(page)
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
    names = await _names(db, guild_id, {r["user_id"] for r in rows})
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


# ------------------------------------------------------------------------------ one player


@dataclass(frozen=True, slots=True)
class Totals:
    """A player's totals (the counters of ``player_totals``, in the same order)."""

    rubbers_played: int = 0
    rubbers_won: int = 0
    rubber_points: int = 0
    games_played: int = 0
    games_won: int = 0
    points: int = 0
    hands_played: int = 0
    makes: int = 0
    makes_won: int = 0
    euchres_suffered: int = 0
    euchres_inflicted: int = 0
    marches: int = 0
    lone_tried: int = 0
    lone_made: int = 0

    @classmethod
    def of(cls, values: Any) -> Totals:
        return cls(*(int(v or 0) for v in values))

    def as_tuple(self) -> tuple[int, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    def __add__(self, other: Totals) -> Totals:
        return Totals(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    @property
    def rubber_win_rate(self) -> float | None:
        return self.rubbers_won / self.rubbers_played if self.rubbers_played else None

    @property
    def game_win_rate(self) -> float | None:
        return self.games_won / self.games_played if self.games_played else None

    @property
    def makers_success(self) -> float | None:
        return self.makes_won / self.makes if self.makes else None

    @property
    def lone_success(self) -> float | None:
        return self.lone_made / self.lone_tried if self.lone_tried else None


assert tuple(f.name for f in fields(Totals)) == COUNTERS, "Totals mirrors player_totals"


@dataclass(frozen=True, slots=True)
class PartnerRecord:
    """Games played with one partner."""

    user_id: int
    name: str
    games: int
    won: int

    @property
    def win_rate(self) -> float:
        return self.won / self.games


@dataclass(frozen=True, slots=True)
class OpponentRecord:
    """Games played against one pair of opponents."""

    user_ids: tuple[int, int]
    names: tuple[str, str]
    games: int
    won: int

    @property
    def lost(self) -> int:
        return self.games - self.won


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything the leaderboards count for one member, with partners and opponents.

    Attributes:
        totals: what counts under the chosen period, preset and ``include_bots``.
        excluded: what was left out because computer players or substitutes played (zero with
            ``include_bots``).
        best_partner: the partner with the best game win rate over at least
            :data:`MIN_PARTNER_GAMES` games together (ties: more games, then user id).
        most_frequent_partner: the partner of the most games (ties: more won, then user id).
        opponents: the record against every pair of opponents met in at least
            :data:`MIN_OPPONENT_GAMES` games, most met first.
    """

    guild_id: int
    user_id: int
    name: str
    period: str
    preset: str | None
    include_bots: bool
    totals: Totals
    excluded: Totals
    best_partner: PartnerRecord | None
    most_frequent_partner: PartnerRecord | None
    opponents: tuple[OpponentRecord, ...]
    season_name: str | None = None


async def _names(db: Database, guild_id: int, user_ids: set[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    ids = sorted(user_ids)
    marks = ", ".join("?" for _ in ids)
    rows = await db.fetchall(
        f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})",
        (guild_id, *ids),
    )
    return {r["user_id"]: r["name"] for r in rows}


async def player_stats(
    db: Database,
    guild_id: int,
    user_id: int,
    period: str = "all",
    preset: str | None = None,
    include_bots: bool = False,
    now: datetime | None = None,
) -> PlayerStats:
    """A member's statistics on a server.

    Partners and opponents are counted in games (a rubber has three or four), over the same
    period, preset and choice of matches as the totals; computer players are never partners or
    opponents here.

    Raises:
        NoGamesYet: the member has no recorded result on this server.
        StatsError: a bad period.
    """
    span = await period_range(db, guild_id, period, now)
    rows = await db.fetchall(
        "SELECT flagged, "
        + ", ".join(f"SUM({c})" for c in COUNTERS)
        # INDEXED BY: the planner would otherwise walk the whole bucket by the primary key.
        + " FROM player_totals INDEXED BY player_totals_by_user"
        " WHERE guild_id = ? AND user_id = ? AND bucket BETWEEN ? AND ?"
        " AND (CAST(? AS TEXT) IS NULL OR preset = ?) GROUP BY flagged",
        (guild_id, user_id, span.low, span.high, preset, preset),
    )
    by_flag = {r[0]: Totals.of(r[1:]) for r in rows}
    if not rows and span.low != ALL_BUCKET:
        known = await db.fetchval(
            "SELECT 1 FROM player_totals WHERE guild_id = ? AND user_id = ? AND bucket = ? LIMIT 1",
            (guild_id, user_id, ALL_BUCKET),
        )
    else:
        known = bool(rows)
    if not known:
        raise NoGamesYet("That member has no recorded games on this server yet.")
    clean = by_flag.get(0, Totals())
    flagged = by_flag.get(1, Totals())
    totals = clean + flagged if include_bots else clean
    excluded = Totals() if include_bots else flagged

    games = await db.fetchall(
        "SELECT g.id, g.winner, me.seat AS my_seat, o.seat, o.user_id, o.is_bot"
        " FROM game_players AS me"
        " CROSS JOIN games AS g"
        " JOIN matches AS m ON m.id = g.match_id"
        " JOIN game_players AS o ON o.game_id = g.id AND o.seat != me.seat"
        " WHERE g.id = me.game_id AND me.user_id = ? AND g.guild_id = ?"
        " AND g.day >= ? AND g.day <= ?"
        " AND m.flagged <= ? AND (CAST(? AS TEXT) IS NULL OR g.preset = ?)",
        (
            user_id,
            guild_id,
            span.first_day or "0000-00-00",
            span.last_day or "9999-12-31",
            int(include_bots),
            preset,
            preset,
        ),
    )
    seats: dict[int, dict[int, tuple[int, bool]]] = defaultdict(dict)
    outcome: dict[int, bool] = {}
    mine: dict[int, int] = {}
    for r in games:
        seats[r["id"]][r["seat"]] = (r["user_id"], bool(r["is_bot"]))
        outcome[r["id"]] = r["winner"] == r["my_seat"] % 2
        mine[r["id"]] = r["my_seat"]
    partner_games: Counter[int] = Counter()
    partner_won: Counter[int] = Counter()
    pair_games: Counter[tuple[int, int]] = Counter()
    pair_won: Counter[tuple[int, int]] = Counter()
    for game_id, others in seats.items():
        seat = mine[game_id]
        won = outcome[game_id]
        partner = others.get((seat + 2) % 4)
        if partner is not None and not partner[1] and partner[0] != user_id:
            partner_games[partner[0]] += 1
            partner_won[partner[0]] += won
        pair = [others.get((seat + 1) % 4), others.get((seat + 3) % 4)]
        if all(p is not None and not p[1] for p in pair):
            key = tuple(sorted(p[0] for p in pair if p is not None))
            if len(key) == 2:
                pair_games[key] += 1
                pair_won[key] += won
    wanted = {user_id} | set(partner_games) | {u for key in pair_games for u in key}
    names = await _names(db, guild_id, wanted)

    def name_of(uid: int) -> str:
        return names.get(uid, str(uid))

    partners = [
        PartnerRecord(uid, name_of(uid), partner_games[uid], partner_won[uid])
        for uid in partner_games
    ]
    frequent = min(partners, key=lambda p: (-p.games, -p.won, p.user_id), default=None)
    best = min(
        (p for p in partners if p.games >= MIN_PARTNER_GAMES),
        key=lambda p: (-p.win_rate, -p.games, p.user_id),
        default=None,
    )
    opponents = tuple(
        sorted(
            (
                OpponentRecord(key, (name_of(key[0]), name_of(key[1])), n, pair_won[key])
                for key, n in pair_games.items()
                if n >= MIN_OPPONENT_GAMES
            ),
            key=lambda o: (-o.games, -o.won, o.user_ids),
        )
    )
    return PlayerStats(
        guild_id=guild_id,
        user_id=user_id,
        name=name_of(user_id),
        period=span.period,
        preset=preset,
        include_bots=include_bots,
        totals=totals,
        excluded=excluded,
        best_partner=best,
        most_frequent_partner=frequent,
        opponents=opponents,
        season_name=span.season.name if span.season else None,
    )


# ------------------------------------------------------------------------------ history


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
    page = _page_number(page)
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
    names = await _names(db, guild_id, {user_id})
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


# ------------------------------------------------------------------------------ records


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
    )
