"""Repository for what each running process of the bot reports of itself (`/admin status`), and
for each of its starts (`bot/shard_guard.py`).

A process registers its start (`register`) before it loads a table, beats every few seconds
(`beat`) and rewrites its figures every 15 s (`report`, `bot/client.py`); a row whose beat stops
changing is a process that is gone, and a clean stop says so (`stopped`). Rows silent for a day
are dropped, so restarts do not pile up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.storage.database import Database

if TYPE_CHECKING:
    from bot.config import ShardScope

FORGET_AFTER = 24 * 3600.0  # seconds a silent process stays listed


@dataclass(frozen=True, slots=True)
class ProcessFigures:
    """One process's figures at one moment (what `/admin status` shows of it)."""

    shards: tuple[int, ...]
    tables: int
    events_total: int
    events_per_second: float
    rest_requests: int
    rest_429: int
    rest_global_429: int
    latency_ms: float | None
    started: float  # Unix seconds


@dataclass(frozen=True, slots=True)
class ProcessReport:
    """One process's last report."""

    name: str
    figures: ProcessFigures
    reported_at: float  # Unix seconds
    stopped_at: float | None = None  # when it stopped cleanly
    lease_owner: str | None = None  # its name on its tables' leases
    beat_at: float | None = None  # its last heartbeat


@dataclass(frozen=True, slots=True)
class Start:
    """One start of a process: who it is, what it serves, and its last heartbeat."""

    name: str  # host:pid
    incarnation: str  # unique to this start
    scope: ShardScope
    lease_owner: str
    started_at: float  # Unix seconds, when it started: of two starts the earlier keeps its shards
    beat_at: float

    @property
    def host_and_pid(self) -> tuple[str, int | None]:
        """The host it runs on and its process id, read from its name."""
        host, _, pid = self.name.rpartition(":")
        return host, int(pid) if pid.isdigit() else None


async def register(db: Database, start: Start) -> None:
    """Store a start in its process's row (a row of the same name is a process gone: on one
    host a pid is one process at a time), its figures all zero until its first report."""
    count, ids = start.scope if start.scope is not None else (None, None)
    await db.execute(
        "INSERT INTO processes (name, shards, tables, events_total, events_per_second,"
        " rest_requests, rest_429, rest_global_429, latency_ms, started_at, reported_at,"
        " incarnation, shard_count, shard_ids, lease_owner, beat_at, stopped_at)"
        " VALUES (?, ?, 0, 0, 0, 0, 0, 0, NULL, ?, ?, ?, ?, ?, ?, ?, NULL)"
        " ON CONFLICT (name) DO UPDATE SET shards = excluded.shards, tables = 0,"
        " events_total = 0, events_per_second = 0, rest_requests = 0, rest_429 = 0,"
        " rest_global_429 = 0, latency_ms = NULL, started_at = excluded.started_at,"
        " reported_at = excluded.reported_at, incarnation = excluded.incarnation,"
        " shard_count = excluded.shard_count, shard_ids = excluded.shard_ids,"
        " lease_owner = excluded.lease_owner, beat_at = excluded.beat_at, stopped_at = NULL",
        (
            start.name,
            _ids(ids or ()),  # until its first report says which are connected
            start.started_at,
            start.beat_at,
            start.incarnation,
            count,
            None if ids is None else _ids(ids),
            start.lease_owner,
            start.beat_at,
        ),
    )


async def beat(db: Database, start: Start, now: float) -> bool:
    """This start's heartbeat; False if its row is no longer its own (another start of the
    same name took it)."""
    changed = await db.execute_rowcount(
        "UPDATE processes SET beat_at = ? WHERE name = ? AND incarnation = ?",
        (now, start.name, start.incarnation),
    )
    return changed > 0


async def running(db: Database) -> list[Start]:
    """Every start not stopped cleanly (those killed too: their beats tell), the first first."""
    rows = await db.fetchall(
        "SELECT name, incarnation, shard_count, shard_ids, lease_owner, started_at, beat_at"
        " FROM processes WHERE incarnation IS NOT NULL AND stopped_at IS NULL"
        " ORDER BY started_at, incarnation"
    )
    return [
        Start(
            name=row["name"],
            incarnation=row["incarnation"],
            scope=None
            if row["shard_count"] is None
            else (row["shard_count"], _parse(row["shard_ids"] or "")),
            lease_owner=row["lease_owner"] or "",
            started_at=row["started_at"],
            beat_at=row["beat_at"] if row["beat_at"] is not None else row["started_at"],
        )
        for row in rows
    ]


async def stopped(db: Database, start: Start, now: float) -> None:
    """A clean stop: `/admin status` shows the process as stopped, and no start waits for it."""
    await db.execute(
        "UPDATE processes SET stopped_at = ?, beat_at = ? WHERE name = ? AND incarnation = ?",
        (now, now, start.name, start.incarnation),
    )


async def forget(db: Database, start: Start) -> None:
    """Drop a start that was refused: it never served anything."""
    await db.execute(
        "DELETE FROM processes WHERE name = ? AND incarnation = ?",
        (start.name, start.incarnation),
    )


async def report(db: Database, name: str, figures: ProcessFigures, now: float) -> None:
    """Store this process's figures in its row, and forget processes silent for a day."""
    await db.execute(
        "INSERT INTO processes (name, shards, tables, events_total, events_per_second,"
        " rest_requests, rest_429, rest_global_429, latency_ms, started_at, reported_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (name) DO UPDATE SET shards = excluded.shards, tables = excluded.tables,"
        " events_total = excluded.events_total, events_per_second = excluded.events_per_second,"
        " rest_requests = excluded.rest_requests, rest_429 = excluded.rest_429,"
        " rest_global_429 = excluded.rest_global_429, latency_ms = excluded.latency_ms,"
        " started_at = excluded.started_at, reported_at = excluded.reported_at",
        (
            name,
            _ids(figures.shards),
            figures.tables,
            figures.events_total,
            figures.events_per_second,
            figures.rest_requests,
            figures.rest_429,
            figures.rest_global_429,
            figures.latency_ms,
            figures.started,
            now,
        ),
    )
    # A process still starting (waiting for its turn to connect) beats but does not report yet.
    await db.execute(
        "DELETE FROM processes WHERE reported_at < ? AND (beat_at IS NULL OR beat_at < ?)",
        (now - FORGET_AFTER, now - FORGET_AFTER),
    )


async def reports(db: Database) -> list[ProcessReport]:
    """Every process's last report, the most recent first."""
    rows = await db.fetchall("SELECT * FROM processes ORDER BY reported_at DESC, name")
    return [
        ProcessReport(
            row["name"],
            ProcessFigures(
                shards=_parse(row["shards"]),
                tables=row["tables"],
                events_total=row["events_total"],
                events_per_second=row["events_per_second"],
                rest_requests=row["rest_requests"],
                rest_429=row["rest_429"],
                rest_global_429=row["rest_global_429"],
                latency_ms=row["latency_ms"],
                started=row["started_at"],
            ),
            row["reported_at"],
            stopped_at=row["stopped_at"],
            lease_owner=row["lease_owner"],
            beat_at=row["beat_at"],
        )
        for row in rows
    ]


def _ids(shards: tuple[int, ...]) -> str:
    return ",".join(str(s) for s in shards)


def _parse(text: str) -> tuple[int, ...]:
    return tuple(int(s) for s in text.split(",") if s)
