"""Proves the fake Discord with the real discord.py client: a small ``commands.Bot`` logs in,
syncs a command tree, and answers slash commands, autocompletes, buttons, selects and a modal
sent by fake members, all over 127.0.0.1.

The bot here is deliberately not the project's bot: these tests pin down the harness, so the
project's own end-to-end tests can trust it.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.support.fake_discord import (
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    FakeDiscord,
    patch_discord_urls,
)

pytest_plugins = ["tests.support.fixtures"]

CARDS = ["9C", "10C", "JC", "QC", "KC", "AC", "JD", "JH", "JS", "AS"]
RECORD = json.dumps({"hand": 1, "makers": "NS", "points": 2}).encode()


# --------------------------------------------------------------------------------------------
# A minimal bot under test
# --------------------------------------------------------------------------------------------


class HandView(discord.ui.View):
    """A persistent view (timeout=None, fixed custom_id): it must survive a bot restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id="hand:refresh", style=discord.ButtonStyle.primary)
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        bot: HarnessBot = interaction.client  # type: ignore[assignment]
        bot.calls.append(("hand:refresh", interaction.user.id))
        # Response type 7: edit the message the button is on.
        await interaction.response.edit_message(
            content=f"Hand of {interaction.user.name}: refreshed", view=self
        )

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item
    ) -> None:
        interaction.client.errors.append(error)  # type: ignore[attr-defined]


