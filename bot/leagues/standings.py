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


@dataclass
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


def ranked(table: Mapping[int, Totals], metric: str, head_to_head: HeadToHead) -> list[StandingRow]:
    """Entrants with their totals in standing order: by `metric`, then the tie-breaks.

    Args:
        table: each entrant's totals.
        metric: the league's standing metric.
        head_to_head: given a group still tied after the points difference, each member's
            rubbers won in the matches among the group (a stored league asks its database
            for these only for the groups that need them).

    Raises:
        ValueError: an unknown metric.
    """
    if metric not in METRICS:
        raise ValueError(f"the standing metric is one of {', '.join(METRICS)}, not {metric!r}")
    keys: list[tuple[str, HeadToHead]] = [
        (metric, lambda _group: lambda e: getattr(table[e], metric)),
        ("rubbers", lambda _group: lambda e: table[e].rubbers),
        ("games", lambda _group: lambda e: table[e].games),
        ("points_difference", lambda _group: lambda e: table[e].points_difference),
        ("head_to_head", head_to_head),
    ]
    rows: list[StandingRow] = []

    everyone = len(table)

    def place(group: list[int], level: int, decided_by: str) -> None:
        if len(group) == 1 or level == len(keys):
            shown = decided_by
            if len(group) > 1:  # tied; its group placed among the others, unless it is all
                shown = f"{TIED}:{decided_by}" if len(group) < everyone else TIED
            rank = len(rows) + 1
            for e in sorted(group):
                rows.append(StandingRow(rank, e, table[e], shown))
            return
        name, make_key = keys[level]
        key = make_key(group)
        parts: dict[int, list[int]] = defaultdict(list)
        for e in group:
            parts[key(e)].append(e)
        for value in sorted(parts, reverse=True):
            # A part still tied goes on to the next tie-break; one alone was placed by this one.
            place(parts[value], level + 1, name if len(parts) > 1 or level == 0 else decided_by)

    place(list(dict.fromkeys(table)), 0, metric)
    return rows


def _head_to_head(group: list[int], matches: Sequence[LeagueMatch]) -> Callable[[int], int]:
    """Rubbers won in the matches among the group only."""
    members = set(group)
    won: dict[int, int] = defaultdict(int)
    for m in matches:
        if m.first in members and m.second in members and m.winner is not None:
            won[m.winner] += 1
    return lambda e: won[e]
