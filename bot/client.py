"""EuchreBot: the discord.py client that opens storage, restores tables and loads the cogs.

The order of a start matters: `setup_hook` runs after logging in and before the gateway is
connected, so no interaction can arrive before it ends. The tables are loaded from storage
there (that needs no Discord), so a command is never answered from an empty table list; once the
gateway is up (`on_ready`) their clocks and computer players start and their channels are told.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
import time
import weakref
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import yarl  # aiohttp's URLs, as discord.py gives them
from discord.ext import commands

from bot import request_left
from bot.collector import keep_settled
from bot.command_sync import sync_if_changed
from bot.config import DISCORD_GATEWAY_URL, Settings
from bot.metrics import Metrics, MetricsServer
from bot.rerun import woken
from bot.rest_budget import RestBudget, process_burst, process_share
from bot.shard_guard import ShardGuard, ShardsTaken, guard_for
from bot.storage import processes
from bot.storage.bot_state import claim_identify, renew_identify
from bot.storage.database import Database
from bot.storage.errors import RESTARTING
from bot.tables.fixtures import FixtureScheduler
from bot.tables.manager import TableManager
from bot.tables.table import Table
from bot.ui.card_looks import CardLooks
from bot.ui.emojis import CardEmojis
from bot.ui.fixtures import FixtureAnnouncer
from bot.ui.guide import CommandTree
from bot.ui.live_hands import LiveHands
from bot.ui.table_messages import TableMessages
from bot.ui.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

# Seconds between two gateway session starts in one rate-limit bucket. Discord allows one per
# 5 s; the half second more covers the time between claiming a start and its IDENTIFY reaching
# Discord, which differs from one start to the next (two claims 5.0 s apart arrived 4.996 s apart).
IDENTIFY_SPACING = 5.5
# Seconds discord.py gives a running shard's new connection, its IDENTIFY included, before it
# drops it (a fixed figure in Shard.reidentify and Shard.reconnect).
RECONNECT_TIMEOUT = 60.0
# Seconds between two reports of this process's figures to the database (/admin status).
REPORT_EVERY = 15.0
# Seconds a stop lets the work still using Discord's HTTP session (a member's answer, a table
# message's edit) finish before it cancels what is left and closes the session.
DRAIN_SECONDS = 5.0

EXTENSIONS = (
    "cogs.errors",
    "cogs.tables",
    "cogs.play",
    "cogs.settings",
    "cogs.stats",
    "cogs.leagues",
    "cogs.league_roles",
    "cogs.fixtures",
    "cogs.nights",
    "cogs.help",
    "cogs.admin",
    "cogs.coach",
)


class StoppedStarting(BaseException):
    """The bot was stopped while a shard waited for its turn to IDENTIFY.

    A BaseException: discord.py's connecting loop catches every Exception and tries again, for
    ever, so a stop during that wait would never end the process."""


class IdentifyTurnLater(asyncio.TimeoutError):
    """A shard reconnecting in a running process would wait for its turn to IDENTIFY longer
    than its connection is kept: discord.py drops the connection, before any IDENTIFY, and
    connects again after its back-off (its own answer to a connection that timed out)."""


class _TurnWaitsAreNews(logging.Filter):
    """discord.py logs a dropped connection with its traceback, as an error (or a failure to
    connect). One dropped by `IdentifyTurnLater` is an expected wait: one line of news."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, IdentifyTurnLater):
            record.msg, record.args, record.exc_info = f"{record.getMessage()}: {error}", None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


logging.getLogger("discord.shard").addFilter(_TurnWaitsAreNews())


def _close_a_connection_given_up() -> None:
    """A connection given up by `IdentifyTurnLater` is closed at once. discord.py raises out of
    the IDENTIFY without closing it, so its keep-alive thread, started on HELLO, went on beating
    and logged "has stopped responding to the gateway" a heartbeat timeout later."""
    identify = discord.gateway.DiscordWebSocket.identify

    async def identify_or_close(ws: discord.gateway.DiscordWebSocket) -> None:
        try:
            await identify(ws)
        except IdentifyTurnLater:
            await ws.close()  # stops the keep-alive first
            raise

    discord.gateway.DiscordWebSocket.identify = identify_or_close  # type: ignore[method-assign,assignment]


