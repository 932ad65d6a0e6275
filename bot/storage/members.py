"""Members' own settings: when the bot pings them on their turn, and how their own private
messages show cards."""

from __future__ import annotations

from bot.storage.database import Database


async def load_pings(db: Database) -> dict[int, tuple[str, int | None]]:
    """Every member's ping setting, by user id: (mode, seconds to wait or None)."""
    rows = await db.fetchall("SELECT user_id, ping, ping_after FROM member_settings")
    return {int(r[0]): (str(r[1]), r[2]) for r in rows}


async def set_ping(db: Database, user_id: int, mode: str, after: int | None) -> None:
    """Store a member's ping setting (in the caller's transaction, if any)."""
    await db.execute(
        "INSERT INTO member_settings (user_id, ping, ping_after) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET ping = excluded.ping, ping_after = excluded.ping_after",
        (user_id, mode, after),
    )


async def load_card_looks(db: Database) -> dict[int, str]:
    """Every member's choice of how their private messages show cards, by user id:
    'pictures' or 'text'."""
    rows = await db.fetchall("SELECT user_id, cards FROM member_card_looks")
    return {int(r[0]): str(r[1]) for r in rows}


async def set_card_look(db: Database, user_id: int, cards: str) -> None:
    """Store how a member's private messages show cards (in the caller's transaction, if any)."""
    await db.execute(
        "INSERT INTO member_card_looks (user_id, cards) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET cards = excluded.cards",
        (user_id, cards),
    )
