"""Leagues, fixtures, euchre nights and leaderboards as organisers, players and onlookers use
them, through the real bot and the fake Discord (QA's fourth round): what it found, each kept
by a test."""

from __future__ import annotations

import asyncio

import discord

from bot.storage import fixtures as fixture_store
from bot.storage import league_results, nights
from tests.bot.helpers import (
    act_once,
    eventually,
    private,
    public,
    running_bot,
    seat_four,
    start,
    table_of,
)
from tests.bot.test_fixtures_e2e import Clock, errors_of, league_with_pairs, posted
from tests.bot.test_leagues_qa_e2e import quick_league
from tests.bot.test_nights_e2e import night_of, play_deal, seated
from tests.support.fake_discord import WAIT, FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

ORGANISER = discord.Permissions(manage_guild=True).value


async def cup_of_three_pairs(fake: FakeDiscord, kind: str) -> list[str]:
    """The Cup (single games of one point, fixtures) with three pairs registered in seed order,
    ann & ben, cat & dan, eve & fay, and its fixtures of `kind` made, a day to play each."""
    fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
    assert "is open" in await private(
        fake, "organiser", "league create", name="Cup", preset="modern", points=1, match="game",
        format="fixtures",
    )  # fmt: skip
    names = ["ann", "ben", "cat", "dan", "eve", "fay"]
    for name in names:
        fake.add_member(fake.guild, name)
        assert "You joined" in await private(fake, name, "league join", name="Cup")
    for first, second in zip(names[::2], names[1::2], strict=True):
        assert "are registered" in await private(
            fake, first, "fixtures register", league="Cup", partner=fake.member(second)
        )
    made = await public(
        fake, "organiser", "fixtures make", league="Cup", kind=kind, window_days=1,
        deadline="forfeit",
    )  # fmt: skip
    assert "F1" in made, made
    return names


async def test_a_bracket_match_made_for_withdrawn_pairs_is_forfeited_at_once(
    fake_discord, tmp_path
):
    """A double elimination of three pairs: cat & dan withdraw, then eve & fay. The losers'
    bracket match that brought the two withdrawn pairs together was posted "to play by" a day
    later and stayed open that long (the scheduler looked at it only at its next reminder),
    so ann & ben, the one pair left, waited a day for their title. A fixture made with a
    withdrawn pair in it is now forfeited as soon as it is made: the event ends at once."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await cup_of_three_pairs(fake, "double_elimination")
        assert "withdrew" in await private(fake, "cat", "fixtures withdraw", league="Cup")
        await fake.wait_for(lambda: posted(fake, "**F2** ·"), what="the winners' final made")
        assert "withdrew" in await private(fake, "eve", "fixtures withdraw", league="Cup")
        await fake.wait_for(
            lambda: posted(fake, "Won by **ann & ben**"), what="the event won by ann & ben"
        )
        listed = await public(fake, "ben", "fixtures list", league="Cup")
        assert "to play by" not in listed and "finished" in listed, listed
        assert not errors_of(bot)


async def test_a_double_eliminations_fixtures_are_listed_in_the_order_they_are_played(
    fake_discord, tmp_path
):
    """The same bracket, played out by withdrawals: /fixtures list (and the export) showed the
    grand final second, between round 1 and round 2, as the grand final is stored as a round
    1 of its own. Fixtures are now listed in the order they were made, which is the order
    they can be played: the grand final last."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await cup_of_three_pairs(fake, "double_elimination")
        assert "withdrew" in await private(fake, "cat", "fixtures withdraw", league="Cup")
        await fake.wait_for(lambda: posted(fake, "**F2** ·"), what="the winners' final made")
        assert "withdrew" in await private(fake, "eve", "fixtures withdraw", league="Cup")
        await fake.wait_for(lambda: posted(fake, "Won by **ann & ben**"), what="the title")
        listed = await public(fake, "ben", "fixtures list", league="Cup")
        rows = [line.split(" · ")[:2] for line in listed.split("\n") if line.startswith("**F")]
        assert [f for f, _ in rows] == ["**F1**", "**F2**", "**F3**", "**F4**"], listed
        assert rows[-1][1] == "the grand final", listed
        exported = await (
            await fake.slash(fake.member("ben"), fake.channel, "league export", league="Cup",
                             what="fixtures")
        ).message()  # fmt: skip
        lines = exported.attachments[0].data.decode().splitlines()[1:]
        assert [line.split(",")[0] for line in lines] == ["F1", "F2", "F3", "F4"], lines
        assert not errors_of(bot)


