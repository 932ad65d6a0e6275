"""Database files the bot cannot use are refused with a message naming the file and the
problem, and are left as they were; the bot's own key/value state (migration 0005)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import bot_state
from bot.storage.database import Database
from bot.storage.errors import DatabaseFileError, MigrationError


async def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"not a database at all\n" * 100)
    with pytest.raises(DatabaseFileError, match=r"notes\.db is not a database the bot can use"):
        await Database.open(path)
    assert path.read_bytes() == b"not a database at all\n" * 100


async def test_a_missing_directory_is_named(tmp_path: Path) -> None:
    path = tmp_path / "gone" / "euchre.db"
    with pytest.raises(DatabaseFileError, match="the directory .*gone does not exist"):
        await Database.open(path)
    assert not path.parent.exists()


async def test_a_directory_is_not_a_database_file(tmp_path: Path) -> None:
    with pytest.raises(DatabaseFileError, match="is a directory"):
        await Database.open(tmp_path)


async def test_a_file_from_a_newer_bot_is_refused_before_anything_writes_to_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY)")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(MigrationError, match=r"future\.db is at schema 99, newer than this bot"):
        await Database.open(path)
    assert path.read_bytes() == before  # still in its own journal mode, not switched to WAL


async def test_bot_state_keeps_one_value_per_key(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "euchre.db") as db:
        assert await bot_state.get_value(db, "commands_hash:global") is None
        await bot_state.set_value(db, "commands_hash:global", "abc")
        await bot_state.set_value(db, "commands_hash:guild:7", "def")
        await bot_state.set_value(
            db, "commands_hash:global", "xyz", datetime(2026, 1, 2, tzinfo=UTC)
        )
        assert await bot_state.get_value(db, "commands_hash:global") == "xyz"
        assert await bot_state.get_value(db, "commands_hash:guild:7") == "def"
        assert await db.fetchval("SELECT COUNT(*) FROM bot_state") == 2
