"""Helpers for the game manager's tests: a manager on a real SQLite file, members, snapshots.

Member ids are derived from the channel: the host of channel c is `c * 10 + 1`, the others
`c * 10 + 2` to `c * 10 + 4`, and `c * 10 + 5`, `+ 6`, `+ 7` are spare members who may join.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bot.storage.database import Database
from bot.tables.manager import Change, TableManager
from bot.tables.table import Table
from tests.support.postgres import database_for

GUILD = 7
# Each stored table and its key, the order its rows are compared in.
STORED_TABLES = {
    "tables": "id",
    "table_deals": "table_id, match_no, deal_no",
    "table_events": "table_id, seq",
    "matches": "id",
    "hands": "id",
}


def member(channel: int, k: int) -> int:
    """The id of member `k` (1 is the host) of the table in `channel`."""
    return channel * 10 + k


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Listener:
    """The manager's listener, recording what it is told (the Discord layer's part)."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.reminders: list[tuple[int, int, float]] = []
        self.restored: list[int] = []
        self.on_change: Callable[[Change], None] | None = None
        self._news = asyncio.Event()

    async def table_changed(self, change: Change) -> None:
        self.changes.append(change)
        if self.on_change is not None:
            self.on_change(change)
        self._news.set()

    async def turn_reminder(self, table: Table, seat: int, deadline: float) -> None:
        self.reminders.append((table.id, seat, deadline))
        self._news.set()

    async def table_restored(self, table: Table) -> None:
        self.restored.append(table.id)

    async def wait_for(self, condition: Callable[[], bool], seconds: float = 60.0) -> None:
        """Wait, with a bound, until `condition()` holds (checked after every change told)."""

        async def wait() -> None:
            while not condition():
                self._news.clear()
                await self._news.wait()

        await asyncio.wait_for(wait(), seconds)


class _CountingPool(ThreadPoolExecutor):
    """A thread pool that counts the work submitted to it."""

    submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


class HeldPool:
    """A one-thread pool for the computer players that the test can hold up, to catch a
    time-out move half made (chosen in the pool, not yet applied)."""

    def __init__(self) -> None:
        self.pool = _CountingPool(1, thread_name_prefix="test-ai")
        self.gate = threading.Event()
        self.pool.submit(self.gate.wait)  # every choice queues behind this until release()

    @property
    def waiting(self) -> int:
        """Choices queued behind the gate (or made, once released)."""
        return self.pool.submitted - 1

    def release(self) -> None:
        self.gate.set()

    def close(self) -> None:
        self.gate.set()
        self.pool.shutdown(wait=True)


async def open_manager(path: Path, **kwargs: Any) -> tuple[Database, TableManager]:
    """The database at `path` and a manager on it: timers off, computers at once, `modern`.

    When the suite runs on PostgreSQL, `path` names a PostgreSQL database instead (the same one
    each time the test opens it)."""
    db = await Database.open(await database_for(path))
    options: dict[str, Any] = {"timers": False, "computer_delay": 0, "default_preset": "modern"}
    options.update(kwargs)
    return db, TableManager(db, **options)


async def shut(db: Database, manager: TableManager) -> None:
    await manager.close()
    await db.close()


async def seated_table(
    manager: TableManager, channel: int, *, start: bool = True, **options: Any
) -> Table:
    """A table in `channel` with its host and three members seated, dealt unless `start` is False."""
    change = await manager.create(GUILD, channel, member(channel, 1), "host", **options)
    for k in (2, 3, 4):
        await manager.join(channel, member(channel, k), f"member {k}")
    if start:
        await manager.start(channel, member(channel, 1))
    return change.table


def to_act(table: Table) -> int:
    """The id of whoever is to act at the table."""
    return table.seats[table.match.to_act].user_id


def not_to_act(table: Table) -> int:
    """The id of a seated member who is not to act."""
    seat = (table.match.to_act + 1) % 4
    return table.seats[seat].user_id


