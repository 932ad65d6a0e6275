"""`db copy` between backends: every row copied, the copy checked, run again safely, and the
commands giving the same output on the copy (real SQLite files and a real PostgreSQL)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage import leagues
from bot.storage.copy import CopyError, in_dependency_order
from bot.storage.database import Database
from tests.storage.builders import GUILD, quick_rubber, seats
from tests.storage.league_builders import league_match, league_of
from tests.support.postgres import postgres_server

# Members join in an order that is not their ids' order: listed in the order they joined.
JOINED = (6, 2, 9, 1, 4, 3)


async def a_bots_database(path: Path) -> None:
    db = await Database.open(path)
    try:
        league = await league_of(db, *JOINED)
        await league_match(db, league, (6, 2, 9, 1), winner=0)
        await league_match(db, league, (4, 3, 6, 2), winner=1)
        await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 1))
    finally:
        await db.close()


async def run(capsys, *argv: str) -> tuple[int, str]:
    code = await asyncio.to_thread(main, list(argv))
    return code, capsys.readouterr().out


async def test_copy_to_postgresql_and_back_keeps_every_row_and_verifies(tmp_path, capsys) -> None:
    source = tmp_path / "euchre.db"
    await a_bots_database(source)
    target = await postgres_server().empty_database(str(tmp_path / "target"))

    code, out = await run(capsys, "db", "copy", "--from", f"sqlite:///{source}", "--to", target)
    assert code == 0, out
    assert "league_members: 6 rows" in out and "The target holds exactly the source's rows" in out
    # Run again: the same target, nothing doubled.
    code, again = await run(capsys, "db", "copy", "--from", str(source), "--to", target)
    assert (code, again) == (0, out)

    outputs = set()
    for db in (str(source), target):
        code, verified = await run(capsys, "db", "verify", "--db", db)
        assert code == 0, verified
        _, board = await run(
            capsys, "leaderboard", "--db", db, "--guild", str(GUILD), "--now", "2025-03-02"
        )
        outputs.add((verified, board))
    assert len(outputs) == 1  # the same output from either

    copied = await Database.open(target)
    try:
        league = await leagues.find_league(copied, GUILD, "Friday Night")
        page = await leagues.member_page(copied, league.id)
        assert [user for user, _ in page.members] == list(JOINED)
        # New rows after the copy are numbered after the copied ones.
        highest = await copied.fetchval("SELECT MAX(id) FROM matches")
        assert await quick_rubber(copied, seats(1, 2, 3, 4), winner=1, rubber_points=(1, 5)) > (
            highest
        )
    finally:
        await copied.close()

    back = tmp_path / "back.db"
    code, out = await run(capsys, "db", "copy", "--from", target, "--to", f"sqlite:///{back}")
    assert code == 0 and "exactly" in out, out


async def test_copy_refuses_the_same_database_and_a_missing_source(tmp_path, capsys) -> None:
    source = tmp_path / "euchre.db"
    code = await asyncio.to_thread(
        main, ["db", "copy", "--from", str(source), "--to", f"sqlite:///{source}"]
    )
    assert code == 2 and "the same database" in capsys.readouterr().err
    code = await asyncio.to_thread(
        main, ["db", "copy", "--from", str(source), "--to", str(tmp_path / "b.db")]
    )
    assert code == 2 and "does not exist" in capsys.readouterr().err


async def test_copy_refuses_another_programs_database_and_an_unknown_scheme(
    tmp_path, capsys
) -> None:
    """Opening a target migrates it: a file of another program is refused before that, and a
    URL of no database this bot knows is one clear line, not a traceback."""
    source = tmp_path / "euchre.db"
    db = await Database.open(source)  # a database of this bot, empty
    await db.close()
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE t (x)")
    before = foreign.read_bytes()
    code = await asyncio.to_thread(
        main, ["db", "copy", "--from", str(source), "--to", str(foreign)]
    )
    assert code == 2 and "not a database of this bot" in capsys.readouterr().err
    assert foreign.read_bytes() == before
    for args in (
        ["--from", str(source), "--to", "ftp://x/y"],
        ["--from", "ftp://x/y", "--to", str(foreign)],
    ):
        code = await asyncio.to_thread(main, ["db", "copy", *args])
        err = capsys.readouterr().err
        assert code == 2 and "unknown database scheme" in err and "Traceback" not in err
    # A database of this bot is a fine target: the copy may be run again.
    again = tmp_path / "again.db"
    for _ in range(2):
        assert (
            await asyncio.to_thread(main, ["db", "copy", "--from", str(source), "--to", str(again)])
            == 0
        )


def test_tables_are_copied_after_the_tables_they_refer_to() -> None:
    references = {"hands": {"matches"}, "matches": {"leagues"}, "leagues": set(), "x": {"x"}}
    assert in_dependency_order(["hands", "matches", "leagues", "x"], references) == [
        "leagues",
        "x",
        "matches",
        "hands",
    ]
    with pytest.raises(CopyError, match="circle"):
        in_dependency_order(["a", "b"], {"a": {"b"}, "b": {"a"}})
