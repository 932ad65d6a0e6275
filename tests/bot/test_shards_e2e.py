"""Two bot processes, each running one of two shards, on one database: each serves only its
shard's guilds, and a restarted process restores only its own tables."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal

import pytest

from tests.bot.test_service_e2e import START_SECONDS, BotProcess, reply
from tests.support.fake_discord import FakeDiscord

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
