"""Discord's global REST limit belongs to the bot, not to a process.

Two `python -m bot` processes each run one of two shards with `REST_BUDGET` set for the bot:
each keeps to its half, so together they stay within the budget while both have more to send
than it allows. (Interaction responses are exempt from the limit and are not counted.)
"""

from __future__ import annotations

import asyncio
import signal

from bot.rest_budget import counts_globally
from tests.bot.test_service_e2e import BotProcess, reply
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

BUDGET = 4  # requests a second for the whole bot: 2 for each of the two processes
TABLES = 16  # opened at once in each process's server: a table message each, and more


def counted_times(fake: FakeDiscord, since: int) -> list[float]:
    """When each request the global limit counts arrived, from request number `since` on."""
    pairs = zip(fake.requests[since:], fake.request_times[since:], strict=True)
    return [at for (_, path), at in pairs if counts_globally("/api/v10" + path)]


async def test_two_processes_keep_together_within_the_bots_rest_budget(fake_discord, tmp_path):
    fake, db = fake_discord, tmp_path / "euchre.db"
    fake.shard_count = 2
    guilds = [fake.add_guild("One", shard=(0, 2)), fake.add_guild("Two", shard=(1, 2))]
    env = {"SHARD_COUNT": "2", "DEV_GUILD_ID": "", "REST_BUDGET": str(BUDGET)}
    processes = [
        await BotProcess.start(fake, tmp_path, db, SHARD_IDS=str(shard), **env) for shard in (0, 1)
    ]
    try:
        await asyncio.gather(*(p.wait_ready() for p in processes))
        await asyncio.sleep(1.0)  # start-up's own requests spent, the budgets idle again
        since = len(fake.requests)
        hosts = [
            (fake.add_member(guild, f"host-{g}-{n}"), fake.add_channel(guild, f"euchre-{g}-{n}"))
            for g, guild in enumerate(guilds)
            for n in range(TABLES)
        ]
        opened = await asyncio.gather(
            *(fake.slash(m, c, "table create", preset="modern") for m, c in hosts)
        )
        for handle in opened:
            await reply(handle)  # answered at once: interaction responses are not held back
        await fake.wait_for(
            lambda: all(
                any(m.embeds for m in fake.public_messages(channel)) for _, channel in hosts
            ),
            timeout=60,
            what="every table's message",
        )
        times = counted_times(fake, since)
        assert len(times) >= 2 * TABLES
        # A process's budget lets `burst` requests (its rate, rounded down) go at once after a
        # quiet spell, then one every 1/rate seconds: over any span the bot sends at most
        # BUDGET a second plus the two bursts. Two processes each keeping the whole budget
        # would have sent these in half the time.
        bursts = 2 * (BUDGET // 2)
        span = times[-1] - times[0]
        # The arrival times are the fake's, in this test's busy process: a margin for requests
        # read late and stamped together. Two processes each keeping the whole budget would
        # have taken about (n - 8) / 8 seconds, under half of this.
        needed = (len(times) - bursts - 1) / BUDGET
        assert span >= 0.7 * needed, (len(times), span, needed)
        for i, start in enumerate(times):
            within = sum(1 for t in times[i:] if t < start + 5.0)
            assert within <= 5.0 * BUDGET + bursts + 2, (start - times[0], within)
        assert not fake.rate_limited
    finally:
        for process in processes:
            await process.end()
    for process in processes:
        assert "Traceback" not in process.stderr, process.stderr


async def test_a_stop_drops_what_waits_for_the_budget_and_the_next_start_shows_it(
    fake_discord, tmp_path
):
    """SIGTERM while table messages wait for the budget: they are dropped, not sent all at once
    (over Discord's limit, racing the closing session); the next start draws them."""
    fake, db = fake_discord, tmp_path / "euchre.db"
    # Discord's limit, scaled to this budget: a process keeping to 2 a second (a burst of 2)
    # never sends 8 in a second, but a backlog sent all at once does.
    fake.global_limit = 8
    env = {"REST_BUDGET": "2", "DEV_GUILD_ID": str(fake.guild.id)}
    bot = await BotProcess.start(fake, tmp_path, db, **env)
    hosts = [
        (fake.add_member(fake.guild, f"host-{n}"), fake.add_channel(fake.guild, f"euchre-{n}"))
        for n in range(TABLES)
    ]
    try:
        await bot.wait_ready()
        await asyncio.sleep(1.0)  # start-up's own requests spent
        opened = await asyncio.gather(
            *(fake.slash(m, c, "table create", preset="modern") for m, c in hosts)
        )
        for handle in opened:
            await reply(handle)

        def shown() -> int:
            return sum(any(m.embeds for m in fake.public_messages(c)) for _, c in hosts)

        await fake.wait_for(lambda: shown() >= 2, timeout=60, what="the first table messages")
        assert shown() < TABLES - 8  # most still wait for the budget
        assert await bot.stop(signal.SIGTERM) == 0
    finally:
        await bot.end()
    assert "Traceback" not in bot.stderr, bot.stderr
    assert fake.global_limited == 0, fake.rate_limited
    again = await BotProcess.start(fake, tmp_path, db, **env)
    try:
        await again.wait_ready()
        await fake.wait_for(
            lambda: shown() == TABLES, timeout=60, what="every table message after the restart"
        )
    finally:
        await again.end()
    assert "Traceback" not in again.stderr, again.stderr
