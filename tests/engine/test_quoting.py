"""Quoting input inside messages: always short, always writable, never an error."""

from __future__ import annotations

import sys

from bot.engine.quoting import QUOTE_LIMIT, QuotesNames, clip, quoted, shown


def test_what_a_member_typed_is_quoted_short_in_the_pages_marks():
    assert quoted("queen of cups") == "“queen of cups”"
    long = quoted("x" * 2100)
    assert long == "“" + "x" * (QUOTE_LIMIT - 1) + "…”"


def test_a_lone_surrogate_is_quoted_as_a_replacement_character():
    text = quoted("J\ud800H")
    assert text == "“J\ufffdH”" and text.encode("utf-8")


def test_any_value_is_shown_briefly():
    nested: list = []
    for _ in range(sys.getrecursionlimit() * 2):
        nested = [nested]
    assert shown(nested) == "[[[[...]]]]"
    assert shown(10**5000) == "a number of about 5,000 digits"
    assert len(shown("z" * 100_000)) <= QUOTE_LIMIT + 2
    assert shown("\ud800") == "'\\ud800'"
    assert shown({"a": list(range(10))}) == "{'a': [0, 1, 2, 3, ...]}"


def test_clip_marks_a_cut():
    assert clip("abc", 3) == "abc" and clip("abcd", 3) == "ab…"


def test_a_quoted_mention_pings_no_one():
    """A refusal that quotes `@everyone` or `<@123>` must not be a mention wherever it is shown."""
    for typed in ("@everyone", "@here", "<@123456789012345678>", "<@&42>", "<@!7>"):
        assert "@\u200b" in quoted(typed), typed
        assert "@\u200b" in shown(typed), typed
    assert quoted("me@home") == "“me@home”"  # an @ that mentions no one stays as typed


def test_quoted_markdown_shows_as_typed_on_one_line():
    """Discord shows a mark escaped with a backslash as the mark itself."""
    assert quoted("**bold**") == "“\\*\\*bold\\*\\*”"
    assert (
        quoted("||a|| `b` _c_ ~~d~~ [e](f) <#1> \\")
        == "“\\|\\|a\\|\\| \\`b\\` \\_c\\_ \\~\\~d\\~\\~ \\[e\\](f) \\<#1> \\\\”"
    )
    assert quoted("a\n# b") == "“a # b”"  # no line of its own: no heading, list or quote
    assert len(quoted("*" * 3000)) == 2 * QUOTE_LIMIT + 1  # 39 escaped marks, `…` and the quotes


def test_names_in_a_refusal_are_left_for_the_discord_layer_to_escape():
    """`QuotesNames` escapes names with its caller's escape: quoting must not escape them twice."""
    error = QuotesNames("no league {}", "**Club**")
    assert str(error) == "no league “**Club**”"
    assert error.worded(lambda q: q.replace("*", "\\*")) == "no league “\\*\\*Club\\*\\*”"


def test_a_quoted_direction_control_turns_nothing_around():
    """U+202E typed into a command would show the rest of the refusal right to left: the
    quotation keeps what was typed, without its direction controls."""
    assert quoted("\u202eabc") == "“abc”"
    assert quoted("a\u2067b\u2069\u200fc") == "“abc”"
    assert quoted("שלום") == "“שלום”"  # right-to-left text itself is kept, as typed
