"""Euchre nights in play: seating each round at tables of the game manager, ending the round
after its deals or its time, moving on to the next round, and closing the night.

One task per night (`_watch`) does everything that changes a night once it is played, one step
at a time, so nothing about a night happens twice at once. It wakes when a deal ends at one of
the night's tables or one of them is closed, by `/table close` or otherwise (the manager's
observers), when the round's time runs out, and when a player comes or goes. Everything it decides is stored before it
acts on it, so after a restart the same step finds where it was: a round half seated is seated
on, a round whose time ran out while the bot was down is ended, and the tables themselves
resume as every table does.

It never touches Discord: a `NightListener` (the Discord layer) opens threads and shows what
changed. The players' totals are not kept in memory: they are summed from the stored hands,
and the standings are redrawn (coalesced: at most one drawing at a time and one waiting) after
every deal.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.leagues import night as plans
from bot.leagues.night_export import PlayedTable, night_emn
from bot.leagues.progressive import MAX_PLAYERS
from bot.leagues.rounds import Round
from bot.rerun import Rerun, log_task_end, woken
from bot.storage import leagues, nights
from bot.storage import tables as table_store
from bot.storage.database import Database
from bot.storage.nights import Night, NightError, NightTable, Total
from bot.tables.manager import Change, TableManager
from bot.tables.table import CLOSED, Table, TableError

log = logging.getLogger(__name__)

# The night is woken by its tables' events (a deal ended, a table closed), so it need not poll.
# A slow look remains as a safety net only: an observer runs as a task of its own, and one
# that failed (logged) would otherwise leave a night waiting for an event already gone.
SAFETY_POLL_SECONDS = 60.0
RETRY_SECONDS = 5.0  # after a step that failed (a Discord error opening a thread, say)
COMPUTER_LEVEL = "standard"
ROUND_OVER = "the round is over"


async def _drawn(draw: Callable[..., Any], *args: Any) -> Any:
    """A plan drawn in a thread: a schedule takes up to seconds to draw (about 2-4 s for 180 to
    199 players, where no whist design is known and tables are seated by trial), and the event
    loop must answer every other table's clicks meanwhile."""
    return await asyncio.to_thread(draw, *args)


class NightListener(Protocol):
    """What the Discord layer implements to play a night in threads and show it."""

    async def open_thread(self, night: Night, number: int, position: int) -> int: ...
    async def table_seated(
        self, night: Night, table: Table, number: int, position: int
    ) -> None: ...
    async def round_seated(self, night: Night, number: int, byes: list[str]) -> None: ...
    async def standings(self, night: Night, totals: list[Total]) -> None: ...
    async def night_closed(
        self, night: Night, totals: list[Total], emn: dict[str, Any], why: str
    ) -> None: ...


