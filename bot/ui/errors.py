"""Answering a refused or failed request, for commands and buttons alike.

Domain errors (the engine's, the table's, the storage's) carry a message written for the
member: it is answered ephemerally as it is, and nothing changed. Anything else is a bug: it is
logged with the table and answered with a short apology.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as OptionType

from bot.engine.errors import EuchreError
from bot.engine.quoting import QuotesNames, clip
from bot.numbers import parse_whole
from bot.storage.errors import StorageError
from bot.tables.table import NotAtThisTable
from bot.ui.embeds import safe

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on our side. Nothing was changed; please try again."
# Discord's codes for a request the bot's permissions in the channel do not allow.
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013
# What a member is told when the bot may no longer post in a table's channel: what they did
# went through (it is stored before the channel is shown it), so "Nothing was changed" is false.
CANNOT_POST = (
    "The bot may not post in this channel any more, so the table here could not be brought up"
    " to date: it needs **View Channel**, **Send Messages** and **Embed Links**. Ask a"
    " moderator to grant them."
)
# Discord's code for a channel that does not exist: deleted while a request was under way.
UNKNOWN_CHANNEL = 10003
# What a member is told then: what they did went through, but no table there can go on.
CHANNEL_DELETED = (
    "This channel was deleted while the bot answered, so the table here is closed. Open a new"
    " one with /table create in another channel."
)
# What a member is told who used a command Discord still shows but the bot no longer has.
STALE_COMMAND = (
    "The bot has no such command now: Discord may show a command it had before for a while."
    " /help lists the commands it has."
)
# Discord refuses a message of more content than this, and the member then sees "The
# application did not respond" instead of the reason.
CONTENT_LIMIT = 2000


class BadOption(app_commands.AppCommandError):
    """An option's value is not of the kind the command declares (`option_refusal`)."""


# The options whose value is the id of what was picked (resolved by Discord alongside).
_PICKED = {
    OptionType.user: "a member",
    OptionType.channel: "a channel",
    OptionType.role: "a role",
    OptionType.mentionable: "a member or a role",
    OptionType.attachment: "a file",
}


def option_refusal(interaction: discord.Interaction) -> str | None:
    """Why a slash command's options are not what the command declares, or None.

    Discord's client sends each option as its type (a whole number, true or false, a text, the
    id of a member picked) and one of its choices, but a request made another way need not:
    discord.py hands the value on as sent, so a text for a number failed in the command (an
    apology, and an error logged), 1.5 was stored as a number of rounds, "no" was true, and an
    id that is no number failed inside discord.py, unanswered. Every command is checked here,
    before it runs. An autocomplete is not: Discord sends what is typed so far as it is, and
    no member or channel picked with it. A value outside an option's choices or range is each
    command's to refuse, in its words.
    """
    if interaction.type is not discord.InteractionType.application_command:
        return None
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    options: Any = data.get("options") or []
    while options and isinstance(options[0], dict) and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []  # a subcommand, or a group's
    params = {p.display_name: p for p in command.parameters}
    resolved = data.get("resolved")
    # What was picked comes with the command, by id (a member, a channel, a role, a file).
    picked = (
        {key for found in resolved.values() if isinstance(found, dict) for key in found}
        if isinstance(resolved, dict)
        else set()
    )
    for option in options:
        if not isinstance(option, dict) or option.get("focused"):
            continue
        param = params.get(option.get("name"))  # type: ignore[arg-type]
        if param is None or "value" not in option:
            continue
        why = _value_refusal(param, option["value"], picked)
        if why is not None:
            return f"Option '{param.display_name}' {why}"
    return None


def _value_refusal(param: app_commands.Parameter, value: Any, picked: set[str]) -> str | None:
    kind = param.type
    if kind is OptionType.string:
        if not isinstance(value, str):
            return "takes a text"
    elif kind is OptionType.integer:
        if not isinstance(value, int) or isinstance(value, bool):
            return "takes a whole number"
    elif kind is OptionType.number:
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
        ):
            return "takes a number"
    elif kind is OptionType.boolean:
        if not isinstance(value, bool):
            return "is true or false"
    elif kind in _PICKED:
        if not isinstance(value, str) or parse_whole(value) is None or value not in picked:
            return f"takes {_PICKED[kind]} picked from the list"
    return None


