"""Recording results: a scripted rubber gives exactly the totals worked out by hand, and the
computer-player/substitute flag, abandoned and single-game matches, and refusals."""

from __future__ import annotations

import pytest

from bot.storage import results
from bot.storage.database import Database
from bot.storage.errors import IntegrityError, StorageError
from bot.storage.seasons import start_season
from bot.storage.verify import verify
from tests.storage.builders import GUILD, TABLE, at, game, hand, match, seats, totals

A, B, C, D = 1, 2, 3, 4  # seats 0..3: A and C are side 0, B and D side 1
DAY1, DAY2 = "2025-03-31", "2025-04-01"  # the rubber ends in the next quarter


async def scripted_rubber(db: Database) -> int:
    """A somerset rubber (5-point games, lap, double games), deal by deal.

    Game 0:  d0 passed out; d1 B makes, 3 tricks (0-1); d2 A alone, march (4-0);
             d3 D makes, euchred (2-0). Side 0 wins 6-1 and carries 1.
    Game 1:  d4 C makes, A takes it alone, 3 tricks (1-0); d5 B alone, A defends alone and
             euchres him (4-0). Side 0 wins 6-0, a double game, carries 1.
    Game 2 (next day): d6 D makes, march (0-2); d7 B makes (0-1); d8 D makes, march (0-2).
             Side 1 wins 5-1. No lap into a fourth game: the rubber is over.
    Rubber: side 0 won games 0 and 1: rubber points 1 + 2 + 2 = 5 to 1.
    """
    players = seats(A, B, C, D)
    day1, day2 = at(DAY1), at(DAY2)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        deals = [
            hand(m, players, deal=0, game=0, outcome="passed", when=day1),
            hand(m, players, deal=1, game=0, maker=1, tricks=(2, 3), points=(0, 1), when=day1),
            hand(
                m,
                players,
                deal=2,
                game=0,
                maker=0,
                alone=0,
                outcome="march",
                tricks=(5, 0),
                points=(4, 0),
                when=day1,
            ),
            hand(
                m,
                players,
                deal=3,
                game=0,
                maker=3,
                outcome="euchred",
                tricks=(3, 2),
                points=(2, 0),
                when=day1,
            ),
            hand(
                m,
                players,
                deal=4,
                game=1,
                maker=2,
                alone=0,
                tricks=(3, 2),
                points=(1, 0),
                when=day1,
            ),
            hand(
                m,
                players,
                deal=5,
                game=1,
                maker=1,
                alone=1,
                defender=0,
                outcome="euchred",
                tricks=(3, 2),
                points=(4, 0),
                when=day1,
            ),
            hand(
                m,
                players,
                deal=6,
                game=2,
                maker=3,
                outcome="march",
                tricks=(0, 5),
                points=(0, 2),
                when=day2,
            ),
            hand(m, players, deal=7, game=2, maker=1, tricks=(1, 4), points=(0, 1), when=day2),
            hand(
                m,
                players,
                deal=8,
                game=2,
                maker=3,
                outcome="march",
                tricks=(0, 5),
                points=(0, 2),
                when=day2,
            ),
        ]
        for d in deals:
            await results.record_hand(db, d)
            if d.deal_number == 3:
                await results.record_game(
                    db, game(m, players, number=0, scores=(6, 1), winner=0, when=day1)
                )
            if d.deal_number == 5:
                await results.record_game(
                    db, game(m, players, number=1, scores=(6, 0), winner=0, value=2, when=day1)
                )
        await results.record_game(
            db, game(m, players, number=2, scores=(1, 5), winner=1, when=day2)
        )
        await results.record_match(
            db,
            match(
                m,
                players,
                games=(((6, 1), 0, 1), ((6, 0), 0, 2), ((1, 5), 1, 1)),
                rubber_points=(5, 1),
                winner=0,
                when=day2,
            ),
        )
    return m


