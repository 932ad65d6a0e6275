"""One running process per shard (bot/shard_guard.py), on a real database: a start on shards a
live process serves is refused and names it; a predecessor that was killed does not hold a
restart up (at once on its own host, within a lease elsewhere); and a process that finds, while
it runs, an earlier live process on its shards stops."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.shard_guard import ShardGuard, ShardsTaken, StoppedWaiting
from bot.storage import processes
from bot.storage.database import Database
from tests.bot.helpers import WAIT, eventually
from tests.support.postgres import database_for

LEASE = 6.0


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(await database_for(tmp_path / "euchre.db"))
    try:
        yield database
    finally:
        await database.close()


class Clock:
    """Unix seconds that move on by `step` each time they are read, so a wait of a lease
    passes in a few looks, whatever the machine's speed."""

    def __init__(self, now: float = 10_000.0, step: float = 0.0) -> None:
        self.now, self.step = now, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def start(name: str, at: float, scope=(4, (0, 1))) -> processes.Start:
    return processes.Start(
        name=name,
        incarnation=f"{name}@{at}",
        scope=scope,
        lease_owner="shards 0,1 of 4",
        started_at=at,
        beat_at=at,
    )


async def stored(db: Database, other: processes.Start) -> None:
    async with db.transaction():
        await processes.register(db, other)


async def beat(db: Database, other: processes.Start, at: float) -> None:
    async with db.transaction():
        await processes.beat(db, other, at)


def guard(db: Database, me: processes.Start, clock: Clock, lease: float = LEASE) -> ShardGuard:
    async def write(work):
        async with db.transaction():
            return await work(db)

    return ShardGuard(me, db, write, lease=lease, clock=clock, poll=0.01)


def _reaped() -> int:
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


async def test_a_second_start_on_the_shards_of_a_live_process_is_refused_naming_it(db):
    clock = Clock()
    first = start("host-a:100", clock.now - 3600)
    await stored(db, first)
    await beat(db, first, clock.now - 1)
    # The same shards under another count: shard 1 of 2 holds the guilds of shards 1 and 3 of 4.
    me = guard(db, start("host-b:200", clock.now, scope=(2, (1,))), clock)
    starting = asyncio.create_task(me.start())
    await eventually(lambda: first.incarnation in me._seen, what="the guard to read the first")
    await beat(db, first, clock.now)  # it runs
    with pytest.raises(ShardsTaken) as refused:
        await starting
    line = str(refused.value)
    assert "\n" not in line and line.startswith("refusing to start: ")
    assert "host-a:100 (shards 0,1 of 4, started 3600 s ago)" in line
    assert "(shard 1 of 2)" in line and "SHARD_COUNT and SHARD_IDS" in line
    # The refused start leaves nothing behind; the first is untouched.
    assert [s.name for s in await processes.running(db)] == ["host-a:100"]


async def test_a_restart_after_a_kill_on_the_same_host_does_not_wait(db, caplog):
    """kill -9 and systemd's restart: the predecessor beat a moment ago, but its process id is
    gone from this host, so the restart takes its shards at once."""
    clock = Clock()
    killed = start(f"host-a:{_reaped()}", clock.now - 60)
    await stored(db, killed)
    await beat(db, killed, clock.now - 0.5)
    me = guard(db, start(f"host-a:{os.getpid()}", clock.now), clock)
    with caplog.at_level(logging.WARNING, logger="bot.shard_guard"):
        await asyncio.wait_for(me.start(), WAIT)  # the clock stands still: a wait never ends
    assert not caplog.records  # no wait was announced
    await me.stopped()


async def test_a_predecessor_on_another_host_is_waited_for_at_most_a_lease(db, caplog):
    """Its host cannot be asked: it is gone once it has not beaten for a lease."""
    clock = Clock(step=0.5)
    killed = start("host-a:100", clock.now - 60)
    await stored(db, killed)
    last_beat = clock.now
    await beat(db, killed, last_beat)
    me = guard(db, start("host-b:200", clock.now), clock)
    with caplog.at_level(logging.WARNING, logger="bot.shard_guard"):
        await me.start()
    assert last_beat + LEASE < clock.now <= last_beat + LEASE + 1.5
    (told,) = caplog.records
    assert "host-a:100 (shards 0,1 of 4) served these shards" in told.getMessage()
    await me.stopped()


async def test_a_stop_ends_the_wait_for_a_predecessor_and_the_stop_is_stored(db):
    """SIGTERM while the start waits for another host's process (the clock stands still: the
    wait would never end by itself): the start ends at once, and its row reads as stopped."""
    clock = Clock()
    other = start("host-a:100", clock.now - 60)
    await stored(db, other)
    await beat(db, other, clock.now)
    me = guard(db, start("host-b:200", clock.now), clock)
    stopping = asyncio.Event()
    starting = asyncio.create_task(me.start(stopping))
    await eventually(lambda: other.incarnation in me._seen, what="the guard to read the other")
    stopping.set()
    await asyncio.wait_for(me.start_ended(), WAIT)
    with pytest.raises(StoppedWaiting):
        await starting
    await me.stopped()
    stopped = {r.name: r.stopped_at for r in await processes.reports(db)}
    assert stopped["host-b:200"] == clock.now and stopped["host-a:100"] is None


@pytest.mark.parametrize(
    ("scope", "started"),
    [((4, (2, 3)), -3600.0), ((4, (0, 1)), +5.0)],
    ids=["other shards", "started later"],
)
async def test_a_process_on_other_shards_or_started_later_is_no_reason_to_wait(
    db, caplog, scope, started
):
    clock = Clock()
    other = start("host-a:100", clock.now + started, scope=scope)
    await stored(db, other)
    await beat(db, other, clock.now)
    me = guard(db, start("host-b:200", clock.now), clock)
    with caplog.at_level(logging.WARNING, logger="bot.shard_guard"):
        await asyncio.wait_for(me.start(), WAIT)  # the clock stands still: a wait never ends
    assert not caplog.records
    await me.stopped()


async def test_a_clean_stop_is_stored_and_a_start_after_it_does_not_wait(db, caplog):
    clock = Clock()
    first = guard(db, start("host-a:100", clock.now - 60), clock)
    await first.start()
    await first.stopped()
    (report,) = await processes.reports(db)
    assert report.stopped_at == clock.now
    second = guard(db, start("host-b:200", clock.now), clock)
    with caplog.at_level(logging.WARNING, logger="bot.shard_guard"):
        await asyncio.wait_for(second.start(), WAIT)
    assert not caplog.records
    await second.stopped()


async def test_a_running_process_that_finds_an_earlier_live_one_on_its_shards_stops(db):
    """Two started in the same instant, or one whose database stalled past a lease and came
    back: the later start stops, naming the earlier."""
    clock = Clock()
    me = guard(db, start("host-b:200", clock.now), clock, lease=0.3)  # a beat every 0.1 s
    heard: list[ShardsTaken] = []
    me.on_taken = heard.append
    await me.start()
    earlier = start("host-a:100", clock.now - 1)
    await stored(db, earlier)
    await eventually(lambda: earlier.incarnation in me._seen, what="a beat to read it")
    await beat(db, earlier, clock.now + 1)  # it runs
    await eventually(lambda: heard, what="the guard to stop this process")
    assert me.taken is heard[0]
    assert str(heard[0]).startswith("stopping: another process of the bot, host-a:100")
    await me.stopped()
