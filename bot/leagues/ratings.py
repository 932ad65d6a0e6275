"""Player ratings for a league: OpenSkill (Plackett-Luce), updated after every 2 v 2 game.

Each game of two partnerships, a fixed pair's or a progressive night's, updates the four
players' μ and σ. The shown rating is the conservative one, μ - 3σ: what the player is at
least, with little doubt. A player is listed after `min_games` rated games and hidden (never
decayed) after `hide_after_days` without one.

Exactness: `replay` recomputes every rating from the results in order by the same operations
as `Ratings.record`, so it gives the very floats that were stored, which lets the storage check
and rebuild its ratings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

# OpenSkill's defaults: a new player has μ 25, σ 25/3.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


@dataclass(frozen=True)
class RatingSettings:
    """When a player is shown: after `min_games` rated games, until `hide_after_days` pass
    without one."""

    min_games: int = 10
    hide_after_days: int = 14


@dataclass(frozen=True)
class GameResult:
    """A finished game: the winning partnership, the losing one, and when it ended (UTC)."""

    winners: tuple[int, int]
    losers: tuple[int, int]
    played_at: datetime


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating in a league."""

    player: int
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    last_played: datetime | None = None

    @property
    def conservative(self) -> float:
        """μ - 3σ, the rating shown."""
        return self.mu - 3 * self.sigma


@dataclass
class Ratings:
    """The ratings of one league's players, updated game by game."""

    players: dict[int, PlayerRating] = field(default_factory=dict)
    model: PlackettLuce = field(default_factory=PlackettLuce, repr=False)

    def get(self, player: int) -> PlayerRating:
        """A player's rating (a new player's if he has no rated game)."""
        return self.players.get(player) or PlayerRating(player)

    def record(self, game: GameResult) -> tuple[PlayerRating, ...]:
        """Update the four players after a game; returns their new ratings (winners first).

        Raises:
            ValueError: a player named twice in the game.
        """
        seats = (*game.winners, *game.losers)
        if len(set(seats)) != 4:
            raise ValueError("a game needs four different players")
        before = [self.get(p) for p in seats]
        teams = [
            [self.model.rating(mu=r.mu, sigma=r.sigma) for r in before[:2]],
            [self.model.rating(mu=r.mu, sigma=r.sigma) for r in before[2:]],
        ]
        rated = self.model.rate(teams)  # the first team won
        after = tuple(
            PlayerRating(old.player, new.mu, new.sigma, old.games + 1, game.played_at)
            for old, new in zip(before, [*rated[0], *rated[1]], strict=True)
        )
        for rating in after:
            self.players[rating.player] = rating
        return after

    def listed(self, now: datetime, settings: RatingSettings | None = None) -> list[PlayerRating]:
        """The players shown on the league's rating table, best conservative rating first
        (then more games, then the player id): those with enough games and a recent one."""
        settings = settings or RatingSettings()
        since = now - timedelta(days=settings.hide_after_days)
        shown = [
            r
            for r in self.players.values()
            if r.games >= settings.min_games
            and r.last_played is not None
            and r.last_played >= since
        ]
        return sorted(shown, key=lambda r: (-r.conservative, -r.games, r.player))


def replay(games: Iterable[GameResult]) -> Ratings:
    """Every rating recomputed from the results, in the order given (the order they were
    recorded in): the same floats as recording them one by one."""
    ratings = Ratings()
    for game in games:
        ratings.record(game)
    return ratings
