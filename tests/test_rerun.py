"""A background job run now, or once more right after the run under way (`bot.rerun`)."""

from __future__ import annotations

import asyncio

from bot.rerun import Rerun


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
