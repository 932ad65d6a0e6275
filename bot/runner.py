"""Running the bot: settings, logging, and a clear word when the token is missing or wrong."""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord
import yarl

from bot.config import TOKEN_HELP, ConfigError, Settings, load_settings

log = logging.getLogger(__name__)


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic where the settings say (Discord's, a proxy, or a fake)."""
    discord.http.Route.BASE = settings.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


async def serve(settings: Settings) -> None:
    from bot.client import EuchreBot

    point_at(settings)
    async with EuchreBot(settings) as bot:
        await bot.start(settings.token)


def run() -> int:
    """Start the bot; return the process exit code (2 for a missing or bad token)."""
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
    except (OSError, aiohttp.ClientError) as error:
        print(
            f"euchre-bot: could not reach Discord at {settings.api_base} ({error}).",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 0
    return 0
