"""One owner per table, and each Discord interaction applied once.

Two game managers on one database stand for two processes of the bot: each holds the tables it
took a lease on, a process that lost a table can no longer write to it (the fence is checked in
the transaction of every write), a table whose holder stopped without a word is taken over once
its lease runs out, and an interaction delivered twice is stored once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.storage import leases
from bot.storage.batch import BatchWriter
from bot.storage.errors import AlreadyApplied, LeaseLost
from bot.tables.computer import ComputerSeats
from bot.tables.manager import MOVED, TWICE, TableManager
from bot.tables.requests import current_interaction
from bot.tables.table import TableError
from tests.tables.managers import (
    Listener,
    act,
    act_randomly,
    events,
    kept_of,
    member,
    open_manager,
    seated_table,
    shut,
)


class LeaseClock:
    """Unix seconds that a test moves by hand, shared by the managers of one test."""

    def __init__(self) -> None:
        self.now = 2_000_000_000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def two_processes(
    tmp_path: Path, **b_options: Any
) -> AsyncIterator[tuple[LeaseClock, TableManager, TableManager]]:
    """Managers `a` and `b` on one database, as two processes of the bot, sharing a lease
    clock; both shut at the end."""
    path, clock = tmp_path / "euchre.db", LeaseClock()
    db_a, a = await open_manager(path, owner="a", lease_clock=clock)
    db_b, b = await open_manager(path, owner="b", lease_clock=clock, **b_options)
    try:
        yield clock, a, b
    finally:
        await shut(db_b, b)
        await shut(db_a, a)


async def owner_of(manager: TableManager, table_id: int) -> tuple[str | None, int]:
    row = await manager.db.fetchone("SELECT owner, fence FROM tables WHERE id = ?", (table_id,))
    assert row is not None
    return row["owner"], row["fence"]


async def test_a_new_table_is_held_by_the_process_that_made_it(tmp_path: Path) -> None:
    clock = LeaseClock()
    db, manager = await open_manager(tmp_path / "euchre.db", owner="a", lease_clock=clock)
    try:
        table = await seated_table(manager, 11)
        assert await owner_of(manager, table.id) == ("a", 1)
        until = await db.fetchval("SELECT lease_until FROM tables WHERE id = ?", (table.id,))
        assert until == clock.now + manager.lease_seconds
    finally:
        await shut(db, manager)


async def test_another_process_does_not_take_a_table_whose_lease_lives(tmp_path: Path) -> None:
    async with two_processes(tmp_path) as (clock, a, b):
        table = await seated_table(a, 11)
        clock.now += a.lease_seconds - 1
        assert await b.load() == [] and await b.tend_leases() == []
        assert await owner_of(a, table.id) == ("a", 1)
        await act(a, table, "pass")  # the holder plays on


async def test_a_process_that_lost_a_table_cannot_write_to_it(tmp_path: Path) -> None:
    """Fencing: `a` stalls past its lease, `b` takes the table over (fence 2); `a`'s next write
    is refused in the transaction, nothing of it is stored, and `a` lets the table go."""
    async with two_processes(tmp_path) as (clock, a, b):
        table = await seated_table(a, 11)
        await act(a, table, "pass")
        clock.now += a.lease_seconds + 1
        (taken,) = await b.load()
        assert await owner_of(b, table.id) == ("b", 2)
        stored = await events(a.db, table.id)

        with pytest.raises(TableError) as refused:
            await act(a, table, "pass")
        assert str(refused.value) == MOVED
        assert await events(a.db, table.id) == stored
        with pytest.raises(TableError, match="moved to another part of the bot"):
            a.table_in(11)
        assert kept_of(a, table) == []

        # The new holder has every action the old one stored, and plays on.
        assert list(taken.actions) == [(s, x) for s, x in table.actions[: len(taken.actions)]]
        assert taken.match.to_act == (taken.match.deal.dealer + 2) % 4
        await act(b, taken, "pass")
        assert len(await events(b.db, table.id)) == len(stored) + 1


async def test_the_same_process_started_again_takes_its_tables_back_at_once(
    tmp_path: Path,
) -> None:
    """A restart keeps the process's name, so it need not wait for its old lease to run out;
    the old run, should it still be alive, is fenced out."""
    path, clock = tmp_path / "euchre.db", LeaseClock()
    db_old, old = await open_manager(path, owner="shards 0 of 2", lease_clock=clock)
    db_new, new = await open_manager(path, owner="shards 0 of 2", lease_clock=clock)
    try:
        table = await seated_table(old, 11)
        (again,) = await new.restore()
        assert again.id == table.id and await owner_of(new, table.id) == ("shards 0 of 2", 2)
        with pytest.raises(TableError, match="moved to another part of the bot"):
            await act(old, table, "pass")
        await act(new, again, "pass")
    finally:
        await shut(db_new, new)
        await shut(db_old, old)


async def test_tables_of_a_process_that_stopped_without_a_word_are_taken_over(
    tmp_path: Path,
) -> None:
    """kill -9: `a` never releases; once its lease has run out, `b`'s round of lease-keeping
    takes each table over, rebuilds it as stored and tells its channel once."""
    path, clock = tmp_path / "euchre.db", LeaseClock()
    db_a, a = await open_manager(path, owner="a", lease_clock=clock)
    listener = Listener()
    db_b, b = await open_manager(path, owner="b", lease_clock=clock, listener=listener)
    rng = random.Random(5)
    try:
        tables = [await seated_table(a, channel) for channel in (11, 12, 13)]
        for table in tables:
            for _ in range(rng.randrange(1, 9)):
                await act_randomly(a, table, rng)
        played = {t.id: list(t.actions) for t in tables}
        assert await b.tend_leases() == []  # still a's
        clock.now += a.lease_seconds + 0.5
        taken = await b.tend_leases()
        assert {t.id: list(t.actions) for t in taken} == played
        assert sorted(listener.restored) == sorted(played)
        assert await b.tend_leases() == []  # taken once
        assert sorted(listener.restored) == sorted(played)
        for table in taken:
            await act_randomly(b, table, rng)
    finally:
        await shut(db_b, b)
        await db_a.close()


async def test_tables_taken_over_together_are_claimed_in_one_transaction(
    tmp_path: Path,
) -> None:
    """A process taking over another's tables claims them all in one commit: one commit per
    table made each claim wait its turn behind the process's own traffic and every other
    process's, and a standby took 16 s, not 8, to take a thousand tables over
    (bench/scale.py)."""
    path, clock = tmp_path / "euchre.db", LeaseClock()
    db_a, a = await open_manager(path, owner="a", lease_clock=clock)
    db_b, b = await open_manager(path, owner="b", lease_clock=clock)
    try:
        tables = [await seated_table(a, channel) for channel in (11, 12, 13, 14)]
        clock.now += a.lease_seconds + 0.5
        commits = b.writer.batches
        taken = await b.tend_leases()
        assert sorted(t.id for t in taken) == sorted(t.id for t in tables)
        assert b.writer.batches - commits == 2  # renew and look, then claim them all
        assert {await owner_of(b, t.id) for t in tables} == {("b", 2)}
        db_c, c = await open_manager(path, owner="c", lease_clock=clock)
        try:
            clock.now += b.lease_seconds + 0.5
            assert len(await c.load()) == 4 and c.writer.batches == 1
        finally:
            await shut(db_c, c)
    finally:
        await shut(db_b, b)
        await db_a.close()


async def test_a_clean_stop_lets_another_process_take_the_tables_at_once(tmp_path: Path) -> None:
    path, clock = tmp_path / "euchre.db", LeaseClock()
    db_a, a = await open_manager(path, owner="a", lease_clock=clock)
    table = await seated_table(a, 11)
    await act(a, table, "pass")
    await shut(db_a, a)
    db_b, b = await open_manager(path, owner="b", lease_clock=clock)
    try:
        (taken,) = await b.load()
        assert taken.id == table.id and await owner_of(b, table.id) == ("b", 2)
    finally:
        await shut(db_b, b)


async def test_tending_the_leases_lets_go_of_a_table_another_process_took(tmp_path: Path) -> None:
    async with two_processes(tmp_path) as (clock, a, b):
        table = await seated_table(a, 11)
        clock.now += a.lease_seconds + 1
        await b.load()
        await a.tend_leases()
        assert 11 not in a.tables and a.deadlines.get(table.id) is None
        assert await owner_of(a, table.id) == ("b", 2)  # a renews only what it holds


async def test_an_interaction_delivered_twice_is_applied_once(tmp_path: Path) -> None:
    """Adding a computer is legal twice over, so only the interaction's id tells the second
    delivery from a second click: it is refused, and memory and storage hold one computer."""
    db, manager = await open_manager(tmp_path / "euchre.db")
    try:
        change = await manager.create(7, 11, member(11, 1), "host")
        table = change.table
        current_interaction.set(555)
        await manager.add_bot(11, member(11, 1), None, None)
        current_interaction.set(555)
        with pytest.raises(TableError) as refused:
            await manager.add_bot(11, member(11, 1), None, None)
        assert str(refused.value) == TWICE
        assert sum(1 for s in manager.table_in(11).seats if s is not None and s.is_bot) == 1
        assert [e[4] for e in await events(db, table.id)] == ["create", "addbot:expert"]
        stored = await db.fetchval(
            "SELECT COUNT(*) FROM table_events WHERE interaction_id = 555", default=0
        )
        assert stored == 1
        # Another interaction adds the second computer.
        current_interaction.set(556)
        await manager.add_bot(11, member(11, 1), None, None)
        assert sum(1 for s in manager.table_in(11).seats if s is not None and s.is_bot) == 2
    finally:
        await shut(db, manager)


async def test_an_interaction_names_one_event_only(tmp_path: Path) -> None:
    """The moves a member's request sets off (a computer's reply) do not carry its id."""
    pool = ThreadPoolExecutor(1)
    db, manager = await open_manager(tmp_path / "euchre.db", computers=ComputerSeats(pool))
    try:
        await manager.create(7, 11, member(11, 1), "host")
        for seat in (1, 2, 3):
            await manager.add_bot(11, member(11, 1), seat, "easy")
        current_interaction.set(777)
        change = await manager.start(11, member(11, 1))
        table = change.table

        # The computers move in tasks of their own, until it is the member's turn.
        async def members_turn() -> None:
            host = member(11, 1)  # the cut may have seated him anywhere
            while table.seats[table.match.to_act].user_id != host and not table.match.over:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(members_turn(), 60)
        rows = await db.fetchall(
            "SELECT action FROM table_events WHERE table_id = ? AND interaction_id IS NOT NULL",
            (table.id,),
        )
        assert [r["action"] for r in rows] == ["start"]
        assert current_interaction.get() is None
    finally:
        await shut(db, manager)
        pool.shutdown()


async def test_the_writer_refuses_a_stale_fence_and_a_repeated_interaction_alone(
    tmp_path: Path,
) -> None:
    """In one batch: a write with a stale fence and a second write of one interaction are
    refused with their errors; the rest of the batch is stored."""
    db, manager = await open_manager(tmp_path / "euchre.db", owner="a")
    try:
        table = await seated_table(manager, 11)
        writer = BatchWriter(db)
        mark = "INSERT INTO bot_state (key, value, updated_at) VALUES (?, 'x', 'now')"
        results = await asyncio.gather(
            writer.write(rows=[(mark, ("kept",))], fence=(table.id, 1)),
            writer.write(rows=[(mark, ("stale",))], fence=(table.id, 0)),
            writer.write(rows=[(mark, ("first",))], request=9),
            writer.write(rows=[(mark, ("again",))], request=9),
            return_exceptions=True,
        )
        await writer.close()
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], LeaseLost) and isinstance(results[3], AlreadyApplied)
        keys = {r["key"] for r in await db.fetchall("SELECT key FROM bot_state")}
        assert {"kept", "first"} <= keys and not {"stale", "again"} & keys
        assert await leases.fences(db, [table.id, table.id + 1]) == {table.id: 1}
    finally:
        await shut(db, manager)
