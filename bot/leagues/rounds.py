"""Rounds of a euchre night: tables of two partnerships, and who sits out.

Players are ints (0..n-1 in a schedule; any ids elsewhere). A table is its two partnerships,
`((a, b), (c, d))`: a and b partners against c and d.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

Partnership = tuple[int, int]
Table = tuple[Partnership, Partnership]


def pair(x: int, y: int) -> tuple[int, int]:
    """Two players as an unordered pair, the smaller first (the key of the count tables)."""
    return (x, y) if x < y else (y, x)


@dataclass(frozen=True)
class Round:
    """One round: its tables, in order (table 1 first), and the players sitting out."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        """Everyone seated in this round, table by table."""
        return [p for table in self.tables for side in table for p in side]

    def to_dict(self) -> dict[str, list[object]]:
        """As the command line's JSON prints it: tables as [[a, b], [c, d]], and the byes."""
        return {
            "tables": [[list(side) for side in table] for table in self.tables],
            "byes": list(self.byes),
        }


def partner_counts(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each pair of players were partners."""
    counts: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            for a, b in table:
                counts[pair(a, b)] += 1
    return counts


def opponent_counts(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each pair of players were opponents."""
    return Counter(p for rnd in rounds for p in opposing_pairs(rnd))


def opposing_pairs(rnd: Round) -> list[tuple[int, int]]:
    """The pairs of players who sit on opposite sides of a table in this round."""
    return [pair(x, y) for side, other in rnd.tables for x in side for y in other]


def repeated_partnerships(rounds: Iterable[Round]) -> int:
    """Partnerships beyond the first of each pair: 0 when no one partners anyone twice."""
    return sum(c - 1 for c in partner_counts(rounds).values() if c > 1)
