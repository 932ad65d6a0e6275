"""Euchre nights in storage: the night, who registered, each round's seating and tables, and
the players' running totals, summed from the hands the night's tables recorded.

Writes run in the caller's transaction (the game manager's writer); nothing here commits on
its own. A refusal is a `NightError` whose message a member can read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.engine.quoting import QuotesNames
from bot.leagues.progressive import MAX_PLAYERS
from bot.storage.database import Database
from bot.storage.errors import StorageError

OPEN, PLAYING, CLOSED = "open", "playing", "closed"
LATE_CHOICES = ("computer", "bye")
MOVEMENTS = ("schedule", "winners_move_up")


class NightError(QuotesNames, StorageError):
    """A night request refused; ``str(error)`` is readable by a member, and the names it
    quotes are escaped where Discord shows it (`QuotesNames`)."""


@dataclass(frozen=True, slots=True)
class Night:
    """A euchre night.

    Attributes:
        id: its storage id.
        guild_id, channel_id: where it is played (its tables in threads of that channel).
        league_id: the league it plays for.
        organiser_id: who opened it.
        status: ``open`` (registering), ``playing`` or ``closed``.
        rounds: the rounds to play; None for as many as the schedule has.
        deals_per_round: a round is this many deals, or
        minutes_per_round: a round ends this many minutes after it is seated.
        late: ``computer`` or ``bye``: what takes the place of a player who leaves.
        movement: ``schedule`` or ``winners_move_up``.
        message_id: the night's message in its channel.
        plan: the seating plan from the start (see the migration), or None.
        round: the round being played (0 before the start).
    """

    id: int
    guild_id: int
    channel_id: int
    league_id: int
    organiser_id: int
    status: str
    rounds: int | None
    deals_per_round: int | None
    minutes_per_round: int | None
    late: str
    movement: str
    message_id: int | None
    plan: dict[str, Any] | None
    round: int


@dataclass(frozen=True, slots=True)
class NightPlayer:
    """A registered player; `left_round` is set once they left the night."""

    user_id: int
    name: str
    joined_round: int
    left_round: int | None

    @property
    def present(self) -> bool:
        return self.left_round is None


@dataclass(frozen=True, slots=True)
class NightTable:
    """One table of a round: its thread, the bot table, who sat where (None: a computer)."""

    round: int
    position: int
    thread_id: int
    table_id: int
    seats: tuple[int | None, ...]
    last_deal: int | None
    done: bool


@dataclass(frozen=True, slots=True)
class NightRound:
    """A round as seated: tables in places, the byes, and when its time runs out."""

    number: int
    tables: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    byes: tuple[int, ...]
    deadline: float | None
    time_up: bool


@dataclass(frozen=True, slots=True)
class Total:
    """A player's running total: the points their sides made, and the deals they played."""

    user_id: int
    name: str
    points: int
    deals: int
    present: bool


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_COLUMNS = (
    "id, guild_id, channel_id, league_id, organiser_id, status, rounds, deals_per_round,"
    " minutes_per_round, late, movement, message_id, plan, round"
)


def _night(row: Any) -> Night:
    return Night(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        league_id=row["league_id"],
        organiser_id=row["organiser_id"],
        status=row["status"],
        rounds=row["rounds"],
        deals_per_round=row["deals_per_round"],
        minutes_per_round=row["minutes_per_round"],
        late=row["late"],
        movement=row["movement"],
        message_id=row["message_id"],
        plan=json.loads(row["plan"]) if row["plan"] else None,
        round=row["round"],
    )


async def create_night(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    league_id: int,
    organiser_id: int,
    rounds: int | None,
    deals_per_round: int | None,
    minutes_per_round: int | None,
    late: str,
    movement: str,
) -> Night:
    """Open a night in a channel.

    Raises:
        NightError: a night is already open in the channel.
    """
    if await open_night(db, channel_id) is not None:
        raise NightError(
            "a euchre night is already open in this channel: close it with /night close first"
        )
    night_id = await db.fetchval(
        "INSERT INTO nights (guild_id, channel_id, league_id, organiser_id, rounds,"
        " deals_per_round, minutes_per_round, late, movement, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id,
            channel_id,
            league_id,
            organiser_id,
            rounds,
            deals_per_round,
            minutes_per_round,
            late,
            movement,
            _now(),
        ),
    )
    night = await night_by_id(db, night_id)
    assert night is not None  # inserted just now
    return night


async def night_by_id(db: Database, night_id: int) -> Night | None:
    row = await db.fetchone(f"SELECT {_COLUMNS} FROM nights WHERE id = ?", (night_id,))
    return _night(row) if row else None


async def open_night(db: Database, channel_id: int) -> Night | None:
    """The night open (registering or playing) in a channel, if any."""
    row = await db.fetchone(
        f"SELECT {_COLUMNS} FROM nights WHERE channel_id = ? AND status <> 'closed'", (channel_id,)
    )
    return _night(row) if row else None


