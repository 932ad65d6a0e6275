"""The coach as a player who wants to get better uses it, QA round 4: the same position asked
twice, and again after a restart, gets the same hint, which is the coach's own analysis of the
member's view (with the book's reason where the expert leaves it, and which side the makers
are); a spectator is refused and changes nothing; every answer fits Discord's limits; and the
finished deal's grades list only decisions the coach's own grading finds costly, each with
what it cost."""

from __future__ import annotations

import random

from bot.ai.coach import decisions, grade
from bot.ai.expert import ExpertPlayer
from bot.tables import table as table_module
from bot.tables.computer import HINT_BUDGET
from bot.ui.coach import NOISE, hint_embed
from tests.bot.helpers import member_at, running_bot, seat_four, start, table_of
from tests.support.fake_discord import FakeDiscord, FakeMember, FakeMessage

pytest_plugins = ["tests.support.fixtures"]

# The first search starts the computer players' worker process: a bound for a loaded machine.
SEARCH_WAIT = 120.0
SEED = "7" * 64  # the deal's secret seed: the same cards in every run


async def hint(fake: FakeDiscord, member: FakeMember) -> FakeMessage:
    message = await (await fake.slash(member, fake.channel, "hint")).message(timeout=SEARCH_WAIT)
    assert message.ephemeral and message.visible_to == member.id, message.text
    return message


def slash_of(action: str, phase: str) -> tuple[str, dict]:
    """The slash command (and its options) a member types to take `action`."""
    if len(action) == 2:
        return ("discard" if phase == "discard" else "play"), {"card": action}
    alone = action.endswith(":alone")
    if action.startswith("call:"):
        return "call", {"suit": action.split(":")[1], "alone": alone}
    if action.startswith("order"):
        return "order", {"alone": alone}
    return action, {}  # pass, alone, defend


def fits(embed: dict) -> None:
    """Discord's limits for one embed."""
    assert len(embed.get("description") or "") <= 4096
    assert len(embed.get("fields", [])) <= 25
    for f in embed.get("fields", []):
        assert len(f["name"]) <= 256 and len(f["value"]) <= 1024, f
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    total += len((embed.get("footer") or {}).get("text", ""))
    assert total <= 6000


def the_coachs(view) -> dict:
    """The hint the coach gives for `view`, made here with the tables' coach (seed 0)."""
    expert = ExpertPlayer(budget=HINT_BUDGET)
    d = view.deal
    return hint_embed(expert.analyse(view), d.seat, d.dealer, d.alone is not None).to_dict()


def same_words(shown: dict, made: dict) -> None:
    assert shown.get("description") == made.get("description")
    assert [(f["name"], f["value"]) for f in shown.get("fields", [])] == [
        (f["name"], f["value"]) for f in made.get("fields", [])
    ]


async def test_a_hint_is_the_same_asked_twice_and_after_a_restart_and_grades_only_costs(
    fake_discord, tmp_path, monkeypatch
):
    fake = fake_discord
    monkeypatch.setattr(table_module, "new_seed", lambda rng=None: SEED)
    db = tmp_path / "euchre.db"
    rng = random.Random(4)
    async with running_bot(fake, db) as bot:
        await seat_four(fake, preset="modern")
        await start(fake)
        table = table_of(bot, fake)
        match = table.match
        eve = fake.add_member(fake.guild, "eve")
        assert (await hint(fake, eve)).text == "You are not seated at this table"
        # Refused, and nothing changed: no action, no deal marked as played with a hint.
        assert match.deal.history == [] and not table.hinted
        # Two decisions, each asked twice: the same words, the coach's own.
        for _ in range(2):
            seat = match.to_act
            member = member_at(bot, fake, seat)
            first, second = await hint(fake, member), await hint(fake, member)
            assert first.embeds and first.embeds[0] == second.embeds[0]
            fits(first.embeds[0])
            same_words(first.embeds[0], the_coachs(match.view_for(seat)))
            legal = list(match.view_for(seat).deal.legal)
            action = "pass" if "pass" in legal else legal[0]
            answer = await (await fake.slash(member, fake.channel, action)).message()
            assert answer.ephemeral, answer.text
        waiting = match.to_act
        last = (await hint(fake, member_at(bot, fake, waiting))).embeds[0]
        assert not bot.handler_errors
    async with running_bot(fake, db) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.content for m in fake.public_messages(fake.channel)),
            what="the restored table's word",
        )
        table = table_of(bot, fake)
        match = table.match
        assert match.to_act == waiting
        again = (await hint(fake, member_at(bot, fake, waiting))).embeds[0]
        assert again == last
        # The deal played out by hand, the members asking on every turn of the play.
        while len(match.deals) == 1:
            seat = match.to_act
            member = member_at(bot, fake, seat)
            view = match.view_for(seat)
            if view.deal.phase == "play" and len(view.deal.legal) > 1 and rng.random() < 0.3:
                given = (await hint(fake, member)).embeds[0]
                fits(given)
                same_words(given, the_coachs(view))
                search = next(f["value"] for f in given["fields"] if f["name"] == "The search")
                assert "your side, the makers," in search or "the makers, the other side," in search
            command, options = slash_of(rng.choice(list(view.deal.legal)), view.deal.phase)
            answer = await (await fake.slash(member, fake.channel, command, **options)).message()
            assert answer.ephemeral, answer.text
        # The grades of the finished deal: only decisions the coach's grading finds costly.
        bob = fake.member("bob")
        bob_seat = next(s for s in range(4) if member_at(bot, fake, s).id == bob.id)
        asked_review = await fake.slash(bob, fake.channel, "review", deal="1")
        await asked_review.message()
        grades = await asked_review.followup(0, timeout=SEARCH_WAIT)
        assert grades.ephemeral and grades.visible_to == bob.id
        fits(grades.embeds[0])
        expert = ExpertPlayer(budget=HINT_BUDGET)
        own = [grade(expert, d) for d in decisions(match, deals=[1], seats=[bob_seat])]
        graded = [g for g in own if g is not None]
        costly = [g for g in graded if g.cost >= NOISE]
        text = grades.embeds[0]["description"]
        if costly:
            assert text.count("; the expert: ") == len(costly), text
            assert all("Cost: " in line for line in text.split("\n")[: len(costly)]), text
        else:
            assert "as good as the expert's choice" in text, text
        assert not bot.handler_errors
