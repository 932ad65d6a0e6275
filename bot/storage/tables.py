"""Repository for live tables: rows, deals and the event log (migration 0001).

Functions take the `Database` and never commit: the game manager groups them in one
transaction per batch of accepted actions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage.database import Database

OPEN = "open"
CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class TableRow:
    """An open table as stored."""

    id: int
    guild_id: int
    channel_id: int
    options: dict[str, Any]
    state: dict[str, Any]
    updated_at: str


async def create_table(
    db: Database, guild_id: int, channel_id: int, host_id: int, options: dict[str, Any],
    state: dict[str, Any], now: datetime,
) -> int:
    """Insert an open table and return its id."""
    stamp = now.isoformat()
    return await db.execute(
        "INSERT INTO tables (guild_id, channel_id, host_id, status, options, state, created_at, updated_at)"
        " VALUES (?, ?, ?, 'open', ?, ?, ?, ?)",
        (guild_id, channel_id, host_id, json.dumps(options), json.dumps(state), stamp, stamp),
    )


async def save_state(db: Database, table_id: int, host_id: int, state: dict[str, Any], now: datetime) -> None:
    """Rewrite a table's seats and bookkeeping."""
    await db.execute(
        "UPDATE tables SET state = ?, host_id = ?, updated_at = ? WHERE id = ?",
        (json.dumps(state), host_id, now.isoformat(), table_id),
    )


async def add_deal(
    db: Database, table_id: int, match_no: int, deal_no: int, dealer: int, deck: list[str]
) -> None:
    """Keep a deal's pack order."""
    await db.execute(
        "INSERT INTO table_deals (table_id, match_no, deal_no, dealer, deck) VALUES (?, ?, ?, ?, ?)",
        (table_id, match_no, deal_no, dealer, json.dumps(deck)),
    )


async def add_events(db: Database, rows: list[tuple[Any, ...]]) -> None:
    """Append events: (table_id, seq, match_no, kind, seat, user_id, action, at)."""
    await db.executemany(
        "INSERT INTO table_events (table_id, seq, match_no, kind, seat, user_id, action, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


async def close_table(db: Database, table_id: int, reason: str, now: datetime) -> None:
    await db.execute(
        "UPDATE tables SET status = 'closed', closed_at = ?, close_reason = ?, updated_at = ? WHERE id = ?",
        (now.isoformat(), reason, now.isoformat(), table_id),
    )


async def open_tables(db: Database) -> list[TableRow]:
    """Every open table, oldest first."""
    rows = await db.fetchall(
        "SELECT id, guild_id, channel_id, options, state, updated_at FROM tables"
        " WHERE status = 'open' ORDER BY id"
    )
    return [
        TableRow(r["id"], r["guild_id"], r["channel_id"], json.loads(r["options"]),
                 json.loads(r["state"]), r["updated_at"])
        for r in rows
    ]


async def load_match(
    db: Database, table_id: int, match_no: int
) -> tuple[list[list[str]], list[tuple[int, str]], int]:
    """A match's decks and game actions in order, and the table's last event number."""
    decks = [
        json.loads(r["deck"])
        for r in await db.fetchall(
            "SELECT deck FROM table_deals WHERE table_id = ? AND match_no = ? ORDER BY deal_no",
            (table_id, match_no),
        )
    ]
    actions = [
        (r["seat"], r["action"])
        for r in await db.fetchall(
            "SELECT seat, action FROM table_events WHERE table_id = ? AND match_no = ? AND kind = 'game'"
            " ORDER BY seq",
            (table_id, match_no),
        )
    ]
    last = await db.fetchval("SELECT MAX(seq) FROM table_events WHERE table_id = ?", (table_id,), 0)
    return decks, actions, last or 0


async def count_events(db: Database, table_id: int) -> int:
    return await db.fetchval("SELECT COUNT(*) FROM table_events WHERE table_id = ?", (table_id,), 0)
