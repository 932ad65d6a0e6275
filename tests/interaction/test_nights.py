"""/night through real interactions: opening, registering and leaving, the night's message,
and every refusal private and changing nothing (its rounds are played in
tests/bot/test_nights_e2e.py, against the fake Discord's threads)."""

from __future__ import annotations

import discord

from tests.interaction.test_leagues import join_all, make_league
from tests.support.fake_discord import BOT_PERMISSIONS, EVERYONE_PERMISSIONS
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def nights_stored(h: InteractionHarness) -> list[list[tuple]]:
    """Every night and registration stored."""
    db = h.bot.db
    return [
        [tuple(r) for r in await db.fetchall("SELECT * FROM nights ORDER BY id")],
        [tuple(r) for r in await db.fetchall("SELECT * FROM night_players ORDER BY rowid")],
        [tuple(r) for r in await db.fetchall("SELECT * FROM night_rounds")],
        [tuple(r) for r in await db.fetchall("SELECT * FROM night_tables")],
    ]


async def refused(h: InteractionHarness, member: str, command: str, /, **options) -> str:
    """Run a command that must be refused: its private answer, lower-cased; nothing stored
    changed and no public message was posted or edited."""
    before = await nights_stored(h)
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    assert await nights_stored(h) == before, "a refused request changed a night"
    return exchange.text.lower()


async def open_night(h: InteractionHarness, **options) -> str:
    await make_league(h)
    await join_all(h)
    exchange = await h.command("owner", "night open", league="Friday Night", **options)
    assert exchange.ephemeral, exchange.text
    return exchange.text


def night_message(h: InteractionHarness):
    """The night's own message: the first the bot posted about it."""
    found = [m for m in h.public_messages() if "Euchre night" in m.text]
    assert found, "no night message"
    return found[0]


async def test_night_open_posts_the_night_message_with_a_join_button(interactions):
    h = interactions
    text = await open_night(h, rounds=3, deals_per_round=2)
    assert "is open" in text and "Friday Night" in text and "3 rounds" in text
    message = night_message(h)
    assert "registration" in message.text and "2 deals a round" in message.text
    assert any(b.get("label") == "Join" for b in message.buttons)
    row = await h.bot.db.fetchone("SELECT * FROM nights")
    assert (row["status"], row["rounds"], row["deals_per_round"], row["late"]) == (
        "open",
        3,
        2,
        "computer",
    )


async def test_night_open_defaults_to_four_deals_a_round(interactions):
    h = interactions
    await open_night(h)
    row = await h.bot.db.fetchone("SELECT deals_per_round, minutes_per_round FROM nights")
    assert tuple(row) == (4, None)


async def test_night_open_with_minutes_and_winners_move_up(interactions):
    h = interactions
    await open_night(h, minutes_per_round=20, movement="winners_move_up", late="bye")
    assert "20 minutes a round" in night_message(h).text
    assert "winners move up" in night_message(h).text


async def test_night_join_and_leave_update_the_night_message(interactions):
    h = interactions
    await open_night(h)
    for name in ("alice", "bob"):
        assert "registered" in (await h.command(name, "night join")).text
    assert "Registered (2)" in night_message(h).text
    assert "alice" in night_message(h).text
    left = await h.command("alice", "night leave")
    assert left.ephemeral and "no longer registered" in left.text
    assert "Registered (1)" in night_message(h).text


async def test_night_join_button_registers_a_member(interactions):
    h = interactions
    await open_night(h)
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    exchange = await h.click("carol", f"euchre:night:{night_id}:join")
    assert exchange.ephemeral and "registered" in exchange.text
    assert "carol" in night_message(h).text


async def test_night_close_before_the_start_posts_empty_standings_and_a_record(interactions):
    h = interactions
    await open_night(h)
    await h.command("alice", "night join")
    exchange = await h.command("owner", "night close")
    assert "closed" in exchange.text
    row = await h.bot.db.fetchone("SELECT status FROM nights")
    assert row["status"] == "closed"
    closing = [m for m in h.public_messages() if "euchre night is over" in m.text]
    assert closing and closing[0].attachments[0].filename.endswith(".emn")
    assert not any(b.get("label") == "Join" for b in night_message(h).buttons)


# -- refusals ---------------------------------------------------------------------------


async def test_opening_a_night_without_manage_server_is_refused(interactions):
    h = interactions
    await make_league(h)
    text = await refused(h, "alice", "night open", league="Friday Night")
    assert "manage this server" in text


async def test_a_second_night_in_the_same_channel_is_refused(interactions):
    h = interactions
    await open_night(h)
    text = await refused(h, "admin", "night open", league="Friday Night")
    assert "already open in this channel" in text


