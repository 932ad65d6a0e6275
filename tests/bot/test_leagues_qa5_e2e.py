"""Leagues as organisers run them, through the real bot and the fake Discord: members renamed
since they joined, names typed like formulas or in emoji in the exports as a spreadsheet
reads them, and rank roles through a member's return to the server, a role moved above the
bot's and the role that caused it dropped; each defect found kept by a test."""

from __future__ import annotations

import csv
import io

import discord
import pytest

from tests.bot.helpers import NAMES, act_once, eventually, private, running_bot, table_of
from tests.bot.test_league_roles_e2e import play_league_game, settled, warnings, world
from tests.bot.test_league_roles_e2e import quick_league as roles_league
from tests.support.fake_discord import FakeDiscord, FakeMember

pytest_plugins = ["tests.support.fixtures"]

ORGANISER = discord.Permissions(manage_guild=True).value


async def say(fake: FakeDiscord, member: FakeMember, command: str, /, **options):
    """The bot's answer to a member's slash command (found by object: names change here)."""
    return await (await fake.slash(member, fake.channel, command, **options)).message()


async def play_a_game(bot, fake: FakeDiscord, members: list[FakeMember], league: str) -> int:
    """The four members sit at a table of the league, north first, and play it out; its match."""
    assert "for the league" in (await say(fake, members[0], "table create", league=league)).text
    for member in members[1:]:
        assert "You sit at" in (await say(fake, member, "table join")).text
    assert "dealt" in (await say(fake, members[0], "table start")).text
    table = await eventually(lambda: table_of(bot, fake), what="the league's table")
    while table.playing:
        await act_once(bot, fake)
    return table.match_id


def rows_of(message) -> list[dict[str, str]]:
    """An exported CSV as a spreadsheet reads it: UTF-8 (a byte-order mark is dropped)."""
    return list(csv.DictReader(io.StringIO(message.attachments[0].data.decode("utf-8-sig"))))


async def test_a_member_renamed_since_he_joined_is_shown_by_the_name_he_plays_under(
    fake_discord, tmp_path
):
    """dave joined the league as "dave", renamed himself "Dave Smith" and played: the
    standings, the ratings and both exports still called him "dave" (the name he joined with
    won over the name he played under), while /leaderboard called him Dave Smith. They now
    show the name he last played under, and so does /league members once he has played."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        organiser = fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
        assert "is open" in (
            await say(fake, organiser, "league create", name="Quick", preset="modern", points=1,
                      match="game")
        ).text  # fmt: skip
        members = [fake.member(n) for n in NAMES]
        for member in members:
            assert "You joined" in (await say(fake, member, "league join", name="Quick")).text
        members[3].name = "Dave Smith"
        await play_a_game(bot, fake, members, "Quick")
        await (await fake.slash(organiser, fake.channel, "league settings", league="Quick",
                                min_games=1)).message()  # fmt: skip
        for command in ("league standings", "league ratings"):
            shown = (await say(fake, members[0], command, league="Quick")).text
            assert "Dave Smith" in shown and "dave:" not in shown, shown
        for what in ("standings", "ratings"):
            exported = await say(fake, members[0], "league export", league="Quick", what=what)
            names = {row["player"] for row in rows_of(exported)}
            assert names == {"alice", "bob", "carol", "Dave Smith"}, names
        listed = (await say(fake, members[0], "league members", name="Quick")).text
        assert "4. Dave Smith" in listed, listed
        assert not bot.handler_errors


async def test_exports_read_in_a_spreadsheet_keep_names_as_typed_and_formulas_as_text(
    fake_discord, tmp_path
):
    """Members named like formulas (`=HYPERLINK("x")`, `-2+3`, `@me`), with a comma and
    quotes, or in accents and emoji play a game. Every export reads back as the names typed,
    each formula one cell of text behind an apostrophe, quotes and commas kept inside the
    cell. The files carried no byte-order mark, so Excel opened them in the computer's code
    page and showed `Zoë 🃏` as `ZoÃ« ðŸƒ`; they now start with one, which spreadsheets drop.
    An empty league's exports are a header alone."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        organiser = fake.add_member(fake.guild, "organiser", permissions=ORGANISER)
        assert "is open" in (
            await say(fake, organiser, "league create", name="Quick", preset="modern", points=1,
                      match="game", format="fixtures")
        ).text  # fmt: skip
        for what in ("standings", "ratings", "fixtures"):
            exported = await say(fake, organiser, "league export", league="Quick", what=what)
            data = exported.attachments[0].data
            assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\n") == 1, data
        members = [fake.member(n) for n in NAMES]
        typed = ['=HYPERLINK("x")', 'Zoë 🃏, "the" best', "-2+3", "@me"]
        for member, name in zip(members, typed, strict=True):
            member.name = name
            assert "You joined" in (await say(fake, member, "league join", name="Quick")).text
        assert (
            "registered"
            in (
                await say(fake, members[0], "fixtures register", league="Quick", partner=members[2])
            ).text
        )
        assert (
            "registered"
            in (
                await say(fake, members[1], "fixtures register", league="Quick", partner=members[3])
            ).text
        )
        await play_a_game(bot, fake, members, "Quick")
        shown = {'\'=HYPERLINK("x")', 'Zoë 🃏, "the" best', "'-2+3", "'@me"}
        for what in ("standings", "ratings"):
            exported = await say(fake, organiser, "league export", league="Quick", what=what)
            assert exported.attachments[0].data.startswith(b"\xef\xbb\xbf")
            assert {row["player"] for row in rows_of(exported)} == shown
            assert exported.attachments[0].filename.endswith(f"-{what}.csv")
        # A season's file is named by its season, so that several seasons' files differ.
        assert (
            "has started"
            in (
                await say(fake, organiser, "league season start", league="Quick", name="Winter")
            ).text
        )
        for what in ("standings", "ratings"):
            exported = await say(
                fake, organiser, "league export", league="Quick", what=what, season="winter"
            )
            assert exported.attachments[0].filename.endswith(f"-season-1-{what}.csv")
        assert "F1" in (
            await say(fake, organiser, "fixtures make", league="Quick", kind="round_robin",
                      window_days=1, deadline="forfeit")
        ).text  # fmt: skip
        exported = await say(fake, organiser, "league export", league="Quick", what="fixtures")
        assert exported.attachments[0].data.startswith(b"\xef\xbb\xbf")
        [fixture] = rows_of(exported)
        assert fixture["first_pair"] == '\'=HYPERLINK("x") & -2+3', fixture
        assert fixture["second_pair"] == 'Zoë 🃏, "the" best & @me', fixture
        assert not bot.handler_errors


