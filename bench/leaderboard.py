"""Leaderboards at league scale: 1,000,000 hands by 10,000 players in one server.

Builds a database of synthetic results (rubbers under `somerset`, single games under `modern`,
a few with a computer player or a substitute, spread over the year before a fixed "now"), then
times what the Discord commands run: `/leaderboard` for every metric and period, `/stats`,
`/history`, and recording a finished hand (and game and match) with its totals, each in its own
transaction as the game manager does. Prints p50/p95/max in milliseconds against the issue's
targets (p95 under 20 ms per query, under 2 ms per recorded hand), then recomputes every total
from the results with `verify` (empty means the totals the bench recorded are exact).

The bulk build inserts the result rows directly (executemany in large transactions) and
computes the totals with `bot.storage.verify.rebuild`, the same SQL that `verify` checks
against, so the totals are exactly what recording each result would have produced (the
property test in tests/storage shows the two agree). Deal records in the bulk rows are short
placeholders; the timed recordings store real ones from the rules engine.

    python bench/leaderboard.py                               # 1,000,000 hands; a few minutes
    python bench/leaderboard.py --hands 100000 --players 2000 # a quick look
    python bench/leaderboard.py --db /tmp/league.db --keep    # keep the file for python -m bot
    python bench/leaderboard.py --postgres                    # the same on PostgreSQL, beside it

With `--postgres` the database built is also copied (`bot.storage.copy`, as `python -m bot db
copy` does) into a throwaway PostgreSQL server (tests/support/postgres.py, as the tests start it)
or into the empty database of `--postgres URL`, the same queries are timed on both, and each
query's p95 on PostgreSQL is given as a multiple of SQLite's (the target: at most 2x).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.deal import Deal
from bot.engine.records import deal_to_record
from bot.engine.rules import build_options
from bot.storage import results
from bot.storage.batch import BatchWriter
from bot.storage.copy import copy
from bot.storage.database import Database
from bot.storage.history import history
from bot.storage.leaderboard import METRICS, leaderboard
from bot.storage.player_stats import player_stats
from bot.storage.seasons import PERIODS, day_of, timestamp
from bot.storage.verify import rebuild, verify
from tests.support.postgres import Server

GUILD = 424242424242424242
NOW = datetime(2025, 6, 15, 20, 0, tzinfo=UTC)
FIRST_USER = 300_000_000_000_000_000  # snowflake-sized ids
QUERY_TARGET_MS = 20.0
RECORD_TARGET_MS = 2.0
POSTGRES_RATIO_TARGET = 2.0  # a query's p95 on PostgreSQL, as a multiple of SQLite's

SOMERSET = build_options("somerset")
MODERN = build_options("modern")
OPTIONS_JSON = {
    "somerset": json.dumps(SOMERSET.to_dict(), sort_keys=True, separators=(",", ":")),
    "modern": json.dumps(MODERN.to_dict(), sort_keys=True, separators=(",", ":")),
}


# ------------------------------------------------------------------------------ bulk build


class Builder:
    """Synthetic matches played out hand by hand with the scoring of the presets."""

    def __init__(self, players: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.players = players
        self.match_id = self.hand_id = self.game_id = 0
        self.hands: list[tuple] = []
        self.hand_players: list[tuple] = []
        self.games: list[tuple] = []
        self.game_players: list[tuple] = []
        self.matches: list[tuple] = []
        self.match_players: list[tuple] = []

    def seats(self) -> list[tuple[int, int, str, int, int]]:
        rng = self.rng
        users = rng.sample(range(self.players), 4)
        seats = [(s, FIRST_USER + u, f"member{u}", 0, 0) for s, u in enumerate(users)]
        roll = rng.random()
        if roll < 0.04:  # a computer player in seat 3
            seats[3] = (3, -4, "Computer (west)", 1, 0)
        elif roll < 0.06:  # a substitute in seat 1
            seats[1] = (1, seats[1][1], seats[1][2], 0, 1)
        return seats

    def play_match(self) -> int:
        """One match; returns how many hands it had."""
        rng = self.rng
        self.match_id += 1
        match_id = self.match_id
        rubber = rng.random() < 0.85
        preset = "somerset" if rubber else "modern"
        target = 5 if rubber else 10
        seats = self.seats()
        flagged = int(any(s[3] or s[4] for s in seats))
        start = NOW - timedelta(days=rng.randrange(365), minutes=rng.randrange(24 * 60))
        moment = start
        scores = [0, 0]
        games: list[tuple[tuple[int, int], int, int, int]] = []
        deal = 0
        dealer = rng.randrange(4)
        count = 0
        while True:
            moment += timedelta(seconds=rng.randrange(60, 240))
            played = timestamp(moment)
            day = day_of(moment)
            self.hand_id += 1
            maker = alone = None
            tricks = (0, 0)
            points = [0, 0]
            roll = rng.random()
            if roll < 0.10:
                outcome = "passed"
            else:
                maker = rng.randrange(4)
                side = maker % 2
                if rng.random() < 0.08:
                    alone = rng.choice((maker, (maker + 2) % 4)) if rubber else maker
                outcome = "made" if roll < 0.70 else "march" if roll < 0.85 else "euchred"
                if outcome == "made":
                    taken = rng.choice((3, 4))
                    points[side] = 1
                elif outcome == "march":
                    taken = 5
                    points[side] = 4 if alone is not None else 2
                else:
                    taken = rng.choice((0, 1, 2))
                    points[1 - side] = 4 if alone is not None and rubber else 2
                tricks = (taken, 5 - taken) if side == 0 else (5 - taken, taken)
            game_number = len(games)
            self.hands.append(
                (
                    self.hand_id,
                    match_id,
                    GUILD,
                    match_id % 500,
                    game_number,
                    deal,
                    dealer,
                    maker,
                    None if maker is None else "HDSC"[rng.randrange(4)],
                    alone,
                    None,
                    tricks[0],
                    tricks[1],
                    points[0],
                    points[1],
                    outcome,
                    preset,
                    OPTIONS_JSON[preset],
                    '{"synthetic":1}',
                    played,
                    day,
                )
            )
            self.hand_players.extend((self.hand_id, *s) for s in seats)
            count += 1
            deal += 1
            dealer = (dealer + 1) % 4
            scores[0] += points[0]
            scores[1] += points[1]
            if max(scores) < target:
                continue
            winner = 0 if scores[0] >= target else 1
            value = 2 if rubber and scores[1 - winner] == 0 else 1
            carried = scores[winner] - target if rubber else 0
            self.game_id += 1
            games.append(((scores[0], scores[1]), winner, value, carried))
            self.games.append(
                (
                    self.game_id,
                    match_id,
                    GUILD,
                    match_id % 500,
                    game_number,
                    scores[0],
                    scores[1],
                    winner,
                    value,
                    preset,
                    OPTIONS_JSON[preset],
                    played,
                    day,
                )
            )
            self.game_players.extend((self.game_id, *s) for s in seats)
            over = not rubber or len(games) == 4 or (len(games) == 3 and games[2][3] == 0)
            if over:
                break
            scores = [0, 0]
            scores[winner] = carried
        if rubber:
            wins = [0, 0]
            winner = None
            for game in games[:3]:
                wins[game[1]] += 1
                if wins[game[1]] == 2 and winner is None:
                    winner = game[1]
            rubber_points = [0, 0]
            for game in games:
                rubber_points[game[1]] += game[2]
            rubber_points[winner] += 2
        else:
            winner = games[-1][1]
            rubber_points = [0, 0]
        self.matches.append(
            (
                match_id,
                GUILD,
                match_id % 500,
                "finished",
                "rubber" if rubber else "game",
                flagged,
                preset,
                OPTIONS_JSON[preset],
                json.dumps([[list(g[0]), g[1], g[2]] for g in games]),
                rubber_points[0],
                rubber_points[1],
                winner,
                '{"synthetic":1}',
                timestamp(start),
                played,
                day,
            )
        )
        self.match_players.extend((match_id, *s) for s in seats)
        return count

    def flush(self, conn: sqlite3.Connection) -> None:
        marks = lambda n: ", ".join("?" * n)  # noqa: E731
        conn.executemany(
            "INSERT INTO matches (id, guild_id, table_id, status, kind, flagged, preset, options,"
            " games, rubber_points_0, rubber_points_1, winner, record, started_at, played_at, day)"
            f" VALUES ({marks(16)})",
            self.matches,
        )
        conn.executemany(f"INSERT INTO match_players VALUES ({marks(6)})", self.match_players)
        conn.executemany(f"INSERT INTO hands VALUES ({marks(21)})", self.hands)
        conn.executemany(f"INSERT INTO hand_players VALUES ({marks(6)})", self.hand_players)
        conn.executemany(f"INSERT INTO games VALUES ({marks(13)})", self.games)
        conn.executemany(f"INSERT INTO game_players VALUES ({marks(6)})", self.game_players)
        for rows in (
            self.hands,
            self.hand_players,
            self.games,
            self.game_players,
            self.matches,
            self.match_players,
        ):
            rows.clear()


def build(path: Path, hands: int, players: int, seed: int) -> tuple[int, int]:
    """Insert the synthetic results; returns (hands, matches)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")
    builder = Builder(players, seed)
    made = 0
    conn.execute("BEGIN")
    while made < hands:
        made += builder.play_match()
        if len(builder.hands) >= 100_000:
            builder.flush(conn)
            conn.execute("COMMIT")
            conn.execute("BEGIN")
    builder.flush(conn)
    conn.executemany(
        "INSERT INTO player_names (guild_id, user_id, name) VALUES (?, ?, ?)",
        [(GUILD, FIRST_USER + u, f"member{u}") for u in range(players)],
    )
    conn.execute("COMMIT")
    conn.close()
    return made, builder.match_id