async def test_an_export_of_every_fixture_or_game_refuses_a_season_rather_than_ignore_it(
    fake_discord, tmp_path
):
    """/league export what:games season:1 (or what:fixtures) sent every game (fixture) the
    league ever made as if it were the season's: the season was quietly ignored. It is now
    refused privately, saying why, and the same export without it is sent as before."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        assert "has started" in await private(fake, "organiser", "league season start",
                                              league="Quick")  # fmt: skip
        for what in ("games", "fixtures"):
            refused = await private(fake, "bob", "league export", league="Quick", what=what,
                                    season="1")  # fmt: skip
            assert "leave the season out" in refused and what in refused, refused
        sent = await (
            await fake.slash(fake.member("bob"), fake.channel, "league export", league="Quick",
                             what="games")
        ).message()  # fmt: skip
        assert sent.text.startswith("0 games as EGN"), sent.text
        standings = await (
            await fake.slash(fake.member("bob"), fake.channel, "league export", league="Quick",
                             what="standings", season="1")
        ).message()  # fmt: skip
        assert standings.attachments, standings.text
        assert not errors_of(bot)


async def test_the_default_board_of_a_server_of_single_games_points_to_games_won(
    fake_discord, tmp_path
):
    """Four members play a single game; /leaderboard (rubbers won by default) said "Nobody
    has played enough yet", of members who had just played. A single game counts no rubber:
    the empty board now says whom it lists and points to Games won, where they are."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, points=1, match="game")
        await start(fake)
        table = table_of(bot, fake)
        while table.playing:
            await act_once(bot, fake)
        board = await public(fake, "bob", "leaderboard")
        assert "played enough" not in board, board
        assert "at least one" in board and "`metric: Games won`" in board, board
        rate = await public(fake, "bob", "leaderboard", metric="game_win_rate")
        assert "at least 5 games" in rate, rate
        games = await public(fake, "bob", "leaderboard", metric="games_won")
        assert "**1.**" in games, games
        assert not errors_of(bot)


async def test_my_place_on_a_closed_night_does_not_invite_a_non_player_to_join(
    fake_discord, tmp_path
):
    """After a night closed, a member who had not played pressed My place on its message and
    was told to "/night join or the Join button": the message has no Join button any more,
    and /night join answers that the night is over. He is now told he did not play in it."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        night = await night_of(fake, bot, ["ann", "ben", "cat", "dan"], deals_per_round=1)
        assert "starts with 4 players" in await private(fake, "organiser", "night start")
        await seated(bot, night.id, 1, 1)
        assert "closed" in await private(fake, "organiser", "night close")
        await fake.wait_for(lambda: posted(fake, "euchre night is over"), what="the close")
        closed = await nights.night_by_id(bot.db, night.id)
        message = fake.messages_by_id[closed.message_id]
        assert [b["label"] for b in message.buttons] == ["My place"]
        asked = await (await fake.click(fake.member("mod"), message, label="My place")).message()
        assert (
            asked.ephemeral and asked.text == "You did not play in this euchre night: it is over."
        )
        mine = await (await fake.click(fake.member("ann"), message, label="My place")).message()
        assert mine.ephemeral and " of 4: " in mine.text, mine.text
        assert not errors_of(bot)


async def test_a_round_whose_seating_a_restart_cut_short_is_announced_once_seated(
    fake_discord, tmp_path
):
    """The bot stopped while it opened round 2's second table. After the restart it seated
    that table, but the channel was never told that round 2 was seated (nor where its tables
    were, nor who sat out): the message is sent once the last table is seated, and that was
    after the stop. It is now sent when the restart finishes the seating."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    members = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]
    async with running_bot(fake, db) as bot:
        night = await night_of(fake, bot, members, rounds=2, deals_per_round=1)
        for name in members[4:]:
            assert "registered" in await private(fake, name, "night join")
        assert "9 players" in await private(fake, "organiser", "night start")
        first_round = await seated(bot, night.id, 1, 2)
        cog = bot.get_cog("Nights")
        real, cut = cog.open_thread, asyncio.Event()

        async def stops_at_round_2_table_2(night, number, position):
            if (number, position) == (2, 2):
                cut.set()
                await asyncio.Event().wait()  # the bot stops meanwhile
            return await real(night, number, position)

        cog.open_thread = stops_at_round_2_table_2
        for table in first_round:
            await play_deal(bot, fake, table)
        await asyncio.wait_for(cut.wait(), WAIT)
    async with running_bot(fake, db) as bot:
        told = await fake.wait_for(lambda: posted(fake, "**Round 2 of 2** is seated"), what="it")
        second_round = await seated(bot, night.id, 2, 2)
        assert len(told) == 1, told
        assert all(f"<#{t.channel_id}>" in told[0].text for t in second_round), told[0].text
        assert "Sitting out: " in told[0].text, told[0].text
        assert not errors_of(bot)