class JoinView(discord.ui.View):
    """The public table message's controls: a button and a select."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Join", custom_id="table:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        interaction.client.calls.append(("table:join", interaction.user.id))  # type: ignore[attr-defined]
        await interaction.response.send_message(f"{interaction.user.name} joins the table")

    @discord.ui.select(
        custom_id="table:seat",
        options=[discord.SelectOption(label=f"Seat {n}", value=str(n)) for n in range(1, 5)],
    )
    async def seat(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        interaction.client.calls.append(("table:seat", select.values))  # type: ignore[attr-defined]
        await interaction.response.edit_message(content=f"Seat {select.values[0]} taken")

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item
    ) -> None:
        interaction.client.errors.append(error)  # type: ignore[attr-defined]


class NoteModal(discord.ui.Modal, title="Table note"):
    text = discord.ui.TextInput(label="Note", custom_id="note:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        interaction.client.calls.append(("note", self.text.value))  # type: ignore[attr-defined]
        await interaction.response.send_message(f"Noted: {self.text.value}", ephemeral=True)


def build_commands(bot: HarnessBot) -> list[app_commands.Command | app_commands.Group]:
    """Fresh command objects per bot, so two bots never share tree state."""
    table = app_commands.Group(name="table", description="Euchre tables")
    seat = app_commands.Group(name="seat", description="Seats at a table", parent=table)

    @table.command(name="create", description="Open a table in this channel")
    async def create(interaction: discord.Interaction, preset: str, points: int = 10) -> None:
        bot.calls.append(("table create", interaction.user.id, preset, points))
        await interaction.response.send_message(
            f"Table open: {preset}, {points} points", view=JoinView()
        )

    @seat.command(name="add", description="Seat a player")
    async def seat_add(
        interaction: discord.Interaction,
        player: discord.Member,
        place: app_commands.Range[int, 1, 4] = 1,
    ) -> None:
        bot.calls.append(("table seat add", player.id, player.name, place))
        await interaction.response.send_message(f"{player.mention} sits at {place}")

    async def card_choices(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=card, value=card)
            for card in CARDS
            if card.lower().startswith(current.lower())
        ]

    @app_commands.command(name="play", description="Play a card")
    @app_commands.autocomplete(card=card_choices)
    async def play(interaction: discord.Interaction, card: str) -> None:
        bot.calls.append(("play", card))
        await interaction.response.send_message(f"You play {card}", ephemeral=True)

    @app_commands.command(name="hand", description="Show my hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Hand of {interaction.user.name}: JH JD AS", view=HandView(), ephemeral=True
        )

    @app_commands.command(name="record", description="Export the last hand")
    async def record(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(
            "Here is the record", file=discord.File(io.BytesIO(RECORD), "hand.json")
        )

    @app_commands.command(name="secret", description="Deal me in, privately")
    async def secret(interaction: discord.Interaction) -> None:
        # The slow path of a hand view: defer ephemerally, then fill @original, then a
        # follow-up that is deleted again.
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(content="Your cards: JH JD", view=HandView())
        original = await interaction.original_response()
        bot.calls.append(("secret", original.id, original.flags.ephemeral))
        extra = await interaction.followup.send("psst", ephemeral=True, wait=True)
        await extra.delete()

    @app_commands.command(name="note", description="Leave a note")
    async def note(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @app_commands.command(name="close", description="Close the table")
    @app_commands.default_permissions(manage_channels=True)
    async def close(interaction: discord.Interaction) -> None:
        bot.calls.append(("close", interaction.permissions.manage_channels))
        await interaction.response.send_message("Table closed")

    return [table, play, hand, record, secret, note, close]


class HarnessBot(commands.Bot):
    def __init__(self, guild_id: int, **kwargs) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,  # the fake sends every GUILD_CREATE at once
            **kwargs,
        )
        self.guild_id = guild_id
        self.calls: list[tuple] = []
        self.errors: list[BaseException] = []
        self.available: list[int] = []

    async def setup_hook(self) -> None:
        for command in build_commands(self):
            self.tree.add_command(command, guild=discord.Object(self.guild_id))
        self.add_view(HandView())  # persistent: answers clicks on messages of earlier runs

        @self.tree.error
        async def on_app_command_error(
            interaction: discord.Interaction, error: app_commands.AppCommandError
        ) -> None:
            self.errors.append(error)

        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.available.append(guild.id)


@pytest_asyncio.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[HarnessBot]:
    harness = HarnessBot(fake_discord.guild.id)
    async with fake_discord.running(harness):
        yield harness
    assert harness.errors == []
    assert fake_discord.errors == []


# --------------------------------------------------------------------------------------------
# Login, gateway, sync
# --------------------------------------------------------------------------------------------


async def test_login_ready_and_guild_available(fake_discord: FakeDiscord, bot: HarnessBot):
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.name == "Euchre Club"
    assert bot.available == [guild.id]
    assert bot.user is not None and bot.user.id == fake_discord.application_id
    channel = guild.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "euchre"
    # The bot's own member and permissions come from GUILD_CREATE.
    assert guild.me.guild_permissions.manage_messages
    # Startup order as on Discord: who am I, which application, then sync in setup_hook.
    paths = [p for _, p in fake_discord.requests]
    assert paths[:2] == ["/users/@me", "/oauth2/applications/@me"]
    assert fake_discord.connected


async def test_command_sync_is_recorded_with_ids(fake_discord: FakeDiscord, bot: HarnessBot):
    synced = {c["name"]: c for c in fake_discord.synced_commands(fake_discord.guild)}
    assert set(synced) == {"table", "play", "hand", "record", "secret", "note", "close"}
    assert fake_discord.synced_commands() == []  # nothing global
    assert all(
        c["id"].isdigit() and c["guild_id"] == str(fake_discord.guild.id) for c in synced.values()
    )
    table_options = {o["name"]: o["type"] for o in synced["table"]["options"]}
    assert table_options == {"create": 1, "seat": 2}
    # The bot's view of its own commands parses the fake's answer.
    fetched = await bot.tree.fetch_commands(guild=discord.Object(fake_discord.guild.id))
    assert {c.name for c in fetched} == set(synced)


# --------------------------------------------------------------------------------------------
# Slash commands, ephemerality, components
# --------------------------------------------------------------------------------------------


async def test_slash_subcommand_reaches_handler_with_parsed_options(
    fake_discord: FakeDiscord, bot: HarnessBot
):
    alice = fake_discord.member("alice")
    handle = await fake_discord.slash(
        alice, fake_discord.channel, "table create", preset="somerset", points=11
    )
    response = await handle.response()
    assert response.type == CALLBACK_MESSAGE and not response.ephemeral
    message = await handle.message()
    assert bot.calls == [("table create", alice.id, "somerset", 11)]
    assert message.content == "Table open: somerset, 11 points"
    assert message.custom_ids == ["table:join", "table:seat"]
    assert fake_discord.public_messages(fake_discord.channel) == [message]


async def test_nested_group_and_member_option(fake_discord: FakeDiscord, bot: HarnessBot):
    bob = fake_discord.member("bob")
    handle = await fake_discord.slash(
        fake_discord.member("alice"), fake_discord.channel, "table seat add", player=bob, place=3
    )
    message = await handle.message()
    assert bot.calls == [("table seat add", bob.id, "bob", 3)]
    assert message.content == f"{bob.mention} sits at 3"


async def test_slash_refuses_unknown_commands_and_options(
    fake_discord: FakeDiscord, bot: HarnessBot
):
    alice, channel = fake_discord.member("alice"), fake_discord.channel
    with pytest.raises(LookupError):
        await fake_discord.slash(alice, channel, "table destroy")
    with pytest.raises(LookupError):
        await fake_discord.slash(alice, channel, "table create", preset="x", colour="red")
    with pytest.raises(ValueError):
        await fake_discord.slash(alice, channel, "table create")  # preset is required


async def test_ephemeral_reply_and_persistent_button_edits_message(
    fake_discord: FakeDiscord, bot: HarnessBot
):
    alice, bob = fake_discord.member("alice"), fake_discord.member("bob")
    handle = await fake_discord.slash(alice, fake_discord.channel, "hand")
    assert (await handle.response()).ephemeral
    hand = await handle.message()
    assert hand.ephemeral and hand.visible_to == alice.id
    assert fake_discord.public_messages() == []
    assert fake_discord.ephemeral_for(alice) == [hand]
    assert fake_discord.visible_to(bob) == []
    with pytest.raises(PermissionError):
        await fake_discord.click(bob, hand, "hand:refresh")

    click = await fake_discord.click(alice, hand, "hand:refresh")
    assert (await click.response()).type == CALLBACK_UPDATE_MESSAGE
    edited = await click.message()
    assert edited is hand  # edited in place
    assert hand.content == "Hand of alice: refreshed"
    assert hand.ephemeral and hand.visible_to == alice.id
    assert hand.history[0]["content"] == "Hand of alice: JH JD AS"
    assert [e.action for e in fake_discord.log] == ["create", "edit"]
    assert bot.calls == [("hand:refresh", alice.id)]


async def test_an_interaction_carries_its_message_as_it_was_when_used(
    fake_discord: FakeDiscord, bot: HarnessBot
):
    """The message in a component's INTERACTION_CREATE shares the stored message's parts
    (no copy: a benchmark clicks thousands of times a second); an edit installs new ones, so
    what the interaction carried, and would deliver again, stays as it was."""
    alice = fake_discord.member("alice")
    hand = await (await fake_discord.slash(alice, fake_discord.channel, "hand")).message()
    shown = hand.payload()
    click = await fake_discord.click(alice, hand, "hand:refresh")
    await click.message()
    assert hand.content == "Hand of alice: refreshed"
    carried = click.interaction.payload["message"]
    assert carried["content"] == "Hand of alice: JH JD AS"
    assert carried["components"] == shown["components"]
    assert carried["components"] is not hand.components


async def test_public_button_and_select_round_trip(fake_discord: FakeDiscord, bot: HarnessBot):
    alice, bob = fake_discord.member("alice"), fake_discord.member("bob")
    table = await (
        await fake_discord.slash(alice, fake_discord.channel, "table create", preset="somerset")
    ).message()

    joined = await (await fake_discord.click(bob, table, label="Join")).message()
    assert joined.content == "bob joins the table" and not joined.ephemeral
    assert joined.interaction_metadata["user"]["id"] == str(bob.id)

    picked = await fake_discord.select(bob, table, "table:seat", ["2"])
    await picked.message()
    assert table.content == "Seat 2 taken"
    assert ("table:seat", ["2"]) in bot.calls
    with pytest.raises(ValueError):
        await fake_discord.select(bob, table, "table:seat", ["9"])


async def test_autocomplete_choices(fake_discord: FakeDiscord, bot: HarnessBot):
    alice = fake_discord.member("alice")
    choices = await fake_discord.autocomplete(
        alice, fake_discord.channel, "play", focused="card", value="j"
    )
    assert [c["value"] for c in choices] == ["JC", "JD", "JH", "JS"]
    handle = await fake_discord.autocomplete_handle(
        alice, fake_discord.channel, "play", focused="card", value="A"
    )
    assert (await handle.response()).type == CALLBACK_AUTOCOMPLETE
    played = await (
        await fake_discord.slash(alice, fake_discord.channel, "play", card="JH")
    ).message()
    assert played.ephemeral and played.content == "You play JH"


async def test_defer_then_followup_with_attachment(fake_discord: FakeDiscord, bot: HarnessBot):
    handle = await fake_discord.slash(fake_discord.member("carol"), fake_discord.channel, "record")
    assert (await handle.response()).type == CALLBACK_DEFERRED_MESSAGE
    message = await handle.message()  # waits past the "thinking" placeholder
    assert not message.loading and not message.ephemeral
    assert message.content == "Here is the record"
    assert await handle.followup(0) is message
    [attachment] = message.attachments
    assert attachment.filename == "hand.json" and attachment.data == RECORD
    assert attachment.content_type == "application/json"
    # The attachment URL is served, so the bot (or a test) can download it.
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as resp:
        assert await resp.read() == RECORD


async def test_ephemeral_defer_edit_original_and_followups(
    fake_discord: FakeDiscord, bot: HarnessBot
):
    alice = fake_discord.member("alice")
    handle = await fake_discord.slash(alice, fake_discord.channel, "secret")
    hand = await handle.message()
    assert hand.content == "Your cards: JH JD" and hand.custom_ids == ["hand:refresh"]
    assert hand.ephemeral and hand.visible_to == alice.id
    await fake_discord.wait_for(lambda: [e for e in fake_discord.log if e.action == "delete"])
    assert bot.calls == [("secret", hand.id, True)]
    [psst] = [e for e in fake_discord.log if e.action == "delete"]
    assert psst.snapshot["content"] == "psst" and psst.visible_to == alice.id
    assert fake_discord.ephemeral_for(alice) == [hand]
    # The view sent with edit_original_response answers clicks.
    await (await fake_discord.click(alice, hand, "hand:refresh")).message()
    assert hand.content == "Hand of alice: refreshed"


async def test_wait_for_times_out_with_a_description(fake_discord: FakeDiscord):
    with pytest.raises(TimeoutError, match="waiting for nothing"):
        await fake_discord.wait_for(lambda: None, timeout=0.05, what="nothing")


async def test_modal_submit(fake_discord: FakeDiscord, bot: HarnessBot):
    dave = fake_discord.member("dave")
    handle = await fake_discord.slash(dave, fake_discord.channel, "note")
    assert (await handle.response()).type == CALLBACK_MODAL
    modal = await handle.modal()
    assert modal["title"] == "Table note"
    submitted = await handle.submit_modal({"note:text": "good game"})
    reply = await submitted.message()
    assert reply.content == "Noted: good game" and reply.visible_to == dave.id
    assert ("note", "good game") in bot.calls


async def test_default_member_permissions_gate_the_command(
    fake_discord: FakeDiscord, bot: HarnessBot
):
    with pytest.raises(PermissionError):
        await fake_discord.slash(fake_discord.member("alice"), fake_discord.channel, "close")
    handle = await fake_discord.slash(fake_discord.member("mod"), fake_discord.channel, "close")
    await handle.message()
    assert bot.calls == [("close", True)]


async def test_bot_rest_calls_on_channel_messages(fake_discord: FakeDiscord, bot: HarnessBot):
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Deal!", file=discord.File(io.BytesIO(b"x"), "a.txt"))
    await sent.edit(content="Dealt")
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "Dealt" and fetched.attachments[0].filename == "a.txt"
    thread = await channel.create_thread(name="table-1", type=discord.ChannelType.public_thread)
    await thread.send("in the thread")
    await sent.delete()
    assert [m.content for m in fake_discord.public_messages()] == ["in the thread"]
    assert fake_discord.public_messages(fake_discord.channel) == []
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent.id)
    assert fake_discord.errors == [
        f"GET /channels/{channel.id}/messages/{sent.id}: 404 10008 Unknown Message"
    ]
    fake_discord.errors.clear()  # expected; the fixture checks for unexpected ones


# --------------------------------------------------------------------------------------------
# Failure paths, restarts, process-wide state
# --------------------------------------------------------------------------------------------


async def test_bad_token_raises_login_failure(fake_discord: FakeDiscord):
    bot = HarnessBot(fake_discord.guild.id)
    with pytest.raises(discord.LoginFailure):
        async with fake_discord.running(bot, token="not-the-token"):
            pass
    assert bot.is_closed()
    assert fake_discord.sessions == []


async def test_restart_keeps_state_and_persistent_views(fake_discord: FakeDiscord):
    alice = fake_discord.member("alice")
    first = HarnessBot(fake_discord.guild.id)
    async with fake_discord.running(first):
        hand = await (await fake_discord.slash(alice, fake_discord.channel, "hand")).message()
        ids = {c["name"]: c["id"] for c in fake_discord.synced_commands(fake_discord.guild)}
    assert not fake_discord.connected
    with pytest.raises(RuntimeError):
        await fake_discord.click(alice, hand, "hand:refresh")  # nobody to answer
    # The server itself may go down too; it comes back on the same port with its state.
    api_base = fake_discord.api_base
    await fake_discord.stop()
    await fake_discord.start()
    assert fake_discord.api_base == api_base == discord.http.Route.BASE

    second = HarnessBot(fake_discord.guild.id)
    async with fake_discord.running(second):
        click = await fake_discord.click(alice, hand, "hand:refresh")
        await click.message()
        assert second.calls == [("hand:refresh", alice.id)]
        assert hand.content == "Hand of alice: refreshed"
        # Re-syncing keeps command ids, as Discord does.
        assert {c["name"]: c["id"] for c in fake_discord.synced_commands(fake_discord.guild)} == ids
    assert len(fake_discord.sessions) == 2
    assert first.errors == second.errors == []


async def test_gateway_reconnect_resumes_session(fake_discord: FakeDiscord, bot: HarnessBot):
    session = fake_discord.active_session
    await fake_discord.request_reconnect()
    await fake_discord.wait_for(lambda: session.resumes == 1 and fake_discord.connected)
    await fake_discord.disconnect_gateway(code=4000)
    await fake_discord.wait_for(lambda: session.resumes == 2 and fake_discord.connected)
    assert fake_discord.active_session is session and len(fake_discord.sessions) == 1
    handle = await fake_discord.slash(
        fake_discord.member("alice"), fake_discord.channel, "table create", preset="somerset"
    )
    await handle.message()


async def test_an_invalidated_session_is_identified_afresh_and_connections_are_counted(
    fake_discord: FakeDiscord, bot: HarnessBot
):
    first = fake_discord.active_session
    await fake_discord.invalidate_session()
    await fake_discord.wait_for(
        lambda: len(fake_discord.sessions) == 2 and fake_discord.connected, what="a new session"
    )
    assert first is not None and first.ended and first.resumes == 0
    assert [shard for _, shard, _, _ in fake_discord.identifies] == [0, 0]
    # Each connection carried one session start; a raw one that only said hello carried none.
    assert [c.started for c in fake_discord.gateway_connections] == [True, True]
    async with aiohttp.ClientSession() as http, http.ws_connect(fake_discord.gateway_url) as ws:
        await ws.receive_json()  # HELLO
    await fake_discord.wait_for(lambda: len(fake_discord.gateway_connections) == 3)
    assert not fake_discord.gateway_connections[-1].started


async def test_held_heartbeat_acks_wait_for_their_release_after_identify(
    fake_discord: FakeDiscord,
):
    fake_discord.hold_heartbeat_acks = True
    async with aiohttp.ClientSession() as http, http.ws_connect(fake_discord.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 1, "d": None})  # before IDENTIFY: answered at once
        assert (await ws.receive_json())["op"] == 11
        await ws.send_json(
            {"op": 2, "d": {"token": fake_discord.token, "intents": 0, "properties": {}}}
        )
        assert (await ws.receive_json())["t"] == "READY"
        await ws.send_json({"op": 1, "d": 1})
        await fake_discord.wait_for(lambda: fake_discord._held_acks, what="a held ACK")
        await fake_discord.release_heartbeat_acks()
        while (message := await ws.receive_json())["op"] != 11:
            assert message["t"] == "GUILD_CREATE"


async def test_json_content_type_auth_and_unknown_routes(fake_discord: FakeDiscord):
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake_discord.api_base}/users/@me", headers=headers) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
        async with session.get(f"{fake_discord.api_base}/users/@me") as resp:
            assert resp.status == 401
        async with session.get(f"{fake_discord.api_base}/no/such/route", headers=headers) as resp:
            assert resp.status == 404
            assert (await resp.json())["code"] == 0
    assert fake_discord.unknown_routes == [("GET", "/no/such/route")]
    fake_discord.unknown_routes.clear()  # noticed; don't fail the fixture


async def test_urls_are_patched_and_restored():
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord.serve() as fake:
        assert discord.http.Route.BASE == fake.api_base
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == fake.gateway_url
        assert fake.env()["DISCORD_API_BASE"] == fake.api_base
    assert (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == before
    with patch_discord_urls("http://x/api/v10", "ws://x/gateway"):
        assert discord.http.Route.BASE == "http://x/api/v10"
    assert discord.http.Route.BASE == before[0]


# --------------------------------------------------------------------------------------------
# Sharding
# --------------------------------------------------------------------------------------------


async def test_gateway_bot_recommends_the_shards_and_the_identify_concurrency(
    fake_discord: FakeDiscord,
):
    fake_discord.shard_count, fake_discord.max_concurrency = 4, 2
    async with aiohttp.ClientSession() as http:
        response = await http.get(
            f"{fake_discord.api_base}/gateway/bot",
            headers={"Authorization": f"Bot {fake_discord.token}"},
        )
        body = await response.json()
    assert body["shards"] == 4
    assert body["session_start_limit"]["max_concurrency"] == 2


def _shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count


async def test_each_shard_gets_only_its_guilds_and_their_interactions(fake_discord: FakeDiscord):
    fake_discord.shard_count = 2
    first = fake_discord.guild
    mine = _shard_of(first.id, 2)
    other = fake_discord.add_guild("Second Club", shard=(1 - mine, 2))
    channel = fake_discord.add_channel(other, "euchre-2")
    bob = fake_discord.add_member(other, "bob")
    a = HarnessBot(first.id, shard_id=mine, shard_count=2)
    b = HarnessBot(other.id, shard_id=1 - mine, shard_count=2)
    async with fake_discord.running(a), fake_discord.running(b):
        assert [g.id for g in a.guilds] == [first.id]
        assert [g.id for g in b.guilds] == [other.id]
        # bob's guild is on b's shard: only b, which synced its commands there, can answer.
        reply = await (await fake_discord.slash(bob, channel, "hand")).message()
        assert reply.content.startswith("Hand of bob")
        alice = fake_discord.member("alice")
        reply = await (await fake_discord.slash(alice, fake_discord.channel, "hand")).message()
        assert reply.content.startswith("Hand of alice")
        assert sorted(s.shard for s in fake_discord.shard_sessions()) == [(0, 2), (1, 2)]
    assert fake_discord.shard_sessions() == []


async def _identify(fake: FakeDiscord, shard: list[int]) -> tuple[int | None, dict | None]:
    """A raw IDENTIFY: the close code the fake answers with, or the first message after HELLO."""
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json(
            {"op": 2, "d": {"token": fake.token, "intents": 0, "properties": {}, "shard": shard}}
        )
        message = await ws.receive()
        if message.type == aiohttp.WSMsgType.TEXT:
            return None, json.loads(message.data)
        return ws.close_code, None


async def test_a_bad_shard_is_closed_with_4010(fake_discord: FakeDiscord):
    for shard in ([2, 2], [-1, 2], [0, 0]):
        code, _ = await _identify(fake_discord, shard)
        assert code == 4010, shard
    assert fake_discord.sessions == []


async def test_an_identify_over_the_concurrency_limit_gets_op_9(fake_discord: FakeDiscord):
    fake_discord.identify_window, fake_discord.max_concurrency = 5.0, 2
    _, ready = await _identify(fake_discord, [0, 4])
    assert ready is not None and ready["t"] == "READY" and ready["d"]["shard"] == [0, 4]
    _, ready = await _identify(fake_discord, [1, 4])  # another bucket: allowed at once
    assert ready is not None and ready["t"] == "READY"
    _, refused = await _identify(fake_discord, [2, 4])  # bucket 0 again within 5 s
    assert refused == {"op": 9, "d": False, "s": None, "t": None}
    assert [accepted for *_, accepted in fake_discord.identifies] == [True, True, False]


async def test_guilds_added_on_one_shard_at_once_each_get_their_own_id(
    empty_fake_discord: FakeDiscord,
):
    fake = empty_fake_discord
    shards = [0] * 20 + [1] * 20
    guilds = [fake.add_guild(f"Club {n}", shard=(shard, 2)) for n, shard in enumerate(shards)]
    assert len({g.id for g in guilds}) == 40 and len(fake.guilds) == 40
    assert [_shard_of(g.id, 2) for g in guilds] == shards


async def test_wait_for_sees_a_change_the_fake_did_not_make(fake_discord: FakeDiscord):
    """A predicate on the bot's own state (a table's message id, stored after Discord's answer
    was read) turns true with no request to the fake: the wait sees it soon, not at its
    timeout a minute later."""
    state = {"stored": False}

    async def store() -> None:
        await asyncio.sleep(0)
        state["stored"] = True

    task = asyncio.create_task(store())
    await asyncio.wait_for(fake_discord.wait_for(lambda: state["stored"], timeout=120), 30)
    await task
