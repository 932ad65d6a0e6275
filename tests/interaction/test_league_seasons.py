"""League seasons, standings, ratings, corrections and exports through real interactions:
every command, and every refusal private and changing nothing."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from bot.engine.egn import import_egn
from tests.interaction.helpers import PLAYERS, act, close_table, play_match, start_four
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

LEAGUE = "Friday Night"
TABLES = (
    "leagues",
    "league_members",
    "league_settings",
    "league_seasons",
    "league_results",
    "league_totals",
    "league_games",
    "league_ratings",
    "league_rating_history",
    "league_season_standings",
    "league_season_ratings",
    "league_audit",
)


async def stored(h: InteractionHarness) -> list[list[tuple]]:
    """Every league row stored."""
    return [
        [tuple(r) for r in await h.bot.db.fetchall(f"SELECT * FROM {table} ORDER BY rowid")]
        if table in ("leagues", "league_members", "league_seasons", "league_audit")
        else [tuple(r) for r in await h.bot.db.fetchall(f"SELECT * FROM {table}")]
        for table in TABLES
    ]


async def refused(h: InteractionHarness, member: str, command: str, /, **options) -> str:
    """Run a command that must be refused: its private answer, lower-cased; nothing stored
    changed."""
    before = await stored(h)
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    assert exchange.ephemeral, exchange.text
    assert await stored(h) == before, "a refused request changed a league"
    return exchange.text.lower()


async def quick_league(h: InteractionHarness, name: str = LEAGUE, **options) -> None:
    """A league of single games to one point (quick to play), all four players members."""
    exchange = await h.command(
        "owner", "league create", name=name, preset="modern", points=1, match="game", **options
    )
    assert "is open" in exchange.text, exchange.text
    for member in PLAYERS:
        assert "You joined" in (await h.command(member, "league join", name=name)).text


async def played(h: InteractionHarness, league: str = LEAGUE) -> int:
    """alice, bob, carol and dave play a match for the league: its id."""
    table = await start_four(h, league=league)
    match_id = table.match_id
    await play_match(h)
    await close_table(h, "alice")
    return match_id


async def start(h: InteractionHarness, league: str = LEAGUE, **options) -> str:
    exchange = await h.command("owner", "league season start", league=league, **options)
    assert exchange.ephemeral, exchange.text
    return exchange.text


async def standings(h: InteractionHarness, **options) -> str:
    options.setdefault("league", LEAGUE)
    exchange = await h.command("bob", "league standings", **options)
    assert not exchange.ephemeral, exchange.text
    return exchange.text


async def ratings_text(h: InteractionHarness) -> list[str]:
    out = []
    for member in PLAYERS:
        exchange = await h.command("bob", "league rating", league=LEAGUE, member=h.member(member))
        out.append(exchange.text)
    return out


# -- seasons --------------------------------------------------------------------------------


async def test_a_season_started_counts_its_matches_in_its_standings(interactions):
    h = interactions
    await quick_league(h)
    assert "Season 1" in await start(h)
    await played(h)
    text = await standings(h)
    assert "Season 1" in text
    for member in PLAYERS:
        assert member in text
    assert "1 match" in text and "games won" in text  # a league of single games


async def test_a_season_started_twice_is_refused(interactions):
    h = interactions
    await quick_league(h)
    await start(h, name="Autumn")
    text = await refused(h, "owner", "league season start", league=LEAGUE, name="Winter")
    assert "autumn" in text and "still running" in text


async def test_ending_a_season_when_none_runs_is_refused(interactions):
    h = interactions
    await quick_league(h)
    assert "no season" in await refused(h, "owner", "league season end", league=LEAGUE)


async def test_an_ended_season_keeps_its_standings_while_play_goes_on(interactions):
    h = interactions
    await quick_league(h)
    await start(h)
    first = await played(h)
    ended = await h.command("owner", "league season end", league=LEAGUE)
    assert "has ended" in ended.text
    archived = await standings(h, season="1")
    assert "Season 1 (ended)" in archived
    await start(h)
    await played(h)
    # A correction of the ended season's match is refused; its standings stay as they were.
    assert "has ended" in await refused(
        h, "owner", "league void", league=LEAGUE, match=f"M{first}", reason="late protest"
    )
    assert await standings(h, season="Season 1") == archived
    assert "Season 2" in await standings(h)


async def test_an_unknown_season_is_refused(interactions):
    h = interactions
    await quick_league(h)
    assert "no season “7”" in await refused(h, "bob", "league standings", league=LEAGUE, season="7")
    assert "no season" in await refused(h, "bob", "league ratings", league=LEAGUE, season="x")


@pytest.mark.parametrize("command", ["league standings", "league ratings", "league audit"])
async def test_a_page_past_the_end_is_refused(interactions, command):
    h = interactions
    await quick_league(h)
    assert "page 2 does not exist" in await refused(h, "bob", command, league=LEAGUE, page=2)


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("league season start", {}),
        ("league season end", {}),
        ("league settings", {"min_games": 3}),
        ("league void", {"match": "M1", "reason": "x"}),
        ("league unvoid", {"match": "M1", "reason": "x"}),
        ("league replay", {"match": "M1", "reason": "x"}),
        ("league award", {"match": "M1", "side": "east-west", "reason": "x"}),
    ],
)
async def test_an_organiser_command_without_manage_server_is_refused(
    interactions, command, options
):
    h = interactions
    await quick_league(h)
    await played(h)
    assert "manage this server" in await refused(h, "alice", command, league=LEAGUE, **options)


# -- ratings and settings -------------------------------------------------------------------


async def test_ratings_show_mu_and_sigma_and_list_after_the_leagues_minimum(interactions):
    h = interactions
    await quick_league(h)
    await played(h)
    rating = (
        await h.command("carol", "league rating", league=LEAGUE, member=h.member("dave"))
    ).text
    assert "μ" in rating and "σ" in rating and "1 rated game" in rating
    shown = (await h.command("bob", "league ratings", league=LEAGUE)).text
    assert "Nobody is listed: a player is listed after 10 rated games and hidden after 14" in shown
    changed = await h.command("owner", "league settings", league=LEAGUE, min_games=1)
    assert changed.ephemeral and "after 1 rated game and" in changed.text
    table = (await h.command("bob", "league ratings", league=LEAGUE)).text
    for member in PLAYERS:
        assert member in table
    assert "μ" in table


@pytest.mark.parametrize(
    ("options", "words"),
    [({"min_games": 0}, "`min_games` is 1"), ({"hide_after_days": 0}, "`hide_after_days` is 1")],
)
async def test_settings_out_of_range_are_refused(interactions, options, words):
    h = interactions
    await quick_league(h)
    assert words in await refused(h, "owner", "league settings", league=LEAGUE, **options)


async def test_settings_are_shown_to_anyone(interactions):
    h = interactions
    await quick_league(h)
    text = (await h.command("bob", "league settings", league=LEAGUE)).text
    assert "after 10 rated games" in text and "14 days" in text and "no contest" in text


# -- corrections ----------------------------------------------------------------------------


async def test_void_then_unvoid_gives_back_the_standings_and_ratings(interactions):
    h = interactions
    await quick_league(h)
    await start(h)
    match_id = await played(h)
    before, rated = await standings(h), await ratings_text(h)
    voided = await h.command(
        "owner", "league void", league=LEAGUE, match=f"M{match_id}", reason="x"
    )
    assert voided.ephemeral and "no longer counts" in voided.text
    assert "No match has counted yet" in await standings(h)
    assert "No rated game yet" in (await ratings_text(h))[0]
    again = await h.command(
        "owner", "league unvoid", league=LEAGUE, match=f"M{match_id}", reason="a mistake"
    )
    assert "un-voided" in again.text
    assert await standings(h) == before and await ratings_text(h) == rated
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    assert audit.index("un-voided") < audit.index("voided by") and "a mistake" in audit


async def test_a_correction_reaching_far_back_answers_at_once_and_recomputes_ratings_after(
    interactions, monkeypatch
):
    from bot.storage import league_ratings, league_results

    monkeypatch.setattr(league_ratings, "IN_PLACE_GAMES", -1)  # never at once, as in a long league
    h = interactions
    await quick_league(h)
    match_id = await played(h)
    league_id = (await h.bot.db.fetchone("SELECT id FROM leagues"))["id"]
    voided = await h.command(
        "owner", "league void", league=LEAGUE, match=f"M{match_id}", reason="x"
    )
    assert voided.ephemeral and "being recomputed" in voided.text
    assert "No match has counted yet" in await standings(h)  # standings at once
    await h.bot.get_cog("Leagues").recomputer.settle(league_id)
    assert await league_ratings.pending(h.bot.db, league_id) is None
    assert await league_results.check_league(h.bot.db, league_id) == []
    assert "No rated game yet" in (await ratings_text(h))[0]


async def test_award_gives_the_match_to_a_side_at_the_fixed_score(interactions):
    h = interactions
    await quick_league(h)
    match_id = await played(h)
    text = (
        await h.command(
            "owner",
            "league award",
            league=LEAGUE,
            match=f"M{match_id}",
            side="east-west",
            reason="north played out of turn",
        )
    ).text
    assert "east–west won, 0–1 in games" in text
    shown = await standings(h)
    # bob and dave (east-west) above alice and carol, with one match each.
    assert shown.index("bob") < shown.index("alice") and shown.index("dave") < shown.index("carol")
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    assert "awarded" in audit and "to east–west: north played out of turn" in audit
    assert "already awarded" in await refused(
        h,
        "owner",
        "league award",
        league=LEAGUE,
        match=f"M{match_id}",
        side="east-west",
        reason="x",
    )


async def test_replay_and_void_of_a_void_match_are_refused(interactions):
    h = interactions
    await quick_league(h)
    match_id = await played(h)
    replay = await h.command(
        "owner", "league replay", league=LEAGUE, match=f"M{match_id}", reason="x"
    )
    assert "to be replayed" in replay.text
    assert "already does not count" in await refused(
        h, "owner", "league void", league=LEAGUE, match=f"M{match_id}", reason="y"
    )


async def test_unvoid_of_a_match_that_is_not_void_is_refused(interactions):
    h = interactions
    await quick_league(h)
    match_id = await played(h)
    assert "not void" in await refused(
        h, "owner", "league unvoid", league=LEAGUE, match=f"M{match_id}", reason="x"
    )


async def test_a_correction_without_a_reason_is_refused(interactions):
    h = interactions
    await quick_league(h)
    match_id = await played(h)
    assert "needs a reason" in await refused(
        h, "owner", "league void", league=LEAGUE, match=f"M{match_id}", reason="  "
    )


async def test_a_correction_of_another_leagues_match_is_refused(interactions):
    h = interactions
    await quick_league(h)
    await quick_league(h, "Other")
    match_id = await played(h, "Other")
    text = await refused(h, "owner", "league void", league=LEAGUE, match=f"M{match_id}", reason="x")
    assert "was not played for the league “friday night”" in text


async def test_a_correction_of_a_match_of_no_league_or_another_server_is_refused(interactions):
    h = interactions
    await quick_league(h)
    table = await start_four(h)
    await close_table(h, "alice")
    text = await refused(
        h, "owner", "league void", league=LEAGUE, match=f"M{table.match_id}", reason="x"
    )
    assert "not played for the league" in text
    async with h.bot.db.transaction():
        other = await h.bot.db.execute(
            "INSERT INTO matches (guild_id, table_id, status, started_at, league_id)"
            " VALUES (?, 1, 'finished', '2026-01-01T00:00:00Z', 1)",
            (h.world.guild.id + 1,),
        )
    text = await refused(h, "owner", "league void", league=LEAGUE, match=f"M{other}", reason="x")
    assert f"no match m{other} on this server" in text


async def test_a_correction_of_a_match_that_does_not_count_is_refused(interactions):
    h = interactions
    await quick_league(h)
    table = await start_four(h, league=LEAGUE)
    text = await refused(
        h, "owner", "league void", league=LEAGUE, match=f"M{table.match_id}", reason="x"
    )
    assert "does not count" in text and "/league match" in text


async def leaver_match(h: InteractionHarness, rule: str) -> int:
    """dave leaves the league's match after it starts (a computer takes his seat) and alice
    then closes the table: the match's id."""
    await quick_league(h)
    await h.command("owner", "league settings", league=LEAGUE, leaver=rule)
    table = await start_four(h, league=LEAGUE)
    assert (await h.command("dave", "table leave")).ephemeral
    await close_table(h, "alice")
    return table.match_id


