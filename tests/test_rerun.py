"""A background job run now, or once more right after the run under way (`bot.rerun`)."""

from __future__ import annotations

import asyncio

from bot.rerun import Rerun, woken


async def test_requests_during_a_run_fold_into_one_more_run() -> None:
    runs: list[int] = []
    gate = asyncio.Event()

    async def job() -> bool:
        runs.append(len(runs))
        if len(runs) == 1:
            await gate.wait()
        return True

    rerun = Rerun(job, "test")
    rerun.request()
    await asyncio.sleep(0)
    assert rerun.running and not rerun.settled
    for _ in range(5):
        rerun.request()  # while the first run waits: one more run, not five
    gate.set()
    assert rerun.task is not None
    await rerun.task
    assert runs == [0, 1] and rerun.settled and not rerun.running
    rerun.request()
    await rerun.task
    assert runs == [0, 1, 2] and rerun.settled


async def test_a_job_that_wants_no_more_runs_ends_them() -> None:
    runs = 0
    gate = asyncio.Event()

    async def job() -> bool:
        nonlocal runs
        runs += 1
        await gate.wait()
        return False  # its subject is gone

    rerun = Rerun(job, "test")
    rerun.request()
    await asyncio.sleep(0)
    rerun.request()
    gate.set()
    assert rerun.task is not None
    await rerun.task
    assert runs == 1


async def test_no_run_starts_once_the_bot_is_stopping() -> None:
    async def job() -> bool:
        raise AssertionError("no run was asked to start")

    rerun = Rerun(job, "test")
    rerun.request(start=False)
    assert rerun.task is None and not rerun.settled


async def test_woken_says_whether_the_event_came_or_the_time_ran_out():
    event = asyncio.Event()
    assert await woken(event, 0.01) is False
    event.set()
    assert await woken(event, 5) is True


async def test_a_cancellation_that_comes_as_the_event_is_set_is_never_swallowed():
    """A loop waiting on a wake-up (a scheduler's) is cancelled in the instant it is woken:
    it must end. With `asyncio.wait_for` on Python 3.11 the cancellation was lost, the loop
    went on, and the clean stop that cancelled it waited for ever (a test hung 1 run in 10)."""
    event = asyncio.Event()

    async def scheduler() -> None:
        while True:
            event.clear()
            await asyncio.sleep(0)
            await woken(event, 5)

    task = asyncio.create_task(scheduler())
    await asyncio.sleep(0.01)
    event.set()
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=2)
    assert task in done and task.cancelled()
