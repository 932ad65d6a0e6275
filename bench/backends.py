"""The two storage backends side by side: the same results recorded and read on SQLite and on
PostgreSQL, in the same run, with PostgreSQL's figures as a ratio of SQLite's.

For each backend, on a new database: hands (a game and a match every ten) recorded one at a
time through the game manager's group-commit writer (each write alone in its transaction,
commit included), then `--tables` tables recording at once through it (one transaction per
batch), then leaderboard pages and /stats read back.

PostgreSQL is a throwaway server started for the run (tests/support/postgres.py: Debian's
PostgreSQL 15, fsync off, as the tests use it), or the one named by `--postgres URL` (its
database must be empty: the bot's tables are made in it).

    python bench/backends.py                          # 300 hands, 50 tables x 20 hands
    python bench/backends.py --postgres postgresql://bot@localhost/bench
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.leaderboard import (
    GUILD,
    NOW,
    SOMERSET,
    Stopwatch,
    percentile,
    real_deal_record,
    record_many,
    timed,
)
from bot.storage import results
from bot.storage.batch import BatchWriter
from bot.storage.database import Database
from bot.storage.leaderboard import leaderboard
from bot.storage.player_stats import player_stats
from tests.support.postgres import Server


def line(name: str, watch: Stopwatch) -> float:
    """Print one timed step; return its median (ms)."""
    p50 = statistics.median(watch.wall)
    print(
        f"  {name:<30} p50 {p50:7.2f} ms  p95 {percentile(watch.wall, 95):7.2f} ms"
        f"  n={len(watch.wall)}"
    )
    return p50


async def concurrent_hands(writer: BatchWriter, tables: int, hands: int) -> float:
    """`tables` tables each recording `hands` hands at once (each batch's deals in one
    `results.record_hands`); returns hands per second."""
    record = real_deal_record()
    options = SOMERSET.to_dict()

    async def table(number: int) -> None:
        match_id = await writer.write(lambda d: results.new_match_id(d, GUILD, 1000 + number))
        for deal in range(hands):
            seats = tuple(results.SeatPlayer(s, 10_000 + number * 4 + s, "p") for s in range(4))
            hand = results.HandRecord(
                guild_id=GUILD,
                table_id=1000 + number,
                match_id=match_id,
                game_number=0,
                deal_number=deal,
                dealer=deal % 4,
                maker=deal % 4,
                trump="H",
                alone=None,
                defender=None,
                players=seats,
                tricks=(3, 2),
                points=(1, 0),
                outcome="made",
                preset="somerset",
                options=options,
                record=record,
                played_at=NOW,
            )
            # As the game manager gives a finished deal to the writer: with its batch's others.
            await writer.write(together=(results.record_hands, [hand]))

    start = time.perf_counter()
    await asyncio.gather(*(table(n) for n in range(tables)))
    return tables * hands / (time.perf_counter() - start)


async def measure(target: str | Path, args: argparse.Namespace) -> dict[str, float]:
    """Every figure of one backend."""
    figures: dict[str, float] = {}
    db = await Database.open(target)
    writer = BatchWriter(db)
    try:
        print(f"{db.dialect}:")
        rng = random.Random(args.seed)
        # record_many prints its own lines (record_hand, record_game, record_match + commit).
        await record_many(
            writer.write, rng, 200, args.hands, real_deal_record(), SOMERSET.to_dict()
        )
        rate = await concurrent_hands(writer, args.tables, args.per_table)
        print(f"  {args.tables} tables at once            {rate:7.0f} hands/s")
        figures["hands/s at once"] = rate
        watch = await timed(lambda: leaderboard(db, GUILD, "points", "all", now=NOW), 20)
        figures["leaderboard page"] = line("leaderboard page (all time)", watch)
        member = await db.fetchval("SELECT MIN(user_id) FROM player_totals")

        async def stats_of_someone() -> object:
            return await player_stats(db, GUILD, member, "all", now=NOW)

        watch = await timed(stats_of_someone, 20)
        figures["/stats"] = line("/stats (all time)", watch)
        single = await timed(
            lambda: writer.write(lambda d: d.execute("UPDATE board_windows SET days = days")), 50
        )
        figures["one write + commit"] = line("an empty write + commit", single)
    finally:
        await writer.close()
        await db.close()
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands recorded one at a time")
    parser.add_argument("--tables", type=int, default=50, help="tables recording at once")
    parser.add_argument("--per-table", type=int, default=20, help="hands of each of those")
    parser.add_argument("--postgres", default=None, help="an empty PostgreSQL database's URL")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    server = None
    url = args.postgres
    if url is None:
        server = Server.start()
        url = await server.empty_database("bench")
    try:
        with tempfile.TemporaryDirectory() as directory:
            sqlite = await measure(Path(directory) / "bench.db", args)
            postgres = await measure(url, args)
    finally:
        if server is not None:
            server.stop()
    print("PostgreSQL / SQLite (same run):")
    for name, value in sqlite.items():
        print(f"  {name:<30} {postgres[name] / value:6.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
