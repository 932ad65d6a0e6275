"""How many players each board lists on each leaderboard (``board_counts``), kept with the boards.

A leaderboard page shows how many pages there are, so it needs the number of players the board
lists on its metric. Counting them at each view walks the metric's whole index (10,000 entries
for a league of 10,000 players); on PostgreSQL, where a recorded hand leaves board rows on pages
not yet marked all-visible, each entry also reads the table. So the number is kept: one row per
server, board and metric, changed in the same transaction as the board rows it counts.

Every writer of ``board_totals`` keeps it:

* a result (:func:`bot.storage.results._apply`) reads the board rows it is about to change
  (:func:`listed_before`) and adds, per board and metric, the players it lists or unlists
  (:func:`add_changes`); most results list nobody new and write nothing here;
* the bulk writers of :mod:`bot.storage.boards` (a window moved, the seasons or every board
  rebuilt) count the boards they rewrote again (:func:`recount`);
* ``db copy`` copies the table with the others, and ``db verify`` counts every board again and
  reports any kept number that differs (:func:`differences`).

Rows of all zeros, which :mod:`bot.storage.results` deletes, list nobody, so deleting them
changes no count. A count may stay stored at 0 (everyone unlisted by corrections); a board
without a row lists nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.buckets import COUNTERS, SEASON_PREFIX
from bot.storage.database import Database
from bot.storage.metrics import LISTING_COUNTERS, METRICS

Counts = tuple[int, ...]
#: A board row: (board, flagged, user_id).
BoardKey = tuple[str, int, int]

_LISTING = tuple(sorted(LISTING_COUNTERS))
# Positions in COUNTERS of the counters that can list or unlist a player.
_LISTING_AT = tuple(COUNTERS.index(c) for c in _LISTING)

#: The boards of one server to count again: every one, one by name, or the seasons'.
ALL_BOARDS = ("", ())
SEASON_BOARDS = (" AND board >= ? AND board < ?", (SEASON_PREFIX, SEASON_PREFIX[:-1] + ";"))


def one_board(board: str) -> tuple[str, tuple[str, ...]]:
    """The condition of :func:`recount` for one board."""
    return " AND board = ?", (board,)


def _counted(where: str) -> str:
    """Each metric's listed players per server and board, as (guild_id, board, metric, players):
    one count along each metric's partial index (the condition is the index's own)."""
    return " UNION ALL ".join(
        f"SELECT guild_id, board, '{m.key}' AS metric, count(*) AS players FROM board_totals"
        f" WHERE flagged = 0 AND {m.qualify}{where} GROUP BY guild_id, board"
        for m in METRICS.values()
    )


async def recount(db: Database, guild_id: int, boards: tuple[str, Sequence[Any]]) -> None:
    """Count again the listed players of a server's boards, after a bulk write to them.

    Args:
        db: the database, inside the writer's transaction.
        guild_id: the server.
        boards: :data:`ALL_BOARDS`, :data:`SEASON_BOARDS` or :func:`one_board`.
    """
    where, params = boards
    await db.execute(f"DELETE FROM board_counts WHERE guild_id = ?{where}", (guild_id, *params))
    await db.execute(
        "INSERT INTO board_counts (guild_id, board, metric, players)"
        f" {_counted(' AND guild_id = ?' + where)}",
        (guild_id, *params) * len(METRICS),
    )


def _padded(values: Sequence[Any], least: int = 4) -> list[Any]:
    """The values repeated up to a power of two: a few statement texts for any number of keys
    (each is prepared once and kept), and a repeated value in ``IN (...)`` changes nothing."""
    size = least
    while size < len(values):
        size *= 2
    return [*values, *([values[-1]] * (size - len(values)))]


# Users per read: far inside both backends' limits on a statement's parameters.
_USERS_PER_READ = 512


async def listed_before(
    db: Database, guild_id: int, changing: Mapping[BoardKey, Counts]
) -> dict[BoardKey, dict[str, int]]:
    """The listing counters of the unflagged board rows about to change, as they are.

    Only rows whose change touches a listing counter are read (a flagged row lists nobody);
    a key without a row is not in the answer.
    """
    keys = [
        k for k, counts in changing.items() if k[1] == 0 and any(counts[i] for i in _LISTING_AT)
    ]
    if not keys:
        return {}
    boards = sorted({k[0] for k in keys})
    users = sorted({k[2] for k in keys})
    found: dict[BoardKey, dict[str, int]] = {}
    for start in range(0, len(users), _USERS_PER_READ):
        some = _padded(users[start : start + _USERS_PER_READ])
        named = _padded(boards)
        rows = await db.fetchall(
            f"SELECT board, user_id, {', '.join(_LISTING)} FROM board_totals"
            f" WHERE guild_id = ? AND flagged = 0 AND board IN ({', '.join('?' * len(named))})"
            f" AND user_id IN ({', '.join('?' * len(some))})",
            (guild_id, *named, *some),
        )
        for r in rows:
            found[(r[0], 0, int(r[1]))] = {c: int(r[2 + i]) for i, c in enumerate(_LISTING)}
    return found


def changes(
    before: Mapping[BoardKey, Mapping[str, int]], deltas: Mapping[BoardKey, Counts]
) -> dict[tuple[str, str], int]:
    """Per (board, metric), how many players the deltas list (positive) or unlist (negative).

    ``before`` is what :func:`listed_before` read for the same deltas.
    """
    zero = dict.fromkeys(_LISTING, 0)
    moved: dict[tuple[str, str], int] = {}
    for key, counts in deltas.items():
        if key[1] != 0 or not any(counts[i] for i in _LISTING_AT):
            continue
        old = before.get(key, zero)
        new = {c: old[c] + counts[i] for c, i in zip(_LISTING, _LISTING_AT, strict=True)}
        for metric in METRICS.values():
            step = int(metric.lists(new)) - int(metric.lists(old))
            if step:
                at = (key[0], metric.key)
                moved[at] = moved.get(at, 0) + step
    return {at: step for at, step in moved.items() if step}


async def add_changes(db: Database, guild_id: int, moved: Mapping[tuple[str, str], int]) -> None:
    """Add :func:`changes` to the kept counts, in key order (two writers of one server's counts
    would lock its rows in the same order)."""
    if not moved:
        return
    await db.executemany(
        "INSERT INTO board_counts (guild_id, board, metric, players) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, board, metric)"
        " DO UPDATE SET players = board_counts.players + excluded.players",
        [(guild_id, board, metric, step) for (board, metric), step in sorted(moved.items())],
    )


async def differences(db: Database, guild_id: int | None = None) -> list[str]:
    """Every kept count that differs from a count of the stored board rows (for ``db verify``).

    A kept 0 and no row at all are the same. Call inside a transaction, for a consistent view.
    """
    where, params = ("", ()) if guild_id is None else (" AND guild_id = ?", (guild_id,))
    counted = {
        (int(r[0]), r[1], r[2]): int(r[3])
        for r in await db.fetchall(_counted(where), params * len(METRICS))
    }
    kept = {
        (int(r[0]), r[1], r[2]): int(r[3])
        for r in await db.fetchall(
            f"SELECT guild_id, board, metric, players FROM board_counts WHERE players != 0{where}",
            params,
        )
    }
    problems = []
    for guild, board, metric in sorted(set(counted) | set(kept)):
        have, want = kept.get((guild, board, metric), 0), counted.get((guild, board, metric), 0)
        if have != want:
            problems.append(
                f"guild {guild} board {board} leaderboard {metric}: {have} players kept as"
                f" listed, {want} listed"
            )
    return problems
