"""A refusal that quotes what a member typed shows it as typed: its markdown escaped, so it
cannot make the answer bold, hide it under a spoiler, turn it into code or a masked link, or
carry it onto lines of its own; and the answer stays one line of Discord's size."""

from __future__ import annotations

import re

import pytest

from tests.interaction.helpers import start_four
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

TYPED = "**bold** _u_ ||s|| `c` [a](http://x)\n# h"  # within what a quotation keeps
# A mark Discord would render as markdown, unless a backslash escapes it.
RENDERED = re.compile(r"(?<!\\)[*_|`\[]")


@pytest.mark.parametrize(
    "command,options",
    [
        ("play", {"card": TYPED}),
        ("discard", {"card": TYPED}),
        ("call", {"suit": TYPED}),
        ("table join", {"seat": TYPED}),
        ("record", {"game_id": TYPED}),
    ],
)
async def test_typed_markdown_is_quoted_back_as_typed(
    interactions: InteractionHarness, command: str, options: dict
):
    h = interactions
    await start_four(h)
    reply = (await h.command("alice", command, **options)).reply
    assert reply.ephemeral, reply.text
    assert "\\*\\*bold\\*\\*" in reply.content, reply.content
    (quotation,) = re.findall("“(.*)”", reply.content)
    assert not RENDERED.search(quotation), reply.content
    assert "\n" not in reply.content and len(reply.content) <= 2000
