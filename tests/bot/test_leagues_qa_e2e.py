"""Leagues, leaderboards and stats as a server's organisers and members use them, through the
real bot and the fake Discord: what QA found, each kept by a test."""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from bot.storage import nights
from bot.storage.database import Database
from bot.storage.results import SeatPlayer
from tests.bot.helpers import NAMES, act_once, eventually, private, public, running_bot, table_of
from tests.bot.test_fixtures_e2e import Clock, league_with_pairs
from tests.bot.test_nights_e2e import eventually_async, play_deal
from tests.storage.builders import quick_rubber
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

# The longest display name Discord allows, each character one markdown escape doubles.
STARS = "*" * 32


def seated(*members: tuple[int, str]) -> tuple[SeatPlayer, ...]:
    return tuple(
        SeatPlayer(seat=seat, user_id=uid, name=name, is_bot=False, substitute=False)
        for seat, (uid, name) in enumerate(members)
    )


async def stats_reply(fake: FakeDiscord, who: str, command: str, **options):
    return await (await fake.slash(fake.member(who), fake.channel, command, **options)).message()


async def test_stats_against_eight_pairs_of_long_markdown_names_is_shown(fake_discord, tmp_path):
    """/stats of a member who met eight pairs of opponents, every name 32 asterisks: the
    "Against" field holds them all escaped within Discord's 1,024 characters a field."""
    fake = fake_discord
    alice = fake.member("alice")
    db_path = tmp_path / "euchre.db"
    async with running_bot(fake, db_path) as bot:
        db: Database = bot.db
        me, partner = (alice.id, STARS), (9000, STARS)
        when = datetime.now(UTC)
        for pair in range(8):
            east, west = (9100 + 2 * pair, STARS), (9101 + 2 * pair, STARS)
            for _ in range(2):  # two rubbers of two games: four games against each pair
                await quick_rubber(
                    db, seated(me, east, partner, west), winner=0, rubber_points=(3, 0),
                    when=when, guild=fake.guild.id,
                )  # fmt: skip
        stats = await stats_reply(fake, "alice", "stats")
        assert not stats.ephemeral, stats.text
        against = next(f for f in stats.embeds[0]["fields"] if f["name"] == "Against")
        assert len(against["value"]) <= 1024
        assert "\\*" in against["value"] and "more" in against["value"]
        assert not bot.handler_errors


ORGANISER = discord.Permissions(manage_guild=True).value


async def quick_league(fake: FakeDiscord, name: str = "Quick") -> None:
    """A league of single games of one point, alice, bob, carol and dave its members."""
    fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
    created = await private(
        fake, "organiser", "league create", name=name, preset="modern", points=1, match="game"
    )
    assert "is open" in created
    for member in NAMES:
        assert "You joined" in await private(fake, member, "league join", name=name)


async def seat_league_table(bot, fake: FakeDiscord, name: str = "Quick"):
    assert "for the league" in await private(fake, "alice", "table create", league=name)
    for member in NAMES[1:]:
        assert "You sit at" in await private(fake, member, "table join")
    assert "dealt" in await private(fake, "alice", "table start")
    return await eventually(lambda: table_of(bot, fake), what="the league's table")


async def test_a_player_at_the_leagues_table_cannot_leave_the_league_to_void_his_match(
    fake_discord, tmp_path
):
    """A player losing a league match who ran /league leave at its table made the match count
    for nobody ("bob played in it but is not a member"), past the league's rule for leavers.
    He is told to leave the table first; the match counts, and once he has left the table he
    may leave the league."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        table = await seat_league_table(bot, fake)
        match_id = table.match_id
        await act_once(bot, fake)
        refused = await private(fake, "bob", "league leave", name="Quick")
        assert "leave the table first" in refused and f"<#{fake.channel.id}>" in refused
        members = await public(fake, "carol", "league members", name="Quick")
        assert "bob" in members
        while table.playing:
            await act_once(bot, fake)
        assert "counts for the league" in await private(
            fake, "bob", "league match", id=f"M{match_id}"
        )
        standings = await public(fake, "carol", "league standings", league="Quick")
        assert standings.count("1 match") == 4, standings
        assert "You left the table" in await private(fake, "bob", "table leave")
        assert "You left the league" in await private(fake, "bob", "league leave", name="Quick")
        assert not bot.handler_errors


async def test_a_league_after_one_match_counts_in_the_singular(fake_discord, tmp_path):
    """One match played in a league of single games: its winners' row reads "1 game won, +2
    points · 1 match" (not "1 rubber points · 1 rubbers, 1 games": a single game's rubber points
    and rubbers are its games won), a page past the last says how many pages there are, and
    the games export "1 game"."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        table = await seat_league_table(bot, fake)
        while table.playing:
            await act_once(bot, fake)
        standings = await public(fake, "bob", "league standings", league="Quick")
        rows = [line for line in standings.split("\n") if line.startswith("1. ")]
        assert len(rows) == 2, standings
        for row in rows:
            assert ": 1 game won, +" in row and " · 1 match · " in row, row
        losers = [line for line in standings.split("\n") if line.startswith("3. ")]
        assert all(": 0 games won, -" in r and " · 1 match · " in r for r in losers), losers
        assert "rubber" not in standings, standings
        for command, options in (
            ("league standings", {"league": "Quick"}),
            ("league ratings", {"league": "Quick"}),
            ("league members", {"name": "Quick"}),
            ("league audit", {"league": "Quick"}),
        ):
            refused = await private(fake, "bob", command, **options, page=3)
            assert refused.endswith("fill 1 page") or refused.endswith("fills 1 page"), refused
        exported = await (
            await fake.slash(
                fake.member("bob"), fake.channel, "league export", league="Quick", what="games"
            )
        ).message()
        assert exported.text.startswith("1 game as EGN 1.4"), exported.text
        assert not bot.handler_errors


