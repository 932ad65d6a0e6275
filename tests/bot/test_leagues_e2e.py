"""A league through the real bot and the fake Discord: an organiser creates it, members join,
and a table plays for it, seating only its members."""

from __future__ import annotations

import discord

from tests.bot.helpers import eventually, running_bot, table_of
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


async def slash(fake: FakeDiscord, who: str, command: str, /, **options) -> str:
    """A command's private answer."""
    message = await (await fake.slash(fake.member(who), fake.channel, command, **options)).message()
    assert message.ephemeral, message.text
    return message.text


async def test_create_join_and_a_table_that_plays_for_the_league(fake_discord, tmp_path):
    fake = fake_discord
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        refused = await slash(fake, "alice", "league create", name="Friday Night", preset="modern")
        assert "manage this server" in refused
        created = await slash(
            fake, "organiser", "league create", name="Friday Night", preset="modern", points=7
        )
        assert "Friday Night" in created and "is open" in created
        for name in ("alice", "bob", "carol"):
            assert "You joined" in await slash(fake, name, "league join", name="friday night")
        assert "already a member" in await slash(fake, "bob", "league join", name="Friday Night")

        opened = await slash(fake, "alice", "table create", league="Friday Night")
        assert "for the league **Friday Night**" in opened
        table = await eventually(lambda: table_of(bot, fake), what="the league's table")
        assert table.options.points == 7 and table.league_name == "Friday Night"
        message = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "Plays for the league" in m.text),
                None,
            )
        )
        assert "Friday Night" in message.text
        for name in ("bob", "carol"):
            assert "You sit at" in await slash(fake, name, "table join")
        refused = await slash(fake, "dave", "table join")
        assert "plays for the league “Friday Night”" in refused and "/league join" in refused
        assert table.seat_of(fake.member("dave").id) is None

        assert "You joined" in await slash(fake, "dave", "league join", name="Friday Night")
        assert "You sit at" in await slash(fake, "dave", "table join")
        assert "dealt" in await slash(fake, "alice", "table start")
        match_id = table.match_id
        stored = await bot.db.fetchval("SELECT league_id FROM matches WHERE id = ?", (match_id,))
        assert stored == table.league_id
        answer = await slash(fake, "bob", "league match", id=f"M{match_id}")
        assert "not finished yet" in answer
