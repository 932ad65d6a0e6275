"""Settings from the environment, read from `.env` by python-dotenv.

`Settings` is frozen and its `repr` hides the token, so logging the settings can never leak it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

from bot.engine.errors import OptionsError
from bot.engine.rules import PRESETS
from bot.numbers import parse_whole

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
DEFAULT_TURN_TIMEOUT = 120
TOKEN_HELP = (
    "Create an application at https://discord.com/developers/applications, add a bot to it, "
    "copy its token (Bot > Reset Token) and put it in a file named .env beside the bot as "
    "DISCORD_TOKEN=... (see .env.example), or set the DISCORD_TOKEN environment variable."
)


class ConfigError(Exception):
    """A setting that is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment. See `.env.example` for each one."""

    token: str = field(repr=False)
    database_path: Path = Path("euchre.db")
    dev_guild_id: int | None = None
    owner_ids: frozenset[int] = frozenset()
    log_level: str = "INFO"
    default_preset: str = "somerset"
    turn_timeout: int = DEFAULT_TURN_TIMEOUT
    api_base: str = DISCORD_API_BASE
    gateway_url: str = DISCORD_GATEWAY_URL


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
            load_dotenv(override=False)
        env = dict(os.environ)
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(f"No Discord bot token is set. {TOKEN_HELP}")
    guild = env.get("DEV_GUILD_ID", "").strip()
    owners = env.get("OWNER_IDS", "").replace(",", " ").split()
    preset = env.get("DEFAULT_PRESET", "somerset").strip().lower() or "somerset"
    if preset not in PRESETS:
        raise ConfigError(f"DEFAULT_PRESET must be one of {', '.join(PRESETS)}, not {preset!r}")
    timeout = _int("TURN_TIMEOUT", env.get("TURN_TIMEOUT", str(DEFAULT_TURN_TIMEOUT)))
    if not 10 <= timeout <= 86_400:
        raise ConfigError("TURN_TIMEOUT must be from 10 to 86400 seconds")
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    return Settings(
        token=token,
        database_path=Path(env.get("DATABASE_PATH", "").strip() or "euchre.db"),
        dev_guild_id=_int("DEV_GUILD_ID", guild) if guild else None,
        owner_ids=frozenset(_int("OWNER_IDS", o) for o in owners),
        log_level=level,
        default_preset=preset,
        turn_timeout=timeout,
        api_base=(env.get("DISCORD_API_BASE", "").strip() or DISCORD_API_BASE).rstrip("/"),
        gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or DISCORD_GATEWAY_URL,
    )


__all__ = ["ConfigError", "Settings", "load_settings", "OptionsError"]
