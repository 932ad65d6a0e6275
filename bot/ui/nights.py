"""Euchre nights as Discord shows them: the night's message (who registered, then the
standings), the answers of /night, and the Join button.

Every name here was typed by a member or an organiser, so each is escaped with `safe`.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.leagues.night import LatePlace
from bot.numbers import parse_whole
from bot.storage.nights import Night, NightPlayer, Total
from bot.ui.embeds import GOLD, plural, safe
from bot.ui.errors import CONTENT_LIMIT, reply_error

DESCRIPTION_LIMIT = 4096  # an embed's description
FILE_PREFIX = "euchre-night"

LATE_WORDS = {
    "computer": "a player who leaves is replaced by a computer; a latecomer plays from the next"
    " round, in such a place or at an extra table",
    "bye": "the tables follow the players present: latecomers sit in, leavers' places go",
}
MOVEMENT_WORDS = {
    "schedule": "partners rotate by the progressive schedule",
    "winners_move_up": "winners move up a table, and partners change",
}


def round_length(night: Night) -> str:
    """`4 deals a round` or `20 minutes a round`."""
    if night.deals_per_round is not None:
        return plural(night.deals_per_round, "deal") + " a round"
    minutes = plural(night.minutes_per_round or 0, "minute")
    # Said without brackets: the round's message puts the length in brackets of its own.
    return f"{minutes} a round, the deal in play finished"


def _rounds(night: Night) -> str:
    return plural(night.rounds, "round") if night.rounds else "as many rounds as the schedule has"


def clipped(lines: Sequence[str], limit: int = DESCRIPTION_LIMIT) -> str:
    """Lines joined, as many as fit in `limit` characters, with how many were left out."""
    shown: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        more = f"\n… and {len(lines) - i} more"
        if used + len(line) + 1 + len(more) > limit:
            shown.append(more.strip())
            break
        shown.append(line)
        used += len(line) + 1
    return "\n".join(shown)


def standings_lines(totals: Sequence[Total]) -> list[str]:
    """`1. alice: 7 points (3 deals)`, best first; equal totals share a place."""
    lines = []
    place = 0
    last: int | None = None
    for index, total in enumerate(totals, start=1):
        if total.points != last:
            place, last = index, total.points
        gone = " (left)" if not total.present else ""
        lines.append(
            f"{place}. {safe(total.name)}{gone}: {plural(total.points, 'point')}"
            f" ({plural(total.deals, 'deal')})"
        )
    return lines


def night_embed(
    night: Night,
    league_name: str,
    players: Sequence[NightPlayer],
    totals: Sequence[Total] | None,
) -> discord.Embed:
    """The night's message: how it is played, then who registered (before the start) or the
    running standings (from the start)."""
    head = [
        f"For the league **{safe(league_name)}**: {_rounds(night)}, {round_length(night)}.",
        f"Movement: {MOVEMENT_WORDS[night.movement]}. Late: {LATE_WORDS[night.late]}.",
    ]
    if night.status == "open":
        present = [p for p in players if p.present]
        head.append(
            f"\n**Registered ({len(present)})**: join with /night join or the button below;"
            " the organiser starts the night with /night start."
        )
        lines = [safe(p.name) for p in present] or ["nobody yet"]
        title = "Euchre night: registration"
    else:
        if night.status == "closed":
            state = "final standings"
        else:
            state = f"round {night.round}" if night.round else "round 1 is being seated"
        head.append(f"\n**Standings** ({state}): each player scores the points their side made.")
        lines = standings_lines(totals or [])
        title = "Euchre night: " + ("closed" if night.status == "closed" else "in play")
    text = "\n".join(head) + "\n"
    embed = discord.Embed(title=title, colour=GOLD)
    embed.description = text + clipped(lines, DESCRIPTION_LIMIT - len(text))
    return embed


def night_view(night: Night) -> discord.ui.View:
    """The Join button while the night takes players, and from its start My place: the
    message lists as many players as fit, and everyone may ask privately where they stand."""
    view = discord.ui.View(timeout=None)
    if night.status != "closed":
        view.add_item(NightButton(night.id, "join"))
    if night.status != "open":
        view.add_item(NightButton(night.id, "place"))
    return view


# Lines of the standings around a player's own, in the private answer to My place.
AROUND = 3


def place_text(totals: Sequence[Total], user_id: int, closed: bool = False) -> str:
    """A player's place in the night's standings, privately, with the places around it
    (`closed`: the night is over, so nobody may join it any more)."""
    lines = standings_lines(totals)
    mine = next((i for i, t in enumerate(totals) if t.user_id == user_id), None)
    if mine is None:
        if closed:
            return "You did not play in this euchre night: it is over."
        return "You are not registered for this euchre night: /night join or the Join button."
    total = totals[mine]
    place = lines[mine].split(".", 1)[0]
    shared = sum(1 for line in lines if line.split(".", 1)[0] == place) > 1
    head = (
        f"You are {'joint ' if shared else ''}{ordinal(int(place))} of {len(totals)}:"
        f" {plural(total.points, 'point')} from {plural(total.deals, 'deal')}."
    )
    around = lines[max(0, mine - AROUND) : mine + AROUND + 1]
    return (
        head + "\n" + "\n".join(f"**{line}**" if line is lines[mine] else line for line in around)
    )


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def emn_file(night: Night, emn: dict[str, Any]) -> discord.File:
    """The night's EMN export as an attachment."""
    data = json.dumps(emn, ensure_ascii=False, indent=1).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=f"{FILE_PREFIX}-{night.id}.emn")


