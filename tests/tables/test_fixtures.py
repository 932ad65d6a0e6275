"""The fixtures' scheduler over the real game manager and a real database file: making fixtures
of each kind, sitting down for one, the match deciding it, reminders and deadline rules, and
restarts. Time is a clock the tests move; nothing waits for a real window."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.engine.rules import build_options
from bot.storage import fixtures as store
from bot.storage import league_results, league_seasons, leagues
from bot.storage.fixtures import FixtureError
from bot.storage.leagues import LeagueError
from bot.tables.fixtures import DAY, HOUR, Decision, FixtureScheduler, Made, Reminder
from bot.tables.table import TableError
from tests.tables.managers import GUILD, Clock, open_manager, shut

CHANNEL = 40
START = 1_700_000_000.0


class News:
    """The scheduler's listener: what it announced, in order."""

    def __init__(self) -> None:
        self.reminders: list[Reminder] = []
        self.decisions: list[Decision] = []
        self.made: list[Made] = []

    async def fixture_reminder(self, reminder: Reminder) -> None:
        self.reminders.append(reminder)

    async def fixture_decided(self, decision: Decision) -> None:
        self.decisions.append(decision)

    async def fixtures_made(self, made: Made) -> None:
        self.made.append(made)


class World:
    """A manager, a scheduler, a league of members 1..n (named m1..mn) with pairs."""

    def __init__(self, db, manager, clock: Clock, news: News) -> None:
        self.db, self.manager, self.clock, self.news = db, manager, clock, news
        self.scheduler = FixtureScheduler(manager, clock=clock, listener=news)
        self.league: leagues.League | None = None

    async def make_league(self, members: int) -> leagues.League:
        async with self.db.transaction():
            league = await leagues.create_league(
                self.db,
                GUILD,
                "Friday Night",
                build_options("modern", points=1, match="game").to_dict(),
                format="fixtures",
                standing="rubber_points",
                substitutes=False,
                created_by=1,
            )
            for user in range(1, members + 1):
                await leagues.join_league(self.db, league, user, f"m{user}")
        self.league = league
        return league

    async def register(self, first: int, second: int, alternate: int | None = None):
        assert self.league is not None
        async with self.db.transaction():
            return await store.register_pair(
                self.db,
                self.league,
                (first, f"m{first}"),
                (second, f"m{second}"),
                (alternate, f"m{alternate}") if alternate else None,
                int(self.clock()),
            )

    async def make(self, kind: str = "round_robin", days: int = 3, deadline: str = "forfeit"):
        assert self.league is not None
        return await self.scheduler.make(self.league, kind, days, deadline, CHANNEL, 1)

    async def play(self, fixture_id: int, user: int, channel: int = CHANNEL):
        return await self.scheduler.play(fixture_id, GUILD, channel, user, f"m{user}")

    async def fixtures(self) -> list[store.Fixture]:
        rows = await self.db.fetchall("SELECT id FROM fixtures ORDER BY id")
        return [await store.fixture_by_id(self.db, r["id"]) for r in rows]

    async def decide(self, fixture: store.Fixture, winner: int) -> None:
        games = (1, 0) if winner == fixture.first_pair else (0, 1)
        async with self.db.transaction():
            await store.decide(self.db, fixture.id, "played", winner, games, None, 0)


@pytest.fixture
async def world(tmp_path: Path):
    clock = Clock(START)
    db, manager = await open_manager(tmp_path / "euchre.db", clock=clock)
    w = World(db, manager, clock, News())
    try:
        yield w
    finally:
        await w.scheduler.stop()
        await shut(db, manager)


async def pairs(w: World, count: int, alternates: bool = False):
    """`count` pairs of members (1, 2), (3, 4), ...; alternates after them when asked."""
    await w.make_league(count * 3 if alternates else count * 2)
    out = []
    for i in range(count):
        alternate = count * 2 + i + 1 if alternates else None
        out.append(await w.register(2 * i + 1, 2 * i + 2, alternate))
    return out


async def play_out(w: World, channel: int = CHANNEL) -> None:
    """Random legal moves until the table's match ends."""
    rng = random.Random(3)
    table = w.manager.tables[channel]
    for _ in range(2000):
        if not table.playing:
            return
        legal = table.match.legal_actions()
        user = table.seats[table.match.to_act].user_id
        await w.manager.act(channel, user, legal[rng.randrange(len(legal))])
    raise AssertionError("the match did not end")


