"""Fixtures as Discord shows them: the answers and embeds of /fixtures, and the announcements
the fixtures' scheduler makes in a league's channel (reminders, results, new rounds).

Windows are shown with Discord's timestamps (`<t:unix:f>`, `<t:unix:R>`), which each member's
client shows in their own time zone. Every name was typed by a member, so each is escaped.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.engine.quoting import clip
from bot.leagues import brackets
from bot.leagues.fixtures import SwissRow
from bot.storage import fixtures as store
from bot.storage.database import Database
from bot.storage.fixtures import (
    BYE,
    DOUBLE_FORFEIT,
    FORFEIT,
    OPEN,
    PLAYED,
    Fixture,
    FixtureError,
    FixturePage,
    Pair,
    Series,
)
from bot.storage.leagues import CHOICES_LIMIT, League, league_by_id, pages_text
from bot.tables.fixtures import Decision, Made, Played, Reminder
from bot.ui.embeds import GOLD, plural, safe
from bot.ui.errors import fit_content

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

KIND_WORDS = {
    "round_robin": "a round robin",
    "swiss": "a Swiss event",
    "single_elimination": "a single elimination",
    "double_elimination": "a double elimination",
}
DEADLINE_WORDS = {
    "forfeit": "a side that did not sit down forfeits",
    "double_forfeit": "both sides forfeit",
    "extend": "the window is extended once",
}
# Pairs (or rows of an event's table) a page: fifteen of the longest names, an alternate's
# too, fill some 3,300 of an embed's 4,096 characters.
PAIRS_PAGE = 15
DESCRIPTION_LIMIT = 4096
NEW_SHOWN = 15  # fixtures listed in an announcement; /fixtures list shows the rest


def when(unix: int) -> str:
    """A moment as Discord shows it to each reader: the date and time, and how far off."""
    return f"<t:{unix}:f> (<t:{unix}:R>)"


def pair_name(pairs: dict[int, Pair], pair_id: int | None) -> str:
    if pair_id is None or pair_id not in pairs:
        return "?"
    pair = pairs[pair_id]
    return safe(pair.name) + (" (withdrawn)" if pair.withdrawn else "")


def state_text(fixture: Fixture, pairs: dict[int, Pair]) -> str:
    """Where a fixture stands, in a few words."""
    if fixture.state == BYE:
        return "a bye"
    if fixture.state == OPEN:
        extended = " (extended)" if fixture.extended else ""
        at = " · its table is open" if fixture.table_id is not None else ""
        return f"to play by {when(fixture.closes_at)}{extended}{at}"
    winner = pair_name(pairs, fixture.winner_pair)
    if fixture.state == PLAYED:
        return f"won by {winner}, {fixture.first_games}–{fixture.second_games} in games (M{fixture.match_id})"
    if fixture.state == FORFEIT:
        return f"won by {winner} by forfeit"
    assert fixture.state == DOUBLE_FORFEIT
    if fixture.winner_pair is not None:
        return f"double forfeit; {winner} goes on as the higher seed"
    return "double forfeit: neither side played it"


def slot_words(slot: str) -> str:
    """A bracket match's place in words: `W2.1` is round 2, match 1 (of the winners' bracket
    in a double elimination), `L1.2` the losers' round 1, match 2, `GF` the grand final."""
    if slot == brackets.GRAND_FINAL:
        return "the grand final"
    side, _, numbers = slot[0], "", slot[1:]
    number, _, match = numbers.partition(".")
    losers = "losers' " if side == brackets.LOSERS else ""
    return f"{losers}round {number}, match {match}" if match else f"{losers}round {number}"


def fixture_line(fixture: Fixture, pairs: dict[int, Pair]) -> str:
    """One fixture in a list: id, round (or bracket match), pairs, window and state."""
    where = slot_words(fixture.slot) if fixture.slot else f"round {fixture.round}"
    if fixture.second_pair is None:
        return f"**F{fixture.id}** · {where} · {pair_name(pairs, fixture.first_pair)} · a bye"
    match = f"{pair_name(pairs, fixture.first_pair)} v {pair_name(pairs, fixture.second_pair)}"
    window = f"<t:{fixture.opens_at}:f> – <t:{fixture.closes_at}:f>"
    return f"**F{fixture.id}** · {where} · {match}\n  {window} · {state_text(fixture, pairs)}"


