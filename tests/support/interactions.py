"""Interaction-level tests: the real bot, real ``discord.Interaction`` objects, no network.

The bot is built and its ``setup_hook`` run for real (aiosqlite on a temporary file, the cogs,
the dynamic buttons, the command sync), without a gateway: a ``GUILD_CREATE`` payload is fed
to the connection state so channels resolve. Members then act through the paths discord.py
takes for what Discord sends:

- a slash command or an autocomplete is an ``Interaction`` built from the payload and run
  through ``bot.tree._call`` (its errors go to the tree's error handler, as in discord.py's
  own invoker task);
- a button click is the raw payload given to ``ConnectionState.parse_interaction_create``,
  which dispatches it through the view store to the ``DynamicItem`` templates.

The payloads come from the same builders the process-level fake (``fake_discord.py``) sends
over its gateway, from its world model (guild, channel, members; see ``FakeDiscord.seed``), so
both levels feed discord.py the same shapes. Only the two HTTP seams are replaced:

- ``discord.webhook.async_.async_context``: the adapter every interaction response
  (``POST /interactions/{id}/{token}/callback``) and follow-up (``/webhooks/{app}/{token}``)
  goes through;
- ``bot.http.request``: login, command sync and the channel's messages.

Both answer as Discord would (a message object for a send, the callback's ``with_response``
body) and record every call. Messages are held as ``FakeMessage`` objects, checked against
Discord's limits, so a test reads what a member sees: ``exchange.reply.text``, ``.ephemeral``,
``.buttons``. Every public message is also checked, when it is sent, for a card that is still
hidden (in a hand, the kitty or the discard): ``leaks`` lists any.

Typical use (the ``interactions`` fixture in ``fixtures.py`` opens and checks it)::

    reply = (await h.command("alice", "table create", preset="modern")).reply
    assert reply.ephemeral
    await h.click("bob", f"euchre:table:{h.table().id}:join")
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import json
import logging
import re
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.client import EuchreBot
from bot.config import Settings
from bot.engine.cards import JOKER, card_name, make_pack
from bot.tables.table import Table
from tests.bot.helpers import cards_shown, components_text, eventually
from tests.support.fake_discord import (
    _ALLOWED_CALLBACKS,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_COMMAND,
    INTERACTION_COMPONENT,
    WAIT,
    FakeAttachment,
    FakeChannel,
    FakeDiscord,
    FakeHTTPError,
    FakeMember,
    FakeMessage,
    _validate_message,
    json_copy,
)
from tests.support.logs import ErrorLog

log = logging.getLogger(__name__)

_API_PREFIX = re.compile(r"^[a-z]+://[^/]+(?:/api/v\d+)?")
# Names of cards as words ("jack of hearts"); the Joker's name is left out because the table
# message says "with the Joker" of the rules, and the Joker's label (🃏) is caught anyway.
_CARD_NAMES = {card_name(c).lower(): c for c in make_pack("7") if c != JOKER}
# The cut for partners and deal uses its own pack: its cards are not the deal's.
_CUT_LINE = re.compile(r"^(\*\*Cutting|\*\*The cut|Cut again:|Cut:)")
# A table or hand message names its deal in the footer: "Table 1 · deal 3".
_DEAL_FOOTER = re.compile(r"Table \d+ · deal (\d+)")


def cards_in(text: str) -> set[str]:
    """Every card a text shows, by label (``J♥``, ``10♦``, ``🃏``), by emoji (``<:JH:id>``) or by
    name (``jack of hearts``)."""
    lowered = text.lower()
    return cards_shown(text) | {card for name, card in _CARD_NAMES.items() if name in lowered}


def _path_of(route: Any) -> str:
    return _API_PREFIX.sub("", route.url).split("?")[0]


def _http_error(error: FakeHTTPError) -> discord.HTTPException:
    """The exception discord.py raises for this answer from Discord."""
    response = SimpleNamespace(status=error.status, reason=error.message)
    body = {"code": error.code, "message": error.message}
    if error.status == 404:
        return discord.NotFound(response, body)  # type: ignore[arg-type]
    if error.status == 403:
        return discord.Forbidden(response, body)  # type: ignore[arg-type]
    return discord.HTTPException(response, body)  # type: ignore[arg-type]


@dataclass
class Call:
    """One HTTP request the bot made through a faked seam, with its JSON body.

    ``interaction_id`` names the interaction a callback or follow-up answered.
    """

    method: str
    path: str
    body: Any = None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    params: dict[str, Any] | None = None
    interaction_id: int | None = None

    @property
    def route(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def message_data(self) -> Mapping[str, Any]:
        """The message part of the body (a callback nests it under ``data``)."""
        if not isinstance(self.body, Mapping):
            return {}
        if self.path.endswith("/callback"):
            return self.body.get("data") or {}
        return self.body

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.message_data.get("flags") or 0) & FLAG_EPHEMERAL)

    @property
    def content(self) -> str:
        return self.message_data.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.message_data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.message_data.get("components") or [])


@dataclass(eq=False)
class Exchange:
    """One interaction a member sent and everything the bot answered to it."""

    id: int
    token: str
    type: int
    member: FakeMember
    channel: FakeChannel
    data: dict[str, Any]
    payload: dict[str, Any]
    message_id: int | None = None  # the message a button was clicked on
    response_type: int | None = None  # the callback type (4, 5, 6, 7 or 8)
    response: dict[str, Any] | None = None  # the callback's data
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    messages: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None

    @property
    def reply(self) -> FakeMessage:
        """The message the member was last shown in answer (created or edited)."""
        if not self.messages:
            raise AssertionError(
                f"the bot answered interaction {self.id} with no message (response {self.response_type})"
            )
        return self.messages[-1]

    @property
    def text(self) -> str:
        return self.reply.text

    @property
    def ephemeral(self) -> bool:
        return self.reply.ephemeral

    def _shown(self, message: FakeMessage) -> None:
        if message in self.messages:
            self.messages.remove(message)
        self.messages.append(message)


class _WebhookRecorder(AsyncWebhookAdapter):
    """discord.py's webhook adapter with its HTTP call answered by the harness."""

    def __init__(self, harness: InteractionHarness) -> None:
        super().__init__()
        self.harness = harness

    async def request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        return self.harness._webhook_request(route, **kwargs)


