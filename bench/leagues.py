"""League planning and ratings: how long schedules take, and rating updates and recomputes.

Prints, with the targets:

- a progressive schedule for every n from 4 to 64 (wall and CPU time of `schedule(n)`, from a
  fresh cache of the shipped designs), whether it is perfect (a whist design) and its
  repeated partnerships; targets: perfect for n <= 17 within 1 s, any n <= 64 within 10 s;
- an OpenSkill rating update per game (`Ratings.record`, 2 v 2, among 2,000 players):
  median and p95, target p95 under 2 ms;
- the full recompute of `--games` games (default 100,000) by `replay`, on one core,
  target under 120 s, and a check that it gives exactly the ratings recorded one by one.

Run from the repository root (not part of the test run):

    python bench/leagues.py                  # ~30 s
    python bench/leagues.py --games 20000    # a quick look
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.leagues import whist
from bot.leagues.progressive import schedule
from bot.leagues.ratings import GameResult, Ratings, replay


def bench_schedules(largest: int) -> bool:
    print(f"Progressive schedules, 4 to {largest} players (wall / CPU ms):")
    ok = True
    worst_perfect = worst_any = 0.0
    for players in range(4, largest + 1):
        whist._shipped.cache_clear()
        wall, cpu = time.perf_counter(), time.process_time()
        plan = schedule(players)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        perfect = plan.perfect
        print(
            f"  n={players:3d}: {len(plan.rounds):3d} rounds, "
            f"{'perfect' if perfect else 'not perfect'}, repeated partnerships "
            f"{plan.repeated_partnerships}, {wall * 1000:8.1f} / {cpu * 1000:8.1f} ms"
        )
        worst_any = max(worst_any, wall)
        if players <= 17 and players % 4 in (0, 1):
            worst_perfect = max(worst_perfect, wall)
            ok &= perfect
    print(
        f"  perfect schedules n <= 17: all perfect {ok}, slowest {worst_perfect:.3f} s (target 1 s)"
    )
    print(f"  any n <= {largest}: slowest {worst_any:.3f} s (target 10 s)")
    return ok and worst_perfect < 1 and worst_any < 10


def random_games(count: int, players: int, seed: int) -> list[GameResult]:
    rng = random.Random(seed)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    games = []
    for i in range(count):
        a, b, c, d = rng.sample(range(players), 4)
        games.append(GameResult((a, b), (c, d), start + timedelta(minutes=i)))
    return games


def bench_updates(games: list[GameResult]) -> bool:
    ratings = Ratings()
    times = []
    for game in games:
        t = time.perf_counter()
        ratings.record(game)
        times.append(time.perf_counter() - t)
    times.sort()
    p50 = statistics.median(times) * 1000
    p95 = times[int(len(times) * 0.95)] * 1000
    print(
        f"Rating update per game ({len(games):,} games): p50 {p50:.3f} ms, p95 {p95:.3f} ms (target p95 2 ms)"
    )
    return p95 < 2


def bench_recompute(games: list[GameResult]) -> bool:
    live = Ratings()
    for game in games:
        live.record(game)
    wall, cpu = time.perf_counter(), time.process_time()
    again = replay(games)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    exact = again.players == live.players
    print(
        f"Full recompute of {len(games):,} games: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"(target 120 s); the same floats as recorded one by one: {exact}"
    )
    return exact and cpu < 120


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games to recompute")
    parser.add_argument("--players", type=int, default=2_000, help="players in the league")
    parser.add_argument("--largest", type=int, default=64, help="largest schedule to time")
    args = parser.parse_args()
    ok = bench_schedules(args.largest)
    games = random_games(args.games, args.players, seed=2025)
    ok &= bench_updates(games[:20_000])
    ok &= bench_recompute(games)
    print("all targets met" if ok else "a target is missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
