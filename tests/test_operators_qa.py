"""Settings, databases and the command line as an operator meets them.

A setting no restart mends is refused in one line with exit code 2 (which the README's units do
not restart), before anything is created; an empty one is its default; the working directory's
.env is read. The bot and db copy create nothing in another program's database; db copy refuses
a target a bot still runs on, and says what a Ctrl-C left; the reading commands leave an older
database for the bot to upgrade. Real SQLite files, a real PostgreSQL, real `python -m bot`
processes where the exit code and standard error are what is checked."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest
from dotenv import dotenv_values

from bot.cli import main
from bot.config import ConfigError, load_settings
from bot.storage import processes
from bot.storage.database import Database, load_migrations
from bot.storage.errors import DatabaseFileError
from tests.support.postgres import postgres_server

ROOT = Path(__file__).resolve().parents[1]


def settings(**env: str):
    return load_settings({"DISCORD_TOKEN": "t", **env}, dotenv=False)


def python_m_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in `cwd` with only the given settings (no .env, never Discord's address)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    base.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="fake-token.for-tests.only", **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({"DISCORD_API_BASE": "ftp://127.0.0.1:9/api"}, "DISCORD_API_BASE must be a URL beginning"),
        ({"DISCORD_API_BASE": "127.0.0.1:8080/api/v10"}, "DISCORD_API_BASE must be"),
        ({"DISCORD_API_BASE": "http:///api/v10"}, "DISCORD_API_BASE must be"),
        ({"DISCORD_API_BASE": "http://127.0.0.1:80a/api"}, "DISCORD_API_BASE must be"),
        ({"DISCORD_GATEWAY_URL": "https://gateway.discord.gg/"}, "DISCORD_GATEWAY_URL must be"),
        ({"DISCORD_GATEWAY_URL": "gateway.discord.gg"}, "DISCORD_GATEWAY_URL must be"),
    ],
)
def test_a_discord_address_that_is_no_url_of_its_kind_is_refused(env, problem):
    with pytest.raises(ConfigError, match=problem):
        settings(**env)


def test_discord_addresses_of_the_readme_and_the_defaults_are_taken():
    assert settings().api_base == "https://discord.com/api/v10"
    assert settings().gateway_url == "wss://gateway.discord.gg/"
    proxy = settings(
        DISCORD_API_BASE="http://127.0.0.1:8080/api/v10/", DISCORD_GATEWAY_URL="ws://[::1]:7878/"
    )
    assert proxy.api_base == "http://127.0.0.1:8080/api/v10"
    assert proxy.gateway_url == "ws://[::1]:7878/"


def test_a_proxy_password_in_a_refused_address_is_not_shown():
    with pytest.raises(ConfigError) as refused:
        settings(DISCORD_API_BASE="ftp://user:hunter2@proxy:8080/api")
    assert "hunter2" not in str(refused.value) and "user:***@" in str(refused.value)


def test_a_bad_discord_address_exits_2_in_one_line_and_creates_no_database(tmp_path):
    done = python_m_bot(
        tmp_path, DATABASE_URL="sqlite:///euchre.db", DISCORD_API_BASE="discord.com/api/v10"
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("euchre-bot: DISCORD_API_BASE must be a URL beginning http://")
    assert len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "url", ["postgresql://bot:hunter2@localhost/euchre", "sqlite:///euchre.db"]
)
def test_a_url_in_database_path_is_sent_to_database_url_without_showing_it(url):
    with pytest.raises(ConfigError, match="DATABASE_PATH is a file's path") as refused:
        settings(DATABASE_PATH=url)
    assert "DATABASE_URL" in str(refused.value) and "hunter2" not in str(refused.value)
    assert settings(DATABASE_PATH="data/euchre.db").database_path == Path("data/euchre.db")


async def test_db_copy_creates_nothing_in_another_programs_postgresql_database(
    tmp_path, capsys
) -> None:
    """An empty PostgreSQL database is the README's target; one holding another program's
    tables is refused before the copy migrates the bot's tables into it."""
    source = tmp_path / "euchre.db"
    await (await Database.open(source)).close()
    foreign = await postgres_server().empty_database(str(tmp_path / "foreign"))
    conn = await asyncpg.connect(foreign)
    try:
        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        await conn.execute("CREATE TABLE invoices (id integer PRIMARY KEY)")
        code = await asyncio.to_thread(main, ["db", "copy", "--from", str(source), "--to", foreign])
        err = capsys.readouterr().err
        assert code == 2 and "not a database of this bot" in err and "invoices" in err, err
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        assert [t["tablename"] for t in tables] == ["invoices"]
        # Emptied, it is a fine target.
        await conn.execute("DROP TABLE invoices")
        code = await asyncio.to_thread(main, ["db", "copy", "--from", str(source), "--to", foreign])
        assert code == 0, capsys.readouterr()
    finally:
        await conn.close()


