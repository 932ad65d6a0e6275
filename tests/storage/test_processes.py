"""Each process's report for /admin status: one row per process, rewritten, forgotten after a day."""

from __future__ import annotations

from bot.storage import processes
from bot.storage.database import Database


def figures(tables: int, shards: tuple[int, ...] = (0,)) -> processes.ProcessFigures:
    return processes.ProcessFigures(
        shards=shards,
        tables=tables,
        events_total=10 * tables,
        events_per_second=1.5,
        rest_requests=40,
        rest_429=3,
        rest_global_429=1,
        latency_ms=None,
        started=1000.0,
    )


async def test_a_process_rewrites_its_own_row_and_reads_back_what_it_stored(db: Database):
    await processes.report(db, "a:1", figures(2, (0, 1)), now=2000.0)
    await processes.report(db, "a:1", figures(5, (0, 1)), now=2015.0)
    await processes.report(db, "b:2", figures(1, (2,)), now=2010.0)
    reports = await processes.reports(db)
    assert [r.name for r in reports] == ["a:1", "b:2"]  # the most recent report first
    assert reports[0].figures == figures(5, (0, 1)) and reports[0].reported_at == 2015.0
    assert reports[1].figures.shards == (2,)


async def test_a_process_silent_for_a_day_is_forgotten(db: Database):
    await processes.report(db, "gone:1", figures(1), now=1000.0)
    await processes.report(db, "here:2", figures(1), now=1000.0 + processes.FORGET_AFTER + 1)
    assert [r.name for r in await processes.reports(db)] == ["here:2"]
