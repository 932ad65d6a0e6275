"""Leaderboards: ranks, pages, periods, seasons, presets, windows and the boards' own indexes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.storage import results
from bot.storage.database import Database
from bot.storage.errors import StatsError
from bot.storage.leaderboard import (
    METRICS,
    _counts_sql,
    _one_page_sql,
    _page_sql,
    _source,
    leaderboard,
    leaderboard_rows,
    rank_of,
)
from bot.storage.player_stats import player_stats
from bot.storage.seasons import current_season, period_range, start_season
from bot.storage.verify import verify
from tests.storage.builders import GUILD, TABLE, at, hand, quick_rubber, seats

NOW = datetime(2025, 5, 20, 18, tzinfo=UTC)


async def test_ties_share_a_rank_and_the_next_rank_skips(db: Database) -> None:
    # Rubber points: 1 and 3 win 5 each, 2 and 4 get 1; then 5 and 7 win 3, 6 and 8 get none
    # (a count lists only players with at least one).
    await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 1))
    await quick_rubber(db, seats(5, 6, 7, 8), winner=0, rubber_points=(3, 0))
    page = await leaderboard(db, GUILD, "rubber_points", now=NOW)
    assert [(r.rank, r.user_id, r.value) for r in page.rows] == [
        (1, 1, 5),
        (1, 3, 5),
        (3, 5, 3),
        (3, 7, 3),
        (5, 2, 1),
        (5, 4, 1),
    ]
    assert page.total == 6 and page.page_count == 1
    # Rubbers won: four share first place with one each.
    won = await leaderboard(db, GUILD, "rubbers_won", now=NOW)
    assert [(r.rank, r.position) for r in won.rows] == [(1, 1), (1, 2), (1, 3), (1, 4)]
    # The same through the detailed totals (the path of a preset filter).
    assert (await leaderboard(db, GUILD, "rubber_points", now=NOW, detail=True)).rows == page.rows


async def test_pages_and_the_viewers_own_rank_off_the_page(db: Database) -> None:
    # 24 players in 6 rubbers; side 0 of rubber i takes 10 - i rubber points, side 1 one.
    for i in range(6):
        base = 10 + 4 * i
        await quick_rubber(
            db, seats(base, base + 1, base + 2, base + 3), winner=0, rubber_points=(10 - i, 1)
        )
    first = await leaderboard(db, GUILD, "rubber_points", page=1, now=NOW, viewer_id=31)
    assert first.page_count == 3 and first.total == 24 and len(first.rows) == 10
    assert [r.position for r in first.rows] == list(range(1, 11))
    assert first.viewer is not None and first.viewer.user_id == 31
    assert first.viewer.rank == 13 and first.viewer.value == 1  # 12 winners above, all losers tie
    third = await leaderboard(db, GUILD, "rubber_points", page=3, now=NOW)
    assert len(third.rows) == 4 and third.rows[-1].position == 24
    assert (await rank_of(db, GUILD, 31, "rubber_points", now=NOW)) == first.viewer
    assert await rank_of(db, GUILD, 999, "rubber_points", now=NOW) is None
    with pytest.raises(StatsError, match="no page 4: this leaderboard has 3 pages"):
        await leaderboard(db, GUILD, "rubber_points", page=4, now=NOW)
    with pytest.raises(StatsError, match="numbered from 1"):
        await leaderboard(db, GUILD, "rubber_points", page=0, now=NOW)
    _, every = await leaderboard_rows(db, GUILD, "rubber_points", now=NOW)
    assert len(every) == 24 and every[:10] == list(first.rows)


async def test_win_rate_needs_five_rubbers(db: Database) -> None:
    for _ in range(5):
        await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 0))
    for _ in range(4):
        await quick_rubber(db, seats(5, 6, 7, 8), winner=1, rubber_points=(0, 5))
    page = await leaderboard(db, GUILD, "rubber win rate", now=NOW)
    assert {r.user_id for r in page.rows} == {1, 2, 3, 4}
    assert [(r.rank, r.value, r.numerator, r.denominator) for r in page.rows][:2] == [
        (1, 1.0, 5, 5),
        (1, 1.0, 5, 5),
    ]
    assert [r.value for r in page.rows][2:] == [0.0, 0.0]
    await quick_rubber(db, seats(5, 6, 7, 8), winner=1, rubber_points=(0, 5))
    page = await leaderboard(db, GUILD, "rubber_win_rate", now=NOW)
    assert {r.user_id for r in page.rows if r.rank == 1} == {1, 3, 6, 8}


async def test_hand_metrics_and_makers_success(db: Database) -> None:
    players = seats(1, 2, 3, 4)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        deals = [
            (0, "made"),
            (0, "march"),
            (0, "euchred"),
            (0, "made"),
            (0, "made"),
            (1, "made"),
            (1, "euchred"),
            (1, "euchred"),
            (1, "made"),
            (1, "made"),
        ]
        for n, (maker, outcome) in enumerate(deals):
            points = {"made": 1, "march": 2, "euchred": 2}[outcome]
            side = maker % 2 if outcome != "euchred" else 1 - maker % 2
            await results.record_hand(
                db,
                hand(
                    m,
                    players,
                    deal=n,
                    maker=maker,
                    outcome=outcome,
                    points=(points, 0) if side == 0 else (0, points),
                ),
            )
    success = await leaderboard(db, GUILD, "makers_success", now=NOW)
    assert [(r.user_id, r.numerator, r.denominator) for r in success.rows] == [(1, 4, 5), (2, 3, 5)]
    inflicted = await leaderboard(db, GUILD, "euchres_inflicted", now=NOW)
    assert [(r.rank, r.value) for r in inflicted.rows] == [(1, 2), (1, 2), (3, 1), (3, 1)]
    assert {r.user_id for r in inflicted.rows[:2]} == {1, 3}
    points = await leaderboard(db, GUILD, "points", now=NOW)
    # Side 0: 1 + 2 + 1 + 1 + 2 + 2 = 9; side 1: 2 + 1 + 1 + 1 = 5.
    assert [(r.user_id, r.value) for r in points.rows] == [(1, 9), (3, 9), (2, 5), (4, 5)]
    lone = await leaderboard(db, GUILD, "lone_hands_made", now=NOW)
    assert (lone.rows, lone.total) == ((), 0)  # nobody played alone: nobody is listed


async def test_periods_count_by_the_utc_day_played(db: Database) -> None:
    # 1: today; 2: six days ago (in 7d); 3: seven days ago (30d only); 4: 40 days ago (season)
    # 5: last quarter (all only).
    when = {1: "2025-05-20", 2: "2025-05-14", 3: "2025-05-13", 4: "2025-04-10", 5: "2025-03-30"}
    for user, day in when.items():
        await quick_rubber(
            db,
            seats(user, 100 + user, 200 + user, 300 + user),
            winner=0,
            rubber_points=(user, 0),
            when=at(day, 23),
        )

    async def winners(period: str) -> set[int]:
        page = await leaderboard(db, GUILD, "rubber_points", period=period, now=NOW)
        return {r.user_id for r in page.rows if r.user_id < 100}

    assert await winners("7d") == {1, 2}
    assert await winners("30d") == {1, 2, 3}
    assert await winners("season") == {1, 2, 3, 4}
    assert await winners("all") == {1, 2, 3, 4, 5}
    assert (await leaderboard(db, GUILD, period="season", now=NOW)).season_name == "2025 Q2"
    # A moment later, one day has left the 7-day window.
    later = datetime(2025, 5, 21, 0, 30, tzinfo=UTC)
    page = await leaderboard(db, GUILD, "rubber_points", period="7d", now=later)
    assert {r.user_id for r in page.rows if r.user_id < 100} == {1}
    with pytest.raises(StatsError, match="Unknown period “year”"):
        await leaderboard(db, GUILD, period="year", now=NOW)


async def test_an_admins_season_takes_over_from_the_quarter(db: Database) -> None:
    for user, day in {1: "2025-04-02", 2: "2025-05-01", 3: "2025-05-19"}.items():
        await quick_rubber(
            db,
            seats(user, 100 + user, 200 + user, 300 + user),
            winner=0,
            rubber_points=(5, 0),
            when=at(day),
        )
    assert (await current_season(db, GUILD, NOW)).key == "2025-Q2"
    season = await start_season(db, GUILD, "Spring league", at("2025-05-01", 15))
    assert (season.key, season.name, season.start_day, season.end_day) == (
        "2025-05-01",
        "Spring league",
        "2025-05-01",
        None,
    )
    page = await leaderboard(db, GUILD, "rubbers_won", period="season", now=NOW)
    assert {r.user_id for r in page.rows if r.rank == 1} == {2, 3, 202, 203}
    assert page.season_name == "Spring league"
    # Before it started, the quarter is still the season.
    early = await leaderboard(db, GUILD, "rubbers_won", period="season", now=at("2025-04-20"))
    assert {r.user_id for r in early.rows if r.rank == 1} == {1, 201}
    assert (await current_season(db, GUILD, at("2025-04-20"))).end_day == "2025-05-01"
    # New results go to the new season, and a second season closes the first.
    await quick_rubber(
        db, seats(4, 104, 204, 304), winner=0, rubber_points=(5, 0), when=at("2025-06-02")
    )
    await start_season(db, GUILD, "Summer", at("2025-06-01"))
    summer = await leaderboard(db, GUILD, "rubbers_won", period="season", now=at("2025-06-03"))
    assert {r.user_id for r in summer.rows if r.rank == 1} == {4, 204}
    assert (await current_season(db, GUILD, NOW)).end_day == "2025-06-01"
    assert await verify(db) == []
    with pytest.raises(StatsError, match="name"):
        await start_season(db, GUILD, "  ", NOW)


async def test_the_bots_flag_keeps_results_off_unless_asked(db: Database) -> None:
    await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 1))
    await quick_rubber(db, seats(5, -6, 7, 8, bots=(-6,)), winner=0, rubber_points=(7, 1))
    await quick_rubber(db, seats(9, 10, 11, 12, subs=(12,)), winner=0, rubber_points=(9, 1))
    counted = await leaderboard(db, GUILD, "rubber_points", now=NOW)
    assert {r.user_id for r in counted.rows} == {1, 2, 3, 4}
    every = await leaderboard(db, GUILD, "rubber_points", now=NOW, include_bots=True)
    assert [r.user_id for r in every.rows[:4]] == [9, 11, 5, 7]
    _, everyone = await leaderboard_rows(db, GUILD, "rubber_points", now=NOW, include_bots=True)
    assert every.total == len(everyone) == 11
    assert -6 not in {r.user_id for r in everyone}
    assert 12 in {r.user_id for r in everyone}
    mine = await player_stats(db, GUILD, 5, now=NOW)
    assert mine.totals.rubbers_played == 0 and mine.excluded.rubber_points == 7
    assert (await player_stats(db, GUILD, 5, now=NOW, include_bots=True)).totals.rubbers_won == 1


async def test_preset_filter(db: Database) -> None:
    await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 1), preset="somerset")
    await quick_rubber(db, seats(1, 2, 5, 6), winner=1, rubber_points=(1, 4), preset="modern")
    somerset = await leaderboard(db, GUILD, "rubber_points", preset="somerset", now=NOW)
    assert {r.user_id: r.value for r in somerset.rows} == {1: 5, 3: 5, 2: 1, 4: 1}
    modern = await leaderboard(db, GUILD, "rubber_points", preset="modern", now=NOW)
    assert {r.user_id: r.value for r in modern.rows} == {2: 4, 6: 4, 1: 1, 5: 1}
    both = await leaderboard(db, GUILD, "rubber_points", now=NOW)
    assert [(r.rank, r.user_id, r.value) for r in both.rows] == [
        (1, 1, 6),
        (2, 2, 5),
        (2, 3, 5),
        (4, 6, 4),
        (5, 4, 1),
        (5, 5, 1),
    ]


async def test_unknown_metric_is_refused_with_the_choices(db: Database) -> None:
    with pytest.raises(StatsError) as error:
        await leaderboard(db, GUILD, "wins", now=NOW)
    assert "Unknown leaderboard 'wins'" in str(error.value)
    for key in METRICS:
        assert key in str(error.value)


async def test_an_empty_leaderboard_is_one_empty_page(db: Database) -> None:
    page = await leaderboard(db, GUILD, "points", now=NOW)
    assert (page.rows, page.page_count, page.total) == ((), 1, 0)


async def test_rolling_windows_move_with_the_days(db: Database) -> None:
    # Member 1 wins on May 1, member 5 on May 5, member 9 on May 12: each result moves the
    # windows on, taking out the days that leave them.
    for user, day in {1: "2025-05-01", 5: "2025-05-05", 9: "2025-05-12"}.items():
        await quick_rubber(
            db,
            seats(user, user + 1, user + 2, user + 3),
            winner=0,
            rubber_points=(5, 0),
            when=at(day),
        )
    anchors = {r[0]: r[1] for r in await db.fetchall("SELECT days, anchor_day FROM board_windows")}
    assert anchors == {7: "2025-05-12", 30: "2025-05-12"}
    week = {
        r[0]
        for r in await db.fetchall(
            "SELECT user_id FROM board_totals WHERE board = '7d' AND flagged = 0"
        )
    }
    assert week == {9, 10, 11, 12}

    async def winners(period: str, day: str) -> set[int]:
        page = await leaderboard(db, GUILD, "rubbers_won", period=period, now=at(day, 23))
        return {r.user_id for r in page.rows if r.value}

    assert await winners("7d", "2025-05-12") == {9, 11}
    # Asked later with no new result: the days that left are taken out on the fly.
    assert await winners("7d", "2025-05-17") == {9, 11}
    assert await winners("7d", "2025-05-19") == set()
    assert await winners("30d", "2025-05-30") == {1, 3, 5, 7, 9, 11}
    assert await winners("30d", "2025-05-31") == {5, 7, 9, 11}
    assert await winners("30d", "2025-06-04") == {9, 11}
    # Asked about a day before the last result: summed from the day buckets.
    assert await winners("7d", "2025-05-06") == {1, 3, 5, 7}
    assert await verify(db) == []


async def test_verify_reports_a_board_that_drifted(db: Database) -> None:
    await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 0))
    assert await verify(db) == []
    await db.execute(
        "UPDATE board_totals SET rubber_points = 6 WHERE user_id = 1 AND board = 'all'"
        " AND flagged = 0"
    )
    assert await verify(db) == [
        f"guild {GUILD} user 1 board all: rubber_points stored 6 recomputed 5"
    ]


async def test_each_leaderboard_walks_its_own_index(db: Database) -> None:
    """The fast path's statements use the metric's partial index (migration 0003), not a scan."""
    if db.dialect != "sqlite":
        pytest.skip("reads SQLite's query plans (EXPLAIN QUERY PLAN)")
    await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 1))
    for period in ("all", "season", "7d"):
        span = await period_range(db, GUILD, period, at("2025-03-01"))
        for metric in METRICS.values():
            source = await _source(db, GUILD, metric, span, None, False, "2025-03-01")
            assert source.indexed, (metric.key, period)
            params = {
                **source.params,
                "size": 10,
                "offset": 0,
                "top": 1,
                "viewer_value": 1,
                "viewer_id": 1,
            }
            for sql in (_page_sql(metric, source), _counts_sql(metric, source)):
                plan = await db.fetchall("EXPLAIN QUERY PLAN " + sql, params)
                details = [r[3] for r in plan]
                assert any(f"INDEX board_{metric.key} " in d for d in details), details
                assert not any("SCAN board_totals" in d or "TEMP B-TREE" in d for d in details), (
                    details
                )


@asynccontextmanager
async def statements_run(db: Database) -> AsyncIterator[list[str]]:
    """The statements the database runs inside the block, as its own driver reports them."""
    seen: list[str] = []
    conn: Any = db.conn  # type: ignore[attr-defined]
    if db.dialect == "sqlite":
        await conn.set_trace_callback(seen.append)
        try:
            yield seen
        finally:
            await conn.set_trace_callback(None)
        return

    def logged(record: Any) -> None:
        seen.append(record.query)

    conn.add_query_logger(logged)
    try:
        yield seen
        # asyncpg hands each query to its loggers with call_soon: one turn of the loop runs
        # the calls queued before this point.
        await asyncio.sleep(0)
    finally:
        conn.remove_query_logger(logged)


async def _six_rubbers(db: Database) -> None:
    # 24 players; side 0 of rubber i takes 10 - i rubber points, side 1 one (12 share a value).
    for i in range(6):
        base = 10 + 4 * i
        await quick_rubber(
            db, seats(base, base + 1, base + 2, base + 3), winner=0, rubber_points=(10 - i, 1)
        )


async def test_a_page_is_one_statement(db: Database) -> None:
    """Rows, the viewer's row, the counts and the names come in one round trip."""
    await _six_rubbers(db)
    async with statements_run(db) as seen:
        page = await leaderboard(db, GUILD, "rubber_points", page=2, now=NOW, viewer_id=31)
    assert len(seen) == 1, seen
    assert page.viewer is not None and (page.viewer.rank, page.viewer.name) == (13, "player31")
    assert [r.name for r in page.rows[:2]] == ["player30", "player32"]
    assert page.rows[0].rank == 11 and page.total == 24
    async with statements_run(db) as seen:
        assert await rank_of(db, GUILD, 31, "rubber_points", now=NOW) == page.viewer
    assert len(seen) == 1, seen
    async with statements_run(db) as seen:  # summed rows (flagged ones added in)
        every = await leaderboard(db, GUILD, "rubber_points", now=NOW, include_bots=True)
    assert len(seen) == 1 and every.total == 24, seen


