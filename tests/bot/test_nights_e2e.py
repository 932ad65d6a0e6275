"""A whole euchre night through the real bot and the fake Discord: 16 members of a league on
4 tables (each in its own thread) over 3 rounds of one deal, with a restart in the middle of
round 2; the standings follow every deal, and the night closes with its EMN record."""

from __future__ import annotations

import json
from collections import Counter

import discord

from bot.engine.egn import import_emn
from bot.leagues.rounds import pair
from bot.storage import nights
from tests.bot.helpers import enabled_actions, eventually, running_bot
from tests.leagues.test_night import emn_validator
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

PLAYERS = [f"player{n:02}" for n in range(1, 17)]


async def slash(fake: FakeDiscord, who: str, command: str, /, **options) -> str:
    """A command's private answer."""
    message = await (await fake.slash(fake.member(who), fake.channel, command, **options)).message()
    assert message.ephemeral, message.text
    return message.text


async def play_by_clicks(bot, fake: FakeDiscord, table) -> None:
    """The member to act opens the hand from the thread's table message and clicks the first
    action open to them, as a member would."""
    seat = table.match.to_act
    member = fake.guild.members[table.seats[seat].user_id]
    message = await eventually(
        lambda: (
            (m := fake.messages_by_id.get(table.message_id)) and "My hand" in str(m.buttons) and m
        ),
        what="the table message in its thread",
    )
    hand = await (await fake.click(member, message, label="My hand")).message()
    assert hand.ephemeral and hand.visible_to == member.id
    await (await fake.click(member, hand, enabled_actions(hand)[0])).response()


async def play_deal(bot, fake: FakeDiscord, table, clicks: bool = False) -> None:
    """Play the table's deal in play to its end: by clicks, or by the members' requests to
    the manager (the same entry point the buttons reach), to keep the night short."""
    manager = bot.manager
    start = manager.deals_finished(table)
    while table.status == "playing" and manager.deals_finished(table) == start:
        seat = table.match.to_act
        occupant = table.seats[seat]
        if occupant.is_bot:
            moves = len(table.actions)
            await eventually(
                lambda m=moves: len(table.actions) > m or table.status != "playing",
                what="a computer's move",
            )
            continue
        if clicks:
            before = len(table.actions)
            await play_by_clicks(bot, fake, table)
            await eventually(lambda b=before: len(table.actions) > b, what="the click's move")
        else:
            await manager.act(table.channel_id, occupant.user_id, table.match.legal_actions()[0])


async def round_tables(bot, night_id: int, number: int) -> list:
    """The round's four tables once seated, as the manager holds them."""
    rows = await eventually_async(
        lambda: _seated(bot, night_id, number), what=f"round {number} seated"
    )
    return [bot.manager.tables[row.thread_id] for row in rows]


async def _seated(bot, night_id: int, number: int):
    rows = await nights.tables_of(bot.db, night_id, number)
    if len(rows) == 4 and all(
        (t := bot.manager.tables.get(r.thread_id)) and t.id == r.table_id and t.playing
        for r in rows
    ):
        return rows
    return None


