"""Leagues and euchre nights against members who would game them and requests that cross:
a night closed twice at once, a night started from one of its threads, and league matches
ended at a chosen moment (closed mid-match, filled with computers), each either refused with
a clear answer or shown to the organiser in the audit."""

from __future__ import annotations

import csv
import io

import discord
import pytest

from bot.storage import league_results
from tests.interaction.helpers import PLAYERS, act, close_table, play_match, start_four
from tests.interaction.test_league_seasons import LEAGUE, quick_league, standings
from tests.interaction.test_leagues_harden import queued_behind
from tests.interaction.test_nights import open_night
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def test_a_night_closed_twice_at_once_is_closed_once_and_the_second_told_so(interactions):
    """Two organisers pressed /night close together: both were told "The euchre night is
    closed: its final standings are posted", though only one closing was posted."""
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    async with h.bot.get_cog("Nights").runner._lock(night_id):
        first = await queued_behind(h, night_id, "owner", "night close")
        second = await queued_behind(h, night_id, "admin", "night close")
    closed, again = await first, await second
    assert "closed" in closed.text, closed.text
    assert again.ephemeral and again.text == "This euchre night is over", again.text
    closings = [m for m in h.public_messages() if "The euchre night is over" in m.text]
    assert len(closings) == 1, [m.text for m in closings]


async def test_a_night_started_from_a_thread_of_its_channel_starts(interactions):
    """The organiser ran /night start in a thread of the night's channel and was told a
    night is opened in a text channel, not a thread: the start is of the night there."""
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    h.bot.get_cog("Nights").runner._stopped = True  # the harness seats no round in threads
    thread = h.world.add_thread(h.channel, "talk")
    await h.settle()
    started = await h.command("owner", "night start", channel=thread)
    assert started.ephemeral and "4 players" in started.text, started.text
    assert await h.bot.db.fetchval("SELECT status FROM nights") == "playing"


async def finish_with_computers(h: InteractionHarness) -> None:
    """The members still seated play the match out; the computers play their seats."""
    table = h.table()
    for _ in range(400):
        if not table.playing:
            return
        if table.seats[table.match.to_act].is_bot:
            await h.settle()
        else:
            await act(h)
    raise AssertionError("the match did not end")


def exported(exchange) -> dict[str, dict[str, str]]:
    """An exported CSV's rows, by player."""
    text = exchange.reply.attachments[0].data.decode("utf-8-sig")
    return {row["player"]: row for row in csv.DictReader(io.StringIO(text))}


async def test_a_leaver_where_substitutes_count_has_his_sides_result(interactions):
    """In a league that lets a computer finish a match, dave left his table mid-match: the
    match counted as played, and the standings and the export credited bob, his partner,
    with east–west's result and left dave out, so a player losing could leave to keep the
    loss off his line (and one winning still had the win once back). He has his side's
    result now, as in a forfeit by the league's rule, and a recompute agrees."""
    h = interactions
    await quick_league(h, substitutes=True)
    table = await start_four(h, league=LEAGUE)
    await act(h)
    assert (await h.command("dave", "table leave")).ephemeral
    await finish_with_computers(h)
    said = (await h.command("bob", "league match", id=f"M{table.match_id}")).text
    assert said == f"M{table.match_id} counts for the league **{LEAGUE}**.", said
    rows = exported(await h.command("bob", "league export", league=LEAGUE, what="standings"))
    assert set(rows) == set(PLAYERS), rows
    for key in ("rubbers", "games", "points", "points_against", "played"):
        assert rows["dave"][key] == rows["bob"][key], (key, rows)
    assert "dave" in await standings(h)
    league_id = await h.bot.db.fetchval("SELECT id FROM leagues")
    assert await league_results.check_league(h.bot.db, league_id) == []


