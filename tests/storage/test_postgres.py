"""The PostgreSQL backend on a real throwaway server (tests/support/postgres.py): migrations,
transactions, writers of several connections, the batch writer, errors.

These run in every test session (the server starts on first use); they skip, saying so, only
when PostgreSQL cannot start on the machine.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import dialect, leases, results, tables
from bot.storage.batch import BatchWriter
from bot.storage.database import Database, load_migrations
from bot.storage.errors import DatabaseFileError, IntegrityError, LeaseLost, MigrationError
from bot.storage.postgres import SERVER_LOCKS, WRITE_LOCK, server_lock_key
from bot.tables.manager import TableManager
from tests.storage import builders
from tests.support.postgres import postgres_server
from tests.tables.managers import act_randomly, member, seated_table


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
        "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER NOT NULL REFERENCES a (id),"
        " big INTEGER, UNIQUE (a_id)) WITHOUT ROWID;",
    )
    return directory


async def empty(tmp_path: Path) -> str:
    return await postgres_server().empty_database(str(tmp_path))


async def test_postgres_migrations_are_applied_and_recorded(tmp_path, migrations) -> None:
    url = await empty(tmp_path)
    db = await Database.open(url, migrations=migrations)
    try:
        assert db.dialect == "postgresql"
        assert await db.schema_version() == 2
        rows = await db.fetchall("SELECT number, name FROM schema_migrations ORDER BY number")
        assert [tuple(r) for r in rows] == [(1, "0001_first.sql"), (2, "0002_second.sql")]
        # INTEGER is 8 bytes on both backends: a Discord id fits.
        a = await db.fetchval("INSERT INTO a (v) VALUES (?) RETURNING id", ("x",))
        await db.execute("INSERT INTO b (id, a_id, big) VALUES (?, ?, ?)", (1, a, 2**62))
        assert await db.fetchval("SELECT big FROM b") == 2**62
    finally:
        await db.close()


async def test_postgres_reopen_applies_only_new_migrations(tmp_path, migrations) -> None:
    url = await empty(tmp_path)
    db = await Database.open(url, migrations=migrations)
    await db.execute("INSERT INTO a (v) VALUES (?)", ("kept",))
    await db.close()
    write(migrations, "0003_third.sql", "ALTER TABLE a ADD COLUMN w INTEGER NOT NULL DEFAULT 7;")
    db = await Database.open(url, migrations=migrations)
    try:
        assert await db.schema_version() == 3
        row = await db.fetchone("SELECT v, w FROM a")
        assert (row["v"], row["w"]) == ("kept", 7)
    finally:
        await db.close()


async def test_postgres_shards_opening_together_apply_each_migration_once(tmp_path) -> None:
    url = await empty(tmp_path)
    opened = await asyncio.gather(*(Database.open(url) for _ in range(3)))
    try:
        latest = load_migrations()[-1].number
        assert [await db.schema_version() for db in opened] == [latest] * 3
        count = await opened[0].fetchval("SELECT COUNT(*) FROM schema_migrations")
        assert count == latest
    finally:
        for db in opened:
            await db.close()


async def test_postgres_failed_migration_leaves_no_trace(tmp_path, migrations) -> None:
    url = await empty(tmp_path)
    await (await Database.open(url, migrations=migrations)).close()
    write(migrations, "0003_bad.sql", "CREATE TABLE c (x INTEGER);\nSELECT no_such_column FROM a;")
    with pytest.raises(MigrationError, match="0003_bad.sql failed"):
        await Database.open(url, migrations=migrations)
    (migrations / "0003_bad.sql").unlink()
    db = await Database.open(url, migrations=migrations)
    try:
        assert await db.schema_version() == 2
        assert await db.fetchval("SELECT to_regclass('c')") is None
    finally:
        await db.close()


async def test_postgres_newer_database_than_code_is_refused(tmp_path, migrations) -> None:
    url = await empty(tmp_path)
    db = await Database.open(url, migrations=migrations)
    await db.execute(
        "INSERT INTO schema_migrations (number, name, applied_at) VALUES (9, 'x', 'y')"
    )
    await db.close()
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(url, migrations=migrations)


async def test_postgres_unreachable_server_is_named(tmp_path) -> None:
    server = postgres_server()
    url = f"postgresql://postgres@127.0.0.1:{server.port}/no_such_database"
    with pytest.raises(DatabaseFileError, match="no_such_database"):
        await Database.open(url)


async def test_postgres_transactions_commit_roll_back_and_nest(tmp_path, migrations) -> None:
    db = await Database.open(await empty(tmp_path), migrations=migrations)
    try:
        async with db.transaction():
            await db.execute("INSERT INTO a (id, v) VALUES (1, 'kept')")
            with pytest.raises(RuntimeError):
                async with db.transaction():
                    await db.execute("INSERT INTO a (id, v) VALUES (2, 'undone')")
                    raise RuntimeError
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await db.execute("INSERT INTO a (id, v) VALUES (3, 'undone')")
                raise RuntimeError
        assert [r["v"] for r in await db.fetchall("SELECT v FROM a ORDER BY id")] == ["kept"]
        with pytest.raises(IntegrityError) as error:
            await db.execute("INSERT INTO b (id, a_id) VALUES (1, 99)")
        assert error.value.concerns("b_a_id_fkey")
    finally:
        await db.close()


async def test_postgres_writers_of_two_connections_are_serialised(tmp_path, migrations) -> None:
    """Read, then write back: every increment counts, though two connections interleave (each
    task yields between its read and its write)."""
    url = await empty(tmp_path)
    first = await Database.open(url, migrations=migrations)
    second = await Database.open(url, migrations=migrations)
    try:
        await first.execute("INSERT INTO a (id, v) VALUES (1, '0')")

        async def increment(db: Database) -> None:
            async with db.transaction():
                value = int(await db.fetchval("SELECT v FROM a WHERE id = 1"))
                await asyncio.sleep(0)
                await db.execute("UPDATE a SET v = ? WHERE id = 1", (str(value + 1),))

        await asyncio.gather(*(increment(db) for _ in range(10) for db in (first, second)))
        assert await first.fetchval("SELECT v FROM a WHERE id = 1") == "20"
    finally:
        await first.close()
        await second.close()


async def test_postgres_a_write_given_up_while_waiting_for_the_lock_leaves_nothing_begun(
    tmp_path, migrations
) -> None:
    """A write transaction cancelled while it waits for the write lock (its BEGIN and the lock
    go in one round trip) is rolled back: the connection's next transaction is its own, and
    commits what it wrote, and nothing of the one given up."""
    url = await empty(tmp_path)
    db = await Database.open(url, migrations=migrations)
    other = await Database.open(url, migrations=migrations)
    try:
        blocker = other.conn.transaction()
        await blocker.start()
        await other.conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
        entered = asyncio.Event()

        async def given_up() -> None:
            async with db.transaction():
                entered.set()  # never reached: the lock is held
                await db.execute("INSERT INTO a (id, v) VALUES (1, 'given up')")

        waiting = asyncio.create_task(given_up())
        while not await other.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        ):
            await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await blocker.rollback()
        assert not entered.is_set() and not db.conn.is_in_transaction()

        async with db.transaction():
            await db.execute("INSERT INTO a (id, v) VALUES (2, 'kept')")
        assert not db.conn.is_in_transaction()
        rows = await other.fetchall("SELECT id, v FROM a ORDER BY id")
        assert [tuple(r) for r in rows] == [(2, "kept")]
    finally:
        await db.close()
        await other.close()


async def test_postgres_sums_read_back_as_sqlite_gives_them(tmp_path, migrations) -> None:
    db = await Database.open(await empty(tmp_path), migrations=migrations)
    try:
        await db.executemany("INSERT INTO b (id, a_id, big) VALUES (?, ?, ?)", [])
        await db.execute("INSERT INTO a (id, v) VALUES (1, 'x'), (2, 'y')")
        await db.executemany(
            "INSERT INTO b (id, a_id, big) VALUES (?, ?, ?)", [(1, 1, 3), (2, 2, 4)]
        )
        total, mean = tuple(await db.fetchone("SELECT SUM(big), AVG(big) FROM b"))
        assert (total, type(total), mean) == (7, int, 3.5)
    finally:
        await db.close()


async def test_postgres_batch_writer_commits_each_callers_write(tmp_path, migrations) -> None:
    db = await Database.open(await empty(tmp_path), migrations=migrations)
    writer = BatchWriter(db)
    try:

        async def work(d: Database, n: int) -> int:
            return int(await d.fetchval("INSERT INTO a (v) VALUES (?) RETURNING id", (str(n),)))

        async def refused(d: Database) -> None:
            await d.execute("INSERT INTO b (id, a_id) VALUES (1, 12345)")

        results = await asyncio.gather(
            *(writer.write(lambda d, n=n: work(d, n)) for n in range(20)),
            writer.write(refused),
            writer.write(rows=[("INSERT INTO a (v) VALUES (?)", ("row",))]),
            return_exceptions=True,
        )
        assert isinstance(results[20], IntegrityError)
        assert sorted(results[:20]) == sorted(
            r[0] for r in await db.fetchall("SELECT id FROM a WHERE v != 'row'")
        )
        assert await db.fetchval("SELECT COUNT(*) FROM a WHERE v = 'row'") == 1
    finally:
        await writer.close()
        await db.close()


@pytest.mark.parametrize("pause", [0.0, 0.3], ids=["at-once", "notice-read-while-idle"])
async def test_postgres_connection_closed_by_the_server_is_opened_again(tmp_path, pause) -> None:
    """The server ends the bot's session (a restart, a failover): the next statement, and the
    next batch of writes, run on a new connection; a transaction cut midway stores nothing.
    The next statement comes at once, or after the server's notice has reached the idle
    connection."""
    url = await empty(tmp_path)
    db = await Database.open(url)
    other = await Database.open(url)
    try:
        assert db.dialect == "postgresql"

        async def cut() -> None:
            pid = await db.fetchval("SELECT pg_backend_pid()")
            assert await other.fetchval("SELECT pg_terminate_backend(?)", (pid,))
            await asyncio.sleep(pause)

        await db.execute("CREATE TABLE kept (v INTEGER)")
        await cut()
        assert await db.fetchval("SELECT COUNT(*) FROM kept") == 0  # a read alone
        await cut()
        writer = BatchWriter(db)
        await writer.write(rows=[("INSERT INTO kept (v) VALUES (?)", (1,))])  # a batch
        await cut()
        await db.execute("INSERT INTO kept (v) VALUES (2)")  # a write alone

        with pytest.raises(Exception):  # noqa: B017 - whichever error the lost session gives
            async with db.transaction():
                await db.execute("INSERT INTO kept (v) VALUES (3)")
                await cut()
                await db.execute("INSERT INTO kept (v) VALUES (4)")
        await writer.close()
        rows = await db.fetchall("SELECT v FROM kept ORDER BY v")
        assert [r[0] for r in rows] == [1, 2]
        assert db.reconnects >= 4  # type: ignore[attr-defined]
    finally:
        await other.close()
        await db.close()


async def test_postgres_batches_of_two_processes_tables_do_not_queue(tmp_path) -> None:
    """A batch of table rows alone takes no database-wide lock: while one process's batch is
    held up, another process's batch for its own table commits; a takeover of the first table
    waits for that batch, and the old owner's next batch is then refused."""
    url = await empty(tmp_path)
    a = await Database.open(url)
    b = await Database.open(url)
    c = await Database.open(url)
    now = datetime.now(UTC)
    writer_a, writer_b = BatchWriter(a), BatchWriter(b)
    try:
        ours = await tables.create_table(a, 1, 10, 100, {}, {}, now, "a", 10.0)
        theirs = await tables.create_table(b, 1, 11, 101, {}, {}, now, "b", 10.0)
        first = tables.event_row(ours, 1, 0, "game", 0, 100, "pass", "t")
        # Another connection's uncommitted row of the same key holds a's batch up midway,
        # after its checks, as a slow disk or a busy server would.
        blocker = c.conn.transaction()
        await blocker.start()
        text, args = dialect.statement(*first)
        await c.conn.execute(text, *args)
        held = asyncio.create_task(writer_a.write(rows=[first], fence=(ours, 1)))
        await asyncio.sleep(0.3)
        assert not held.done()
        # Process b plays on at its own table meanwhile.
        row = tables.event_row(theirs, 1, 0, "game", 0, 101, "pass", "t")
        await asyncio.wait_for(writer_b.write(rows=[row], fence=(theirs, 1)), timeout=30)
        # Taking a's table over (its lease ran out) waits for a's batch to end.
        takeover = asyncio.create_task(leases.claim(b, [ours], "b", now=20.0, lease=10.0))
        await asyncio.sleep(0.3)
        assert not takeover.done()
        await blocker.rollback()
        await asyncio.wait_for(held, timeout=30)
        assert await asyncio.wait_for(takeover, timeout=30) == {ours: 2}
        # a's next batch for the table finds the new fence: nothing of it is stored.
        late = tables.event_row(ours, 2, 0, "game", 1, 100, "pass", "t")
        with pytest.raises(LeaseLost):
            await writer_a.write(rows=[late], fence=(ours, 1))
        seqs = await a.fetchall("SELECT seq FROM table_events WHERE table_id = ?", (ours,))
        assert [r["seq"] for r in seqs] == [1]
    finally:
        await c.close()  # first: a batch it still holds up goes on, so the writers can close
        await writer_a.close()
        await writer_b.close()
        await a.close()
        await b.close()


