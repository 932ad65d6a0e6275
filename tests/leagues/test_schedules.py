"""Progressive schedules: whist designs, balanced rounds for other numbers, winners move up."""

from __future__ import annotations

import random
import shutil
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.leagues.groups import Group
from bot.leagues.progressive import (
    first_meetings_first,
    is_whist,
    most_meetings,
    schedule,
    winners_move_up,
)
from bot.leagues.rounds import (
    Round,
    opponent_counts,
    opposing_pairs,
    partner_counts,
    repeated_partnerships,
)
from bot.leagues.whist import design, develop, prime_starter, shipped_design, shipped_sizes
from bot.leagues.whist_search import anneal_c, search_starter, search_symmetric, solve_starter

ALL_SIZES = range(4, 41)


def _seat_counts(players: int, rounds: tuple[Round, ...]) -> None:
    """Every round seats each player once: at a table or sitting out."""
    for rnd in rounds:
        everyone = [*rnd.players(), *rnd.byes]
        assert sorted(everyone) == list(range(players))
        assert len(rnd.tables) == players // 4
        assert len(rnd.byes) == players % 4


WHIST_SIZES = [n for n in range(4, 201) if n % 4 in (0, 1)]
# Every size has a design: from a group, `whist_rotational`, `whist_blocks` (132 = 4 x 33 with
# the byes of the groups' designs at one table) or `field_orbits`.
MISSING: set[int] = set()


def test_shipped_designs_are_whist_tournaments():
    assert {4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 32, 33, 40, 49} <= set(shipped_sizes())
    assert {44, 48, 52, 57, 60, 68, 69, 72} <= set(shipped_sizes())  # found by the C searches
    assert 77 in shipped_sizes()  # over Z_77, a round that x -> -x maps onto itself (CP-SAT)
    for players in shipped_sizes():
        rounds = shipped_design(players)
        assert rounds is not None and is_whist(players, rounds), players


def test_every_design_from_4_to_200_players_is_a_whist_tournament():
    """Shipped, by the prime or field construction, a product, of the rotational kind, or on the
    blocks of a transversal design: each gives rounds in which every two players partner once
    and oppose twice; the missing sizes are known."""
    have = [n for n in WHIST_SIZES if design(n) is not None]
    assert set(WHIST_SIZES) - set(have) == MISSING
    for players in have:
        rounds = design(players)
        assert rounds is not None
        assert len(rounds) == (players - 1 if players % 4 == 0 else players)
        assert is_whist(players, rounds), players


@pytest.mark.parametrize("prime", [5, 13, 17, 29, 37, 41, 53, 61, 101, 197])
def test_prime_construction_is_a_whist_tournament(prime):
    rounds = develop(prime, Group((prime,)), prime_starter(prime))
    assert len(rounds) == prime
    assert is_whist(prime, rounds)
    assert Counter(b for r in rounds for b in r.byes) == Counter(range(prime))


def test_prime_construction_refuses_other_numbers():
    for bad in (4, 7, 9, 21, 23):
        with pytest.raises(ValueError, match="not a prime of the form 4m"):
            prime_starter(bad)


def test_whist_search_finds_a_design_and_checks_it():
    starter = search_starter(8, Group((7,)), seed=3)
    assert starter is not None
    assert is_whist(8, develop(8, Group((7,)), starter))
    # 9 players: the design is over Z_3 x Z_3 (there is no cyclic one).
    starter = search_starter(9, Group((3, 3)), seed=0)
    assert starter is not None and is_whist(9, develop(9, Group((3, 3)), starter))


def test_exact_solver_finds_designs_and_proves_there_is_no_cyclic_one_for_9():
    pytest.importorskip("ortools")
    for players, factors in ((12, (11,)), (13, (13,)), (9, (3, 3))):
        rows = solve_starter(players, Group(factors), seconds=60)
        assert rows is not None and is_whist(players, develop(players, Group(factors), rows))
    assert solve_starter(9, Group((9,)), seconds=60) is None


