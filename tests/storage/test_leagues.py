"""Leagues and their members in storage: real aiosqlite on a file."""

from __future__ import annotations

import pytest

from bot.engine.rules import build_options
from bot.leagues.counting import reasons_not_counted
from bot.storage import leagues, results
from bot.storage.leagues import LeagueError
from tests.storage.builders import GUILD, TABLE, quick_rubber, seats

RULES = build_options("modern").to_dict()


async def create(db, name="Friday Night", guild=GUILD, **kwargs):
    kwargs.setdefault("format", "ladder")
    kwargs.setdefault("standing", "rubber_points")
    kwargs.setdefault("substitutes", False)
    async with db.transaction():
        return await leagues.create_league(db, guild, name, RULES, created_by=1, **kwargs)


async def count(db, table):
    return await db.fetchval(f"SELECT COUNT(*) FROM {table}", (), 0)


async def test_a_created_league_keeps_its_rules_and_is_found_in_any_case(db):
    made = await create(db, "  Friday Night ", format="fixtures", standing="games")
    found = await leagues.find_league(db, GUILD, "friday NIGHT")
    assert found == made
    assert (found.name, found.preset, found.options) == ("Friday Night", "modern", RULES)
    assert (found.format, found.standing, found.substitutes) == ("fixtures", "games", False)


async def test_a_name_taken_in_the_server_is_refused_whatever_its_case(db):
    await create(db, "Friday Night")
    with pytest.raises(LeagueError, match="already has a league named “Friday Night”"):
        await create(db, "FRIDAY night")
    assert await count(db, "leagues") == 1


async def test_the_same_name_in_another_server_is_a_league_of_its_own(db):
    await create(db, "Friday Night")
    other = await create(db, "Friday Night", guild=GUILD + 1)
    assert other.guild_id == GUILD + 1 and await count(db, "leagues") == 2


@pytest.mark.parametrize(("name", "words"), [("", "1 to 40"), ("   ", "1 to 40"), ("x" * 41, "41")])
async def test_an_empty_or_too_long_name_is_refused(db, name, words):
    with pytest.raises(LeagueError, match=words):
        await create(db, name)
    assert await count(db, "leagues") == 0


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("\u200b", "not invisible or control characters"),  # a zero-width space alone
        ("Friday\u200bNight", "not invisible or control characters"),
        ("Friday\u202eNight", "not invisible or control characters"),  # right-to-left override
        ("Friday\x07Night", "not invisible or control characters"),
        ("\u0301\u0301", "needs a letter, a digit or a symbol that shows"),  # accents alone
        ("\u3164", "not invisible"),  # a Hangul filler: a letter that shows as nothing
        ("Club\u2800", "not invisible"),  # the blank braille pattern
        ("Club\u034f", "not invisible"),  # the combining grapheme joiner
    ],
)
async def test_an_invisible_name_or_one_with_control_characters_is_refused(db, name, words):
    with pytest.raises(LeagueError, match=words):
        await create(db, name)
    assert await count(db, "leagues") == 0


async def test_a_name_is_kept_on_one_line_in_its_compatibility_form_and_compared_so(db):
    made = await create(db, "Friday\n  Night")
    assert made.name == "Friday Night"
    # Full-width letters and a ligature are the same letters: the name is taken.
    with pytest.raises(LeagueError, match="already has a league named “Friday Night”"):
        await create(db, "ＦＲＩＤＡＹ Night")
    assert (await create(db, "ﬁve kings")).name == "five kings"
    assert (await leagues.find_league(db, GUILD, "ＦＩＶＥ KINGS")).name == "five kings"
    family = await create(db, "👨\u200d👩\u200d👧 Club")  # an emoji sequence keeps its joiners
    assert family.name == "👨\u200d👩\u200d👧 Club"


async def test_a_name_of_forty_characters_is_taken(db):
    assert (await create(db, "x" * 40)).name == "x" * 40


async def test_an_unknown_format_or_standing_is_refused(db):
    with pytest.raises(LeagueError, match="unknown format"):
        await create(db, format="knockout")
    with pytest.raises(LeagueError, match="unknown standing"):
        await create(db, standing="elo")
    assert await count(db, "leagues") == 0


