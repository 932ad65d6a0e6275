"""The garbage collector, settled for a process that holds many long-lived tables.

CPython's oldest generation is collected whenever it has grown by a quarter, and each of those
collections scans every object the process holds: with a thousand tables in play that is
about a second in which no click is answered, several times a minute (`bench/hands.py` prints
the pauses). Settling collects everything once and then freezes what survived into the
permanent generation, which later collections skip; they then scan only what is newer.

A frozen object that later becomes garbage in a reference cycle would never be collected, so
the settling is redone at an interval: it thaws, collects everything (one full pause, once per
interval) and freezes again.

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


async def keep_settled(every: float = SETTLE_EVERY) -> None:
    """Settle now and then every `every` seconds, until cancelled."""
    while True:
        settle()
        await asyncio.sleep(every)
