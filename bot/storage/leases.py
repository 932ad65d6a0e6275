"""Table leases: each open table has one owning process, and a fence number that proves it
(migration 0016).

A process takes a table by adding one to its fence, which it may do when no one holds the
table, when the holder's lease ran out, or when the holder has the process's own name (the
same process started again); it takes all the tables it may at once, in one statement. Each
batch the writer commits first checks that every table it writes for still has the fence its
writer took (`checked`), so a process that lost a table can never write to it again. The
owner renews all its leases in one statement while it runs.

Lease times are Unix seconds from the processes' own clocks: the processes are expected to
keep their clocks in step (NTP), to much better than a lease.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.database import Database


async def claim(
    db: Database, table_ids: Iterable[int], owner: str, now: float, lease: float
) -> dict[int, int]:
    """Take these tables for `owner` until `now + lease` and return the new fence of each one
    taken; a table another process holds a live lease on (or no longer open) is left out."""
    ids, fences = sorted(set(table_ids)), {}
    for first in range(0, len(ids), 500):  # well under every backend's limit of parameters
        chunk = ids[first : first + 500]
        marks = ", ".join("?" * len(chunk))
        # The rows are locked in the order of their ids, as `fences` locks them.
        lock = " ORDER BY id FOR NO KEY UPDATE" if db.dialect == "postgresql" else ""
        rows = await db.fetchall(
            "UPDATE tables SET owner = ?, fence = fence + 1, lease_until = ?"
            f" WHERE id IN (SELECT id FROM tables WHERE id IN ({marks}) AND status = 'open'"
            f" AND (owner IS NULL OR owner = ? OR lease_until < ?){lock})"
            " RETURNING id, fence",
            (owner, now + lease, *chunk, owner, now),
        )
        fences.update({r["id"]: r["fence"] for r in rows})
    return fences


async def renew(db: Database, owner: str, now: float, lease: float) -> dict[int, int]:
    """Extend every lease `owner` holds on an open table, and return those tables' fences."""
    # The rows are locked in the order of their ids, as every other write of several tables'
    # rows locks them (`fences`, `claim`): in any other order a renewal and a batch of the same
    # process, each holding a row the other wants, would wait for each other for ever.
    lock = " ORDER BY id FOR NO KEY UPDATE" if db.dialect == "postgresql" else ""
    await db.execute(
        "UPDATE tables SET lease_until = ? WHERE id IN (SELECT id FROM tables"
        f" WHERE owner = ? AND status = 'open'{lock})",
        (now + lease, owner),
    )
    rows = await db.fetchall(
        "SELECT id, fence FROM tables WHERE owner = ? AND status = 'open'", (owner,)
    )
    return {r["id"]: r["fence"] for r in rows}


async def release(db: Database, owner: str, table_ids: Iterable[int]) -> None:
    """End `owner`'s leases on these tables now (a clean stop), so another process may take
    them at once. A table someone else took meanwhile is left alone."""
    await db.executemany(
        "UPDATE tables SET lease_until = 0 WHERE id = ? AND owner = ?",
        [(table_id, owner) for table_id in sorted(table_ids)],  # in id order, as `renew`
    )


async def checked(
    db: Database, table_ids: Iterable[int], interaction_ids: Iterable[int]
) -> tuple[dict[int, int], set[int]]:
    """The writer's check before a batch, in one statement (one round trip): the stored fence
    of each of these tables (a table no longer stored is left out), and which of these Discord
    interactions an event was already stored for.

    On PostgreSQL the tables' rows stay locked until the transaction ends, so no takeover
    (`claim`) can come between this check and the writes it allows. They are locked in the
    order of their ids, as `claim` locks them, so two transactions never wait on each other.
    """
    ids = tuple(sorted(set(table_ids)))
    requests = tuple(interaction_ids)
    if not ids and not requests:
        return {}, set()
    # Each row says which question it answers: 0, a table's fence; 1, an interaction applied.
    # The tables are read in a CTE: PostgreSQL allows no FOR ... UPDATE in a UNION's arm.
    cte, parts = "", []
    if ids:
        lock = " FOR NO KEY UPDATE" if db.dialect == "postgresql" else ""
        marks = ", ".join("?" * len(ids))
        cte = (
            f"WITH fenced AS (SELECT id, fence FROM tables WHERE id IN ({marks})"
            f" ORDER BY id{lock}) "
        )
        parts.append("SELECT 0 AS kind, id, fence FROM fenced")
    if requests:
        marks = ", ".join("?" * len(requests))
        parts.append(
            "SELECT 1 AS kind, interaction_id AS id, 0 AS fence FROM table_events"
            f" WHERE interaction_id IN ({marks})"
        )
    rows = await db.fetchall(cte + " UNION ALL ".join(parts), (*ids, *requests))
    fences = {r["id"]: r["fence"] for r in rows if r["kind"] == 0}
    return fences, {r["id"] for r in rows if r["kind"] == 1}


async def fences(db: Database, table_ids: Iterable[int]) -> dict[int, int]:
    """The stored fence of each of these tables, locked on PostgreSQL (see `checked`)."""
    return (await checked(db, table_ids, ()))[0]


async def unclaimed(db: Database, now: float) -> list[tuple[int, int]]:
    """Open tables no live lease holds, as (table id, guild id): those a process serving the
    guild may take now (with `claim`)."""
    rows = await db.fetchall(
        "SELECT id, guild_id FROM tables WHERE status = 'open'"
        " AND (owner IS NULL OR lease_until < ?) ORDER BY id",
        (now,),
    )
    return [(r["id"], r["guild_id"]) for r in rows]


async def held(db: Database) -> dict[str, tuple[int, float]]:
    """Each holder's leases on open tables (a clean stop's released ones left out): how many,
    and the soonest one runs out (Unix seconds), for `/admin status` to show their age."""
    rows = await db.fetchall(
        "SELECT owner, COUNT(*) AS tables, MIN(lease_until) AS soonest FROM tables"
        " WHERE status = 'open' AND owner IS NOT NULL AND lease_until > 0 GROUP BY owner"
    )
    return {r["owner"]: (r["tables"], r["soonest"]) for r in rows}
