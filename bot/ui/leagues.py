"""Leagues as Discord shows them: the answers and embeds of /league.

Every name here was typed by a member (the league's, its members'), so each is escaped with
`safe` before it goes into a message.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.engine.rules import options_from_dict
from bot.leagues.ratings import PlayerRating
from bot.storage import leagues
from bot.storage.database import Database
from bot.storage.league_ratings import HistoryEntry
from bot.storage.league_results import SIDE_NAMES, AuditPage, Corrected, Verdict
from bot.storage.league_seasons import LeagueSettings, RatingsPage, Season, StandingsPage
from bot.storage.leagues import MEMBERS_PAGE, League, MemberPage
from bot.storage.seasons import parse_timestamp
from bot.ui.embeds import GOLD, pack_text, plural, safe

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
# A standings row's count of its metric: one of it, or more.
STANDING_COUNTED = {
    "rubber_points": ("rubber point", "rubber points"),
    "rubbers": ("rubber won", "rubbers won"),
    "games": ("game won", "games won"),
    "points": ("point scored", "points scored"),
}


def rules_text(options: dict[str, Any]) -> str:
    """The league's rules in a line: the preset, the game, and every option changed from it."""
    rules = options_from_dict(options)
    kind = "rubbers (best of three)" if rules.is_rubber else "single games"
    line = (
        f"**{rules.preset}** rules, {pack_text(rules)}, {plural(rules.points, 'point')} a game,"
        f" {kind}"
    )
    # What the line says already (the game, the points, the Joker in the pack) is not repeated.
    said = ("match", "points", "joker")
    changed = {k: v for k, v in rules.changed().items() if k not in said}
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


def info_embed(league: League, members: int, season: Season | None = None) -> discord.Embed:
    """What a league is: its rules, format, standings, substitutes and members."""
    embed = discord.Embed(title=f"League: {safe(league.name)}", colour=GOLD)
    embed.description = rules_text(league.options)
    embed.add_field(name="Format", value=FORMAT_WORDS[league.format], inline=False)
    # As the standings themselves say: in a league of single games, a match's rubber points
    # and rubbers are its games won.
    single = not options_from_dict(league.options).is_rubber
    standing = "points" if league.standing == "points" else "games" if single else league.standing
    embed.add_field(name="Standings by", value=STANDING_WORDS[standing], inline=True)
    embed.add_field(
        name="Substitutes",
        value="allowed: a computer or a substitute may stand in for a member, but a side of"
        " computers alone does not count"
        if league.substitutes
        else "not allowed: a match a computer or a substitute played in does not count",
        inline=True,
    )
    embed.add_field(name="Members", value=plural(members, "member"), inline=True)
    embed.add_field(
        name="Season",
        value=f"{safe(season.name)}, running" if season else "none running",
        inline=True,
    )
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


def match_text(
    match_id: int, league: League | None, reasons: list[str], verdict: Verdict | None = None
) -> str:
    """Whether a match counts for its league, and if not, every reason: as the league found
    when the match ended, with any correction since (`verdict`), else as its rules say now (a
    match still being played)."""
    where = f" for the league **{safe(league.name)}**" if league is not None else ""
    if verdict is not None and league is not None:
        why = "".join(f": {safe(reason)}" for reason in verdict.reasons[:1])
        if verdict.counts and verdict.correction is None:
            return f"M{match_id} counts{where}."
        if verdict.correction == "award":
            side = SIDE_NAMES[verdict.winner or 0]
            # The audit keeps an award's reason as "to <side>: <reason>".
            why = why.replace(f": to {side}: ", ": ", 1)
            return f"M{match_id} counts{where}, awarded to {side} by an organiser{why}."
        if verdict.correction == "forfeit":
            loser = SIDE_NAMES[1 - (verdict.winner or 0)]
            return (
                f"M{match_id} counts{where} as a forfeit by {loser}, by the league's rule for"
                f" leavers{why}."
            )
        lines = [f"M{match_id} does not count{where}:"]
        if verdict.correction in ("void", "replay"):
            lines.append(f"- an organiser {CORRECTED_AS[verdict.correction]}{why}")
        elif verdict.correction == "no_contest":
            lines.append(f"- no contest{why}")
        else:
            lines.extend(f"- {safe(reason)}" for reason in verdict.reasons)
        return "\n".join(lines)
    if not reasons and league is not None:
        return f"M{match_id} counts{where}."
    lines = [f"M{match_id} does not count{where}:"]
    lines.extend(f"- {safe(reason)}" for reason in reasons)
    return "\n".join(lines)


