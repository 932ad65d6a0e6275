"""Duplicate duels between levels, and `python -m bot simulate --a LEVEL --b LEVEL`."""

from __future__ import annotations

import json

import pytest

from bot import cli
from bot.ai.duel import describe, run_duel
from bot.engine.rules import build_options


def test_a_duel_plays_each_pack_twice_with_the_sides_swapped():
    result = run_duel("standard", "easy", build_options("modern"), pairs=3, seed=5)
    assert result.pairs == 3 and result.matches == 6
    assert result.games == result.side_a.games + result.side_b.games == 6
    assert len(result.pair_shares) == 3
    assert result.side_a.matches + result.side_b.matches == 6
    for side in (result.side_a, result.side_b):
        assert side.made_good <= side.made and side.lone_good <= side.lone
    low, high = result.confidence()
    assert 0 <= low <= result.a_share <= high <= 1


def test_a_level_against_itself_shares_the_games_of_each_pack():
    # With the same level on both sides, each pack order's two matches are mirror images:
    # whoever holds the cards plays them the same way, so the games split evenly.
    result = run_duel("easy", "easy", build_options("modern"), pairs=4, seed=2)
    assert result.side_a.games == result.side_b.games
    assert result.pair_shares == [0.5] * 4


def test_a_duel_is_the_same_for_the_same_seed_and_rubbers_count_games():
    options = build_options("somerset")
    one = run_duel("standard", "random", options, pairs=2, seed=9).to_dict()
    two = run_duel("standard", "random", options, pairs=2, seed=9).to_dict()
    assert one == two
    assert one["games"] >= 3 * one["matches"]
    assert one["side_a"]["rubber_points"] + one["side_b"]["rubber_points"] > 0
    text = "\n".join(describe(run_duel("standard", "random", options, pairs=1, seed=9)))
    assert "95% CI" in text and "points per hand" in text and "rubber points" in text
    assert text.startswith("2 matches (1 pack order, each played twice")  # not "1 pack orders"


def test_unknown_levels_are_refused():
    with pytest.raises(ValueError, match="unknown level"):
        run_duel("wizard", "easy", build_options("modern"), pairs=1)


def test_simulate_with_levels_plays_duplicate_matches(capsys):
    code = cli.main(
        [
            "simulate",
            "--a",
            "standard",
            "--b",
            "easy",
            "--matches",
            "3",
            "--seed",
            "4",
            "--preset",
            "modern",
            "--json",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["levels"] == ["standard", "easy"] and report["matches"] == 4
    assert report["side_a"]["games"] + report["side_b"]["games"] == report["games"] == 4
    for side in ("side_a", "side_b"):
        assert set(report[side]) >= {"points_per_hand", "makers_success", "lone", "games"}
    code = cli.main(
        [
            "simulate",
            "--a",
            "expert",
            "--b",
            "easy",
            "--matches",
            "1",
            "--preset",
            "modern",
            "--option",
            "points=4",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "A (expert) won" in out and "95% CI" in out
