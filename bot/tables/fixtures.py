"""Fixtures for a league's registered pairs: making them, playing them, and their deadlines.

`FixtureScheduler` makes a league's fixtures with the pure pairing tools of `bot.leagues`
(round robin, Swiss, single and double elimination), opens a fixture's table with the game
manager (its two pairs seated as partners), and keeps time: it reminds a fixture's players a day
and an hour before its window ends, applies the organiser's deadline rule when it ends, and
makes the next Swiss round or bracket match as results come. Everything it does is stored
first, so a restart neither repeats a reminder nor forgets a deadline: on start it applies
whatever fell due while the bot was down.

Time is the scheduler's `clock` (Unix seconds), so tests move it instead of waiting. It never
touches Discord: it tells a `FixtureListener` what to announce.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.leagues import brackets
from bot.leagues.fixtures import (
    FixtureRound,
    MatchResult,
    SwissRow,
    round_robin,
    swiss_round,
    swiss_standings,
)
from bot.rerun import woken
from bot.storage import fixtures as store
from bot.storage import league_results
from bot.storage.database import Database
from bot.storage.fixtures import (
    DOUBLE_FORFEIT,
    FORFEIT,
    OPEN,
    PLAYED,
    Fixture,
    FixtureError,
    NewFixture,
    Pair,
    Series,
)
from bot.storage.leagues import League
from bot.tables.manager import Change, TableManager

log = logging.getLogger(__name__)

DAY = 24 * 60 * 60
HOUR = 60 * 60
# The longest the scheduler sleeps without looking again (a clock moved by hand, a missed wake).
LONGEST_SLEEP = 300.0
SEATS_OF_SIDE = ((0, 2), (1, 3))  # north and south; east and west


@dataclass(frozen=True)
class Reminder:
    """A fixture's players reminded that its window ends soon."""

    series: Series
    fixture: Fixture
    pairs: dict[int, Pair]
    hours: int  # 24 or 1


@dataclass(frozen=True)
class Decision:
    """A fixture decided (played, forfeited) or its window extended; `closed` is its table,
    closed because the window ended before it was played."""

    series: Series
    fixture: Fixture
    pairs: dict[int, Pair]
    how: str  # played, forfeit, double_forfeit, extended or not_counted
    closed: Change | None = None
    # not_counted (or a deadline that fell while it was played): the match that did not count
    match_id: int | None = None
    why: str = ""  # and why the league does not count it
    withdrawn: frozenset[int] = frozenset()  # a forfeit for a withdrawal: the pairs that withdrew
    # A forfeit its match counts as (the league's rule for a leaver, an organiser's award):
    # the match, the correction (forfeit or award) and its reason.
    counted_as: tuple[int, str, str] | None = None


@dataclass(frozen=True)
class Made:
    """New fixtures: a league's first ones, the next Swiss round, the next bracket matches;
    `champion` once an elimination is won, `finished` once the series is over."""

    series: Series
    fixtures: tuple[Fixture, ...]
    pairs: dict[int, Pair]
    finished: bool = False
    champion: int | None = None
    standings: tuple[SwissRow, ...] = ()  # a finished round robin's or Swiss event's table


@dataclass(frozen=True)
class Played:
    """What `/fixtures play` did: the changes to show (the table opened, a seat taken, the
    match started) and the fixture."""

    fixture: Fixture
    pairs: dict[int, Pair]
    changes: tuple[Change, ...]
    created: bool
    started: bool


class FixtureListener(Protocol):
    """What the Discord layer implements to announce what the scheduler did."""

    async def fixture_reminder(self, reminder: Reminder) -> None: ...
    async def fixture_decided(self, decision: Decision) -> None: ...
    async def fixtures_made(self, made: Made) -> None: ...


class _Silent:
    async def fixture_reminder(self, reminder: Reminder) -> None:
        return None

    async def fixture_decided(self, decision: Decision) -> None:
        return None

    async def fixtures_made(self, made: Made) -> None:
        return None


def swiss_rounds(entrants: int) -> int:
    """How many rounds a Swiss event of this many pairs plays: enough for one pair to be left
    unbeaten (ceil(log2 n)), at least one."""
    return max(1, math.ceil(math.log2(entrants)))


