"""The PostgreSQL backend: one asyncpg connection behind the :class:`Database` interface.

Statements arrive as the repository modules write them and go through
``bot/storage/dialect.py`` (``?`` parameters to ``$n``, ``REAL`` to ``DOUBLE PRECISION``), then
to asyncpg, which prepares each once and keeps it (the statement cache).

Isolation. Within one process, one connection and the :class:`Database` lock run one transaction
at a time, as on SQLite. Processes sharing the database (shards) are serialised the way SQLite's
``BEGIN IMMEDIATE`` serialises them: every write transaction first takes one transaction-level
advisory lock (:data:`WRITE_LOCK`), so writers run one after another, and as transactions are
READ COMMITTED each statement of the one holding the lock sees everything the writers before it
committed. The code relies on that: it reads totals, then writes them back (a leaderboard's
counters, a league's standings), which two concurrent writers would otherwise both base on the
same old value. The one exception is the group-commit writer's batch of table rows alone
(events, deals, a table's state: the moves of play, by far the most writes): it writes only
rows of tables its process holds by lease, and locks those tables' rows first (``SELECT ...
FOR NO KEY UPDATE`` in `leases.checked`), which orders it against a takeover of the same
tables; other processes' batches write other tables' rows, so shards play on side by side
instead of queueing for the one lock. A batch of results (a deal's, a game's, a match's: the
totals, the leagues' standings) writes only rows of that table's server, which one process
serves (its shard): it takes the write lock shared, with other such batches, and an exclusive
lock of each of its servers (:func:`server_lock_key`), so it waits only for a transaction that
holds the whole database, or for one of the same server's (a takeover's), and shards record
their results side by side too. A read-only transaction is a REPEATABLE READ snapshot that
takes no lock, as SQLite's deferred ``BEGIN`` is (not READ ONLY: ``db verify`` builds temporary tables in its
snapshot, which PostgreSQL counts as writes).

Reconnecting. A connection the server closed (a restart, a failover to a standby, an idle
connection cut by a proxy) is opened again at the next transaction or statement: a statement
outside a transaction, or the BEGIN of one, is retried once on the new connection. A transaction
whose connection dies midway fails (nothing of it is committed) and its caller is told, as for
any failed write: the game manager puts the table back as stored and the member tries again.

Types. ``SUM`` over the integer columns is ``numeric`` in PostgreSQL (a Python ``Decimal``); the
bot stores no decimals, so ``numeric`` is read back as SQLite gives it: ``int`` when whole, else
``float``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any, TypeVar

import asyncpg

from bot.storage import dialect
from bot.storage.database import MIGRATIONS_TABLE, Database, Locking, Migration, Params
from bot.storage.errors import (
    DatabaseFileError,
    DatabaseUnreachable,
    IntegrityError,
    MigrationError,
)
from bot.storage.url import DatabaseUrl

log = logging.getLogger(__name__)

#: The advisory lock every write transaction holds (any fixed number; "euch" in ASCII).
WRITE_LOCK = 0x65756368

#: The advisory locks of one server's results are in PostgreSQL's space of two 32-bit keys,
#: which does not overlap the space of WRITE_LOCK's one 64-bit key: (WRITE_LOCK, a server's key).
SERVER_LOCKS = WRITE_LOCK


def server_lock_key(guild_id: int) -> int:
    """A server's 32-bit lock key. Two servers may share one: that only makes their results
    wait for each other."""
    folded = (guild_id ^ (guild_id >> 32)) & 0xFFFFFFFF
    return folded - (1 << 32) if folded >= 1 << 31 else folded


#: Some servers' results: the write lock shared, then each server's lock, in one round trip. The
#: shared lock is the scan's filter, so it is taken before the first server's; the servers' come
#: in the order given (sorted), so two such transactions never wait for each other in a circle.
#: (The filter compares the locking function's void result as text, which is always true.)
_LOCK_SERVERS = (
    "SELECT count(pg_advisory_xact_lock({servers}, k)) FROM unnest(ARRAY[{keys}]::int[]) AS k"
    " WHERE pg_advisory_xact_lock_shared({write}::bigint)::text = ''"
)

#: Prepared statements kept per connection: the bot has a few hundred distinct statements.
STATEMENT_CACHE = 1024

#: What asyncpg raises when the server closed the connection, or shut the session down.
_LOST = (
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.InterfaceError,  # only once the connection is found closed (see `_retried`)
    # The server's notice that it ended the session, read between two statements, leaves the
    # protocol in a state no statement can run from.
    asyncpg.exceptions.InternalClientError,
    ConnectionError,
)

T = TypeVar("T")


def _numeric(text: str) -> int | float:
    """A ``numeric`` value as SQLite would give it: an int when whole, else a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def _integrity(error: asyncpg.IntegrityConstraintViolationError) -> IntegrityError:
    constraint = getattr(error, "constraint_name", None)
    return IntegrityError(str(error), constraint)