# ------------------------------------------------------------------------------ timing


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


class Stopwatch:
    """Wall-clock and CPU milliseconds of each timed call.

    CPU time is the process's (all its threads, aiosqlite's included): on a machine shared with
    other work, wall time includes waiting for a core, CPU time is what the call itself costs.
    With a `server` clock (the PostgreSQL backend process's CPU time, see `backend_clock`), the
    server's share of the call is added in, so that both backends' CPU times hold all the work.
    """

    def __init__(self, server: Callable[[], float] | None = None) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.server = server

    @contextmanager
    def timing(self) -> Iterator[None]:
        served = self.server() if self.server else 0.0
        wall, cpu = time.perf_counter(), time.process_time()
        yield
        spent = (time.process_time() - cpu) * 1000
        self.wall.append((time.perf_counter() - wall) * 1000)
        self.cpu.append(spent + (self.server() - served if self.server else 0.0))


async def backend_clock(db: Database) -> Callable[[], float] | None:
    """The CPU milliseconds spent so far by the PostgreSQL process serving `db`'s connection
    (Linux's /proc/PID/schedstat, in nanoseconds), when that server runs on this machine."""
    pid = await db.fetchval("SELECT pg_backend_pid()")
    path = Path(f"/proc/{pid}/schedstat")
    if not os.access(path, os.R_OK):
        return None
    return lambda: int(path.read_text().split()[0]) / 1e6


