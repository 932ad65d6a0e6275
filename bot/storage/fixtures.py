"""A league's registered pairs and its fixtures: the rows, and the rules of registering.

Writes run in the caller's transaction (the game manager's writer); nothing here commits on its
own. Times are Unix seconds, as the fixtures' scheduler's clock gives them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.quoting import QuotesNames
from bot.leagues import brackets
from bot.storage import leagues
from bot.storage.database import Database
from bot.storage.errors import StorageError
from bot.storage.leagues import League, pages_text

KINDS = ("round_robin", "swiss", "single_elimination", "double_elimination")
DEADLINES = ("forfeit", "double_forfeit", "extend")
OPEN, BYE, PLAYED, FORFEIT, DOUBLE_FORFEIT = "open", "bye", "played", "forfeit", "double_forfeit"
FIXTURES_PAGE = 10


class FixtureError(QuotesNames, StorageError):
    """A fixtures request refused; ``str(error)`` is readable by a member, and the names it
    quotes are escaped where Discord shows it (`QuotesNames`)."""


@dataclass(frozen=True, slots=True)
class Pair:
    """A registered pair: two partners and, perhaps, an alternate who may play for either.

    Attributes:
        id: its storage id.
        league_id: its league.
        first, second: the partners, as (user id, name).
        alternate: the alternate, as (user id, name), or None.
        withdrawn: it withdrew (its fixtures still name it).
    """

    id: int
    league_id: int
    first: tuple[int, str]
    second: tuple[int, str]
    alternate: tuple[int, str] | None
    withdrawn: bool

    @property
    def name(self) -> str:
        """The pair as it is shown: the partners' names."""
        return f"{self.first[1]} & {self.second[1]}"

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone who may play for the pair: the partners, then the alternate."""
        ids = (self.first[0], self.second[0])
        return ids + ((self.alternate[0],) if self.alternate else ())

    def name_of(self, user_id: int) -> str:
        """The name a player of the pair registered with."""
        for who in (self.first, self.second, self.alternate):
            if who is not None and who[0] == user_id:
                return who[1]
        raise KeyError(user_id)


@dataclass(frozen=True, slots=True)
class Series:
    """One making of fixtures for a league."""

    id: int
    league_id: int
    kind: str
    window_seconds: int
    deadline: str
    channel_id: int
    entrants: tuple[int, ...]
    made_at: int
    finished_at: int | None


@dataclass(frozen=True, slots=True)
class Fixture:
    """Two pairs to meet within a window, or one pair's bye (`second_pair` None)."""

    id: int
    series_id: int
    round: int
    slot: str | None
    first_pair: int
    second_pair: int | None
    opens_at: int
    closes_at: int
    extended: bool
    state: str
    table_id: int | None
    channel_id: int | None
    north_south: int | None
    match_id: int | None
    winner_pair: int | None
    first_games: int | None
    second_games: int | None
    reminded_day: bool
    reminded_hour: bool

    @property
    def pairs(self) -> tuple[int, ...]:
        return (
            (self.first_pair,) if self.second_pair is None else (self.first_pair, self.second_pair)
        )


@dataclass(frozen=True, slots=True)
class NewFixture:
    """A fixture to store: its round, bracket slot, pairs and window."""

    round: int
    first_pair: int
    second_pair: int | None
    opens_at: int
    closes_at: int
    slot: str | None = None


def parse_fixture_id(text: str) -> int:
    """``F12`` (or ``12``) is fixture 12.

    Raises:
        FixtureError: not such an id.
    """
    raw = text.strip().upper().lstrip("#")
    raw = raw[1:] if raw.startswith("F") else raw
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise FixtureError("{} is not a fixture id: /fixtures list shows them, like F12", text)
    return int(raw)


# -- pairs ----------------------------------------------------------------------------------

_PAIR_COLUMNS = (
    "id, league_id, first_id, first_name, second_id, second_name, alternate_id,"
    " alternate_name, withdrawn_at"
)


def _pair(row: Any) -> Pair:
    alternate = row["alternate_id"]
    return Pair(
        id=row["id"],
        league_id=row["league_id"],
        first=(row["first_id"], row["first_name"]),
        second=(row["second_id"], row["second_name"]),
        alternate=(alternate, row["alternate_name"]) if alternate is not None else None,
        withdrawn=row["withdrawn_at"] is not None,
    )


