"""The interaction harness checks what the other tests rely on: interactions resolve as on
Discord, a hidden card in public is caught, a change inside ``unchanged`` is caught, and what
Discord refuses is refused."""

from __future__ import annotations

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.engine.cards import card_label, card_name
from tests.interaction.helpers import action_ids, start_four, to_act
from tests.support.fake_discord import INTERACTION_COMMAND

pytest_plugins = ["tests.support.fixtures"]


async def test_an_interaction_resolves_its_guild_channel_and_member(interactions):
    h = interactions
    mod = h.member("mod")
    data = h.world._command_data(mod, h.channel, "table show", {}, focused=None)
    _, payload = h.world._interaction_payload(INTERACTION_COMMAND, mod, h.channel, data)
    interaction = discord.Interaction(data=payload, state=h.bot._connection)
    assert interaction.guild is h.bot.get_guild(h.world.guild.id) and interaction.guild is not None
    assert (
        interaction.channel is h.bot.get_channel(h.channel.id) and interaction.channel is not None
    )
    assert isinstance(interaction.user, discord.Member) and interaction.user.display_name == "mod"
    assert (
        interaction.user.guild_permissions.manage_channels
        and interaction.permissions.manage_channels
    )
    assert interaction.client is h.bot


async def test_a_hidden_card_in_a_public_message_is_caught(interactions):
    h = interactions
    await start_four(h)
    deal = h.table().match.deal
    held = deal.hands[0][0]
    channel = h.bot.get_channel(h.channel.id)
    checked = h.public_checked
    await channel.send(f"the turn-up {card_label(deal.turn_up)} is public")
    await channel.send("Cut: alice " + card_label(held))  # the cut's own pack: not a deal card
    assert h.leaks == [] and h.public_checked == checked + 2
    await channel.send(f"psst: {card_label(held)}")
    await channel.send(f"psst: {card_name(deal.kitty[0])}")
    assert len(h.leaks) == 2
    h.leaks.clear()


async def test_a_change_inside_unchanged_is_caught(interactions):
    h = interactions
    await h.command("alice", "table create")
    with pytest.raises(AssertionError, match="changed a table"):
        async with h.unchanged():
            await h.command("bob", "table join")


async def test_what_discords_client_would_not_send_is_refused(interactions):
    h = interactions
    await start_four(h, preset="somerset")
    member, seat = to_act(h)
    hand = (await h.command(member, "hand")).reply
    card_button = next(b["custom_id"] for b in hand.buttons if b.get("disabled"))
    with pytest.raises(ValueError, match="disabled"):
        await h.click(member, card_button, message=hand.id)
    with pytest.raises(PermissionError):
        await h.click(h.member_at(seat ^ 1), action_ids(hand)["pass"], message=hand.id)
    with pytest.raises(LookupError):
        await h.command("alice", "table explode")


async def test_a_second_answer_to_one_interaction_is_refused_as_discord_refuses_it(interactions):
    h = interactions
    exchange = await h.command("alice", "table create")
    interaction = discord.Interaction(data=exchange.payload, state=h.bot._connection)
    token = async_context.set(h._adapter)
    try:
        with pytest.raises(discord.HTTPException, match="already been acknowledged"):
            await interaction.response.send_message("again")
    finally:
        async_context.reset(token)
    assert h.errors and "40060" in h.errors[0]
    h.errors.clear()


async def test_every_call_is_recorded_with_what_the_member_sees(interactions):
    h = interactions
    exchange = await h.command("alice", "table create")
    callback, post = h.calls[-2], h.calls[-1]
    assert callback.route == f"POST /interactions/{exchange.id}/{exchange.token}/callback"
    assert callback.interaction_id == exchange.id and callback.body["type"] == 4
    assert callback.ephemeral and "Your table is open" in callback.content
    assert post.route == f"POST /channels/{h.channel.id}/messages" and not post.ephemeral
    assert post.embeds[0]["title"] == "Euchre table" and post.components
    assert h.last_reply("alice") is exchange.reply and h.replies_to("alice") == [exchange.reply]
    assert h.last_reply("bob") is None
