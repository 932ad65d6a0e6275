"""How cards, suits and declarations look in Discord: glyphs, button labels and words."""

from __future__ import annotations

import discord

from bot.engine.cards import JOKER, SUIT_NAMES, SUIT_SYMBOLS, card_label, card_name
from bot.engine.deal import (
    ALONE,
    CALL,
    DEFEND,
    ORDER,
    ORDER_ALONE,
    PASS,
    round_one_word,
)

RED = ("H", "D")


def card_text(card: str) -> str:
    """`J♥`, `10♦`, `🃏`: the short form used in messages."""
    return card_label(card)


def cards_text(cards: list[str] | tuple[str, ...]) -> str:
    return "  ".join(card_label(c) for c in cards) or "—"


def suit_text(suit: str | None) -> str:
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" if suit else "—"


def card_style(card: str) -> discord.ButtonStyle:
    """Red suits on red buttons, black suits on grey ones, so a hand reads at a glance."""
    if card == JOKER:
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.danger if card[1] in RED else discord.ButtonStyle.secondary


def action_label(action: str, seat: int, dealer: int) -> str:
    """Words for a declaration button, by seat: 'Order up', 'Assist', 'Take up', 'Hearts alone'."""
    if action == PASS:
        return "Pass"
    if action in (ORDER, ORDER_ALONE):
        word = round_one_word(seat, dealer).capitalize()
        return f"{word} alone" if action == ORDER_ALONE else word
    if action == ALONE:
        return "Take it alone"
    if action == DEFEND:
        return "Defend alone"
    if action.startswith(CALL):
        parts = action.split(":")
        suit = parts[1]
        text = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit].capitalize()}"
        return f"{text} alone" if len(parts) == 3 else text
    return card_label(action)


def said_text(action: str, seat: int, dealer: int) -> str:
    """A declaration as the table hears it: 'ordered it up', 'passed', 'made it hearts alone'."""
    if action == PASS:
        return "passed"
    if action == "discard":
        return "discarded"
    if action in (ORDER, ORDER_ALONE):
        word = {"order up": "ordered it up", "assist": "assisted", "take up": "took it up"}[
            round_one_word(seat, dealer)
        ]
        return f"{word} alone" if action == ORDER_ALONE else word
    if action == ALONE:
        return "took it alone"
    if action == DEFEND:
        return "defends alone"
    if action.startswith(CALL):
        parts = action.split(":")
        text = f"made it {SUIT_NAMES[parts[1]]}"
        return f"{text} alone" if len(parts) == 3 else text
    return f"discarded {card_name(action)}"
