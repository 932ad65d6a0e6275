"""Card emojis: names as players read them, and pictures only when the whole set is there."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
import pytest

import bot.ui
from bot.engine.cards import card_label, make_pack
from bot.ui import emojis
from bot.ui.cards import card_button, card_text, cards_text
from bot.ui.emojis import CARDS, CardEmojis, card_of_emoji, cards_as_text, emoji_name, emoji_of


@pytest.fixture
def pictures():
    """A whole set of card emojis shown, hidden again after the test."""
    full = {
        card: discord.PartialEmoji(name=emoji_name(card), id=1000 + i)
        for i, card in enumerate(CARDS)
    }
    emojis.show(full)
    yield full
    emojis.hide()


def test_emoji_names_are_the_codes_players_read_and_map_back():
    assert emoji_name("JH") == "JH"
    assert emoji_name("TD") == "10D"
    assert emoji_name("BJ") == "BJ"
    assert card_of_emoji("10D") == "TD"
    assert card_of_emoji("TD") is None  # players never see the engine's T
    assert card_of_emoji("thumbsup") is None
    for card in CARDS:
        name = emoji_name(card)
        assert card_of_emoji(name) == card
        # What Discord accepts as an emoji name.
        assert 2 <= len(name) <= 32 and name.replace("_", "").isalnum()
    assert len({emoji_name(card) for card in CARDS}) == len(CARDS)


def test_the_set_covers_every_pack_the_bot_deals():
    every = set(make_pack("6", joker=True)) | set(make_pack("7")) | set(make_pack("9", joker=True))
    assert every <= set(CARDS)


def test_cards_are_text_until_the_set_is_shown():
    assert emoji_of("JH") is None
    assert card_text("TD") == card_label("TD") == "10♦"
    assert cards_text(["JH", "BJ"]) == "J♥  🃏"
    assert card_button("JH") == ("J♥", None)
    assert card_button("JH", "Discard") == ("Discard J♥", None)


def test_cards_are_pictures_once_the_set_is_shown(pictures):
    ten = pictures["TD"]
    assert card_text("TD") == f"<:10D:{ten.id}>"
    assert cards_text(["TD", "JH"]) == f"<:10D:{ten.id}>  <:JH:{pictures['JH'].id}>"
    # A card button is the picture alone; a word the button must say stays as its label.
    assert card_button("TD") == (None, ten)
    assert card_button("TD", "Discard") == ("Discard", ten)


def test_an_incomplete_set_is_never_shown():
    partial = {"JH": discord.PartialEmoji(name="JH", id=1)}
    with pytest.raises(ValueError, match="no emoji for"):
        emojis.show(partial)
    assert emoji_of("JH") is None


def test_hide_goes_back_to_text(pictures):
    emojis.hide()
    assert card_text("JH") == "J♥"


async def test_without_pillow_cards_stay_text_with_one_warning(monkeypatch, caplog):
    # An import of PIL fails as it does where Pillow is not installed.
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.delitem(sys.modules, "bot.ui.card_faces", raising=False)
    monkeypatch.delattr(bot.ui, "card_faces", raising=False)
    client = discord.Client(intents=discord.Intents.none())  # never asked: nothing to upload
    with caplog.at_level(logging.WARNING, logger="bot.ui.emojis"):
        assert await CardEmojis(client).sync() is None
    warnings = [
        r for r in caplog.records if r.name == "bot.ui.emojis" and r.levelno >= logging.WARNING
    ]
    assert len(warnings) == 1 and "shown as text" in warnings[0].getMessage()
    assert card_text("JH") == "J♥"
    await client.close()


async def test_cards_as_text_is_text_inside_only_and_leaves_other_tasks_their_pictures(pictures):
    """A member's own message drawn as text leaves every other message drawn meanwhile (the
    table's, another member's hand, in other tasks) its pictures."""
    seen: list[object] = []
    inside = asyncio.Event()
    drawn = asyncio.Event()

    async def another_message() -> None:
        await inside.wait()
        seen.append(emoji_of("JH"))
        drawn.set()

    other = asyncio.create_task(another_message())
    with cards_as_text():
        assert emoji_of("JH") is None
        with cards_as_text(False):  # a member who chose pictures, drawn from a text one
            assert emoji_of("JH") == pictures["JH"]
        inside.set()
        await drawn.wait()
        assert emoji_of("AS") is None
    await other
    assert seen == [pictures["JH"]]
    assert emoji_of("JH") == pictures["JH"]
