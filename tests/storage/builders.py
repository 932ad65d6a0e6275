"""Building result records for storage tests: seats, hands, games and matches in few words."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage import results
from bot.storage.database import Database
from bot.storage.results import GameRecord, HandRecord, MatchRecord, SeatPlayer

GUILD = 1000
TABLE = 7
OPTIONS = {"preset": "somerset", "points": 5}


def at(day: str, hour: int = 12) -> datetime:
    """A UTC moment on a day 'YYYY-MM-DD'."""
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UTC)


def seats(
    *user_ids: int, bots: tuple[int, ...] = (), subs: tuple[int, ...] = ()
) -> tuple[SeatPlayer, ...]:
    """Four seats in order; user ids listed in `bots` are computer players, in `subs` substitutes."""
    return tuple(
        SeatPlayer(
            seat=seat,
            user_id=uid,
            name=f"player{uid}",
            is_bot=uid in bots,
            substitute=uid in subs,
        )
        for seat, uid in enumerate(user_ids)
    )


def hand(
    match_id: int,
    players: tuple[SeatPlayer, ...],
    *,
    deal: int,
    game: int = 0,
    dealer: int | None = None,
    maker: int | None = None,
    outcome: str = "made",
    points: tuple[int, int] = (0, 0),
    tricks: tuple[int, int] = (0, 0),
    alone: int | None = None,
    defender: int | None = None,
    when: datetime | None = None,
    preset: str = "somerset",
    guild: int = GUILD,
    flagged: bool = False,
) -> HandRecord:
    return HandRecord(
        guild_id=guild,
        table_id=TABLE,
        match_id=match_id,
        game_number=game,
        deal_number=deal,
        dealer=deal % 4 if dealer is None else dealer,
        maker=maker,
        trump=None if maker is None else "H",
        alone=alone,
        defender=defender,
        players=players,
        tricks=tricks,
        points=points,
        outcome=outcome,
        preset=preset,
        options=OPTIONS,
        record={"deal": deal, "game": game},
        played_at=when or at("2025-03-01"),
        flagged=flagged,
    )


def game(
    match_id: int,
    players: tuple[SeatPlayer, ...],
    *,
    number: int,
    scores: tuple[int, int],
    winner: int,
    value: int = 1,
    when: datetime | None = None,
    preset: str = "somerset",
    guild: int = GUILD,
) -> GameRecord:
    return GameRecord(
        guild_id=guild,
        table_id=TABLE,
        match_id=match_id,
        game_number=number,
        players=players,
        scores=scores,
        winner=winner,
        value=value,
        preset=preset,
        options=OPTIONS,
        played_at=when or at("2025-03-01"),
    )


def match(
    match_id: int,
    players: tuple[SeatPlayer, ...],
    *,
    kind: str = "rubber",
    games: tuple[tuple[tuple[int, int], int, int], ...] = (),
    rubber_points: tuple[int, int] = (0, 0),
    winner: int | None = None,
    abandoned: bool = False,
    when: datetime | None = None,
    preset: str = "somerset",
    guild: int = GUILD,
    flagged: bool = False,
) -> MatchRecord:
    return MatchRecord(
        guild_id=guild,
        table_id=TABLE,
        match_id=match_id,
        kind=kind,
        players=players,
        games=games,
        rubber_points=rubber_points,
        winner=winner,
        abandoned=abandoned,
        preset=preset,
        options=OPTIONS,
        record={"kind": kind, "match": match_id},
        played_at=when or at("2025-03-01"),
        flagged=flagged,
    )


async def quick_rubber(
    db: Database,
    players: tuple[SeatPlayer, ...],
    *,
    winner: int,
    rubber_points: tuple[int, int],
    when: datetime | None = None,
    guild: int = GUILD,
    preset: str = "somerset",
) -> int:
    """A rubber reduced to its match record and two won games (no hands): for leaderboard tests."""
    async with db.transaction():
        match_id = await results.new_match_id(db, guild, TABLE)
        scored = []
        for number in range(2):
            scores = (5, 1) if winner == 0 else (1, 5)
            await results.record_game(
                db,
                game(
                    match_id,
                    players,
                    number=number,
                    scores=scores,
                    winner=winner,
                    when=when,
                    guild=guild,
                    preset=preset,
                ),
            )
            scored.append((scores, winner, 1))
        await results.record_match(
            db,
            match(
                match_id,
                players,
                games=tuple(scored),
                rubber_points=rubber_points,
                winner=winner,
                when=when,
                guild=guild,
                preset=preset,
            ),
        )
    return match_id


async def rubber_then_game(db: Database) -> tuple[int, int, int]:
    """Player 1's two matches: a rubber lost 0-4 on 2025-05-01 (seats 1, 2, 3, 4), then a single
    game of three deals lost 0-3 on 2025-05-02 (seats 3, 1, 4, 2). Returns (the rubber's match
    id, the game's match id, the game's id): for history and record tests."""
    first = await quick_rubber(
        db, seats(1, 2, 3, 4), winner=1, rubber_points=(0, 4), when=at("2025-05-01")
    )
    players = seats(3, 1, 4, 2)
    async with db.transaction():
        second = await results.new_match_id(db, GUILD, TABLE)
        for n in range(3):
            await results.record_hand(
                db, hand(second, players, deal=n, maker=0, points=(1, 0), when=at("2025-05-02"))
            )
        game_id = await results.record_game(
            db,
            game(
                second, players, number=0, scores=(3, 0), winner=0, value=2, when=at("2025-05-02")
            ),
        )
        await results.record_match(
            db,
            match(
                second,
                players,
                kind="game",
                games=(((3, 0), 0, 2),),
                winner=0,
                when=at("2025-05-02"),
            ),
        )
    return first, second, game_id


async def totals(
    db: Database,
    user_id: int,
    bucket: str = "all",
    flagged: int | None = 0,
    guild: int = GUILD,
) -> dict[str, int]:
    """A player's summed counters in one bucket (over presets), as a dict; zeros when none."""
    where = "" if flagged is None else " AND flagged = ?"
    params: tuple[object, ...] = (guild, user_id, bucket) + (() if flagged is None else (flagged,))
    row = await db.fetchone(
        "SELECT "
        + ", ".join(f"COALESCE(SUM({c}), 0)" for c in results.COUNTERS)
        + " FROM player_totals WHERE guild_id = ? AND user_id = ? AND bucket = ?"
        + where,
        params,
    )
    assert row is not None
    return dict(zip(results.COUNTERS, row, strict=True))
