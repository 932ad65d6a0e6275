"""A correction's ratings recomputed in short writes (`league_ratings.catch_up`), on real
aiosqlite files: the end state is a full recompute's, games that end meanwhile are rated after
the corrected history, standings are exact all along, and a stop midway is carried on."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage import league_ratings, league_results
from bot.storage.batch import BatchWriter
from bot.storage.database import Database
from bot.storage.leagues import League
from tests.storage.league_builders import START, league_match, league_of
from tests.storage.test_league_properties import PLAYERS, SETTINGS, run, script
from tests.storage.test_property import MEMORY_DISK

Work = Callable[[Database], Awaitable[Any]]


def in_transactions(db: Database) -> Callable[[Work], Awaitable[Any]]:
    """A `write` for `catch_up` that runs each work in a transaction of its own."""

    async def write(work: Work) -> Any:
        async with db.transaction():
            return await work(db)

    return write


@pytest.fixture
def always_chunked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every recompute a correction asks for is left to `catch_up`, however short."""
    monkeypatch.setattr(league_ratings, "IN_PLACE_GAMES", -1)


async def history(db: Database) -> list[tuple]:
    return [
        tuple(r) for r in await db.fetchall("SELECT * FROM league_rating_history ORDER BY 1, 2, 3")
    ]


async def full_recompute_equals_stored(db: Database, league: League) -> None:
    """The stored ratings and history are exactly what recomputing every game gives."""
    assert await league_ratings.pending(db, league.id) is None
    assert await league_results.check_league(db, league.id) == []
    kept = await history(db), (await league_ratings.stored_ratings(db, league.id)).players
    async with db.transaction():
        await league_ratings.recompute_from(db, league.id, 0)
    assert (await history(db), (await league_ratings.stored_ratings(db, league.id)).players) == kept


def standings_problems(problems: list[str]) -> list[str]:
    return [p for p in problems if p.startswith("season")]


async def league_with_matches(db: Database, count: int) -> tuple[League, list[int]]:
    league = await league_of(db, *PLAYERS)
    matches = []
    for number in range(count):
        four = tuple(PLAYERS[(number + k) % len(PLAYERS)] for k in range(4))
        when = START + timedelta(hours=number)
        matches.append(await league_match(db, league, four, number % 2, when=when))
    return league, matches


async def void(db: Database, league: League, match_id: int, action: str = "void") -> bool:
    async with db.transaction():
        corrected = await league_results.correct(db, league, match_id, action, "r", 1)
    return corrected.ratings_pending