def opened_text(night: Night, league_name: str) -> str:
    return (
        f"The euchre night for **{safe(league_name)}** is open: {_rounds(night)},"
        f" {round_length(night)}. Members of the league join with /night join; start it with"
        " /night start once at least four have."
    )


def joined_text(night: Night, place: LatePlace | None = None, instead_of: str | None = None) -> str:
    """The private answer to a member who registers; during a ``late:computer`` night, when
    and where he plays (`place`: `Nights.late_place`; `instead_of`: the leaver's name)."""
    if night.status == "open":
        return "You are registered for the euchre night."
    if night.late != "computer":
        return (
            "You are registered for the euchre night: you sit in when the next round is seated,"
            " as a place is free."
        )
    after = night.round + 1
    if night.rounds is not None and after > night.rounds:
        return (
            "You are registered for the euchre night, but this is its last round: there is no"
            " round left for you to play."
        )
    if place is None:
        where = "in your own place"
    elif place.kind == "place":
        who = safe(instead_of) if instead_of else "a player who left"
        where = f"in the place of {who}, which a computer plays now"
    elif place.kind == "extra_seat":
        where = "at the extra table of latecomers, in a seat a computer plays now"
    else:
        where = "at an extra table of latecomers"
        if place.computers:
            where += f", with {plural(place.computers, 'computer')} until more latecomers come"
    return (
        f"You are registered for the euchre night: you play from round {after}, when round"
        f" {night.round} ends, {where}. Everyone scores their own points, so your total counts"
        " as anyone's. The table's thread mentions you when it is seated."
    )


def left_text(night: Night) -> str:
    if night.status == "open":
        return "You are no longer registered for the euchre night."
    instead = "a computer plays your place" if night.late == "computer" else "the tables go on"
    return f"You left the euchre night: {instead}. Your points so far stay in the standings."


def left_table_text(night: Night) -> str:
    """To a registered player who left his table of a night in play: the night goes on for him."""
    return (
        "You left the table. You are still registered for the euchre night in"
        f" <#{night.channel_id}>, so you are seated again next round: to leave the night, use"
        " /night leave there."
    )


def started_text(night: Night, players: int, repeated: int) -> str:
    text = (
        f"The euchre night starts with {players} players over {plural(night.rounds or 0, 'round')}:"
        " round 1 is being seated, each table in a thread of this channel."
    )
    if players % 4:
        out = players % 4
        text += f" {plural(out, 'player')} {'sits' if out == 1 else 'sit'} out each round, in turn."
    if repeated:
        text += f" With {players} players the schedule repeats {plural(repeated, 'partnership')}."
    return text


def round_text(night: Night, number: int, threads: Sequence[int], byes: Sequence[str]) -> str:
    """What the channel is told when a round is seated."""
    tables = ", ".join(f"<#{t}>" for t in threads)
    text = f"**Round {number} of {night.rounds}** is seated ({round_length(night)}): {tables}."
    if not threads:  # everyone due to play it has left; those sitting it out are still in
        text = f"**Round {number} of {night.rounds}** has no table: all due to play it have left."
    if byes:
        text += " Sitting out: " + ", ".join(safe(b) for b in byes) + "."
    return text[:2000]


def table_intro(number: int, position: int, mentions: Sequence[str]) -> str:
    """The first line of a table's thread: who partners whom."""
    north, east, south, west = mentions
    return (
        f"**Round {number}, table {position}**: {north} and {south} (north–south) against"
        f" {east} and {west} (east–west). Press **My hand** on the table message to play."
    )


def closed_text(night: Night, why: str, totals: Sequence[Total]) -> str:
    """The closing message: why, and the winners."""
    best = totals[0].points if totals else 0
    winners = [safe(t.name) for t in totals if t.points == best]
    text = f"**The euchre night is over** ({why})."
    ending = " Final standings above; the night's record (EMN) is attached."
    if not any(t.deals for t in totals):
        # Closed before a deal was played (before it started, say): nobody topped anything.
        text += " No deal was played, so nobody scored."
    else:
        # Many tied at the top: the names that fit, whole, and how many more, so the message
        # keeps its ending and cuts no escape in two.
        lead = f" Top score, {plural(best, 'point')}: "
        room = CONTENT_LIMIT - len(text) - len(lead) - len(ending) - len(" and 9999 more.")
        shown: list[str] = []
        for name in winners:
            if len(", ".join([*shown, name])) > room:
                break
            shown.append(name)
        more = len(winners) - len(shown)
        text += lead + ", ".join(shown) + (f" and {more} more" if more else "") + "."
    return (text + ending)[:CONTENT_LIMIT]


class NightButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"euchre:night:(?P<night>[0-9]+):(?P<what>join|place)",
):
    """A button of the night's message: Join (register), or My place (a player's own place in
    the standings, privately)."""

    LABELS = {"join": ("Join", discord.ButtonStyle.success), "place": ("My place", None)}

    def __init__(self, night_id: int, what: str) -> None:
        label, style = self.LABELS[what]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style or discord.ButtonStyle.secondary,
                custom_id=f"euchre:night:{night_id}:{what}",
            )
        )
        self.night_id, self.what = night_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NightButton:
        # 0: no night (a forged id too long to be a number).
        return cls(parse_whole(match["night"]) or 0, match["what"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        try:
            cog = interaction.client.get_cog("Nights")  # type: ignore[attr-defined]
            if self.what == "join":
                await cog.join_night(interaction, self.night_id)
            else:
                await cog.my_place(interaction, self.night_id)
        except Exception as error:  # every click gets an answer
            await reply_error(interaction, error)
