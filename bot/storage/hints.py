"""Hints given at the tables, counted per member and server."""

from __future__ import annotations

from bot.storage.database import Database


async def count_hint(db: Database, guild_id: int, user_id: int) -> None:
    """Count one hint given to a member (in the caller's transaction, if any)."""
    await db.execute(
        "INSERT INTO hint_counts (guild_id, user_id, hints) VALUES (?, ?, 1)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET hints = hint_counts.hints + 1",
        (guild_id, user_id),
    )


async def hints_given(db: Database, guild_id: int, user_id: int) -> int:
    """How many hints a member has been given on a server."""
    value = await db.fetchval(
        "SELECT hints FROM hint_counts WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
        default=0,
    )
    return int(value or 0)
