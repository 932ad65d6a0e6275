"""/settings cards through the real command tree: stored before it is answered, privately,
and a value that is no choice refused with nothing stored."""

from __future__ import annotations

from bot.ui.card_looks import TEXT
from cogs.settings import cards_answer
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]


async def stored(h: InteractionHarness) -> list[tuple[int, str]]:
    rows = await h.bot.db.fetchall("SELECT user_id, cards FROM member_card_looks")
    return [(int(r[0]), str(r[1])) for r in rows]


async def test_a_members_card_look_is_stored_and_answered_privately(
    interactions: InteractionHarness,
):
    h = interactions
    alice = h.member("alice")
    answer = (await h.command("alice", "settings cards", look="text")).reply
    assert answer.ephemeral and answer.visible_to == alice.id
    assert "as text" in answer.text and "The table's messages" in answer.text
    assert await stored(h) == [(alice.id, "text")]
    assert h.bot.card_looks.of(alice.id) == TEXT
    assert h.bot.card_looks.of(h.member("bob").id) is None  # everyone else: as the table
    # Back to pictures: the harness's bot has no card pictures, and says so.
    answer = (await h.command("alice", "settings cards", look="pictures")).reply
    assert "once the bot has its card pictures" in answer.text
    assert await stored(h) == [(alice.id, "pictures")]


async def test_a_card_look_that_is_no_choice_is_refused_and_nothing_stored(
    interactions: InteractionHarness,
):
    h = interactions
    for look in ("blue", "", "TEXT", "x" * 6000):
        answer = (await h.command("alice", "settings cards", look=look)).reply
        assert answer.ephemeral and len(answer.text) <= 2000
        assert "pictures or text" in answer.text, answer.text
    assert await stored(h) == []


def test_the_answer_says_what_the_choice_reaches():
    assert "an open hand changes at once" in cards_answer("pictures", pictures_ready=True)
    assert "an open hand changes at once" in cards_answer("text", pictures_ready=False)
    assert "once the bot has its card pictures" in cards_answer("pictures", pictures_ready=False)
