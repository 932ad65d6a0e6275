"""Computer tables beside members: how long a click waits while computers think.

    python bench/computers.py                  # 4 computer tables, worker processes (the bot's way)
    python bench/computers.py --threads        # the same in a thread pool, for comparison

Runs `--tables` tables of four expert computers through `ComputerSeats` (the game manager's
computer seats) for `--seconds`, while a probe on the same event loop sleeps 5 ms again and
again and records how late it wakes: that lateness is what every member's click would wait.
Prints the probe's lag (p50, p99, max) and the computer moves made.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.match import Match
from bot.engine.rules import build_options
from bot.tables.computer import ComputerSeats, default_workers

PROBE = 0.005


async def _probe(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(PROBE)
        lags.append(time.perf_counter() - start - PROBE)


async def _computer_table(
    seats: ComputerSeats, table: int, level: str, stop: asyncio.Event, moves: list[int]
) -> None:
    match = Match(build_options("modern"), table % 4, random.Random(table))
    while not stop.is_set() and not match.over:
        seat = match.to_act
        action = await seats.choose(table, level, match.view_for(seat))
        match.apply(action, seat)
        moves[0] += 1


async def run(args: argparse.Namespace) -> dict:
    workers = args.workers or default_workers()
    pool = ThreadPoolExecutor(workers) if args.threads else None
    seats = ComputerSeats(pool, workers=workers)
    # Start the workers before timing (a process pool starts on its first move).
    warm = Match(build_options("modern"), 0, random.Random(0))
    await seats.choose(0, warm.to_act, "easy", warm.view_for(warm.to_act))
    stop = asyncio.Event()
    lags: list[float] = []
    moves = [0]
    probe = asyncio.create_task(_probe(stop, lags))
    tables = [
        asyncio.create_task(_computer_table(seats, t, args.level, stop, moves))
        for t in range(1, args.tables + 1)
    ]
    await asyncio.sleep(args.seconds)
    stop.set()
    await asyncio.gather(probe, *tables)
    seats.close()
    if pool is not None:
        pool.shutdown(wait=True)
    lags.sort()
    return {
        "pool": "threads" if args.threads else "processes",
        "workers": workers,
        "tables": args.tables,
        "moves": moves[0],
        "lag_p50_ms": 1000 * statistics.median(lags),
        "lag_p99_ms": 1000 * lags[int(0.99 * (len(lags) - 1))],
        "lag_max_ms": 1000 * lags[-1],
        "probes": len(lags),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="computer tables (default 4)")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=None, help="pool size (default: cores - 1)")
    parser.add_argument("--threads", action="store_true", help="a thread pool instead of processes")
    args = parser.parse_args(argv)
    r = asyncio.run(run(args))
    print(
        f"{r['tables']} {args.level} computer tables for {args.seconds:.0f} s, {r['workers']} worker "
        f"{r['pool']}: {r['moves']} computer moves"
    )
    print(
        f"event loop lag (what a click waits): p50 {r['lag_p50_ms']:.2f} ms, p99 {r['lag_p99_ms']:.2f} ms, "
        f"max {r['lag_max_ms']:.1f} ms ({r['probes']} probes of {PROBE * 1000:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