async def test_a_player_whose_pair_is_seated_by_its_alternate_is_told_who_plays(
    fake_discord, tmp_path
):
    """erin is alice & bob's alternate, and she and alice sat down for F1. bob, running
    /fixtures play after them, was told "North is taken by “erin”" (and a fourth player of a
    full pair "join without a seat to wait in line"): words of the table, naming a seat or a
    waiting line that mean nothing for a fixture. He is now told that his pair's two seats are
    taken and by whom; the table is as it was, and the match starts with carol and dave."""
    fake = fake_discord
    fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
    fake.add_member(fake.guild, "erin")
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        assert "is open" in await private(
            fake, "organiser", "league create", name="Cup", preset="modern", points=1,
            match="game", format="fixtures",
        )  # fmt: skip
        for name in ("alice", "bob", "carol", "dave", "erin"):
            assert "You joined" in await private(fake, name, "league join", name="Cup")
        assert "with erin as alternate" in await private(
            fake, "alice", "fixtures register", league="Cup", partner=fake.member("bob"),
            alternate=fake.member("erin"),
        )  # fmt: skip
        assert "are registered" in await private(
            fake, "carol", "fixtures register", league="Cup", partner=fake.member("dave")
        )
        assert "F1" in await public(
            fake, "organiser", "fixtures make", league="Cup", kind="round_robin", window_days=1,
            deadline="forfeit",
        )  # fmt: skip
        for name in ("erin", "alice"):
            assert "You sit down for F1" in await private(fake, name, "fixtures play", fixture="F1")
        table = table_of(bot, fake)
        before = [o.name if o else None for o in table.seats]
        refused = await private(fake, "bob", "fixtures play", fixture="F1")
        assert refused == (
            "The two seats of “alice & bob” at F1 are taken: “erin” and “alice” play it"
        ), refused
        assert [o.name if o else None for o in table.seats] == before
        for name in ("carol", "dave"):
            assert "You sit down for F1" in await private(fake, name, "fixtures play", fixture="F1")
        assert table.playing
        assert not errors_of(bot)


async def test_a_night_that_every_player_left_closes_instead_of_seating_empty_rounds(
    fake_discord, tmp_path
):
    """All four players of a night (late:computer) left during round 1. The night went on
    seating its rounds for nobody, telling the channel "**Round 2 of 3** is seated (1 deal a
    round): ." and then round 3 the same, before it closed as if its last round were over.
    It now closes as soon as round 1 is done, saying every player has left."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        members = ["ann", "ben", "cat", "dan"]
        night = await night_of(fake, bot, members, rounds=3, deals_per_round=1)
        assert "starts with 4 players" in await private(fake, "organiser", "night start")
        await seated(bot, night.id, 1, 1)
        for name in members:
            assert "You left the euchre night" in await private(fake, name, "night leave")
        over = await fake.wait_for(lambda: posted(fake, "euchre night is over"), what="the end")
        assert "(every player has left)" in over[0].text, over[0].text
        assert not posted(fake, "**Round 2 of 3**"), fake.describe()
        assert not errors_of(bot)


async def test_a_fixture_won_by_a_leavers_forfeit_is_announced_as_that_not_a_missed_window(
    fake_discord, tmp_path
):
    """In a league whose rule makes a leaver's match a forfeit, bob left F1's table mid-match
    and a computer finished his seat: the match counts as north-south's forfeit, and F1 is
    carol & dave's. The channel was told F1's "window ended before it was played", with two
    days of its window left and the match played. It now names the match and the rule."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await league_with_pairs(fake)
        assert "a forfeit by that side" in await private(
            fake, "organiser", "league settings", league="Friday Night", leaver="forfeit"
        )
        for name in ("alice", "carol", "bob", "dave"):
            assert "You sit down for F1" in await private(fake, name, "fixtures play", fixture="F1")
        table = table_of(bot, fake)
        await act_once(bot, fake)
        assert "You left the table" in await private(fake, "bob", "table leave")
        while table.playing:
            if table.seats[table.match.to_act].is_bot:
                moves = len(table.actions)
                await eventually(lambda m=moves: len(table.actions) > m or not table.playing)
            else:
                await act_once(bot, fake)
        (result,) = await fake.wait_for(lambda: posted(fake, "**F1**, "), what="F1 decided")
        assert "window" not in result.text, result.text
        assert (
            f"its match M{table.match_id} counts as a forfeit by the league's rule for leavers"
            in result.text
        ), result.text
        assert "won by carol & dave by forfeit" in result.text, result.text
        assert not errors_of(bot)