# -- making fixtures ------------------------------------------------------------------------


async def test_a_round_robin_meets_every_two_pairs_once_with_a_bye_each_round_when_odd(world):
    w = world
    made = await pairs(w, 3)
    result = await w.make("round_robin", days=2)
    fixtures = list(result.fixtures)
    games = [f for f in fixtures if f.second_pair is not None]
    byes = [f for f in fixtures if f.second_pair is None]
    met = sorted(tuple(sorted(f.pairs)) for f in games)
    ids = [p.id for p in made]
    assert met == sorted([(ids[0], ids[1]), (ids[0], ids[2]), (ids[1], ids[2])])
    assert sorted(f.first_pair for f in byes) == sorted(ids) and all(f.state == "bye" for f in byes)
    # One round after another, each its window of two days.
    for f in fixtures:
        assert f.opens_at == START + (f.round - 1) * 2 * DAY and f.closes_at == f.opens_at + 2 * DAY


async def test_swiss_makes_one_round_and_the_next_when_the_last_is_done_with_no_repeat(world):
    w = world
    await pairs(w, 4)
    first = (await w.make("swiss")).fixtures
    assert len(first) == 2 and {f.round for f in first} == {1}
    for f in first:
        await w.decide(f, f.first_pair)
    w.clock.now += HOUR
    await w.scheduler.tick()
    second = [f for f in await w.fixtures() if f.round == 2]
    assert len(second) == 2
    met = {frozenset(f.pairs) for f in first}
    assert all(frozenset(f.pairs) not in met for f in second)
    # The two winners meet: Swiss pairs those level on match points.
    winners = {f.first_pair for f in first}
    assert any(set(f.pairs) == winners for f in second)
    assert second[0].opens_at == int(w.clock.now)
    for f in second:
        await w.decide(f, f.first_pair)
    await w.scheduler.tick()
    series = await store.latest_series(w.db, w.league.id)
    assert series.finished_at is not None  # two rounds for four pairs
    assert w.news.made[-1].finished


async def test_single_elimination_advances_the_bracket_as_results_come(world):
    w = world
    made = await pairs(w, 4)
    first = (await w.make("single_elimination")).fixtures
    assert sorted(f.slot for f in first) == ["W1.1", "W1.2"]
    # Seeds 1 v 4 and 2 v 3.
    assert {frozenset(f.pairs) for f in first} == {
        frozenset((made[0].id, made[3].id)),
        frozenset((made[1].id, made[2].id)),
    }
    await w.decide(first[0], first[0].first_pair)
    await w.scheduler.tick()
    assert len(await w.fixtures()) == 2  # the final waits for the other semi-final
    await w.decide(first[1], first[1].second_pair)
    await w.scheduler.tick()
    final = (await w.fixtures())[-1]
    assert final.slot == "W2.1" and set(final.pairs) == {first[0].first_pair, first[1].second_pair}
    await w.decide(final, final.second_pair)
    await w.scheduler.tick()
    assert w.news.made[-1].champion == final.second_pair and w.news.made[-1].finished


async def test_double_elimination_plays_a_losers_bracket_and_a_grand_final(world):
    w = world
    await pairs(w, 4)
    await w.make("double_elimination")
    for _ in range(10):
        open_ones = [f for f in await w.fixtures() if f.state == "open"]
        if not open_ones:
            break
        for f in open_ones:
            await w.decide(f, f.first_pair)
        await w.scheduler.tick()
    slots = [f.slot for f in await w.fixtures()]
    assert sorted(slots) == ["GF", "L1.1", "L2.1", "W1.1", "W1.2", "W2.1"]
    assert w.news.made[-1].champion is not None


@pytest.mark.parametrize("days", [0, -1])
async def test_a_window_that_ends_before_it_starts_is_refused(world, days):
    w = world
    await pairs(w, 2)
    with pytest.raises(FixtureError, match="must end after it starts"):
        await w.make(days=days)
    assert await w.db.fetchval("SELECT COUNT(*) FROM fixture_series") == 0


async def test_making_fixtures_with_fewer_than_two_pairs_is_refused(world):
    w = world
    await pairs(w, 1)
    with pytest.raises(FixtureError, match="at least two registered pairs"):
        await w.make()
    assert await w.db.fetchval("SELECT COUNT(*) FROM fixtures") == 0