class FixtureScheduler:
    """A league's fixtures, over the game manager's tables and storage.

    Args:
        manager: the game manager (its tables, its writer, its observers).
        clock: Unix seconds now (tests pass their own).
        listener: who announces reminders, decisions and new fixtures.
    """

    def __init__(
        self,
        manager: TableManager,
        clock: Callable[[], float] = time.time,
        listener: FixtureListener | None = None,
    ) -> None:
        self.manager = manager
        self.clock = clock
        self.listener: FixtureListener = listener or _Silent()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()  # one tick, make or play at a time
        manager.observers.append(self._table_changed)

    @property
    def db(self) -> Database:
        return self.manager.db

    def now(self) -> int:
        return int(self.clock())

    # -- the clock ------------------------------------------------------------------------

    def start(self) -> None:
        """Start keeping time: what fell due while the bot was down is applied at once."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="fixture-scheduler")

    async def stop(self) -> None:
        """Stop keeping time (what is stored stays: the next start picks it up)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    def wake(self) -> None:
        """Look again now (a result came, fixtures were made, or a test moved the clock)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            # Cleared before looking, so a wake that comes during the tick is not lost.
            self._wake.clear()
            try:
                await self.tick()
                due = await self.next_due()
            except Exception:
                log.exception("the fixtures' scheduler failed; it tries again shortly")
                due = None
            wait = LONGEST_SLEEP if due is None else due - self.clock()
            await woken(self._wake, min(max(wait, 0.0), LONGEST_SLEEP))

    async def _table_changed(self, change: Change) -> None:
        # A match that ended, or one abandoned as its table closed, may decide a fixture (or
        # leave it to be played again): looked at now, not at the next look minutes later.
        if change.match_over or change.kind == "abandoned":
            self.wake()

    async def next_due(self) -> float | None:
        """When the next reminder or deadline falls, or None when none is ahead. What fell due
        already was done by the last tick, or waits for a match in play (whose end wakes the
        scheduler): counting it would make the scheduler spin."""
        now = self.clock()
        times = []
        for f in await store.open_fixtures(self.db):
            if not f.reminded_day and _day_reminder(f):
                times.append(f.closes_at - DAY)
            if not f.reminded_hour:
                times.append(f.closes_at - HOUR)
            times.append(f.closes_at)
        return min((t for t in times if t > now), default=None)

    async def tick(self) -> None:
        """Do everything due now: results of finished matches, reminders, deadlines, and the
        next fixtures of every series."""
        async with self._lock:
            now = self.now()
            series: dict[int, Series] = {}
            for fixture in await store.open_fixtures(self.db):
                if fixture.series_id not in series:
                    found = await store.series_by_id(self.db, fixture.series_id)
                    assert found is not None  # a fixture belongs to a stored series
                    series[fixture.series_id] = found
                try:
                    await self._look_at(series[fixture.series_id], fixture, now)
                except Exception:
                    log.exception("fixture F%s: its reminder or deadline failed", fixture.id)
            for under_way in await store.unfinished_series(self.db):
                try:
                    await self._advance(under_way, now)
                except Exception:
                    log.exception(
                        "fixture series %s: making its next fixtures failed", under_way.id
                    )

    async def _look_at(self, series: Series, fixture: Fixture, now: int) -> None:
        match = None
        if fixture.table_id is not None:
            match = await store.match_at_table(self.db, fixture.table_id)
        if match is not None and match.status == "playing":
            return  # its match decides it, however long it takes
        if match is not None:  # finished or abandoned: as the league found it
            verdict = await league_results.verdict(self.db, match.id)
            if verdict is not None:
                await self._decide_by_verdict(series, fixture, match, verdict, now)
                return
            if match.status == "finished" and match.winner is not None:
                await self._decide_played(series, fixture, match)  # before verdicts were kept
                return
        if await self._withdrawn(series, fixture):
            return
        if now >= fixture.closes_at:
            await self._deadline(series, fixture, now)
        elif now >= fixture.closes_at - HOUR and not fixture.reminded_hour:
            await self._remind(series, fixture, hour=True)
        elif now >= fixture.closes_at - DAY and not fixture.reminded_day and _day_reminder(fixture):
            await self._remind(series, fixture, hour=False)

    # -- reminders ------------------------------------------------------------------------

    async def _remind(self, series: Series, fixture: Fixture, hour: bool) -> None:
        # Stored before it is sent: a restart never sends it twice. An hour's reminder makes
        # the day's pointless, so both are then marked.

        async def work(db: Database) -> None:
            await store.mark_reminded(db, fixture.id, day=True, hour=hour)

        await self.manager.writer.write(work)
        pairs = await store.pairs_by_id(self.db, fixture.pairs)
        await self._tell(
            self.listener.fixture_reminder(Reminder(series, fixture, pairs, 1 if hour else 24))
        )

    # -- deciding -------------------------------------------------------------------------

    async def _decide_played(
        self, series: Series, fixture: Fixture, match: store.MatchAtTable
    ) -> None:
        assert fixture.second_pair is not None and match.winner is not None
        ns_first = fixture.north_south == fixture.first_pair
        winner_ns = match.winner == 0
        winner = fixture.first_pair if winner_ns == ns_first else fixture.second_pair
        games = match.games if ns_first else (match.games[1], match.games[0])
        await self._decide(series, fixture, PLAYED, winner, games, match.id)

    async def _decide_by_verdict(
        self,
        series: Series,
        fixture: Fixture,
        match: store.MatchAtTable,
        verdict: league_results.Verdict,
        now: int,
    ) -> None:
        """A fixture's match is over: it decides the fixture as the league counts it (played, a
        leaver's forfeit, an award); a match that does not count leaves the fixture to be
        played again in its window, at a new table."""
        assert fixture.second_pair is not None
        if verdict.counts and verdict.winner is not None:
            if verdict.correction is None:
                await self._decide_played(series, fixture, match)
                return
            ns_first = fixture.north_south == fixture.first_pair
            first_won = (verdict.winner == 0) == ns_first
            winner = fixture.first_pair if first_won else fixture.second_pair
            games = (1, 0) if first_won else (0, 1)
            why = verdict.reasons[0] if verdict.reasons else ""
            counted_as = (match.id, verdict.correction, why)
            await self._decide(
                series, fixture, FORFEIT, winner, games, match.id, counted_as=counted_as
            )
            return
        closed = await self._close_table(
            fixture, f"F{fixture.id}'s match does not count: it is played again at a new table"
        )

        async def work(db: Database) -> None:
            await store.reopen(db, fixture, match.id, fixture.closes_at, showed_again=False)

        await self.manager.writer.write(work)
        reopened = await store.fixture_by_id(self.db, fixture.id)
        assert reopened is not None
        pairs = await store.pairs_by_id(self.db, fixture.pairs)
        why = verdict.reasons[0] if verdict.reasons else "it does not count for the league"
        if now >= reopened.closes_at:
            # Its window ended while the match was played: it cannot be played again in it,
            # so the deadline's rule applies now, not "play it again by" a time gone by.
            await self._deadline(series, reopened, now, uncounted=(match.id, why), closed=closed)
            return
        await self._tell(
            self.listener.fixture_decided(
                Decision(series, reopened, pairs, "not_counted", closed, match.id, why)
            )
        )

    async def _withdrawn(self, series: Series, fixture: Fixture) -> bool:
        """A fixture of a pair that withdrew is forfeited at once (to the other pair; both
        withdrawn, a double forfeit): whether it was."""
        if fixture.second_pair is None:
            return False
        gone = await store.withdrawn_pairs(self.db, fixture.pairs)
        if not gone:
            return False
        if len(gone) == 1:
            (left,) = gone
            winner: int | None = (
                fixture.second_pair if left == fixture.first_pair else fixture.first_pair
            )
            state = FORFEIT
        else:
            state, winner = DOUBLE_FORFEIT, None
            if series.kind.endswith("elimination"):
                winner = fixture.first_pair  # a bracket needs a winner; it forfeits the next
        closed = await self._close_table(fixture, f"a pair of F{fixture.id} withdrew")
        games = (1, 0) if winner == fixture.first_pair else (0, 1) if winner else (0, 0)
        await self._decide(series, fixture, state, winner, games, None, closed, frozenset(gone))
        return True

    async def _deadline(
        self,
        series: Series,
        fixture: Fixture,
        now: int,
        uncounted: tuple[int, str] | None = None,
        closed: Change | None = None,
    ) -> None:
        """The window ended before the fixture was played: the organiser's rule applies.

        Args:
            uncounted: the match played for it after all, that does not count, and why.
            closed: its table, closed already.
        """
        match_id, why = uncounted if uncounted is not None else (None, "")
        if series.deadline == "extend" and not fixture.extended:
            closes = fixture.closes_at + series.window_seconds

            async def work(db: Database) -> None:
                await store.extend(db, fixture.id, closes)

            await self.manager.writer.write(work)
            extended = await store.fixture_by_id(self.db, fixture.id)
            assert extended is not None
            if now < closes:
                pairs = await store.pairs_by_id(self.db, fixture.pairs)
                await self._tell(
                    self.listener.fixture_decided(
                        Decision(series, extended, pairs, "extended", closed, match_id, why)
                    )
                )
                return
            # The extension has ended too (the bot was down over both ends, or the match that
            # did not count was played past it): no window is left, so no extension to
            # announce, and the forfeit rule applies now.
            fixture = extended
        assert fixture.second_pair is not None
        showed = await self._showed(fixture)
        if series.deadline != "double_forfeit" and len(showed) == 1:
            winner: int | None = showed[0]
            state = FORFEIT
        else:
            # Neither showed, both did and never played, or the organiser's rule says so.
            state, winner = DOUBLE_FORFEIT, None
            if series.kind.endswith("elimination"):
                winner = fixture.first_pair  # a bracket needs a winner: the higher seed goes on
        closed = await self._close_table(fixture, f"F{fixture.id}'s window ended") or closed
        games = (1, 0) if winner == fixture.first_pair else (0, 1) if winner else (0, 0)
        await self._decide(series, fixture, state, winner, games, None, closed, uncounted=uncounted)

    async def _showed(self, fixture: Fixture) -> list[int]:
        """The pairs that showed for a fixture: two of their players sat at its table (with
        /fixtures play, or still seated there now)."""
        sat = await store.seated(self.db, fixture.id)
        table = self._table_of(fixture)
        pairs = await store.pairs_by_id(self.db, fixture.pairs)
        if table is not None:
            for occupant in table.seats:
                for pair in pairs.values():
                    if occupant is not None and occupant.user_id in pair.players:
                        sat.setdefault(pair.id, set()).add(occupant.user_id)
        return [p for p in fixture.pairs if len(sat.get(p, ())) >= 2]

    def _table_of(self, fixture: Fixture) -> Any:
        if fixture.channel_id is None:
            return None
        table = self.manager.tables.get(fixture.channel_id)
        return table if table is not None and table.id == fixture.table_id else None

    async def _close_table(self, fixture: Fixture, reason: str) -> Change | None:
        """Close the fixture's table, if it is open and not playing, saying why (the closed
        table message shows `reason`)."""
        table = self._table_of(fixture)
        if table is None or not self.manager.knows(table) or table.playing:
            return None
        try:
            return await self.manager.close_table(table.channel_id, table.host_id, reason=reason)
        except Exception:
            log.exception("fixture F%s: closing its table failed", fixture.id)
            return None

    async def _decide(
        self,
        series: Series,
        fixture: Fixture,
        state: str,
        winner: int | None,
        games: tuple[int, int],
        match_id: int | None,
        closed: Change | None = None,
        withdrawn: frozenset[int] = frozenset(),
        uncounted: tuple[int, str] | None = None,
        counted_as: tuple[int, str, str] | None = None,
    ) -> None:
        now = self.now()

        async def work(db: Database) -> bool:
            return await store.decide(db, fixture.id, state, winner, games, match_id, now)

        if not await self.manager.writer.write(work):
            return  # decided meanwhile
        decided = await store.fixture_by_id(self.db, fixture.id)
        assert decided is not None
        pairs = await store.pairs_by_id(self.db, fixture.pairs)
        await self._tell(
            self.listener.fixture_decided(
                Decision(
                    series,
                    decided,
                    pairs,
                    state,
                    closed,
                    match_id=uncounted[0] if uncounted else None,
                    why=uncounted[1] if uncounted else "",
                    withdrawn=withdrawn,
                    counted_as=counted_as,
                )
            )
        )

    async def _tell(self, announcing: Any) -> None:
        try:
            await announcing
        except Exception:
            log.exception("announcing a fixture's news failed")

    # -- making fixtures ------------------------------------------------------------------

    async def make(
        self,
        league: League,
        kind: str,
        window_days: int,
        deadline: str,
        channel_id: int,
        made_by: int,
    ) -> Made:
        """Make a league's fixtures between its registered pairs, in registration order (the
        seeding): a whole round robin, a Swiss event's first round, or a bracket's first
        matches. Each fixture's window starts now (a round robin's rounds one after another).

        Raises:
            FixtureError: a window of no length, fewer than two pairs, or fixtures under way.
        """
        if window_days <= 0:
            raise FixtureError(
                "a fixture's window must end after it starts: give window_days of 1 or more"
            )
        if window_days > 365:
            raise FixtureError("a fixture's window is at most 365 days")
        window = window_days * DAY
        async with self._lock:
            pairs = await store.league_pairs(self.db, league.id)
            if len(pairs) < 2:
                raise FixtureError(
                    f"fixtures need at least two registered pairs; the league {{}} has"
                    f" {len(pairs)}: members register with /fixtures register",
                    league.name,
                )
            now = self.now()
            entrants = [p.id for p in pairs]

            async def work(db: Database) -> tuple[Series, list[int]]:
                series = await store.create_series(
                    db, league.id, kind, window, deadline, channel_id, entrants, made_by, now
                )
                return series, await store.add_fixtures(db, series.id, _first(series, now))

            series, ids = await self.manager.writer.write(work)
        made = await self._made(series, ids)
        self.wake()
        return made

    async def _made(self, series: Series, ids: list[int]) -> Made:
        fixtures = tuple(f for f in await store.series_fixtures(self.db, series.id) if f.id in ids)
        pairs = await store.pairs_by_id(self.db, series.entrants)
        return Made(series, fixtures, pairs)

    async def _advance(self, series: Series, now: int) -> None:
        """Make a series' next fixtures once results allow, or finish it."""
        every = await store.series_fixtures(self.db, series.id)
        if any(f.state == OPEN for f in every) and series.kind in ("round_robin", "swiss"):
            return
        new: list[NewFixture] = []
        finished, champion = False, None
        standings: tuple[SwissRow, ...] = ()
        if series.kind == "round_robin":
            finished = True
        elif series.kind == "swiss":
            last = max(f.round for f in every)
            if last >= swiss_rounds(len(series.entrants)):
                finished = True
            else:
                try:
                    withdrawn = await store.withdrawn_pairs(self.db, series.entrants)
                    next_round = _next_swiss(series, every, withdrawn)
                    new = _round_fixtures(next_round, last + 1, series, now)
                except ValueError:
                    finished = True  # no pairing left without a repeat
        else:
            bracket = _bracket(series)
            winners = {
                f.slot: f.winner_pair
                for f in every
                if f.slot is not None and f.winner_pair is not None
            }
            champion = bracket.champion(winners)
            if champion is not None:
                finished = True
            else:
                slots = {f.slot for f in every}
                new = [
                    _bracket_fixture(bracket, m, winners, series, now)
                    for m in bracket.playable(winners)
                    if m.id not in slots
                ]
        if not new and not finished:
            return
        if finished and series.kind in ("round_robin", "swiss"):
            rows = series_standings(series, every)
            standings, champion = tuple(rows), winner_of(rows)

        async def work(db: Database) -> list[int]:
            ids = await store.add_fixtures(db, series.id, new)
            if finished:
                await store.finish_series(db, series.id, now)
            return ids

        ids = await self.manager.writer.write(work)
        if new:
            # Looked at in the next tick, now: a fixture made with a pair that withdrew is
            # forfeited at once, not at its reminder a day later (and the bracket goes on).
            self.wake()
        made = await self._made(series, ids)
        await self._tell(
            self.listener.fixtures_made(
                Made(made.series, made.fixtures, made.pairs, finished, champion, standings)
            )
        )

    # -- playing --------------------------------------------------------------------------

    async def play(
        self,
        fixture_id: int,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
    ) -> Played:
        """A player of a fixture sits down for it: the first opens its table in this channel
        (the league's rules, the two pairs' seats kept for them as partners), the others take
        their pair's seats; the match starts when the fourth sits.

        Raises:
            FixtureError: an unknown fixture, one already decided or of a pair that withdrew,
                one the member does not play in, or outside its window.
            TableError: the channel has another table, or the seat is taken.
        """
        async with self._lock:
            fixture, league = await store.fixture_in_guild(self.db, guild_id, fixture_id)
            pairs = await store.pairs_by_id(self.db, fixture.pairs)
            if fixture.state != OPEN or fixture.second_pair is None:
                raise FixtureError(
                    f"F{fixture.id} is not to be played: it is "
                    + ("a bye" if fixture.second_pair is None else f"decided ({fixture.state})")
                )
            gone = [p for p in pairs.values() if p.withdrawn]
            if gone:  # forfeited at the scheduler's next look, which may not have come yet
                raise FixtureError(
                    f"F{fixture.id} is not to be played: {{}} withdrew from the fixtures, so"
                    " it is forfeited",
                    gone[0].name,
                )
            mine = next((p for p in pairs.values() if user_id in p.players), None)
            if mine is None:
                first, second = pairs[fixture.first_pair], pairs[fixture.second_pair]
                raise FixtureError(
                    f"you do not play in F{fixture.id}: it is {{}} against {{}}",
                    first.name,
                    second.name,
                )
            now = self.now()
            if now < fixture.opens_at:
                raise FixtureError(
                    f"F{fixture.id}'s window has not opened: it opens <t:{fixture.opens_at}:R>"
                )
            if now >= fixture.closes_at:
                raise FixtureError(
                    f"F{fixture.id}'s window ended <t:{fixture.closes_at}:R>: it can no longer"
                    " be played"
                )
            table = self._table_of(fixture)
            changes: list[Change] = []
            created = table is None
            if created:
                changes.append(
                    await self._open_table(
                        league, fixture, pairs, mine, guild_id, channel_id, user_id, name
                    )
                )
            else:
                assert fixture.channel_id is not None
                if channel_id != fixture.channel_id:
                    raise FixtureError(
                        f"F{fixture.id} is played at its table in <#{fixture.channel_id}>: run"
                        " /fixtures play there"
                    )
                # The pair's two seats held already (an alternate in one): the table's own
                # refusal would name a seat, or offer its waiting line, to no purpose.
                mates = [
                    o
                    for o in table.seats
                    if o is not None and o.user_id in mine.players and o.user_id != user_id
                ]
                if len(mates) >= 2:
                    raise FixtureError(
                        f"the two seats of {{}} at F{fixture.id} are taken: {{}} and {{}} play it",
                        mine.name,
                        mates[0].name,
                        mates[1].name,
                    )
                changes.append(await self.manager.join(channel_id, user_id, name))

            async def sat(db: Database) -> None:
                await store.add_seat(db, fixture.id, user_id, mine.id)

            await self.manager.writer.write(sat)
            table = changes[-1].table
            started = table.full and not table.playing
            if started:
                changes.append(await self.manager.start(channel_id, table.host_id, keep_seats=True))
            fresh = await store.fixture_by_id(self.db, fixture.id)
            assert fresh is not None
            return Played(fresh, pairs, tuple(changes), created, started)

    async def _open_table(
        self,
        league: League,
        fixture: Fixture,
        pairs: dict[int, Pair],
        mine: Pair,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
    ) -> Change:
        """Open the fixture's table with the member at north: their pair sits north and south,
        the other east and west, each seat kept for its pair's players."""
        assert fixture.second_pair is not None
        other = pairs[fixture.second_pair if mine.id == fixture.first_pair else fixture.first_pair]
        reserved = {seat: mine.players for seat in SEATS_OF_SIDE[0]}
        reserved.update({seat: other.players for seat in SEATS_OF_SIDE[1]})
        options = dict(league.options)
        preset = options.pop("preset")
        change = await self.manager.create(
            guild_id,
            channel_id,
            user_id,
            name,
            preset,
            league_id=league.id,
            league_name=league.name,
            reserved=reserved,
            **options,
        )

        async def link(db: Database) -> None:
            await store.set_table(db, fixture.id, change.table.id, channel_id, mine.id)

        await self.manager.writer.write(link)
        return change


