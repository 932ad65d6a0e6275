"""This process's share of Discord's global REST budget, spent in order.

Discord allows a bot 50 REST requests a second in all, whatever the number of its processes
(interaction responses and follow-ups aside: they are not bound to that limit). A bot split over
processes must share it, or each process may go past it on its own while the sum is over; then
every process gets global 429s. Each process therefore keeps to its share of `REST_BUDGET`
(40 a second by default, a margin under Discord's 50): the share of the bot's shards it runs.
Behind a REST proxy that keeps the global limit for every process (`DISCORD_API_BASE`),
`REST_BUDGET=0` turns this off.

The budget is a GCRA ("virtual scheduling"): each request takes the next slot, 1/rate seconds
after the one before, and up to `burst` requests may go at once after a quiet spell. A slot is
taken before the request waits, so requests leave in the order they asked. The slots keep the
rate only while the event loop keeps time: after a stall (a long collection, a busy machine)
every request whose slot passed meanwhile wakes at once, so a request also waits while `rate +
burst` have left in the last second (`depart`). When the bot stops, requests still waiting for
their slot are dropped (`close`), not sent all at once.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

from bot.rerun import woken

# Requests that Discord does not count against the global limit.
EXEMPT_PATHS = ("/interactions/", "/webhooks/")
# Discord's global limit: REST requests a second for the whole bot, over all its processes.
DISCORD_GLOBAL_LIMIT = 50


def is_rest(path: str) -> bool:
    """Whether a URL path is a request to Discord's REST API (not the gateway, not the CDN)."""
    return "/api/" in path


def counts_globally(path: str) -> bool:
    """Whether a REST request counts against the bot's global limit."""
    return is_rest(path) and not any(part in path for part in EXEMPT_PATHS)


def process_share(
    budget: float, shard_count: int | None, shard_ids: tuple[int, ...] | None
) -> float:
    """The requests per second this process may send: its shards' share of the bot's budget."""
    if shard_count is None or shard_ids is None:
        return budget  # one process runs every shard
    return budget * len(shard_ids) / shard_count


def process_burst(budget: float, share: float) -> int:
    """How many requests a process with this share of `budget` may send at once after a quiet
    spell.

    A budget lets at most its rate plus its burst leave in any one second, and every process
    may burst in the same second (many tables starting at once, after a quiet night). So the
    bursts of all the processes together must fit in the margin between the budget and
    Discord's 50: half of it, shared as the budget is (the other half for requests that reach
    Discord closer together than they left). Never more than the share itself, at least one.
    """
    margin = max(0.0, DISCORD_GLOBAL_LIMIT - budget) / 2
    return max(1, min(int(share), int(margin * share / budget)))


class BudgetClosed(Exception):
    """The bot is stopping: a request still waiting for its slot is not sent."""


class RestBudget:
    """A rate in requests per second, spent in order; `acquire` waits for this request's slot."""

    def __init__(
        self,
        rate: float,
        burst: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate <= 0:
            raise ValueError("a budget needs a positive rate")
        self.rate = rate
        self.burst = max(1, int(rate) if burst is None else burst)
        self._clock = clock
        # Set by `release` (what still waits goes at once) or `close` (what still waits is
        # dropped): either way no request waits any more.
        self._released = asyncio.Event()
        self._closed = False
        self._next = 0.0  # when the next slot is free, ignoring the burst allowance
        self._departed: collections.deque[float] = collections.deque()  # in the last second
        self.waited = 0.0  # seconds requests have waited in all (for the benchmarks)

    def reserve(self) -> float:
        """Take the next slot; the seconds to wait before sending."""
        now = self._clock()
        slot = max(self._next, now)
        self._next = slot + 1.0 / self.rate
        return max(0.0, slot - now - (self.burst - 1) / self.rate)

    def depart(self) -> float:
        """0 if a request whose slot has come may leave now (it is counted as gone), else the
        seconds until it may: no more than `rate + burst` leave in any second by the clock,
        what the slots allow when they are kept. After a stall of the event loop, the requests
        whose slots passed meanwhile would otherwise all leave together (up to 54 counted in
        one second from a process whose share is 20, at 2,000 tables in bench/shards.py)."""
        now = self._clock()
        departed = self._departed
        while departed and departed[0] <= now - 1.0:
            departed.popleft()
        if len(departed) >= self.rate + self.burst:
            return departed[0] + 1.0 - now
        departed.append(now)
        return 0.0

    async def acquire(self) -> None:
        """Wait for this request's slot, and until it may leave (at once once the budget is
        released).

        Raises:
            BudgetClosed: the budget was closed (the bot is stopping) before the request could
                leave.
        """
        wait = self.reserve()
        while wait > 0 or (wait := self.depart()) > 0:
            if self._released.is_set():
                if self._closed:
                    raise BudgetClosed("the bot is stopping")
                return
            self.waited += wait
            if not await woken(self._released, wait):
                wait = 0.0  # the time came (else released or closed meanwhile: see above)

    def release(self) -> None:
        """Let every request go without waiting from now on: the bot is stopping, and a request
        still waiting for its slot would find discord.py's session closed."""
        self._released.set()

    def close(self) -> None:
        """The bot is stopping: every request still waiting for its slot, and any asked for
        later that would have to wait, is dropped (`BudgetClosed`) instead of sent. Sent all at
        once they would go over Discord's limit together, as a backlog of hundreds, and race the
        closing of the HTTP session; what they would have shown (table messages) is drawn again
        when the bot starts."""
        self._closed = True
        self._released.set()

    def install(self, trace: aiohttp.TraceConfig) -> None:
        """Make every counted REST request of discord.py's session wait for its slot."""

        async def on_request_start(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestStartParams,
        ) -> None:
            if counts_globally(params.url.path):
                await self.acquire()

        trace.on_request_start.append(on_request_start)
