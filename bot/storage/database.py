"""The bot's one SQLite connection: opening, schema migrations and transactions.

Every repository function in ``bot/storage`` and ``bot/tables`` takes a :class:`Database`. A
repository function never commits on its own: the caller groups writes with
``async with db.transaction():`` so that one game action (and the results it finishes) is written
all at once or not at all.

The connection runs in autocommit mode at the sqlite3 level (``isolation_level=None``) so that the
only transactions are the ones opened here, explicitly.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import DatabaseFileError, MigrationError

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_\-]+\.sql$")

Params = Sequence[Any] | dict[str, Any]


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


def _check_place(path: Path) -> None:
    """Refuse a path SQLite cannot make a database of, with a message that says why (SQLite's own
    is "unable to open database file" for all of these)."""
    if path.is_dir():
        raise DatabaseFileError(f"{path} is a directory, not a database file")
    if not path.parent.is_dir():
        raise DatabaseFileError(f"{path}: the directory {path.parent} does not exist")


class Database:
    """One aiosqlite connection in WAL mode with foreign keys on, and its transactions.

    Use :meth:`open` to get one. Statements from tasks other than the one holding a transaction
    wait until that transaction ends, so a reader never sees another task's uncommitted writes and
    a writer's statement never slips into another task's transaction.
    """

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        # One transaction at a time on the connection; the owner task may nest (savepoints).
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    # ----------------------------------------------------------------- opening and closing
    @classmethod
    async def open(cls, path: str | Path, *, migrations: Path | None = None) -> Database:
        """Open (or create) the database file and bring its schema up to date.

        Args:
            path: the SQLite file; ``":memory:"`` works for throwaway use, but WAL needs a file.
            migrations: a directory of ``NNNN_*.sql`` files to apply instead of the bot's own
                (tests of the migration runner use it).

        Returns:
            The open database, with every migration applied.

        Raises:
            MigrationError: the migrations are inconsistent, or the file has a newer schema than
                this bot knows.
            DatabaseFileError: the file cannot be opened as a database (its directory is
                missing, it is a directory, or it is not an SQLite file); the message names it.
        """
        path = Path(path)
        if str(path) != ":memory:":
            _check_place(path)
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as error:
            raise DatabaseFileError(f"{path} cannot be opened: {error}") from None
        try:
            conn.row_factory = aiosqlite.Row
            # First: processes opening the file together (shards) wait for each other's locks,
            # even the one that switching to WAL takes, rather than fail at once.
            await conn.execute("PRAGMA busy_timeout=5000")
            db = cls(conn, path)
            known = load_migrations(migrations)
            # Before anything writes to the file (WAL mode changes its header): a file from a
            # newer bot, or not a database at all, is refused untouched.
            await db._check_version(known)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA synchronous=NORMAL")
            # 32 MiB of page cache (the default is 2): leaderboard and /stats pages stay in it.
            await conn.execute("PRAGMA cache_size=-32768")
            await db._migrate(known)
        except BaseException as error:
            await conn.close()
            if isinstance(error, sqlite3.DatabaseError):
                # "file is not a database", "database disk image is malformed", ...
                raise DatabaseFileError(
                    f"{path} is not a database the bot can use: {error}"
                ) from None
            raise
        return db

    async def close(self) -> None:
        """Close the connection (waits for a running transaction to end first)."""
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The raw aiosqlite connection; prefer the helpers, which respect transactions."""
        return self._conn

    async def schema_version(self) -> int:
        """The number of the last migration applied (``PRAGMA user_version``)."""
        row = await self.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def _check_version(self, migrations: list[Migration]) -> None:
        current = await self.schema_version()
        latest = migrations[-1].number if migrations else 0
        if current > latest:
            raise MigrationError(
                f"The database file {self.path} is at schema {current}, newer than this bot's "
                f"{latest}; update the bot before opening it."
            )

    async def _migrate(self, migrations: list[Migration]) -> None:
        await self._check_version(migrations)
        current = await self.schema_version()
        for migration in migrations:
            if migration.number <= current:
                continue
            log.info("applying migration %s", migration.name)
            # executescript runs the whole file; wrapping it in BEGIN/COMMIT makes the file and
            # its user_version bump one transaction, so a failed migration leaves no trace.
            script = (
                "BEGIN IMMEDIATE;\n"
                f"{migration.sql}\n;\n"
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
                    continue
                raise MigrationError(f"Migration {migration.name} failed: {error}") from error

    # ----------------------------------------------------------------- transactions
    def _owns_transaction(self) -> bool:
        return self._owner is not None and self._owner is asyncio.current_task()

    @asynccontextmanager
    async def transaction(self, *, read_only: bool = False) -> AsyncIterator[Database]:
        """Group statements into one transaction: ``async with db.transaction(): ...``.

        The outermost use runs ``BEGIN IMMEDIATE`` and ``COMMIT`` (``ROLLBACK`` when the block
        raises). With ``read_only`` it runs a deferred ``BEGIN`` instead: a consistent snapshot
        for long reads that does not hold the write lock, so other connections (the running bot,
        when a command-line tool reads its file) keep writing meanwhile. A nested use in the same task becomes a savepoint, so a repository function may
        open its own transaction and still be called inside the game manager's: an error inside
        the inner block undoes only that block if the caller catches it, and everything if not.

        Other tasks wait for the transaction to end. A child task started inside a transaction
        and awaited there would wait for ever: do the work in the task holding the transaction.
        """
        if self._owns_transaction():
            self._depth += 1
            savepoint = f"sp_{self._depth}"
            await self._conn.execute(f"SAVEPOINT {savepoint}")
            try:
                yield self
            except BaseException:
                await self._conn.execute(f"ROLLBACK TO {savepoint}")
                await self._conn.execute(f"RELEASE {savepoint}")
                raise
            else:
                await self._conn.execute(f"RELEASE {savepoint}")
            finally:
                self._depth -= 1
            return

        async with self._lock:
            self._owner = asyncio.current_task()
            self._depth = 0
            try:
                await self._conn.execute("BEGIN" if read_only else "BEGIN IMMEDIATE")
                try:
                    yield self
                except BaseException:
                    if self._conn.in_transaction:
                        await self._conn.execute("ROLLBACK")
                    raise
                else:
                    await self._conn.execute("COMMIT")
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
            The rowid of the last inserted row (``lastrowid``), or 0 when nothing was inserted.
        """
        async with self._turn():
            async with self._conn.execute(sql, params) as cursor:
                return cursor.lastrowid or 0

    async def execute_rowcount(self, sql: str, params: Params = ()) -> int:
        """Run one statement and return how many rows it changed."""
        async with self._turn():
            async with self._conn.execute(sql, params) as cursor:
                return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""
        async with self._turn():
            await self._conn.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """Run a query and return its first row, or None."""
        async with self._turn():
            async with self._conn.execute(sql, params) as cursor:
                return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Run a query and return all its rows."""
        async with self._turn():
            async with self._conn.execute(sql, params) as cursor:
                return list(await cursor.fetchall())

    async def fetchval(self, sql: str, params: Params = (), default: Any = None) -> Any:
        """Run a query and return the first column of its first row (``default`` when no row)."""
        row = await self.fetchone(sql, params)
        return default if row is None else row[0]
