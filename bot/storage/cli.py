"""Command-line subcommands for organisers: leaderboards and checking the totals.

``python -m bot leaderboard --db PATH --guild ID [--metric M] [--period P] [--csv]`` prints a
server's leaderboard (every row as CSV for a spreadsheet, or one page as text), and
``python -m bot db verify --db PATH`` recomputes every player's totals from the recorded hands,
games and matches and lists any difference, and ``python -m bot db copy --from DB --to DB``
copies every row to another database (SQLite to PostgreSQL, say) and compares the two. Every
``--db`` takes a file or a URL (``sqlite:///euchre.db``, ``postgresql://...``).

Exit codes: 0 on success (verify: the totals are consistent), 1 when verify finds differences,
2 on a bad file or argument, with the reason on standard error.

``bot/cli.py`` finds :func:`register_commands` through its ``COMMAND_MODULES``; this module also
runs alone: ``python -m bot.storage.cli ...``.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import logging
import sqlite3
import struct
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.engine.quoting import shown
from bot.engine.rules import PRESETS
from bot.numbers import SQLITE_MAX, parse_whole
from bot.storage import processes
from bot.storage.copy import Copied, CopyError, copy, differences
from bot.storage.database import Database, load_migrations
from bot.storage.errors import StorageError
from bot.storage.leaderboard import METRICS, leaderboard, leaderboard_rows
from bot.storage.seasons import PERIODS
from bot.storage.spreadsheet import cell
from bot.storage.url import DatabaseUrl
from bot.storage.verify import verify

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_DIFFERENCES = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C

_PERIOD_NAMES = {
    "all": "all time",
    "season": "this season",
    "30d": "last 30 days",
    "7d": "last 7 days",
}


class BadDatabase(Exception):
    """The path is not a database file of this bot."""


def register_commands(subparsers: Any) -> None:
    """Add ``leaderboard`` and ``db verify`` to the command line's subcommands."""
    board = subparsers.add_parser(
        "leaderboard", help="print a server's leaderboard (CSV with --csv)"
    )
    board.add_argument("--db", required=True, help=DB_HELP)
    board.add_argument("--guild", required=True, type=_id, help="the server (guild) id")
    board.add_argument(
        "--metric", default="rubbers_won", help=f"one of {', '.join(METRICS)} (default rubbers_won)"
    )
    board.add_argument("--period", default="all", help=f"one of {', '.join(PERIODS)} (default all)")
    board.add_argument(
        "--preset",
        type=_preset,
        default=None,
        help=f"only results under this preset: {', '.join(PRESETS)}",
    )
    board.add_argument(
        "--page", type=_page, default=1, help="the page to print as text (default 1)"
    )
    board.add_argument(
        "--include-bots",
        action="store_true",
        help="count matches in which a computer player or a substitute played",
    )
    board.add_argument("--csv", action="store_true", help="print every row as CSV")
    board.add_argument(
        "--now", type=_moment, default=None, help="measure periods from this UTC date or time"
    )
    board.set_defaults(handler=_leaderboard)

    db = subparsers.add_parser("db", help="database tools")
    tools = db.add_subparsers(dest="db_command", metavar="TOOL", required=True)
    check = tools.add_parser(
        "verify", help="recompute every player's totals from the results and list differences"
    )
    check.add_argument("--db", required=True, help=DB_HELP)
    check.add_argument("--guild", type=_id, default=None, help="one server only")
    check.set_defaults(handler=_verify)
    move = tools.add_parser(
        "copy",
        help="copy every row to another database (replacing its rows), then compare the two",
    )
    move.add_argument("--from", dest="source", required=True, help=DB_HELP)
    move.add_argument(
        "--to", dest="target", required=True, help="the database to fill (made if it is a new file)"
    )
    move.set_defaults(handler=_copy)
    from bot.storage.league_cli import register_recompute  # it builds on this module

    register_recompute(tools)


# The name the brief of bot/cli.py used first; both work.
register = register_commands


def _id(text: str) -> int:
    """A server id: ASCII digits, at most SQLite's largest integer (argparse then exits 2)."""
    number = parse_whole(text)
    if number is None:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not an id: a whole number of at most {len(str(SQLITE_MAX))} digits"
        )
    return number


def _page(text: str) -> int:
    number = parse_whole(text)
    if number is None or number < 1:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a page number (1, 2, ...)")
    return number


def _preset(text: str) -> str:
    """A preset's name, as results are stored under it (a name the bot has none of would only
    give an empty leaderboard, as if nobody had played)."""
    name = text.strip().lower()
    if name not in PRESETS:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a preset: choose one of {', '.join(PRESETS)}"
        )
    return name


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2025-05-20") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