async def test_a_leader_back_in_the_server_gets_the_leagues_role_when_he_plays_again(
    fake_discord, tmp_path
):
    """A member of the league left the server, so Discord refused him its role (top 4: all
    four players) and the bot passed him over. He came back and played again, yet the role
    went on passing him over until the bot restarted: it remembered him as gone. Playing at
    the league's table shows he is back: the next sync gives him the role."""
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await roles_league(fake)
        _, winners, losers, _ = await play_league_game(bot, fake)
        gone = min(winners)
        name = fake.guild.members[gone].name
        del fake.guild.members[gone]  # he left the server (the bot hears nothing of it)
        assert "top 4" in await private(
            fake, "organiser", "league roles add", league="Quick", role=champions, top=4
        )
        others = (winners | losers) - {gone}
        await fake.wait_for(lambda: champions.members == others, what="the role of those here")
        await settled(bot)
        fake.add_member(fake.guild, name, id=gone)  # back, and a member of the league still
        assert "dealt" in await private(fake, "alice", "table start")  # the same four again
        table = await eventually(lambda: table_of(bot, fake), what="the league's table")
        await eventually(lambda: table.playing, what="the second match")
        while table.playing:
            await act_once(bot, fake)
        await fake.wait_for(
            lambda: champions.members == winners | losers, what="the role of all four again"
        )
        assert not bot.handler_errors


async def test_the_list_of_a_leagues_roles_says_when_the_bot_cannot_keep_them(
    fake_discord, tmp_path
):
    """The league's role was moved above the bot's: after the next result the organiser who
    added it was told once, in the channel, and every later result said nothing, as meant.
    But /league roles list went on listing the role as if all were well, to him and to any
    other organiser wondering why the leaders have no role. It says now that the roles are
    not kept up to date and why, until a sync succeeds again."""
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await roles_league(fake)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=1)
        await settled(bot)
        fake.move_role(fake.guild, champions.id, 60)  # above the bot's role, at 50
        await eventually(
            lambda: bot.guilds[0].get_role(champions.id).position == 60, what="the role moved"
        )
        _, winners, _, _ = await play_league_game(bot, fake)
        await fake.wait_for(lambda: warnings(fake), what="the organiser's warning")
        listed = await private(fake, "bob", "league roles list", league="Quick")
        assert "not kept up to date at the moment" in listed, listed
        assert "is not below the bot's highest role" in listed, listed
        fake.move_role(fake.guild, champions.id, 10)
        await fake.wait_for(lambda: champions.members == winners, what="the roles synced again")
        await settled(bot)
        listed = await private(fake, "bob", "league roles list", league="Quick")
        assert "not kept up to date" not in listed and "the top 1" in listed, listed
        assert len(warnings(fake)) == 1 and not bot.handler_errors


@pytest.mark.parametrize("how", ["deleted", "removed"])
async def test_dropping_the_role_that_kept_a_leagues_roles_from_syncing_syncs_the_others(
    fake_discord, tmp_path, how
):
    """Of the league's two roles, one was moved above the bot's, so neither was synced and the
    organiser was warned. He deleted that role on Discord (or took it from the league with
    /league roles remove): the other role waited for the league's next result, and /league
    roles list still gave the old reason. Now the league syncs at once: the other role goes
    to the leaders."""
    fake = fake_discord
    champions, _ = world(fake)
    leaders = fake.add_role(fake.guild, "Leaders", position=11)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await roles_league(fake)
        for role in (champions, leaders):
            await private(fake, "organiser", "league roles add", league="Quick", role=role, top=1)
        await settled(bot)
        fake.move_role(fake.guild, leaders.id, 60)  # above the bot's role, at 50
        await eventually(
            lambda: bot.guilds[0].get_role(leaders.id).position == 60, what="the role moved"
        )
        _, winners, _, _ = await play_league_game(bot, fake)
        await fake.wait_for(lambda: warnings(fake), what="the organiser's warning")
        assert champions.members == set()
        if how == "deleted":
            fake.delete_role(fake.guild, leaders)
        else:
            assert "no longer gives" in await private(
                fake, "organiser", "league roles remove", league="Quick", role=leaders
            )
        await fake.wait_for(lambda: champions.members == winners, what="the other role synced")
        await settled(bot)
        listed = await private(fake, "bob", "league roles list", league="Quick")
        assert "not kept up to date" not in listed and str(leaders.id) not in listed, listed
        assert not bot.handler_errors
