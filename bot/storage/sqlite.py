"""The SQLite backend: one aiosqlite connection on a file in WAL mode, foreign keys on.

The connection runs in autocommit mode at the sqlite3 level (``isolation_level=None``) so that the
only transactions are the ones :class:`bot.storage.database.Database` opens, explicitly.

Batches of writes (``bot/storage/batch.py``) run on a second, plain sqlite3 connection of their
own, in the event loop's thread. Every call into aiosqlite is a hop to its thread and back, and
each hop must win the GIL back from the event loop (up to the 5 ms switch interval when the loop
is busy); recording a finished hand takes some thirty statements. WAL lets the batch connection
write while the aiosqlite connection reads, and a batch of a thousand game actions is then a few
milliseconds of SQLite with no thread hop at all. The loop must never wait inside SQLite for
another connection's lock (that connection's transaction may need the loop to finish), so the
batch connection has no busy timeout: ``BEGIN IMMEDIATE`` is retried asynchronously while another
connection writes, and once it succeeds WAL lets nothing else block the batch. SQLite's automatic
checkpoint would also run in the committing connection, copying the WAL into the database and
syncing it to disk in the loop's thread: the batch connection turns it off and, at most once a
second while it writes, a passive checkpoint runs through the aiosqlite connection, in that
connection's thread. An in-memory database cannot be opened twice, so there batches run on the
aiosqlite connection, statement by statement.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.storage.database import MIGRATIONS_TABLE, Database, Locking, Migration, Params
from bot.storage.errors import DatabaseFileError, IntegrityError, MigrationError
from bot.storage.url import DatabaseUrl

log = logging.getLogger(__name__)

BUSY_MS = 5_000  # how long a statement waits for another connection's lock
OPEN_BUSY_MS = 60_000  # the same while the file is opened and migrated

WAL_RETRY = 0.02  # seconds between tries to switch a file being opened elsewhere to WAL
BUSY_TIMEOUT = 5.0  # seconds a batch waits for another connection's write to end
BUSY_RETRY = 0.002  # seconds between tries meanwhile
CHECKPOINT_EVERY = 1.0  # seconds between checkpoints while batches commit


def _check_place(path: Path) -> None:
    """Refuse a path SQLite cannot make a database of, with a message that says why (SQLite's own
    is "unable to open database file" for all of these)."""
    if path.is_dir():
        raise DatabaseFileError(f"{path} is a directory, not a database file")
    if not path.parent.is_dir():
        raise DatabaseFileError(f"{path}: the directory {path.parent} does not exist")


async def _switch_to_wal(conn: aiosqlite.Connection) -> None:
    """Put the file in WAL mode, waiting while another process opens it.

    Switching takes an exclusive lock that SQLite tries once, without the busy timeout: a
    shard opening the same new file at that moment gets "database is locked" at once (one open
    in thirty did, four processes at a time on a loaded machine). So the switch is retried, up
    to the opening's own wait.
    """
    deadline = time.monotonic() + OPEN_BUSY_MS / 1000
    while True:
        try:
            async with conn.execute("PRAGMA journal_mode=WAL") as cursor:
                row = await cursor.fetchone()
            mode = str(row[0]).lower() if row is not None else ""
            if mode == "wal" or mode == "memory":  # ":memory:" has no WAL and needs none
                return
            error = f"the file stayed in {mode!r} journal mode"
        except sqlite3.OperationalError as locked:
            if "locked" not in str(locked) and "busy" not in str(locked):
                raise
            error = str(locked)
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError(error)
        await asyncio.sleep(WAL_RETRY)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class SqliteDatabase(Database):
    """An SQLite file (or ``:memory:``) behind the :class:`Database` interface."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, url: DatabaseUrl) -> None:
        super().__init__(url)
        self._conn = conn
        assert url.path is not None
        self.path = url.path
        self._writer: sqlite3.Connection | None = None  # the batches' own connection
        self._checkpoint: asyncio.Task[None] | None = None
        self._checkpointed = time.monotonic()

    @classmethod
    async def connect(cls, url: DatabaseUrl, known: list[Migration]) -> SqliteDatabase:
        """Open the file, check it, set it up and migrate it (see :meth:`Database.open`)."""
        path = url.path
        assert path is not None
        if str(path) != ":memory:":
            _check_place(path)
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as error:
            raise DatabaseFileError(f"{path} cannot be opened: {error}") from None
        try:
            conn.row_factory = aiosqlite.Row
            # First: processes opening the file together (shards) wait for each other's locks,
            # even the one that switching to WAL takes, rather than fail at once. While opening
            # they may wait for all of a new file's migrations, which one of them applies: on a
            # loaded machine that took over 5 s ("database is locked"), so the wait is longer
            # until the file is migrated, and 5 s after.
            await conn.execute(f"PRAGMA busy_timeout={OPEN_BUSY_MS}")
            db = cls(conn, url)
            # Before anything writes to the file (WAL mode changes its header): a file from a
            # newer bot, or not a database at all, is refused untouched.
            await db._check_version(known)
            await _switch_to_wal(conn)
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA synchronous=NORMAL")
            # 32 MiB of page cache (the default is 2): leaderboard and /stats pages stay in it.
            await conn.execute("PRAGMA cache_size=-32768")
            await db._migrate(known)
            await db._record_history(known)
            await conn.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        except BaseException as error:
            await conn.close()
            if isinstance(error, sqlite3.DatabaseError):
                # "file is not a database", "database disk image is malformed", ...
                raise DatabaseFileError(
                    f"{path} is not a database the bot can use: {error}"
                ) from None
            raise
        return db

    @property
    def conn(self) -> aiosqlite.Connection:
        """The raw aiosqlite connection; prefer the helpers, which respect transactions."""
        return self._conn

    async def close(self) -> None:
        """Close the connections (waits for a running transaction and checkpoint to end)."""
        if self._checkpoint is not None:
            await self._checkpoint
            self._checkpoint = None
        await super().close()

    async def _close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
        await self._conn.close()

    # ----------------------------------------------------------------- schema
    async def schema_version(self) -> int:
        """The number of the last migration applied (``PRAGMA user_version``)."""
        row = await self.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def _apply(self, migration: Migration) -> None:
        # executescript runs the whole file; wrapping it in BEGIN/COMMIT makes the file, its
        # record and its user_version bump one transaction, so a failed migration leaves no trace.
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.sql}\n;\n"
            f"{MIGRATIONS_TABLE};\n"
            "INSERT INTO schema_migrations (number, name, applied_at)"
            f" VALUES ({migration.number:d}, '{migration.name}', '{_now()}')"
            " ON CONFLICT DO NOTHING;\n"
            f"PRAGMA user_version = {migration.number:d};\n"
            "COMMIT;\n"
        )
        try:
            await self._conn.executescript(script)
        except sqlite3.Error as error:
            if self._conn.in_transaction:
                await self._conn.execute("ROLLBACK")
            # Processes that share the file (shards) may start together: one applied it
            # while this one waited for the write lock.
            if await self.schema_version() >= migration.number:
                log.info("migration %s was applied by another process", migration.name)
                return
            raise MigrationError(f"Migration {migration.name} failed: {error}") from error

    async def _record_history(self, known: list[Migration]) -> None:
        """Fill ``schema_migrations`` for a file migrated before it existed (``user_version``
        alone said how far it was)."""
        version = await self.schema_version()
        exists = await self.fetchval(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        )
        recorded = await self.fetchval("SELECT COUNT(*) FROM schema_migrations") if exists else 0
        if recorded >= version:
            return
        async with self.transaction():
            await self.execute(MIGRATIONS_TABLE)
            await self.executemany(
                "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [(m.number, m.name, _now()) for m in known if m.number <= version],
            )

    # ----------------------------------------------------------------- catalogue
    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
        return [r[0] for r in rows]

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self.fetchall(f"PRAGMA table_info({table})")]

    async def references(self) -> dict[str, set[str]]:
        return {
            table: {r[2] for r in await self.fetchall(f"PRAGMA foreign_key_list({table})")}
            for table in await self.tables()
        }

    # ----------------------------------------------------------------- primitives
    async def _begin(self, read_only: bool, locked: Locking = True) -> None:
        await self._conn.execute("BEGIN" if read_only else "BEGIN IMMEDIATE")

    async def _abandon_begin(self) -> None:
        # A cancelled BEGIN goes on in aiosqlite's thread: the ROLLBACK queued behind it ends
        # the transaction it opens, and is refused (harmlessly) when it opened none.
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass

    async def _commit(self) -> None:
        await self._conn.execute("COMMIT")

    async def _rollback(self) -> None:
        if self._conn.in_transaction:
            await self._conn.execute("ROLLBACK")

    async def _run(self, sql: str, params: Params) -> int:
        try:
            async with self._conn.execute(sql, params) as cursor:
                return cursor.lastrowid or 0
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def _run_rowcount(self, sql: str, params: Params) -> int:
        try:
            async with self._conn.execute(sql, params) as cursor:
                return cursor.rowcount
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def _run_many(self, sql: str, rows: Iterable[Params]) -> None:
        try:
            await self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def _row(self, sql: str, params: Params) -> Any:
        try:
            async with self._conn.execute(sql, params) as cursor:
                return await cursor.fetchone()
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def _rows(self, sql: str, params: Params) -> list[Any]:
        try:
            async with self._conn.execute(sql, params) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    # ----------------------------------------------------------------- batches
    def batch(self, *, locked: Locking = True) -> AbstractAsyncContextManager[Database]:
        """A batch's transaction: on the batch connection for a file, else on this one. (SQLite
        has one writer at a time whatever the rows: `locked` changes nothing.)"""
        if str(self.path) == ":memory:":
            return self.transaction()
        return self._batch_here()

    @asynccontextmanager
    async def _batch_here(self) -> AsyncIterator[Database]:
        if self._writer is None:
            self._writer = self._connect_writer()
        conn = self._writer
        await self._begin_writer(conn)
        try:
            # `_Direct` has every method repository functions use, so it stands in for the
            # Database they are written for.
            yield cast(Database, _Direct(conn))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self._after_commit()

    def _connect_writer(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run elsewhere: see the module
        conn.execute("PRAGMA cache_size=-32768")  # as the main connection: index pages stay cached
        return conn

    async def _begin_writer(self, conn: sqlite3.Connection) -> None:
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

    def _after_commit(self) -> None:
        """Start a passive checkpoint on the aiosqlite connection when one is due."""
        now = time.monotonic()
        running = self._checkpoint is not None and not self._checkpoint.done()
        if running or now - self._checkpointed < CHECKPOINT_EVERY:
            return
        self._checkpointed = now
        self._checkpoint = asyncio.create_task(self._run_checkpoint(), name="euchre-wal-checkpoint")

    async def _run_checkpoint(self) -> None:
        try:
            await self.fetchone("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:
            log.warning("a WAL checkpoint failed", exc_info=True)


class _Direct:
    """The part of `Database` that repository functions use, on a plain sqlite3 connection.

    Its coroutines run their statement at once and never suspend. It is used only inside a
    batch's transaction, so `transaction()` is a savepoint.
    """

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
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

    def _cursor(self, sql: str, params: Params) -> sqlite3.Cursor:
        try:
            return self._conn.execute(sql, params)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def execute(self, sql: str, params: Params = ()) -> int:
        return self._cursor(sql, params).lastrowid or 0

    async def execute_rowcount(self, sql: str, params: Params = ()) -> int:
        return self._cursor(sql, params).rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        try:
            self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def fetchone(self, sql: str, params: Params = ()) -> Any:
        return self._cursor(sql, params).fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        return self._cursor(sql, params).fetchall()

    async def fetchval(self, sql: str, params: Params = (), default: Any = None) -> Any:
        row = self._cursor(sql, params).fetchone()
        return default if row is None else row[0]
