"""A league's seasons, settings, standings and rating tables in storage.

A season runs from `/league season start` to `/league season end`; a match counts for the
season running when it ends (matches outside every season count for the league's open
standings, season 0). Ending a season stores its standings and ratings as they are then, and
those rows are what the season shows from then on: never recomputed, so nothing changes them.
Writes run in the caller's transaction; nothing here commits on its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.leagues.ratings import PlayerRating, RatingSettings
from bot.leagues.standings import METRICS, StandingRow, Totals, ranked
from bot.storage.database import Database
from bot.storage.league_ratings import pending, stored_ratings
from bot.storage.leagues import League, LeagueError, check_name, name_key, pages_text
from bot.storage.seasons import parse_timestamp, timestamp

PAGE = 20
OPEN_PLAY = 0  # the season id of matches that ended while no season ran
LEAVER_RULES = ("forfeit", "no_contest")
MIN_GAMES_LIMIT = 1_000
HIDE_DAYS_LIMIT = 3_650


@dataclass(frozen=True, slots=True)
class LeagueSettings:
    """What a league decides beyond its rules.

    Attributes:
        min_games: rated games before a player is listed on the rating table.
        hide_after_days: days without a rated game before he is hidden (never decayed).
        leaver: what a match a player left (or timed out of) means when it ends: ``forfeit``
            by that side, or ``no_contest``.
    """

    min_games: int = 10
    hide_after_days: int = 14
    leaver: str = "no_contest"

    @property
    def ratings(self) -> RatingSettings:
        return RatingSettings(self.min_games, self.hide_after_days)


async def league_settings(db: Database, league_id: int) -> LeagueSettings:
    """A league's settings (the defaults until an organiser changes one)."""
    row = await db.fetchone(
        "SELECT min_games, hide_after_days, leaver FROM league_settings WHERE league_id = ?",
        (league_id,),
    )
    if row is None:
        return LeagueSettings()
    return LeagueSettings(row["min_games"], row["hide_after_days"], row["leaver"])


async def change_settings(
    db: Database,
    league: League,
    *,
    min_games: int | None = None,
    hide_after_days: int | None = None,
    leaver: str | None = None,
) -> LeagueSettings:
    """Change some of a league's settings (in the caller's transaction); returns them all.

    Raises:
        LeagueError: a value out of its range, or an unknown leaver rule.
    """
    if min_games is not None and not 1 <= min_games <= MIN_GAMES_LIMIT:
        raise LeagueError(f"`min_games` is 1 to {MIN_GAMES_LIMIT:,}, not {min_games}")
    if hide_after_days is not None and not 1 <= hide_after_days <= HIDE_DAYS_LIMIT:
        raise LeagueError(f"`hide_after_days` is 1 to {HIDE_DAYS_LIMIT:,}, not {hide_after_days}")
    if leaver is not None and leaver not in LEAVER_RULES:
        raise LeagueError("`leaver` is forfeit or no_contest, not {}", leaver)
    old = await league_settings(db, league.id)
    new = LeagueSettings(
        old.min_games if min_games is None else min_games,
        old.hide_after_days if hide_after_days is None else hide_after_days,
        old.leaver if leaver is None else leaver,
    )
    await db.execute(
        "INSERT INTO league_settings (league_id, min_games, hide_after_days, leaver)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (league_id) DO UPDATE SET"
        " min_games = excluded.min_games, hide_after_days = excluded.hide_after_days,"
        " leaver = excluded.leaver",
        (league.id, new.min_games, new.hide_after_days, new.leaver),
    )
    return new


# -- seasons --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Season:
    """One of a league's seasons; `ended_at` None while it runs."""

    id: int
    league_id: int
    number: int
    name: str
    started_at: str
    ended_at: str | None

    @property
    def running(self) -> bool:
        return self.ended_at is None


_SEASON = "SELECT id, league_id, number, name, started_at, ended_at FROM league_seasons"


def _season(row: Any) -> Season:
    return Season(
        row["id"], row["league_id"], row["number"], row["name"], row["started_at"], row["ended_at"]
    )


async def matches_in_play(db: Database, league_id: int) -> int:
    """How many of the league's matches are being played now at open tables (a euchre
    night's tables left out: they never count in the standings): each counts for the season
    running when it ends, not for the one running as it began."""
    return int(
        await db.fetchval(
            "SELECT COUNT(*) FROM matches AS m JOIN tables AS t ON t.id = m.table_id"
            " WHERE m.league_id = ? AND m.status = 'playing' AND t.status = 'open'"
            " AND NOT EXISTS (SELECT 1 FROM night_tables AS n WHERE n.table_id = m.table_id)",
            (league_id,),
            0,
        )
    )


