"""Names as the bot shows them (`bot.ui.embeds.safe`): escaped, unable to call everyone, and
unable to turn the rest of their line around."""

from __future__ import annotations

import pytest

from bot.ui.embeds import safe


def test_markdown_and_everyone_are_escaped():
    # (A user's mention cannot ping either: every message sets allowed_mentions.)
    shown = safe("**bold** @everyone @here")
    assert "**bold**" not in shown and "@everyone" not in shown and "@here" not in shown


@pytest.mark.parametrize("control", ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u200f"])
def test_direction_controls_are_dropped(control):
    assert safe(f"eve{control}lyn") == "evelyn"


def test_other_scripts_and_emoji_are_kept():
    assert safe("Zoë 李 👩‍👩‍👧 عمر") == "Zoë 李 👩‍👩‍👧 عمر"
