"""The garbage collector, settled for a process that holds many long-lived tables.

CPython's oldest generation is collected whenever it has grown by a quarter, and each of those
collections scans every object the process holds: with a thousand tables in play that is
about a second in which no click is answered, several times a minute (`bench/hands.py` prints
the pauses). Settling collects everything once and then freezes what survived into the
permanent generation, which later collections skip; they then scan only what is newer.

A frozen object that later becomes garbage in a reference cycle would never be collected, so
the settling is redone at an interval: it thaws, collects everything (one full pause, once per
interval) and freezes again.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

SETTLE_EVERY = 600.0  # seconds between settlings: one full collection per ten minutes


def settle() -> int:
    """Collect every generation, then freeze the survivors.

    Returns:
        How many objects are frozen.
    """
    start = time.perf_counter()
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