async def test_new_fixtures_wait_until_the_leagues_are_finished(world):
    w = world
    await pairs(w, 2)
    await w.make()
    with pytest.raises(FixtureError, match="still being played"):
        await w.make("swiss")
    assert await w.db.fetchval("SELECT COUNT(*) FROM fixture_series") == 1


# -- playing a fixture ----------------------------------------------------------------------


async def test_the_pairs_sit_as_partners_and_the_match_starts_when_the_fourth_sits(world):
    w = world
    a, b = await pairs(w, 2, alternates=True)  # a: 1, 2 (alt 5); b: 3, 4 (alt 6)
    fixture = (await w.make()).fixtures[0]
    played = await w.play(fixture.id, 3)
    assert played.created and not played.started
    table = w.manager.tables[CHANNEL]
    assert table.seats[0].user_id == 3 and table.league_id == w.league.id
    assert table.options.points == 1  # the league's rules
    async with w.db.transaction():
        await leagues.join_league(w.db, w.league, 1_000, "stranger")
    with pytest.raises(TableError, match="kept for the players of a fixture"):
        await w.manager.join(CHANNEL, 1_000, "stranger")
    await w.play(fixture.id, 1)
    await w.play(fixture.id, 6)  # b's alternate plays for 4
    assert [o.user_id if o else None for o in table.seats] == [3, 1, 6, None]
    last = await w.play(fixture.id, 2)
    assert last.started and table.playing
    assert [o.user_id for o in table.seats] == [3, 1, 6, 2]  # no cut for partners
    stored = await store.fixture_by_id(w.db, fixture.id)
    assert stored.table_id == table.id and stored.north_south == b.id
    assert await store.seated(w.db, fixture.id) == {a.id: {1, 2}, b.id: {3, 6}}


async def test_the_match_result_decides_the_fixture(world):
    w = world
    a, b = await pairs(w, 2)
    fixture = (await w.make()).fixtures[0]
    for user in (1, 3, 2, 4):
        await w.play(fixture.id, user)
    await play_out(w)
    table = w.manager.tables[CHANNEL]
    await w.scheduler.tick()
    decided = await store.fixture_by_id(w.db, fixture.id)
    match = await w.db.fetchone("SELECT id, winner FROM matches WHERE table_id = ?", (table.id,))
    winner = a.id if match["winner"] == 0 else b.id  # a sat north and south
    assert decided.state == "played" and decided.winner_pair == winner
    assert decided.match_id == match["id"]
    won = (decided.first_games, decided.second_games)
    assert won == ((1, 0) if winner == decided.first_pair else (0, 1))
    assert w.news.decisions[-1].how == "played"


async def set_leaver_rule(w: World, rule: str) -> None:
    async with w.db.transaction():
        await league_seasons.change_settings(w.db, w.league, leaver=rule)


async def test_a_leavers_forfeit_decides_the_fixture_whatever_the_board_said(world):
    """A player leaves the fixture's table mid-match and a computer finishes for him: the
    league counts a forfeit by his side (its rule), and so does the fixture, even when the
    computer then won it."""
    w = world
    a, b = await pairs(w, 2)
    await set_leaver_rule(w, "forfeit")
    fixture = (await w.make()).fixtures[0]
    for user in (1, 3, 2, 4):
        await w.play(fixture.id, user)
    await w.manager.leave(CHANNEL, 4)  # b's player, east-west
    await play_out(w)
    await w.scheduler.tick()
    decided = await store.fixture_by_id(w.db, fixture.id)
    assert (decided.state, decided.winner_pair) == ("forfeit", a.id)
    assert (decided.first_games, decided.second_games) == (1, 0)


