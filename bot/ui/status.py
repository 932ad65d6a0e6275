"""`/admin status`: what each process of the bot is doing, as its owners see it."""

from __future__ import annotations

import discord

from bot.storage.processes import ProcessReport
from bot.ui.embeds import EMBED_TOTAL, GOLD, GREY, safe

SILENT_AFTER = 60.0  # seconds without a report after which a process is shown as silent
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


def process_lines(report: ProcessReport, now: float) -> str:
    """One process's figures, a few short lines."""
    f = report.figures
    latency = f"{f.latency_ms:.0f} ms" if f.latency_ms is not None else "not connected"
    limited = f"{f.rest_429:,} answered 429"
    if f.rest_global_429:
        limited += f" ({f.rest_global_429:,} global)"
    return (
        f"Shards {_shards(f.shards)} · {f.tables:,} open tables · gateway {latency}\n"
        f"{f.events_per_second:.1f} actions/s ({f.events_total:,} stored since start)\n"
        f"REST: {f.rest_requests:,} requests, {limited}\n"
        f"Up {_age(now - f.started)} · reported {_age(now - report.reported_at)} ago"
    )


def status_embed(reports: list[ProcessReport], now: float, this_process: str) -> discord.Embed:
    """Every process's last report; those silent for a minute are marked, so a stopped process
    shows as stopped rather than as idle."""
    silent = [r for r in reports if now - r.reported_at > SILENT_AFTER]
    embed = discord.Embed(
        title="Bot status",
        colour=GREY if silent else GOLD,
        description=(
            f"{len(reports) - len(silent)} running "
            f"{'process' if len(reports) - len(silent) == 1 else 'processes'}"
            + (f", {len(silent)} silent for over a minute" if silent else "")
            + ". Figures are from each process's last report (every 15 s)."
        ),
    )
    shown = 0
    for report in reports[:MAX_PROCESSES]:
        mark = " (this one)" if report.name == this_process else ""
        if now - report.reported_at > SILENT_AFTER:
            mark += " — silent"
        name = safe(report.name)[:200] + mark
        value = process_lines(report, now)
        # Discord refuses an embed over 6,000 characters: keep room for the footer.
        if len(embed) + len(name) + len(value) > EMBED_TOTAL - 100:
            break
        embed.add_field(name=name, value=value, inline=False)
        shown += 1
    if len(reports) > shown:
        embed.set_footer(text=f"and {len(reports) - shown} more not shown")
    return embed
