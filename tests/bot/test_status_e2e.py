"""`/admin status` and the Prometheus figures, through the real bot and the fake Discord: what a
process reports of itself (shards, tables, stored actions, Discord's 429s), and who may see it."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import signal
import socket
import time
import urllib.request

import discord
import pytest

from bot.storage import processes
from bot.storage.database import Database
from tests.bot.helpers import eventually, running_bot
from tests.bot.test_service_e2e import BotProcess
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "euchre.db"


async def reply(fake: FakeDiscord, name: str, command: str, **options) -> str:
    if command.startswith("admin"):
        # Discord offers /admin to those with Manage Server; the bot then asks for an owner.
        fake.member(name).permissions |= discord.Permissions(manage_guild=True).value
    message = await (
        await fake.slash(fake.member(name), fake.channel, command, **options)
    ).message()
    assert message.ephemeral, message.text
    return message.text


async def test_admin_status_shows_this_process_its_tables_and_stored_actions(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        assert "Your table is open" in await reply(fake, "alice", "table create")
        await reply(fake, "bob", "table join")
        text = await reply(fake, "mod", "admin status")
        assert "1 running process" in text
        assert f"{bot.process_name} (this one)" in text
        assert "Shards 0 · 1 open tables" in text
        # Creating the table and a member's sitting are two stored requests.
        assert f"({bot.manager.stored_events:,} stored since start)" in text
        assert bot.manager.stored_events >= 1


async def test_admin_status_is_for_the_bots_owners_only(fake_discord, db):
    """A server manager who is not one of the bot's owners sees nothing of its processes."""
    fake = fake_discord
    async with running_bot(fake, db):
        text = await reply(fake, "alice", "admin status")
        assert "Only the bot's owners" in text
        assert "Shards" not in text and "process" not in text


async def test_a_silent_process_is_shown_as_silent(fake_discord, db):
    """Processes sharing the database each store a report; one that stopped reporting (a crash)
    shows as silent, not as idle."""
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        figures = bot.figures()
        stopped = dataclasses.replace(figures, shards=(1,), tables=7)

        async def work(database: Database) -> None:
            await processes.report(database, "other-host:4242", stopped, time.time() - 300)

        await bot.manager.writer.write(work)
        text = await reply(fake, "mod", "admin status")
        assert "1 running process, 1 silent for over a minute" in text
        assert "other-host:4242 — silent" in text
        assert "Shards 1 · 7 open tables" in text


async def test_discords_429s_are_counted_by_scope_and_the_request_still_goes_through(
    fake_discord, db
):
    fake = fake_discord
    async with running_bot(fake, db, settings={"metrics_port": 0}) as bot:
        before = bot.metrics.rest_429
        fake.rate_limit_next = 1
        fake.rate_limit_global = True
        # Creating a table posts its message through the REST API: the first try is refused
        # (global 429), discord.py waits retry_after and sends it again.
        assert "Your table is open" in await reply(fake, "alice", "table create")
        await eventually(lambda: fake.rate_limited, what="the fake to answer 429")
        fake.rate_limit_next, fake.rate_limit_global = 1, False
        await reply(fake, "bob", "table join")
        await eventually(lambda: bot.metrics.rest_429 - before >= 2, what="two 429s counted")
        assert bot.metrics.rest_global_429 == 1
        text = await reply(fake, "mod", "admin status")
        assert "answered 429 (1 global)" in text

        # The same figures for Prometheus, read as a scraper would.
        server = bot._metrics_server
        assert server is not None and server.port
        url = f"http://127.0.0.1:{server.port}/metrics"
        body = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=30).read())
        scraped = body.decode()
        assert 'euchre_rest_rate_limited_total{scope="global"} 1.0' in scraped
        assert 'euchre_rest_rate_limited_total{scope="route"} 1.0' in scraped
        assert "euchre_tables_open 1.0" in scraped
        assert f"euchre_events_stored_total {float(bot.manager.stored_events)}" in scraped


