"""The organisers' command line reads its whole-number arguments with the bot's one rule (ASCII
digits, at most SQLite's largest integer): anything else exits 2 with a message, never a
traceback (an id beyond 2**63 was an OverflowError inside SQLite)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.numbers import SQLITE_MAX
from bot.storage.database import Database
from tests.storage.builders import GUILD, at, quick_rubber, seats


@pytest.fixture
async def league(tmp_path: Path) -> Path:
    path = tmp_path / "league.db"
    db = await Database.open(path)
    try:
        await quick_rubber(
            db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 0), when=at("2025-05-01")
        )
    finally:
        await db.close()
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit:  # argparse refuses an argument by exiting 2
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "option, value",
    [
        ("--guild", str(2**63)),
        ("--guild", "9" * 5000),
        ("--guild", "１２"),
        ("--guild", "-1"),
        ("--page", str(2**63)),
        ("--page", "²"),
        ("--page", "0"),
    ],
)
def test_leaderboard_refuses_a_number_out_of_range_or_not_ascii(league, capsys, option, value):
    args = {"--guild": str(GUILD), "--page": "1", option: value}
    flat = [word for pair in args.items() for word in pair]
    code, out, err = _run(capsys, "leaderboard", "--db", str(league), *flat)
    assert code == 2 and out == ""
    assert f"argument {option}:" in err and "Traceback" not in err


def test_verify_refuses_a_guild_beyond_sqlite(league, capsys):
    code, _, err = _run(capsys, "db", "verify", "--db", str(league), "--guild", str(2**64))
    assert code == 2 and "argument --guild:" in err


def test_leaderboard_takes_the_largest_id_and_refuses_a_page_past_the_end(league, capsys):
    code, out, err = _run(
        capsys, "leaderboard", "--db", str(league), "--guild", str(SQLITE_MAX), "--page", "1"
    )
    assert (code, err) == (0, "") and "Nobody is on this leaderboard yet." in out
    for page in ("2", str(SQLITE_MAX)):
        code, out, err = _run(
            capsys, "leaderboard", "--db", str(league), "--guild", str(GUILD), "--page", page
        )
        assert (
            code == 2
            and out == ""
            and err
            == f"error: There is no page {page}"
            + (": this leaderboard has 1 page.\n" if page == "2" else ".\n")
        )