def fit_content(text: str) -> str:
    """`text` cut to what a message's content may hold, whatever was quoted into it."""
    return clip(text, CONTENT_LIMIT)


def reason_of(error: BaseException) -> str | None:
    """The member-readable reason of a refusal, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(error, BadOption):
        return str(error)
    if isinstance(error, EuchreError | StorageError):
        # Names members chose are escaped, so none formats the answer it is quoted in.
        text = error.worded(safe) if isinstance(error, QuotesNames) else str(error)
        return text[:1].upper() + text[1:] if text else "That is not allowed now."
    if isinstance(error, app_commands.CheckFailure):
        return "You are not allowed to use that command here."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        # Discord still offers a command the bot dropped or changed (a client's list of an
        # older sync, a server's copy left by `/admin sync here`): nothing of the bot's failed.
        return STALE_COMMAND
    if isinstance(error, app_commands.TransformerError) and isinstance(error.value, discord.User):
        # A member option naming someone who left the server: Discord sends a user, and
        # discord.py refuses it for a command that wants a member. A refusal, not a bug.
        return QuotesNames(
            "{} is not a member of this server (any more), so the command cannot name them",
            error.value.display_name,
        ).worded(safe)
    if _refused_here(error):
        return CANNOT_POST
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
        return CHANNEL_DELETED
    return None


def _tables_elsewhere(interaction: discord.Interaction, error: BaseException) -> str | None:
    """For a member refused for having no place at this channel's table: the other tables of
    the server where they have one (they typed in the wrong channel), else None."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if not isinstance(error, NotAtThisTable) or interaction.guild_id is None:
        return None
    manager = getattr(interaction.client, "manager", None)
    if manager is None:
        return None
    user_id = interaction.user.id
    playing, held = [], []
    for table in list(manager.tables.values()):
        if table.guild_id != interaction.guild_id or table.channel_id == interaction.channel_id:
            continue
        if table.held_seat_of(user_id) is not None:
            held.append(f"<#{table.channel_id}>")
        elif table.seat_of(user_id) is not None or table.is_waiting(user_id):
            playing.append(f"<#{table.channel_id}>")
    said = []
    if held:
        said.append(
            f"A computer holds your seat at the table in {', '.join(held[:3])}: use"
            " /table back there."
        )
    if playing:
        said.append(f"You are at the table in {', '.join(playing[:3])}: use it there.")
    return " ".join(said) or None


def _refused_here(error: BaseException) -> bool:
    """Whether Discord refused the bot's request for want of a permission in the channel."""
    return isinstance(error, discord.Forbidden) and error.code in (
        MISSING_ACCESS,
        MISSING_PERMISSIONS,
    )


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed command or click ephemerally."""
    reason = reason_of(error)
    if reason == CANNOT_POST:
        log.warning("channel %s: the bot may not post there: %s", interaction.channel_id, error)
    if reason == CHANNEL_DELETED:
        log.warning("channel %s was deleted under a request: %s", interaction.channel_id, error)
    if reason == STALE_COMMAND:
        log.warning("a command the bot does not have now was used: %s", error)
    if reason is None:
        try:
            table = interaction.client.manager  # type: ignore[attr-defined]
        except (AttributeError, RuntimeError):  # not the bot, or not set up yet
            table = None
        table_id = None
        if table is not None and interaction.channel_id in table.tables:
            table_id = table.tables[interaction.channel_id].id
        log.error(
            "command failed in channel %s (table %s)",
            interaction.channel_id,
            table_id,
            exc_info=error,
        )
        reason = APOLOGY
    elsewhere = _tables_elsewhere(interaction, error)
    if elsewhere:
        reason = f"{reason.rstrip('.')}. {elsewhere}"
    reason = fit_content(reason)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(reason, ephemeral=True)
        else:
            await interaction.response.send_message(reason, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s with its error", interaction.id)