async def test_a_process_over_its_rest_budget_waits_but_answers_interactions_at_once(
    fake_discord, db
):
    """Interaction responses are not bound to Discord's global limit, so a member is answered at
    once even while the process's other requests wait for their slot in its budget."""
    fake = fake_discord
    async with running_bot(fake, db, settings={"rest_budget": 40.0}) as bot:
        budget = bot.rest_budget
        assert budget is not None and budget.rate == 40.0
        budget._next = time.monotonic() + 1000.0  # every counted request must wait now
        assert "Your table is open" in await reply(fake, "alice", "table create")
        await eventually(lambda: budget.waited > 900, what="the table message to wait its slot")
        assert not [m for m in fake.public_messages(fake.channel) if m.embeds]
        budget.release()  # as when the bot stops: what waits goes at once
        await fake.wait_for(
            lambda: [m for m in fake.public_messages(fake.channel) if m.embeds],
            what="the table message once its slot came",
        )


async def test_admin_status_shows_how_long_ago_each_process_renewed_its_leases(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db, timers=True) as bot:
        assert "Your table is open" in await reply(fake, "alice", "table create")
        renewed = await bot.manager.tend_leases()  # as its upkeep does every 2 s
        assert renewed == []
        text = await reply(fake, "mod", "admin status")
        assert re.search(r"Leases: 1 table, the oldest renewed \d+ s ago\n", text), text
        assert "run out" not in text


async def test_a_process_stopped_cleanly_reads_as_stopped_not_silent(fake_discord, db, tmp_path):
    """A real `python -m bot` stopped by SIGTERM, then /admin status from the next process."""
    fake = fake_discord
    stopped = await BotProcess.start(fake, tmp_path, db)
    try:
        await stopped.wait_ready()
        assert await stopped.stop(signal.SIGTERM) == 0, stopped.stderr
    finally:
        await stopped.end()
    name = f"{socket.gethostname()}:{stopped.process.pid}"
    async with running_bot(fake, db):
        text = await reply(fake, "mod", "admin status")
        assert "1 running process, 1 stopped." in text, text
        assert f"{name} — stopped" in text
        assert re.search(r"Stopped \d+ s ago, after \d+ s up", text), text
        assert "silent" not in text
        # Its last report's tables and gateway are not shown as if it still served them.
        stopped_part = text.split(f"{name} — stopped", 1)[1]
        assert re.match(r"\s*Shards 0 · no table open, no gateway: it stopped\n", stopped_part)
        assert re.search(r"\n\d+ actions stored while it ran\n", stopped_part), text


async def test_sixteen_processes_each_with_its_leases_fit_one_message(fake_discord, db):
    """The bot in 16 processes of 4 shards each (SHARD_COUNT=64): all of them are shown, within
    Discord's 6,000 characters for a message's embeds."""
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        now = time.time()

        async def work(database: Database) -> None:
            for k in range(1, 16):
                name = f"euchre-bot-{k:02d}.example.internal:{100_000 + k}"
                shards = tuple(range(4 * k, 4 * k + 4))
                start = processes.Start(
                    name=name,
                    incarnation=name,
                    scope=(64, shards),
                    lease_owner=f"shards {','.join(map(str, shards))} of 64",
                    started_at=now - 90_000,
                    beat_at=now,
                )
                await processes.register(database, start)
                figures = dataclasses.replace(
                    bot.figures(),
                    shards=shards,
                    tables=12_345,
                    events_total=987_654_321,
                    events_per_second=1234.5,
                    rest_requests=9_876_543,
                    rest_429=12_345,
                    rest_global_429=123,
                    latency_ms=45.0,
                    started=now - 90_000,
                )
                await processes.report(database, name, figures, now)
                await database.execute(
                    "INSERT INTO tables (guild_id, channel_id, host_id, status, options, state,"
                    " created_at, updated_at, owner, lease_until)"
                    " VALUES (?, ?, 1, 'open', '{}', '{}', '', '', ?, ?)",
                    (k, 10_000 + k, start.lease_owner, now + 4),
                )

        await bot.manager.writer.write(work)
        await reply(fake, "mod", "admin status")  # Manage Server, as Discord asks
        mod = fake.member("mod")
        message = await (await fake.slash(mod, fake.channel, "admin status")).message()
        (embed,) = message.embeds
        fields = embed["fields"]
        assert len(fields) == 16 and "footer" not in embed
        total = len(embed["title"]) + len(embed["description"])
        total += sum(len(f["name"]) + len(f["value"]) for f in fields)
        assert total <= 6000, total
        assert all(len(f["value"]) <= 1024 for f in fields)
        assert all("Leases: 1 table, the oldest renewed 2 s ago" in f["value"] for f in fields[1:])