async def pair_of(db: Database, league_id: int, user_id: int) -> Pair | None:
    """The pair (not withdrawn) a member plays for in a league, as partner or alternate."""
    row = await db.fetchone(
        f"SELECT {_PAIR_COLUMNS} FROM fixture_pairs WHERE league_id = ? AND withdrawn_at IS NULL"
        " AND ? IN (first_id, second_id, alternate_id)",
        (league_id, user_id),
    )
    return _pair(row) if row is not None else None


async def register_pair(
    db: Database,
    league: League,
    member: tuple[int, str],
    partner: tuple[int, str],
    alternate: tuple[int, str] | None,
    now: int,
) -> Pair:
    """Register a member and a partner (and an alternate) as a pair of a league.

    Raises:
        FixtureError: someone named twice, not a member of the league, or already in a pair.
    """
    people = [member, partner] + ([alternate] if alternate else [])
    if partner[0] == member[0]:
        raise FixtureError("your partner must be someone else: name another member of the league")
    if alternate and alternate[0] in (member[0], partner[0]):
        raise FixtureError("the alternate must be a third member, not one of the pair")
    for user_id, name in people:
        yourself = user_id == member[0]  # the one registering is told of himself as "you"
        if not await leagues.is_member(db, league.id, user_id):
            if yourself:
                raise FixtureError(
                    "you are not a member of the league {}: join it first with /league join",
                    league.name,
                )
            raise FixtureError(
                "{} is not a member of the league {}: they join it first with /league join",
                name,
                league.name,
            )
        taken = await pair_of(db, league.id, user_id)
        if taken is not None and yourself:
            raise FixtureError(
                "you are already in the pair {} of the league {}: a member plays for one pair",
                taken.name,
                league.name,
            )
        if taken is not None:
            raise FixtureError(
                "{} is already in the pair {} of the league {}: a member plays for one pair",
                name,
                taken.name,
                league.name,
            )
    pair_id = await db.fetchval(
        "INSERT INTO fixture_pairs (league_id, first_id, first_name, second_id, second_name,"
        " alternate_id, alternate_name, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            league.id,
            member[0],
            member[1],
            partner[0],
            partner[1],
            alternate[0] if alternate else None,
            alternate[1] if alternate else None,
            now,
        ),
    )
    return Pair(pair_id, league.id, member, partner, alternate, False)


async def withdraw_pair(db: Database, league: League, user_id: int, now: int) -> Pair:
    """Withdraw the pair a member plays for (in the caller's transaction).

    Raises:
        FixtureError: the member is in no pair of the league.
    """
    pair = await pair_of(db, league.id, user_id)
    if pair is None:
        raise FixtureError("you are in no pair of the league {}", league.name)
    await db.execute("UPDATE fixture_pairs SET withdrawn_at = ? WHERE id = ?", (now, pair.id))
    return Pair(pair.id, pair.league_id, pair.first, pair.second, pair.alternate, True)


async def league_pairs(db: Database, league_id: int) -> list[Pair]:
    """A league's pairs that have not withdrawn, in the order they registered."""
    rows = await db.fetchall(
        f"SELECT {_PAIR_COLUMNS} FROM fixture_pairs WHERE league_id = ? AND withdrawn_at IS NULL"
        " ORDER BY id",
        (league_id,),
    )
    return [_pair(r) for r in rows]