async def test_a_match_that_does_not_count_leaves_its_fixture_to_be_played_again(world):
    """No contest by the league's rule (a player left): the fixture is not decided by it; the
    table closes, the window stays, the pairs still count as having shown, and a new table
    plays it."""
    w = world
    a, b = await pairs(w, 2)
    fixture = (await w.make()).fixtures[0]
    for user in (1, 3, 2, 4):
        await w.play(fixture.id, user)
    await w.manager.leave(CHANNEL, 4)
    await play_out(w)
    first_match = w.manager.tables[CHANNEL].match_id
    await w.scheduler.tick()
    again = await store.fixture_by_id(w.db, fixture.id)
    assert again.state == "open" and again.table_id is None and again.winner_pair is None
    assert again.closes_at == fixture.closes_at
    told = w.news.decisions[-1]
    assert told.how == "not_counted" and told.match_id == first_match
    assert "left or timed out" in told.why
    assert CHANNEL not in w.manager.tables  # its table closed, saying why
    assert told.closed.note == (
        f"F{fixture.id}'s match does not count: it is played again at a new table"
    )
    assert await store.seated(w.db, fixture.id) == {a.id: {1, 2}, b.id: {3, 4}}
    for user in (1, 3, 2, 4):
        await w.play(fixture.id, user)
    await play_out(w)
    await w.scheduler.tick()
    assert (await store.fixture_by_id(w.db, fixture.id)).state == "played"


async def test_a_withdrawn_pairs_fixtures_are_forfeited_at_once_and_it_goes_no_further(world):
    w = world
    a, b, c, d = await pairs(w, 4)
    made = await w.make("single_elimination")
    first = next(f for f in made.fixtures if a.id in f.pairs)
    async with w.db.transaction():
        await store.withdraw_pair(w.db, w.league, 1, int(w.clock()))
    await w.scheduler.tick()
    decided = await store.fixture_by_id(w.db, first.id)
    other = first.second_pair if first.first_pair == a.id else first.first_pair
    assert (decided.state, decided.winner_pair) == ("forfeit", other)


async def played_for(w: World, fixture: store.Fixture, users=(1, 3, 2, 4)) -> int:
    """The fixture played through at its table (the users sit down in that order): its match."""
    for user in users:
        await w.play(fixture.id, user)
    table = w.manager.tables[CHANNEL]
    await play_out(w)
    await w.scheduler.tick()
    match_id = table.match_id
    if CHANNEL in w.manager.tables:
        await w.manager.close_table(CHANNEL, table.host_id)
    return match_id


async def correct(w: World, match_id: int, action: str, side: int | None = None):
    async with w.db.transaction():
        return await league_results.correct(
            w.db, w.league, match_id, action, "why", 1, side=side, fixture_now=int(w.clock())
        )


async def test_a_correction_of_a_fixtures_match_takes_the_fixture_along(world):
    w = world
    a, b, c, d = await pairs(w, 4)
    fixture = next(f for f in (await w.make()).fixtures if f.round == 1 and a.id in f.pairs)
    other = next(p for p in (b, c, d) if p.id in fixture.pairs)
    match_id = await played_for(w, fixture, (1, other.first[0], 2, other.second[0]))
    decided = await store.fixture_by_id(w.db, fixture.id)
    loser = other.id if decided.winner_pair == a.id else a.id
    loser_side = 0 if loser == a.id else 1  # a sat north and south
    # Awarded to the side that lost: the fixture follows.
    corrected = await correct(w, match_id, "award", side=loser_side)
    assert corrected.fixture == f"F{fixture.id} follows: awarded"
    awarded = await store.fixture_by_id(w.db, fixture.id)
    assert (awarded.state, awarded.winner_pair) == ("forfeit", loser)
    # To be replayed: the fixture is open again, with a window of its own from now, and the
    # pairs sit down again.
    w.clock.now += DAY
    corrected = await correct(w, match_id, "replay")
    reopened = await store.fixture_by_id(w.db, fixture.id)
    assert reopened.state == "open" and reopened.winner_pair is None
    assert reopened.closes_at == int(w.clock()) + 3 * DAY
    assert (
        f"F{fixture.id} is to be played again, by <t:{reopened.closes_at}:f>" == corrected.fixture
    )
    assert await store.seated(w.db, fixture.id) == {}
    second = await played_for(w, reopened, (1, other.first[0], 2, other.second[0]))
    assert (await store.fixture_by_id(w.db, fixture.id)).match_id == second
    # The first match cannot come back now: the fixture has been played again.
    with pytest.raises(LeagueError, match="has been played again since"):
        await correct(w, match_id, "unvoid")


