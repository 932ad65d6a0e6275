"""Leagues as Discord shows them: the answers and embeds of /league.

Every name here was typed by a member (the league's, its members'), so each is escaped with
`safe` before it goes into a message.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.engine.rules import options_from_dict
from bot.storage import leagues
from bot.storage.database import Database
from bot.storage.leagues import MEMBERS_PAGE, League, MemberPage
from bot.ui.embeds import GOLD, plural, safe

FORMAT_WORDS = {
    "ladder": "a ladder: members play whom they like and climb the standings",
    "fixtures": "fixtures: a set programme of matches",
    "progressive": "progressive: partners and opponents change every round",
}
STANDING_WORDS = {
    "rubber_points": "rubber points",
    "rubbers": "rubbers won",
    "games": "games won",
    "points": "points scored",
}


def rules_text(options: dict[str, Any]) -> str:
    """The league's rules in a line: the preset, the game, and every option changed from it."""
    rules = options_from_dict(options)
    kind = "rubbers (best of three)" if rules.is_rubber else "single games"
    line = f"**{rules.preset}** rules, {rules.pack} cards, {rules.points} points a game, {kind}"
    changed = {k: v for k, v in rules.changed().items() if k not in ("match", "points")}
    if changed:
        shown = ", ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in changed.items())
        line += f"; changed from the preset: {shown}"
    return line + "."


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def created_text(league: League) -> str:
    """The answer to the organiser who created a league."""
    return (
        f"The league **{safe(league.name)}** is open. Members join with `/league join`; tables "
        f"play for it with `/table create league:`."
    )


def joined_text(league: League) -> str:
    return (
        f"You joined the league **{safe(league.name)}**. Play for it at a table made with "
        f"`/table create league:`."
    )


def left_text(league: League) -> str:
    return f"You left the league **{safe(league.name)}**."


def info_embed(league: League, members: int) -> discord.Embed:
    """What a league is: its rules, format, standings, substitutes and members."""
    embed = discord.Embed(title=f"League: {safe(league.name)}", colour=GOLD)
    embed.description = rules_text(league.options)
    embed.add_field(name="Format", value=FORMAT_WORDS[league.format], inline=False)
    embed.add_field(name="Standings by", value=STANDING_WORDS[league.standing], inline=True)
    embed.add_field(
        name="Substitutes",
        value="allowed"
        if league.substitutes
        else "not allowed: a match a computer or a substitute played in does not count",
        inline=True,
    )
    embed.add_field(name="Members", value=plural(members, "member"), inline=True)
    embed.set_footer(text="/league join to play for it · /league match M12 says if a match counts")
    return embed


def members_embed(league: League, page: MemberPage) -> discord.Embed:
    """One page of a league's members, in the order they joined."""
    embed = discord.Embed(title=f"Members of {safe(league.name)}", colour=GOLD)
    start = (page.page - 1) * MEMBERS_PAGE
    lines = [f"{start + i}. {safe(name)}" for i, (_, name) in enumerate(page.members, start=1)]
    embed.description = "\n".join(lines) or "Nobody has joined yet: `/league join` to be first."
    embed.set_footer(text=f"Page {page.page} of {page.pages} · {plural(page.total, 'member')}")
    return embed


def match_text(match_id: int, league: League | None, reasons: list[str]) -> str:
    """Whether a match counts for its league, and if not, every reason."""
    if not reasons and league is not None:
        return f"M{match_id} counts for the league **{safe(league.name)}**."
    where = f" for the league **{safe(league.name)}**" if league is not None else ""
    lines = [f"M{match_id} does not count{where}:"]
    lines.extend(f"- {safe(reason)}" for reason in reasons)
    return "\n".join(lines)


async def league_choices(
    db: Database, guild_id: int | None, typed: str
) -> list[app_commands.Choice[str]]:
    """The server's leagues whose names contain what was typed, for a `name` or `league` option."""
    if guild_id is None:
        return []
    names = await leagues.league_names(db, guild_id, typed)
    return [app_commands.Choice(name=name, value=name) for name in names]
