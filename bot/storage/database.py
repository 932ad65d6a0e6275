"""The bot's database: one interface, an SQLite file or a PostgreSQL server behind it.

Every repository function in ``bot/storage`` and ``bot/tables`` takes a :class:`Database`. A
repository function never commits on its own: the caller groups writes with
``async with db.transaction():`` so that one game action (and the results it finishes) is written
all at once or not at all.

:meth:`Database.open` takes where the data is (``DATABASE_URL``): ``sqlite:///euchre.db`` or a
plain path for an SQLite file (``bot/storage/sqlite.py``), ``postgresql://...`` for PostgreSQL
through asyncpg (``bot/storage/postgres.py``). Both backends hold one connection and run one
transaction at a time on it, so the code above them sees the same behaviour from either. The
SQL is written once, with ``?`` parameters (``bot/storage/dialect.py`` turns it into
PostgreSQL's); the numbered migrations are one list for both, and the migrations applied are
recorded in the ``schema_migrations`` table of either.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from bot.storage.errors import DatabaseFileError, MigrationError
from bot.storage.url import DatabaseUrl

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_\-]+\.sql$")

Params = Sequence[Any] | dict[str, Any]

#: What a write transaction locks against other processes, on a backend with a database-wide
#: write lock (PostgreSQL; SQLite has one writer whatever is asked):
#: True, the whole database (the default: it may read totals and write them back);
#: False, nothing beyond the rows it locks itself (the moves of a table held by lease);
#: a set of server ids, those servers' results alone (a deal's, a game's or a match's, which touch
#: only rows of its server), beside other processes' transactions of other servers.
Locking = bool | frozenset[int]


class Row(Protocol):
    """A row read back: its columns by name or by position (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: int | str | slice, /) -> Any: ...

    def __iter__(self) -> Any: ...

    def __len__(self) -> int: ...

    def keys(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema change: ``bot/storage/migrations/NNNN_name.sql``."""

    number: int
    name: str
    sql: str


def load_migrations(directory: Path | None = None) -> list[Migration]:
    """Read the numbered migrations, in order.

    Args:
        directory: where the ``NNNN_*.sql`` files are; by default the ``migrations`` package data
            of ``bot.storage``, found through importlib.resources so an installed bot finds them.

    Returns:
        The migrations sorted by number.

    Raises:
        MigrationError: two files share a number, or the numbers do not run 1, 2, 3... without a gap
            (a gap means a file is missing, and applying the later ones would skip it for ever).
    """
    if directory is None:
        root = resources.files("bot.storage").joinpath("migrations")
        entries = [(entry.name, entry) for entry in root.iterdir()]
    else:
        entries = [(entry.name, entry) for entry in Path(directory).iterdir()]
    found: dict[int, Migration] = {}
    for name, entry in entries:
        match = _MIGRATION_NAME.match(name)
        if match is None:
            continue
        number = int(match.group(1))
        if number in found:
            raise MigrationError(
                f"Two migrations are numbered {number:04d}: {found[number].name} and {name}."
            )
        found[number] = Migration(number, name, entry.read_text(encoding="utf-8"))
    migrations = [found[n] for n in sorted(found)]
    for expected, migration in enumerate(migrations, start=1):
        if migration.number != expected:
            raise MigrationError(
                f"Migration {expected:04d} is missing (found {migration.name} after it)."
            )
    return migrations


class Database:
    """The bot's database: statements, transactions and the schema, whatever the backend.

    Use :meth:`open` to get one. Statements from tasks other than the one holding a transaction
    wait until that transaction ends, so a reader never sees another task's uncommitted writes and
    a writer's statement never slips into another task's transaction.

    A backend subclass provides the connection's primitives (the ``_run_*`` methods, ``_begin``,
    ``_commit``, ``_rollback``, schema versions and migrations, and :meth:`batch`).
    """

    #: "sqlite" or "postgresql".
    dialect: str = ""

    def __init__(self, url: DatabaseUrl) -> None:
        self.url = url
        # One transaction at a time on the connection; the owner task may nest (savepoints).
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    # ----------------------------------------------------------------- opening and closing
    @classmethod
    async def open(
        cls, target: str | Path | DatabaseUrl, *, migrations: Path | None = None
    ) -> Database:
        """Open (or create) the database and bring its schema up to date.

        Args:
            target: an SQLite file's path, or a URL: ``sqlite:///path``,
                ``postgresql://user@host:port/name``. ``":memory:"`` works for throwaway use.
            migrations: a directory of ``NNNN_*.sql`` files to apply instead of the bot's own
                (tests of the migration runner use it).

        Returns:
            The open database, with every migration applied.

        Raises:
            MigrationError: the migrations are inconsistent, or the database has a newer schema
                than this bot knows.
            DatabaseFileError: the database cannot be opened or is not one the bot can use
                (a missing directory, a file that is not SQLite, a server that refuses); the
                message names it.
            DatabaseUrlError: the URL's scheme is neither sqlite nor postgresql.
        """
        url = DatabaseUrl.parse(target)
        known = load_migrations(migrations)
        if url.scheme == "postgresql":
            from bot.storage.postgres import PostgresDatabase

            return await PostgresDatabase.connect(url, known)
        from bot.storage.sqlite import SqliteDatabase

        return await SqliteDatabase.connect(url, known)

    async def close(self) -> None:
        """Close the connection (waits for a running transaction to end first)."""
        async with self._lock:
            await self._close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        raise NotImplementedError

    def batch(self, *, locked: Locking = True) -> AbstractAsyncContextManager[Database]:
        """One transaction for a batch of writes (``bot/storage/batch.py``), on the connection
        best suited to it; what it yields runs statements in that transaction.

        `locked` False: the batch writes only rows of tables this process holds by lease,
        having locked those tables' rows first (`leases.checked`): it needs no database-wide
        write lock, and on PostgreSQL takes none (see ``bot/storage/postgres.py``). A set of
        server ids: it writes those tables' rows and those servers' results alone.
        """
        return self.transaction(locked=locked)

    # ----------------------------------------------------------------- catalogue
    async def tables(self) -> list[str]:
        """The names of the database's tables (the bot's, and ``schema_migrations``)."""
        raise NotImplementedError

    async def columns(self, table: str) -> list[str]:
        """A table's column names, in order."""
        raise NotImplementedError

    async def references(self) -> dict[str, set[str]]:
        """Each table's foreign keys: the tables whose rows its rows refer to."""
        raise NotImplementedError

    async def ids_restart(self, table: str) -> None:
        """After rows were written with their ids (a copy): new rows get ids after them."""

    # ----------------------------------------------------------------- backend primitives
    async def _close(self) -> None:
        raise NotImplementedError

    async def _begin(self, read_only: bool, locked: Locking = True) -> None:
        """Begin a transaction; what a write transaction locks is `locked` (see `Locking`)."""
        raise NotImplementedError

    async def _abandon_begin(self) -> None:
        """End whatever transaction a `_begin` that raised (or was cancelled) left open."""
        raise NotImplementedError

    async def _commit(self) -> None:
        raise NotImplementedError

    async def _rollback(self) -> None:
        raise NotImplementedError

    async def _run(self, sql: str, params: Params) -> int:
        """Run a statement; return the last inserted rowid where the backend knows it, else 0."""
        raise NotImplementedError

    async def _run_rowcount(self, sql: str, params: Params) -> int:
        raise NotImplementedError

    async def _run_many(self, sql: str, rows: Iterable[Params]) -> None:
        raise NotImplementedError

    async def _rows(self, sql: str, params: Params) -> list[Any]:
        raise NotImplementedError

    async def _row(self, sql: str, params: Params) -> Any:
        raise NotImplementedError

    # ----------------------------------------------------------------- transactions
    def _owns_transaction(self) -> bool:
        return self._owner is not None and self._owner is asyncio.current_task()

    @asynccontextmanager
    async def transaction(
        self, *, read_only: bool = False, locked: Locking = True
    ) -> AsyncIterator[Database]:
        """Group statements into one transaction: ``async with db.transaction(): ...``.

        The outermost use begins a write transaction (writers are serialised: SQLite's
        ``BEGIN IMMEDIATE``, PostgreSQL's transaction lock) and commits it (rolls back when the
        block raises). With ``read_only`` it begins a consistent snapshot for long reads that
        does not hold the write lock, so other connections (the running bot, when a
        command-line tool reads its database) keep writing meanwhile. A nested use in the same
        task becomes a savepoint, so a repository function may open its own transaction and
        still be called inside the game manager's: an error inside the inner block undoes only
        that block if the caller catches it, and everything if not.

        Other tasks wait for the transaction to end. A child task started inside a transaction
        and awaited there would wait for ever: do the work in the task holding the transaction.
        """
        if self._owns_transaction():
            self._depth += 1
            savepoint = f"sp_{self._depth}"
            await self._run(f"SAVEPOINT {savepoint}", ())
            try:
                yield self
            except BaseException:
                await self._run(f"ROLLBACK TO SAVEPOINT {savepoint}", ())
                await self._run(f"RELEASE SAVEPOINT {savepoint}", ())
                raise
            else:
                await self._run(f"RELEASE SAVEPOINT {savepoint}", ())
            finally:
                self._depth -= 1
            return

        async with self._lock:
            self._owner = asyncio.current_task()
            self._depth = 0
            try:
                try:
                    await self._begin(read_only, locked)
                except BaseException:
                    # Cancelled or refused, the BEGIN may still have opened a transaction: one
                    # left open would swallow the connection's next transaction.
                    await self._abandon_begin()
                    raise
                try:
                    yield self
                except BaseException:
                    await self._rollback()
                    raise
                else:
                    await self._commit()
            finally:
                self._owner = None

    @property
    def in_transaction(self) -> bool:
        """True when the calling task holds the open transaction."""
        return self._owns_transaction()

    # ----------------------------------------------------------------- statements
    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        # A statement from the task holding the transaction runs inside it; any other task waits
        # for the connection to be free, so it neither reads nor joins someone else's writes.
        if self._owns_transaction():
            yield
        else:
            async with self._lock:
                yield

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement.

        Returns:
            On SQLite, the rowid of the last inserted row (``lastrowid``), or 0 when nothing was
            inserted; 0 on PostgreSQL. For an inserted row's id, write ``INSERT ... RETURNING
            id`` and use :meth:`fetchval`, which works on both.
        """
        async with self._turn():
            return await self._run(sql, params)

    async def execute_rowcount(self, sql: str, params: Params = ()) -> int:
        """Run one statement and return how many rows it changed."""
        async with self._turn():
            return await self._run_rowcount(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""
        async with self._turn():
            await self._run_many(sql, rows)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query and return its first row (a :class:`Row`), or None."""
        async with self._turn():
            return await self._row(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query and return all its rows (each a :class:`Row`)."""
        async with self._turn():
            return await self._rows(sql, params)

    async def fetchval(self, sql: str, params: Params = (), default: Any = None) -> Any:
        """Run a query and return the first column of its first row (``default`` when no row)."""
        row = await self.fetchone(sql, params)
        return default if row is None else row[0]

    # ----------------------------------------------------------------- migrations
    async def _migrate(self, migrations: list[Migration]) -> None:
        """Apply the migrations not applied yet, each in its own transaction."""
        await self._check_version(migrations)
        current = await self.schema_version()
        for migration in migrations:
            if migration.number <= current:
                continue
            log.info("applying migration %s", migration.name)
            await self._apply(migration)

    async def _apply(self, migration: Migration) -> None:
        raise NotImplementedError

    async def _check_version(self, migrations: list[Migration]) -> None:
        # The tables first: a migration another process committed since (shards opening a new
        # database together) is then seen in the version read after them.
        tables = [t for t in await self.tables() if t != "schema_migrations"]
        current = await self.schema_version()
        latest = migrations[-1].number if migrations else 0
        if current > latest:
            raise MigrationError(
                f"The database {self.url.display} is at schema {current}, newer than this bot's "
                f"{latest}; update the bot before opening it."
            )
        if current == 0 and tables:
            # No migration of the bot's was ever applied, yet it has tables: another
            # program's database, which the bot's tables must not be created in.
            names = ", ".join(tables[:3]) + (", ..." if len(tables) > 3 else "")
            raise DatabaseFileError(
                f"{self.url.display} is not a database of this bot (it has tables {names}"
                " and none of the bot's migrations): give the bot its own database, or a"
                " new or empty one"
            )


#: The table that records which migrations were applied, on both backends (SQLite also keeps
#: ``PRAGMA user_version``, which files made before this table existed have alone).
MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    number      INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    applied_at  TEXT    NOT NULL
)
"""
