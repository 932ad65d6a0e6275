"""League standings with tie-breaks.

Entrants (players or partnerships) are ordered by the league's standing metric, then, while
tied, by rubbers won, games won, points difference, and head-to-head among those still tied
(rubbers won in the matches between them). Each row says which of these placed it: the first
that told it from the entrants it was tied with (the metric when it was tied with none), or
"tied" when none did, and tied rows share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

METRICS = ("rubber_points", "rubbers", "games", "points")
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
    if metric not in METRICS:
        raise ValueError(f"the standing metric is one of {', '.join(METRICS)}, not {metric!r}")
    table = totals(entrants, matches)
    keys: list[tuple[str, Callable[[list[int]], Callable[[int], int]]]] = [
        (metric, lambda _group: lambda e: getattr(table[e], metric)),
        ("rubbers", lambda _group: lambda e: table[e].rubbers),
        ("games", lambda _group: lambda e: table[e].games),
        ("points_difference", lambda _group: lambda e: table[e].points_difference),
        ("head_to_head", lambda group: _head_to_head(group, matches)),
    ]
    rows: list[StandingRow] = []

    def place(group: list[int], level: int, decided_by: str) -> None:
        if len(group) == 1 or level == len(keys):
            tied = len(group) > 1
            rank = len(rows) + 1
            for e in sorted(group):
                rows.append(StandingRow(rank, e, table[e], "tied" if tied else decided_by))
            return
        name, make_key = keys[level]
        key = make_key(group)
        values = sorted({key(e) for e in group}, reverse=True)
        for value in values:
            part = [e for e in group if key(e) == value]
            # A part still tied goes on to the next tie-break; one alone was placed by this one.
            place(part, level + 1, name if len(values) > 1 or level == 0 else decided_by)

    place(list(dict.fromkeys(entrants)), 0, metric)
    return rows


def _head_to_head(group: list[int], matches: Sequence[LeagueMatch]) -> Callable[[int], int]:
    """Rubbers won in the matches among the group only."""
    members = set(group)
    won: dict[int, int] = defaultdict(int)
    for m in matches:
        if m.first in members and m.second in members and m.winner is not None:
            won[m.winner] += 1
    return lambda e: won[e]
