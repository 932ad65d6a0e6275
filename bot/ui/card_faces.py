"""Card faces as small pictures: the images the bot uploads as its application emojis.

A face is a 128x128 PNG (the size Discord shows emojis at its largest) with the rank and the
suit drawn large, since a hand's buttons show them at about 20 pixels: red for hearts and
diamonds, black for spades and clubs, and the Joker as a gold star on purple, unlike any other.

The suits are drawn as shapes rather than font glyphs, so every machine draws the same face
whatever fonts it has; the ranks use the font Pillow carries with it. Everything is drawn four
times larger and scaled down, which smooths the edges.

Pillow is imported here at the top: a bot without it (or with a Pillow built without FreeType)
fails to import this module, and shows its cards as text (see `bot.ui.emojis`).
"""

from __future__ import annotations

import io
import math
from functools import cache

from PIL import Image, ImageDraw, ImageFont, features

from bot.engine.cards import JOKER, rank_of, suit_of

if not features.check("freetype2"):
    # Without FreeType, Pillow's own font comes in one tiny size: the ranks could not be read.
    raise ImportError("Pillow was built without FreeType: card faces cannot be drawn")

SIZE = 128
#: Discord refuses an emoji image larger than this.
MAX_BYTES = 256 * 1024

_SCALE = 4
_RED = (200, 16, 46, 255)
_BLACK = (17, 17, 17, 255)
_CARD = (255, 255, 255, 255)
_EDGE = (120, 120, 120, 255)
_JOKER_CARD = (75, 29, 107, 255)
_GOLD = (246, 196, 45, 255)
_RED_SUITS = ("H", "D")


def _px(value: float) -> int:
    """A length on the 128-pixel face, on the larger canvas it is drawn on."""
    return round(value * _SCALE)


@cache
def _font(size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=_px(size))  # type: ignore[return-value]


def _card_body(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    draw.rounded_rectangle(
        (_px(8), _px(2), _px(120), _px(126)),
        radius=_px(12),
        fill=fill,
        outline=_EDGE,
        width=_px(2.5),
    )


def _centred_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    centre_y: float,
    size: float,
    colour: tuple[int, int, int, int],
) -> None:
    font = _font(size)
    # A stroke of the text's own colour thickens the strokes, as a bold face would.
    draw.text(
        (_px(64), _px(centre_y)),
        text,
        font=font,
        fill=colour,
        anchor="mm",
        stroke_width=_px(1.5),
        stroke_fill=colour,
    )


def _circle(
    draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: tuple[int, int, int, int]
) -> None:
    draw.ellipse((_px(x - r), _px(y - r), _px(x + r), _px(y + r)), fill=fill)


def _polygon(
    draw: ImageDraw.ImageDraw,
    points: list[tuple[float, float]],
    fill: tuple[int, int, int, int],
) -> None:
    draw.polygon([(_px(x), _px(y)) for x, y in points], fill=fill)


def _suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float) -> None:
    """The suit's symbol, `s` pixels wide, centred on (cx, cy)."""
    colour = _RED if suit in _RED_SUITS else _BLACK
    if suit == "D":
        _polygon(
            draw,
            [(cx, cy - 0.6 * s), (cx + 0.42 * s, cy), (cx, cy + 0.6 * s), (cx - 0.42 * s, cy)],
            colour,
        )
    elif suit == "H":
        r = 0.26 * s
        _circle(draw, cx - 0.23 * s, cy - 0.2 * s, r, colour)
        _circle(draw, cx + 0.23 * s, cy - 0.2 * s, r, colour)
        _polygon(
            draw,
            [(cx - 0.48 * s, cy - 0.12 * s), (cx + 0.48 * s, cy - 0.12 * s), (cx, cy + 0.5 * s)],
            colour,
        )
    elif suit == "S":
        r = 0.25 * s
        _circle(draw, cx - 0.22 * s, cy + 0.08 * s, r, colour)
        _circle(draw, cx + 0.22 * s, cy + 0.08 * s, r, colour)
        _polygon(
            draw,
            [(cx - 0.465 * s, cy + 0.0 * s), (cx + 0.465 * s, cy + 0.0 * s), (cx, cy - 0.55 * s)],
            colour,
        )
        _stem(draw, cx, cy, s, colour)
    else:  # clubs
        r = 0.21 * s
        _circle(draw, cx, cy - 0.3 * s, r, colour)
        _circle(draw, cx - 0.25 * s, cy + 0.06 * s, r, colour)
        _circle(draw, cx + 0.25 * s, cy + 0.06 * s, r, colour)
        _circle(draw, cx, cy - 0.02 * s, 0.14 * s, colour)
        _stem(draw, cx, cy, s, colour)


def _stem(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: tuple[int, int, int, int]
) -> None:
    _polygon(
        draw,
        [(cx, cy + 0.05 * s), (cx - 0.17 * s, cy + 0.55 * s), (cx + 0.17 * s, cy + 0.55 * s)],
        colour,
    )


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, outer: float, inner: float) -> None:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    _polygon(draw, points, _GOLD)


def face_image(card: str) -> Image.Image:
    """The face of a card (`"JH"`, `"TD"`, `"BJ"`) as a 128x128 RGBA image."""
    canvas = Image.new("RGBA", (_px(SIZE), _px(SIZE)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    if card == JOKER:
        _card_body(draw, _JOKER_CARD)
        _star(draw, 64, 58, 44, 18)
        _centred_text(draw, "JOKER", 108, 22, _GOLD)
    else:
        suit = suit_of(card)
        assert suit is not None
        _card_body(draw, _CARD)
        rank = "10" if rank_of(card) == "T" else rank_of(card)
        colour = _RED if suit in _RED_SUITS else _BLACK
        _centred_text(draw, rank, 35, 60, colour)
        _suit(draw, suit, 64, 93, 50)
    return canvas.reduce(_SCALE)


@cache
def face_png(card: str) -> bytes:
    """The face of a card as PNG bytes, ready to upload (drawn once per process)."""
    out = io.BytesIO()
    face_image(card).save(out, format="PNG")
    return out.getvalue()


def same_picture(png: bytes, other: bytes) -> bool:
    """Whether two images show the same pixels, however each was encoded.

    Discord may store or serve an uploaded image encoded differently from the bytes sent, so
    an emoji is compared with its face by what it shows, not byte for byte.
    """
    if png == other:
        return True
    try:
        first = Image.open(io.BytesIO(png)).convert("RGBA")
        second = Image.open(io.BytesIO(other)).convert("RGBA")
    except (OSError, ValueError):
        return False
    return first.size == second.size and first.tobytes() == second.tobytes()