async def test_a_leaver_forfeits_when_the_league_says_so(interactions):
    h = interactions
    match_id = await leaver_match(h, "forfeit")
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    assert f"M{match_id} a forfeit by the league's rule: dave (east–west) left" in audit
    shown = await standings(h)
    assert shown.index("alice") < shown.index("bob")  # dave's side (east-west) lost
    assert "dave" in shown  # the leaver is charged with the loss too, not left out
    said = (await h.command("bob", "league match", id=f"M{match_id}")).text
    assert f"M{match_id} counts for the league **{LEAGUE}** as a forfeit by east–west" in said
    # Voided and un-voided, it is the league's rule's forfeit again, with the rule's reason.
    for action in ("void", "unvoid"):
        await h.command(
            "owner", f"league {action}", league=LEAGUE, match=f"M{match_id}", reason="x"
        )
    assert (await h.command("bob", "league match", id=f"M{match_id}")).text == said


async def test_a_change_of_the_leaver_rule_says_matches_counted_keep_theirs(interactions):
    """A match dave left counted as no contest; the organiser then set leaver:forfeit and was
    told "a match a player left ... counts as a forfeit by that side", as if of every such
    match, while the one already counted stays no contest (each match takes the rule as it
    ends). The answer says the rule holds from the next such match, those counted keep
    theirs, and how to correct one; a change of other settings says nothing of it."""
    h = interactions
    match_id = await leaver_match(h, "no_contest")
    before = (await h.command("bob", "league match", id=f"M{match_id}")).text
    assert "no contest" in before, before
    said = (await h.command("owner", "league settings", league=LEAGUE, leaver="forfeit")).text
    assert "counts as a forfeit by that side from the next such match that ends" in said, said
    assert "those already counted keep theirs" in said and "`/league award`" in said, said
    assert (await h.command("bob", "league match", id=f"M{match_id}")).text == before
    said = (await h.command("owner", "league settings", league=LEAGUE, min_games=3)).text
    assert "already counted" not in said and said.endswith("a forfeit by that side."), said


