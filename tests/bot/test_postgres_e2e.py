"""The whole bot on PostgreSQL (DATABASE_URL=postgresql://...): a table is opened and played,
the bot is stopped and started again, and the table comes back from the database as it was."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.client import EuchreBot
from tests.bot.helpers import act_once, new_bot, settings_for, table_of
from tests.support.fake_discord import FakeDiscord
from tests.support.logs import logged_errors
from tests.support.postgres import postgres_server

pytest_plugins = ["tests.support.fixtures"]


@asynccontextmanager
async def bot_on(fake: FakeDiscord, url: str, tmp_path) -> AsyncIterator[EuchreBot]:
    settings = settings_for(fake, tmp_path / "unused.db", database_url=url)
    bot = new_bot(settings)
    with logged_errors() as errors:
        bot.handler_errors = errors  # type: ignore[attr-defined]
        async with fake.running(bot) as running:
            yield running


async def test_the_bot_plays_and_restarts_on_postgresql(fake_discord, tmp_path):
    fake = fake_discord
    alice = fake.member("alice")
    url = await postgres_server().empty_database(str(tmp_path))
    played: list[tuple[int, str]] = []
    for restart in range(2):
        async with bot_on(fake, url, tmp_path) as bot:
            assert bot.db.dialect == "postgresql"
            if restart == 0:
                await (await fake.slash(alice, fake.channel, "table create")).response()
                for _ in range(3):
                    await (
                        await fake.slash(alice, fake.channel, "table addbot", level="easy")
                    ).response()
                await (await fake.slash(alice, fake.channel, "table start")).response()
            else:
                await fake.wait_for(
                    lambda: any("restored" in m.content for m in fake.public_messages(fake.channel))
                )
            table = table_of(bot, fake)
            # What was played before the restart is all there after it, replayed from storage.
            assert list(table.actions[: len(played)]) == played
            moves = 0
            while table.playing and moves < 4:
                if table.seats[table.match.to_act].user_id == alice.id:
                    await act_once(bot, fake)
                    moves += 1
                else:
                    await asyncio.sleep(0.005)
            played = list(table.actions)
            assert not bot.handler_errors
    assert played