async def test_a_bracket_gone_on_from_a_fixture_keeps_its_result(world):
    w = world
    a, b, c, d = await pairs(w, 4)
    semis = (await w.make("single_elimination")).fixtures
    matches = []
    for semi in semis:
        first, second = (p for p in (a, b, c, d) if p.id in semi.pairs)
        users = (first.first[0], second.first[0], first.second[0], second.second[0])
        matches.append(await played_for(w, semi, users))
    await w.scheduler.tick()
    final = next(f for f in await w.fixtures() if f.slot == "W2.1")
    won = await store.fixture_by_id(w.db, semis[0].id)
    other = [p for p in semis[0].pairs if p != won.winner_pair][0]
    side_of_other = 0 if (await store.fixture_by_id(w.db, semis[0].id)).north_south == other else 1
    with pytest.raises(LeagueError, match=f"the bracket has gone on from it \\(F{final.id}\\)"):
        await correct(w, matches[0], "award", side=side_of_other)
    assert (await store.fixture_by_id(w.db, semis[0].id)).winner_pair == won.winner_pair


async def test_a_finished_match_wakes_the_scheduler(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make()).fixtures[0]
    w.scheduler.start()
    for user in (1, 3, 2, 4):
        await w.play(fixture.id, user)
    await play_out(w)
    for _ in range(2000):
        if (await store.fixture_by_id(w.db, fixture.id)).state == "played":
            break
        await asyncio.sleep(0.01)
    assert (await store.fixture_by_id(w.db, fixture.id)).state == "played"


async def test_playing_a_fixture_one_is_not_in_is_refused(world):
    w = world
    await pairs(w, 3)
    fixture = next(f for f in (await w.make()).fixtures if f.second_pair is not None)
    outsider = next(u for u in range(1, 7) if u not in _players(w, fixture))
    with pytest.raises(FixtureError, match=f"you do not play in F{fixture.id}"):
        await w.play(fixture.id, outsider)
    assert CHANNEL not in w.manager.tables


def _players(w: World, fixture) -> set[int]:
    return {2 * p - 1 for p in fixture.pairs} | {2 * p for p in fixture.pairs}


async def test_playing_a_fixture_after_its_window_is_refused(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(days=1)).fixtures[0]
    w.clock.now = fixture.closes_at
    with pytest.raises(FixtureError, match="window ended"):
        await w.play(fixture.id, 1)
    assert CHANNEL not in w.manager.tables


async def test_playing_a_fixture_before_its_window_opens_is_refused(world):
    w = world
    await pairs(w, 4)
    later = [f for f in (await w.make()).fixtures if f.round == 2][0]
    with pytest.raises(FixtureError, match="has not opened"):
        await w.play(later.id, 2 * later.first_pair)
    assert CHANNEL not in w.manager.tables


async def test_an_unknown_fixture_is_refused(world):
    w = world
    await pairs(w, 2)
    await w.make()
    with pytest.raises(FixtureError, match="no fixture F999"):
        await w.play(999, 1)
    # Another server's fixture is unknown here too.
    with pytest.raises(FixtureError, match="no fixture F1 "):
        await w.scheduler.play(1, GUILD + 1, CHANNEL, 1, "m1")


async def test_a_fixture_is_played_at_its_own_tables_channel(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make()).fixtures[0]
    await w.play(fixture.id, 1)
    with pytest.raises(FixtureError, match=f"played at its table in <#{CHANNEL}>"):
        await w.play(fixture.id, 3, channel=CHANNEL + 1)


# -- reminders ------------------------------------------------------------------------------


async def test_reminders_a_day_and_an_hour_before_the_end_each_sent_once_across_restarts(
    world, tmp_path
):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(days=3)).fixtures[0]
    w.clock.now = fixture.closes_at - DAY - 1
    await w.scheduler.tick()
    assert w.news.reminders == []
    w.clock.now = fixture.closes_at - DAY + 1
    await w.scheduler.tick()
    await w.scheduler.tick()
    assert [r.hours for r in w.news.reminders] == [24]
    w.clock.now = fixture.closes_at - HOUR + 1
    await w.scheduler.tick()
    await w.scheduler.tick()
    assert [r.hours for r in w.news.reminders] == [24, 1]
    assert set(w.news.reminders[0].pairs) == set(fixture.pairs)
    # A new scheduler on the same file (a restart) sends neither again.
    again = News()
    restarted = FixtureScheduler(w.manager, clock=w.clock, listener=again)
    await restarted.tick()
    assert again.reminders == []


