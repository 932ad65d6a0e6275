"""League results: what each league match counts for, the organisers' corrections, their audit.

When a league match ends (`match_ended`, called by the results path in the transaction that
stores the match) it counts as played, or, when a player left it or a computer took a seat
(and the league does not allow substitutes), as the league's rule for leavers says: a forfeit
by that side or no contest. Organisers correct a match afterwards (`correct`): void it, award it
to a side at a fixed score, or mark it to be replayed; an un-void gives back what it was. Each
writes an audit row, moves the season's totals by the match's old and new result and recomputes the
ratings from the match's first game whose rating changed, at once when that is short, else
marked for `league_ratings.catch_up`, which the caller runs after the commit; so a correction
and its undoing leave exactly what was there. A void, a replay or an award rates none of the
match's games; a leaver's forfeit or no contest keeps rated those its four players played
whole before anyone left. Nothing here commits on its own.
"""

from __future__ import annotations

import json
import time
import unicodedata
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from bot.engine.match import RUBBER_BONUS
from bot.engine.rules import options_from_dict
from bot.leagues.counting import FINISHED, reasons_not_counted, sides_without_a_member
from bot.storage import fixtures as fixture_store
from bot.storage import league_ratings
from bot.storage.database import Database
from bot.storage.league_seasons import OPEN_PLAY, league_settings, player_names, running_season
from bot.storage.leagues import SHOW_NOTHING, League, LeagueError, match_standing, pages_text
from bot.storage.results import SeatPlayer
from bot.storage.seasons import timestamp

CORRECTIONS = ("void", "award", "replay", "unvoid")
VOIDING = ("void", "replay")
REASON_LIMIT = 200
AUDIT_PAGE = 8  # eight reasons of 200 characters, each escaped, fit an embed's 4,096
SIDE_NAMES = ("north–south", "east–west")


@dataclass(frozen=True, slots=True)
class Result:
    """What a league match counts for: whether it counts, its winner (None: nobody), and each
    side's games won, points and rubber points."""

    counts: bool
    winner: int | None
    games: tuple[int, int]
    points: tuple[int, int]
    rubber_points: tuple[int, int]


NO_RESULT = Result(False, None, (0, 0), (0, 0), (0, 0))


def awarded(side: int, options: dict[str, Any]) -> Result:
    """A forfeit to `side` at the fixed score: every game it needs won at the game's points to
    nothing, each game single, and a rubber's bonus for a rubber."""
    rules = options_from_dict(options)
    games = 2 if rules.is_rubber else 1
    rubber_points = games + (RUBBER_BONUS if rules.is_rubber else 0)

    def pair(value: int) -> tuple[int, int]:
        return (value, 0) if side == 0 else (0, value)

    return Result(True, side, pair(games), pair(games * rules.points), pair(rubber_points))


def counted(
    played: Result, correction: str | None, winner: int | None, options: dict[str, Any]
) -> Result:
    """What a match counts for under a correction (None: as played)."""
    if correction is None:
        return played
    if correction in ("award", "forfeit"):
        assert winner is not None
        return awarded(winner, options)
    return NO_RESULT


async def _played(db: Database, match_id: int) -> tuple[Result, str]:
    """The match as played, from its stored row, and when it ended."""
    row = await db.fetchone(
        "SELECT winner, games, rubber_points_0, rubber_points_1, played_at FROM matches"
        " WHERE id = ?",
        (match_id,),
    )
    assert row is not None
    games_won, points = [0, 0], [0, 0]
    for scores, winner, _value in json.loads(row["games"] or "[]"):
        games_won[winner] += 1
        points[0] += scores[0]
        points[1] += scores[1]
    result = Result(
        True,
        row["winner"],
        (games_won[0], games_won[1]),
        (points[0], points[1]),
        (row["rubber_points_0"] or 0, row["rubber_points_1"] or 0),
    )
    return result, row["played_at"]


# -- games, as they end ---------------------------------------------------------------------