def _day_reminder(fixture: Fixture) -> bool:
    """Whether a fixture gets a reminder a day before its end: not when its window is a day
    or less (it would come as the window opens)."""
    return fixture.closes_at - DAY > fixture.opens_at


def _first(series: Series, now: int) -> list[NewFixture]:
    """A series' first fixtures."""
    entrants = list(series.entrants)
    if series.kind == "round_robin":
        return [
            f
            for number, rnd in enumerate(round_robin(entrants), start=1)
            for f in _round_fixtures(
                rnd, number, series, now + (number - 1) * series.window_seconds
            )
        ]
    if series.kind == "swiss":
        return _round_fixtures(swiss_round(entrants, []), 1, series, now)
    bracket = _bracket(series)
    return [_bracket_fixture(bracket, m, {}, series, now) for m in bracket.playable({})]


def _round_fixtures(rnd: FixtureRound, number: int, series: Series, opens: int) -> list[NewFixture]:
    closes = opens + series.window_seconds
    out = [NewFixture(number, a, b, opens, closes) for a, b in rnd.matches]
    if rnd.bye is not None:
        out.append(NewFixture(number, rnd.bye, None, opens, closes))
    return out


def _results(every: list[Fixture]) -> tuple[list[MatchResult], list[int]]:
    """The decided fixtures' results and the byes. A forfeit counts as a match won one game
    to none; a double forfeit as a draw with no games (the standings know only games)."""
    results = [
        MatchResult(f.first_pair, f.second_pair, f.first_games or 0, f.second_games or 0)
        for f in every
        if f.second_pair is not None and f.state != OPEN
    ]
    byes = [f.first_pair for f in every if f.second_pair is None]
    return results, byes


