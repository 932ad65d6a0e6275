"""Group commit: many tables' writes in one transaction, each caller told when it is durable.

Every accepted action must be in SQLite before its player sees the effect. Committing each
action alone costs one transaction per click; under load a single writer that commits whatever
has queued meanwhile keeps latency low and throughput high, and a caller still awaits the commit
of its own write before it replies.

A write is a `work` coroutine function (run in the batch's transaction, in the order queued)
and/or plain `rows`: (sql, parameters) pairs, which cost less: the rows of a whole batch are
grouped by statement and each statement runs once with `executemany`.

Where the batch runs: every call into aiosqlite is a hop to its thread and back, and each hop
must win the GIL back from the event loop (up to the 5 ms switch interval when the loop is
busy); recording a finished hand takes some thirty statements. So for a database file the writer
keeps its own sqlite3 connection (WAL lets it write while the bot's aiosqlite connection reads)
and runs each batch on it directly, in the event loop's thread: a batch of a thousand game
actions is a few milliseconds of SQLite, with no thread hop at all. Each `work` gets a
`Database` look-alike whose statements run at once on that connection. The loop must never
wait inside SQLite for another connection's lock (that connection's transaction may need the
loop to finish), so the writer's connection has no busy timeout: `BEGIN IMMEDIATE` is retried
asynchronously while another connection writes, and once it succeeds WAL lets nothing else
block the batch. SQLite's automatic checkpoint would also run in the committing connection,
copying the WAL into the database and syncing it to disk in the loop's thread: the writer turns
it off for its connection and, at most once a second while it writes, runs a passive checkpoint
through the bot's aiosqlite connection, in that connection's thread. An in-memory database
cannot be opened twice, so there the batch runs on the bot's aiosqlite connection, statement by
statement.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

from bot.storage.database import Database, Params
from bot.storage.errors import WriterClosed

log = logging.getLogger(__name__)

Write = Callable[[Database], Awaitable[Any]]
Row = tuple[str, Sequence[Any]]

BUSY_TIMEOUT = 5.0  # seconds to wait for another connection's write to end
BUSY_RETRY = 0.002  # seconds between tries meanwhile
CHECKPOINT_EVERY = 1.0  # seconds between checkpoints while the writer commits


class _Item:
    __slots__ = ("work", "rows", "future")

    def __init__(
        self, work: Write | None, rows: Sequence[Row], future: asyncio.Future[Any]
    ) -> None:
        self.work = work
        self.rows = rows
        self.future = future


_STOP = None  # queued by close(): the writer commits what is ahead of it, then ends


class _Direct:
    """The part of `Database` that repository functions use, on a plain sqlite3 connection.

    Its coroutines run their statement at once and never suspend. It is used only inside the
    batch's transaction, so `transaction()` is a savepoint.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self._depth = 0

    @property
    def in_transaction(self) -> bool:
        return True

    @asynccontextmanager
    async def transaction(self, *, read_only: bool = False) -> AsyncIterator[_Direct]:
        self._depth += 1
        savepoint = f"sp_{self._depth}"
        self._conn.execute(f"SAVEPOINT {savepoint}")
        try:
            yield self
        except BaseException:
            self._conn.execute(f"ROLLBACK TO {savepoint}")
            self._conn.execute(f"RELEASE {savepoint}")
            raise
        else:
            self._conn.execute(f"RELEASE {savepoint}")
        finally:
            self._depth -= 1

    async def execute(self, sql: str, params: Params = ()) -> int:
        return self._conn.execute(sql, params).lastrowid or 0

    async def execute_rowcount(self, sql: str, params: Params = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self._conn.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        return self._conn.execute(sql, params).fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    async def fetchval(self, sql: str, params: Params = (), default: Any = None) -> Any:
        row = self._conn.execute(sql, params).fetchone()
        return default if row is None else row[0]


class BatchWriter:
    """Runs queued writes in batches, one transaction per batch.

    In a batch, every `work` runs first, in the order queued; then every row, grouped by its
    statement (statements in the order first queued, rows of one statement in the order queued).
    A writer whose rows depend on another statement's rows of the same batch must use `work`.
    """

    def __init__(self, db: Database, max_batch: int = 2000) -> None:
        self.db = db
        self.max_batch = max_batch
        self._queue: asyncio.Queue[_Item | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._direct = str(db.path) != ":memory:"
        self._conn: sqlite3.Connection | None = None  # the writer's own connection
        self._checkpoint: asyncio.Task[None] | None = None
        self._checkpointed = time.monotonic()
        self.batches = 0
        self.writes = 0
        self._closed = False

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="euchre-batch-writer")

    async def write(self, work: Write | None = None, rows: Sequence[Row] = ()) -> Any:
        """Queue `work(db)` and/or `rows`, and wait until the transaction holding them commits.

        Returns:
            What `work` returned (None without a work).

        Raises:
            Whatever `work` or a row raised; the rest of its batch is committed without it.
        """
        if self._closed:
            # A request that reaches the bot as it stops is refused, not left waiting for ever.
            raise WriterClosed("the bot is restarting: please try again in a moment")
        self.start()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Item(work, rows, future))
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
            await self._commit(batch)
            if stop:
                return

    async def _commit(self, batch: list[_Item]) -> None:
        try:
            if self._direct:
                results = await self._commit_here(batch)
            else:
                results = await self._commit_on(batch)
        except Exception as error:
            if len(batch) == 1:
                if not batch[0].future.done():
                    batch[0].future.set_exception(error)
                return
            log.warning(
                "a batch of %d writes failed (%s); committing them one by one", len(batch), error
            )
            for item in batch:
                await self._commit([item])
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

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.db.path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run elsewhere: see the module
        conn.execute("PRAGMA cache_size=-32768")  # as the main connection: index pages stay cached
        return conn

    def _after_commit(self) -> None:
        """Start a passive checkpoint on the bot's connection when one is due."""
        now = time.monotonic()
        running = self._checkpoint is not None and not self._checkpoint.done()
        if running or now - self._checkpointed < CHECKPOINT_EVERY:
            return
        self._checkpointed = now
        self._checkpoint = asyncio.create_task(self._run_checkpoint(), name="euchre-wal-checkpoint")

    async def _run_checkpoint(self) -> None:
        try:
            await self.db.fetchone("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:
            log.warning("a WAL checkpoint failed", exc_info=True)

    async def _begin(self, conn: sqlite3.Connection) -> None:
        """`BEGIN IMMEDIATE`, waiting (without blocking the loop) while another connection writes."""
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                if time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(BUSY_RETRY)

    async def _commit_here(self, batch: list[_Item]) -> list[Any]:
        """One batch, one transaction, on the writer's own connection."""
        if self._conn is None:
            self._conn = self._connect()
        conn = self._conn
        await self._begin(conn)
        direct = _Direct(conn, self.db.path)
        try:
            # `_Direct` has every method repository functions use, so it stands in for the
            # Database they are written for.
            db = cast(Database, direct)
            results = [await item.work(db) if item.work is not None else None for item in batch]
            for sql, rows in self._grouped(batch).items():
                conn.executemany(sql, rows)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self._after_commit()
        return results

    async def _commit_on(self, batch: list[_Item]) -> list[Any]:
        """One batch, one transaction, on the bot's own connection (an in-memory database)."""
        async with self.db.transaction():
            results = [
                await item.work(self.db) if item.work is not None else None for item in batch
            ]
            for sql, rows in self._grouped(batch).items():
                await self.db.executemany(sql, rows)
        return results

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
        if self._checkpoint is not None:
            await self._checkpoint
            self._checkpoint = None
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
