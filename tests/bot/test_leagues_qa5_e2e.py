"""Leagues as organisers run them, through the real bot and the fake Discord (QA's fifth
round): names members renamed or typed like formulas in the standings and the exports, and
what each found, kept by a test."""

from __future__ import annotations

import csv
import io

import discord

from tests.bot.helpers import NAMES, act_once, eventually, running_bot, table_of
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
    show the name he last played under."""
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
        assert not bot.handler_errors
