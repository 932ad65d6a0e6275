"""Leaderboards, statistics and history as embeds; the leaderboard's page buttons; record files."""

from __future__ import annotations

import json
import re
from typing import Any

import discord

from bot.engine.egn import game_to_egn
from bot.engine.errors import RecordError
from bot.engine.records import match_from_record, match_so_far, match_to_record, record_hints
from bot.storage import leaderboard as boards
from bot.storage.errors import StatsError
from bot.storage.history import HistoryPage
from bot.storage.player_stats import PlayerStats
from bot.storage.records import StoredRecord
from bot.ui.embeds import plural, safe
from bot.ui.errors import reply_error
from bot.ui.nights import clipped
from bot.ui.views import Buttons

BLUE = discord.Colour.blurple()
DESCRIPTION_LIMIT = 4096  # an embed's description
FIELD = 1024  # an embed field's value
PERIOD_WORDS = {
    "all": "all time",
    "season": "this season",
    "30d": "the last 30 days",
    "7d": "the last 7 days",
}


def _value(metric: boards.Metric, row: boards.LeaderboardRow) -> str:
    if metric.is_rate:
        return f"{row.value:.0%} ({row.numerator} of {row.denominator})"
    return f"{row.value}"


def _board_title(page: boards.LeaderboardPage) -> str:
    period = (
        safe(page.season_name)
        if page.period == "season" and page.season_name
        else PERIOD_WORDS[page.period]
    )
    title = f"{page.metric.label} — {period}"
    if page.preset:
        title += f" ({page.preset})"
    return title


def leaderboard_embed(page: boards.LeaderboardPage) -> discord.Embed:
    """A page of ten, ties sharing a rank: the same for everyone who sees it.

    The message is public and anyone in the channel may turn its pages, so it names no
    viewer: a "You" field (or a mark on one's own row) redrawn for whoever clicked last would
    show that member's rank to everyone else as "You". As Discord users expect of what is
    personal, each member's own rank is answered to them alone (`own_rank`): to the one who
    ran /leaderboard, and to anyone who clicks "My rank".
    """
    embed = discord.Embed(title=_board_title(page), colour=BLUE)
    # Names as members typed them, escaped: none formats the board or links anywhere.
    lines = [f"**{row.rank}.** {safe(row.name)} — {_value(page.metric, row)}" for row in page.rows]
    embed.description = "\n".join(lines) or empty_board_text(page.metric)
    note = "" if page.include_bots else " · rubbers with computers or substitutes not counted"
    embed.set_footer(text=f"Page {page.page} of {max(page.page_count, 1)}{note}")
    return embed


# What a rate divides by, as a board with nobody on it names its minimum.
RATE_BASES = {"rubbers_played": "rubbers", "makes": "makes of trump", "games_played": "games"}


def empty_board_text(metric: boards.Metric) -> str:
    """A board with nobody on it, saying who it lists: a count lists those with one at
    least (a member who played but never won a rubber is not on Rubbers won), a rate those
    who played enough. Single games count no rubber, so a rubber's board points to games won."""
    if metric.is_rate:
        base = RATE_BASES.get(metric.denominator, "times")
        return f"Nobody is on it yet: it lists players with at least {metric.minimum} {base}."
    text = "Nobody is on it yet: it lists players with at least one."
    if metric.denominator == "rubbers_played":
        text += " A single game counts no rubber: `metric: Games won` ranks those."
    return text