async def test_a_euchre_night_of_six_seats_out_two_new_players_in_its_second_round(
    fake_discord, tmp_path
):
    """A night of six sits two players out a round. One of them sat out rounds 1 and 2 while
    three others played both: now nobody sits out again before everyone has sat out once."""
    fake = fake_discord
    fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
    players = [*NAMES, "erin", "frank"]
    for name in players[4:]:
        fake.add_member(fake.guild, name)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await private(fake, "organiser", "league create", name="Thursday", preset="modern")
        for name in players:
            await private(fake, name, "league join", name="Thursday")
        await private(
            fake, "organiser", "night open", league="Thursday", rounds=2, deals_per_round=1
        )
        for name in players:
            assert "registered" in await private(fake, name, "night join")
        assert "6 players" in await private(fake, "organiser", "night start")
        night = await nights.open_night(bot.db, fake.channel.id)
        everyone = {fake.member(name).id for name in players}
        sat_out = []
        for number in (1, 2):

            async def seated(number=number):
                rows = await nights.tables_of(bot.db, night.id, number)
                tables = [bot.manager.tables.get(r.thread_id) for r in rows]
                return rows if rows and all(t and t.playing for t in tables) else None

            rows = await eventually_async(seated, f"round {number} seated")
            sat_out.append(everyone - {uid for row in rows for uid in row.seats})
            if number == 1:
                for row in rows:
                    await play_deal(bot, fake, bot.manager.tables[row.thread_id])
        assert [len(out) for out in sat_out] == [2, 2]
        assert not sat_out[0] & sat_out[1], sat_out
        assert not bot.handler_errors


async def test_a_pair_that_withdraws_has_its_fixture_forfeited_at_once(fake_discord, tmp_path):
    """alice & bob withdraw before their fixture is played: it is forfeited to carol & dave at
    once (the result posted, the list saying so), not at the scheduler's next look minutes
    later."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await league_with_pairs(fake)
        assert "withdrew" in await private(
            fake, "alice", "fixtures withdraw", league="Friday Night"
        )
        posted = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "by forfeit" in m.text), None
            ),
            what="the withdrawn pair's fixture forfeited",
        )
        assert "F1" in posted.text and "carol & dave" in posted.text
        listed = await public(fake, "bob", "fixtures list", league="Friday Night")
        assert "won by carol & dave by forfeit" in listed
        assert not bot.handler_errors


async def test_a_member_without_manage_server_is_refused_every_organiser_command_privately(
    fake_discord, tmp_path
):
    """Every command that changes a league asks for Manage Server: bob, without it, is answered
    privately, and the league is as it was (no season, its settings, no correction, no role,
    no fixture, no night)."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        table = await seat_league_table(bot, fake)
        match_id = table.match_id
        while table.playing:
            await act_once(bot, fake)
        role = fake.add_role(fake.guild, "Champion")
        settings_before = await private(fake, "bob", "league settings", league="Quick")
        match = f"M{match_id}"
        for command, options in (
            ("league create", {"name": "Mine", "preset": "modern"}),
            ("league season start", {"league": "Quick"}),
            ("league season end", {"league": "Quick"}),
            ("league settings", {"league": "Quick", "min_games": 1}),
            ("league settings", {"league": "Quick", "leaver": "forfeit"}),
            ("league void", {"league": "Quick", "match": match, "reason": "x"}),
            ("league replay", {"league": "Quick", "match": match, "reason": "x"}),
            ("league unvoid", {"league": "Quick", "match": match, "reason": "x"}),
            ("league award", {"league": "Quick", "match": match, "side": "east-west", "reason": "x"}),
            ("league roles add", {"league": "Quick", "role": role.id, "top": 1}),
            ("league roles remove", {"league": "Quick", "role": role.id}),
            ("fixtures make", {"league": "Quick", "kind": "round_robin", "window_days": 2, "deadline": "forfeit"}),
            ("night open", {"league": "Quick"}),
        ):  # fmt: skip
            text = await private(fake, "bob", command, **options)
            assert "manage this server" in text.lower(), (command, text)
        assert await bot.db.fetchval("SELECT COUNT(*) FROM leagues") == 1
        assert "none running" in await public(fake, "bob", "league info", name="Quick")
        assert await private(fake, "bob", "league settings", league="Quick") == settings_before
        assert "counts for the league" in await private(fake, "bob", "league match", id=match)
        assert "No correction yet" in await public(fake, "bob", "league audit", league="Quick")
        assert "gives no roles" in await private(fake, "bob", "league roles list", league="Quick")
        assert not bot.handler_errors
