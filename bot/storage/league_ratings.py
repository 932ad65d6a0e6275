"""A league's OpenSkill ratings in storage: each rated game, each player's rating now and after
every game, and the recompute that corrections and the checker run.

Ratings are updated game by game (`bot.leagues.ratings.Ratings.record`) in the transaction that
stores the game. A correction recomputes them from the first game it touches: the ratings
before that game are read back from the history, and the later rated games are replayed in the
order they were played, so recomputing everything (`check`) gives the very floats stored.

A league of many games cannot be recomputed inside one write: the bot has one writer, and every
table's clicks would wait for it. So a correction that reaches back far only marks the league
(`league_rating_marks`: the ratings are right before game `from_game`) and `catch_up` does the
rest in short steps: it reads and computes outside any write, then writes the history a run of
games at a time, each write checking that no correction came in between (the mark's `version`)
and moving the mark on. While a league is marked, a game that ends is stored without moving
anyone's rating; the recompute rates it after the corrected history, in the order played, so
the end state is exactly a full recompute's. A stop midway leaves a mark whose history before
it is right: the next start (`Recomputer.resume`) or the next correction carries on from it.
Standings do not wait for any of this: they are totals rebuilt in the correction's own write.
Nothing here commits on its own, except `catch_up` through the writer it is given.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.leagues.ratings import GameResult, PlayerRating, Ratings, replay
from bot.storage.database import Database
from bot.storage.errors import WriterClosed
from bot.storage.seasons import parse_timestamp, timestamp

log = logging.getLogger(__name__)

# A write of the chunked recompute rewrites the history of this many games (four rows each):
# some 10-40 ms of SQLite on a busy machine, so the writer is never held long.
CHUNK_GAMES = 500
# A recompute of at most this many games is done at once, in the write that asks for it (a
# match that has just ended, a correction of a recent match): a few milliseconds.
IN_PLACE_GAMES = 200

# How a recompute gets a write done: `BatchWriter.write` in the bot; any function that runs
# the work in a transaction of its own and returns what it returned.
Writes = Callable[[Callable[[Database], Awaitable[Any]]], Awaitable[Any]]

HISTORY_LIMIT = 15  # the games /league rating shows
_HISTORY = (
    "INSERT INTO league_rating_history (league_id, user_id, game_id, mu, sigma, games, played_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game of a league match that can be rated: four people, in the order played."""

    game_id: int
    league_id: int
    match_id: int
    winners: tuple[int, int]
    losers: tuple[int, int]
    played_at: str  # the stored timestamp, read back the same way by every path

    def result(self) -> GameResult:
        return GameResult(self.winners, self.losers, parse_timestamp(self.played_at))


def _rating(row: Any) -> PlayerRating:
    return PlayerRating(
        row["user_id"], row["mu"], row["sigma"], row["games"], parse_timestamp(row["last_played"])
    )


async def add_game(db: Database, game: RatedGame, *, rated: bool, whole: bool = False) -> None:
    """Store a league game; when it is rated, update its four players' ratings now. A game
    `whole` (four members, no computer, no seat changed hands during it) is rated when its
    match ends by a leaver's forfeit or no contest (`set_rated`)."""
    await db.execute(
        "INSERT INTO league_games (game_id, league_id, match_id, winner_a, winner_b, loser_a,"
        " loser_b, played_at, rated, whole) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.game_id,
            game.league_id,
            game.match_id,
            *game.winners,
            *game.losers,
            game.played_at,
            int(rated),
            int(whole),
        ),
    )
    if not rated or await pending(db, game.league_id) is not None:
        return  # a marked league's recompute rates it, after the corrected history
    players = (*game.winners, *game.losers)
    marks = ", ".join("?" * len(players))
    rows = await db.fetchall(
        f"SELECT user_id, mu, sigma, games, last_played FROM league_ratings"
        f" WHERE league_id = ? AND user_id IN ({marks})",
        (game.league_id, *players),
    )
    ratings = Ratings({r["user_id"]: _rating(r) for r in rows})
    await _store(db, game.league_id, game.game_id, ratings.record(game.result()))


