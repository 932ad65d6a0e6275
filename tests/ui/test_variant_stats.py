"""The variants' lines in /stats and /history, each in the variant's own unit."""

from __future__ import annotations

from bot.storage.variant_games import VariantBoard, VariantGameLine, VariantRow
from bot.ui.variant_stats import variant_board_embed, variant_history_text


def test_one_chip_or_one_point_is_said_in_the_singular():
    """A member who ended a Napoleon game one chip up read "+1 chips" on the leaderboard and
    in /history, and a two-handed game ended on one point "1 points"."""
    one = VariantRow(rank=1, user_id=1, name="alice", games_played=2, games_won=1, points=1)
    down = VariantRow(rank=2, user_id=2, name="bob", games_played=2, games_won=0, points=-1)
    board = VariantBoard("napoleon", True, (one, down), own=down)
    embed = variant_board_embed(board, "bob")
    assert "alice — +1 chip (1 won of 2)" in embed.description
    assert "bob — -1 chip (0 won of 2)" in embed.description
    assert embed.fields[0].value == "Rank 2: -1 chip (0 won of 2)"
    lines = [
        VariantGameLine(1, "napoleon", 3, False, 1, None, False, "2026-01-01"),
        VariantGameLine(2, "napoleon", 3, True, 12, 0, False, "2026-01-01"),
        VariantGameLine(3, "two-handed", 2, False, 1, 1, False, "2026-01-01"),
        VariantGameLine(4, "french", 4, True, 15, 0, False, "2026-01-01"),
    ]
    text = variant_history_text(lines)
    assert "Napoleon, 3 players: no winner, +1 chip\n" in text
    assert "Napoleon, 3 players: won, +12 chips\n" in text
    assert "Two-handed euchre, 2 players: lost, 1 point\n" in text
    assert "French euchre, 4 players: won, 15 points" in text


def test_a_set_back_player_set_back_past_the_start_is_not_said_to_shed_less_than_nothing():
    """Set-back counts down from 5; a member who ended a game at 8 read "-3 points shed"."""
    up = VariantRow(rank=2, user_id=2, name="bob", games_played=1, games_won=0, points=-3)
    down = VariantRow(rank=1, user_id=1, name="alice", games_played=1, games_won=1, points=5)
    embed = variant_board_embed(VariantBoard("set-back", True, (down, up), own=up), "bob")
    assert "alice — 1 won of 1 (5 points shed)" in embed.description
    assert "bob — 0 won of 1 (set back 3 points in all)" in embed.description
    assert "-3" not in embed.description
