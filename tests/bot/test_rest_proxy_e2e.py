"""The bot behind a REST proxy (`DISCORD_API_BASE`), as a process, the way large bots run: every
REST request goes through the proxy with the bot's token, the gateway still goes to Discord, and
a table is played as usual."""

from __future__ import annotations

import signal

from tests.bot.test_service_e2e import BotProcess, reply
from tests.support.fake_discord import FakeDiscord
from tests.support.rest_proxy import RestProxy

pytest_plugins = ["tests.support.fixtures"]


async def test_a_bot_behind_a_rest_proxy_sends_every_request_through_it(
    fake_discord: FakeDiscord, tmp_path
):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with RestProxy.serve(fake.base_url) as proxy:
        bot = await BotProcess.start(
            fake, tmp_path, db, DISCORD_API_BASE=proxy.api_base, REST_BUDGET="0"
        )
        try:
            await bot.wait_ready()
            opened = await reply(
                await fake.slash(fake.member("alice"), fake.channel, "table create")
            )
            assert "Your table is open" in opened.text
            await fake.wait_for(
                lambda: [m for m in fake.public_messages(fake.channel) if m.embeds],
                what="the table message",
            )
        finally:
            code = await bot.stop(signal.SIGTERM)
    assert code == 0, bot.stderr
    # Everything the bot asked of the REST API went through the proxy, with its own token...
    assert proxy.tokens == {f"Bot {fake.token}"}
    assert any(p.startswith("POST /api/v10/interactions/") for p in proxy.passed)
    assert any(p == f"POST /api/v10/channels/{fake.channel.id}/messages" for p in proxy.passed)
    through = {p.split(" ", 1)[1] for p in proxy.passed}
    direct = {path for method, path in fake.requests if f"/api/v10{path}" not in through}
    assert direct == set(), direct  # ...and nothing went around it