_WAL_MAGIC = (0x377F0682, 0x377F0683)  # the last bit: the checksums' words are big-endian
_WAL_VERSION = 3007000
_WAL_HEADER = 32
_WAL_FRAME_HEADER = 24


def _wal_problem(wal: Path) -> str | None:
    """What is wrong with a write-ahead log no connection has open, or None when nothing is.

    SQLite ignores a log whose header is damaged and the frames after a partial one, so the
    database opens without them; these are the signs of that, read without opening anything.
    (A log that SQLite resets is cut to nothing, never inside a frame: the bot sets no
    journal_size_limit.)
    """
    size = wal.stat().st_size
    if size < _WAL_HEADER:
        return f"{size} bytes, shorter than its {_WAL_HEADER}-byte header"
    with wal.open("rb") as handle:
        header = handle.read(_WAL_HEADER)
    magic, version, page_size = struct.unpack(">3I", header[:12])
    if magic not in _WAL_MAGIC or version != _WAL_VERSION:
        return "its header is not a write-ahead log's"
    words = struct.unpack((">" if magic & 1 else "<") + "6I", header[:24])
    first = second = 0
    for index in range(0, len(words), 2):
        first = (first + words[index] + second) & 0xFFFFFFFF
        second = (second + words[index + 1] + first) & 0xFFFFFFFF
    if (first, second) != struct.unpack(">2I", header[24:]):
        return "its header's checksum is wrong"
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return f"its header gives a page size of {page_size}"
    if (size - _WAL_HEADER) % (page_size + _WAL_FRAME_HEADER):
        return f"it ends inside a frame, at byte {size}"
    return None


def _check_wal(path: Path, header: bytes) -> None:
    """Refuse a file in WAL mode whose log is damaged, truncated or missing, opening nothing.

    Only while no connection has the file open: then it has no ``-shm`` (an open connection
    keeps one, and its log may be half-written at any moment), and any connection would make
    the side files that a refusal must not leave behind.
    """
    wal, shm = path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")
    if len(header) < 100 or header[18:20] != b"\x02\x02" or shm.exists():
        return  # not in WAL mode (or too short: SQLite says why), or open somewhere
    try:
        logged = wal.exists() and wal.stat().st_size > 0
        problem = _wal_problem(wal) if logged else None
    except OSError as error:
        raise BadDatabase(f"cannot read {wal}: {error.strerror or error}") from None
    if problem is not None:
        raise BadDatabase(
            f"{path} cannot be read as a database: its write-ahead log {wal.name} is"
            f" truncated or damaged ({problem})"
        )
    # With no log the file holds everything: its schema version is the header's (bytes 60-63).
    if not logged and struct.unpack(">I", header[60:64])[0] == 0:
        raise BadDatabase(
            f"{path} is not a database of this bot (it has no schema version, and its"
            f" write-ahead log {wal.name} is missing or empty)"
        )


def _check_file(path: Path) -> int:
    """Refuse what is not this bot's database, before opening it (opening creates files);
    return its schema version."""
    if not path.is_file():
        raise BadDatabase(f"{path} does not exist or is not a file")
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise BadDatabase(f"cannot read {path}: {error.strerror or error}") from None
    if header[:16] != b"SQLite format 3\x00":
        raise BadDatabase(f"{path} is not an SQLite database")
    _check_wal(path, header)
    try:
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = probe.execute("PRAGMA user_version").fetchone()[0]
        finally:
            probe.close()
    except sqlite3.Error as error:
        raise BadDatabase(f"{path} cannot be read as a database: {error}") from None
    if version == 0:
        raise BadDatabase(f"{path} is not a database of this bot (it has no schema version)")
    return int(version)


async def _open(target: str | Path, *, upgrade: bool = True) -> Database:
    """The bot's database at `target` (a file or a URL), refused with a message if it is not one.

    `upgrade` False (the commands that only read): one at an older schema than this bot's is
    refused rather than migrated, since a bot of the older version may still be running on it
    (the code updated, the bot not yet restarted): migrating under it would leave what it
    writes from then on out of the new tables (board_counts, say) for good.
    """
    try:
        url = DatabaseUrl.parse(target)
    except StorageError as error:
        raise BadDatabase(str(error)) from None
    if url.path is not None:
        version = _check_file(url.path)
    else:
        version = await _check_server(url)
    latest = max((m.number for m in load_migrations()), default=0)
    if not upgrade and version < latest:
        raise BadDatabase(
            f"{url.display} is at schema {version}, older than this bot's {latest}: reading it"
            " would upgrade it, under a bot of the older version if one still runs on it. Start"
            " the bot of this version on it first (it upgrades the database), or read a copy"
            " (db copy --from it --to a new file)"
        )
    try:
        return await Database.open(url)
    except (sqlite3.Error, StorageError) as error:
        said = str(error)
        raise BadDatabase(said if url.display in said else f"{url.display}: {said}") from None


