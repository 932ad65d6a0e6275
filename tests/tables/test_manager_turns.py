"""Turns the manager runs by itself: time-outs, computers holding seats, idle tables closing,
and tables of computer players that play without holding up anyone else's clicks."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.tables.computer import ComputerSeats
from bot.tables.manager import IDLE_CLOSE_SECONDS
from bot.tables.table import Table, TableError
from tests.bot.helpers import eventually
from tests.support.fake_discord import WAIT
from tests.tables.managers import (
    GUILD,
    Clock,
    HeldPool,
    Listener,
    act,
    act_randomly,
    events,
    member,
    open_manager,
    seated_table,
    shut,
    to_act,
)

# -- time-outs -----------------------------------------------------------------------------------


async def test_at_time_out_a_computer_makes_that_one_move(tmp_path: Path):
    clock, listener = Clock(), Listener()
    db, manager = await open_manager(
        tmp_path / "euchre.db", timers=True, turn_timeout=0.05, clock=clock, listener=listener
    )
    try:
        table = await seated_table(manager, 81, turn_timeout=3600)
        assert manager.deadlines[table.id] == clock.now + 3600
        # The next turn gets the bot's tiny time-out; the one after it a long one again.
        table.turn_timeout = None
        listener.on_change = lambda change: setattr(change.table, "turn_timeout", 3600)
        await act(manager, table, "pass")
        seat, user = table.match.to_act, to_act(table)
        assert manager.deadlines[table.id] == clock.now + 0.05

        await listener.wait_for(lambda: bool(listener.changes))
        change = listener.changes[0]
        assert change.kind == "timeout" and change.seat == seat and change.by_computer
        assert listener.reminders == [(table.id, seat, clock.now + 0.05)]  # at half time
        assert len(table.actions) == 2 and table.actions[1][0] == seat
        # Counted, and the seat is still the member's.
        assert table.timeouts[seat] == 1 and table.seats[seat].user_id == user
        assert table.match.to_act != seat and manager.deadlines[table.id] == clock.now + 3600
        log = await events(manager.db, table.id, "game")
        assert log[-1][2:] == (seat, None, table.actions[1][1])  # the seat's move, by no member
        assert len(listener.changes) == 1
    finally:
        await shut(db, manager)


async def test_two_time_outs_in_a_row_and_a_computer_holds_the_seat_until_back(tmp_path: Path):
    # A long time-out, and a clock moved past the deadline before the turn's timer first reads
    # it: only the turns the test chooses time out.
    clock, listener = Clock(), Listener()
    db, manager = await open_manager(
        tmp_path / "euchre.db", timers=True, turn_timeout=600, clock=clock, listener=listener
    )
    rng = random.Random(82)
    try:
        table = await seated_table(manager, 82)
        seat, user = table.match.to_act, to_act(table)

        async def time_out() -> None:
            told = len(listener.changes)
            clock.now += 601
            await listener.wait_for(lambda: len(listener.changes) > told)

        async def others_until_seat_is_to_act() -> None:
            await act_randomly(manager, table, rng)
            while table.match.to_act != seat:
                await act_randomly(manager, table, rng)

        await time_out()
        assert listener.changes[-1].kind == "timeout" and table.timeouts[seat] == 1
        await others_until_seat_is_to_act()
        await time_out()
        assert listener.changes[-1].kind == "takeover" and table.timeouts[seat] == 2
        held = table.seats[seat]
        assert held.is_bot and held.held_for == user and table.flagged
        assert (await events(manager.db, table.id, "table"))[-1][2:] == (seat, None, "takeover")
        with_timeouts = len(listener.reminders)

        # The computer now plays the seat's turns, at once and with no timer.
        for _ in range(2):
            await others_until_seat_is_to_act()
            moves = len(table.actions)
            await listener.wait_for(lambda moves=moves: len(table.actions) > moves)
            assert table.actions[moves][0] == seat and listener.changes[-1].kind == "action"
        assert len(listener.reminders) == with_timeouts
        with pytest.raises(TableError, match="use /table back"):
            await manager.act(82, user, "pass")

        if table.match.to_act == seat:
            await listener.wait_for(lambda: table.match.to_act != seat)
        change = await manager.back(82, user)
        assert (
            change.kind == "back"
            and table.seats[seat].user_id == user
            and table.timeouts[seat] == 0
        )
        await others_until_seat_is_to_act()
        assert (await act_randomly(manager, table, rng)).seat == seat  # the member plays again
        assert [
            (s, a) for _, _, s, _, a in await events(manager.db, table.id, "game")
        ] == table.actions
    finally:
        await shut(db, manager)


# -- idle tables ---------------------------------------------------------------------------------


async def test_tables_idle_for_a_day_close_and_unfinished_play_is_abandoned(tmp_path: Path):
    clock, listener = Clock(), Listener()
    db, manager = await open_manager(tmp_path / "euchre.db", clock=clock, listener=listener)
    rng = random.Random(91)
    try:
        idle = await seated_table(manager, 91)
        for _ in range(3):
            await act_randomly(manager, idle, rng)
        seating = await seated_table(manager, 92, start=False)
        busy = await seated_table(manager, 93)
        clock.now += IDLE_CLOSE_SECONDS - 3600
        await act_randomly(manager, busy, rng)
        clock.now += 3600

        closed = await manager.close_idle()
        assert sorted(t.id for t in closed) == sorted([idle.id, seating.id])
        assert sorted(manager.tables) == [93]
        assert [c.note for c in listener.changes] == ["idle for 24 hours"] * 2
        rows = {
            r["id"]: (r["status"], r["close_reason"])
            for r in await db.fetchall("SELECT id, status, close_reason FROM tables")
        }
        assert rows == {
            idle.id: ("closed", "idle for 24 hours"),
            seating.id: ("closed", "idle for 24 hours"),
            busy.id: ("open", None),
        }
        matches = dict(await db.fetchall("SELECT id, status FROM matches"))
        assert matches == {idle.match_id: "abandoned", busy.match_id: "playing"}
        assert (await events(db, idle.id))[-1][1:] == ("table", None, None, "close")
        assert await manager.close_idle() == []  # nothing more to close
        with pytest.raises(TableError, match="no table in this channel"):
            await manager.act(91, to_act(idle), "pass")
    finally:
        await shut(db, manager)


# -- computer players ------------------------------------------------------------------------------


async def test_four_computers_play_a_whole_game_while_another_table_is_answered(tmp_path: Path):
    held = HeldPool()
    listener = Listener()
    db, manager = await open_manager(
        tmp_path / "euchre.db", computers=ComputerSeats(held.pool), listener=listener
    )
    rng = random.Random(95)
    try:
        host = member(95, 1)
        computers: Table = (await manager.create(GUILD, 95, host, "host", points=3)).table
        for _ in range(3):
            await manager.add_bot(95, host, None, "easy")
        await manager.start(95, host)
        humans = await seated_table(manager, 96)
        if computers.match.to_act == computers.seat_of(host):
            await act(manager, computers, "pass")

        # A computer is thinking in the pool (held there): the other table's clicks are answered.
        await eventually(lambda: held.waiting >= 1, what="a computer's choice")
        thinking = len(computers.actions)
        for _ in range(5):
            await act_randomly(manager, humans, rng)
        assert len(computers.actions) == thinking and len(humans.actions) == 5
        held.release()

        # The host times out twice; a computer holds that seat too, and the table plays itself.
        host_seat = computers.seat_of(host)
        while computers.seat_of(host) is not None:
            await listener.wait_for(lambda: computers.match.to_act == host_seat)
            await manager.time_out_now(computers)
        assert all(o.is_bot for o in computers.seats)

        answered_while_playing, seen = 0, set()
        while computers.playing:
            if not humans.playing:
                await manager.start(96, member(96, 1))
            await act_randomly(manager, humans, rng)
            if computers.playing:
                answered_while_playing += 1
                seen.add(len(computers.actions))
        # Both tables moved on together: the humans' clicks were answered between the
        # computers' moves, not after the computers' game.
        assert answered_while_playing >= 10 and len(seen) >= 10

        assert computers.match.over and computers.status == "seating"
        # The last move is in memory once applied; it is stored when its request lets the
        # table's lock go.
        async with manager.lock_for(computers):
            pass
        game_events = await events(db, computers.id, "game")
        assert [(s, a) for _, _, s, _, a in game_events] == computers.actions
        status, flagged = await db.fetchone(
            "SELECT status, flagged FROM matches WHERE id = ?", (computers.match_id,)
        )
        assert (status, flagged) == ("finished", 1)  # computers played: flagged
        stored = [(s, a) for _, _, s, _, a in await events(db, humans.id, "game")]
        assert stored[-len(humans.actions) :] == humans.actions
    finally:
        held.close()
        await shut(db, manager)


# -- shutting down -------------------------------------------------------------------------------


class _SlowToShow(Listener):
    """A Discord layer that is still showing a computer's move when the bot is asked to stop."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.shown: list[str | None] = []

    async def table_changed(self, change) -> None:
        if change.by_computer:
            self.entered.set()
            await self.release.wait()
            self.shown.append(change.action)
        await super().table_changed(change)