async def running_season(db: Database, league_id: int) -> Season | None:
    """The league's running season, or None."""
    row = await db.fetchone(f"{_SEASON} WHERE league_id = ? AND ended_at IS NULL", (league_id,))
    return _season(row) if row is not None else None


async def season_names(db: Database, league_id: int, typed: str) -> list[str]:
    """The league's season names containing what was typed (any case), newest first, at most
    25: the autocomplete choices."""
    wanted = name_key(typed)
    found = [s.name for s in reversed(await seasons(db, league_id)) if wanted in name_key(s.name)]
    return found[:25]


async def seasons(db: Database, league_id: int) -> list[Season]:
    """The league's seasons, the first first."""
    rows = await db.fetchall(f"{_SEASON} WHERE league_id = ? ORDER BY number", (league_id,))
    return [_season(r) for r in rows]


async def start_season(
    db: Database, league: League, by: int, name: str | None = None, now: datetime | None = None
) -> Season:
    """Start the league's next season (in the caller's transaction).

    Raises:
        LeagueError: one is running already, or a bad or taken name.
    """
    running = await running_season(db, league.id)
    if running is not None:
        raise LeagueError(
            "the season {} of {} is still running: end it with /league season end first",
            running.name,
            league.name,
        )
    number = 1 + int(
        await db.fetchval(
            "SELECT COALESCE(MAX(number), 0) FROM league_seasons WHERE league_id = ?",
            (league.id,),
        )
    )
    taken = {name_key(season.name) for season in await seasons(db, league.id)}
    if name is None:
        # "Season N", or, where an earlier season took that name, "Season N (2)" and on.
        name = f"Season {number}"
        again = 2
        while name_key(name) in taken:
            name, again = f"Season {number} ({again})", again + 1
    name = check_name(name, "season")
    if name.isdigit():
        raise LeagueError("a season's name is not a number: seasons are found by their numbers")
    if name_key(name) in taken:
        raise LeagueError("the league {} already has a season named {}", league.name, name)
    started_at = timestamp(now or datetime.now(UTC))
    season_id = await db.fetchval(
        "INSERT INTO league_seasons (league_id, number, name, started_at, started_by)"
        " VALUES (?, ?, ?, ?, ?) RETURNING id",
        (league.id, number, name, started_at, by),
    )
    return Season(season_id, league.id, number, name, started_at, None)


async def end_season(db: Database, league: League, by: int, now: datetime | None = None) -> Season:
    """End the running season and store its standings and ratings as they are now (in the
    caller's transaction).

    Raises:
        LeagueError: no season is running; the ratings are being recomputed (a season keeps
            them as they are when it ends, so they must be right).
    """
    season = await running_season(db, league.id)
    if season is None:
        raise LeagueError(
            "no season of {} is running: an organiser starts one with /league season start",
            league.name,
        )
    if await pending(db, league.id) is not None:
        raise LeagueError(
            "the ratings of {} are being recomputed after a correction: end the season in a"
            " moment, once they are",
            league.name,
        )
    moment = now or datetime.now(UTC)
    rows = await live_standings(db, league, season.id)
    names = await player_names(db, league, [r.entrant for r in rows])
    await db.executemany(
        "INSERT INTO league_season_standings (season_id, position, rank, user_id, name,"
        " rubber_points, rubbers, games, points, points_against, played, decided_by)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                season.id,
                position,
                r.rank,
                r.entrant,
                names[r.entrant],
                r.totals.rubber_points,
                r.totals.rubbers,
                r.totals.games,
                r.totals.points,
                r.totals.points_against,
                r.totals.played,
                r.decided_by,
            )
            for position, r in enumerate(rows, start=1)
        ],
    )
    settings = await league_settings(db, league.id)
    ratings = await stored_ratings(db, league.id)
    listed = {r.player for r in ratings.listed(moment, settings.ratings)}
    order = sorted(ratings.players.values(), key=lambda r: (-r.conservative, -r.games, r.player))
    names = await player_names(db, league, [r.player for r in order])
    await db.executemany(
        "INSERT INTO league_season_ratings (season_id, position, user_id, name, mu, sigma, games,"
        " last_played, listed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                season.id,
                position,
                r.player,
                names[r.player],
                r.mu,
                r.sigma,
                r.games,
                timestamp(r.last_played) if r.last_played else "",
                int(r.player in listed),
            )
            for position, r in enumerate(order, start=1)
        ],
    )
    ended_at = timestamp(moment)
    await db.execute(
        "UPDATE league_seasons SET ended_at = ?, ended_by = ? WHERE id = ?",
        (ended_at, by, season.id),
    )
    return Season(season.id, league.id, season.number, season.name, season.started_at, ended_at)


