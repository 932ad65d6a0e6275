"""The command line as an operator runs it from the README, exactly as written.

Each command's arguments either do what the README says or are refused in one line with exit
code 2, nothing printed on standard output and nothing written: an argument is never taken and
then quietly ignored.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from aiohttp import web

from bot.cli import EXIT_USAGE, main
from bot.storage import cli as storage_cli
from bot.storage import processes
from bot.storage.database import Database
from tests.bot.helpers import running_bot
from tests.storage.builders import GUILD, quick_rubber, seats
from tests.support.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- simulate: a variant's options, and arguments of the other kind of game ----------------------


def test_simulate_plays_a_variant_with_its_options_as_a_table_does(capsys, tmp_path: Path) -> None:
    """`/table create variant:french points:5` has its counterpart on the command line:
    `--option points=5` plays French euchre to 5, says so, and the record keeps it."""
    record = tmp_path / "french.json"
    argv = ("simulate", "--variant", "french", "--option", "points=5", "--matches", "2")
    code, out, err = run(capsys, *argv, "--record", str(record))
    assert code == 0, err
    assert out.startswith("2 games of french, 4 players, points 5, seed 0")
    assert json.loads(record.read_text())["variant"] == {
        "variant": "french",
        "players": 4,
        "points": 5,
    }
    code, out, err = run(capsys, "replay", str(record), "--json")
    assert code == 0 and json.loads(out)["variant"]["points"] == 5, err

    code, out, err = run(
        capsys,
        *("simulate", "--variant", "set-back", "--players", "3", "--matches", "1", "--json"),
        *("--option", "declare_all=true", "--option", "euchre_deducts=on"),
    )
    assert code == 0, err
    assert json.loads(out)["variant"] == {
        "variant": "set-back",
        "players": 3,
        "declare_all": True,
        "euchre_deducts": True,
    }


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (("--variant", "french", "--preset", "modern"), "--preset is for four-handed euchre"),
        (("--players", "3"), "--players is for --variant"),
        (("--variant", "french", "--option", "rounds=2"), "it is an option of napoleon"),
        (("--variant", "set-back", "--option", "declare_all=maybe"), "must be true or false"),
        (("--variant", "napoleon", "--option", "rounds=0"), "from 1 to 100"),
        (("--variant", "french", "--option", "points"), "takes NAME=VALUE"),
    ],
)
def test_simulate_refuses_an_argument_it_would_not_use(capsys, tmp_path, argv, reason) -> None:
    record = tmp_path / "none.json"
    code, out, err = run(capsys, "simulate", *argv, "--matches", "1", "--record", str(record))
    assert code == EXIT_USAGE and out == "" and not record.exists()
    assert len(err.strip().splitlines()) == 1 and reason in err, err


# -- the tests after the README's install ---------------------------------------------------------


def test_the_checkouts_env_file_does_not_reach_the_bots_the_tests_start(tmp_path: Path) -> None:
    """The README's install copies .env.example to .env in the checkout, and its test run comes
    after. A bot a test starts runs in a folder of its own, where the bot falls back on the .env
    beside its code: the checkout's DATABASE_URL met the test's DATABASE_PATH ("set one, not
    both") and two dozen tests of bot processes failed. The tests' bots read no .env."""
    checkout, elsewhere = tmp_path / "checkout", tmp_path / "elsewhere"
    checkout.mkdir()
    elsewhere.mkdir()
    (checkout / "bot").symlink_to(ROOT / "bot", target_is_directory=True)
    (checkout / ".env").write_text((ROOT / ".env.example").read_text(encoding="utf-8"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(checkout),
        DISCORD_TOKEN="fake-token.for-tests.only",
        DATABASE_PATH=str(elsewhere / "euchre.db"),
        DISCORD_API_BASE="ftp://the-tests-own/api",  # refused: the bot stops before Discord
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "ftp://the-tests-own/api" in done.stderr, done.stderr
    assert list(elsewhere.iterdir()) == []


# -- leaderboard --preset ----------------------------------------------------------------------


async def test_leaderboard_refuses_a_preset_the_bot_has_not(capsys, tmp_path: Path) -> None:
    """A preset misspelt gave an empty leaderboard, as if nobody had played under it; a
    preset's name in capitals is the preset."""
    path = tmp_path / "club.db"
    db = await Database.open(path)
    try:
        await quick_rubber(db, seats(1, 2, 3, 4), winner=0, rubber_points=(5, 0))
    finally:
        await db.close()
    board = ("leaderboard", "--db", str(path), "--guild", str(GUILD))
    code, out, err = await asyncio.to_thread(run, capsys, *board, "--preset", "Somerset")
    assert code == 0 and "page 1 of 1, 2 players" in out, err
    for wrong in ("somerest", "24-card"):
        with pytest.raises(SystemExit) as refused:
            main([*board, "--preset", wrong])
        out, err = capsys.readouterr()
        assert refused.value.code == EXIT_USAGE and out == ""
        assert f"'{wrong}' is not a preset: choose one of somerset, jerome, modern" in err


# -- a gateway proxy ---------------------------------------------------------------------------


async def test_a_bot_of_one_process_connects_to_the_gateway_proxy_it_is_given(tmp_path) -> None:
    """DISCORD_GATEWAY_URL names a gateway proxy that keeps the sessions open across restarts.
    A bot of one process (no SHARD_COUNT) asks Discord how many shards it needs, and Discord's
    answer also names Discord's own gateway: the bot connected there, past the proxy."""
    direct = FakeDiscord()  # Discord's own gateway, as GET /gateway/bot names it
    await direct.start()
    proxy = FakeDiscord()

    async def bot_gateway(request: web.Request) -> web.Response:
        limits = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        answer = {"url": direct.gateway_url, "shards": 1, "session_start_limit": limits}
        # Exactly "application/json", as Discord sends it and discord.py compares it.
        return web.Response(
            body=json.dumps(answer).encode(), headers={"Content-Type": "application/json"}
        )

    proxy._get_gateway = bot_gateway  # type: ignore[method-assign]
    await proxy.start()
    try:
        proxy.seed()
        with proxy.patched():
            async with running_bot(proxy, tmp_path / "euchre.db") as bot:
                assert bot.settings.shard_count is None
                assert bot.settings.gateway_url == proxy.gateway_url
                assert [shard for _, shard, _, ok in proxy.identifies if ok] == [0]
        assert direct.identifies == [] and direct.gateway_connections == []
    finally:
        await proxy.stop()
        await direct.stop()


# -- a REST address that is not Discord's API -----------------------------------------------------


async def test_an_api_base_without_its_version_is_refused_in_one_line_and_code_2(tmp_path) -> None:
    """DISCORD_API_BASE=http://127.0.0.1:8080, a REST proxy's address without /api/v10: every
    request is answered 404. The start ended in a traceback and exit code 1, which the units
    restart for ever; it is a setting to change, said in one line, with code 2."""
    async with FakeDiscord.serve() as fake:
        fake.seed()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        env.update(
            fake.env(),
            DISCORD_API_BASE=fake.base_url,  # the fake's API is at /api/v10
            DATABASE_PATH=str(tmp_path / "euchre.db"),
            PYTHONPATH=str(ROOT),
        )
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        fake.unknown_routes.clear()  # what the bot asked for at the wrong address
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and fake.token not in done.stderr
    refusals = [line for line in done.stderr.splitlines() if line.startswith("euchre-bot:")]
    assert len(refusals) == 1, done.stderr
    assert f"{fake.base_url} answered 404 Not Found to GET /users/@me" in refusals[0]
    assert "DISCORD_API_BASE must be" in refusals[0]


# -- db copy from a database the bot still runs on ---------------------------------------------


async def test_db_copy_from_a_source_the_bot_still_runs_on_says_so(tmp_path, capsys) -> None:
    """The README says to stop the bot before db copy. A copy made while it still runs is one
    snapshot, and said 'The target holds exactly the source's rows' and nothing else: a bot
    then started on the target lacks everything written since. The copy is made, and a warning
    says what it lacks and what to do; a bot stopped cleanly draws none."""
    source, target = tmp_path / "euchre.db", tmp_path / "copy.db"
    db = await Database.open(source)
    start = processes.Start(
        name="host-a:4242",
        incarnation="i1",
        scope=None,
        lease_owner="the bot",
        started_at=time.time(),
        beat_at=time.time(),
    )
    try:
        await processes.register(db, start)
    finally:
        await db.close()
    copy = ("db", "copy", "--from", str(source), "--to", str(target))
    code, out, err = await asyncio.to_thread(run, capsys, *copy)
    assert code == 0 and "The target holds exactly the source's rows." in out, err
    assert err.startswith("warning: the bot still runs on the source, host-a:4242 (its last")
    assert "stop every process of the bot before starting it on the target" in err
    assert len(err.strip().splitlines()) == 1

    db = await Database.open(source)
    try:
        await processes.stopped(db, start, time.time())
    finally:
        await db.close()
    again = ("db", "copy", "--from", str(source), "--to", str(tmp_path / "again.db"))
    code, out, err = await asyncio.to_thread(run, capsys, *again)
    assert code == 0 and err == "", err


async def test_db_copy_of_a_running_bot_compares_the_snapshot_it_copied(
    tmp_path, capsys, monkeypatch
) -> None:
    """A row the running bot writes between the copy and the comparison after it was listed
    as a difference (exit 1) although the copy was exactly the snapshot it read: the copy of a
    running bot, a backup, always looked broken. Both now read the same snapshot."""
    source, target = tmp_path / "euchre.db", tmp_path / "backup.db"
    await (await Database.open(source)).close()
    copy_rows = storage_cli.copy

    async def copy_then_the_bot_writes(origin, destination, committing=None):
        copied = await copy_rows(origin, destination, committing)
        with sqlite3.connect(source) as conn:  # the running bot, on a connection of its own
            conn.execute("INSERT INTO bot_state VALUES ('written', 'after the copy', 'now')")
        return copied

    monkeypatch.setattr(storage_cli, "copy", copy_then_the_bot_writes)
    copy = ("db", "copy", "--from", str(source), "--to", str(target))
    code, out, err = await asyncio.to_thread(run, capsys, *copy)
    assert code == 0 and "The target holds exactly the source's rows." in out, out + err
    with sqlite3.connect(target) as conn:
        assert conn.execute("SELECT COUNT(*) FROM bot_state WHERE key = 'written'").fetchone() == (
            0,
        )
