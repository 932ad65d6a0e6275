"""/help and /rules through the real bot and the fake Discord: private answers, with the
commands as clickable mentions of the ids the fake gave at the bot's sync."""

from __future__ import annotations

from tests.bot.helpers import running_bot
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


async def private_reply(fake: FakeDiscord, name: str, command: str, **options):
    member = fake.member(name)
    message = await (await fake.slash(member, fake.channel, command, **options)).message()
    assert message.ephemeral and message.visible_to == member.id, message.text
    return message


async def test_help_and_rules_answer_privately(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db"):
        synced = {c["name"]: c["id"] for c in fake.synced_commands(fake.guild)}
        help_text = (await private_reply(fake, "alice", "help")).text
        assert "Making trump, first round" in help_text
        assert f"</play:{synced['play']}>" in help_text
        assert f"</table create:{synced['table']}>" in help_text

        index = (await private_reply(fake, "bob", "rules")).text
        assert "There is no table in this channel" in index and "Lone hands" in index
        await private_reply(fake, "alice", "table create", preset="modern")
        lap = (await private_reply(fake, "bob", "rules", topic="lap")).text
        assert "Lap is off here" in lap and "the modern preset" in lap
