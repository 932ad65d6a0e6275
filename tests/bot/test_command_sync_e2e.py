"""Slash commands are synced at start when they changed since the last sync, and only then:
the fake Discord counts every PUT of the application's commands."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.command_sync import scope_key
from bot.storage import bot_state
from bot.storage.database import Database
from tests.bot.helpers import new_bot, running_bot, settings_for
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


def syncs(fake: FakeDiscord, guild: int | None) -> int:
    """How many times the bot has PUT its commands to a scope (None: globally)."""
    path = f"/applications/{fake.application_id}" + (
        f"/guilds/{guild}/commands" if guild else "/commands"
    )
    return fake.requests.count(("PUT", path))


@app_commands.command(name="ping", description="A command only this test has")
async def ping(interaction) -> None:
    await interaction.response.send_message("pong", ephemeral=True)


async def test_commands_are_synced_at_the_first_start_and_not_again_while_unchanged(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    guild = fake.guild.id
    async with running_bot(fake, db):
        pass
    assert syncs(fake, guild) == 1 and syncs(fake, None) == 0
    assert "admin" in {c["name"] for c in fake.synced_commands(guild)}
    async with running_bot(fake, db):
        # The commands synced at the first start still answer.
        reply = await (await fake.slash(fake.member("alice"), fake.channel, "hand")).message()
        assert "no table" in reply.text
    assert syncs(fake, guild) == 1


async def test_a_changed_command_tree_is_synced_again(fake_discord, tmp_path):
    fake, db = fake_discord, tmp_path / "euchre.db"
    guild = fake.guild.id
    async with running_bot(fake, db):
        pass
    assert syncs(fake, guild) == 1
    # A command added before the start is in the tree that setup_hook syncs.
    changed = new_bot(settings_for(fake, db))
    changed.tree.add_command(ping)
    async with fake.running(changed):
        reply = await (await fake.slash(fake.member("alice"), fake.channel, "ping")).message()
        assert reply.text == "pong"
    assert syncs(fake, guild) == 2
    assert "ping" in {c["name"] for c in fake.synced_commands(guild)}
    # The same changed tree again: no sync.
    again = new_bot(settings_for(fake, db))
    again.tree.add_command(ping)
    async with fake.running(again):
        pass
    assert syncs(fake, guild) == 2


async def test_without_a_development_server_the_commands_are_synced_globally(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    for _ in range(2):
        bot = new_bot(settings_for(fake, db, dev_guild_id=None))
        async with fake.running(bot):
            pass
    assert syncs(fake, None) == 1 and syncs(fake, fake.guild.id) == 0
    assert "admin" in {c["name"] for c in fake.synced_commands(None)}


async def test_admin_sync_forces_a_sync_and_keeps_its_hash(fake_discord, tmp_path):
    fake, db = fake_discord, tmp_path / "euchre.db"
    owner = fake.member("mod")  # in OWNER_IDS (see settings_for); /admin needs Manage Server too
    owner.permissions |= discord.Permissions(manage_guild=True).value
    async with running_bot(fake, db):
        reply = await (
            await fake.slash(owner, fake.channel, "admin sync", scope="global")
        ).message()
        assert "Synced" in reply.text and reply.ephemeral
    assert syncs(fake, None) == 1
    # The global sync was stored: a start without a development server does not repeat it.
    bot = new_bot(settings_for(fake, db, dev_guild_id=None))
    async with fake.running(bot):
        pass
    assert syncs(fake, None) == 1
    async with await Database.open(db) as database:
        assert await bot_state.get_value(database, scope_key(None)) is not None


async def test_a_start_without_a_sync_keeps_the_command_ids_of_the_last_sync(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    guild = fake.guild.id
    async with running_bot(fake, db) as bot:
        first = dict(bot.tree.command_ids[guild])
    async with running_bot(fake, db) as bot:
        # No sync this time, and /help's mentions still carry the ids Discord gave.
        assert syncs(fake, guild) == 1
        assert bot.tree.command_ids[guild] == first
        assert {c["name"]: int(c["id"]) for c in fake.synced_commands(guild)} == first