async def test_when_both_reminders_fell_due_while_down_only_the_hours_is_sent(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(days=3)).fixtures[0]
    w.clock.now = fixture.closes_at - 30 * 60
    await w.scheduler.tick()
    await w.scheduler.tick()
    assert [r.hours for r in w.news.reminders] == [1]


# -- deadlines ------------------------------------------------------------------------------


async def test_forfeit_the_pair_that_did_not_sit_loses_and_the_table_closes(world):
    w = world
    a, b = await pairs(w, 2)
    fixture = (await w.make(deadline="forfeit")).fixtures[0]
    await w.play(fixture.id, 3)
    await w.play(fixture.id, 4)
    await w.play(fixture.id, 1)  # a has one player: it did not show
    w.clock.now = fixture.closes_at
    await w.scheduler.tick()
    decided = await store.fixture_by_id(w.db, fixture.id)
    assert (decided.state, decided.winner_pair) == ("forfeit", b.id)
    assert CHANNEL not in w.manager.tables  # its table closed
    assert w.news.decisions[-1].closed is not None


async def test_forfeit_when_neither_pair_sat_is_a_double_forfeit(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(deadline="forfeit")).fixtures[0]
    w.clock.now = fixture.closes_at + 5
    await w.scheduler.tick()
    decided = await store.fixture_by_id(w.db, fixture.id)
    assert (decided.state, decided.winner_pair) == ("double_forfeit", None)


async def test_double_forfeit_rule_forfeits_both_even_when_one_sat(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(deadline="double_forfeit")).fixtures[0]
    await w.play(fixture.id, 1)
    await w.play(fixture.id, 2)
    w.clock.now = fixture.closes_at
    await w.scheduler.tick()
    assert (await store.fixture_by_id(w.db, fixture.id)).state == "double_forfeit"


async def test_extend_moves_the_end_by_the_window_once_then_forfeits(world):
    w = world
    a, b = await pairs(w, 2)
    fixture = (await w.make(days=2, deadline="extend")).fixtures[0]
    w.clock.now = fixture.closes_at
    await w.scheduler.tick()
    extended = await store.fixture_by_id(w.db, fixture.id)
    assert extended.state == "open" and extended.extended
    assert extended.closes_at == fixture.closes_at + 2 * DAY
    assert w.news.decisions[-1].how == "extended"
    await w.play(fixture.id, 1)  # the window is open again
    await w.play(fixture.id, 2)
    w.clock.now = extended.closes_at
    await w.scheduler.tick()
    decided = await store.fixture_by_id(w.db, fixture.id)
    assert (decided.state, decided.winner_pair) == ("forfeit", a.id)


async def test_an_extended_window_is_reminded_again_before_its_new_end(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(days=3, deadline="extend")).fixtures[0]
    for moment in (fixture.closes_at - DAY + 1, fixture.closes_at - HOUR + 1, fixture.closes_at):
        w.clock.now = moment
        await w.scheduler.tick()
        await w.scheduler.tick()
    assert [r.hours for r in w.news.reminders] == [24, 1]
    extended = await store.fixture_by_id(w.db, fixture.id)
    assert extended.extended and not (extended.reminded_day or extended.reminded_hour)
    for moment in (extended.closes_at - DAY + 1, extended.closes_at - HOUR + 1):
        w.clock.now = moment
        await w.scheduler.tick()
        await w.scheduler.tick()
    assert [r.hours for r in w.news.reminders] == [24, 1, 24, 1]


async def test_a_match_in_play_at_the_deadline_is_not_forfeited(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(days=1)).fixtures[0]
    for user in (1, 3, 2, 4):
        await w.play(fixture.id, user)
    w.clock.now = fixture.closes_at + HOUR
    await w.scheduler.tick()
    assert (await store.fixture_by_id(w.db, fixture.id)).state == "open"
    assert await w.scheduler.next_due() is None  # nothing ahead: the match's end wakes it
    await play_out(w)
    await w.scheduler.tick()
    assert (await store.fixture_by_id(w.db, fixture.id)).state == "played"


