"""The invite asks for what the bot's commands use, and the README gives the same numbers."""

from __future__ import annotations

from pathlib import Path

from bot.cli import main
from bot.invite import INVITE_PERMISSIONS, WITH_ROLES, invite_url
from cogs.nights import THREAD_PERMISSIONS

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_invite_asks_for_the_threads_a_euchre_night_needs():
    for flag, _name in THREAD_PERMISSIONS:
        assert getattr(INVITE_PERMISSIONS, flag), flag
    assert not INVITE_PERMISSIONS.manage_roles and WITH_ROLES.manage_roles
    assert not INVITE_PERMISSIONS.administrator


def test_the_readme_gives_the_invites_permission_numbers():
    text = README.read_text(encoding="utf-8")
    assert f"`{INVITE_PERMISSIONS.value}`" in text
    assert f"`{WITH_ROLES.value}`" in text


def test_python_m_bot_invite_prints_the_link(capsys):
    assert main(["invite", "123456789012345678"]) == 0
    link = capsys.readouterr().out.strip()
    assert link == invite_url(123456789012345678)
    assert f"permissions={INVITE_PERMISSIONS.value}" in link
    assert "scope=bot+applications.commands" in link
    assert main(["invite", "123456789012345678", "--roles"]) == 0
    assert f"permissions={WITH_ROLES.value}" in capsys.readouterr().out


def test_an_application_id_that_is_not_one_is_refused(capsys):
    try:
        main(["invite", "@everyone"])
    except SystemExit as exit_:
        assert exit_.code == 2
    assert "is not an application id" in capsys.readouterr().err