async def test_every_page_and_viewer_agree_with_the_whole_leaderboard(db: Database) -> None:
    """Ranks, positions and the viewer's row, against the full list ranked row by row."""
    await _six_rubbers(db)
    await quick_rubber(db, seats(10, 11, 30, 31), winner=1, rubber_points=(2, 6), preset="modern")
    await quick_rubber(db, seats(5, -6, 7, 8, bots=(-6,)), winner=0, rubber_points=(7, 1))
    for metric in ("rubber_points", "rubbers_won", "games_won", "game_win_rate"):
        for preset, bots, detail in (
            (None, False, False),
            (None, True, False),
            ("modern", False, True),
        ):
            _, every = await leaderboard_rows(
                db, GUILD, metric, preset=preset, include_bots=bots, now=NOW, detail=detail
            )
            by_user = {r.user_id: r for r in every}
            for size in (3, 10):
                for number in range(1, max(1, -(-len(every) // size)) + 1):
                    for viewer in (None, 5, 10, 31, 999):
                        page = await leaderboard(
                            db,
                            GUILD,
                            metric,
                            preset=preset,
                            page=number,
                            include_bots=bots,
                            now=NOW,
                            viewer_id=viewer,
                            page_size=size,
                            detail=detail,
                        )
                        case = (metric, preset, bots, size, number, viewer)
                        assert page.total == len(every), case
                        assert list(page.rows) == every[(number - 1) * size : number * size], case
                        assert page.viewer == by_user.get(viewer), case  # type: ignore[arg-type]


async def test_the_one_page_statement_walks_the_metrics_index(db: Database) -> None:
    """Each part of a board's page reads its index (or the viewer's primary key), never a scan;
    the one sort is of the few rows returned."""
    if db.dialect != "sqlite":
        pytest.skip("reads SQLite's query plans (EXPLAIN QUERY PLAN)")
    await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 1))
    span = await period_range(db, GUILD, "all", at("2025-03-01"))
    for metric in METRICS.values():
        source = await _source(db, GUILD, metric, span, None, False, "2025-03-01")
        sql = _one_page_sql(metric, source, 0, 10)
        plan = await db.fetchall("EXPLAIN QUERY PLAN " + sql, {**source.params, "viewer": 1})
        details = [r[3] for r in plan]
        assert any(f"INDEX board_{metric.key} " in d for d in details), details
        assert not any("SCAN board_totals" in d for d in details), details
        assert [d for d in details if "TEMP B-TREE" in d] == ["USE TEMP B-TREE FOR ORDER BY"]
        assert plan[-1][1] == 0, details  # that sort is the outermost query's
