"""`/admin status`: what each process of the bot is doing, as its owners see it."""

from __future__ import annotations

import discord

from bot.storage.processes import ProcessReport
from bot.ui.embeds import EMBED_TOTAL, GOLD, GREY, safe

SILENT_AFTER = 60.0  # seconds without a report or a beat after which a process shows as silent
MAX_PROCESSES = 20  # processes shown, the most recent reports first (an embed has 25 fields)


SHARDS_SHOWN = 160  # characters of a process's shard list, at most


def _shards(shards: tuple[int, ...]) -> str:
    """A process's shards as runs ("0–3, 8–11"), cut short (saying how many more) if long."""
    if not shards:
        return "none yet"
    runs: list[tuple[int, int]] = []
    for shard in sorted(shards):
        if runs and shard == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], shard)
        else:
            runs.append((shard, shard))
    parts = [f"{a}–{b}" if b > a else str(a) for a, b in runs]
    shown = ""
    for i, part in enumerate(parts):
        more = f" and {len(parts) - i} more runs"
        candidate = f"{shown}, {part}" if shown else part
        if len(candidate) + len(more) > SHARDS_SHOWN:
            return shown + more
        shown = candidate
    return shown


def _age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"


def _last_heard(report: ProcessReport) -> float:
    """When the process last said it runs: its last report, or its last beat (a process still
    waiting for its turn to connect beats but does not report yet)."""
    return max(report.reported_at, report.beat_at or 0.0)


def _is_silent(report: ProcessReport, now: float) -> bool:
    return report.stopped_at is None and now - _last_heard(report) > SILENT_AFTER


def _leases(held: tuple[int, float] | None, now: float, lease_seconds: float) -> str:
    """A process's leases: how many, and how long ago the oldest was renewed (a running
    process renews them every third of a lease; one older than a lease has run out)."""
    if held is None:
        return "Leases: none held"
    count, soonest = held
    renewed = _age(now - (soonest - lease_seconds))
    ran_out = " (run out: free to take over)" if soonest <= now else ""
    tables = f"{count:,} table{'' if count == 1 else 's'}"
    return f"Leases: {tables}, the oldest renewed {renewed} ago{ran_out}"


def process_lines(report: ProcessReport, now: float, leases: str | None = None) -> str:
    """One process's figures, a few short lines; `leases` is its leases' line, if shown."""
    f = report.figures
    latency = f"{f.latency_ms:.0f} ms" if f.latency_ms is not None else "not measured yet"
    limited = f"{f.rest_429:,} answered 429"
    if f.rest_global_429:
        limited += f" ({f.rest_global_429:,} global)"
    rest = f"REST: {f.rest_requests:,} requests, {limited}\n"
    if report.stopped_at is not None:
        # Its last report's tables, gateway and rate are no longer so: what it did in all.
        up = _age(report.stopped_at - f.started)
        return (
            f"Shards {_shards(f.shards)} · no table open, no gateway: it stopped\n"
            f"{f.events_total:,} actions stored while it ran\n"
            + rest
            + f"Stopped {_age(now - report.stopped_at)} ago, after {up} up"
        )
    return (
        f"Shards {_shards(f.shards)} · {f.tables:,} open tables · gateway {latency}\n"
        + (f"{leases}\n" if leases else "")
        + f"{f.events_per_second:.1f} actions/s ({f.events_total:,} stored since start)\n"
        + rest
        + f"Up {_age(now - f.started)} · reported {_age(now - report.reported_at)} ago"
    )


def unserved_shards(
    reports: list[ProcessReport], now: float, shard_count: int | None
) -> tuple[int, ...]:
    """The shards of `shard_count` that no running process serves (none stopped or silent):
    their servers' tables are played nowhere, and their members' commands go unanswered."""
    if not shard_count:
        return ()
    served = {
        shard
        for r in reports
        if r.stopped_at is None and not _is_silent(r, now)
        for shard in r.figures.shards
    }
    return tuple(shard for shard in range(shard_count) if shard not in served)


def status_embed(
    reports: list[ProcessReport],
    now: float,
    this_process: str,
    leases: dict[str, tuple[int, float]] | None = None,
    lease_seconds: float = 6.0,
    shard_count: int | None = None,
) -> discord.Embed:
    """Every process's last report. One that stopped cleanly is marked stopped (with when); one
    silent for a minute without a word (killed, hung) is marked silent, not shown as idle.

    Args:
        leases: each lease holder's leases (`bot.storage.leases.held`): how many tables, and
            when the soonest runs out; shown for the latest process of each holder's name.
        lease_seconds: how long a lease lasts, to tell when it was renewed.
        shard_count: the bot's shards in all (`SHARD_COUNT`): any that no running process
            serves (a process that was never started, or is down) are named.
    """
    silent = [r for r in reports if _is_silent(r, now)]
    stopped = [r for r in reports if r.stopped_at is not None]
    running = len(reports) - len(silent) - len(stopped)
    unserved = unserved_shards(reports, now, shard_count)
    nobody = (
        f"\n**No running process serves {'shard' if len(unserved) == 1 else 'shards'}"
        f" {_shards(unserved)} of {shard_count}**: their servers' tables are not played and"
        " their commands go unanswered. Start the process that serves them."
        if unserved
        else ""
    )
    embed = discord.Embed(
        title="Bot status",
        colour=GREY if silent or unserved else GOLD,
        description=(
            f"{running} running {'process' if running == 1 else 'processes'}"
            + (f", {len(stopped)} stopped" if stopped else "")
            + (f", {len(silent)} silent for over a minute" if silent else "")
            + ". Figures are from each process's last report (every 15 s)."
            + nobody
        ),
    )
    shown = 0
    # A restart keeps its predecessor's lease name: the leases are the latest one's.
    leased: set[str] = set()
    for report in reports[:MAX_PROCESSES]:
        mark = " (this one)" if report.name == this_process else ""
        if report.stopped_at is not None:
            mark += " — stopped"
        elif _is_silent(report, now):
            mark += " — silent"
        lease_line = None
        owner = report.lease_owner
        if leases is not None and owner is not None and report.stopped_at is None:
            if owner not in leased:
                leased.add(owner)
                lease_line = _leases(leases.get(owner), now, lease_seconds)
        name = safe(report.name)[:200] + mark
        value = process_lines(report, now, lease_line)
        # Discord refuses an embed over 6,000 characters: keep room for the footer.
        if len(embed) + len(name) + len(value) > EMBED_TOTAL - 100:
            break
        embed.add_field(name=name, value=value, inline=False)
        shown += 1
    if len(reports) > shown:
        embed.set_footer(text=f"and {len(reports) - shown} more not shown")
    return embed
