"""One running process per shard: a process started on shards another live process serves is
refused in one line, and a restart after a kill -9 is not held up.

Lease owners are named after their shards (`Settings.lease_owner`), so that a process started
again takes its tables back at once; but two processes started with the same shards (or shards
that share guilds under another `SHARD_COUNT`) would then take tables from each other without a
word. So each start of a process registers itself (`bot/storage/processes.py`: a unique
incarnation and the shards it was started with) before it loads a table, and beats every third
of a lease from then on. Before loading, it looks at every other start not stopped cleanly that
registered before it and serves a guild it serves too (`scopes_overlap`):

- one whose beat is older than a lease has stopped without a word (killed, cut off): no wait;
- one on this host whose process id is no longer there has been killed (systemd's restart after
  a kill -9, which must not wait): no wait;
- any other is watched: a beat that changes means it runs, and this start is refused
  (`ShardsTaken`, exit code 2, which the README's units do not restart); no beat for a lease
  means it is gone. So a process on another host restarted at once after a kill -9 waits at
  most a lease after its predecessor's last beat (with systemd's `RestartSec=5`, about one
  second more).

Of two overlapping starts the later one always yields, so the process already serving keeps its
tables. The watch goes on while the process runs: an earlier start on shared shards whose beat
changes (two started in the same instant, or one whose database stalled past a lease and came
back) stops this one the same way, after a clean stop that lets its leases go.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from bot.config import Settings, scope_text, scopes_overlap
from bot.rerun import log_task_end, woken
from bot.storage import processes
from bot.storage.database import Database
from bot.storage.errors import WriterClosed
from bot.storage.processes import Start

log = logging.getLogger(__name__)

Write = Callable[[Callable[[Database], Awaitable[Any]]], Awaitable[Any]]


class ShardsTaken(Exception):
    """Another process of the bot runs on shards this one was started with; the message names
    it and says what to change."""


class StoppedWaiting(Exception):
    """The process was stopped (SIGTERM, Ctrl-C) while its start waited to see whether an
    earlier process on its shards still runs: the start ends there, before any table is loaded
    or the gateway is contacted."""


def _runs_here(pid: int) -> bool:
    """Whether a process of this id runs on this host (in this pid namespace)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (PermissionError): it runs
        return True
    return True


