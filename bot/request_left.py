"""Whether a REST request of this task left for Discord.

A request given up before its headers were sent (it waited for the REST budget, or for a
connection) changed nothing at Discord; one given up after may have. The table messages ask
this of a ping given up as its turn moved on: only a ping that may have been posted is looked
for in the channel (one more request, while the budget is short).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from types import SimpleNamespace

import aiohttp

# The requests of the task (and of tasks it starts) being watched: True once one left.
_left: ContextVar[list[bool] | None] = ContextVar("request_left", default=None)


@contextlib.contextmanager
def watch() -> Iterator[list[bool]]:
    """Watch the requests made in this block: the list yielded is non-empty once one left."""
    left: list[bool] = []
    token = _left.set(left)
    try:
        yield left
    finally:
        _left.reset(token)


def install(trace: aiohttp.TraceConfig) -> None:
    """Note each request of discord.py's session whose headers are sent."""

    async def on_request_headers_sent(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestHeadersSentParams,
    ) -> None:
        left = _left.get()
        if left is not None:
            left.append(True)

    trace.on_request_headers_sent.append(on_request_headers_sent)
