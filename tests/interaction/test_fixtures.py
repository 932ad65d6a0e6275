"""/fixtures through real interactions: registering pairs, making and listing fixtures, sitting
down for one; every refusal private, naming the problem, and changing nothing."""

from __future__ import annotations

import re

import pytest

from bot.storage import fixtures as store
from bot.tables.fixtures import DAY
from tests.interaction.helpers import play_match
from tests.interaction.test_leagues import join_all, make_league
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

START = 1_700_000_000.0
FIXTURE_TABLES = ("fixture_pairs", "fixture_series", "fixtures", "fixture_seats")


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(interactions) -> Clock:
    """The fixtures' clock, moved by the test."""
    moved = Clock()
    interactions.bot.fixtures.clock = moved
    return moved


async def fixtures_stored(h: InteractionHarness) -> list[list[tuple]]:
    return [
        [tuple(r) for r in await h.bot.db.fetchall(f"SELECT * FROM {name} ORDER BY 1, 2")]
        for name in FIXTURE_TABLES
    ]


async def refused(h: InteractionHarness, member: str, command: str, /, **options) -> str:
    """A command that must be refused: its private answer, lower-cased; nothing changed."""
    before = await fixtures_stored(h)
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    assert await fixtures_stored(h) == before, "a refused request changed the fixtures"
    return exchange.text.lower()


async def league_of_pairs(h: InteractionHarness) -> None:
    """Friday Night (modern, a single game to 1 point) with alice & bob (erin their
    alternate) and carol & dave."""
    await make_league(h, format="fixtures", points=1, match="game")
    await join_all(h, who=("alice", "bob", "carol", "dave", "erin", "frank"))
    one = await h.command(
        "alice",
        "fixtures register",
        league="Friday Night",
        partner=h.member("bob"),
        alternate=h.member("erin"),
    )
    assert one.ephemeral and "alice & bob are registered" in one.text, one.text
    assert "erin as alternate" in one.text
    two = await h.command(
        "carol", "fixtures register", league="Friday Night", partner=h.member("dave")
    )
    assert "carol & dave are registered" in two.text


async def make(h: InteractionHarness, **options) -> store.Fixture:
    options.setdefault("kind", "round_robin")
    options.setdefault("window_days", 3)
    options.setdefault("deadline", "forfeit")
    exchange = await h.command("owner", "fixtures make", league="Friday Night", **options)
    assert not exchange.ephemeral and "New fixtures of Friday Night" in exchange.text, exchange.text
    (fixture,) = await store.open_fixtures(h.bot.db)
    return fixture


# -- pairs ----------------------------------------------------------------------------------