def report(name: str, watch: Stopwatch, target: float) -> bool:
    wall, cpu = watch.wall, watch.cpu
    p95 = percentile(wall, 95)
    ok = p95 < target
    print(
        f"  {name:<28} p50 {statistics.median(wall):6.2f}  p95 {p95:6.2f}  max {max(wall):6.2f}"
        f"  | cpu p50 {statistics.median(cpu):6.2f}  p95 {percentile(cpu, 95):6.2f}"
        f"  n={len(wall):<4} {'ok' if ok else 'OVER ' + str(target)}"
    )
    return ok


async def timed(call: Callable[[], Awaitable[object]], runs: int) -> Stopwatch:
    watch = Stopwatch()
    for _ in range(runs):
        with watch.timing():
            await call()
    return watch


def real_deal_record() -> dict:
    deal = Deal.shuffled(SOMERSET, 0, random.Random(1))
    rng = random.Random(2)
    while deal.result is None:
        deal.apply(rng.choice(list(deal.legal_actions())))
    return deal_to_record(deal, 1, 0)


async def measure(path: Path | str, players: int, runs: int, seed: int) -> bool:
    """Time the queries and the recordings on the database at `path` (a file or a URL)."""
    rng = random.Random(seed + 1)
    db = await Database.open(path)
    ok = True
    try:

        def member() -> int:
            return FIRST_USER + rng.randrange(players)

        print(f"/leaderboard ({runs} runs each, a random page 1-3 with the caller's own rank):")
        for period in PERIODS:
            for key in METRICS:
                first = await leaderboard(db, GUILD, key, period, now=NOW)
                pages = min(3, first.page_count)
                samples = await timed(
                    lambda key=key, period=period, pages=pages: leaderboard(
                        db,
                        GUILD,
                        key,
                        period,
                        page=rng.randint(1, pages),
                        now=NOW,
                        viewer_id=member(),
                    ),
                    runs,
                )
                ok &= report(f"{key} {period}", samples, QUERY_TARGET_MS)
        print(f"/stats and /history ({runs * 4} runs each, random members):")
        for period in ("all", "30d"):
            samples = await timed(
                lambda period=period: player_stats(db, GUILD, member(), period, now=NOW),
                runs * 4,
            )
            ok &= report(f"stats {period}", samples, QUERY_TARGET_MS)
        samples = await timed(lambda: history(db, GUILD, member()), runs * 4)
        ok &= report("history page 1", samples, QUERY_TARGET_MS)

        record = real_deal_record()
        options = SOMERSET.to_dict()
        writer = BatchWriter(db)
        try:
            print(
                f"Recording through the game manager's writer ({runs * 10} hands; each write"
                " alone in its transaction, commit included):"
            )
            ok &= await record_many(writer.write, rng, players, runs * 10, record, options)
        finally:
            await writer.close()
        print(f"Recording through the bot's own connection ({runs * 10} hands):")

        async def on_connection(work: Callable[[Database], Awaitable[object]]) -> object:
            async with db.transaction():
                return await work(db)

        await record_many(on_connection, rng, players, runs * 10, record, options)
    finally:
        await db.close()
    return ok


