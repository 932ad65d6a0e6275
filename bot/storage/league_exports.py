"""A league's exports: standings, ratings and fixtures as CSV, every league game as EGN.

Standings and ratings are those `/league standings` and `/league ratings` show (an ended
season's as stored); the ratings file lists every rated player, with whether the table lists
him. The games file is a zip of one EGN 1.4 document a game, written from each match's own
record by the project's EGN writer (`bot.engine.egn`); a game EGN cannot hold (a partner taking
it alone, a turned-up Joker) is written in the bot's own JSON record instead.
"""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime

from bot.engine.egn import match_to_egn
from bot.engine.records import RecordError, match_from_record
from bot.storage import fixtures
from bot.storage.database import Database
from bot.storage.league_ratings import stored_ratings
from bot.storage.league_seasons import (
    OPEN_PLAY,
    find_season,
    league_settings,
    live_standings,
    player_names,
    which_season,
)
from bot.storage.leagues import League
from bot.storage.seasons import timestamp
from bot.storage.spreadsheet import write_rows

EXPORTS = ("standings", "ratings", "fixtures", "games")


def _utc(seconds: int | None) -> str:
    """A Unix time as ISO 8601 in UTC, or empty."""
    if seconds is None:
        return ""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def _csv(header: list[str], rows: list[list[object]]) -> bytes:
    """The rows as CSV in UTF-8 with a byte-order mark: without one, Excel opens the file in
    the computer's own code page, and a name like `Zoë 🃏` reads `ZoÃ« ðŸƒ`. LibreOffice and
    Google Sheets read it either way and drop the mark."""
    out = io.StringIO()
    write_rows(out, header, rows)
    return out.getvalue().encode("utf-8-sig")


async def standings_csv(db: Database, league: League, season: str | None = None) -> bytes:
    """A season's whole standings (the running one, or outside seasons, by default).

    Raises:
        LeagueError: an unknown season.
    """
    found = await which_season(db, league, season)
    header = [
        "rank", "player", "user_id", "rubber_points", "rubbers", "games", "points",
        "points_against", "points_difference", "played", "placed_by",
    ]  # fmt: skip
    if found is not None and not found.running:
        stored = await db.fetchall(
            "SELECT * FROM league_season_standings WHERE season_id = ? ORDER BY position",
            (found.id,),
        )
        rows = [
            [
                r["rank"],
                r["name"],
                r["user_id"],
                r["rubber_points"],
                r["rubbers"],
                r["games"],
                r["points"],
                r["points_against"],
                r["points"] - r["points_against"],
                r["played"],
                r["decided_by"],
            ]  # fmt: skip
            for r in stored
        ]
        return _csv(header, rows)
    standing = await live_standings(db, league, found.id if found else OPEN_PLAY)
    names = await player_names(db, league, [r.entrant for r in standing])
    rows = [
        [
            r.rank,
            names[r.entrant],
            r.entrant,
            r.totals.rubber_points,
            r.totals.rubbers,
            r.totals.games,
            r.totals.points,
            r.totals.points_against,
            r.totals.points_difference,
            r.totals.played,
            r.decided_by,
        ]  # fmt: skip
        for r in standing
    ]
    return _csv(header, rows)


async def ratings_csv(
    db: Database, league: League, season: str | None = None, now: datetime | None = None
) -> bytes:
    """Every rated player's rating, best conservative rating first, and whether the league's
    rating table lists him (enough rated games, a recent one): now, or as a season ended.

    Raises:
        LeagueError: an unknown season.
    """
    header = ["player", "user_id", "rating", "mu", "sigma", "games", "last_played", "listed"]
    found = await find_season(db, league, season) if season and season.strip() else None
    if found is not None and not found.running:
        stored = await db.fetchall(
            "SELECT * FROM league_season_ratings WHERE season_id = ? ORDER BY position",
            (found.id,),
        )
        return _csv(
            header,
            [
                [
                    r["name"],
                    r["user_id"],
                    r["mu"] - 3 * r["sigma"],
                    r["mu"],
                    r["sigma"],
                    r["games"],
                    r["last_played"],
                    r["listed"],
                ]  # fmt: skip
                for r in stored
            ],
        )
    settings = await league_settings(db, league.id)
    ratings = await stored_ratings(db, league.id)
    listed = {r.player for r in ratings.listed(now or datetime.now(UTC), settings.ratings)}
    order = sorted(ratings.players.values(), key=lambda r: (-r.conservative, -r.games, r.player))
    names = await player_names(db, league, [r.player for r in order])
    rows: list[list[object]] = [
        [
            names[r.player],
            r.player,
            r.conservative,
            r.mu,
            r.sigma,
            r.games,
            timestamp(r.last_played) if r.last_played else "",
            int(r.player in listed),
        ]
        for r in order
    ]
    return _csv(header, rows)


async def games_zip(db: Database, league: League) -> tuple[bytes, int]:
    """Every game of the league's matches (those its standings counted or corrected), in the
    order played, as a zip of EGN documents; and how many games it holds."""
    rows = await db.fetchall(
        "SELECT m.id, m.record FROM league_results AS r JOIN matches AS m ON m.id = r.match_id"
        " WHERE r.league_id = ? AND m.record IS NOT NULL ORDER BY m.id",
        (league.id,),
    )
    out = io.BytesIO()
    count = 0
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for row in rows:
            record = json.loads(row["record"])
            try:
                documents = match_to_egn(match_from_record(record), players=record.get("players"))
            except RecordError:
                archive.writestr(f"M{row['id']}.json", json.dumps(record, indent=2))
                count += len(record.get("games") or [None])
                continue
            for number, document in enumerate(documents, start=1):
                archive.writestr(f"M{row['id']}-game{number}.egn", json.dumps(document, indent=2))
                count += 1
    return out.getvalue(), count


async def fixtures_csv(db: Database, league: League) -> bytes:
    """Every fixture the league ever made, series by series and round by round: who against
    whom, its window (UTC), and how it ended (the winner, the games each pair won, the match)."""
    header = [
        "fixture", "series", "format", "round", "bracket_slot", "first_pair", "second_pair",
        "opens_at_utc", "closes_at_utc", "extended", "state", "winner", "first_games",
        "second_games", "match", "deadline_rule",
    ]  # fmt: skip
    made = [
        (series, f)
        for series in await fixtures.league_series(db, league.id)
        for f in await fixtures.series_fixtures(db, series.id)
    ]
    ids = {p for _, f in made for p in (f.first_pair, f.second_pair) if p is not None}
    # Withdrawn pairs too: their fixtures still name them.
    pairs = {i: p.name for i, p in (await fixtures.pairs_by_id(db, ids)).items()}
    rows: list[list[object]] = []
    for series, f in made:
        rows.append(
            [
                f"F{f.id}",
                series.id,
                series.kind,
                f.round,
                f.slot or "",
                pairs.get(f.first_pair, ""),
                pairs.get(f.second_pair, "") if f.second_pair is not None else "(bye)",
                _utc(f.opens_at),
                _utc(f.closes_at),
                "yes" if f.extended else "no",
                f.state,
                pairs.get(f.winner_pair, "") if f.winner_pair is not None else "",
                "" if f.first_games is None else f.first_games,
                "" if f.second_games is None else f.second_games,
                f"M{f.match_id}" if f.match_id is not None else "",
                series.deadline,
            ]
        )
    return _csv(header, rows)
