"""Property: whatever sequence of results is recorded, the totals kept incrementally equal a full
recomputation from the stored hands, games and matches (bot.storage.verify)."""

from __future__ import annotations

import asyncio
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import results
from bot.storage.database import Database
from bot.storage.leaderboard import METRICS, leaderboard_rows
from bot.storage.results import SeatPlayer
from bot.storage.seasons import PERIODS, start_season
from bot.storage.verify import verify
from tests.storage.builders import GUILD, game, hand, match
from tests.support.postgres import BACKEND, database_for

PEOPLE = (1, 2, 3, 4, 5, 6)
BOTS = (-1, -2)
# Many small databases: on a memory-backed file system when there is one (still real files).
MEMORY_DISK = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
START = datetime(2025, 2, 20, 9, tzinfo=UTC)  # offsets up to 150 days cross two quarters


@st.composite
def table(draw: st.DrawFn) -> tuple[SeatPlayer, ...]:
    """Four of the members; now and then a computer player in a seat, or a substitute."""
    users = list(draw(st.permutations(PEOPLE).map(lambda p: p[:4])))
    if draw(st.integers(0, 3)) == 0:
        users[draw(st.integers(0, 3))] = draw(st.sampled_from(BOTS))
    substitute = draw(st.integers(0, 3)) if draw(st.integers(0, 4)) == 0 else None
    return tuple(
        SeatPlayer(
            seat=seat,
            user_id=uid,
            name=f"p{uid}",
            is_bot=uid < 0,
            substitute=seat == substitute and uid > 0,
        )
        for seat, uid in enumerate(users)
    )


@st.composite
def hand_step(draw: st.DrawFn) -> tuple:
    outcome = draw(st.sampled_from(("passed", "made", "march", "euchred")))
    maker = None if outcome == "passed" else draw(st.integers(0, 3))
    alone = defender = None
    if maker is not None and draw(st.booleans()):
        alone = draw(st.sampled_from((maker, (maker + 2) % 4)))
        if draw(st.booleans()):
            defender = draw(st.sampled_from(((maker + 1) % 4, (maker + 3) % 4)))
    points = (draw(st.integers(0, 4)), draw(st.integers(0, 4)))
    return ("hand", outcome, maker, alone, defender, points)


game_step = st.tuples(st.just("game"), st.integers(0, 1), st.integers(1, 2))
reseat_step = st.tuples(st.just("reseat"), table())
# Hands, games and new seatings come often, so that matches are flagged after results of every
# kind were counted, and matches end, seasons start and saves fail now and then.
steps = st.one_of(
    hand_step(),
    hand_step(),
    hand_step(),
    game_step,
    game_step,
    reseat_step,
    reseat_step,
    st.tuples(
        st.just("end"),
        st.sampled_from(("rubber", "game")),
        st.booleans(),
        st.integers(0, 1),
        st.tuples(st.integers(0, 10), st.integers(0, 10)),
    ),
    st.tuples(st.just("flag")),
    st.tuples(st.just("season"), st.integers(0, 150)),
    st.tuples(st.just("fail"), hand_step()),
)

script = st.lists(
    st.tuples(steps, st.integers(0, 150), st.sampled_from(("somerset", "modern"))),
    min_size=15,
    max_size=50,
)


