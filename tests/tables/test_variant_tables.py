"""A table plays any variant of the rule books: seat counts, the game to its end with computers
filling seats, its record stored among the variants' games, and a restart mid-deal."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.engine.commitment import variant_proof_problem
from bot.engine.errors import OptionsError
from bot.engine.variants import NAMES, seats_allowed
from bot.engine.variants.deal import PLAY
from bot.engine.variants.records import variant_match_from_record
from bot.tables.computer import ComputerSeats
from bot.tables.manager import TableManager
from bot.tables.table import Table, TableError, seat_label
from tests.tables.managers import GUILD, Listener, member, open_manager
from tests.tables.managers import shut as shut_manager

# The shortest game of each variant, so a whole one plays quickly.
SHORT: dict[str, dict[str, Any]] = {
    "two-handed": {"points": 1},
    "three-handed": {"points": 1},
    "french": {"points": 1},
    "six-handed": {"points": 1},
    "napoleon": {"rounds": 1},
    "set-back": {},
}


# The computers' pool of each manager: a pool given to `ComputerSeats` is the giver's to end.
_POOLS: dict[int, ThreadPoolExecutor] = {}


async def computer_manager(path: Path, **kwargs: Any) -> tuple[Any, TableManager, Listener]:
    """A manager whose computers choose in a thread of the test's (no worker processes)."""
    listener = Listener()
    pool = ThreadPoolExecutor(1)
    db, manager = await open_manager(
        path, computers=ComputerSeats(pool), listener=listener, **kwargs
    )
    _POOLS[id(manager)] = pool
    return db, manager, listener


async def shut(db: Any, manager: TableManager) -> None:
    """Close the manager and the database, then end the manager's pool if the test gave one."""
    await shut_manager(db, manager)
    pool = _POOLS.pop(id(manager), None)
    if pool is not None:
        pool.shutdown(wait=True)


async def variant_table(
    manager: TableManager, channel: int, variant: str, seats: int, **options: Any
) -> Table:
    """The host and computers in every other seat, the game started."""
    host = member(channel, 1)
    table = (
        await manager.create(GUILD, channel, host, "host", variant=variant, seats=seats, **options)
    ).table
    for _ in range(seats - 1):
        await manager.add_bot(channel, host, None, "standard")
    await manager.start(channel, host)
    return table