def test_exact_solver_with_a_multiplier_finds_a_round_it_maps_onto_itself():
    """40 players over Z_39, invariant under x -> 16x (1 modulo 3, of order 3 modulo 13)."""
    pytest.importorskip("ortools")
    group = Group((39,))
    rows = solve_starter(40, group, seconds=60, multiplier=16)
    assert rows is not None and is_whist(40, develop(40, group, rows))
    tables = {frozenset((frozenset(t[:2]), frozenset(t[2:]))) for t in rows}
    times = {39: 39} | {x: 16 * x % 39 for x in range(39)}
    assert {frozenset(frozenset(times[x] for x in side) for side in t) for t in tables} == tables
    with pytest.raises(ValueError, match="not an automorphism"):
        solve_starter(40, group, seconds=1, multiplier=3)


def test_annealing_in_c_finds_designs_with_and_without_a_multiplier():
    """8 players over Z_7; 76 over Z_75 invariant under x -> 16x (1 modulo 3, of order 5
    modulo 25), whose fixed points, the multiples of 5, hold a design for 16 players."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler")
    found = anneal_c(8, Group((7,)), seconds=20)
    assert found is not None and is_whist(8, develop(8, Group((7,)), found[0]))
    group = Group((75,))
    found = anneal_c(76, group, multiplier=16, seconds=20)
    assert found is not None and is_whist(76, develop(76, group, found[0]))
    rows = found[0]
    fixed = [t for t in rows if all(x == 75 or x % 5 == 0 for x in t)]
    assert len(fixed) == 4  # the design for 16 on the multiples of 5 and the fixed player
    tables = {frozenset((frozenset(t[:2]), frozenset(t[2:]))) for t in rows}
    times = {75: 75} | {x: 16 * x % 75 for x in range(75)}
    assert {frozenset(frozenset(times[x] for x in side) for side in t) for t in tables} == tables
    with pytest.raises(ValueError, match="not an automorphism"):
        anneal_c(76, group, multiplier=5, seconds=1)


def test_symmetric_search_finds_a_design_for_a_prime_square():
    starter = search_symmetric(25, seed=0)
    assert starter is not None
    assert all(a + b == 25 and c + d == 25 for a, b, c, d in starter)
    assert is_whist(25, develop(25, Group((25,)), starter))
    with pytest.raises(ValueError, match="4m"):
        search_symmetric(26)


def test_symmetric_search_with_the_fixed_player_finds_a_design_for_28():
    """For 4m players the fixed player partners 0 against one pair (b, -b) of Z_(4m-1)."""
    starter = search_symmetric(28, seed=0)
    assert starter is not None
    fixed, *others = starter
    assert fixed[:2] == [27, 0] and fixed[2] + fixed[3] == 27
    assert all(a + b == 27 and c + d == 27 for a, b, c, d in others)
    assert is_whist(28, develop(28, Group((27,)), starter))


def test_a_whist_check_sees_a_broken_design():
    rounds = list(shipped_design(8) or [])
    (a, b), (c, d) = rounds[0].tables[0]
    rounds[0] = Round((((a, c), (b, d)), *rounds[0].tables[1:]))
    assert not is_whist(8, rounds)


@pytest.mark.parametrize("players", [n for n in range(4, 18) if n % 4 in (0, 1)])
def test_perfect_schedules_up_to_17_players(players):
    plan = schedule(players)
    assert plan.perfect and plan.repeated_partnerships == 0
    assert len(plan.rounds) == (players - 1 if players % 4 == 0 else players)
    if players % 4 == 1:  # each player sits out once
        assert Counter(b for r in plan.rounds for b in r.byes) == Counter(range(players))


@pytest.mark.parametrize("players", ALL_SIZES)
def test_every_schedule_partner_and_opponent_counts(players):
    plan = schedule(players)
    _seat_counts(players, plan.rounds)
    partners, opponents = partner_counts(plan.rounds), opponent_counts(plan.rounds)
    assert plan.repeated_partnerships == repeated_partnerships(plan.rounds) == 0
    assert max(partners.values()) == 1
    if plan.perfect:
        assert all(opponents[(x, y)] == 2 for x in range(players) for y in range(x + 1, players))
    else:
        # Not a whist design: the opponents are as even as the table-by-table seating gets,
        # and never meet more often than the README says.
        assert max(opponents.values()) <= most_meetings(players)
    byes = Counter({p: 0 for p in range(players)})
    byes.update(b for r in plan.rounds for b in r.byes)
    assert max(byes.values()) - min(byes.values()) <= 1
    # Every table's meetings are counted: four pairs of opponents per table.
    assert sum(opponents.values()) == 4 * sum(len(r.tables) for r in plan.rounds)


def test_a_balanced_schedule_of_142_keeps_to_three_meetings():
    """142's first eight seatings all had two players meet four times: more are tried."""
    opponents = opponent_counts(schedule(142).rounds)
    assert max(opponents.values()) == most_meetings(142) == 3


