"""The listed players kept per board and leaderboard (``board_counts``): right after every kind
of write to the boards, after a correction, a copy and a migration, and checked by verify."""

from __future__ import annotations

from pathlib import Path

from bot.storage import board_counts, results
from bot.storage.copy import copy
from bot.storage.database import Database, load_migrations
from bot.storage.leaderboard import leaderboard, leaderboard_rows, rank_of
from bot.storage.seasons import start_season
from bot.storage.verify import rebuild, verify
from tests.storage.builders import GUILD, TABLE, at, hand, quick_rubber, seats
from tests.support.postgres import BACKEND, postgres_server

NOW = at("2025-05-20", 18)


async def kept(db: Database, board: str = "all") -> dict[str, int]:
    """The kept counts of one of GUILD's boards, by metric (none kept at 0)."""
    rows = await db.fetchall(
        "SELECT metric, players FROM board_counts"
        " WHERE guild_id = ? AND board = ? AND players != 0",
        (GUILD, board),
    )
    return {r[0]: int(r[1]) for r in rows}


async def consistent(db: Database) -> None:
    """The kept counts equal a count of the board rows, and each page shows that number."""
    async with db.transaction(read_only=True):
        assert await board_counts.differences(db) == []
    for period in ("all", "7d"):
        for metric in ("points", "rubber_win_rate", "games_won"):
            page = await leaderboard(db, GUILD, metric, period, now=NOW, page_size=100)
            assert page.total == len(page.rows)


async def test_each_kind_of_result_keeps_the_count_it_changes(db: Database) -> None:
    first = seats(1, 2, 3, 4)
    day = at("2025-05-20")
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        # A hand: the makers' side (1 and 3) scores; nobody has made five bids yet.
        await results.record_hand(db, hand(m, first, deal=0, maker=0, points=(1, 0), when=day))
    assert await kept(db) == {"points": 2}
    assert await kept(db, "7d") == {"points": 2}
    async with db.transaction():
        # Another hand of the same players lists nobody new: nothing is written.
        await results.record_hand(db, hand(m, first, deal=1, maker=2, points=(2, 0), when=day))
        # The defenders euchre the makers: 2 and 4 score and are listed for euchres.
        await results.record_hand(
            db, hand(m, first, deal=2, maker=0, points=(0, 2), outcome="euchred", when=day)
        )
    assert await kept(db) == {"points": 4, "euchres_inflicted": 2}
    await consistent(db)
    # Games and rubbers (quick_rubber records two games and the match): five rubbers list
    # their players on the win rate, the fifth and not before.
    for n in range(5):
        await quick_rubber(db, seats(1, 2, 5, 6), winner=0, rubber_points=(3, 1), when=day)
        rate = (await kept(db)).get("rubber_win_rate", 0)
        assert rate == (4 if n == 4 else 0)
    assert await kept(db) == {
        "points": 4,
        "euchres_inflicted": 2,
        "games_won": 2,  # 1 and 5 (side 0) won every game
        "game_win_rate": 4,  # ten games each
        "rubbers_won": 2,
        "rubber_points": 4,
        "rubber_win_rate": 4,
    }
    await consistent(db)


async def test_corrections_and_rewritten_boards_keep_the_count(db: Database) -> None:
    clean, late = seats(1, 2, 3, 4), seats(1, 2, 3, 9, subs=(9,))
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        await results.record_hand(
            db, hand(m, clean, deal=0, maker=0, points=(1, 0), when=at("2025-05-12"))
        )
    await quick_rubber(db, seats(5, 6, 7, 8), winner=0, rubber_points=(2, 0), when=at("2025-05-12"))
    assert (await kept(db))["points"] == 2 and (await kept(db, "7d"))["rubbers_won"] == 2
    # A substitute sits down: the match's counts move to the flagged totals, which list nobody.
    async with db.transaction():
        await results.record_hand(
            db, hand(m, late, deal=1, maker=1, points=(0, 1), when=at("2025-05-12"))
        )
    assert "points" not in await kept(db)
    assert await kept(db, "7d") == {"rubbers_won": 2, "rubber_points": 2, "games_won": 2}
    await consistent(db)
    # A result a week later moves the 7-day window past the first day: 5-8 leave it.
    await quick_rubber(
        db, seats(10, 11, 12, 13), winner=1, rubber_points=(0, 3), when=at("2025-05-20")
    )
    assert await kept(db, "7d") == {"rubbers_won": 2, "rubber_points": 2, "games_won": 2}
    assert await kept(db, "30d") == {"rubbers_won": 4, "rubber_points": 4, "games_won": 4}
    await consistent(db)
    # A season started in the past takes in the results since: its board is counted afresh.
    await start_season(db, GUILD, "Spring", at("2025-05-15"))
    seasons = await db.fetchall(
        "SELECT board, metric, players FROM board_counts WHERE board LIKE 'season:%'"
    )
    assert {(r[1], r[2]) for r in seasons} == {
        ("rubbers_won", 2),
        ("rubber_points", 2),
        ("games_won", 2),
    }
    await consistent(db)
    # Every total recomputed from the results: the counts come out the same.
    before = {board: await kept(db, board) for board in ("all", "7d", "30d")}
    await rebuild(db)
    assert {board: await kept(db, board) for board in ("all", "7d", "30d")} == before
    assert await verify(db) == []


