"""How cards, suits and declarations look in Discord: pictures or glyphs, button labels and words.

Every renderer shows a card through `card_text` (in messages) or `card_button` (on a button), so
whether cards are pictures (the bot's card emojis, `bot.ui.emojis`) or text is decided here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.actions import (
    ALONE,
    DEFEND,
    HIDDEN_DISCARD,
    ORDER,
    ORDER_ALONE,
    PASS,
    is_alone,
    makes_trump,
    suit_called,
)
from bot.engine.cards import JOKER, SUIT_NAMES, SUIT_SYMBOLS, card_label, card_name
from bot.engine.deal import DEFEND_ALONE, JOKER_SUIT, PARTNER_ALONE, round_one_word
from bot.ui.emojis import emoji_of

if TYPE_CHECKING:
    from bot.engine.deal import Deal, DealView

RED = ("H", "D")


def card_text(card: str) -> str:
    """A card in a message: its emoji (`<:JH:id>`) while cards are pictures, else `J♥`, `10♦`, `🃏`."""
    emoji = emoji_of(card)
    return str(emoji) if emoji is not None else card_label(card)


def cards_text(cards: list[str] | tuple[str, ...]) -> str:
    """Several cards in a message, as `card_text` shows each; a dash for none."""
    return "  ".join(card_text(c) for c in cards) or "—"


def card_button(
    card: str, verb: str | None = None
) -> tuple[str | None, discord.PartialEmoji | None]:
    """A card button's label and emoji: the picture alone while cards are pictures, else `J♥`.

    Args:
        card: the card's code.
        verb: a word the button must say, such as "Discard", shown before the card.
    """
    emoji = emoji_of(card)
    if emoji is not None:
        return verb, emoji
    label = card_label(card)
    return (f"{verb} {label}" if verb else label), None


def suit_text(suit: str | None) -> str:
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" if suit else "—"


def card_style(card: str) -> discord.ButtonStyle:
    """Red suits on red buttons, black suits on grey ones, so a hand reads at a glance."""
    if card == JOKER:
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.danger if card[1] in RED else discord.ButtonStyle.secondary


def action_label(
    action: str, seat: int, dealer: int, phase: str | None = None, lone_maker: bool = False
) -> str:
    """Words for a declaration button, by seat: 'Order up', 'Assist', 'Take up', 'Hearts alone'.

    A pass reads by the deal's `phase`: the maker's partner chooses "Alone / Play with
    partner" (RULES §4), or, when the maker is alone (`lone_maker`), "Alone / Let partner play
    alone": his pass then sits him out, it is no playing with partner. An adversary who does
    not defend alone says so; elsewhere "Pass".
    """
    if action == PASS:
        if phase == PARTNER_ALONE and lone_maker:
            return "Let partner play alone"
        return _PASS_LABELS.get(phase or "", "Pass")
    if action in (ORDER, ORDER_ALONE):
        word = round_one_word(seat, dealer).capitalize()
        return f"{word} alone" if action == ORDER_ALONE else word
    if action == ALONE:
        return "Take it alone"
    if action == DEFEND:
        return "Defend alone"
    suit = suit_called(action)
    if suit is not None:
        text = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit].capitalize()}"
        return f"{text} alone" if is_alone(action) else text
    return card_label(action)


def made_alone(deal: DealView | Deal) -> bool:
    """Whether the maker declared alone: what the maker's partner answers (RULES §4). Read
    from the declarations, since the partner who takes it from him is the lone hand after."""
    said = deal.declarations[1:] if deal.turn_up == JOKER else deal.declarations  # the naming
    making = next((a for _, a in said if makes_trump(a)), "")
    return is_alone(making)


_PASS_LABELS = {PARTNER_ALONE: "Play with partner", DEFEND_ALONE: "Do not defend alone"}
_PASS_SAID = {PARTNER_ALONE: "plays with partner", DEFEND_ALONE: "does not defend alone"}


def said_text(
    action: str, seat: int, dealer: int, phase: str | None = None, lone_maker: str | None = None
) -> str:
    """A declaration as the table hears it: 'ordered it up', 'passed', 'made it hearts alone'.

    `phase` is the part of the deal it was said in: the suit the dealer names for a turned-up
    Joker makes no trump, it is what the Joker stands for (RULES §6), and a pass after trump
    is made is the partner's "play with partner" (or, to a maker alone, named `lone_maker`,
    letting him play alone) or an adversary's not defending alone.
    """
    if action == PASS:
        if phase == PARTNER_ALONE and lone_maker is not None:
            return f"lets {lone_maker} play alone"
        return _PASS_SAID.get(phase or "", "passed")
    if action == HIDDEN_DISCARD:
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
    suit = suit_called(action)
    if suit is not None:
        if phase == JOKER_SUIT:
            return f"named {SUIT_NAMES[suit]} for the Joker"
        text = f"made it {SUIT_NAMES[suit]}"
        return f"{text} alone" if is_alone(action) else text
    return f"discarded {card_name(action)}"