def own_rank(page: boards.LeaderboardPage) -> str:
    """The viewer's own rank on a leaderboard, and its page, for an ephemeral answer.

    Args:
        page: a page asked for with the member as ``viewer_id``.

    Returns:
        One line for the member alone.
    """
    title = _board_title(page)
    mine = page.viewer
    if mine is None:
        return f"You are not on **{title}** yet."
    where = (mine.position - 1) // boards.PAGE_SIZE + 1
    return (
        f"Your rank on **{title}**: #{mine.rank} — {_value(page.metric, mine)}"
        f" (page {where} of {max(page.page_count, 1)})."
    )


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"euchre:lb:(?P<metric>[a-z_]+):(?P<period>all|season|30d|7d):(?P<preset>[a-z]*):(?P<bots>[01]):(?P<page>[0-9]+):(?P<dir>prev|next|me)",
):
    """Previous / Next / My rank on a leaderboard: the board and page are in the id, so it
    survives restarts. Previous and Next redraw the public page; My rank answers the clicker
    alone."""

    LABELS = {"prev": "Previous", "next": "Next", "me": "My rank"}

    def __init__(
        self,
        metric: str,
        period: str,
        preset: str,
        bots: bool,
        page: int,
        direction: str,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[direction],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"euchre:lb:{metric}:{period}:{preset}:{int(bots)}:{page}:{direction}",
            )
        )
        self.metric, self.period, self.preset, self.bots = metric, period, preset, bots
        self.page, self.direction = page, direction

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        return cls(
            match["metric"],
            match["period"],
            match["preset"],
            match["bots"] == "1",
            int(match["page"]),
            match["dir"],
        )

    async def callback(self, interaction: discord.Interaction) -> Any:
        try:
            db = interaction.client.db  # type: ignore[attr-defined]
            guild_id = interaction.guild_id
            if guild_id is None:  # a server's board is turned only in that server
                await interaction.response.send_message(
                    "That board belongs to a server.", ephemeral=True
                )
                return
            if self.direction == "me":
                # Page 1 always exists; the member's row is found wherever it is.
                page = await boards.leaderboard(
                    db,
                    guild_id,
                    self.metric,
                    self.period,
                    self.preset or None,
                    1,
                    self.bots,
                    viewer_id=interaction.user.id,
                )
                await interaction.response.send_message(own_rank(page), ephemeral=True)
                return
            manager = interaction.client.manager  # type: ignore[attr-defined]
            table = manager.tables.get(interaction.channel_id)
            if interaction.message is None or (
                table is not None and interaction.message.id == table.message_id
            ):
                # Turned on the table's message (by a hand-made request): the board would
                # take the table's place. It is turned on its own message only.
                await interaction.response.send_message(
                    "That button turns a leaderboard's pages: use it on the leaderboard.",
                    ephemeral=True,
                )
                return
            target = self.page - 1 if self.direction == "prev" else self.page + 1
            board = (db, guild_id, self.metric, self.period, self.preset or None)
            try:
                page = await boards.leaderboard(*board, max(target, 1), self.bots)
            except StatsError:
                # The board shrank since this message was drawn (a match flagged, a window
                # moved on): show its last page rather than refusing every click.
                last = (await boards.leaderboard(*board, 1, self.bots)).page_count
                page = await boards.leaderboard(*board, min(max(target, 1), last), self.bots)
            await interaction.response.edit_message(
                embed=leaderboard_embed(page), view=leaderboard_view(page)
            )
        except Exception as error:
            await reply_error(interaction, error)


def leaderboard_view(page: boards.LeaderboardPage) -> Buttons:
    view = Buttons()
    args = (page.metric.key, page.period, page.preset or "", page.include_bots, page.page)
    view.add_item(LeaderboardButton(*args, "prev", disabled=page.page <= 1))
    view.add_item(LeaderboardButton(*args, "next", disabled=page.page >= page.page_count))
    view.add_item(LeaderboardButton(*args, "me"))
    return view


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def no_games_text(no_games: str, hints: int) -> str:
    """/stats of a member with no recorded game: that sentence, and the hints they asked for
    (counted apart from the games, and already from the first one)."""
    return f"{no_games} Hints asked for, all time: {hints}." if hints else no_games


def stats_embed(stats: PlayerStats, name: str, hints: int = 0) -> discord.Embed:
    """One player's totals, partners and record against opponent pairs, and the hints they
    were given (counted over all time)."""
    t = stats.totals
    # The season by its name, as the leaderboard titles it ("2026 Q4"): "this season" could
    # be taken for a league's season, which a server's season is not.
    period = (
        safe(stats.season_name)
        if stats.period == "season" and stats.season_name
        else PERIOD_WORDS[stats.period]
    )
    embed = discord.Embed(title=f"{safe(name)} — {period}", colour=BLUE)
    embed.add_field(
        name="Rubbers",
        value=f"{t.rubbers_won} won of {t.rubbers_played} ({_rate(t.rubber_win_rate)}); {plural(t.rubber_points, 'rubber point')}",
    )
    embed.add_field(
        name="Games", value=f"{t.games_won} won of {t.games_played} ({_rate(t.game_win_rate)})"
    )
    embed.add_field(
        name="Hands",
        value=(
            f"{t.hands_played} played, {plural(t.points, 'point')} scored, "
            f"{plural(t.marches, 'march', 'marches')}"
        ),
    )
    embed.add_field(
        name="Making trump",
        value=f"{t.makes_won} made of {t.makes} ({_rate(t.makers_success)}); euchred {plural(t.euchres_suffered, 'time')}",
    )
    embed.add_field(name="Defending", value=f"{plural(t.euchres_inflicted, 'euchre')} inflicted")
    embed.add_field(name="Lone hands", value=f"{t.lone_made} made of {t.lone_tried} tried")
    if hints:
        embed.add_field(name="Hints", value=f"{plural(hints, 'hint')} asked for, all time")
    if stats.best_partner:
        p = stats.best_partner
        embed.add_field(
            name="Best partner",
            value=f"{safe(p.name)}: {p.won} of {plural(p.games, 'game')} ({p.win_rate:.0%})",
            inline=False,
        )
    if stats.most_frequent_partner:
        p = stats.most_frequent_partner
        embed.add_field(
            name="Most frequent partner",
            value=f"{safe(p.name)}: {plural(p.games, 'game')}",
            inline=False,
        )
    if stats.opponents:
        lines = [
            f"v {safe(o.names[0])} & {safe(o.names[1])}: won {o.won}, lost {o.lost}"
            for o in stats.opponents[:8]
        ]
        # Eight pairs of escaped 32-character names are more than a field's 1,024 characters:
        # whole lines, as many as fit, and how many more.
        embed.add_field(name="Against", value=clipped(lines, FIELD), inline=False)
    if not stats.include_bots and any(stats.excluded.as_tuple()):
        # What was left out, apart, and how to count it: "not counted" alone read as if a
        # member who played only with computers had played nothing.
        out = stats.excluded
        left = [
            plural(count, unit)
            for count, unit in (
                (out.rubbers_played, "rubber"),
                (out.games_played, "game"),
                (out.hands_played, "hand"),
            )
            if count
        ]
        embed.set_footer(
            text=f"Not counted, as computers or substitutes played: {', '.join(left)}"
            " (include_bots:True counts them)."
        )
    return embed