CORRECTED_AS = {"void": "voided it", "replay": "marked it to be replayed"}


def computer_note(league: League, side: int, alone: bool) -> str:
    """What a computer seated at a league's table does to its match, told to the host as it
    sits (empty when the match can still count): a league without substitutes counts no
    match a computer plays in, and none counts a side of computers alone."""
    if not league.substitutes:
        return (
            f" The match will not count for the league **{safe(league.name)}**, which does not"
            " count a match a computer plays in."
        )
    if alone:
        return (
            f" The match will not count for the league **{safe(league.name)}** while"
            f" {SIDE_NAMES[side]} is computers alone: a league match is played between members."
        )
    return ""


async def league_choices(
    db: Database, guild_id: int | None, typed: str
) -> list[app_commands.Choice[str]]:
    """The server's leagues whose names contain what was typed, for a `name` or `league` option."""
    if guild_id is None:
        return []
    names = await leagues.league_names(db, guild_id, typed)
    return [app_commands.Choice(name=name, value=name) for name in names]


# -- seasons, standings, ratings, corrections -----------------------------------------------

PLACED_BY = {
    "rubber_points": "rubber points",
    "rubbers": "rubbers won",
    "games": "games won",
    "points": "points scored",
    "points_difference": "points difference",
    "head_to_head": "head-to-head",
    "tied": "tied",
}


# In a league of single games a match is one game: its rubber points are its games won and its
# rubbers its matches won, so all three read as games won.
SINGLE_GAME_WORDS = {"rubber_points": "games won", "rubbers": "games won"}


def placed_by(decided_by: str, single_games: bool = False) -> str:
    """What placed a standings row, in words: ``tied:rubbers`` (a tied group placed among the
    others by rubbers won) reads "rubbers won, tied"."""
    words = {**PLACED_BY, **SINGLE_GAME_WORDS} if single_games else PLACED_BY
    tied, _, group = decided_by.partition(":")
    if tied == "tied" and group:
        return f"{words[group]}, tied"
    return words[decided_by]


ACTION_WORDS = {
    "void": "voided",
    "replay": "to be replayed",
    "award": "awarded",
    "unvoid": "un-voided",
    "forfeit": "a forfeit",
    "no_contest": "no contest",
}


def season_title(season: Season | None) -> str:
    """A season as a title shows it; None is the matches played outside seasons."""
    if season is None:
        return "outside seasons"
    return f"{season.name}{'' if season.running else ' (ended)'}"


def season_started_text(league: League, season: Season, in_play: int = 0) -> str:
    """The answer to a season's start; `in_play`: the league's matches being played, which
    count for it when they end, though they began before it."""
    text = (
        f"**{safe(season.name)}** of **{safe(league.name)}** has started: its matches count for "
        f"its standings from now until `/league season end`."
    )
    if in_play == 1:
        text += " A league match being played now counts for it too, when it ends."
    elif in_play:
        text += f" {in_play} league matches being played now count for it too, when they end."
    return text


def season_ended_text(league: League, season: Season, in_play: int = 0, roles: bool = False) -> str:
    """The answer to a season's end; `in_play`: the league's matches still being played,
    which are not in the season's standings (each counts for the season running when it
    ends, outside seasons until one starts); `roles`: the league gives rank roles, which
    follow the default standings, outside seasons from now."""
    text = (
        f"**{safe(season.name)}** of **{safe(league.name)}** has ended. Its standings and ratings "
        f"are kept as they are now: `/league standings season:{season.number}`."
    )
    if in_play == 1:
        text += (
            " A league match still being played is not in them: it counts for the season"
            " running when it ends (outside seasons until one starts)."
        )
    elif in_play:
        text += (
            f" {in_play} league matches still being played are not in them: each counts for the"
            " season running when it ends (outside seasons until one starts)."
        )
    if roles:
        text += (
            " The league's roles follow the standings outside seasons from now until the next"
            " season starts, and go to the leaders of those."
        )
    return text