def test_schedules_for_four_m_plus_three_give_everyone_three_byes():
    for players in (7, 11, 19, 39, 63):
        plan = schedule(players)
        assert Counter(b for r in plan.rounds for b in r.byes) == Counter(
            {p: 3 for p in range(players)}
        )


def test_schedule_refuses_too_few_or_too_many_players():
    for bad in (0, 3, 201):
        with pytest.raises(ValueError, match="4 to 200 players"):
            schedule(bad)


def test_schedule_for_the_largest_league_night():
    plan = schedule(200)
    assert plan.repeated_partnerships == 0
    _seat_counts(200, plan.rounds)
    # Built class by class (40 x 5), its rounds came three at a time with the same tables; in
    # the order played, no two players face each other twice in the first ten rounds.
    assert plan.perfect
    assert max(opponent_counts(plan.rounds[:10]).values()) == 1


@pytest.mark.parametrize("players", [80, 128, 140, 192])
def test_schedules_built_from_blocks_do_not_seat_a_table_again_at_once(players):
    plan = schedule(players)
    assert plan.perfect
    assert max(opponent_counts(plan.rounds[:10]).values()) == 1


def test_first_meetings_first_puts_a_repeated_table_last():
    first = Round((((0, 1), (2, 3)), ((4, 5), (6, 7))))
    same_tables = Round((((0, 2), (1, 3)), ((4, 6), (5, 7))))
    new_tables = Round((((0, 2), (4, 6)), ((1, 3), (5, 7))))
    assert first_meetings_first([first, same_tables, new_tables]) == [
        first,
        new_tables,
        same_tables,
    ]
    assert first_meetings_first([]) == []


@pytest.mark.parametrize("players", [9, 20, 33, 48, 64])
def test_first_meetings_first_keeps_every_round_and_the_design(players):
    rounds = design(players)
    assert rounds is not None
    ordered = first_meetings_first(rounds)
    assert ordered[0] == rounds[0]
    assert Counter(ordered) == Counter(rounds)
    assert is_whist(players, ordered)
    # Each next round is one with the fewest pairs meeting again: no round left would have had
    # fewer.
    for k in range(1, 6):
        met = opponent_counts(ordered[:k])
        again = sum(1 for p in opposing_pairs(ordered[k]) if met[p])
        assert all(
            again <= sum(1 for p in opposing_pairs(r) if met[p])
            for r in rounds
            if r not in ordered[:k]
        )


@pytest.mark.parametrize("players", [6, 7, 10, 11, 14, 15, 22, 23, 38, 51, 70, 99])
def test_a_night_stopped_after_any_round_has_spread_its_byes_evenly(players):
    """A night of 6 had a player sit out rounds 1 and 2 while three others never did, and one
    of 23 a player sit out rounds 1 to 3: the schedule's order keeps everyone's byes within
    one of each other after every round."""
    sat_out = Counter(dict.fromkeys(range(players), 0))
    for number, rnd in enumerate(schedule(players).rounds, start=1):
        sat_out.update(rnd.byes)
        assert max(sat_out.values()) - min(sat_out.values()) <= 1, (number, sat_out)


