"""`python -m bot`, with every REST request stamped with the moment it left the bot.

bench/shards.py starts its bot processes with this instead of `python -m bot` (the same bot,
settings and command line). The stamp is the bot's `time.monotonic()` in a request header
(`HEADER`); on one machine that is the fake Discord's clock too (Linux's CLOCK_MONOTONIC is
system-wide), and the fake reads it (`FakeDiscord.sent_at_header`). So what is measured of the
bot's requests, how close together they left (Discord's global limit) and when an interaction
was answered, is what the bot did, not when the fake's busy event loop got round to reading it.

The stamp is put on in aiohttp's `on_request_start`, by a trace added after the bot's own: the
bot's REST budget (`bot/rest_budget.py`) has let the request go by then, and discord.py's
connector has no connection limit, so what follows until the bytes are written is the bot's
own event loop getting to it.

With `BENCH_PROBE` set to a file, the process also writes there how late its event loop woke a
sleeper (`lag <monotonic time> <seconds>`, every 50 ms) and each pause of its collector (`gc
<monotonic time> <generation> <seconds>`): what a stall of the bot is made of. An experiment,
not the bot: with `BENCH_FREEZE_EVERY` seconds as well, it freezes what the collector tracks that
often (`gc.freeze()`), to show what the bot's pauses would be if what it keeps were out of the
collector's sight sooner than `bot/collector.py`'s settling (every ten minutes) puts it there.
"""

from __future__ import annotations

import asyncio
import gc
import os
import runpy
import time
from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any

import aiohttp

HEADER = "X-Bench-Sent-At"


async def _stamp(
    session: aiohttp.ClientSession,
    context: SimpleNamespace,
    params: aiohttp.TraceRequestStartParams,
) -> None:
    if "/api/" in params.url.path:
        params.headers[HEADER] = repr(time.monotonic())


def install() -> None:
    """Every `aiohttp.ClientSession` made from now on stamps its REST requests."""
    original = aiohttp.ClientSession.__init__

    def init(self: aiohttp.ClientSession, *args: Any, **kwargs: Any) -> None:
        trace = aiohttp.TraceConfig()
        trace.on_request_start.append(_stamp)
        kwargs["trace_configs"] = [*(kwargs.get("trace_configs") or ()), trace]
        original(self, *args, **kwargs)

    aiohttp.ClientSession.__init__ = init  # type: ignore[method-assign]


class Probe:
    """Writes the event loop's lag and the collector's pauses to a file, as they come."""

    EVERY = 0.05

    def __init__(self, path: str, freeze_every: float = 0.0) -> None:
        self.out = open(path, "w")  # for the process's life
        self.freeze_every = freeze_every
        self._started = 0.0
        gc.callbacks.append(self._collected)

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._started
            self.out.write(f"gc {time.monotonic():.4f} {info['generation']} {pause:.5f}\n")

    async def run(self) -> None:
        frozen = time.monotonic()
        while True:
            start = time.monotonic()
            if self.freeze_every and start - frozen >= self.freeze_every:
                gc.freeze()
                frozen = start
            await asyncio.sleep(self.EVERY)
            now = time.monotonic()
            self.out.write(f"lag {now:.4f} {now - start - self.EVERY:.5f}\n")
            if int(now) != int(start):
                self.out.flush()


def probe_loop(path: str) -> None:
    """Runs a `Probe` beside what `asyncio.run` runs (the bot's `serve`)."""
    original = asyncio.run

    def run(main: Coroutine[Any, Any, Any], **kwargs: Any) -> Any:
        async def probed() -> Any:
            freeze_every = float(os.environ.get("BENCH_FREEZE_EVERY") or 0)
            task = asyncio.create_task(Probe(path, freeze_every).run())
            try:
                return await main
            finally:
                task.cancel()

        return original(probed(), **kwargs)

    asyncio.run = run  # type: ignore[assignment]


if __name__ == "__main__":
    install()
    if os.environ.get("BENCH_PROBE"):
        probe_loop(os.environ["BENCH_PROBE"])
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