async def game_ended(
    db: Database,
    league_id: int,
    match_id: int,
    game_id: int,
    players: tuple[SeatPlayer, ...],
    winner: int,
    played_at: datetime,
    flagged: bool,
    changed: bool | None = None,
) -> None:
    """Rate a game of a league match as it ends (in the transaction that stores it): only a
    game of four members, no computer, and no substitute unless the league allows them.

    It is kept as played whole when no seat changed hands during it (`changed`, the table's;
    None: not known, taken from `flagged`, whether a computer or a substitute has played in
    the match yet): the four members who sat down for it played it to its end, so it is
    rated if the match then ends by a leaver's forfeit or no contest, whatever the league's
    rule for substitutes."""
    people = [p for p in players if not p.is_bot]
    if len(people) != 4:
        return
    league = await db.fetchone("SELECT substitutes FROM leagues WHERE id = ?", (league_id,))
    marks = ", ".join("?" * 4)
    members = await db.fetchval(
        f"SELECT COUNT(*) FROM league_members WHERE league_id = ? AND user_id IN ({marks})",
        (league_id, *(p.user_id for p in people)),
    )
    rated = league is not None and members == 4 and (not flagged or bool(league["substitutes"]))
    whole = league is not None and members == 4 and not (flagged if changed is None else changed)
    side = {p.seat: p.user_id for p in people}
    game = league_ratings.RatedGame(
        game_id,
        league_id,
        match_id,
        (side[winner], side[winner + 2]),
        (side[1 - winner], side[3 - winner]),
        timestamp(played_at),
    )
    await league_ratings.add_game(db, game, rated=rated, whole=whole)


# -- matches, as they start and end ---------------------------------------------------------


async def match_started(db: Database, match_id: int, seats: tuple[SeatPlayer, ...]) -> None:
    """Keep who sits where as a league match starts (in the transaction that allocates it):
    at its end, a seat a member started in and someone else finished is one he left."""
    await db.executemany(
        "INSERT INTO league_match_seats (match_id, seat, user_id, is_bot) VALUES (?, ?, ?, ?)",
        [(match_id, p.seat, p.user_id, int(p.is_bot)) for p in seats],
    )


async def match_ended(
    db: Database,
    guild_id: int,
    match_id: int,
    left_seats: frozenset[int] = frozenset(),
    removed_seats: frozenset[int] = frozenset(),
    *,
    closed_by: int | None = None,
    by_host: bool = True,
    removed_by: int | None = None,
    removed_by_host: bool = True,
) -> None:
    """Count a league match that has just ended or been abandoned (in the transaction that
    stores it): as played when it counts; by the league's rule for leavers when only a player
    leaving (or timing out until a computer took his seat) stops it; not at all otherwise, and
    then the reasons are kept for `/league match`.

    Args:
        left_seats: the seats whose member left the match as the table saw it, even one who
            timed out and came back (`Table.left_seats`); seats a computer or another player
            finished are found from the stored seats too.
        removed_seats: the seats whose member the host removed (`Table.removed_seats`): the
            match is then no contest, whatever the rule for leavers (a host may not decide it).
        closed_by: the member (the host, `by_host`, or a moderator) who closed the table
            while the match was played, abandoning it: with nobody gone, a match that would
            count had it finished is then no contest, in the audit under his name, so the
            organiser sees it and may award it (a host may not decide it by closing either).
        removed_by: who removed the player (`removed_seats`), the host (`removed_by_host`)
            or a moderator: the audit names him.
    """
    standing = await match_standing(db, guild_id, match_id)
    league = standing.league
    if league is None or standing.league_facts is None:
        return
    await _rename_members(db, league.id, match_id)
    facts = standing.facts
    if await _at_a_night(db, match_id):
        # A night scores each player alone (its own standings); the league's standings of
        # matches never count its tables, whoever left. Its whole games stay rated.
        await _exclude(db, league.id, match_id, [NIGHT_REASON])
        return
    reasons = reasons_not_counted(facts, standing.league_facts)
    started, left = await _seats(db, match_id)
    unmanned = sides_without_a_member(started)
    if unmanned:  # no leaver's rule or correction can make it a match between members
        await _exclude(db, league.id, match_id, reasons + unmanned)
        await _unrate(db, league.id, match_id)
        return
    left |= {seat for seat in left_seats if not started.get(seat, False)}
    removed = {seat for seat in removed_seats if not started.get(seat, False)}
    left -= removed
    # Only leaving stops it: someone left, it would count had it finished with no computer or
    # substitute, and no computer sat in it from the start (the rule is for leavers only).
    only_leaving = (
        bool(left or removed)
        and not reasons_not_counted(
            replace(facts, flagged=False, status=FINISHED), standing.league_facts
        )
        and not (facts.flagged and not league.substitutes and any(started.values()))
    )
    closed = (
        closed_by is not None
        and not (left or removed)
        and not reasons_not_counted(replace(facts, status=FINISHED), standing.league_facts)
    )
    audited_by = None
    if not reasons:
        correction, winner, why = None, None, ""
    elif closed:
        closer = "the host" if by_host else "a moderator"
        correction, winner = "no_contest", None
        why = f"{closer} closed its table, so it was abandoned before it finished"
        audited_by = closed_by
    elif only_leaving and removed:
        remover = "the host" if removed_by_host else "a moderator"
        correction, winner = "no_contest", None
        why = f"{remover} removed a player from the table"
        audited_by = removed_by
    elif only_leaving:
        correction, winner, why = await _leaver_rule(db, league, match_id, left)
    else:
        await _exclude(db, league.id, match_id, reasons)
        await _unrate(db, league.id, match_id)
        return
    played, played_at = await _played(db, match_id)
    season = await running_season(db, league.id)
    season_id = season.id if season is not None else OPEN_PLAY
    result = counted(played, correction, winner, league.options)
    await db.execute(
        "INSERT INTO league_results (match_id, league_id, season_id, played_winner,"
        " played_games_0, played_games_1, played_points_0, played_points_1, played_rp_0,"
        " played_rp_1, correction, counts, winner, games_0, games_1, points_0, points_1, rp_0,"
        " rp_1, played_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            match_id,
            league.id,
            season_id,
            played.winner,
            *played.games,
            *played.points,
            *played.rubber_points,
            correction,
            *_effective(result),
            played_at,
        ),
    )
    # Who finished the match, and who started a seat and left it: a leaver has his side's
    # result, a forfeit's loss or (where the league allows substitutes, so that a computer or
    # a substitute finishing his seat leaves the match counting) the result as played, and
    # does not escape a loss by leaving before it ends.
    for source in ("match_players", "league_match_seats"):
        await db.execute(
            "INSERT INTO league_result_players (match_id, user_id, side)"
            f" SELECT DISTINCT match_id, user_id, seat % 2 FROM {source}"
            " WHERE match_id = ? AND is_bot = 0 ON CONFLICT DO NOTHING",
            (match_id,),
        )
    if result.counts:
        await _add_totals(db, league.id, season_id, match_id, result)
    if correction is not None:
        # A forfeit or no contest is no game played from where the match stopped being the
        # four's own; the games they played whole before that stay rated: a member who lost
        # one does not take it off his rating by leaving the next (nor a host by closing the
        # table or removing a player).
        await _audit(db, league.id, match_id, correction, why, audited_by, None, None)
        await _rerate(db, league.id, match_id, _rated_games(correction))