async def test_postgres_a_hands_results_do_not_hold_up_other_tables_moves(tmp_path) -> None:
    """In one batch, the moves of tables with nothing else to write commit on their own, while
    the write that needs the database-wide lock (a hand's results) waits for it."""
    url = await empty(tmp_path)
    a = await Database.open(url)
    c = await Database.open(url)
    now = datetime.now(UTC)
    writer = BatchWriter(a)
    try:
        ended = await tables.create_table(a, 1, 10, 100, {}, {}, now, "a", 10.0)
        playing = await tables.create_table(a, 1, 11, 101, {}, {}, now, "a", 10.0)
        # Another process holds the write lock (its own hand's results, say).
        blocker = c.conn.transaction()
        await blocker.start()
        await c.conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)

        async def results(db: Database) -> None:
            await db.execute("UPDATE tables SET host_id = 200 WHERE id = ?", (ended,))

        move = tables.event_row(playing, 1, 0, "game", 0, 101, "pass", "t")
        hand_end = asyncio.create_task(writer.write(results, fence=(ended, 1)))
        played = asyncio.create_task(writer.write(rows=[move], fence=(playing, 1)))
        await asyncio.wait_for(played, timeout=30)
        assert not hand_end.done()
        await blocker.rollback()
        await asyncio.wait_for(hand_end, timeout=30)
        assert await a.fetchval("SELECT host_id FROM tables WHERE id = ?", (ended,)) == 200
    finally:
        await c.close()
        await writer.close()
        await a.close()


