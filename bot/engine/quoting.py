"""Showing what a member typed, or what a file holds, inside a message about it.

A refusal quotes the input it refuses ("unknown card 'zz'"), and input can be anything: 2,000
characters typed into a command, a list nested 100,000 deep, a number of 5,000 digits. Quoted
whole, such input made replies longer than Discord allows, or the quoting itself failed (`repr`
of a deep list recurses; of a huge number, Python refuses). Every quotation goes through here,
so it is always short and never fails.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable
from typing import Any

# Long enough to recognise what was meant, short enough for several in one message.
QUOTE_LIMIT = 40
# Python refuses to write an int of more than 4,300 digits; about 3.3 bits make a digit.
_MAX_SHOWN_BITS = 4_000
_SURROGATE = re.compile("[\ud800-\udfff]")
# What Discord reads as a mention (@everyone, @here, <@id>, <@&role>); a zero-width space after
# the @ keeps it from being one wherever a quotation is shown, whatever the message allows.
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]+)")
# What Discord reads as markdown within a line; a backslash before any of them shows it as typed.
# `<` starts a channel or command mention, a timestamp or an emoji, `[` a masked link.
_MARKDOWN = re.compile(r"[\\*_~|`<\[\]]")
# A quotation stays on its line: a line break in it could start a heading, a list or a quote;
# and the line stays the right way round: a direction control (U+202E) typed into a command
# would turn the rest of the refusal around, so those are dropped.
_ONE_PLAIN_LINE = dict.fromkeys(map(ord, "\r\n\v\f\x85\u2028\u2029"), " ") | dict.fromkeys(
    map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)


class _Shown(reprlib.Repr):
    """`repr` bounded in depth, items and length, safe for any JSON value."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxdict = 4
        self.maxstring = self.maxother = self.maxlong = QUOTE_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > _MAX_SHOWN_BITS:
            return f"a number of about {int(x.bit_length() * 0.30103):,} digits"
        return super().repr_int(x, level)


_SHOWN = _Shown()


def shown(value: Any) -> str:
    """`repr(value)` cut to a few dozen characters: `'zzzz...zz'`, `[[[...]]]`, never an error."""
    return _writable(_SHOWN.repr(value))


def quoted(text: str) -> str:
    """What a member typed, in quotation marks and cut short: `“queen of cups”`.

    Members read these, so the marks are the page's, not Python's (`'pass'` reads as code). A
    lone surrogate (which JSON can escape, and no output can write) shows as `�`, a mention
    (`@everyone`, `<@id>`) is broken by a zero-width space so it pings no one, and markdown
    (`**bold**`, `||spoiler||`, a masked link) is escaped so it shows as typed: the refusal
    is one plain line, whatever was typed into it.
    """
    return _MARKDOWN.sub(r"\\\g<0>", _quote(text))


def _quote(text: str) -> str:
    """`quoted` with its markdown as typed: for logs, and for names the Discord layer escapes
    its own way (`QuotesNames`)."""
    return f"“{_writable(clip(text, QUOTE_LIMIT)).translate(_ONE_PLAIN_LINE)}”"


def _writable(text: str) -> str:
    return _MENTION.sub("@\u200b\\1", _SURROGATE.sub("\ufffd", text))


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending in `…` when it was cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


class QuotesNames(Exception):
    """An error whose message quotes names members chose (a league's, a member's).

    ``str()`` quotes them as they are, for logs and plain front ends; the Discord layer calls
    `worded` with its own escape, so a name never formats the message it is quoted in.

    Args:
        template: the message, with ``{}`` where each name goes, in order.
        names: the names, as typed.
    """

    def __init__(self, template: str, *names: str) -> None:
        self.template = template
        self.names = names
        super().__init__(self.worded())

    def worded(self, escape: Callable[[str], str] | None = None) -> str:
        """The message with each name quoted, escaped by ``escape`` first when given."""
        shown = (_quote(name) for name in self.names)
        return self.template.format(*(escape(q) if escape else q for q in shown))