async def record_many(
    write: Callable[[Callable[[Database], Awaitable[object]]], Awaitable[object]],
    rng: random.Random,
    players: int,
    count: int,
    record: dict,
    options: dict,
) -> bool:
    """Record `count` hands (a game and a match every ten) through `write`; print the times."""
    hand_samples, game_samples, match_samples = Stopwatch(), Stopwatch(), Stopwatch()
    match_id = deal = 0
    for n in range(count):
        users = rng.sample(range(players), 4)
        seats = tuple(
            results.SeatPlayer(s, FIRST_USER + u, f"member{u}") for s, u in enumerate(users)
        )
        if n % 10 == 0:
            match_id = await write(lambda d: results.new_match_id(d, GUILD, 1, now=NOW))
            deal = 0
        played = NOW + timedelta(seconds=n)
        hand = results.HandRecord(
            guild_id=GUILD,
            table_id=1,
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
            played_at=played,
        )
        deal += 1
        with hand_samples.timing():
            await write(lambda d, hand=hand: results.record_hand(d, hand))
        if n % 10 == 9:
            game = results.GameRecord(
                GUILD, 1, match_id, 0, seats, (5, 2), 0, 1, "somerset", options, played
            )
            with game_samples.timing():
                await write(lambda d, game=game: results.record_game(d, game))
            match = results.MatchRecord(
                GUILD,
                1,
                match_id,
                "game",
                seats,
                (((5, 2), 0, 1),),
                (0, 0),
                0,
                False,
                "somerset",
                options,
                {"deals": [record]},
                played,
            )
            with match_samples.timing():
                await write(lambda d, match=match: results.record_match(d, match))
    ok = report("record_hand + commit", hand_samples, RECORD_TARGET_MS)
    report("record_game + commit", game_samples, RECORD_TARGET_MS)
    report("record_match + commit", match_samples, RECORD_TARGET_MS)
    return ok