async def test_verify_reports_a_wrong_kept_count_which_pages_would_show(db: Database) -> None:
    for base in (1, 5):
        await quick_rubber(
            db, seats(base, base + 1, base + 2, base + 3), winner=0, rubber_points=(2, 1)
        )
    assert await verify(db) == []
    async with db.transaction():
        await db.execute(
            "UPDATE board_counts SET players = players + 3"
            " WHERE board = 'all' AND metric = 'rubber_points'"
        )
        await db.execute("DELETE FROM board_counts WHERE board = 'all' AND metric = 'games_won'")
        await db.execute(
            "INSERT INTO board_counts (guild_id, board, metric, players)"
            " VALUES (?, 'season:x', 'points', 2)",
            (GUILD,),
        )
    # A page reads the kept number, not a count: this is why verify checks it.
    page = await leaderboard(db, GUILD, "rubber_points", now=NOW)
    assert (page.total, len(page.rows)) == (11, 8)
    assert await verify(db) == [
        f"guild {GUILD} board all leaderboard games_won: 0 players kept as listed, 4 listed",
        f"guild {GUILD} board all leaderboard rubber_points: 11 players kept as listed, 8 listed",
        f"guild {GUILD} board season:x leaderboard points: 2 players kept as listed, 0 listed",
    ]
    await rebuild(db)
    assert await verify(db) == []
    assert (await leaderboard(db, GUILD, "rubber_points", now=NOW)).total == 8


async def test_a_copy_keeps_the_counts(db: Database, tmp_path: Path) -> None:
    await quick_rubber(db, seats(1, 2, 3, 4), winner=1, rubber_points=(1, 4), when=at("2025-05-19"))
    target = await Database.open(tmp_path / "copy.db")
    try:
        await copy(db, target)
        for board in ("all", "7d", "30d"):
            assert await kept(target, board) == await kept(db, board) != {}
        assert await verify(target) == []
    finally:
        await target.close()


async def test_the_migration_counts_the_boards_of_a_database_made_before_it(
    tmp_path: Path,
) -> None:
    """A database of the bot before board_counts (its boards filled as that bot left them)
    gets every board's count from the migration."""
    earlier = tmp_path / "migrations"
    earlier.mkdir()
    known = load_migrations()
    counts = next(m for m in known if m.name.endswith("_board_counts.sql"))
    for migration in known[: counts.number - 1]:
        (earlier / migration.name).write_text(migration.sql, encoding="utf-8")
    if BACKEND == "postgres":
        where: str | Path = await postgres_server().empty_database(str(tmp_path / "old"))
    else:
        where = tmp_path / "old.db"
    old = await Database.open(where, migrations=earlier)
    try:
        async with old.transaction():
            await old.executemany(
                "INSERT INTO board_totals (guild_id, board, flagged, user_id, points,"
                " rubbers_played, rubbers_won) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (GUILD, "all", 0, 1, 3, 5, 0),
                    (GUILD, "all", 0, 2, 0, 6, 2),
                    (GUILD, "all", 1, 3, 4, 9, 9),  # flagged: listed nowhere
                    (GUILD, "7d", 0, 1, 1, 0, 0),
                    (GUILD + 1, "all", 0, 1, 2, 0, 0),
                ],
            )
    finally:
        await old.close()
    db = await Database.open(where)
    try:
        assert await kept(db) == {"points": 1, "rubber_win_rate": 2, "rubbers_won": 1}
        assert await kept(db, "7d") == {"points": 1}
        assert (
            await db.fetchval(
                "SELECT players FROM board_counts WHERE guild_id = ? AND metric = 'points'",
                (GUILD + 1,),
            )
            == 1
        )
        async with db.transaction(read_only=True):
            assert await board_counts.differences(db) == []
    finally:
        await db.close()


async def test_each_viewers_rank_is_the_same_from_either_end_of_the_board(db: Database) -> None:
    """A viewer in the upper half of a board's values is ranked by the players above him, one
    in the lower half by the listed players less those at or below him: each rank as listed."""
    for n, points in enumerate(((9, 1), (5, 5), (3, 1), (2, 0))):
        base = 10 + 4 * n
        await quick_rubber(
            db, seats(base, base + 1, base + 2, base + 3), winner=n % 2, rubber_points=points
        )
    # Rubber points 9, 5 (four tied), 3, 2 and 1 (three tied): both halves, and ties in each.
    _, every = await leaderboard_rows(db, GUILD, "rubber_points", now=NOW)
    assert sorted({r.value for r in every}) == [1, 2, 3, 5, 9]
    for metric in ("rubber_points", "rubbers_won"):
        _, every = await leaderboard_rows(db, GUILD, metric, now=NOW)
        for row in every:
            assert await rank_of(db, GUILD, row.user_id, metric, now=NOW) == row
            page = await leaderboard(db, GUILD, metric, now=NOW, page_size=2, viewer_id=row.user_id)
            assert page.viewer == row