async def play(
    path: Path, first_table: tuple[SeatPlayer, ...], actions: list, metric: str
) -> list[str]:
    db = await Database.open(await database_for(path))
    try:
        match_id: int | None = None
        players = first_table
        deal = game_number = 0
        for step, offset, preset in actions:
            when = START + timedelta(days=offset, hours=offset % 13)
            kind = step[0]
            if kind == "season":
                await start_season(db, GUILD, f"season {step[1]}", START + timedelta(days=step[1]))
                continue
            if kind == "reseat":
                players = step[1]
                continue
            async with db.transaction():
                if match_id is None:
                    match_id = await results.new_match_id(db, GUILD, 1)
                    deal = game_number = 0
            if kind in ("hand", "fail"):
                _, outcome, maker, alone, defender, points = step if kind == "hand" else step[1]
                record = hand(
                    match_id,
                    players,
                    deal=deal,
                    game=game_number,
                    maker=maker,
                    outcome=outcome,
                    alone=alone,
                    defender=defender,
                    points=points,
                    when=when,
                    preset=preset,
                )
                try:
                    async with db.transaction():
                        await results.record_hand(db, record)
                        if kind == "fail":
                            raise RuntimeError("the action did not save")
                except RuntimeError:
                    continue
                deal += 1
            elif kind == "game":
                async with db.transaction():
                    await results.record_game(
                        db,
                        game(
                            match_id,
                            players,
                            number=game_number,
                            scores=(5, 3),
                            winner=step[1],
                            value=step[2],
                            when=when,
                            preset=preset,
                        ),
                    )
                game_number += 1
            elif kind == "flag":
                async with db.transaction():
                    await results.flag_match(db, match_id)
            elif kind == "end":
                _, match_kind, abandoned, winner, rubber_points = step
                async with db.transaction():
                    await results.record_match(
                        db,
                        match(
                            match_id,
                            players,
                            kind=match_kind,
                            abandoned=abandoned,
                            winner=None if abandoned else winner,
                            rubber_points=rubber_points,
                            when=when,
                            preset=preset,
                        ),
                    )
                match_id = None
        problems = await verify(db)
        # The boards answer exactly what summing the detailed totals answers: on the day of the
        # last result, days later (a window partly or wholly past), and before it.
        last = await db.fetchval("SELECT max(played_at) FROM hands")
        if last is not None:
            latest = datetime.fromisoformat(last.replace("Z", "+00:00"))
            for now in (
                latest,
                latest + timedelta(days=3),
                latest + timedelta(days=40),
                latest - timedelta(days=2),
            ):
                for period in PERIODS:
                    for bots in (False, True):
                        fast = await leaderboard_rows(
                            db, GUILD, metric, period, include_bots=bots, now=now
                        )
                        slow = await leaderboard_rows(
                            db, GUILD, metric, period, include_bots=bots, now=now, detail=True
                        )
                        assert fast == slow, (metric, period, bots, now)
        # The leaderboards read the same totals: with everything included, each player's rubber
        # points are those of the finished rubbers he sat in (and he is listed once he has one).
        _, rows = await leaderboard_rows(db, GUILD, "rubber_points", include_bots=True)
        expected: dict[int, int] = {}
        for r in await db.fetchall(
            "SELECT mp.user_id, mp.seat, m.rubber_points_0, m.rubber_points_1 FROM matches m"
            " JOIN match_players mp ON mp.match_id = m.id WHERE m.status = 'finished'"
            " AND m.kind = 'rubber' AND mp.is_bot = 0"
        ):
            points = r[2] if r[1] % 2 == 0 else r[3]
            expected[r[0]] = expected.get(r[0], 0) + points
        assert {row.user_id: row.value for row in rows} == {u: v for u, v in expected.items() if v}
        return problems
    finally:
        await db.close()


# Each example is a new database: on PostgreSQL a CREATE DATABASE, some 0.5 s, so the run there
# (which checks the backend gives the same totals, the logic being SQLite's run's) takes fewer.
@settings(
    max_examples=25 if BACKEND == "postgres" else 50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(first_table=table(), actions=script, metric=st.sampled_from(sorted(METRICS)))
def test_totals_always_equal_a_full_recomputation(
    first_table: tuple[SeatPlayer, ...], actions: list, metric: str
) -> None:
    with tempfile.TemporaryDirectory(dir=MEMORY_DISK) as directory:
        problems = asyncio.run(play(Path(directory) / "euchre.db", first_table, actions, metric))
    assert problems == []