async def copy_to(path: Path, url: str) -> None:
    """Copy the built file into the PostgreSQL database at `url`, as `db copy` does."""
    source, target = await Database.open(path), await Database.open(url)
    try:
        start = time.perf_counter()
        copied = await copy(source, target)
        rows = sum(c.rows for c in copied)
        await target.execute("ANALYZE")  # as autovacuum would soon after a bulk load
        print(f"Copied {rows:,} rows to PostgreSQL in {time.perf_counter() - start:.0f} s")
    finally:
        await source.close()
        await target.close()


async def side_by_side(path: Path, url: str, players: int, runs: int, seed: int) -> bool:
    """Each query on SQLite and on PostgreSQL in turn, with the same arguments, so that both
    meet the machine as it is at that moment; whether PostgreSQL's p95 is within the target."""
    rng = random.Random(seed + 2)
    dbs = [await Database.open(path), await Database.open(url)]

    def member() -> int:
        return FIRST_USER + rng.randrange(players)

    server = await backend_clock(dbs[1])
    ratios: list[float] = []
    cpu_ratios: list[float] = []

    async def both(name: str, calls: Sequence[Callable[[Database], Awaitable[object]]]) -> bool:
        watches = [Stopwatch(), Stopwatch(server)]
        for db in dbs:  # untimed: each backend's first call prepares its statements
            await calls[0](db)
        for call in calls:
            for db, watch in zip(dbs, watches, strict=True):
                with watch.timing():
                    await call(db)
        sqlite, postgres = (percentile(w.wall, 95) for w in watches)
        ratio = postgres / sqlite
        cpu = [percentile(w.cpu, 95) for w in watches]
        ratios.append(ratio)
        cpu_ratios.append(cpu[1] / cpu[0])
        within = ratio <= POSTGRES_RATIO_TARGET
        print(
            f"  {name:<28} p50 {statistics.median(watches[0].wall):6.2f} {statistics.median(watches[1].wall):6.2f}"
            f"  p95 {sqlite:6.2f} {postgres:6.2f}  {ratio:5.2f}x"
            f"  {'ok' if within else 'OVER'}"
            f"  | cpu p95 {cpu[0]:6.2f} {cpu[1]:6.2f}  {cpu[1] / cpu[0]:5.2f}x"
        )
        return within

    print(f"Load average {'/'.join(f'{x:.1f}' for x in os.getloadavg())} (1/5/15 minutes).")
    print(
        f"Each query on SQLite, then PostgreSQL, {runs} times in turn (p50 and p95 of each,"
        f" then PostgreSQL's p95 as a multiple of SQLite's; target at most"
        f" {POSTGRES_RATIO_TARGET:g}x); then the p95 of CPU time, PostgreSQL's with its"
        f" server process's{'' if server else ' (not readable here: the client only)'}:"
    )
    ok = True
    try:
        for period in PERIODS:
            for key in METRICS:
                pages = min(3, (await leaderboard(dbs[0], GUILD, key, period, now=NOW)).page_count)
                calls = [
                    partial(
                        leaderboard,
                        guild_id=GUILD,
                        metric=key,
                        period=period,
                        page=rng.randint(1, pages),
                        now=NOW,
                        viewer_id=member(),
                    )
                    for _ in range(runs)
                ]
                ok &= await both(f"{key} {period}", calls)
        for period in ("all", "30d"):
            stats_calls = [
                partial(player_stats, guild_id=GUILD, user_id=member(), period=period, now=NOW)
                for _ in range(runs * 4)
            ]
            ok &= await both(f"stats {period}", stats_calls)
        history_calls = [
            partial(history, guild_id=GUILD, user_id=member()) for _ in range(runs * 4)
        ]
        ok &= await both("history page 1", history_calls)
    finally:
        for db in dbs:
            await db.close()
    print(f"Load average {'/'.join(f'{x:.1f}' for x in os.getloadavg())} (1/5/15 minutes).")
    for what, found in (("wall", ratios), ("CPU", cpu_ratios)):
        print(
            f"  {what}: PostgreSQL's p95 over SQLite's, min / median / max"
            f" {min(found):.2f} / {statistics.median(found):.2f} / {max(found):.2f}x;"
            f" {sum(r <= POSTGRES_RATIO_TARGET for r in found)} of {len(found)} within"
            f" {POSTGRES_RATIO_TARGET:g}x"
        )
    print(
        f"  PostgreSQL within {POSTGRES_RATIO_TARGET:g}x of SQLite at p95: {'met' if ok else 'NOT met'}"
    )
    return ok


