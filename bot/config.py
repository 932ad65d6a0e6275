"""Settings from the environment, read from `.env` by python-dotenv.

`Settings` is frozen and its `repr` hides the token, so logging the settings can never leak it.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import find_dotenv, load_dotenv

from bot.engine.errors import OptionsError
from bot.engine.rules import PRESETS
from bot.numbers import parse_whole
from bot.storage.url import DatabaseUrl, DatabaseUrlError

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
DEFAULT_TURN_TIMEOUT = 120
TOKEN_HELP = (
    "Create an application at https://discord.com/developers/applications, add a bot to it, "
    "copy its token (Bot > Reset Token) and put it in the file .env of the folder the bot is "
    "started in as DISCORD_TOKEN=... (see .env.example), or set the DISCORD_TOKEN environment"
    " variable."
)


# The guilds a process serves: (SHARD_COUNT, its shard ids), or None for every guild (one
# process running every shard, however many Discord recommends).
ShardScope = tuple[int, tuple[int, ...]] | None


class ConfigError(Exception):
    """A setting that is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment. See `.env.example` for each one."""

    token: str = field(repr=False)
    database_path: Path = Path("euchre.db")
    # DATABASE_URL when it names PostgreSQL (an SQLite URL sets database_path instead).
    database_url: str = ""
    dev_guild_id: int | None = None
    owner_ids: frozenset[int] = frozenset()
    log_level: str = "INFO"
    default_preset: str = "somerset"
    turn_timeout: int = DEFAULT_TURN_TIMEOUT
    api_base: str = DISCORD_API_BASE
    gateway_url: str = DISCORD_GATEWAY_URL
    shard_count: int | None = None  # None: as many as Discord recommends, all in this process
    shard_ids: tuple[int, ...] | None = None  # None: every shard of shard_count
    metrics_port: int | None = None  # None: no Prometheus metrics are served
    rest_budget: float = 40.0  # the bot's REST requests per second, over all its processes
    metrics_host: str = "127.0.0.1"

    @property
    def database(self) -> str | Path:
        """Where the data is, as `Database.open` takes it: the PostgreSQL URL or the file."""
        return self.database_url or self.database_path

    @property
    def lease_owner(self) -> str:
        """This process's name as the holder of its tables' leases: the same each time a process
        with these shards starts, so a restart takes its tables back at once."""
        if self.shard_count is None or self.shard_ids is None:
            return "the bot"
        return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count}"

    @property
    def shard_scope(self) -> ShardScope:
        """The guilds this process serves, as `scopes_overlap` compares them."""
        if self.shard_count is None:
            return None
        ids = self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))
        return self.shard_count, ids

    def serves(self, guild_id: int) -> bool:
        """Whether this process serves a guild: Discord puts it on shard (id >> 22) % count."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids


def scopes_overlap(a: ShardScope, b: ShardScope) -> bool:
    """Whether two processes serve some guild both, even under different shard counts.

    A guild numbered g (its id >> 22) is on shard g % n of n. Shard s of n and shard t of m share
    guilds exactly when s and t agree modulo gcd(n, m) (the Chinese remainder theorem): shard 1
    of 2 shares guilds with shard 3 of 4, not with shard 2 of 4.
    """
    if a is None or b is None:
        return True
    (n, ours), (m, theirs) = a, b
    common = math.gcd(n, m)
    return not {s % common for s in ours}.isdisjoint(t % common for t in theirs)


def scope_text(scope: ShardScope) -> str:
    """A process's shards as an operator reads them: "shards 0,1 of 4", "every shard"."""
    if scope is None:
        return "every shard"
    count, ids = scope
    if len(ids) == count:
        return f"all {count} shards" if count > 1 else "shard 0 of 1"
    return f"shard{'s' if len(ids) > 1 else ''} {','.join(map(str, ids))} of {count}"


def _int(name: str, value: str) -> int:
    number = parse_whole(value)
    if number is None:
        raise ConfigError(f"{name} must be a whole number, not {value!r}")
    return number


