"""Many tables at once through the game manager: throughput, latency per action, memory.

Runs `--tables` concurrent tables (default 1,000), each with four simulated members, through
`TableManager` on a real SQLite file in a temporary directory, from the deal to the end of a
single game of the `modern` preset (10 points; `--points 2` for a quick look). Every table has
one task that acts for whichever seat is to act, as soon as it is that seat's turn, choosing a
random legal action: the same load as four members who never stop to think, so the manager
always has one request waiting per table (turn timers off, as members never time out).

What it prints:
- actions per second (game actions accepted, over the wall time of play);
- latency per action, p50 / p90 / p99 / max: from calling `manager.act` to its return, which
  includes the group commit that makes the action durable in SQLite;
- memory per table: Python allocations per table just after the deal (tracemalloc, during
  set-up only, which is not timed) and the growth of the process's resident set per table at
  the end of the games;
- the group commit: batches committed and writes per batch;
- the check that every action is in the database: game events in `table_events` equal the
  actions accepted.

With `--think MS` each member waits a random time (exponential, mean MS milliseconds) before
acting: a server whose members think, rather than the saturating default. With members acting
at once, each table always has a request waiting, so by Little's law the mean latency is
about tables / throughput: the p99 target at 1,000 tables then asks for a throughput that one
Python process cannot reach; the README's bench section gives the figures and the reasons.

Run from the repository root (not part of the test run):

    python bench/tables.py                         # 1,000 tables, a game to 10
    python bench/tables.py --tables 200 --points 2 # a quick look
    python bench/tables.py --think 2000            # members who take about 2 s per action
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

# Run as `python bench/tables.py` from the repository root without installing.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import collector
from bot.storage.database import Database
from bot.tables.manager import TableManager

TARGET_P99_MS = 10.0
PRESET = "modern"
GUILD = 1


def rss_bytes() -> int:
    """The process's resident set size (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


class GcPauses:
    """Times the garbage collector's pauses (each one delays every waiting action)."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.longest = 0.0
        self.by_generation = [[0, 0.0] for _ in range(3)]  # [collections, seconds]
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        pause = time.perf_counter() - self._start
        self.count += 1
        self.total += pause
        self.longest = max(self.longest, pause)
        generation = self.by_generation[info["generation"]]
        generation[0] += 1
        generation[1] += pause

    def summary(self) -> str:
        return ", ".join(
            f"gen{g} {n} in {seconds * 1000:.0f} ms"
            for g, (n, seconds) in enumerate(self.by_generation)
        )

    def stop(self) -> None:
        gc.callbacks.remove(self._callback)


class LoopLag:
    """How late a 5 ms sleep wakes: the delay any ready request also meets, from this process's
    own work (the commits, the collector) and from the machine's other processes."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task = asyncio.create_task(self._probe())

    async def _probe(self) -> None:
        clock = time.perf_counter
        while True:
            start = clock()
            await asyncio.sleep(0.005)
            self.lags.append(clock() - start - 0.005)

    def stop(self) -> list[float]:
        self._task.cancel()
        return sorted(self.lags)


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie (nearest rank)."""
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


async def seat_table(manager: TableManager, number: int, points: int, guild: int = GUILD) -> int:
    """Create table `number` (in server `guild`) with four members seated and dealt; returns its
    channel id. Its host is member 10,000 x (number + 1), the others the next three ids."""
    channel = 1_000_000 + number
    base = 10_000 * (number + 1)
    await manager.create(
        guild, channel, base, f"host{number}", preset=PRESET, points=points, match="game"
    )
    for k in range(1, 4):
        await manager.join(channel, base + k, f"m{number}.{k}")
    await manager.start(channel, base)
    return channel


async def play_table(
    manager: TableManager,
    channel: int,
    rng: random.Random,
    latencies: list[float],
    ending: list[float],
    think: float,
) -> int:
    """Play the table's game to its end; returns the actions it made."""
    table = manager.table_in(channel)
    act = manager.act
    clock = time.perf_counter
    actions = 0
    while table.playing:
        match = table.match
        user_id = table.seats[match.to_act].user_id
        legal = match.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        if think:
            await asyncio.sleep(rng.expovariate(1.0 / think))
        start = clock()
        change = await act(channel, user_id, action)
        latency = clock() - start
        latencies.append(latency)
        if change.hand is not None:
            ending.append(latency)  # it recorded the hand's result in the same commit
        actions += 1
    return actions