_close_a_connection_given_up()


class EuchreBot(commands.AutoShardedBot):
    """The bot. Slash commands only: it needs no privileged intents.

    Args:
        settings: the bot's settings.
        database: the database, already opened (the runner opens it first, so a bad file is
            refused before Discord is contacted); by default `setup_hook` opens the settings' file.
        computer_delay: seconds a computer player waits before moving (tests use 0).
        timers: run turn timers (tests that drive time themselves turn them off).
        fixture_clock: Unix seconds now, for fixtures' windows (tests move their own).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        database: Database | None = None,
        computer_delay: float = 1.0,
        timers: bool = True,
        fixture_clock: Callable[[], float] = time.time,
        settle_memory: bool = False,
        identify_spacing: float = IDENTIFY_SPACING,
        **kwargs,
    ) -> None:
        # The bot has no voice: discord.py's documented switches for its warnings that the
        # voice libraries (PyNaCl, davey) are missing.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        # Nothing the bot sends mentions anyone unless it says whom (a turn's ping does).
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # One process runs every shard unless SHARD_COUNT and SHARD_IDS give it some of them;
        # it then serves only its shards' guilds (their tables, their interactions).
        if settings.shard_count is not None:
            kwargs.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            kwargs.setdefault("shard_ids", list(settings.shard_ids))
        # Every answer of Discord's REST API is counted (429s by scope) for /admin status.
        metrics = Metrics()
        trace = metrics.trace_config()
        # Which requests left for Discord (a ping given up before it left was never posted).
        request_left.install(trace)
        # This process keeps to its share of the bot's REST budget (REST_BUDGET=0: a proxy does).
        self.rest_budget: RestBudget | None = None
        if settings.rest_budget > 0:
            share = process_share(settings.rest_budget, settings.shard_count, settings.shard_ids)
            burst = process_burst(settings.rest_budget, share)
            self.rest_budget = RestBudget(share, burst=burst)
            self.rest_budget.install(trace)
        # The tasks that may still use the HTTP session at a stop (`_drain`): every task that
        # sent a request, and every task an interaction started.
        self._users: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        self._closing_gateway = False  # no interaction is taken from then on
        self._turned_away = 0  # interactions that arrived after that
        trace.on_request_start.append(self._using_http)
        kwargs.setdefault("http_trace", trace)
        # What ends a connection kept waiting for its turn to IDENTIFY: no heartbeat ACK is read
        # meanwhile, so discord.py's heartbeat timeout, and its time for a shard's reconnection.
        # A wait on an open connection stays within half of the shorter.
        limit = min(kwargs.get("heartbeat_timeout", 60.0), RECONNECT_TIMEOUT)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=CommandTree,  # it keeps the synced commands' ids, for /help's mentions
            **kwargs,
        )
        self.settings = settings
        self.metrics = metrics
        self.process_name = f"{socket.gethostname()}:{os.getpid()}"
        self._events_rate = 0.0  # stored events per second, at the last report
        self._reporting: asyncio.Task[None] | None = None
        self._guard: ShardGuard | None = None  # no other live process on this one's shards
        self._guard_stop: asyncio.Task[None] | None = None
        self._metrics_server: MetricsServer | None = None
        self._db: Database | None = database
        self._manager: TableManager | None = None
        self._fixtures: FixtureScheduler | None = None
        self._fixture_clock = fixture_clock
        # The collector is settled once the tables are restored, and then now and then
        # (bot/collector.py); the process runner asks for it, tests that start many bots do not.
        self._settle_memory = settle_memory
        self._settling: asyncio.Task[None] | None = None
        self._max_concurrency: int | None = None  # Discord's, read at the first IDENTIFY
        self._identify_spacing = identify_spacing
        self._identify_wait_limit = limit / 2
        self._turns: dict[int, float] = {}  # shard id: the start it claimed before connecting
        # Shard id: its latency when it connected (None: connecting), a figure that may span
        # the wait for its turn to IDENTIFY, so not shown (`gateway_latency`).
        self._latency_at_connect: dict[int, float | None] = {}
        self.table_messages = TableMessages(self)
        self.live_hands = LiveHands(self)
        self.card_emojis = CardEmojis(self)
        self.card_looks = CardLooks()  # members' pictures or text in their own messages
        self._computer_delay = computer_delay
        self._timers = timers
        self._loaded: list[Table] | None = None  # loaded in setup_hook, resumed in on_ready
        self._shutdown: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()  # set as close() begins
        self._main: asyncio.Task[Any] | None = None  # the task that logged in (and connects)
        self._follow_interactions()
        # discord.py closes the gateway, then the HTTP session: what still uses the session is
        # let end in between, when no interaction can arrive any more and `is_closed()` already
        # tells every task the bot is stopping.
        close_session = self.http.close

        async def close_http() -> None:
            await self._drain()
            await close_session()

        self.http.close = close_http  # type: ignore[method-assign]

    async def _using_http(
        self,
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._users.add(task)

    def _follow_interactions(self) -> None:
        """Note the tasks each interaction starts (discord.py starts its command's, its button's
        and its `on_interaction` listeners' as it parses INTERACTION_CREATE), so a stop lets
        them answer before the HTTP session closes (`_drain`)."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]
        users = self._users

        def interaction_create(data: Any) -> None:
            if not self.takes_interactions():
                self.turn_away(discord.Interaction(data=data, state=self._connection))
                return
            loop = asyncio.get_running_loop()
            factory = loop.get_task_factory()

            def noted(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
                task: asyncio.Task[Any]
                if factory is not None:
                    task = factory(loop, coro, **kwargs)  # type: ignore[assignment]
                else:
                    task = asyncio.Task(coro, loop=loop, **kwargs)
                users.add(task)
                return task

            loop.set_task_factory(noted)
            try:
                parse(data)
            finally:
                loop.set_task_factory(factory)

        parsers["INTERACTION_CREATE"] = interaction_create

    def stop_taking_interactions(self) -> None:
        """From now on each interaction is answered that the bot is restarting (`turn_away`):
        discord.py is about to unload the cogs, so its command or button may be gone."""
        self._closing_gateway = True

    def takes_interactions(self) -> bool:
        """False once a stop unloads the cogs: a command or button may be gone already."""
        return not self._closing_gateway

    def turn_away(self, interaction: discord.Interaction) -> None:
        """Answer an interaction not taken because the bot is stopping: it changed nothing, and
        its member is told so (not left with Discord's "This interaction failed"). The answer
        is let go out before the HTTP session closes (`_drain`); the stop counts them in one
        line."""
        self._turned_away += 1
        if interaction.type is discord.InteractionType.autocomplete:
            return  # a picker's suggestions: nothing to tell
        told = asyncio.create_task(self._tell_restarting(interaction), name="euchre-turned-away")
        self._users.add(told)

    async def _tell_restarting(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message(
                f"{RESTARTING[0].upper()}{RESTARTING[1:]}.", ephemeral=True
            )
        except (discord.HTTPException, aiohttp.ClientError):
            log.debug("interaction %s turned away at the stop: not answered", interaction.id)

    async def login(self, token: str) -> None:
        self._main = asyncio.current_task()  # it waits for the connection, not a request
        await super().login(token)

    @property
    def db(self) -> Database:
        """The open database (from `setup_hook` on)."""
        if self._db is None:
            raise RuntimeError("the database is opened in setup_hook and closed by close()")
        return self._db

    @property
    def manager(self) -> TableManager:
        """The game manager (from `setup_hook` on)."""
        if self._manager is None:
            raise RuntimeError("the game manager is made in setup_hook")
        return self._manager

    @property
    def fixtures(self) -> FixtureScheduler:
        """The leagues' fixtures and their clock (from `setup_hook` on)."""
        if self._fixtures is None:
            raise RuntimeError("the fixtures' scheduler is made in setup_hook")
        return self._fixtures

    async def setup_hook(self) -> None:
        if self._db is None:
            self._db = await Database.open(self.settings.database)
        self._manager = TableManager(
            self.db,
            turn_timeout=self.settings.turn_timeout,
            default_preset=self.settings.default_preset,
            computer_delay=self._computer_delay,
            listener=self.table_messages,
            timers=self._timers,
            owner=self.settings.lease_owner,
        )
        self._fixtures = FixtureScheduler(
            self.manager, clock=self._fixture_clock, listener=FixtureAnnouncer(self)
        )
        # Before a table is loaded: a second process on these shards is refused (ShardsTaken).
        self._guard = guard_for(
            self.settings,
            self.process_name,
            self.metrics.started,
            self.db,
            self.manager.writer.write,
            lease=self.manager.lease_seconds,
        )
        self._guard.on_taken = self._shards_taken
        # A stop while it waits for an earlier process on these shards ends the start here
        # (StoppedWaiting), before a table is loaded.
        await self._guard.start(self._stopping)
        # Before the gateway connects: the first interaction finds every table in place.
        self._loaded = await self.manager.load(self.settings.serves)
        await self.card_looks.load(self.db)
        if self.settings.metrics_port is not None:
            self._metrics_server = MetricsServer(self.metrics, self.figures)
            self._metrics_server.start(self.settings.metrics_port, self.settings.metrics_host)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self._sync_commands()

    @property
    def shards_taken(self) -> ShardsTaken | None:
        """Why this process stopped by itself: a process started before it runs on its shards
        (the runner exits with code 2 and this line)."""
        return self._guard.taken if self._guard is not None else None

    def _shards_taken(self, error: ShardsTaken) -> None:
        self._guard_stop = asyncio.get_running_loop().create_task(self.close(), name="euchre-stop")

    async def launch_shard(
        self, gateway: yarl.URL, shard_id: int, *, initial: bool = False
    ) -> None:
        """Connect a shard once its start is claimed: a wait for the turn is made here, with no
        connection open, since discord.py reads nothing from one waiting for its IDENTIFY and
        drops it after its heartbeat timeout. (discord.py's own retries come back here.)

        A gateway proxy set in DISCORD_GATEWAY_URL is connected to: without SHARD_COUNT,
        discord.py would take the gateway that Discord's answer to GET /gateway/bot names,
        Discord's own, and bypass the proxy."""
        if self.settings.gateway_url != DISCORD_GATEWAY_URL:
            gateway = yarl.URL(self.settings.gateway_url)
        bucket = await self._identify_bucket(shard_id)
        self._turns[shard_id] = await self._claim_turn(shard_id, bucket)
        await super().launch_shard(gateway, shard_id, initial=initial)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Space the gateway's session starts across every process that shares the database:
        one per bucket (shard id modulo Discord's `max_concurrency`) every `IDENTIFY_SPACING`
        seconds, so even a crash loop of every process never goes over Discord's limit.

        A shard that claimed its start before connecting (`launch_shard`) renews the claim and
        identifies at once. One reconnecting in a running process claims here, on its open
        connection, so it waits no longer than the connection is kept (`IdentifyTurnLater`)."""
        shard = shard_id or 0
        await self._take_turn(shard)
        # discord.py measures this connection's first latency from the heartbeat it sent on
        # HELLO, before the IDENTIFY, to its ACK, read after it: a figure that spans any wait
        # for the turn. None is shown until the shard is connected and a later ACK replaces it.
        self._latency_at_connect[shard] = None

    async def _take_turn(self, shard: int) -> None:
        """The bucket's turn, for a shard whose connection is open: the start it claimed before
        connecting, renewed, or else one claimed here before the wait limit."""
        bucket = await self._identify_bucket(shard)
        held = self._turns.pop(shard, None)
        if held is not None and await renew_identify(self.db, bucket, held, time.time()):
            return
        deadline = time.monotonic() + self._identify_wait_limit
        while True:
            wait = await claim_identify(self.db, bucket, time.time(), self._identify_spacing)
            if wait <= 0:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise IdentifyTurnLater(f"shard {shard}'s turn to IDENTIFY is {wait:.1f} s away")
            log.info("shard %d waits %.1f s for its turn to IDENTIFY", shard, min(wait, left))
            await self._wait_for_turn(min(wait, left))

    async def _identify_bucket(self, shard_id: int) -> int:
        if self._max_concurrency is None:
            limits = await self.fetch_session_start_limits()
            self._max_concurrency = max(1, limits.max_concurrency)
        return shard_id % self._max_concurrency

    async def _claim_turn(self, shard_id: int, bucket: int) -> float:
        """The start claimed (Unix seconds), once the bucket's turn comes."""
        waited = False
        while True:
            now = time.time()
            wait = await claim_identify(self.db, bucket, now, self._identify_spacing)
            if wait <= 0:
                return now
            if not waited:
                log.info("shard %d waits for its turn to IDENTIFY (%.1f s or more)", shard_id, wait)
                waited = True
            await self._wait_for_turn(wait)

    async def _wait_for_turn(self, seconds: float) -> None:
        await woken(self._stopping, seconds)
        if self._stopping.is_set():
            # Stopped while waiting for its turn: discord.py tries a shard's connection again
            # after any Exception, closed or not, so only this ends the start (`runner.serve`
            # expects it).
            raise StoppedStarting

    async def _sync_commands(self) -> None:
        """Sync the slash commands if they changed since the last sync (to the development
        server when one is set, else globally), so `/admin` is there on a fresh install."""
        guild = None
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        where = f"server {guild.id}" if guild else "every server"
        try:
            synced = await sync_if_changed(self.tree, self.db, guild)
        except discord.HTTPException as error:
            # The commands already published keep working; the next start tries again.
            log.error("syncing the slash commands to %s failed: %s", where, error)
            return
        if synced:
            log.info("slash commands changed: synced to %s", where)
        else:
            log.info("slash commands unchanged since the last sync to %s", where)

    async def on_ready(self) -> None:
        # Cards show as text until the card emojis are in place; start-up does not wait for them.
        self.card_emojis.start()
        # Once, after the gateway is up: the tables' channels can be told, and their clocks and
        # computer players start.
        if self._manager is not None and self._loaded is not None:
            tables, self._loaded = self._loaded, None
            await self.manager.resume(tables)
            # Deadlines and reminders that fell due while the bot was down are applied now.
            self.fixtures.start()
            if self._settle_memory:
                self._settling = asyncio.create_task(keep_settled(), name="settle-memory")
            self._reporting = asyncio.create_task(self._keep_reporting(), name="report-status")
            log.info("ready as %s; %d open tables restored", self.user, len(tables))

    # A table whose channel is gone is closed (bot/ui/table_messages.py: `tables_gone`).
    # Members leaving the server are not seen (no members intent): their turns time out.
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._tables_gone([channel.id], "its channel was deleted")

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._tables_gone([payload.thread_id], "its thread was deleted")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        tables = self._manager.tables.values() if self._manager is not None else ()
        gone = [t.channel_id for t in tables if t.guild_id == guild.id]
        await self._tables_gone(gone, "the bot was removed from the server")

    async def _tables_gone(self, channel_ids: list[int], reason: str) -> None:
        if self._manager is not None and channel_ids:
            await self.table_messages.tables_gone(channel_ids, reason)

    async def on_shard_connect(self, shard_id: int) -> None:
        # After READY, which follows the ACKs of the heartbeats sent before the IDENTIFY: the
        # figure now is theirs, and is shown once another replaces it.
        shard = self.get_shard(shard_id)
        if shard is not None:
            self._latency_at_connect[shard_id] = shard.latency

    def gateway_latency(self) -> float | None:
        """The mean heartbeat latency of this process's shards, in seconds; None while one is
        not connected, or none has had a heartbeat acknowledged since its IDENTIFY."""
        measured = []
        for shard_id, latency in self.latencies:
            if math.isnan(latency) or math.isinf(latency):
                return None
            at_connect = self._latency_at_connect.get(shard_id, math.nan)
            if at_connect is None or at_connect == latency:
                continue  # connecting, or no heartbeat acknowledged since its IDENTIFY
            measured.append(latency)
        return sum(measured) / len(measured) if measured else None

    def figures(self) -> processes.ProcessFigures:
        """This process's figures now (events per second as of the last report)."""
        manager = self._manager
        latency = self.gateway_latency()
        return processes.ProcessFigures(
            shards=tuple(sorted(self.shards)) or tuple(self.settings.shard_ids or ()),
            tables=len(manager.tables) if manager is not None else 0,
            events_total=manager.stored_events if manager is not None else 0,
            events_per_second=self._events_rate,
            rest_requests=self.metrics.rest_requests,
            rest_429=self.metrics.rest_429,
            rest_global_429=self.metrics.rest_global_429,
            latency_ms=None if latency is None else latency * 1000,
            started=self.metrics.started,
        )

    async def report_status(self) -> None:
        """Store this process's figures for `/admin status`, through the tables' writer."""
        self._events_rate = self.metrics.events_per_second(self.manager.stored_events)
        figures, name, now = self.figures(), self.process_name, time.time()

        async def work(db: Database) -> None:
            await processes.report(db, name, figures, now)

        await self.manager.writer.write(work)

    async def _keep_reporting(self) -> None:
        while True:
            try:
                await self.report_status()
            except Exception:  # a full disk or a closing writer: the next report tries again
                log.warning("reporting this process's figures failed", exc_info=True)
            await asyncio.sleep(REPORT_EVERY)

    async def close(self) -> None:
        """Stop the tables' clocks and computer players, flush the queued writes, end the worker
        processes, disconnect from Discord and close the database. Safe to call more than once,
        and from several tasks: every call waits for the one shutdown."""
        if self._shutdown is None:
            self._stopping.set()
            self._shutdown = asyncio.create_task(self._close_all(), name="euchre-shutdown")
        await asyncio.shield(self._shutdown)

    async def _drain(self) -> None:
        """Let the tasks still using Discord's HTTP session (a member's answer, a hand's or a
        table message's edit, a ping, the card emojis' check) finish within `DRAIN_SECONDS`,
        and cancel those that have not: a request cut off by the session's close would end its
        task with a traceback, one cancelled ends it quietly."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DRAIN_SECONDS
        me = asyncio.current_task()
        while True:
            # Tasks started meanwhile by those waited for are waited for too.
            under_way = [t for t in self._users if not t.done() and t not in (me, self._main)]
            left = deadline - loop.time()
            if not under_way or left <= 0:
                break
            await asyncio.wait(under_way, timeout=left)
        for task in under_way:
            task.cancel()
        await asyncio.gather(*under_way, return_exceptions=True)
        if under_way or self._turned_away:
            log.info(
                "stopping: %d tasks still using Discord after %.0f s cancelled; %d interactions"
                " that arrived as the gateway closed told to try again",
                len(under_way),
                DRAIN_SECONDS,
                self._turned_away,
            )

    async def _close_all(self) -> None:
        if self._guard is not None:
            # A start still waiting for another process on these shards ends at once (it was
            # told by `_stopping`), before the writer and database it uses are closed.
            await self._guard.start_ended()
        # Cogs that run tasks of their own over the tables (a euchre night's) stop them first.
        for cog in list(self.cogs.values()):
            shutdown = getattr(cog, "shutdown", None)
            if shutdown is not None:
                await shutdown()
        # No computer move, timer, fixture deadline or hand edit after this point: it could no
        # longer be shown.
        if self._settling is not None:
            self._settling.cancel()
        if self._reporting is not None:
            self._reporting.cancel()
        if self._metrics_server is not None:
            self._metrics_server.stop()
        if self._fixtures is not None:
            await self._fixtures.stop()
        if self._manager is not None:
            await self._manager.stop_turns()
        await self.live_hands.close()
        # Discord stays connected while the writes are flushed and the workers end, so a
        # member's request already under way is still answered and shown.
        if self._manager is not None:
            await self._manager.close()
        if self._guard is not None:
            # After the leases are released: a start that sees this one stopped finds its
            # tables free.
            try:
                await self._guard.stopped()
            except Exception:
                log.warning("storing this process's stop failed; it reads as killed", exc_info=True)
        if self.rest_budget is not None:
            # Requests still waiting for the budget are dropped, not sent all at once: the
            # table messages they would have edited are drawn again at the next start.
            self.rest_budget.close()
        # discord.py unloads the cogs (their commands go), closes the gateway, then the HTTP
        # session: no interaction is taken from here on, and what still uses the session ends
        # before it closes (`_drain`).
        self.stop_taking_interactions()
        await super().close()
        # After Discord is closed: what is still answered above keeps the cards' pictures.
        await self.card_emojis.close()
        if self._db is not None:
            await self._db.close()
            self._db = None
