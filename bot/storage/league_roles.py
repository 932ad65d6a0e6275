"""A league's rank roles in storage: which roles, whom the bot gave each, and its one warning.

Writes run in the caller's transaction (the game manager's writer); nothing here commits on its
own. Who should hold a role is `bot.leagues.roles`; this module only reads and keeps the rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.leagues.roles import ROLES_LIMIT, RankRole, check_top
from bot.storage.database import Database
from bot.storage.league_seasons import OPEN_PLAY, live_standings, which_season
from bot.storage.leagues import League, LeagueError, league_by_id
from bot.storage.seasons import timestamp


@dataclass(frozen=True, slots=True)
class Notice:
    """Where a league's role problems are told, and the warning outstanding (None: none)."""

    channel_id: int
    organiser_id: int
    warning: str | None


async def rank_roles(db: Database, league_id: int) -> list[RankRole]:
    """The league's rank roles, the narrowest first."""
    rows = await db.fetchall(
        "SELECT role_id, top FROM league_roles WHERE league_id = ? ORDER BY top, role_id",
        (league_id,),
    )
    return [RankRole(r["role_id"], r["top"]) for r in rows]


async def add_rank_role(
    db: Database, league: League, role_id: int, top: int, by: int, channel_id: int
) -> RankRole:
    """Give the league a rank role, or change the places of one it has (in the caller's
    transaction); its problems are told from now on in `channel_id`, to `by`.

    Raises:
        LeagueError: `top` out of range, the role serves another league, or the league has
            as many roles as it may.
    """
    try:
        check_top(top)
    except ValueError as error:
        raise LeagueError(str(error)) from None
    other = await db.fetchval("SELECT league_id FROM league_roles WHERE role_id = ?", (role_id,))
    if other is not None and other != league.id:
        found = await league_by_id(db, other)
        raise LeagueError(
            "that role already follows the league {}: a role follows one league",
            found.name if found else "another",
        )
    roles = await rank_roles(db, league.id)
    if other is None and len(roles) >= ROLES_LIMIT:
        raise LeagueError(f"a league has at most {ROLES_LIMIT} roles: remove one first")
    await db.execute(
        "INSERT INTO league_roles (league_id, role_id, top, added_by, added_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (league_id, role_id) DO UPDATE SET top = excluded.top",
        (league.id, role_id, top, by, timestamp(datetime.now(UTC))),
    )
    await db.execute(
        "INSERT INTO league_role_notices (league_id, channel_id, organiser_id, warning)"
        " VALUES (?, ?, ?, NULL) ON CONFLICT (league_id) DO UPDATE SET"
        " channel_id = excluded.channel_id, organiser_id = excluded.organiser_id, warning = NULL",
        (league.id, channel_id, by),
    )
    return RankRole(role_id, top)


async def remove_rank_role(db: Database, league: League, role_id: int) -> set[int]:
    """Stop the league managing a role (in the caller's transaction); returns whom the bot had
    given it.

    Raises:
        LeagueError: the league has no such role.
    """
    held = (await holders(db, league.id)).get(role_id, set())
    removed = await db.execute_rowcount(
        "DELETE FROM league_roles WHERE league_id = ? AND role_id = ?", (league.id, role_id)
    )
    if not removed:
        raise LeagueError("the league {} has no such role: /league roles list", league.name)
    return held


async def holders(db: Database, league_id: int) -> dict[int, set[int]]:
    """Whom the bot gave each of the league's roles."""
    rows = await db.fetchall(
        "SELECT role_id, user_id FROM league_role_holders WHERE league_id = ?", (league_id,)
    )
    out: dict[int, set[int]] = {}
    for r in rows:
        out.setdefault(r["role_id"], set()).add(r["user_id"])
    return out


async def set_holder(db: Database, league_id: int, role_id: int, user_id: int, holds: bool) -> None:
    """Note that the bot gave a member the role (`holds`) or took it back (in the caller's
    transaction). A role the league no longer has is not noted."""
    if holds:
        await db.execute(
            "INSERT INTO league_role_holders (league_id, role_id, user_id)"
            " SELECT league_id, role_id, ? FROM league_roles WHERE league_id = ? AND role_id = ?"
            " ON CONFLICT DO NOTHING",
            (user_id, league_id, role_id),
        )
    else:
        await db.execute(
            "DELETE FROM league_role_holders WHERE role_id = ? AND user_id = ?",
            (role_id, user_id),
        )


async def current_ranks(db: Database, league: League) -> list[tuple[int, int]]:
    """(rank, user id) of everyone in the standings `/league standings` shows by default: the
    running season's, or those of the matches outside seasons while none runs."""
    season = await which_season(db, league, None)
    rows = await live_standings(db, league, season.id if season else OPEN_PLAY)
    return [(r.rank, r.entrant) for r in rows]


async def notice(db: Database, league_id: int) -> Notice | None:
    """Where the league's role problems are told, or None before any role was added."""
    row = await db.fetchone(
        "SELECT channel_id, organiser_id, warning FROM league_role_notices WHERE league_id = ?",
        (league_id,),
    )
    return Notice(row["channel_id"], row["organiser_id"], row["warning"]) if row else None


async def set_warning(db: Database, league_id: int, warning: str | None) -> None:
    """Note the warning just told (None: the roles sync again; in the caller's transaction)."""
    await db.execute(
        "UPDATE league_role_notices SET warning = ? WHERE league_id = ?", (warning, league_id)
    )


async def leagues_with_roles(db: Database, guild_id: int) -> list[int]:
    """The ids of the server's leagues that have a role."""
    rows = await db.fetchall(
        "SELECT DISTINCT r.league_id FROM league_roles AS r JOIN leagues AS l ON l.id = r.league_id"
        " WHERE l.guild_id = ? ORDER BY r.league_id",
        (guild_id,),
    )
    return [r["league_id"] for r in rows]