async def pairs_by_id(db: Database, ids: Iterable[int]) -> dict[int, Pair]:
    """Pairs by id, withdrawn ones too."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    rows = await db.fetchall(
        f"SELECT {_PAIR_COLUMNS} FROM fixture_pairs WHERE id IN ({marks})", wanted
    )
    return {r["id"]: _pair(r) for r in rows}


async def withdrawn_pairs(db: Database, ids: Iterable[int]) -> set[int]:
    """Which of these pairs have withdrawn."""
    return {p.id for p in (await pairs_by_id(db, ids)).values() if p.withdrawn}


# -- series and fixtures --------------------------------------------------------------------

_SERIES_COLUMNS = (
    "id, league_id, kind, window_seconds, deadline, channel_id, entrants, made_at, finished_at"
)


def _series(row: Any) -> Series:
    return Series(
        id=row["id"],
        league_id=row["league_id"],
        kind=row["kind"],
        window_seconds=row["window_seconds"],
        deadline=row["deadline"],
        channel_id=row["channel_id"],
        entrants=tuple(json.loads(row["entrants"])),
        made_at=row["made_at"],
        finished_at=row["finished_at"],
    )


async def series_under_way(db: Database, league_id: int) -> Series | None:
    """The league's fixtures being played (made and not finished), if any."""
    row = await db.fetchone(
        f"SELECT {_SERIES_COLUMNS} FROM fixture_series WHERE league_id = ? AND finished_at IS NULL",
        (league_id,),
    )
    return _series(row) if row is not None else None


async def latest_series(db: Database, league_id: int) -> Series | None:
    """The league's last making of fixtures, under way or finished."""
    row = await db.fetchone(
        f"SELECT {_SERIES_COLUMNS} FROM fixture_series WHERE league_id = ? ORDER BY id DESC",
        (league_id,),
    )
    return _series(row) if row is not None else None


async def league_series(db: Database, league_id: int) -> list[Series]:
    """Every making of the league's fixtures, the first first."""
    rows = await db.fetchall(
        f"SELECT {_SERIES_COLUMNS} FROM fixture_series WHERE league_id = ? ORDER BY id",
        (league_id,),
    )
    return [_series(r) for r in rows]


async def series_by_id(db: Database, series_id: int) -> Series | None:
    row = await db.fetchone(
        f"SELECT {_SERIES_COLUMNS} FROM fixture_series WHERE id = ?", (series_id,)
    )
    return _series(row) if row is not None else None


async def unfinished_series(db: Database) -> list[Series]:
    """Every series under way, of every league."""
    rows = await db.fetchall(
        f"SELECT {_SERIES_COLUMNS} FROM fixture_series WHERE finished_at IS NULL ORDER BY id"
    )
    return [_series(r) for r in rows]


async def create_series(
    db: Database,
    league_id: int,
    kind: str,
    window_seconds: int,
    deadline: str,
    channel_id: int,
    entrants: Sequence[int],
    made_by: int,
    now: int,
) -> Series:
    """Store a making of fixtures (in the caller's transaction).

    Raises:
        FixtureError: a bad kind, deadline rule or window, or the league has fixtures under way.
    """
    if kind not in KINDS:
        raise FixtureError(f"unknown kind of fixtures {{}}: choose {', '.join(KINDS)}", kind)
    if deadline not in DEADLINES:
        raise FixtureError(f"unknown deadline rule {{}}: choose {', '.join(DEADLINES)}", deadline)
    if window_seconds <= 0:
        raise FixtureError(
            "a fixture's window must end after it starts: give window_days of 1 or more"
        )
    if await series_under_way(db, league_id) is not None:
        raise FixtureError(
            "the league's fixtures are still being played: new ones are made once they finish"
        )
    series_id = await db.fetchval(
        "INSERT INTO fixture_series (league_id, kind, window_seconds, deadline, channel_id,"
        " entrants, made_by, made_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            league_id,
            kind,
            window_seconds,
            deadline,
            channel_id,
            json.dumps(list(entrants)),
            made_by,
            now,
        ),
    )
    return Series(
        series_id, league_id, kind, window_seconds, deadline, channel_id, tuple(entrants), now, None
    )


async def finish_series(db: Database, series_id: int, now: int) -> None:
    """Mark a series finished: its league may make new fixtures."""
    await db.execute("UPDATE fixture_series SET finished_at = ? WHERE id = ?", (now, series_id))


async def add_fixtures(db: Database, series_id: int, new: Sequence[NewFixture]) -> list[int]:
    """Store fixtures of a series (a pair's bye as a fixture of state bye); their ids."""
    ids = []
    for f in new:
        ids.append(
            await db.fetchval(
                "INSERT INTO fixtures (series_id, round, slot, first_pair, second_pair, opens_at,"
                " closes_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    series_id,
                    f.round,
                    f.slot,
                    f.first_pair,
                    f.second_pair,
                    f.opens_at,
                    f.closes_at,
                    BYE if f.second_pair is None else OPEN,
                ),
            )
        )
    return ids