# --- winners move up -----------------------------------------------------------------------


def test_winners_move_up_and_partners_change():
    last = Round(((((0, 1), (2, 3))), ((4, 5), (6, 7)), ((8, 9), (10, 11))))
    nxt = winners_move_up(last, [0, 1, 0])
    # Head table: winners 0, 1 stay, the winners of table 2 (6, 7) come up.
    assert nxt.tables[0] == ((0, 6), (1, 7))
    # Table 2: its losers 4, 5 stay; table 3's winners 8, 9 come up.
    assert nxt.tables[1] == ((4, 8), (5, 9))
    # Foot table: its losers 10, 11 stay; the head table's losers 2, 3 come down.
    assert nxt.tables[2] == ((10, 2), (11, 3))
    assert nxt.byes == ()


def test_winners_move_up_with_one_table_changes_partners():
    nxt = winners_move_up(Round((((0, 1), (2, 3)),)), [1])
    assert nxt.tables == (((2, 0), (3, 1)),)


def test_winners_move_up_brings_back_all_who_sat_out():
    last = Round(((((0, 1), (2, 3))), ((4, 5), (6, 7))), byes=(8, 9, 10))
    nxt = winners_move_up(last, [0, 0])
    # 8, 9 and 10 come back in the seats of the foot table's losers (6, 7), then the head
    # table's first loser (2), who sit out: nobody sits out twice running.
    assert nxt.tables == (((0, 4), (1, 5)), ((8, 10), (9, 3)))
    assert nxt.byes == (6, 7, 2)


def test_winners_move_up_gives_the_bye_to_who_has_sat_out_least():
    last = Round(((((0, 1), (2, 3))), ((4, 5), (6, 7))), byes=(8,))
    # 6 and 7 lost at the foot; 6 sat out before, 7 never: 7 sits out now.
    nxt = winners_move_up(last, [0, 0], sat_out={8: 1, 6: 1})
    assert nxt.byes == (7,) and 8 in nxt.players()


@settings(derandomize=True, max_examples=50, deadline=None)
@given(st.integers(5, 31).filter(lambda n: n % 4), st.integers(0, 2**32 - 1))
def test_winners_move_up_spreads_the_byes_evenly(players, seed):
    """Over twenty rounds of random results nobody sits out twice running, and nobody sits
    out more than once more than anyone else."""
    rng = random.Random(seed)
    rnd = schedule(players).rounds[0]
    sat = Counter(rnd.byes)
    for _ in range(20):
        nxt = winners_move_up(rnd, [rng.randint(0, 1) for _ in rnd.tables], sat)
        assert not set(nxt.byes) & set(rnd.byes)
        sat.update(nxt.byes)
        counts = [sat.get(p, 0) for p in range(players)]
        assert max(counts) - min(counts) <= 1
        rnd = nxt


def test_winners_move_up_refuses_bad_results():
    last = Round(((((0, 1), (2, 3))), ((4, 5), (6, 7))))
    with pytest.raises(ValueError, match="2 tables need 2 results"):
        winners_move_up(last, [0])
    with pytest.raises(ValueError, match="0 or 1"):
        winners_move_up(last, [0, 2])


@settings(derandomize=True, max_examples=100, deadline=None)
@given(st.integers(4, 40), st.data())
def test_winners_move_up_keeps_everyone_seated_and_splits_partners(players, data):
    rnd = schedule(players).rounds[0]
    winners = data.draw(
        st.lists(st.integers(0, 1), min_size=len(rnd.tables), max_size=len(rnd.tables))
    )
    nxt = winners_move_up(rnd, winners)
    assert sorted([*nxt.players(), *nxt.byes]) == list(range(players))
    assert len(nxt.tables) == len(rnd.tables)
    before = partner_counts([rnd])
    if len(rnd.tables) > 1 or not rnd.byes:
        assert not set(partner_counts([nxt])) & set(before)
