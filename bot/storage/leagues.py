"""Leagues of a server and their members, and the facts of a match that say if it counts.

Writes run in the caller's transaction (the game manager's writer), so a request and what it
changes are durable together; nothing here commits on its own. Names are unique in a server
whatever their case: they are compared by their case-folded key.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.engine.quoting import QuotesNames
from bot.leagues.counting import LeagueFacts, MatchFacts, Player
from bot.leagues.standings import METRICS
from bot.storage.database import Database
from bot.storage.errors import StorageError
from bot.storage.seasons import timestamp

FORMATS = ("ladder", "fixtures", "progressive")
STANDINGS = METRICS
NAME_LIMIT = 40
MEMBERS_PAGE = 20
CHOICES_LIMIT = 25  # Discord offers at most 25 autocomplete choices


class LeagueError(QuotesNames, StorageError):
    """A league request refused; ``str(error)`` is readable by a member, and the names it
    quotes are escaped where Discord shows it (`QuotesNames`)."""


@dataclass(frozen=True, slots=True)
class League:
    """A server's league.

    Attributes:
        id: its storage id.
        guild_id: its server.
        name: its name as its organiser wrote it.
        options: its rules (``Options.to_dict()``), fixed for its seasons.
        format: ``ladder``, ``fixtures`` or ``progressive``.
        standing: what its standings rank by (`bot.leagues.standings.METRICS`).
        substitutes: whether matches a computer or a substitute played in count.
        created_by: the organiser's user id.
        created_at: when it was created.
    """

    id: int
    guild_id: int
    name: str
    options: dict[str, Any]
    format: str
    standing: str
    substitutes: bool
    created_by: int
    created_at: str

    @property
    def preset(self) -> str:
        return str(self.options["preset"])


@dataclass(frozen=True, slots=True)
class MemberPage:
    """One page of a league's members, in the order they joined."""

    members: tuple[tuple[int, str], ...]  # (user id, name)
    page: int
    pages: int
    total: int


