"""Repository for what each running process of the bot reports of itself (`/admin status`).

Each process rewrites its own row every few seconds (`bot/client.py`); a row that stops changing
is a process that stopped. Rows silent for a day are dropped, so restarts do not pile up.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Database

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
            ",".join(str(s) for s in figures.shards),
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
    await db.execute("DELETE FROM processes WHERE reported_at < ?", (now - FORGET_AFTER,))


async def reports(db: Database) -> list[ProcessReport]:
    """Every process's last report, the most recent first."""
    rows = await db.fetchall("SELECT * FROM processes ORDER BY reported_at DESC, name")
    return [
        ProcessReport(
            row["name"],
            ProcessFigures(
                shards=tuple(int(s) for s in row["shards"].split(",") if s),
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
        )
        for row in rows
    ]
