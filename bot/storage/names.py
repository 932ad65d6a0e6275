"""The name each member is shown by on a server (``player_names``, kept with every result by
:mod:`bot.storage.results`)."""

from __future__ import annotations

from bot.storage.database import Database


async def shown_names(db: Database, guild_id: int, user_ids: set[int]) -> dict[int, str]:
    """These members' names on a server, by user id; one with no stored name is left out."""
    if not user_ids:
        return {}
    ids = sorted(user_ids)
    marks = ", ".join("?" for _ in ids)
    rows = await db.fetchall(
        f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})",
        (guild_id, *ids),
    )
    return {r["user_id"]: r["name"] for r in rows}