_FIXTURE_COLUMNS = (
    "id, series_id, round, slot, first_pair, second_pair, opens_at, closes_at, extended, state,"
    " table_id, channel_id, north_south, match_id, winner_pair, first_games, second_games,"
    " reminded_day, reminded_hour"
)


def _fixture(row: Any) -> Fixture:
    return Fixture(
        id=row["id"],
        series_id=row["series_id"],
        round=row["round"],
        slot=row["slot"],
        first_pair=row["first_pair"],
        second_pair=row["second_pair"],
        opens_at=row["opens_at"],
        closes_at=row["closes_at"],
        extended=bool(row["extended"]),
        state=row["state"],
        table_id=row["table_id"],
        channel_id=row["channel_id"],
        north_south=row["north_south"],
        match_id=row["match_id"],
        winner_pair=row["winner_pair"],
        first_games=row["first_games"],
        second_games=row["second_games"],
        reminded_day=bool(row["reminded_day"]),
        reminded_hour=bool(row["reminded_hour"]),
    )


async def fixture_by_id(db: Database, fixture_id: int) -> Fixture | None:
    row = await db.fetchone(f"SELECT {_FIXTURE_COLUMNS} FROM fixtures WHERE id = ?", (fixture_id,))
    return _fixture(row) if row is not None else None


async def fixture_in_guild(db: Database, guild_id: int, fixture_id: int) -> tuple[Fixture, League]:
    """A fixture of one of the server's leagues, and its league.

    Raises:
        FixtureError: no such fixture on this server.
    """
    row = await db.fetchone(
        f"SELECT {', '.join('f.' + c.strip() for c in _FIXTURE_COLUMNS.split(','))}, s.league_id"
        " FROM fixtures AS f JOIN fixture_series AS s ON s.id = f.series_id"
        " JOIN leagues AS l ON l.id = s.league_id WHERE f.id = ? AND l.guild_id = ?",
        (fixture_id, guild_id),
    )
    league = await leagues.league_by_id(db, row["league_id"]) if row is not None else None
    if row is None or league is None:
        raise FixtureError(
            f"there is no fixture F{fixture_id} on this server: /fixtures list shows a league's"
        )
    return _fixture(row), league


async def series_fixtures(db: Database, series_id: int) -> list[Fixture]:
    """A series' fixtures in the order they were made, which is the order they can be played:
    round by round for a round robin or a Swiss event, and a bracket's matches as each pair
    became known, the grand final last. (By the stored round, a double elimination's grand
    final, a round 1 of its own, would come between its first and second rounds.)"""
    rows = await db.fetchall(
        f"SELECT {_FIXTURE_COLUMNS} FROM fixtures WHERE series_id = ? ORDER BY id",
        (series_id,),
    )
    return [_fixture(r) for r in rows]


async def open_fixtures(db: Database) -> list[Fixture]:
    """Every fixture still to be played, of every league, the soonest to close first."""
    rows = await db.fetchall(
        f"SELECT {_FIXTURE_COLUMNS} FROM fixtures WHERE state = 'open' ORDER BY closes_at, id"
    )
    return [_fixture(r) for r in rows]


async def fixtures_of_player(db: Database, guild_id: int, user_id: int) -> list[Fixture]:
    """The open fixtures of this server a member may play in (as partner or alternate), the
    soonest to close first: every one, so that what he types finds a later one too (a round
    robin of many pairs gives each more fixtures than the 25 choices Discord shows)."""
    rows = await db.fetchall(
        f"SELECT DISTINCT {', '.join('f.' + c.strip() for c in _FIXTURE_COLUMNS.split(','))}"
        " FROM fixtures AS f JOIN fixture_series AS s ON s.id = f.series_id"
        " JOIN leagues AS l ON l.id = s.league_id"
        " JOIN fixture_pairs AS p ON p.id IN (f.first_pair, f.second_pair)"
        " WHERE l.guild_id = ? AND f.state = 'open'"
        " AND ? IN (p.first_id, p.second_id, p.alternate_id)"
        " ORDER BY f.closes_at, f.id",
        (guild_id, user_id),
    )
    return [_fixture(r) for r in rows]