async def test_postgres_a_deals_results_lock_only_its_server(tmp_path) -> None:
    """A batch holding a deal's results (`results.record_hands`) waits for a transaction of its
    own server, or one holding the whole database, but never for another server's results; and
    two processes recording one server's deals together count every one."""
    url = await empty(tmp_path)
    a, b, c = [await Database.open(url) for _ in range(3)]
    now = datetime.now(UTC)
    writer_a, writer_b = BatchWriter(a), BatchWriter(b)
    players = builders.seats(1, 2, 3, 4)
    seq: dict[int, int] = {}

    async def deal_ended(writer: BatchWriter, table: int, guild: int, match: int) -> None:
        seq[table] = seq.get(table, 0) + 1
        row = tables.event_row(table, seq[table], 0, "game", 0, 1, "play", "t")
        record = builders.hand(
            match, players, deal=seq[table], maker=0, points=(1, 0), tricks=(3, 2), guild=guild
        )
        await writer.write(
            rows=[row], together=(results.record_hands, [record]), fence=(table, 1), server=guild
        )

    try:
        ours = await tables.create_table(a, 1, 10, 100, {}, {}, now, "a", 10.0)
        theirs = await tables.create_table(b, 2, 11, 101, {}, {}, now, "b", 10.0)
        alongside = await tables.create_table(b, 1, 12, 102, {}, {}, now, "b", 10.0)
        match_of = {t: await results.new_match_id(a, g, t) for t, g in ((ours, 1), (theirs, 2))}
        match_of[alongside] = await results.new_match_id(b, 1, alongside)

        # Server 1's results are held up (a takeover's transaction of that server, say).
        blocker = c.conn.transaction()
        await blocker.start()
        await c.conn.execute(
            "SELECT pg_advisory_xact_lock($1, $2)", SERVER_LOCKS, server_lock_key(1)
        )
        held = asyncio.create_task(deal_ended(writer_a, ours, 1, match_of[ours]))
        await asyncio.sleep(0.3)
        assert not held.done()
        # Server 2's deal is recorded meanwhile, by the other process.
        await asyncio.wait_for(deal_ended(writer_b, theirs, 2, match_of[theirs]), timeout=30)
        await blocker.rollback()
        await asyncio.wait_for(held, timeout=30)

        # A transaction holding the whole database holds up every server's results.
        blocker = c.conn.transaction()
        await blocker.start()
        await c.conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
        held = asyncio.create_task(deal_ended(writer_b, theirs, 2, match_of[theirs]))
        await asyncio.sleep(0.3)
        assert not held.done()
        await blocker.rollback()
        await asyncio.wait_for(held, timeout=30)

        # Two processes, two tables of one server, ten deals each at once: every one counts.
        await asyncio.gather(
            *(deal_ended(writer_a, ours, 1, match_of[ours]) for _ in range(10)),
            *(deal_ended(writer_b, alongside, 1, match_of[alongside]) for _ in range(10)),
        )
        assert (await builders.totals(a, 1, guild=1))["hands_played"] == 21
        assert await a.fetchval("SELECT COUNT(*) FROM hands WHERE guild_id = 1") == 21
    finally:
        await c.close()
        await writer_a.close()
        await writer_b.close()
        await a.close()
        await b.close()


