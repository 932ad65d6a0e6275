"""The fake Discord's opt-in global REST limit (``FakeDiscord.global_limit``).

Discord allows a bot 50 REST requests a second over all its processes; interaction callbacks
and webhook follow-ups are not counted. The fake enforces that only when asked (the benchmark of
several processes does), so every other test runs as before. The window's clock is held still
here, so what is checked never depends on how fast a busy machine sends the requests.
"""

from __future__ import annotations

import aiohttp

from tests.support.fake_discord import INTERACTION_COMMAND, FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


class StillClock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def get_me(http: aiohttp.ClientSession, fake: FakeDiscord) -> aiohttp.ClientResponse:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.get(f"{fake.api_base}/users/@me", headers=headers) as response:
        await response.read()
        return response


def an_interaction(fake: FakeDiscord):
    """An interaction the fake knows (as if it had sent it), to answer over REST."""
    data = {"id": str(fake.snowflake()), "name": "hand", "type": 1, "options": []}
    record, _ = fake._interaction_payload(
        INTERACTION_COMMAND, fake.member("alice"), fake.channel, data
    )
    fake.interactions[record.id] = record
    return record


async def test_the_51st_counted_request_in_a_second_gets_a_global_429(fake_discord: FakeDiscord):
    fake = fake_discord
    clock = StillClock()
    fake.global_limit, fake.global_clock = 50, clock
    async with aiohttp.ClientSession() as http:
        for _ in range(50):
            assert (await get_me(http, fake)).status == 200
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.get(f"{fake.api_base}/users/@me", headers=headers) as refused:
            body = await refused.json()
            assert refused.status == 429
            assert refused.headers["X-RateLimit-Global"] == "true"
            assert refused.headers["X-RateLimit-Scope"] == "global"
        assert body["global"] is True
        assert body["retry_after"] == 1.0  # the first of the 50 leaves the window in 1 s
        assert fake.global_limited == 1
        assert fake.rate_limited == ["GET /users/@me"]
        clock.now += 0.5  # still within the second of the first 50
        assert (await get_me(http, fake)).status == 429
        clock.now += 0.5  # a second after them: the window is empty again
        assert (await get_me(http, fake)).status == 200
    assert fake.global_limited == 2


async def test_interaction_callbacks_and_follow_ups_are_not_counted(fake_discord: FakeDiscord):
    fake = fake_discord
    fake.global_limit, fake.global_clock = 50, StillClock()
    async with aiohttp.ClientSession() as http:
        for _ in range(50):
            assert (await get_me(http, fake)).status == 200
        # The limit is spent; answering interactions is not bound by it.
        for _ in range(20):
            interaction = an_interaction(fake)
            url = f"{fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
            async with http.post(url, json={"type": 4, "data": {"content": "Your hand"}}) as r:
                assert r.status == 204, await r.text()
            assert interaction.acknowledged_at is not None
            url = f"{fake.api_base}/webhooks/{fake.application_id}/{interaction.token}?wait=1"
            async with http.post(url, json={"content": "and more"}) as r:
                assert r.status == 200, await r.text()
        # Neither did they take any of the window's places: the next counted request is the
        # 51st, and refused.
        assert (await get_me(http, fake)).status == 429
    assert fake.global_limited == 1


async def test_nothing_is_limited_when_it_is_off(fake_discord: FakeDiscord):
    fake = fake_discord
    assert fake.global_limit is None  # the default: every other test runs unlimited
    fake.global_clock = StillClock()
    async with aiohttp.ClientSession() as http:
        for _ in range(120):
            assert (await get_me(http, fake)).status == 200
    assert fake.global_limited == 0 and fake.rate_limited == []


async def get_me_sent_at(http: aiohttp.ClientSession, fake: FakeDiscord, at: float) -> int:
    headers = {"Authorization": f"Bot {fake.token}", "X-Sent-At": repr(at)}
    async with http.get(f"{fake.api_base}/users/@me", headers=headers) as response:
        await response.read()
        return response.status


async def test_a_request_stamped_by_its_sender_is_counted_when_it_was_sent(
    fake_discord: FakeDiscord,
):
    """A benchmark's bot stamps each request as it sends it (`sent_at_header`): requests sent
    over two seconds but read by the fake in one instant (its event loop stalled; here its
    clock is held still) are not a burst, and a real burst still gets its 429."""
    fake = fake_discord
    fake.global_limit, fake.global_clock = 50, StillClock()
    fake.sent_at_header = "X-Sent-At"
    async with aiohttp.ClientSession() as http:
        # 80 requests sent 25 ms apart: 40 in any second, all read at once.
        for n in range(80):
            assert await get_me_sent_at(http, fake, 2000.0 + n * 0.025) == 200
        assert fake.global_limited == 0
        assert fake.request_sent_times[-1] == 2000.0 + 79 * 0.025
        assert fake.request_times[-1] != fake.request_sent_times[-1]  # read by the fake's clock
        for _ in range(50):  # sent in the same instant
            assert await get_me_sent_at(http, fake, 3000.0) == 200
        headers = {"Authorization": f"Bot {fake.token}", "X-Sent-At": "3000.5"}
        async with http.get(f"{fake.api_base}/users/@me", headers=headers) as refused:
            assert refused.status == 429
            assert (await refused.json())["retry_after"] == 0.5  # when the 50 leave the window
        assert await get_me_sent_at(http, fake, 2999.0) == 200  # read late, sent before them
        assert await get_me_sent_at(http, fake, 3001.0) == 200  # a second after the 50
    assert fake.global_limited == 1


async def test_a_callback_keeps_when_the_bot_sent_it(fake_discord: FakeDiscord):
    fake = fake_discord
    fake.sent_at_header = "X-Sent-At"
    interaction = an_interaction(fake)
    url = f"{fake.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
    async with aiohttp.ClientSession() as http:
        body = {"type": 4, "data": {"content": "Your hand"}}
        async with http.post(url, json=body, headers={"X-Sent-At": "1234.5"}) as r:
            assert r.status == 204, await r.text()
    assert interaction.callback_sent_at == 1234.5
    assert interaction.acknowledged_at is not None  # when the fake read it, by its own clock