async def test_a_side_of_computers_is_no_opponent_where_computers_count(interactions):
    """In a league that lets computers play, alice sat down with three easy computers and
    played: the match counted, and she climbed the standings on wins over computers, with
    nothing in the audit. A side that no member played from the start makes it no match
    between members: it does not count, and /league match says why."""
    h = interactions
    await quick_league(h, substitutes=True)
    assert (await h.command("alice", "table create", league=LEAGUE)).ephemeral
    for seat in ("east", "south", "west"):
        assert (await h.command("alice", "table addbot", seat=seat, level="easy")).ephemeral
    assert (await h.command("alice", "table start", keep_seats=True)).ephemeral
    match_id = h.table().match_id
    await finish_with_computers(h)
    said = (await h.command("bob", "league match", id=f"M{match_id}")).text
    assert said == (
        f"M{match_id} does not count for the league **{LEAGUE}**:\n"
        "- east–west was played by computers alone from the start: a league match is played"
        " between members"
    ), said
    assert "No match has counted yet" in await standings(h)
    info = (await h.command("bob", "league info", name=LEAGUE)).reply
    assert "a side of computers alone does not count" in info.text, info.text


@pytest.mark.parametrize("closer", ["host", "moderator"])
async def test_a_league_match_closed_mid_match_is_in_the_audit_for_an_award(interactions, closer):
    """alice, losing, closed her league table mid-match with all four seated: the match
    counted for nobody, the audit said nothing, and the organiser could not award it ("does
    not count, so there is nothing to correct"). Now it is no contest in the audit under the
    name of whoever closed it, and the organiser may award it to the side it was stolen
    from."""
    h = interactions
    await quick_league(h)
    table = await start_four(h, league=LEAGUE)
    await act(h)
    if closer == "host":
        who, permissions, words = "alice", None, "the host"
    else:
        who = "erin"
        base = h.world.guild.permissions_of(h.member("erin"))
        permissions = base | discord.Permissions(manage_channels=True).value
        words = "a moderator"
    assert "closed" in (await close_table(h, who, channel_permissions=permissions)).text
    why = f"{words} closed its table, so it was abandoned before it finished"
    said = (await h.command("bob", "league match", id=f"M{table.match_id}")).text
    assert said == (
        f"M{table.match_id} does not count for the league **{LEAGUE}**:\n- no contest: {why}"
    ), said
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    assert f"M{table.match_id} no contest by <@{h.member(who).id}>: {why}" in audit, audit
    assert "No match has counted yet" in await standings(h)
    awarded = await h.command(
        "owner", "league award", league=LEAGUE, match=f"M{table.match_id}",
        side="east-west", reason="closed while losing",
    )  # fmt: skip
    assert awarded.ephemeral and "east–west won" in awarded.text, awarded.text
    shown = await standings(h)
    assert shown.index("bob") < shown.index("alice") and shown.index("dave") < shown.index("carol")


async def test_a_season_ended_mid_match_tells_the_organiser_where_the_match_counts(
    interactions,
):
    """The organiser ended the season while a league match was being played and was told
    only that its standings were kept: the match, ending after, counted outside seasons,
    and nothing had said it would not be in the season's standings. Started while one was
    played, the season was said to count its matches "from now", and counted that one."""
    h = interactions
    await quick_league(h)
    await start_four(h, league=LEAGUE)
    started = await h.command("owner", "league season start", league=LEAGUE)
    assert started.text.endswith(
        " A league match being played now counts for it too, when it ends."
    ), started.text
    await play_match(h)
    assert "1 match" in await standings(h)
    assert (await h.command("alice", "table start", keep_seats=True)).ephemeral
    table = h.table()
    ended = await h.command("owner", "league season end", league=LEAGUE)
    assert ended.text.endswith(
        " A league match still being played is not in them: it counts for the season running"
        " when it ends (outside seasons until one starts)."
    ), ended.text
    await play_match(h)
    season = await standings(h, season="1")
    assert season.count("1 match ·") == 4 and "2 matches" not in season, season
    shown = await standings(h)
    assert "outside seasons" in shown and "1 match" in shown, shown
    said = (await h.command("bob", "league match", id=f"M{table.match_id}")).text
    assert said == f"M{table.match_id} counts for the league **{LEAGUE}**.", said


