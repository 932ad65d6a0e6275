"""Every answer fits Discord's limits whatever a member types, and ids are read by one strict rule.

A refusal quotes what it refuses. Quoted whole, 2,100 characters typed into /play, /call or
/record made an answer over Discord's 2,000, which Discord refuses: the member saw "The
application did not respond". Refusals now quote input briefly, and the answer of any refusal is
cut to the limit where it is sent. The fake Discord refuses what Discord refuses, so an answer
over a limit shows here as a request refused (`h.problems()`) and no answer at all.
"""

from __future__ import annotations

import pytest

from tests.interaction.helpers import start_four, to_act
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

LONG = "x" * 2100


async def refused(h: InteractionHarness, member: str, command: str, /, **options) -> str:
    """The answer to a refused command: private, within the limit, and nothing changed."""
    async with h.unchanged():
        exchange = await h.command(member, command, **options)
    assert h.problems() == []
    text = exchange.text
    assert 0 < len(text) <= 2000 and exchange.ephemeral
    return text.lower()


async def test_a_long_card_in_play_is_refused_within_the_limit(interactions):
    h = interactions
    await start_four(h)
    member, _ = to_act(h)
    text = await refused(h, member, "play", card=LONG)
    assert text.startswith("unknown card “xxxx") and len(text) < 200, text
    text = await refused(h, member, "discard", card=LONG)
    assert len(text) < 200, text


async def test_a_long_suit_in_call_is_refused_within_the_limit(interactions):
    h = interactions
    await start_four(h)
    member, _ = to_act(h)
    text = await refused(h, member, "call", suit=LONG)
    assert text.startswith("unknown suit “xxxx") and len(text) < 200, text


async def test_a_long_id_in_record_is_refused_within_the_limit(interactions):
    text = await refused(interactions, "alice", "record", game_id="G" + "1" * 2100)
    assert "is not a game or rubber id" in text and len(text) < 200, text
    text = await refused(interactions, "alice", "record", game_id=LONG)
    assert "is not a game or rubber id" in text and len(text) < 200, text


async def test_any_refusal_is_cut_to_the_limit_where_it_is_sent(interactions):
    # The table's own refusals quote the seat and the preset typed, briefly; and whatever a
    # refusal says is cut to the limit where it is sent.
    h = interactions
    await refused(h, "alice", "table create", preset=LONG)
    assert (await h.command("alice", "table create", preset="modern")).ephemeral
    text = await refused(h, "bob", "table join", seat=LONG)
    assert text.startswith("unknown seat “xxx") and "…”" in text and len(text) < 200, text


@pytest.mark.parametrize("game_id", ["G²", "M³", "G١٢", "G１２", "G1_0", "G-1", "G" + "9" * 20])
async def test_record_ids_are_ascii_digits_of_bounded_length(interactions, game_id):
    # `isdigit()` took "²" and `int()` refused it: the member got the apology, not the reason.
    text = await refused(interactions, "alice", "record", game_id=game_id)
    assert "is not a game or rubber id" in text and "sorry" not in text, text
    assert not interactions.logged_errors


async def test_a_record_id_in_ascii_digits_is_looked_up(interactions):
    text = await refused(interactions, "alice", "record", game_id=" g42 ")
    assert "there is no game g42 on this server" in text, text
