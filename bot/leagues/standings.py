"""League standings with tie-breaks.

Entrants (players or partnerships) are ordered by the league's standing metric, then, while
tied, by rubbers won, games won, points difference, and head-to-head among those still tied
(rubbers won in the matches between them). Each row says which of these placed it: the first
that told it from the entrants it was tied with (the metric when it was tied with none). Rows
that none told apart share a rank and say "tied", with what placed their group among the
others (``tied:rubber_points``): partners who always play together are tied with each other
all season, and the row still says what put the pair where it is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

METRICS = ("rubber_points", "rubbers", "games", "points")
TIED = "tied"
TIE_BREAKS = ("rubbers", "games", "points_difference", "head_to_head")


@dataclass(frozen=True)
class LeagueMatch:
    """A finished league match (a rubber, or a single game) between two entrants.

    `winner` is the entrant that won the match, None for a match without a winner; games and
    points are each side's games won and points scored, rubber points as the rules count them.
    """

    first: int
    second: int
    winner: int | None
    games: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)
    rubber_points: tuple[int, int] = (0, 0)


@dataclass(slots=True)
class Totals:
    """What one entrant has counted over the league's matches."""

    rubber_points: int = 0
    rubbers: int = 0
    games: int = 0
    points: int = 0
    points_against: int = 0
    played: int = 0

    @property
    def points_difference(self) -> int:
        """Points scored less points conceded."""
        return self.points - self.points_against


@dataclass(frozen=True)
class StandingRow:
    """One entrant's place: its rank (shared when tied), totals and what placed it."""

    rank: int
    entrant: int
    totals: Totals
    decided_by: str


def totals(entrants: Sequence[int], matches: Sequence[LeagueMatch]) -> dict[int, Totals]:
    """Each entrant's totals over the matches."""
    out = {e: Totals() for e in entrants}
    for m in matches:
        for side, me in enumerate((m.first, m.second)):
            t = out.setdefault(me, Totals())
            t.played += 1
            t.rubbers += m.winner == me
            t.games += m.games[side]
            t.points += m.points[side]
            t.points_against += m.points[1 - side]
            t.rubber_points += m.rubber_points[side]
    return out


def standings(
    entrants: Sequence[int], matches: Sequence[LeagueMatch], metric: str = "rubber_points"
) -> list[StandingRow]:
    """The standings: entrants by `metric`, then the tie-breaks in order.

    Raises:
        ValueError: an unknown metric.
    """
    table = totals(entrants, matches)
    listed = {e: table[e] for e in dict.fromkeys(entrants)}
    return ranked(listed, metric, lambda group: _head_to_head(group, matches))


HeadToHead = Callable[[list[int]], Callable[[int], int]]


def ranked(
    table: Mapping[int, Totals],
    metric: str,
    head_to_head: HeadToHead,
    start: int = 0,
    stop: int | None = None,
) -> list[StandingRow]:
    """Entrants with their totals in standing order: by `metric`, then the tie-breaks; rows
    `start` to `stop` (all by default: a page needs every entrant's place, but rows of its own).

    Args:
        table: each entrant's totals.
        metric: the league's standing metric.
        head_to_head: given a group still tied after the points difference, each member's
            rubbers won in the matches among the group (a stored league asks its database
            for these only for the groups that need them).
        start, stop: the rows wanted, as a slice of the whole standings.

    Raises:
        ValueError: an unknown metric.
    """
    if metric not in METRICS:
        raise ValueError(f"the standing metric is one of {', '.join(METRICS)}, not {metric!r}")
    names = (metric, *TIE_BREAKS)
    four = {
        e: (getattr(t, metric), t.rubbers, t.games, t.points - t.points_against)
        for e, t in table.items()
    }
    groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for e, key in four.items():
        groups[key].append(e)
    among: dict[int, int] = {}
    for group in groups.values():
        if len(group) > 1:
            wins = head_to_head(group)
            among.update((e, wins(e)) for e in group)
    keys = {e: (*key, among.get(e, 0)) for e, key in four.items()}
    # Best first; among the wholly tied, by entrant (a sort in reverse keeps equal keys in the
    # order they came in).
    order = sorted(table)
    order.sort(key=keys.__getitem__, reverse=True)
    # What told an entrant from the others is the key after the most it shares with either
    # neighbour: the sorted order puts those that share most with it beside it.
    shared = [_shared(keys[a], keys[b]) for a, b in zip(order, order[1:], strict=False)]
    end = len(order) if stop is None else min(stop, len(order))
    rows: list[StandingRow] = []
    first = min(max(start, 0), end)
    while 0 < first < end and shared[first - 1] == len(names):  # a tied group begun before
        first -= 1
    while first < end:
        last = first
        while last < len(shared) and shared[last] == len(names):
            last += 1
        before = shared[first - 1] if first > 0 else -1
        after = shared[last] if last < len(shared) else -1
        level = max(before, after, 0)
        if last > first:  # tied; its group placed among the others, unless it is everyone
            shown = f"{TIED}:{names[level]}" if max(before, after) >= 0 else TIED
        else:
            shown = names[level]
        rows += [
            StandingRow(first + 1, e, table[e], shown)
            for i, e in enumerate(order[first : last + 1], start=first)
            if start <= i < end
        ]
        first = last + 1
    return rows


def _shared(first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """How many leading values two keys have in common."""
    if first == second:
        return len(first)
    n = 0
    while first[n] == second[n]:
        n += 1
    return n


def _head_to_head(group: list[int], matches: Sequence[LeagueMatch]) -> Callable[[int], int]:
    """Rubbers won in the matches among the group only."""
    members = set(group)
    won: dict[int, int] = defaultdict(int)
    for m in matches:
        if m.first in members and m.second in members and m.winner is not None:
            won[m.winner] += 1
    return lambda e: won[e]
