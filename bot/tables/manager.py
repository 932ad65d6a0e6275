"""The game manager: every table of every server, one lock each, nothing lost.

One entry point per request checks it against the table (seat, turn, host), applies it, and
writes it to SQLite before returning, so the reply a member sees is always of a durable state:
a restart at any moment resumes every table where its last accepted action left it.

Around the tables it runs the turn timers (a reminder at half time, a computer's move at the
deadline, a computer holding the seat after two time-outs in a row), the computer players'
moves, and the closing of tables idle for a day. It never touches Discord: it tells a
`TableListener` (the Discord layer) what changed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol

from bot.engine.deal import HandResult
from bot.engine.match import GameResult, MatchView
from bot.engine.rules import build_options
from bot.engine.variants import make_variant
from bot.engine.variants.rules import VARIANT_ONLY_OPTIONS, no_such_option
from bot.engine.variants.scoring import VariantResult
from bot.rerun import log_task_end
from bot.storage import hints, leagues, leases, members, results
from bot.storage import tables as store
from bot.storage.batch import BatchWriter, Together
from bot.storage.database import Database
from bot.storage.errors import AlreadyApplied, IntegrityError, LeaseLost, WriterClosed
from bot.tables.computer import ComputerSeats
from bot.tables.requests import take_interaction
from bot.tables.results import ResultsRecorder, names_of, players_of, seated_now
from bot.tables.table import (
    CLOSED,
    DEFAULT_LEVEL,
    PING_AFTER,
    PING_EVERY,
    PING_MODES,
    PING_NEVER,
    PLAYING,
    TIMEOUT_TAKEOVER,
    LeagueTableError,
    NotAtThisTable,
    Occupant,
    PositionMoved,
    Substitution,
    Table,
    TableError,
)

log = logging.getLogger(__name__)
# The HTTP status of a request Discord refuses the bot for want of a permission.
FORBIDDEN = 403

IDLE_CLOSE_SECONDS = 24 * 60 * 60
DEFAULT_PING_AFTER = 30  # seconds a member may think before the bot pings them

# A member's request whose write failed (a full disk, a locked or broken file), as `_save`
# words it: memory is put back as stored, and the member may simply try again.
UNSAVED = "that could not be saved, so it did not happen: please try again"
# A request reaching a process that has just lost the table to another process of the bot.
MOVED = "this table has just moved to another part of the bot: please try again in a moment"
# A move that waited for the table while the table moved on (bot/tables/manager.py `act`).
POSITION_MOVED = (
    "the game moved on while this move waited (a move just before it, or a computer's when the"
    " turn timed out), so it played nothing: look at your hand again"
)
# The same Discord interaction delivered a second time: the first was applied.
TWICE = "that was already done (your click reached the bot twice)"

# Seconds a process's lease on a table lasts: how soon another process may take over the tables
# of one that stopped without a word (killed, cut off). It is renewed every third of that.
LEASE_SECONDS = 6.0


@dataclass
class Change:
    """What one accepted request changed, for the Discord layer to show.

    Attributes:
        table: the table after the change.
        kind: what happened: `created`, `seating`, `started`, `action`, `timeout`,
            `takeover`, `back`, `substitute`, `closed`; `abandoned` (to observers only): a
            league's match was recorded as the table closed before it ended.
        seat: the seat that acted, if any.
        action: the action taken, if any.
        by_computer: a computer made the move.
        hand: the result of the hand this action ended.
        games: games this action ended (GameResults compare by value: two can be equal).
        first_game: the number of the first of `games` in the match (from 0).
        match_over: this action ended the match (rubber or game).
        cut: the cards cut when a match started.
        note: a line to show in the channel.
        deal: the number of the deal the action was taken in (from 1).
        match_no: the table's match the action was taken in.
        who: the name of the member a seating change concerns (who left, timed out, ...).
        variant_result: at a variant's table, the result of the deal this action ended
            (`hand` stays None: it is the four-handed deal's).
        handed: the seat a substitute took with this change, and from whom: the last consent
            given, or the substitute's acceptance, seated them, or the member whose consent
            the request still waited for left, was removed, or timed out twice (a computer
            holds the seat now, and gives no consent).
        withdrawn: the seat a substitute was asked to take, and who asked, when the member
            named was removed by the host with this change: the request is withdrawn.
        replaced: a substitute asked for: the request still waiting that it replaced.
        new_host: the name of the member who became the host with this change (the host
            left), if one did.
        by_moderator: a member who may manage the channel, not the host, made the change (a
            removal).
    """

    table: Table
    kind: str
    seat: int | None = None
    action: str | None = None
    by_computer: bool = False
    hand: HandResult | None = None
    games: list[GameResult] = field(default_factory=list)
    first_game: int = 0
    match_over: bool = False
    cut: list[list[tuple[str, str]]] | None = None
    note: str | None = None
    deal: int = 0
    match_no: int = 0
    who: str | None = None
    variant_result: VariantResult | None = None
    handed: Handover | None = None
    withdrawn: Handover | None = None
    replaced: Substitution | None = None
    new_host: str | None = None
    by_moderator: bool = False


class Handover(NamedTuple):
    """A seat a substitute took (S.18), and the name of the member who handed it over."""

    seat: int
    by: str | None


class TableListener(Protocol):
    """What the Discord layer implements to hear of changes it did not ask for itself."""

    async def table_changed(self, change: Change) -> None: ...
    async def turn_reminder(self, table: Table, seat: int, deadline: float) -> None: ...
    async def table_restored(self, table: Table) -> None: ...


class _Silent:
    async def table_changed(self, change: Change) -> None:
        return None

    async def turn_reminder(self, table: Table, seat: int, deadline: float) -> None:
        return None

    async def table_restored(self, table: Table) -> None:
        return None


def _now() -> datetime:
    return datetime.now(UTC)


class TableManager:
    """All tables, by channel.

    Args:
        db: the open database.
        turn_timeout: seconds a player has for each turn.
        default_preset: the preset of a table created without one.
        computers: who chooses computer moves (a thread pool by default).
        computer_delay: seconds a computer waits before moving, so players can follow.
        clock: wall-clock seconds (tests pass their own).
        owner: this process's name as a tables' lease holder: the same for the same process
            started again (its shards), so a restart takes its tables back at once.
        lease_seconds: how long a lease lasts without renewal.
        lease_clock: Unix seconds, for leases (shared by every process).
    """

    def __init__(
        self,
        db: Database,
        *,
        turn_timeout: float = 120,
        default_preset: str = "somerset",
        computers: ComputerSeats | None = None,
        computer_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        listener: TableListener | None = None,
        timers: bool = True,
        owner: str = "the bot",
        lease_seconds: float = LEASE_SECONDS,
        lease_clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.turn_timeout = turn_timeout
        self.default_preset = default_preset
        self.computers = computers or ComputerSeats()
        self.computer_delay = computer_delay
        self.clock = clock
        self.listener: TableListener = listener or _Silent()
        self.timers_on = timers
        self.owner = owner
        self.lease_seconds = lease_seconds
        self.lease_clock = lease_clock
        self._fences: dict[int, int] = {}  # the fence of each table this process holds, by id
        self._gone: set[int] = set()  # channels whose table another process took over
        self._serves: Callable[[int], bool] | None = None
        self._leasing: asyncio.Task[None] | None = None
        self.writer = BatchWriter(db)
        self.results = ResultsRecorder()
        self.tables: dict[int, Table] = {}  # by channel id
        self._locks: dict[int, asyncio.Lock] = {}  # by table id
        self._seq: dict[int, int] = {}  # last event number, by table id
        self._saved_decks: dict[int, tuple[int, int]] = {}  # (match_no, decks stored), by table id
        self._state_keys: dict[int, tuple[Any, ...]] = {}  # _state_key at the last state write
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._clocked: dict[int, tuple[Any, ...]] = {}  # the turn each table's task is for
        self.deadlines: dict[int, float] = {}  # by table id
        self.last_activity: dict[int, float] = {}  # by table id
        self._sweeper: asyncio.Task[None] | None = None
        self._closed = False
        self.pings: dict[int, tuple[str, int | None]] = {}  # members' own ping settings
        # The last action a member took with their own click, by table: (match, its number in
        # the match, the member), so a turn that click gave them is not pinged at once.
        self._clicked: dict[int, tuple[int, int, int]] = {}
        self._showing: set[asyncio.Future[None]] = set()  # stored moves being shown
        # Called with every stored change that ends a deal, a game or a match, whoever acted,
        # and with the close of a table ("closed"), whoever closed it (league nights and
        # fixtures follow their tables this way). Each runs as its own task,
        # outside the table's lock, so an observer may call back into the manager.
        self.observers: list[Callable[[Change], Awaitable[None]]] = []
        self._observing: set[asyncio.Task[None]] = set()
        # Accepted requests stored since start (/admin status and metrics give their rate).
        self.stored_events = 0
        # The last deal a table plays, by table id (a euchre night's round): once it is over,
        # no further deal is played and the table waits to be closed by whoever set it.
        self.last_deals: dict[int, int] = {}

    # -- start and stop -------------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Rebuild every open table from storage (replaying its match) and restart its clock:
        `load` then `resume`."""
        return await self.resume(await self.load())

    async def load(self, serves: Callable[[int], bool] | None = None) -> list[Table]:
        """Rebuild every open table from storage, replaying its match, and take requests for it.

        Nothing starts yet (no clock, no computer move, no word to the channel): this needs no
        Discord, so the bot does it before it takes interactions, and calls `resume` once it is
        connected. A table that cannot be rebuilt is logged and left in storage.

        Args:
            serves: whether this process serves a guild (its shards' guilds, when the bot runs
                in several processes); by default every table is loaded.
        """
        self._serves = serves
        self.pings = await members.load_pings(self.db)
        return await self._take(await store.open_tables(self.db))

    async def _take(self, rows: list[store.TableRow]) -> list[Table]:
        """Take the lease of each of these stored tables that this process serves and no other
        process holds, and rebuild them; the others are left to their holders."""
        wanted = [
            row
            for row in rows
            if row.id not in self._fences  # held here already
            and (self._serves is None or self._serves(row.guild_id))  # else another's shard
        ]
        # All in one write: a write per table waits for a commit of its own, behind this
        # process's traffic and every other process's (a thousand tables took seconds).
        fences = await self._claim([row.id for row in wanted]) if wanted else {}
        loaded = []
        for row in wanted:
            fence = fences.get(row.id)
            if fence is None:
                continue  # another process holds it: it is taken over only once its lease ends
            try:
                table = await self._load(row)
            except Exception:
                log.exception("table %s could not be restored; it stays in storage", row.id)
                continue
            self._fences[table.id] = fence
            self._gone.discard(table.channel_id)
            loaded.append(table)
            self.last_activity[table.id] = self.clock()
        return loaded

    async def _claim(self, table_ids: list[int]) -> dict[int, int]:
        # Through the writer: a claim and another process's batches are serialised by the
        # database's writer lock, so no batch writes between its fence check and its commit.
        owner, now, lease = self.owner, self.lease_clock(), self.lease_seconds

        async def work(db: Database) -> dict[int, int]:
            return await leases.claim(db, table_ids, owner, now, lease)

        fences: dict[int, int] = await self.writer.write(work)
        return fences

    async def resume(self, tables: list[Table]) -> list[Table]:
        """Start the clocks and computer moves of loaded tables, tell their channels, and start
        the idle sweeper. A table played on since `load` already runs its own."""
        for table in tables:
            if table.status == CLOSED:
                continue
            if table.id not in self._timers and table.id not in self._computer_tasks:
                self._after_change(table)
            try:
                await self.listener.table_restored(table)
            except Exception as error:
                _not_shown(table, "telling the channel the table was restored", error)
        if self.timers_on and self._sweeper is None and not self._closed:
            self._sweeper = asyncio.create_task(self._sweep_idle(), name="euchre-idle-sweeper")
            self._sweeper.add_done_callback(log_task_end)
        if self.timers_on and self._leasing is None and not self._closed:
            self._leasing = asyncio.create_task(self._keep_leases(), name="euchre-leases")
            self._leasing.add_done_callback(log_task_end)
        return tables

    # -- leases: one owner per table -------------------------------------------------------

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self.tend_leases()
            except WriterClosed:
                return
            except Exception:  # a locked or unreachable database: the next round tries again
                log.warning("renewing the tables' leases failed", exc_info=True)

    async def tend_leases(self) -> list[Table]:
        """Renew this process's leases, let go of tables another process took, and take over
        the tables of this process's servers whose holder's lease ran out (a process that
        stopped without a word, or the shards moved here): they resume here, and their channels
        are told. Returns the tables taken over."""
        owner, now, lease = self.owner, self.lease_clock(), self.lease_seconds

        async def work(db: Database) -> tuple[dict[int, int], list[tuple[int, int]]]:
            return await leases.renew(db, owner, now, lease), await leases.unclaimed(db, now)

        held, free = await self.writer.write(work)
        for table in list(self.tables.values()):
            fence = self._fences.get(table.id)
            if fence is not None and held.get(table.id) != fence:
                self.let_go(table)
        serves = self._serves
        wanted = [
            table_id
            for table_id, guild_id in free
            if table_id not in self._fences and (serves is None or serves(guild_id))
        ]
        if not wanted or self._closed:
            return []
        taken = await self._take(await store.open_tables(self.db, wanted))
        return await self.resume(taken) if taken else []

    def let_go(self, table: Table) -> None:
        """Forget a table another process took over: its clock and computer moves stop here,
        and requests for it are refused until its channel's process has it."""
        if self._fences.pop(table.id, None) is None:
            return
        log.warning("table %s is served by another process now: letting it go", table.id)
        if self.tables.get(table.channel_id) is table:
            del self.tables[table.channel_id]
        self._gone.add(table.channel_id)
        self._cancel(table)
        self._forget(table)

    def _forget(self, table: Table) -> None:
        """Drop what this process keeps of a table it no longer serves (closed, or let go), so a
        process that runs for months does not keep a little of every table it ever had.
        Requests already waiting for its lock hold the lock itself and are refused by `_hold`."""
        for kept in (
            self._fences,  # its lease is not renewed, and runs out
            self._locks,
            self._seq,
            self._saved_decks,
            self._state_keys,
            self.last_deals,
            self.last_activity,
        ):
            kept.pop(table.id, None)

    async def _release(self) -> None:
        """End this process's leases at a clean stop, so another process may take its tables
        at once (the same process started again takes them back whatever the lease)."""
        held, owner = list(self._fences), self.owner

        async def work(db: Database) -> None:
            await leases.release(db, owner, held)

        try:
            await self.writer.write(work)
        except Exception:
            log.warning("releasing the tables' leases failed; they run out by themselves")

    async def _load(self, row: store.TableRow) -> Table:
        table = await self._build(row)
        self.tables[table.channel_id] = table
        self._locks[table.id] = asyncio.Lock()
        return table

    async def _build(self, row: store.TableRow) -> Table:
        match_no = row.state.get("match_no", 0)
        decks, actions, last_seq, seeds = await store.load_match(self.db, row.id, match_no)
        table = Table.from_state(
            row.id, row.guild_id, row.channel_id, row.options, row.state, decks, actions, seeds
        )
        self._seq[table.id] = last_seq
        self._saved_decks[table.id] = (table.match_no, len(table.decks))
        self._state_keys.pop(table.id, None)
        return table

    async def stop_turns(self) -> None:
        """Stop the timers, the computer moves and the idle sweeper, for good: the first step of
        a shutdown, before the Discord layer goes (a move made after it could not be shown).
        Members' requests are still taken and stored."""
        self._closed = True
        tasks = [*self._timers.values(), *self._computer_tasks.values()]
        if self._sweeper:
            tasks.append(self._sweeper)
        if self._leasing:
            tasks.append(self._leasing)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # Moves already stored are shown before the Discord layer goes.
        await asyncio.gather(*self._showing, return_exceptions=True)
        await asyncio.gather(*self._observing, return_exceptions=True)
        self._timers.clear()
        self._computer_tasks.clear()

    async def close(self) -> None:
        """Stop timers and computer moves, flush what is queued and end the computer players'
        worker processes; the tables stay in storage."""
        await self.stop_turns()
        await self._release()
        await self.writer.close()
        await self.computers.aclose()

    # -- finding tables -------------------------------------------------------------------

    def table_in(self, channel_id: int) -> Table:
        """The open table in a channel.

        Raises:
            TableError: there is none.
        """
        table = self.tables.get(channel_id)
        if table is None:
            if channel_id in self._gone:
                raise TableError(MOVED)
            raise NotAtThisTable("there is no table in this channel: start one with /table create")
        if table.id not in self._locks:  # claimed by `create`, not yet stored
            raise TableError("this table is still being opened: try again in a moment")
        return table

    def knows(self, table: Table) -> bool:
        """Whether the table is stored and has its lock (it may have closed since)."""
        return table.id in self._locks

    def lock_for(self, table: Table) -> asyncio.Lock:
        """The table's lock. A table this process no longer serves (closed, or let go) has no
        more writes here, only its last drawing: it gets a lock of its own, unshared."""
        lock = self._locks.get(table.id)
        return asyncio.Lock() if lock is None else lock

    @asynccontextmanager
    async def _hold(self, table: Table) -> AsyncIterator[None]:
        """The table's lock, refusing a request that waited while the table closed."""
        async with self.lock_for(table):
            if table.status == CLOSED:
                raise TableError("this table has closed: start a new one with /table create")
            if table.id not in self._fences:
                raise TableError(MOVED)  # let go while the request waited
            yield

    # -- table requests -------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        preset: str | None = None,
        turn_timeout: int | None = None,
        ping: str | None = None,
        ping_after: int | None = None,
        league_id: int | None = None,
        league_name: str | None = None,
        reserved: dict[int, tuple[int, ...]] | None = None,
        variant: str | None = None,
        seats: int | None = None,
        hints: bool | None = None,
        **overrides: Any,
    ) -> Change:
        """Open a table in a channel and seat its creator, the host.

        A table created for a league (``league_id`` and its name) plays by the options given
        (the league's: the caller checks them) and seats only the league's members.
        ``reserved`` keeps each seat for the members named (a fixture's pairs, as partners).

        A table for a ``variant`` (one of `bot.engine.variants.NAMES`) seats ``seats`` players
        (the variant's fewest when None) and takes only the variant's own options (``points``
        where a game is played to points, ``rounds`` for Napoleon, ``declare_all`` and
        ``euchre_deducts`` for set-back); four-handed euchre refuses those.

        ``hints`` allows /hint (by default, except at a league's table, which never gives one).
        """
        if hints and league_id is not None:
            raise TableError("a league's table plays without hints: create it with hints off")
        if channel_id in self.tables:
            raise TableError(
                "this channel already has a table: /table join it, or play in another channel"
            )
        if variant is None:
            for key in VARIANT_ONLY_OPTIONS:
                if overrides.pop(key, None) is not None:
                    raise TableError(no_such_option("four-handed euchre", key))
        options = build_options(preset or self.default_preset, **overrides if not variant else {})
        rules = None
        if variant is not None:
            if league_id is not None:
                raise TableError("a league's table plays four-handed euchre, not a variant")
            if preset is not None or any(
                key not in ("points", *VARIANT_ONLY_OPTIONS)
                for key, v in overrides.items()
                if v is not None
            ):
                raise TableError(
                    "the presets and rule options are for four-handed euchre; a variant takes"
                    " only its own (points, where a game is played to points)"
                )
            rules = make_variant(variant, seats, **overrides)
        elif seats is not None and seats != 4:
            raise TableError(
                "four-handed euchre is played by 4 players: choose a variant for more or fewer"
            )
        table = Table(0, guild_id, channel_id, Occupant(user_id, name), options, rules)
        table.turn_timeout = turn_timeout
        table.league_id, table.league_name = league_id, league_name
        table.reserved = dict(reserved or {})
        table.hints = league_id is None and hints is not False
        if ping is not None and ping not in PING_MODES:
            raise TableError("choose when players are pinged: every turn, after a wait, or never")
        if ping_after is not None and not 5 <= ping_after <= 3600:
            raise TableError("the wait before a ping must be from 5 to 3600 seconds")
        turn = turn_timeout or self.turn_timeout
        if ping_after is not None and ping_after > turn / 2:
            # The ping always comes by half the turn (`ping_delay`): a longer wait would be
            # cut without a word, and the host would wonder why players are pinged sooner.
            raise TableError(
                f"the wait before a ping is at most half the turn: {turn / 2:g} seconds when a"
                f" turn lasts {turn:g} (a longer turn: the option timeout)"
            )
        if ping_after is not None and ping == PING_NEVER:
            raise TableError("with ping never, no one is pinged: leave ping_after out")
        table.ping = ping or PING_AFTER
        table.ping_after = ping_after
        self.tables[channel_id] = table  # claim the channel before the first await
        try:
            interaction_id = take_interaction()
            lease_until = self.lease_clock() + self.lease_seconds

            async def insert(db: Database) -> int:
                table_id = await store.create_table(
                    db,
                    guild_id,
                    channel_id,
                    user_id,
                    options.to_dict(),
                    table.to_state(),
                    _now(),
                    self.owner,
                    lease_until,
                )
                table.id = table_id
                event = (table_id, 1, 0, "table", 0, user_id, "create", _now().isoformat())
                await store.add_events(db, [(*event, interaction_id)])
                return table_id

            await self.writer.write(insert, request=interaction_id)
        except AlreadyApplied:
            self.tables.pop(channel_id, None)
            raise TableError(TWICE) from None
        except Exception as error:
            self.tables.pop(channel_id, None)
            if _is_open_table_conflict(error):
                # Stored open but not here: a table the last start could not restore.
                log.error("channel %s: an open table is stored but not loaded", channel_id)
                raise TableError(
                    "this channel already has a table the bot could not bring back after a "
                    "restart: ask the bot's operator to look at the log"
                ) from None
            log.exception("channel %s: storing a new table failed", channel_id)
            raise TableError(UNSAVED) from None
        except BaseException:  # cancelled: the channel is free again
            self.tables.pop(channel_id, None)
            raise
        self._locks[table.id] = asyncio.Lock()
        self._fences[table.id] = 1
        self._gone.discard(channel_id)
        self._seq[table.id] = 1
        self._saved_decks[table.id] = (table.match_no, 0)
        self.last_activity[table.id] = self.clock()
        return Change(table, "created")

    async def join(
        self, channel_id: int, user_id: int, name: str, seat: int | None = None
    ) -> Change:
        table = self.table_in(channel_id)
        async with self._hold(table):
            await self._check_league_member(table, user_id)
            where = table.join(user_id, name, seat)
            await self._save(table, "table", table.seat_of(user_id), user_id, f"join:{where}")
        return Change(table, "seating", note=where)

    async def _check_league_member(self, table: Table, user_id: int, to: str = "join") -> None:
        """Refuse a member who does not belong to the league the table plays for."""
        if table.league_id is None or await leagues.is_member(self.db, table.league_id, user_id):
            return
        raise LeagueTableError(
            f"this table plays for the league {{}}: only its members may {to}; join the league"
            " first with /league join",
            table.league_name or "",
        )

    async def leave(self, channel_id: int, user_id: int) -> Change:
        table = self.table_in(channel_id)
        async with self._hold(table):
            who = next((o.name for o in table.members if o.user_id == user_id), None)
            handing = _handing(table)
            host = table.host_id
            seat = table.leave(user_id)
            if not table.members:
                await self._close(table, "everyone left", user_id)
                return Change(table, "closed", note="everyone left")
            handed = handing if table.seat_substitute_if_agreed() else None
            await self._save(table, "table", seat, user_id, "leave")
            new_host = table.member_name(table.host_id) if table.host_id != host else None
        self._after_change(table)
        return Change(table, "left", seat=seat, who=who, handed=handed, new_host=new_host)

    async def add_bot(
        self, channel_id: int, user_id: int, seat: int | None, level: str | None
    ) -> Change:
        table = self.table_in(channel_id)
        async with self._hold(table):
            table.require_host(user_id)
            seat = table.add_bot(seat, level or DEFAULT_LEVEL)
            await self._save(table, "table", seat, user_id, f"addbot:{level or DEFAULT_LEVEL}")
        return Change(table, "seating", seat=seat)

    async def kick(
        self,
        channel_id: int,
        user_id: int,
        target_id: int,
        target_name: str | None = None,
        may_manage: bool = False,
    ) -> Change:
        """The host removes a member (`target_name`: how the member is called, for a member
        whose seat a computer holds, whom the table knows by id only), or a member who may
        manage the channel does (a moderator, who may also close the table)."""
        table = self.table_in(channel_id)
        async with self._hold(table):
            table.require_host(user_id, may_manage)
            who = next((o.name for o in table.members if o.user_id == target_id), target_name)
            handing = _handing(table)
            named = table.substitution is not None and table.substitution.user_id == target_id
            seat = table.kick(target_id)
            handed = handing if table.seat_substitute_if_agreed() else None
            await self._save(table, "table", seat, user_id, f"kick:{target_id}")
        self._after_change(table)
        return Change(
            table,
            "kicked",
            seat=seat,
            who=who,
            handed=handed,
            withdrawn=handing if named else None,
            by_moderator=user_id != table.host_id,
        )

    async def start(self, channel_id: int, user_id: int, keep_seats: bool = False) -> Change:
        """Cut for partners and deal (host only, four seated)."""
        table = self.table_in(channel_id)
        async with self._hold(table):
            table.require_host(user_id)
            cut = table.start(keep_seats=keep_seats)

            async def allocate(db: Database) -> None:
                table.match_id = await self.results.new_match(db, table)

            await self._save(
                table, "table", None, user_id, "start", before=allocate, results_only=True
            )
        self._after_change(table)
        return Change(table, "started", cut=cut)

    async def substitute(
        self,
        channel_id: int,
        user_id: int,
        sub_id: int,
        sub_name: str,
        shown: Callable[[Table, int], bool] | None = None,
    ) -> Change:
        """A player asks for a substitute; `shown(table, number)` says whether the offer of
        request `number` is shown in the channel (a request the same as one whose offer is
        not, it failed or the bot restarted since, is made again, to be offered again)."""
        table = self.table_in(channel_id)
        async with self._hold(table):
            await self._check_league_member(table, sub_id, "be a substitute")
            who = _name_at(table, table.seat_of(user_id))
            waiting = table.substitution
            again = waiting is not None and shown is not None and not shown(table, waiting.number)
            table.request_substitute(user_id, sub_id, sub_name, again)
            await self._save(
                table, "table", table.seat_of(user_id), user_id, f"substitute:{sub_id}"
            )
        # No one sits yet: the named member is asked (`answer_substitute`), stored first.
        return Change(table, "substitute", note="asked", who=who, replaced=waiting)

    async def consent(self, channel_id: int, user_id: int, number: int | None = None) -> Change:
        """A player consents to the substitute asked for (`number`: the request the member
        saw; a request that replaced it since is not consented to)."""
        table = self.table_in(channel_id)
        async with self._hold(table):
            handing = _handing(table)
            done = table.consent_substitute(user_id, number)
            await self._save(table, "table", table.seat_of(user_id), user_id, "consent")
        if done:
            self._after_change(table)
        return Change(
            table,
            "substitute",
            note="seated" if done else "consented",
            who=handing.by if handing else None,
            handed=handing if done else None,
        )

    async def answer_substitute(
        self, channel_id: int, user_id: int, match_no: int, number: int, accept: bool
    ) -> Change:
        """The member named substitute takes the seat offered, or declines it.

        Returns:
            `note` `seated`, `accepted` (consents still awaited) or `declined`; `seat` the
            seat offered; `who` the member handing it over, or, declined, the one named.
        """
        table = self.table_in(channel_id)
        async with self._hold(table):
            sub = table.substitution
            handing = _handing(table)
            done = table.answer_substitute(user_id, match_no, number, accept)
            assert sub is not None and handing is not None  # else refused: no request waits
            who = handing.by if accept else sub.name
            answer = "accept" if accept else "decline"
            await self._save(table, "table", sub.seat, user_id, f"{answer}:{number}")
        if done:
            self._after_change(table)
        note = "seated" if done else "accepted" if accept else "declined"
        return Change(
            table,
            "substitute",
            seat=sub.seat,
            note=note,
            who=who,
            handed=handing if done else None,
        )

    async def back(self, channel_id: int, user_id: int) -> Change:
        table = self.table_in(channel_id)
        async with self._hold(table):
            seat = table.back(user_id)
            await self._save(table, "table", seat, user_id, "back")
        self._after_change(table)
        return Change(table, "back", seat=seat, who=_name_at(table, seat))

    async def close_table(
        self, channel_id: int, user_id: int, may_manage: bool = False, reason: str | None = None
    ) -> Change:
        """The host (or someone who may manage the channel) ends the table; `reason` says why
        when the bot closes it for the host (a fixture's window ended)."""
        table = self.table_in(channel_id)
        async with self._hold(table):
            table.require_host(user_id, may_manage)
            closed_by = None
            if reason is None:
                by_host = user_id == table.host_id
                reason = "closed by the host" if by_host else "closed by a moderator"
                closed_by = user_id  # a member's close, which a league's audit names
            await self._close(table, reason, user_id, closed_by)
        return Change(table, "closed", note=reason)

    async def set_ping(self, user_id: int, mode: str, after: int | None) -> None:
        """A member's own choice of when to be pinged on their turn, at every table."""
        if mode not in PING_MODES:
            raise TableError("choose when to be pinged: every turn, after a wait, or never")
        if after is not None and not 5 <= after <= 3600:
            raise TableError("the wait before a ping must be from 5 to 3600 seconds")

        async def store_it(db: Database) -> None:
            await members.set_ping(db, user_id, mode, after)

        try:
            await self.writer.write(store_it)
        except Exception:
            log.exception("storing member %s's ping setting failed", user_id)
            raise TableError(
                "that could not be saved, so it did not change: please try again"
            ) from None
        self.pings[user_id] = (mode, after)
        self._ping_anew(user_id)

    def _ping_anew(self, user_id: int) -> None:
        """A member changed when they are pinged during their turn: the turn's timer plans its
        ping again by the new choice, its deadline unchanged (a ping already out stays the
        turn's only one)."""
        for table in list(self.tables.values()):
            match = table.any_match
            task, deadline = self._timers.get(table.id), self.deadlines.get(table.id)
            if not table.playing or match is None or match.to_act is None or deadline is None:
                continue
            occupant = table.seats[match.to_act]
            if occupant is None or occupant.is_bot or occupant.user_id != user_id:
                continue
            if task is None or task.done():
                continue
            task.cancel()
            self._start_timer(table, match.to_act, deadline)

    def _ping_setting(self, table: Table, seat: int) -> tuple[str, int | None] | None:
        """The ping mode and wait of the member at `seat`: the member's own setting, else the
        table's (None for a computer or an empty seat)."""
        occupant = table.seats[seat]
        if occupant is None or occupant.is_bot:
            return None
        return self.pings.get(occupant.user_id, (table.ping, table.ping_after))

    def pinged(self, table: Table, seat: int) -> bool:
        """Whether the member at `seat` is to be notified on their turn (not "never")."""
        setting = self._ping_setting(table, seat)
        return setting is not None and setting[0] != PING_NEVER

    def ping_delay(self, table: Table, seat: int, timeout: float) -> float | None:
        """Seconds into a member's turn when they are pinged, or None for no ping.

        The member's own setting wins over the table's. A wait is never longer than half the
        turn, so the ping always comes well before a computer moves for them.
        """
        setting = self._ping_setting(table, seat)
        if setting is None:
            return None
        mode, after = setting
        if mode == PING_NEVER:
            return None
        if mode == PING_EVERY and not self._plays_on(table, seat):
            return 0.0
        # A member whose own click gave them this turn (the dealer who took it up discards;
        # the trick's winner leads) is at the table: pinged, on every turn too, only after a
        # wait.
        return min(float(after or table.ping_after or DEFAULT_PING_AFTER), timeout / 2)

    def _plays_on(self, table: Table, seat: int) -> bool:
        """Whether the turn at `seat` follows the last action, taken by its member's own click."""
        occupant = table.seats[seat]
        return occupant is not None and self._clicked.get(table.id) == (
            table.match_no,
            len(table.actions),
            occupant.user_id,
        )

    async def touch_message(
        self,
        table: Table,
        message_id: int,
        deal_number: int | None,
        *,
        match_no: int | None = None,
        finished: bool = False,
    ) -> None:
        """Remember the public table message (so its buttons and edits survive a restart): the
        deal it shows, of which match (default the current), and whether it shows that deal as
        it ended."""
        async with self.lock_for(table):
            if table.status == CLOSED:
                return
            if table.id not in self._fences:
                return  # another process shows this table now
            table.message_id, table.message_deal = message_id, deal_number
            table.message_match = table.match_no if match_no is None else match_no
            table.message_finished = finished
            await self._save_state(table)

    async def note_ping(
        self,
        table: Table,
        message_id: int,
        alive: bool,
        *,
        sent: int | None = None,
        turn: tuple[tuple[Any, ...], str] | None = None,
    ) -> None:
        """Remember a ping posted to the channel (`alive`), or that it is deleted, so a restart
        still deletes every ping whose delete had not gone out; a ping `sent` at that moment
        (`ping_on_its_way`) has landed; the ping of the turn (`turn`: the turn and its text)
        is kept by a restart in that same turn."""

        def noted() -> bool:
            landed = sent is not None and sent in table.pings_sent
            if sent is not None and landed:
                table.pings_sent.remove(sent)
            kept = table.turn_ping
            if turn is not None:
                table.turn_ping = (message_id, turn[0], turn[1])
            elif not alive and kept is not None and kept[0] == message_id:
                table.turn_ping = None
            if table.turn_ping != kept:
                landed = True  # stored with the change below
            if alive == (message_id in table.pings):
                return landed
            if alive:
                table.pings.append(message_id)
            else:
                table.pings.remove(message_id)
            return True

        await self._note_pings(table, noted)

    async def ping_on_its_way(self, table: Table, sent: int) -> bool:
        """Remember, before it is sent, that a ping goes out at the moment `sent` (a snowflake),
        so a ping posted but never heard back of can be found in the channel. False: the
        table is not this process's to ping for (closed, or its lease lost)."""

        def noted() -> bool:
            table.pings_sent.append(sent)
            return True

        return await self._note_pings(table, noted)

    async def pings_looked_for(self, table: Table, sent: list[int]) -> None:
        """The pings sent at these moments are accounted for: found in the channel or not
        there."""

        def noted() -> bool:
            found = [s for s in sent if s in table.pings_sent]
            table.pings_sent = [s for s in table.pings_sent if s not in found]
            return bool(found)

        await self._note_pings(table, noted)

    async def _note_pings(self, table: Table, change: Callable[[], bool]) -> bool:
        """Make a change to the table's pings (`change` says whether it changed anything) and
        store it; False if the table is not this process's to change."""
        async with self.lock_for(table):
            if table.status == CLOSED or table.id not in self._fences:
                return False
            if change():
                return await self._save_state(table)
            return True

    async def _save_state(self, table: Table) -> bool:
        """Store the table's state as it is (under its lock), unless its lease was lost
        (False)."""
        try:
            await self.writer.write(
                rows=[
                    store.state_row(table.id, table.host_id, json.dumps(table.to_state()), _now())
                ],
                fence=self._fence_of(table),
            )
        except LeaseLost:
            self.let_go(table)
            return False
        return True

    # -- hints ----------------------------------------------------------------------------

    async def hint_view(self, channel_id: int, user_id: int) -> tuple[Table, int, int, MatchView]:
        """The table, deal number, seat and view of a member asking for a hint (under the lock).

        Raises:
            TableError: no table here, hints off, a league match, not seated, not their turn.
        """
        table = self.table_in(channel_id)
        async with self._hold(table):
            number, seat, view = table.hint_view(user_id)
        return table, number, seat, view

    async def hint_given(
        self, table: Table, deal_number: int, seat: int, user_id: int, view: MatchView
    ) -> None:
        """Count a hint given to a member and mark the deal as played with one, stored.

        Raises:
            TableError: the decision was made (or the table moved on) while the search ran:
                the hint is not given, so neither counted nor marked.
        """
        async with self.lock_for(table):
            if table.status == CLOSED or not table.hint_still_due(deal_number, seat, view):
                raise TableError(
                    "the turn moved on while the coach was thinking, so this hint is not given:"
                    " ask again on your next turn"
                )
            table.mark_hinted(deal_number, seat)
            state = table.to_state()

            async def work(db: Database) -> None:
                await hints.count_hint(db, table.guild_id, user_id)
                await store.save_state(db, table.id, table.host_id, state, _now())

            await self.writer.write(work, fence=self._fence_of(table))

    # -- a limited number of deals (a euchre night's round) --------------------------------

    def stop_after(self, table: Table, deal: int) -> None:
        """Play no deal after deal number `deal` (from 1) of the table's match."""
        self.last_deals[table.id] = deal

    @staticmethod
    def deals_finished(table: Table) -> int:
        """How many deals of the table's match are over (the next is dealt as one ends)."""
        match = table.match
        if match is None:
            return 0
        return len(match.deals) if match.over else len(match.deals) - 1

    @staticmethod
    def deal_in_play(table: Table) -> int:
        """The deal that is being played: the last one finished when the next has not begun."""
        match = table.match
        if match is None or match.over or not match.deal.history:
            return TableManager.deals_finished(table)
        return len(match.deals)

    def round_over(self, table: Table) -> bool:
        """Whether a table with a last deal has played it, or its match ended, or it closed."""
        if table.status == CLOSED or (table.match is not None and not table.playing):
            return True
        last = self.last_deals.get(table.id)
        return last is not None and table.playing and self.deals_finished(table) >= last

    async def end_round(self, table: Table, reason: str) -> None:
        """Close a table whose round is over (the unfinished match is recorded as abandoned)
        and tell its channel."""
        async with self.lock_for(table):
            if table.status == CLOSED:
                return
            await self._close(table, reason)
        await self._show(table, Change(table, "closed", note=reason))

    # -- playing --------------------------------------------------------------------------

    async def act(
        self, channel_id: int, user_id: int, action: str, seen: tuple[int, int] | None = None
    ) -> Change:
        """A member's declaration or card, checked, applied and stored before returning.

        Args:
            seen: the position the member acted on, as `table.position` gave it when the
                request came. A request that waited for the table's lock while the table moved
                on (the turn timed out and a computer played it) is refused: applied to the
                new position it would make a move the member never chose.

        Raises:
            TableError: not seated, not this member's turn, no game here; PositionMoved.
            IllegalAction: the rules refuse it (the message says why); nothing changed.
        """
        table = self.table_in(channel_id)
        async with self._hold(table):
            if seen is not None and seen != table.position:
                raise PositionMoved(POSITION_MOVED)
            change = await self._apply(table, None, action, user_id=user_id)
            self._clicked[table.id] = (*table.position, user_id)
        self._after_change(table)
        return change

    async def view(self, channel_id: int, user_id: int) -> tuple[Table, int, Any]:
        """A seated member's seat and private view (taken under the table's lock)."""
        table = self.table_in(channel_id)
        async with self._hold(table):
            seat, view = table.any_view_for(user_id)
        return table, seat, view

    async def _apply(
        self,
        table: Table,
        seat: int | None,
        action: str,
        user_id: int | None = None,
        by_computer: bool = False,
        kind: str = "action",
    ) -> Change:
        if table.id in self.last_deals and self.round_over(table):
            raise TableError("this table's round is over: no new deal is played here")
        if table.variant is not None:
            return await self._apply_variant(table, seat, action, user_id, by_computer, kind)
        match = table.match
        games_before = len(match.games) if match else 0
        deal_no = len(match.deals) if match else 0
        # Who sits where as this action is taken: the end of a match gives held seats back.
        seated = seated_now(table)
        if seat is None:
            if user_id is None:
                raise ValueError("an action is taken by a member or for a seat")
            result = table.act(user_id, action)
            seat = table.actions[-1][0]
        else:
            result = table.act_for_seat(seat, action, by_player=not by_computer)
        assert match is not None  # acting refuses when no game is being played
        assert result is None or isinstance(result, HandResult)
        taken = table.actions[-1][1]
        games = list(match.games[games_before:])
        match_over = match.over

        ends = result is not None or games or match_over
        players = players_of(seated) if ends else ()
        # The deal's results are stored with the batch's other deals (`results.record_hands`),
        # before any work of the batch: so before this action's game and match below.
        hand = (
            (results.record_hands, [self.results.hand(table, match, result, players)])
            if result is not None
            else None
        )

        async def store_results(db: Database) -> None:
            names = names_of(seated, table.seat_count)
            for number, game in enumerate(games, start=games_before):
                await self.results.game(db, table, match, number, game, players)
            if match_over:
                await self.results.match(db, table, match, players, names)

        await self._save(
            table,
            "game",
            seat,
            user_id,
            taken,
            after=store_results if games or match_over else None,
            together=hand,
            results_only=True,
        )
        change = Change(
            table,
            kind,
            seat=seat,
            action=taken,
            by_computer=by_computer,
            hand=result,
            games=games,
            first_game=games_before,
            match_over=match_over,
            deal=deal_no,
            match_no=table.match_no,
        )
        if ends:
            self._tell_observers(change)
        return change

    async def _apply_variant(
        self,
        table: Table,
        seat: int | None,
        action: str,
        user_id: int | None,
        by_computer: bool,
        kind: str,
    ) -> Change:
        """`_apply` at a variant's table: the game is one match, stored with its record when it
        ends (the variants keep no per-deal or per-game results of their own)."""
        match = table.variant_match
        deal_no = len(match.deals) if match else 0
        seated = seated_now(table)
        if seat is None:
            if user_id is None:
                raise ValueError("an action is taken by a member or for a seat")
            result = table.act(user_id, action)
            seat = table.actions[-1][0]
        else:
            result = table.act_for_seat(seat, action, by_player=not by_computer)
        assert match is not None and (result is None or isinstance(result, VariantResult))
        taken = table.actions[-1][1]
        over = match.over

        async def store_results(db: Database) -> None:
            assert match is not None
            players, names = players_of(seated), names_of(seated, table.seat_count)
            await self.results.variant_game(db, table, match, players, names)

        await self._save(
            table,
            "game",
            seat,
            user_id,
            taken,
            after=store_results if over else None,
            results_only=True,
        )
        change = Change(
            table,
            kind,
            seat=seat,
            action=taken,
            by_computer=by_computer,
            match_over=over,
            deal=deal_no,
            match_no=table.match_no,
            variant_result=result,
        )
        if result is not None or over:
            self._tell_observers(change)
        return change

    def _tell_observers(self, change: Change) -> None:
        for observer in self.observers:
            task = asyncio.create_task(self._observe(observer, change), name="table-observer")
            self._observing.add(task)
            task.add_done_callback(self._observing.discard)

    async def _observe(self, observer: Callable[[Change], Awaitable[None]], change: Change) -> None:
        try:
            await observer(change)
        except Exception:
            log.exception("table %s: an observer of its results failed", change.table.id)

    # -- persistence ----------------------------------------------------------------------

    async def _save(
        self,
        table: Table,
        kind: str,
        seat: int | None,
        user_id: int | None,
        action: str,
        before: Callable[[Database], Awaitable[None]] | None = None,
        after: Callable[[Database], Awaitable[None]] | None = None,
        together: Together | None = None,
        results_only: bool = False,
    ) -> None:
        """Write one accepted request (its event, new decks, the table's state) and wait for it.

        ``before`` and ``after`` run in the transaction around the state's write; ``together``
        (a finished deal's record) is stored with the batch's others (`BatchWriter.write`).
        ``results_only``: ``before``, ``after`` and ``together`` write only the results of the
        table's server (its matches, deals and games, its leagues' standings), so the write
        locks only that server (`BatchWriter.write`'s ``server``).

        A plain game action is rows only (its event, and the next deal's deck when it ended a
        deal), which the writer inserts with one statement per batch; the table's state JSON is
        rewritten only when the request changed it (see `_state_key`), since a game action's
        play is stored as its event and replayed on restore.

        If the write fails, the table is reloaded from storage so memory never runs ahead of
        what is stored, and the member is told to try again.
        """
        # A card or declaration moves no one, unless it ends the match (held seats go back):
        # only requests that may change who sits where are checked.
        seating_may_change = kind != "game" or not table.playing
        problem = table.seating_problem() if seating_may_change else None
        if problem is not None:
            # A bug in a seating path: never store it. Put the table back as stored.
            log.error("table %s: refused %r: %s", table.id, action, problem)
            await self._reload(table)
            raise TableError("that would seat someone twice at this table, so it did not happen")
        self._seq[table.id] += 1
        seq = self._seq[table.id]
        match_no = table.match_no
        saved_match, saved = self._saved_decks.get(table.id, (match_no, 0))
        if saved_match != match_no:
            saved = 0  # a new match at this table: its decks are numbered from 0
        match = table.any_match
        deals = match.deals if match else []
        now = _now()
        rows = [
            store.deal_row(
                table.id, match_no, number, deals[number].dealer, deck, table.seeds[number]
            )
            for number, deck in enumerate(table.decks[saved:], start=saved)
        ]
        interaction_id = take_interaction() if user_id is not None else None
        rows.append(
            store.event_row(
                table.id,
                seq,
                match_no,
                kind,
                seat,
                user_id,
                action,
                now.isoformat(),
                interaction_id,
            )
        )
        key = _state_key(table)
        work: Callable[[Database], Awaitable[None]] | None = None
        write_state = kind != "game" or key != self._state_keys.get(table.id) or before is not None
        if before is not None or after is not None:

            async def work(db: Database) -> None:
                if before is not None:
                    await before(db)
                if after is not None:
                    await after(db)
                if write_state:
                    # After `before`, which may set what the state holds (the match's id).
                    await store.save_state(db, table.id, table.host_id, table.to_state(), now)
        elif write_state:
            rows.append(store.state_row(table.id, table.host_id, json.dumps(table.to_state()), now))

        try:
            await self.writer.write(
                work,
                rows,
                together=together,
                fence=self._fence_of(table),
                request=interaction_id,
                server=table.guild_id if results_only else None,
            )
        except WriterClosed as error:
            # The bot is stopping: what memory holds now is dropped with it, and the next
            # start reads the tables as stored, without this request.
            raise TableError(str(error)) from None
        except LeaseLost:
            self.let_go(table)
            raise TableError(MOVED) from None
        except AlreadyApplied:
            await self._reload(table)  # memory applied it a second time: back to what is stored
            raise TableError(TWICE) from None
        except Exception:
            log.exception(
                "table %s: storing %r failed; reloading the table from storage", table.id, action
            )
            await self._reload(table)
            raise TableError(
                "that could not be saved, so it did not happen: please try again"
            ) from None
        self.stored_events += 1
        self._saved_decks[table.id] = (match_no, len(table.decks))
        if write_state:
            self._state_keys[table.id] = key
        self.last_activity[table.id] = self.clock()

    def _fence_of(self, table: Table) -> tuple[int, int] | None:
        """What the writer checks before storing a write of this table (see `leases`)."""
        fence = self._fences.get(table.id)
        return None if fence is None else (table.id, fence)

    async def _reload(self, table: Table) -> None:
        """Put the table back as stored, in place: requests waiting for its lock hold this object."""
        rows = [r for r in await store.open_tables(self.db) if r.id == table.id]
        if rows:
            fresh = await self._build(rows[0])
            table.__dict__.update(fresh.__dict__)

    async def _close(
        self,
        table: Table,
        reason: str,
        user_id: int | None = None,
        closed_by: int | None = None,
    ) -> None:
        if table.status == CLOSED:
            return
        match = table.any_match if table.playing else None
        now = _now()
        self._seq[table.id] += 1
        interaction_id = take_interaction() if user_id is not None else None
        event = store.event_row(
            table.id,
            self._seq[table.id],
            table.match_no,
            "table",
            None,
            user_id,
            "close",
            now.isoformat(),
            interaction_id,
        )

        async def work(db: Database) -> None:
            if match is not None and not match.over:
                await self.results.abandoned(db, table, match, closed_by)
            await store.close_table(db, table.id, reason, now)

        try:
            await self.writer.write(
                work, [event], fence=self._fence_of(table), request=interaction_id
            )
        except LeaseLost:
            self.let_go(table)
            raise TableError(MOVED) from None
        except AlreadyApplied:
            await self._reload(table)
            raise TableError(TWICE) from None
        except Exception:
            log.exception("table %s: storing its close failed; reloading it from storage", table.id)
            # Put back what the caller changed before closing (a member's leave) and the
            # event number taken above, so memory matches storage again.
            await self._reload(table)
            raise TableError(UNSAVED) from None
        self.stored_events += 1
        self.tables.pop(table.channel_id, None)
        table.status = "closed"
        table.close_reason = reason
        self._cancel(table)
        self._forget(table)
        if match is not None and not match.over and table.league_id is not None:
            # The league's rule for leavers may have counted it: its standings may have moved.
            self._tell_observers(Change(table, "abandoned", match_no=table.match_no))
        self._tell_observers(Change(table, "closed", note=reason))

    # -- turns: timers and computer players ----------------------------------------------

    def _cancel(self, table: Table) -> None:
        for tasks in (self._timers, self._computer_tasks):
            task = tasks.pop(table.id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.deadlines.pop(table.id, None)
        self._clocked.pop(table.id, None)

    @staticmethod
    def _turn_key(table: Table) -> tuple[Any, ...] | None:
        """The turn as its clock sees it: the position, who is to act, and the table's timing
        settings (None: nobody is to act)."""
        match = table.any_match
        if not table.playing or match is None or match.over or match.to_act is None:
            return None
        occupant = table.seats[match.to_act]
        who = occupant.user_id if occupant is not None else None
        timing = (table.turn_timeout, table.ping, table.ping_after)
        return (table.match_no, len(match.deals), len(table.actions), match.to_act, who, timing)

    def _after_change(self, table: Table) -> None:
        """Start whatever the new position needs: a computer's move, or the turn's timer."""
        if self._closed or table.status == "closed":
            return
        key = self._turn_key(table)
        running = self._timers.get(table.id) or self._computer_tasks.get(table.id)
        if (
            key is not None
            and key == self._clocked.get(table.id)
            and running is not None
            and not running.done()
        ):
            # The same turn of the same player (someone joined or left the waiting line, say):
            # its clock runs on, so no change at the table gives the player more time.
            return
        self._cancel(table)
        match = table.any_match
        if key is None or match is None or match.to_act is None:
            return
        if table.id in self.last_deals and self.round_over(table):
            return  # the last deal is over: no clock, no computer's move
        occupant = table.seats[match.to_act]
        # A set-back maker left alone (every other hand thrown up) takes every trick whatever
        # he plays: his cards are played for him, as a computer's are, not five clicks apiece.
        unopposed = table.variant_match is not None and table.variant_match.deal.unopposed
        if occupant is not None and (occupant.is_bot or unopposed):
            task = asyncio.create_task(
                self._computer_turn(table, match.to_act), name=f"computer-{table.id}"
            )
            self._computer_tasks[table.id] = task
            task.add_done_callback(log_task_end)
        elif self.timers_on:
            deadline = self.clock() + (table.turn_timeout or self.turn_timeout)
            self.deadlines[table.id] = deadline
            self._start_timer(table, match.to_act, deadline)
        else:
            return
        self._clocked[table.id] = key

    def _start_timer(self, table: Table, seat: int, deadline: float) -> None:
        """The turn's timer for `seat`: its ping, then the time-out move at `deadline`."""
        timeout = table.turn_timeout or self.turn_timeout
        task = asyncio.create_task(
            self._turn_timer(table, seat, deadline, timeout), name=f"timer-{table.id}"
        )
        self._timers[table.id] = task
        task.add_done_callback(log_task_end)

    async def _computer_turn(self, table: Table, seat: int) -> None:
        await asyncio.sleep(self.computer_delay)
        occupant = table.seats[seat]
        if occupant is not None:  # else the seat was emptied meanwhile: nothing to play
            # A member's is an unopposed maker's card: any wins, so the cheapest level picks.
            level = occupant.level if occupant.is_bot else "easy"
            await self._computer_move(table, seat, level, kind="action")

    async def _computer_move(self, table: Table, seat: int, level: str, kind: str) -> Change | None:
        """Choose and make one move for `seat` (a computer's, or a timed-out member's)."""
        match = table.any_match
        if match is None or match.to_act != seat:
            return None
        moves = len(table.actions)
        player = _player_at(table, seat)
        view = match.view_for(seat)
        action = await self.computers.choose(table.id, level, view)
        async with self.lock_for(table):
            # Someone acted meanwhile (the same seat may be to act again: a dealer who took
            # it up discards, a trick's winner leads), or the table closed: the choice is stale.
            # So it is when another sits at the seat now (the member whose turn timed out left
            # or was removed, a substitute took the seat): a time-out would be counted, and
            # announced, against whoever sits there now, who has a turn of his own to take.
            if (
                table.any_match is not match
                or match.to_act != seat
                or len(table.actions) != moves
                or table.status == CLOSED
                or _player_at(table, seat) != player
            ):
                return None
            if kind == "timeout":
                table.timeouts[seat] += 1
            who = _name_at(table, seat)
            change = await self._apply(table, seat, action, by_computer=True, kind=kind)
            change.who = who
            if kind == "timeout" and table.timeouts[seat] >= TIMEOUT_TAKEOVER and table.playing:
                handing = _handing(table)
                table.take_over(seat)
                # A seat a computer holds gives no consent: if the substitute waited for this
                # member's alone, they sit now (as when a player leaves).
                if table.seat_substitute_if_agreed():
                    change.handed = handing
                await self._save(table, "table", seat, None, "takeover")
                change.kind = "takeover"
        # The move is stored: showing it must not be cut short by a shutdown, or a rubber's
        # end could be stored and never announced. A shutdown waits for it (`stop_turns`).
        showing = asyncio.ensure_future(self._show(table, change))
        self._showing.add(showing)
        showing.add_done_callback(self._showing.discard)
        await asyncio.shield(showing)
        self._after_change(table)
        return change

    async def _show(self, table: Table, change: Change) -> None:
        try:
            await self.listener.table_changed(change)
        except Exception as error:
            _not_shown(table, "showing a computer's move", error)

    async def _turn_timer(self, table: Table, seat: int, deadline: float, timeout: float) -> None:
        delay = self.ping_delay(table, seat, timeout)
        if delay is not None:
            await asyncio.sleep(max(0.0, deadline - timeout + delay - self.clock()))
            try:
                await self.listener.turn_reminder(table, seat, deadline)
            except Exception as error:
                _not_shown(table, "the turn's ping", error)
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        # This task makes the move; it must not cancel itself when the move restarts timers.
        self._timers.pop(table.id, None)
        await self._computer_move(table, seat, "standard", kind="timeout")

    async def time_out_now(self, table: Table) -> Change | None:
        """Make the timed-out move at once (for tests and the idle sweeper)."""
        match = table.any_match
        if match is None or match.to_act is None:
            return None
        task = self._timers.pop(table.id, None)
        if task is not None:
            task.cancel()
        return await self._computer_move(table, match.to_act, "standard", kind="timeout")

    async def _sweep_idle(self) -> None:
        while True:
            await asyncio.sleep(300)
            await self.close_idle()

    async def close_gone(self, channel_ids: list[int], reason: str) -> list[Table]:
        """Close the tables of channels Discord says are gone (deleted, or the bot removed
        from their server): they could never be played or shown again, and an open table
        would keep its members' seats, its timers and its computers playing to no one, and
        be restored at every start. Unfinished play is recorded as abandoned."""
        closed = []
        for channel_id in channel_ids:
            table = self.tables.get(channel_id)
            if table is None:
                continue
            async with self.lock_for(table):
                if table.status == CLOSED:
                    continue
                try:
                    await self._close(table, reason)
                except TableError:
                    log.warning("table %s: storing its close (%s) failed", table.id, reason)
                    continue
            closed.append(table)
        return closed

    async def close_idle(self) -> list[Table]:
        """Close tables idle for 24 hours (unfinished play is recorded as abandoned)."""
        now = self.clock()
        closed = []
        for table in list(self.tables.values()):
            if now - self.last_activity.get(table.id, now) >= IDLE_CLOSE_SECONDS:
                async with self.lock_for(table):
                    if (
                        table.status == CLOSED
                        or now - self.last_activity[table.id] < IDLE_CLOSE_SECONDS
                    ):
                        continue  # closed, or played on, while this waited for the lock
                    try:
                        await self._close(table, "idle for 24 hours")
                    except TableError:
                        continue  # not stored: the next sweep tries again
                closed.append(table)
                try:
                    await self.listener.table_changed(
                        Change(table, "closed", note="idle for 24 hours")
                    )
                except Exception:
                    log.exception("table %s: announcing the idle close failed", table.id)
        return closed


def _not_shown(table: Table, what: str, error: Exception) -> None:
    """Log what the channel could not be shown (the game goes on without it)."""
    if getattr(error, "status", None) == FORBIDDEN:
        # Discord refused the channel to the bot (its permissions were taken away): the
        # members are told so when they act; not a bug.
        log.warning("table %s: %s was refused: %s", table.id, what, error)
    else:
        log.error("table %s: %s failed", table.id, what, exc_info=error)


def _state_key(table: Table) -> tuple[Any, ...]:
    """What of `Table.to_state()` a game action can change: the time-outs, and the status when
    it ends the match (which also moves seats and counts rubbers). The rest changes only by
    table requests, which always rewrite the state."""
    return table.status, tuple(table.timeouts), table.flagged


def _is_open_table_conflict(error: Exception) -> bool:
    """True for the unique index of one open table per channel (`tables_one_open_per_channel`)."""
    return isinstance(error, IntegrityError) and error.concerns(
        "tables.channel_id", "tables_one_open_per_channel"
    )


__all__ = ["Change", "TableListener", "TableManager", "PLAYING"]


def _player_at(table: Table, seat: int) -> int | None:
    """Who sits at `seat` (a member's id, or a computer's negative one), if anyone."""
    occupant = table.seats[seat]
    return occupant.user_id if occupant is not None else None


def _name_at(table: Table, seat: int | None) -> str | None:
    """The name of whoever sits at `seat`, if anyone."""
    occupant = table.seats[seat] if seat is not None else None
    return occupant.name if occupant is not None else None


def _handing(table: Table) -> Handover | None:
    """The seat a substitute is asked to take, with the name of the player who asked (who
    may have left since, a computer playing the seat), if one is asked."""
    sub = table.substitution
    if sub is None:
        return None
    return Handover(sub.seat, sub.asked_by or _name_at(table, sub.seat))