async def registered_night(db: Database, league_id: int, user_id: int) -> Night | None:
    """The league's night, not yet closed, that a member is registered for and has not left."""
    row = await db.fetchone(
        f"SELECT {', '.join('n.' + c.strip() for c in _COLUMNS.split(','))} FROM nights n"
        " JOIN night_players p ON p.night_id = n.id"
        " WHERE n.league_id = ? AND n.status <> 'closed' AND p.user_id = ?"
        " AND p.left_round IS NULL ORDER BY n.id LIMIT 1",
        (league_id, user_id),
    )
    return _night(row) if row else None


async def nights_in_play(db: Database) -> list[Night]:
    """Every night being played, oldest first (a restart carries them on)."""
    rows = await db.fetchall(f"SELECT {_COLUMNS} FROM nights WHERE status = 'playing' ORDER BY id")
    return [_night(r) for r in rows]


async def set_message(db: Database, night_id: int, message_id: int) -> None:
    await db.execute("UPDATE nights SET message_id = ? WHERE id = ?", (message_id, night_id))


async def players(db: Database, night_id: int) -> list[NightPlayer]:
    """Everyone who registered (and did not leave before the start), in the order they did."""
    rows = await db.fetchall(
        "SELECT user_id, name, joined_round, left_round FROM night_players WHERE night_id = ?"
        " ORDER BY rowid",
        (night_id,),
    )
    return [NightPlayer(r["user_id"], r["name"], r["joined_round"], r["left_round"]) for r in rows]


async def register(db: Database, night: Night, user_id: int, name: str) -> None:
    """Register a player (a league member: the caller checks).

    Raises:
        NightError: already registered and present, or the night is full.
    """
    row = await db.fetchone(
        "SELECT left_round FROM night_players WHERE night_id = ? AND user_id = ?",
        (night.id, user_id),
    )
    if row is not None and row["left_round"] is None:
        raise NightError("you are already registered for this euchre night")
    present = await db.fetchval(
        "SELECT COUNT(*) FROM night_players WHERE night_id = ? AND left_round IS NULL",
        (night.id,),
    )
    if present >= MAX_PLAYERS:
        raise NightError(
            f"this euchre night is full: it seats at most {MAX_PLAYERS} players, and"
            f" {present} are registered"
        )
    if row is not None:  # left during the night, and comes back
        await db.execute(
            "UPDATE night_players SET left_round = NULL, joined_round = ?, name = ?"
            " WHERE night_id = ? AND user_id = ?",
            (night.round, name, night.id, user_id),
        )
        return
    await db.execute(
        "INSERT INTO night_players (night_id, user_id, name, joined_at, joined_round)"
        " VALUES (?, ?, ?, ?, ?)",
        (night.id, user_id, name, _now(), night.round),
    )


async def unregister(db: Database, night: Night, user_id: int) -> None:
    """A player leaves: before the start they are forgotten, afterwards marked as gone.

    Raises:
        NightError: not registered.
    """
    row = await db.fetchone(
        "SELECT left_round FROM night_players WHERE night_id = ? AND user_id = ?",
        (night.id, user_id),
    )
    if row is None or row["left_round"] is not None:
        raise NightError("you are not registered for this euchre night")
    if night.status == OPEN:
        await db.execute(
            "DELETE FROM night_players WHERE night_id = ? AND user_id = ?", (night.id, user_id)
        )
    else:
        await db.execute(
            "UPDATE night_players SET left_round = ? WHERE night_id = ? AND user_id = ?",
            (night.round, night.id, user_id),
        )


async def start(db: Database, night_id: int, plan: dict[str, Any], rounds: int) -> None:
    """The night is played from now, by this plan, for this many rounds."""
    await db.execute(
        "UPDATE nights SET status = 'playing', plan = ?, rounds = ? WHERE id = ?",
        (json.dumps(plan), rounds, night_id),
    )


async def set_plan(db: Database, night_id: int, plan: dict[str, Any]) -> None:
    await db.execute("UPDATE nights SET plan = ? WHERE id = ?", (json.dumps(plan), night_id))


async def add_round(
    db: Database,
    night_id: int,
    number: int,
    tables: list[tuple[tuple[int, int], tuple[int, int]]],
    byes: list[int],
    deadline: float | None,
) -> None:
    """Store a round's seating (before its tables are opened) and make it the current one."""
    seating = json.dumps({"tables": [list(map(list, t)) for t in tables], "byes": list(byes)})
    await db.execute(
        "INSERT INTO night_rounds (night_id, number, seating, deadline, started_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (night_id, number, seating, deadline, _now()),
    )
    await db.execute("UPDATE nights SET round = ? WHERE id = ?", (number, night_id))


async def round_of(db: Database, night_id: int, number: int) -> NightRound | None:
    row = await db.fetchone(
        "SELECT number, seating, deadline, time_up FROM night_rounds"
        " WHERE night_id = ? AND number = ?",
        (night_id, number),
    )
    if row is None:
        return None
    seating = json.loads(row["seating"])
    tables = tuple(((int(a), int(b)), (int(c), int(d))) for (a, b), (c, d) in seating["tables"])
    return NightRound(
        row["number"], tables, tuple(seating["byes"]), row["deadline"], bool(row["time_up"])
    )


