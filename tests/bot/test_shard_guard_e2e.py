"""Processes that disagree on their shards, as `python -m bot` meets them (bot/shard_guard.py):

- a second process started on the shards of a running one (the same SHARD_IDS, or shards that
  share guilds under another SHARD_COUNT) exits with code 2 and one line naming the first, and
  the first keeps its tables;
- a process killed with SIGKILL and started again takes its tables back at once;
- a running process that finds an earlier live process on its shards stops, letting its
  tables go, with code 2 and one line.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sqlite3
import time
from pathlib import Path

from bot.storage import processes
from bot.storage.database import Database
from tests.bot.test_failover_e2e import ended, lease_of, open_table, told
from tests.bot.test_service_e2e import START_SECONDS, STOP_SECONDS, BotProcess, reply
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


def shard_of(fake: FakeDiscord, count: int) -> int:
    return (fake.guild.id >> 22) % count


async def exited(process: BotProcess) -> int:
    code = await asyncio.wait_for(process.process.wait(), START_SECONDS)
    await asyncio.wait_for(process._reader, STOP_SECONDS)
    return code


def lines_naming(stderr: str, text: str) -> list[str]:
    return [line for line in stderr.splitlines() if text in line]


async def test_a_second_process_on_the_shards_of_a_running_one_is_refused_naming_it(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    fake.shard_count = 2
    shard = shard_of(fake, 2)
    alice = fake.member("alice")
    first = await BotProcess.start(fake, tmp_path, db, SHARD_COUNT="2", SHARD_IDS=str(shard))
    try:
        await first.wait_ready()
        await open_table(fake, alice, fake.channel)
        owner = f"shards {shard} of 2"
        assert lease_of(db, fake.channel) == (owner, 1)
        name = f"{socket.gethostname()}:{first.process.pid}"

        # The same SHARD_IDS again, then a shard of 4 whose guilds are among the first's.
        for count, ids in (("2", str(shard)), ("4", str(shard + 2))):
            second = await BotProcess.start(fake, tmp_path, db, SHARD_COUNT=count, SHARD_IDS=ids)
            assert await exited(second) == 2, second.stderr
            (line,) = lines_naming(second.stderr, "another process")
            assert line == second.stderr.strip().splitlines()[-1]
            assert line.startswith("euchre-bot: refusing to start: another process of the bot,")
            assert f"{name} (shard {shard} of 2," in line, line
            assert "Traceback" not in second.stderr and "ready as" not in second.stderr

        # The first never noticed: its table is where it was, under the same lease.
        assert lease_of(db, fake.channel) == (owner, 1)
        await reply(await fake.slash(alice, fake.channel, "table show"))
        assert await first.stop(signal.SIGTERM) == 0, first.stderr
    finally:
        await first.end()
    assert "Traceback" not in first.stderr, first.stderr


async def test_a_process_killed_and_started_again_takes_its_tables_back_at_once(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    fake.shard_count = 2
    env = {"SHARD_COUNT": "2", "SHARD_IDS": str(shard_of(fake, 2))}
    alice = fake.member("alice")
    killed = await BotProcess.start(fake, tmp_path, db, **env)
    again: BotProcess | None = None
    try:
        await killed.wait_ready()
        await open_table(fake, alice, fake.channel)
        owner, fence = lease_of(db, fake.channel)
        killed.process.kill()
        await ended(killed)

        again = await BotProcess.start(fake, tmp_path, db, **env)
        await again.wait_ready()
        await fake.wait_for(
            lambda: told(fake, fake.channel) == 1,
            timeout=START_SECONDS,
            what="the table to resume on the restarted process",
        )
        # Its predecessor beat a moment before the kill, but its pid is gone: no wait.
        assert "still runs" not in again.stderr, again.stderr
        assert lease_of(db, fake.channel) == (owner, fence + 1)
        assert await again.stop(signal.SIGTERM) == 0, again.stderr
    finally:
        for process in (killed, again):
            if process is not None:
                await process.end()
    assert again is not None and "Traceback" not in again.stderr, again.stderr


async def test_a_process_that_finds_an_earlier_live_one_on_its_shards_stops(fake_discord, tmp_path):
    """Another process, started before this one on another host, turns out to be running (it
    beats): this one lets its tables go and stops, with code 2 and one line."""
    fake, db = fake_discord, tmp_path / "euchre.db"
    alice = fake.member("alice")
    bot = await BotProcess.start(fake, tmp_path, db)
    try:
        await bot.wait_ready()
        await open_table(fake, alice, fake.channel)
        other = processes.Start(
            name="other-host:4242",
            incarnation="other",
            scope=None,
            lease_owner="the bot",
            started_at=time.time() - 3600,
            beat_at=time.time(),
        )
        database = await Database.open(db)
        try:
            async with database.transaction():
                await processes.register(database, other)
            # It beats (the bot reads each beat at its own, every 2 s) until the bot stops.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + START_SECONDS
            while bot.process.returncode is None:
                assert loop.time() < deadline, f"the bot did not stop:\n{bot.stderr}"
                await asyncio.sleep(0.5)
                async with database.transaction():
                    await processes.beat(database, other, time.time())
        finally:
            await database.close()
        assert await exited(bot) == 2, bot.stderr
    finally:
        await bot.end()
    (line,) = lines_naming(bot.stderr, "another process")
    assert line == bot.stderr.strip().splitlines()[-1]
    assert line.startswith("euchre-bot: stopping: another process of the bot, other-host:4242")
    assert "Traceback" not in bot.stderr, bot.stderr
    # A clean stop: its table's lease released for whoever serves the guild, its row stopped.
    assert lease_until(db) == 0
    conn = sqlite3.connect(db)
    try:
        (stopped,) = conn.execute(
            "SELECT stopped_at FROM processes WHERE name = ?",
            (f"{socket.gethostname()}:{bot.process.pid}",),
        ).fetchone()
    finally:
        conn.close()
    assert stopped is not None


def lease_until(db: Path) -> float:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT lease_until FROM tables WHERE status = 'open'").fetchone()[0]
    finally:
        conn.close()


async def test_a_stop_while_waiting_for_a_predecessor_on_its_shards_ends_the_process(
    fake_discord, tmp_path
):
    """A start that waits to see whether an earlier process on another host still runs (its
    last beat is recent) stops at once on SIGTERM, with code 0 and one line, and never
    identifies. The other host's clock is ahead of this one's: its beat reads as recent for an
    hour, so only the stop can end the wait."""
    fake, db = fake_discord, tmp_path / "euchre.db"
    other = processes.Start(
        name="other-host:4242",
        incarnation="other",
        scope=None,
        lease_owner="the bot",
        started_at=time.time() - 3600,
        beat_at=time.time() + 3600,
    )
    database = await Database.open(db)
    try:
        async with database.transaction():
            await processes.register(database, other)
    finally:
        await database.close()
    bot = await BotProcess.start(fake, tmp_path, db)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_SECONDS
        while "still runs" not in bot.stderr:
            assert bot.process.returncode is None, bot.stderr
            assert loop.time() < deadline, f"the bot did not wait:\n{bot.stderr}"
            await asyncio.sleep(0.05)
        bot.process.send_signal(signal.SIGTERM)
        assert await exited(bot) == 0, bot.stderr
    finally:
        await bot.end()
    assert "Traceback" not in bot.stderr, bot.stderr
    assert not fake.identifies and "ready as" not in bot.stderr, bot.stderr
    (line,) = lines_naming(bot.stderr, "stopped while waiting")
    assert "another process" in line, line
    assert "before the start was complete" not in bot.stderr, bot.stderr  # not by accident
    # A clean stop: its own row reads as stopped (no later start waits for it).
    conn = sqlite3.connect(db)
    try:
        (stopped,) = conn.execute(
            "SELECT stopped_at FROM processes WHERE name = ?",
            (f"{socket.gethostname()}:{bot.process.pid}",),
        ).fetchone()
    finally:
        conn.close()
    assert stopped is not None