async def who_removed(db: Database, table_id: int, match_no: int) -> int | None:
    """Who last removed a player (`/table kick`) from the table during its match
    `match_no`, as its stored events say: the host or a moderator."""
    return await db.fetchval(
        "SELECT user_id FROM table_events WHERE table_id = ? AND match_no = ?"
        " AND action LIKE 'kick:%' ORDER BY seq DESC LIMIT 1",
        (table_id, match_no),
    )


NIGHT_REASON = (
    "it was played at a euchre night, which scores each player alone in its own standings"
)


async def _at_a_night(db: Database, match_id: int) -> bool:
    return (
        await db.fetchval(
            "SELECT 1 FROM night_tables WHERE table_id ="
            " (SELECT table_id FROM matches WHERE id = ?) LIMIT 1",
            (match_id,),
        )
        is not None
    )


async def _exclude(db: Database, league_id: int, match_id: int, reasons: list[str]) -> None:
    """Keep why a match does not count, as found when it ended, for `/league match`."""
    await db.execute(
        "INSERT INTO league_exclusions (match_id, league_id, reasons) VALUES (?, ?, ?)",
        (match_id, league_id, json.dumps(reasons)),
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a league match was found to count for when it ended, with any correction since.

    Attributes:
        counts: whether its league's standings count it.
        correction: None (as played), ``void``, ``replay``, ``award``, ``forfeit`` or
            ``no_contest``.
        winner: the side it counts as won by, or None.
        reasons: why it does not count (the league's rules when it ended, or the
            correction's reason), or why it counts as it does (an award's or a forfeit's).
    """

    counts: bool
    correction: str | None
    winner: int | None
    reasons: tuple[str, ...]


async def verdict(db: Database, match_id: int) -> Verdict | None:
    """The league's verdict on a match as stored, or None for a match still playing (or one
    that ended before the verdicts were kept)."""
    row = await db.fetchone(
        "SELECT correction, counts, winner FROM league_results WHERE match_id = ?", (match_id,)
    )
    if row is not None:
        reasons: tuple[str, ...] = ()
        if row["correction"] is not None:
            # The reason of the correction that stands (an un-void gives back an earlier one).
            reason = await db.fetchval(
                "SELECT reason FROM league_audit WHERE match_id = ? AND action = ?"
                " ORDER BY id DESC LIMIT 1",
                (match_id, row["correction"]),
            )
            reasons = (reason,) if reason else ()
        return Verdict(bool(row["counts"]), row["correction"], row["winner"], reasons)
    excluded = await db.fetchval(
        "SELECT reasons FROM league_exclusions WHERE match_id = ?", (match_id,)
    )
    if excluded is None:
        return None
    return Verdict(False, None, None, tuple(json.loads(excluded)))


async def _seats(db: Database, match_id: int) -> tuple[dict[int, bool], set[int]]:
    """Each seat as the match started (whether a computer sat in it), and the seats a member
    started in that a computer or a substitute finished."""
    started = {
        r["seat"]: (r["user_id"], bool(r["is_bot"]))
        for r in await db.fetchall(
            "SELECT seat, user_id, is_bot FROM league_match_seats WHERE match_id = ?", (match_id,)
        )
    }
    finished: dict[int, list[tuple[int, bool]]] = {}
    for r in await db.fetchall(
        "SELECT seat, user_id, is_bot, substitute FROM match_players WHERE match_id = ?",
        (match_id,),
    ):
        finished.setdefault(r["seat"], []).append(
            (r["user_id"], bool(r["is_bot"] or r["substitute"]))
        )
    left = {
        seat
        for seat, (user, is_bot) in started.items()
        if not is_bot
        and any(other != user or replaced for other, replaced in finished.get(seat, []))
    }
    return {seat: is_bot for seat, (_user, is_bot) in started.items()}, left


async def _rename_members(db: Database, league_id: int, match_id: int) -> None:
    """The league's members who played the match are listed by the names they played it
    under: one who renamed himself since he joined is not shown by his old name for good."""
    await db.execute(
        "UPDATE league_members SET name = (SELECT MIN(p.name) FROM match_players AS p"
        "  WHERE p.match_id = ? AND p.user_id = league_members.user_id AND p.is_bot = 0)"
        " WHERE league_id = ? AND user_id IN"
        "  (SELECT user_id FROM match_players WHERE match_id = ? AND is_bot = 0)",
        (match_id, league_id, match_id),
    )


async def _leaver_rule(
    db: Database, league: League, match_id: int, left: set[int]
) -> tuple[str, int | None, str]:
    """The league's rule for a match a player left: a forfeit by the side of the seats a
    member left (when only one side's were), else no contest; the reason names who left, so
    the organiser reading the audit sees who ended the match that way."""
    settings = await league_settings(db, league.id)
    leaving = {seat % 2 for seat in left}
    leavers = [
        (r["user_id"], r["seat"])
        for r in await db.fetchall(
            "SELECT seat, user_id FROM league_match_seats WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        if r["seat"] in left
    ]
    names = await player_names(db, league, [user for user, _seat in leavers])
    who = [
        " and ".join(names[user] for user, seat in leavers if seat % 2 == side)
        + f" ({SIDE_NAMES[side]})"
        for side in (0, 1)
        if any(seat % 2 == side for _user, seat in leavers)
    ]
    why = f"{' and '.join(who) or 'a player'} left or timed out repeatedly"
    if settings.leaver == "forfeit" and len(leaving) == 1:
        (side,) = leaving
        return "forfeit", 1 - side, why
    return "no_contest", None, why


def _effective(result: Result) -> tuple[Any, ...]:
    return (int(result.counts), result.winner, *result.games, *result.points, *result.rubber_points)


async def _add_totals(
    db: Database, league_id: int, season_id: int, match_id: int, result: Result, sign: int = 1
) -> None:
    """Add a counting match to its players' season totals (`sign` -1: take it away again)."""
    for side in (0, 1):
        await db.execute(
            "INSERT INTO league_totals (league_id, season_id, user_id, rubber_points, rubbers,"
            " games, points, points_against, played)"
            " SELECT ?, ?, user_id, ?, ?, ?, ?, ?, ? FROM league_result_players"
            " WHERE match_id = ? AND side = ?"
            " ON CONFLICT (league_id, season_id, user_id) DO UPDATE SET"
            " rubber_points = league_totals.rubber_points + excluded.rubber_points,"
            " rubbers = league_totals.rubbers + excluded.rubbers,"
            " games = league_totals.games + excluded.games,"
            " points = league_totals.points + excluded.points,"
            " points_against = league_totals.points_against + excluded.points_against,"
            " played = league_totals.played + excluded.played",
            (
                league_id,
                season_id,
                sign * result.rubber_points[side],
                sign * int(result.winner == side),
                sign * result.games[side],
                sign * result.points[side],
                sign * result.points[1 - side],
                sign,
                match_id,
                side,
            ),
        )
    if sign < 0:  # a player with no counting match left has no row, as a rebuild gives
        await db.execute(
            "DELETE FROM league_totals WHERE league_id = ? AND season_id = ? AND played = 0"
            " AND user_id IN (SELECT user_id FROM league_result_players WHERE match_id = ?)",
            (league_id, season_id, match_id),
        )


# Each player's totals in a season, summed from the stored results that count.
_TOTALS = (
    "SELECT m.league_id, m.season_id, p.user_id,"
    " SUM(CASE p.side WHEN 0 THEN m.rp_0 ELSE m.rp_1 END),"
    " SUM(CASE WHEN m.winner = p.side THEN 1 ELSE 0 END),"
    " SUM(CASE p.side WHEN 0 THEN m.games_0 ELSE m.games_1 END),"
    " SUM(CASE p.side WHEN 0 THEN m.points_0 ELSE m.points_1 END),"
    " SUM(CASE p.side WHEN 0 THEN m.points_1 ELSE m.points_0 END), COUNT(*)"
    " FROM league_results AS m JOIN league_result_players AS p ON p.match_id = m.match_id"
    " WHERE m.league_id = ? AND m.counts = 1"
)


async def rebuild_totals(db: Database, league_id: int, season_id: int) -> None:
    """A season's totals again from its stored results (after a correction)."""
    await db.execute(
        "DELETE FROM league_totals WHERE league_id = ? AND season_id = ?", (league_id, season_id)
    )
    await db.execute(
        "INSERT INTO league_totals (league_id, season_id, user_id, rubber_points, rubbers, games,"
        f" points, points_against, played) {_TOTALS} AND m.season_id = ?"
        " GROUP BY m.league_id, m.season_id, p.user_id",
        (league_id, season_id),
    )


async def check_league(db: Database, league_id: int) -> list[str]:
    """Every difference between what is stored for a league and a recompute from its stored
    results: each season's totals, and every rating (`league_ratings.check`); an empty list
    when they are exactly the same."""
    stored = {
        tuple(r)
        for r in await db.fetchall(
            "SELECT league_id, season_id, user_id, rubber_points, rubbers, games, points,"
            " points_against, played FROM league_totals WHERE league_id = ?",
            (league_id,),
        )
    }
    again = {
        tuple(r)
        for r in await db.fetchall(
            f"{_TOTALS} GROUP BY m.league_id, m.season_id, p.user_id", (league_id,)
        )
    }
    problems = [
        f"season {row[1]}, player {row[2]}: stored totals {row[3:]}" for row in stored - again
    ]
    problems += [
        f"season {row[1]}, player {row[2]}: recomputed totals {row[3:]}" for row in again - stored
    ]
    return sorted(problems) + await league_ratings.check(db, league_id)


def _rated_games(correction: str | None) -> str:
    """Which games of a match its correction leaves rated: all of them as played; those
    played whole under a leaver's forfeit or no contest (the league's rule, not an
    organiser's); none under a void, a replay or an award (no game played counts)."""
    if correction is None:
        return league_ratings.ALL
    if correction in ("forfeit", "no_contest"):
        return league_ratings.WHOLE
    return league_ratings.NONE


async def _rerate(db: Database, league_id: int, match_id: int, which: str) -> bool:
    """Rate the match's games `which` names (`league_ratings.ALL`, `WHOLE` or `NONE`) and
    stop rating the others, and recompute the ratings from its first game whose rating
    changed: here when that is short, else in `league_ratings.catch_up`'s short writes.

    Returns:
        Whether the ratings are left to `catch_up` (the league is marked).
    """
    first = await league_ratings.set_rated(db, match_id, which)
    if first is not None:
        return await league_ratings.redo_from(db, league_id, first)
    return await league_ratings.pending(db, league_id) is not None


async def _unrate(db: Database, league_id: int, match_id: int) -> bool:
    return await _rerate(db, league_id, match_id, league_ratings.NONE)


# -- corrections ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Corrected:
    """A correction made: the match, what it counts for now, and its season's name."""

    match_id: int
    action: str
    result: Result
    ratings_pending: bool = False  # the ratings are recomputed after the answer, in short steps
    fixture: str | None = None  # what became of the fixture the match was played for


def check_reason(reason: str) -> str:
    """A correction's reason on one line: each run of spaces or line breaks one space, outer
    spaces dropped.

    Raises:
        LeagueError: empty, showing nothing (only invisible characters), or longer than 200
            characters.
    """
    reason = " ".join(reason.split())
    shown = [c for c in reason if c not in SHOW_NOTHING and unicodedata.category(c)[0] in "LNPS"]
    if not shown:
        raise LeagueError("a correction needs a reason: say why, in up to 200 characters")
    if len(reason) > REASON_LIMIT:
        raise LeagueError(
            f"a reason is at most {REASON_LIMIT} characters; that one has {len(reason)}"
        )
    return reason


async def correct(
    db: Database,
    league: League,
    match_id: int,
    action: str,
    reason: str,
    by: int,
    *,
    side: int | None = None,
    now: datetime | None = None,
    fixture_now: int | None = None,
) -> Corrected:
    """Void, award (to `side`), mark to be replayed or un-void a league match, with a reason
    (in the caller's transaction): its audit row, the season's totals and the ratings from
    the match's first game on (at once when that is short; else the league is marked and
    `Corrected.ratings_pending` says the caller runs `league_ratings.catch_up` after the
    commit).

    A match played for a fixture takes its fixture along: decided again by the new result, or
    opened again for a new window (from `fixture_now`, the fixtures' clock) when the match no
    longer counts.

    Raises:
        LeagueError: a bad reason or side; a match not of this league or server, one that does
            not count for it, one of an ended season; a correction that changes nothing; one
            its fixture cannot follow (played again since, or a bracket gone on from it).
    """
    if action not in CORRECTIONS:
        raise LeagueError(f"a correction is {', '.join(CORRECTIONS)}, not {{}}", action)
    reason = check_reason(reason)
    standing = await match_standing(db, league.guild_id, match_id)
    if standing.league is None or standing.league.id != league.id:
        raise LeagueError(f"M{match_id} was not played for the league {{}}", league.name)
    row = await db.fetchone(
        "SELECT season_id, correction, counts, winner, games_0, games_1, points_0, points_1,"
        " rp_0, rp_1, played_winner, played_games_0, played_games_1, played_points_0,"
        " played_points_1, played_rp_0, played_rp_1 FROM league_results WHERE match_id = ?",
        (match_id,),
    )
    if row is None:
        raise LeagueError(
            f"M{match_id} does not count for the league {{}}, so there is nothing to correct:"
            f" /league match M{match_id} says why",
            league.name,
        )
    season_id = row["season_id"]
    if season_id != OPEN_PLAY:
        ended = await db.fetchone(
            "SELECT name, ended_at FROM league_seasons WHERE id = ?", (season_id,)
        )
        if ended is not None and ended["ended_at"] is not None:
            raise LeagueError(
                f"M{match_id} belongs to the season {{}}, which has ended: its standings are"
                " kept as they were and do not change",
                ended["name"],
            )
    current, winner = row["correction"], row["winner"]
    before = {"correction": current, "winner": winner}
    if action == "award":
        if side not in (0, 1):
            raise LeagueError("an award names the side it goes to: north–south or east–west")
        if current in ("award", "forfeit") and winner == side:
            raise LeagueError(f"M{match_id} is already awarded to {SIDE_NAMES[side]}")
        new, new_winner = "award", side
    elif action in VOIDING:
        if current in ("void", "replay", "no_contest"):
            raise LeagueError(f"M{match_id} already does not count ({_words(current)})")
        new, new_winner = action, None
    else:  # unvoid: back to what the last void found
        if current not in VOIDING:
            raise LeagueError(f"M{match_id} is not void, so there is nothing to un-void")
        last = await db.fetchval(
            "SELECT before FROM league_audit WHERE match_id = ? AND action IN ('void', 'replay')"
            " ORDER BY id DESC LIMIT 1",
            (match_id,),
        )
        restored = json.loads(last)
        new, new_winner = restored["correction"], restored["winner"]
    played = Result(
        True,
        row["played_winner"],
        (row["played_games_0"], row["played_games_1"]),
        (row["played_points_0"], row["played_points_1"]),
        (row["played_rp_0"], row["played_rp_1"]),
    )
    result = counted(played, new, new_winner, league.options)
    fixture = await fixture_store.fixture_of_match(db, match_id)
    if fixture is not None:  # its fixture follows, if it still can: refused before any change
        fixture = await _with_sides_of(db, fixture, match_id)
        await _check_fixture_follows(db, fixture, match_id, result)
    await db.execute(
        "UPDATE league_results SET correction = ?, counts = ?, winner = ?, games_0 = ?,"
        " games_1 = ?, points_0 = ?, points_1 = ?, rp_0 = ?, rp_1 = ? WHERE match_id = ?",
        (new, *_effective(result), match_id),
    )
    # The totals change by the match alone (its old result out, its new one in): exact, and
    # short whatever the size of the season.
    if row["counts"]:
        was = Result(
            True,
            winner,
            (row["games_0"], row["games_1"]),
            (row["points_0"], row["points_1"]),
            (row["rp_0"], row["rp_1"]),
        )
        await _add_totals(db, league.id, season_id, match_id, was, sign=-1)
    if result.counts:
        await _add_totals(db, league.id, season_id, match_id, result)
    pending = await _rerate(db, league.id, match_id, _rated_games(new))
    await _audit(db, league.id, match_id, action, reason, by, before, now, side=side)
    followed = None
    if fixture is not None:
        moment = fixture_now if fixture_now is not None else int(time.time())
        followed = await _fixture_follows(db, fixture, match_id, new, result, played, moment)
    return Corrected(match_id, action, result, pending, followed)


async def _with_sides_of(
    db: Database, fixture: fixture_store.Fixture, match_id: int
) -> fixture_store.Fixture:
    """The fixture with the pair that sat north and south in the match: a fixture opened
    again (its match voided) has forgotten its last table's sides, which an award or an
    un-void of that match decides it by."""
    if fixture.north_south is not None and fixture.match_id == match_id:
        return fixture
    north_south = await db.fetchval(
        "SELECT user_id FROM match_players WHERE match_id = ? AND seat IN (0, 2) AND is_bot = 0"
        " ORDER BY seat LIMIT 1",
        (match_id,),
    )
    pairs = await fixture_store.pairs_by_id(db, fixture.pairs)
    found = next((p.id for p in pairs.values() if north_south in p.players), None)
    return fixture if found is None else replace(fixture, north_south=found)


def _pair_of_side(fixture: fixture_store.Fixture, side: int) -> int:
    """The fixture's pair that sat on `side` (0: north and south)."""
    assert fixture.second_pair is not None and fixture.north_south is not None
    other = fixture.second_pair if fixture.north_south == fixture.first_pair else fixture.first_pair
    return fixture.north_south if side == 0 else other


async def _check_fixture_follows(
    db: Database, fixture: fixture_store.Fixture, match_id: int, result: Result
) -> None:
    """Refuse a correction its fixture cannot follow: one whose fixture was played again since
    or forfeited since (voided, it was not played again in time), or one that would change a
    result a bracket has gone on from, or reopen a fixture of a series that has ended."""
    if fixture.match_id is None and fixture.state in (
        fixture_store.FORFEIT,
        fixture_store.DOUBLE_FORFEIT,
    ):
        # Its new window ended, or a pair withdrew, with no match: the forfeit stands.
        raise LeagueError(
            f"F{fixture.id}, which M{match_id} was played for, has been forfeited since, with"
            f" no match (its new window ended, or a pair withdrew): the forfeit stands, so"
            f" M{match_id} cannot change"
        )
    table_open = fixture.table_id is not None and (
        await db.fetchval("SELECT status FROM tables WHERE id = ?", (fixture.table_id,)) == "open"
    )
    if fixture.match_id != match_id and fixture.state == "open" and table_open:
        # Not "played again since": its new table is open, and its match not over.
        raise LeagueError(
            f"F{fixture.id}, which M{match_id} was played for, is being played again at a new"
            " table: correct its new match once it ends instead"
        )
    # Open with no table in play (none yet, or one closed before a match was over), the
    # correction decides it, or opens it again.
    if fixture.match_id != match_id and fixture.state != "open":
        raise LeagueError(
            f"F{fixture.id}, which M{match_id} was played for, has been played again since:"
            " correct its new match instead"
        )
    winner = (
        _pair_of_side(fixture, result.winner)
        if result.counts and result.winner is not None
        else None
    )
    if fixture.match_id == match_id and winner == fixture.winner_pair:
        return  # the same pair goes on: nothing later changes
    later = await fixture_store.moved_on_from(db, fixture)
    if later is not None:
        raise LeagueError(
            f"M{match_id} decided F{fixture.id}, and the bracket has gone on from it (F{later.id}):"
            " a result it was built on cannot change now"
        )
    series = await fixture_store.series_by_id(db, fixture.series_id)
    if winner is None and series is not None and series.finished_at is not None:
        raise LeagueError(
            f"M{match_id} decided F{fixture.id} of fixtures that have ended, which cannot be"
            " played again: award it to a side instead"
        )


async def _fixture_follows(
    db: Database,
    fixture: fixture_store.Fixture,
    match_id: int,
    correction: str | None,
    result: Result,
    played: Result,
    now: int,
) -> str:
    """The fixture decided again by the match's new result, or opened again with a new window
    when the match no longer counts; what became of it, in words."""
    if result.counts and result.winner is not None:
        winner = _pair_of_side(fixture, result.winner)
        if correction is None:  # as played
            side_games = played.games
            state = fixture_store.PLAYED
        else:  # an award, or a leaver's forfeit: one game to none, as a forfeit counts
            side_games = (1, 0) if result.winner == 0 else (0, 1)
            state = fixture_store.FORFEIT
        first_is_north = fixture.north_south == fixture.first_pair
        games = side_games if first_is_north else (side_games[1], side_games[0])
        await fixture_store.redecide(db, fixture.id, state, winner, games, match_id, now)
        return f"F{fixture.id} follows: {'won' if state == fixture_store.PLAYED else 'awarded'}"
    series = await fixture_store.series_by_id(db, fixture.series_id)
    assert series is not None  # a fixture belongs to a stored series
    closes = now + series.window_seconds
    await fixture_store.reopen(db, fixture, match_id, closes, showed_again=True)
    return f"F{fixture.id} is to be played again, by <t:{closes}:f>"


def _words(correction: str | None) -> str:
    return {
        None: "as played",
        "void": "void",
        "replay": "to be replayed",
        "award": "awarded",
        "forfeit": "a forfeit",
        "no_contest": "no contest",
    }[correction]


async def _audit(
    db: Database,
    league_id: int,
    match_id: int,
    action: str,
    reason: str,
    by: int | None,
    before: dict[str, Any] | None,
    now: datetime | None,
    side: int | None = None,
) -> None:
    if action == "award" and side is not None:
        reason = f"to {SIDE_NAMES[side]}: {reason}"
    await db.execute(
        "INSERT INTO league_audit (league_id, match_id, action, reason, by_user, at, before)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            league_id,
            match_id,
            action,
            reason,
            by,
            timestamp(now or datetime.now(UTC)),
            json.dumps(before or {"correction": None, "winner": None}),
        ),
    )


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One correction, or one use of the league's rule for leavers (`by` None)."""

    id: int
    match_id: int
    action: str
    reason: str
    by: int | None
    at: str


@dataclass(frozen=True, slots=True)
class AuditPage:
    """A page of a league's audit, newest first."""

    entries: tuple[AuditEntry, ...]
    page: int
    pages: int
    total: int


async def audit_page(db: Database, league: League, page: int = 1) -> AuditPage:
    """A page of eight of the league's audit rows, newest first.

    Raises:
        LeagueError: a page before the first or after the last.
    """
    total = int(
        await db.fetchval("SELECT COUNT(*) FROM league_audit WHERE league_id = ?", (league.id,), 0)
    )
    pages = max(1, -(-total // AUDIT_PAGE))
    if not 1 <= page <= pages:
        raise LeagueError(
            f"page {page} does not exist: the league's audit fills {pages_text(pages)}"
        )
    rows = await db.fetchall(
        "SELECT id, match_id, action, reason, by_user, at FROM league_audit WHERE league_id = ?"
        " ORDER BY id DESC LIMIT ? OFFSET ?",
        (league.id, AUDIT_PAGE, (page - 1) * AUDIT_PAGE),
    )
    entries = tuple(
        AuditEntry(r["id"], r["match_id"], r["action"], r["reason"], r["by_user"], r["at"])
        for r in rows
    )
    return AuditPage(entries, page, pages, total)