EXPECTED = {
    A: dict(
        rubbers_played=1,
        rubbers_won=1,
        rubber_points=5,
        games_played=3,
        games_won=2,
        points=11,
        hands_played=8,
        makes=1,
        makes_won=1,
        euchres_suffered=0,
        euchres_inflicted=2,
        marches=1,
        lone_tried=2,
        lone_made=2,
    ),
    B: dict(
        rubbers_played=1,
        rubbers_won=0,
        rubber_points=1,
        games_played=3,
        games_won=1,
        points=6,
        hands_played=8,
        makes=3,
        makes_won=2,
        euchres_suffered=1,
        euchres_inflicted=0,
        marches=2,
        lone_tried=1,
        lone_made=0,
    ),
    C: dict(
        rubbers_played=1,
        rubbers_won=1,
        rubber_points=5,
        games_played=3,
        games_won=2,
        points=11,
        hands_played=8,
        makes=1,
        makes_won=1,
        euchres_suffered=0,
        euchres_inflicted=1,
        marches=0,
        lone_tried=0,
        lone_made=0,
    ),
    D: dict(
        rubbers_played=1,
        rubbers_won=0,
        rubber_points=1,
        games_played=3,
        games_won=1,
        points=6,
        hands_played=8,
        makes=3,
        makes_won=2,
        euchres_suffered=1,
        euchres_inflicted=0,
        marches=2,
        lone_tried=0,
        lone_made=0,
    ),
}


async def test_scripted_rubber_gives_the_totals_worked_out_by_hand(db: Database) -> None:
    await scripted_rubber(db)
    for user, expected in EXPECTED.items():
        assert await totals(db, user) == expected, f"player {user}"
    assert await verify(db) == []


async def test_scripted_rubber_splits_by_day_and_season(db: Database) -> None:
    await scripted_rubber(db)
    # A on the first day (Q1): deals 1-5 and games 0 and 1.
    first = dict(
        rubbers_played=0,
        rubbers_won=0,
        rubber_points=0,
        games_played=2,
        games_won=2,
        points=11,
        hands_played=5,
        makes=1,
        makes_won=1,
        euchres_suffered=0,
        euchres_inflicted=2,
        marches=1,
        lone_tried=2,
        lone_made=2,
    )
    # ... and on the second (Q2): deals 6-8, game 2 and the rubber.
    second = dict(
        rubbers_played=1,
        rubbers_won=1,
        rubber_points=5,
        games_played=1,
        games_won=0,
        points=0,
        hands_played=3,
        makes=0,
        makes_won=0,
        euchres_suffered=0,
        euchres_inflicted=0,
        marches=0,
        lone_tried=0,
        lone_made=0,
    )
    assert await totals(db, A, f"day:{DAY1}") == first
    assert await totals(db, A, "season:2025-Q1") == first
    assert await totals(db, A, f"day:{DAY2}") == second
    assert await totals(db, A, "season:2025-Q2") == second