async def find_season(db: Database, league: League, text: str) -> Season:
    """A season of the league by its name (any case) or its number.

    Raises:
        LeagueError: the league has no such season.
    """
    wanted = name_key(text)
    for season in await seasons(db, league.id):
        if wanted in (name_key(season.name), str(season.number)):
            return season
    raise LeagueError(
        "the league {} has no season {}: its seasons are numbered from 1", league.name, text
    )


async def player_names(db: Database, league: League, user_ids: Sequence[int]) -> dict[int, str]:
    """Each player's name: as the server last saw him play, else as he joined the league.

    A player on the standings or ratings played for the league since he joined it, so the
    name he played under last is the newer one: a member who renamed himself after joining
    is shown by his new name, as `/leaderboard` shows him, not by the one he joined with."""
    names: dict[int, str] = {}
    wanted = list(dict.fromkeys(user_ids))
    for start in range(0, len(wanted), 500):  # SQLite's bound on a statement's parameters
        chunk = wanted[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for r in await db.fetchall(
            f"SELECT user_id, name FROM league_members WHERE league_id = ?"
            f" AND user_id IN ({marks})",
            (league.id, *chunk),
        ):
            names[r["user_id"]] = r["name"]
        for r in await db.fetchall(
            f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})",
            (league.guild_id, *chunk),
        ):
            names[r["user_id"]] = r["name"]
    return {u: names.get(u, f"player {u}") for u in wanted}


# -- standings ------------------------------------------------------------------------------


async def live_standings(
    db: Database, league: League, season_id: int, start: int = 0, stop: int | None = None
) -> list[StandingRow]:
    """A season's standings from its totals, kept with every result (`league_totals`): rows
    `start` to `stop` (all by default)."""
    rows = await db.fetchall(
        "SELECT user_id, rubber_points, rubbers, games, points, points_against, played"
        " FROM league_totals WHERE league_id = ? AND season_id = ?",
        (league.id, season_id),
    )
    # Head-to-head only for the groups still tied after the points difference: read first.
    # (Columns by position: a page ranks every player, so this loop is the page's cost.)
    metric = METRICS.index(league.standing)
    table: dict[int, Totals] = {}
    tied: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for user, rubber_points, rubbers, games, points, against, played in rows:
        table[user] = Totals(rubber_points, rubbers, games, points, against, played)
        counted = (rubber_points, rubbers, games, points)[metric]
        tied[(counted, rubbers, games, points - against)].append(user)
    wins: dict[int, int] = {}
    for group in tied.values():
        if len(group) > 1:
            wins.update(await _head_to_head(db, league.id, season_id, group))

    def head_to_head(group: list[int]) -> Callable[[int], int]:
        return lambda user: wins.get(user, 0)

    return ranked(table, league.standing, head_to_head, start, stop)


async def _head_to_head(
    db: Database, league_id: int, season_id: int, group: list[int]
) -> dict[int, int]:
    """Rubbers each of the group won in the counting matches where one of the others was an
    opponent."""
    marks = ", ".join("?" * len(group))
    rows = await db.fetchall(
        "SELECT p.user_id, COUNT(DISTINCT p.match_id) AS won FROM league_result_players AS p"
        " JOIN league_results AS m ON m.match_id = p.match_id"
        " JOIN league_result_players AS o ON o.match_id = p.match_id AND o.side != p.side"
        f" WHERE p.user_id IN ({marks}) AND o.user_id IN ({marks})"
        " AND m.league_id = ? AND m.season_id = ? AND m.counts = 1 AND m.winner = p.side"
        " GROUP BY p.user_id",
        (*group, *group, league_id, season_id),
    )
    return {r["user_id"]: r["won"] for r in rows}


@dataclass(frozen=True, slots=True)
class StandingLine:
    """A row of a standings page."""

    rank: int
    user_id: int
    name: str
    totals: Totals
    decided_by: str


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """One page of a season's standings (`season` None: the matches outside seasons)."""

    season: Season | None
    lines: tuple[StandingLine, ...]
    page: int
    pages: int
    total: int


async def which_season(db: Database, league: League, season: str | None) -> Season | None:
    """The season asked for; without one, the running season, or None (outside seasons) when
    none runs.

    Raises:
        LeagueError: an unknown season.
    """
    if season is not None and season.strip():
        return await find_season(db, league, season)
    return await running_season(db, league.id)


