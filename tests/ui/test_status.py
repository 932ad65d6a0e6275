"""`/admin status` stays within Discord's limits however many processes and shards there are."""

from __future__ import annotations

from bot.storage.processes import ProcessFigures, ProcessReport
from bot.ui.status import MAX_PROCESSES, SHARDS_SHOWN, _shards, status_embed


def report(name: str, shards: tuple[int, ...], now: float) -> ProcessReport:
    figures = ProcessFigures(
        shards=shards,
        tables=123_456,
        events_total=9_876_543_210,
        events_per_second=1234.5,
        rest_requests=9_999_999,
        rest_429=123_456,
        rest_global_429=12_345,
        latency_ms=41.0,
        started=now - 90_000,
    )
    return ProcessReport(name=name, figures=figures, reported_at=now - 5)


def test_shards_read_as_runs_and_a_long_list_is_cut_saying_how_many_more():
    assert _shards((0, 1, 2, 3, 8, 9, 10, 11)) == "0–3, 8–11"
    assert _shards((5,)) == "5"
    assert _shards(()) == "none yet"
    interleaved = tuple(range(0, 1024, 16))  # 64 shards, none next to another
    text = _shards(interleaved)
    assert len(text) <= SHARDS_SHOWN and text.endswith("more runs")


def test_many_processes_with_long_names_and_scattered_shards_fit_one_embed():
    now = 1_800_000_000.0
    reports = [
        report(f"{'host-' * 11}{i}:{40_000 + i}", tuple(range(i, 1024, 16)), now)
        for i in range(MAX_PROCESSES + 4)
    ]
    embed = status_embed(reports, now, reports[0].name)
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 and len(f.name or "") <= 256 for f in embed.fields)
    shown = len(embed.fields)
    assert embed.footer.text == f"and {len(reports) - shown} more not shown"


def test_shards_no_running_process_serves_are_named():
    """Four shards over two processes, one of which was killed a while ago (silent) and one
    never started: the shards left without a process are named, not just the processes."""
    now = 1_800_000_000.0
    alive = report("host-a:1", (0, 1), now)
    killed = report("host-b:2", (2, 3), now)
    killed = ProcessReport(name=killed.name, figures=killed.figures, reported_at=now - 600)
    embed = status_embed([alive, killed], now, alive.name, shard_count=6)
    assert "No running process serves shards 2–5 of 6" in (embed.description or "")
    every = status_embed(
        [alive, report("host-c:3", (2, 3, 4, 5), now)], now, alive.name, None, 6.0, 6
    )
    assert "No running process" not in (every.description or "")
    # Without SHARD_COUNT known (the default single process), nothing is said.
    assert "No running process" not in (status_embed([alive], now, alive.name).description or "")
