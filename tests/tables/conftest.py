"""Fixtures of the game manager's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tables.managers import open_manager, shut


@pytest.fixture
async def manager(tmp_path: Path):
    """A manager on a real SQLite file (timers off, computers at once, `modern`)."""
    db, manager = await open_manager(tmp_path / "euchre.db")
    try:
        yield manager
    finally:
        await shut(db, manager)
