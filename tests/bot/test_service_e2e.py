"""`python -m bot` as a service: started as a process against the fake Discord, stopped by
SIGTERM or SIGINT with everything saved and its worker processes ended, and refusing a database
file it cannot use with one line and exit code 2."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.helpers import (
    current_table_message,
    enabled_actions,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]

# Generous: two cores shared by several test runs, and each worker process imports the engine.
START_SECONDS = 90
STOP_SECONDS = 60


def bot_env(fake: FakeDiscord | None, db: Path, **more: str) -> dict[str, str]:
    """The process environment of a bot pointed at the fake (never at Discord)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        DATABASE_PATH=str(db),
        LOG_LEVEL="INFO",
        DISCORD_TOKEN="fake-token.for-tests.only",
        # Nothing listens here: a bot that reached for Discord would fail with code 1.
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway",
    )
    if fake is not None:
        env.update(fake.env(), DEV_GUILD_ID=str(fake.guild.id))
    env.update(more)
    return env


class BotProcess:
    """`python -m bot` in a subprocess, its standard error collected as it comes."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.stderr = ""
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, fake: FakeDiscord, cwd: Path, db: Path, **env: str) -> BotProcess:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=cwd,  # no .env there
            env=bot_env(fake, db, **env),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def _read(self) -> None:
        assert self.process.stderr is not None
        async for line in self.process.stderr:
            self.stderr += line.decode(errors="replace")

    async def wait_ready(self) -> None:
        """Until the bot logs that it is ready (its tables loaded and resumed)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_SECONDS
        while "ready as" not in self.stderr:
            if self.process.returncode is not None or loop.time() > deadline:
                raise AssertionError(f"the bot did not become ready:\n{self.stderr}")
            await asyncio.sleep(0.05)

    async def stop(self, signum: int) -> int:
        self.process.send_signal(signum)
        code = await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
        await self._reader
        return code

    async def end(self) -> None:
        """At a test's end: SIGTERM if it still runs, and kill -9 if that does not stop it (a
        test failure: the bot must stop on SIGTERM)."""
        if self.process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
        except TimeoutError:
            self.process.kill()
            await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
            raise AssertionError(f"a bot did not stop on SIGTERM:\n{self.stderr}") from None

    def workers(self) -> list[int]:
        """The pids of the computer players' worker processes (spawned children)."""
        return [
            pid
            for pid, parent, line in _processes()
            if parent == self.process.pid and "spawn_main" in line
        ]