class ShardGuard:
    """This start's registration, heartbeat and watch over the starts that share its shards.

    Args:
        me: this start (`started_at` orders starts: the earlier one keeps its shards).
        db: the database, for reads.
        write: how writes are made (the tables' batch writer, as every write of the bot).
        lease: seconds of a table's lease: a start that has not beaten for that long is gone.
        clock: Unix seconds (shared by every process, as the leases' clock).
        poll: seconds between two looks while a start waits to see whether another runs.
    """

    def __init__(
        self,
        me: Start,
        db: Database,
        write: Write,
        *,
        lease: float,
        clock: Callable[[], float] = time.time,
        poll: float = 0.25,
    ) -> None:
        self.me = me
        self.db = db
        self._write = write
        self.lease = lease
        self.clock = clock
        self.poll = poll
        # What stopped this process while it ran (a beat found an earlier live start), if any.
        self.taken: ShardsTaken | None = None
        self.on_taken: Callable[[ShardsTaken], object] = lambda error: None
        self._seen: dict[str, float] = {}  # each earlier overlapping start's beat, as last read
        self._beating: asyncio.Task[None] | None = None
        self._registered = False  # this start's row is stored (and not dropped)
        self._running = False  # past `start`: the beats watch
        self._start_over = asyncio.Event()  # set once a `start` has returned or raised
        self._starting = False  # in `start`

    async def start(self, stopping: asyncio.Event | None = None) -> None:
        """Register this start, beat from now on, and return once no other live process serves
        its shards.

        Args:
            stopping: set when the process is stopped: a wait for another process ends at once.

        Raises:
            ShardsTaken: another process runs on these shards (this start's row is dropped).
            StoppedWaiting: `stopping` was set (the row stays, for `stopped` to mark).
        """
        self._starting = True
        try:
            await self._start(stopping or asyncio.Event())
        finally:
            self._start_over.set()

    async def _start(self, stopping: asyncio.Event) -> None:
        me = self.me
        await self._write(lambda db: processes.register(db, me))
        self._registered = True
        self._beating = asyncio.create_task(self._keep_beating(), name="shard-guard")
        self._beating.add_done_callback(log_task_end)
        told = False
        try:
            while not stopping.is_set() and (
                waiting := self._judge(await processes.running(self.db), at_start=True)
            ):
                if not told:
                    other = waiting[0]
                    log.warning(
                        "%s (%s) served these shards and beat %.0f s ago: waiting up to %.0f s"
                        " to see whether it still runs",
                        other.name,
                        scope_text(other.scope),
                        self.clock() - other.beat_at,
                        self.lease,
                    )
                    told = True
                await woken(stopping, self.poll)
        except ShardsTaken:
            await self.stop_beating()
            await self._write(lambda db: processes.forget(db, me))
            self._registered = False
            raise
        if stopping.is_set():
            raise StoppedWaiting("stopped while starting")
        self._running = True

    def _judge(self, starts: list[Start], at_start: bool = False) -> list[Start]:
        """The earlier starts on shared shards still to be watched; raises `ShardsTaken` for
        one whose beat changed since it was last read (it runs)."""
        me, now = self.me, self.clock()
        host, _ = me.host_and_pid
        waiting = []
        for other in starts:
            if other.name == me.name or not scopes_overlap(other.scope, me.scope):
                continue
            if (other.started_at, other.incarnation) >= (me.started_at, me.incarnation):
                continue  # a later start: it yields to this one
            seen = self._seen.get(other.incarnation)
            self._seen[other.incarnation] = other.beat_at
            if seen is not None and seen != other.beat_at:
                raise self._refusal(other, now, "refusing to start" if at_start else "stopping")
            if not at_start or now - other.beat_at > self.lease:
                continue
            there, pid = other.host_and_pid
            if there == host and pid is not None and pid > 0 and not _runs_here(pid):
                continue  # killed (a kill -9, the out-of-memory killer): restarted here
            waiting.append(other)
        return waiting

    def _refusal(self, other: Start, now: float, lead: str) -> ShardsTaken:
        return ShardsTaken(
            f"{lead}: another process of the bot, {other.name} ({scope_text(other.scope)},"
            f" started {max(0.0, now - other.started_at):.0f} s ago), runs on shards of this"
            f" one ({scope_text(self.me.scope)}); every process needs the same SHARD_COUNT and"
            " SHARD_IDS of its own"
        )

    async def _keep_beating(self) -> None:
        me = self.me
        while True:
            await asyncio.sleep(self.lease / 3)
            now = self.clock()

            async def work(db: Database, now: float = now) -> tuple[bool, list[Start]]:
                return await processes.beat(db, me, now), await processes.running(db)

            try:
                mine, starts = await self._write(work)
            except WriterClosed:
                return
            except Exception:  # a locked or unreachable database: the next beat tries again
                log.warning("this process's heartbeat could not be stored", exc_info=True)
                continue
            if not self._running:
                continue  # `start` watches meanwhile
            try:
                if not mine:
                    raise ShardsTaken(
                        f"stopping: another process named {me.name} replaced this one's report:"
                        " two processes run with the same host name and process id"
                    )
                self._judge(starts)
            except ShardsTaken as error:
                self.taken = error
                self.on_taken(error)
                return

    async def stop_beating(self) -> None:
        """Stop the heartbeat (before the writer closes)."""
        task, self._beating = self._beating, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def start_ended(self) -> None:
        """Until a `start` under way has returned or raised (a stop sets its `stopping` first,
        so it ends at its next look), before the database it reads is closed."""
        if self._starting:
            await self._start_over.wait()

    async def stopped(self) -> None:
        """A clean stop, stored on the database directly (the writer is closed by then): no
        start waits for this one, and `/admin status` shows it as stopped."""
        await self.stop_beating()
        if not self._registered:
            return  # refused, or never started
        async with self.db.transaction():
            await processes.stopped(self.db, self.me, self.clock())


def guard_for(
    settings: Settings, name: str, started: float, db: Database, write: Write, *, lease: float
) -> ShardGuard:
    """The guard of a process of the bot named `name` (host:pid), started at `started` (Unix
    seconds: the time its reports give, so that no report changes the order of two starts)."""
    me = Start(
        name=name,
        incarnation=uuid.uuid4().hex,
        scope=settings.shard_scope,
        lease_owner=settings.lease_owner,
        started_at=started,
        beat_at=time.time(),
    )
    return ShardGuard(me, db, write, lease=lease)
