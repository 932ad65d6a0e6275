"""/league and tables that play for a league, through real interactions: every command, and
every refusal private and changing nothing."""

from __future__ import annotations

import pytest

from tests.interaction.helpers import PLAYERS, close_table, play_match, seat_four, start_four
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def leagues_stored(h: InteractionHarness) -> list[tuple]:
    """Every league and membership stored, and the league of every match."""
    db = h.bot.db
    return [
        [tuple(r) for r in await db.fetchall("SELECT * FROM leagues ORDER BY id")],
        [tuple(r) for r in await db.fetchall("SELECT * FROM league_members ORDER BY rowid")],
        [tuple(r) for r in await db.fetchall("SELECT id, league_id FROM matches ORDER BY id")],
    ]


async def refused(h: InteractionHarness, member: str, command: str, /, **options) -> str:
    """Run a command that must be refused: its private answer, lower-cased; no table, league
    or membership changed."""
    before = await leagues_stored(h)
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    assert await leagues_stored(h) == before, "a refused request changed a league"
    return exchange.text.lower()


async def make_league(h: InteractionHarness, name: str = "Friday Night", **options) -> None:
    options.setdefault("preset", "modern")
    exchange = await h.command("owner", "league create", name=name, **options)
    assert exchange.ephemeral and "is open" in exchange.text, exchange.text


async def join_all(h: InteractionHarness, name: str = "Friday Night", who=PLAYERS) -> None:
    for member in who:
        exchange = await h.command(member, "league join", name=name)
        assert exchange.ephemeral and "You joined" in exchange.text, exchange.text


# -- /league create -------------------------------------------------------------------------


async def test_league_create_fixes_the_rules_format_and_standing(interactions):
    h = interactions
    await make_league(
        h, preset="modern", points=7, match="game", format="fixtures", standing="games"
    )
    row = await h.bot.db.fetchone("SELECT * FROM leagues")
    assert (row["name"], row["preset"], row["format"], row["standing"]) == (
        "Friday Night",
        "modern",
        "fixtures",
        "games",
    )
    assert row["substitutes"] == 0 and row["created_by"] == h.member("owner").id
    info = (await h.command("alice", "league info", name="friday night")).reply
    assert not info.ephemeral and "Friday Night" in info.text
    assert "7 points a game" in info.text and "single games" in info.text
    assert "fixtures" in info.text and "games won" in info.text and "0 members" in info.text


async def test_league_create_by_an_admin_with_substitutes(interactions):
    h = interactions
    exchange = await h.command(
        "admin", "league create", name="Open", preset="somerset", substitutes=True
    )
    assert "is open" in exchange.text
    info = (await h.command("bob", "league info", name="open")).reply
    assert "allowed" in info.text and "ladder" in info.text and "rubber points" in info.text


async def test_league_create_without_manage_server_is_refused(interactions):
    h = interactions
    text = await refused(h, "alice", "league create", name="Mine", preset="modern")
    assert "manage this server" in text
    # A moderator who may manage channels, not the server, is refused too.
    assert "manage this server" in await refused(
        h, "mod", "league create", name="Mine", preset="modern"
    )


@pytest.mark.parametrize(
    ("name", "words"),
    [("", "1 to 40"), ("   ", "1 to 40"), ("x" * 41, "at most 40 characters")],
)
async def test_league_create_with_an_empty_or_too_long_name_is_refused(interactions, name, words):
    h = interactions
    assert words in await refused(h, "owner", "league create", name=name, preset="modern")


async def test_league_create_with_a_name_taken_in_any_case_is_refused(interactions):
    h = interactions
    await make_league(h, "Friday Night")
    text = await refused(h, "admin", "league create", name="FRIDAY NIGHT", preset="jerome")
    assert "already has a league named “friday night”" in text


async def test_league_create_with_bad_options_is_refused(interactions):
    h = interactions
    assert "points" in await refused(
        h, "owner", "league create", name="Bad", preset="modern", points=0
    )
    assert "unknown format" in await refused(
        h, "owner", "league create", name="Bad", preset="modern", format="knockout"
    )


async def test_a_league_name_is_shown_escaped(interactions):
    h = interactions
    exchange = await h.command("owner", "league create", name="**Bold** _club_", preset="modern")
    assert r"\*\*Bold\*\* \_club\_" in exchange.text
    info = (await h.command("alice", "league info", name="**bold** _club_")).reply
    assert r"\*\*Bold\*\*" in info.text
    text = await refused(h, "admin", "league create", name="**BOLD** _CLUB_", preset="modern")
    assert r"\*\*bold\*\* \_club\_" in text


# -- join, leave, members -------------------------------------------------------------------


