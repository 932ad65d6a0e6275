"""The garbage collector, settled for a process that holds many long-lived tables.

CPython's oldest generation is collected whenever it has grown by a quarter, and each of those
collections scans every object the process holds: with a thousand tables in play that is
about a second in which no click is answered, several times a minute (`bench/hands.py` prints
the pauses). Settling collects everything once and then freezes what survived into the
permanent generation, which later collections skip; they then scan only what is newer.

A frozen object that later becomes garbage in a reference cycle would never be collected, so
the settling is redone at an interval: it thaws, collects everything (one full pause, once per
interval) and freezes again.

Tables opened between two settlings (a busy evening's start, or a process taking over a
thousand tables) are not frozen, and every full collection scans them again: `bench/shards.py`
at 2,000 tables saw pauses of 1.8-5.4 s, over Discord's 3 s for answering a click. So a full
collection that was slow (`SLOW_FULL`) is followed, within a second, by a freeze of what it
left: the survivors, which the next full collections then skip. The freeze collects nothing
(what was allocated in that second is frozen too, and waits for the next settling).

The youngest generation is collected less often than CPython's default (`YOUNG_THRESHOLD`):
each action builds and drops many small containers, and most are freed by their reference
counts long before a collection would look at them.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

SETTLE_EVERY = 600.0  # seconds between settlings: one full collection per ten minutes
# Seconds a full collection may take before what it left is frozen at once.
SLOW_FULL = 0.1
# Container allocations (less those freed) between two collections of the youngest generation.
# At CPython's 700, `bench/tables.py --tables 300 --points 10 --think 0` collected about 485
# times in 7 s (0.6-0.8 s of them); at 10,000, 15 times (0.1 s), and an action took 87-101 us
# of CPU instead of 118-125 us. Only garbage held in reference cycles waits longer to be freed.
YOUNG_THRESHOLD = 10_000


def tune() -> None:
    """Collect the youngest generation every `YOUNG_THRESHOLD` allocations (the older ones as
    CPython does, relative to it)."""
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)


def settle() -> int:
    """Collect every generation, then freeze the survivors.

    Returns:
        How many objects are frozen.
    """
    start = time.perf_counter()
    tune()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.info(
        "memory settled: %d objects frozen in %.0f ms", frozen, (time.perf_counter() - start) * 1000
    )
    return frozen


class _FullCollections:
    """Watches the collector (`gc.callbacks`) for a slow collection of the oldest generation."""

    def __init__(self) -> None:
        self.started = 0.0
        self.slow = False

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self.started = time.perf_counter()
        elif time.perf_counter() - self.started >= SLOW_FULL:
            self.slow = True


async def keep_settled(every: float = SETTLE_EVERY, look_every: float = 1.0) -> None:
    """Settle now and then every `every` seconds, and freeze what a slow full collection left
    (looked for every `look_every` seconds), until cancelled."""
    watch = _FullCollections()
    gc.callbacks.append(watch)
    try:
        settle()
        settled = time.monotonic()
        watch.slow = False  # the settling's own collection
        while True:
            await asyncio.sleep(look_every)
            if time.monotonic() - settled >= every:
                settle()
                settled = time.monotonic()
                watch.slow = False
            elif watch.slow:
                watch.slow = False
                gc.freeze()
                log.info("a full collection was slow: %d objects frozen", gc.get_freeze_count())
    finally:
        gc.callbacks.remove(watch)
