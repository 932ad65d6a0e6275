"""Tables outlive the process that served them, and an interaction delivered twice counts once.

- Resharding and failover: two `python -m bot` processes each run one of two shards; one is
  killed with SIGKILL in the middle of a hand, the other stopped. Two new processes run the
  same guilds as four shards. Each table resumes on its new owner: the killed process's once its
  lease has run out, the stopped one's at once. Every action stored before is there, none is
  stored twice, each channel is told once, and the hands play on.
- A gateway that replays an INTERACTION_CREATE: the second delivery changes nothing.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

from tests.bot.helpers import enabled_actions, running_bot, table_of
from tests.bot.test_service_e2e import START_SECONDS, STOP_SECONDS, BotProcess, reply
from tests.support.fake_discord import FakeChannel, FakeDiscord, FakeMember

pytest_plugins = ["tests.support.fixtures"]

RESTORED = "Table restored"


def stored_events(db: Path, channel: FakeChannel) -> list[tuple[int, str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT e.seq, e.kind, e.action FROM table_events e JOIN tables t ON t.id = e.table_id"
            " WHERE t.channel_id = ? ORDER BY e.seq",
            (channel.id,),
        ).fetchall()
    finally:
        conn.close()


def lease_of(db: Path, channel: FakeChannel) -> tuple[str, int]:
    conn = sqlite3.connect(db)
    try:
        owner, fence = conn.execute(
            "SELECT owner, fence FROM tables WHERE channel_id = ? AND status = 'open'",
            (channel.id,),
        ).fetchone()
        return owner, fence
    finally:
        conn.close()


async def open_table(fake: FakeDiscord, member: FakeMember, channel: FakeChannel) -> None:
    await reply(await fake.slash(member, channel, "table create", preset="modern"))
    for _ in range(3):
        await reply(await fake.slash(member, channel, "table addbot", level="easy"))
    await reply(await fake.slash(member, channel, "table start"))


async def play_a_turn(fake: FakeDiscord, member: FakeMember, channel: FakeChannel) -> bool:
    """The member plays his first enabled action if it is his turn; whether he did."""
    hand = await reply(await fake.slash(member, channel, "hand"))
    actions = enabled_actions(hand)
    if not actions:
        return False
    await (await fake.click(member, hand, actions[0])).response(20)
    return True


async def play_turns(fake: FakeDiscord, member: FakeMember, channel: FakeChannel, n: int) -> None:
    played = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_SECONDS
    while played < n:
        assert loop.time() < deadline, "the member's turn never came"
        played += await play_a_turn(fake, member, channel)
        await asyncio.sleep(0.1)


async def ended(process: BotProcess) -> None:
    """Until the killed process is reaped. Not `wait()`, which also waits for its standard
    error to close, and a process it started may hold that a moment longer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STOP_SECONDS
    while process.process.returncode is None:
        assert loop.time() < deadline, "the killed process was never reaped"
        await asyncio.sleep(0.05)


def told(fake: FakeDiscord, channel: FakeChannel) -> int:
    return sum(RESTORED in m.text for m in fake.public_messages(channel))


async def test_tables_resume_on_their_new_owners_after_a_kill_and_a_reshard(fake_discord, tmp_path):
    fake, db = fake_discord, tmp_path / "euchre.db"
    fake.shard_count = 2
    # Discord's one session start per 5 s in each bucket, with a bucket for each shard (a large
    # bot's max_concurrency): the processes start at once, and the test waits for leases only.
    fake.identify_window = 5.0
    fake.max_concurrency = 4
    # Guild one is on shard 0 of 4 (0 of 2), guild two on shard 3 of 4 (1 of 2).
    one, two = fake.add_guild("One", shard=(0, 4)), fake.add_guild("Two", shard=(3, 4))
    here, there = fake.add_channel(one, "euchre-1"), fake.add_channel(two, "euchre-2")
    ann, bob = fake.add_member(one, "ann"), fake.add_member(two, "bob")
    env = {"SHARD_COUNT": "2", "DEV_GUILD_ID": ""}
    kept = await BotProcess.start(fake, tmp_path, db, SHARD_IDS="0", **env)
    killed = await BotProcess.start(fake, tmp_path, db, SHARD_IDS="1", **env)
    new: list[BotProcess] = []
    try:
        await asyncio.gather(kept.wait_ready(), killed.wait_ready())
        await open_table(fake, ann, here)
        await open_table(fake, bob, there)
        await play_turns(fake, ann, here, 1)
        await play_turns(fake, bob, there, 1)
        assert lease_of(db, there) == ("shards 1 of 2", 1)

        # kill -9 in the middle of a hand; the other process stops cleanly and lets go.
        killed.process.kill()
        await ended(killed)
        assert await kept.stop(signal.SIGTERM) == 0, kept.stderr
        before = {c.id: stored_events(db, c) for c in (here, there)}

        fake.shard_count = 4
        env = {"SHARD_COUNT": "4", "DEV_GUILD_ID": ""}
        for shards in ("0,1", "2,3"):
            new.append(await BotProcess.start(fake, tmp_path, db, SHARD_IDS=shards, **env))
        await asyncio.gather(*(p.wait_ready() for p in new))
        for channel in (here, there):
            await fake.wait_for(
                lambda c=channel: told(fake, c) == 1,
                timeout=START_SECONDS,
                what=f"the table in {channel.name} to resume on its new owner",
            )
        assert lease_of(db, here) == ("shards 0,1 of 4", 2)
        assert lease_of(db, there) == ("shards 2,3 of 4", 2)

        # Nothing lost, nothing twice: what was stored is still there, in order, and the
        # hands play on from it.
        for channel, member in ((here, ann), (there, bob)):
            now = stored_events(db, channel)
            assert now[: len(before[channel.id])] == before[channel.id]
            await play_turns(fake, member, channel, 1)
            assert len(stored_events(db, channel)) > len(before[channel.id])
        await asyncio.sleep(1)
        assert told(fake, here) == told(fake, there) == 1
    finally:
        for process in (kept, killed, *new):
            await process.end()
    for process in (kept, *new):
        assert "Traceback" not in process.stderr, process.stderr


async def test_an_interaction_delivered_twice_is_applied_once(fake_discord, tmp_path):
    fake = fake_discord
    alice = fake.member("alice")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await reply(await fake.slash(alice, fake.channel, "table create", preset="modern"))
        added = await fake.slash(alice, fake.channel, "table addbot", level="easy")
        await added.response()
        await fake.redeliver(added)
        await asyncio.sleep(0.5)  # the second delivery is handled (and refused) meanwhile
        table = table_of(bot, fake)
        assert sum(1 for s in table.seats if s is not None and s.is_bot) == 1
        events = await bot.db.fetchall(
            "SELECT action FROM table_events WHERE table_id = ? ORDER BY seq", (table.id,)
        )
        assert [e["action"] for e in events] == ["create", "addbot:easy"]
        # A second click of the button is another interaction, and counts.
        await (await fake.slash(alice, fake.channel, "table addbot", level="easy")).response()
        assert sum(1 for s in table.seats if s is not None and s.is_bot) == 2
        assert not bot.handler_errors