async def test_join_leave_and_members_in_the_order_they_joined(interactions):
    h = interactions
    await make_league(h)
    await join_all(h, who=("carol", "alice", "bob"))
    page = (await h.command("dave", "league members", name="Friday Night")).reply
    assert not page.ephemeral
    assert page.text.index("carol") < page.text.index("alice") < page.text.index("bob")
    assert "3 members" in page.text
    left = await h.command("alice", "league leave", name="friday night")
    assert left.ephemeral and "You left" in left.text
    page = (await h.command("dave", "league members", name="Friday Night")).reply
    assert "alice" not in page.text and "2 members" in page.text


async def test_joining_twice_is_refused(interactions):
    h = interactions
    await make_league(h)
    await join_all(h, who=("alice",))
    assert "already a member" in await refused(h, "alice", "league join", name="Friday Night")


async def test_leaving_a_league_one_is_not_in_is_refused(interactions):
    h = interactions
    await make_league(h)
    text = await refused(h, "alice", "league leave", name="Friday Night")
    assert "not a member of the league “friday night”" in text


@pytest.mark.parametrize(
    "command", ["league join", "league leave", "league info", "league members"]
)
async def test_an_unknown_league_is_refused(interactions, command):
    h = interactions
    assert "no league named “nowhere”" in await refused(h, "alice", command, name="Nowhere")


async def test_a_page_of_members_that_does_not_exist_is_refused(interactions):
    h = interactions
    await make_league(h)
    assert "page 2 does not exist" in await refused(
        h, "alice", "league members", name="Friday Night", page=2
    )


async def test_league_names_are_offered_as_they_are_typed(interactions):
    h = interactions
    for name in ("Friday Night", "Night Owls", "Sunday"):
        await make_league(h, name)
    offered = await h.autocomplete("alice", "league join", "name", "nig")
    assert [c["value"] for c in offered] == ["Night Owls", "Friday Night"]
    offered = await h.autocomplete("alice", "table create", "league", "sun")
    assert [c["value"] for c in offered] == ["Sunday"]


# -- tables that play for a league ----------------------------------------------------------


async def test_a_league_table_plays_by_the_leagues_rules_and_seats_only_members(interactions):
    h = interactions
    await make_league(h, preset="modern", points=7, joker=True)
    await join_all(h, who=("alice", "bob"))
    exchange = await h.command("alice", "table create", league="friday night")
    assert exchange.ephemeral and "for the league **Friday Night**" in exchange.text
    table = h.table()
    assert (table.options.preset, table.options.points, table.options.joker) == (
        "modern",
        7,
        True,
    )
    assert (table.league_name, table.league_id) == ("Friday Night", 1)
    assert "Plays for the league **Friday Night**" in h.table_message().text
    assert "You sit at" in (await h.command("bob", "table join")).text
    text = await refused(h, "carol", "table join")
    assert "plays for the league “friday night”" in text and "/league join" in text
    join = f"euchre:table:{table.id}:join"
    async with h.unchanged():
        clicked = await h.click("dave", join)
    assert "/league join" in clicked.text
    stored = await h.bot.db.fetchval("SELECT state FROM tables WHERE id = ?", (table.id,))
    assert '"league_id": 1' in stored and '"league_name": "Friday Night"' in stored


async def test_a_league_table_with_options_that_differ_is_refused(interactions):
    h = interactions
    await make_league(h, preset="modern", points=7)
    await join_all(h, who=("alice",))
    text = await refused(h, "alice", "table create", league="Friday Night", points=10, joker=True)
    assert "points is 10, the league's is 7" in text and "joker is on" in text
    assert "preset is jerome" in await refused(
        h, "alice", "table create", league="Friday Night", preset="jerome"
    )
    assert h.table() is None
    # The same values as the league's are not a difference.
    exchange = await h.command(
        "alice", "table create", league="Friday Night", preset="modern", points=7
    )
    assert "for the league" in exchange.text


async def test_a_table_for_an_unknown_league_is_refused(interactions):
    h = interactions
    assert "no league named “nowhere”" in await refused(
        h, "alice", "table create", league="Nowhere"
    )
    assert h.table() is None


async def test_league_match_of_a_finished_league_game_counts(interactions):
    h = interactions
    await make_league(h, preset="modern", points=1, match="game")
    await join_all(h)
    table = await start_four(h, league="Friday Night")
    match_id = table.match_id
    assert await h.bot.db.fetchval("SELECT league_id FROM matches WHERE id = ?", (match_id,)) == 1
    playing = await h.command("bob", "league match", id=f"M{match_id}")
    assert "does not count" in playing.text and "not finished yet" in playing.text
    await play_match(h)
    counted = await h.command("bob", "league match", id=f"m{match_id}")
    assert counted.text == f"M{match_id} counts for the league **Friday Night**."