async def act(manager: TableManager, table: Table, action: str) -> Change:
    """The member to act takes `action`."""
    return await manager.act(table.channel_id, to_act(table), action)


async def act_randomly(manager: TableManager, table: Table, rng: random.Random) -> Change:
    """The member to act takes a random legal action."""
    legal = table.match.legal_actions()
    return await act(manager, table, legal[rng.randrange(len(legal))])


async def play_to_end_of_hand(manager: TableManager, table: Table, rng: random.Random) -> Change:
    """Random legal actions until one ends the hand; returns that action's change."""
    while True:
        change = await act_randomly(manager, table, rng)
        if change.hand is not None:
            return change


def in_memory(manager: TableManager, table: Table) -> tuple[Any, ...]:
    """Everything of a table a request may change in memory, and every seat's view."""
    match = table.match
    views = (*(match.view_for(s) for s in range(4)), match.public_view()) if match else ()
    return (
        table.to_state(),
        table.status,
        list(table.actions),
        [list(d) for d in table.decks],
        views,
        sorted((c, t.id) for c, t in manager.tables.items()),
    )


def kept_of(manager: TableManager, table: Table) -> list[str]:
    """What the manager still keeps of a table by its id (its lock, event number, timers, ...)."""
    by_table_id = (
        "_locks",
        "_seq",
        "_saved_decks",
        "_state_keys",
        "_fences",
        "_timers",
        "_computer_tasks",
        "deadlines",
        "last_deals",
        "last_activity",
    )
    return [name for name in by_table_id if table.id in getattr(manager, name)]


async def stored(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the live-table and result tables, in order."""
    return {
        name: [tuple(r) for r in await db.fetchall(f"SELECT * FROM {name} ORDER BY {key}")]
        for name, key in STORED_TABLES.items()
    }


async def events(db: Database, table_id: int, kind: str | None = None) -> list[tuple[Any, ...]]:
    """A table's events as (seq, kind, seat, user_id, action), in order."""
    rows = await db.fetchall(
        "SELECT seq, kind, seat, user_id, action FROM table_events WHERE table_id = ?"
        + (" AND kind = ?" if kind else "")
        + " ORDER BY seq",
        (table_id, kind) if kind else (table_id,),
    )
    return [tuple(r) for r in rows]


async def refuse_writes(
    db: Database, name: str, event: str, table: str, when: str = "", *, disk_full: bool = False
) -> None:
    """Make some writes fail for real, in the database itself (so every connection sees it): a
    trigger named `name` on `event` ("INSERT", "UPDATE OF status") of `table`, for the rows
    where `when` (a condition on NEW) holds. The failure is a refusal by the trigger, or with
    `disk_full` an error of a full disk's class (SQLite: an OperationalError from a statement
    that fails as it runs; PostgreSQL: SQLSTATE 53100 disk_full)."""
    if db.dialect == "sqlite":
        fail = "SELECT json('no room')" if disk_full else "SELECT RAISE(ABORT, 'refused')"
        condition = f" WHEN {when}" if when else ""
        await db.execute(
            f"CREATE TRIGGER {name} BEFORE {event} ON {table}{condition} BEGIN {fail}; END"
        )
        return
    code = " USING ERRCODE = 'disk_full'" if disk_full else ""
    await db.execute(
        f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql"
        f" AS $$ BEGIN RAISE EXCEPTION 'refused by the test'{code}; END $$"
    )
    condition = f" WHEN ({when})" if when else ""
    await db.execute(
        f"CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW{condition}"
        f" EXECUTE FUNCTION {name}()"
    )


async def allow_writes(db: Database, name: str, table: str) -> None:
    """Remove the trigger of :func:`refuse_writes`."""
    if db.dialect == "sqlite":
        await db.execute(f"DROP TRIGGER {name}")
        return
    await db.execute(f"DROP TRIGGER {name} ON {table}")
    await db.execute(f"DROP FUNCTION {name}()")
