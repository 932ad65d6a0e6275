"""/settings: a member's own choices, for every table they play at: when he is pinged, and
how his own messages show cards."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables.manager import DEFAULT_PING_AFTER
from bot.tables.table import TableError
from bot.ui.card_looks import LOOKS, TEXT
from bot.ui.emojis import emoji_of
from bot.ui.respond import answer

When = Literal["every turn", "after a wait", "never"]
Look = Literal["pictures", "text"]
JACK = "JH"  # any card: whether the bot has its card pictures now
log = logging.getLogger(__name__)
_MODES = {"every turn": "every", "after a wait": "after", "never": "never"}

if TYPE_CHECKING:
    from bot.client import EuchreBot


class Settings(commands.Cog):
    """Members' own settings."""

    settings = app_commands.Group(name="settings", description="Your own settings at every table")

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @settings.command(name="ping")
    @app_commands.describe(
        when="when the bot mentions you on your turn (your choice wins over the table's)",
        seconds=(
            "with 'after a wait': how long you may think first (5-3600; default: the table's wait)"
        ),
    )
    async def ping(
        self,
        interaction: discord.Interaction,
        when: When,
        seconds: app_commands.Range[int, 5, 3600] | None = None,
    ) -> None:
        """Choose when you are pinged on your turn: every turn, after a wait, or never."""
        if when not in _MODES:
            raise TableError("choose when to be pinged: every turn, after a wait, or never")
        if seconds is not None and when != "after a wait":
            raise TableError("seconds go with 'after a wait' only")
        await self.bot.manager.set_ping(interaction.user.id, _MODES[when], seconds)
        text = {
            "every turn": every_turn(),
            "after a wait": after_a_wait(seconds, self.bot.manager.turn_timeout),
            "never": "You will not be pinged on your turn.",
        }[when]
        await answer(interaction, text)

    @settings.command(name="cards")
    @app_commands.describe(look="pictures, or text (J♥, 10♦), which a screen reader reads well")
    async def cards(self, interaction: discord.Interaction, look: Look) -> None:
        """Choose how your hand, hints and reviews show cards: pictures or text."""
        if look not in LOOKS:
            raise TableError("choose how your cards look: pictures or text")
        try:
            await self.bot.card_looks.choose(
                self.bot.manager.writer.write, interaction.user.id, look
            )
        except Exception:
            log.exception("storing member %s's card look failed", interaction.user.id)
            raise TableError(
                "that could not be saved, so it did not change: please try again"
            ) from None
        self.bot.live_hands.restyle(interaction.user.id)
        await answer(interaction, cards_answer(look, pictures_ready=emoji_of(JACK) is not None))


def cards_answer(look: str, pictures_ready: bool) -> str:
    """What `/settings cards` did. The table's messages are everyone's, so they keep the one
    look; a member's choice reaches only what is his alone."""
    if look == TEXT:
        return (
            "Your hand, hints and reviews show cards as text from now on (J♥, 10♦, 🃏): an open"
            " hand changes at once. The table's messages show cards as they do for everyone."
        )
    if not pictures_ready:
        return (
            "Your hand, hints and reviews will show cards as pictures once the bot has its card"
            " pictures; until then every message shows cards as text."
        )
    return (
        "Your hand, hints and reviews show cards as pictures from now on: an open hand changes"
        " at once."
    )


# The table's wait, as the answers name it: a member's own seconds only go with 'after a wait'.
_TABLES_WAIT = f"the table's wait ({DEFAULT_PING_AFTER} seconds unless it sets one)"


def every_turn() -> str:
    """What 'every turn' will do. A turn the member's own move gives them (`_plays_on` in the
    manager) finds them at the table, so its ping waits as 'after a wait' does (`ping_delay`)."""
    return (
        "You will be pinged on every turn: at once, except on a turn your own move gives you"
        " (the dealer who takes it up discards, a trick's winner leads), pinged when you have"
        f" not played after {_TABLES_WAIT}, or halfway through your turn if that comes first."
    )


def after_a_wait(seconds: int | None, turn: float) -> str:
    """What 'after a wait' will do. The manager pings no later than halfway through the turn
    (`ping_delay`), so the ping comes before a computer plays for the member: a wait longer
    than that is said to be cut, with the turn a table has unless it sets its own (`turn`)."""
    if seconds:
        wait = f"{seconds} seconds"
    else:
        wait = _TABLES_WAIT
    said = (
        f"You will be pinged when you have not played after {wait}, or halfway through your "
        "turn if that comes first"
    )
    if (seconds or DEFAULT_PING_AFTER) > turn / 2:
        said += (
            f": a turn is {turn:g} seconds unless the table sets its own, so by default you are "
            f"pinged after {turn / 2:g} seconds"
        )
    return said + "."


async def setup(bot: EuchreBot) -> None:
    await bot.add_cog(Settings(bot))