class PostgresDatabase(Database):
    """A PostgreSQL database behind the :class:`Database` interface."""

    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection, url: DatabaseUrl) -> None:
        super().__init__(url)
        self._conn = conn
        self._closing = False
        self._in_transaction = False
        self.reconnects = 0  # connections opened again after the server closed one

    @staticmethod
    async def _new_connection(url: DatabaseUrl) -> asyncpg.Connection:
        conn = await asyncpg.connect(url.dsn, statement_cache_size=STATEMENT_CACHE)
        try:
            await conn.set_type_codec(
                "numeric", encoder=str, decoder=_numeric, schema="pg_catalog", format="text"
            )
        except BaseException:
            await conn.close()
            raise
        return conn

    @classmethod
    async def connect(cls, url: DatabaseUrl, known: list[Migration]) -> PostgresDatabase:
        """Connect, check the schema version and migrate (see :meth:`Database.open`)."""
        try:
            conn = await cls._new_connection(url)
        except (OSError, asyncpg.CannotConnectNowError, asyncpg.TooManyConnectionsError) as error:
            # The server is down, starting, full or not found: a later start may succeed.
            raise DatabaseUnreachable(f"{url.display} cannot be reached: {error}") from None
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise DatabaseFileError(f"{url.display} cannot be opened: {error}") from None
        try:
            db = cls(conn, url)
            await db._check_version(known)
            await db._migrate(known)
        except BaseException as error:
            await conn.close()
            if isinstance(error, asyncpg.PostgresError):
                raise DatabaseFileError(
                    f"{url.display} is not a database the bot can use: {error}"
                ) from None
            raise
        return db

    @property
    def conn(self) -> asyncpg.Connection:
        """The raw asyncpg connection; prefer the helpers, which respect transactions."""
        return self._conn

    async def _close(self) -> None:
        self._closing = True
        await self._conn.close()

    async def _reconnect(self) -> None:
        """Open a new connection in place of one the server closed."""
        if self._closing:
            raise asyncpg.InterfaceError("the database is closed")
        if not self._conn.is_closed():
            self._conn.terminate()
        self._conn = await self._new_connection(self.url)
        self.reconnects += 1
        log.warning("the PostgreSQL connection was lost and is open again")

    async def _retried(self, run: Callable[[], Awaitable[T]]) -> T:
        """`run()`, on a new connection if the server closed the old one; retried only where
        no transaction is open (a statement alone, or a BEGIN), so nothing runs twice."""
        if self._conn.is_closed() and not self._in_transaction:
            await self._reconnect()
        try:
            return await run()
        except _LOST as error:
            lost = not isinstance(error, asyncpg.InterfaceError) or self._conn.is_closed()
            if not lost or self._in_transaction or self._closing:
                raise
            log.warning("PostgreSQL: %s; connecting again", error)
            await self._reconnect()
            return await run()

    # ----------------------------------------------------------------- schema
    async def schema_version(self) -> int:
        """The number of the last migration applied (from ``schema_migrations``)."""
        async with self._turn():
            if await self._conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
                return 0
            return int(
                await self._conn.fetchval("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
            )

    async def _apply(self, migration: Migration) -> None:
        # The script, its record and the check that no other process applied it meanwhile
        # (shards starting together) are one transaction under the write lock.
        async with self._lock:
            try:
                async with self._conn.transaction():
                    await self._conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
                    await self._conn.execute(dialect.schema(MIGRATIONS_TABLE))
                    done = await self._conn.fetchval(
                        "SELECT 1 FROM schema_migrations WHERE number = $1", migration.number
                    )
                    if done:
                        log.info("migration %s was applied by another process", migration.name)
                        return
                    await self._conn.execute(dialect.schema(migration.sql))
                    await self._conn.execute(
                        "INSERT INTO schema_migrations (number, name, applied_at)"
                        " VALUES ($1, $2, $3)",
                        migration.number,
                        migration.name,
                        datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    )
            except asyncpg.PostgresError as error:
                raise MigrationError(f"Migration {migration.name} failed: {error}") from error

    # ----------------------------------------------------------------- catalogue
    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            " ORDER BY table_name"
        )
        return [r[0] for r in rows]

    async def columns(self, table: str) -> list[str]:
        rows = await self.fetchall(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [r[0] for r in rows]

    async def references(self) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {table: set() for table in await self.tables()}
        rows = await self.fetchall(
            "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint"
            " WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"
        )
        for table, referred in rows:
            found.setdefault(table, set()).add(referred)
        return found

    async def ids_restart(self, table: str) -> None:
        """Move the identity of ``table.id`` (if it has one) past the highest id stored."""
        if "id" not in await self.columns(table):
            return
        sequence = await self.fetchval("SELECT pg_get_serial_sequence(?, 'id')", (table,))
        if sequence is not None:
            await self.fetchval(
                f"SELECT setval(?, COALESCE(MAX(id), 0) + 1, false) FROM {table}", (sequence,)
            )

    # ----------------------------------------------------------------- primitives
    async def _begin(self, read_only: bool, locked: Locking = True) -> None:
        # The BEGIN and the locks go as one script (PostgreSQL's simple query protocol runs
        # several statements in one round trip): a batch's round trips are what its time is
        # made of. The script's only values are the locks' keys, integers made here.
        if read_only:
            script = "BEGIN ISOLATION LEVEL REPEATABLE READ"
        elif locked is False:
            script = "BEGIN"
        elif locked is True:
            script = f"BEGIN; SELECT pg_advisory_xact_lock({int(WRITE_LOCK)})"
        else:
            keys = ",".join(str(key) for key in sorted({server_lock_key(g) for g in locked}))
            script = "BEGIN; " + _LOCK_SERVERS.format(
                write=int(WRITE_LOCK), servers=int(SERVER_LOCKS), keys=keys
            )
        await self._retried(lambda: self._conn.execute(script))
        self._in_transaction = True

    async def _abandon_begin(self) -> None:
        # A lock refused, or the wait for it cancelled, leaves the transaction begun (and the
        # connection does not know it yet, when cancelled). A ROLLBACK with none open is a no-op.
        self._in_transaction = False
        if not self._conn.is_closed():
            await self._conn.execute("ROLLBACK")

    async def _commit(self) -> None:
        self._in_transaction = False
        await self._conn.execute("COMMIT")

    async def _rollback(self) -> None:
        self._in_transaction = False
        if not self._conn.is_closed() and self._conn.is_in_transaction():
            await self._conn.execute("ROLLBACK")

    async def _run(self, sql: str, params: Params) -> int:
        text, args = dialect.statement(sql, params)
        try:
            await self._retried(lambda: self._conn.execute(text, *args))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error
        return 0

    async def _run_rowcount(self, sql: str, params: Params) -> int:
        text, args = dialect.statement(sql, params)
        try:
            status = await self._retried(lambda: self._conn.execute(text, *args))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error
        # "UPDATE 3", "DELETE 0", "INSERT 0 1": the count is the last word.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def _run_many(self, sql: str, rows: Iterable[Params]) -> None:
        text: str | None = None
        args: list[list[Any]] = []
        for row in rows:
            text, values = dialect.statement(sql, row)
            args.append(values)
        if text is None:
            return
        try:
            await self._retried(lambda: self._conn.executemany(text, args))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error

    async def _row(self, sql: str, params: Params) -> Any:
        text, args = dialect.statement(sql, params)
        try:
            return await self._retried(lambda: self._conn.fetchrow(text, *args))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error

    async def _rows(self, sql: str, params: Params) -> list[Any]:
        text, args = dialect.statement(sql, params)
        try:
            return list(await self._retried(lambda: self._conn.fetch(text, *args)))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity(error) from error
