"""Fixtures for storage tests: a real database file in a temporary directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.storage.database import Database


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """The bot's database, every migration applied, on a temporary file."""
    database = await Database.open(tmp_path / "euchre.db")
    try:
        yield database
    finally:
        await database.close()
