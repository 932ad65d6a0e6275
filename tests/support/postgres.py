"""A throwaway PostgreSQL server for the tests, and a database for each test on it.

The server is Debian's PostgreSQL 15 (``initdb`` and ``pg_ctl`` on the PATH or under
``/usr/lib/postgresql/*/bin``), started on first use: a cluster in a temporary directory owned by
the ``postgres`` user (the server refuses to run as root), listening on 127.0.0.1 on a free port
with its unix socket in that directory, fsync off (a test's data need not survive a crash). It
is stopped, and its directory removed, when the test session ends (:func:`stop`).

The suites choose their backend with ``EUCHRE_TEST_DATABASE``: ``sqlite`` (the default) or
``postgres``. :func:`database_for` turns a test's SQLite path into the database the test uses:
the path itself, or under ``postgres`` an empty database of the test's own (a copy of a template
that has every migration applied, emptied after each test for the next one) that the same path
finds again when the test reopens it (restart tests).
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from bot.storage.database import Database

BACKEND = os.environ.get("EUCHRE_TEST_DATABASE", "sqlite").strip().lower() or "sqlite"
TEMPLATE = "euchre_template"


class Unavailable(RuntimeError):
    """PostgreSQL cannot be started on this machine; the message says why."""


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if candidates:
        return candidates[-1]
    raise Unavailable(f"{name} is not installed (apt-get install postgresql)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_postgres(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a server command as the `postgres` user when we are root (initdb refuses root)."""
    if os.geteuid() == 0:
        args = ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload,no-any-return]


@dataclass
class Server:
    """A running throwaway cluster."""

    root: Path
    port: int
    created: dict[str, str] = field(default_factory=dict)  # test path -> database name
    free: list[str] = field(default_factory=list)  # emptied copies of the template, to reuse
    made: int = 0
    template_ready: bool = False

    def dsn(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    @classmethod
    def start(cls) -> Server:
        initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
        root = Path(tempfile.mkdtemp(prefix="euchre-pg-"))
        if os.geteuid() == 0:
            shutil.chown(root, "postgres", "postgres")
        data = root / "data"
        done = _as_postgres(
            [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
             "--no-sync", "--locale=C"]
        )  # fmt: skip
        if done.returncode != 0:
            shutil.rmtree(root, ignore_errors=True)
            raise Unavailable(f"initdb failed: {done.stderr.strip() or done.stdout.strip()}")
        port = _free_port()
        options = (
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        log = root / "server.log"
        done = _as_postgres([pg_ctl, "-D", str(data), "-l", str(log), "-o", options, "-w", "start"])
        if done.returncode != 0:
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else done.stderr
            shutil.rmtree(root, ignore_errors=True)
            raise Unavailable(f"the PostgreSQL server did not start: {detail.strip()}")
        return cls(root, port)

    def stop(self) -> None:
        pg_ctl = _binary("pg_ctl")
        _as_postgres([pg_ctl, "-D", str(self.root / "data"), "-m", "immediate", "stop"])
        shutil.rmtree(self.root, ignore_errors=True)

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.dsn("postgres"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def fresh_database(self, key: str) -> str:
        """The URL of the database for `key`: made (from the migrated template) on first use."""
        if key in self.created:
            return self.dsn(self.created[key])
        if not self.template_ready:
            await self._admin(f"DROP DATABASE IF EXISTS {TEMPLATE}")
            await self._admin(f"CREATE DATABASE {TEMPLATE}")
            db = await Database.open(self.dsn(TEMPLATE))
            await db.close()
            self.template_ready = True
        if self.free:
            name = self.free.pop()
        else:
            self.made += 1
            name = f"test_{self.made}"
            # FILE_COPY copies the template's files at once: about twice as fast as PostgreSQL
            # 15's default (WAL_LOG, block by block), its checkpoint cheap with fsync off.
            await self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY = FILE_COPY")
        self.created[key] = name
        return self.dsn(name)

    async def empty_database(self, key: str) -> str:
        """The URL of a new database with nothing in it (for the migration runner's tests)."""
        self.made += 1
        name = f"empty_{self.made}"
        await self._admin(f"CREATE DATABASE {name}")
        self.created[key] = name
        return self.dsn(name)

    async def release_all(self) -> None:
        """After a test: a copy of the template it used is emptied, to serve the next test (a
        TRUNCATE costs a fraction of a new database); any other database is dropped."""
        names, self.created = list(self.created.values()), {}
        for name in names:
            if name.startswith("test_") and await self._emptied(name):
                self.free.append(name)
            else:
                await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    async def _emptied(self, name: str) -> bool:
        """Empty a copy of the template (its migrations stay recorded); False when it cannot be
        made as new: a trigger or function of the test's own is left in it, or a connection
        the test left open still holds a lock."""
        conn = await asyncpg.connect(self.dsn(name), server_settings={"lock_timeout": "2s"})
        try:
            own = await conn.fetchval(
                "SELECT (SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal)"
                " + (SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace)"
            )
            if own:
                return False
            tables = await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename <> 'schema_migrations'"
            )
            listed = ", ".join(t["tablename"] for t in tables)
            await conn.execute(f"TRUNCATE {listed} RESTART IDENTITY CASCADE")
            return True
        except asyncpg.PostgresError:
            return False
        finally:
            await conn.close()


_server: Server | None = None
_failure: str | None = None


def server() -> Server:
    """The session's server, started on first use.

    Raises:
        Unavailable: it cannot start here (and will not be tried again this session).
    """
    global _server, _failure
    if _failure is not None:
        raise Unavailable(_failure)
    if _server is None:
        try:
            _server = Server.start()
        except Unavailable as error:
            _failure = str(error)
            raise
    return _server


def failure() -> str | None:
    """Why the server could not start, if it was tried and failed."""
    return _failure


def stop() -> None:
    """Stop the server if it was started."""
    global _server
    if _server is not None:
        _server.stop()
        _server = None


def forget_databases() -> None:
    """Empty or drop the databases the last test used (called after each test)."""
    if _server is not None and _server.created:
        asyncio.run(_server.release_all())


async def database_for(path: Path) -> str | Path:
    """Where a test that would use the SQLite file `path` keeps its data on the chosen backend.

    Raises:
        Unavailable: the backend is PostgreSQL and it cannot start here.
    A test skips, saying why, when PostgreSQL cannot start here; the session's summary repeats
    it in capitals (see ``tests/conftest.py``).
    """
    if BACKEND != "postgres":
        return path
    return await postgres_server().fresh_database(str(path))


def postgres_server() -> Server:
    """The session's server, or a skip of the calling test that says why there is none."""
    try:
        return server()
    except Unavailable as error:
        pytest.skip(f"POSTGRESQL CANNOT START HERE, TEST SKIPPED: {error}")