async def test_a_player_a_moderator_removes_is_in_the_audit_under_the_moderators_name(
    interactions,
):
    """A moderator removed bob from a league match: the audit said "by the league's rule:
    the host removed a player from the table", naming neither who did it nor that it was
    not the host. It names the moderator now, as a removal by the host names the host."""
    h = interactions
    await quick_league(h)
    table = await start_four(h, league=LEAGUE)
    base = h.world.guild.permissions_of(h.member("erin"))
    manage = base | discord.Permissions(manage_channels=True).value
    kicked = await h.command(
        "erin", "table kick", member=h.member("bob"), channel_permissions=manage
    )
    assert kicked.ephemeral and "bob was removed" in kicked.text, kicked.text
    await close_table(h, "alice")
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    erin = h.member("erin").id
    assert (
        f"M{table.match_id} no contest by <@{erin}>: a moderator removed a player from the table"
    ) in audit, audit
    said = (await h.command("carol", "league match", id=f"M{table.match_id}")).text
    assert said.endswith("- no contest: a moderator removed a player from the table"), said


async def test_a_match_every_player_timed_out_of_is_no_contest_naming_them_by_side(
    interactions,
):
    """Every member times out on each of his turns, so computers hold the seats of members
    on both sides: even where the rule is a forfeit, both sides left, so it is no contest,
    and the audit names who left, side by side. (Which members' seats are held when the
    match ends depends on the deals: one whose second time-out never came played it out.)"""
    h = interactions
    await quick_league(h)
    await h.command("owner", "league settings", league=LEAGUE, leaver="forfeit")
    table = await start_four(h, league=LEAGUE)
    for _ in range(3000):
        if not table.playing:
            break
        if not table.seats[table.match.to_act].is_bot:
            await h.manager.time_out_now(table)
        await h.settle()
    assert not table.playing
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    line = next(x for x in audit.splitlines() if f"M{table.match_id} " in x)
    assert f"M{table.match_id} no contest by the league's rule: " in line, audit
    assert line.endswith(" left or timed out repeatedly"), line
    # Who left, side by side: each side's members named once, before its side's name.
    named = line.split(": ", 1)[1].removesuffix(" left or timed out repeatedly")
    north_south, east_west = named.split(" (north–south) and ")
    assert east_west.endswith(" (east–west)"), named
    assert set(north_south.split(" and ")) <= {"alice", "carol"}, named
    assert set(east_west.removesuffix(" (east–west)").split(" and ")) <= {"bob", "dave"}, named
    assert "No match has counted yet" in await standings(h)


async def test_a_table_for_a_league_is_not_opened_by_a_non_member(interactions):
    """erin, not a member, opened a table for the league and sat at north as its host: the
    members who joined her played a match that could never count ("erin played in it but
    is not a member"). She is refused, privately, and no table is opened."""
    h = interactions
    await quick_league(h)
    async with h.unchanged():
        refused = await h.command("erin", "table create", league=LEAGUE)
    assert refused.ephemeral and refused.text == (
        f"A table for the league “{LEAGUE}” seats only its members, and you sit at it as its"
        " host: join the league first with /league join"
    ), refused.text
    assert h.table() is None


async def test_a_computer_seated_at_a_league_table_says_when_the_match_cannot_count(
    interactions,
):
    """The host of a league table seated a computer and was told only that it sat: in a
    league that counts no match a computer plays in, the members then played a whole match
    for nothing, and only /league match said so afterwards. The answer says it as the
    computer sits, and, where computers may play, when a side is computers alone."""
    h = interactions
    await quick_league(h)
    await quick_league(h, "Relaxed", substitutes=True)
    assert (await h.command("alice", "table create", league=LEAGUE)).ephemeral
    strict = await h.command("alice", "table addbot", seat="east")
    assert strict.text == (
        f"A computer player sits at east. The match will not count for the league **{LEAGUE}**,"
        " which does not count a match a computer plays in."
    ), strict.text
    assert "closed" in (await close_table(h, "alice")).text
    assert (await h.command("alice", "table create", league="Relaxed")).ephemeral
    first = await h.command("alice", "table addbot", seat="east")
    assert first.text == "A computer player sits at east.", first.text
    second = await h.command("alice", "table addbot", seat="west")
    assert second.text == (
        "A computer player sits at west. The match will not count for the league **Relaxed**"
        " while east–west is computers alone: a league match is played between members."
    ), second.text