async def test_postgres_a_match_started_and_played_out_locks_only_its_server(tmp_path) -> None:
    """The game manager's results (a match allocated, a deal's, a game's and the match's own)
    lock only their server: they go on while another process holds the write lock shared (as
    its own results do), where a write that locks the whole database waits for it."""
    url = await empty(tmp_path)
    db, other = await Database.open(url), await Database.open(url)
    manager = TableManager(db, timers=False, computer_delay=0, default_preset="modern")
    rng = random.Random(5)
    try:
        table = await seated_table(manager, 31, start=False, points=1)
        blocker = other.conn.transaction()
        await blocker.start()
        await other.conn.execute("SELECT pg_advisory_xact_lock_shared($1::bigint)", WRITE_LOCK)
        await asyncio.wait_for(manager.start(31, member(31, 1)), timeout=30)
        while table.playing:  # to 1 point: the first deal scored ends the game and the match
            await asyncio.wait_for(act_randomly(manager, table, rng), timeout=30)
        status = await db.fetchval("SELECT status FROM matches WHERE id = ?", (table.match_id,))
        assert status == "finished"
        # Making a table is a write of the whole database: it waits for the shared lock.
        making = asyncio.create_task(manager.create(1, 32, member(32, 1), "host"))
        await asyncio.sleep(0.3)
        assert not making.done()
        await blocker.rollback()
        await asyncio.wait_for(making, timeout=30)
    finally:
        await other.close()
        await manager.close()
        await db.close()


