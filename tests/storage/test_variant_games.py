"""The variants' games in storage: recorded apart from the four-handed matches, totals per
member and variant in the variant's unit, computers and substitutes flagged, abandoned games
counting for no one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.storage import variant_games as vg
from bot.storage.database import Database
from bot.storage.errors import StatsError, StorageError

GUILD = 3
NOW = datetime(2026, 1, 5, 20, 0, tzinfo=UTC)


def seat(seat: int, user_id: int, side: int, is_bot: bool = False) -> vg.VariantSeat:
    return vg.VariantSeat(seat, user_id, f"member {user_id}", side, is_bot=is_bot)


async def finish(
    db: Database,
    variant: str,
    players: tuple[vg.VariantSeat, ...],
    scores: tuple[int, ...],
    winner: int | None,
    abandoned: bool = False,
) -> int:
    game_id = await vg.new_game_id(db, GUILD, 1, variant, len(players))
    await vg.record_game(
        db,
        vg.VariantGameRecord(
            GUILD,
            game_id,
            variant,
            players,
            scores,
            winner,
            3,
            {"over": True},
            NOW,
            abandoned=abandoned,
        ),
    )
    return game_id


async def test_a_partnership_game_counts_the_sides_points_and_wins(db: Database):
    players = (seat(0, 10, 0), seat(1, 11, 1), seat(2, 12, 0), seat(3, 13, 1))
    await finish(db, "french", players, (15, 9), 0)
    board = await vg.variant_board(db, GUILD, "french", 11)
    assert [(r.user_id, r.games_won, r.points) for r in board.rows] == [
        (10, 1, 15),
        (12, 1, 15),
        (11, 0, 9),
        (13, 0, 9),
    ]
    assert board.own is not None and board.own.rank == 3
    assert await db.fetchval("SELECT COUNT(*) FROM matches") == 0


async def test_napoleon_ranks_by_chips_and_set_back_counts_points_shed(db: Database):
    await finish(db, "napoleon", (seat(0, 10, 0), seat(1, 11, 1), seat(2, 12, 2)), (-4, 8, -4), 1)
    board = await vg.variant_board(db, GUILD, "napoleon", 10)
    assert [(r.user_id, r.points) for r in board.rows][0] == (11, 8)
    await finish(db, "set-back", (seat(0, 10, 0), seat(1, 11, 1)), (0, 3), 0)
    board = await vg.variant_board(db, GUILD, "set-back", 10)
    assert [(r.user_id, r.games_won, r.points) for r in board.rows] == [(10, 1, 5), (11, 0, 2)]


async def test_a_game_with_a_computer_counts_only_with_computers_included(db: Database):
    await finish(db, "two-handed", (seat(0, 10, 0), seat(1, -1, 1, is_bot=True)), (5, 2), 0)
    assert (await vg.variant_board(db, GUILD, "two-handed", 10)).rows == ()
    board = await vg.variant_board(db, GUILD, "two-handed", 10, include_bots=True)
    assert [r.user_id for r in board.rows] == [10]  # the computer gets no totals


async def test_an_abandoned_game_is_kept_but_counts_for_no_one(db: Database):
    game_id = await finish(db, "two-handed", (seat(0, 10, 0), seat(1, 11, 1)), (1, 0), None, True)
    assert (await vg.variant_board(db, GUILD, "two-handed", 10, True)).rows == ()
    assert (await vg.game_record(db, GUILD, game_id))[0] == "two-handed"


async def test_a_game_is_recorded_once_and_unknown_ids_are_refused(db: Database):
    game_id = await finish(db, "two-handed", (seat(0, 10, 0), seat(1, 11, 1)), (5, 0), 0)
    with pytest.raises(StorageError):
        await vg.record_game(
            db,
            vg.VariantGameRecord(GUILD, game_id, "two-handed", (), (5, 0), 0, 1, {}, NOW),
        )
    with pytest.raises(StatsError, match="no game V99"):
        await vg.game_record(db, GUILD, 99)
    with pytest.raises(StatsError, match="unknown variant"):
        await vg.variant_board(db, GUILD, "whist", 10)
    assert vg.parse_game_id("v12") == 12 and vg.parse_game_id("G12") is None