async def eventually_async(probe, what: str, timeout: float = 30.0):
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await probe()
        if found:
            return found
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def test_a_euchre_night_of_16_on_4_tables_over_3_rounds_with_a_restart(
    fake_discord, tmp_path
):
    fake = fake_discord
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    for name in PLAYERS:
        fake.add_member(fake.guild, name)
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await slash(fake, "organiser", "league create", name="Thursday", preset="modern")
        for name in PLAYERS:
            assert "You joined" in await slash(fake, name, "league join", name="Thursday")
        opened = await slash(
            fake, "organiser", "night open", league="Thursday", rounds=3, deals_per_round=1
        )
        assert "is open" in opened
        night = await nights.open_night(bot.db, fake.channel.id)
        for name in PLAYERS[:-1]:
            assert "registered" in await slash(fake, name, "night join")
        # The last registers with the Join button on the night's message.
        message = fake.messages_by_id[(await nights.night_by_id(bot.db, night.id)).message_id]
        await (await fake.click(fake.member(PLAYERS[-1]), message, label="Join")).response()
        assert (
            "Registered (16)"
            in (
                await fake.wait_for(
                    lambda: (
                        "Registered (16)" in fake.messages_by_id[message.id].text
                        and fake.messages_by_id[message.id]
                    )
                )
            ).text
        )
        started = await slash(fake, "organiser", "night start")
        assert "16 players" in started

        tables = await round_tables(bot, night.id, 1)
        threads = {t.channel_id for t in tables}
        assert all(fake.find_channel(c).is_thread for c in threads)
        for index, table in enumerate(tables):
            assert table.league_name == "Thursday"
            await play_deal(bot, fake, table, clicks=index == 0)
        tables = await round_tables(bot, night.id, 2)
        assert {t.channel_id for t in tables}.isdisjoint(threads)
        # Two tables finish round 2; then the bot restarts with two deals in play.
        for table in tables[:2]:
            await play_deal(bot, fake, table)
        for table in tables[2:]:
            await bot.manager.act(
                table.channel_id,
                table.seats[table.match.to_act].user_id,
                table.match.legal_actions()[0],
            )
        assert not bot.handler_errors
        ids = [t.id for t in tables]

    async with running_bot(fake, db) as bot:
        for table_id in ids[2:]:
            table = next(t for t in bot.manager.tables.values() if t.id == table_id)
            assert len(table.actions) >= 1
            await play_deal(bot, fake, table)
        tables = await round_tables(bot, night.id, 3)
        for table in tables:
            await play_deal(bot, fake, table)
        closed = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "euchre night is over" in m.text),
                None,
            ),
            what="the night's close",
        )
        assert not bot.handler_errors

        # Every deal is counted: a player's total is the points their side made.
        totals = await nights.totals(bot.db, night.id)
        assert len(totals) == 16 and all(t.deals == 3 for t in totals)
        rows = await nights.tables_of(bot.db, night.id)
        assert len(rows) == 12 and all(r.done for r in rows)
        partners = Counter()
        for row in rows:
            north, east, south, west = row.seats
            partners[pair(north, south)] += 1
            partners[pair(east, west)] += 1
        assert max(partners.values()) == 1  # no one partners anyone twice
        emn_attachment = closed.attachments[0]
        emn = json.loads(emn_attachment.data)
        emn_validator().validate(emn)
        assert emn["metadata"]["matchFormat"]["type"] == "PROGRESSIVE"
        games = import_emn(emn)
        assert len(games) == 12
        scores = emn["metadata"]["result"]["scores"]
        assert {int(k): v for k, v in scores.items()} == {t.user_id: t.points for t in totals}
        standings = fake.messages_by_id[(await nights.night_by_id(bot.db, night.id)).message_id]
        assert "final standings" in standings.text
        # Anyone may ask privately where they stand, however long the list.
        first = max(totals, key=lambda t: (t.points, -t.user_id))
        asker = next(m for m in fake.guild.members.values() if m.id == first.user_id)
        place = await (await fake.click(asker, standings, label="My place")).message()
        assert place.ephemeral and place.visible_to == asker.id
        assert " of 16: " in place.text and f"**1. {asker.name}" in place.text


async def night_of(fake: FakeDiscord, bot, members: list[str], **options) -> nights.Night:
    """A league of `members` and its night open in the channel, all of them registered."""
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    await slash(fake, "organiser", "league create", name="Tuesday", preset="modern")
    for name in members:
        fake.add_member(fake.guild, name)
        assert "You joined" in await slash(fake, name, "league join", name="Tuesday")
    assert "is open" in await slash(fake, "organiser", "night open", league="Tuesday", **options)
    night = await nights.open_night(bot.db, fake.channel.id)
    for name in members[:4]:
        assert "registered" in await slash(fake, name, "night join")
    return night