async def test_postgres_the_command_line_refuses_a_database_that_is_not_the_bots(tmp_path) -> None:
    """`db verify` and `leaderboard` on an empty database, or on another program's, refuse in
    one line with exit 2 and create nothing there (opening would have made the bot's tables);
    on the bot's own database they answer."""
    import subprocess
    import sys

    import asyncpg

    empty_url = await empty(tmp_path / "empty")
    other_url = await empty(tmp_path / "other")
    ours_url = await empty(tmp_path / "ours")
    conn = await asyncpg.connect(other_url)
    try:
        await conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    finally:
        await conn.close()
    await (await Database.open(ours_url)).close()  # the bot's own, as it makes it

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=120
        )

    for url in (empty_url, other_url):
        for args in (("db", "verify", "--db", url), ("leaderboard", "--db", url, "--guild", "1")):
            done = run(*args)
            assert done.returncode == 2, done.stderr
            assert "is not a database of this bot" in done.stderr
            assert len(done.stderr.strip().splitlines()) == 1
        conn = await asyncpg.connect(url)
        try:
            names = {
                r[0]
                for r in await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                )
            }
        finally:
            await conn.close()
        assert names == ({"invoices"} if url == other_url else set())
    assert run("db", "verify", "--db", ours_url).returncode == 0
