"""/settings: a member's own choices, for every table they play at."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables.manager import DEFAULT_PING_AFTER
from bot.tables.table import TableError
from bot.ui.respond import answer

When = Literal["every turn", "after a wait", "never"]
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
