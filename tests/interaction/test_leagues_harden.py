"""Leagues, fixtures and euchre nights against bad timing: two requests about the same night
at once are answered as if one came after the other, and neither works from what the other
has already changed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.storage.database import Database
from tests.interaction.test_fixtures import START, league_of_pairs
from tests.interaction.test_fixtures import make as make_fixtures
from tests.interaction.test_fixtures import refused as fixtures_refused
from tests.interaction.test_harden import command_in_a_dm
from tests.interaction.test_league_seasons import LEAGUE, played, quick_league
from tests.interaction.test_league_seasons import refused as league_refused
from tests.interaction.test_nights import open_night
from tests.support.interactions import Exchange, InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

BOUND = 10.0  # seconds: a bound on waiting, never a measure


async def queued_behind(h: InteractionHarness, night_id: int, who: str, name: str) -> asyncio.Task:
    """``who`` runs ``/name`` while the night is busy: the command has read the night and
    waits its turn (the night's lock) before it changes anything."""
    lock = h.bot.get_cog("Nights").runner._lock(night_id)
    waiting = len(lock._waiters or ())
    task: asyncio.Task[Exchange] = asyncio.create_task(h.command(who, name))
    async with asyncio.timeout(BOUND):
        while len(lock._waiters or ()) == waiting:
            await asyncio.sleep(0.01)
    return task


@contextlib.asynccontextmanager
async def writes_held(h: InteractionHarness) -> AsyncIterator[None]:
    """Nothing is written until the block ends: the writes queued meanwhile then run in the
    order queued."""
    held = asyncio.Event()

    async def hold(db: Database) -> None:
        await held.wait()

    holding = asyncio.create_task(h.bot.manager.writer.write(hold))
    try:
        yield
    finally:
        held.set()
        await holding


async def write_queued(
    h: InteractionHarness, who: str, command: str, /, **options: Any
) -> asyncio.Task:
    """``who`` runs ``/command``, which has read what it needs and queued its write."""
    writer = h.bot.manager.writer
    before = writer._queue.qsize()
    task: asyncio.Task[Exchange] = asyncio.create_task(h.command(who, command, **options))
    async with asyncio.timeout(BOUND):
        while writer._queue.qsize() == before:
            await asyncio.sleep(0.01)
    return task


async def test_a_player_leaving_as_the_night_starts_is_marked_gone_not_forgotten(interactions):
    """A leave read the night as open, waited while it started, then deleted the player as if
    the night had not started: the plan still seated him, and his place vanished from the
    night's players (and his results from its standings) while he sat at a table."""
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    runner = h.bot.get_cog("Nights").runner
    runner._stopped = True  # its rounds are not seated: the harness has no threads
    lock = runner._lock(night_id)
    async with lock:
        start = await queued_behind(h, night_id, "owner", "night start")
        leave = await queued_behind(h, night_id, "alice", "night leave")
    started, left = await start, await leave
    assert "4 players" in started.text, started.text
    assert left.ephemeral and "no longer registered" in left.text, left.text
    alice = h.member("alice").id
    row = await h.bot.db.fetchone(
        "SELECT left_round FROM night_players WHERE night_id = ? AND user_id = ?",
        (night_id, alice),
    )
    assert row is not None and row["left_round"] is not None


async def test_a_player_leaving_as_the_night_closes_leaves_its_record_alone(interactions):
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    players = await h.bot.db.fetchall("SELECT * FROM night_players ORDER BY rowid")
    runner = h.bot.get_cog("Nights").runner
    async with runner._lock(night_id):
        close = await queued_behind(h, night_id, "owner", "night close")
        leave = await queued_behind(h, night_id, "alice", "night leave")
    closed, left = await close, await leave
    assert "closed" in closed.text, closed.text
    assert left.ephemeral and left.text == "This euchre night is over", left.text
    after = await h.bot.db.fetchall("SELECT * FROM night_players ORDER BY rowid")
    assert [tuple(r) for r in after] == [tuple(r) for r in players]


async def test_a_member_joining_as_the_night_closes_is_told_it_is_over(interactions):
    """A join read the night as open, and its write came after the close: the member was
    registered for a closed night, told so as if it were open, and its record changed."""
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol"):
        await h.command(name, "night join")
    players = await h.bot.db.fetchall("SELECT * FROM night_players ORDER BY rowid")
    async with writes_held(h):
        close = await write_queued(h, "owner", "night close")
        join = await write_queued(h, "dave", "night join")
    closed, joined = await close, await join
    assert "closed" in closed.text, closed.text
    assert joined.ephemeral and joined.text == "This euchre night is over", joined.text
    after = await h.bot.db.fetchall("SELECT * FROM night_players ORDER BY rowid")
    assert [tuple(r) for r in after] == [tuple(r) for r in players]


async def test_a_correction_whose_reason_shows_nothing_is_refused(interactions):
    """A reason of zero-width spaces (or Hangul fillers, a blank braille pattern) was taken:
    the audit then read "(a member with no visible name)" where its reason goes."""
    h = interactions
    await quick_league(h)
    match = f"M{await played(h)}"
    for reason in ("\u200b\u200b", "\u3164", "\u2800 \u200d", "\n\t"):
        text = await league_refused(
            h, "owner", "league void", league=LEAGUE, match=match, reason=reason
        )
        assert text == "a correction needs a reason: say why, in up to 200 characters", text
    # A reason on many lines is kept on one: the audit's page of eight stays a page.
    voided = await h.command(
        "owner", "league void", league=LEAGUE, match=match, reason="late\n\n\n\nprotest"
    )
    assert "voided" in voided.text, voided.text
    reason = await h.bot.db.fetchval("SELECT reason FROM league_audit", (), None)
    assert reason == "late protest"


async def test_a_member_joining_as_he_leaves_the_league_is_not_registered(interactions):
    """A join checked the membership, then queued its write behind the member's /league
    leave: a member of no league was registered for its night, and played at its tables."""
    h = interactions
    await open_night(h)
    async with writes_held(h):
        leave = await write_queued(h, "dave", "league leave", name=LEAGUE)
        join = await write_queued(h, "dave", "night join")
    left, joined = await leave, await join
    assert "You left" in left.text, left.text
    assert joined.ephemeral and "Only members of the league" in joined.text, joined.text
    assert await h.bot.db.fetchval("SELECT COUNT(*) FROM night_players", (), 0) == 0


# -- where the commands work ------------------------------------------------------------------

IN_A_DM = [
    ("league season start", {"league": LEAGUE}),
    ("league season end", {"league": LEAGUE}),
    ("league void", {"league": LEAGUE, "match": "M1", "reason": "x"}),
    ("league award", {"league": LEAGUE, "match": "M1", "side": "east-west", "reason": "x"}),
    ("league settings", {"league": LEAGUE, "min_games": 3}),
    ("fixtures make", {"league": LEAGUE, "kind": "swiss", "window_days": 3, "deadline": "forfeit"}),
    ("night open", {"league": LEAGUE}),
    ("night join", {}),
    ("night leave", {}),
    ("night start", {}),
    ("night close", {}),
]


async def test_league_fixture_and_night_commands_sent_from_a_dm_say_where_they_work(
    interactions,
):
    """An older client still offers them in a DM: an organiser's command answered that only
    members who may manage this server could use it (the organiser could), a night's that no
    night was open "in this channel"."""
    h = interactions
    await open_night(h)
    for name, options in IN_A_DM:
        async with h.unchanged():
            exchange = await command_in_a_dm(h, "owner", name, **options)
        assert exchange.text == "This works in a server, not in direct messages", (name, exchange)


async def test_a_player_registered_for_the_leagues_night_cannot_leave_the_league(interactions):
    """He left the league and stayed registered: the night seated him, and the matches of his
    tables counted for nobody (a league's table counts only with its members)."""
    h = interactions
    await open_night(h)
    await h.command("dave", "night join")
    text = await league_refused(h, "dave", "league leave", name=LEAGUE)
    assert text.startswith("you are registered for the league “friday night”'s euchre night in <#")
    assert "/night leave" in text
    await h.command("dave", "night leave")
    assert "You left" in (await h.command("dave", "league leave", name=LEAGUE)).text


async def test_a_start_pressed_as_the_night_closes_says_it_is_over_not_started(interactions):
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    async with h.bot.get_cog("Nights").runner._lock(night_id):
        close = await queued_behind(h, night_id, "owner", "night close")
        start = await queued_behind(h, night_id, "admin", "night start")
    closed, started = await close, await start
    assert "closed" in closed.text, closed.text
    assert started.ephemeral and started.text == "This euchre night is over", started.text
    row = await h.bot.db.fetchone("SELECT status, plan FROM nights")
    assert (row["status"], row["plan"]) == ("closed", None)


async def test_a_fixture_of_a_pair_that_withdrew_cannot_be_sat_down_for(interactions):
    """Between a pair's withdrawal and the scheduler's next look (which forfeits its
    fixtures), the other pair (or the withdrawn one) could open the fixture's table and sit
    down; with four seated its match began, and decided a fixture meant to be forfeited."""
    h = interactions
    h.bot.fixtures.clock = lambda: START
    await league_of_pairs(h)
    fixture = await make_fixtures(h)
    await h.command("carol", "fixtures withdraw", league=LEAGUE)
    for who in ("alice", "dave"):
        text = await fixtures_refused(h, who, "fixtures play", fixture=f"F{fixture.id}")
        assert text == (
            f"f{fixture.id} is not to be played: “carol & dave” withdrew from the fixtures, so it"
            " is forfeited"
        ), text
    assert h.table() is None


async def test_night_commands_in_a_thread_of_the_nights_channel_are_for_its_night(interactions):
    """A player at a round's table, in its thread, ran /night leave and was told no euchre
    night was open "in this channel", one to be opened with /night open."""
    h = interactions
    await open_night(h)
    thread = h.world.add_thread(h.channel, "Round 1 · table 1")
    await h.settle()
    joined = await h.command("alice", "night join", channel=thread)
    assert joined.ephemeral and "registered" in joined.text, joined.text
    left = await h.command("alice", "night leave", channel=thread)
    assert left.ephemeral and "no longer registered" in left.text, left.text
    assert await h.bot.db.fetchval("SELECT COUNT(*) FROM night_players", (), 0) == 0
