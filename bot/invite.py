"""What the bot asks for when a server invites it, and `python -m bot invite APPLICATION_ID`.

The permissions are those its commands use: reading and writing in the channels it plays in
(messages, embeds, the card pictures as files, the history a table message is found in), playing
in threads, and opening them (a euchre night seats each table in a thread of its channel). A
league that gives rank roles also needs Manage Roles, which is asked for only with `--roles`.
"""

from __future__ import annotations

import argparse
from typing import Any

import discord

INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
WITH_ROLES = INVITE_PERMISSIONS | discord.Permissions(manage_roles=True)
SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int, roles: bool = False) -> str:
    """The link that adds the bot to a server with the permissions it needs."""
    permissions = WITH_ROLES if roles else INVITE_PERMISSIONS
    return discord.utils.oauth_url(application_id, permissions=permissions, scopes=SCOPES)


def register_commands(subparsers: Any) -> None:
    """Add ``invite`` to the command line's subcommands."""
    invite = subparsers.add_parser("invite", help="print the link that adds the bot to a server")
    invite.add_argument("application_id", type=_snowflake, help="the application's id")
    invite.add_argument(
        "--roles", action="store_true", help="also ask for Manage Roles (league rank roles)"
    )
    invite.set_defaults(handler=_invite)


def _snowflake(text: str) -> int:
    if not (text.isascii() and text.isdigit() and 15 <= len(text) <= 20):
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not an application id (15-20 digits)")
    return int(text)


def _invite(args: argparse.Namespace) -> int:
    print(invite_url(args.application_id, roles=args.roles))
    return 0
