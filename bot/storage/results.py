"""Recording finished hands, games and matches, and keeping each player's totals with them.

The game manager calls :func:`new_match_id` when a match starts and :func:`record_hand`,
:func:`record_game` and :func:`record_match` as deals, games and the match end, inside its own
``async with db.transaction():`` (or the batch writer's); nothing here commits. Each call inserts
the result with who sat where and adds what it changes to the players' rows of ``player_totals``
(per preset and flag: all time, the result's season and its day) and of ``board_totals`` (one row
per player and flag: all time, the season and the 7- and 30-day windows, see
:mod:`bot.storage.boards`),
in two ``executemany`` calls, so leaderboards read totals and never scan hands; and of
``board_counts``, the players each board lists (see :mod:`bot.storage.board_counts`).

What each result counts, per player (side 0 is seats 0 and 2):

* a deal played (not passed out): ``hands_played`` for the four at the table and ``points`` the
  side's points; for the maker ``makes``, and ``makes_won`` (three tricks or more) or
  ``euchres_suffered``; a euchre counts ``euchres_inflicted`` for each defender taking part (only
  the lone defender when one defends alone); a march counts ``marches`` for each player of the
  making side taking part (only the lone player for a lone hand); the lone player gets
  ``lone_tried``, and ``lone_made`` when his side takes three tricks or more;
* a game: ``games_played``, and ``games_won`` for the winners;
* a finished rubber: ``rubbers_played``, ``rubbers_won`` for the winners and ``rubber_points``
  the side's rubber points (S.7). An abandoned match counts no rubber; its hands and games
  already recorded still count.

Computer players and substitutes. A match in which a computer player or a substitute played is
*flagged*, and everything recorded for it (hands, games, the match) counts only when a
leaderboard asks to include computer players. The flag is decided per match and may come late (a
substitute sits down in the third game): the first result that shows a computer or a substitute,
or :func:`flag_match`, marks the match and moves what it had already counted from the unflagged
totals to the flagged ones, recomputed from its own stored hands and games. Computer players
themselves get no totals.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from operator import add
from typing import Any

from bot.storage import board_counts, boards
from bot.storage.buckets import ALL_BUCKET, COUNTERS, DAY_PREFIX, SEASON_PREFIX
from bot.storage.database import Database
from bot.storage.errors import StorageError
from bot.storage.seasons import (
    day_of,
    season_key,
    season_starts,
    timestamp,
)

log = logging.getLogger(__name__)

_INDEX = {name: i for i, name in enumerate(COUNTERS)}

OUTCOMES = ("passed", "made", "march", "euchred")
MATCH_KINDS = ("rubber", "game")

Counts = tuple[int, ...]


def side_of(seat: int) -> int:
    """Side 0 is seats 0 and 2; side 1 is seats 1 and 3."""
    return seat % 2


# ------------------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Who sat in a seat: a member, a computer player, or a member substituting (S.18)."""

    seat: int
    user_id: int
    name: str
    is_bot: bool = False
    substitute: bool = False


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished deal, passed out or played.

    ``players`` are the four seats (by seat), ``tricks`` and ``points`` are per side,
    ``alone`` and ``defender`` are the seats playing and defending alone. ``flagged`` marks the
    match even when no seat shows a computer or a substitute (a computer made one timed-out move).
    """

    guild_id: int
    table_id: int
    match_id: int
    game_number: int
    deal_number: int
    dealer: int
    maker: int | None
    trump: str | None
    alone: int | None
    defender: int | None
    players: tuple[SeatPlayer, ...]
    tricks: tuple[int, int]
    points: tuple[int, int]
    outcome: str
    preset: str
    options: Mapping[str, Any]
    record: Mapping[str, Any]
    played_at: datetime
    flagged: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game: the final score per side, the winning side and what it counts (1 or 2)."""

    guild_id: int
    table_id: int
    match_id: int
    game_number: int
    players: tuple[SeatPlayer, ...]
    scores: tuple[int, int]
    winner: int
    value: int
    preset: str
    options: Mapping[str, Any]
    played_at: datetime
    flagged: bool = False


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished or abandoned match: a rubber, or a single game.

    ``games`` holds ((score_0, score_1), winner, value) per game; ``winner`` is the side that
    won the match (None when abandoned or undecided); ``record`` the match's own JSON record.
    """

    guild_id: int
    table_id: int
    match_id: int
    kind: str
    players: tuple[SeatPlayer, ...]
    games: tuple[tuple[tuple[int, int], int, int], ...]
    rubber_points: tuple[int, int]
    winner: int | None
    abandoned: bool
    preset: str
    options: Mapping[str, Any]
    record: Mapping[str, Any]
    played_at: datetime
    flagged: bool = False


# ------------------------------------------------------------------------------ what counts


def _vector(**counts: int) -> Counts:
    values = [0] * len(COUNTERS)
    for name, value in counts.items():
        values[_INDEX[name]] = int(value)
    return tuple(values)


def hand_counts(
    seat: int,
    *,
    maker: int | None,
    alone: int | None,
    defender: int | None,
    outcome: str,
    points: Sequence[int],
) -> Counts:
    """What one deal adds to the totals of the player in ``seat`` (see the module's docstring)."""
    if outcome == "passed" or maker is None:
        return _vector()
    side = side_of(seat)
    making = side == side_of(maker)
    won = outcome in ("made", "march")
    return _vector(
        hands_played=1,
        points=points[side],
        makes=seat == maker,
        makes_won=seat == maker and won,
        euchres_suffered=seat == maker and outcome == "euchred",
        euchres_inflicted=(
            not making and outcome == "euchred" and (defender is None or seat == defender)
        ),
        marches=making and outcome == "march" and (alone is None or seat == alone),
        lone_tried=seat == alone,
        lone_made=seat == alone and won,
    )


def game_counts(seat: int, *, winner: int) -> Counts:
    """What one game adds to the totals of the player in ``seat``."""
    return _vector(games_played=1, games_won=side_of(seat) == winner)


def match_counts(
    seat: int, *, kind: str, abandoned: bool, winner: int | None, rubber_points: Sequence[int]
) -> Counts:
    """What a match adds to the totals of the player in ``seat``: a finished rubber only."""
    if kind != "rubber" or abandoned:
        return _vector()
    side = side_of(seat)
    return _vector(
        rubbers_played=1,
        rubbers_won=winner == side,
        rubber_points=rubber_points[side],
    )


def _merge(into: dict[Any, Counts], key: Any, counts: Counts) -> None:
    """Add ``counts`` to ``into[key]`` (most keys are new: then the tuple is stored as it is)."""
    old = into.get(key)
    into[key] = counts if old is None else tuple(map(add, old, counts))


@dataclass
class _Delta:
    """Counts to add, keyed by (user_id, preset, flagged, day)."""

    rows: dict[tuple[int, str, int, str], Counts] = field(default_factory=dict)

    def add(self, user_id: int, preset: str, flagged: int, day: str, counts: Counts, sign: int = 1):
        if not any(counts):
            return
        if sign < 0:
            counts = tuple(-c for c in counts)
        _merge(self.rows, (user_id, preset, flagged, day), counts)

    @classmethod
    def of_players(
        cls,
        players: Iterable[SeatPlayer],
        preset: str,
        flagged: bool,
        day: str,
        counts_of: Callable[[int], Counts],
    ) -> _Delta:
        """Each human player's counts for one result (computer players keep no totals)."""
        delta = cls()
        delta.add_players(players, preset, flagged, day, counts_of)
        return delta

    def add_players(
        self,
        players: Iterable[SeatPlayer],
        preset: str,
        flagged: bool,
        day: str,
        counts_of: Callable[[int], Counts],
    ) -> None:
        """Add each human player's counts for one more result."""
        for p in players:
            if not p.is_bot:
                self.add(p.user_id, preset, int(flagged), day, counts_of(p.seat))


_UPSERT = (
    "INSERT INTO player_totals (guild_id, bucket, user_id, preset, flagged, "
    + ", ".join(COUNTERS)
    + ") VALUES (?, ?, ?, ?, ?, "
    + ", ".join("?" for _ in COUNTERS)
    + ") ON CONFLICT (guild_id, bucket, user_id, preset, flagged) DO UPDATE SET "
    + ", ".join(f"{c} = player_totals.{c} + excluded.{c}" for c in COUNTERS)
)
_ZERO = " AND ".join(f"{c} = 0" for c in COUNTERS)


async def _apply(
    db: Database,
    guild_id: int,
    delta: _Delta,
    starts: Sequence[str] | None = None,
    anchors: dict[int, str] | None = None,
) -> None:
    """Add a delta to the detailed totals (all time, season, day) and to the boards.

    A few executemany calls, whatever the delta; the windows move forward first when the delta
    holds a day later than their anchor. ``starts`` (season start days) and ``anchors``
    (window anchors) are read here unless the caller already has them.
    """
    if not delta.rows:
        return
    if starts is None:
        starts = await season_starts(db, guild_id)
    latest = max(day for _, _, _, day in delta.rows)
    windows = await boards.advance_windows(db, guild_id, latest, anchors)
    detail: dict[tuple[str, int, str, int], Counts] = {}
    board: dict[tuple[str, int, int], Counts] = {}
    boards_of_day: dict[str, tuple[str, str, list[str]]] = {}
    for (user_id, preset, flagged, day), counts in delta.rows.items():
        known = boards_of_day.get(day)
        if known is None:
            season = SEASON_PREFIX + season_key(day, starts)
            names = [ALL_BUCKET, season] + [
                boards.window_board(days)
                for days, anchor in windows.items()
                if boards.in_window(day, anchor, days)
            ]
            known = boards_of_day[day] = (season, DAY_PREFIX + day, names)
        season, day_bucket, names = known
        for bucket in (ALL_BUCKET, season, day_bucket):
            _merge(detail, (bucket, user_id, preset, flagged), counts)
        for name in names:
            _merge(board, (name, flagged, user_id), counts)
    await db.executemany(
        _UPSERT, [(guild_id, *key, *counts) for key, counts in detail.items() if any(counts)]
    )
    # Who the boards list before the change, to keep how many they list (board_counts).
    before = await board_counts.listed_before(db, guild_id, board)
    # Board rows grouped by the counters they change (a handful of groups for a deal).
    by_change: dict[tuple[int, ...], list[tuple[Any, ...]]] = {}
    for key, counts in board.items():
        changed = tuple(i for i, c in enumerate(counts) if c)
        if changed:
            by_change.setdefault(changed, []).append((guild_id, *key, *counts))
    for changed, rows in by_change.items():
        await db.executemany(boards.upsert_changing(changed), rows)
    await board_counts.add_changes(db, guild_id, board_counts.changes(before, board))
    if any(min(counts) < 0 for counts in delta.rows.values()):
        # Counts moved away (a match flagged late) leave rows of zeros behind: drop them.
        await db.executemany(
            f"DELETE FROM player_totals WHERE guild_id = ? AND bucket = ? AND user_id = ?"
            f" AND preset = ? AND flagged = ? AND {_ZERO}",
            [(guild_id, *key) for key in detail],
        )
        await db.executemany(
            f"DELETE FROM board_totals WHERE guild_id = ? AND board = ? AND flagged = ?"
            f" AND user_id = ? AND {_ZERO}",
            [(guild_id, *key) for key in board],
        )


# ------------------------------------------------------------------------------ matches


def _check_players(players: Sequence[SeatPlayer]) -> None:
    seats = [p.seat for p in players]
    if any(not 0 <= s <= 3 for s in seats):
        raise StorageError(f"A seat is 0 to 3, not {seats}.")


def _flagged_by(players: Iterable[SeatPlayer]) -> bool:
    return any(p.is_bot or p.substitute for p in players)


async def new_match_id(
    db: Database, guild_id: int, table_id: int, *, now: datetime | None = None
) -> int:
    """Allocate a match (a rubber or a single game) as it starts, in play until recorded.

    Returns:
        The match id that the hands, games and the match's own record will carry.
    """
    return await db.fetchval(
        "INSERT INTO matches (guild_id, table_id, status, started_at) VALUES (?, ?, 'playing', ?) RETURNING id",
        (guild_id, table_id, timestamp(now or datetime.now(UTC))),
    )


async def _match_state(
    db: Database, match_id: int, guild_id: int, day: str
) -> tuple[bool, str | None, dict[int, str]]:
    """Check the match exists, is this server's and is in play, in one query.

    Returns:
        The match's flag, the latest season start on or before ``day`` and the window anchors.
    """
    row = await db.fetchone(
        "SELECT m.guild_id, m.status, m.flagged,"
        " (SELECT max(start_day) FROM seasons WHERE guild_id = m.guild_id AND start_day <= ?),"
        " (SELECT anchor_day FROM board_windows WHERE guild_id = m.guild_id AND days = ?),"
        " (SELECT anchor_day FROM board_windows WHERE guild_id = m.guild_id AND days = ?)"
        " FROM matches AS m WHERE m.id = ?",
        (day, *boards.WINDOWS, match_id),
    )
    _check_match(match_id, guild_id, None if row is None else (row[0], row[1]))
    assert row is not None  # refused above
    anchors = {days: row[4 + i] for i, days in enumerate(boards.WINDOWS) if row[4 + i]}
    return bool(row[2]), row[3], anchors


def _starts_for(latest: str | None) -> list[str]:
    # season_key() only needs the latest start on or before the day.
    return [latest] if latest else []


async def flag_match(db: Database, match_id: int) -> bool:
    """Mark a match as played with a computer player or a substitute.

    What the match already counted moves from the unflagged totals to the flagged ones,
    recomputed from its stored hands and games (and the match itself, if recorded). Call inside
    the caller's transaction.

    Returns:
        True when the match was not flagged before.
    """
    row = await db.fetchone("SELECT guild_id, flagged FROM matches WHERE id = ?", (match_id,))
    if row is None:
        raise StorageError(f"There is no match {match_id}.")
    guild_id, flagged = row
    if flagged:
        return False
    await db.execute("UPDATE matches SET flagged = 1 WHERE id = ?", (match_id,))
    delta = _Delta()
    for counts_of in (_stored_hand_counts, _stored_game_counts, _stored_match_counts):
        for user_id, preset, day, counts in await counts_of(db, match_id):
            delta.add(user_id, preset, 0, day, counts, -1)
            delta.add(user_id, preset, 1, day, counts)
    await _apply(db, guild_id, delta)
    log.info("match %s flagged: a computer player or a substitute played", match_id)
    return True


async def _stored_hand_counts(db: Database, match_id: int) -> list[tuple[int, str, str, Counts]]:
    rows = await db.fetchall(
        "SELECT hp.seat, hp.user_id, h.preset, h.day, h.maker, h.alone, h.defender, h.outcome,"
        " h.points_0, h.points_1 FROM hands AS h JOIN hand_players AS hp ON hp.hand_id = h.id"
        " WHERE h.match_id = ? AND hp.is_bot = 0",
        (match_id,),
    )
    return [
        (
            r["user_id"],
            r["preset"],
            r["day"],
            hand_counts(
                r["seat"],
                maker=r["maker"],
                alone=r["alone"],
                defender=r["defender"],
                outcome=r["outcome"],
                points=(r["points_0"], r["points_1"]),
            ),
        )
        for r in rows
    ]


async def _stored_game_counts(db: Database, match_id: int) -> list[tuple[int, str, str, Counts]]:
    rows = await db.fetchall(
        "SELECT gp.seat, gp.user_id, g.preset, g.day, g.winner"
        " FROM games AS g JOIN game_players AS gp ON gp.game_id = g.id"
        " WHERE g.match_id = ? AND gp.is_bot = 0",
        (match_id,),
    )
    return [
        (r["user_id"], r["preset"], r["day"], game_counts(r["seat"], winner=r["winner"]))
        for r in rows
    ]


async def _stored_match_counts(db: Database, match_id: int) -> list[tuple[int, str, str, Counts]]:
    rows = await db.fetchall(
        "SELECT mp.seat, mp.user_id, m.preset, m.day, m.kind, m.status, m.winner,"
        " m.rubber_points_0, m.rubber_points_1"
        " FROM matches AS m JOIN match_players AS mp ON mp.match_id = m.id"
        " WHERE m.id = ? AND m.status != 'playing' AND mp.is_bot = 0",
        (match_id,),
    )
    return [
        (
            r["user_id"],
            r["preset"],
            r["day"],
            match_counts(
                r["seat"],
                kind=r["kind"],
                abandoned=r["status"] == "abandoned",
                winner=r["winner"],
                rubber_points=(r["rubber_points_0"], r["rubber_points_1"]),
            ),
        )
        for r in rows
    ]


_NAMES = (
    "INSERT INTO player_names (guild_id, user_id, name) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name"
    " WHERE player_names.name != excluded.name"
)


def _player_rows(owner_id: int, players: Sequence[SeatPlayer]) -> list[tuple[Any, ...]]:
    return [
        (owner_id, p.seat, p.user_id, p.name, int(p.is_bot), int(p.substitute)) for p in players
    ]


def _name_rows(guild_id: int, players: Sequence[SeatPlayer]) -> list[tuple[Any, ...]]:
    return [(guild_id, p.user_id, p.name) for p in players if not p.is_bot]


def _json(value: Mapping[str, Any] | Sequence[Any]) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# ------------------------------------------------------------------------------ recording


async def record_hand(db: Database, hand: HandRecord) -> int:
    """Store a finished deal and add it to its players' totals (inside the caller's transaction).

    Returns:
        The hand's id.

    Raises:
        StorageError: an unknown or finished match, a bad seat or outcome.
    """
    (hand_id,) = await record_hands(db, [hand])
    return hand_id


_HAND_COLUMNS = (
    "match_id, guild_id, table_id, game_number, deal_number, dealer, maker, trump, alone,"
    " defender, tricks_0, tricks_1, points_0, points_1, outcome, preset, options, record,"
    " played_at, day"
)
_HAND_MARKS = "(" + ", ".join("?" for _ in _HAND_COLUMNS.split(",")) + ")"
# Hands per INSERT statement: 20 values each stays far below either backend's limit of
# parameters in one statement (SQLite's 32,766).
_HANDS_PER_INSERT = 500


async def record_hands(db: Database, hands: Sequence[HandRecord]) -> list[int]:
    """Store finished deals and add them to their players' totals, inside the caller's
    transaction, in a few statements however many there are.

    The group-commit writer gives it every deal its transaction finishes (`BatchWriter`'s
    ``together``), so a deal's results cost a few round trips a batch rather than a dozen a
    deal: on PostgreSQL those round trips are what the action that ends a deal waits for.
    The totals come out as if each deal were recorded alone, in order.

    Returns:
        The hands' ids, in order.

    Raises:
        StorageError: an unknown or finished match, a bad seat or outcome (nothing is stored).
    """
    for hand in hands:
        if hand.outcome not in OUTCOMES:
            raise StorageError(f"Unknown outcome {hand.outcome!r}.")
        if hand.outcome != "passed" and hand.maker is None:
            raise StorageError(f"A deal {hand.outcome} has a maker.")
        _check_players(hand.players)
    if not hands:
        return []
    flagged = await _matches_in_play(db, [(h.match_id, h.guild_id) for h in hands])
    for hand in hands:
        if not flagged[hand.match_id] and (hand.flagged or _flagged_by(hand.players)):
            flagged[hand.match_id] = await flag_match(db, hand.match_id)
    days = [day_of(hand.played_at) for hand in hands]
    ids = await _insert_hands(db, hands, days)
    await db.executemany(
        "INSERT INTO hand_players (hand_id, seat, user_id, name, is_bot, substitute)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            row
            for hand_id, h in zip(ids, hands, strict=True)
            for row in _player_rows(hand_id, h.players)
        ],
    )
    await db.executemany(_NAMES, [row for h in hands for row in _name_rows(h.guild_id, h.players)])
    deltas: dict[int, _Delta] = {}
    for hand, day in zip(hands, days, strict=True):
        deltas.setdefault(hand.guild_id, _Delta()).add_players(
            hand.players,
            hand.preset,
            flagged[hand.match_id],
            day,
            partial(
                hand_counts,
                maker=hand.maker,
                alone=hand.alone,
                defender=hand.defender,
                outcome=hand.outcome,
                points=hand.points,
            ),
        )
    # Read after any late flag above, which may have moved a server's windows.
    starts, anchors = await _servers_calendar(db, list(deltas))
    for guild_id, delta in deltas.items():
        await _apply(db, guild_id, delta, starts.get(guild_id, []), anchors.get(guild_id, {}))
    return ids


