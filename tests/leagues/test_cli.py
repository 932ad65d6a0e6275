"""`python -m bot league schedule`: text, JSON and the refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli
from bot.leagues.progressive import schedule

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_schedule_json_has_the_documented_shape(capsys):
    code, out, err = run(capsys, "league", "schedule", "--players", "10", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"rounds", "repeated_partnerships"}
    assert data == schedule(10).to_dict()
    assert data["repeated_partnerships"] == 0
    for rnd in data["rounds"]:
        assert set(rnd) == {"tables", "byes"}
        assert len(rnd["tables"]) == 2 and len(rnd["byes"]) == 2
        for table in rnd["tables"]:
            assert len(table) == 2 and all(len(side) == 2 for side in table)
        players = [p for t in rnd["tables"] for side in t for p in side] + rnd["byes"]
        assert sorted(players) == list(range(10))


def test_schedule_text_tells_a_perfect_schedule(capsys):
    code, out, _ = run(capsys, "league", "schedule", "--players", "8")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "8 players, 7 rounds of 2 tables"
    assert lines[1].startswith("Round 1: table 1: ")
    assert lines[-1] == "Every two players are partners once and opponents twice."


def test_schedule_text_reports_what_is_not_perfect(capsys):
    code, out, _ = run(capsys, "league", "schedule", "--players", "7")
    assert code == 0
    assert out.splitlines()[0] == "7 players, 7 rounds of 1 table (3 sit out each round)"
    assert "sitting out:" in out
    assert out.splitlines()[-1].startswith("Repeated partnerships: 0; two players are opponents")


@pytest.mark.parametrize("players", ["3", "201", "0", "-4"])
def test_schedule_refuses_a_number_out_of_range(capsys, players):
    code, out, err = run(capsys, "league", "schedule", "--players", players)
    assert code == 2 and out == ""
    assert "4 to 200 players" in err


@pytest.mark.parametrize("players", ["9" * 30, "-" + "1" * 5000])
def test_schedule_tells_a_number_too_long_to_read_the_range(capsys, players):
    """`--players 999…9` (30 digits) was told "'999…' is not a whole number", which it is; it
    is told the range, as 201 is, its digits cut short."""
    with pytest.raises(SystemExit) as stopped:
        run(capsys, "league", "schedule", "--players", players)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "a schedule needs 4 to 200 players, not " in err, err
    assert "whole number" not in err and len(err) < 400, err


@pytest.mark.parametrize("players", ["٤", "1_2", "１２", "12.0"])
def test_schedule_reads_ascii_digits_only(capsys, players):
    with pytest.raises(SystemExit) as stopped:
        run(capsys, "league", "schedule", "--players", players)
    assert stopped.value.code == 2
    assert "is not a whole number" in capsys.readouterr().err


def test_schedule_refuses_a_non_number():
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "league", "schedule", "--players", "ten"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "'ten' is not a whole number" in proc.stderr
