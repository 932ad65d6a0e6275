"""League pages at their largest still fit Discord's limits: the longest names and reasons, each
character one that escaping doubles."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

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
from bot.ui.leagues import (
    audit_embed,
    info_embed,
    rating_embed,
    ratings_embed,
    rules_text,
    standings_embed,
)

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


def test_standings_of_a_league_of_single_games_count_games_not_rubbers():
    """A single game's rubber points and rubbers are its games won: the row says it once, and
    the footer ranks by games won; a league of rubbers keeps all three."""
    totals = Totals(rubber_points=2, rubbers=2, games=2, points=20, points_against=11, played=3)
    line = StandingLine(1, 1, "ann", totals, "tied:rubber_points")
    page = StandingsPage(SEASON, (line,), 1, 1, 1)
    single = League(
        1,
        1,
        "Quick",
        {"preset": "modern", "match": "game"},
        "ladder",
        "rubber_points",
        False,
        1,
        "",
    )
    shown = standings_embed(single, page)
    assert shown.description == "1. ann: 2 games won, +9 points · 3 matches · *games won, tied*"
    assert "by games won, then points difference and head-to-head" in shown.footer.text
    rubbers = standings_embed(
        League(1, 1, "Long", {"preset": "somerset"}, "ladder", "rubber_points", False, 1, ""), page
    )
    assert rubbers.description.startswith("1. ann: 2 rubber points · 2 rubbers, 2 games, +9")
    assert "by rubber points, then rubbers, games" in rubbers.footer.text


def test_standings_ranked_by_rubbers_or_games_say_that_count_once():
    """A league of rubbers ranked by rubbers won read "1 rubber won · 1 rubber, 2 games" and
    its footer "by rubbers won, then rubbers, games": the count it ranks by said twice, and a
    tie-break that breaks nothing. Each is said once now."""
    totals = Totals(rubber_points=3, rubbers=1, games=2, points=2, points_against=1, played=1)
    page = StandingsPage(SEASON, (StandingLine(1, 1, "ann", totals, "rubbers"),), 1, 1, 1)
    for standing, row, then in (
        ("rubbers", "1. ann: 1 rubber won · 2 games, +1 point", "by rubbers won, then games,"),
        ("games", "1. ann: 2 games won · 1 rubber, +1 point", "by games won, then rubbers, points"),
    ):
        league = League(1, 1, "Long", {"preset": "somerset"}, "ladder", standing, False, 1, "")
        shown = standings_embed(league, page)
        assert shown.description.startswith(row), shown.description
        assert then in shown.footer.text, shown.footer.text


def test_a_leagues_rules_count_the_joker_in_the_pack():
    assert rules_text({"preset": "modern", "joker": True}) == (
        "**modern** rules, 25 cards with the Joker, 10 points a game, single games."
    )
    assert rules_text({"preset": "modern"}).startswith("**modern** rules, 24 cards, ")


def test_a_league_of_single_games_is_ranked_by_games_won_as_its_info_says():
    """/league info of a league of single games said "Standings by: rubber points" while its
    standings rank and count games won: it says games won now, as they do."""
    for standing in ("rubber_points", "rubbers", "games"):
        single = League(1, 1, "Q", {"preset": "modern", "match": "game"}, "ladder", standing,
                        False, 1, "")  # fmt: skip
        shown = {f.name: f.value for f in info_embed(single, 4).fields}
        assert shown["Standings by"] == "games won", (standing, shown)
    by_points = League(1, 1, "Q", {"preset": "modern", "match": "game"}, "ladder", "points",
                       False, 1, "")  # fmt: skip
    assert {f.name: f.value for f in info_embed(by_points, 4).fields}["Standings by"] == (
        "points scored"
    )
    rubbers = League(1, 1, "Long", {"preset": "somerset"}, "ladder", "rubber_points", False, 1, "")
    assert {f.name: f.value for f in info_embed(rubbers, 4).fields}["Standings by"] == (
        "rubber points"
    )


def test_a_rating_the_table_hides_for_want_of_a_recent_game_says_so():
    """A member with enough rated games who last played fifteen days ago is not on the rating
    table (hidden after 14 days): his own /league rating said nothing of it, and he could not
    tell why he was missing. It says he is hidden, why, and that his next game lists him."""
    now = datetime(2025, 3, 1, tzinfo=UTC)
    settings = LeagueSettings(10, 14)
    for days, hidden in ((15, True), (14, False), (1, False)):
        rating = PlayerRating(1, 30.0, 2.0, 12, now - timedelta(days=days))
        shown = rating_embed(LEAGUE, "ann", rating, [], settings, now=now).description
        assert ("Hidden from `/league ratings`" in shown) is hidden, shown
        assert ("in the last 14 days" in shown) is hidden, shown
    few = PlayerRating(1, 30.0, 2.0, 3, now - timedelta(days=30))
    shown = rating_embed(LEAGUE, "ann", few, [], settings, now=now).description
    assert "Listed on `/league ratings` after 10 rated games." in shown and "Hidden" not in shown


def test_an_ended_seasons_ratings_do_not_state_todays_settings_as_theirs():
    """A season ended listing players with 10 rated games; the organiser then set min_games
    to 3. The ended season's page still lists by 10 (as stored), yet its footer, and its
    empty page, said "listed after 3 rated games". An ended season's page now says it lists
    the players listed as it ended; a running one's still names the settings."""
    rating = PlayerRating(1, 30.0, 2.0, 12, datetime(2025, 1, 20, tzinfo=UTC))
    lines = (RatingLine(1, "ann", rating),)
    now_settings = LeagueSettings(3, 14)
    for shown in (lines, ()):
        page = RatingsPage(SEASON, shown, 1, 1, len(shown), now_settings)
        embed = ratings_embed(LEAGUE, page)
        assert "3 rated games" not in embed.description + embed.footer.text, embed.footer.text
        assert embed.footer.text.endswith("the players listed as the season ended")
    assert ratings_embed(LEAGUE, RatingsPage(SEASON, (), 1, 1, 0, now_settings)).description == (
        "Nobody was listed when the season ended."
    )
    running = replace(SEASON, ended_at=None)
    embed = ratings_embed(LEAGUE, RatingsPage(running, lines, 1, 1, 1, now_settings))
    assert "listed after 3 rated games" in embed.footer.text