async def _matches_in_play(db: Database, matches: Sequence[tuple[int, int]]) -> dict[int, bool]:
    """Check each (match, server) exists, is that server's and is in play, in one query.

    Returns:
        Each match's flag.
    """
    wanted = list(dict.fromkeys(match_id for match_id, _ in matches))
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetchall(
        f"SELECT id, guild_id, status, flagged FROM matches WHERE id IN ({marks})", wanted
    )
    found = {r[0]: (r[1], r[2]) for r in rows}
    for match_id, guild_id in matches:
        _check_match(match_id, guild_id, found.get(match_id))
    return {r[0]: bool(r[3]) for r in rows}


def _check_match(match_id: int, guild_id: int, stored: tuple[int, str] | None) -> None:
    """Refuse a result for a match that is not there (``stored`` None), not this server's or
    not in play (``stored``: the match's server and status)."""
    if stored is None:
        raise StorageError(f"There is no match {match_id}; allocate it with new_match_id first.")
    if stored[0] != guild_id:
        raise StorageError(f"Match {match_id} belongs to another server.")
    if stored[1] != "playing":
        raise StorageError(f"Match {match_id} is already over ({stored[1]}).")


async def _insert_hands(db: Database, hands: Sequence[HandRecord], days: list[str]) -> list[int]:
    """Insert the hands' rows, many to a statement; their ids, in order (matched by each hand's
    match and deal, which are unique, as the order of returned rows is not promised)."""
    ids: dict[tuple[int, int], int] = {}
    with_days = list(zip(hands, days, strict=True))
    for first in range(0, len(with_days), _HANDS_PER_INSERT):
        chunk = with_days[first : first + _HANDS_PER_INSERT]
        params: list[Any] = []
        for hand, day in chunk:
            params += (
                hand.match_id,
                hand.guild_id,
                hand.table_id,
                hand.game_number,
                hand.deal_number,
                hand.dealer,
                hand.maker,
                hand.trump,
                hand.alone,
                hand.defender,
                hand.tricks[0],
                hand.tricks[1],
                hand.points[0],
                hand.points[1],
                hand.outcome,
                hand.preset,
                _json(hand.options),
                _json(hand.record),
                timestamp(hand.played_at),
                day,
            )
        rows = await db.fetchall(
            f"INSERT INTO hands ({_HAND_COLUMNS}) VALUES "
            + ", ".join(_HAND_MARKS for _ in chunk)
            + " RETURNING id, match_id, deal_number",
            params,
        )
        ids.update(((r[1], r[2]), r[0]) for r in rows)
    return [ids[hand.match_id, hand.deal_number] for hand in hands]


