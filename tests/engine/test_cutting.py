"""Cutting for the table, for partners and deal, and for going out (S.8-S.15, J.3, J.4).

The cuts are seeded, so each test looks through seeds for the cut it is about (a tie in the
middle, three alike...) and checks what the engine made of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.engine.cards import cut_value
from bot.engine.cutting import Cut, TableCut, cut_for_partners, cut_for_table, who_goes_out

PLAYERS = ("ann", "bob", "cat", "dan")


def values(cut: Cut) -> dict[object, int]:
    return {player: cut_value(card) for player, card in cut.cards}


def ranked(cut: Cut) -> list[int]:
    return sorted(values(cut).values(), reverse=True)


def find_partners_cut(want: Callable[[TableCut], bool], tries: int = 3000) -> TableCut:
    for seed in range(tries):
        table = cut_for_partners(PLAYERS, random.Random(seed))
        if want(table):
            return table
    raise AssertionError("no seed gives the cut this test needs")


def test_cuts_are_seeded_and_show_every_round():
    for seed in range(50):
        table = cut_for_partners(PLAYERS, random.Random(seed))
        assert table == cut_for_partners(PLAYERS, random.Random(seed))
        assert sorted(table.seats) == sorted(PLAYERS) and table.dealer == 0
        assert [p for p, _ in table.cuts[0].cards] == list(PLAYERS)
        for cut in table.cuts:
            cards = [c for _, c in cut.cards]
            assert len(set(cards)) == len(cards)  # every one cuts from the same pack (S.9)


def test_s11_cut_two_highest_against_two_lowest():
    for seed in range(200):
        table = cut_for_partners(PLAYERS, random.Random(seed))
        first = values(table.cuts[0])
        high, left, partner, right = (first[p] for p in table.seats)
        # The two highest (seats 0 and 2) against the two lowest; the highest deals (S.11).
        assert min(high, partner) >= max(left, right)
        assert high == max(first.values())
        if len(set(first.values())) == 4:
            assert len(table.cuts) == 1
            assert high > partner > max(left, right)


def test_s13_two_equal_in_the_middle_cut_again():
    def wanted(table: TableCut) -> bool:
        v = ranked(table.cuts[0])
        return v[0] > v[1] == v[2] > v[3] and len(table.cuts) == 2

    table = find_partners_cut(wanted)
    first = values(table.cuts[0])
    tied = {p for p, v in first.items() if v == ranked(table.cuts[0])[1]}
    recut = values(table.cuts[1])
    assert set(recut) == tied
    # J.4: the higher in the new cut plays with him who cut highest.
    assert table.seats[2] == max(recut, key=recut.get)
    assert table.seats[0] == max(first, key=first.get)


def test_s13_two_lowest_equal_stand():
    def wanted(table: TableCut) -> bool:
        v = ranked(table.cuts[0])
        return v[0] > v[1] > v[2] == v[3]

    table = find_partners_cut(wanted)
    assert len(table.cuts) == 1
    first = values(table.cuts[0])
    assert first[table.seats[1]] == first[table.seats[3]]


def test_s13_two_highest_equal_are_partners_and_cut_only_for_the_deal():
    def wanted(table: TableCut) -> bool:
        v = ranked(table.cuts[0])
        return v[0] == v[1] > v[2] > v[3]

    table = find_partners_cut(wanted)
    first = values(table.cuts[0])
    top = ranked(table.cuts[0])[0]
    tied = {p for p, v in first.items() if v == top}
    # The partnership stands; the deal is cut again between the two (S.11: the highest deals).
    assert {table.seats[0], table.seats[2]} == tied
    last = values(table.cuts[-1])
    assert set(last) == tied and table.seats[0] == max(last, key=last.get)


def test_s14_three_equal_fourth_highest():
    def wanted(table: TableCut) -> bool:
        v = ranked(table.cuts[0])
        return (
            v[0] > v[1] == v[2] == v[3]
            and len(table.cuts) == 2
            and len(set(ranked(table.cuts[1]))) == 3
        )

    table = find_partners_cut(wanted)
    first, recut = values(table.cuts[0]), values(table.cuts[1])
    fourth = max(first, key=first.get)
    assert set(recut) == set(PLAYERS) - {fourth}
    order = sorted(recut, key=recut.get, reverse=True)
    # The two lowest of the new cut are partners; their opponents (the fourth) have the deal.
    assert table.seats[0] == fourth
    assert {table.seats[1], table.seats[3]} == set(order[1:])
    assert table.seats[2] == order[0]


def test_s14_three_equal_fourth_lowest():
    def wanted(table: TableCut) -> bool:
        v = ranked(table.cuts[0])
        return (
            v[0] == v[1] == v[2] > v[3]
            and len(table.cuts) == 2
            and len(set(ranked(table.cuts[1]))) == 3
        )

    table = find_partners_cut(wanted)
    first, recut = values(table.cuts[0]), values(table.cuts[1])
    fourth = min(first, key=first.get)
    order = sorted(recut, key=recut.get, reverse=True)
    # The two highest of the new cut are partners and have the deal.
    assert (table.seats[0], table.seats[2]) == (order[0], order[1])
    assert {table.seats[1], table.seats[3]} == {order[2], fourth}


def test_cutting_for_partners_needs_four():
    with pytest.raises(ValueError):
        cut_for_partners(PLAYERS[:3], random.Random(0))


# -- choosing the four who play (S.11, S.12) --------------------------------------------------


def test_s11_four_highest_play_first():
    candidates = ("ann", "bob", "cat", "dan", "eve", "fay")
    recuts = 0
    for seed in range(300):
        play, wait, cuts = cut_for_table(candidates, random.Random(seed))
        assert sorted(play + wait) == sorted(candidates) and len(play) == 4
        first = values(cuts[0])
        assert min(first[p] for p in play) >= max(first[p] for p in wait)
        if min(first[p] for p in play) == max(first[p] for p in wait):
            # A tie across the line is cut again among the tied players only.
            recuts += 1
            line = min(first[p] for p in play)
            assert set(values(cuts[1])) == {p for p, v in first.items() if v == line}
    assert recuts > 0


def test_four_or_fewer_candidates_all_play_without_cutting():
    assert cut_for_table(PLAYERS, random.Random(0)) == (list(PLAYERS), [], [])


# -- going out (S.15) -------------------------------------------------------------------------


def test_s15_most_consecutive_rubbers_go_out():
    out, cuts = who_goes_out({"ann": 2, "bob": 2, "cat": 1, "dan": 1}, 2, random.Random(0))
    assert sorted(out) == ["ann", "bob"] and cuts == []
    out, cuts = who_goes_out({"ann": 1, "bob": 3, "cat": 1, "dan": 1}, 1, random.Random(0))
    assert out == ["bob"] and cuts == []


def test_s15_equal_rubbers_lowest_cut_goes_out():
    for seed in range(100):
        out, cuts = who_goes_out({"ann": 2, "bob": 2, "cat": 2, "dan": 2}, 1, random.Random(seed))
        assert len(out) == 1 and cuts
        first = values(cuts[0])
        assert first[out[0]] == min(first.values())
        if list(first.values()).count(min(first.values())) == 1:
            assert len(cuts) == 1
        else:  # the lowest tied: they cut again among themselves
            assert set(values(cuts[1])) == {p for p, v in first.items() if v == min(first.values())}


def test_s15_one_more_rubbers_then_cut_among_the_equals():
    for seed in range(50):
        out, cuts = who_goes_out({"ann": 3, "bob": 2, "cat": 2, "dan": 1}, 2, random.Random(seed))
        assert out[0] == "ann" and out[1] in ("bob", "cat")
        first = values(cuts[0])
        assert set(first) == {"bob", "cat"}
        if first["bob"] != first["cat"]:
            assert out[1] == min(first, key=first.get)


def test_s15_nobody_waiting_nobody_goes_out():
    assert who_goes_out({"ann": 1, "bob": 1, "cat": 1, "dan": 1}, 0, random.Random(0)) == ([], [])


def test_s12_fifth_and_sixth_highest_belong_to_the_table_in_order():
    """With more than six candidates the fifth and sixth highest belong to the table (S.12):
    a tie across that line, or between the fifth and sixth, is cut again."""
    candidates = tuple(f"p{i}" for i in range(8))
    recuts = 0
    for seed in range(300):
        play, wait, cuts = cut_for_table(candidates, random.Random(seed))
        first = values(cuts[0])
        order = play + wait
        assert [first[p] for p in order] == sorted(first.values(), reverse=True)
        # Whenever two tie across the fourth, fifth or sixth place, a later cut parts them.
        for line in (4, 5, 6):
            above, below = order[line - 1], order[line]
            if first[above] == first[below]:
                recuts += 1
                later = [values(c) for c in cuts[1:] if above in values(c) and below in values(c)]
                assert later, f"seed {seed}: a tie at place {line} was not cut again"
    assert recuts > 0


@pytest.mark.parametrize(("lowest", "ranks"), [("9", set("9TJQKA")), ("7", set("789TJQKA"))])
def test_s9_every_one_cuts_from_the_tables_pack(lowest: str, ranks: set[str]):
    """S.9: every one cuts from the same pack, the table's own: a 24-card table's cuts show no
    8 or 7, a 32-card table's show them all in time. Going out (S.15) cuts from it too."""
    cut_ranks: set[str] = set()
    six = (*PLAYERS, "eve", "fay")
    for seed in range(200):
        rng = random.Random(seed)
        rounds = list(cut_for_partners(PLAYERS, rng, lowest).cuts)
        rounds += cut_for_table(six, rng, lowest)[2]
        rounds += who_goes_out(dict.fromkeys(PLAYERS, 1), 2, rng, lowest)[1]
        cut_ranks |= {card[:-1].replace("10", "T") for cut in rounds for _, card in cut.cards}
    assert cut_ranks == ranks
