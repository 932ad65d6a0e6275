"""Each process's report for /admin status: one row per process, rewritten, forgotten after a day."""

from __future__ import annotations

from bot.storage import leases, processes
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


def start(name: str, started: float, scope=(2, (0,)), incarnation: str | None = None):
    return processes.Start(
        name=name,
        incarnation=incarnation or f"{name}-{started}",
        scope=scope,
        lease_owner="shards 0 of 2",
        started_at=started,
        beat_at=started,
    )


async def test_a_start_is_stored_with_its_shards_and_beats_in_its_own_row(db: Database):
    first = start("a:1", 1000.0, scope=(4, (1, 3)))
    await processes.register(db, first)
    await processes.register(db, start("b:2", 1001.0, scope=None))
    assert await processes.beat(db, first, 1002.0)
    stored = await processes.running(db)
    assert [s.name for s in stored] == ["a:1", "b:2"]  # the first start first
    assert stored[0].scope == (4, (1, 3)) and stored[0].beat_at == 1002.0
    assert stored[0].lease_owner == "shards 0 of 2" and stored[1].scope is None
    assert stored[0].host_and_pid == ("a", 1)
    # A report rewrites the figures and leaves the start as it was.
    await processes.report(db, "a:1", figures(3, (1,)), now=1003.0)
    assert (await processes.running(db))[0] == stored[0]
    (report,) = [r for r in await processes.reports(db) if r.name == "a:1"]
    assert report.figures.tables == 3 and report.beat_at == 1002.0


async def test_a_start_of_the_same_name_takes_the_row_and_the_old_one_hears_it(db: Database):
    """On one host a pid is one process at a time: the row is the newer start's, and the older
    one (another pid namespace with the same host name) learns so at its next beat."""
    old, new = start("a:1", 1000.0, incarnation="old"), start("a:1", 1010.0, incarnation="new")
    await processes.register(db, old)
    await processes.register(db, new)
    assert not await processes.beat(db, old, 1011.0)
    assert await processes.beat(db, new, 1011.0)
    assert [s.incarnation for s in await processes.running(db)] == ["new"]


async def test_a_clean_stop_is_shown_as_a_stop_and_a_refused_start_is_forgotten(db: Database):
    kept, refused = start("a:1", 1000.0), start("b:2", 1001.0)
    await processes.register(db, kept)
    await processes.register(db, refused)
    await processes.stopped(db, kept, 1500.0)
    await processes.forget(db, refused)
    assert await processes.running(db) == []
    (report,) = await processes.reports(db)
    assert report.name == "a:1" and report.stopped_at == 1500.0


async def test_a_start_still_beating_is_not_forgotten_before_its_first_report(db: Database):
    """A process waiting a long while for its turn to connect beats but does not report."""
    waiting = start("a:1", 1000.0)
    await processes.register(db, waiting)
    later = 1000.0 + processes.FORGET_AFTER + 10
    await processes.beat(db, waiting, later - 5)
    await processes.report(db, "b:2", figures(1), now=later)
    assert {r.name for r in await processes.reports(db)} == {"a:1", "b:2"}


async def test_the_leases_each_holder_keeps_are_counted_with_the_soonest_to_run_out(
    db: Database,
):
    async with db.transaction():
        for number, (owner, until) in enumerate(
            [("shards 0 of 2", 1006.0), ("shards 0 of 2", 1004.0), ("shards 1 of 2", 0.0)]
        ):
            await db.execute(
                "INSERT INTO tables (guild_id, channel_id, host_id, status, options, state,"
                " created_at, updated_at, owner, lease_until)"
                " VALUES (?, ?, 1, 'open', '{}', '{}', '', '', ?, ?)",
                (1, 100 + number, owner, until),
            )
    # A released lease (a clean stop) is no lease held.
    assert await leases.held(db) == {"shards 0 of 2": (2, 1004.0)}