async def _check_server(url: DatabaseUrl, *, empty_ok: bool = False) -> int:
    """Refuse a PostgreSQL database that is not this bot's (empty, or another program's),
    before opening it: opening would create the bot's tables in it. `empty_ok`: an empty one
    (no table in its schema) is taken, as `db copy`'s new target."""
    assert url.dsn is not None
    try:
        conn = await asyncpg.connect(url.dsn)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise BadDatabase(f"{url.display} cannot be opened: {error}") from None
    try:
        ours = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
        version = (
            await conn.fetchval("SELECT COALESCE(MAX(number), 0) FROM schema_migrations")
            if ours
            else 0
        )
        others = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " ORDER BY tablename LIMIT 4"
        )
    finally:
        await conn.close()
    if not ours and empty_ok and others:
        names = ", ".join(row["tablename"] for row in others[:3])
        raise BadDatabase(
            f"{url.display} is not a database of this bot (it has no schema_migrations table,"
            f" but has tables {names}{', ...' if len(others) > 3 else ''}): copy into an"
            " empty database or one of this bot's"
        )
    if not ours and not empty_ok:
        raise BadDatabase(
            f"{url.display} is not a database of this bot (it has no schema_migrations table)"
        )
    return int(version)


DB_HELP = "the bot's database: its file, or a URL (sqlite:///euchre.db, postgresql://...)"


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_USAGE


# ------------------------------------------------------------------------------ leaderboard


def _leaderboard(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_leaderboard_async(args))
    except BadDatabase as error:
        return _fail(str(error))
    except StorageError as error:
        return _fail(str(error))


def _value(value: float | int, is_rate: bool) -> str:
    return f"{value:.4f}" if is_rate else str(value)


async def _leaderboard_async(args: argparse.Namespace) -> int:
    db = await _open(args.db, upgrade=False)
    try:
        if args.csv:
            metric, rows = await leaderboard_rows(
                db, args.guild, args.metric, args.period, args.preset, args.include_bots, args.now
            )
            out = csv.writer(sys.stdout, lineterminator="\n")
            out.writerow(
                ["rank", "user_id", "name", metric.key, metric.numerator, metric.denominator]
            )
            for row in rows:
                out.writerow(
                    [
                        row.rank,
                        row.user_id,
                        cell(row.name),  # a name typed like a formula stays text
                        _value(row.value, metric.is_rate),
                        row.numerator,
                        row.denominator,
                    ]
                )
            return EXIT_OK
        page = await leaderboard(
            db,
            args.guild,
            args.metric,
            args.period,
            args.preset,
            args.page,
            args.include_bots,
            args.now,
        )
    finally:
        await db.close()
    metric = page.metric
    period = _PERIOD_NAMES[page.period]
    if page.season_name:
        period += f" ({page.season_name})"
    print(
        f"{metric.label}, {period}"
        f"{', preset ' + page.preset if page.preset else ''}"
        f"{', with computer players and substitutes' if page.include_bots else ''}"
        f": page {page.page} of {page.page_count}, {page.total} players"
    )
    if not page.rows:
        print("Nobody is on this leaderboard yet.")
        return EXIT_OK
    width = max(len(row.name) for row in page.rows)
    for row in page.rows:
        detail = (
            f"{row.numerator} of {row.denominator} {metric.denominator.replace('_', ' ')}"
            if metric.is_rate
            else f"{row.denominator} {metric.denominator.replace('_', ' ')}"
        )
        shown = f"{row.value:.1%}" if metric.is_rate else str(row.value)
        print(f"{row.rank:>5}  {row.name:<{width}}  {shown:>8}  ({detail})")
    return EXIT_OK


# ------------------------------------------------------------------------------ db verify


def _verify(args: argparse.Namespace) -> int:
    try:
        problems = asyncio.run(_verify_async(args.db, args.guild))
    except BadDatabase as error:
        return _fail(str(error))
    if problems:
        print(f"{len(problems)} difference{'s' if len(problems) != 1 else ''} found:")
        for line in problems:
            print(f"  {line}")
        return EXIT_DIFFERENCES
    print("The totals are consistent with the recorded hands, games and matches.")
    return EXIT_OK


async def _verify_async(path: str | Path, guild_id: int | None) -> list[str]:
    db = await _open(path, upgrade=False)
    try:
        return await verify(db, guild_id)
    finally:
        await db.close()


