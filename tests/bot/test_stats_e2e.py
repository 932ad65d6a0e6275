"""After a game is played through Discord: /leaderboard, /stats, /history and /record."""

from __future__ import annotations

import json

from bot import cli
from tests.bot.helpers import act_once, running_bot, seat_four, start, table_of
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


async def play_a_game(bot, fake: FakeDiscord) -> None:
    await seat_four(fake, points=3)
    await start(fake)
    table = table_of(bot, fake)
    while table.playing:
        await act_once(bot, fake)


async def public_reply(fake: FakeDiscord, name: str, command: str, **options):
    return await (await fake.slash(fake.member(name), fake.channel, command, **options)).message()


async def test_a_played_game_shows_on_the_leaderboard_stats_history_and_record(
    fake_discord, tmp_path
):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await play_a_game(bot, fake)
        table = table_of(bot, fake)
        winners = [o.name for s, o in enumerate(table.seats) if s % 2 == table.match.winner]

        asked = await fake.slash(
            fake.member("alice"), fake.channel, "leaderboard", metric="games_won"
        )
        board = await asked.message()
        assert not board.ephemeral
        first = board.text.split("\n")
        assert any(winners[0] in line and "**1.**" in line for line in first)
        # The public board names no viewer; alice's own rank is a follow-up only she sees.
        assert "You" not in board.text
        mine = await asked.followup()
        listed = "alice" in board.text  # everyone who won a game is on its one page
        assert mine.ephemeral and "**Games won" in mine.text
        assert mine.text.startswith("Your rank on" if listed else "You are not on"), mine.text

        stats = await public_reply(fake, "alice", "stats")
        assert "Hands" in stats.text and "Games" in stats.text

        history = await public_reply(fake, "bob", "history")
        assert "M" in history.text and "G" in history.text
        game_id = next(
            word
            for word in history.text.replace("*", " ").split()
            if word.startswith("G") and word[1:].isdigit()
        )

        record = await public_reply(fake, "carol", "record", game_id=game_id)
        attachment = record.attachments[0]
        document = json.loads(attachment.data)
        assert attachment.filename.endswith(".egn")
        assert document["fileType"] == "Euchre Game Notation"
        assert document["metadata"]["finalScore"] == list(table.match.games[0].scores)

        # The match as the bot's own record: every deal checks against its seed and commitment.
        whole = await public_reply(fake, "carol", "record", game_id=f"M{table.match_id}")
        path = tmp_path / "match.json"
        path.write_bytes(whole.attachments[0].data)
        assert cli.main(["verify-deal", str(path)]) == 0


async def test_leaderboard_bad_input_is_answered_privately(fake_discord, tmp_path):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db"):
        message = await public_reply(fake, "alice", "history")
        assert message.ephemeral and "no finished" in message.text.lower()
        message = await public_reply(fake, "alice", "record", game_id="nonsense")
        assert message.ephemeral and "not a game" in message.text.lower()
        message = await public_reply(fake, "alice", "leaderboard", page=99)
        assert message.ephemeral
