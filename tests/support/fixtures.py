"""pytest fixtures for end-to-end tests against the fake Discord in ``fake_discord.py``.

Use them from a test module (or the root conftest) with::

    pytest_plugins = ["tests.support.fixtures"]

``fake_discord`` is function-scoped: each test gets its own server on a free port and its own
world, and discord.py's process-wide REST and gateway URLs are restored afterwards.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.support.fake_discord import FakeDiscord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started, URL-patched fake Discord with the seeded world (see ``FakeDiscord.seed``).

    A test that leaves requests the fake has no route for fails at teardown: such a request
    is a bot feature the fake does not cover, and the test's result would mean little.
    """
    async with FakeDiscord.serve() as fake:
        fake.seed()
        yield fake
        if fake.unknown_routes:
            pytest.fail(f"the bot called routes the fake does not know: {fake.unknown_routes}")


@pytest_asyncio.fixture
async def empty_fake_discord() -> AsyncIterator[FakeDiscord]:
    """Like ``fake_discord`` but with no guilds, for tests that build their own world."""
    async with FakeDiscord.serve() as fake:
        yield fake
        if fake.unknown_routes:
            pytest.fail(f"the bot called routes the fake does not know: {fake.unknown_routes}")
