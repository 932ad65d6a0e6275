"""Copying every row of the bot's tables from one database to another, and comparing them.

``python -m bot db copy --from sqlite:///euchre.db --to postgresql://...`` moves a bot from one
backend to the other (or makes a second copy on the same one). Both databases are opened (and so
migrated) by this bot, so they have the same tables. The target's rows are replaced in one
transaction: a copy run again gives the same target, and a copy that fails leaves the target as
it was. Rows go in the order their foreign keys need, and, where PostgreSQL keeps SQLite's
``rowid`` order in a column of its own (``bot/storage/dialect.py``), in rowid order, so members
are still listed in the order they joined.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database
from bot.storage.errors import StorageError

#: Each database keeps its own record of the migrations applied to it.
NOT_COPIED = frozenset({"schema_migrations"})
ROWID = "rowid"
CHUNK = 1000  # rows per executemany


class CopyError(StorageError):
    """The databases cannot be copied one to the other (their tables differ)."""


@dataclass(frozen=True, slots=True)
class Copied:
    """How many rows of one table were copied."""

    table: str
    rows: int


def in_dependency_order(tables: list[str], references: dict[str, set[str]]) -> list[str]:
    """The tables ordered so that each comes after every table its foreign keys refer to.

    Raises:
        CopyError: the foreign keys go round in a circle (no order inserts every row).
    """
    wanted = set(tables)
    ordered: list[str] = []
    placed: set[str] = set()
    while len(ordered) < len(tables):
        ready = [
            t
            for t in tables
            if t not in placed and (references.get(t, set()) & wanted) - {t} <= placed
        ]
        if not ready:
            raise CopyError(f"the foreign keys of {sorted(wanted - placed)} go round in a circle")
        ordered.extend(ready)
        placed.update(ready)
    return ordered


async def _shared_tables(source: Database, target: Database) -> list[str]:
    tables = [t for t in await source.tables() if t not in NOT_COPIED]
    missing = sorted(set(tables) - set(await target.tables()))
    if missing:
        raise CopyError(f"the target has no table {', '.join(missing)}")
    return tables


async def _columns(source: Database, target: Database, table: str) -> tuple[list[str], bool]:
    """The columns to copy, and whether to go in rowid order (see the module)."""
    theirs = await target.columns(table)
    ours = await source.columns(table)
    columns = [c for c in ours if c in theirs and c != ROWID]
    missing = [c for c in theirs if c not in ours and c != ROWID]
    if missing:
        raise CopyError(f"the source's {table} has no column {', '.join(missing)}")
    return columns, ROWID in ours or ROWID in theirs


async def _rows(db: Database, table: str, columns: list[str], ordered: bool) -> list[Any]:
    order = f" ORDER BY {ROWID}" if ordered else ""
    return await db.fetchall(f"SELECT {', '.join(columns)} FROM {table}{order}")


async def copy(
    source: Database, target: Database, committing: Callable[[], None] | None = None
) -> list[Copied]:
    """Replace every row of the target's tables by the source's.

    Args:
        committing: called once every row is written, just before the commit: a copy
            interrupted from then on may have been committed (the commit goes on in the
            database whether or not its caller waits for it).

    Returns:
        How many rows each table got, in the order they were written.

    Raises:
        CopyError: the databases' tables differ; nothing is written.
    """
    tables = await _shared_tables(source, target)
    order = in_dependency_order(tables, await target.references())
    copied: list[Copied] = []
    async with source.transaction(read_only=True), target.transaction():
        for table in reversed(order):
            await target.execute(f"DELETE FROM {table}")
        for table in order:
            columns, ordered = await _columns(source, target, table)
            rows = [tuple(r) for r in await _rows(source, table, columns, ordered)]
            insert = (
                f"INSERT INTO {table} ({', '.join(columns)})"
                f" VALUES ({', '.join('?' for _ in columns)})"
            )
            for start in range(0, len(rows), CHUNK):
                await target.executemany(insert, rows[start : start + CHUNK])
            await target.ids_restart(table)
            copied.append(Copied(table, len(rows)))
        if committing is not None:
            committing()
    return copied


async def differences(source: Database, target: Database) -> list[str]:
    """Every table whose rows differ between the two databases (as sets of rows, with their
    counts); an empty list when the target holds exactly the source's rows."""
    problems: list[str] = []
    for table in await _shared_tables(source, target):
        columns, ordered = await _columns(source, target, table)
        ours = sorted(map(tuple, await _rows(source, table, columns, ordered)), key=repr)
        theirs = sorted(map(tuple, await _rows(target, table, columns, ordered)), key=repr)
        if ours != theirs:
            only = len(set(ours) - set(theirs))
            problems.append(
                f"{table}: {len(ours)} rows in the source, {len(theirs)} in the target,"
                f" {only} of the source's missing or different"
            )
        elif ordered and [r[0] for r in await _rows(source, table, columns[:1], True)] != [
            r[0] for r in await _rows(target, table, columns[:1], True)
        ]:
            problems.append(f"{table}: the same rows, in another order")
    return problems
