"""/history's lines as members read them."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.history import HistoryEntry, HistoryGame, HistoryPage
from bot.storage.player_stats import PlayerStats, Totals
from bot.ui.stats import history_embed, stats_embed

WHEN = datetime(2026, 12, 4, 1, 0, tzinfo=UTC)


def entry(games: tuple[HistoryGame, ...], status: str = "abandoned") -> HistoryEntry:
    return HistoryEntry(
        "M1", 1, "game", status, False, "modern", WHEN, None, ("dan",), ("ben", "cat"), (0, 0),
        games,
    )  # fmt: skip


def test_a_match_abandoned_before_any_game_ended_says_so_in_the_history():
    """A euchre night's table closes at the end of its round with its game unfinished: its line
    read "**M1** game abandoned — with dan v ben, cat; ; <t:…:d>", an empty place between
    two semicolons."""
    page = HistoryPage(1, 2, "ann", 1, 1, 1, (entry(()),))
    line = history_embed(page, "ann").description
    assert "; ;" not in line and "with dan v ben, cat; no game finished; <t:" in line, line
    played = HistoryPage(1, 2, "ann", 1, 1, 1, (entry((HistoryGame("G1", 0, (5, 3), True, 1),)),))
    assert "; G1 5–3; <t:" in history_embed(played, "ann").description


def test_stats_of_a_season_name_it_as_the_leaderboard_does():
    """/stats period:season was titled "ann — this season" while /leaderboard period:season
    names the same span "2026 Q4"; in a server whose leagues have seasons of their own, "this
    season" read as the league's. It is titled by the season's name now."""
    stats = PlayerStats(
        1, 2, "ann", "season", None, False, Totals(), Totals(), None, None, (), "2026 Q4"
    )
    assert stats_embed(stats, "ann").title == "ann — 2026 Q4"
    every = PlayerStats(1, 2, "ann", "all", None, False, Totals(), Totals(), None, None, ())
    assert stats_embed(every, "ann").title == "ann — all time"
