"""Names as the bot shows them (`bot.ui.embeds.safe`): escaped, unable to call everyone, and
unable to turn the rest of their line around."""

from __future__ import annotations

import re

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


@pytest.mark.parametrize(
    "markup",
    [
        "<:AS:1577678516789444608>",  # a custom emoji: drawn as the card's picture
        "<a:spin:1577678516789444608>",  # an animated one
        "<t:0:R>",  # a timestamp: "56 years ago"
        "<#1577678516789444608>",  # a channel's link
        "</table start:1577678516789444608>",  # a slash command's link
        "<id:customize>",  # a link to the server's own pages
        "<@1577678516789444608> <@&1577678516789444608>",  # a member's and a role's mention
    ],
)
def test_discord_markup_in_a_name_is_shown_as_typed_not_drawn(markup):
    shown = safe(markup)
    assert "<" not in shown.replace("<\u200b", ""), shown  # no `<` opens markup any more
    assert shown.replace("\u200b", "") == markup  # and the name reads as typed


def test_an_escaped_name_is_at_most_twice_as_long_as_typed():
    # The messages that show names are checked against Discord's limits with names escaped
    # to twice their length (tests/ui/test_variant_views.py): no escape may go beyond that.
    for name in ("<" * 32, "<*" * 16, "<@everyone" * 3 + "<_", "_*`|~<" * 5 + "<<"):
        assert len(safe(name)) <= 2 * len(name), name


# What Discord draws at a line's start, as a name often is ("1. bob passed"): a list, a
# heading, a quote. A name alone ("*", ">") is followed by the rest of its line.
LINE_MARKUP = re.compile(r"^\s*(?:\d+\.\s|[-*+]\s|#{1,3}\s|-#\s|>)")


@pytest.mark.parametrize(
    "name",
    [
        "1. Ordered list",
        "12. x",
        "- x",
        "* x",
        "*",
        "+ x",
        "# x",
        "### x",
        "-# x",
        "> x",
        ">",
        ">>> x",
    ],
)
def test_a_name_at_a_lines_start_draws_no_list_heading_or_quote(name):
    shown = safe(name)
    assert not LINE_MARKUP.match(f"{shown} passed"), shown
    assert re.sub(r"\\(.)", r"\1", shown) == name  # Discord shows an escaped mark as typed
    assert len(shown) <= 2 * len(name)