async def test_a_table_closed_with_nobody_gone_is_no_leaver_but_no_contest(interactions):
    """The host closes the table mid-match with all four still seated: the rule for leavers
    has nothing to decide, even where it is a forfeit; the match is no contest, in the
    audit under the host's name (tests/interaction/test_leagues_harden2.py awards one)."""
    h = interactions
    await quick_league(h)
    await h.command("owner", "league settings", league=LEAGUE, leaver="forfeit")
    table = await start_four(h, league=LEAGUE)
    await close_table(h, "alice")
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    assert f"M{table.match_id} no contest by <@{h.member('alice').id}>" in audit, audit
    said = (await h.command("bob", "league match", id=f"M{table.match_id}")).text
    assert said == (
        f"M{table.match_id} does not count for the league **{LEAGUE}**:\n"
        "- no contest: the host closed its table, so it was abandoned before it finished"
    )


async def test_a_player_the_host_removes_makes_no_contest_not_a_forfeit(interactions):
    """The host kicks an adversary mid-match where the rule is a forfeit: a host may not
    decide a league match, so it is no contest."""
    h = interactions
    await quick_league(h)
    await h.command("owner", "league settings", league=LEAGUE, leaver="forfeit")
    table = await start_four(h, league=LEAGUE)
    assert (await h.command("alice", "table kick", member=h.member("bob"))).ephemeral
    await close_table(h, "alice")
    said = (await h.command("carol", "league match", id=f"M{table.match_id}")).text
    assert said == (
        f"M{table.match_id} does not count for the league **{LEAGUE}**:\n"
        "- no contest: the host removed a player from the table"
    )
    assert "No match has counted yet" in await standings(h)