async def test_a_passed_deal_is_stored_but_counts_nothing(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        hand_id = await results.record_hand(db, hand(m, players, deal=0, outcome="passed"))
    row = await db.fetchone("SELECT outcome, maker, record FROM hands WHERE id = ?", (hand_id,))
    assert (row["outcome"], row["maker"]) == ("passed", None)
    assert await db.fetchval("SELECT count(*) FROM hand_players WHERE hand_id = ?", (hand_id,)) == 4
    assert await db.fetchval("SELECT count(*) FROM player_totals") == 0


async def test_a_substitute_arriving_late_flags_the_whole_match(db: Database) -> None:
    before = seats(A, B, C, D)
    after = seats(A, B, C, 5, subs=(5,))  # 5 substitutes for D in the second game
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        await results.record_hand(db, hand(m, before, deal=0, maker=0, points=(1, 0)))
        await results.record_hand(
            db, hand(m, before, deal=1, maker=1, points=(0, 2), outcome="march")
        )
        await results.record_game(db, game(m, before, number=0, scores=(1, 5), winner=1))
    # Clean so far: A's hands and game count on the unflagged totals.
    assert (await totals(db, A))["hands_played"] == 2
    assert (await totals(db, D))["games_won"] == 1
    assert await db.fetchval("SELECT flagged FROM matches WHERE id = ?", (m,)) == 0
    async with db.transaction():
        await results.record_hand(db, hand(m, after, deal=2, game=1, maker=3, points=(0, 1)))
    assert await db.fetchval("SELECT flagged FROM matches WHERE id = ?", (m,)) == 1
    # Everything moved: nothing unflagged is left, and the flagged totals hold all three deals.
    assert await db.fetchval("SELECT count(*) FROM player_totals WHERE flagged = 0") == 0
    assert (await totals(db, A, flagged=1))["hands_played"] == 3
    assert (await totals(db, A, flagged=1))["points"] == 1
    assert (await totals(db, D, flagged=1))["marches"] == 1
    assert (await totals(db, D, flagged=1))["games_won"] == 1
    assert (await totals(db, 5, flagged=1))["makes"] == 1
    assert await verify(db) == []


async def test_the_managers_flag_marks_a_match_with_no_computer_in_the_seats(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        await results.record_hand(db, hand(m, players, deal=0, maker=0, points=(1, 0)))
        await results.record_match(
            db, match(m, players, kind="game", games=(((5, 0), 0, 2),), winner=0, flagged=True)
        )
    assert await db.fetchval("SELECT flagged FROM matches WHERE id = ?", (m,)) == 1
    assert (await totals(db, A, flagged=1))["hands_played"] == 1
    assert (await totals(db, A, flagged=0))["hands_played"] == 0
    assert await verify(db) == []


async def test_flag_match_moves_counts_once(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        await results.record_hand(db, hand(m, players, deal=0, maker=2, points=(1, 0)))
        assert await results.flag_match(db, m) is True
        assert await results.flag_match(db, m) is False
    assert (await totals(db, C, flagged=1))["makes_won"] == 1
    assert await verify(db) == []


async def test_computer_players_get_no_totals(db: Database) -> None:
    players = seats(A, -1, C, -3, bots=(-1, -3))
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        await results.record_hand(
            db, hand(m, players, deal=0, maker=1, outcome="euchred", points=(2, 0))
        )
        await results.record_game(db, game(m, players, number=0, scores=(5, 3), winner=0))
        await results.record_match(
            db, match(m, players, kind="game", games=(((5, 3), 0, 1),), winner=0)
        )
    users = {r[0] for r in await db.fetchall("SELECT DISTINCT user_id FROM player_totals")}
    assert users == {A, C}
    names = {r[0] for r in await db.fetchall("SELECT user_id FROM player_names")}
    assert names == {A, C}
    assert (await totals(db, A, flagged=1))["euchres_inflicted"] == 1
    assert await verify(db) == []


async def test_an_abandoned_rubber_counts_its_hands_and_games_but_no_rubber(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        await results.record_hand(
            db, hand(m, players, deal=0, maker=0, points=(2, 0), outcome="march")
        )
        await results.record_game(db, game(m, players, number=0, scores=(5, 0), winner=0, value=2))
        await results.record_match(
            db, match(m, players, games=(((5, 0), 0, 2),), rubber_points=(2, 0), abandoned=True)
        )
    got = await totals(db, A)
    assert (got["rubbers_played"], got["rubber_points"], got["games_won"], got["marches"]) == (
        0,
        0,
        1,
        1,
    )
    assert await db.fetchval("SELECT status FROM matches WHERE id = ?", (m,)) == "abandoned"
    assert await verify(db) == []


async def test_a_single_game_match_counts_no_rubber(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
        await results.record_game(db, game(m, players, number=0, scores=(10, 7), winner=0))
        await results.record_match(
            db, match(m, players, kind="game", games=(((10, 7), 0, 1),), winner=0)
        )
    got = await totals(db, C)
    assert (got["rubbers_played"], got["games_played"], got["games_won"]) == (0, 1, 1)


async def test_results_roll_back_with_the_callers_transaction(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await results.record_hand(db, hand(m, players, deal=0, maker=0, points=(1, 0)))
            raise RuntimeError("the action failed to save")
    assert await db.fetchval("SELECT count(*) FROM hands") == 0
    assert await db.fetchval("SELECT count(*) FROM player_totals") == 0


async def test_refusals(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        m = await results.new_match_id(db, GUILD, TABLE)
    with pytest.raises(StorageError, match="no match 999"):
        await results.record_hand(db, hand(999, players, deal=0, maker=0))
    with pytest.raises(StorageError, match="another server"):
        await results.record_hand(db, hand(m, players, deal=0, maker=0, guild=GUILD + 1))
    with pytest.raises(StorageError, match="Unknown outcome"):
        await results.record_hand(db, hand(m, players, deal=0, maker=0, outcome="won"))
    with pytest.raises(StorageError, match="has a maker"):
        await results.record_hand(db, hand(m, players, deal=0, outcome="made"))
    with pytest.raises(StorageError, match="winner"):
        await results.record_game(db, game(m, players, number=0, scores=(5, 0), winner=2))
    with pytest.raises(StorageError, match="has a winner"):
        await results.record_match(db, match(m, players, winner=None))
    async with db.transaction():
        await results.record_match(db, match(m, players, kind="game", winner=0))
    with pytest.raises(StorageError, match="already over"):
        await results.record_hand(db, hand(m, players, deal=1, maker=0))
    # The same deal twice is a bug in the caller: the database refuses it.
    async with db.transaction():
        m2 = await results.new_match_id(db, GUILD, TABLE)
        await results.record_hand(db, hand(m2, players, deal=0, maker=0))
    with pytest.raises(IntegrityError):
        async with db.transaction():
            await results.record_hand(db, hand(m2, players, deal=0, maker=0))


async def _server_rows(db: Database, guild_id: int) -> dict[str, list[tuple[object, ...]]]:
    """What a server's results left in storage, without ids: to compare two servers."""
    queries = {
        "player_totals": "SELECT bucket, user_id, preset, flagged, "
        + ", ".join(results.COUNTERS)
        + " FROM player_totals WHERE guild_id = ?",
        "board_totals": "SELECT board, flagged, user_id, "
        + ", ".join(results.COUNTERS)
        + " FROM board_totals WHERE guild_id = ?",
        "board_windows": "SELECT days, anchor_day FROM board_windows WHERE guild_id = ?",
        "hands": "SELECT m.flagged, h.deal_number, h.game_number, h.maker, h.outcome,"
        " h.points_0, h.points_1, h.day, hp.seat, hp.user_id, hp.substitute"
        " FROM hands AS h JOIN matches AS m ON m.id = h.match_id"
        " JOIN hand_players AS hp ON hp.hand_id = h.id WHERE h.guild_id = ?",
    }
    return {
        name: sorted(tuple(r) for r in await db.fetchall(sql, (guild_id,)))
        for name, sql in queries.items()
    }


async def test_deals_recorded_together_count_as_if_recorded_one_at_a_time(db: Database) -> None:
    """`record_hands`, which stores the deals a batch of the writer finishes, leaves totals,
    boards, windows and hands exactly as recording each deal alone, in order: deals of two
    matches interleaved, over two days with a season starting on the second, a passed deal, a
    lone hand, and a substitute flagging one match in the middle of the batch."""
    alone_server, together_server = GUILD, GUILD + 1
    clean, late_sub = seats(A, B, C, D), seats(A, B, C, 5, subs=(5,))
    others = seats(6, 7, 8, 9)

    def deals(guild: int, first: int, second: int) -> list[results.HandRecord]:
        return [
            hand(first, clean, deal=0, maker=0, points=(1, 0), when=at(DAY1), guild=guild),
            hand(
                second,
                others,
                deal=0,
                maker=1,
                points=(0, 2),
                outcome="euchred",
                when=at(DAY1),
                guild=guild,
            ),
            hand(
                first,
                clean,
                deal=1,
                maker=2,
                alone=2,
                points=(4, 0),
                outcome="march",
                when=at(DAY1, 20),
                guild=guild,
            ),
            hand(second, others, deal=1, outcome="passed", when=at(DAY2), guild=guild),
            hand(first, late_sub, deal=2, maker=3, points=(0, 1), when=at(DAY2), guild=guild),
            hand(second, others, deal=2, maker=0, points=(1, 0), when=at(DAY2), guild=guild),
            hand(first, clean, deal=3, maker=1, points=(0, 1), when=at(DAY2, 13), guild=guild),
        ]

    matches = {}
    async with db.transaction():
        for guild in (alone_server, together_server):
            await start_season(db, guild, "Spring", at(DAY2))
            matches[guild] = [await results.new_match_id(db, guild, TABLE) for _ in range(2)]
    for record in deals(alone_server, *matches[alone_server]):
        async with db.transaction():
            await results.record_hand(db, record)
    together = deals(together_server, *matches[together_server])
    async with db.transaction():
        ids = await results.record_hands(db, together)
    # The ids come back in order, each naming its deal.
    for hand_id, record in zip(ids, together, strict=True):
        row = await db.fetchone("SELECT match_id, deal_number FROM hands WHERE id = ?", (hand_id,))
        assert tuple(row) == (record.match_id, record.deal_number)
    alone_rows = await _server_rows(db, alone_server)
    assert alone_rows == await _server_rows(db, together_server)
    assert alone_rows["player_totals"] and alone_rows["board_totals"]
    assert any(flagged for flagged, *_ in alone_rows["hands"])  # the substitute flagged one
    assert await verify(db) == []


async def test_deals_recorded_together_are_refused_together(db: Database) -> None:
    players = seats(A, B, C, D)
    async with db.transaction():
        playing = await results.new_match_id(db, GUILD, TABLE)
        over = await results.new_match_id(db, GUILD, TABLE)
        await results.record_match(db, match(over, players, kind="game", winner=0))
    good = hand(playing, players, deal=0, maker=0, points=(1, 0))
    with pytest.raises(StorageError, match=f"Match {over} is already over"):
        async with db.transaction():
            await results.record_hands(db, [good, hand(over, players, deal=0, maker=0)])
    with pytest.raises(StorageError, match="no match 999"):
        async with db.transaction():
            await results.record_hands(db, [good, hand(999, players, deal=0, maker=0)])
    assert await db.fetchval("SELECT count(*) FROM hands") == 0
    assert await db.fetchval("SELECT count(*) FROM player_totals") == 0
    assert await results.record_hands(db, []) == []


async def test_more_deals_than_one_insert_holds_are_recorded_with_their_ids(db: Database) -> None:
    """Over 500 deals go in several INSERT statements; each id still names its own deal."""
    players = seats(A, B, C, D)
    async with db.transaction():
        matches = [await results.new_match_id(db, GUILD, TABLE) for _ in range(3)]
    deals = [
        hand(m, players, deal=d, maker=d % 4, points=(1, 0) if d % 2 else (0, 1))
        for d in range(350)
        for m in matches
    ]
    async with db.transaction():
        ids = await results.record_hands(db, deals)
    assert len(set(ids)) == len(deals) == 1050
    rows = await db.fetchall("SELECT id, match_id, deal_number FROM hands")
    stored = {r[0]: (r[1], r[2]) for r in rows}
    assert [stored[i] for i in ids] == [(d.match_id, d.deal_number) for d in deals]
    assert (await totals(db, A))["hands_played"] == 1050
