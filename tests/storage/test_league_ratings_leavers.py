"""A leaver's forfeit or no contest keeps the games the four played whole rated: a member who
lost game 1 of a rubber cannot take that loss off his rating by leaving in game 2. Real
aiosqlite on a file (or PostgreSQL), the calls the results path makes as games and matches end."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.leagues.ratings import GameResult, replay
from bot.storage import league_ratings, league_results, league_seasons, leagues, results
from bot.storage.database import Database
from tests.storage.builders import GUILD, TABLE, game, match, seats
from tests.storage.league_builders import START, league_match, league_of
from tests.support.postgres import database_for

COMPUTER = 900  # a computer finishing seat s is user 900 + s
MINUTE = timedelta(minutes=1)


async def begin(db: Database, league, ids=(1, 2, 3, 4)) -> int:
    """A league match started by the four members `ids`, north first."""
    async with db.transaction():
        match_id = await results.new_match_id(db, GUILD, TABLE, now=START)
        await leagues.set_match_league(db, match_id, league.id)
        await league_results.match_started(db, match_id, seats(*ids))
    return match_id


async def play(
    db: Database, league, match_id: int, number: int, ids, winner: int, flagged=False, changed=None
):
    """Game `number` of the match ends, won by side `winner`, with `ids` in the seats (a computer
    from 900 on, a substitute from 50 on); `flagged`: a computer or a substitute has played in
    the match by then, `changed`: a seat changed hands during the game (the table's own)."""
    players = seats(*ids, bots=tuple(u for u in ids if u >= COMPUTER), subs=(50, 51, 52, 53))
    moment = START + timedelta(minutes=number)
    scores = (5, 1) if winner == 0 else (1, 5)
    async with db.transaction():
        game_id = await results.record_game(
            db, game(match_id, players, number=number, scores=scores, winner=winner, when=moment)
        )
        await league_results.game_ended(
            db, league.id, match_id, game_id, players, winner, moment, flagged, changed
        )


async def end(db: Database, match_id: int, ids, won, *, left=(), winner=None, **kwargs) -> None:
    """The match ends (or is abandoned: `winner` None) with `ids` in the seats, the games `won`
    (each game's winning side) and the members of the seats `left` gone."""
    at_end = seats(*ids, bots=tuple(u for u in ids if u >= COMPUTER), subs=(50, 51, 52, 53))
    sides = [won.count(0), won.count(1)]
    over = winner is not None
    record = match(
        match_id,
        at_end,
        games=tuple(((5, 1) if w == 0 else (1, 5), w, 1) for w in won),
        rubber_points=(sides[0] + 2 * (winner == 0), sides[1] + 2 * (winner == 1)),
        winner=winner,
        abandoned=not over,
        when=START + timedelta(minutes=len(won)),
        flagged=bool(left) or any(u >= COMPUTER for u in ids),
    )
    async with db.transaction():
        await results.record_match(db, record)
        await league_results.match_ended(db, GUILD, match_id, frozenset(left), **kwargs)


async def leaver_league(db: Database, leaver: str, substitutes: bool = False):
    league = await league_of(db, 1, 2, 3, 4, 50, substitutes=substitutes)
    async with db.transaction():
        await league_seasons.change_settings(db, league, leaver=leaver)
    return league


async def lost_game_one_then_left(db: Database, league) -> int:
    """East (member 2) loses game 1 with west (4), leaves in game 2, and a computer finishes
    his seat: the match ends by the league's rule for leavers."""
    match_id = await begin(db, league)
    await play(db, league, match_id, 0, (1, 2, 3, 4), winner=0)
    after = (1, COMPUTER + 1, 3, 4)  # games 2 and 3: a computer in them, never rated
    await play(db, league, match_id, 1, after, winner=1, flagged=True)
    await play(db, league, match_id, 2, after, winner=1, flagged=True)
    await end(db, match_id, after, [0, 1, 1], left=(1,), winner=1)
    return match_id


def game_one() -> dict:
    """The four's ratings after game 1 alone: north-south (1, 3) beat east-west (2, 4)."""
    return replay([GameResult((1, 3), (2, 4), START)]).players


async def stored(db: Database, league) -> tuple:
    """The league's ratings, rating history and standings as stored."""
    history = [
        tuple(r)
        for r in await db.fetchall(
            "SELECT * FROM league_rating_history WHERE league_id = ? ORDER BY 3, 2", (league.id,)
        )
    ]
    totals = [
        tuple(r)
        for r in await db.fetchall(
            "SELECT * FROM league_totals WHERE league_id = ? ORDER BY 3", (league.id,)
        )
    ]
    return (await league_ratings.stored_ratings(db, league.id)).players, history, totals


@pytest.mark.parametrize("leaver", ["forfeit", "no_contest"])
async def test_a_member_who_lost_game_one_and_left_in_game_two_keeps_that_loss(db, leaver):
    league = await leaver_league(db, leaver)
    match_id = await lost_game_one_then_left(db, league)
    verdict = await league_results.verdict(db, match_id)
    assert verdict is not None and verdict.correction == leaver
    assert (await league_ratings.stored_ratings(db, league.id)).players == game_one()
    (entry,) = await league_ratings.history(db, league.id, 2)
    assert not entry.won and entry.rating.mu < 25
    assert await league_results.check_league(db, league.id) == []


async def test_game_one_stays_rated_when_the_database_is_opened_again_before_he_leaves(tmp_path):
    """The bot stopped after game 1 and started again: the leaving in game 2 is judged by
    what was stored with game 1, and game 1 stays rated."""
    target = await database_for(tmp_path / "euchre.db")
    db = await Database.open(target)
    try:
        league = await leaver_league(db, "no_contest")
        match_id = await begin(db, league)
        await play(db, league, match_id, 0, (1, 2, 3, 4), winner=0)
    finally:
        await db.close()
    db = await Database.open(target)
    try:
        after = (1, COMPUTER + 1, 3, 4)
        await play(db, league, match_id, 1, after, winner=1, flagged=True)
        await end(db, match_id, after, [0, 1], left=(1,))  # abandoned in game 3
        assert (await league_results.verdict(db, match_id)).correction == "no_contest"
        assert (await league_ratings.stored_ratings(db, league.id)).players == game_one()
        assert await league_results.check_league(db, league.id) == []
    finally:
        await db.close()


async def test_a_game_a_seat_changed_hands_in_is_not_kept(db):
    """Where substitutes count, a game a substitute finished is rated as it ends; when the match
    then ends by the rule for leavers, only the game before the substitution stays rated."""
    league = await leaver_league(db, "no_contest", substitutes=True)
    match_id = await begin(db, league)
    await play(db, league, match_id, 0, (1, 2, 3, 4), winner=0)
    await play(db, league, match_id, 1, (1, 50, 3, 4), winner=1, flagged=True)
    assert (await league_ratings.stored_ratings(db, league.id)).get(50).games == 1
    await end(db, match_id, (1, 50, 3, 4), [0, 1], left=(1,))  # abandoned in game 3
    assert (await league_results.verdict(db, match_id)).correction == "no_contest"
    assert (await league_ratings.stored_ratings(db, league.id)).players == game_one()
    assert await league_results.check_league(db, league.id) == []


async def test_a_game_played_whole_after_a_seat_changed_hands_is_kept_too(db):
    """Where substitutes do not count, dan timed out in game 2 until a computer held his seat
    and came back: games 2 and 3 are not rated as they end (a computer played in the match).
    When bob then leaves in game 4, game 1 and game 3, which no seat changed hands in, are
    rated, in the order played; game 2 is not."""
    league = await leaver_league(db, "forfeit")
    match_id = await begin(db, league)
    await play(db, league, match_id, 0, (1, 2, 3, 4), winner=0, changed=False)
    await play(db, league, match_id, 1, (1, 2, 3, 4), winner=1, flagged=True, changed=True)
    await play(db, league, match_id, 2, (1, 2, 3, 4), winner=1, flagged=True, changed=False)
    assert (await league_ratings.stored_ratings(db, league.id)).get(1).games == 1
    after = (1, COMPUTER + 1, 3, 4)
    await end(db, match_id, after, [0, 1, 1], left=(1, 3))  # abandoned in game 4
    assert (await league_results.verdict(db, match_id)).correction == "forfeit"
    games = [GameResult((1, 3), (2, 4), START), GameResult((2, 4), (1, 3), START + MINUTE * 2)]
    assert (await league_ratings.stored_ratings(db, league.id)).players == replay(games).players
    assert await league_results.check_league(db, league.id) == []
    await correct(db, league, match_id, "void")
    assert (await league_ratings.stored_ratings(db, league.id)).players == {}
    await correct(db, league, match_id, "unvoid")
    assert (await league_ratings.stored_ratings(db, league.id)).players == replay(games).players


@pytest.mark.parametrize("how", ["closed", "removed"])
async def test_a_host_closing_the_table_or_removing_a_player_keeps_game_one_too(db, how):
    league = await leaver_league(db, "forfeit")
    match_id = await begin(db, league)
    await play(db, league, match_id, 0, (1, 2, 3, 4), winner=0)
    if how == "closed":
        await end(db, match_id, (1, 2, 3, 4), [0], closed_by=1)
    else:
        after = (1, COMPUTER + 1, 3, 4)
        await end(db, match_id, after, [0], removed_seats=frozenset({1}), removed_by=1)
    assert (await league_results.verdict(db, match_id)).correction == "no_contest"
    assert (await league_ratings.stored_ratings(db, league.id)).players == game_one()
    assert await league_results.check_league(db, league.id) == []


async def correct(db: Database, league, match_id: int, action: str, side=None) -> None:
    async with db.transaction():
        await league_results.correct(db, league, match_id, action, "a reason", 1, side=side)


async def test_void_award_and_unvoid_of_a_leavers_match_and_recomputes_agree(db):
    """A void, a replay or an award takes game 1 off the ratings; an un-void gives back
    exactly what there was, and a recompute from the first game gives the stored figures."""
    league = await leaver_league(db, "forfeit")
    match_id = await lost_game_one_then_left(db, league)
    await league_match(db, league, (1, 2, 3, 4), winner=1, when=START + timedelta(hours=1))
    before = await stored(db, league)
    later = replay(g.result() for g in await league_ratings.rated_games(db, league.id, 0))
    assert later.get(2).games == 3  # game 1 of the leaver's match, and the later match's two
    for action in ("void", "replay"):
        await correct(db, league, match_id, action)
        ratings = (await league_ratings.stored_ratings(db, league.id)).players
        assert {user: r.games for user, r in ratings.items()} == {1: 2, 2: 2, 3: 2, 4: 2}
        assert await league_results.check_league(db, league.id) == []
        await correct(db, league, match_id, "unvoid")
        assert await stored(db, league) == before
    await correct(db, league, match_id, "award", side=1)
    awarded = await stored(db, league)
    assert {user: r.games for user, r in awarded[0].items()} == {1: 2, 2: 2, 3: 2, 4: 2}
    await correct(db, league, match_id, "void")
    await correct(db, league, match_id, "unvoid")
    assert await stored(db, league) == awarded
    assert await league_results.check_league(db, league.id) == []
    # a full recompute from the league's first game writes the very figures stored
    first = await db.fetchval(
        "SELECT MIN(game_id) FROM league_games WHERE league_id = ?", (league.id,)
    )
    async with db.transaction():
        await league_ratings.recompute_from(db, league.id, first)
    assert await stored(db, league) == awarded