def standings_embed(league: League, page: StandingsPage) -> discord.Embed:
    """A page of a season's standings, each row with what placed it."""
    embed = discord.Embed(
        title=f"Standings of {safe(league.name)}: {safe(season_title(page.season))}", colour=GOLD
    )
    single = not options_from_dict(league.options).is_rubber
    lines = []
    for line in page.lines:
        t = line.totals
        placed = placed_by(line.decided_by, single)
        if single:
            # Rubber points, rubbers and games are one count here: said once.
            counts = plural(t.games, "game won", "games won")
            if league.standing == "points":
                counts = f"{plural(t.points, 'point scored', 'points scored')} · {counts}"
        else:
            counted = STANDING_COUNTED[league.standing]
            # Rubbers and games, but not again the one the standings rank by.
            others = [
                plural(count, word)
                for metric, count, word in (
                    ("rubbers", t.rubbers, "rubber"),
                    ("games", t.games, "game"),
                )
                if metric != league.standing
            ]
            counts = " · ".join([plural(getattr(t, league.standing), *counted), ", ".join(others)])
        lines.append(
            f"{line.rank}. {safe(line.name)}: {counts}, {_difference(t.points_difference)} · "
            f"{plural(t.played, 'match', 'matches')} · *{placed}*"
        )
    embed.description = "\n".join(lines) or "No match has counted yet."
    if single:
        metric = "points scored" if league.standing == "points" else "games won"
        then = (
            "games won, points difference" if league.standing == "points" else "points difference"
        )
    else:
        metric = STANDING_WORDS[league.standing]
        breaks = [
            w for key, w in (("rubbers", "rubbers"), ("games", "games")) if key != league.standing
        ]
        then = ", ".join([*breaks, "points difference"])
    embed.set_footer(
        text=f"Page {page.page} of {page.pages} · by {metric}, then {then} and head-to-head;"
        " in italics what placed each"
    )
    return embed


def _difference(points: int) -> str:
    """A points difference, signed: `+1 point`, `-3 points`, `+0 points`."""
    return f"{points:+d} {'point' if abs(points) == 1 else 'points'}"


def rating_line(rating: PlayerRating) -> str:
    """A rating as shown: the conservative μ − 3σ, with μ and σ."""
    return f"**{rating.conservative:.1f}** (μ {rating.mu:.2f}, σ {rating.sigma:.2f})"


def ratings_embed(league: League, page: RatingsPage) -> discord.Embed:
    """A page of the players the league lists, by conservative rating."""
    when = "now" if page.season is None else season_title(page.season)
    embed = discord.Embed(title=f"Ratings of {safe(league.name)}: {safe(when)}", colour=GOLD)
    lines = [
        f"{line.place}. {safe(line.name)}: {rating_line(line.rating)} · "
        f"{plural(line.rating.games, 'game')}"
        for line in page.lines
    ]
    settings = page.settings
    if page.season is not None and not page.season.running:
        # Listed by the settings of the day it ended, which may have changed since: today's
        # would misstate who it lists.
        embed.description = "\n".join(lines) or "Nobody was listed when the season ended."
        embed.set_footer(
            text=f"Page {page.page} of {page.pages} · μ − 3σ · the players listed as the season"
            " ended"
        )
        return embed
    embed.description = "\n".join(lines) or (
        f"Nobody is listed: a player is listed after {plural(settings.min_games, 'rated game')}"
        f" and hidden after {plural(settings.hide_after_days, 'day')} without one."
    )
    embed.set_footer(
        text=f"Page {page.page} of {page.pages} · μ − 3σ · listed after "
        f"{plural(settings.min_games, 'rated game')}, hidden after "
        f"{plural(settings.hide_after_days, 'day')} without one"
    )
    return embed


