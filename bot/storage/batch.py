"""Group commit: many tables' writes in one transaction, each caller told when it is durable.

Every accepted action must be stored before its player sees the effect. Committing each action
alone costs one transaction per click; under load a single writer that commits whatever has
queued meanwhile keeps latency low and throughput high, and a caller still awaits the commit of
its own write before it replies.

A write is a `work` coroutine function (run in the batch's transaction, in the order queued)
and/or plain `rows`: (sql, parameters) pairs, which cost less: the rows of a whole batch are
grouped by statement and each statement runs once with `executemany`. A write may also hand
values to a function that stores many at once (`together`, such as `results.record_hands` with a
finished deal): each such function runs once a batch, before the works, with every value of
the batch in the order queued, so a deal's results cost a few statements a batch.

Where a batch runs is the backend's choice (`Database.batch`): SQLite's uses a connection of
its own in the event loop's thread (see ``bot/storage/sqlite.py``), PostgreSQL's a transaction on
the bot's connection. On PostgreSQL a batch is committed as up to three transactions (`_parts`):
the moves of play, which lock only their own tables' rows; the results of deals, games and
matches, which lock only their servers' (see ``bot/storage/postgres.py``); then whatever else it
holds, under the database-wide write lock. So the moves never wait for another process's
results, and results wait only for a transaction that locks the whole database or their own
server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.storage import leases
from bot.storage.database import Database, Locking
from bot.storage.errors import RESTARTING, AlreadyApplied, LeaseLost, WriterClosed

log = logging.getLogger(__name__)

Write = Callable[[Database], Awaitable[Any]]
Row = tuple[str, Sequence[Any]]
# A function that stores many values at once, and the values a write gives it.
Together = tuple[Callable[[Database, list[Any]], Awaitable[Any]], Sequence[Any]]


class _Item:
    __slots__ = ("work", "rows", "together", "future", "fence", "request", "server")

    def __init__(
        self,
        work: Write | None,
        rows: Sequence[Row],
        together: Together | None,
        future: asyncio.Future[Any],
        fence: tuple[int, int] | None,
        request: int | None,
        server: int | None,
    ) -> None:
        self.work = work
        self.rows = rows
        self.together = together
        self.future = future
        self.fence = fence
        self.request = request
        self.server = server

    @property
    def move(self) -> bool:
        """Whether the write is a table's rows alone (a move of play): it touches only rows of
        a table this process holds by lease."""
        return self.work is None and self.together is None and self.fence is not None

    @property
    def results(self) -> bool:
        """Whether the write is a table's and its server's results alone (a deal's, a game's,
        a match's): it locks only that server."""
        return self.server is not None and self.fence is not None


_STOP = None  # queued by close(): the writer commits what is ahead of it, then ends


class BatchWriter:
    """Runs queued writes in batches, one transaction per batch.

    In a batch, each `together` function runs first, once, with the values of all its writes
    in the order queued; then every `work`, in the order queued; then every row, grouped by its
    statement (statements in the order first queued, rows of one statement in the order queued).
    A writer whose rows depend on another statement's rows of the same batch must use `work`.
    """

    def __init__(self, db: Database, max_batch: int = 2000) -> None:
        self.db = db
        self.max_batch = max_batch
        self._queue: asyncio.Queue[_Item | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.writes = 0
        self._closed = False

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="euchre-batch-writer")

    async def write(
        self,
        work: Write | None = None,
        rows: Sequence[Row] = (),
        *,
        together: Together | None = None,
        fence: tuple[int, int] | None = None,
        request: int | None = None,
        server: int | None = None,
    ) -> Any:
        """Queue `work(db)`, `rows` and/or values for a `together` function, and wait until the
        transaction holding them commits.

        Args:
            together: (function, values): ``function(db, values)`` runs once a batch with the
                values of every write that gives it some.
            fence: (table id, fence) when the write is a table's: it is stored only if the
                table's fence is still that one, checked in the same transaction
                (`bot.storage.leases`).
            request: the Discord interaction the write applies, when one asked for it: it is
                stored only if no event of that interaction is stored yet.
            server: with a `fence`: the server whose rows alone `work` and `together` write
                besides the table's (a deal's, a game's or a match's results go to its server's
                totals and leagues), so the write need not lock the whole database.

        Returns:
            What `work` returned (None without a work).

        Raises:
            LeaseLost: the table's fence moved on: another process owns the table now.
            AlreadyApplied: the interaction was applied before.
            Whatever `work` or a row raised; the rest of its batch is committed without it.
        """
        if self._closed:
            # A request that reaches the bot as it stops is refused, not left waiting for ever.
            raise WriterClosed(RESTARTING)
        self.start()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Item(work, rows, together, future, fence, request, server))
        return await future

    async def _run(self) -> None:
        queue = self._queue
        while True:
            first = await queue.get()
            if first is _STOP:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch and not queue.empty():
                item = queue.get_nowait()
                if item is _STOP:
                    stop = True
                    break
                batch.append(item)
            # On SQLite every transaction has the one writer's lock: one is cheapest.
            parts = self._parts(batch) if self.db.dialect == "postgresql" else [(batch, True)]
            for part, locked in parts:
                await self._commit(part, locked)
            if stop:
                return

    @staticmethod
    def _parts(batch: list[_Item]) -> list[tuple[list[_Item], Locking]]:
        """The batch as up to three transactions, each with what it locks: first the tables
        whose writes are rows alone (the moves of play), which lock only those tables' rows;
        then the tables whose writes are their rows and their servers' results, which lock
        only those servers; then the rest (a table's creation or seating, anything without a
        table), which take the database-wide write lock on PostgreSQL (see
        ``bot/storage/postgres.py``). A table's writes all go to the last of these that any of
        them needs, in the order queued, so no table's writes are reordered."""
        worked = {item.fence[0] for item in batch if item.fence and not item.move}
        locking = {
            item.fence[0] for item in batch if item.fence and not (item.move or item.results)
        }
        owned: list[_Item] = []
        results: list[_Item] = []
        rest: list[_Item] = []
        for item in batch:
            table = item.fence[0] if item.fence is not None else None
            if table is None or table in locking:
                rest.append(item)
            elif table in worked:
                results.append(item)
            else:
                owned.append(item)
        servers = frozenset(item.server for item in results if item.server is not None)
        parts: list[tuple[list[_Item], Locking]] = [
            (owned, False),
            (results, servers),
            (rest, True),
        ]
        return [(part, locked) for part, locked in parts if part]

    async def _commit(self, batch: list[_Item], locked: Locking = True) -> None:
        try:
            results = await self._commit_batch(batch, locked)
        except Exception as error:
            if len(batch) == 1:
                if not batch[0].future.done():
                    batch[0].future.set_exception(error)
                return
            log.warning(
                "a batch of %d writes failed (%s); committing them one by one", len(batch), error
            )
            for item in batch:
                await self._commit([item], locked)
            return
        self.batches += 1
        self.writes += len(batch)
        for item, result in zip(batch, results, strict=True):
            if not item.future.done():
                item.future.set_result(result)

    @staticmethod
    def _grouped(batch: list[_Item]) -> dict[str, list[Sequence[Any]]]:
        grouped: dict[str, list[Sequence[Any]]] = {}
        for item in batch:
            for sql, params in item.rows:
                grouped.setdefault(sql, []).append(params)
        return grouped

    @staticmethod
    def _together(
        batch: list[_Item],
    ) -> dict[Callable[[Database, list[Any]], Awaitable[Any]], list[Any]]:
        values: dict[Callable[[Database, list[Any]], Awaitable[Any]], list[Any]] = {}
        for item in batch:
            if item.together is not None:
                store, given = item.together
                values.setdefault(store, []).extend(given)
        return values

    async def _commit_batch(self, batch: list[_Item], locked: Locking = True) -> list[Any]:
        """One batch, one transaction, locking what `locked` says (see `_parts`). A write whose
        table was taken over, or whose interaction was applied before, is left out (its caller
        gets the error) before anything runs."""
        async with self.db.batch(locked=locked) as db:
            refused = await self._refused(db, batch)
            kept = [item for item in batch if id(item) not in refused]
            for store, values in self._together(kept).items():
                await store(db, values)
            results = {
                id(item): await item.work(db) if item.work is not None else None for item in kept
            }
            for sql, rows in self._grouped(kept).items():
                await db.executemany(sql, rows)
        for item in batch:
            error = refused.get(id(item))
            if error is not None and not item.future.done():
                item.future.set_exception(error)
        return [results.get(id(item)) for item in batch]

    @staticmethod
    async def _refused(db: Database, batch: list[_Item]) -> dict[int, Exception]:
        """The writes of the batch that must not be stored, by `id()`, each with its error:
        one statement for the fences and the interactions of the whole batch."""
        tables = [item.fence[0] for item in batch if item.fence is not None]
        requests = [item.request for item in batch if item.request is not None]
        if not tables and not requests:
            return {}
        stored, seen = await leases.checked(db, tables, requests)
        refused: dict[int, Exception] = {}
        for item in batch:
            if item.fence is not None and stored.get(item.fence[0]) != item.fence[1]:
                refused[id(item)] = LeaseLost("another process of the bot serves this table now")
            elif item.request is not None and item.request in seen:
                refused[id(item)] = AlreadyApplied("that was already done")
            elif item.request is not None:
                seen.add(item.request)  # the same interaction twice in one batch: once
        return refused

    async def close(self) -> None:
        """Commit everything queued (and the batch being committed), then stop."""
        self._closed = True
        task = self._task
        if task is not None:
            # The writer may be in the middle of a batch: cancelling it would roll that batch
            # back and leave its callers waiting for ever. Queue a stop behind the writes.
            if not task.done():
                self._queue.put_nowait(_STOP)
            try:
                await task
            except Exception:
                log.exception("the batch writer had stopped on an error")
            finally:
                self._task = None
