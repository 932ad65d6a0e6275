"""A small fake Discord, on 127.0.0.1, that the real discord.py 2.7 client logs in to.

What it fakes: the REST API (an aiohttp web server under ``/api/v10``) and the gateway (a
websocket at ``/gateway``), with a model of one application, its guilds, text channels,
threads, members and the messages the bot sends. The test side plays the users: it invokes
slash commands, autocompletes, clicks buttons and selects and submits modals, each of which the
fake turns into the ``INTERACTION_CREATE`` payload Discord would send; the bot answers over REST
as it would in production, and the fake records every message it creates or edits, with who may
see it (ephemeral messages are seen only by the user of their interaction).

Why: the build machines reach no network but package registries, and the project's end-to-end
tests must run the real ``commands.Bot`` (login, command sync, gateway, view store, interaction
responses), not a mock of it. dpytest has no interaction support, so this fake is written
against what discord.py 2.7 actually sends and parses (see ``../shared/TESTING.md``).

discord.py reads two process-wide URLs, ``discord.http.Route.BASE`` for REST (interaction
callbacks and follow-ups included) and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` for
the websocket; :meth:`FakeDiscord.patched` sets and restores both, and :meth:`FakeDiscord.env`
gives the same URLs as ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` settings. So there is one
fake per process at a time.

Typical use (see ``tests/support/fixtures.py`` for the fixture)::

    async with FakeDiscord.serve() as fake:          # server up, URLs patched
        fake.seed()                                    # a guild, #euchre, alice..dave, mod
        async with fake.running(MyBot()) as bot:       # bot logged in, READY, guild available
            handle = await fake.slash(fake.member("alice"), fake.channel, "table create",
                                      preset="somerset")
            message = await handle.message()
            await fake.click(fake.member("bob"), message, "table:join")

Deliberate simplifications are listed in :class:`FakeDiscord`'s docstring.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import bisect
import contextlib
import copy
import json
import logging
import mimetypes
import re
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

log = logging.getLogger(__name__)

T = TypeVar("T")
ClientT = TypeVar("ClientT", bound=discord.Client)

API_VERSION = 10
# The bound on every wait for the bot (seconds). It only matters when a test fails, so it is
# generous: with both cores busy, what takes milliseconds on an idle machine can take seconds.
WAIT = 60.0
# How often FakeDiscord.wait_for re-checks a predicate when the fake itself sees no change.
RECHECK = 0.05
DISCORD_EPOCH_MS = 1_420_070_400_000

# Message flags the fake interprets.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
# Flags a bot may set when sending; Discord ignores the rest.
_SENDABLE_FLAGS = (
    FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
)

# Interaction types (what Discord sends) and callback types (what the bot answers).
INTERACTION_COMMAND = 2
INTERACTION_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5

CALLBACK_MESSAGE = 4
CALLBACK_DEFERRED_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE = 8
CALLBACK_MODAL = 9

# Which callback types Discord accepts for each interaction type.
_ALLOWED_CALLBACKS = {
    INTERACTION_COMMAND: {CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_MODAL},
    INTERACTION_COMPONENT: {
        CALLBACK_MESSAGE,
        CALLBACK_DEFERRED_MESSAGE,
        CALLBACK_DEFERRED_UPDATE,
        CALLBACK_UPDATE_MESSAGE,
        CALLBACK_MODAL,
    },
    INTERACTION_AUTOCOMPLETE: {CALLBACK_AUTOCOMPLETE},
    INTERACTION_MODAL_SUBMIT: {
        CALLBACK_MESSAGE,
        CALLBACK_DEFERRED_MESSAGE,
        CALLBACK_DEFERRED_UPDATE,
        CALLBACK_UPDATE_MESSAGE,
    },
}

# Gateway opcodes.
OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

# Application emojis: how many an application may own, the largest image, the names allowed.
EMOJI_LIMIT = 2000
EMOJI_MAX_BYTES = 256 * 1024
_EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
_DATA_URI = re.compile(r"^data:(image/(?:png|jpeg|gif|webp|avif));base64,(.*)$", re.DOTALL)

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9

# Channel types.
CHANNEL_TEXT = 0
CHANNEL_PUBLIC_THREAD = 11
CHANNEL_PRIVATE_THREAD = 12

# Component types that a user can click or choose from.
_BUTTON = 2
_SELECT_TYPES = {3, 5, 6, 7, 8}

#: What @everyone may do in a seeded guild: read, write, use commands; no moderation.
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
).value

#: The bot's own permissions by default: @everyone plus what a table bot needs to tidy up.
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS
    | discord.Permissions(
        manage_messages=True,
        manage_threads=True,
        create_private_threads=True,
    ).value
)

ADMINISTRATOR = discord.Permissions(administrator=True).value
ALL_PERMISSIONS = discord.Permissions.all().value


def _event_guild(event: str, data: Mapping[str, Any]) -> int | None:
    """The guild a gateway event belongs to, which decides its shard."""
    raw = data.get("id") if event.startswith("GUILD_") and "guild_id" not in data else None
    raw = data.get("guild_id", raw)
    return int(raw) if raw is not None else None


def _role_payload(
    role_id: int, name: str, permissions: int, position: int, managed: bool
) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "permissions": str(permissions),
        "position": position,
        "color": 0,
        "hoist": False,
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }


def json_copy(value: Any) -> Any:
    """A copy of JSON data, as it would come back over the wire (and faster than a deepcopy)."""
    return json.loads(json.dumps(value))


def _same(value: T) -> T:
    return value


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def iter_components(components: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Yields every component in a message or modal, depth first.

    Walks action rows, v2 containers and sections (``components``, ``accessory``) and modal
    labels (``component``), so a button is found wherever a layout puts it.
    """
    for component in components:
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from iter_components(children)
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, Mapping):
                yield from iter_components([child])


class FakeHTTPError(Exception):
    """Raised inside a route handler; answered as a Discord-style JSON error."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" {errors}" if errors else ""))
        self.status = status
        self.code = code
        self.message = message
        #: Discord's per-field detail of an "Invalid Form Body" (code 50035), if any.
        self.errors = errors


def _form_error(field: str, code: str, message: str) -> FakeHTTPError:
    """Discord's "Invalid Form Body" for one field: ``errors.{field}._errors``."""
    return FakeHTTPError(
        400,
        50035,
        "Invalid Form Body",
        {field: {"_errors": [{"code": code, "message": message}]}},
    )


# --------------------------------------------------------------------------------------------
# The world: users, guilds, channels, messages
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeMember:
    """A user in a guild, as the test side sees it.

    ``permissions`` is the guild-wide bitfield this member has on top of @everyone (use
    ``discord.Permissions(manage_channels=True).value``); it may be changed between
    interactions, since every interaction payload is built afresh.
    """

    id: int
    name: str
    permissions: int = 0
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel or thread (``type`` 0, 11 or 12)."""

    id: int
    guild_id: int
    name: str
    type: int = CHANNEL_TEXT
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    member_ids: set[int] = field(default_factory=set)

    @property
    def is_thread(self) -> bool:
        return self.type in (CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "type": self.type,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                parent_id=str(self.parent_id),
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=len(self.member_ids),
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now_iso(),
                    "locked": False,
                    "invitable": True,
                },
            )
        else:
            data.update(parent_id=None, topic=None)
        return data


@dataclass(frozen=True)
class RoleEdit:
    """A role the bot gave (``add``) or took from a member, with its audit-log reason."""

    guild_id: int
    user_id: int
    role_id: int
    add: bool
    reason: str | None


@dataclass(eq=False)
class FakeRole:
    """A role made with :meth:`FakeDiscord.add_role`: its place in the server's list (higher
    is more powerful), its permissions and who holds it."""

    id: int
    guild_id: int
    name: str
    position: int
    permissions: int = 0
    managed: bool = False
    members: set[int] = field(default_factory=set)

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return _role_payload(self.id, self.name, self.permissions, self.position, self.managed)


@dataclass(eq=False)
class FakeGuild:
    """A guild: its channels (and threads) and members, keyed by id."""

    id: int
    name: str
    owner_id: int
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    everyone_permissions: int = EVERYONE_PERMISSIONS
    # One role per member with extra permissions, so the client's permission maths agree
    # with the ``permissions`` string sent in interactions. member id -> role id.
    member_roles: dict[int, int] = field(default_factory=dict)
    #: Roles made with ``add_role``, by id, and positions set with ``move_role`` for the
    #: members' own roles (which are otherwise placed 1, 2, ... in the order they were made).
    roles: dict[int, FakeRole] = field(default_factory=dict)
    role_positions: dict[int, int] = field(default_factory=dict)

    def permissions_of(self, member: FakeMember) -> int:
        """The guild-wide permissions Discord would compute for ``member``."""
        value = self.everyone_permissions | member.permissions
        for role in self.roles.values():
            if member.id in role.members:
                value |= role.permissions
        if member.id == self.owner_id or value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message (or uploaded as a command option); ``data`` is its bytes."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data

    def text(self, encoding: str = "utf-8") -> str:
        return self.data.decode(encoding)


@dataclass(eq=False)
class FakeEmoji:
    """An emoji the application owns; ``image`` is the picture's bytes as uploaded."""

    id: int
    name: str
    image: bytes
    content_type: str
    user: dict[str, Any]

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": dict(self.user),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }


