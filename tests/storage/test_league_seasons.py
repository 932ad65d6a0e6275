"""League seasons, standings, ratings and corrections in storage: real aiosqlite on a file."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.leagues.ratings import replay
from bot.storage import league_ratings, league_results, league_seasons
from bot.storage.leagues import LeagueError
from tests.storage.league_builders import START, league_match, league_of


async def start(db, league, name=None):
    async with db.transaction():
        return await league_seasons.start_season(db, league, by=1, name=name)


async def end(db, league):
    async with db.transaction():
        return await league_seasons.end_season(db, league, by=1)


async def correct(db, league, match_id, action, side=None, reason="a reason"):
    async with db.transaction():
        return await league_results.correct(db, league, match_id, action, reason, 1, side=side)


async def page(db, league, season=None, number=1):
    return await league_seasons.standings_page(db, league, season, number)


def placed(shown):
    return [(line.rank, line.user_id, line.decided_by) for line in shown.lines]


async def test_a_season_started_twice_is_refused(db):
    league = await league_of(db, 1, 2, 3, 4)
    await start(db, league, "Autumn")
    with pytest.raises(LeagueError, match="“Autumn” of “Friday Night” is still running"):
        await start(db, league)
    assert len(await league_seasons.seasons(db, league.id)) == 1


async def test_ending_a_season_when_none_runs_is_refused(db):
    league = await league_of(db, 1, 2, 3, 4)
    with pytest.raises(LeagueError, match="no season of “Friday Night” is running"):
        await end(db, league)


async def test_seasons_are_numbered_and_named_and_found_by_either(db):
    league = await league_of(db, 1, 2, 3, 4)
    await start(db, league)
    await end(db, league)
    await start(db, league, "Winter Cup")
    assert (await league_seasons.find_season(db, league, "1")).name == "Season 1"
    assert (await league_seasons.find_season(db, league, "winter cup")).number == 2
    with pytest.raises(LeagueError, match="no season “3”"):
        await league_seasons.find_season(db, league, "3")


async def test_a_seasons_name_is_checked_as_a_seasons_and_the_default_never_clashes(db):
    league = await league_of(db, 1, 2, 3, 4)
    with pytest.raises(LeagueError, match="a season's name is at most 40 characters"):
        await start(db, league, "x" * 41)
    await start(db, league, "Season 2")  # season 1, named as the next would be by default
    await end(db, league)
    await start(db, league)  # season 2 takes "Season 2 (2)", not a refusal
    names = [s.name for s in await league_seasons.seasons(db, league.id)]
    assert sorted(names) == ["Season 2", "Season 2 (2)"]
    await end(db, league)
    with pytest.raises(LeagueError, match="already has a season named “SEASON 2”"):
        await start(db, league, "SEASON 2")


async def test_a_match_counts_for_the_season_running_when_it_ends(db):
    league = await league_of(db, 1, 2, 3, 4)
    await league_match(db, league, (1, 2, 3, 4), winner=0)  # outside seasons
    await start(db, league)
    await league_match(db, league, (1, 2, 3, 4), winner=1)
    inside = await page(db, league)
    assert [(line.user_id, line.totals.rubbers) for line in inside.lines][:2] == [(2, 1), (4, 1)]
    await end(db, league)
    outside = await page(db, league)  # none runs: the matches outside seasons
    assert outside.season is None and outside.lines[0].user_id in (1, 3)


async def test_standings_rows_say_which_tie_break_placed_them(db):
    league = await league_of(db, *range(1, 14))
    await start(db, league)
    await league_match(db, league, (1, 3, 5, 6), winner=0)  # 1 and 5 beat 3 and 6
    await league_match(db, league, (3, 8, 7, 9), winner=0)  # 3 and 7 beat 8 and 9
    await league_match(db, league, (10, 1, 11, 12), winner=0)  # 10 and 11 beat 1 and 12
    shown = {line.user_id: (line.rank, line.decided_by) for line in (await page(db, league)).lines}
    # 1 and 3: 4 rubber points, 1 rubber, 2 games and a points difference of 0 each; 1 beat 3.
    assert shown[1][1] == "head_to_head" and shown[3][1] == "head_to_head"
    assert shown[1][0] + 1 == shown[3][0]
    # 5 and 7, 10 and 11: equal in everything and never met: tied, sharing a rank, their
    # group placed among the others by the points difference.
    assert shown[5] == shown[7] and shown[5][1] == "tied:points_difference"
    # the four who lost their one rubber 2-10 in points are tied too, below everyone else
    assert {shown[u] for u in (6, 8, 9, 12)} == {
        (max(r for r, _ in shown.values()), "tied:rubber_points")
    }


async def test_a_page_past_the_end_is_refused(db):
    league = await league_of(db, 1, 2, 3, 4)
    await league_match(db, league, (1, 2, 3, 4))
    assert (await page(db, league)).pages == 1
    with pytest.raises(LeagueError, match="page 2 does not exist"):
        await page(db, league, number=2)


async def test_an_ended_season_shows_what_was_stored_when_it_ended(db):
    league = await league_of(db, 1, 2, 3, 4, 5)
    await start(db, league)
    first = await league_match(db, league, (1, 2, 3, 4), winner=0)
    await end(db, league)
    archived = await page(db, league, "1")
    # The stored rows are what it shows: changed behind its back, the page follows them.
    await db.execute("UPDATE league_totals SET rubbers = 99")
    assert await page(db, league, "1") == archived
    with pytest.raises(LeagueError, match="has ended"):
        await correct(db, league, first, "void")


async def test_ratings_are_updated_game_by_game_in_the_order_played(db):
    league = await league_of(db, 1, 2, 3, 4)
    await league_match(db, league, (1, 2, 3, 4), scores=((5, 1), (2, 5), (5, 4)), winner=0)
    ratings = await league_ratings.stored_ratings(db, league.id)
    assert {r.games for r in ratings.players.values()} == {3}
    assert ratings.get(1).mu > 25 > ratings.get(2).mu
    assert await league_ratings.check(db, league.id) == []
    history = await league_ratings.history(db, league.id, 1)
    assert [entry.won for entry in history] == [True, False, True]


async def test_a_game_with_a_computer_is_not_rated(db):
    league = await league_of(db, 1, 2, 3)
    await league_match(db, league, (1, 2, 3, 99), bots=(99,))
    assert (await league_ratings.stored_ratings(db, league.id)).players == {}


async def test_a_game_of_a_non_member_is_not_rated_and_the_match_does_not_count(db):
    league = await league_of(db, 1, 2, 3)
    await league_match(db, league, (1, 2, 3, 4))
    assert (await league_ratings.stored_ratings(db, league.id)).players == {}
    assert (await page(db, league)).total == 0


async def test_recomputing_from_the_stored_results_gives_the_stored_ratings(db):
    league = await league_of(db, *range(1, 7))
    for k in range(6):
        ids = ((1, 2, 3, 4), (1, 5, 2, 6), (3, 6, 4, 5))[k % 3]
        await league_match(db, league, ids, winner=k % 2, when=START + timedelta(hours=k))
    again = replay(g.result() for g in await league_ratings.rated_games(db, league.id))
    assert again.players == (await league_ratings.stored_ratings(db, league.id)).players


async def test_void_then_unvoid_gives_back_the_standings_and_ratings(db):
    league = await league_of(db, *range(1, 7))
    matches = [
        await league_match(db, league, ids, winner=w, when=START + timedelta(hours=k))
        for k, (ids, w) in enumerate([((1, 2, 3, 4), 0), ((1, 5, 2, 6), 1), ((3, 6, 4, 5), 0)])
    ]
    before = (await page(db, league), (await league_ratings.stored_ratings(db, league.id)).players)
    await correct(db, league, matches[0], "void")
    voided = await league_ratings.stored_ratings(db, league.id)
    assert voided.get(1).games == 2 and await league_ratings.check(db, league.id) == []
    await correct(db, league, matches[0], "unvoid")
    after = (await page(db, league), (await league_ratings.stored_ratings(db, league.id)).players)
    assert after == before


async def test_award_counts_the_fixed_score_and_is_not_rated(db):
    league = await league_of(db, 1, 2, 3, 4)
    match_id = await league_match(db, league, (1, 2, 3, 4), winner=0)
    corrected = await correct(db, league, match_id, "award", side=1)
    assert corrected.result == league_results.Result(True, 1, (0, 2), (0, 10), (0, 4))
    top = (await page(db, league)).lines[0]
    assert top.user_id in (2, 4) and top.totals.rubber_points == 4
    assert (await league_ratings.stored_ratings(db, league.id)).players == {}


async def test_unvoid_gives_back_an_award(db):
    league = await league_of(db, 1, 2, 3, 4)
    match_id = await league_match(db, league, (1, 2, 3, 4), winner=0)
    await correct(db, league, match_id, "award", side=1)
    awarded = await page(db, league)
    await correct(db, league, match_id, "replay")
    await correct(db, league, match_id, "unvoid")
    assert await page(db, league) == awarded


async def test_a_correction_of_another_leagues_match_is_refused(db):
    league = await league_of(db, 1, 2, 3, 4)
    other = await league_of(db, 1, 2, 3, 4, name="Other")
    match_id = await league_match(db, other, (1, 2, 3, 4))
    with pytest.raises(LeagueError, match="not played for the league “Friday Night”"):
        await correct(db, league, match_id, "void")


async def forfeit_league(db):
    league = await league_of(db, 1, 2, 3, 4)
    async with db.transaction():
        await league_seasons.change_settings(db, league, leaver="forfeit")
    return league


async def test_a_leaver_forfeits_for_his_side_when_the_league_says_so(db):
    league = await forfeit_league(db)
    match_id = await league_match(db, league, (1, 2, 3, 4), scores=((5, 1),), left=(3,))
    row = await db.fetchone("SELECT * FROM league_results WHERE match_id = ?", (match_id,))
    # west (east-west) left and a computer finished: north-south win by forfeit
    assert (row["correction"], row["winner"], row["counts"]) == ("forfeit", 0, 1)
    audit = await league_results.audit_page(db, league)
    assert audit.entries[0].by is None  # the league's rule, not an organiser
    # it names who left: an organiser reading the audit sees who ended the match so
    assert audit.entries[0].reason == "player4 (east–west) left or timed out repeatedly"
    found = await league_results.verdict(db, match_id)
    assert found == league_results.Verdict(True, "forfeit", 0, (audit.entries[0].reason,))
    # the game the four played whole before he left stays rated: leaving does not take a
    # game already lost off anyone's rating
    rated = (await league_ratings.stored_ratings(db, league.id)).players
    assert {user: r.games for user, r in rated.items()} == {1: 1, 2: 1, 3: 1, 4: 1}
    assert rated[1].mu > 25 > rated[4].mu
    assert await league_ratings.check(db, league.id) == []
    # and the leaver is charged with his side's loss, as his partner is
    totals = {
        r["user_id"]: (r["played"], r["rubbers"], r["rubber_points"])
        for r in await db.fetchall("SELECT * FROM league_totals WHERE league_id = ?", (league.id,))
    }
    assert totals == {1: (1, 1, 4), 3: (1, 1, 4), 2: (1, 0, 0), 4: (1, 0, 0)}


async def test_timing_out_until_a_computer_holds_the_seat_is_leaving_even_after_coming_back(db):
    league = await forfeit_league(db)
    match_id = await league_match(db, league, (1, 2, 3, 4), scores=((5, 1),), came_back=(1,))
    row = await db.fetchone("SELECT * FROM league_results WHERE match_id = ?", (match_id,))
    assert (row["correction"], row["winner"], row["counts"]) == ("forfeit", 0, 1)


async def test_an_abandoned_match_a_player_left_is_a_forfeit_too(db):
    league = await forfeit_league(db)
    match_id = await league_match(
        db, league, (1, 2, 3, 4), scores=((5, 1),), left=(0,), abandoned=True
    )
    row = await db.fetchone("SELECT * FROM league_results WHERE match_id = ?", (match_id,))
    assert (row["correction"], row["winner"]) == ("forfeit", 1)


async def test_leavers_of_both_sides_are_no_contest_even_where_the_rule_is_forfeit(db):
    league = await forfeit_league(db)
    match_id = await league_match(db, league, (1, 2, 3, 4), scores=((5, 1),), left=(0, 1))
    row = await db.fetchone("SELECT * FROM league_results WHERE match_id = ?", (match_id,))
    assert (row["correction"], row["counts"]) == ("no_contest", 0)


async def test_a_computer_from_the_start_is_no_leaver_and_the_match_does_not_count(db):
    league = await forfeit_league(db)
    await league_match(db, league, (1, 2, 3, 99), scores=((5, 1), (5, 2)), bots=(99,))
    assert await db.fetchval("SELECT COUNT(*) FROM league_results") == 0
    assert (await league_results.audit_page(db, league)).total == 0


async def test_an_abandoned_match_nobody_left_does_not_count_and_is_no_correction(db):
    """The host closed it, or a night's round ended: no one left, so the rule for leavers has
    nothing to say and the audit nothing to list; the match simply does not count."""
    league = await forfeit_league(db)
    match_id = await league_match(db, league, (1, 2, 3, 4), scores=((5, 1),), abandoned=True)
    assert await db.fetchone("SELECT * FROM league_results WHERE match_id = ?", (match_id,)) is None
    assert (await league_results.audit_page(db, league)).total == 0
    assert await league_results.verdict(db, match_id) == league_results.Verdict(
        False, None, None, ("it was abandoned before it finished",)
    )
    # its game was rated while it was played, and no longer is
    assert (await league_ratings.stored_ratings(db, league.id)).players == {}
    assert await league_ratings.check(db, league.id) == []


async def test_settings_are_kept_and_checked(db):
    league = await league_of(db, 1)
    assert await league_seasons.league_settings(db, league.id) == league_seasons.LeagueSettings()
    async with db.transaction():
        await league_seasons.change_settings(db, league, min_games=3)
    async with db.transaction():
        await league_seasons.change_settings(db, league, hide_after_days=30)
    assert await league_seasons.league_settings(db, league.id) == league_seasons.LeagueSettings(
        3, 30, "no_contest"
    )
    with pytest.raises(LeagueError, match="`leaver` is forfeit or no_contest"):
        async with db.transaction():
            await league_seasons.change_settings(db, league, leaver="draw")


async def test_db_recompute_league_checks_the_stored_totals_and_ratings(db, tmp_path, capsys):
    from bot.cli import main

    league = await league_of(db, *range(1, 7))
    await league_match(db, league, (1, 2, 3, 4), winner=0)
    match_id = await league_match(db, league, (1, 5, 2, 6), winner=1)
    await correct(db, league, match_id, "void")
    path = db.url.dsn or str(tmp_path / "euchre.db")  # the file, or the PostgreSQL database
    assert await asyncio.to_thread(main, ["db", "recompute-league", path, str(league.id)]) == 0
    assert "exactly what its results give (2 rated games replayed)" in capsys.readouterr().out
    await db.execute("UPDATE league_ratings SET mu = mu + 1e-12 WHERE user_id = 1")
    await db.execute("UPDATE league_totals SET games = games + 1 WHERE user_id = 2")
    assert await asyncio.to_thread(main, ["db", "recompute-league", path, str(league.id)]) == 1
    out = capsys.readouterr().out
    assert "3 differences found" in out and "player 1: stored" in out
    assert "player 2: stored totals" in out and "player 2: recomputed totals" in out
    assert await asyncio.to_thread(main, ["db", "recompute-league", path, "9"]) == 2
    assert "no league 9" in capsys.readouterr().err