def _fit(lines: list[str], limit: int = DESCRIPTION_LIMIT) -> str:
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        if used + len(line) + 1 > limit - 40:
            out.append(f"…and {len(lines) - i} more")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


def registered_text(league: League, pair: Pair) -> str:
    alternate = f", with {safe(pair.alternate[1])} as alternate" if pair.alternate else ""
    return (
        f"{safe(pair.name)} are registered as a pair of the league **{safe(league.name)}**"
        f"{alternate}. Fixtures are made with `/fixtures make`."
    )


def withdrawn_text(league: League, pair: Pair) -> str:
    return (
        f"{safe(pair.name)} withdrew from the league **{safe(league.name)}**'s fixtures; "
        "their fixtures not yet played are forfeited at once."
    )


def page_bounds(count: int, page: int, what: str) -> tuple[int, int]:
    """Where a page of `PAIRS_PAGE` rows starts among `count`, and how many pages they fill.

    Raises:
        FixtureError: a page before the first or after the last.
    """
    pages = max(1, -(-count // PAIRS_PAGE))
    if not 1 <= page <= pages:
        raise FixtureError(f"page {page} does not exist: {what} fill {pages_text(pages)}")
    return (page - 1) * PAIRS_PAGE, pages


def pairs_embed(league: League, pairs: list[Pair], page: int = 1) -> discord.Embed:
    """A page of a league's registered pairs, in the order they registered (their seeding).

    Raises:
        FixtureError: no such page.
    """
    start, pages = page_bounds(len(pairs), page, "the league's pairs")
    embed = discord.Embed(title=f"Pairs of {safe(league.name)}", colour=GOLD)
    lines = []
    for number, pair in enumerate(pairs[start : start + PAIRS_PAGE], start=start + 1):
        alternate = f" (alternate: {safe(pair.alternate[1])})" if pair.alternate else ""
        lines.append(f"{number}. {safe(pair.name)}{alternate}")
    embed.description = _fit(lines) or "No pair yet: `/fixtures register` with a partner."
    embed.set_footer(
        text=f"Page {page} of {pages} · {plural(len(pairs), 'pair')} · seeded in the order they"
        " registered"
    )
    return embed


def series_words(series: Series) -> str:
    days = series.window_seconds // (24 * 60 * 60)
    return (
        f"{KIND_WORDS[series.kind]}, {plural(days, 'day')} to play each fixture; at a window's"
        f" end {DEADLINE_WORDS[series.deadline]}"
    )


def fixtures_embed(league: League, page: FixturePage) -> discord.Embed:
    """One page of a league's fixtures with their windows and state."""
    embed = discord.Embed(title=f"Fixtures of {safe(league.name)}", colour=GOLD)
    lines = [series_words(page.series) + "."]
    lines += [fixture_line(f, page.pairs) for f in page.fixtures]
    embed.description = _fit(lines)
    done = " · finished" if page.series.finished_at is not None else ""
    embed.set_footer(
        text=f"Page {page.page} of {page.pages} · {plural(page.total, 'fixture')}{done}"
        " · /fixtures play F12 sits you down for one"
    )
    return embed


SHARED_SHOWN = 4  # pairs named in a shared title's line


def _counts(row: SwissRow) -> tuple[Fraction, Fraction, Fraction]:
    return (row.match_points, row.opponents_match_share, row.game_share)


def standings_lines(rows: Sequence[SwissRow], pairs: dict[int, Pair]) -> list[str]:
    """`1. alice & bob: 2½ match points · opponents 50% · games 67%`, in the table's order;
    pairs level on every count share a place (1, 1, 3), as the title they would share."""
    lines = []
    place = 0
    for position, row in enumerate(rows, start=1):
        if position == 1 or _counts(row) != _counts(rows[position - 2]):
            place = position
        lines.append(
            f"{place}. {pair_name(pairs, row.entrant)}: {_points(row.match_points)} match"
            f" point{'' if row.match_points == 1 else 's'} · opponents"
            f" {_share(row.opponents_match_share)} · games {_share(row.game_share)}"
        )
    return lines


def shared_title(rows: Sequence[SwissRow], pairs: dict[int, Pair]) -> str:
    """The line of a finished event whose top pairs are level on every count: who share it."""
    level = [pair_name(pairs, r.entrant) for r in rows if _counts(r) == _counts(rows[0])]
    if len(level) > SHARED_SHOWN:  # a line, not a table: the table follows
        level = [*level[: SHARED_SHOWN - 1], f"{len(level) - SHARED_SHOWN + 1} more pairs"]
    names = ", ".join(level[:-1]) + " and " + level[-1] if len(level) > 1 else "".join(level)
    return f"🏆 Level at the top on every count: {names} share the title."


def _points(value: Fraction) -> str:
    whole, half = divmod(value, 1)
    return f"{int(whole) if whole or not half else ''}{'½' if half else ''}"


def _share(value: Fraction) -> str:
    return f"{round(100 * value)}%"


def standings_embed(
    league: League,
    series: Series,
    rows: Sequence[SwissRow],
    pairs: dict[int, Pair],
    page: int = 1,
) -> discord.Embed:
    """A page of a round robin's or Swiss event's table as the decided fixtures make it.

    Raises:
        FixtureError: no such page.
    """
    start, pages = page_bounds(len(rows), page, "the event's table's rows")
    done = "final table" if series.finished_at is not None else "table so far"
    embed = discord.Embed(title=f"Fixtures of {safe(league.name)}: {done}", colour=GOLD)
    # Places are counted over the whole table, so a page's first row shares a place with
    # the last of the page before when they are level.
    shown = standings_lines(rows, pairs)[start : start + PAIRS_PAGE]
    embed.description = _fit([series_words(series) + ".", *shown])
    embed.set_footer(
        text=f"Page {page} of {pages} · by match points (a win 1, a draw ½, a bye 1), then the"
        " opponents' match-win share, then the game-win share"
    )
    return embed


def made_embed(league_name: str, made: Made) -> discord.Embed:
    """New fixtures (or a series' end), as announced in the league's channel."""
    series = made.series
    if made.finished and not made.fixtures:
        title = f"Fixtures of {safe(league_name)}: finished"
    else:
        title = f"New fixtures of {safe(league_name)}"
    embed = discord.Embed(title=title, colour=GOLD)
    lines = [series_words(series) + "."]
    lines += [fixture_line(f, made.pairs) for f in made.fixtures[:NEW_SHOWN]]
    if len(made.fixtures) > NEW_SHOWN:
        lines.append(f"…and {len(made.fixtures) - NEW_SHOWN} more: `/fixtures list`")
    if made.champion is not None:
        lines.append(f"🏆 Won by **{pair_name(made.pairs, made.champion)}**.")
    elif made.finished and made.standings:
        lines.append(shared_title(made.standings, made.pairs))
    elif made.finished:
        lines.append("Every fixture is decided: `/fixtures list` shows the results.")
    if made.standings:
        lines.append("")
        lines += standings_lines(made.standings[:NEW_SHOWN], made.pairs)
        if len(made.standings) > NEW_SHOWN:
            lines.append("…the rest: `/fixtures standings`")
    embed.description = _fit(lines)
    embed.set_footer(text="/fixtures play F12 sits you down for a fixture of yours")
    return embed


def reminder_text(reminder: Reminder) -> tuple[str, list[int]]:
    """A reminder's content (mentioning the fixture's players) and exactly whom it mentions."""
    fixture, pairs = reminder.fixture, reminder.pairs
    players = [u for p in fixture.pairs for u in pairs[p].players]
    mentions = " ".join(f"<@{u}>" for u in players)
    left = "a day" if reminder.hours == 24 else "an hour"
    assert fixture.second_pair is not None
    text = (
        f"{mentions}: **F{fixture.id}**, {pair_name(pairs, fixture.first_pair)} v"
        f" {pair_name(pairs, fixture.second_pair)}, must be played within {left}: its window"
        f" ends {when(fixture.closes_at)}. Sit down with `/fixtures play fixture:F{fixture.id}`."
    )
    return fit_content(text), players


def decision_text(decision: Decision) -> str:
    fixture, pairs = decision.fixture, decision.pairs
    assert fixture.second_pair is not None
    match = f"**F{fixture.id}**, {pair_name(pairs, fixture.first_pair)} v {pair_name(pairs, fixture.second_pair)}"
    # A match played for it that did not count, once its window had ended.
    uncounted = (
        f"its match M{decision.match_id} does not count for the league ({safe(decision.why)})"
        " and its window has ended"
        if decision.match_id is not None
        else ""
    )
    if decision.how == "extended":
        was = f": {uncounted}" if uncounted else " was not played in its window"
        return fit_content(f"{match}{was}: it is extended once, to {when(fixture.closes_at)}.")
    if decision.how == PLAYED:
        return fit_content(f"{match}: {state_text(fixture, pairs)}.")
    if decision.how == "not_counted":
        return fit_content(
            f"{match}: its match M{decision.match_id} does not count for the league"
            f" ({safe(decision.why)}), so it is to be played again, by {when(fixture.closes_at)}:"
            " `/fixtures play` opens a new table."
        )
    if uncounted:
        why = uncounted
    elif decision.counted_as is not None:  # played in its window, and counted as a forfeit
        match_id, correction, reason = decision.counted_as
        how = (
            "was awarded by an organiser"
            if correction == "award"
            else ("counts as a forfeit by the league's rule for leavers")
        )
        why = f"its match M{match_id} {how}" + (f" ({safe(reason)})" if reason else "")
    elif decision.withdrawn:  # forfeited at once, its window still open: say why
        gone = " and ".join(safe(pairs[p].name) for p in sorted(decision.withdrawn) if p in pairs)
        why = f"{gone} withdrew" if len(decision.withdrawn) == 1 else f"both {gone} withdrew"
    else:
        why = "its window ended before it was played"
    return fit_content(f"{match}: {why}; {state_text(fixture, pairs)}.")


def played_text(played: Played) -> str:
    """The answer to a player who sat down for a fixture."""
    fixture = played.fixture
    if played.started:
        return f"You sit down for F{fixture.id}: all four are seated, and the match starts."
    opened = "Its table is open in this channel; the" if played.created else "The"
    return (
        f"You sit down for F{fixture.id}. {opened} other players sit down with"
        f" `/fixtures play fixture:F{fixture.id}` here before {when(fixture.closes_at)}."
    )


async def fixture_choices(
    db: Database, guild_id: int | None, user_id: int, typed: str
) -> list[app_commands.Choice[str]]:
    """A member's open fixtures on this server whose id or pairs contain what was typed, the
    soonest to close first, as many as Discord offers."""
    if guild_id is None:
        return []
    mine = await store.fixtures_of_player(db, guild_id, user_id)
    pairs = await store.pairs_by_id(db, [p for f in mine for p in f.pairs])
    choices = []
    key = typed.strip().casefold()
    for f in mine:
        assert f.second_pair is not None  # an open fixture has two pairs
        label = f"F{f.id} · {pairs[f.first_pair].name} v {pairs[f.second_pair].name}"
        if key in label.casefold():
            choices.append(app_commands.Choice(name=clip(label, 100), value=f"F{f.id}"))
            if len(choices) == CHOICES_LIMIT:
                break
    return choices


class FixtureAnnouncer:
    """Posts the fixtures' scheduler's news in each league's channel (a `FixtureListener`)."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    async def _send(
        self,
        channel_id: int,
        text: str | None = None,
        users: list[int] | None = None,
        embed: discord.Embed | None = None,
    ) -> None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone: a fixture's news cannot be posted", channel_id)
                return
        mentions = discord.AllowedMentions(
            users=[discord.Object(u) for u in users or []], everyone=False, roles=False
        )
        if embed is not None:
            await channel.send(text, embed=embed, allowed_mentions=mentions)  # type: ignore[union-attr]
        else:
            await channel.send(text, allowed_mentions=mentions)  # type: ignore[union-attr]

    async def _league_name(self, league_id: int) -> str:
        league = await league_by_id(self.bot.db, league_id)
        return league.name if league is not None else "a league"

    async def fixture_reminder(self, reminder: Reminder) -> None:
        text, players = reminder_text(reminder)
        await self._send(reminder.series.channel_id, text, players)

    async def fixture_decided(self, decision: Decision) -> None:
        if decision.closed is not None:
            await self.bot.table_messages.table_changed(decision.closed)
        await self._send(decision.series.channel_id, decision_text(decision))

    async def fixtures_made(self, made: Made) -> None:
        name = await self._league_name(made.series.league_id)
        await self._send(made.series.channel_id, embed=made_embed(name, made))