async def _store(db: Database, league_id: int, game_id: int, after: Iterable[PlayerRating]) -> None:
    """Write the players' ratings after a game: now, and in their history."""
    rows = [
        (league_id, r.player, r.mu, r.sigma, r.games, timestamp(r.last_played))
        for r in after
        if r.last_played is not None
    ]
    await db.executemany(
        "INSERT INTO league_ratings (league_id, user_id, mu, sigma, games, last_played)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (league_id, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " last_played = excluded.last_played",
        rows,
    )
    await db.executemany(
        _HISTORY,
        [
            (league, user, game_id, mu, sigma, games, at)
            for league, user, mu, sigma, games, at in rows
        ],
    )


# Which of a match's games `set_rated` rates: all of them (the match counts as played), only
# those played whole (a leaver's forfeit or no contest), or none (a void, a replay, an award).
ALL, WHOLE, NONE = "all", "whole", "none"
_RATED_AS = {ALL: "1", WHOLE: "whole", NONE: "0"}


async def set_rated(db: Database, match_id: int, which: str) -> int | None:
    """Rate a match's games (`which`: `ALL`, `WHOLE` or `NONE` of them) and stop rating the
    others; returns its first game whose rating changed (where a recompute starts), or None
    when none did."""
    rated = _RATED_AS[which]
    first = await db.fetchval(
        f"SELECT MIN(game_id) FROM league_games WHERE match_id = ? AND rated != {rated}",
        (match_id,),
    )
    if first is not None:
        await db.execute(
            f"UPDATE league_games SET rated = {rated} WHERE match_id = ? AND rated != {rated}",
            (match_id,),
        )
    return int(first) if first is not None else None


async def rated_games(db: Database, league_id: int, since: int = 0) -> list[RatedGame]:
    """The league's rated games from game `since` on, in the order they were played."""
    rows = await db.fetchall(
        "SELECT game_id, match_id, winner_a, winner_b, loser_a, loser_b, played_at"
        " FROM league_games WHERE league_id = ? AND game_id >= ? AND rated = 1 ORDER BY game_id",
        (league_id, since),
    )
    return [
        RatedGame(
            r["game_id"],
            league_id,
            r["match_id"],
            (r["winner_a"], r["winner_b"]),
            (r["loser_a"], r["loser_b"]),
            r["played_at"],
        )
        for r in rows
    ]


async def _ratings_before(db: Database, league_id: int, game_id: int) -> Ratings:
    """Each player's rating before a game: his history's last row before it."""
    rows = await db.fetchall(
        "SELECT h.user_id, h.mu, h.sigma, h.games, h.played_at AS last_played"
        " FROM league_rating_history AS h JOIN ("
        "  SELECT user_id, MAX(game_id) AS game_id FROM league_rating_history"
        "  WHERE league_id = ? AND game_id < ? GROUP BY user_id"
        " ) AS last ON last.user_id = h.user_id AND last.game_id = h.game_id"
        " WHERE h.league_id = ?",
        (league_id, game_id, league_id),
    )
    return Ratings({r["user_id"]: _rating(r) for r in rows})


def _replayed(ratings: Ratings, games: Sequence[RatedGame]) -> list[list[tuple[Any, ...]]]:
    """Record the games on `ratings`, in order; each game's history rows."""
    rows = []
    for game in games:
        rows.append(
            [
                (game.league_id, r.player, game.game_id, r.mu, r.sigma, r.games, game.played_at)
                for r in ratings.record(game.result())
            ]
        )
    return rows


async def _write_ratings(db: Database, league_id: int, ratings: Ratings) -> None:
    """Replace the league's ratings now by `ratings`."""
    await db.execute("DELETE FROM league_ratings WHERE league_id = ?", (league_id,))
    await db.executemany(
        "INSERT INTO league_ratings (league_id, user_id, mu, sigma, games, last_played)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (league_id, r.player, r.mu, r.sigma, r.games, timestamp(r.last_played))
            for r in ratings.players.values()
            if r.last_played is not None
        ],
    )


async def recompute_from(db: Database, league_id: int, game_id: int) -> None:
    """Recompute the league's ratings from a game on, at once: from each player's rating
    before it (his history), replaying the later rated games in order (in the caller's
    transaction). For a short recompute, or where nothing else waits (the checker, a bench).
    A league marked for `catch_up` is recomputed from its mark if that is earlier."""
    mark = await pending(db, league_id)
    if mark is not None:
        game_id = min(game_id, mark.from_game)
    ratings = await _ratings_before(db, league_id, game_id)
    await db.execute(
        "DELETE FROM league_rating_history WHERE league_id = ? AND game_id >= ?",
        (league_id, game_id),
    )
    rows = _replayed(ratings, await rated_games(db, league_id, game_id))
    await db.executemany(_HISTORY, [row for game in rows for row in game])
    await _write_ratings(db, league_id, ratings)
    await db.execute("DELETE FROM league_rating_marks WHERE league_id = ?", (league_id,))