def _processes() -> list[tuple[int, int, str]]:
    """(pid, parent pid, command line) of every process, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # ended meanwhile
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        found.append((int(entry.name), parent, line))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def stored_game_actions(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT COUNT(*) FROM table_events WHERE kind = 'game'").fetchone()[0]
    finally:
        conn.close()


async def reply(handle) -> object:
    message = await handle.message(20)
    assert message.ephemeral, message.text
    return message


async def play_until_workers_run(fake: FakeDiscord, bot: BotProcess, db: Path) -> None:
    """alice plays her turns (the computers play theirs) until worker processes have been
    started and some moves are stored."""
    alice = fake.member("alice")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_SECONDS
    while not bot.workers() or stored_game_actions(db) < 2:
        assert loop.time() < deadline, f"no worker process started:\n{bot.stderr}"
        hand = await reply(await fake.slash(alice, fake.channel, "hand"))
        actions = enabled_actions(hand)
        if actions:
            await (await fake.click(alice, hand, actions[0])).response(20)
        await asyncio.sleep(0.2)


async def play_with_computers(fake: FakeDiscord, bot: BotProcess, db: Path) -> None:
    """Once the bot is ready, alice opens a table with three computers and plays until their
    worker processes run."""
    alice = fake.member("alice")
    await bot.wait_ready()
    await reply(await fake.slash(alice, fake.channel, "table create", preset="modern"))
    for _ in range(3):
        await reply(await fake.slash(alice, fake.channel, "table addbot", level="standard"))
    await reply(await fake.slash(alice, fake.channel, "table start"))
    await play_until_workers_run(fake, bot, db)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_stops_the_bot_cleanly_and_the_table_resumes(fake_discord, tmp_path, signum):
    fake, db = fake_discord, tmp_path / "euchre.db"
    alice = fake.member("alice")
    bot = await BotProcess.start(fake, tmp_path, db)
    try:
        await play_with_computers(fake, bot, db)
        workers = bot.workers()
        code = await bot.stop(signum)
    finally:
        if bot.process.returncode is None:
            bot.process.kill()
            await bot.process.wait()

    assert code == 0, bot.stderr
    # The service settles the collector once its tables are in place (bot/collector.py).
    assert "memory settled" in bot.stderr, bot.stderr
    for unwanted in ("leaked semaphore", "voice will NOT be supported", "Traceback"):
        assert unwanted not in bot.stderr, bot.stderr
    assert not [pid for pid in workers if _alive(pid)], "a worker process outlived the bot"
    saved = stored_game_actions(db)
    assert saved > 0

    restored = sum("restored" in m.text for m in fake.public_messages(fake.channel))
    again = await BotProcess.start(fake, tmp_path, db)
    try:
        await again.wait_ready()
        await fake.wait_for(
            lambda: (
                sum("restored" in m.text for m in fake.public_messages(fake.channel)) > restored
            ),
            timeout=START_SECONDS,
            what="the table's channel to be told it was restored",
        )
        hand = await reply(await fake.slash(alice, fake.channel, "hand"))
        assert "no table" not in hand.text.lower() and hand.buttons
        assert stored_game_actions(db) >= saved
        assert await again.stop(signal.SIGTERM) == 0, again.stderr
    finally:
        if again.process.returncode is None:
            again.process.kill()
            await again.process.wait()
    assert "Traceback" not in again.stderr, again.stderr


# -- a database the bot cannot use --------------------------------------------------------


def start_on(db: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=bot_env(None, db),
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
    )


def a_corrupt_file(tmp_path: Path) -> Path:
    path = tmp_path / "corrupt.db"
    path.write_bytes(b"these bytes are not a database\n" * 200)
    return path


def a_file_from_a_future_version(tmp_path: Path) -> Path:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY)")
        conn.execute("PRAGMA user_version = 99")
    return path


def a_missing_directory(tmp_path: Path) -> Path:
    return tmp_path / "no such directory" / "euchre.db"


def a_directory(tmp_path: Path) -> Path:
    path = tmp_path / "a directory.db"
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (a_corrupt_file, "not a database"),
        (a_file_from_a_future_version, "newer than this bot"),
        (a_missing_directory, "does not exist"),
        (a_directory, "is a directory"),
    ],
    ids=["corrupt", "future schema", "missing directory", "directory"],
)
def test_a_database_the_bot_cannot_use_is_refused_with_one_line_and_code_2(tmp_path, make, what):
    path = make(tmp_path)
    before = path.read_bytes() if path.is_file() else None
    done = start_on(path, tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(path) in lines[0] and what in lines[0]
    assert (path.read_bytes() if path.is_file() else None) == before  # left as it was
    assert not (path.parent.exists() and path.parent.name == "no such directory")


def test_a_database_server_that_cannot_be_reached_now_exits_with_code_1_to_be_restarted(tmp_path):
    """A PostgreSQL server down or not started yet (nothing listens on the port) is not a bad
    setting: one line, and exit code 1, which the README's units restart (2 they do not)."""
    url = "postgresql://euchre@127.0.0.1:9/euchre"
    env = bot_env(None, tmp_path / "unused.db", DATABASE_URL=url)
    del env["DATABASE_PATH"]
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=START_SECONDS,
    )
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be reached" in lines[0], done.stderr


async def test_a_bot_killed_outright_leaves_no_worker_behind(fake_discord, tmp_path):
    """kill -9 (or the out-of-memory killer) gives the bot no chance to end its workers: each
    notices its parent is gone and ends by itself, letting go of the bot's standard error."""
    fake, db = fake_discord, tmp_path / "euchre.db"
    bot = await BotProcess.start(fake, tmp_path, db)
    try:
        await play_with_computers(fake, bot, db)
        workers = bot.workers()
        bot.process.kill()
        # The pipe of standard error closes once every worker holding it has ended.
        await asyncio.wait_for(bot.process.wait(), STOP_SECONDS)
        await asyncio.wait_for(bot._reader, STOP_SECONDS)
    finally:
        if bot.process.returncode is None:
            bot.process.kill()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STOP_SECONDS
    while [pid for pid in workers if _alive(pid)]:
        assert loop.time() < deadline, "a worker outlived the killed bot"
        await asyncio.sleep(0.1)


async def test_a_stop_while_waiting_for_the_turn_to_identify_ends_the_process(
    fake_discord, tmp_path
):
    """Another process identified just now (the database holds the bucket's turn well ahead):
    a SIGTERM while this one waits for its turn stops it at once with code 0, where discord.py
    would otherwise try the shard's connection again for ever."""
    import time

    from bot.storage.bot_state import set_value
    from bot.storage.database import Database

    fake, db = fake_discord, tmp_path / "euchre.db"
    opened = await Database.open(db)
    async with opened.transaction():
        await set_value(opened, "identify:0", repr(time.time() + 60))
    await opened.close()
    bot = await BotProcess.start(fake, tmp_path, db)
    try:
        for _ in range(600):  # until the bot is up to its gateway connection
            if "slash commands" in bot.stderr:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        code = await bot.stop(signal.SIGTERM)
    finally:
        if bot.process.returncode is None:
            bot.process.kill()
            await bot.process.wait()
    assert code == 0, bot.stderr
    assert "Traceback" not in bot.stderr and "Retrying" not in bot.stderr, bot.stderr
    assert not fake.identifies