async def test_opening_a_night_for_an_unknown_league_is_refused(interactions):
    h = interactions
    await make_league(h)
    text = await refused(h, "owner", "night open", league="Nowhere")
    assert "nowhere" in text


async def test_deals_and_minutes_together_are_refused(interactions):
    h = interactions
    await make_league(h)
    text = await refused(
        h, "owner", "night open", league="Friday Night", deals_per_round=2, minutes_per_round=9
    )
    assert "deals or of minutes" in text


async def test_joining_twice_is_refused(interactions):
    h = interactions
    await open_night(h)
    await h.command("alice", "night join")
    assert "already registered" in await refused(h, "alice", "night join")


async def test_joining_a_night_of_200_is_refused_and_a_start_past_200_names_the_limit(
    interactions,
):
    """A night seats at most 200 (the largest schedule): the 201st is told so, privately, and
    nothing changes; a night that somehow holds more is refused at its start, not broken."""
    h = interactions
    await open_night(h)
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    rows = [(night_id, 1000 + i, f"p{i}", "2026-12-01T00:00:00+00:00", 0) for i in range(199)]
    async with h.bot.db.transaction():
        await h.bot.db.executemany(
            "INSERT INTO night_players (night_id, user_id, name, joined_at, joined_round)"
            " VALUES (?, ?, ?, ?, ?)",
            rows,
        )
    await h.command("alice", "night join")  # the 200th
    text = await refused(h, "bob", "night join")
    assert "this euchre night is full" in text and "at most 200 players" in text
    async with h.bot.db.transaction():
        await h.bot.db.execute(
            "INSERT INTO night_players (night_id, user_id, name, joined_at, joined_round)"
            " VALUES (?, 5000, 'extra', '2026-12-01T00:00:00+00:00', 0)",
            (night_id,),
        )
    text = await refused(h, "owner", "night start")
    assert "at most 200 players" in text and "it has 201" in text
    assert not h.logged_errors


async def test_joining_as_a_non_member_of_the_league_is_refused(interactions):
    h = interactions
    await open_night(h)
    text = await refused(h, "erin", "night join")
    assert "only members of the league" in text and "/league join" in text


async def test_the_join_button_refuses_a_non_member(interactions):
    h = interactions
    await open_night(h)
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    before = await nights_stored(h)
    exchange = await h.click("erin", f"euchre:night:{night_id}:join")
    assert exchange.ephemeral and "only members of the league" in exchange.text.lower()
    assert await nights_stored(h) == before


async def test_starting_with_fewer_than_four_registered_is_refused(interactions):
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol"):
        await h.command(name, "night join")
    text = await refused(h, "owner", "night start")
    assert "at least 4 players" in text and "it has 3" in text


async def test_starting_answers_at_once_then_privately_with_the_start(interactions):
    """The plan of a large night takes seconds to draw, past Discord's 3 s for a first answer:
    the start is deferred (privately) before it is drawn, then answered."""
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    exchange = await h.command("owner", "night start")
    assert exchange.response_type == 5  # deferred, "thinking"
    assert exchange.ephemeral and "4 players" in exchange.text


async def test_starting_is_for_the_organiser(interactions):
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    assert "organiser" in await refused(h, "alice", "night start")
    assert "organiser" in await refused(h, "alice", "night close")


def without(h: InteractionHarness, permission: str) -> None:
    """The bot loses a permission in the channel (from @everyone and from its own role)."""
    flag = discord.Permissions(**{permission: True}).value
    h.world.guild.everyone_permissions = EVERYONE_PERMISSIONS & ~flag
    h.world.bot_permissions = BOT_PERMISSIONS & ~flag


def restore(h: InteractionHarness) -> None:
    h.world.guild.everyone_permissions = EVERYONE_PERMISSIONS
    h.world.bot_permissions = BOT_PERMISSIONS


async def test_a_missing_thread_permission_is_named_at_open_and_at_start(interactions):
    h = interactions
    await make_league(h)
    await join_all(h)
    without(h, "create_public_threads")
    text = await refused(h, "owner", "night open", league="Friday Night")
    assert "create public threads" in text
    restore(h)
    await h.command("owner", "night open", league="Friday Night")
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    without(h, "send_messages_in_threads")
    text = await refused(h, "owner", "night start")
    assert "send messages in threads" in text
    restore(h)


async def test_night_commands_where_no_night_is_open_are_refused(interactions):
    h = interactions
    await make_league(h)
    await join_all(h)
    for command in ("night join", "night leave", "night start", "night close"):
        text = await refused(h, "owner", command)
        assert "no euchre night is open in this channel" in text, command


async def test_leaving_a_night_one_never_joined_is_refused(interactions):
    h = interactions
    await open_night(h)
    assert "not registered" in await refused(h, "bob", "night leave")