async def test_register_and_list_the_pairs(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    shown = (await h.command("frank", "fixtures pairs", league="friday night")).reply
    assert not shown.ephemeral
    assert "1. alice & bob (alternate: erin)" in shown.text and "2. carol & dave" in shown.text


async def test_registering_with_a_non_member_is_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    text = await refused(
        h, "frank", "fixtures register", league="Friday Night", partner=h.member("gina")
    )
    assert "“gina” is not a member of the league “friday night”" in text


async def test_registering_with_oneself_is_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    text = await refused(
        h, "frank", "fixtures register", league="Friday Night", partner=h.member("frank")
    )
    assert "partner must be someone else" in text


async def test_registering_a_member_already_in_a_pair_is_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    text = await refused(
        h, "frank", "fixtures register", league="Friday Night", partner=h.member("erin")
    )
    assert "“erin” is already in the pair “alice & bob”" in text


async def test_withdraw_takes_the_pair_off_the_list(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    answer = await h.command("erin", "fixtures withdraw", league="Friday Night")
    assert answer.ephemeral and "alice & bob withdrew" in answer.text
    assert "not yet played are forfeited at once" in answer.text
    shown = (await h.command("frank", "fixtures pairs", league="Friday Night")).reply
    assert "alice" not in shown.text and "1. carol & dave" in shown.text
    assert "in no pair" in await refused(h, "alice", "fixtures withdraw", league="Friday Night")


# -- making and listing ---------------------------------------------------------------------


async def test_make_posts_the_fixtures_with_their_windows(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    fixture = await make(h, window_days=2)
    posted = h.public_messages()[-1]
    end = int(START) + 2 * DAY
    assert f"F{fixture.id}" in posted.text and "alice & bob v carol & dave" in posted.text
    assert f"<t:{end}:f>" in posted.text and f"<t:{end}:R>" in posted.text
    listed = (await h.command("frank", "fixtures list", league="Friday Night")).reply
    assert not listed.ephemeral and f"F{fixture.id}" in listed.text
    assert f"<t:{int(START)}:f> – <t:{end}:f>" in listed.text and "to play by" in listed.text
    assert "a round robin" in listed.text and "a side that did not sit down forfeits" in listed.text


async def test_make_without_manage_server_is_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    for who in ("alice", "mod"):
        text = await refused(
            h,
            who,
            "fixtures make",
            league="Friday Night",
            kind="swiss",
            window_days=3,
            deadline="forfeit",
        )
        assert "manage this server" in text


async def test_make_with_fewer_than_two_pairs_is_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    await h.command("carol", "fixtures withdraw", league="Friday Night")
    text = await refused(
        h,
        "owner",
        "fixtures make",
        league="Friday Night",
        kind="swiss",
        window_days=3,
        deadline="forfeit",
    )
    assert "at least two registered pairs" in text and "has 1" in text


@pytest.mark.parametrize("days", [0, -2])
async def test_make_with_a_window_that_ends_before_it_starts_is_refused(interactions, clock, days):
    h = interactions
    await league_of_pairs(h)
    text = await refused(
        h,
        "owner",
        "fixtures make",
        league="Friday Night",
        kind="round_robin",
        window_days=days,
        deadline="extend",
    )
    assert "window must end after it starts" in text


async def test_list_before_any_fixture_says_how_to_make_them(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    assert "/fixtures make" in await refused(h, "alice", "fixtures list", league="Friday Night")
    await make(h)
    assert "page 2 does not exist: the league's fixtures fill 1 page" in await refused(
        h, "alice", "fixtures list", league="Friday Night", page=2
    )


async def test_standings_before_any_fixture_or_of_an_elimination_are_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    text = await refused(h, "alice", "fixtures standings", league="Friday Night")
    assert "no fixtures yet" in text and "/fixtures make" in text
    await h.command(
        "owner",
        "fixtures make",
        league="Friday Night",
        kind="single_elimination",
        window_days=3,
        deadline="forfeit",
    )
    text = await refused(h, "alice", "fixtures standings", league="Friday Night")
    assert "elimination, which has no table" in text and "/fixtures list" in text


async def test_standings_of_a_swiss_event_under_way_show_its_table_so_far(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    await make(h, kind="swiss")
    shown = (await h.command("frank", "fixtures standings", league="Friday Night")).reply
    assert not shown.ephemeral and "table so far" in shown.text
    assert "alice & bob: 0 match points" in shown.text and "carol & dave" in shown.text


# -- playing --------------------------------------------------------------------------------


async def test_a_fixture_played_through_to_its_result(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    fixture = await make(h)
    first = await h.command("carol", "fixtures play", fixture=f"F{fixture.id}")
    assert first.ephemeral and "Its table is open in this channel" in first.text
    table = h.table()
    assert table.league_id is not None and table.seats[0].user_id == h.member("carol").id
    # A league member who is not in the fixture cannot take a seat with /table join.
    assert "kept for the players of a fixture" in (await h.command("frank", "table join")).text
    for who in ("alice", "dave"):
        assert (
            "You sit down" in (await h.command(who, "fixtures play", fixture=f"F{fixture.id}")).text
        )
    last = await h.command("erin", "fixtures play", fixture=f"{fixture.id}")  # for bob
    assert "the match starts" in last.text and table.playing
    names = [o.name for o in table.seats]
    assert names == ["carol", "alice", "dave", "erin"]
    await play_match(h)
    await h.bot.fixtures.tick()
    decided = await store.fixture_by_id(h.bot.db, fixture.id)
    assert decided.state == "played" and decided.match_id == table.match_id
    result = next(m for m in h.public_messages() if f"**F{fixture.id}**, " in m.text)
    winner = await h.bot.db.fetchval("SELECT winner FROM matches WHERE id = ?", (table.match_id,))
    # carol & dave sat north and south (side 0), and are the second pair of the fixture.
    name, games = ("carol & dave", "0–1") if winner == 0 else ("alice & bob", "1–0")
    assert f"won by {name}, {games} in games (M{table.match_id})" in result.text
    # The round robin is over: its winner and its table.
    final = h.public_messages()[-1].text
    assert f"Won by **{name}**" in final
    assert f"1. {name}: 1 match point · opponents 0% · games 100%" in final
    table_text = (await h.command("erin", "fixtures standings", league="Friday Night")).text
    assert "final table" in table_text and f"1. {name}: 1 match point" in table_text


async def test_playing_a_fixture_one_is_not_in_is_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    fixture = await make(h)
    text = await refused(h, "frank", "fixtures play", fixture=f"F{fixture.id}")
    assert (
        f"you do not play in f{fixture.id}" in text
        and "“alice & bob” against “carol & dave”" in text
    )
    assert h.table() is None


async def test_playing_a_fixture_after_its_window_is_refused(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    fixture = await make(h, window_days=1)
    clock.now = fixture.closes_at + 1
    text = await refused(h, "alice", "fixtures play", fixture=f"F{fixture.id}")
    assert "window ended" in text and f"<t:{fixture.closes_at}:r>" in text


@pytest.mark.parametrize(
    ("typed", "words"), [("F999", "no fixture f999"), ("x1", "not a fixture id")]
)
async def test_an_unknown_fixture_is_refused(interactions, clock, typed, words):
    h = interactions
    await league_of_pairs(h)
    await make(h)
    assert words in await refused(h, "alice", "fixtures play", fixture=typed)


async def test_reminders_mention_exactly_the_fixtures_players(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    fixture = await make(h)
    clock.now = fixture.closes_at - DAY + 60
    await h.bot.fixtures.tick()
    await h.bot.fixtures.tick()
    reminders = [m for m in h.public_messages() if "must be played within a day" in m.text]
    assert len(reminders) == 1
    mentioned = {int(u) for u in re.findall(r"<@(\d+)>", reminders[0].text)}
    players = {h.member(n).id for n in ("alice", "bob", "erin", "carol", "dave")}
    assert mentioned == players
    call = next(c for c in reversed(h.calls) if "must be played" in c.content)
    allowed = call.message_data["allowed_mentions"]
    assert {int(u) for u in allowed["users"]} == players and allowed["parse"] == []


async def test_play_offers_the_members_own_open_fixtures(interactions, clock):
    h = interactions
    await league_of_pairs(h)
    fixture = await make(h)
    offered = await h.autocomplete("erin", "fixtures play", "fixture", "")
    assert [c["value"] for c in offered] == [f"F{fixture.id}"]
    assert offered[0]["name"] == f"F{fixture.id} · alice & bob v carol & dave"
    assert await h.autocomplete("erin", "fixtures play", "fixture", "zzz") == []
    assert await h.autocomplete("frank", "fixtures play", "fixture", "") == []
