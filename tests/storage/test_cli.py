"""The organisers' command line: `leaderboard` (text and CSV) and `db verify`, through bot.cli."""

from __future__ import annotations

import asyncio
import csv
import io
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage.database import Database
from bot.storage.spreadsheet import cell
from tests.storage.builders import GUILD, at, quick_rubber, seats

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def league(tmp_path: Path) -> Path:
    """A database file with three rubbers: 1 and 3 win two, 5 and 7 one."""
    path = tmp_path / "league.db"
    db = await Database.open(path)
    try:
        await quick_rubber(
            db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 0), when=at("2025-05-01")
        )
        await quick_rubber(
            db, seats(1, 2, 3, 4), winner=0, rubber_points=(4, 1), when=at("2025-05-18")
        )
        await quick_rubber(
            db, seats(5, 6, 7, 8), winner=0, rubber_points=(3, 1), when=at("2025-05-19")
        )
    finally:
        await db.close()
    return path


async def test_a_name_typed_like_a_formula_stays_text_in_the_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A display name such as `=HYPERLINK(...)` opens in a spreadsheet as text, not a link."""
    path = tmp_path / "formulas.db"
    db = await Database.open(path)
    names = ('=HYPERLINK("http://e.vil","x")', "plain", "+1", "@SUM(A1)")  # winners: 1st, 3rd
    try:
        players = tuple(replace(p, name=n) for p, n in zip(seats(1, 2, 3, 4), names, strict=True))
        await quick_rubber(db, players, winner=0, rubber_points=(3, 0), when=at("2025-05-01"))
    finally:
        await db.close()
    arguments = ["leaderboard", "--db", str(path), "--guild", str(GUILD), "--csv"]
    assert await asyncio.to_thread(main, [*arguments, "--metric", "games_won"]) == 0
    shown = {row[2] for row in csv.reader(io.StringIO(capsys.readouterr().out))}
    assert shown == {"name", "'" + names[0], "'" + names[2]}
    assert cell("\t-2") == "'\t-2" and cell("\r@x") == "'\r@x" and cell(names[3]) == "'@SUM(A1)"
    assert cell(-3) == -3 and cell("plain") == "plain"


def test_leaderboard_as_csv(league: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "leaderboard",
            "--db",
            str(league),
            "--guild",
            str(GUILD),
            "--metric",
            "rubber_points",
            "--csv",
        ]
    )
    assert code == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == [
        "rank",
        "user_id",
        "name",
        "rubber_points",
        "rubber_points",
        "rubbers_played",
    ]
    assert rows[1:4] == [
        ["1", "1", "player1", "9", "9", "2"],
        ["1", "3", "player3", "9", "9", "2"],
        ["3", "5", "player5", "3", "3", "1"],
    ]
    assert len(rows) == 1 + 8


def test_leaderboard_as_text_with_a_period(
    league: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "leaderboard",
            "--db",
            str(league),
            "--guild",
            str(GUILD),
            "--period",
            "7d",
            "--now",
            "2025-05-20",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Rubbers won, last 7 days: page 1 of 1, 4 players"
    assert out[1].split() == ["1", "player1", "1", "(1", "rubbers", "played)"]
    assert [line.split()[1] for line in out[1:]] == ["player1", "player3", "player5", "player7"]


def test_leaderboard_bad_input_exits_2(
    league: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leaderboard", "--db", str(league), "--guild", "1", "--metric", "wins"]) == 2
    assert "Unknown leaderboard 'wins'" in capsys.readouterr().err
    assert main(["leaderboard", "--db", str(league), "--guild", str(GUILD), "--page", "9"]) == 2
    assert "no page 9" in capsys.readouterr().err
    missing = tmp_path / "nowhere.db"
    assert main(["leaderboard", "--db", str(missing), "--guild", "1"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not missing.exists(), "a bad path is not created"


def test_verify_consistent_then_tampered(league: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "verify", "--db", str(league)]) == 0
    assert "consistent" in capsys.readouterr().out
    with sqlite3.connect(league) as conn:
        conn.execute(
            "UPDATE player_totals SET rubbers_won = rubbers_won + 1"
            " WHERE user_id = 3 AND bucket = 'all'"
        )
    assert main(["db", "verify", "--db", str(league)]) == 1
    out = capsys.readouterr().out
    assert "1 difference found" in out
    assert "user 3 bucket all preset somerset: rubbers_won stored 3 recomputed 2" in out


def test_verify_refuses_what_is_not_the_bots_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "verify", "--db", str(tmp_path)]) == 2
    assert "not a file" in capsys.readouterr().err
    text = tmp_path / "notes.txt"
    text.write_text("not a database")
    assert main(["db", "verify", "--db", str(text)]) == 2
    assert "not an SQLite database" in capsys.readouterr().err
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (line TEXT)")
    conn.close()
    assert main(["db", "verify", "--db", str(other)]) == 2
    assert "not a database of this bot" in capsys.readouterr().err


def test_python_dash_m_bot_db_verify_exit_codes(league: Path, tmp_path: Path) -> None:
    run = [sys.executable, "-m", "bot", "db", "verify", "--db"]
    good = subprocess.run([*run, str(league)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert good.returncode == 0, good.stderr
    bad = subprocess.run(
        [*run, str(tmp_path / "missing.db")], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and "does not exist" in bad.stderr


@pytest.fixture
async def copied_with_its_log(tmp_path: Path) -> Path:
    """A copy of a database taken while the bot had it open: its schema is still in the -wal."""
    running = tmp_path / "running" / "euchre.db"
    running.parent.mkdir()
    db = await Database.open(running)
    try:
        copy = tmp_path / "copy"
        copy.mkdir()
        for name in (running.name, running.name + "-wal"):
            (copy / name).write_bytes((running.parent / name).read_bytes())
    finally:
        await db.close()
    return copy / running.name


def _damage_truncated_inside_a_frame(wal: Path) -> None:
    wal.write_bytes(wal.read_bytes()[:40_000])


def _damage_shorter_than_its_header(wal: Path) -> None:
    wal.write_bytes(wal.read_bytes()[:20])


def _damage_garbled_header(wal: Path) -> None:
    wal.write_bytes(b"garbage!" + wal.read_bytes()[8:])


def _damage_missing(wal: Path) -> None:
    wal.unlink()


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (_damage_truncated_inside_a_frame, "truncated or damaged (it ends inside a frame"),
        (_damage_shorter_than_its_header, "truncated or damaged (20 bytes, shorter than"),
        (_damage_garbled_header, "truncated or damaged (its header is not a write-ahead log's)"),
        (_damage_missing, "no schema version, and its write-ahead log euchre.db-wal is missing"),
    ],
)
async def test_verify_of_a_file_whose_log_is_damaged_leaves_the_directory_as_it_was(
    copied_with_its_log: Path,
    damage: Callable[[Path], None],
    said: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Refused in one line with exit 2, and neither a -shm nor a -wal is made, nor the file
    changed (opening it, even read-only, makes both side files and may write the log into it)."""
    path = copied_with_its_log
    damage(path.with_name(path.name + "-wal"))
    before = {p.name: p.read_bytes() for p in path.parent.iterdir()}
    code = await asyncio.to_thread(main, ["db", "verify", "--db", str(path)])
    after = {p.name: p.read_bytes() for p in path.parent.iterdir()}
    assert sorted(after) == sorted(before) and after == before
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: ") and said in err, err


async def test_verify_of_a_copy_with_its_whole_log_reads_the_log(
    copied_with_its_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check refuses only a damaged log: an intact one is the database's, and is read."""
    path = copied_with_its_log
    assert await asyncio.to_thread(main, ["db", "verify", "--db", str(path)]) == 0
    assert "consistent" in capsys.readouterr().out