def rating_embed(
    league: League,
    name: str,
    rating: PlayerRating | None,
    history: list[HistoryEntry],
    settings: LeagueSettings,
    now: datetime | None = None,
) -> discord.Embed:
    """A member's rating in a league and how it moved over his latest games, and why the
    rating table does not list him when it does not."""
    embed = discord.Embed(title=f"{safe(name)} in {safe(league.name)}", colour=GOLD)
    if rating is None:
        embed.description = "No rated game yet."
        return embed
    embed.description = f"{rating_line(rating)} after {plural(rating.games, 'rated game')}."
    since = (now or datetime.now(UTC)) - timedelta(days=settings.hide_after_days)
    if rating.games < settings.min_games:
        embed.description += (
            f" Listed on `/league ratings` after {plural(settings.min_games, 'rated game')}."
        )
    elif rating.last_played is not None and rating.last_played < since:
        embed.description += (
            f" Hidden from `/league ratings`: no rated game in the last"
            f" {plural(settings.hide_after_days, 'day')}; the next one lists the rating again."
        )
    lines = [
        f"G{entry.game_id} {'won' if entry.won else 'lost'} → {rating_line(entry.rating)}"
        f" <t:{int(entry.rating.last_played.timestamp())}:d>"
        for entry in history
        if entry.rating.last_played is not None
    ]
    if lines:
        embed.description += "\n\n**Latest games, newest first**\n" + "\n".join(lines)
    return embed


def settings_text(
    league: League, settings: LeagueSettings, changed: bool, leaver_set: bool = False
) -> str:
    """A league's settings, after a change or when asked; `leaver_set`: the change named the
    rule for leavers, which each match takes as it ends, so one already counted keeps its."""
    leaver = {
        "forfeit": "a forfeit by that side",
        "no_contest": "no contest",
    }[settings.leaver]
    head = "Settings changed for" if changed else "Settings of"
    return (
        f"{head} **{safe(league.name)}**: a player is listed on the ratings after "
        f"{plural(settings.min_games, 'rated game')} and hidden after "
        f"{plural(settings.hide_after_days, 'day')} without one; a match a player left or timed"
        f" out of repeatedly counts as {leaver}"
        + (
            " from the next such match that ends: those already counted keep theirs"
            " (`/league void`, `/league award` correct one)."
            if leaver_set
            else "."
        )
    )


def correction_text(league: League, corrected: Corrected) -> str:
    """The answer to an organiser's correction."""
    result = corrected.result
    if not result.counts:
        now = "it no longer counts"
    elif result.winner is None:
        now = "it counts, with no winner"
    else:
        now = (
            f"it counts: {SIDE_NAMES[result.winner]} won, {result.games[0]}–{result.games[1]} "
            f"in games"
        )
    return (
        f"M{corrected.match_id} of **{safe(league.name)}** {ACTION_WORDS[corrected.action]}: "
        f"{now}. Standings are updated; ratings "
        + (
            "are being recomputed from that match on and change in a moment"
            if corrected.ratings_pending
            else "are updated"
        )
        + "; `/league audit` lists it."
        + (f" {corrected.fixture}." if corrected.fixture else "")
    )


def audit_embed(league: League, page: AuditPage) -> discord.Embed:
    """A page of a league's corrections, newest first."""
    embed = discord.Embed(title=f"Corrections in {safe(league.name)}", colour=GOLD)
    lines = []
    for entry in page.entries:
        who = f"<@{entry.by}>" if entry.by is not None else "the league's rule"
        moment = int(parse_timestamp(entry.at).timestamp())
        lines.append(
            f"<t:{moment}:d> M{entry.match_id} {ACTION_WORDS[entry.action]} by {who}: "
            f"{safe(entry.reason)}"
        )
    embed.description = "\n".join(lines) or "No correction yet."
    embed.set_footer(
        text=f"Page {page.page} of {page.pages} · {plural(page.total, 'entry', 'entries')}"
    )
    return embed
