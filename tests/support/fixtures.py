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
from tests.support.interactions import InteractionHarness


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


@pytest_asyncio.fixture
async def interactions(tmp_path) -> AsyncIterator[InteractionHarness]:
    """The real bot on a temporary database, driven by real ``discord.Interaction`` objects
    with only the HTTP seams faked (see ``interactions.py``).

    A test fails at teardown if the bot made a request Discord would refuse or the harness
    does not know, logged an error, or showed a hidden card in a public message.
    """
    harness = await InteractionHarness.open(tmp_path / "euchre.db")
    try:
        yield harness
    finally:
        await harness.close()
    problems = harness.problems()
    if problems:
        pytest.fail("\n".join(problems))
