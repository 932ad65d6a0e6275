"""Bot processes sharing one database, each running some of the shards: each serves only its
shards' guilds, a restarted process restores only its own tables, and the session starts of all
of them are spaced through the database without a connection kept waiting for its turn."""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import signal
import time

import pytest

from bot.storage.bot_state import set_value
from bot.storage.database import Database
from tests.bot.helpers import eventually, new_bot, running_bot, settings_for
from tests.bot.test_service_e2e import START_SECONDS, BotProcess, reply
from tests.support.fake_discord import FakeDiscord
from tests.support.logs import logged_errors

pytest_plugins = ["tests.support.fixtures"]


def restored_count(stderr: str) -> int:
    found = re.findall(r"(\d+) open tables restored", stderr)
    assert found, stderr
    return int(found[-1])


async def open_table(fake: FakeDiscord, member, channel) -> None:
    await reply(await fake.slash(member, channel, "table create", preset="modern"))
    for _ in range(3):
        await reply(await fake.slash(member, channel, "table addbot", level="easy"))
    await reply(await fake.slash(member, channel, "table start"))


async def test_each_process_serves_its_shards_guilds_and_restores_only_their_tables(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    fake.shard_count = 2
    # As Discord: one session start per 5 s (max_concurrency 1); an IDENTIFY sooner gets op 9.
    fake.identify_window = 5.0
    first = fake.guild
    shard = (first.id >> 22) % 2
    second = fake.add_guild("Second Club", shard=(1 - shard, 2))
    channel = fake.add_channel(second, "euchre-2")
    bob = fake.add_member(second, "bob")
    alice = fake.member("alice")
    # Commands are synced globally (no development server) so both guilds have them.
    env = {"SHARD_COUNT": "2", "DEV_GUILD_ID": ""}
    ours = await BotProcess.start(fake, tmp_path, db, SHARD_IDS=str(shard), **env)
    theirs = await BotProcess.start(fake, tmp_path, db, SHARD_IDS=str(1 - shard), **env)
    again: BotProcess | None = None
    try:
        await asyncio.gather(ours.wait_ready(), theirs.wait_ready())
        assert sorted(s.shard for s in fake.shard_sessions()) == [(0, 2), (1, 2)]
        await open_table(fake, alice, fake.channel)
        await open_table(fake, bob, channel)

        # The second process stops: its guild's interactions have nobody to answer them, and
        # the first process still serves its own guild.
        assert await theirs.stop(signal.SIGTERM) == 0, theirs.stderr
        fake.reconnect_grace = 0.5
        with pytest.raises(RuntimeError, match="shard"):
            await fake.slash(bob, channel, "table show")
        await reply(await fake.slash(alice, fake.channel, "table show"))

        # Started again, it restores its own table and not the other's.
        again = await BotProcess.start(fake, tmp_path, db, SHARD_IDS=str(1 - shard), **env)
        await again.wait_ready()
        assert restored_count(again.stderr) == 1
        await fake.wait_for(
            lambda: any("restored" in m.text for m in fake.public_messages(channel)),
            timeout=START_SECONDS,
            what="the second guild's table to be restored",
        )
        assert not any("restored" in m.text for m in fake.public_messages(fake.channel))
        hand = await reply(await fake.slash(bob, channel, "hand"))
        assert hand.buttons or "cards" in hand.text.lower()
        # The processes spaced their session starts through the database: none was refused.
        starts = [(at, accepted) for at, _, _, accepted in fake.identifies]
        assert len(starts) == 3 and all(accepted for _, accepted in starts), fake.identifies
        assert all(b - a >= 4.9 for (a, _), (b, _) in zip(starts, starts[1:], strict=False))
    finally:
        for process in (ours, theirs, again):
            if process is not None and process.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.process.send_signal(signal.SIGTERM)
                await process.process.wait()
    for process in (ours, again):
        assert process is not None and "Traceback" not in process.stderr, process.stderr


async def test_shards_queued_in_one_bucket_each_open_one_connection_and_identify_once(
    fake_discord, tmp_path
):
    """Eight processes of one shard each start together, all in one bucket: the last waits
    seven turns, longer than discord.py keeps a connection waiting for its IDENTIFY (no
    heartbeat ACK is read meanwhile; its heartbeat timeout is 2 s here, 60 s by default). Each
    shard waits with no connection open: no connection dropped, one IDENTIFY a shard, no error."""
    fake, path = fake_discord, tmp_path / "euchre.db"
    count = 8
    fake.shard_count = count
    fake.heartbeat_interval_ms = 500
    bots = []
    for shard in range(count):
        settings = settings_for(fake, path, shard_count=count, shard_ids=(shard,))
        # Opened one after another: the first migrates the file.
        db = await Database.open(path)
        bot = new_bot(settings, database=db, identify_spacing=0.6, heartbeat_timeout=2.0)
        bot.process_name = f"process-{shard}"  # one process each, though they share this one
        bots.append(bot)
    with logged_errors() as errors:
        starts = [asyncio.create_task(bot.start(fake.token)) for bot in bots]
        try:
            await eventually(
                lambda: all(bot.is_ready() for bot in bots) or any(t.done() for t in starts),
                timeout=START_SECONDS,
                what="every process to be ready",
            )
        finally:
            for bot in bots:
                await bot.close()
            await asyncio.gather(*starts, return_exceptions=True)
    assert [t.exception() for t in starts] == [None] * count
    assert sorted(shard for _, shard, _, _ in fake.identifies) == list(range(count))
    assert all(accepted for *_, accepted in fake.identifies)
    # No connection was opened and dropped before its IDENTIFY (one a shard, unless a stall of
    # the machine made one RESUME).
    assert all(c.started for c in fake.gateway_connections), fake.gateway_connections
    assert errors == []


async def hold_the_turn(db: Database, seconds: float) -> None:
    """Another process took bucket 0's turn: this one's next start waits `seconds` (the bots of
    these tests space their starts by 0 s, so a start stored ahead is a wait)."""
    async with db.transaction():
        await set_value(db, "identify:0", repr(time.time() + seconds))


async def test_no_latency_is_reported_from_the_heartbeat_sent_before_a_wait_for_the_turn(
    fake_discord, tmp_path
):
    """discord.py measures a connection's first latency from the heartbeat it sends on HELLO to
    its ACK, read only after the IDENTIFY: after a wait for the turn, that figure is the wait.
    The bot reports none until a heartbeat sent after the IDENTIFY is acknowledged."""
    fake = fake_discord
    fake.heartbeat_interval_ms = 3000  # none but the first heartbeat during the 2 s wait
    async with running_bot(fake, tmp_path / "euchre.db", heartbeat_timeout=10.0) as bot:
        await hold_the_turn(bot.db, 2.0)
        fake.hold_heartbeat_acks = True  # none sent after the IDENTIFY is answered yet
        await fake.invalidate_session()  # the shard IDENTIFYs afresh: it waits for its turn
        await fake.wait_for(lambda: len(fake.identifies) == 2, what="the second IDENTIFY")
        # The ACK of the heartbeat sent on HELLO, about 2 s before the IDENTIFY, is read.
        await eventually(lambda: math.isfinite(bot.latencies[0][1]), what="the first ACK read")
        assert bot.latencies[0][1] > 1.0  # discord.py's figure: the wait
        assert bot.figures().latency_ms is None
        await fake.release_heartbeat_acks()
        await eventually(lambda: bot.figures().latency_ms is not None, what="a latency figure")
        assert bot.handler_errors == []


async def test_a_reconnection_whose_turn_is_far_waits_within_what_keeps_its_connection(
    fake_discord, tmp_path, caplog
):
    """A running shard told to IDENTIFY afresh while its bucket's turn is further away than
    half of discord.py's heartbeat timeout (2 s here): it gives its connection up before any
    IDENTIFY, closes it, and connects again, until its turn comes. One IDENTIFY, no error
    logged, and no connection left to discord.py's keep-alive (which would say the shard
    "has stopped responding")."""
    fake = fake_discord
    fake.heartbeat_interval_ms = 500
    async with running_bot(fake, tmp_path / "euchre.db", heartbeat_timeout=2.0) as bot:
        await hold_the_turn(bot.db, 4.0)
        await fake.invalidate_session()
        await fake.wait_for(
            lambda: len(fake.identifies) == 2 and fake.connected,
            timeout=START_SECONDS,
            what="the shard's IDENTIFY once its turn came",
        )
        assert all(accepted for *_, accepted in fake.identifies)
        dropped = [c for c in fake.gateway_connections if not c.started]
        assert dropped, "the wait fitted on one connection: the test waits too little"
        await fake.wait_for(lambda: all(c.ws.closed for c in dropped), what="dropped ones closed")
        await reply(await fake.slash(fake.member("alice"), fake.channel, "table create"))
        assert bot.handler_errors == []
    # Closed by the bot: the keep-alive, which would have closed them a heartbeat timeout
    # later, was stopped first.
    assert not [r for r in caplog.records if "stopped responding" in r.getMessage()]
