"""Just after a restart, commands are answered from the restored tables: the bot loads them
before it takes interactions, however long the loading takes."""

from __future__ import annotations

from bot.storage import tables as store
from tests.bot.helpers import running_bot, seat_four, start, table_of
from tests.support.fake_discord import FakeDiscord, FakeMessage

pytest_plugins = ["tests.support.fixtures"]


async def ask(fake: FakeDiscord) -> tuple[FakeMessage, FakeMessage]:
    """alice asks for her hand and bob tries to open a second table; their private answers."""
    hand = await (await fake.slash(fake.member("alice"), fake.channel, "hand")).message(10)
    create = await (await fake.slash(fake.member("bob"), fake.channel, "table create")).message(10)
    assert hand.ephemeral and create.ephemeral
    return hand, create


async def test_commands_sent_while_the_tables_load_are_answered_from_them(
    fake_discord, tmp_path, monkeypatch
):
    fake, db = fake_discord, tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)

    # A slow restore the test controls: while the tables are being read, members who can
    # reach the bot already ask it things.
    read_open_tables = store.open_tables
    loads: list[bool] = []
    answers: list[tuple[FakeMessage, FakeMessage]] = []

    async def open_tables_slowly(database):
        connected = fake.connected
        loads.append(connected)
        if connected:
            answers.append(await ask(fake))
        return await read_open_tables(database)

    monkeypatch.setattr(store, "open_tables", open_tables_slowly)
    async with running_bot(fake, db) as bot:
        answers.append(await ask(fake))
        assert table_of(bot, fake) is not None

    for hand, create in answers:
        assert "no table" not in hand.text.lower()
        assert len(hand.buttons) >= 5, hand.text  # her five cards (modern), as buttons
        assert "already has a table" in create.text.lower()
    assert loads == [False], "the tables were read after the bot took interactions"
    assert not fake.errors