async def test_a_gateway_refusal_no_restart_mends_is_one_line_and_code_2(fake_discord, tmp_path):
    """Discord closes the gateway with 4010 (shard settings it refuses): the bot says what to
    change in one line and exits 2, which the README's units do not restart in a loop."""
    fake = fake_discord

    async def refuse(connection, data):
        await connection.ws.close(code=4010, message=b"Invalid shard.")

    fake._identify = refuse
    bot = await BotProcess.start(fake, tmp_path, tmp_path / "euchre.db", SHARD_COUNT="2")
    try:
        code = await asyncio.wait_for(bot.process.wait(), STOP_SECONDS)
        await bot._reader
    finally:
        await bot.end()
    assert code == 2, bot.stderr
    assert "Traceback" not in bot.stderr
    assert "Discord closed the gateway (4010): the shard settings are invalid" in bot.stderr


async def test_a_metrics_port_already_taken_is_named_as_such(fake_discord, tmp_path):
    """Two processes given one METRICS_PORT by mistake: the second says the port is taken (not
    that Discord cannot be reached), and exits 1 to be tried again."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = await BotProcess.start(
            fake_discord, tmp_path, tmp_path / "euchre.db", METRICS_PORT=str(port)
        )
        try:
            code = await asyncio.wait_for(bot.process.wait(), STOP_SECONDS)
            await bot._reader
        finally:
            await bot.end()
    assert code == 1, bot.stderr
    assert f"cannot serve metrics on 127.0.0.1:{port}" in bot.stderr
    assert "could not reach Discord" not in bot.stderr


# -- a stop under load ----------------------------------------------------------------------

UPDATE_MESSAGE = 7  # the callback a hand's click is answered with: its hand, as it now is


def stored_interactions(db: Path) -> set[int]:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT interaction_id FROM table_events WHERE interaction_id IS NOT NULL"
        ).fetchall()
    finally:
        conn.close()
    return {row[0] for row in rows}


async def test_a_stop_while_tables_play_logs_no_traceback_and_loses_no_acknowledged_action(
    fake_discord, tmp_path
):
    """SIGTERM while members of several tables keep clicking: the clicks, answers, hand and
    table message edits still under way are let finish (or cancelled) before the HTTP session
    closes, so the bot logs no traceback, and every click it acknowledged as played is
    stored."""
    fake, db = fake_discord, tmp_path / "euchre.db"
    bot = await BotProcess.start(fake, tmp_path, db)
    clicks: list = []
    players: list[asyncio.Task[None]] = []

    async def play(member, channel) -> None:
        while True:
            hand = await reply(await fake.slash(member, channel, "hand"))
            actions = enabled_actions(hand)
            if not actions:
                await asyncio.sleep(0.02)
                continue
            handle = await fake.click(member, hand, actions[0])
            clicks.append(handle.interaction)
            await handle.response(20)

    try:
        await bot.wait_ready()
        for n in range(6):
            channel = fake.add_channel(fake.guild, f"euchre-{n}")
            members = [
                fake.add_member(fake.guild, f"{name}{n}")
                for name in ("host", "east", "north", "west")
            ]
            await fake.wait_for(
                lambda channel=channel: fake.find_channel(channel.id) is not None,
                what="the channel",
            )
            await reply(await fake.slash(members[0], channel, "table create", preset="modern"))
            for member in members[1:]:
                await (await fake.slash(member, channel, "table join")).response(20)
            await (await fake.slash(members[0], channel, "table start")).message(20)
            players += [asyncio.create_task(play(m, channel)) for m in members]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_SECONDS
        while stored_game_actions(db) < 30:
            assert loop.time() < deadline, f"the tables did not play:\n{bot.stderr}"
            assert not any(p.done() for p in players), [p for p in players if p.done()]
            await asyncio.sleep(0.1)
        # The members go on clicking while the bot stops.
        code = await bot.stop(signal.SIGTERM)
    finally:
        for player in players:
            player.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        await bot.end()
    assert code == 0, bot.stderr
    assert "Traceback" not in bot.stderr, bot.stderr
    played = [
        click.id
        for click in clicks
        if click.response is not None
        and click.response.type == UPDATE_MESSAGE
        and not click.response.data.get("content")  # no note: not stale, not refused
    ]
    assert len(played) >= 30
    assert set(played) <= stored_interactions(db)


async def test_an_interaction_arriving_as_the_bot_stops_is_told_to_try_again(
    fake_discord, tmp_path
):
    """Once a stop is about to unload the cogs, a command or a click is not run (its command
    or button may be gone) but answered, privately, that the bot is restarting: never
    Discord's "This interaction failed", and nothing changes."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        table_message = await current_table_message(fake, table)
        member = member_at(bot, fake, table.match.to_act)
        hand = await (await fake.click(member, table_message, label="My hand")).message()
        stored = stored_game_actions(tmp_path / "euchre.db")
        bot.stop_taking_interactions()  # as `close` does before discord.py unloads the cogs
        for handle in (
            await fake.click(member, hand, enabled_actions(hand)[0]),
            await fake.slash(member, fake.channel, "hand"),
        ):
            told = await handle.message()
            assert told.ephemeral and told.visible_to == member.id
            assert told.text == "The bot is restarting: please try again in a moment."
        assert stored_game_actions(tmp_path / "euchre.db") == stored
        assert bot.handler_errors == []