@contextlib.contextmanager
def _tasks_started() -> Iterator[set[asyncio.Task[Any]]]:
    """The tasks created on the running loop while the block runs."""
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    started: set[asyncio.Task[Any]] = set()

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        if previous is not None:
            task = previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        started.add(task)  # type: ignore[arg-type]
        return task  # type: ignore[return-value]

    loop.set_task_factory(factory)  # type: ignore[arg-type]
    try:
        yield started
    finally:
        loop.set_task_factory(previous)


def _body_and_files(
    payload: Any, multipart: list[dict[str, Any]] | None, keep: bool = True
) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body and the files of a request sent as JSON or as multipart form data (a
    JSON body is copied, as the wire would, when it is kept for a test to read)."""
    if not multipart:
        return (json_copy(payload) if keep else payload), []
    body: Any = None
    files = []
    for part in multipart:
        if part["name"] == "payload_json":
            body = json.loads(part["value"])
        elif "filename" in part:
            fp = part["value"]
            with contextlib.suppress(Exception):
                fp.seek(0)
            files.append((part["filename"], fp.read()))
    return body, files


class InteractionHarness:
    """The bot, a world to act in, and a record of everything the bot sent.

    Build it with :meth:`open` and close it with :meth:`close` (the ``interactions`` fixture
    does both and fails the test if :meth:`problems` finds anything).

    Attributes:
        world: the guild, its channels ``#euchre`` (``channel``) and ``#lounge``, and its
            members (``alice``..``dave``, ``mod`` who may manage channels, ``erin``/``frank``/``gina`` to wait in line, ``owner`` in OWNER_IDS and
            ``admin``, both with Manage Server).
        bot: the running ``EuchreBot``.
        calls: every HTTP call the bot made, in order.
        exchanges: every interaction sent, in order.
        messages: every message the bot created, by id, as it is now.
        leaks: public messages that showed a hidden card, as text.
        public_checked: how many public messages the leak check read.
    """

    def __init__(self, world: FakeDiscord, bot: EuchreBot) -> None:
        self.world = world
        self.bot = bot
        self.calls: list[Call] = []
        self.exchanges: list[Exchange] = []
        self._by_token: dict[str, Exchange] = {}  # each exchange by its interaction token
        self.messages: dict[int, FakeMessage] = {}
        self.errors: list[str] = []
        self.unknown_routes: list[str] = []
        self.leaks: list[str] = []
        self.public_checked = 0
        #: Whether edited messages keep their earlier versions, and calls and exchanges are
        #: listed (a benchmark turns it off: a heap that grows with every click slows the
        #: collector, which would then be measured as the bot's own work).
        self.keep_history = True
        self._adapter = _WebhookRecorder(self)
        self._errors = ErrorLog()

    # -- start and stop -------------------------------------------------------------------

    @classmethod
    async def open(cls, db_path: Path, **settings: Any) -> InteractionHarness:
        """Build the world and the bot, log in (setup_hook included) and make the guild known."""
        world = FakeDiscord()
        world.seed()
        guild = world.guild
        world.add_channel(guild, "lounge")
        for name in ("erin", "frank", "gina"):
            world.add_member(guild, name)
        manage_guild = discord.Permissions(manage_guild=True).value
        owner = world.add_member(guild, "owner", permissions=manage_guild)
        world.add_member(guild, "admin", permissions=manage_guild)
        values: dict[str, Any] = dict(
            token=world.token,
            database_path=db_path,
            dev_guild_id=guild.id,
            owner_ids=frozenset({owner.id}),
            turn_timeout=120,
        )
        values.update(settings)
        bot = EuchreBot(Settings(**values), computer_delay=0, timers=False)
        harness = cls(world, bot)
        bot.http.request = harness._http_request  # type: ignore[method-assign]
        # Edits the bot makes later from its own tasks (a player's hand following the game)
        # use the default webhook adapter, outside any interaction's context: record those too.
        harness._default_adapter = contextvars.Context().run(async_context.get)
        harness._default_adapter.request = harness._adapter.request  # type: ignore[method-assign]
        logging.getLogger().addHandler(harness._errors)
        try:
            await bot.login(world.token)  # GET /users/@me, the application, then setup_hook
            bot._connection.parse_guild_create(world._guild_payload(guild))
        except BaseException:
            await harness.close()
            raise
        return harness

    async def close(self) -> None:
        logging.getLogger().removeHandler(self._errors)
        await self.bot.close()
        default = getattr(self, "_default_adapter", None)
        if default is not None:
            del default.request  # the class's own method again

    def problems(self) -> list[str]:
        """What makes a test's result doubtful: requests Discord would refuse or the harness
        does not know, errors logged by the bot or discord.py, and leaked cards."""
        found = [f"refused request: {e}" for e in self.errors]
        found += [f"unknown route: {r}" for r in self.unknown_routes]
        found += [
            f"logged error: {r.getMessage()} {r.exc_info[1]!r}"
            if r.exc_info
            else f"logged error: {r.getMessage()}"
            for r in self._errors.records
        ]
        found += [f"hidden card shown in public: {leak}" for leak in self.leaks]
        return found

    @property
    def logged_errors(self) -> list[logging.LogRecord]:
        """Error records logged so far (a test that expects one clears this list)."""
        return self._errors.records

    # -- the world ------------------------------------------------------------------------

    def member(self, who: str | FakeMember) -> FakeMember:
        return who if isinstance(who, FakeMember) else self.world.member(who)

    @property
    def channel(self) -> FakeChannel:
        return self.world.channel

    @property
    def manager(self):
        return self.bot.manager

    def table(self, channel: FakeChannel | None = None) -> Table | None:
        """The open table in the channel, as the manager holds it."""
        return self.bot.manager.tables.get((channel or self.channel).id)

    def member_at(self, seat: int, channel: FakeChannel | None = None) -> FakeMember:
        """The member seated at ``seat`` of the channel's table."""
        occupant = self.table(channel).seats[seat]
        assert occupant is not None and not occupant.is_bot, f"seat {seat} holds {occupant}"
        return self.world.guild.members[occupant.user_id]

    # -- members acting -------------------------------------------------------------------

    def _exchange(
        self,
        itype: int,
        member: FakeMember,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
        channel_permissions: int | None = None,
    ) -> Exchange:
        record, payload = self.world._interaction_payload(
            itype, member, channel, data, message=message
        )
        if channel_permissions is not None:
            # What Discord sends when a channel's overwrites change the member's permissions
            # there: the resolved value, which the guild's roles alone do not give.
            payload["member"]["permissions"] = payload["channel"]["permissions"] = str(
                channel_permissions
            )
        exchange = Exchange(
            record.id,
            record.token,
            itype,
            member,
            channel,
            data,
            payload,
            message_id=message.id if message else None,
        )
        if self.keep_history:
            self.exchanges.append(exchange)
        self._by_token[exchange.token] = exchange
        return exchange

    async def command(
        self,
        member: str | FakeMember,
        name: str,
        /,
        *,
        channel: FakeChannel | None = None,
        channel_permissions: int | None = None,
        **options: Any,
    ) -> Exchange:
        """``member`` runs ``/name`` with ``options`` (a member option takes a ``FakeMember``).

        ``channel_permissions`` replaces the member's resolved permissions in the channel, as a
        channel overwrite would.

        Raises:
            PermissionError: Discord would not offer the command to this member (its default
                permissions), as the real client hides it.
        """
        who, where = self.member(member), channel or self.channel
        data = self.world._command_data(who, where, name, options, focused=None)
        exchange = self._exchange(
            INTERACTION_COMMAND, who, where, data, channel_permissions=channel_permissions
        )
        await self._run_tree(exchange)
        return exchange

    async def autocomplete(
        self,
        member: str | FakeMember,
        name: str,
        option: str,
        value: str,
        /,
        *,
        channel: FakeChannel | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """``member`` types ``value`` into ``option`` of ``/name``; the choices offered."""
        who, where = self.member(member), channel or self.channel
        data = self.world._command_data(
            who, where, name, {**options, option: value}, focused=option
        )
        exchange = self._exchange(INTERACTION_AUTOCOMPLETE, who, where, data)
        await self._run_tree(exchange)
        assert exchange.response_type == CALLBACK_AUTOCOMPLETE, exchange.response_type
        return exchange.choices or []

    async def _run_tree(self, exchange: Exchange) -> None:
        interaction = discord.Interaction(data=exchange.payload, state=self.bot._connection)  # type: ignore[arg-type]
        token = async_context.set(self._adapter)
        try:
            # What discord.py's own invoker task (CommandTree._from_interaction) runs.
            try:
                await self.bot.tree._call(interaction)
            except discord.app_commands.AppCommandError as error:
                await self.bot.tree._dispatch_error(interaction, error)
        finally:
            async_context.reset(token)

    async def click(
        self,
        member: str | FakeMember,
        custom_id: str,
        *,
        message: FakeMessage | int | None = None,
        channel_permissions: int | None = None,
        values: list[str] | None = None,
    ) -> Exchange:
        """``member`` clicks the button ``custom_id`` on ``message`` (default: the latest
        message the member can see that has it). The click is refused, as Discord's client
        refuses it, on someone else's ephemeral message or a disabled button.

        A ``FakeMessage`` given is sent as it is, so a copy taken before an edit is what a
        client that has not seen the edit yet would click on; an id names the live message.
        For a select menu, ``values`` are the options chosen (each must be one it offers).
        """
        who = self.member(member)
        msg = self._message_with(who, custom_id, message)
        if msg.ephemeral and msg.visible_to != who.id:
            raise PermissionError(f"{who.name} cannot see ephemeral message {msg.id}")
        button = msg.component(custom_id)
        if button.get("disabled"):
            raise ValueError(f"button {custom_id!r} is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": button["type"]}
        if values is not None:
            offered = {o["value"] for o in button.get("options", ())}
            if not set(values) <= offered:
                raise ValueError(f"{sorted(set(values) - offered)} not offered by {custom_id!r}")
            data["values"] = values
        channel = self.world.find_channel(msg.channel_id)
        assert channel is not None
        exchange = self._exchange(
            INTERACTION_COMPONENT,
            who,
            channel,
            data,
            message=msg,
            channel_permissions=channel_permissions,
        )
        token = async_context.set(self._adapter)
        try:
            # As the gateway's INTERACTION_CREATE: the view store dispatches to the dynamic
            # items in tasks of its own, which this waits for (caught as they are made: a scan
            # of every task would cost as much as the bot's own work at a thousand tables).
            with _tasks_started() as started:
                self.bot._connection.parse_interaction_create(exchange.payload)  # type: ignore[arg-type]
        finally:
            async_context.reset(token)
        if started:
            await asyncio.gather(*started)
        self._forget_payload(exchange)
        return exchange

    def _forget_payload(self, exchange: Exchange) -> None:
        """Without history, an answered exchange keeps only what its token's later requests
        need: the payloads of thousands of clicks would otherwise pile up on the heap."""
        if not self.keep_history:
            exchange.payload = exchange.data = {}
            exchange.response = None

    def _message_with(
        self, member: FakeMember, custom_id: str, message: FakeMessage | int | None
    ) -> FakeMessage:
        if isinstance(message, FakeMessage):
            return message
        if message is not None:
            msg = self.messages[message]
            if msg.deleted:
                raise LookupError(f"message {msg.id} was deleted")
            return msg
        for msg in reversed(list(self.messages.values())):
            if msg.deleted or (msg.ephemeral and msg.visible_to != member.id):
                continue
            if custom_id in msg.custom_ids:
                return msg
        raise LookupError(f"{member.name} sees no message with a button {custom_id!r}")

    # -- what members see -----------------------------------------------------------------

    def replies_to(self, member: str | FakeMember) -> list[FakeMessage]:
        """The messages shown in answer to the member's interactions, oldest first."""
        who = self.member(member)
        return [m for e in self.exchanges if e.member is who for m in e.messages]

    def last_reply(self, member: str | FakeMember) -> FakeMessage | None:
        """The message last shown in answer to one of the member's interactions."""
        who = self.member(member)
        for exchange in reversed(self.exchanges):
            if exchange.member is who and exchange.messages:
                return exchange.messages[-1]
        return None

    def public_messages(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Live public messages in the channel, oldest first."""
        where = (channel or self.channel).id
        return [
            m
            for m in self.messages.values()
            if not m.deleted and not m.ephemeral and m.channel_id == where
        ]

    def table_message(self) -> FakeMessage:
        """The channel's current public table message."""
        table = self.table()
        assert table is not None and table.message_id is not None, "no table message yet"
        return self.messages[table.message_id]

    async def settle(self, timeout: float = WAIT) -> None:
        """Wait until no computer is thinking or moving at any table."""
        tasks = self.bot.manager._computer_tasks
        await eventually(
            lambda: all(t.done() for t in tasks.values()), timeout, "the computers to move"
        )

    async def snapshot(self) -> dict[str, Any]:
        """The tables as the manager holds them and as the database stores them."""
        db = self.bot.db
        memory = {
            channel: (
                table.id,
                json.dumps(table.to_state(), sort_keys=True),
                list(table.actions),
                len(table.decks),
                table.match.public_view() if table.match else None,
            )
            for channel, table in self.bot.manager.tables.items()
        }
        stored = [
            tuple(r)
            for r in await db.fetchall("SELECT id, status, host_id, state FROM tables ORDER BY id")
        ]
        counts = {
            name: await db.fetchval(f"SELECT COUNT(*) FROM {name}", (), 0)
            for name in ("table_events", "table_deals", "matches", "hands", "games")
        }
        return {"memory": memory, "stored": stored, "counts": counts}

    @contextlib.asynccontextmanager
    async def unchanged(self) -> AsyncIterator[None]:
        """Assert that what runs inside changes no table, in memory or stored, and that every
        message it made is ephemeral (a refusal is private and changes nothing)."""
        before = await self.snapshot()
        first = len(self.exchanges)
        public = {m.id: m.payload() for m in self.public_messages()}
        yield
        after = await self.snapshot()
        assert after == before, "a refused request changed a table"
        for exchange in self.exchanges[first:]:
            assert exchange.messages, f"interaction {exchange.data} got no answer"
            for message in exchange.messages:
                assert message.ephemeral, f"a refusal was answered in public: {message.text!r}"
        assert {m.id: m.payload() for m in self.public_messages()} == public, (
            "a refusal changed a public message"
        )

    # -- the HTTP seams -------------------------------------------------------------------

    def _keep(self, call: Call) -> None:
        if self.keep_history:
            self.calls.append(call)

    async def _http_request(
        self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        """``bot.http.request``: login, command sync and channel messages."""
        path = _path_of(route)
        body, sent = _body_and_files(
            kwargs.get("json"), list(form) if form else None, self.keep_history
        )
        call = Call(route.method, path, body, sent, kwargs.get("params"))
        self._keep(call)
        try:
            return self._answer_http(route.method, path, body, sent)
        except FakeHTTPError as error:
            self.errors.append(f"{call.route}: {error}")
            raise _http_error(error) from None

    def _answer_http(
        self, method: str, path: str, body: Any, files: list[tuple[str, bytes]]
    ) -> Any:
        world = self.world
        parts = path.strip("/").split("/")
        if (method, path) == ("GET", "/users/@me"):
            return {
                **world.bot_user.user_payload(),
                "verified": True,
                "mfa_enabled": False,
                "flags": 0,
            }
        if (method, path) == ("GET", "/oauth2/applications/@me"):
            return {
                "id": str(world.application_id),
                "name": world.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": world.owner_user.user_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "interactions_endpoint_url": None,
                "bot": world.bot_user.user_payload(),
            }
        if method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
            scope = int(parts[3]) if len(parts) == 5 else None
            return self._sync(scope, body)
        if parts[0] == "channels" and len(parts) >= 2:
            channel = world.find_channel(int(parts[1]))
            if channel is None:
                raise FakeHTTPError(404, 10003, "Unknown Channel")
            if method == "GET" and len(parts) == 2:
                return channel.payload()
            if method == "POST" and parts[2:] == ["messages"]:
                return self._create(channel, body, files).payload()
            if method == "POST" and parts[2:] == ["threads"] and not channel.is_thread:
                # A euchre night's tables: a public thread of the channel, as Discord makes.
                return world.add_thread(channel, body["name"]).payload()
            if len(parts) == 4 and parts[2] == "messages":
                msg = self.messages.get(int(parts[3]))
                if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel.id:
                    raise FakeHTTPError(404, 10008, "Unknown Message")
                if method == "PATCH":
                    self._edit(msg, body, files)
                    return msg.payload()
                if method == "GET":
                    return msg.payload()
                if method == "DELETE":
                    msg.deleted = True
                    return None
        self.unknown_routes.append(f"{method} {path}")
        raise FakeHTTPError(404, 0, f"the harness has no route {method} {path}")

    def _sync(self, scope: int | None, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Store the synced commands (for the world's payload builder) as Discord returns them."""
        world = self.world
        stored = []
        for definition in body:
            ctype = definition.get("type", 1)
            command_id = world._command_ids.setdefault(
                (scope, definition["name"], ctype), world.snowflake()
            )
            command = {
                "default_member_permissions": None,
                "options": [],
                **definition,
                "id": str(command_id),
                "application_id": str(world.application_id),
                "type": ctype,
                "version": str(world.snowflake()),
            }
            if scope is not None:
                command["guild_id"] = str(scope)
            stored.append(command)
        world.commands[scope] = stored
        return stored

    def _webhook_request(
        self,
        route: Any,
        *,
        payload: Any = None,
        multipart: Any = None,
        params: Any = None,
        **_: Any,
    ) -> Any:
        """The webhook adapter's request: interaction callbacks and follow-ups."""
        path = _path_of(route)
        body, files = _body_and_files(payload, multipart, self.keep_history)
        call = Call(route.method, path, body, files, params)
        self._keep(call)
        try:
            return self._answer_webhook(call, route, body, files, params or {})
        except FakeHTTPError as error:
            self.errors.append(f"{call.route}: {error}")
            raise _http_error(error) from None

    def _answer_webhook(
        self,
        call: Call,
        route: Any,
        body: Any,
        files: list[tuple[str, bytes]],
        params: dict[str, Any],
    ) -> Any:
        parts = call.path.strip("/").split("/")
        token = route.webhook_token
        if parts[0] == "interactions" and parts[-1] == "callback":
            exchange = self._by_token.get(token)
            if exchange is None or exchange.id != int(parts[1]):
                raise FakeHTTPError(404, 10062, "Unknown interaction")
            call.interaction_id = exchange.id
            return self._callback(exchange, body, files, params)
        if parts[0] == "webhooks":
            if int(parts[1]) != self.world.application_id:
                raise FakeHTTPError(404, 10015, "Unknown Webhook")
            exchange = self._by_token.get(token)
            if exchange is None:
                raise FakeHTTPError(404, 10015, "Unknown Webhook")
            call.interaction_id = exchange.id
            if call.method == "POST" and len(parts) == 3:
                return self._followup(exchange, body, files)
            if len(parts) == 5 and parts[3] == "messages":
                wanted = exchange.original_id if parts[4] == "@original" else int(parts[4])
                if (
                    wanted not in (exchange.original_id, *exchange.followup_ids)
                    or wanted not in self.messages
                ):
                    raise FakeHTTPError(404, 10008, "Unknown Message")
                msg = self.messages[wanted]
                if call.method == "GET":
                    return msg.payload()
                if call.method == "PATCH":
                    self._edit(msg, body, files, finish_loading=True)
                    exchange._shown(msg)
                    return msg.payload()
                if call.method == "DELETE":
                    msg.deleted = True
                    return None
        self.unknown_routes.append(call.route)
        raise FakeHTTPError(404, 0, f"the harness has no route {call.route}")

    def _callback(
        self,
        exchange: Exchange,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        params: dict[str, Any],
    ) -> Any:
        if exchange.response_type is not None:
            raise FakeHTTPError(400, 40060, "Interaction has already been acknowledged.")
        rtype, data = body["type"], body.get("data") or {}
        if rtype not in _ALLOWED_CALLBACKS[exchange.type]:
            raise FakeHTTPError(
                400,
                50035,
                f"callback type {rtype} is not valid for interaction type {exchange.type}",
            )
        message: FakeMessage | None = None
        if rtype in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
            if rtype == CALLBACK_DEFERRED_MESSAGE:
                data = {"flags": (int(data.get("flags") or 0) & FLAG_EPHEMERAL) | FLAG_LOADING}
            message = self._create(
                exchange.channel,
                data,
                files,
                exchange,
                allow_empty=rtype == CALLBACK_DEFERRED_MESSAGE,
            )
            exchange.original_id = message.id
        elif rtype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE_MESSAGE):
            if exchange.message_id is None:
                raise FakeHTTPError(400, 50035, "no message to update")
            message = self.messages[exchange.message_id]
            if rtype == CALLBACK_UPDATE_MESSAGE:
                self._edit(message, data, files)
                exchange._shown(message)
            exchange.original_id = message.id
        elif rtype == CALLBACK_AUTOCOMPLETE:
            choices = data.get("choices", [])
            if len(choices) > 25:
                raise FakeHTTPError(400, 50035, "at most 25 choices")
            exchange.choices = choices
        exchange.response_type, exchange.response = rtype, json_copy(data)
        if params.get("with_response") not in ("1", "true", "True"):
            return None
        reply: dict[str, Any] = {
            "interaction": {
                "id": str(exchange.id),
                "type": exchange.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": bool(message and message.loading),
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None and rtype != CALLBACK_DEFERRED_UPDATE:
            reply["resource"] = {"type": rtype, "message": message.payload()}
        return reply

    def _followup(
        self, exchange: Exchange, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> Any:
        if exchange.response_type not in (
            CALLBACK_MESSAGE,
            CALLBACK_DEFERRED_MESSAGE,
            CALLBACK_DEFERRED_UPDATE,
            CALLBACK_UPDATE_MESSAGE,
        ):
            raise FakeHTTPError(404, 10015, "Unknown Webhook")
        original = self.messages.get(exchange.original_id) if exchange.original_id else None
        if original is not None and original.loading and not original.deleted:
            # The first follow-up after a defer fills the "thinking…" placeholder and keeps
            # the defer's ephemerality, as Discord does.
            self._edit(
                original,
                {**body, "flags": int(body.get("flags") or 0) & ~FLAG_EPHEMERAL},
                files,
                finish_loading=True,
            )
            msg = original
        else:
            msg = self._create(exchange.channel, body, files, exchange)
        exchange.followup_ids.append(msg.id)
        exchange._shown(msg)
        return msg.payload()

    # -- the message model ----------------------------------------------------------------

    def _attachments(self, channel_id: int, files: list[tuple[str, bytes]]) -> list[FakeAttachment]:
        out = []
        for filename, data in files:
            attachment_id = self.world.snowflake()
            url = f"https://cdn.invalid/attachments/{channel_id}/{attachment_id}/{filename}"
            out.append(FakeAttachment(attachment_id, filename, data, url))
        return out

    def _create(
        self,
        channel: FakeChannel,
        body: Mapping[str, Any],
        files: list[tuple[str, bytes]],
        exchange: Exchange | None = None,
        allow_empty: bool = False,
    ) -> FakeMessage:
        flags = int(body.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_LOADING)
        msg = FakeMessage(
            id=self.world.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.world.bot_user.user_payload(),
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            visible_to=exchange.member.id if exchange and flags & FLAG_EPHEMERAL else None,
        )
        msg.attachments = self._attachments(channel.id, files)
        if exchange is not None:
            msg.application_id = self.world.application_id
            msg.type = 20 if exchange.type == INTERACTION_COMMAND else 0
            msg.interaction_metadata = {
                "id": str(exchange.id),
                "type": exchange.type,
                "user": exchange.member.user_payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id)},
            }
            exchange._shown(msg)
        if not allow_empty:
            _validate_message(msg)
        self.messages[msg.id] = msg
        self._check_public(msg)
        return msg

    def _edit(
        self,
        msg: FakeMessage,
        body: Mapping[str, Any],
        files: list[tuple[str, bytes]],
        finish_loading: bool = False,
    ) -> None:
        edited = copy.copy(msg)
        if "content" in body:
            edited.content = body["content"] or ""
        if "embeds" in body:
            edited.embeds = list(body["embeds"] or [])
        if "components" in body:
            edited.components = list(body["components"] or [])
        if files:
            edited.attachments = self._attachments(msg.channel_id, files)
        if finish_loading or not msg.loading:
            edited.flags &= ~FLAG_LOADING
        _validate_message(edited)
        before = msg.payload() if self.keep_history else None
        msg.__dict__.update(edited.__dict__)
        if before is not None:
            msg.history = [*msg.history, before]
        self._check_public(msg)

    # -- hidden cards ---------------------------------------------------------------------

    def hidden_cards(self, channel_id: int | None = None, number: int | None = None) -> set[str]:
        """The cards nobody may see in public now: every hand, the kitty and the discard,
        less the turn-up (which all saw turned), of the deal being played, or of deal
        `number` of the match (a finished deal's message keeps its kitty and discard hidden)."""
        table = self.bot.manager.tables.get(channel_id or self.channel.id)
        match = table.any_match if table is not None else None  # a variant's game too
        if match is None:
            return set()
        deals = match.deals
        deal = deals[number - 1] if number is not None and 0 < number <= len(deals) else deals[-1]
        hidden = {c for hand in deal.hands for c in hand} | set(deal.kitty)
        if deal.discarded:
            hidden.add(deal.discarded)
        return hidden - {deal.turn_up}

    def _check_public(self, msg: FakeMessage) -> None:
        if msg.ephemeral:
            return
        self.public_checked += 1
        text = "\n".join(line for line in msg.text.splitlines() if not _CUT_LINE.match(line))
        text += "\n" + components_text(msg)
        footer = _DEAL_FOOTER.search(msg.text)
        number = int(footer.group(1)) if footer else None
        shown = cards_in(text) & self.hidden_cards(msg.channel_id, number)
        if shown:
            self.leaks.append(f"{sorted(shown)} in {msg.text!r}")


def enabled_ids(message: FakeMessage, prefix: str = "euchre:") -> list[str]:
    """The custom ids of a message's enabled buttons that start with ``prefix``."""
    return [
        b["custom_id"]
        for b in message.buttons
        if not b.get("disabled") and str(b.get("custom_id", "")).startswith(prefix)
    ]


__all__ = ["Call", "Exchange", "InteractionHarness", "cards_in", "enabled_ids"]
