"""League pages at their largest still fit Discord's limits: the longest names and reasons, each
character one that escaping doubles."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.leagues.ratings import PlayerRating
from bot.leagues.standings import Totals
from bot.storage.league_results import AUDIT_PAGE, REASON_LIMIT, AuditEntry, AuditPage
from bot.storage.league_seasons import (
    PAGE,
    LeagueSettings,
    RatingLine,
    RatingsPage,
    Season,
    StandingLine,
    StandingsPage,
)
from bot.storage.leagues import League
from bot.ui.leagues import audit_embed, ratings_embed, standings_embed

LEAGUE = League(1, 1, "*" * 40, {"preset": "modern"}, "ladder", "rubber_points", False, 1, "")
SEASON = Season(1, 1, 12, "_" * 40, "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z")
NAME = "*" * 32  # Discord's longest display name
BIG = 10**9


def fits(embed) -> None:
    assert len(embed.title) <= 256 and len(embed.description) <= 4096
    assert len(embed) <= 6000


def test_a_full_standings_page_fits_an_embed():
    totals = Totals(BIG, BIG, BIG, BIG, -BIG, BIG)
    lines = tuple(
        StandingLine(10**6 + i, i, NAME, totals, "points_difference") for i in range(PAGE)
    )
    fits(standings_embed(LEAGUE, StandingsPage(SEASON, lines, 10**5, 10**5, 10**7)))


def test_a_full_ratings_page_fits_an_embed():
    rating = PlayerRating(1, -1234.5678, 1234.5678, BIG, datetime(2025, 1, 1, tzinfo=UTC))
    lines = tuple(RatingLine(10**6 + i, NAME, rating) for i in range(PAGE))
    page = RatingsPage(SEASON, lines, 10**5, 10**5, 10**7, LeagueSettings(1000, 3650))
    fits(ratings_embed(LEAGUE, page))


def test_a_full_audit_page_fits_an_embed():
    entries = tuple(
        AuditEntry(
            i,
            BIG,
            "award",
            "to north–south: " + "_" * REASON_LIMIT,
            2**63 - 1,
            "2025-01-01T00:00:00Z",
        )
        for i in range(AUDIT_PAGE)
    )
    fits(audit_embed(LEAGUE, AuditPage(entries, 10**5, 10**5, 10**7)))