async def fixture_at_table(db: Database, table_id: int) -> Fixture | None:
    """The open fixture played at a table, if any."""
    row = await db.fetchone(
        f"SELECT {_FIXTURE_COLUMNS} FROM fixtures WHERE table_id = ? AND state = 'open'",
        (table_id,),
    )
    return _fixture(row) if row is not None else None


async def set_table(
    db: Database, fixture_id: int, table_id: int, channel_id: int, north_south: int
) -> None:
    """Link a fixture to the table it is played at, and say which pair sits north and south."""
    await db.execute(
        "UPDATE fixtures SET table_id = ?, channel_id = ?, north_south = ? WHERE id = ?",
        (table_id, channel_id, north_south, fixture_id),
    )


async def add_seat(db: Database, fixture_id: int, user_id: int, pair_id: int) -> None:
    """Record that a player sat down for a fixture."""
    await db.execute(
        "INSERT INTO fixture_seats (fixture_id, user_id, pair_id) VALUES (?, ?, ?)"
        " ON CONFLICT DO NOTHING",
        (fixture_id, user_id, pair_id),
    )


async def seated(db: Database, fixture_id: int) -> dict[int, set[int]]:
    """Who sat down for a fixture, by pair."""
    rows = await db.fetchall(
        "SELECT user_id, pair_id FROM fixture_seats WHERE fixture_id = ?", (fixture_id,)
    )
    out: dict[int, set[int]] = {}
    for r in rows:
        out.setdefault(r["pair_id"], set()).add(r["user_id"])
    return out


async def decide(
    db: Database,
    fixture_id: int,
    state: str,
    winner_pair: int | None,
    games: tuple[int, int] | None,
    match_id: int | None,
    now: int,
) -> bool:
    """Decide an open fixture (in the caller's transaction); False if it was decided already."""
    if match_id is not None:
        await link_match(db, fixture_id, match_id)
    changed = await db.execute_rowcount(
        "UPDATE fixtures SET state = ?, winner_pair = ?, first_games = ?, second_games = ?,"
        " match_id = ?, decided_at = ? WHERE id = ? AND state = 'open'",
        (
            state,
            winner_pair,
            games[0] if games else None,
            games[1] if games else None,
            match_id,
            now,
            fixture_id,
        ),
    )
    return bool(changed)


async def mark_reminded(db: Database, fixture_id: int, day: bool, hour: bool) -> None:
    """Record the reminders sent (so none is sent twice, across restarts too)."""
    sent = [column for column, now in (("reminded_day", day), ("reminded_hour", hour)) if now]
    if sent:
        marks = ", ".join(f"{column} = 1" for column in sent)
        await db.execute(f"UPDATE fixtures SET {marks} WHERE id = ?", (fixture_id,))


async def extend(db: Database, fixture_id: int, closes_at: int) -> None:
    """Move a fixture's window end, once; its reminders come again before the new end."""
    await db.execute(
        "UPDATE fixtures SET closes_at = ?, extended = 1, reminded_day = 0, reminded_hour = 0"
        " WHERE id = ? AND extended = 0",
        (closes_at, fixture_id),
    )


@dataclass(frozen=True, slots=True)
class MatchAtTable:
    """A match played at a fixture's table: its id, status, winning side and games per side."""

    id: int
    status: str
    winner: int | None
    games: tuple[int, int]


async def match_at_table(db: Database, table_id: int) -> MatchAtTable | None:
    """The first match started at a table (a fixture's table plays one), if any."""
    row = await db.fetchone(
        "SELECT id, status, winner, games FROM matches WHERE table_id = ? ORDER BY id LIMIT 1",
        (table_id,),
    )
    if row is None:
        return None
    won = [0, 0]
    for game in json.loads(row["games"] or "[]"):
        won[game[1]] += 1
    return MatchAtTable(row["id"], row["status"], row["winner"], (won[0], won[1]))


@dataclass(frozen=True, slots=True)
class FixturePage:
    """One page of a series' fixtures, with the pairs they name."""

    series: Series
    fixtures: tuple[Fixture, ...]
    pairs: dict[int, Pair]
    page: int
    pages: int
    total: int


