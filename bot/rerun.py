"""Background tasks: a job that runs now, or once more right after the run under way, the
done-callback that logs a background task's crash, and a wait for a wake-up or a timeout that
never swallows a cancellation.

Redrawing a night's standings and syncing a league's roles are both asked for after every
result, often several times while one run is still going. Each run covers everything stored
before it starts, so the requests that come in meanwhile fold into one more run, never a queue
of them and never two runs at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)


class Rerun:
    """One job's runs: `request()` starts a run, or asks for one more after the current one.

    Args:
        job: one run; it returns False when no further run is wanted (its subject is gone).
            It handles its own errors: one that escapes ends the runs, and is logged.
        name: the task's name, for logs.
    """

    def __init__(self, job: Callable[[], Awaitable[bool]], name: str) -> None:
        self.job = job
        self.name = name
        self.task: asyncio.Task[None] | None = None
        self.again = False
        self.asked = 0  # requests made
        self.done = 0  # requests covered by a finished run

    def request(self, start: bool = True) -> None:
        """Ask for a run. With `start` False (the bot is stopping) no new task is started; a
        run under way still runs once more."""
        self.asked += 1
        if self.running:
            self.again = True
            return
        if not start:
            return
        self.again = False
        self.task = asyncio.create_task(self._runs(), name=self.name)
        self.task.add_done_callback(log_task_end)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def settled(self) -> bool:
        """Whether every request made so far is covered by a finished run."""
        return self.done == self.asked

    async def _runs(self) -> None:
        while True:
            self.again = False
            asked = self.asked  # this run covers every request made before it starts
            more = await self.job()
            self.done = asked
            if not self.again or not more:
                return


def log_task_end(task: asyncio.Task[Any]) -> None:
    """Done-callback of background tasks: a crash is logged, never lost silently."""
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """Wait until `event` is set or `seconds` pass: whether it was set.

    On Python 3.11, `asyncio.wait_for(event.wait(), seconds)` swallows a cancellation that
    comes as the event is set: the waiting task goes on as if woken, and a loop around it never
    ends, so whoever cancelled it (a clean stop) waits for ever. `asyncio.timeout` tells its own
    cancellation from another's.
    """
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True
