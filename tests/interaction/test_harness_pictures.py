"""The harness's leak check sees cards shown as pictures: a hidden card as an emoji in text
(`<:10D:id>`) or on a button is caught as surely as `10♦`."""

from __future__ import annotations

import discord

from bot.ui.emojis import emoji_name
from tests.bot.helpers import cards_shown
from tests.interaction.helpers import start_four

pytest_plugins = ["tests.support.fixtures"]


def test_cards_shown_reads_card_emojis():
    assert cards_shown("played <:10D:123> on <:JH:456>, <:BJ:7>") == {"TD", "JH", "BJ"}
    assert cards_shown("<:thumbsup:1> <:TD:2>") == set()  # not card names players read


async def test_a_hidden_card_shown_as_a_picture_in_public_is_caught(interactions):
    h = interactions
    await start_four(h)
    deal = h.table().match.deal
    held, other = deal.hands[0][0], deal.hands[1][0]
    channel = h.bot.get_channel(h.channel.id)
    await channel.send(f"the turn-up <:{emoji_name(deal.turn_up)}:1> is public")
    assert h.leaks == []
    await channel.send(f"psst: <:{emoji_name(held)}:2>")
    view = discord.ui.View()
    picture = discord.PartialEmoji(name=emoji_name(other), id=3)
    view.add_item(discord.ui.Button(emoji=picture, custom_id="psst"))
    await channel.send("nothing to see", view=view)
    assert len(h.leaks) == 2
    h.leaks.clear()