async def fixture_page(db: Database, league: League, page: int = 1) -> FixturePage:
    """One page of ten of the league's latest fixtures, in the order they were made.

    Raises:
        FixtureError: the league has no fixtures, or no such page.
    """
    series = await latest_series(db, league.id)
    if series is None:
        raise FixtureError(
            "the league {} has no fixtures yet: an organiser makes them with /fixtures make",
            league.name,
        )
    every = await series_fixtures(db, series.id)
    pages = max(1, -(-len(every) // FIXTURES_PAGE))
    if not 1 <= page <= pages:
        raise FixtureError(
            f"page {page} does not exist: the league's fixtures fill {pages_text(pages)}"
        )
    shown = tuple(every[(page - 1) * FIXTURES_PAGE : page * FIXTURES_PAGE])
    pairs = await pairs_by_id(db, [p for f in shown for p in f.pairs])
    return FixturePage(series, shown, pairs, page, pages, len(every))


# -- a fixture following its match's standing in the league ----------------------------------


async def link_match(db: Database, fixture_id: int, match_id: int) -> None:
    """Keep that a match was played for a fixture (its verdict decided it, or not)."""
    await db.execute(
        "INSERT INTO fixture_matches (match_id, fixture_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (match_id, fixture_id),
    )


async def fixture_of_match(db: Database, match_id: int) -> Fixture | None:
    """The fixture a match was played for, or None."""
    columns = ", ".join("f." + c.strip() for c in _FIXTURE_COLUMNS.split(","))
    row = await db.fetchone(
        f"SELECT {columns} FROM fixture_matches AS m JOIN fixtures AS f ON f.id = m.fixture_id"
        " WHERE m.match_id = ?",
        (match_id,),
    )
    return _fixture(row) if row is not None else None


async def moved_on_from(db: Database, fixture: Fixture) -> Fixture | None:
    """A later fixture of the series made from this one's result (a bracket's next match of
    its winner or its loser), or None (none yet, or not a bracket's)."""
    if fixture.slot is None:
        return None
    series = await series_by_id(db, fixture.series_id)
    assert series is not None  # a fixture belongs to a stored series
    seeds = list(series.entrants)
    bracket = (
        brackets.single_elimination(seeds)
        if series.kind == "single_elimination"
        else brackets.double_elimination(seeds)
    )
    fed = {
        m.id
        for m in bracket.matches
        if any(s.kind != "entrant" and s.ref == fixture.slot for s in (m.top, m.bottom))
    }
    return next((f for f in await series_fixtures(db, series.id) if f.slot in fed), None)


async def redecide(
    db: Database,
    fixture_id: int,
    state: str,
    winner_pair: int | None,
    games: tuple[int, int],
    match_id: int,
    now: int,
) -> None:
    """Decide a fixture again, open or decided (a correction of the match played for it)."""
    await link_match(db, fixture_id, match_id)
    await db.execute(
        "UPDATE fixtures SET state = ?, winner_pair = ?, first_games = ?, second_games = ?,"
        " match_id = ?, decided_at = ? WHERE id = ?",
        (state, winner_pair, games[0], games[1], match_id, now, fixture_id),
    )


async def reopen(
    db: Database, fixture: Fixture, match_id: int, closes_at: int, *, showed_again: bool
) -> None:
    """Open a fixture again, to be played at a new table by `closes_at`: the match played for
    it does not count. `showed_again`: who sat down for it must sit down again (a new
    window), rather than keep having shown (the same window)."""
    await link_match(db, fixture.id, match_id)
    await db.execute(
        "UPDATE fixtures SET state = 'open', winner_pair = NULL, first_games = NULL,"
        " second_games = NULL, match_id = NULL, decided_at = NULL, table_id = NULL,"
        " channel_id = NULL, north_south = NULL, closes_at = ?, reminded_day = 0,"
        " reminded_hour = 0 WHERE id = ?",
        (max(closes_at, fixture.opens_at + 1), fixture.id),
    )
    if showed_again:
        await db.execute("DELETE FROM fixture_seats WHERE fixture_id = ?", (fixture.id,))