async def run_verify(path: Path | str) -> bool:
    db = await Database.open(path)
    try:
        start = time.perf_counter()
        problems = await verify(db)
        print(f"verify: {len(problems)} differences in {time.perf_counter() - start:.1f} s")
        for line in problems[:10]:
            print(f"  {line}")
        return not problems
    finally:
        await db.close()


async def prepare(path: Path) -> None:
    db = await Database.open(path)
    await db.close()


async def totals(path: Path) -> int:
    db = await Database.open(path)
    try:
        rows = await rebuild(db)
        # Start the timings with an empty write-ahead log, as a running bot's would be.
        await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return rows
    finally:
        await db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=40, help="timed runs per query")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, default=None, help="where to build (default: temp)")
    parser.add_argument("--keep", action="store_true", help="keep the database file")
    parser.add_argument(
        "--reuse", action="store_true", help="time the database at --db as it is (no build)"
    )
    parser.add_argument("--no-verify", action="store_true", help="skip the final recomputation")
    parser.add_argument(
        "--postgres",
        nargs="?",
        const="",
        default=None,
        help="also time it on PostgreSQL: a throwaway server, or an empty database's URL"
        " (with --reuse, a database it was copied to before, timed as it is)",
    )
    args = parser.parse_args()

    directory = None
    server: Server | None = None
    if args.db is None:
        directory = tempfile.mkdtemp(prefix="euchre-bench-")
        path = Path(directory) / "league.db"
    else:
        path = args.db
        if path.exists() and not args.reuse:
            sys.exit(f"{path} exists; give a new path, or --reuse to time it as it is")
    try:
        if args.reuse and path.exists():
            print(f"Timing {path} as it is ({path.stat().st_size / 2**20:,.0f} MiB)")
        else:
            asyncio.run(prepare(path))
            start = time.perf_counter()
            hands, matches = build(path, args.hands, args.players, args.seed)
            built = time.perf_counter() - start
            start = time.perf_counter()
            rows = asyncio.run(totals(path))
            summed = time.perf_counter() - start
            size = path.stat().st_size / 2**20
            print(
                f"Built {hands:,} hands in {matches:,} matches by {args.players:,} players in one"
                f" server: rows {built:.0f} s, totals ({rows:,} rows) {summed:.0f} s,"
                f" {size:,.0f} MiB"
            )
        url: str | None = None
        if args.postgres is not None:
            url = args.postgres
            if not url:
                server = Server.start()
                url = asyncio.run(server.fresh_database("leaderboard"))
            if args.reuse and args.postgres:
                # A copy made before (by an earlier run with the same URL): the copy takes
                # minutes, the timings seconds.
                print(f"Timing {url} as it is")
            else:
                asyncio.run(copy_to(path, url))
        print("Times in milliseconds: wall clock, then CPU time of the process.")
        ok = asyncio.run(measure(path, args.players, args.runs, args.seed))
        if url is not None:
            print("\nThe same on PostgreSQL:")
            ok &= asyncio.run(measure(url, args.players, args.runs, args.seed))
            print()
            ok &= asyncio.run(side_by_side(path, url, args.players, args.runs, args.seed))
        if not args.no_verify:
            ok &= asyncio.run(run_verify(path))
            if url is not None:
                ok &= asyncio.run(run_verify(url))
        print("all targets met" if ok else "SOME TARGETS MISSED")
        return 0 if ok else 1
    finally:
        if server is not None:
            server.stop()
        if directory is not None and not args.keep:
            for name in os.listdir(directory):
                os.remove(os.path.join(directory, name))
            os.rmdir(directory)
        elif args.keep or args.db is not None:
            print(f"database kept at {path}")


if __name__ == "__main__":
    raise SystemExit(main())