async def test_a_player_at_the_leagues_table_is_told_to_leave_it_before_the_league(interactions):
    """Leaving the league from its table would make the match count for nobody, past the
    league's rule for leavers: refused, and the match counts as played."""
    h = interactions
    await make_league(h, preset="modern", points=1, match="game")
    await join_all(h)
    table = await start_four(h, league="Friday Night")
    refused = await h.command("carol", "league leave", name="Friday Night")
    assert refused.ephemeral and "leave the table first" in refused.text
    await play_match(h)
    text = (await h.command("alice", "league match", id=f"M{table.match_id}")).text
    assert text == f"M{table.match_id} counts for the league **Friday Night**."


async def test_league_match_keeps_its_verdict_when_a_player_leaves_the_league_after(interactions):
    """The standings keep a match that counted when it ended, and so does /league match."""
    h = interactions
    await make_league(h, preset="modern", points=1, match="game")
    await join_all(h)
    table = await start_four(h, league="Friday Night")
    await play_match(h)
    await h.command("carol", "league leave", name="Friday Night")
    text = (await h.command("alice", "league match", id=f"M{table.match_id}")).text
    assert text == f"M{table.match_id} counts for the league **Friday Night**."


async def flagged_and_abandoned(h: InteractionHarness, league: str) -> str:
    """alice, bob, carol and a computer play for the league until alice closes the table: the
    answer to /league match of that match."""
    await join_all(h, league, who=("alice", "bob", "carol"))
    await h.command("alice", "table create", league=league)
    for name in ("bob", "carol"):
        await h.command(name, "table join")
    await h.command("alice", "table addbot")
    await h.command("alice", "table start")
    match_id = h.table().match_id
    await close_table(h, "alice")
    return (await h.command("alice", "league match", id=f"M{match_id}")).text


async def test_a_substitute_at_a_league_table_must_be_a_member_too(interactions):
    """A league table seats only the league's members: a substitute who is not one is refused
    privately and nothing is asked of the others; a member may be named."""
    h = interactions
    await make_league(h, preset="modern", substitutes=True)
    await join_all(h)
    table = await start_four(h, league="Friday Night")
    text = await refused(h, "dave", "table substitute", member=h.member("erin"))
    assert "only its members may be a substitute" in text and "/league join" in text
    assert table.substitution is None
    await h.command("erin", "league join", name="Friday Night")
    asked = await h.command("dave", "table substitute", member=h.member("erin"))
    assert table.substitution is not None, asked.text


async def test_league_match_of_a_flagged_match_does_not_count_without_substitutes(interactions):
    h = interactions
    await make_league(h, "Strict", preset="modern")
    text = await flagged_and_abandoned(h, "Strict")
    assert "a computer or a substitute played in it" in text
    assert "abandoned before it finished" in text


async def test_league_match_of_a_flagged_match_where_substitutes_are_allowed(interactions):
    h = interactions
    await make_league(h, "Relaxed", preset="modern", substitutes=True)
    text = await flagged_and_abandoned(h, "Relaxed")
    assert "computer" not in text and "abandoned before it finished" in text


async def test_league_match_of_a_match_not_for_a_league(interactions):
    h = interactions
    table = await start_four(h)
    await close_table(h, "alice")
    text = (await h.command("alice", "league match", id=f"M{table.match_id}")).text
    assert "was not created for a league" in text and "abandoned" in text


@pytest.mark.parametrize("match_id", ["M999", "G1", "nonsense", "M²", "M-1"])
async def test_league_match_of_an_id_that_is_not_a_match_of_this_server(interactions, match_id):
    h = interactions
    text = await refused(h, "alice", "league match", id=match_id)
    assert "no match m999 on this server" in text or "is not a match id" in text


async def test_league_match_of_another_servers_match_is_refused(interactions):
    h = interactions
    async with h.bot.db.transaction():
        other = await h.bot.db.execute(
            "INSERT INTO matches (guild_id, table_id, status, started_at)"
            " VALUES (?, 1, 'finished', '2026-01-01T00:00:00Z')",
            (h.world.guild.id + 1,),
        )
    text = await refused(h, "alice", "league match", id=f"M{other}")
    assert f"no match m{other} on this server" in text


async def test_seat_four_in_a_league_is_a_table_of_members(interactions):
    h = interactions
    await make_league(h)
    await join_all(h)
    table = await seat_four(h, league="Friday Night")
    assert table.full and table.league_id == 1