async def test_a_stored_computer_move_is_shown_before_a_shutdown_goes_on(tmp_path: Path):
    listener = _SlowToShow()
    pool = ThreadPoolExecutor(1)
    db, manager = await open_manager(
        tmp_path / "euchre.db", listener=listener, computers=ComputerSeats(pool)
    )
    try:
        await manager.create(GUILD, 91, member(91, 1), "host")
        for _ in range(3):
            await manager.add_bot(91, member(91, 1), None, "easy")
        table = manager.table_in(91)
        while True:
            await manager.start(91, member(91, 1))
            if table.seats[table.match.to_act].is_bot:
                break
            await manager.close_table(91, member(91, 1))  # the host deals first: try again
            await manager.create(GUILD, 91, member(91, 1), "host")
            for _ in range(3):
                await manager.add_bot(91, member(91, 1), None, "easy")
            table = manager.table_in(91)
        await asyncio.wait_for(listener.entered.wait(), WAIT)  # a move stored, being shown
        stopping = asyncio.create_task(manager.stop_turns())
        for _ in range(20):
            await asyncio.sleep(0)
        assert not stopping.done()  # the stop waits for the move to be shown...
        listener.release.set()
        await asyncio.wait_for(stopping, WAIT)
        assert len(listener.shown) == 1  # ...and it was shown, not cut short
    finally:
        listener.release.set()
        await shut(db, manager)
        pool.shutdown(wait=True)
