"""Fixtures for fixed partnerships: round robin (the circle method) and Swiss pairings.

An entrant is a registered partnership, known by an int id. A fixture round is its matches and
the entrant that sits out (a bye) when the number is odd.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class FixtureRound:
    """One round: its matches (first-named entrant, second-named) and the bye, if any."""

    matches: tuple[tuple[int, int], ...]
    bye: int | None = None


def circle_rounds(entrants: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every two entrants paired once, by the circle method: the pairings of each round.

    With N the number of entrants if odd (N - 1 if even), round r (0 <= r < N) pairs the
    entrants at places r - i and r + i (modulo N) for i = 1, 2, ...: the circle turned r
    places. Place r is left out of round r, or, for an even number, meets the last entrant,
    who stays in the middle of the circle. So n - 1 rounds for even n, n for odd n, each
    entrant left out of one; `bot.leagues.progressive` relies on this numbering.

    Raises:
        ValueError: fewer than two entrants, or one named twice.
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is named twice")
    if len(entrants) < 2:
        raise ValueError("a round robin needs at least two entrants")
    n = len(entrants) - 1 if len(entrants) % 2 == 0 else len(entrants)
    rounds = []
    for r in range(n):
        pairs = [(entrants[(r - i) % n], entrants[(r + i) % n]) for i in range(1, (n - 1) // 2 + 1)]
        if n < len(entrants):
            pairs.insert(0, (entrants[r], entrants[n]))
        rounds.append(pairs)
    return rounds


def round_robin(entrants: Sequence[int]) -> list[FixtureRound]:
    """A round robin: every two entrants meet once; with an odd number one has a bye a round.

    Who is named first alternates from round to round for the entrant the circle keeps in
    place, so that no entrant is always first.

    Raises:
        ValueError: fewer than two entrants, or one named twice.
    """
    fixtures = []
    for number, pairs in enumerate(circle_rounds(entrants)):
        seated = {e for p in pairs for e in p}
        bye = next((e for e in entrants if e not in seated), None)
        matches = tuple(
            (b, a) if number % 2 and i == 0 else (a, b) for i, (a, b) in enumerate(pairs)
        )
        fixtures.append(FixtureRound(matches, bye))
    return fixtures


@dataclass(frozen=True)
class MatchResult:
    """A played match between two entrants and the games each won (equal games: a draw)."""

    first: int
    second: int
    first_games: int
    second_games: int


@dataclass(frozen=True)
class SwissRow:
    """An entrant's place in a Swiss event: match points (win 1, draw 1/2, bye 1) and the
    tie-breaks, opponents' match-win share then its own game-win share."""

    entrant: int
    match_points: Fraction
    opponents_match_share: Fraction
    game_share: Fraction


def swiss_standings(
    entrants: Sequence[int], results: Sequence[MatchResult], byes: Sequence[int] = ()
) -> list[SwissRow]:
    """Entrants in Swiss order: match points, opponents' match-win share, game-win share, then
    the order of `entrants` (the seeding).

    A bye counts as a match won; it is nobody's opponent, so it adds nothing to the
    opponents' share and no games to the game share.
    """
    points: dict[int, Fraction] = defaultdict(Fraction)
    played: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[int]] = defaultdict(list)
    games_won: dict[int, int] = defaultdict(int)
    games: dict[int, int] = defaultdict(int)
    for r in results:
        for me, them, mine, theirs in (
            (r.first, r.second, r.first_games, r.second_games),
            (r.second, r.first, r.second_games, r.first_games),
        ):
            points[me] += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
            played[me] += 1
            opponents[me].append(them)
            games_won[me] += mine
            games[me] += mine + theirs
    for entrant in byes:
        points[entrant] += 1
        played[entrant] += 1

    def match_share(e: int) -> Fraction:
        return points[e] / played[e] if played[e] else Fraction(0)

    rows = [
        SwissRow(
            e,
            points[e],
            _mean([match_share(o) for o in opponents[e]]),
            Fraction(games_won[e], games[e]) if games[e] else Fraction(0),
        )
        for e in entrants
    ]
    seed = {e: i for i, e in enumerate(entrants)}
    rows.sort(
        key=lambda r: (-r.match_points, -r.opponents_match_share, -r.game_share, seed[r.entrant])
    )
    return rows


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def swiss_round(
    entrants: Sequence[int], results: Sequence[MatchResult], byes: Sequence[int] = ()
) -> FixtureRound:
    """The next Swiss round: entrants close in the standings meet, and no two meet again.

    Down the standings, each entrant still unpaired meets the highest-placed one it has not
    met, backtracking when the rest cannot then be paired. With an odd number the bye goes
    to the lowest-placed entrant that has not had one.

    Raises:
        ValueError: no pairing without a repeat exists (or every entrant has had a bye).
    """
    order = [row.entrant for row in swiss_standings(entrants, results, byes)]
    met = {(r.first, r.second) for r in results} | {(r.second, r.first) for r in results}
    candidates: list[int | None] = [None]
    if len(order) % 2:
        candidates = [e for e in reversed(order) if e not in byes]
    for bye in candidates:
        pool = [e for e in order if e != bye]
        pairs = _pair_down(pool, met)
        if pairs is not None:
            return FixtureRound(tuple(pairs), bye)
    raise ValueError("no pairing is left in which no two entrants meet again")


def _pair_down(pool: list[int], met: set[tuple[int, int]]) -> list[tuple[int, int]] | None:
    if not pool:
        return []
    first, rest = pool[0], pool[1:]
    for i, other in enumerate(rest):
        if (first, other) in met:
            continue
        tail = _pair_down(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None
