"""A league's OpenSkill ratings in storage: each rated game, each player's rating now and after
every game, and the recompute that corrections and the checker run.

Ratings are updated game by game (`bot.leagues.ratings.Ratings.record`) in the transaction that
stores the game. A correction recomputes them from the first game it touches: the ratings
before that game are read back from the history, and the later rated games are replayed in the
order they were played, so recomputing everything (`check`) gives the very floats stored.
Nothing here commits on its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.leagues.ratings import GameResult, PlayerRating, Ratings, replay
from bot.storage.database import Database
from bot.storage.seasons import parse_timestamp, timestamp

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


async def add_game(db: Database, game: RatedGame, *, rated: bool) -> None:
    """Store a league game; when it is rated, update its four players' ratings now."""
    await db.execute(
        "INSERT INTO league_games (game_id, league_id, match_id, winner_a, winner_b, loser_a,"
        " loser_b, played_at, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.game_id,
            game.league_id,
            game.match_id,
            *game.winners,
            *game.losers,
            game.played_at,
            int(rated),
        ),
    )
    if not rated:
        return
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
        "INSERT OR REPLACE INTO league_ratings (league_id, user_id, mu, sigma, games, last_played)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )
    await db.executemany(
        _HISTORY,
        [
            (league, user, game_id, mu, sigma, games, at)
            for league, user, mu, sigma, games, at in rows
        ],
    )


async def set_rated(db: Database, match_id: int, rated: bool) -> int | None:
    """Rate a match's games or stop rating them; returns its first game whose rating changed
    (where a recompute starts), or None when none did."""
    first = await db.fetchval(
        "SELECT MIN(game_id) FROM league_games WHERE match_id = ? AND rated != ?",
        (match_id, int(rated)),
    )
    if first is not None:
        await db.execute(
            "UPDATE league_games SET rated = ? WHERE match_id = ?", (int(rated), match_id)
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


async def recompute_from(db: Database, league_id: int, game_id: int) -> None:
    """Recompute the league's ratings from a game on: from each player's rating before it
    (his history), replaying the later rated games in order (in the caller's transaction)."""
    rows = await db.fetchall(
        "SELECT h.user_id, h.mu, h.sigma, h.games, h.played_at AS last_played"
        " FROM league_rating_history AS h JOIN ("
        "  SELECT user_id, MAX(game_id) AS game_id FROM league_rating_history"
        "  WHERE league_id = ? AND game_id < ? GROUP BY user_id"
        " ) AS last ON last.user_id = h.user_id AND last.game_id = h.game_id"
        " WHERE h.league_id = ?",
        (league_id, game_id, league_id),
    )
    ratings = Ratings({r["user_id"]: _rating(r) for r in rows})
    await db.execute(
        "DELETE FROM league_rating_history WHERE league_id = ? AND game_id >= ?",
        (league_id, game_id),
    )
    history = []
    for game in await rated_games(db, league_id, game_id):
        for r in ratings.record(game.result()):
            history.append(
                (league_id, r.player, game.game_id, r.mu, r.sigma, r.games, game.played_at)
            )
    await db.executemany(_HISTORY, history)  # one statement for them all: a recompute is long
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
