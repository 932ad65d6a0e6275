"""/help and /rules through the real bot and the fake Discord: private answers, with the
commands as clickable mentions of the ids the fake gave at the bot's sync, and /help's menu
turning its pages in place, after a restart too."""

from __future__ import annotations

import discord

from tests.bot.helpers import running_bot
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


async def private_reply(fake: FakeDiscord, name: str, command: str, **options):
    member = fake.member(name)
    message = await (await fake.slash(member, fake.channel, command, **options)).message()
    assert message.ephemeral and message.visible_to == member.id, message.text
    return message


async def test_help_and_rules_answer_privately(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db"):
        synced = {c["name"]: c["id"] for c in fake.synced_commands(fake.guild)}
        help_text = (await private_reply(fake, "alice", "help")).text
        assert f"</play:{synced['play']}> `card` — Play a card to the trick." in help_text
        assert f"</table create:{synced['table']}> — Open a Euchre table" in help_text
        deal = (await private_reply(fake, "alice", "help", topic="deal")).text
        assert "Making trump, first round" in deal

        index = (await private_reply(fake, "bob", "rules")).text
        assert "There is no table in this channel" in index and "Lone hands" in index
        await private_reply(fake, "alice", "table create", preset="modern")
        lap = (await private_reply(fake, "bob", "rules", topic="lap")).text
        assert "Lap is off here" in lap and "the modern preset" in lap


async def test_help_menu_turns_the_page_in_place_after_a_restart(fake_discord, tmp_path):
    """The menu keeps nothing in the bot: a /help shown before a restart turns its pages after."""
    fake = fake_discord
    alice = fake.member("alice")
    async with running_bot(fake, tmp_path / "euchre.db"):
        shown = await private_reply(fake, "alice", "help")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        turned = await (await fake.select(alice, shown, "euchre:help", ["leagues"])).message()
        assert turned.id == shown.id and turned.ephemeral
        assert turned.embeds[0]["title"] == "Leagues"
        assert "• `season`: a season's number or name (default: the running season)" in (
            turned.text
        )
        menu = turned.component("euchre:help")
        assert [o["value"] for o in menu["options"] if o.get("default")] == ["leagues"]
        assert not bot.handler_errors


def pages_offered(message) -> list[str]:
    return [o["value"] for o in message.component("euchre:help")["options"]]


async def test_help_menu_after_a_restart_shows_the_commands_of_the_members_permissions(
    fake_discord, tmp_path
):
    """A /help opened before a restart by a member with Manage Server, picked from after it
    once the member has lost it: the pages are those of the member's permissions at the pick,
    /admin's and the organisers' commands left out, and the Admin page no longer offered."""
    fake = fake_discord
    manage_guild = discord.Permissions(manage_guild=True).value
    boss = fake.add_member(fake.guild, "boss", permissions=manage_guild)
    async with running_bot(fake, tmp_path / "euchre.db"):
        shown = await private_reply(fake, "boss", "help", topic="admin")
        assert shown.embeds[0]["title"] == "Admin" and "/admin sync" in shown.text
        assert "admin" in pages_offered(shown)
        plain = await private_reply(fake, "alice", "help")
        assert "admin" not in pages_offered(plain) and "/admin" not in plain.text
    boss.permissions = 0  # the role that gave Manage Server taken away meanwhile
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        # The menu drawn before still offers Admin: picked, the page is not shown.
        admin = await (await fake.select(boss, shown, "euchre:help", ["admin"])).message()
        assert admin.id == shown.id and admin.ephemeral
        assert admin.embeds[0]["title"] == "At the table" and "/admin" not in admin.text
        assert admin.content.startswith("None of the commands on *Admin* are yours to use")
        assert "admin" not in pages_offered(admin)
        leagues = await (await fake.select(boss, shown, "euchre:help", ["leagues"])).message()
        assert leagues.embeds[0]["title"] == "Leagues" and "/league join" in leagues.text
        assert "/league create" not in leagues.text and not leagues.content
        assert not bot.handler_errors
