"""Properties of league results over random scripts of matches, corrections and seasons (real
aiosqlite on a file): ratings recompute exactly, a void and its un-void change nothing, and an
ended season's standings and ratings never change."""

from __future__ import annotations

import asyncio
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import league_ratings, league_results, league_seasons
from bot.storage.database import Database
from bot.storage.leagues import League, LeagueError
from tests.storage.league_builders import START, league_match, league_of
from tests.storage.test_property import MEMORY_DISK

PLAYERS = range(1, 7)
four = st.permutations(list(PLAYERS)).map(lambda p: tuple(p[:4]))
step = st.one_of(
    st.tuples(st.just("match"), four, st.integers(0, 1)),
    # a match a player left after its games: no contest, its games played whole kept rated
    st.tuples(st.just("leave"), four, st.integers(0, 3)),
    st.tuples(st.sampled_from(["void", "replay", "unvoid"]), st.integers(0, 20), st.none()),
    st.tuples(st.just("award"), st.integers(0, 20), st.integers(0, 1)),
    st.tuples(st.sampled_from(["start", "end"]), st.none(), st.none()),
)
script = st.lists(step, min_size=1, max_size=14)
SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


async def run(db: Database, league: League, steps: list, matches: list[int], each=None) -> None:
    """Play the script: matches at a league table, corrections of them, seasons started and
    ended; steps the bot refuses (a correction of a void match, a second season) are skipped."""
    for number, (kind, what, extra) in enumerate(steps):
        try:
            if kind == "match":
                when = START + timedelta(hours=number)
                matches.append(await league_match(db, league, what, extra, when=when))
            elif kind == "leave":
                when = START + timedelta(hours=number)
                matches.append(await league_match(db, league, what, left=(extra,), when=when))
            elif kind in ("start", "end"):
                async with db.transaction():
                    if kind == "start":
                        await league_seasons.start_season(db, league, by=1)
                    else:
                        await league_seasons.end_season(db, league, by=1)
            elif matches:
                match_id = matches[what % len(matches)]
                async with db.transaction():
                    await league_results.correct(db, league, match_id, kind, "r", 1, side=extra)
        except LeagueError:
            continue
        if each is not None:
            await each(kind)


async def snapshot(db: Database, league: League) -> tuple:
    """Everything the league's standings and ratings show or are built from."""
    pages = []
    for season in [None, *await league_seasons.seasons(db, league.id)]:
        name = str(season.number) if season else None
        pages.append(await league_seasons.standings_page(db, league, name))
        pages.append(await league_seasons.ratings_page(db, league, name, now=START))
    totals = [tuple(r) for r in await db.fetchall("SELECT * FROM league_totals ORDER BY 1, 2, 3")]
    history = [
        tuple(r) for r in await db.fetchall("SELECT * FROM league_rating_history ORDER BY 1, 2, 3")
    ]
    ratings = (await league_ratings.stored_ratings(db, league.id)).players
    return pages, totals, history, ratings


def with_database(test):
    """Run an async property on a fresh database file."""

    async def open_and_run(*args):
        with tempfile.TemporaryDirectory(dir=MEMORY_DISK) as directory:
            db = await Database.open(Path(directory) / "euchre.db")
            try:
                league = await league_of(db, *PLAYERS)
                return await test(db, league, *args)
            finally:
                await db.close()

    return lambda *args: asyncio.run(open_and_run(*args))


@with_database
async def _recompute(db: Database, league: League, steps: list) -> None:
    async def check(_kind: str) -> None:
        assert await league_ratings.check(db, league.id) == []
        kept = [tuple(r) for r in await db.fetchall("SELECT * FROM league_totals ORDER BY 1, 2, 3")]
        async with db.transaction():
            for season in {r[1] for r in kept}:
                await league_results.rebuild_totals(db, league.id, season)
        again = [
            tuple(r) for r in await db.fetchall("SELECT * FROM league_totals ORDER BY 1, 2, 3")
        ]
        assert again == kept

    await run(db, league, steps, [], check)


@SETTINGS
@given(steps=script)
def test_ratings_and_totals_recompute_exactly_after_any_results_and_corrections(steps):
    _recompute(steps)


@with_database
async def _round_trip(db: Database, league: League, steps: list, pick: int) -> None:
    matches: list[int] = []
    await run(db, league, steps, matches)
    counting = [
        r["match_id"]
        for r in await db.fetchall(
            "SELECT r.match_id FROM league_results AS r LEFT JOIN league_seasons AS s"
            " ON s.id = r.season_id WHERE s.ended_at IS NULL"
            " AND COALESCE(r.correction, '') NOT IN ('void', 'replay', 'no_contest')"
        )
    ]
    if not counting:
        return
    match_id = counting[pick % len(counting)]
    before = await snapshot(db, league)
    async with db.transaction():
        await league_results.correct(db, league, match_id, "void", "r", 1)
    async with db.transaction():
        await league_results.correct(db, league, match_id, "unvoid", "r", 1)
    assert await snapshot(db, league) == before


@SETTINGS
@given(steps=script, pick=st.integers(0, 20))
def test_void_then_unvoid_gives_back_exactly_the_standings_and_ratings(steps, pick):
    _round_trip(steps, pick)


@with_database
async def _archives(db: Database, league: League, steps: list) -> None:
    kept: dict[int, tuple] = {}

    async def archived() -> dict[int, tuple]:
        out = {}
        for season in await league_seasons.seasons(db, league.id):
            if not season.running:
                name = str(season.number)
                out[season.id] = (
                    await league_seasons.standings_page(db, league, name),
                    await league_seasons.ratings_page(db, league, name, now=START),
                )
        return out

    async def compare(kind: str) -> None:
        shown = await archived()
        for season_id, pages in shown.items():
            assert kept.setdefault(season_id, pages) == pages

    await run(db, league, [*steps, ("end", None, None)], [], compare)


@SETTINGS
@given(steps=script)
def test_an_ended_seasons_standings_and_ratings_never_change(steps):
    _archives(steps)
