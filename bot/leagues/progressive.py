"""Progressive schedules for a euchre night: rotating partners over the rounds of an evening.

Each round seats floor(n / 4) tables of two partnerships; the others sit out.

- n = 4m: n - 1 rounds, and n = 4m + 1: n rounds with one player sitting out each (each player
  once), in which every two players are partners exactly once and opponents exactly twice: the
  whist tournament designs of `bot.leagues.whist` (where it has one: `whist.starter`).
- Any other n, and those 4m or 4m + 1 with no design: the partnerships of each round come from the
  circle method's rounds (a round robin of the players, `fixtures.circle_rounds`), so nobody
  partners anyone twice; the players sitting out are spread evenly (their counts differ by at
  most one); and each round's partnerships are paired at tables so that the pairs of players
  who have met least often meet (the most even of a few seeded tries). Only the opponent
  counts are then not exact.

Either way the rounds are then put in the order that leaves second meetings of opponents for
as late as it can (`first_meetings_first`): most nights end long before the schedule does, and
a design built block by block would otherwise seat the same four players three rounds running.

`winners_move_up` is the other way to seat a round: from the last round's results, the old
progressive rule (the winners move up a table, the partners change).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.leagues.fixtures import circle_rounds
from bot.leagues.rounds import (
    Partnership,
    Round,
    Table,
    opponent_counts,
    opposing_pairs,
    partner_counts,
    repeated_partnerships,
)
from bot.leagues.whist import design

MIN_PLAYERS = 4
MAX_PLAYERS = 200


@dataclass(frozen=True)
class Schedule:
    """A whole euchre night's seating, players numbered 0..players-1."""

    players: int
    rounds: tuple[Round, ...]
    repeated_partnerships: int

    @property
    def perfect(self) -> bool:
        """Every two players partners exactly once and opponents exactly twice."""
        return is_whist(self.players, self.rounds)

    def to_dict(self) -> dict[str, object]:
        """As `python -m bot league schedule --json` prints it."""
        return {
            "rounds": [r.to_dict() for r in self.rounds],
            "repeated_partnerships": self.repeated_partnerships,
        }


def is_whist(players: int, rounds: Sequence[Round]) -> bool:
    """Whether every two of `players` are partners exactly once and opponents exactly twice."""
    partners, opponents = partner_counts(rounds), opponent_counts(rounds)
    all_pairs = [(x, y) for x in range(players) for y in range(x + 1, players)]
    return all(partners[p] == 1 and opponents[p] == 2 for p in all_pairs) and len(partners) == len(
        all_pairs
    )