async def run(
    tables: int, points: int, seed: int, think_ms: float, batch: int | None, freeze: bool
) -> bool:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="euchre-bench-") as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        manager = TableManager(db, timers=False, computer_delay=0, default_preset=PRESET)
        if batch:
            manager.writer.max_batch = batch
        try:
            gc.collect()
            rss_before = rss_bytes()
            tracemalloc.start()
            setup_start = time.perf_counter()
            channels = []
            # Seat tables a few hundred at a time: the set-up is not what is measured.
            for first in range(0, tables, 250):
                channels += await asyncio.gather(
                    *(
                        seat_table(manager, n, points)
                        for n in range(first, min(tables, first + 250))
                    )
                )
            setup_seconds = time.perf_counter() - setup_start
            traced, _ = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            gc.collect()
            if freeze:
                gc.freeze()  # what set-up made lives on: the collector need not scan it again
            setup_events = await db.fetchval("SELECT COUNT(*) FROM table_events")
            batches_before, writes_before = manager.writer.batches, manager.writer.writes

            latencies: list[float] = []
            ending: list[float] = []
            pauses = GcPauses()
            lag = LoopLag()
            cpu_start = time.process_time()
            start = time.perf_counter()
            counts = await asyncio.gather(
                *(
                    play_table(
                        manager,
                        channel,
                        random.Random(rng.random()),
                        latencies,
                        ending,
                        think_ms / 1000,
                    )
                    for channel in channels
                )
            )
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            pauses.stop()
            lags = lag.stop()
            rss_after = rss_bytes()
            batches = manager.writer.batches - batches_before
            writes = manager.writer.writes - writes_before

            actions = sum(counts)
            game_events = await db.fetchval("SELECT COUNT(*) FROM table_events WHERE kind = 'game'")
            all_events = await db.fetchval("SELECT COUNT(*) FROM table_events")
            matches = await db.fetchval("SELECT COUNT(*) FROM matches WHERE status = 'finished'")
            hands = await db.fetchval("SELECT COUNT(*) FROM hands")
        finally:
            await manager.close()
            await db.close()

    latencies.sort()
    ending.sort()
    p50, p90, p99 = (percentile(latencies, f) * 1000 for f in (0.50, 0.90, 0.99))
    worst = latencies[-1] * 1000 if latencies else float("nan")
    mean = statistics.fmean(latencies) * 1000 if latencies else float("nan")
    stored_ok = game_events == actions and all_events == setup_events + actions
    print(
        f"euchre game manager: {tables} tables, preset {PRESET}, a game to {points}, seed {seed}"
        + (f", think {think_ms:g} ms" if think_ms else ", members act at once")
    )
    print(
        f"  machine           : {platform.python_implementation()} {platform.python_version()},"
        f" {os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f}"
    )
    print(
        f"  set-up            : {tables} tables created, seated and dealt in {setup_seconds:.2f} s"
        f" ({setup_events} table events)"
    )
    print(
        f"  play              : {actions} actions in {elapsed:.2f} s, {hands} hands, {matches} games finished"
    )
    print(
        f"  actions per second: {actions / elapsed:,.0f}"
        f" (process CPU {cpu:.2f} s: {cpu / max(1, actions) * 1e6:.0f} us per action, both threads)"
    )
    print(
        f"  latency per action: p50 {p50:.2f} ms, p90 {p90:.2f} ms, p99 {p99:.2f} ms,"
        f" mean {mean:.2f} ms, max {worst:.2f} ms"
    )
    print(
        f"  ... ending a hand : p50 {percentile(ending, 0.5) * 1000:.2f} ms, p99 {percentile(ending, 0.99) * 1000:.2f} ms"
        f" ({len(ending)} actions that also recorded a hand's result)"
    )
    print(
        f"  event loop lag    : p50 {percentile(lags, 0.5) * 1000:.2f} ms, p99 {percentile(lags, 0.99) * 1000:.2f} ms,"
        f" max {lags[-1] * 1000 if lags else float('nan'):.2f} ms (a 5 ms sleep's overshoot, sampled throughout)"
    )
    print(
        f"  garbage collector : {pauses.count} collections, {pauses.total * 1000:.0f} ms in all,"
        f" longest {pauses.longest * 1000:.1f} ms ({pauses.summary()})"
    )
    print(
        f"  p99 target        : < {TARGET_P99_MS:g} ms: {'met' if p99 < TARGET_P99_MS else 'NOT met'}"
    )
    print(
        f"  group commit      : {batches} batches, {writes / max(1, batches):.1f} writes per batch"
    )
    print(
        f"  memory per table  : {traced / tables / 1024:.1f} KiB of Python objects after the deal"
        f" (tracemalloc); {(rss_after - rss_before) / tables / 1024:.1f} KiB of RSS growth at the end"
    )
    print(
        f"  stored            : {game_events} game events for {actions} actions accepted,"
        f" {all_events} events in all: {'every action is in the database' if stored_ok else 'MISSING EVENTS'}"
    )
    return stored_ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1000, help="concurrent tables (default 1000)")
    parser.add_argument("--points", type=int, default=3, help="points for the game (default 3)")
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the members' choices (default 1)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=2000.0,
        help="members' mean thinking time per action in ms (default 2000, as players at a table;"
        " 0: every member acts the instant it is their turn, a stress test of throughput)",
    )
    parser.add_argument(
        "--batch", type=int, default=None, help="most writes per commit (default: the writer's)"
    )
    parser.add_argument(
        "--default-gc",
        action="store_true",
        help="CPython's own collector thresholds, not the bot's (bot/collector.py), to compare",
    )
    parser.add_argument(
        "--freeze",
        action="store_true",
        help="gc.freeze() after set-up, so collections skip the tables' long-lived objects",
    )
    args = parser.parse_args(argv)
    if not args.default_gc:
        collector.tune()  # as the bot runs (its settling tunes the collector first)
    ok = asyncio.run(run(args.tables, args.points, args.seed, args.think, args.batch, args.freeze))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