async def test_an_award_or_unvoid_of_a_voided_fixtures_match_decides_the_fixture_again(
    fake_discord, tmp_path
):
    """A round robin of three pairs: F1 is played, then its match voided, so F1 is open
    again. Un-voiding the match, or awarding it to a side, failed with "something went wrong
    on our side": the fixture, opened again, had forgotten which pair sat north and south,
    which the correction decides it by. Both now decide F1 by the match's own seats. While F1
    is played again at a new table, a correction of the old match is refused as being played
    again (not "played again since"); once that table closed with no match over, it is not."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await cup_of_three_pairs(fake, "round_robin")
        first, second = await bot.db.fetchone(
            "SELECT first_pair, second_pair FROM fixtures WHERE id = 1"
        )
        pairs = await fixture_store.pairs_by_id(bot.db, [first, second])
        north, south = (fake.guild.members[uid].name for uid in pairs[first].players)
        east, west = (fake.guild.members[uid].name for uid in pairs[second].players)
        for name in (north, east, south, west):
            assert "You sit down for F1" in await private(fake, name, "fixtures play", fixture="F1")
        table = table_of(bot, fake)
        while table.playing:
            await act_once(bot, fake)
        await fake.wait_for(lambda: posted(fake, "**F1**, "), what="F1 decided")
        match = f"M{table.match_id}"
        asked = await (await fake.slash(fake.member(north), fake.channel, "table close")).message()
        await (await fake.click(fake.member(north), asked, label="Close the table")).response()
        correct = {"league": "Cup", "match": match, "reason": "misdeal"}
        assert "F1 is to be played again" in await private(
            fake, "organiser", "league void", **correct
        )
        unvoided = await private(fake, "organiser", "league unvoid", **correct)
        assert "un-voided" in unvoided and "F1 follows: won" in unvoided, unvoided
        assert "F1 is to be played again" in await private(
            fake, "organiser", "league void", **correct
        )
        # While F1 is played again at a new table, its old match is not "played again since".
        assert "You sit down for F1" in await private(fake, north, "fixtures play", fixture="F1")
        refused = await private(fake, "organiser", "league unvoid", **correct)
        assert "is being played again at a new table" in refused, refused
        asked = await (await fake.slash(fake.member(north), fake.channel, "table close")).message()
        await (await fake.click(fake.member(north), asked, label="Close the table")).response()
        await eventually(lambda: table_of(bot, fake) is None, what="the new table closed")
        awarded = await private(fake, "organiser", "league award", side="east-west", **correct)
        assert "F1 follows: awarded" in awarded, awarded
        listed = await public(fake, "ann", "fixtures list", league="Cup")
        assert f"won by {pairs[second].name} by forfeit" in listed, listed
        assert await league_results.check_league(bot.db, table.league_id) == []
        assert not errors_of(bot)


async def test_a_night_player_leaving_his_table_is_told_he_still_plays_the_night(
    fake_discord, tmp_path
):
    """/table leave at a euchre night's table leaves the table, not the night: the player is
    seated again next round. He was told only "You left the table."; now he is told that,
    where the night is, and that /night leave there leaves the night."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        night = await night_of(fake, bot, ["ann", "ben", "cat", "dan"], rounds=2, deals_per_round=3)
        assert "starts with 4 players" in await private(fake, "organiser", "night start")
        (table,) = await seated(bot, night.id, 1, 1)
        player = fake.guild.members[table.seats[1].user_id]
        thread = fake.find_channel(table.channel_id)
        left = await (await fake.slash(player, thread, "table leave")).message()
        assert left.ephemeral
        assert left.text.startswith("You left the table. You are still registered")
        assert f"<#{night.channel_id}>" in left.text and "/night leave there" in left.text
        players = await nights.players(bot.db, night.id)
        assert all(p.left_round is None for p in players)
        assert not errors_of(bot)