def _next_swiss(series: Series, every: list[Fixture], withdrawn: set[int]) -> FixtureRound:
    """The next Swiss round from the results so far, between the pairs that have not
    withdrawn.

    Raises:
        ValueError: fewer than two pairs left, or no pairing left without a repeat.
    """
    results, byes = _results(every)
    entrants = [e for e in series.entrants if e not in withdrawn]
    if len(entrants) < 2:
        raise ValueError("fewer than two pairs are left")
    return swiss_round(entrants, results, byes)


def series_standings(series: Series, every: list[Fixture]) -> list[SwissRow]:
    """A round robin's or a Swiss event's table from the fixtures decided so far: match points
    (a win 1, a draw 1/2, a bye 1), then the opponents' match-win share and the game-win
    share, then the seeding."""
    results, byes = _results(every)
    return swiss_standings(list(series.entrants), results, byes)


def winner_of(rows: list[SwissRow]) -> int | None:
    """The entrant on top, unless the next is level with it on every count."""
    if not rows:
        return None
    if len(rows) > 1 and _counts(rows[0]) == _counts(rows[1]):
        return None
    return rows[0].entrant


def _counts(row: SwissRow) -> tuple[object, ...]:
    return (row.match_points, row.opponents_match_share, row.game_share)


def _bracket(series: Series) -> brackets.Bracket:
    if series.kind == "single_elimination":
        return brackets.single_elimination(list(series.entrants))
    return brackets.double_elimination(list(series.entrants))


def _bracket_fixture(
    bracket: brackets.Bracket,
    match: brackets.BracketMatch,
    winners: dict[str, int],
    series: Series,
    now: int,
) -> NewFixture:
    sides = bracket.entrants_of(match.id, winners)
    assert sides is not None  # only playable matches are made
    return NewFixture(match.round, sides[0], sides[1], now, now + series.window_seconds, match.id)
