"""The connection, migrations and transactions of bot.storage.database, on real temp files."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage.database import Database, load_migrations
from bot.storage.errors import IntegrityError, MigrationError


def write(directory: Path, name: str, sql: str) -> None:
    (directory / name).write_text(sql, encoding="utf-8")


@pytest.fixture
def migrations(tmp_path: Path) -> Path:
    directory = tmp_path / "migrations"
    directory.mkdir()
    write(directory, "0001_first.sql", "CREATE TABLE a (id INTEGER PRIMARY KEY, v TEXT);")
    write(
        directory,
        "0002_second.sql",
        "-- a comment\nCREATE TABLE b (id INTEGER PRIMARY KEY,\n"
        " a_id INTEGER NOT NULL REFERENCES a(id));",
    )
    return directory


async def test_open_sets_pragmas_and_applies_migrations(tmp_path: Path, migrations: Path) -> None:
    db = await Database.open(tmp_path / "t.db", migrations=migrations)
    try:
        assert (await db.fetchval("PRAGMA journal_mode")) == "wal"
        assert (await db.fetchval("PRAGMA foreign_keys")) == 1
        assert (await db.fetchval("PRAGMA synchronous")) == 1  # NORMAL
        assert await db.schema_version() == 2
        names = {
            r["name"]
            for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type='table'")
        }
        assert {"a", "b"} <= names
    finally:
        await db.close()


async def test_processes_opening_a_new_file_together_apply_each_migration_once(
    tmp_path: Path,
) -> None:
    """Shards in several processes may start at the same moment on a new file: each migration
    is applied by one of them, and the others find it applied rather than fail."""
    path = tmp_path / "t.db"
    opened = await asyncio.gather(*(Database.open(path) for _ in range(4)))
    try:
        latest = load_migrations()[-1].number
        assert [await db.schema_version() for db in opened] == [latest] * 4
    finally:
        for db in opened:
            await db.close()


async def test_reopen_applies_only_new_migrations(tmp_path: Path, migrations: Path) -> None:
    path = tmp_path / "t.db"
    db = await Database.open(path, migrations=migrations)
    await db.execute("INSERT INTO a (v) VALUES (?)", ("kept",))
    await db.close()
    write(migrations, "0003_third.sql", "ALTER TABLE a ADD COLUMN w INTEGER NOT NULL DEFAULT 7;")
    db = await Database.open(path, migrations=migrations)
    try:
        assert await db.schema_version() == 3
        row = await db.fetchone("SELECT v, w FROM a")
        assert (row["v"], row["w"]) == ("kept", 7)
    finally:
        await db.close()


async def test_failed_migration_leaves_no_trace(tmp_path: Path, migrations: Path) -> None:
    path = tmp_path / "t.db"
    db = await Database.open(path, migrations=migrations)
    await db.close()
    write(
        migrations, "0003_bad.sql", "CREATE TABLE c (id INTEGER);\nINSERT INTO nowhere VALUES (1);"
    )
    with pytest.raises(MigrationError, match="0003_bad.sql"):
        await Database.open(path, migrations=migrations)
    (migrations / "0003_bad.sql").unlink()
    db = await Database.open(path, migrations=migrations)
    try:
        assert await db.schema_version() == 2
        assert await db.fetchone("SELECT name FROM sqlite_master WHERE name='c'") is None
    finally:
        await db.close()


def test_gaps_and_duplicates_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "0001_a.sql", "SELECT 1;")
    write(tmp_path, "0003_c.sql", "SELECT 1;")
    with pytest.raises(MigrationError, match="0002 is missing"):
        load_migrations(tmp_path)
    write(tmp_path, "0003_d.sql", "SELECT 1;")
    with pytest.raises(MigrationError, match="Two migrations are numbered 0003"):
        load_migrations(tmp_path)


async def test_newer_file_than_code_is_refused(tmp_path: Path, migrations: Path) -> None:
    path = tmp_path / "t.db"
    db = await Database.open(path, migrations=migrations)
    await db.execute("PRAGMA user_version = 9")
    await db.close()
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(path, migrations=migrations)


def test_package_migrations_are_found() -> None:
    migrations = load_migrations()
    assert migrations, "bot/storage/migrations holds the schema"
    assert [m.number for m in migrations] == list(range(1, len(migrations) + 1))


async def test_transaction_commits_and_rolls_back(tmp_path: Path, migrations: Path) -> None:
    db = await Database.open(tmp_path / "t.db", migrations=migrations)
    try:
        async with db.transaction():
            await db.execute("INSERT INTO a (v) VALUES ('one')")
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await db.execute("INSERT INTO a (v) VALUES ('two')")
                raise RuntimeError("boom")
        assert [r["v"] for r in await db.fetchall("SELECT v FROM a")] == ["one"]
        assert not db.conn.in_transaction
    finally:
        await db.close()


async def test_a_write_given_up_while_waiting_for_another_writer_leaves_nothing_begun(
    tmp_path: Path, migrations: Path
) -> None:
    """A write transaction cancelled while its BEGIN IMMEDIATE waits for another connection's
    write (a command-line tool's, say) leaves no transaction open behind it: the next one is
    its own and commits."""
    path = tmp_path / "t.db"
    db = await Database.open(path, migrations=migrations)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        waiting = asyncio.create_task(given_up_write(db))
        await asyncio.sleep(0.2)  # the BEGIN is waiting in aiosqlite's thread, or soon will be
        waiting.cancel()
        other.execute("ROLLBACK")
        with pytest.raises(asyncio.CancelledError):
            await waiting
        async with db.transaction():
            await db.execute("INSERT INTO a (v) VALUES ('kept')")
        assert not db.conn.in_transaction
        assert [r[0] for r in other.execute("SELECT v FROM a")] == ["kept"]
    finally:
        other.close()
        await db.close()


async def given_up_write(db: Database) -> None:
    async with db.transaction():
        await db.execute("INSERT INTO a (v) VALUES ('given up')")


async def test_nested_transactions_are_savepoints(tmp_path: Path, migrations: Path) -> None:
    db = await Database.open(tmp_path / "t.db", migrations=migrations)
    try:
        async with db.transaction():
            await db.execute("INSERT INTO a (v) VALUES ('outer')")
            async with db.transaction():
                await db.execute("INSERT INTO a (v) VALUES ('inner kept')")
            with pytest.raises(ValueError):
                async with db.transaction():
                    await db.execute("INSERT INTO a (v) VALUES ('inner undone')")
                    raise ValueError
            assert db.in_transaction
        rows = [r["v"] for r in await db.fetchall("SELECT v FROM a ORDER BY id")]
        assert rows == ["outer", "inner kept"]
        # An error escaping the outer block undoes the nested work too.
        with pytest.raises(ValueError):
            async with db.transaction():
                async with db.transaction():
                    await db.execute("INSERT INTO a (v) VALUES ('gone')")
                raise ValueError
        assert await db.fetchval("SELECT count(*) FROM a") == 2
    finally:
        await db.close()


async def test_foreign_keys_are_enforced(tmp_path: Path, migrations: Path) -> None:

    db = await Database.open(tmp_path / "t.db", migrations=migrations)
    try:
        with pytest.raises(IntegrityError):
            await db.execute("INSERT INTO b (a_id) VALUES (42)")
    finally:
        await db.close()


async def test_other_tasks_wait_for_a_transaction(tmp_path: Path, migrations: Path) -> None:
    db = await Database.open(tmp_path / "t.db", migrations=migrations)
    seen: list[int] = []
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with db.transaction():
            await db.execute("INSERT INTO a (v) VALUES ('pending')")
            inside.set()
            await release.wait()
            raise RuntimeError("rolled back")

    async def reader() -> None:
        await inside.wait()
        seen.append(await db.fetchval("SELECT count(*) FROM a"))

    try:
        task = asyncio.create_task(writer())
        read = asyncio.create_task(reader())
        await inside.wait()
        await asyncio.sleep(0.01)
        assert not read.done(), "the reader waits for the writer's transaction"
        release.set()
        with pytest.raises(RuntimeError):
            await task
        await read
        assert seen == [0], "the reader never saw the uncommitted row"
    finally:
        await db.close()


async def test_a_file_migrated_by_user_version_alone_opens_and_records_its_migrations(
    tmp_path: Path,
) -> None:
    """A file made before migrations were recorded in a table (at 0012, `PRAGMA user_version`
    only) opens as it was, and its migrations are recorded, so both backends keep one history."""
    import sqlite3

    path = tmp_path / "old.db"
    known = [m for m in load_migrations() if m.number <= 12]
    conn = sqlite3.connect(path)
    for migration in known:
        conn.executescript(migration.sql)
    conn.execute("PRAGMA user_version = 12")
    conn.execute("INSERT INTO bot_state (key, value, updated_at) VALUES ('k', 'kept', 'x')")
    conn.commit()
    before = conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    conn.close()
    db = await Database.open(path)
    try:
        assert await db.schema_version() == load_migrations()[-1].number
        assert await db.fetchval("SELECT value FROM bot_state WHERE key = 'k'") == "kept"
        recorded = await db.fetchall("SELECT number, name FROM schema_migrations ORDER BY number")
        assert [tuple(r) for r in recorded] == [(m.number, m.name) for m in load_migrations()]
        after = {r[0]: r[1] for r in await db.fetchall("SELECT name, sql FROM sqlite_master")}
        # Every object is kept; only the tables later migrations add columns to are altered.
        # 0016: leases and interaction ids; 0021: whether a league game was played whole
        altered = {"tables", "table_events", "league_games"}
        assert {name for name, _ in before} <= set(after)
        assert all(after[name] == sql for name, sql in before if name not in altered)
    finally:
        await db.close()