def schedule(players: int) -> Schedule:
    """The progressive schedule for `players`: perfect where a whist design ships.

    Raises:
        ValueError: fewer than 4 or more than 200 players.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"a progressive schedule needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    rounds = design(players) or _most_even(players)
    rounds = first_meetings_first(rounds)
    return Schedule(players, tuple(rounds), repeated_partnerships(rounds))


# How many rounds `first_meetings_first` may try in all before it keeps the greedy order.
ORDER_SEARCH = 20_000


def first_meetings_first(rounds: Sequence[Round]) -> list[Round]:
    """The same rounds, reordered so that pairs of opponents meet again as late as they can,
    and, where players sit out more than once, with the byes even after every round (how often
    two players have sat out differs by one at most).

    Greedy: each next round is the one left whose tables hold the fewest pairs of opponents
    who have already met (the earliest of those on a tie). Any order of a whist design's rounds
    is again one, and its byes (none, or one each) are even in any order. The constructions
    from blocks (`whist_blocks`) play each class of blocks three rounds running, one per
    pairing of partners; this spreads those rounds through the night.

    The other schedules (`balanced_rounds`) give each player two or three byes, and the circle
    method's order seats a player out three rounds running: most nights end long before the
    schedule does. Their next round is chosen among those that keep the byes even and give one
    to the player at the fewest byes with the fewest rounds left to sit out in (the hardest to
    keep even), the search going back where a choice leads nowhere; past `ORDER_SEARCH` rounds
    tried, the greedy order alone.
    """
    pairs = [opposing_pairs(rnd) for rnd in rounds]
    # In which rounds each pair of players sits on opposite sides (twice in a design).
    opposed: dict[tuple[int, int], list[int]] = {}
    for number, round_pairs in enumerate(pairs):
        for pair in round_pairs:
            opposed.setdefault(pair, []).append(number)
    # met_again[r]: the pairs of round r's opponents who have met in the rounds already placed.
    met_again = [0] * len(rounds)
    sat_out = dict.fromkeys((p for rnd in rounds for p in (*rnd.players(), *rnd.byes)), 0)
    chances = dict.fromkeys(sat_out, 0)  # the rounds left in which each player sits out
    for rnd in rounds:
        for player in rnd.byes:
            chances[player] += 1
    left = set(range(len(rounds)))
    order: list[int] = []
    tries = ORDER_SEARCH

    def move(number: int, step: int) -> None:
        for pair in pairs[number]:
            for other in opposed[pair]:
                if other in left:
                    met_again[other] += step
        for player in rounds[number].byes:
            sat_out[player] += step
            chances[player] -= step

    def place() -> bool:
        nonlocal tries
        if not left:
            return True
        low = min(sat_out.values(), default=0)
        at_low = sum(1 for count in sat_out.values() if count == low)
        # Byes stay even when every player to sit out is at the fewest byes, or every player
        # at the fewest sits out now (nobody is further ahead: the byes were even).
        even = [
            r
            for r in left
            if all(sat_out[p] == low for p in rounds[r].byes)
            or sum(1 for p in rounds[r].byes if sat_out[p] == low) == at_low
        ]
        # Of the players at the fewest byes, the one with the fewest rounds left to sit out in
        # is the hardest to keep even: only the rounds that give him his bye are tried now.
        waiting = [p for p, count in sat_out.items() if count == low and chances[p]]
        if waiting:
            neediest = min(waiting, key=lambda p: (chances[p], p))
            even = [r for r in even if neediest in rounds[r].byes]
        for number in sorted(even, key=lambda r: (met_again[r], r)):
            if tries <= 0:
                return False
            tries -= 1
            left.remove(number)
            order.append(number)
            move(number, 1)
            if place():
                return True
            move(number, -1)
            order.pop()
            left.add(number)
        return False

    # Where nobody sits out more than once (a design, or no byes) any order keeps them even.
    if max(chances.values(), default=0) <= 1 or not place():
        return _greedy_meetings(rounds, pairs, opposed)
    return [rounds[number] for number in order]


def _greedy_meetings(
    rounds: Sequence[Round],
    pairs: list[list[tuple[int, int]]],
    opposed: dict[tuple[int, int], list[int]],
) -> list[Round]:
    """`first_meetings_first` without the byes: each next round the one whose tables hold the
    fewest pairs of opponents who have already met."""
    met_again = [0] * len(rounds)
    left = set(range(len(rounds)))
    order: list[int] = []
    while left:
        number = min(left, key=lambda r: (met_again[r], r))
        left.remove(number)
        order.append(number)
        for pair in pairs[number]:
            for other in opposed[pair]:
                if other in left:
                    met_again[other] += 1
    return [rounds[number] for number in order]


# Balanced rounds are seated from several random starts, and the most even kept; more starts
# are tried (up to MORE_SEATING_TRIES) while two players still meet more often than the README
# promises. 142 players needed them: 4 of its first 16 starts meet at most three times.
SEATING_TRIES = 8
MORE_SEATING_TRIES = 64


def most_meetings(players: int) -> int:
    """How often two players may be opponents in a balanced schedule (README)."""
    return 4 if players == 6 else 3


def _most_even(players: int) -> list[Round]:
    tries = [balanced_rounds(players, seed) for seed in range(SEATING_TRIES)]
    best = min(tries, key=lambda rounds: _spread(players, rounds))
    seed = SEATING_TRIES
    while _spread(players, best)[0] > most_meetings(players) and seed < MORE_SEATING_TRIES:
        best = min(best, balanced_rounds(players, seed), key=lambda r: _spread(players, r))
        seed += 1
    return best


def _spread(players: int, rounds: list[Round]) -> tuple[int, int, int]:
    """How uneven the opponents are: the most meetings of one pair, the pairs who never meet,
    and the sum of squares of the meetings (smaller is more even)."""
    met = opponent_counts(rounds)
    counts = [met[(x, y)] for x in range(players) for y in range(x + 1, players)]
    return max(counts), counts.count(0), sum(c * c for c in counts)


def balanced_rounds(players: int, seed: int = 0) -> list[Round]:
    """Rounds for any number of players with no repeated partnership, byes spread evenly and
    the opponents as even as a table-by-table choice makes them.

    Partnerships: the circle method's rounds of all the players (n - 1 rounds for even n, n
    for odd n, each player once absent from a round when n is odd). In each round the players
    who sit out are the one the circle leaves out (odd n) and the partnerships dropped to fill
    whole tables: one for n = 4m + 2 or 4m + 3. Tables: `_seat_tables`.
    """
    factors = circle_rounds(list(range(players)))
    dropped = _dropped_partnerships(players, factors)
    rounds = []
    # met[x][y]: how often x and y have been opponents, squared (see `_seat_tables`).
    met = [[0] * players for _ in range(players)]
    rng = random.Random(seed)
    for factor, drop in zip(factors, dropped, strict=True):
        byes = sorted(p for p in range(players) if all(p not in pr for pr in factor))
        playing = [pr for pr in factor if pr is not drop]
        if drop is not None:
            byes = sorted([*byes, *drop])
        tables = _seat_tables(playing, met, rng)
        rnd = Round(tuple(tables), tuple(byes))
        for side, other in tables:
            for x in side:
                for y in other:
                    times = math.isqrt(met[x][y]) + 1
                    met[x][y] = met[y][x] = times * times
        rounds.append(rnd)
    return rounds


def _dropped_partnerships(
    players: int, factors: list[list[Partnership]]
) -> list[Partnership | None]:
    """For each circle round, the partnership that sits out so that the rest fill whole tables.

    Two players too many (n = 4m + 2 and 4m + 3): one partnership a round sits out. In circle
    round r (`fixtures.circle_rounds`: places r - i and r + i partner) it is the one of places
    r - 1 and r + 1, so each place sits out in two rounds. For odd n, with the player the
    circle leaves out, that is three times each. For even n the player in the middle of the
    circle (place n - 1) would never sit out: in rounds 0 and 1 the partnership that sits out
    is instead his (with place 0, then place 1), which leaves places n - 2 and 2 sitting out
    once and everyone else twice.
    """
    if players % 4 in (0, 1):
        return [None] * len(factors)
    n = len(factors)  # the circle's size: players, or players - 1

    def drop(r: int) -> Partnership:
        if players % 2 == 0 and r in (0, 1):
            ends = {r, n}
        else:
            ends = {(r - 1) % n, (r + 1) % n}
        return next(pr for pr in factors[r] if set(pr) == ends)

    return [drop(r) for r in range(n)]


def _seat_tables(
    partnerships: list[Partnership], met: list[list[int]], rng: random.Random
) -> list[Table]:
    """Pair partnerships at tables so that players who have met least often meet.

    The cost of two partnerships at one table is the sum, over their four cross pairs, of the
    square of how often the pair has met (`met`, already squared): squared, so that a third
    meeting costs more than two pairs' second. A random pairing is improved by exchanging
    partnerships between two tables while that lowers the total (a local optimum, good enough
    for an even spread).
    """
    order = list(partnerships)
    rng.shuffle(order)
    k = len(order)
    weight = [[met[a][c] + met[a][d] + met[b][c] + met[b][d] for c, d in order] for a, b in order]
    slots = list(range(k))  # slots[2t], slots[2t + 1] sit at table t
    improved = True
    while improved:
        improved = False
        for t in range(0, k, 2):
            for u in range(t + 2, k, 2):
                a, b, c, d = slots[t], slots[t + 1], slots[u], slots[u + 1]
                now = weight[a][b] + weight[c][d]
                if weight[a][c] + weight[b][d] < now:
                    slots[t + 1], slots[u] = c, b
                    improved = True
                elif weight[a][d] + weight[b][c] < now:
                    slots[t + 1], slots[u + 1] = d, b
                    improved = True
    return [(order[slots[t]], order[slots[t + 1]]) for t in range(0, k, 2)]


def winners_move_up(
    last: Round, winners: Sequence[int], sat_out: Mapping[int, int] | None = None
) -> Round:
    """The next round's seating by the progressive rule, from the last round's results.

    Tables are in order, table 1 (the head table) first. At the head table the winners stay
    and the losers go to the foot table; at every other table the winners move up one table
    and the losers stay. Then at each table the two couples split: each player who stayed
    partners one who arrived, so nobody keeps a partner. Those who sat out all come back, each
    in the seat of one who sits out next: the players who have sat out least (`sat_out`; with
    none given, nobody but the last round's), losers before winners, the foot table's first.
    So nobody sits out twice running, and the byes go round evenly.

    Args:
        last: the round just played.
        winners: for each table, 0 or 1: which of its partnerships won.
        sat_out: how many rounds each player has sat out so far (the last round's included).

    Returns:
        The next round.

    Raises:
        ValueError: not one result per table, or a result other than 0 or 1.
    """
    tables = last.tables
    if len(winners) != len(tables):
        raise ValueError(f"{len(tables)} tables need {len(tables)} results, not {len(winners)}")
    if any(w not in (0, 1) for w in winners):
        raise ValueError("each table's result is 0 or 1: the partnership that won")
    won = [table[w] for table, w in zip(tables, winners, strict=True)]
    lost = [table[1 - w] for table, w in zip(tables, winners, strict=True)]
    if len(tables) == 1:
        staying, arriving = [won[0]], [lost[0]]
    else:
        staying = [won[0], *lost[1:]]
        arriving = [*won[1:], lost[0]]
    counts = sat_out if sat_out is not None else dict.fromkeys(last.byes, 1)
    foot_first = [*reversed(lost), *reversed(won)]  # losers first, the foot table's first
    candidates = [p for couple in foot_first for p in couple]
    going = sorted(range(len(candidates)), key=lambda i: (counts.get(candidates[i], 0), i))
    byes = tuple(candidates[i] for i in going[: len(last.byes)])
    instead = dict(zip(byes, last.byes, strict=True))  # who comes back in whose seat
    next_tables = tuple(
        (
            (instead.get(s[0], s[0]), instead.get(a[0], a[0])),
            (instead.get(s[1], s[1]), instead.get(a[1], a[1])),
        )
        for s, a in zip(staying, arriving, strict=True)
    )
    return Round(next_tables, byes)