async def test_an_unknown_league_is_named(db):
    with pytest.raises(LeagueError, match="no league named “Tuesdays”"):
        await leagues.find_league(db, GUILD, "Tuesdays")


async def test_another_servers_league_is_unknown_here(db):
    await create(db, "Friday Night", guild=GUILD + 1)
    with pytest.raises(LeagueError, match="no league named"):
        await leagues.find_league(db, GUILD, "Friday Night")


async def test_joining_twice_and_leaving_when_not_a_member_are_refused(db):
    league = await create(db)
    async with db.transaction():
        await leagues.join_league(db, league, 5, "erin")
    with pytest.raises(LeagueError, match="already a member of the league “Friday Night”"):
        async with db.transaction():
            await leagues.join_league(db, league, 5, "erin")
    assert await leagues.member_count(db, league.id) == 1
    async with db.transaction():
        await leagues.leave_league(db, league, 5)
    assert not await leagues.is_member(db, league.id, 5)
    with pytest.raises(LeagueError, match="not a member of the league “Friday Night”"):
        async with db.transaction():
            await leagues.leave_league(db, league, 5)


async def test_members_come_in_pages_of_twenty_in_the_order_they_joined(db):
    league = await create(db)
    async with db.transaction():
        for user in range(1, 46):
            await leagues.join_league(db, league, 1000 - user, f"member{user}")
    first = await leagues.member_page(db, league.id, 1)
    last = await leagues.member_page(db, league.id, 3)
    assert (first.pages, first.total, len(first.members), len(last.members)) == (3, 45, 20, 5)
    assert first.members[0] == (999, "member1") and last.members[-1] == (955, "member45")
    with pytest.raises(LeagueError, match="page 4 does not exist"):
        await leagues.member_page(db, league.id, 4)
    with pytest.raises(LeagueError, match="page 0 does not exist"):
        await leagues.member_page(db, league.id, 0)


async def test_an_empty_league_has_one_empty_page(db):
    page = await leagues.member_page(db, (await create(db)).id)
    assert (page.members, page.pages, page.total) == ((), 1, 0)


async def test_autocomplete_names_contain_what_was_typed_those_starting_with_it_first(db):
    for name in ("Night Owls", "Friday Night", "100% Club", "Sunday"):
        await create(db, name)
    await create(db, "Nightly", guild=GUILD + 1)
    assert await leagues.league_names(db, GUILD, "night") == ["Night Owls", "Friday Night"]
    assert await leagues.league_names(db, GUILD, "%") == ["100% Club"]
    assert await leagues.league_names(db, GUILD, "_") == []
    assert len(await leagues.league_names(db, GUILD, "")) == 4


async def test_a_league_match_counts_with_its_members_and_rules(db):
    league = await create(db)
    async with db.transaction():
        for user in (1, 2, 3, 4):
            await leagues.join_league(db, league, user, f"player{user}")
    match_id = await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(2, 0))
    async with db.transaction():
        await leagues.set_match_league(db, match_id, league.id)
    standing = await leagues.match_standing(db, GUILD, match_id)
    assert standing.league == league and standing.facts.status == "finished"
    assert standing.league_facts is not None
    assert standing.league_facts.members == frozenset({1, 2, 3, 4})
    # The builders record a preset of "somerset": the league plays modern rules.
    assert sorted(reasons_not_counted(standing.facts, standing.league_facts)) == [
        "its options differ from the league's: points is 5, the league's is 10",
        "its options differ from the league's: preset is somerset, the league's is modern",
    ]


async def test_a_match_in_play_has_no_players_yet_and_is_not_finished(db):
    league = await create(db)
    async with db.transaction():
        match_id = await results.new_match_id(db, GUILD, TABLE)
        await leagues.set_match_league(db, match_id, league.id)
    standing = await leagues.match_standing(db, GUILD, match_id)
    assert standing.facts.players == () and standing.facts.options is None
    assert reasons_not_counted(standing.facts, standing.league_facts) == ["it is not finished yet"]


async def test_a_match_of_another_server_is_not_found(db):
    match_id = await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(2, 0))
    with pytest.raises(LeagueError, match=f"no match M{match_id} on this server"):
        await leagues.match_standing(db, GUILD + 1, match_id)
