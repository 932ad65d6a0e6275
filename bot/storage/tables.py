"""Repository for live tables: rows, deals and the event log (migration 0001).

Functions take the `Database` and never commit: the game manager groups them in one
transaction per batch of accepted actions. The `*_row` functions give the same statements as
(sql, parameters) rows, which the group-commit writer runs with one `executemany` per batch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage.batch import Row
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
    db: Database,
    guild_id: int,
    channel_id: int,
    host_id: int,
    options: dict[str, Any],
    state: dict[str, Any],
    now: datetime,
    owner: str | None = None,
    lease_until: float = 0,
) -> int:
    """Insert an open table, held by `owner` until `lease_until` with fence 1, and return its
    id."""
    stamp = now.isoformat()
    return await db.fetchval(
        "INSERT INTO tables (guild_id, channel_id, host_id, status, options, state, created_at,"
        " updated_at, owner, fence, lease_until)"
        " VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?, 1, ?) RETURNING id",
        (
            guild_id,
            channel_id,
            host_id,
            json.dumps(options),
            json.dumps(state),
            stamp,
            stamp,
            owner,
            lease_until,
        ),
    )


_SAVE_STATE = "UPDATE tables SET state = ?, host_id = ?, updated_at = ? WHERE id = ?"
_ADD_DEAL = (
    "INSERT INTO table_deals (table_id, match_no, deal_no, dealer, deck, seed)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_ADD_EVENT = (
    "INSERT INTO table_events"
    " (table_id, seq, match_no, kind, seat, user_id, action, at, interaction_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


async def save_state(
    db: Database, table_id: int, host_id: int, state: dict[str, Any], now: datetime
) -> None:
    """Rewrite a table's seats and bookkeeping."""
    await db.execute(_SAVE_STATE, (json.dumps(state), host_id, now.isoformat(), table_id))


def state_row(table_id: int, host_id: int, state_json: str, now: datetime) -> Row:
    """`save_state` as a row for the group-commit writer (the state already as JSON)."""
    return _SAVE_STATE, (state_json, host_id, now.isoformat(), table_id)


def deal_row(
    table_id: int,
    match_no: int,
    deal_no: int,
    dealer: int,
    deck: list[str],
    seed: str | None = None,
) -> Row:
    """`add_deal` as a row for the group-commit writer."""
    return _ADD_DEAL, (table_id, match_no, deal_no, dealer, json.dumps(deck), seed)


def event_row(
    table_id: int,
    seq: int,
    match_no: int,
    kind: str,
    seat: int | None,
    user_id: int | None,
    action: str,
    at: str,
    interaction_id: int | None = None,
) -> Row:
    """One `table_events` row for the group-commit writer; `interaction_id` is the Discord
    interaction that asked for it, if one did."""
    return _ADD_EVENT, (table_id, seq, match_no, kind, seat, user_id, action, at, interaction_id)


async def add_deal(
    db: Database, table_id: int, match_no: int, deal_no: int, dealer: int, deck: list[str]
) -> None:
    """Keep a deal's pack order."""
    await db.execute(_ADD_DEAL, (table_id, match_no, deal_no, dealer, json.dumps(deck), None))


async def add_events(db: Database, rows: list[tuple[Any, ...]]) -> None:
    """Append events: (table_id, seq, match_no, kind, seat, user_id, action, at,
    interaction_id)."""
    await db.executemany(_ADD_EVENT, rows)


async def close_table(db: Database, table_id: int, reason: str, now: datetime) -> None:
    await db.execute(
        "UPDATE tables SET status = 'closed', closed_at = ?, close_reason = ?, updated_at = ? WHERE id = ?",
        (now.isoformat(), reason, now.isoformat(), table_id),
    )


async def open_tables(db: Database, ids: list[int] | None = None) -> list[TableRow]:
    """Every open table (or those of `ids` still open), oldest first."""
    chosen = ""
    if ids is not None:
        if not ids:
            return []
        chosen = f" AND id IN ({', '.join('?' * len(ids))})"
    rows = await db.fetchall(
        "SELECT id, guild_id, channel_id, options, state, updated_at FROM tables"
        f" WHERE status = 'open'{chosen} ORDER BY id",
        tuple(ids or ()),
    )
    return [
        TableRow(
            r["id"],
            r["guild_id"],
            r["channel_id"],
            json.loads(r["options"]),
            json.loads(r["state"]),
            r["updated_at"],
        )
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class TablePlace:
    """Where a server's table plays, and whether it is open still."""

    channel_id: int
    open: bool
    close_reason: str | None = None  # why it closed, once it has


async def table_place(db: Database, guild_id: int, table_id: int) -> TablePlace | None:
    """The channel of a server's table, whether it is open and why it closed; None when the
    server never had a table of that id (another server's table is none of this one's)."""
    row = await db.fetchone(
        "SELECT channel_id, status, close_reason FROM tables WHERE id = ? AND guild_id = ?",
        (table_id, guild_id),
    )
    if row is None:
        return None
    return TablePlace(row["channel_id"], row["status"] == OPEN, row["close_reason"])


async def match_actors(db: Database, table_id: int, match_no: int) -> list[int | None]:
    """Who took each action of a table's match, in order: a member's id, or None for a
    computer's move (its own, or one made for a member whose turn timed out)."""
    rows = await db.fetchall(
        "SELECT user_id FROM table_events WHERE table_id = ? AND match_no = ? AND kind = 'game'"
        " ORDER BY seq",
        (table_id, match_no),
    )
    return [r["user_id"] for r in rows]


async def load_match(
    db: Database, table_id: int, match_no: int
) -> tuple[list[list[str]], list[tuple[int, str]], int, list[str | None]]:
    """A match's decks and game actions in order, the table's last event number, and each
    deal's seed (None for a deal dealt before seeds were kept)."""
    rows = await db.fetchall(
        "SELECT deck, seed FROM table_deals WHERE table_id = ? AND match_no = ? ORDER BY deal_no",
        (table_id, match_no),
    )
    decks = [json.loads(r["deck"]) for r in rows]
    seeds = [r["seed"] for r in rows]
    actions = [
        (r["seat"], r["action"])
        for r in await db.fetchall(
            "SELECT seat, action FROM table_events WHERE table_id = ? AND match_no = ? AND kind = 'game'"
            " ORDER BY seq",
            (table_id, match_no),
        )
    ]
    last = await db.fetchval("SELECT MAX(seq) FROM table_events WHERE table_id = ?", (table_id,), 0)
    return decks, actions, last or 0, seeds


async def count_events(db: Database, table_id: int) -> int:
    return await db.fetchval("SELECT COUNT(*) FROM table_events WHERE table_id = ?", (table_id,), 0)
