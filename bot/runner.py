"""Running the bot as a service: settings, logging, the database, and a clean stop.

A start that cannot go on says why in one line on standard error and exits with code 2: no
token or a wrong one, a DISCORD_API_BASE that is not Discord's API, or a database file the bot cannot use (its directory is missing, it is not
a database, its schema is newer than the bot), or another process of the bot already running on
its shards (`bot/shard_guard.py`). A database server that cannot be reached now
(down, starting, not found) exits with code 1, which the service manager restarts. SIGTERM (what systemd and docker send) and
SIGINT (Ctrl-C) stop the bot in order: it leaves the gateway, flushes the tables' queued
writes, ends its worker processes and closes the database, then exits with code 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import sys

import aiohttp
import asyncpg
import discord
import yarl

from bot.config import TOKEN_HELP, ConfigError, Settings, load_settings
from bot.metrics import MetricsUnavailable
from bot.shard_guard import ShardsTaken, StoppedWaiting
from bot.storage.database import Database
from bot.storage.errors import DatabaseUnreachable, StorageError
from bot.storage.url import DatabaseUrl

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

# Gateway close codes that no restart mends, and what to change (Discord's list of codes).
GATEWAY_REFUSALS = {
    4010: "the shard settings are invalid: SHARD_IDS must be below SHARD_COUNT, which every"
    " process must share",
    4011: "this bot is in too many servers for one shard: set SHARD_COUNT (see the README's"
    " section on shards)",
    4012: "the gateway's API version is no longer served: update the bot",
    4013: "the gateway's intents are invalid: update the bot",
}


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic where the settings say (Discord's, a proxy, or a fake)."""
    discord.http.Route.BASE = settings.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


async def serve(settings: Settings) -> None:
    """Open the database, run the bot until it is stopped by a signal, and shut it down.

    Raises:
        StorageError: the database file cannot be used (before Discord is contacted).
    """
    from bot.client import EuchreBot, StoppedStarting

    db = await Database.open(settings.database)
    point_at(settings)
    bot = EuchreBot(settings, database=db, settle_memory=True)
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop(signum: signal.Signals) -> None:
        if stopping:
            return  # already stopping: a second Ctrl-C does not cut the flush short
        log.info("%s received: stopping", signum.name)
        stopping.append(loop.create_task(bot.close(), name="euchre-stop"))

    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop, signum)
    try:
        async with bot:
            await bot.start(settings.token)
    except StoppedStarting:
        log.info("stopped while waiting for the turn to connect to the gateway")
    except StoppedWaiting:
        log.info("stopped while waiting to see whether another process on these shards runs")
    except Exception as error:
        if not stopping and bot.shards_taken is None:
            raise
        # Stopped while still starting: what failed was cut short by the stop itself.
        log.info("stopped before the start was complete (%r)", error)
    finally:
        # Also after a failed start: the tables' writes are flushed and the workers ended.
        await bot.close()
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
    if bot.shards_taken is not None:
        raise bot.shards_taken  # a process started before this one runs on its shards
    log.info("stopped")


def run() -> int:
    """Start the bot; return the process exit code (2 for a bad token or database file)."""
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"euchre-bot: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        print(
            f"euchre-bot: Discord refused the token (it is wrong or was reset). {TOKEN_HELP}",
            file=sys.stderr,
        )
        return 2
    except discord.NotFound as error:
        # Discord's API has every route a start uses: a 404 before the bot is up comes from
        # an address that is not the API's (a REST proxy's root, without /api/v10; another
        # web server). No restart mends it, and it is no token's fault either.
        request = f"{error.response.method} {error.response.url.path}"
        print(
            f"euchre-bot: {settings.api_base} answered 404 Not Found to {request}:"
            " DISCORD_API_BASE must be the address of Discord's REST API, or of a REST proxy"
            " in front of it, with its version (https://discord.com/api/v10,"
            " http://127.0.0.1:8080/api/v10).",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "euchre-bot: Discord refused the gateway's intents (close code 4014): this"
            " application may not use the intents the bot asks for; see its page in the"
            " Developer Portal, under Bot.",
            file=sys.stderr,
        )
        return 2
    except discord.ConnectionClosed as error:
        fatal = GATEWAY_REFUSALS.get(error.code)
        if fatal is None:
            raise
        print(f"euchre-bot: Discord closed the gateway ({error.code}): {fatal}", file=sys.stderr)
        return 2
    except ShardsTaken as error:
        # Two processes on the same shards: a restart would be refused again.
        print(f"euchre-bot: {error}", file=sys.stderr)
        return 2
    except MetricsUnavailable as error:
        # A port still held by the process before (or by another): exit 1, tried again.
        print(f"euchre-bot: {error}", file=sys.stderr)
        return 1
    except DatabaseUnreachable as error:
        # The server is down or not up yet (the bot started before it, a failover): exit 1, so
        # the service manager starts the bot again (exit 2 is never restarted).
        print(f"euchre-bot: {_database_problem(settings, error)}", file=sys.stderr)
        return 1
    except (StorageError, sqlite3.DatabaseError, asyncpg.PostgresError) as error:
        # The backends' own errors come from reading the tables back (a file damaged inside,
        # a PostgreSQL database changed by hand).
        print(f"euchre-bot: {_database_problem(settings, error)}", file=sys.stderr)
        return 2
    except (OSError, aiohttp.ClientError) as error:
        print(
            f"euchre-bot: could not reach Discord at {settings.api_base} ({error}).",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


def _database_problem(settings: Settings, error: Exception) -> str:
    """One line that names the database file and what is wrong with it."""
    text = str(error)
    path = DatabaseUrl.parse(settings.database).display
    return text if path in text else f"cannot use the database {path}: {text}"
