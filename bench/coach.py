"""The coach under load: how long a hint and a deal's review take with many tables playing.

One manager on a real SQLite file runs `--tables` tables (default 100) of four members who
think (exponential, mean `--think` ms) and play random legal actions, game after game: the
load of `bench/tables.py --think`. Beside them one more table plays the same way, and its
member to act asks for a hint before each decision that is not forced; when a deal ends, each
of its four seats asks for the deal's review (as the Review button does: that seat's grades).
Hints and reviews run as the bot runs them, in the computer players' worker processes
(`ComputerSeats.analyse` and `.grade`), timed from the request to the answer, including the
replay of the deal on the event loop.

What it prints: hints and reviews, p50 / p95 / max, against the targets (a hint within 2 s
p95, a deal's review within 5 s p95); the search effort (worlds a decision); and the playing
tables' action latency and throughput meanwhile. The first hint, which starts the worker
process, is a warm-up and not counted.

Run from the repository root (not part of the test run):

    python bench/coach.py                       # 100 tables, 40 hints and 20 reviews
    python bench/coach.py --tables 20 --hints 10 --reviews 4  # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

# Run as `python bench/coach.py` from the repository root without installing.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tables import GUILD, percentile
from bot.ai.coach import decisions
from bot.storage.database import Database
from bot.tables.computer import HINT_BUDGET, REVIEW_BUDGET
from bot.tables.manager import TableManager

HINT_TARGET_P95 = 2.0
REVIEW_TARGET_P95 = 5.0


async def open_table(manager: TableManager, number: int, preset: str) -> int:
    """Table `number` (a single game to 5 of `preset`) with four members, dealt; its channel."""
    channel = 1_000_000 + number
    base = 10_000 * (number + 1)
    await manager.create(GUILD, channel, base, f"host{number}", preset=preset, match="game")
    for k in range(1, 4):
        await manager.join(channel, base + k, f"m{number}.{k}")
    await manager.start(channel, base)
    return channel


async def keep_playing(
    manager: TableManager,
    number: int,
    rng: random.Random,
    think: float,
    stop: asyncio.Event,
    latencies: list[float],
    preset: str,
) -> None:
    """A table of thinking members playing random legal actions, game after game."""
    channel = await open_table(manager, number, preset)
    table = manager.table_in(channel)
    while not stop.is_set():
        if not table.playing:
            await manager.start(channel, table.host_id, keep_seats=True)
            continue
        await asyncio.sleep(rng.expovariate(1.0 / think))
        match = table.match
        legal = match.legal_actions()
        start = time.perf_counter()
        await manager.act(channel, table.seats[match.to_act].user_id, rng.choice(list(legal)))
        latencies.append(time.perf_counter() - start)


async def coached_table(
    manager: TableManager,
    number: int,
    rng: random.Random,
    want_hints: int,
    want_reviews: int,
    hints: list[float],
    reviews: list[float],
    preset: str,
) -> None:
    """A table whose members ask for a hint at every decision and review every deal."""
    channel = await open_table(manager, number, preset)
    table = manager.table_in(channel)
    warm = False
    while len(hints) < want_hints or len(reviews) < want_reviews:
        if not table.playing:
            await manager.start(channel, table.host_id, keep_seats=True)
            continue
        match = table.match
        seat = match.to_act
        user = table.seats[seat].user_id
        legal = list(match.legal_actions())
        if len(legal) > 1:
            start = time.perf_counter()
            _, number_now, seat_now, view = await manager.hint_view(channel, user)
            await manager.computers.analyse(table.id, view)
            await manager.hint_given(table, number_now, seat_now, user, view)
            if warm:
                hints.append(time.perf_counter() - start)
            warm = True
        deals = len(match.deals)
        await manager.act(channel, user, rng.choice(legal))
        if table.match is match and len(match.deals) > deals:
            for review_seat in range(4):
                start = time.perf_counter()
                async with manager.lock_for(table):
                    chosen = decisions(match, deals=[deals], seats=[review_seat])
                await manager.computers.grade(table.id, chosen)
                reviews.append(time.perf_counter() - start)


def figures(name: str, values: list[float], target: float | None = None) -> str:
    ordered = sorted(values)
    line = (
        f"{name}: n={len(values)} p50 {percentile(ordered, 0.5):.2f} s, "
        f"p95 {percentile(ordered, 0.95):.2f} s, max {ordered[-1] if ordered else 0:.2f} s"
    )
    if target is not None:
        met = percentile(ordered, 0.95) <= target
        line += f" (target p95 <= {target:.0f} s: {'met' if met else 'NOT met'})"
    return line


async def run(args: argparse.Namespace) -> bool:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="euchre-coach-") as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        manager = TableManager(db, timers=False, computer_delay=0)
        stop = asyncio.Event()
        latencies: list[float] = []
        hints: list[float] = []
        reviews: list[float] = []
        try:
            players = [
                asyncio.create_task(
                    keep_playing(
                        manager,
                        n,
                        random.Random(rng.random()),
                        args.think / 1000,
                        stop,
                        latencies,
                        args.preset,
                    )
                )
                for n in range(args.tables)
            ]
            started = time.perf_counter()
            await coached_table(
                manager, args.tables, rng, args.hints, args.reviews, hints, reviews, args.preset
            )
            seconds = time.perf_counter() - started
            stop.set()
            await asyncio.gather(*players)
        finally:
            await manager.close()
            await db.close()
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores; {args.preset}; {args.tables} tables playing (members think {args.think:.0f} ms"
        f" on average); worlds a decision: hints {HINT_BUDGET}, reviews {REVIEW_BUDGET}"
    )
    print(figures("hint", hints, HINT_TARGET_P95))
    print(figures("review of a deal (one seat's grades)", reviews, REVIEW_TARGET_P95))
    ordered = sorted(latencies)
    print(
        f"playing tables meanwhile: {len(latencies) / seconds:.0f} actions/s, latency p50"
        f" {percentile(ordered, 0.5) * 1000:.1f} ms, p99 {percentile(ordered, 0.99) * 1000:.1f} ms"
    )
    return (
        percentile(sorted(hints), 0.95) <= HINT_TARGET_P95
        and percentile(sorted(reviews), 0.95) <= REVIEW_TARGET_P95
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100, help="tables playing (default 100)")
    parser.add_argument("--hints", type=int, default=40, help="hints to time (default 40)")
    parser.add_argument("--reviews", type=int, default=20, help="reviews to time (default 20)")
    parser.add_argument(
        "--think", type=float, default=2000, help="members' mean think time, ms (default 2000)"
    )
    parser.add_argument(
        "--preset", default="somerset", help="the tables' rules (default somerset, 32 cards)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return 0 if asyncio.run(run(args)) else 1


if __name__ == "__main__":
    sys.exit(main())