@dataclass(frozen=True, slots=True)
class Mark:
    """A league whose ratings are being recomputed: right before game `from_game`."""

    from_game: int
    version: int


async def pending(db: Database, league_id: int) -> Mark | None:
    """The league's mark, or None when its ratings are up to date."""
    row = await db.fetchone(
        "SELECT from_game, version FROM league_rating_marks WHERE league_id = ?", (league_id,)
    )
    return Mark(row["from_game"], row["version"]) if row is not None else None


async def marked_leagues(db: Database) -> list[int]:
    """Every league whose ratings are being recomputed."""
    return [r[0] for r in await db.fetchall("SELECT league_id FROM league_rating_marks")]


async def redo_from(db: Database, league_id: int, game_id: int) -> bool:
    """The league's rated games changed from `game_id` on (in the caller's transaction):
    recompute its ratings here when that is short, else mark the league for `catch_up`.

    Returns:
        Whether the ratings are left to `catch_up`.
    """
    if await pending(db, league_id) is None:
        later = await db.fetchval(
            "SELECT COUNT(*) FROM (SELECT 1 FROM league_games WHERE league_id = ?"
            " AND game_id >= ? AND rated = 1 LIMIT ?) AS later",
            (league_id, game_id, IN_PLACE_GAMES + 1),
        )
        if later <= IN_PLACE_GAMES:
            await recompute_from(db, league_id, game_id)
            return False
    # Back to the earlier of the two starts; a new version, so no step computed before this
    # change is written.
    await db.execute(
        "INSERT INTO league_rating_marks (league_id, from_game) VALUES (?, ?)"
        " ON CONFLICT (league_id) DO UPDATE SET from_game = CASE"
        " WHEN excluded.from_game < league_rating_marks.from_game THEN excluded.from_game"
        " ELSE league_rating_marks.from_game END,"
        " version = league_rating_marks.version + 1",
        (league_id, game_id),
    )
    return True


async def catch_up(db: Database, write: Writes, league_id: int, chunk: int = CHUNK_GAMES) -> None:
    """Recompute a marked league's ratings in short writes, until its mark is gone.

    Each pass reads the mark, the ratings before it and the rated games from it on (outside
    any write), computes their history in a worker thread, then writes it `chunk` games a
    write, each one only if the mark is still as computed, moving the mark past its games. The
    last write rates the games that ended meanwhile, writes the ratings now and deletes the
    mark. A pass whose mark changed under it (a correction) starts again from the mark.

    Args:
        db: the bot's connection, for the reads.
        write: runs a work function in a write transaction (`BatchWriter.write`).
        league_id: the league.
        chunk: games whose history one write rewrites.
    """
    while (mark := await pending(db, league_id)) is not None:
        ratings = await _ratings_before(db, league_id, mark.from_game)
        games = await rated_games(db, league_id, mark.from_game)
        rows = await asyncio.to_thread(_replayed, ratings, games)
        start = mark.from_game
        written = True
        for at in range(0, len(games), chunk):
            end = games[at + chunk].game_id if at + chunk < len(games) else games[-1].game_id + 1
            part = [row for game in rows[at : at + chunk] for row in game]
            step = _step(league_id, Mark(start, mark.version), end, part)
            if not await write(step):
                written = False
                break
            start = end
        if written and await write(_finish(league_id, Mark(start, mark.version), ratings, chunk)):
            return


def _step(
    league_id: int, mark: Mark, end: int, rows: list[tuple[Any, ...]]
) -> Callable[[Database], Awaitable[bool]]:
    """A write of the history of games `mark.from_game` to `end` (excluded)."""

    async def work(db: Database) -> bool:
        if await pending(db, league_id) != mark:
            return False  # a correction came in between: compute again from the mark
        await db.execute(
            "DELETE FROM league_rating_history WHERE league_id = ? AND game_id >= ?"
            " AND game_id < ?",
            (league_id, mark.from_game, end),
        )
        await db.executemany(_HISTORY, rows)
        await db.execute(
            "UPDATE league_rating_marks SET from_game = ? WHERE league_id = ?", (end, league_id)
        )
        return True

    return work