def name_key(name: str) -> str:
    """The form two names are compared in: Unicode's compatibility form (full-width letters
    are letters), runs of spaces as one, outer spaces dropped, case-folded."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def _old_name_key(name: str) -> str:
    """`name_key` as leagues made before it took the compatibility form were stored."""
    return name.strip().casefold()


# A zero-width joiner holds emoji sequences together; every other invisible format character
# (zero-width spaces, direction marks) would make two names look alike, as would the letters
# and marks that show as nothing: Hangul fillers, the blank braille pattern, the combining
# grapheme joiner, Khmer's inherent vowels.
_JOINER = "\u200d"
SHOW_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")


def check_name(name: str, what: str = "league") -> str:
    """A league's (or a season's) name as it is kept: in Unicode's compatibility form, each
    run of spaces or line breaks one space, outer spaces dropped.

    Raises:
        LeagueError: empty, invisible, longer than 40 characters, or holding a control or
            invisible format character.
    """
    name = unicodedata.normalize("NFKC", " ".join(name.split()))
    if not name:
        raise LeagueError(f"a {what} needs a name of 1 to {NAME_LIMIT} characters")
    if len(name) > NAME_LIMIT:
        raise LeagueError(
            f"a {what}'s name is at most {NAME_LIMIT} characters; that one has {len(name)}"
        )
    categories = [unicodedata.category(c) for c in name if c != _JOINER]
    if any(c in ("Cc", "Cf", "Co", "Cs", "Cn") for c in categories) or not SHOW_NOTHING.isdisjoint(
        name
    ):
        raise LeagueError(
            f"a {what}'s name takes letters, digits, spaces, punctuation and emoji, not"
            " invisible or control characters"
        )
    if not any(c[0] in "LNPS" for c in categories):
        raise LeagueError(f"a {what}'s name needs a letter, a digit or a symbol that shows")
    return name


_COLUMNS = "id, guild_id, name, options, format, standing, substitutes, created_by, created_at"


def _league(row: Any) -> League:
    return League(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        options=json.loads(row["options"]),
        format=row["format"],
        standing=row["standing"],
        substitutes=bool(row["substitutes"]),
        created_by=row["created_by"],
        created_at=row["created_at"],
    )


async def create_league(
    db: Database,
    guild_id: int,
    name: str,
    options: dict[str, Any],
    *,
    format: str,
    standing: str,
    substitutes: bool,
    created_by: int,
    now: datetime | None = None,
) -> League:
    """Create a league in a server (in the caller's transaction).

    Raises:
        LeagueError: a bad name, format or standing, or a name the server already has.
    """
    name = check_name(name)
    if format not in FORMATS:
        raise LeagueError(f"unknown format {{}}: choose {', '.join(FORMATS)}", format)
    if standing not in STANDINGS:
        raise LeagueError(f"unknown standing {{}}: choose {', '.join(STANDINGS)}", standing)
    taken = await db.fetchval(
        "SELECT name FROM leagues WHERE guild_id = ? AND name_key = ?",
        (guild_id, name_key(name)),
    )
    if taken is not None:
        raise LeagueError("this server already has a league named {}", taken)
    created_at = timestamp(now or datetime.now(UTC))
    league_id = await db.fetchval(
        "INSERT INTO leagues (guild_id, name, name_key, preset, options, format, standing,"
        " substitutes, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id,
            name,
            name_key(name),
            options["preset"],
            json.dumps(options),
            format,
            standing,
            int(substitutes),
            created_by,
            created_at,
        ),
    )
    return League(
        id=league_id,
        guild_id=guild_id,
        name=name,
        options=dict(options),
        format=format,
        standing=standing,
        substitutes=substitutes,
        created_by=created_by,
        created_at=created_at,
    )


async def find_league(db: Database, guild_id: int, name: str) -> League:
    """The server's league of that name, whatever its case.

    Raises:
        LeagueError: the server has no such league.
    """
    row = await db.fetchone(
        f"SELECT {_COLUMNS} FROM leagues WHERE guild_id = ? AND name_key IN (?, ?)",
        (guild_id, name_key(name), _old_name_key(name)),
    )
    if row is None:
        raise LeagueError(
            "this server has no league named {}: an organiser creates one with /league create",
            name.strip(),
        )
    return _league(row)


async def league_by_id(db: Database, league_id: int) -> League | None:
    """A league by its id, or None."""
    row = await db.fetchone(f"SELECT {_COLUMNS} FROM leagues WHERE id = ?", (league_id,))
    return _league(row) if row is not None else None


async def league_names(db: Database, guild_id: int, typed: str) -> list[str]:
    """The server's league names that contain what was typed (any case), those that start with
    it first, at most 25: the autocomplete choices."""
    key = name_key(typed)
    escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = await db.fetchall(
        "SELECT name FROM leagues WHERE guild_id = ? AND name_key LIKE ? ESCAPE '\\'"
        " ORDER BY name_key NOT LIKE ? ESCAPE '\\', name_key LIMIT ?",
        (guild_id, f"%{escaped}%", f"{escaped}%", CHOICES_LIMIT),
    )
    return [r["name"] for r in rows]


async def join_league(
    db: Database, league: League, user_id: int, name: str, now: datetime | None = None
) -> None:
    """Add a member to a league (in the caller's transaction).

    Raises:
        LeagueError: the member belongs to it already.
    """
    if await is_member(db, league.id, user_id):
        raise LeagueError("you are already a member of the league {}", league.name)
    await db.execute(
        "INSERT INTO league_members (league_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
        (league.id, user_id, name, timestamp(now or datetime.now(UTC))),
    )


async def leave_league(db: Database, league: League, user_id: int) -> None:
    """Take a member out of a league (in the caller's transaction).

    Raises:
        LeagueError: the member does not belong to it.
    """
    removed = await db.execute_rowcount(
        "DELETE FROM league_members WHERE league_id = ? AND user_id = ?", (league.id, user_id)
    )
    if not removed:
        raise LeagueError("you are not a member of the league {}", league.name)


async def is_member(db: Database, league_id: int, user_id: int) -> bool:
    """Whether the member belongs to the league."""
    found = await db.fetchval(
        "SELECT 1 FROM league_members WHERE league_id = ? AND user_id = ?", (league_id, user_id)
    )
    return found is not None


async def member_count(db: Database, league_id: int) -> int:
    """How many belong to the league."""
    count = await db.fetchval(
        "SELECT COUNT(*) FROM league_members WHERE league_id = ?", (league_id,), 0
    )
    return int(count)


def pages_text(pages: int) -> str:
    """`1 page`, `3 pages`: how many a refused page number's list fills."""
    return f"{pages} page{'s' if pages != 1 else ''}"


async def member_page(db: Database, league_id: int, page: int = 1) -> MemberPage:
    """One page of twenty of the league's members, in the order they joined.

    Raises:
        LeagueError: a page before the first or after the last.
    """
    total = await member_count(db, league_id)
    pages = max(1, -(-total // MEMBERS_PAGE))
    if not 1 <= page <= pages:
        raise LeagueError(
            f"page {page} does not exist: the league's members fill {pages_text(pages)}"
        )
    rows = await db.fetchall(
        "SELECT user_id, name FROM league_members WHERE league_id = ?"
        " ORDER BY rowid LIMIT ? OFFSET ?",
        (league_id, MEMBERS_PAGE, (page - 1) * MEMBERS_PAGE),
    )
    return MemberPage(tuple((r["user_id"], r["name"]) for r in rows), page, pages, total)


async def set_match_league(db: Database, match_id: int, league_id: int) -> None:
    """Mark an allocated match as played for a league (in the caller's transaction)."""
    await db.execute("UPDATE matches SET league_id = ? WHERE id = ?", (league_id, match_id))


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """A match of a server with the facts the counting rule reads, and its league if any."""

    match_id: int
    facts: MatchFacts
    league: League | None
    league_facts: LeagueFacts | None


async def match_standing(db: Database, guild_id: int, match_id: int) -> MatchStanding:
    """A match of this server, its league, and which of its players belong to that league.

    Raises:
        LeagueError: no match of that id on this server.
    """
    row = await db.fetchone(
        "SELECT id, league_id, status, flagged, options FROM matches WHERE id = ? AND guild_id = ?",
        (match_id, guild_id),
    )
    if row is None:
        raise LeagueError(f"there is no match M{match_id} on this server: /history shows them")
    players = tuple(
        Player(p["user_id"], p["name"], bool(p["is_bot"]), bool(p["substitute"]))
        for p in await db.fetchall(
            "SELECT user_id, name, is_bot, substitute FROM match_players WHERE match_id = ?"
            " ORDER BY seat, user_id",
            (match_id,),
        )
    )
    facts = MatchFacts(
        league_id=row["league_id"],
        status=row["status"],
        flagged=bool(row["flagged"]),
        options=json.loads(row["options"]) if row["options"] else None,
        players=players,
    )
    league = await league_by_id(db, row["league_id"]) if row["league_id"] is not None else None
    league_facts = None
    if league is not None:
        members = await db.fetchall(
            "SELECT m.user_id FROM match_players AS p JOIN league_members AS m"
            " ON m.user_id = p.user_id AND m.league_id = ? WHERE p.match_id = ?",
            (league.id, match_id),
        )
        league_facts = LeagueFacts(
            league.id, league.options, league.substitutes, frozenset(r[0] for r in members)
        )
    return MatchStanding(match_id, facts, league, league_facts)
