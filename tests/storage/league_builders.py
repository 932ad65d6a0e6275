"""League matches in storage for tests: the calls the results path makes when a league table's
games and match end, in few words."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.storage import league_results, leagues, results
from bot.storage.database import Database
from tests.storage.builders import GUILD, OPTIONS, TABLE, at, game, match, seats

START = at("2025-03-01")


async def league_of(db: Database, *members: int, name: str = "Friday Night", **kwargs):
    """A league played by the builders' options, with these members."""
    kwargs.setdefault("format", "ladder")
    kwargs.setdefault("standing", "rubber_points")
    kwargs.setdefault("substitutes", False)
    async with db.transaction():
        league = await leagues.create_league(db, GUILD, name, OPTIONS, created_by=1, **kwargs)
        for user in members:
            await leagues.join_league(db, league, user, f"member {user}")
    return league


async def league_match(
    db: Database,
    league: leagues.League,
    ids: tuple[int, int, int, int],
    winner: int = 0,
    *,
    scores: tuple[tuple[int, int], ...] | None = None,
    when: datetime = START,
    bots: tuple[int, ...] = (),
    left: tuple[int, ...] = (),
    came_back: tuple[int, ...] = (),
    abandoned: bool = False,
) -> int:
    """A rubber at a league table, stored game by game as the results path does: the games
    given (default: `winner` wins two games 5-1, 5-2), then the match, or its abandoning.
    Users in `bots` are computers from the start; the members in the seats `left` leave after
    the games and a computer (user 900 + seat) finishes in their place; those in `came_back`
    timed out until a computer held their seat, and took it back before the end."""
    if scores is None:
        scores = ((5, 1), (5, 2)) if winner == 0 else ((1, 5), (2, 5))
    players = seats(*ids, bots=bots)
    final = [900 + seat if seat in left else user for seat, user in enumerate(ids)]
    at_end = seats(*final, bots=(*bots, *(900 + seat for seat in left)))
    flagged = bool(bots)
    async with db.transaction():
        match_id = await results.new_match_id(db, GUILD, TABLE, now=when)
        await leagues.set_match_league(db, match_id, league.id)
        await league_results.match_started(db, match_id, players)
        won = []
        for number, pair in enumerate(scores):
            side = 0 if pair[0] > pair[1] else 1
            moment = when + timedelta(minutes=number)
            game_id = await results.record_game(
                db,
                game(match_id, players, number=number, scores=pair, winner=side, when=moment),
            )
            await league_results.game_ended(
                db,
                league.id,
                match_id,
                game_id,
                players,
                side,
                moment,
                flagged,
            )
            won.append((pair, side, 1))
        sides = [sum(1 for _, s, _ in won if s == k) for k in (0, 1)]
        over = not abandoned
        record = match(
            match_id,
            at_end,
            games=tuple(won),
            rubber_points=(
                sides[0] + 2 * (over and winner == 0),
                sides[1] + 2 * (over and winner == 1),
            ),
            winner=winner if over else None,
            abandoned=abandoned,
            when=when + timedelta(minutes=len(scores)),
            flagged=flagged or bool(left) or bool(came_back),
        )
        await results.record_match(db, record)
        await league_results.match_ended(db, GUILD, match_id, frozenset(left + came_back))
    return match_id


__all__ = ["GUILD", "START", "TABLE", "league_match", "league_of"]