async def play_host_until(
    manager: TableManager,
    listener: Listener,
    table: Table,
    done: Any,
    rng: random.Random,
) -> None:
    """The host plays random legal actions on his turns (computers play theirs) until `done()`."""
    host = table.host_id
    while not done():
        # A set-back maker left alone has his cards played for him: the host waits then too.
        await listener.wait_for(
            lambda: (
                done()
                or table.variant_match.to_act == table.seat_of(host)
                and not table.variant_match.deal.unopposed
            ),
            60,
        )
        if done():
            return
        legal = table.variant_match.legal_actions()
        await manager.act(table.channel_id, host, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", NAMES)
async def test_each_variant_plays_a_whole_game_at_a_table_and_stores_its_record(
    tmp_path: Path, variant: str
):
    db, manager, listener = await computer_manager(tmp_path / "euchre.db")
    try:
        seats = seats_allowed(variant)[1] if variant != "set-back" else 3
        table = await variant_table(manager, 40, variant, seats, **SHORT[variant])
        assert len(table.seats) == seats and table.match is None
        await play_host_until(manager, listener, table, lambda: not table.playing, random.Random(3))
        match = table.variant_match
        assert match is not None and match.over
        row = await db.fetchone("SELECT * FROM variant_games WHERE id = ?", (table.match_id,))
        assert row["status"] == "finished" and row["variant"] == variant
        assert json.loads(row["scores"]) == match.scores and row["winner"] == match.winner
        # The record replays to the same game.
        record = json.loads(row["record"])
        replayed, names = variant_match_from_record(record)
        assert replayed.scores == match.scores and names[table.seat_of(table.host_id)] == "host"
        # Every deal shows its seed, which gives its commitment and its cards.
        assert all(d["seed"] and d["commitment"] for d in record["deals"])
        assert all(
            variant_proof_problem(d, c) is None
            for d, c in zip(replayed.deals, [d["commitment"] for d in record["deals"]], strict=True)
        )
        # Played with computers: flagged, and no rubber or four-handed match was recorded.
        assert row["flagged"] == 1
        assert await db.fetchval("SELECT COUNT(*) FROM matches") == 0
        totals = await db.fetchone(
            "SELECT * FROM variant_totals WHERE user_id = ?", (table.host_id,)
        )
        assert totals["games_played"] == 1 and totals["flagged"] == 1
        # The host starts another game at the same table: a new game, stored apart.
        first = table.match_id
        await manager.start(40, table.host_id)
        assert table.playing and table.variant_match is not match and table.match_id != first
        assert len(table.variant_match.deals) == 1 and table.decks and table.match_no == 2
    finally:
        await shut(db, manager)


@pytest.mark.parametrize(
    ("variant", "seats"), [("two-handed", 3), ("french", 5), ("six-handed", 4), ("napoleon", 8)]
)
async def test_a_seat_count_the_variant_does_not_allow_is_refused_naming_the_allowed(
    manager: TableManager, variant: str, seats: int
):
    low, high = seats_allowed(variant)
    with pytest.raises(OptionsError) as refused:
        await manager.create(GUILD, 41, member(41, 1), "host", variant=variant, seats=seats)
    allowed = str(low) if low == high else f"{low} to {high}"
    assert allowed in str(refused.value)
    assert 41 not in manager.tables


async def test_four_handed_options_and_leagues_are_refused_at_a_variant_table(
    manager: TableManager,
):
    with pytest.raises(TableError, match="four-handed"):
        await manager.create(GUILD, 42, member(42, 1), "host", variant="french", preset="jerome")
    with pytest.raises(TableError, match="league"):
        await manager.create(
            GUILD, 42, member(42, 1), "host", variant="french", league_id=1, league_name="x"
        )
    with pytest.raises(OptionsError, match="no option 'points'"):
        await manager.create(GUILD, 42, member(42, 1), "host", variant="napoleon", points=5)
    assert 42 not in manager.tables


async def test_a_variant_table_seats_exactly_its_players_named_by_number(manager: TableManager):
    host = member(43, 1)
    table = (await manager.create(GUILD, 43, host, "host", variant="napoleon", seats=7)).table
    assert len(table.seats) == 7 and table.seat_label(6) == "seat 7"
    assert seat_label(2) == "south"  # four seats keep their compass names
    for k in range(2, 8):
        await manager.join(43, member(43, k), f"m{k}")
    assert table.full
    with pytest.raises(TableError, match="every seat must be taken"):
        table.seats[6] = None
        await manager.start(43, host)
    await manager.join(43, member(43, 8), "m8")
    await manager.start(43, host)
    assert table.playing and table.variant_match is not None
    # A member who joins now waits; a ninth and tenth may wait, no more.
    assert (await manager.join(43, member(43, 9), "m9")).note == "waiting"


@pytest.mark.parametrize(
    ("variant", "seats", "others"), [("napoleon", 6, "five players"), ("two-handed", 2, "player")]
)
async def test_a_consent_by_one_not_seated_names_how_many_other_players_consent(
    manager: TableManager, variant: str, seats: int, others: str
):
    channel = 45 if seats == 6 else 46
    host = member(channel, 1)
    table = (await manager.create(GUILD, channel, host, "host", variant=variant, seats=seats)).table
    for k in range(2, seats + 1):
        await manager.join(channel, member(channel, k), f"m{k}")
    await manager.start(channel, host)
    await manager.substitute(channel, host, member(channel, 9), "sub")
    with pytest.raises(TableError, match=f"^only the other {others} can consent"):
        await manager.consent(channel, member(channel, 8))
    assert table.substitution is not None and table.substitution.approvals == set()


async def test_starting_with_seats_short_is_refused(manager: TableManager):
    host = member(44, 1)
    await manager.create(GUILD, 44, host, "host", variant="three-handed", seats=3)
    await manager.add_bot(44, host, None, "easy")
    with pytest.raises(TableError, match="three-handed is played by 3"):
        await manager.start(44, host)


async def test_a_restart_mid_deal_restores_a_variant_table_and_the_game_plays_on(tmp_path: Path):
    path = tmp_path / "euchre.db"
    db, manager, listener = await computer_manager(path)
    rng = random.Random(5)
    table = await variant_table(manager, 45, "six-handed", 6, points=1)
    # Into the play of the first deal (a deal all pass is dealt again), then stop.
    await play_host_until(
        manager,
        listener,
        table,
        lambda: table.variant_match.deal.phase == PLAY and bool(table.variant_match.deal.trick),
        rng,
    )
    seen = [table.variant_match.view_for(s) for s in range(6)], list(table.actions)
    seeds = [d.seed for d in table.variant_match.deals]
    await shut(db, manager)

    db, manager, listener = await computer_manager(path)
    try:
        loaded = await manager.load()  # rebuilt, nothing moving yet
        again = loaded[0]
        assert again.variant is not None and again.variant.name == "six-handed"
        assert [again.variant_match.view_for(s) for s in range(6)] == seen[0]
        assert again.actions == seen[1]
        assert [d.seed for d in again.variant_match.deals] == seeds and all(seeds)
        await manager.resume(loaded)
        await play_host_until(manager, listener, again, lambda: not again.playing, rng)
        status = await db.fetchval(
            "SELECT status FROM variant_games WHERE id = ?", (again.match_id,)
        )
        assert status == "finished"
    finally:
        await shut(db, manager)


async def test_closing_a_variant_table_mid_game_stores_it_abandoned(manager: TableManager):
    host = member(46, 1)
    await manager.create(GUILD, 46, host, "host", variant="two-handed", seats=2)
    await manager.join(46, member(46, 2), "bob")
    await manager.start(46, host)
    table = manager.table_in(46)
    await manager.close_table(46, host)
    row = await manager.db.fetchone(
        "SELECT status, record FROM variant_games WHERE id = ?", (table.match_id,)
    )
    assert row["status"] == "abandoned" and json.loads(row["record"])["over"] is False
    assert await manager.db.fetchval("SELECT COUNT(*) FROM variant_totals") == 0


async def test_a_seat_left_mid_game_is_named_for_the_level_it_plays_at(manager: TableManager):
    # The variants have no expert: the computer taking the seat plays it at standard, and is
    # named so (it was "Computer (expert)").
    host, bob = member(47, 1), member(47, 2)
    await manager.create(GUILD, 47, host, "host", variant="two-handed", seats=2)
    await manager.join(47, bob, "bob")
    await manager.start(47, host)
    table = manager.table_in(47)
    seat = table.seat_of(bob)
    await manager.leave(47, bob)
    computer = table.seats[seat]
    assert computer is not None and computer.is_bot
    assert (computer.name, computer.level) == ("Computer (standard)", "standard")


async def test_a_member_who_times_out_twice_has_a_computer_hold_the_seat(tmp_path: Path):
    db, manager, listener = await computer_manager(tmp_path / "euchre.db")
    try:
        host, bob = member(47, 1), member(47, 2)
        await manager.create(GUILD, 47, host, "host", variant="three-handed", seats=3)
        await manager.join(47, bob, "bob")
        await manager.join(47, member(47, 3), "carol")
        await manager.start(47, host)
        table = manager.table_in(47)
        match = table.variant_match
        seat = match.to_act
        first = await manager.time_out_now(table)
        assert first is not None and first.kind == "timeout" and first.by_computer
        # The same member's next turn, timed out again: a computer holds the seat.
        while True:
            to_act = match.to_act
            if to_act == seat:
                break
            await manager.act(47, table.seats[to_act].user_id, match.legal_actions()[0])
        second = await manager.time_out_now(table)
        assert second is not None and second.kind == "takeover"
        assert table.seats[seat].is_bot and table.seats[seat].held_for is not None
        assert table.flagged
    finally:
        await shut(db, manager)


async def test_k_a_set_back_maker_every_other_player_left_alone_has_his_cards_played(
    tmp_path: Path,
):
    """K: a player may throw up his hand. When every other player has, the maker plays the deal
    out alone and takes every trick whatever he plays: his cards are played for him, stored as
    moves of his seat, and the deal ends in his march, without five clicks to nobody."""
    db, manager, listener = await computer_manager(tmp_path / "euchre.db")
    try:
        channel = 48
        host = member(channel, 1)
        table = (
            await manager.create(GUILD, channel, host, "host", variant="set-back", seats=3)
        ).table
        for k in (2, 3):
            await manager.join(channel, member(channel, k), f"member {k}")
        await manager.start(channel, host)
        match = table.variant_match
        deal = match.deal
        maker = table.seat_of(host)
        while not deal.unopposed:
            seat = match.to_act
            legal = match.legal_actions()
            if deal.phase == PLAY:
                raise AssertionError("the others threw up their hands: no card is asked for")
            if seat == maker:  # the host makes trump at his first turn, never passes it
                action = next((a for a in legal if a != "pass"), legal[0])
            elif "throw_up" in legal:
                action = "throw_up"
            else:  # the others pass in the auction; the dealer discards his first card
                action = "pass" if "pass" in legal else legal[0]
            await manager.act(channel, table.seats[seat].user_id, action)
        assert deal.maker == maker and deal.to_act == maker
        await listener.wait_for(lambda: deal.is_over, 30)
        assert deal.result is not None and deal.result.outcome == "march"
        assert deal.result.tricks[maker] == 5
        plays = await db.fetchall(
            "SELECT user_id FROM table_events WHERE table_id = ? AND kind = 'game'"
            " ORDER BY seq DESC LIMIT 5",
            (table.id,),
        )
        assert [r["user_id"] for r in plays] == [None] * 5  # played for him, by the bot
        assert table.seats[maker].user_id == host and not table.seats[maker].is_bot
    finally:
        await shut(db, manager)