async def test_timing_out_until_a_computer_holds_the_seat_is_leaving_even_back_again(
    interactions,
):
    """Timing out repeatedly hands the seat to a computer: the league's rule for leavers
    applies though the member took his seat back and the match was played to its end."""
    h = interactions
    await quick_league(h)
    await h.command("owner", "league settings", league=LEAGUE, leaver="forfeit")
    table = await start_four(h, league=LEAGUE)
    seat = table.match.to_act
    member = h.member_at(seat)
    while not table.seats[seat].is_bot:
        if table.match.to_act == seat:
            await h.manager.time_out_now(table)
        else:
            await act(h)
        await h.settle()
    assert (await h.command(member, "table back")).ephemeral
    assert table.seats[seat].user_id == member.id
    await play_match(h)
    said = (await h.command("bob", "league match", id=f"M{table.match_id}")).text
    loser = ("north–south", "east–west")[seat % 2]
    assert f"counts for the league **{LEAGUE}** as a forfeit by {loser}" in said


@pytest.mark.parametrize(
    ("action", "options", "words"),
    [
        (
            "void",
            {},
            "does not count for the league **Friday Night**:\n- an organiser voided it: why",
        ),
        ("replay", {}, "- an organiser marked it to be replayed: why"),
        (
            "award",
            {"side": "east-west"},
            "counts for the league **Friday Night**, awarded to east–west by an organiser: why.",
        ),
    ],
)
async def test_league_match_says_what_a_correction_made_of_it(interactions, action, options, words):
    h = interactions
    await quick_league(h)
    match_id = await played(h)
    await h.command(
        "owner", f"league {action}", league=LEAGUE, match=f"M{match_id}", reason="why", **options
    )
    said = (await h.command("bob", "league match", id=f"M{match_id}")).text
    assert said == f"M{match_id} {words}" or words in said, said
    await h.command("owner", "league unvoid", league=LEAGUE, match=f"M{match_id}", reason="back")
    if action != "award":
        back = (await h.command("bob", "league match", id=f"M{match_id}")).text
        assert back == f"M{match_id} counts for the league **{LEAGUE}**."


