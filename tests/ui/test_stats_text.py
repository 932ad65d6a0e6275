"""/history's lines as members read them."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.history import HistoryEntry, HistoryGame, HistoryPage
from bot.ui.stats import history_embed

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
