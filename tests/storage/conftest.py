"""Fixtures for storage tests: a real database (a temporary file, or PostgreSQL)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.storage.database import Database
from tests.support.postgres import database_for


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """The bot's database, every migration applied: a temporary file, or a fresh PostgreSQL
    database when the suite runs on PostgreSQL (``EUCHRE_TEST_DATABASE=postgres``)."""
    database = await Database.open(await database_for(tmp_path / "euchre.db"))
    try:
        yield database
    finally:
        await database.close()
