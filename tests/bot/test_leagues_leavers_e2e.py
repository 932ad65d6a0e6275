"""A league rubber's leaver through the real bot and the fake Discord: the member who lost game 1
leaves in game 2, after a restart of the bot, and game 1 stays on his rating."""

from __future__ import annotations

import asyncio

import discord

from bot.leagues.ratings import GameResult, replay
from bot.storage import league_ratings, league_results
from bot.storage.seasons import parse_timestamp
from tests.bot.helpers import (
    NAMES,
    act_once,
    eventually,
    member_at,
    private,
    public,
    running_bot,
    table_of,
)
from tests.support.fake_discord import WAIT, FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

ORGANISER = discord.Permissions(manage_guild=True).value


async def rubber_league(fake: FakeDiscord) -> None:
    """The Rubbers league (rubbers of one-point games), alice, bob, carol and dave its
    members."""
    fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
    assert "is open" in await private(
        fake, "organiser", "league create", name="Rubbers", preset="modern", points=1,
        match="rubber",
    )  # fmt: skip
    for member in NAMES:
        assert "You joined" in await private(fake, member, "league join", name="Rubbers")


async def verdict_of(bot, match_id: int) -> league_results.Verdict:
    """The match's league verdict, once the write that ends the match is committed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while (found := await league_results.verdict(bot.db, match_id)) is None:
        assert loop.time() < deadline, "the match's verdict was never stored"
        await asyncio.sleep(0.01)
    return found


async def test_a_member_who_lost_game_one_and_left_in_game_two_after_a_restart_keeps_it(
    fake_discord, tmp_path
):
    """Game 1 of a league rubber is played out; the bot restarts; one of its losers leaves in
    game 2 and a computer finishes his seat, so the match is no contest by the league's rule
    for leavers. That used to take game 1 off all four ratings, his loss with it: leaving a
    rubber going badly wiped the game already lost. Game 1 now stays rated, as played."""
    fake = fake_discord
    db_path = tmp_path / "euchre.db"
    async with running_bot(fake, db_path) as bot:
        await rubber_league(fake)
        assert "for the league" in await private(fake, "alice", "table create", league="Rubbers")
        for name in NAMES[1:]:
            assert "You sit at" in await private(fake, name, "table join")
        assert "dealt" in await private(fake, "alice", "table start")
        table = await eventually(lambda: table_of(bot, fake), what="the league's table")
        while not table.match.games:
            await act_once(bot, fake)
        won = table.match.games[0].winner
        ids = [member_at(bot, fake, seat).id for seat in range(4)]
        leaver = member_at(bot, fake, 1 - won)
        match_id = table.match_id
    async with running_bot(fake, db_path) as bot:
        table = await eventually(lambda: table_of(bot, fake), what="the table, back")
        assert "You left the table" in await private(fake, leaver.name, "table leave")
        while table.playing:
            if table.seats[table.match.to_act].is_bot:
                moves = len(table.actions)
                await eventually(lambda m=moves: len(table.actions) > m or not table.playing)
            else:
                await act_once(bot, fake)
        verdict = await verdict_of(bot, match_id)
        assert verdict.correction == "no_contest", verdict
        league_id = table.league_id
        (game,) = await bot.db.fetchall(
            "SELECT played_at FROM league_games WHERE match_id = ?", (match_id,)
        )
        game_one = GameResult(
            (ids[won], ids[won + 2]),
            (ids[1 - won], ids[3 - won]),
            parse_timestamp(game["played_at"]),
        )
        ratings = await league_ratings.stored_ratings(bot.db, league_id)
        assert ratings.players == replay([game_one]).players
        assert ratings.get(leaver.id).games == 1 and ratings.get(leaver.id).mu < 25
        assert await league_results.check_league(bot.db, league_id) == []
        shown = await public(fake, "carol", "league rating", league="Rubbers", member=leaver)
        assert "after 1 rated game." in shown, shown
        assert not bot.handler_errors, bot.handler_errors