# ------------------------------------------------------------------------------ db copy


def _copy(args: argparse.Namespace) -> int:
    made: list[str] = []  # how far the copy's transaction got: "committing", then "made"
    try:
        copied, problems, running = asyncio.run(_copy_async(args.source, args.target, made))
    except (BadDatabase, CopyError) as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        # Ctrl-C (SIGINT): the copy is one transaction, rolled back unless it was committed.
        if "made" in made:
            said = (
                "interrupted while comparing the two databases: the copy was made; run db verify"
                " on the target, or db copy again"
            )
        elif made:
            # The commit goes on in the database even when the copy stops waiting for it.
            said = (
                "interrupted as the copy was being committed: run db verify on the target to"
                " see whether it was made, or db copy again"
            )
        else:
            said = "interrupted: nothing was copied; the target's rows are as they were"
        print(said, file=sys.stderr)
        return EXIT_INTERRUPTED
    for each in copied:
        print(f"{each.table}: {each.rows} row{'s' if each.rows != 1 else ''}")
    total = sum(each.rows for each in copied)
    print(f"Copied {total} rows of {len(copied)} tables.")
    if running:
        # The copy is one snapshot of the source: a bot moved to the target afterwards would
        # start without what the one still running writes from now on.
        print(
            f"warning: the bot still runs on the source, {running}: what it writes from now on"
            " is not in the target; stop every process of the bot before starting it on the"
            " target",
            file=sys.stderr,
        )
    if problems:
        print(f"{len(problems)} difference{'s' if len(problems) != 1 else ''} after the copy:")
        for line in problems:
            print(f"  {line}")
        return EXIT_DIFFERENCES
    print("The target holds exactly the source's rows.")
    return EXIT_OK


async def _copy_async(
    source: str, target: str, made: list[str] | None = None
) -> tuple[list[Copied], list[str], str]:
    """The copy, the differences after it, and the processes of the bot running on the source
    as it was read ("" for none)."""
    try:
        url, origin_url = DatabaseUrl.parse(target), DatabaseUrl.parse(source)
    except StorageError as error:
        raise BadDatabase(str(error)) from None
    if origin_url == url:
        raise BadDatabase("the source and the target are the same database")
    if url.path is not None and url.path.exists() and url.path.stat().st_size > 0:
        # Opening migrates: never write the bot's tables into another program's file. A
        # database of this bot is a fine target (the copy can run again).
        _check_file(url.path)
    elif url.dsn is not None:
        await _check_server(url, empty_ok=True)  # nor into another program's database
    origin = await _open(source)
    try:
        try:
            # The target may be new (a file, or an empty PostgreSQL database): opening migrates it.
            destination = await Database.open(url)
        except (sqlite3.Error, StorageError) as error:
            said = str(error)
            raise BadDatabase(said if url.display in said else f"{url.display}: {said}") from None
        try:
            await _refuse_a_running_bot(destination, "target")
            running = await _running_bot(origin)
            stage = made if made is not None else []
            # One snapshot of the source for the copy and the comparison after it: a bot still
            # running on the source writes on meanwhile, and those rows are not the copy's.
            async with origin.transaction(read_only=True):
                copied = await copy(origin, destination, lambda: stage.append("committing"))
                stage.append("made")
                return copied, await differences(origin, destination), running
        finally:
            await destination.close()
    finally:
        await origin.close()


# A process of the bot beats every third of a lease (bot/shard_guard.py); one whose last beat is
# older than a lease (bot/tables/manager.py's LEASE_SECONDS) has stopped without a word.
RUNNING_BEAT = 6.0


async def _running_bot(db: Database) -> str:
    """The processes of the bot running on a database, as one names them ("" for none):
    `host-a:4242 (its last heartbeat 1 s ago)`, `... and 2 more`."""
    now = time.time()
    live = [start for start in await processes.running(db) if now - start.beat_at < RUNNING_BEAT]
    if not live:
        return ""
    first = live[0]
    more = f" and {len(live) - 1} more" if len(live) > 1 else ""
    return f"{first.name}{more} (its last heartbeat {max(0.0, now - first.beat_at):.0f} s ago)"


async def _refuse_a_running_bot(db: Database, role: str) -> None:
    """Refuse a database a process of the bot runs on: a copy into it would replace the rows of
    the tables it is playing under it (the README says to stop the bot first)."""
    running = await _running_bot(db)
    if running:
        raise BadDatabase(
            f"the bot runs on the {role}: {running}; stop every process of the bot before copying"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Run these subcommands alone (``python -m bot.storage.cli``); returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bot.storage.cli")
    register_commands(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