async def set_time_up(db: Database, night_id: int, number: int) -> None:
    await db.execute(
        "UPDATE night_rounds SET time_up = 1 WHERE night_id = ? AND number = ?", (night_id, number)
    )


async def add_table(
    db: Database,
    night_id: int,
    round_number: int,
    position: int,
    thread_id: int,
    table_id: int,
    seats: list[int | None],
    last_deal: int | None,
    done: bool = False,
) -> None:
    await db.execute(
        "INSERT INTO night_tables (night_id, round, position, thread_id, table_id, seats,"
        " last_deal, done) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            night_id,
            round_number,
            position,
            thread_id,
            table_id,
            json.dumps(seats),
            last_deal,
            int(done),
        ),
    )


async def note_thread(
    db: Database, night_id: int, round_number: int, position: int, thread_id: int
) -> None:
    """The thread opened for a table of a round, before the table is made in it."""
    await db.execute(
        "INSERT INTO night_threads (night_id, round, position, thread_id)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (night_id, round, position)"
        " DO UPDATE SET thread_id = excluded.thread_id",
        (night_id, round_number, position, thread_id),
    )


async def noted_thread(db: Database, night_id: int, round_number: int, position: int) -> int | None:
    """The thread opened for a table of a round, if one was (see `note_thread`)."""
    value = await db.fetchval(
        "SELECT thread_id FROM night_threads WHERE night_id = ? AND round = ? AND position = ?",
        (night_id, round_number, position),
    )
    return None if value is None else int(value)


async def set_last_deal(db: Database, night_id: int, table_id: int, deal: int) -> None:
    await db.execute(
        "UPDATE night_tables SET last_deal = ? WHERE night_id = ? AND table_id = ?",
        (deal, night_id, table_id),
    )


async def tables_of(
    db: Database, night_id: int, round_number: int | None = None
) -> list[NightTable]:
    """A round's tables (every round's, without a number), head table first."""
    sql = (
        "SELECT round, position, thread_id, table_id, seats, last_deal, done FROM night_tables"
        " WHERE night_id = ?"
    )
    params: tuple[Any, ...] = (night_id,)
    if round_number is not None:
        sql += " AND round = ?"
        params += (round_number,)
    rows = await db.fetchall(sql + " ORDER BY round, position", params)
    return [
        NightTable(
            r["round"],
            r["position"],
            r["thread_id"],
            r["table_id"],
            tuple(json.loads(r["seats"])),
            r["last_deal"],
            bool(r["done"]),
        )
        for r in rows
    ]


async def night_of_table(db: Database, table_id: int) -> int | None:
    """The night a bot table was opened for, if any."""
    value = await db.fetchval(
        "SELECT night_id FROM night_tables WHERE table_id = ?", (table_id,), None
    )
    return int(value) if value is not None else None


async def set_table_done(db: Database, night_id: int, table_id: int) -> None:
    await db.execute(
        "UPDATE night_tables SET done = 1 WHERE night_id = ? AND table_id = ?",
        (night_id, table_id),
    )


async def close(db: Database, night_id: int) -> None:
    await db.execute(
        "UPDATE nights SET status = 'closed', closed_at = ? WHERE id = ?", (_now(), night_id)
    )


async def totals(db: Database, night_id: int) -> list[Total]:
    """Every registered player's running total, best first (then by name).

    A player scores, for each deal they played at one of the night's tables, the points their
    side made in it: summed from the hands stored with the deals, so a total is never behind
    what is stored. Computers score for no one.
    """
    rows = await db.fetchall(
        "SELECT hp.user_id,"
        " SUM(CASE WHEN hp.seat % 2 = 0 THEN h.points_0 ELSE h.points_1 END) AS points,"
        " COUNT(*) AS deals"
        " FROM night_tables t JOIN hands h ON h.table_id = t.table_id"
        " JOIN hand_players hp ON hp.hand_id = h.id"
        " WHERE t.night_id = ? AND hp.is_bot = 0 GROUP BY hp.user_id",
        (night_id,),
    )
    scored = {r["user_id"]: (r["points"], r["deals"]) for r in rows}
    found = {}
    for player in await players(db, night_id):
        points, deals = scored.get(player.user_id, (0, 0))
        found[player.user_id] = Total(player.user_id, player.name, points, deals, player.present)
    return sorted(found.values(), key=lambda t: (-t.points, t.name.casefold(), t.user_id))


async def table_points(db: Database, table_id: int) -> tuple[int, int, int, int, int]:
    """A table's points and tricks per side (north-south first), and its deals played."""
    row = await db.fetchone(
        "SELECT COALESCE(SUM(points_0), 0) AS p0, COALESCE(SUM(points_1), 0) AS p1,"
        " COALESCE(SUM(tricks_0), 0) AS t0, COALESCE(SUM(tricks_1), 0) AS t1, COUNT(*) AS n"
        " FROM hands WHERE table_id = ?",
        (table_id,),
    )
    assert row is not None  # an aggregate always has a row
    return row["p0"], row["p1"], row["t0"], row["t1"], row["n"]
