"""The card faces the bot uploads as its emojis: one distinct, valid, small picture per card."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine.cards import JOKER
from bot.ui.card_faces import MAX_BYTES, SIZE, face_png, same_picture
from bot.ui.emojis import CARDS

RED = {"H", "D"}


def decoded(card: str) -> Image.Image:
    image = Image.open(io.BytesIO(face_png(card)))
    image.load()
    return image


def test_every_card_the_bot_can_show_has_a_face():
    # The 32-card pack, the sixes of seven-handed Napoleon, and the Joker.
    assert len(CARDS) == 37
    assert {"AS", "7H", "6D", "TC", JOKER} <= set(CARDS)


def test_every_face_is_a_128_pixel_png_under_discords_size_limit():
    for card in CARDS:
        data = face_png(card)
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), card
        assert len(data) <= MAX_BYTES, (card, len(data))
        image = decoded(card)
        assert image.format == "PNG" and image.size == (SIZE, SIZE), card


def test_every_card_has_a_distinct_face():
    pixels = {decoded(card).convert("RGBA").tobytes(): card for card in CARDS}
    assert len(pixels) == len(CARDS)


def _ink(card: str) -> tuple[int, int, int]:
    """How many of the face's opaque pixels are red, near black, and purple."""
    data = decoded(card).convert("RGBA").tobytes()
    red = dark = purple = 0
    for i in range(0, len(data), 4):
        r, g, b, a = data[i : i + 4]
        if a < 250:
            continue  # the rounded corners are transparent
        if r > 150 and g < 80 and b < 100:
            red += 1
        elif r < 60 and g < 60 and b < 60:
            dark += 1
        elif b > 90 and r < 110 and g < 60:
            purple += 1
    return red, dark, purple


def test_hearts_and_diamonds_are_red_spades_and_clubs_black():
    for card in CARDS:
        if card == JOKER:
            continue
        red, dark, _ = _ink(card)
        if card[1] in RED:
            assert red > 800 and dark < 50, (card, red, dark)
        else:
            assert dark > 800 and red < 50, (card, red, dark)


def test_the_joker_looks_like_no_other_card():
    # Purple where every other face is white: it stands out even at emoji size.
    _, _, purple = _ink(JOKER)
    assert purple > 4000
    for card in ("AS", "JH"):
        assert _ink(card)[2] < 100


def test_same_picture_compares_pixels_not_bytes():
    face = face_png("JH")
    again = io.BytesIO()
    # The same pixels in another encoding (as Discord may serve an emoji) are the same picture.
    Image.open(io.BytesIO(face)).save(again, format="PNG", compress_level=1)
    assert again.getvalue() != face
    assert same_picture(face, again.getvalue())
    assert not same_picture(face, face_png("JD"))
    assert not same_picture(face, b"not an image")