async def test_a_leaver_is_no_contest_by_default(interactions):
    h = interactions
    match_id = await leaver_match(h, "no_contest")
    audit = (await h.command("bob", "league audit", league=LEAGUE)).text
    assert f"M{match_id} no contest by the league's rule" in audit
    assert "No match has counted yet" in await standings(h)


# -- exports --------------------------------------------------------------------------------


async def test_exports_are_csv_and_egn_files(interactions):
    h = interactions
    await quick_league(h)
    match_id = await played(h)
    exchange = await h.command("bob", "league export", league=LEAGUE, what="standings")
    assert exchange.ephemeral and exchange.reply.attachments
    rows = list(csv.DictReader(io.StringIO(exchange.reply.attachments[0].data.decode("utf-8-sig"))))
    assert sorted(r["player"] for r in rows) == sorted(PLAYERS)
    assert {r["rank"] for r in rows} <= {"1", "2", "3", "4"}
    exchange = await h.command("bob", "league export", league=LEAGUE, what="ratings")
    rows = list(csv.DictReader(io.StringIO(exchange.reply.attachments[0].data.decode("utf-8-sig"))))
    assert len(rows) == 4 and all(
        float(r["mu"]) - 3 * float(r["sigma"]) == pytest.approx(float(r["rating"])) for r in rows
    )
    exchange = await h.command("bob", "league export", league=LEAGUE, what="fixtures")
    assert exchange.ephemeral and exchange.reply.attachments[0].filename.endswith("fixtures.csv")
    assert (
        exchange.reply.attachments[0]
        .data.decode("utf-8-sig")
        .startswith("fixture,series,format,round")
    )
    exchange = await h.command("bob", "league export", league=LEAGUE, what="games")
    archive = zipfile.ZipFile(io.BytesIO(exchange.reply.attachments[0].data))
    names = archive.namelist()
    assert names == [f"M{match_id}-game1.egn"]
    game = import_egn(json.loads(archive.read(names[0])))
    stored = await h.bot.db.fetchone(
        "SELECT score_0, score_1 FROM games WHERE match_id = ?", (match_id,)
    )
    assert tuple(game.final_score) == tuple(stored)  # replayed from the file to the stored score


async def test_seasons_are_offered_as_they_are_typed(interactions):
    h = interactions
    await quick_league(h)
    await start(h, name="Autumn")
    await h.command("owner", "league season end", league=LEAGUE)
    await start(h, name="Winter")
    offered = await h.autocomplete("bob", "league standings", "season", "", league=LEAGUE)
    assert [c["value"] for c in offered] == ["Winter", "Autumn"]
    offered = await h.autocomplete("bob", "league export", "season", "aut", league=LEAGUE)
    assert [c["value"] for c in offered] == ["Autumn"]


async def test_a_season_named_by_a_number_is_refused(interactions):
    h = interactions
    await quick_league(h)
    assert "not a number" in await refused(
        h, "owner", "league season start", league=LEAGUE, name="2"
    )


async def test_league_info_names_the_running_season(interactions):
    h = interactions
    await quick_league(h)
    assert "none running" in (await h.command("bob", "league info", name=LEAGUE)).text
    await start(h, name="Autumn")
    assert "Autumn, running" in (await h.command("bob", "league info", name=LEAGUE)).text


async def test_an_ended_seasons_ratings_export_is_as_it_ended(interactions):
    h = interactions
    await quick_league(h)
    await start(h)
    await played(h)
    await h.command("owner", "league season end", league=LEAGUE)
    exported = await h.command("bob", "league export", league=LEAGUE, what="ratings", season="1")
    before = exported.reply.attachments[0].data
    await played(h)
    again = await h.command("bob", "league export", league=LEAGUE, what="ratings", season="1")
    assert again.reply.attachments[0].data == before
    rows = list(csv.DictReader(io.StringIO(before.decode("utf-8-sig"))))
    assert {r["games"] for r in rows} == {"1"}
    now = await h.command("bob", "league export", league=LEAGUE, what="ratings")
    rows = list(csv.DictReader(io.StringIO(now.reply.attachments[0].data.decode("utf-8-sig"))))
    assert {r["games"] for r in rows} == {"2"}
