"""Publishing the slash commands to Discord only when they changed.

Discord keeps an application's commands per scope (globally, or per server), and
`CommandTree.sync` replaces a scope's commands with one `PUT`. Syncing at every start would cost a
request each time, and global syncs are rate limited; never syncing at start would leave a fresh
install with no `/admin sync` to call. So at start the commands' JSON is built exactly as
discord.py sends it, hashed, and compared with the hash stored (table `bot_state`) by the last
sync of that scope: the commands are synced only when the hash differs. `/admin sync` always
syncs, and stores the new hash too.

The bot's command tree (`bot/ui/guide.py`) keeps the ids Discord gives the commands at a sync,
for `/help`'s clickable mentions. They are stored beside the hash, and a start that does not
sync gives them back to the tree.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.storage import bot_state
from bot.storage.database import Database

log = logging.getLogger(__name__)


def scope_key(guild: discord.abc.Snowflake | None, what: str = "hash") -> str:
    """The `bot_state` key of a scope's hash (or `what="ids"`: its commands' ids): global, or
    one server."""
    return f"commands_{what}:" + ("global" if guild is None else f"guild:{guild.id}")


async def commands_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """The JSON `tree.sync(guild=guild)` would send, built the same way (translated if the tree
    has a translator)."""
    commands = tree._get_all_commands(guild=guild)
    translator = tree.translator
    if translator:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A hash of the commands' JSON that does not depend on the order of keys."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def sync_commands(
    tree: app_commands.CommandTree[Any], db: Database, guild: discord.abc.Snowflake | None
) -> list[app_commands.AppCommand]:
    """Sync a scope's commands now and store their hash and ids.

    Returns:
        The commands as Discord returned them.

    Raises:
        discord.HTTPException: Discord refused the sync (nothing is stored then).
    """
    digest = payload_hash(await commands_payload(tree, guild))
    synced = await tree.sync(guild=guild)
    ids = {command.name: command.id for command in synced}
    await bot_state.set_value(db, scope_key(guild, "ids"), json.dumps(ids, sort_keys=True))
    await bot_state.set_value(db, scope_key(guild), digest)
    return synced


async def sync_if_changed(
    tree: app_commands.CommandTree[Any], db: Database, guild: discord.abc.Snowflake | None
) -> bool:
    """Sync a scope's commands if they differ from those its last sync sent.

    Returns:
        True when the commands were synced, False when they had not changed (the tree then
        gets the ids stored at that sync, if it keeps ids).

    Raises:
        discord.HTTPException: Discord refused the sync (the old hash stays, so the next start
            tries again).
    """
    digest = payload_hash(await commands_payload(tree, guild))
    if await bot_state.get_value(db, scope_key(guild)) != digest:
        await sync_commands(tree, db, guild)
        return True
    kept = getattr(tree, "command_ids", None)
    stored = await bot_state.get_value(db, scope_key(guild, "ids"))
    if isinstance(kept, dict) and stored is not None:
        kept[None if guild is None else guild.id] = {
            name: int(command_id) for name, command_id in json.loads(stored).items()
        }
    return False
