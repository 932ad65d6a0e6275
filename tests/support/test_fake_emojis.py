"""The fake Discord's application emojis, driven by the real discord.py client: what Discord
accepts and refuses, in Discord's shapes, so the bot's card emojis are tested against the truth."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio

from tests.support.fake_discord import (
    EMOJI_LIMIT,
    EMOJI_MAX_BYTES,
    FakeDiscord,
    FakeEmoji,
    FakeHTTPError,
)

pytest_plugins = ["tests.support.fixtures"]

# The smallest valid PNG: one transparent pixel.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def new_client() -> discord.Client:
    # The fake sends every GUILD_CREATE at once: no need to wait the default 2 s for more.
    return discord.Client(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)


@pytest_asyncio.fixture
async def client(fake_discord: FakeDiscord) -> AsyncIterator[discord.Client]:
    async with fake_discord.running(new_client()) as running:
        yield running


async def test_emojis_are_created_listed_fetched_renamed_and_deleted(fake_discord, client):
    created = await client.create_application_emoji(name="JH", image=PNG)
    assert created.is_application_owned() and created.name == "JH"
    assert str(created) == f"<:JH:{created.id}>"
    listed = await client.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(created.id, "JH")]
    assert (await client.fetch_application_emoji(created.id)).name == "JH"
    renamed = await created.edit(name="JH_old")
    assert renamed.name == "JH_old"
    await renamed.delete()
    assert await client.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound) as refused:
        await client.fetch_application_emoji(created.id)
    assert refused.value.code == 10014


async def test_an_emojis_picture_is_served_as_uploaded_by_the_cdn(fake_discord, client):
    emoji = await client.create_application_emoji(name="AS", image=PNG)
    assert emoji.url.startswith(fake_discord.base_url)
    assert await emoji.read() == PNG


async def test_the_emoji_list_survives_the_bot(fake_discord, client):
    await client.create_application_emoji(name="QS", image=PNG)
    async with fake_discord.running(new_client()) as again:
        assert [e.name for e in await again.fetch_application_emojis()] == ["QS"]


@pytest.mark.parametrize("name", ["J", "x" * 33, "J-H", "J♥", ""])
async def test_a_name_outside_2_to_32_letters_digits_or_underscores_is_refused(client, name):
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name=name, image=PNG)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "name" in refused.value.text
    assert await client.fetch_application_emojis() == []


async def test_names_of_2_and_32_characters_are_accepted(client):
    await client.create_application_emoji(name="JH", image=PNG)
    await client.create_application_emoji(name="x" * 32, image=PNG)
    assert len(await client.fetch_application_emojis()) == 2


async def test_a_duplicate_name_is_refused(client):
    first = await client.create_application_emoji(name="10D", image=PNG)
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name="10D", image=PNG)
    assert refused.value.code == 50035 and "In name: Emoji name already taken" in refused.value.text
    other = await client.create_application_emoji(name="9D", image=PNG)
    with pytest.raises(discord.HTTPException):
        await other.edit(name="10D")
    assert {e.name for e in await client.fetch_application_emojis()} == {first.name, "9D"}


async def test_an_image_over_256_kib_is_refused(client):
    big = PNG + b"\0" * (EMOJI_MAX_BYTES + 1 - len(PNG))
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name="BJ", image=big)
    assert refused.value.code == 50035 and "image" in refused.value.text
    exactly = PNG + b"\0" * (EMOJI_MAX_BYTES - len(PNG))
    await client.create_application_emoji(name="BJ", image=exactly)


async def test_more_than_2000_emojis_are_refused(fake_discord, client):
    for i in range(EMOJI_LIMIT):
        emoji_id = fake_discord.snowflake()
        fake_discord.emojis[emoji_id] = FakeEmoji(emoji_id, f"e{i}", PNG, "image/png", {})
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name="JH", image=PNG)
    assert refused.value.code == 30008
    assert len(fake_discord.emojis) == EMOJI_LIMIT


async def test_a_test_can_make_uploads_fail(fake_discord, client):
    fake_discord.refuse_emoji_uploads = FakeHTTPError(403, 50013, "Missing Permissions")
    with pytest.raises(discord.Forbidden):
        await client.create_application_emoji(name="JH", image=PNG)
    assert fake_discord.emojis == {}


async def test_a_button_with_an_emoji_the_application_does_not_own_is_refused(fake_discord, client):
    channel = await client.fetch_channel(fake_discord.channel.id)
    owned = await client.create_application_emoji(name="JH", image=PNG)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(emoji=owned, custom_id="a"))
    await channel.send("ok", view=view)
    stranger = discord.ui.View()
    stranger.add_item(
        discord.ui.Button(emoji=discord.PartialEmoji(name="JD", id=owned.id + 1), custom_id="b")
    )
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("not ok", view=stranger)
    assert refused.value.code == 50035
    assert [m.content for m in fake_discord.public_messages(fake_discord.channel)] == ["ok"]
