"""The search that found the shipped whist tournament designs (`data/whist.json`).

A whist tournament for n players (n = 4m or 4m + 1) is a set of rounds in which every two
players are partners exactly once and opponents exactly twice. The designs here are developed
from one starting round by an abelian group G of order N (see `bot.leagues.groups`): round g
adds g to every player.

- n = 4m + 1: N = n; player 0 sits out the starting round (so player g sits out round g).
- n = 4m: N = n - 1, and a fixed player (numbered N, whom adding leaves in place) is partnered
  with 0 in the starting round.

Adding g keeps every difference between two players, so the whole design has the whist property
exactly when the starting round's partner differences (x - y and y - x, over its partnerships)
cover every non-zero element once and its opponent differences cover each twice. The cyclic
group Z_N is tried first; there is no cyclic design for 9 players, whose design is over
Z_3 x Z_3.

Only the sizes that `bot.leagues.whist.starter` cannot build (no prime or field construction,
no product of smaller designs) are searched: ``python -m bot.leagues.whist_search --only 44
--seconds 1800``, ``--only 133 --anneal-c --multiplier 11 --temperatures 6 0.45 0.97``,
``--only 52 --tabu --seed 1 --seconds 600``, or ``--only 60 --match --exact
--seconds 1500``. The default search is exact (`solve_starter`, OR-Tools CP-SAT, the optional
`search` extra: ``pip install -e '.[search]'``); each design found is stored with its group,
the solver's seed and the seconds it took. The older searches are simulated annealing over the
starting round, seeded, so that running them again finds the same designs (``--annealing``).

With `--annealing` a smaller search is tried first (`search_symmetric`): starting rounds whose
tables are (a, -a) against (b, -b) (for n = 4m, the fixed player and 0 against one such pair).
Their partner differences are +-2a and +-2b, so taking each pair {a, -a} once covers every
difference once as partners whatever the tables; and the opponent differences of such a table
are +-(a - b) and +-(a + b), twice each. So only the pairing of the pairs {a, -a} into tables
is searched: the pairs of (a - b, a + b) (and the pair opposing the fixed player) must take
each {d, -d} once.

With `--anneal-c` the annealing runs in C (`whist_anneal.c`, some 3 million moves a second;
`anneal_c`), with a multiplier h of order e (`--multiplier`) that the round is invariant under
but for the tables of h's fixed points and shorter orbits (and `--orbits` orbits of e): its
other tables come in orbits of e, one "base" table of each searched. (`--squared` counts the
cost as squares: it found 44 over Z_43 with no multiplier, seed 2, in 81 s, where the absolute
cost found none in four runs of 300 s; and 40 over Z_39 within 30 s for three seeds in five.) It found 76 over Z_75 (h = 16, fixing the
multiples of 5: 0.4 s), 133 over Z_133 (h = 11, of order 3 modulo 7 and 19, so fixing only 0:
56 s, temperatures 6 0.45 0.97, scaled by e as each base move changes the cost by e times as
much), 196 over Z_195 (h = 16, fixing the multiples of 13: seed 2, 78 s) and 28 over
Z_3 x Z_3 x Z_3 for the product 5 * 27 + 1 = 136. It found none in 45-90 s for 57 (h = 4, of
order 9, two orbits beside 19 and 38; h = 26, of order 6, two orbits beside the shorter ones),
77 (h = 15, 23 or 34) or for 44 with h of order 3 or 7 (for 20 and 44, no two tables of
infinity, 0 and two orbits of order 3 have invariant counts), nor for 48 or 52 with no
multiplier in 240-300 s.

With `--tabu` the search is a tabu search in C (`whist_tabu.c`, `tabu_c`) in two stages. Its
moves, swaps of two players' seats, see only which players share a table: the cost asks every
difference of two players at one table three times (the sum of squared distances). Each step
makes the best swap touching a player in a wrong difference, the two players moved then tabu
for 2-4 steps unless a swap of theirs reaches a new best, and every 100 steps each wrong
difference weighs one more (all back to 1 past 20). Each set of tables with the property is
paired by backtracking, each table one of its three ways, so that every partner difference
comes once: about one set in ten to fifty pairs for 44 and 48, and a kick (three random
swaps) leaves a set that does not. It found 44 for seeds 2 and 3 (8 and 4.5 s; seed 1 none in
15 s, 65 sets), 48 for seed 2 (9 s; seed 1 none in 30 s; with tenure 3-6 and no weights,
seeds 1 and 2 in 18 and 28 s) and 52 over Z_51 (seed 1, 400 s, 3.2 million steps); the same
tabu search over the whole round's partner and opponent counts (`--direct`) found 44 about
once in two minutes and 48 in none of six runs of 60 s, its walk staying at cost 12-20 with
rare visits to 4. It found none for 57 (seed 1, 600 s; seed 2, 840 s: 193 sets of tables,
none of which could be paired) or 60 (seed 1, 1200 s: 208 sets; seed 2, 660 s: 146 sets, and 1200 s; none
paired), nor 69 over Z_69 (seed 1, 1500 s).
Multipliers do not help for those: a round of the annealing's shape (fixed player and 0 with
two or six orbits of h, base tables) was not found in 15-40 s for 68 (h = 29), 72 (h = 5,
20) or 57 (h = 7), the annealing staying at cost 8-12, nor for 32 (h = 2, 5), which has a
design without one; and for 77 an h of order 15 fixes only 0, but its short orbits (the ten
non-zero multiples of 7 and the six of 11) would have to hold every partnership of a multiple
of 7, five of them, at tables of their own, two a table.

With `--special K` (and a multiplier) the exact solver asks for a round invariant under h but
for the tables of h's short orbits, the fixed player and K orbits of full length that it picks:
for a prime 4m - 1, where h fixes only 0, the only shape a multiplier allows. It proved there is
none for 57 with K = 2 (h = 7, of order 3: 3.3 s; h = 4, of order 9: 19 s) and 93 (h = 25, of
order 3: 35 s); a model of those tables alone (the fixed player, 0 and two orbits, with
invariant difference counts) has none for 72 with h = 45 (order 7: all nine pairs of orbits
with 1's) or 54 (order 5: five pairs), each refuted within 0.2 s. It found none in 60-150 s
for 68 (h = 64, of order 11, K = 2; h = 37, of order 3, K = 6), 72 (h = 45, K = 2) or 93
(h = 64 and 10, of orders 5 and 15, K = 2).

Without `--special` it found 77 over Z_77 with h = 76, that is x -> -x (``--only 77
--multiplier 76 --seconds 60 --seed 1``: 9.3 s): its tables are (a, -a) against (b, -b), the
symmetric shape, which over Z_77 has a design where over a prime it cannot. Before it, it
proved there is none for h = 23 (of order 3: 10.5 s) and found none in 60 s for h = 34 and 43
(of order 2). For 93 it proved there is none for every subgroup of multipliers of order 3 to 30
(h = 25, 67, 4, 5, 26, 37, 2, 23, 46, 7, 11, 13, 14: 1.6-2.6 s each) and found none for those
of order 2 (h = 32 and 61: 300 s each with seed 2 and 1,600 s each with seed 3; h = 92: 60 s). For h = -1 there is none for 93: tables swapped by x -> -x would
repeat partner differences, so every table is (a, -a) against (b, -b), and then the opponent
classes a - b and a + b of the tables take each class once, so the sum of their squares,
2 (1^2 + ... + 46^2) = 2 x 33,511, must be 33,511 modulo 93; but 33,511 = 31 (mod 93).

With `--match` (`match_c`, `whist_match.c`) the round is a starter and a matching: stage 1
picks a random starter (the partnerships, each class once as partners), stage 2 seats its
partnerships two a table so that the opponents take each class twice, by annealing over swaps
of two partnerships or (`--exact`) by backtracking. A random matching of the 2T partnerships
(T tables) gets all C = 2T - 1 classes twice with a chance near (2C)! / (2^C C^(2C)), about
e^(-1.22 C), against (2T - 1)!! matchings: some 0.27 rounds a starter for 44, 0.48 for 48, 0.91
for 52, 4 for 60, 24 for 68, 64 for 72, 520 for 80 and e^55 for 200 (full searches of 20, 8
and 9 starters count 0.35, 0.6 and 0.9 for 44, 48 and 52). Backtracking to
10^6 nodes a starter, it found 60 over Z_59 (seed 3: the 309th starter, 651 s) and 68 over Z_67
(seed 1: the 258th starter, 644 s), the first designs for either; and 44 (annealing, seeds 1,
2, 4 and 5 in 1.4-11.6 s, seed 3 none in 12 s; backtracking, seeds 1 and 2 in 4.5 and 0.6 s)
and 48 (backtracking, seeds 1 and 2 in 5.0 and 2.9 s; annealing, seed 1 in 2.2 s, seed 2 none
in 30 s). Before that it found no 60 by annealing (seed 1, 150 s: 1,383 starters, best cost 2;
seed 3 with 10^7 moves a starter, cooling 0.999, 240 s) nor by backtracking (61 starters of
10^6 nodes in 120 s, seed 1, and 372 of 2 * 10^5 in 150 s, seed 2, none decided), and no 68 by
annealing (60 s, best 4). In short runs it found none of the other missing sizes: 57 (120 s,
best 2), 72 and 80 (60 s each, best 4; 80 by backtracking, 268 starters of 10^5 nodes in 90 s),
69 (120 s, best 4), 128 (best 8 to 18 in 30-40 s for four temperature schedules; backtracking,
32 starters of 3 * 10^5 nodes in 60 s) or 200 (best 14 to 18 in 40-60 s, three schedules). For
200 the annealing stops far from a round although rounds abound: a swap moves eight opponent
pairs at once. Tried and dropped: a penalty for a wrong sum of squared opponent differences
modulo p (a state one class over and another under never has the right sum; it found 44 for two
seeds in five, not four); a tabu stage 2 (the best swap touching a wrong table: 48 none in 40
s); re-seating by backtracking the up to 10-14 tables of the annealing's near misses (48 for
seed 2 in 0.4 s, but none for seeds 1, 3 and 4 in 15-30 s, 60 none in 120 s, 128 none in 60 s);
and the absolute cost (128: best 8 in 30 s, as the squared).

The backtracking's nodes look only at the options that fit at their parents: the same search
(the same nodes, starters and rounds) as before, 3.7 times as fast for 72 (1.33 million nodes a
second against 0.36). Its full search of one starter takes some 0.45 million nodes for 44, 2.4
million for 48 and 14 million for 52 (5.5 times as many a table) and meets the rounds evenly
along the way (52, in millions of nodes: 5.7 and 11.0 of 12.6, 12.8 of 14.2, 1.9 and 5.1 of
14.8, 1.0 of 14.3): so one round comes every (nodes of a full search / rounds a starter) nodes,
whatever the limit, order or restarts, about 10^8 for 60, 10^9 for 68 and 69, 4 * 10^9 for 72
and 3 * 10^10 for 80 (at 5.5-8 times a table). It found 57 over Z_57 (seed 1: the 182nd starter,
122 s), 69 over Z_69 (seed 1: the 2,118th, 1,380 s) and 72 over Z_71 (seed 2: the 1,991st, 1,395
s, 2.0 * 10^9 nodes), the first for each, with the default limit of 10^6 nodes. It found no 77
over Z_77 (seed 1, 2,700 s: 3,883 starters, 3.9 * 10^9 nodes, none decided). Tried and dropped,
on 44 and 48 (seeds 1-4, up to 20 s each; the fixed order takes 7.5 and 25.2 s in all): random
tie-breaks and option order (8.4 and 14.3 s), with restarts of 1000, 10^4 or 10^5 nodes times
the Luby sequence (35.1 and over 54.5, 34.5 and 19.3, 15.5 and 19.3 s); pruning a branch whose
partnerships left have an odd component or whose class needed twice has no two disjoint options
(7% fewer nodes in full searches of 44, each slower); branching on a class by its options less
its need, plus one (1% fewer); counts kept by stamps over the partnerships and classes met (no
clearing, but 25% slower). The sum of squared opponent differences modulo p follows from the
counts, so it prunes nothing that they do not. Stage 2 by CP-SAT (one worker) decided none of 8
starters of 44 in 10 s each or 6 of 60 in 30 s.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.leagues.cpsat import solved
from bot.leagues.groups import Group, whist_groups
from bot.leagues.whist import DATA, Starter, modulus, starter

Run = subprocess.CompletedProcess[str]


class _Counts:
    """The partner and opponent difference counts of a starting round, and their distance from
    the whist property (0 when every non-zero difference is a partner once, an opponent twice)."""

    def __init__(self, group: Group) -> None:
        self.sub = group.sub_table()
        self.n = group.order
        self.part = [0] * self.n
        self.opp = [0] * self.n
        self.cost = 3 * (
            self.n - 1
        )  # all counts 0: each difference 1 short as partners, 2 as opponents

    def _bump(self, counts: list[int], target: int, d: int, sign: int) -> None:
        if d == 0:
            return
        before = abs(counts[d] - target)
        counts[d] += sign
        self.cost += abs(counts[d] - target) - before

    def table(self, table: list[int], sign: int) -> None:
        """Add (sign 1) or remove (sign -1) one table; the fixed player counts no difference."""
        a, b, c, d = table
        n, sub = self.n, self.sub
        for x, y in ((a, b), (c, d)):
            if x < n and y < n:
                self._bump(self.part, 1, sub[x][y], sign)
                self._bump(self.part, 1, sub[y][x], sign)
        for x in (a, b):
            for y in (c, d):
                if x < n and y < n:
                    self._bump(self.opp, 2, sub[x][y], sign)
                    self._bump(self.opp, 2, sub[y][x], sign)


def search_starter(
    players: int, group: Group, seed: int = 0, max_steps: int = 2_000_000
) -> Starter | None:
    """A starting round whose development by `group` is a whist tournament, or None.

    Args:
        players: 4m or 4m + 1, at least 4.
        group: an abelian group of order `modulus(players)`.
        seed: the random generator's seed (the same seed finds the same round).
        max_steps: moves to try before giving up.

    Returns:
        The tables of the starting round, each [a, b, c, d] for (a, b) against (c, d); the
        fixed player of n = 4m is numbered N = n - 1.
    """
    n = modulus(players)
    if group.order != n:
        raise ValueError(f"{players} players need a group of order {n}, not {group.order}")
    rng = random.Random(seed)
    free = list(range(1, n))
    rng.shuffle(free)
    fixed = [n, 0] if players % 4 == 0 else []  # the fixed player partners 0; else 0 sits out
    cells = fixed + free
    tables = [cells[4 * t : 4 * t + 4] for t in range(players // 4)]
    movable = [(t, i) for t in range(len(tables)) for i in range(4) if t or i >= len(fixed)]
    counts = _Counts(group)
    for table in tables:
        counts.table(table, 1)
    temperature = 1.5
    for step in range(max_steps):
        if counts.cost == 0:
            return tables
        (t1, i1), (t2, i2) = rng.sample(movable, 2)
        if t1 == t2 and {i1, i2} in ({0, 1}, {2, 3}):
            continue  # the same table: swapping partners changes nothing
        cost = counts.cost
        _swap(tables, counts, t1, i1, t2, i2)
        worse = counts.cost - cost
        if worse > 0 and rng.random() >= math.exp(-worse / temperature):
            _swap(tables, counts, t1, i1, t2, i2)  # undo
        if step % 1000 == 999:
            temperature = max(0.25, temperature * 0.99)
            if step % 100_000 == 99_999:
                temperature = 1.5  # reheat: a long stay at one cost is a local minimum
    return tables if counts.cost == 0 else None


def search_symmetric(players: int, seed: int = 0, max_steps: int = 300_000) -> Starter | None:
    """A cyclic starting round of tables (a, -a) against (b, -b), or None.

    For n = 4m + 1 every table is of that form. For n = 4m (group Z_N, N = n - 1) the fixed
    player partners 0 against one pair (b, -b): that table's opponent differences are +-b,
    twice each, and the other tables are as for 4m + 1. (A backtracking look at every round of
    this form finds none for 24, 32, 36 or 44 players, nor for 33 or 45: those need the general
    search.)

    Args:
        players: 4m or 4m + 1.
        seed: the random generator's seed.
        max_steps: moves to try before giving up.
    """
    n = modulus(players)
    fixed = players % 4 == 0

    def pair_of(x: int) -> int:  # {x, -x} named by its member up to n / 2
        x %= n
        return min(x, n - x)

    def table_of(k: int) -> int:  # the table of position k in `pairs`
        return (k + 1) // 2 if fixed else k // 2

    rng = random.Random(seed)
    pairs = list(range(1, (n - 1) // 2 + 1))
    rng.shuffle(pairs)
    count = [0] * ((n - 1) // 2 + 1)
    tables = players // 4

    def table(i: int, sign: int) -> int:
        """Add or remove the opponent differences of table i; returns the change in cost."""
        if fixed and i == 0:
            classes: tuple[int, ...] = (pairs[0],)  # the fixed player and 0 against (b, -b)
        else:
            first = 2 * i - 1 if fixed else 2 * i
            a, b = pairs[first], pairs[first + 1]
            classes = (pair_of(a - b), pair_of(a + b))
        change = 0
        for d in classes:
            before = abs(count[d] - 1)
            count[d] += sign
            change += abs(count[d] - 1) - before
        return change

    cost = len(count) - 1
    for i in range(tables):
        cost += table(i, 1)
    temperature = 1.0
    for step in range(max_steps):
        if cost == 0:
            rest = pairs[1:] if fixed else pairs
            starter = [[a, n - a, b, n - b] for a, b in zip(rest[::2], rest[1::2], strict=True)]
            return ([[n, 0, pairs[0], n - pairs[0]]] if fixed else []) + starter
        i, j = rng.sample(range(len(pairs)), 2)
        ti, tj = table_of(i), table_of(j)
        if ti == tj:
            continue
        change = table(ti, -1) + table(tj, -1)
        pairs[i], pairs[j] = pairs[j], pairs[i]
        change += table(ti, 1) + table(tj, 1)
        if change > 0 and rng.random() >= math.exp(-change / temperature):
            table(ti, -1)
            table(tj, -1)
            pairs[i], pairs[j] = pairs[j], pairs[i]
            table(ti, 1)
            table(tj, 1)
        else:
            cost += change
        if step % 1000 == 999:
            temperature = max(0.2, temperature * 0.98)
    return None


def solve_starter(
    players: int,
    group: Group,
    seconds: float = 600.0,
    seed: int = 0,
    workers: int = 1,
    multiplier: int = 1,
    special: int = 0,
) -> Starter | None:
    """A starting round found by an exact solver (OR-Tools CP-SAT, the optional `search`
    extra), or None when it finds none within `seconds`.

    The model: each class {d, -d} of non-zero differences chooses the one partnership
    {x, x + d} that has it; the classes are paired at tables (for n = 4m, table 0 holds the
    fixed player, its partner 0 and one class); and each class must be the difference of exactly
    three pairs seated at one table, its partnership and two pairs of opponents. The tables are
    numbered in the order of their first class, which leaves one of the m! numberings. With a
    group of prime order, multiplying every player by a unit keeps the property, so the
    partnership opposing the fixed player can be taken as {x, x + 1}.

    A `multiplier` h (prime to the group's order) asks for a starting round that multiplying
    by h maps onto itself: h maps partnerships to partnerships and two players at one table to
    two at one table. That cuts the search to the orbits of h: for 88 players over Z_87, h = 7
    (1 modulo 3, of order 7 modulo 29) leaves 3 tables to find instead of 21 (the fixed player's
    table then holds 0, 29 and 58, the subgroup of order 3, which h fixes). The order of h must
    be odd: were some power of h to be -1 on the differences (0, e), each orbit of tables would
    give them an even number of partnerships.

    Args:
        players: 4m or 4m + 1, at least 4.
        group: an abelian group of order `modulus(players)`.
        seconds: the solver's time limit.
        seed: the solver's random seed.
        workers: the solver's threads.
        multiplier: an automorphism x -> hx the round must be invariant under (1: none).
        special: with a multiplier, that many of its orbits of full length (the solver picks
            which) sit, with its shorter orbits and the fixed player, at tables of their own
            that need not be invariant; the round is invariant but for those tables. A prime
            4m - 1 needs it, as h fixes only 0 and the fixed player's table cannot be invariant.
    """
    from ortools.sat.python import cp_model  # the `search` extra; the bot never needs it

    n = modulus(players)
    if group.order != n:
        raise ValueError(f"{players} players need a group of order {n}, not {group.order}")
    add, sub = group.add_table(), group.sub_table()
    fixed = players % 4 == 0
    seated = list(range(n)) if fixed else list(range(1, n))  # 0 sits out, or partners N
    chosen = [x for x in seated if x != 0]  # the players whose partner the model chooses
    classes: list[int] = []
    for d in range(1, n):
        if sub[0][d] not in classes:
            classes.append(d)
    tables = players // 4
    model = cp_model.CpModel()

    # partnership[c][x]: the partnership of class c is {x, x + d}; holds[x][c]: x is in it.
    partnership: list[dict[int, cp_model.IntVar]] = []
    holds: dict[int, dict[int, list[cp_model.IntVar]]] = {x: {} for x in chosen}
    for c, d in enumerate(classes):
        row = {}
        for x in chosen:
            y = add[x][d]
            if y != 0:
                row[x] = model.new_bool_var(f"p{c}_{x}")
                holds[x].setdefault(c, []).append(row[x])
                holds[y].setdefault(c, []).append(row[x])
        model.add_exactly_one(row.values())
        partnership.append(row)
    for x in chosen:
        model.add_exactly_one(v for vs in holds[x].values() for v in vs)

    # at[c][t]: class c's partnership sits at table t; seat[x][t]: player x does.
    at = [[model.new_bool_var(f"a{c}_{t}") for t in range(tables)] for c in range(len(classes))]
    for c in range(len(classes)):
        model.add_exactly_one(at[c])
    for t in range(tables):
        model.add(sum(at[c][t] for c in range(len(classes))) == (1 if fixed and t == 0 else 2))
    first = 2 if fixed else 1  # tables from here on are numbered by their first class
    for c in range(len(classes)):
        for t in range(first, tables):
            model.add_bool_or([at[e][t - 1] for e in range(c)]).only_enforce_if(at[c][t])
    if fixed and len(group.factors) == 1 and _is_prime(n) and n > 3:
        model.add(at[0][0] == 1)  # classes[0] is 1
    seat = {x: [model.new_bool_var(f"s{x}_{t}") for t in range(tables)] for x in seated}
    for x in seated:
        model.add_exactly_one(seat[x])
    if fixed:
        model.add(seat[0][0] == 1)
    for x in chosen:
        for c, vs in holds[x].items():
            for t in range(tables):
                for v in vs:
                    model.add_bool_or([v.Not(), at[c][t].Not(), seat[x][t]])

    # together: x and x + d sit at one table; three such pairs for each class.
    together: dict[tuple[int, int], cp_model.IntVar] = {}
    for c, d in enumerate(classes):
        for x in seated:
            y = add[x][d]
            if y not in seat:
                continue
            both = together[x, c] = model.new_bool_var(f"t{x}_{d}")
            for t in range(tables):
                model.add_bool_or([seat[x][t].Not(), seat[y][t].Not(), both])
                model.add_bool_or([both.Not(), seat[x][t].Not(), seat[y][t]])
        model.add(sum(together[x, c] for x in seated if (x, c) in together) == 3)

    if multiplier != 1:
        times = [group.number(tuple(multiplier * r for r in group.digits(x))) for x in range(n)]
        if sorted(times) != list(range(n)):
            raise ValueError(f"multiplying by {multiplier} is not an automorphism of {group}")
        class_of = {d: c for c, d in enumerate(classes)}

        def image(x: int, c: int) -> tuple[int, int]:
            """The pair {x, x + d} multiplied by h, as (its first player, its class)."""
            e = times[classes[c]]
            if e in class_of:
                return times[x], class_of[e]
            return add[times[x]][e], class_of[sub[0][e]]

        # With `special` orbits, only the pairs of the other orbits' players need be invariant:
        # the orbits shorter than h's order (0's too), the fixed player and `special` orbits of
        # h's order, chosen by the solver, sit at tables of their own.
        orbit = list(range(n))
        for x in range(n):
            y = times[x]
            while y != x:
                orbit[y] = min(orbit[y], orbit[x])
                y = times[y]
        order = max(orbit.count(o) for o in set(orbit))
        free: dict[int, cp_model.IntVar] = {}  # a full orbit (by its least player): not special
        if special:
            for o in set(orbit):
                if orbit.count(o) == order:
                    free[o] = model.new_bool_var(f"f{o}")
            model.add(sum(free.values()) == len(free) - special)

        def invariant(v: cp_model.IntVar, x: int, y: int, w: cp_model.IntVar | None) -> None:
            """v, of the pair {x, y}, is w, of its image (None: no such variable)."""
            if not special:
                model.add(v == w if w is not None else v == 0)
                return
            fx, fy = free.get(orbit[x]) if x < n else None, free.get(orbit[y]) if y < n else None
            for a, b in ((fx, fy), (fy, fx)):  # a free player sits with free players only
                if a is not None:
                    model.add_bool_or([v.Not(), a.Not()] + ([b] if b is not None else []))
            if fx is not None and fy is not None:
                model.add(v == w if w is not None else v == 0).only_enforce_if(fx)

        for c, row in enumerate(partnership):
            for x, v in row.items():
                y, e = image(x, c)
                invariant(v, x, add[x][classes[c]], partnership[e].get(y))
        for (x, c), v in together.items():
            y, e = image(x, c)
            invariant(v, x, add[x][classes[c]], together.get((y, e)))

    solver = solved(model, seconds, seed, workers)
    if solver is None:
        return None
    pairs = {
        c: [x, add[x][classes[c]]]
        for c, row in enumerate(partnership)
        for x, v in row.items()
        if solver.value(v)
    }
    starter: Starter = []
    for t in range(tables):
        mine = [c for c in range(len(classes)) if solver.value(at[c][t])]
        if fixed and t == 0:
            starter.append([n, 0, *pairs[mine[0]]])
        else:
            starter.append([*pairs[mine[0]], *pairs[mine[1]]])
    return starter


def anneal_c(
    players: int,
    group: Group,
    multiplier: int = 1,
    orbits: int = 0,
    seed: int = 0,
    seconds: float = 600.0,
    temperatures: tuple[float, float, float] = (2.0, 0.15, 0.97),
    squared: bool = False,
) -> tuple[Starter, int] | None:
    """A starting round found by simulated annealing in C (`whist_anneal.c`, compiled here with
    the system's `cc`), and the moves it took; None when none is found within `seconds`.

    With a `multiplier` h (x -> hx on every factor, of order e), the round is the fixed points
    and shorter orbits of h (and the fixed player) and `orbits` orbits of e at tables of their
    own, and
    base tables of one player from each other orbit, which h moves to e tables of the round.
    A round of that shape has the whist property when its difference counts are right, which
    needs the first part's counts to be invariant under h. When the fixed points are a
    subgroup F with |F| + 1 = 4a (and `orbits` 0), the first part is a whist design on F and
    the fixed player: h fixes every difference in F, so the base tables, each of which gives
    its differences e times, can give none there. The base tables' moves change the cost in
    steps of e, so the temperatures are best scaled by e. (With `orbits` 2 the first part is
    too rigid: for a prime 4m - 1 and h of order 3 no such part has invariant counts.)
    `squared` counts the cost as the sum of squared distances from the targets.
    """
    n = modulus(players)
    if group.order != n:
        raise ValueError(f"{players} players need a group of order {n}, not {group.order}")
    times = [group.number(tuple(multiplier * r for r in group.digits(x))) for x in range(n)]
    if sorted(times) != list(range(n)):
        raise ValueError(f"multiplying by {multiplier} is not an automorphism of {group}")
    order, power = 1, times[:]
    while power != list(range(n)):
        power = [times[x] for x in power]
        order += 1
    fixed = players % 4 == 0
    lines = [f"{n} {int(fixed)} {int(not fixed)} {order} {orbits} {seed} {seconds}"]
    lines += [" ".join(map(str, row)) for row in group.sub_table()]
    lines.append(" ".join(map(str, times)))
    args = [*map(str, temperatures), str(int(squared))]
    return _found(_run_c("whist_anneal.c", args, lines, "-lm"))


def _run_c(source: str, args: list[str], lines: list[str], *libraries: str) -> Run:
    """Compile `source` (a C file beside this one) with the system's `cc` and run it with
    `args`, `lines` on its standard input."""
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / Path(source).stem
        code = Path(__file__).with_name(source)
        subprocess.run(["cc", "-O2", "-o", str(binary), str(code), *libraries], check=True)
        return subprocess.run(
            [str(binary), *args],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            check=False,
        )


def _search_input(players: int, group: Group, seed: int, seconds: float) -> list[str]:
    """The first lines a C search of a starting round reads: the group's order, whether there
    is a fixed player (4m) or a bye (4m + 1), the seed and the time limit, then the group's
    subtraction table."""
    n = modulus(players)
    if group.order != n:
        raise ValueError(f"{players} players need a group of order {n}, not {group.order}")
    fixed = players % 4 == 0
    lines = [f"{n} {int(fixed)} {int(not fixed)} {seed} {seconds}"]
    return lines + [" ".join(map(str, row)) for row in group.sub_table()]


def _found(run: Run, told: bool = False) -> tuple[Starter, int] | None:
    """The starting round a C search printed (a table "a b c d" a line) and its steps, or None
    when it found none; `told`: the search's last line on standard error (its summary) is
    passed on."""
    if told:
        for line in run.stderr.splitlines()[-1:]:
            print(line, file=sys.stderr)
    if run.returncode != 0:
        return None
    out = run.stdout.split("\n")
    steps = int(next(line for line in out if line.startswith("steps")).split()[1])
    rows = [[int(x) for x in line.split()] for line in out if line and line[0].isdigit()]
    return rows, steps


def tabu_c(
    players: int,
    group: Group,
    seed: int = 0,
    seconds: float = 600.0,
    tenure: tuple[int, int] = (2, 2),
    stall: int = 1_000_000,
    kicks: int = 3,
    squared: bool = True,
    weights: tuple[int, int] = (100, 20),
    sets: bool = True,
) -> tuple[Starter, int] | None:
    """A starting round found by tabu search in C (`whist_tabu.c`, compiled here with the
    system's `cc`), and the steps it took; None when none is found within `seconds`.

    Each step makes the best swap of two players (of two tables, or re-pairing one table) among
    those touching a wrong difference, but for swaps of players moved within the last
    `tenure` steps (a base and a random extra) unless they reach a new best cost. After `stall`
    steps with no new best, `kicks` random swaps. `squared` counts the cost as the sum of
    squared distances from the targets; `weights` (every k steps, up to a cap) weighs the
    differences that are wrong every k steps one more in the cost the moves see (0: never).

    With `sets` the search is in two stages: the moves look only at which players share a
    table, asking each difference of two players at one table three times (once as partners,
    twice as opponents); each set of tables with that property is then paired, each table in
    one of its three ways, by backtracking, so that every partner difference comes once (and
    the round translated so that the fixed player partners 0). A set that cannot be paired is
    left by a kick.
    """
    lines = _search_input(players, group, seed, seconds)
    options = [*tenure, stall, kicks, int(squared), weights[0], weights[1] or 1 << 20, 0, 1]
    options.append(int(sets))
    # Its last line on standard error: the best cost, steps, unpaired table sets, seconds.
    return _found(_run_c("whist_tabu.c", [str(o) for o in options], lines), told=True)


def match_c(
    players: int,
    group: Group,
    seed: int = 0,
    seconds: float = 600.0,
    temperatures: tuple[float, float, float] = (2.0, 0.2, 0.99),
    moves: int = 1_000_000,
    exact: bool = False,
) -> tuple[Starter, int] | None:
    """A starting round found as a starter and a matching of its partnerships
    (`whist_match.c`, compiled here with the system's `cc`), and the moves it took; None when
    none is found within `seconds`.

    The partnerships of a starting round split the non-zero elements (0 partners the fixed
    player, or sits out) and take each difference class {d, -d} once: a starter. Stage 1 finds
    a random one; stage 2 seats its partnerships two a table so that the opponent differences
    take each class twice, by annealing over swaps of two partnerships (`temperatures`: the
    first and lowest, and the cooling factor every 4096 moves) or, with `exact`, by
    backtracking over the options (two partnerships at a table), branching on the partnership
    or class with the fewest options left. After `moves` moves (or backtracking nodes) on one
    starter, a new one.
    """
    lines = _search_input(players, group, seed, seconds)
    args = [*map(str, temperatures), str(moves), str(int(exact))]
    # Its last line on standard error: the best cost, starters, moves, seconds.
    return _found(_run_c("whist_match.c", args, lines, "-lm"), told=True)


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


def _swap(tables: list[list[int]], counts: _Counts, t1: int, i1: int, t2: int, i2: int) -> None:
    touched = (t1,) if t1 == t2 else (t1, t2)
    for t in touched:
        counts.table(tables[t], -1)
    tables[t1][i1], tables[t2][i2] = tables[t2][i2], tables[t1][i1]
    for t in touched:
        counts.table(tables[t], 1)


def main(argv: list[str] | None = None) -> int:
    """Search the designs that are neither built nor shipped and add them to `data/whist.json`."""
    parser = argparse.ArgumentParser(description="Search whist tournament designs.")
    parser.add_argument("--upto", type=int, default=64, help="largest number of players")
    parser.add_argument("--only", type=int, nargs="*", help="just these numbers of players")
    parser.add_argument("--seconds", type=float, default=600, help="solver limit for each group")
    parser.add_argument("--seed", type=int, default=0, help="the solver's random seed")
    parser.add_argument("--workers", type=int, default=1, help="the solver's threads")
    parser.add_argument(
        "--multiplier",
        type=int,
        default=1,
        help="a unit the starting round must be invariant under",
    )
    parser.add_argument(
        "--annealing", action="store_true", help="simulated annealing instead of the solver"
    )
    parser.add_argument(
        "--anneal-c", action="store_true", help="the annealing in C (`anneal_c`) instead"
    )
    parser.add_argument("--orbits", type=int, default=0, help="orbits of h off the base tables")
    parser.add_argument("--squared", action="store_true", help="the C annealing's squared cost")
    parser.add_argument("--tabu", action="store_true", help="tabu search in C (`tabu_c`)")
    parser.add_argument(
        "--match", action="store_true", help="a starter, then its matching, in C (`match_c`)"
    )
    parser.add_argument(
        "--exact", action="store_true", help="`--match` seats a starter by backtracking"
    )
    parser.add_argument(
        "--moves", type=int, default=1_000_000, help="`--match` moves (or nodes) a starter"
    )
    parser.add_argument(
        "--special",
        type=int,
        default=0,
        help="orbits of the multiplier the solver may seat freely, beside the short ones",
    )
    parser.add_argument(
        "--tenure", type=int, nargs=2, default=(2, 2), help="tabu steps: a base, a random extra"
    )
    parser.add_argument("--stall", type=int, default=1_000_000, help="tabu steps to a kick")
    parser.add_argument("--kicks", type=int, default=3, help="random swaps of a kick")
    parser.add_argument(
        "--direct",
        action="store_true",
        help="tabu over partner and opponent counts, not table sets first, then pairings",
    )
    parser.add_argument(
        "--weights",
        type=int,
        nargs=2,
        default=(100, 20),
        help="weigh wrong differences up every k tabu steps, up to a cap (0: never)",
    )
    parser.add_argument(
        "--temperatures",
        type=float,
        nargs=3,
        help="the C annealing's first and lowest temperature and cooling factor (2 0.15 0.97;"
        " with --match, 2 0.2 0.99)",
    )
    args = parser.parse_args(argv)
    found = json.loads(DATA.read_text()) if DATA.exists() else {}
    sizes = args.only or [n for n in range(4, args.upto + 1) if n % 4 in (0, 1)]
    for players in sizes:
        if str(players) in found or starter(players) is not None:
            continue
        for group in whist_groups(modulus(players)):
            start = time.perf_counter()
            steps = None
            if args.match:
                temperatures = tuple(args.temperatures) if args.temperatures else (2, 0.2, 0.99)
                got = match_c(
                    players,
                    group,
                    args.seed,
                    args.seconds,
                    (temperatures[0], temperatures[1], temperatures[2]),
                    args.moves,
                    args.exact,
                )
                rows, steps = got if got is not None else (None, None)
                method = "a starter, then its matching in C, " + (
                    f"backtracking to {args.moves} nodes"
                    if args.exact
                    else "annealing, temperatures " + " ".join(f"{t:g}" for t in temperatures)
                )
            elif args.tabu:
                got = tabu_c(
                    players,
                    group,
                    args.seed,
                    args.seconds,
                    (args.tenure[0], args.tenure[1]),
                    args.stall,
                    args.kicks,
                    weights=(args.weights[0], args.weights[1]),
                    sets=not args.direct,
                )
                rows, steps = got if got is not None else (None, None)
                method = f"tabu search in C, tenure {args.tenure[0]}+{args.tenure[1]}"
                method += f", kick {args.kicks} swaps after {args.stall} steps, squared cost"
                method += "" if args.direct else ", table sets first, then pairings"
                if args.weights[0]:
                    method += f", weights every {args.weights[0]} steps up to {args.weights[1]}"
            elif args.anneal_c:
                temperatures = tuple(args.temperatures or (2.0, 0.15, 0.97))
                got = anneal_c(
                    players,
                    group,
                    args.multiplier,
                    args.orbits,
                    args.seed,
                    args.seconds,
                    (temperatures[0], temperatures[1], temperatures[2]),
                    args.squared,
                )
                rows, steps = got if got is not None else (None, None)
                method = f"annealing in C, multiplier {args.multiplier}, temperatures " + " ".join(
                    f"{t:g}" for t in temperatures
                )
                method += ", orbits " + str(args.orbits) if args.orbits else ""
                method += ", squared cost" if args.squared else ""
            elif args.annealing:
                rows, method = _anneal(players, group), "annealing"
            else:
                rows = solve_starter(
                    players,
                    group,
                    args.seconds,
                    args.seed,
                    args.workers,
                    args.multiplier,
                    args.special,
                )
                method = (
                    "cp-sat" if args.multiplier == 1 else f"cp-sat, multiplier {args.multiplier}"
                )
                method += f", {args.special} orbits seated freely" if args.special else ""
            took = time.perf_counter() - start
            print(f"{players} players, group {group.factors}: {rows is not None} in {took:.1f} s")
            if rows is not None:
                found = json.loads(DATA.read_text()) if DATA.exists() else {}  # another run's
                found[str(players)] = {
                    "group": list(group.factors),
                    "seed": args.seed,
                    "method": method,
                    "seconds": round(took, 1),
                    "starter": rows,
                }
                if steps is not None:
                    found[str(players)]["steps"] = steps
                DATA.write_text(json.dumps(found, sort_keys=True, separators=(",", ":")) + "\n")
                starter.cache_clear()
                break
        sys.stdout.flush()
    return 0


def _anneal(players: int, group: Group, seeds: int = 20) -> Starter | None:
    """The annealing searches, the symmetric one first, over a few seeds."""
    for seed in range(seeds):
        found = search_symmetric(players, seed) if len(group.factors) == 1 else None
        found = found or search_starter(players, group, seed, max_steps=300_000)
        if found is not None:
            return found
    return None


if __name__ == "__main__":
    sys.exit(main())