async def seated(bot, night_id: int, number: int, count: int) -> list:
    """The round's tables once all `count` are seated and dealt."""

    async def probe():
        rows = await nights.tables_of(bot.db, night_id, number)
        tables = [bot.manager.tables.get(r.thread_id) for r in rows]
        if len(rows) == count and all(t is not None and t.playing for t in tables):
            return tables
        return None

    return await eventually_async(probe, what=f"round {number} seated")


def people(bot, fake: FakeDiscord, table) -> set[str]:
    return {fake.guild.members[o.user_id].name for o in table.seats if not o.is_bot}


async def test_a_latecomer_plays_from_the_next_round_at_an_extra_table(fake_discord, tmp_path):
    fake = fake_discord
    members = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"]
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        night = await night_of(fake, bot, members, rounds=3, deals_per_round=1)
        await slash(fake, "organiser", "night start")
        (first,) = await seated(bot, night.id, 1, 1)

        # Two come late, with no place free: from round 2, an extra table of their own.
        told = await slash(fake, "eve", "night join")
        assert "from round 2" in told and "extra table" in told and "3 computers" in told
        told = await slash(fake, "fay", "night join")
        assert "from round 2" in told and "extra table" in told and "2 computers" in told
        await play_deal(bot, fake, first)
        schedule_table, extra = await seated(bot, night.id, 2, 2)
        assert people(bot, fake, schedule_table) == {"ann", "ben", "cat", "dan"}
        assert people(bot, fake, extra) == {"eve", "fay"}
        assert sum(o.is_bot for o in extra.seats) == 2
        for name in ("eve", "fay"):  # the thread's first message mentions them
            mention = f"<@{fake.member(name).id}>"
            await fake.wait_for(
                lambda m=mention: next(
                    (x for x in fake.public_messages(extra.channel_id) if m in x.text), None
                ),
                what=f"{name} mentioned in the extra table's thread",
            )

        # One more during round 2 takes a computer's seat at the extra table from round 3.
        told = await slash(fake, "gus", "night join")
        assert "from round 3" in told and "a seat a computer plays now" in told
        for table in (schedule_table, extra):
            await play_deal(bot, fake, table)
        schedule_table, extra = await seated(bot, night.id, 3, 2)
        assert people(bot, fake, extra) == {"eve", "fay", "gus"}
        for table in (schedule_table, extra):
            await play_deal(bot, fake, table)
        await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "euchre night is over" in m.text),
                None,
            ),
            what="the night's close",
        )
        totals = {t.user_id: t for t in await nights.totals(bot.db, night.id)}
        deals = {fake.guild.members[u].name: t.deals for u, t in totals.items()}
        assert deals == {"ann": 3, "ben": 3, "cat": 3, "dan": 3, "eve": 2, "fay": 2, "gus": 1}
        assert not bot.handler_errors


async def test_a_table_closed_by_table_close_is_noticed_without_waiting_for_a_poll(
    fake_discord, tmp_path, monkeypatch
):
    from bot.tables import nights as night_runner

    # The safety net's look would come only after the test's bound: the close must wake it.
    monkeypatch.setattr(night_runner, "SAFETY_POLL_SECONDS", 3600.0)
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        night = await night_of(fake, bot, ["ann", "ben", "cat", "dan"], rounds=2, deals_per_round=3)
        await slash(fake, "organiser", "night start")
        (table,) = await seated(bot, night.id, 1, 1)
        host = fake.guild.members[table.host_id]
        thread = fake.find_channel(table.channel_id)
        asked = await (await fake.slash(host, thread, "table close")).message()
        await fake.click(host, asked, label="Close the table")
        (second,) = await seated(bot, night.id, 2, 1)  # round 1 is over: round 2 is seated
        assert second.id != table.id
        rows = await nights.tables_of(bot.db, night.id, 1)
        assert all(r.done for r in rows)
        assert not bot.handler_errors
