"""Group commit: many tables' writes in one transaction, each caller told when it is durable.

Every accepted action must be in SQLite before its player sees the effect. Committing each
action alone costs one fsync-bound transaction per click; under load a single writer task that
commits whatever has queued meanwhile keeps latency low and throughput high, and a caller still
awaits the commit of its own write before it replies.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.storage.database import Database

log = logging.getLogger(__name__)

Write = Callable[[Database], Awaitable[Any]]


class BatchWriter:
    """Runs queued writes in batches, one transaction per batch, in the order queued."""

    def __init__(self, db: Database, max_batch: int = 500) -> None:
        self.db = db
        self.max_batch = max_batch
        self._queue: asyncio.Queue[tuple[Write, asyncio.Future[Any]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.writes = 0

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="euchre-batch-writer")

    async def write(self, work: Write) -> Any:
        """Queue `work(db)` and wait until the transaction holding it has committed.

        Raises:
            Whatever `work` raised; its batch is retried without it.
        """
        self.start()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((work, future))
        return await future

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self.max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._commit(batch)

    async def _commit(self, batch: list[tuple[Write, asyncio.Future[Any]]]) -> None:
        results: list[Any] = []
        try:
            async with self.db.transaction():
                for work, _ in batch:
                    results.append(await work(self.db))
        except Exception as error:  # noqa: BLE001 - one bad write must not lose the others
            if len(batch) == 1:
                if not batch[0][1].done():
                    batch[0][1].set_exception(error)
                return
            log.warning("a batch of %d writes failed (%s); committing them one by one", len(batch), error)
            for item in batch:
                await self._commit([item])
            return
        self.batches += 1
        self.writes += len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)

    async def close(self) -> None:
        """Commit what is queued, then stop."""
        if self._task is None:
            return
        while not self._queue.empty():
            await asyncio.sleep(0)
            batch = []
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            if batch:
                await self._commit(batch)
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass
        self._task = None