async def test_db_copy_refuses_a_target_a_running_bot_uses(tmp_path, capsys) -> None:
    """A process of the bot beating on the target would have the rows of the tables it plays
    replaced under it; one stopped cleanly or silent for longer than a lease is no obstacle."""
    source, target = tmp_path / "new.db", tmp_path / "euchre.db"
    await (await Database.open(source)).close()
    db = await Database.open(target)
    start = processes.Start(
        name="host-a:4242",
        incarnation="i1",
        scope=(2, (0,)),
        lease_owner="shards 0 of 2",
        started_at=time.time(),
        beat_at=time.time(),
    )
    try:
        await processes.register(db, start)
        await db.execute("INSERT INTO bot_state VALUES ('kept', 'yes', 'now')")
    finally:
        await db.close()

    code = await asyncio.to_thread(main, ["db", "copy", "--from", str(source), "--to", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and "the bot runs on the target: host-a:4242" in err, err
    assert len(err.strip().splitlines()) == 1
    with sqlite3.connect(target) as conn:
        assert conn.execute("SELECT value FROM bot_state WHERE key = 'kept'").fetchone() == ("yes",)

    db = await Database.open(target)
    try:
        await processes.stopped(db, start, time.time())
    finally:
        await db.close()
    code = await asyncio.to_thread(main, ["db", "copy", "--from", str(source), "--to", str(target)])
    assert code == 0, capsys.readouterr()


# `python -m bot db copy` whose copy gets a real Ctrl-C (SIGINT to itself) at a set point: as it
# starts reading player_names (after emptying the target's tables and filling some, before it
# commits), or once every row is written, as it commits. A signal sent from outside at a moment
# seen from outside could land after the copy had ended.
INTERRUPTED_COPY = """
import os, signal, sys
# A test run started in the background (as CI may be) has SIGINT ignored, and its children
# inherit that: a terminal's Ctrl-C reaches a copy with the default handler.
signal.signal(signal.SIGINT, signal.default_int_handler)
from bot.storage import cli, copy
def interrupt():
    os.kill(os.getpid(), signal.SIGINT)
rows, whole = copy._rows, cli.copy
async def reading(db, table, columns, ordered):
    if table == "player_names":
        interrupt()
    return await rows(db, table, columns, ordered)
async def committing(source, target, committing):
    return await whole(source, target, lambda: (committing(), interrupt()))
if os.environ["INTERRUPT"] == "reading":
    copy._rows = reading
else:
    cli.copy = committing
from bot.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    ("when", "said", "copied"),
    [
        ("reading", "interrupted: nothing was copied; the target's rows are as they were", 0),
        (
            "committing",
            "interrupted as the copy was being committed: run db verify on the target to see"
            " whether it was made, or db copy again",
            1000,
        ),
    ],
)
async def test_a_copy_stopped_with_ctrl_c_says_what_it_left(
    tmp_path, when: str, said: str, copied: int
) -> None:
    """Before its commit the copy is rolled back, and says so; during it, the commit goes on in
    the database whether or not the copy waits, so it says to check rather than "nothing"."""
    source, target = tmp_path / "big.db", tmp_path / "euchre.db"
    for path in (source, target):
        await (await Database.open(path)).close()
    with sqlite3.connect(source) as conn:
        conn.executemany(
            "INSERT INTO player_names VALUES (7, ?, ?)", ((i, f"n{i}") for i in range(1000))
        )
    with sqlite3.connect(target) as conn:
        conn.execute("INSERT INTO bot_state VALUES ('kept', 'yes', 'now')")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", INTERRUPTED_COPY, "db", "copy", "--from", str(source), "--to", str(target)],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "INTERRUPT": when},
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == said
    with sqlite3.connect(target) as conn:
        kept = conn.execute("SELECT value FROM bot_state WHERE key = 'kept'").fetchone()
        assert kept == (None if copied else ("yes",))
        assert conn.execute("SELECT COUNT(*) FROM player_names").fetchone() == (copied,)


def test_every_setting_left_empty_takes_its_default():
    """.env.example's lines may be emptied: each then means its default, TURN_TIMEOUT too."""
    names = [
        "DATABASE_URL", "DATABASE_PATH", "DEV_GUILD_ID", "OWNER_IDS", "LOG_LEVEL",
        "DEFAULT_PRESET", "TURN_TIMEOUT", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL",
        "SHARD_COUNT", "SHARD_IDS", "REST_BUDGET", "METRICS_PORT", "METRICS_HOST",
    ]  # fmt: skip
    assert settings(**dict.fromkeys(names, " ")) == settings()
    assert settings().turn_timeout == 120


def test_the_env_file_of_the_working_directory_is_read(tmp_path):
    """A bot run from a folder of its own reads that folder's .env (python-dotenv alone looks
    beside the code only, and found none here, or another bot's)."""
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=from-this-folder\nDISCORD_API_BASE=ftp://told-by-this-env/api\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.pop("PYTHON_DOTENV_DISABLED", None)  # tests/conftest.py: no .env in the other tests
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "ftp://told-by-this-env/api" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [".env"]


async def test_a_copy_into_a_missing_directory_names_the_file_once(tmp_path, capsys) -> None:
    source, target = tmp_path / "euchre.db", tmp_path / "missing" / "copy.db"
    await (await Database.open(source)).close()
    code = await asyncio.to_thread(main, ["db", "copy", "--from", str(source), "--to", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and err.count(str(target)) == 1 and "does not exist" in err, err
    assert not target.parent.exists()


async def test_the_bot_creates_no_table_in_another_programs_database(tmp_path) -> None:
    """DATABASE_URL or DATABASE_PATH naming another program's database (a typo, a shared
    server) is refused untouched, on either backend; a new or empty one is the bot's to fill."""
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = foreign.read_bytes()
    done = python_m_bot(tmp_path, DATABASE_PATH=str(foreign))
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"euchre-bot: {foreign} is not a database of this bot (it has tables invoices and none"
        " of the bot's migrations): give the bot its own database, or a new or empty one"
    ]
    assert foreign.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]

    url = await postgres_server().empty_database(str(tmp_path / "foreign"))
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        await conn.execute("CREATE TABLE invoices (id integer PRIMARY KEY)")
        with pytest.raises(DatabaseFileError, match="not a database of this bot"):
            await Database.open(url)
        listed = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        assert [t["tablename"] for t in await conn.fetch(listed)] == ["invoices"]
        await conn.execute("DROP TABLE invoices")
        await (await Database.open(url)).close()  # empty: migrated as a new one
        assert "schema_migrations" in [t["tablename"] for t in await conn.fetch(listed)]
    finally:
        await conn.close()


async def test_the_reading_commands_leave_an_older_database_for_the_bot_to_upgrade(
    tmp_path, capsys
) -> None:
    """db verify and leaderboard read; a database at an older schema (a bot of the older
    version perhaps still running on it) is refused untouched, on either backend, and reads
    once the bot of this version has opened it."""
    known = load_migrations()
    earlier = tmp_path / "migrations"
    earlier.mkdir()
    for migration in known[:-1]:
        (earlier / migration.name).write_text(migration.sql, encoding="utf-8")
    sqlite_file = tmp_path / "old.db"
    server = await postgres_server().empty_database(str(tmp_path / "old"))
    for where in (str(sqlite_file), server):
        await (await Database.open(where, migrations=earlier)).close()
        for command in (
            ["db", "verify", "--db", where],
            ["leaderboard", "--db", where, "--guild", "1"],
        ):
            code = await asyncio.to_thread(main, command)
            err = capsys.readouterr().err
            assert code == 2, err
            assert f"is at schema {known[-2].number}, older than this bot's" in err, err
        db = await Database.open(where, migrations=earlier)
        try:
            assert await db.schema_version() == known[-2].number  # nothing was migrated
        finally:
            await db.close()
        await (await Database.open(where)).close()  # the bot of this version starts on it
        assert await asyncio.to_thread(main, ["db", "verify", "--db", where]) == 0
        capsys.readouterr()


def test_env_example_as_it_is_gives_the_defaults():
    """Copied to .env with only the token filled in, .env.example starts the default bot."""
    values = {k: v or "" for k, v in dotenv_values(ROOT / ".env.example").items()}
    assert set(values) >= {"DISCORD_TOKEN", "TURN_TIMEOUT", "METRICS_HOST", "SHARD_IDS"}
    assert settings(**{**values, "DISCORD_TOKEN": "t"}) == settings()