def _pages(total: int, page: int, what: str) -> int:
    pages = max(1, -(-total // PAGE))
    if not 1 <= page <= pages:
        raise LeagueError(f"page {page} does not exist: {what} fill {pages_text(pages)}")
    return pages


async def standings_page(
    db: Database, league: League, season: str | None = None, page: int = 1
) -> StandingsPage:
    """A page of twenty of a season's standings: an ended season's as stored when it ended.

    Raises:
        LeagueError: an unknown season, or a page before the first or after the last.
    """
    found = await which_season(db, league, season)
    if found is not None and not found.running:
        total = int(
            await db.fetchval(
                "SELECT COUNT(*) FROM league_season_standings WHERE season_id = ?", (found.id,), 0
            )
        )
        pages = _pages(total, page, "its standings")
        rows = await db.fetchall(
            "SELECT * FROM league_season_standings WHERE season_id = ? AND position > ?"
            " ORDER BY position LIMIT ?",
            (found.id, (page - 1) * PAGE, PAGE),
        )
        lines = tuple(
            StandingLine(
                r["rank"],
                r["user_id"],
                r["name"],
                Totals(
                    r["rubber_points"],
                    r["rubbers"],
                    r["games"],
                    r["points"],
                    r["points_against"],
                    r["played"],
                ),
                r["decided_by"],
            )
            for r in rows
        )
        return StandingsPage(found, lines, page, pages, total)
    season_id = found.id if found else OPEN_PLAY
    total = int(
        await db.fetchval(
            "SELECT COUNT(*) FROM league_totals WHERE league_id = ? AND season_id = ?",
            (league.id, season_id),
            0,
        )
    )
    pages = _pages(total, page, "its standings")
    shown = await live_standings(db, league, season_id, (page - 1) * PAGE, page * PAGE)
    names = await player_names(db, league, [r.entrant for r in shown])
    lines = tuple(
        StandingLine(r.rank, r.entrant, names[r.entrant], r.totals, r.decided_by) for r in shown
    )
    return StandingsPage(found, lines, page, pages, total)


# -- rating tables --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A row of a rating table: its place, the player and his rating."""

    place: int
    name: str
    rating: PlayerRating


@dataclass(frozen=True, slots=True)
class RatingsPage:
    """One page of the listed players' ratings, now or as a season ended."""

    season: Season | None
    lines: tuple[RatingLine, ...]
    page: int
    pages: int
    total: int
    settings: LeagueSettings


async def ratings_page(
    db: Database,
    league: League,
    season: str | None = None,
    page: int = 1,
    now: datetime | None = None,
) -> RatingsPage:
    """A page of twenty of the players the league lists (enough rated games, a recent one), by
    conservative rating; for a season asked for by name, as it ended (or now, if it runs).

    Raises:
        LeagueError: an unknown season, or a page before the first or after the last.
    """
    settings = await league_settings(db, league.id)
    found = await find_season(db, league, season) if season and season.strip() else None
    if found is not None and not found.running:
        rows = await db.fetchall(
            "SELECT * FROM league_season_ratings WHERE season_id = ? AND listed = 1"
            " ORDER BY position",
            (found.id,),
        )
        listed = [
            (
                r["name"],
                PlayerRating(
                    r["user_id"], r["mu"], r["sigma"], r["games"], parse_timestamp(r["last_played"])
                ),
            )
            for r in rows
        ]
    else:
        ratings = await stored_ratings(db, league.id)
        order = ratings.listed(now or datetime.now(UTC), settings.ratings)
        names = await player_names(db, league, [r.player for r in order])
        listed = [(names[r.player], r) for r in order]
    pages = _pages(len(listed), page, "its ratings")
    start = (page - 1) * PAGE
    places = _shared_places([rating for _, rating in listed])
    lines = tuple(
        RatingLine(places[index], name, rating)
        for index, (name, rating) in enumerate(listed[start : start + PAGE], start=start)
    )
    return RatingsPage(found, lines, page, pages, len(listed), settings)


def _shared_places(order: Sequence[PlayerRating]) -> list[int]:
    """Each listed player's place, best first: players level on what orders the table (the
    rating shown, then games) share a place, as tied rows of the standings share a rank.
    Partners who have only ever played together have exactly the same rating."""
    places: list[int] = []
    for index, rating in enumerate(order):
        level = index > 0 and _rank_key(order[index - 1]) == _rank_key(rating)
        places.append(places[-1] if level else index + 1)
    return places


def _rank_key(rating: PlayerRating) -> tuple[float, int]:
    return (rating.conservative, rating.games)
