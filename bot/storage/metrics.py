"""The leaderboards' measures: what each one ranks by, and who it lists.

A metric is a value over the counters of ``board_totals`` and ``player_totals`` (a count, such as
rubbers won, or a rate, such as games won of games played) and a rule for who is listed (at least
one for a count, enough played for a rate). :mod:`bot.storage.leaderboard` ranks by them, and
:mod:`bot.storage.board_counts` keeps how many players each board lists on each, by the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.storage.errors import StatsError

MIN_RUBBERS_FOR_RATE = 5
MIN_GAMES_FOR_RATE = 5
MIN_MAKES_FOR_RATE = 5


@dataclass(frozen=True, slots=True)
class Metric:
    """A leaderboard's measure.

    Attributes:
        key: its name in commands (``rubbers_won``).
        label: what to show (``Rubbers won``).
        value: the SQL of the value over the counters (constants of this module, not input).
        numerator, denominator: for a rate, the counters it divides (shown as "12 of 20"); for a
            count, the count and what it came from (shown as "in 20 rubbers").
        minimum: a rate lists players with at least this ``denominator``; a count lists players
            with at least one.
        is_rate: the value is a fraction between 0 and 1.

    Each metric has a partial index ``board_<key>`` on ``board_totals`` (migration 0003) over
    exactly the rows it lists (``qualify``), in its order: a page is a short walk along it.
    """

    key: str
    label: str
    value: str
    numerator: str
    denominator: str
    minimum: int = 1
    is_rate: bool = False

    @property
    def qualify(self) -> str:
        """The SQL condition for a player to be listed (literal, to match the partial index)."""
        if self.is_rate:
            return f"{self.denominator} >= {self.minimum:d}"
        return f"{self.numerator} > 0"

    def lists(self, counters: Mapping[str, int]) -> bool:
        """Whether a player with these counters is listed: :attr:`qualify`, in Python."""
        if self.is_rate:
            return counters[self.denominator] >= self.minimum
        return counters[self.numerator] > 0

    @property
    def listing_counters(self) -> frozenset[str]:
        """The counters whose change can list or unlist a player."""
        return frozenset({self.denominator} if self.is_rate else {self.numerator})


def _rate(key: str, label: str, won: str, played: str, minimum: int) -> Metric:
    return Metric(key, label, f"CAST({won} AS REAL) / {played}", won, played, minimum, True)


def _count(key: str, label: str, counter: str, base: str) -> Metric:
    return Metric(key, label, counter, counter, base)


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        _count("rubbers_won", "Rubbers won", "rubbers_won", "rubbers_played"),
        _count("rubber_points", "Rubber points", "rubber_points", "rubbers_played"),
        _rate(
            "rubber_win_rate",
            "Rubber win rate",
            "rubbers_won",
            "rubbers_played",
            MIN_RUBBERS_FOR_RATE,
        ),
        _count("points", "Points", "points", "hands_played"),
        _rate("makers_success", "Makers' success", "makes_won", "makes", MIN_MAKES_FOR_RATE),
        _count("euchres_inflicted", "Euchres inflicted", "euchres_inflicted", "hands_played"),
        _count("lone_hands_made", "Lone hands made", "lone_made", "hands_played"),
        _count("games_won", "Games won", "games_won", "games_played"),
        _rate("game_win_rate", "Game win rate", "games_won", "games_played", MIN_GAMES_FOR_RATE),
    )
}
DEFAULT_METRIC = "rubbers_won"


def get_metric(name: str | None) -> Metric:
    """The metric named ``name`` (its key or label, any case; default rubbers won).

    Raises:
        StatsError: no such metric.
    """
    if not name:
        return METRICS[DEFAULT_METRIC]
    wanted = name.strip().lower().replace(" ", "_").replace("'", "")
    for metric in METRICS.values():
        if wanted in (metric.key, metric.label.lower().replace(" ", "_").replace("'", "")):
            return metric
    raise StatsError(f"Unknown leaderboard {name!r}: choose one of {', '.join(METRICS)}.")


#: Every counter whose change can list or unlist a player on some leaderboard.
LISTING_COUNTERS: frozenset[str] = frozenset().union(
    *(m.listing_counters for m in METRICS.values())
)