def load_settings(env: dict[str, str] | None = None, dotenv: bool = True) -> Settings:
    """Read the settings from `env` (default: the process environment after loading `.env`).

    Raises:
        ConfigError: a missing token or a malformed value, with what to do about it.
    """
    if env is None:
        if dotenv:
            _load_dotenv()
        env = dict(os.environ)
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(f"No Discord bot token is set. {TOKEN_HELP}")
    guild = env.get("DEV_GUILD_ID", "").strip()
    owners = env.get("OWNER_IDS", "").replace(",", " ").split()
    preset = env.get("DEFAULT_PRESET", "somerset").strip().lower() or "somerset"
    if preset not in PRESETS:
        raise ConfigError(f"DEFAULT_PRESET must be one of {', '.join(PRESETS)}, not {preset!r}")
    # Empty, as every other setting, means the default (.env.example: "Default: 120").
    timeout_text = env.get("TURN_TIMEOUT", "").strip()
    timeout = _int("TURN_TIMEOUT", timeout_text) if timeout_text else DEFAULT_TURN_TIMEOUT
    if not 10 <= timeout <= 86_400:
        raise ConfigError("TURN_TIMEOUT must be from 10 to 86400 seconds")
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    shard_count, shard_ids = _shards(env)
    metrics_text = env.get("METRICS_PORT", "").strip()
    metrics_port = _int("METRICS_PORT", metrics_text) if metrics_text else None
    if metrics_port is not None and not 1 <= metrics_port <= 65_535:
        raise ConfigError("METRICS_PORT must be a port from 1 to 65535")
    budget_text = env.get("REST_BUDGET", "").strip()
    budget = _int("REST_BUDGET", budget_text) if budget_text else 40
    if not 0 <= budget <= 10_000:
        raise ConfigError("REST_BUDGET must be from 0 (no limit: behind a REST proxy) to 10000")
    database_path, database_url = _database(env)
    return Settings(
        token=token,
        database_path=database_path,
        database_url=database_url,
        dev_guild_id=_int("DEV_GUILD_ID", guild) if guild else None,
        owner_ids=frozenset(_int("OWNER_IDS", o) for o in owners),
        log_level=level,
        default_preset=preset,
        turn_timeout=timeout,
        api_base=_address(
            "DISCORD_API_BASE", env.get("DISCORD_API_BASE", ""), DISCORD_API_BASE, ("http", "https")
        ).rstrip("/"),
        gateway_url=_address(
            "DISCORD_GATEWAY_URL",
            env.get("DISCORD_GATEWAY_URL", ""),
            DISCORD_GATEWAY_URL,
            ("ws", "wss"),
        ),
        shard_count=shard_count,
        shard_ids=shard_ids,
        metrics_port=metrics_port,
        rest_budget=float(budget),
        metrics_host=env.get("METRICS_HOST", "").strip() or "127.0.0.1",
    )


def _load_dotenv() -> None:
    """The `.env` of the working directory, or else the one beside the bot's code.

    python-dotenv alone looks beside the code (and in the folders above it) only: a bot run
    from a folder of its own, with its own `.env` there (a second bot, a package installed
    without -e), ignored that file and could start with another bot's token and database.
    Only one file is read, never a mix of two. The environment's own values win over either.
    """
    here = Path.cwd() / ".env"
    load_dotenv(here if here.is_file() else find_dotenv(), override=False)


def _address(name: str, value: str, default: str, schemes: tuple[str, ...]) -> str:
    """DISCORD_API_BASE or DISCORD_GATEWAY_URL: a URL of one of `schemes` naming a host.

    Anything else (a missing scheme, ftp://, a typo) would only fail once the bot tries to
    reach Discord, after opening the database, and as "could not reach Discord" (exit 1, which
    the service manager restarts forever): a setting no restart mends is refused here instead.
    """
    text = value.strip() or default
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - reading it is the check: a port that is no number raises
        usable = parts.scheme.lower() in schemes and bool(parts.hostname)
    except ValueError:  # an unclosed IPv6 bracket, a port that is no number
        usable = False
    if not usable:
        shown = re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1***@", text)  # never a password
        raise ConfigError(
            f"{name} must be a URL beginning {' or '.join(s + '://' for s in schemes)} and"
            f" naming a host (empty: {default}), not {shown!r}"
        )
    return text


def _database(env: dict[str, str]) -> tuple[Path, str]:
    """DATABASE_URL (sqlite:///path or postgresql://...), or DATABASE_PATH (a file), or the
    default euchre.db: the SQLite path and the PostgreSQL URL (one of them used)."""
    url = env.get("DATABASE_URL", "").strip()
    path = env.get("DATABASE_PATH", "").strip()
    if url and path:
        raise ConfigError("set DATABASE_URL or DATABASE_PATH, not both (DATABASE_URL is the newer)")
    if not url:
        if "://" in path:
            # Read as a file, it would name a directory "postgresql:" that does not exist, and
            # the error would show the URL, password and all.
            scheme = path.split("://", 1)[0]
            raise ConfigError(
                f"DATABASE_PATH is a file's path, not a {scheme}:// URL: put the URL in"
                " DATABASE_URL instead (and leave DATABASE_PATH empty)"
            )
        return Path(path or "euchre.db"), ""
    try:
        parsed = DatabaseUrl.parse(url)
    except DatabaseUrlError as error:
        raise ConfigError(f"DATABASE_URL: {error}") from None
    if parsed.path is not None:
        return parsed.path, ""
    return Path("euchre.db"), url


def _shards(env: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS: how many shards the bot has, and which this process runs."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").replace(",", " ").split()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: how many shards there are in all")
        return None, None
    count = _int("SHARD_COUNT", count_text)
    if not 1 <= count <= 10_000:
        raise ConfigError("SHARD_COUNT must be from 1 to 10000")
    if not ids_text:
        return count, None
    ids = tuple(_int("SHARD_IDS", text) for text in ids_text)
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong:
        raise ConfigError(
            f"SHARD_IDS must be from 0 to {count - 1} (SHARD_COUNT {count}), not {wrong[0]}"
        )
    if len(set(ids)) != len(ids):
        raise ConfigError("SHARD_IDS names a shard twice")
    return count, tuple(sorted(ids))


__all__ = [
    "ConfigError",
    "OptionsError",
    "Settings",
    "ShardScope",
    "load_settings",
    "scope_text",
    "scopes_overlap",
]