class Nights:
    """Every euchre night being played.

    Args:
        manager: the game manager the night's tables are played at.
        listener: the Discord layer.
        clock: wall-clock seconds (round deadlines are stored in them).
    """

    def __init__(
        self,
        manager: TableManager,
        listener: NightListener,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.manager = manager
        self.listener = listener
        self.clock = clock
        self._night_of: dict[int, int] = {}  # night id by table id, for tables in play
        self._locks: dict[int, asyncio.Lock] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._watchers: dict[int, asyncio.Task[None]] = {}
        self._standings: dict[int, Rerun] = {}
        self._stopped = False
        manager.observers.append(self._deal_ended)

    @property
    def db(self) -> Database:
        return self.manager.db

    # -- start and stop -------------------------------------------------------------------

    async def load(self) -> list[Night]:
        """Re-arm the last deal of every table of the nights in play, before the tables resume
        (so none deals beyond its round), and note which night each table plays for."""
        playing = await nights.nights_in_play(self.db)
        for night in playing:
            for row in await nights.tables_of(self.db, night.id, night.round):
                if row.done:
                    continue
                self._night_of[row.table_id] = night.id
                table = self._table(row)
                if table is not None and row.last_deal is not None:
                    self.manager.stop_after(table, row.last_deal)
        return playing

    def resume(self, playing: list[Night]) -> None:
        """Carry on the nights in play (once Discord is connected)."""
        for night in playing:
            self._watch_night(night.id)
            # A deal stored just before a stop may not have been shown yet.
            self.touch_standings(night.id)

    async def stop(self) -> None:
        """Stop every night's task (a shutdown: everything is stored)."""
        self._stopped = True
        watchers = [*self._watchers.values()]
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        self._watchers.clear()
        # Standings being drawn are finished: they show deals already stored.
        drawing = [s.task for s in self._standings.values() if s.task is not None]
        await asyncio.gather(*drawing, return_exceptions=True)
        with suppress(ValueError):
            self.manager.observers.remove(self._deal_ended)

    def _lock(self, night_id: int) -> asyncio.Lock:
        return self._locks.setdefault(night_id, asyncio.Lock())

    def _watch_night(self, night_id: int) -> None:
        if self._stopped or night_id in self._watchers:
            return
        self._wake[night_id] = asyncio.Event()
        task = asyncio.create_task(self._watch(night_id), name=f"night-{night_id}")
        self._watchers[night_id] = task
        task.add_done_callback(log_task_end)

    def wake(self, night_id: int) -> None:
        event = self._wake.get(night_id)
        if event is not None:
            event.set()

    # -- requests ---------------------------------------------------------------------------

    async def write(self, work: Callable[[Database], Any]) -> Any:
        return await self.manager.writer.write(work)

    async def start(self, night: Night) -> Night:
        """Start a night: its plan for those registered, then round 1 is seated.

        Raises:
            NightError: fewer than four registered, or the night is not open.
        """
        async with self._lock(night.id):
            fresh = await nights.night_by_id(self.db, night.id)
            if fresh is None or fresh.status == nights.CLOSED:  # closed while this waited
                raise NightError("this euchre night is over")
            if fresh.status != nights.OPEN:
                raise NightError("this euchre night has already started")
            present = [p.user_id for p in await nights.players(self.db, night.id) if p.present]
            if len(present) < 4:
                raise NightError(
                    f"a euchre night needs at least 4 players registered; it has {len(present)}:"
                    " they join with /night join or the Join button"
                )
            if len(present) > MAX_PLAYERS:  # registration stops there; this is a guard
                raise NightError(
                    f"a euchre night seats at most {MAX_PLAYERS} players; it has"
                    f" {len(present)} registered: some must /night leave first"
                )
            plan = await _drawn(plans.new_plan, present)
            rounds = night.rounds or len(plan["rounds"])

            async def work(db: Database) -> None:
                await nights.start(db, night.id, plan, rounds)

            await self.write(work)
        self._watch_night(night.id)
        started = await nights.night_by_id(self.db, night.id)
        assert started is not None
        return started

    async def leave(self, night: Night, user_id: int) -> None:
        """A player leaves: from the night's list, and from their table in play (a computer
        plays on there, as at any table)."""
        async with self._lock(night.id):
            # As it stands now: a start or a round's seating may have come while this waited.
            night = await self._night(night.id)
            if night.status == nights.CLOSED:
                raise NightError("this euchre night is over")

            async def work(db: Database) -> None:
                await nights.unregister(db, night, user_id)

            await self.write(work)
            if night.status != nights.PLAYING:
                return
            for row in await nights.tables_of(self.db, night.id, night.round):
                table = self._table(row)
                if table is not None and user_id in row.seats and not row.done:
                    with suppress(TableError):
                        await self.manager.leave(row.thread_id, user_id)
        self.touch_standings(night.id)

    async def close(self, night_id: int, why: str) -> None:
        """Close a night now (after its last round, or by its organiser): its tables in play
        end, and the final standings and the EMN export are shown.

        Raises:
            NightError: the night was closed while this waited (one closing is posted).
        """
        async with self._lock(night_id):
            if (await self._night(night_id)).status == nights.CLOSED:
                raise NightError("this euchre night is over")
            await self._close(night_id, why)

    # -- following the tables ---------------------------------------------------------------

    async def _deal_ended(self, change: Change) -> None:
        """A deal, game or match ended at a table, or the table was closed: the night's task
        looks at once (a closed table is done for the round)."""
        night_id = self._night_of.get(change.table.id)
        if night_id is None:
            return
        if change.kind != "closed":
            self.touch_standings(night_id)
        self.wake(night_id)

    def touch_standings(self, night_id: int) -> None:
        """Redraw a night's standings soon: now if none is being drawn, else right after."""
        state = self._standings.get(night_id)
        if state is None:
            state = self._standings[night_id] = Rerun(
                lambda: self._draw_standings(night_id), "standings"
            )
        state.request(start=not self._stopped)

    async def _draw_standings(self, night_id: int) -> bool:
        night = await nights.night_by_id(self.db, night_id)
        if night is None:
            return False
        try:
            await self.listener.standings(night, await nights.totals(self.db, night_id))
        except Exception:
            log.exception("night %s: drawing the standings failed", night_id)
        return True

    # -- the night's task ------------------------------------------------------------------

    async def _watch(self, night_id: int) -> None:
        wake = self._wake[night_id]
        while True:
            wake.clear()
            try:
                async with self._lock(night_id):
                    wait = await self._step(night_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("night %s: a step failed; trying again shortly", night_id)
                wait = RETRY_SECONDS
            if wait is None:
                self._watchers.pop(night_id, None)
                return
            await woken(wake, wait)

    async def _step(self, night_id: int) -> float | None:
        """Do what the night needs now; the seconds to wait before looking again, or None
        once the night is closed."""
        night = await nights.night_by_id(self.db, night_id)
        if night is None or night.status != nights.PLAYING:
            return None
        if night.round == 0:
            return await self._seat_next(night)
        rnd = await nights.round_of(self.db, night_id, night.round)
        assert rnd is not None  # stored with the night's round number
        rows = await nights.tables_of(self.db, night_id, night.round)
        if len(rows) < len(rnd.tables):  # seating was cut short (a restart): seat the rest
            await self._seat_tables(night, rnd, len(rows))
            # The channel is told once the round is seated, and it was not before the stop.
            await self.listener.round_seated(night, rnd.number, await self._byes(night, rnd))
            rows = await nights.tables_of(self.db, night_id, night.round)
        if rnd.deadline is not None and not rnd.time_up and self.clock() >= rnd.deadline:
            await self._time_up(night, rows)
            rows = await nights.tables_of(self.db, night_id, night.round)
        for row in rows:
            if not row.done:
                await self._end_if_over(night, row)
        rows = await nights.tables_of(self.db, night_id, night.round)
        if all(row.done for row in rows):
            return await self._seat_next(night)
        if rnd.deadline is not None and not rnd.time_up:
            return max(0.0, min(SAFETY_POLL_SECONDS, rnd.deadline - self.clock()))
        return SAFETY_POLL_SECONDS

    def _table(self, row: NightTable) -> Table | None:
        table = self.manager.tables.get(row.thread_id)
        return table if table is not None and table.id == row.table_id else None

    async def _end_if_over(self, night: Night, row: NightTable) -> None:
        table = self._table(row)
        if table is not None and table.status != CLOSED and not self.manager.round_over(table):
            return
        if table is not None and table.status != CLOSED:
            await self.manager.end_round(table, ROUND_OVER)
        self._night_of.pop(row.table_id, None)

        async def work(db: Database) -> None:
            await nights.set_table_done(db, night.id, row.table_id)

        await self.write(work)

    async def _time_up(self, night: Night, rows: list[NightTable]) -> None:
        """The round's time ran out: each table finishes the deal in play, and deals no more."""
        last = {}
        for row in rows:
            table = self._table(row)
            if table is not None and not row.done:
                last[row.table_id] = self.manager.deal_in_play(table)

        async def work(db: Database) -> None:
            for table_id, deal in last.items():
                await nights.set_last_deal(db, night.id, table_id, deal)
            await nights.set_time_up(db, night.id, night.round)

        await self.write(work)
        for row in rows:
            table = self._table(row)
            if table is not None and row.table_id in last:
                self.manager.stop_after(table, last[row.table_id])

    # -- seating a round ------------------------------------------------------------------

    async def _seat_next(self, night: Night) -> float | None:
        """Seat the night's next round, or close the night after its last."""
        number = night.round + 1
        if night.rounds is not None and number > night.rounds:
            await self._close(night.id, "its last round is over")
            return None
        present = [p.user_id for p in await nights.players(self.db, night.id) if p.present]
        if not present:
            # Computers would play each round on for nobody: the night is over.
            await self._close(night.id, "every player has left")
            return None
        plan = dict(night.plan or await _drawn(plans.new_plan, present))
        seated = await self._round_by_movement(night, plan, number)
        if night.late == plans.COMPUTER:
            # Latecomers play from this round: see `plans.seat_latecomers` for where.
            formed = plans.seat_latecomers(plan, present)
            if night.movement == plans.SCHEDULE:
                seated = Round(seated.tables + plans.extra_tables(plan, number), seated.byes)
            else:  # winners move up carries the extra tables on from the last round
                seated = Round(seated.tables + tuple(formed), seated.byes)
        elif plans.changed(plan, present):
            redrawn = await _drawn(plans.redrawn, plan, present, number, night.movement, seated)
            if redrawn is None:
                await self._close(night.id, "fewer than four players are left")
                return None
            plan, seated = redrawn, plans.scheduled_round(redrawn, number)
        deadline = self.clock() + night.minutes_per_round * 60 if night.minutes_per_round else None

        async def work(db: Database) -> None:
            await nights.set_plan(db, night.id, plan)
            await nights.add_round(
                db, night.id, number, list(seated.tables), list(seated.byes), deadline
            )

        await self.write(work)
        night = await self._night(night.id)
        rnd = await nights.round_of(self.db, night.id, number)
        assert rnd is not None  # stored just now
        await self._seat_tables(night, rnd, 0)
        await self.listener.round_seated(night, number, await self._byes(night, rnd))
        self.touch_standings(night.id)
        return 0.0  # look at once: a table may have been done before it began

    async def _night(self, night_id: int) -> Night:
        night = await nights.night_by_id(self.db, night_id)
        assert night is not None  # nights are never deleted
        return night

    async def _round_by_movement(self, night: Night, plan: dict[str, Any], number: int) -> Round:
        if night.movement == plans.SCHEDULE or number == 1:
            return plans.scheduled_round(plan, number)
        last = await nights.round_of(self.db, night.id, number - 1)
        assert last is not None  # the rounds are seated in order
        winners = []
        for row in await nights.tables_of(self.db, night.id, number - 1):
            p0, p1, t0, t1, _ = await nights.table_points(self.db, row.table_id)
            winners.append(plans.side_that_won((p0, p1), (t0, t1)))
        # Byes so far, by place: the rounds seated in this plan's places (a plan drawn again
        # for those present numbers them anew).
        sat_out: Counter[int] = Counter()
        for earlier in range(max(1, plan.get("first", 1)), number):
            seated = await nights.round_of(self.db, night.id, earlier)
            if seated is not None:
                sat_out.update(int(p) for p in seated.byes)
        return plans.next_by_winners(Round(last.tables, last.byes), winners, sat_out)

    async def _seat_tables(self, night: Night, rnd: nights.NightRound, done: int) -> None:
        """Open the round's tables from number `done` + 1 on, each in a thread of its own."""
        assert night.plan is not None  # stored before any round
        places = night.plan["players"]
        names = {p.user_id: p.name for p in await nights.players(self.db, night.id)}
        present = {p.user_id for p in await nights.players(self.db, night.id) if p.present}
        league = await leagues.league_by_id(self.db, night.league_id)
        if league is None:
            raise NightError("the night's league no longer exists")
        for position, places_at in enumerate(rnd.tables[done:], start=done + 1):
            seats = [
                places[p] if places[p] in present else None for p in plans.table_seats(places_at)
            ]
            if all(s is None for s in seats):  # nobody left to play here

                async def nobody(db: Database, position: int = position) -> None:
                    await nights.add_table(
                        db, night.id, rnd.number, position, 0, 0, [None] * 4, None, done=True
                    )

                await self.write(nobody)
                continue
            thread_id = await self._thread_for(night, rnd.number, position)
            table = await self._made_before_a_stop(night, thread_id)
            if table is None:
                table = await self._open_table(night, league, thread_id, seats, names)

            async def store(
                db: Database,
                position: int = position,
                table: Table = table,
                thread: int = thread_id,
            ) -> None:
                await nights.add_table(
                    db,
                    night.id,
                    rnd.number,
                    position,
                    thread,
                    table.id,
                    [o.user_id if o and not o.is_bot else None for o in table.seats],
                    night.deals_per_round,
                )

            await self.write(store)
            self._night_of[table.id] = night.id
            await self.listener.table_seated(night, table, rnd.number, position)

    async def _thread_for(self, night: Night, number: int, position: int) -> int:
        """The thread of a table of the round: the one opened before a stop, else a new one,
        stored before any table is made in it."""
        noted = await nights.noted_thread(self.db, night.id, number, position)
        if noted is not None:
            return noted
        thread_id = await self.listener.open_thread(night, number, position)

        async def note(db: Database) -> None:
            await nights.note_thread(db, night.id, number, position, thread_id)

        await self.write(note)
        return thread_id

    async def _made_before_a_stop(self, night: Night, thread_id: int) -> Table | None:
        """The table made in the thread before a stop, whose row was not stored: once dealt it
        is the round's table; one whose seating was cut short is closed, to be made again."""
        table = self.manager.tables.get(thread_id)
        if table is None or table.status == CLOSED:
            return None
        if table.playing:
            if night.deals_per_round is not None:
                self.manager.stop_after(table, night.deals_per_round)
            return table
        reason = "its seating was cut short by a restart; it is seated again"
        await self.manager.close_table(thread_id, table.host_id, reason=reason)
        return None

    async def _open_table(
        self,
        night: Night,
        league: leagues.League,
        thread_id: int,
        seats: list[int | None],
        names: dict[int, str],
    ) -> Table:
        """An ordinary table in the thread, for the league: the players seated as scheduled
        (partners north-south and east-west), computers in the places of those gone, started."""
        # A human must host the table: turn the seats until one sits at north (partners
        # stay partners: north and south stay opposite each other).
        turn = next(i for i, s in enumerate(seats) if s is not None)
        seats = seats[turn:] + seats[:turn]
        host = seats[0]
        assert host is not None
        manager = self.manager
        change = await manager.create(
            night.guild_id,
            thread_id,
            host,
            names.get(host, "player"),
            league_id=league.id,
            league_name=league.name,
            **league.options,
        )
        table = change.table
        if night.deals_per_round is not None:
            manager.stop_after(table, night.deals_per_round)
        for seat, user_id in enumerate(seats[1:], start=1):
            if user_id is not None:
                try:
                    await manager.join(thread_id, user_id, names.get(user_id, "player"), seat)
                    continue
                except TableError:  # left the league meanwhile: a computer plays instead
                    log.info(
                        "night %s: member %s could not sit; a computer plays", night.id, user_id
                    )
            await manager.add_bot(thread_id, host, seat, COMPUTER_LEVEL)
        await manager.start(thread_id, host, keep_seats=True)
        return table

    async def _byes(self, night: Night, rnd: nights.NightRound) -> list[str]:
        """The names of those who sit out the round."""
        names = {p.user_id: p.name for p in await nights.players(self.db, night.id) if p.present}
        assert night.plan is not None
        places = night.plan["players"]
        return [names[places[p]] for p in rnd.byes if places[p] in names]

    async def late_place(self, night: Night, user_id: int) -> plans.LatePlace | None:
        """Where a member registered during the night sits from the next round (if nobody
        else comes or goes meanwhile); None before the night starts, or with a place already."""
        if night.status != nights.PLAYING or night.plan is None or night.late != plans.COMPUTER:
            return None
        present = [p.user_id for p in await nights.players(self.db, night.id) if p.present]
        return plans.late_place(night.plan, present, user_id)

    # -- closing ----------------------------------------------------------------------------

    async def _close(self, night_id: int, why: str) -> None:
        night = await self._night(night_id)
        if night.status == nights.CLOSED:
            return
        for row in await nights.tables_of(self.db, night_id, night.round or None):
            table = self._table(row)
            if table is not None and table.status != CLOSED:
                await self.manager.end_round(table, "the euchre night is over")
            self._night_of.pop(row.table_id, None)

        async def work(db: Database) -> None:
            await nights.close(db, night_id)

        await self.write(work)
        night = await self._night(night_id)
        totals = await nights.totals(self.db, night_id)
        emn = await self.export(night, totals)
        watcher = self._watchers.pop(night_id, None)
        if watcher is not None and watcher is not asyncio.current_task():
            watcher.cancel()
        await self.listener.night_closed(night, totals, emn, why)

    async def export(self, night: Night, totals: list[Total]) -> dict[str, Any]:
        """The night as an EMN document: every table of every round, as stored."""
        played = []
        for row in await nights.tables_of(self.db, night.id):
            if row.table_id == 0:
                continue
            found = await played_table(self.db, row)
            if found is not None:
                played.append(found)
        league = await leagues.league_by_id(self.db, night.league_id)
        title = f"Euchre night of {league.name}" if league else "Euchre night"
        date = datetime.now(UTC).strftime("%Y-%m-%d")
        return night_emn(
            night.id, title, date, played, [(str(t.user_id), t.name, t.points) for t in totals]
        )


async def played_table(db: Database, row: NightTable) -> PlayedTable | None:
    """A night's table as stored: its seats and its match replayed from its actions."""
    stored = await db.fetchone(
        "SELECT guild_id, channel_id, options, state FROM tables WHERE id = ?", (row.table_id,)
    )
    if stored is None:
        return None
    state = json.loads(stored["state"])
    match_no = state.get("match_no", 0)
    if match_no == 0:
        return None
    decks, actions, _, seeds = await table_store.load_match(db, row.table_id, match_no)
    # Replayed as if still in play, whether the match ended or the table closed.
    table = Table.from_state(
        row.table_id,
        stored["guild_id"],
        stored["channel_id"],
        json.loads(stored["options"]),
        {**state, "status": "playing"},
        decks,
        actions,
        seeds,
    )
    if table.match is None:
        return None
    seats = tuple(
        (str(o.user_id), o.name)
        if o and not o.is_bot
        else (f"computer-{row.table_id}-{s}", "Computer")
        for s, o in enumerate(table.seats)
    )
    return PlayedTable(row.round, row.position, seats, table.match)
