"""The command line for the variants: `simulate --variant`, its record, and `replay` of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import cli
from bot.engine.variants import NAMES
from tests.test_cli import run


def test_simulate_variant_plays_random_games_and_gives_chips_by_seat(capsys) -> None:
    code, out, _ = run(
        capsys, "simulate", "--variant", "napoleon", "--players", "5", "--matches", "3", "--json"
    )
    assert code == 0
    report = json.loads(out)
    assert report["variant"]["players"] == 5 and report["matches"] == 3
    assert report["points_by"] == "seat" and len(report["points"]) == 5
    assert sum(report["points"]) == 0  # chips change hands


def test_simulate_variant_is_deterministic_for_a_seed(capsys) -> None:
    args = ("simulate", "--variant", "set-back", "--players", "3", "--matches", "2", "--json")
    first = run(capsys, *args, "--seed", "4")[1]
    second = run(capsys, *args, "--seed", "4")[1]
    assert first == second


def test_simulate_variant_text_names_the_figures(capsys) -> None:
    code, out, _ = run(capsys, "simulate", "--variant", "french", "--matches", "2")
    assert code == 0
    assert "games of french, 4 players" in out and "Points by side" in out


def test_simulate_variant_duel_of_computer_levels(capsys) -> None:
    code, out, _ = run(
        capsys,
        "simulate",
        "--variant",
        "two-handed",
        "--a",
        "standard",
        "--b",
        "easy",
        "--matches",
        "4",
        "--json",
    )
    assert code == 0
    duel = json.loads(out)["duel"]
    assert duel["pairs"] == 4 and 0.0 <= duel["share"] <= 1.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--variant", "french", "--players", "3"), "french is played by 4 players, not 3"),
        (("--variant", "napoleon", "--players", "8"), "2 to 7 players"),
        (("--variant", "two-handed", "--a", "expert"), "levels easy, standard and random"),
    ],
)
def test_simulate_variant_bad_arguments_exit_2_with_the_reason(capsys, argv, message) -> None:
    code, out, err = run(capsys, "simulate", *argv, "--matches", "1")
    assert code == cli.EXIT_USAGE and out == "" and message in err


@pytest.mark.parametrize(
    ("variant", "players", "by", "count"),
    [("six-handed", 6, "side", 2), ("three-handed", 3, "seat", 3), ("napoleon", 4, "seat", 4)],
)
def test_replay_json_of_a_variant_record_gives_points_by_side_or_seat(
    capsys, tmp_path: Path, variant: str, players: int, by: str, count: int
) -> None:
    path = tmp_path / "game.json"
    code, out, _ = run(
        capsys,
        "simulate",
        "--variant",
        variant,
        "--players",
        str(players),
        "--matches",
        "1",
        "--a",
        "standard",
        "--b",
        "standard",
        "--record",
        str(path),
        "--json",
    )
    assert code == 0
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["format"] == "variant" and summary["points_by"] == by
    assert summary["deals"] and all(len(d["points"]) == count for d in summary["deals"])
    totals = [0] * count
    for deal in summary["deals"]:
        totals = [t + p for t, p in zip(totals, deal["points"], strict=True)]
    if variant != "set-back":
        assert totals == summary["final_score"]
    if variant == "napoleon":
        assert all(sum(d["points"]) == 0 for d in summary["deals"])
    code, text, _ = run(capsys, "replay", str(path))
    assert code == 0 and f"Final score by {by}" in text


def test_the_replay_of_a_napoleon_game_tied_at_the_top_says_it_has_no_single_winner(
    capsys, tmp_path: Path
) -> None:
    """K: the most chips wins; seed 3 at seven ends with four seats level on +35. The replay's
    text gave the final score and nothing more, as if the game had not ended."""
    path = tmp_path / "game.json"
    args = ("--variant", "napoleon", "--players", "7", "--matches", "1", "--seed", "3")
    args += ("--record", str(path))
    assert run(capsys, "simulate", *args)[0] == 0
    code, text, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert text.strip().endswith(
        "Final score by seat: [-35, 35, -70, 35, -35, 35, 35]; no single winner (a tie at the top)"
    ), text


@pytest.mark.parametrize("variant", NAMES)
def test_a_simulated_variant_record_verifies_deal_by_deal(capsys, tmp_path: Path, variant) -> None:
    """simulate --record deals each deal as a table does, from a seed of its own: verify-deal
    then checks every deal of the record, and a changed seed is caught."""
    path = tmp_path / "game.json"
    code, _, _ = run(capsys, "simulate", "--variant", variant, "--seed", "3", "--record", str(path))
    assert code == 0
    record = json.loads(path.read_text())
    assert record["deals"] and all(deal["seed"] for deal in record["deals"])
    code, out, _ = run(capsys, "verify-deal", str(path))
    assert code == 0 and f"{len(record['deals'])} of {len(record['deals'])} deals verified" in out
    record["deals"][0]["seed"] = "0" * 64
    path.write_text(json.dumps(record))
    code, out, _ = run(capsys, "verify-deal", str(path))
    assert code == 1 and "deal 1" in out


def test_simulate_variant_to_a_path_it_cannot_write_says_so(capsys, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "game.json"
    code, _, err = run(capsys, "simulate", "--variant", "napoleon", "--record", str(missing))
    assert code == cli.EXIT_USAGE and "cannot write" in err and "Traceback" not in err