async def test_a_deadline_that_passed_while_the_bot_was_down_is_applied_at_start(tmp_path):
    clock = Clock(START)
    db, manager = await open_manager(tmp_path / "euchre.db", clock=clock)
    w = World(db, manager, clock, News())
    try:
        a, b = await pairs(w, 2)
        fixture = (await w.make(deadline="forfeit")).fixtures[0]
        await w.play(fixture.id, 3)
        await w.play(fixture.id, 4)
    finally:
        await shut(db, manager)
    clock.now = fixture.closes_at + DAY  # the bot was down past the deadline
    db, manager = await open_manager(tmp_path / "euchre.db", clock=clock)
    await manager.restore()
    news = News()
    scheduler = FixtureScheduler(manager, clock=clock, listener=news)
    try:
        scheduler.start()
        for _ in range(2000):
            if news.decisions:
                break
            await asyncio.sleep(0.01)
        decided = await store.fixture_by_id(db, fixture.id)
        assert (decided.state, decided.winner_pair) == ("forfeit", b.id)
        assert news.reminders == []  # past the end: no reminder comes late
    finally:
        await scheduler.stop()
        await shut(db, manager)


async def test_a_fixture_tables_kept_seats_survive_a_restart(tmp_path):
    clock = Clock(START)
    db, manager = await open_manager(tmp_path / "euchre.db", clock=clock)
    w = World(db, manager, clock, News())
    try:
        await pairs(w, 2)
        fixture = (await w.make()).fixtures[0]
        await w.play(fixture.id, 1)
    finally:
        await shut(db, manager)
    db, manager = await open_manager(tmp_path / "euchre.db", clock=clock)
    try:
        await manager.restore()
        table = manager.tables[CHANNEL]
        assert table.reserved == {0: (1, 2), 2: (1, 2), 1: (3, 4), 3: (3, 4)}
        async with db.transaction():
            await leagues.join_league(db, w.league, 99, "stranger")
        with pytest.raises(TableError, match="kept for the players"):
            await manager.join(CHANNEL, 99, "stranger")
        with pytest.raises(TableError, match="kept for another player"):
            await manager.join(CHANNEL, 3, "m3", 2)
        with pytest.raises(TableError, match="kept for the players"):
            await manager.add_bot(CHANNEL, 1, None, None)
        # Seated by /table join and started by /table start: still no cut for partners.
        for user in (3, 2, 4):
            await manager.join(CHANNEL, user, f"m{user}")
        await manager.start(CHANNEL, 1, keep_seats=False)
        assert [o.user_id for o in table.seats] == [1, 3, 2, 4] and table.playing
    finally:
        await shut(db, manager)


async def test_a_window_of_one_day_gets_only_the_hours_reminder(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make(days=1)).fixtures[0]
    await w.scheduler.tick()
    assert w.news.reminders == []  # a day's reminder would come as the window opens
    assert await w.scheduler.next_due() == fixture.closes_at - HOUR
    w.clock.now = fixture.closes_at - HOUR
    await w.scheduler.tick()
    assert [r.hours for r in w.news.reminders] == [1]


async def test_a_forfeits_table_closes_saying_the_window_ended(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make()).fixtures[0]
    await w.play(fixture.id, 1)
    w.clock.now = fixture.closes_at
    await w.scheduler.tick()
    closed = w.news.decisions[-1].closed
    assert closed.kind == "closed" and closed.note == f"F{fixture.id}'s window ended"


async def test_a_withdrawn_pairs_open_table_closes_saying_a_pair_withdrew(world):
    w = world
    await pairs(w, 2)
    fixture = (await w.make()).fixtures[0]
    await w.play(fixture.id, 1)
    async with w.db.transaction():
        await store.withdraw_pair(w.db, w.league, 1, int(w.clock()))
    await w.scheduler.tick()
    closed = w.news.decisions[-1].closed
    assert closed.kind == "closed" and closed.note == f"a pair of F{fixture.id} withdrew"


async def test_swiss_pairs_no_withdrawn_pair_in_its_next_round(world):
    w = world
    made = await pairs(w, 4)
    first = (await w.make("swiss")).fixtures
    for f in first:
        await w.decide(f, f.first_pair)
    async with w.db.transaction():
        await store.withdraw_pair(w.db, w.league, 1, int(w.clock.now))  # pair 1 withdraws
    await w.scheduler.tick()
    second = [f for f in await w.fixtures() if f.round == 2]
    assert all(made[0].id not in f.pairs for f in second if f.second_pair is not None)
    assert [f.first_pair for f in second if f.second_pair is None]  # three left: a bye