async def _servers_calendar(
    db: Database, guilds: Sequence[int]
) -> tuple[dict[int, list[str]], dict[int, dict[int, str]]]:
    """The servers' season start days (sorted) and window anchors, in one query."""
    marks = ", ".join("?" for _ in guilds)
    rows = await db.fetchall(
        f"SELECT guild_id, start_day, 0 FROM seasons WHERE guild_id IN ({marks})"
        f" UNION ALL SELECT guild_id, anchor_day, days FROM board_windows"
        f" WHERE guild_id IN ({marks})",
        [*guilds, *guilds],
    )
    starts: dict[int, list[str]] = {}
    anchors: dict[int, dict[int, str]] = {}
    for guild_id, day, days in rows:
        if days:
            anchors.setdefault(guild_id, {})[days] = day
        else:
            starts.setdefault(guild_id, []).append(day)
    for days_of in starts.values():
        days_of.sort()
    return starts, anchors


async def record_game(db: Database, game: GameRecord) -> int:
    """Store a finished game and add it to its players' totals (inside the caller's transaction).

    Returns:
        The game's id.

    Raises:
        StorageError: an unknown or finished match, a bad seat, winner or value.
    """
    if game.winner not in (0, 1) or game.value not in (1, 2):
        raise StorageError(
            f"A game's winner is side 0 or 1 and its value 1 or 2, not "
            f"{game.winner} and {game.value}."
        )
    _check_players(game.players)
    day = day_of(game.played_at)
    anchors: dict[int, str] | None
    flagged, latest, anchors = await _match_state(db, game.match_id, game.guild_id, day)
    if not flagged and (game.flagged or _flagged_by(game.players)):
        flagged = await flag_match(db, game.match_id)
        anchors = None  # moving counts may have moved the windows: read them again
    game_id = await db.fetchval(
        "INSERT INTO games (match_id, guild_id, table_id, game_number, score_0, score_1, winner,"
        " value, preset, options, played_at, day) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            game.match_id,
            game.guild_id,
            game.table_id,
            game.game_number,
            game.scores[0],
            game.scores[1],
            game.winner,
            game.value,
            game.preset,
            _json(game.options),
            timestamp(game.played_at),
            day,
        ),
    )
    await db.executemany(
        "INSERT INTO game_players (game_id, seat, user_id, name, is_bot, substitute)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        _player_rows(game_id, game.players),
    )
    await db.executemany(_NAMES, _name_rows(game.guild_id, game.players))
    delta = _Delta.of_players(
        game.players, game.preset, flagged, day, lambda seat: game_counts(seat, winner=game.winner)
    )
    await _apply(db, game.guild_id, delta, _starts_for(latest), anchors)
    return game_id