def _finish(
    league_id: int, mark: Mark, ratings: Ratings, chunk: int
) -> Callable[[Database], Awaitable[bool]]:
    """The last write: the games that ended since the pass read them, the ratings now, and
    no mark any more."""

    async def work(db: Database) -> bool:
        if await pending(db, league_id) != mark:
            return False
        games = await rated_games(db, league_id, mark.from_game)
        if len(games) > chunk:
            return False  # many ended meanwhile: another pass rates them in steps
        now = Ratings(dict(ratings.players))  # the pass's own stays as computed
        await db.execute(
            "DELETE FROM league_rating_history WHERE league_id = ? AND game_id >= ?",
            (league_id, mark.from_game),
        )
        await db.executemany(_HISTORY, [row for game in _replayed(now, games) for row in game])
        await _write_ratings(db, league_id, now)
        await db.execute("DELETE FROM league_rating_marks WHERE league_id = ?", (league_id,))
        return True

    return work


class Recomputer:
    """Runs `catch_up` for marked leagues in the background, one task a league.

    Args:
        db: the bot's connection, for the reads.
        write: runs a work function in a write transaction (`BatchWriter.write`).
    """

    def __init__(self, db: Database, write: Writes) -> None:
        self.db = db
        self.write = write
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def wake(self, league_id: int) -> None:
        """Recompute the league's ratings if it is marked (after the write that marked it)."""
        task = self._tasks.get(league_id)
        if task is not None and not task.done():
            self._again.add(league_id)  # it may be past its last look at the mark
            return
        task = asyncio.create_task(self._run(league_id), name=f"league-ratings-{league_id}")
        self._tasks[league_id] = task

    async def _run(self, league_id: int) -> None:
        try:
            while True:
                self._again.discard(league_id)
                await catch_up(self.db, self.write, league_id)
                if league_id not in self._again:
                    return
        except WriterClosed:
            log.info("league %s: its ratings are recomputed on at the next start", league_id)
        except Exception:
            log.exception(
                "league %s: recomputing its ratings failed; the next start retries", league_id
            )
        finally:
            if self._tasks.get(league_id) is asyncio.current_task():
                del self._tasks[league_id]

    async def resume(self) -> None:
        """Carry on every recompute a stop left unfinished."""
        for league_id in await marked_leagues(self.db):
            self.wake(league_id)

    async def settle(self, league_id: int) -> None:
        """Wait until the league's recompute under way (if any) is done."""
        while (task := self._tasks.get(league_id)) is not None:
            await asyncio.shield(task)

    async def close(self) -> None:
        """Stop the recomputes under way; their marks keep what is left for the next start."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()


async def stored_ratings(db: Database, league_id: int) -> Ratings:
    """The league's ratings as stored now."""
    rows = await db.fetchall(
        "SELECT user_id, mu, sigma, games, last_played FROM league_ratings WHERE league_id = ?",
        (league_id,),
    )
    return Ratings({r["user_id"]: _rating(r) for r in rows})


async def check(db: Database, league_id: int) -> list[str]:
    """Every difference between the stored ratings and all of them recomputed from the stored
    results (`bot.leagues.ratings.replay`); an empty list when they are exactly the same."""
    stored = (await stored_ratings(db, league_id)).players
    again = replay(g.result() for g in await rated_games(db, league_id)).players
    problems = []
    for player in sorted(set(stored) | set(again)):
        have, want = stored.get(player), again.get(player)
        if have != want:
            problems.append(f"player {player}: stored {have}, recomputed {want}")
    return problems


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A player's rating after one rated game."""

    game_id: int
    rating: PlayerRating
    won: bool


async def history(db: Database, league_id: int, user_id: int) -> list[HistoryEntry]:
    """A player's ratings after his latest rated games, newest first (at most 15)."""
    rows = await db.fetchall(
        "SELECT h.game_id, h.user_id, h.mu, h.sigma, h.games, h.played_at AS last_played,"
        " g.winner_a, g.winner_b FROM league_rating_history AS h"
        " JOIN league_games AS g ON g.game_id = h.game_id"
        " WHERE h.league_id = ? AND h.user_id = ? ORDER BY h.game_id DESC LIMIT ?",
        (league_id, user_id, HISTORY_LIMIT),
    )
    return [
        HistoryEntry(r["game_id"], _rating(r), user_id in (r["winner_a"], r["winner_b"]))
        for r in rows
    ]