@dataclass(frozen=True)
class FakeUpload:
    """A file a user attaches to an ``attachment`` command option."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(eq=False)
class FakeMessage:
    """A message the bot sent, as Discord holds it now (edits update it in place).

    ``visible_to`` is ``None`` for a public message and the user id for an ephemeral one.
    ``history`` holds the payload before each edit, oldest first. The fake never changes
    ``embeds``, ``components`` or ``interaction_metadata`` in place (an edit installs new
    ones), so a payload that shares them stays what the message was when it was taken.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    visible_to: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    created_at: str = field(default_factory=_now_iso)
    edited_at: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    #: Who Discord notified when the message was created: user ids, "everyone", "role:<id>".
    notified: set[Any] = field(default_factory=set)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is the "thinking…" placeholder of a deferred response."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, fields and footer, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for fld in embed.get("fields", []):
                parts += [fld.get("name", ""), fld.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        for component in iter_components(self.components):
            if component.get("type") == 10:  # v2 text display
                parts.append(component.get("content", ""))
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[Mapping[str, Any]]:
        return list(iter_components(self.components))

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    @property
    def buttons(self) -> list[Mapping[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == _BUTTON]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> Mapping[str, Any]:
        """The component with this ``custom_id`` (or button ``label``); LookupError if none."""
        for component in iter_components(self.components):
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if custom_id is None and label is not None and component.get("label") == label:
                return component
        wanted = custom_id if custom_id is not None else f"label={label!r}"
        raise LookupError(
            f"message {self.id} has no component {wanted}; it has {self.custom_ids} "
            f"(labels {[b.get('label') for b in self.buttons]})"
        )

    def embed_objects(self) -> list[discord.Embed]:
        return [discord.Embed.from_dict(e) for e in self.embeds]

    def payload(self, *, copy: bool = True) -> dict[str, Any]:
        """The message object Discord's API would return.

        ``copy=False`` shares the message's embeds and components instead of copying them: for
        a payload the fake serializes at once or keeps unchanged (a copy is most of the cost
        when a benchmark's members click thousands of times a second).
        """
        copied = json_copy if copy else _same
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": dict(self.author),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copied(self.embeds),
            "components": copied(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
            data["webhook_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copied(self.interaction_metadata)
        return data

    def __repr__(self) -> str:
        scope = f"ephemeral for {self.visible_to}" if self.ephemeral else "public"
        return (
            f"<FakeMessage id={self.id} channel={self.channel_id} {scope} "
            f"content={self.content[:60]!r} custom_ids={self.custom_ids}>"
        )


@dataclass(frozen=True)
class MessageEvent:
    """One entry of :attr:`FakeDiscord.log`: the bot created, edited or deleted a message."""

    action: str  # "create" | "edit" | "delete"
    message_id: int
    channel_id: int
    visible_to: int | None
    snapshot: dict[str, Any]


@dataclass(frozen=True)
class InteractionResponse:
    """The initial response (callback) the bot gave to an interaction."""

    type: int
    data: dict[str, Any]

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & FLAG_EPHEMERAL)


@dataclass(eq=False)
class FakeInteraction:
    """One interaction the test side sent, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    member: FakeMember
    channel: FakeChannel
    data: dict[str, Any]
    payload: dict[str, Any]
    message_id: int | None = None  # the message a component or modal was used on
    response: InteractionResponse | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    created: float = field(default_factory=time.monotonic)  # for the token's lifetime
    #: When the fake sent its INTERACTION_CREATE (``time.monotonic()``; the last delivery).
    dispatched_at: float | None = None
    #: When the bot's initial callback reached the fake (``time.monotonic()``).
    acknowledged_at: float | None = None
    #: When the bot sent that callback, by its own stamp (see ``FakeDiscord.sent_at_header``).
    callback_sent_at: float | None = None


# --------------------------------------------------------------------------------------------
# Gateway sessions
# --------------------------------------------------------------------------------------------


class _GatewayConnection:
    """One websocket from a client; sends are serialised so frames never interleave."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: _Session | None = None
        #: True once an IDENTIFY or a RESUME was accepted on it; a connection closed without
        #: either was opened for nothing (a client that dropped it while waiting, say).
        self.started = False
        self._lock = asyncio.Lock()

    async def send(self, payload: Mapping[str, Any]) -> bool:
        async with self._lock:
            if self.ws.closed:
                return False
            try:
                # Text frames: discord.py only decompresses binary ones.
                await self.ws.send_str(json.dumps(payload))
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway send failed: %s", exc)
                return False
            return True


@dataclass(eq=False)
class _Session:
    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)  # [shard_id, num_shards] from its IDENTIFY
    seq: int = 0
    connection: _GatewayConnection | None = None
    # Dispatches kept for RESUME; a handful of tests' worth, never trimmed mid-test.
    sent: list[dict[str, Any]] = field(default_factory=list)
    resumes: int = 0
    # Set when the client closes with 1000/1001 (a logout): such a session cannot resume.
    ended: bool = False


# --------------------------------------------------------------------------------------------
# Handles the test awaits
# --------------------------------------------------------------------------------------------


class InteractionHandle:
    """What :meth:`FakeDiscord.slash`, ``click``, ``autocomplete`` and ``submit_modal`` return.

    Every wait is bounded (``timeout`` seconds, :data:`WAIT` by default) and raises
    ``TimeoutError`` with a description of what the fake has seen, so a bot that never answers
    fails legibly.
    """

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    @property
    def id(self) -> int:
        return self.interaction.id

    async def response(self, timeout: float = WAIT) -> InteractionResponse:
        """The initial callback (type 4, 5, 6, 7, 8 or 9) once the bot has sent it."""
        return await self.fake.wait_for(
            lambda: self.interaction.response,
            timeout=timeout,
            what=f"a response to interaction {self.id}",
        )

    async def message(self, timeout: float = WAIT) -> FakeMessage:
        """The response's message, once it exists and is no longer a loading placeholder.

        For type 4 and 5 that is the message the response created (after a defer, the first
        follow-up or ``edit_original_response`` fills it); for 6 and 7 on a component it is
        the message the component is on. The object is live: later edits show in it.
        """

        def ready() -> FakeMessage | None:
            mid = self.interaction.original_message_id
            if mid is None:
                return None
            msg = self.fake.messages_by_id[mid]
            return None if msg.loading else msg

        await self.response(timeout)
        return await self.fake.wait_for(
            ready, timeout=timeout, what=f"the message of interaction {self.id}"
        )

    async def followup(self, index: int = 0, timeout: float = WAIT) -> FakeMessage:
        """The ``index``-th follow-up message (the first after a defer is the original)."""

        def ready() -> FakeMessage | None:
            ids = self.interaction.followup_ids
            return self.fake.messages_by_id[ids[index]] if len(ids) > index else None

        return await self.fake.wait_for(
            ready, timeout=timeout, what=f"follow-up #{index} of interaction {self.id}"
        )

    async def choices(self, timeout: float = WAIT) -> list[dict[str, Any]]:
        """The autocomplete choices (``{"name", "value"}`` dicts) the bot answered."""
        response = await self.response(timeout)
        if response.type != CALLBACK_AUTOCOMPLETE:
            raise AssertionError(f"expected an autocomplete answer, got callback {response.type}")
        return list(self.interaction.choices or [])

    async def modal(self, timeout: float = WAIT) -> dict[str, Any]:
        """The modal (``custom_id``, ``title``, ``components``) the bot opened."""
        response = await self.response(timeout)
        if response.type != CALLBACK_MODAL:
            raise AssertionError(f"expected a modal, got callback {response.type}")
        assert self.interaction.modal is not None
        return self.interaction.modal

    async def submit_modal(
        self, values: Mapping[str, Any], timeout: float = WAIT
    ) -> InteractionHandle:
        """Submits the modal this interaction opened, as the same member, with ``values``."""
        modal = await self.modal(timeout)
        return await self.fake.submit_modal(
            self.interaction.member,
            self.interaction.channel,
            modal,
            values,
            message=self.interaction.message_id,
        )

    def __repr__(self) -> str:
        i = self.interaction
        return f"<InteractionHandle id={i.id} type={i.type} response={i.response}>"


# --------------------------------------------------------------------------------------------
# The fake itself
# --------------------------------------------------------------------------------------------


class FakeDiscord:
    """A fake Discord: REST and gateway on one 127.0.0.1 port, with a persistent world.

    State (guilds, synced commands, messages, interactions) lives on this object and survives
    any number of bot instances, so restart tests stop one bot and start another against it.

    Known simplifications:

    - One application and one bot user; one active gateway session (the latest IDENTIFY).
    - Sharding as Discord does it (see `shard_count`). Rate limits only when a test asks: the
      next requests refused (``rate_limit_next``) or Discord's global limit (``global_limit``).
      No voice, no presences, no DMs, no reactions.
    - Permission overwrites are not modelled: a member's permissions are @everyone plus
      :attr:`FakeMember.permissions` (all of them for the owner or an administrator).
    - Roles: each member with extra permissions has one role giving them, and
      :meth:`add_role` makes others; a member's role is given and taken over REST as Discord
      checks it (Manage Roles, a role of the bot's above it, no integration's role), each
      recorded with its audit-log reason in :attr:`role_edits`.
    - Commands whose ``default_member_permissions`` the member lacks are refused by
      :meth:`slash` (as Discord's client hides them) unless ``enforce_default_permissions``
      is set to False; ``min``/``max``/``choices`` are not enforced, so tests can send what a
      modified client could.
    - Message limits checked: content 2000, 10 embeds and the embed limits, 5 action rows of 5
      buttons, ``custom_id`` 100 and unique, labels 80, empty messages, a button's custom emoji
      the application does not own. Others are not.
    - Application emojis (``/applications/{app}/emojis``) as Discord keeps them: names of 2-32
      of ``[A-Za-z0-9_]`` and unique, images of at most 256 KiB, 2,000 at most; their pictures
      are served at ``/emojis/{id}.png`` as uploaded (``Asset.BASE`` is patched to the fake).
      :attr:`refuse_emoji_uploads` makes every upload fail.
    - After a deferred response the first follow-up fills the placeholder and keeps the
      defer's ephemerality, as Discord does.
    """

    def __init__(
        self,
        *,
        token: str = "fake-token.for-tests.only",
        bot_name: str = "EuchreBot",
        bot_permissions: int = BOT_PERMISSIONS,
        heartbeat_interval_ms: int = 45_000,
    ) -> None:
        self.token = token
        self.bot_permissions = bot_permissions
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.enforce_default_permissions = True
        #: How long an interaction waits for a dropped gateway to come back before failing.
        self.reconnect_grace = WAIT

        self._last_snowflake = 0
        self.application_id = self.snowflake()
        self.bot_user = FakeMember(self.application_id, bot_name, bot=True)
        self.owner_user = FakeMember(self.snowflake(), "app-owner")

        self.guilds: dict[int, FakeGuild] = {}
        self.messages_by_id: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        #: Synced application commands: ``None`` for global, else the guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        #: The application's emojis by id (they outlive bot instances, as on Discord).
        self.emojis: dict[int, FakeEmoji] = {}
        #: Set to a ``FakeHTTPError`` to refuse every emoji upload with it (to test fallbacks).
        self.refuse_emoji_uploads: FakeHTTPError | None = None
        #: True drops the connection of every emoji upload unanswered, as a network that
        #: fails under the request does.
        self.drop_emoji_uploads = False

        #: Every message the bot created, edited or deleted, in order.
        self.log: list[MessageEvent] = []
        #: False keeps no ``log`` and no message ``history``: a benchmark of thousands of
        #: tables needs neither, and copying every message at every edit would be most of the
        #: fake's work. Tests keep both (the default).
        self.keep_history = True
        #: Every role the bot gave or took (``PUT``/``DELETE`` of a member's role), in order.
        self.role_edits: list[RoleEdit] = []
        #: Every REST request as ``(method, path)`` (path without the ``/api/v10`` prefix).
        self.requests: list[tuple[str, str]] = []
        #: When each of them arrived (``time.monotonic()``), in the same order.
        self.request_times: list[float] = []
        #: A request header in which the bot stamps when it sent the request (its
        #: ``time.monotonic()``, the fake's clock on the same machine); None (the default)
        #: reads none. A benchmark sets it so that a stall of the fake's own event loop does
        #: not change what is measured: a stamped request is counted against ``global_limit``
        #: at its stamp, not when the fake's loop got to it (after a stall, requests the bot
        #: sent a second apart would be counted together), and a callback's stamp is kept as
        #: the interaction's ``callback_sent_at``.
        self.sent_at_header: str | None = None
        #: The stamp of each request (its arrival when it has none), in ``requests``' order.
        self.request_sent_times: list[float] = []
        #: Seconds an interaction token may edit its messages and send follow-ups (Discord:
        #: 15 minutes); a test sets less to see what the bot does once a token has expired.
        self.token_lifetime = 15 * 60.0
        #: Requests the fake has no route for; the fixture fails a test that leaves any here.
        self.unknown_routes: list[tuple[str, str]] = []
        #: Requests the fake refused (4xx), as ``"METHOD path: status code message"``.
        self.errors: list[str] = []
        #: Gateway sessions, one per IDENTIFY, oldest first.
        self.sessions: list[_Session] = []
        #: Sharding as Discord does it: ``GET /gateway/bot`` recommends ``shard_count``; each
        #: IDENTIFY names ``[shard_id, num_shards]``, and a guild's events go to the session of
        #: shard ``(guild_id >> 22) % num_shards``. With ``identify_window`` set (Discord: 5 s),
        #: an IDENTIFY in the same bucket (``shard_id % max_concurrency``) within that many
        #: seconds of the last one gets op 9; 0 leaves it unchecked (restarts in tests are quick).
        self.shard_count = 1
        self.max_concurrency = 1
        self.identify_window = 0.0
        #: Every IDENTIFY as ``(monotonic time, shard_id, num_shards, accepted)``.
        self.identifies: list[tuple[float, int, int, bool]] = []
        #: Every gateway websocket a client opened, oldest first (see ``started``).
        self.gateway_connections: list[_GatewayConnection] = []
        #: True holds the ACK of every heartbeat sent on a started connection (a slow network)
        #: until ``release_heartbeat_acks()``; those sent before IDENTIFY are answered at once.
        self.hold_heartbeat_acks = False
        self._held_acks: list[_GatewayConnection] = []
        #: Discord's rate limits, when a test asks: the next ``rate_limit_next`` REST requests
        #: (interaction callbacks aside) are answered 429, global ones when ``rate_limit_global``
        #: is set, with ``retry_after`` seconds in the body and Discord's headers (``Via``
        #: included: without it discord.py takes a 429 for a Cloudflare ban and gives up).
        self.rate_limit_next = 0
        #: Seconds each interaction callback takes to arrive (a slow network): what happens at
        #: the table meanwhile (a computer's move) is applied before the answer is.
        self.callback_delay = 0.0
        self.rate_limit_global = False
        self.rate_limit_retry_after = 0.01
        #: Every 429 the fake gave, as ``"METHOD path"``.
        self.rate_limited: list[str] = []
        #: Discord's global limit, off unless set: with ``global_limit`` = n, a REST request
        #: the limit counts (anything but interaction callbacks and webhooks) that would be
        #: the (n+1)-th accepted within ``global_window`` seconds is answered with a global
        #: 429 whose ``retry_after`` is when the oldest of those n leaves the window. Refused
        #: requests are not counted. ``global_clock`` is the clock of the window (a test may
        #: hold it still). Each such 429 is in ``rate_limited`` and ``global_limited``.
        self.global_limit: int | None = None
        self.global_window = 1.0
        self.global_clock: Callable[[], float] = time.monotonic
        self.global_limited = 0
        # The moments of the counted requests accepted lately, in order (stamps may come out
        # of order: each process stamps its own).
        self._global_sent: list[float] = []
        #: A test's choice of channel messages whose POST is answered late: a message it
        #: matches is posted (members see it) but the answer waits until ``release_posts()``,
        #: as when the bot stops or gives up with its request on the way.
        self.hold_post_answers: Callable[[Mapping[str, Any]], bool] | None = None
        self._posts_released = asyncio.Event()

        self._connections: set[_GatewayConnection] = set()
        # True while the fake itself closes sockets, so a 1001 from us does not end sessions.
        self._closing = False
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # ---- lifecycle and URLs -----------------------------------------------------------------

    async def start(self) -> None:
        """Starts the server on a free 127.0.0.1 port, or on its old port after :meth:`stop`,
        so URLs handed out before (``Route.BASE``, attachment URLs) stay valid."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        # A short shutdown timeout: stop() closes the websockets first, so nothing should wait.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port or 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("fake Discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Closes every gateway connection and stops the server. State is kept."""
        await self.disconnect_gateway(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise RuntimeError("the fake Discord is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The REST base, the value for ``Route.BASE`` / ``DISCORD_API_BASE``."""
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        """The gateway URL, the value for ``DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Settings that point a bot built from the environment at this fake."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    @contextlib.contextmanager
    def patched(self) -> Iterator[FakeDiscord]:
        """Points discord.py's process-wide REST and gateway URLs here; restores them after."""
        with patch_discord_urls(self.api_base, self.gateway_url):
            yield self

    @classmethod
    @contextlib.asynccontextmanager
    async def serve(cls, **kwargs: Any) -> AsyncIterator[FakeDiscord]:
        """Starts a fake, patches discord.py's URLs, and undoes both on exit."""
        fake = cls(**kwargs)
        await fake.start()
        try:
            with fake.patched():
                yield fake
        finally:
            await fake.stop()

    @contextlib.asynccontextmanager
    async def running(
        self,
        bot: ClientT,
        *,
        token: str | None = None,
        timeout: float = WAIT,
    ) -> AsyncIterator[ClientT]:
        """Starts ``bot`` against this fake, waits until it is ready, and closes it on exit.

        If the bot fails to start (for instance ``discord.LoginFailure``), that exception is
        raised here, after the bot has been closed so no aiohttp session leaks.
        """
        task = asyncio.create_task(bot.start(token or self.token), name="bot-under-test")
        try:
            await self._wait_ready(bot, task, timeout)
        except BaseException:
            await self._close_bot(bot, task, timeout)
            raise
        try:
            yield bot
        finally:
            await self._close_bot(bot, task, timeout)

    async def _close_bot(
        self, bot: discord.Client, task: asyncio.Task[None], timeout: float
    ) -> None:
        await bot.close()
        # The bot logged out: its sessions cannot be resumed, and interactions sent now
        # should fail at once rather than wait for a RESUME that will never come.
        shards = getattr(bot, "shard_ids", None) or [bot.shard_id or 0]
        for session in self.shard_sessions():
            if session.shard[0] in shards:
                session.ended = True
        try:
            await asyncio.wait_for(task, timeout)
        except TimeoutError:
            log.warning("the bot's task did not finish %ss after close()", timeout)
        except (Exception, asyncio.CancelledError) as exc:
            # Already raised by _wait_ready, or the end of a test that dropped the gateway.
            log.debug("the bot's task ended with %r", exc)

    @staticmethod
    async def _wait_ready(bot: discord.Client, task: asyncio.Task[None], timeout: float) -> None:
        # wait_until_ready() cannot be called before start() has set the client up, so poll;
        # and watch the task, so a failed login surfaces at once instead of as a timeout.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not bot.is_ready():
            if task.done():
                task.result()  # raises the bot's own exception, e.g. LoginFailure
                raise RuntimeError("the bot stopped before it was ready")
            if loop.time() > deadline:
                raise TimeoutError(f"the bot was not ready after {timeout}s")
            await asyncio.sleep(0.01)

    # ---- ids and change notification -------------------------------------------------------

    def snowflake(self) -> int:
        """A new, increasing snowflake whose timestamp is now."""
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_snowflake = max(value, self._last_snowflake + 1)
        return self._last_snowflake

    def _notify(self) -> None:
        # Wake every wait_for(); each waiter re-checks its own predicate.
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = WAIT, what: str | None = None
    ) -> T:
        """Waits until ``predicate()`` returns something truthy, and returns it.

        The predicate is re-checked whenever the fake's state changes (a message, a response,
        a gateway event), and every ``RECHECK`` seconds besides: a predicate that reads the
        bot's own state (a table's message id, stored once Discord's answer is read) may turn
        true with nothing more coming to the fake, and without that re-check was seen only at
        the timeout, a minute later. Raises ``TimeoutError`` with a summary of the fake's
        recent state.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what or repr(predicate)}\n"
                    + self.describe()
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, RECHECK))

    def describe(self, last: int = 8) -> str:
        """A short summary of recent traffic, for failure messages."""
        lines = [f"last requests: {self.requests[-last:]}"]
        if self.errors:
            lines.append(f"refused requests: {self.errors[-last:]}")
        if self.unknown_routes:
            lines.append(f"unknown routes: {self.unknown_routes}")
        lines.append(
            f"last messages: {[self.messages_by_id[e.message_id] for e in self.log[-last:]]}"
        )
        session = self.active_session
        lines.append(
            f"gateway: {'connected' if self.connected else 'not connected'}"
            f" (session {session.id if session else None})"
        )
        return "\n".join(lines)

    # ---- building the world -----------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeMember | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Adds a guild with the bot in it. Seen by bots that IDENTIFY afterwards.

        Args:
            shard: ``(shard_id, num_shards)``: an id whose shard (``(id >> 22) % n``) is that.
        """
        guild_id = self.snowflake()
        if shard is not None:
            shard_id, count = shard
            stamp = guild_id >> 22
            guild_id = (stamp + (shard_id - stamp) % count) << 22
            while guild_id in self.guilds:  # another guild of that shard in the same instant
                guild_id += count << 22
            self._last_snowflake = max(self._last_snowflake, guild_id)
        guild = FakeGuild(guild_id, name, owner_id=(owner or self.owner_user).id)
        guild.members[self.bot_user.id] = self.bot_user
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        """Adds a text channel; a connected bot gets CHANNEL_CREATE."""
        channel = FakeChannel(self.snowflake(), guild.id, name, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self._dispatch_soon("CHANNEL_CREATE", channel.payload())
        return channel

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        private: bool = False,
        owner: FakeMember | None = None,
    ) -> FakeChannel:
        """Adds a thread under ``parent``; a connected bot gets THREAD_CREATE."""
        guild = self.guilds[parent.guild_id]
        thread = FakeChannel(
            self.snowflake(),
            guild.id,
            name,
            type=CHANNEL_PRIVATE_THREAD if private else CHANNEL_PUBLIC_THREAD,
            parent_id=parent.id,
            owner_id=(owner or self.bot_user).id,
        )
        guild.channels[thread.id] = thread
        self._dispatch_soon("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def add_member(
        self,
        guild: FakeGuild,
        name: str,
        *,
        permissions: int = 0,
        id: int | None = None,
    ) -> FakeMember:
        """Adds a member with extra ``permissions`` (a bitfield) over @everyone."""
        member = FakeMember(id or self.snowflake(), name, permissions)
        guild.members[member.id] = member
        if permissions:
            guild.member_roles[member.id] = self.snowflake()
        self._dispatch_soon(
            "GUILD_MEMBER_ADD",
            {**self._member_payload(guild, member), "guild_id": str(guild.id)},
            intent=INTENT_GUILD_MEMBERS,
        )
        return member

    def add_role(
        self,
        guild: FakeGuild,
        name: str,
        *,
        position: int = 1,
        permissions: int = 0,
        managed: bool = False,
    ) -> FakeRole:
        """Adds a role at ``position`` (the bot's own role is at 1 + its place among the
        members' roles unless moved: see ``move_role``); a connected bot gets
        GUILD_ROLE_CREATE."""
        role = FakeRole(self.snowflake(), guild.id, name, position, permissions, managed)
        guild.roles[role.id] = role
        self._dispatch_soon(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}
        )
        return role

    def delete_role(self, guild: FakeGuild, role: FakeRole) -> None:
        """Deletes a role made with ``add_role``; a connected bot gets GUILD_ROLE_DELETE."""
        del guild.roles[role.id]
        self._dispatch_soon(
            "GUILD_ROLE_DELETE", {"guild_id": str(guild.id), "role_id": str(role.id)}
        )

    def bot_role(self, guild: FakeGuild) -> int:
        """The id of the bot's own role in ``guild`` (as an invited bot has)."""
        if self.bot_user.id not in guild.member_roles:
            guild.member_roles[self.bot_user.id] = self.snowflake()
        return guild.member_roles[self.bot_user.id]

    def move_role(self, guild: FakeGuild, role_id: int, position: int) -> None:
        """Moves a role (one of ``add_role``'s or a member's own) to ``position``; a connected
        bot gets GUILD_ROLE_UPDATE."""
        if role_id in guild.roles:
            guild.roles[role_id].position = position
            payload = guild.roles[role_id].payload()
        else:
            guild.role_positions[role_id] = position
            member_id = next(m for m, r in guild.member_roles.items() if r == role_id)
            payload = self._member_role_payload(guild, member_id)
        self._dispatch_soon("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": payload})

    def set_bot_permissions(self, permissions: int) -> None:
        """Changes what the bot's own role allows in every guild; a connected bot gets
        GUILD_ROLE_UPDATE for each."""
        self.bot_permissions = self.bot_user.permissions = permissions
        for guild in self.guilds.values():
            self.bot_role(guild)
            payload = self._member_role_payload(guild, self.bot_user.id)
            self._dispatch_soon("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": payload})

    def seed(self) -> FakeDiscord:
        """A ready-made world: guild "Euchre Club", channel #euchre, players alice, bob,
        carol and dave, and "mod" who may Manage Channels. Returns self."""
        guild = self.add_guild("Euchre Club")
        self.add_channel(guild, "euchre")
        for name in ("alice", "bob", "carol", "dave"):
            self.add_member(guild, name)
        self.add_member(guild, "mod", permissions=discord.Permissions(manage_channels=True).value)
        return self

    @property
    def guild(self) -> FakeGuild:
        """The first guild added."""
        return next(iter(self.guilds.values()))

    @property
    def channel(self) -> FakeChannel:
        """The first text channel of the first guild."""
        return next(c for c in self.guild.channels.values() if not c.is_thread)

    def member(self, name: str, guild: FakeGuild | None = None) -> FakeMember:
        """The member called ``name`` (in the first guild unless ``guild`` is given)."""
        for member in (guild or self.guild).members.values():
            if member.name == name:
                return member
        raise LookupError(f"no member called {name!r}")

    def find_channel(self, channel_id: int) -> FakeChannel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        return None

    # ---- reading what the bot did -----------------------------------------------------------

    @property
    def messages(self) -> list[FakeMessage]:
        """Every live (not deleted) message, oldest first."""
        return [m for m in self.messages_by_id.values() if not m.deleted]

    def public_messages(self, channel: FakeChannel | int | None = None) -> list[FakeMessage]:
        """Live public messages, in ``channel`` if given, oldest first."""
        cid = _id_of(channel)
        return [m for m in self.messages if not m.ephemeral and cid in (None, m.channel_id)]

    def ephemeral_for(
        self, user: FakeMember | int, channel: FakeChannel | int | None = None
    ) -> list[FakeMessage]:
        """Live ephemeral messages only ``user`` can see, oldest first."""
        uid, cid = _id_of(user), _id_of(channel)
        return [
            m
            for m in self.messages
            if m.ephemeral and m.visible_to == uid and cid in (None, m.channel_id)
        ]

    def visible_to(
        self, user: FakeMember | int, channel: FakeChannel | int | None = None
    ) -> list[FakeMessage]:
        """What ``user`` sees: public messages plus their own ephemeral ones, oldest first."""
        uid, cid = _id_of(user), _id_of(channel)
        return [
            m
            for m in self.messages
            if (not m.ephemeral or m.visible_to == uid) and cid in (None, m.channel_id)
        ]

    def synced_commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """The commands last synced globally (``None``) or to ``guild``."""
        return self.commands.get(_id_of(guild), [])

    # ---- gateway: sessions and dispatch ----------------------------------------------------

    @property
    def active_session(self) -> _Session | None:
        """The latest session, unless its bot has closed it."""
        if self.sessions and not self.sessions[-1].ended:
            return self.sessions[-1]
        return None

    def shard_sessions(self) -> list[_Session]:
        """The live session of each shard: the latest IDENTIFY for that shard id, unless its
        bot closed it."""
        latest: dict[int, _Session] = {}
        for session in self.sessions:
            latest[session.shard[0]] = session
        return [s for s in latest.values() if not s.ended]

    def session_for(self, guild_id: int | None) -> _Session | None:
        """The session that gets a guild's events (a guild's shard is ``(id >> 22) % n``);
        events of no guild go to shard 0, as Discord sends DMs."""
        for session in reversed(self.shard_sessions()):
            shard_id, count = session.shard
            if (0 if guild_id is None else (guild_id >> 22) % count) == shard_id:
                return session
        return None

    @property
    def connected(self) -> bool:
        """True when the latest session has a live websocket."""
        session = self.active_session
        return bool(session and session.connection and not session.connection.ws.closed)

    async def dispatch(
        self, event: str, data: Mapping[str, Any], session: _Session | None = None
    ) -> None:
        """Sends a gateway DISPATCH to the bot: to ``session``, or to the session of the shard
        of the event's guild (kept for RESUME if the socket is down)."""
        if session is None:
            session = self.session_for(_event_guild(event, data))
        if session is None:
            raise RuntimeError(f"cannot dispatch {event}: no bot has identified to the fake")
        session.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(payload)
        if session.connection is not None:
            await session.connection.send(payload)

    def _dispatch_soon(self, event: str, data: Mapping[str, Any], *, intent: int = 0) -> None:
        # World changes made from synchronous code (or REST handlers) reach a connected bot
        # as events; with no bot connected they are simply part of the next GUILD_CREATE.
        session = self.session_for(_event_guild(event, data))
        if session is None or session.connection is None or session.connection.ws.closed:
            return
        if intent and not session.intents & intent:
            return
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data))
        task.add_done_callback(_log_task_failure)

    async def disconnect_gateway(self, code: int = 4000) -> None:
        """Closes every gateway websocket with ``code``.

        4000 (or 1000) makes discord.py reconnect and RESUME; 4004 makes it give up.
        """
        self._closing = True
        try:
            for connection in list(self._connections):
                await connection.ws.close(code=code, message=b"closed by the fake")
        finally:
            self._closing = False
        self._notify()

    async def invalidate_session(self, shard_id: int = 0) -> None:
        """Sends op 9 (d=false) to the shard's session, which ends: discord.py connects again
        and IDENTIFYs afresh (no RESUME)."""
        session = next((s for s in self.shard_sessions() if s.shard[0] == shard_id), None)
        if session is None or session.connection is None:
            raise RuntimeError(f"shard {shard_id} has no connected session")
        session.ended = True
        await session.connection.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})

    async def release_heartbeat_acks(self) -> None:
        """Sends the ACKs held by ``hold_heartbeat_acks``, and holds no more."""
        self.hold_heartbeat_acks = False
        held, self._held_acks = self._held_acks, []
        for connection in held:
            await connection.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    async def request_reconnect(self) -> None:
        """Sends op 7 RECONNECT: discord.py closes and RESUMEs on the resume URL."""
        session = self.active_session
        if session and session.connection:
            await session.connection.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, timeout=2.0)
        await ws.prepare(request)
        connection = _GatewayConnection(ws)
        self._connections.add(connection)
        self.gateway_connections.append(connection)
        await connection.send(
            {
                "op": OP_HELLO,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                "s": None,
                "t": None,
            }
        )
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    log.warning("fake gateway ignores a %s frame", msg.type.name)
                    continue
                try:
                    await self._on_gateway_message(connection, json.loads(msg.data))
                except Exception:
                    log.exception("fake gateway failed on %s", msg.data[:200])
                    raise
        finally:
            self._connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                # A logout. (discord.py often races its own 1000 with a 4000 here, so
                # running() also ends the session when it closes the bot.)
                if ws.close_code in (1000, 1001) and not self._closing:
                    session.ended = True
            self._notify()
        return ws

    async def _on_gateway_message(
        self, connection: _GatewayConnection, msg: dict[str, Any]
    ) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == OP_HEARTBEAT:
            if self.hold_heartbeat_acks and connection.started:
                self._held_acks.append(connection)
                self._notify()
                return
            # Answered even before IDENTIFY: discord.py beats as soon as it sees HELLO.
            await connection.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._identify(connection, data)
        elif op == OP_RESUME:
            await self._resume(connection, data)
        elif op == OP_REQUEST_MEMBERS:
            await self._request_members(connection, data)
        else:
            log.debug("fake gateway ignores op %s", op)

    async def _identify(self, connection: _GatewayConnection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard", [0, 1])
        valid = (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(x, int) for x in shard)
            and 0 <= shard[0] < shard[1]
        )
        if not valid:
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return
        shard_id, count = shard
        now = time.monotonic()
        bucket = shard_id % self.max_concurrency
        recent = [
            at
            for at, sid, _, accepted in self.identifies
            if accepted and sid % self.max_concurrency == bucket
        ]
        too_soon = bool(self.identify_window and recent and now - recent[-1] < self.identify_window)
        self.identifies.append((now, shard_id, count, not too_soon))
        if too_soon:
            # Over the session start limit's max_concurrency: the client must wait and retry.
            await connection.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        session = _Session(
            id=secrets.token_hex(16), intents=int(data.get("intents", 0)), shard=(shard_id, count)
        )
        session.connection = connection
        connection.session = session
        connection.started = True
        self.sessions.append(session)
        guilds = [g for g in self.guilds.values() if (g.id >> 22) % count == shard_id]
        ready = {
            "v": API_VERSION,
            "user": {
                **self.bot_user.user_payload(),
                "verified": True,
                "mfa_enabled": False,
                "flags": 0,
            },
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "shard": data.get("shard", [0, 1]),
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        await self.dispatch("READY", ready, session)
        for guild in guilds:
            await self.dispatch("GUILD_CREATE", self._guild_payload(guild), session)
        self._notify()

    async def _resume(self, connection: _GatewayConnection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if (
            data.get("token") != self.token
            or session is None
            or session not in self.shard_sessions()
        ):
            # d=false: the session cannot be resumed; discord.py identifies afresh.
            await connection.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        session.connection = connection
        connection.session = session
        connection.started = True
        session.resumes += 1
        last_seen = int(data.get("seq") or 0)
        for payload in session.sent:
            if payload["s"] > last_seen:
                await connection.send(payload)
        await self.dispatch("RESUMED", {}, session)
        self._notify()

    async def _request_members(self, connection: _GatewayConnection, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.name.lower().startswith(data["query"].lower())]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [self._member_payload(guild, m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ---- payloads ----------------------------------------------------------------------------

    def _member_payload(self, guild: FakeGuild, member: FakeMember) -> dict[str, Any]:
        roles = [str(guild.member_roles[member.id])] if member.id in guild.member_roles else []
        roles += [str(r.id) for r in guild.roles.values() if member.id in r.members]
        return {
            "user": member.user_payload(),
            "roles": roles,
            "nick": None,
            "joined_at": _now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }

    def _roles_payload(self, guild: FakeGuild) -> list[dict[str, Any]]:
        roles = [
            {
                "id": str(guild.id),
                "name": "@everyone",
                "permissions": str(guild.everyone_permissions),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ]
        for position, member_id in enumerate(guild.member_roles, start=1):
            roles.append(self._member_role_payload(guild, member_id, position))
        roles += [role.payload() for role in guild.roles.values()]
        return roles

    def _member_role_payload(
        self, guild: FakeGuild, member_id: int, position: int | None = None
    ) -> dict[str, Any]:
        """The role that gives a member its extra permissions (an invited bot's own role)."""
        role_id = guild.member_roles[member_id]
        if position is None:
            position = list(guild.member_roles).index(member_id) + 1
        member = guild.members[member_id]
        return _role_payload(
            role_id,
            f"perms:{member.name}",
            member.permissions,
            guild.role_positions.get(role_id, position),
            member.bot,
        )

    def _guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        # The bot's permissions come from a role of its own, as for an invited bot.
        if self.bot_user.id not in guild.member_roles:
            guild.member_roles[self.bot_user.id] = self.snowflake()
        self.bot_user.permissions = self.bot_permissions
        channels = [c.payload() for c in guild.channels.values() if not c.is_thread]
        threads = [c.payload() for c in guild.channels.values() if c.is_thread]
        members = [self._member_payload(guild, m) for m in guild.members.values()]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": self._roles_payload(guild),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            # Equal to len(members), so a client with the members intent sees the guild as
            # chunked and does not ask for more.
            "member_count": len(members),
            "members": members,
            "channels": channels,
            "threads": threads,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def _interaction_payload(
        self,
        itype: int,
        member: FakeMember,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
    ) -> tuple[FakeInteraction, dict[str, Any]]:
        guild = self.guilds[channel.guild_id]
        if member.id not in guild.members:
            raise LookupError(f"{member.name} is not a member of guild {guild.name}")
        permissions = guild.permissions_of(member)
        interaction_id = self.snowflake()
        token = f"itok-{interaction_id}-{secrets.token_urlsafe(12)}"
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(permissions)},
            "member": {**self._member_payload(guild, member), "permissions": str(permissions)},
            "data": data,
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": str(guild.permissions_of(self._bot_with_permissions())),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message.payload(copy=False)
        record = FakeInteraction(
            id=interaction_id,
            token=token,
            type=itype,
            member=member,
            channel=channel,
            data=data,
            payload=payload,
            message_id=message.id if message else None,
        )
        return record, payload

    def _bot_with_permissions(self) -> FakeMember:
        self.bot_user.permissions = self.bot_permissions
        return self.bot_user

    async def _send_interaction(
        self, record: FakeInteraction, payload: dict[str, Any]
    ) -> InteractionHandle:
        guild_id = _event_guild("INTERACTION_CREATE", payload)

        def connected() -> bool:
            session = self.session_for(guild_id)
            return bool(session and session.connection and not session.connection.ws.closed)

        if self.session_for(guild_id) is not None and not connected():
            # Dropped a moment ago: give discord.py its usual moment to RESUME.
            with contextlib.suppress(TimeoutError):
                await self.wait_for(connected, timeout=self.reconnect_grace)
        if not connected():
            raise RuntimeError("no bot is connected to the fake gateway for this guild's shard")
        self.interactions[record.id] = record
        record.dispatched_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", payload)
        return InteractionHandle(self, record)

    async def redeliver(self, handle: InteractionHandle) -> InteractionHandle:
        """Delivers an interaction's INTERACTION_CREATE once more, the same id and token, as a
        gateway that replays events after a resumed session may. Its answers go to the same
        interaction (a second acknowledgement is refused with 40060, as Discord refuses it)."""
        record = handle.interaction
        await self.dispatch("INTERACTION_CREATE", record.payload)
        return handle

    # ---- the test side: users acting ---------------------------------------------------------

    async def slash(
        self, member: FakeMember, channel: FakeChannel, command: str, /, **options: Any
    ) -> InteractionHandle:
        """``member`` runs ``/command`` in ``channel`` with ``options``.

        ``command`` is the full path, e.g. ``"table create"`` or ``"league season start"``; it
        is looked up in the commands the bot synced (guild first, then global), and options
        are typed from those definitions. User options take a :class:`FakeMember`, channel
        options a :class:`FakeChannel`, attachment options a :class:`FakeUpload`.
        """
        data = self._command_data(member, channel, command, options, focused=None)
        record, payload = self._interaction_payload(INTERACTION_COMMAND, member, channel, data)
        return await self._send_interaction(record, payload)

    async def autocomplete(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        /,
        *,
        focused: str,
        value: str = "",
        **options: Any,
    ) -> list[dict[str, Any]]:
        """``member`` types ``value`` into option ``focused`` of ``/command``; returns the
        choices the bot offered (``{"name", "value"}`` dicts). Other options may be given."""
        handle = await self.autocomplete_handle(
            member, channel, command, focused=focused, value=value, **options
        )
        return await handle.choices()

    async def autocomplete_handle(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        /,
        *,
        focused: str,
        value: str = "",
        **options: Any,
    ) -> InteractionHandle:
        """Like :meth:`autocomplete` but returns the handle, for tests that want the wait."""
        options = {**options, focused: value}
        data = self._command_data(member, channel, command, options, focused=focused)
        record, payload = self._interaction_payload(INTERACTION_AUTOCOMPLETE, member, channel, data)
        return await self._send_interaction(record, payload)

    async def click(
        self,
        member: FakeMember,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        values: Sequence[Any] | None = None,
    ) -> InteractionHandle:
        """``member`` clicks the button (or picks ``values`` in the select) with ``custom_id``
        (or button ``label``) on ``message``.

        Refused as Discord's client would refuse it: a deleted message, someone else's
        ephemeral message, a missing, disabled or link button.
        """
        msg = self._live_message(message)
        if msg.ephemeral and msg.visible_to != member.id:
            raise PermissionError(f"{member.name} cannot see ephemeral message {msg.id}")
        component = msg.component(custom_id, label=label)
        if component.get("disabled"):
            raise ValueError(f"component {component.get('custom_id')!r} is disabled")
        ctype = component["type"]
        if ctype == _BUTTON and "custom_id" not in component:
            raise ValueError("link and premium buttons do not send interactions")
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": ctype}
        if ctype in _SELECT_TYPES:
            data.update(self._select_values(component, values or []))
        elif values:
            raise ValueError("values are for selects, not buttons")
        channel = self.find_channel(msg.channel_id)
        assert channel is not None
        record, payload = self._interaction_payload(
            INTERACTION_COMPONENT, member, channel, data, message=msg
        )
        return await self._send_interaction(record, payload)

    async def select(
        self,
        member: FakeMember,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[Any],
    ) -> InteractionHandle:
        """``member`` picks ``values`` in the select ``custom_id`` on ``message``."""
        return await self.click(member, message, custom_id, values=values)

    async def submit_modal(
        self,
        member: FakeMember,
        channel: FakeChannel,
        modal: Mapping[str, Any],
        values: Mapping[str, Any],
        *,
        message: FakeMessage | int | None = None,
    ) -> InteractionHandle:
        """``member`` submits ``modal`` (as the bot sent it) with ``values`` by custom_id.

        A text input takes a string, a select in a label a list of values. Inputs not given
        keep the modal's pre-filled ``value``.
        """
        known = {c.get("custom_id") for c in iter_components(modal.get("components", []))}
        unknown = set(values) - known
        if unknown:
            raise LookupError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}")
        data = {
            "custom_id": modal["custom_id"],
            "components": _fill_modal(modal.get("components", []), values),
        }
        msg = self._live_message(message) if message is not None else None
        record, payload = self._interaction_payload(
            INTERACTION_MODAL_SUBMIT, member, channel, data, message=msg
        )
        return await self._send_interaction(record, payload)

    def _live_message(self, message: FakeMessage | int) -> FakeMessage:
        message_id = message if isinstance(message, int) else message.id
        msg = self.messages_by_id.get(message_id)
        if msg is None or msg.deleted:
            raise LookupError(f"message {message_id} does not exist (or was deleted)")
        return msg

    def _select_values(self, component: Mapping[str, Any], values: Sequence[Any]) -> dict[str, Any]:
        lo, hi = component.get("min_values", 1), component.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {component['custom_id']!r} takes {lo}..{hi} values")
        if component["type"] == 3:
            allowed = {o["value"] for o in component.get("options", [])}
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {component['custom_id']!r} has no options {bad}")
            return {"values": [str(v) for v in values]}
        # Entity selects: members / channels resolve like command options.
        resolved: dict[str, Any] = {}
        ids = []
        for value in values:
            if isinstance(value, FakeMember):
                guild = next(g for g in self.guilds.values() if value.id in g.members)
                _resolve_member(self, resolved, guild, value)
            elif isinstance(value, FakeChannel):
                _resolve_channel(self, resolved, value)
            ids.append(str(_id_of(value)))
        return {"values": ids, "resolved": resolved} if resolved else {"values": ids}

    def _command_data(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        values: Mapping[str, Any],
        *,
        focused: str | None,
    ) -> dict[str, Any]:
        guild = self.guilds[channel.guild_id]
        path = command.strip().lstrip("/").split()
        scope, definition = self._find_command(guild.id, path[0])
        required_perms = definition.get("default_member_permissions")
        if (
            self.enforce_default_permissions
            and required_perms is not None
            and int(required_perms) & ~guild.permissions_of(member)
        ):
            raise PermissionError(
                f"{member.name} lacks the permissions /{path[0]} requires "
                f"({required_perms}); Discord would not offer the command"
            )
        data: dict[str, Any] = {"id": definition["id"], "name": definition["name"], "type": 1}
        if scope is not None:
            data["guild_id"] = str(scope)
        node, container = definition, data
        for name in path[1:]:
            option = next(
                (o for o in node.get("options", []) if o["name"] == name and o["type"] in (1, 2)),
                None,
            )
            if option is None:
                subs = [o["name"] for o in node.get("options", []) if o["type"] in (1, 2)]
                raise LookupError(f"/{command}: no subcommand {name!r} (there are {subs})")
            child: dict[str, Any] = {"type": option["type"], "name": name}
            container["options"] = [child]
            node, container = option, child
        definitions = {o["name"]: o for o in node.get("options", [])}
        if any(o["type"] in (1, 2) for o in definitions.values()):
            raise LookupError(f"/{command} is a group; name one of {sorted(definitions)}")
        unknown = set(values) - set(definitions)
        if unknown:
            raise LookupError(
                f"/{command} has no options {sorted(unknown)} (it has {sorted(definitions)})"
            )
        if focused is None:
            missing = [n for n, o in definitions.items() if o.get("required") and n not in values]
            if missing:
                raise ValueError(f"/{command} needs options {missing}")
        elif not definitions[focused].get("autocomplete"):
            raise ValueError(f"option {focused!r} of /{command} has no autocomplete")
        resolved: dict[str, Any] = {}
        options = []
        for name, definition_ in definitions.items():
            if name not in values:
                continue
            if name == focused:
                options.append(
                    {
                        "type": definition_["type"],
                        "name": name,
                        "value": str(values[name]),
                        "focused": True,
                    }
                )
            else:
                options.append(self._option(guild, definition_, values[name], resolved))
        container["options"] = options
        if resolved:
            data["resolved"] = resolved
        return data

    def _find_command(self, guild_id: int, name: str) -> tuple[int | None, dict[str, Any]]:
        for scope in (guild_id, None):
            for definition in self.commands.get(scope, []):
                if definition["name"] == name and definition.get("type", 1) == 1:
                    return scope, definition
        known = sorted(
            {d["name"] for scope in (guild_id, None) for d in self.commands.get(scope, [])}
        )
        raise LookupError(f"no slash command /{name} has been synced (synced: {known})")

    def _option(
        self, guild: FakeGuild, definition: Mapping[str, Any], value: Any, resolved: dict[str, Any]
    ) -> dict[str, Any]:
        otype, name = definition["type"], definition["name"]
        out: dict[str, Any] = {"type": otype, "name": name}
        if otype == 3:
            out["value"] = str(value)
        elif otype == 4:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
            out["value"] = value
        elif otype == 10:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise TypeError(f"option {name!r} is a number, got {value!r}")
            out["value"] = value
        elif otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
            out["value"] = value
        elif otype in (6, 9):
            if not isinstance(value, FakeMember):
                raise TypeError(f"option {name!r} takes a FakeMember, got {value!r}")
            _resolve_member(self, resolved, guild, value)
            out["value"] = str(value.id)
        elif otype == 7:
            if not isinstance(value, FakeChannel):
                raise TypeError(f"option {name!r} takes a FakeChannel, got {value!r}")
            _resolve_channel(self, resolved, value)
            out["value"] = str(value.id)
        elif otype == 8:
            # Discord sends the role picked with the command, as it is now.
            role_id = str(_id_of(value))
            role = next((r for r in self._roles_payload(guild) if r["id"] == role_id), None)
            if role is not None:
                resolved.setdefault("roles", {})[role_id] = role
            out["value"] = role_id
        elif otype == 11:
            if not isinstance(value, FakeUpload):
                raise TypeError(f"option {name!r} takes a FakeUpload, got {value!r}")
            attachment = self._store_attachment(0, value.filename, value.data, value.content_type)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
            out["value"] = str(attachment.id)
        else:
            raise TypeError(f"option {name!r} has a type ({otype}) the fake does not send")
        return out

    # ---- REST: plumbing ----------------------------------------------------------------------

    def _add_routes(self, app: web.Application) -> None:
        api = f"/api/v{API_VERSION}"
        routes: list[tuple[str, str, Callable[[web.Request], Any]]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("GET", "/applications/{app_id}/emojis", self._get_emojis),
            ("POST", "/applications/{app_id}/emojis", self._post_emoji),
            ("GET", "/applications/{app_id}/emojis/{emoji_id}", self._get_emoji),
            ("PATCH", "/applications/{app_id}/emojis/{emoji_id}", self._patch_emoji),
            ("DELETE", "/applications/{app_id}/emojis/{emoji_id}", self._delete_emoji),
            ("DELETE", "/channels/{channel_id}", self._delete_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_messages),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/typing", self._no_content),
            ("POST", "/channels/{channel_id}/threads", self._post_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._post_thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._put_thread_member),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("POST", "/guilds/{guild_id}/channels", self._post_guild_channel),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._put_member_role),
            (
                "DELETE",
                "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                self._delete_member_role,
            ),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._post_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._get_webhook_message),
            (
                "PATCH",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self._patch_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{app_id}/{token}/messages/{message_id}",
                self._delete_webhook_message,
            ),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, api + path, handler)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/attachments/{attachment_id}/{filename}", self._get_attachment)
        # The CDN (``discord.Asset.BASE`` points here): an emoji's picture.
        app.router.add_route("GET", "/emojis/{emoji_id}.{ext}", self._get_emoji_image)
        app.router.add_route("*", "/{tail:.*}", self._unknown)

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        path = request.path.removeprefix(f"/api/v{API_VERSION}")
        api = request.path.startswith("/api/")
        sent = self._sent_at(request) if api else None
        if api:
            arrived = time.monotonic()
            self.requests.append((request.method, path))
            self.request_times.append(arrived)
            self.request_sent_times.append(arrived if sent is None else sent)
        try:
            # Interaction callbacks and webhooks authenticate by the token in the URL.
            if api and not path.startswith(("/interactions/", "/webhooks/")):
                if request.headers.get("Authorization") != f"Bot {self.token}":
                    raise FakeHTTPError(401, 0, "401: Unauthorized")
                if self.rate_limit_next > 0:
                    self.rate_limit_next -= 1
                    self.rate_limited.append(f"{request.method} {path}")
                    self._notify()
                    return self._too_many_requests()
                if self.global_limit:
                    wait = self._global_wait(sent)
                    if wait is not None:
                        self.global_limited += 1
                        self.rate_limited.append(f"{request.method} {path}")
                        self._notify()
                        return self._too_many_requests(is_global=True, retry_after=wait)
            response = await handler(request)
        except FakeHTTPError as exc:
            if exc.status != 401:
                self.errors.append(
                    f"{request.method} {path}: {exc.status} {exc.code} {exc.message}"
                )
            log.info("fake Discord refused %s %s: %s", request.method, path, exc)
            body: dict[str, Any] = {"message": exc.message, "code": exc.code}
            if exc.errors:
                body["errors"] = exc.errors
            response = _json(body, status=exc.status)
        except Exception as exc:
            # Never 5xx: discord.py retries those with sleeps, which would only slow a test.
            log.exception("fake Discord crashed on %s %s", request.method, path)
            self.errors.append(f"{request.method} {path}: fake crashed: {exc!r}")
            response = _json({"message": f"fake crashed: {exc!r}", "code": 0}, status=400)
        self._notify()
        return response

    def _sent_at(self, request: web.Request) -> float | None:
        """The sender's stamp of a request (``sent_at_header``), if it has one."""
        stamp = request.headers.get(self.sent_at_header) if self.sent_at_header else None
        try:
            return None if stamp is None else float(stamp)
        except ValueError:
            return None

    def _global_wait(self, at: float | None = None) -> float | None:
        """Under ``global_limit``: None if a counted request may go at ``at`` (its sender's
        stamp; now by ``global_clock`` without one), and it is counted; else the seconds
        until it may.

        The window is the one before ``at``: accepted requests stamped in
        ``(at - global_window, at]``. Stamps from several processes reach the fake a little out
        of order, so the accepted ones are kept sorted, and for a while past the window.
        """
        assert self.global_limit
        now = self.global_clock() if at is None else at
        sent, window = self._global_sent, self.global_window
        if sent and sent[0] <= sent[-1] - 10 * window:
            del sent[: bisect.bisect_right(sent, sent[-1] - 10 * window)]
        first = bisect.bisect_right(sent, now - window)
        if bisect.bisect_right(sent, now) - first >= self.global_limit:
            return max(0.001, sent[first] + window - now)
        bisect.insort(sent, now)
        return None

    def _too_many_requests(
        self, *, is_global: bool | None = None, retry_after: float | None = None
    ) -> web.StreamResponse:
        is_global = self.rate_limit_global if is_global is None else is_global
        retry_after = self.rate_limit_retry_after if retry_after is None else retry_after
        scope = "global" if is_global else "user"
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
        }
        headers = {"Via": "1.1 google", "Retry-After": "1", "X-RateLimit-Scope": scope}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        response = _json(body, status=429)
        response.headers.update(headers)
        return response

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        path = request.path.removeprefix(f"/api/v{API_VERSION}")
        self.unknown_routes.append((request.method, path))
        log.warning("fake Discord has no route for %s %s", request.method, request.path)
        return _json(
            {"message": f"404: Not Found (no fake route for {request.method} {path})", "code": 0},
            status=404,
        )

    async def _no_content(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[int, FakeUpload]]:
        """The JSON body, or a multipart ``payload_json`` with its ``files[n]`` parts."""
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = json.loads(str(form.get("payload_json") or "{}"))
            files: dict[int, FakeUpload] = {}
            for key, value in form.items():
                if key.startswith("files[") and isinstance(value, web.FileField):
                    files[int(key[6:-1])] = FakeUpload(
                        value.filename, value.file.read(), value.content_type
                    )
            return payload, files
        text = await request.text()
        return (json.loads(text) if text else None), {}

    # ---- REST: identity and commands ----------------------------------------------------------

    async def _get_me(self, request: web.Request) -> web.StreamResponse:
        return _json(
            {**self.bot_user.user_payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        )

    async def _get_user(self, request: web.Request) -> web.StreamResponse:
        uid = int(request.match_info["user_id"])
        for guild in self.guilds.values():
            if uid in guild.members:
                return _json(guild.members[uid].user_payload())
        raise FakeHTTPError(404, 10013, "Unknown User")

    async def _get_application(self, request: web.Request) -> web.StreamResponse:
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "summary": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner_user.user_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                # Must stay None: with an endpoint URL Discord sends no interactions over the
                # gateway and discord.py warns.
                "interactions_endpoint_url": None,
                "bot": self.bot_user.user_payload(),
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    def _check_app(self, request: web.Request) -> None:
        if request.match_info["app_id"] != str(self.application_id):
            raise FakeHTTPError(404, 10002, "Unknown Application")

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        self._check_app(request)
        scope = _optional_int(request.match_info.get("guild_id"))
        return _json(self.commands.get(scope, []))

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        self._check_app(request)
        scope = _optional_int(request.match_info.get("guild_id"))
        if scope is not None and scope not in self.guilds:
            raise FakeHTTPError(404, 10004, "Unknown Guild")
        body, _ = await self._read_body(request)
        stored = []
        for definition in body:
            ctype = definition.get("type", 1)
            # Re-syncing a command keeps its id, as on Discord.
            key = (scope, definition["name"], ctype)
            command_id = self._command_ids.setdefault(key, self.snowflake())
            command = {
                "default_member_permissions": None,
                "options": [],
                **definition,
                "id": str(command_id),
                "application_id": str(self.application_id),
                "type": ctype,
                "version": str(self.snowflake()),
            }
            if scope is not None:
                command["guild_id"] = str(scope)
            stored.append(command)
        self.commands[scope] = stored
        return _json(stored)

    # ---- REST: channels and messages ----------------------------------------------------------

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.find_channel(int(request.match_info["channel_id"]))
        if channel is None:
            raise FakeHTTPError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, request: web.Request) -> FakeMessage:
        channel = self._channel(request)
        msg = self.messages_by_id.get(int(request.match_info["message_id"]))
        # Ephemeral messages cannot be reached through the channel endpoints.
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel.id:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        return _json(self._channel(request).payload())

    async def _delete_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        del self.guilds[channel.guild_id].channels[channel.id]
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        self._dispatch_soon(event, channel.payload())
        return _json(channel.payload())

    async def _get_messages(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        limit = int(request.query.get("limit", 50))
        before = _optional_int(request.query.get("before"))
        after = _optional_int(request.query.get("after"))
        found = [
            m
            for m in self.public_messages(channel)
            if (before is None or m.id < before) and (after is None or m.id > after)
        ]
        # Newest first, like Discord.
        found = sorted(found, key=lambda m: m.id, reverse=True)
        found = found[-limit:] if after is not None else found[:limit]
        return _json([m.payload() for m in found])

    async def _get_message(self, request: web.Request) -> web.StreamResponse:
        return _json(self._channel_message(request).payload())

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        body, files = await self._read_body(request)
        if (body.get("flags") or 0) & FLAG_EPHEMERAL:
            raise FakeHTTPError(400, 50035, "Invalid Form Body: only interactions are ephemeral")
        msg = self._create_message(channel, body, files)
        if self.hold_post_answers is not None and self.hold_post_answers(body):
            await self._posts_released.wait()
        return _json(msg.payload())

    def release_posts(self) -> None:
        """Answer the channel messages' POSTs held by ``hold_post_answers``, and hold no more."""
        self.hold_post_answers = None
        self._posts_released.set()

    async def _patch_message(self, request: web.Request) -> web.StreamResponse:
        msg = self._channel_message(request)
        body, files = await self._read_body(request)
        self._edit_message(msg, body, files)
        return _json(msg.payload())

    async def _delete_message(self, request: web.Request) -> web.StreamResponse:
        self._delete(self._channel_message(request))
        return web.Response(status=204)

    async def _post_thread(self, request: web.Request) -> web.StreamResponse:
        parent = self._channel(request)
        if parent.is_thread:
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await self._read_body(request)
        private = (
            body.get("type") == CHANNEL_PRIVATE_THREAD and "message_id" not in request.match_info
        )
        thread = self.add_thread(parent, body["name"], private=private)
        thread.member_ids.add(self.bot_user.id)
        return _json(thread.payload())

    async def _put_thread_member(self, request: web.Request) -> web.StreamResponse:
        thread = self._channel(request)
        user_id = request.match_info["user_id"]
        thread.member_ids.add(self.bot_user.id if user_id == "@me" else int(user_id))
        return web.Response(status=204)

    async def _get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        return _json([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def _post_guild_channel(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        body, _ = await self._read_body(request)
        if body.get("type", CHANNEL_TEXT) != CHANNEL_TEXT:
            raise FakeHTTPError(400, 50035, "the fake only creates text channels")
        return _json(self.add_channel(guild, body["name"]).payload())

    async def _get_member(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise FakeHTTPError(404, 10007, "Unknown Member")
        return _json(self._member_payload(guild, member))

    async def _put_member_role(self, request: web.Request) -> web.StreamResponse:
        return self._edit_member_role(request, add=True)

    async def _delete_member_role(self, request: web.Request) -> web.StreamResponse:
        return self._edit_member_role(request, add=False)

    def _edit_member_role(self, request: web.Request, *, add: bool) -> web.StreamResponse:
        """Give or take a role as Discord checks it: the bot needs Manage Roles and a role of
        its own above the role; nobody gives an integration's role."""
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise FakeHTTPError(404, 10007, "Unknown Member")
        role = guild.roles.get(int(request.match_info["role_id"]))
        if role is None:
            raise FakeHTTPError(404, 10011, "Unknown Role")
        bot = self._bot_with_permissions()
        allowed = guild.permissions_of(bot) & discord.Permissions(manage_roles=True).value
        if not allowed or role.managed or role.position >= self.top_role_position(guild, bot):
            raise FakeHTTPError(403, 50013, "Missing Permissions")
        reason = request.headers.get("X-Audit-Log-Reason")
        self.role_edits.append(
            RoleEdit(
                guild.id, member.id, role.id, add, urllib.parse.unquote(reason) if reason else None
            )
        )
        if (member.id in role.members) != add:
            if add:
                role.members.add(member.id)
            else:
                role.members.discard(member.id)
            self._dispatch_soon(
                "GUILD_MEMBER_UPDATE",
                {**self._member_payload(guild, member), "guild_id": str(guild.id)},
                intent=INTENT_GUILD_MEMBERS,
            )
        return web.Response(status=204)

    def top_role_position(self, guild: FakeGuild, member: FakeMember) -> int:
        """The position of ``member``'s highest role (0: @everyone only)."""
        positions = [r.position for r in guild.roles.values() if member.id in r.members]
        if member.id in guild.member_roles:
            positions.append(int(self._member_role_payload(guild, member.id)["position"]))
        return max(positions, default=0)

    def _guild(self, request: web.Request) -> FakeGuild:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise FakeHTTPError(404, 10004, "Unknown Guild")
        return guild

    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            raise FakeHTTPError(404, 0, "Unknown attachment")
        return web.Response(
            body=attachment.data,
            headers={"Content-Type": attachment.content_type or "application/octet-stream"},
        )

    # ---- REST: application emojis ----------------------------------------------------------

    def emoji_named(self, name: str) -> FakeEmoji | None:
        """The application's emoji of this name, if it has one."""
        return next((e for e in self.emojis.values() if e.name == name), None)

    def _emoji(self, request: web.Request) -> FakeEmoji:
        self._check_app(request)
        emoji = self.emojis.get(int(request.match_info["emoji_id"]))
        if emoji is None:
            raise FakeHTTPError(404, 10014, "Unknown Emoji")
        return emoji

    def _check_emoji_name(self, name: Any, *, other_than: FakeEmoji | None = None) -> str:
        if not isinstance(name, str) or not _EMOJI_NAME.match(name):
            raise _form_error(
                "name",
                "STRING_TYPE_REGEX",
                "String value did not match validation regex.",
            )
        taken = self.emoji_named(name)
        if taken is not None and taken is not other_than:
            raise _form_error(
                "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken."
            )
        return name

    async def _get_emojis(self, request: web.Request) -> web.StreamResponse:
        self._check_app(request)
        return _json({"items": [e.payload() for e in self.emojis.values()]})

    async def _get_emoji(self, request: web.Request) -> web.StreamResponse:
        return _json(self._emoji(request).payload())

    async def _post_emoji(self, request: web.Request) -> web.StreamResponse:
        self._check_app(request)
        body, _ = await self._read_body(request)
        body = body or {}
        if self.refuse_emoji_uploads is not None:
            raise self.refuse_emoji_uploads
        if self.drop_emoji_uploads and request.transport is not None:
            request.transport.close()
            raise web.HTTPServiceUnavailable()  # never reaches the closed connection
        name = self._check_emoji_name(body.get("name"))
        match = _DATA_URI.match(str(body.get("image") or ""))
        if match is None:
            raise _form_error("image", "IMAGE_INVALID", "Invalid image data")
        try:
            image = base64.b64decode(match.group(2), validate=True)
        except binascii.Error:
            raise _form_error("image", "IMAGE_INVALID", "Invalid image data") from None
        if len(image) > EMOJI_MAX_BYTES:
            raise _form_error(
                "image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb."
            )
        if len(self.emojis) >= EMOJI_LIMIT:
            raise FakeHTTPError(400, 30008, f"Maximum number of emojis reached ({EMOJI_LIMIT})")
        emoji = FakeEmoji(
            self.snowflake(), name, image, match.group(1), self.bot_user.user_payload()
        )
        self.emojis[emoji.id] = emoji
        return _json(emoji.payload(), status=201)

    async def _patch_emoji(self, request: web.Request) -> web.StreamResponse:
        emoji = self._emoji(request)
        body, _ = await self._read_body(request)
        if body and "name" in body:
            emoji.name = self._check_emoji_name(body["name"], other_than=emoji)
        return _json(emoji.payload())

    async def _delete_emoji(self, request: web.Request) -> web.StreamResponse:
        emoji = self._emoji(request)
        del self.emojis[emoji.id]
        return web.Response(status=204)

    async def _get_emoji_image(self, request: web.Request) -> web.StreamResponse:
        emoji = self.emojis.get(int(request.match_info["emoji_id"]))
        if emoji is None:
            raise FakeHTTPError(404, 0, "Unknown emoji")
        return web.Response(body=emoji.image, headers={"Content-Type": emoji.content_type})

    def _check_emojis(self, msg: FakeMessage) -> None:
        """Refuses a component whose custom emoji the application does not own, as Discord does."""
        for component in iter_components(msg.components):
            emoji = component.get("emoji")
            if emoji and emoji.get("id") and int(emoji["id"]) not in self.emojis:
                raise _form_error("components", "COMPONENT_INVALID_EMOJI", "Invalid emoji")

    # ---- REST: interactions and follow-ups -----------------------------------------------------

    def _interaction_by_token(self, request: web.Request, *, app: bool) -> FakeInteraction:
        if app:
            self._check_app(request)
            token = request.match_info["token"]
            # A token names its interaction (``itok-{id}-...``): no scan of every interaction.
            _, _, rest = token.partition("itok-")
            number = rest.partition("-")[0]
            found = self.interactions.get(int(number)) if number.isdigit() else None
            if found is None or found.token != token:
                raise FakeHTTPError(404, 10015, "Unknown Webhook")
            if time.monotonic() - found.created > self.token_lifetime:
                raise FakeHTTPError(401, 50027, "Invalid Webhook Token")
            return found
        found = self.interactions.get(int(request.match_info["interaction_id"]))
        if found is None or found.token != request.match_info["token"]:
            raise FakeHTTPError(404, 10062, "Unknown interaction")
        return found

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        arrived = time.monotonic()
        interaction = self._interaction_by_token(request, app=False)
        body, files = await self._read_body(request)
        if self.callback_delay:
            await asyncio.sleep(self.callback_delay)
        if interaction.response is not None:
            raise FakeHTTPError(400, 40060, "Interaction has already been acknowledged.")
        rtype, data = body["type"], body.get("data") or {}
        if rtype not in _ALLOWED_CALLBACKS[interaction.type]:
            raise FakeHTTPError(
                400,
                50035,
                f"Invalid Form Body: callback type {rtype} is not valid for interaction type "
                f"{interaction.type}",
            )
        message: FakeMessage | None = None
        if rtype in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
            if rtype == CALLBACK_DEFERRED_MESSAGE:
                data = {"flags": (data.get("flags") or 0) & FLAG_EPHEMERAL | FLAG_LOADING}
            message = self._create_message(
                interaction.channel,
                data,
                files,
                interaction=interaction,
                allow_empty=rtype == CALLBACK_DEFERRED_MESSAGE,
            )
            interaction.original_message_id = message.id
        elif rtype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE_MESSAGE):
            if interaction.message_id is None:
                raise FakeHTTPError(400, 50035, "Invalid Form Body: no message to update")
            message = self._live_message_or_404(interaction.message_id)
            if rtype == CALLBACK_UPDATE_MESSAGE:
                self._edit_message(message, data, files)
            interaction.original_message_id = message.id
        elif rtype == CALLBACK_AUTOCOMPLETE:
            choices = data.get("choices", [])
            if len(choices) > 25:
                raise FakeHTTPError(400, 50035, "Invalid Form Body: at most 25 choices")
            interaction.choices = choices
        elif rtype == CALLBACK_MODAL:
            _check_custom_ids(data.get("components", []), where="modal")
            interaction.modal = data
        interaction.response = InteractionResponse(rtype, json_copy(data))
        interaction.acknowledged_at = arrived
        interaction.callback_sent_at = self._sent_at(request)

        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        reply: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": bool(message and message.loading),
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None and rtype != CALLBACK_DEFERRED_UPDATE:
            reply["resource"] = {"type": rtype, "message": message.payload(copy=False)}
        elif rtype == CALLBACK_MODAL:
            reply["resource"] = {"type": rtype}
        return _json(reply)

    def _live_message_or_404(self, message_id: int) -> FakeMessage:
        msg = self.messages_by_id.get(message_id)
        if msg is None or msg.deleted:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg

    async def _post_followup(self, request: web.Request) -> web.StreamResponse:
        interaction = self._interaction_by_token(request, app=True)
        if interaction.response is None or interaction.response.type in (
            CALLBACK_AUTOCOMPLETE,
            CALLBACK_MODAL,
        ):
            # A follow-up needs an acknowledged interaction with a message response.
            raise FakeHTTPError(404, 10015, "Unknown Webhook")
        body, files = await self._read_body(request)
        original = (
            self.messages_by_id.get(interaction.original_message_id)
            if interaction.original_message_id
            else None
        )
        if original is not None and original.loading and not original.deleted:
            # The first follow-up after a defer replaces the "thinking…" placeholder and keeps
            # its ephemerality.
            body = {**body, "flags": (body.get("flags") or 0) & ~FLAG_EPHEMERAL}
            self._edit_message(original, body, files, finish_loading=True)
            msg = original
        else:
            msg = self._create_message(interaction.channel, body, files, interaction=interaction)
        interaction.followup_ids.append(msg.id)
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(msg.payload(copy=False))
        return web.Response(status=204)

    def _webhook_message(self, request: web.Request) -> tuple[FakeInteraction, FakeMessage]:
        interaction = self._interaction_by_token(request, app=True)
        wanted = request.match_info["message_id"]
        if wanted == "@original":
            mid = interaction.original_message_id
        else:
            mid = int(wanted)
            if mid not in (interaction.original_message_id, *interaction.followup_ids):
                mid = None
        if mid is None:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return interaction, self._live_message_or_404(mid)

    async def _get_webhook_message(self, request: web.Request) -> web.StreamResponse:
        _, msg = self._webhook_message(request)
        return _json(msg.payload(copy=False))

    async def _patch_webhook_message(self, request: web.Request) -> web.StreamResponse:
        _, msg = self._webhook_message(request)
        body, files = await self._read_body(request)
        self._edit_message(msg, body, files, finish_loading=True)
        return _json(msg.payload(copy=False))

    async def _delete_webhook_message(self, request: web.Request) -> web.StreamResponse:
        _, msg = self._webhook_message(request)
        self._delete(msg)
        return web.Response(status=204)

    # ---- the message model -----------------------------------------------------------------

    def _store_attachment(
        self,
        channel_id: int,
        filename: str,
        data: bytes,
        content_type: str | None,
        description: str | None = None,
    ) -> FakeAttachment:
        attachment_id = self.snowflake()
        attachment = FakeAttachment(
            id=attachment_id,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/{attachment_id}/{urllib.parse.quote(filename)}",
            content_type=content_type
            if content_type and content_type != "application/octet-stream"
            else mimetypes.guess_type(filename)[0] or content_type,
            description=description,
        )
        self.attachments[attachment_id] = attachment
        return attachment

    def _attachments_from(
        self,
        body: Mapping[str, Any],
        files: Mapping[int, FakeUpload],
        channel_id: int,
        existing: Sequence[FakeAttachment] = (),
    ) -> list[FakeAttachment] | None:
        """The attachment list a create or edit asks for, or None to leave it unchanged."""
        if "attachments" not in body:
            if not files:
                return None
            wanted: list[dict[str, Any]] = [{"id": i} for i in sorted(files)]
            wanted = [*({"id": a.id} for a in existing), *wanted]
        else:
            wanted = body["attachments"] or []
        by_id = {a.id: a for a in existing}
        result = []
        for entry in wanted:
            ref = int(entry["id"])
            if ref in by_id:
                result.append(by_id[ref])
            elif ref in files:
                upload = files[ref]
                result.append(
                    self._store_attachment(
                        channel_id,
                        entry.get("filename") or upload.filename,
                        upload.data,
                        upload.content_type,
                        entry.get("description"),
                    )
                )
            else:
                raise FakeHTTPError(400, 50035, f"Invalid Form Body: unknown attachment {ref}")
        return result

    def _create_message(
        self,
        channel: FakeChannel,
        body: Mapping[str, Any],
        files: Mapping[int, FakeUpload],
        *,
        interaction: FakeInteraction | None = None,
        allow_empty: bool = False,
    ) -> FakeMessage:
        flags = int(body.get("flags") or 0) & (_SENDABLE_FLAGS | FLAG_LOADING)
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        msg = FakeMessage(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user.user_payload(),
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            tts=bool(body.get("tts")),
            visible_to=interaction.member.id if interaction and ephemeral else None,
        )
        msg.attachments = self._attachments_from(body, files, channel.id) or []
        if not ephemeral:
            msg.notified = notified(msg.content, body.get("allowed_mentions"))
        if interaction is not None:
            msg.application_id = self.application_id
            msg.type = 20 if interaction.type == INTERACTION_COMMAND else 0
            msg.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.member.user_payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id)},
            }
            if interaction.type == INTERACTION_COMMAND:
                msg.interaction_metadata["name"] = interaction.data.get("name", "")
            if interaction.message_id is not None:
                msg.interaction_metadata["interacted_message_id"] = str(interaction.message_id)
            if interaction.original_message_id is not None:
                msg.interaction_metadata["original_response_message_id"] = str(
                    interaction.original_message_id
                )
        if not allow_empty:
            _validate_message(msg)
        self._check_emojis(msg)
        self.messages_by_id[msg.id] = msg
        self._record("create", msg)
        if not msg.ephemeral:
            self._dispatch_soon("MESSAGE_CREATE", msg.payload(), intent=INTENT_GUILD_MESSAGES)
        return msg

    def _edit_message(
        self,
        msg: FakeMessage,
        body: Mapping[str, Any],
        files: Mapping[int, FakeUpload],
        *,
        finish_loading: bool = False,
    ) -> None:
        before = msg.payload() if self.keep_history else None
        edited = copy.copy(msg)
        if "content" in body:
            edited.content = body["content"] or ""
        if "embeds" in body:
            edited.embeds = list(body["embeds"] or [])
        if "components" in body:
            edited.components = list(body["components"] or [])
        attachments = self._attachments_from(body, files, msg.channel_id, msg.attachments)
        if attachments is not None:
            edited.attachments = attachments
        if body.get("flags") is not None:
            # Only the presentational flags can change; ephemerality is fixed at creation.
            changeable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            edited.flags = (msg.flags & ~changeable) | (int(body["flags"]) & changeable)
        if finish_loading or not msg.loading:
            edited.flags &= ~FLAG_LOADING
        _validate_message(edited)
        self._check_emojis(edited)
        # Only now change the stored message, so a refused edit leaves it as it was.
        msg.__dict__.update(edited.__dict__)
        if before is not None:
            msg.history = [*msg.history, before]
        msg.edited_at = _now_iso()
        self._record("edit", msg)
        if not msg.ephemeral:
            self._dispatch_soon("MESSAGE_UPDATE", msg.payload(), intent=INTENT_GUILD_MESSAGES)

    def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._record("delete", msg)
        if not msg.ephemeral:
            data = {
                "id": str(msg.id),
                "channel_id": str(msg.channel_id),
                "guild_id": str(msg.guild_id),
            }
            self._dispatch_soon("MESSAGE_DELETE", data, intent=INTENT_GUILD_MESSAGES)

    def _record(self, action: str, msg: FakeMessage) -> None:
        if self.keep_history:
            snapshot = msg.payload()
            self.log.append(MessageEvent(action, msg.id, msg.channel_id, msg.visible_to, snapshot))
        self._notify()


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


@contextlib.contextmanager
def patch_discord_urls(api_base: str, gateway_url: str) -> Iterator[None]:
    """Sets ``Route.BASE``, ``DiscordWebSocket.DEFAULT_GATEWAY`` and the CDN's
    ``Asset.BASE`` (the fake's own root); restores them on exit.

    All are class attributes read by every client in the process, hence one fake at a time.
    """
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    old_cdn = discord.Asset.BASE
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    discord.Asset.BASE = str(yarl.URL(api_base).origin())
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
        discord.Asset.BASE = old_cdn


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim, and aiohttp's
    # json_response would add "; charset=utf-8".
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def _id_of(thing: Any) -> int | None:
    if thing is None:
        return None
    return thing if isinstance(thing, int) else thing.id


def _optional_int(value: str | None) -> int | None:
    return int(value) if value is not None else None


def _log_task_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("fake gateway dispatch failed", exc_info=task.exception())


def _resolve_member(
    fake: FakeDiscord, resolved: dict[str, Any], guild: FakeGuild, member: FakeMember
) -> None:
    if member.id not in guild.members:
        raise LookupError(f"{member.name} is not a member of {guild.name}")
    payload = fake._member_payload(guild, member)
    resolved.setdefault("users", {})[str(member.id)] = payload.pop("user")
    payload["permissions"] = str(guild.permissions_of(member))
    resolved.setdefault("members", {})[str(member.id)] = payload


def _resolve_channel(fake: FakeDiscord, resolved: dict[str, Any], channel: FakeChannel) -> None:
    permissions = fake.guilds[channel.guild_id].everyone_permissions
    resolved.setdefault("channels", {})[str(channel.id)] = {
        **channel.payload(),
        "permissions": str(permissions),
    }


def _fill_modal(
    components: Sequence[Mapping[str, Any]], values: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The ``components`` of a modal submit: the modal's layout with the user's answers."""
    out: list[dict[str, Any]] = []
    for component in components:
        ctype = component.get("type")
        if ctype == 1:
            out.append(
                {"type": 1, "components": _fill_modal(component.get("components", []), values)}
            )
        elif ctype == 18:
            inner = _fill_modal([component["component"]], values)
            out.append({"type": 18, "component": inner[0]})
        elif ctype == 4:
            cid = component["custom_id"]
            out.append(
                {
                    "type": 4,
                    "custom_id": cid,
                    "value": str(values.get(cid, component.get("value", ""))),
                }
            )
        elif ctype in _SELECT_TYPES:
            cid = component["custom_id"]
            out.append(
                {"type": ctype, "custom_id": cid, "values": [str(v) for v in values.get(cid, [])]}
            )
        else:
            out.append({"type": ctype})
    return out


def notified(content: str, allowed: Mapping[str, Any] | None) -> set[Any]:
    """Who a new message's content notifies, as Discord decides: mentions in the content only
    (never in embeds), each kind only where ``allowed_mentions`` lets it (all kinds when the
    message gives none)."""
    if allowed is None:
        allowed = {"parse": ["users", "roles", "everyone"]}
    parse = set(allowed.get("parse") or [])
    users = {int(u) for u in allowed.get("users") or []}
    roles = {int(r) for r in allowed.get("roles") or []}
    out: set[Any] = set()
    for user in re.findall(r"<@!?(\d+)>", content):
        if "users" in parse or int(user) in users:
            out.add(int(user))
    for role in re.findall(r"<@&(\d+)>", content):
        if "roles" in parse or int(role) in roles:
            out.add(f"role:{role}")
    if re.search(r"@(everyone|here)", content) and "everyone" in parse:
        out.add("everyone")
    return out


def _check_custom_ids(components: Sequence[Mapping[str, Any]], *, where: str) -> None:
    seen: set[str] = set()
    for component in iter_components(components):
        cid = component.get("custom_id")
        if cid is None:
            continue
        if len(cid) > 100:
            raise FakeHTTPError(
                400, 50035, f"Invalid Form Body: {where} custom_id over 100 characters: {cid!r}"
            )
        if cid in seen:
            raise FakeHTTPError(
                400, 50035, f"Invalid Form Body: {where} custom_id {cid!r} is not unique"
            )
        seen.add(cid)


def _validate_message(msg: FakeMessage) -> None:
    """Refuses what Discord refuses (the limits tests are likely to hit), with code 50035/50006."""

    def bad(reason: str) -> FakeHTTPError:
        return FakeHTTPError(400, 50035, f"Invalid Form Body: {reason}")

    if not (msg.content or msg.embeds or msg.components or msg.attachments):
        raise FakeHTTPError(400, 50006, "Cannot send an empty message")
    if len(msg.content) > 2000:
        raise bad(f"content is {len(msg.content)} characters (max 2000)")
    if len(msg.embeds) > 10:
        raise bad("more than 10 embeds")
    total = 0
    for embed in msg.embeds:
        limits = {"title": 256, "description": 4096}
        for key, limit in limits.items():
            if len(embed.get(key) or "") > limit:
                raise bad(f"embed {key} over {limit} characters")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise bad("more than 25 embed fields")
        for fld in fields:
            if len(fld.get("name", "")) > 256 or len(fld.get("value", "")) > 1024:
                raise bad("embed field name over 256 or value over 1024 characters")
            # Discord refuses a field whose name or value is empty, or only spaces.
            if not str(fld.get("name", "")).strip() or not str(fld.get("value", "")).strip():
                raise bad("an embed field's name and value must each hold something")
        footer = (embed.get("footer") or {}).get("text", "")
        author = (embed.get("author") or {}).get("name", "")
        total += sum(len(embed.get(k) or "") for k in limits) + len(footer) + len(author)
        total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
    if total > 6000:
        raise bad("embeds total over 6000 characters")
    if not msg.flags & FLAG_COMPONENTS_V2:
        if len(msg.components) > 5:
            raise bad("more than 5 action rows")
        for row in msg.components:
            if row.get("type") != 1:
                raise bad("top-level components must be action rows")
            items = row.get("components", [])
            selects = [c for c in items if c.get("type") in _SELECT_TYPES]
            if not items or len(items) > 5 or (selects and len(items) > 1):
                raise bad("an action row holds 1-5 buttons or one select")
    for component in iter_components(msg.components):
        if len(component.get("label") or "") > 80:
            raise bad(f"button label over 80 characters: {component['label']!r}")
        if component.get("type") in _SELECT_TYPES and len(component.get("options", [])) > 25:
            raise bad("more than 25 select options")
    _check_custom_ids(msg.components, where="message")