def history_title_embed(name: str) -> discord.Embed:
    """/history's embed before any line: its title names the member, escaped."""
    return discord.Embed(title=f"{safe(name)}'s recent play", colour=BLUE)


def history_embed(page: HistoryPage, name: str) -> discord.Embed:
    embed = history_title_embed(name)
    lines = []
    for entry in page.entries:
        result = {True: "won", False: "lost", None: entry.status}[entry.won]
        # A match abandoned before its first game ended has no game to list.
        games = (
            ", ".join(f"{g.record_id} {g.score[0]}–{g.score[1]}" for g in entry.games)
            or "no game finished"
        )
        flag = " (computers/substitutes)" if entry.flagged else ""
        partners = ", ".join(safe(n) for n in entry.partners) or "—"
        opponents = ", ".join(safe(n) for n in entry.opponents) or "—"
        lines.append(
            f"**{entry.record_id}** {entry.kind} {result}{flag} — with {partners}"
            f" v {opponents}; {games}; <t:{int(entry.played_at.timestamp())}:d>"
        )
    # Ten entries of escaped 32-character names fit; whole lines are kept if ever they do not.
    while len("\n".join(lines)) > DESCRIPTION_LIMIT:
        lines.pop()
    embed.description = "\n".join(lines)
    embed.set_footer(
        text=f"Page {page.page} of {page.page_count} · /record ID attaches a game or rubber"
    )
    return embed


def record_file(stored: StoredRecord, whole: StoredRecord | None = None) -> tuple[str, bytes, str]:
    """The file /record attaches and a line about it.

    A game is written as EGN when its rubber has finished (EGN needs the game's deals replayed
    in their match); a rubber, or a game of a rubber still in play, is written in the bot's own
    JSON format. For a game EGN cannot hold (a partner taking it alone, a turned-up Joker in
    that game), the file is its whole rubber's own record, which `python -m bot replay` reads.
    """
    if stored.kind == "game" and whole is not None:
        match = match_from_record(whole.record)
        game = stored.record["game_number"]
        try:
            document = game_to_egn(
                match, game, players=whole.record.get("players"), hints=record_hints(whole.record)
            )
        except RecordError as error:
            kind = "rubber" if match.options.is_rubber else "match"
            note = (
                f"EGN cannot hold this game ({error}), so here is the bot's own record of its"
                f" {kind}, {whole.record_id}, in which it is game {game + 1}"
                " (`python -m bot replay` replays it)."
            )
            return (
                f"euchre-{whole.record_id}.json",
                json.dumps(whole.record, indent=2).encode(),
                note,
            )
        else:
            return (
                f"euchre-{stored.record_id}.egn",
                json.dumps(document, indent=2).encode(),
                "Euchre Game Notation 1.4.",
            )
    elif stored.kind == "game" and stored.match_deals:
        return _game_in_play(stored)
    elif stored.kind == "game":
        note = "Its rubber is still being played; here is the bot's own record of the game so far."
    else:
        note = "The bot's own JSON record (see the README)."
    body = (
        stored.record if stored.kind != "game" else {**stored.record, "deals": list(stored.deals)}
    )
    return f"euchre-{stored.record_id}.json", json.dumps(body, indent=2).encode(), note


def _game_in_play(stored: StoredRecord) -> tuple[str, bytes, str]:
    """A finished game of a rubber still being played, replayed in its rubber from the deals
    stored so far: as EGN, or, where EGN cannot hold it, as the rubber's own record so far
    (both files `python -m bot replay` reads)."""
    seated = sorted(stored.record.get("players") or [], key=lambda p: p["seat"])
    names = [p["name"] for p in seated] if len(seated) == 4 else None
    game = stored.record["game_number"]
    match = match_so_far(stored.options, list(stored.match_deals))
    hints = record_hints({"deals": list(stored.match_deals)})
    try:
        document = game_to_egn(match, game, players=names, hints=hints)
    except RecordError as error:
        record = match_to_record(match, players=names)
        # The deal the rebuilt match dealt after the last one stored was never played.
        record["deals"] = [d for d in record["deals"] if d["actions"]]
        return (
            f"euchre-{stored.record_id}.json",
            json.dumps(record, indent=2).encode(),
            f"EGN cannot hold this game ({error}), and its rubber is still being played: here"
            f" is the bot's own record of the rubber so far, in which it is game {game + 1}"
            " (`python -m bot replay` replays it).",
        )
    return (
        f"euchre-{stored.record_id}.egn",
        json.dumps(document, indent=2).encode(),
        "Euchre Game Notation 1.4 (its rubber is still being played).",
    )
