"""League roles as Discord shows them: a role's facts for `bot.leagues.roles`, the answers of
/league roles, the organiser's one warning and the audit log's reasons."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.leagues.roles import RankRole, RoleFacts
from bot.storage.leagues import League
from bot.ui.embeds import plural, safe


def role_facts(role: discord.Role, me: discord.Member) -> RoleFacts:
    """What `bot.leagues.roles.why_not_manageable` needs to know of `role`, for the bot `me`."""
    return RoleFacts(
        name=role.mention,
        everyone=role.is_default(),
        managed=role.managed,
        below_bot=role < me.top_role,
    )


def mention(role_id: int) -> str:
    """A role as Discord shows it (its name, coloured; mentions are never allowed to ping)."""
    return f"<@&{role_id}>"


def added_text(league: League, role: RankRole) -> str:
    """The answer to the organiser who gave the league a role."""
    places = "the leader" if role.top == 1 else f"the top {role.top}"
    return (
        f"{mention(role.role_id)} now goes to {places} of **{safe(league.name)}** in its current"
        f" standings (ties included). The bot gives it and takes it back after every result."
    )


def removed_text(league: League, role_id: int, held: int) -> str:
    """The answer to the organiser who took a role from the league."""
    kept = f" The {plural(held, 'member')} the bot gave it keep it." if held else ""
    return f"**{safe(league.name)}** no longer gives {mention(role_id)}.{kept}"


def roles_text(league: League, roles: Sequence[RankRole], warning: str | None = None) -> str:
    """The league's roles, the narrowest first, and why the bot cannot keep them when it
    cannot (`warning`: what the organiser who added them was told, once)."""
    if not roles:
        return (
            f"**{safe(league.name)}** gives no roles. An organiser adds one with"
            f" `/league roles add`."
        )
    lines = [f"Roles of **{safe(league.name)}**, by its current standings:"]
    lines += [f"- {mention(r.role_id)}: the top {r.top}" for r in roles]
    if warning is not None:
        lines.append(
            f"They are not kept up to date at the moment: {warning}. The bot tries again after"
            f" each result."
        )
    return "\n".join(lines)


def warning_text(league: League, organiser_id: int, problem: str) -> str:
    """The one message that tells the organiser the league's roles cannot be kept."""
    return (
        f"<@{organiser_id}> The roles of the league **{safe(league.name)}** cannot be kept up"
        f" to date: {problem}. Its results are not affected. The bot tries again after each"
        f" result, and will not say this again until the roles are back in order."
    )


def reason(league: League, role: RankRole, add: bool) -> str:
    """The audit log's reason for giving or taking a league role (Discord: 512 characters)."""
    where = "in" if add else "no longer in"
    return f"League {league.name}: {where} the top {role.top} of the standings"[:512]