def with_file(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async property on a fresh database file."""

    async def open_and_run(*args: Any) -> None:
        with tempfile.TemporaryDirectory(dir=MEMORY_DISK) as directory:
            db = await Database.open(Path(directory) / "euchre.db")
            try:
                await test(db, *args)
            finally:
                await db.close()

    return lambda *args: asyncio.run(open_and_run(*args))


@with_file
async def _chunked(db: Database, steps: list, chunk: int, catch_up_after: set[int]) -> None:
    league = await league_of(db, *PLAYERS)
    done = 0

    async def each(kind: str) -> None:
        nonlocal done
        done += 1
        # Standings never wait for the ratings.
        assert standings_problems(await league_results.check_league(db, league.id)) == []
        if done in catch_up_after:
            await league_ratings.catch_up(db, in_transactions(db), league.id, chunk)

    await run(db, league, steps, [], each)
    await league_ratings.catch_up(db, in_transactions(db), league.id, chunk)
    await full_recompute_equals_stored(db, league)


@SETTINGS
@given(
    steps=script,
    chunk=st.integers(1, 5),
    catch_up_after=st.sets(st.integers(1, 14)),
)
def test_chunked_recompute_gives_exactly_a_full_recompute(steps, chunk, catch_up_after):
    # Corrections and new matches pile up on a marked league between the recomputes.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(league_ratings, "IN_PLACE_GAMES", -1)
        _chunked(steps, chunk, catch_up_after)


async def test_a_short_recompute_is_done_in_the_correction(db: Database) -> None:
    league, matches = await league_with_matches(db, 3)
    assert not await void(db, league, matches[0])
    await full_recompute_equals_stored(db, league)


async def test_a_long_recompute_leaves_standings_exact_and_ratings_marked(
    db: Database, always_chunked: None
) -> None:
    league, matches = await league_with_matches(db, 4)
    before = (await league_ratings.stored_ratings(db, league.id)).players
    assert await void(db, league, matches[0])
    problems = await league_results.check_league(db, league.id)
    assert standings_problems(problems) == [] and problems  # the ratings wait for catch_up
    assert (await league_ratings.stored_ratings(db, league.id)).players == before
    await league_ratings.catch_up(db, in_transactions(db), league.id, chunk=2)
    await full_recompute_equals_stored(db, league)


async def test_a_game_ending_during_the_recompute_is_rated_after_the_corrected_history(
    db: Database, always_chunked: None
) -> None:
    league, matches = await league_with_matches(db, 5)
    assert await void(db, league, matches[1])
    write = in_transactions(db)
    played: list[int] = []

    async def write_then_play(work: Work) -> Any:
        done = await write(work)
        if not played:  # after the first short write, a table finishes a league match
            played.append(await league_match(db, league, (1, 2, 3, 4), 1, when=START))
        return done

    await league_ratings.catch_up(db, write_then_play, league.id, chunk=2)
    await full_recompute_equals_stored(db, league)
    new_games = await db.fetchall("SELECT game_id FROM league_games WHERE match_id = ?", played)
    rated = await db.fetchval(
        "SELECT COUNT(*) FROM league_rating_history WHERE game_id IN (?, ?)",
        [g["game_id"] for g in new_games],
    )
    assert rated == 8  # two games, four players each


async def test_a_correction_during_the_recompute_starts_it_again_from_the_earlier_game(
    db: Database, always_chunked: None
) -> None:
    league, matches = await league_with_matches(db, 6)
    assert await void(db, league, matches[4])
    write = in_transactions(db)
    corrected: list[bool] = []

    async def write_then_correct(work: Work) -> Any:
        done = await write(work)
        if not corrected:
            corrected.append(await void(db, league, matches[0]))
        return done

    await league_ratings.catch_up(db, write_then_correct, league.id, chunk=1)
    await full_recompute_equals_stored(db, league)


class Stop(Exception):
    """The bot stopping between two writes."""


async def test_a_stop_midway_is_carried_on_at_the_next_start(
    tmp_path: Path, always_chunked: None
) -> None:
    path = tmp_path / "euchre.db"
    db = await Database.open(path)
    league, matches = await league_with_matches(db, 6)
    assert await void(db, league, matches[0])
    write = in_transactions(db)
    writes = 0

    async def stop_after_two(work: Work) -> Any:
        nonlocal writes
        writes += 1
        if writes > 2:
            raise Stop
        return await write(work)

    with pytest.raises(Stop):
        await league_ratings.catch_up(db, stop_after_two, league.id, chunk=2)
    mark = await league_ratings.pending(db, league.id)
    assert mark is not None and mark.from_game > 1  # two writes' games are done
    await db.close()

    db = await Database.open(path)
    writer = BatchWriter(db)
    try:
        recomputer = league_ratings.Recomputer(db, writer.write)
        await recomputer.resume()
        await recomputer.settle(league.id)
        await full_recompute_equals_stored(db, league)
    finally:
        await writer.close()
        await db.close()


async def test_a_stop_midway_is_carried_on_by_the_next_correction(
    tmp_path: Path, always_chunked: None
) -> None:
    path = tmp_path / "euchre.db"
    db = await Database.open(path)
    league, matches = await league_with_matches(db, 6)
    assert await void(db, league, matches[0])

    async def stop_at_once(work: Work) -> Any:
        raise Stop

    with pytest.raises(Stop):
        await league_ratings.catch_up(db, stop_at_once, league.id, chunk=2)
    await db.close()

    db = await Database.open(path)
    try:
        assert await void(db, league, matches[3])  # later than the mark: it stays put
        await league_ratings.catch_up(db, in_transactions(db), league.id, chunk=3)
        await full_recompute_equals_stored(db, league)
    finally:
        await db.close()


async def test_a_season_does_not_end_while_its_ratings_are_recomputed(
    db: Database, always_chunked: None
) -> None:
    from bot.storage import league_seasons
    from bot.storage.leagues import LeagueError

    league = await league_of(db, *PLAYERS)
    async with db.transaction():
        await league_seasons.start_season(db, league, by=1)
    match_id = await league_match(db, league, (1, 2, 3, 4), 0)
    await league_match(db, league, (1, 2, 3, 5), 1)
    assert await void(db, league, match_id)
    with pytest.raises(LeagueError, match="being recomputed"):
        async with db.transaction():
            await league_seasons.end_season(db, league, by=1)
    await league_ratings.catch_up(db, in_transactions(db), league.id)
    async with db.transaction():
        await league_seasons.end_season(db, league, by=1)