async def record_match(db: Database, match: MatchRecord) -> int:
    """Finish a match allocated by :func:`new_match_id` and add it to its players' totals.

    A finished rubber counts ``rubbers_played``, ``rubbers_won`` and ``rubber_points``; a single
    game match or an abandoned one adds nothing beyond its hands and games already recorded.
    Runs inside the caller's transaction.

    Returns:
        The match's id.

    Raises:
        StorageError: an unknown or already finished match, a bad kind, seat or winner.
    """
    if match.kind not in MATCH_KINDS:
        raise StorageError(f"A match is a rubber or a game, not {match.kind!r}.")
    if match.winner not in (None, 0, 1):
        raise StorageError(f"A match's winner is side 0 or 1, not {match.winner!r}.")
    if match.kind == "rubber" and not match.abandoned and match.winner is None:
        raise StorageError("A finished rubber has a winner.")
    _check_players(match.players)
    day = day_of(match.played_at)
    anchors: dict[int, str] | None
    flagged, latest, anchors = await _match_state(db, match.match_id, match.guild_id, day)
    if not flagged and (match.flagged or _flagged_by(match.players)):
        flagged = await flag_match(db, match.match_id)
        anchors = None  # moving counts may have moved the windows: read them again
    await db.execute(
        "UPDATE matches SET status = ?, kind = ?, preset = ?, options = ?, games = ?,"
        " rubber_points_0 = ?, rubber_points_1 = ?, winner = ?, record = ?, played_at = ?,"
        " day = ? WHERE id = ?",
        (
            "abandoned" if match.abandoned else "finished",
            match.kind,
            match.preset,
            _json(match.options),
            _json([[list(scores), winner, value] for scores, winner, value in match.games]),
            match.rubber_points[0],
            match.rubber_points[1],
            match.winner,
            _json(match.record),
            timestamp(match.played_at),
            day,
            match.match_id,
        ),
    )
    await db.executemany(
        "INSERT INTO match_players (match_id, seat, user_id, name, is_bot, substitute)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        _player_rows(match.match_id, match.players),
    )
    await db.executemany(_NAMES, _name_rows(match.guild_id, match.players))
    delta = _Delta.of_players(
        match.players,
        match.preset,
        flagged,
        day,
        lambda seat: match_counts(
            seat,
            kind=match.kind,
            abandoned=match.abandoned,
            winner=match.winner,
            rubber_points=match.rubber_points,
        ),
    )
    await _apply(db, match.guild_id, delta, _starts_for(latest), anchors)
    return match.match_id
