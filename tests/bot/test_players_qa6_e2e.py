"""The four-handed table as players live it, through the real bot and the fake Discord (round
6): a table of single games (the jerome and modern presets) named as such to the members who
join it, hand their seat over or close it, not as a rubber."""

from __future__ import annotations

from tests.bot.helpers import current_table_message, eventually, running_bot, table_of
from tests.bot.test_players_qa2_e2e import at_the_table, offer_to
from tests.bot.test_table_life_e2e import seat_and_start

pytest_plugins = ["tests.support.fixtures"]


async def test_a_table_of_single_games_says_game_not_rubber(fake_discord, tmp_path):
    """Modern plays single games. Erin, joining mid-game, was told a rubber was being played
    and she would play from the next rubber; Bob, handing his seat to Frank, read that Frank
    took it for the rest of the rubber, as did the offer, each consent and the table message;
    the host closing the table, that the rubber in play would end. There is no rubber at
    this table: each now says the game."""
    fake = fake_discord
    erin, frank = fake.add_member(fake.guild, "erin"), fake.add_member(fake.guild, "frank")
    bob = fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern")
        table = table_of(bot, fake)
        joined = await (await fake.slash(erin, fake.channel, "table join")).message()
        assert joined.ephemeral
        assert joined.text.startswith("A game is being played: you wait in line"), joined.text
        said = [
            (
                await (
                    await fake.slash(bob, fake.channel, "table substitute", member=frank)
                ).message()
            ).text
        ]
        offer = await fake.wait_for(lambda: offer_to(fake, frank))
        said.append(offer.content)
        await (await fake.click(frank, offer, label="Take the seat")).response()
        for name in ("alice", "carol", "dave"):
            message = await current_table_message(fake, table)
            consent = await fake.click(fake.member(name), message, label="Consent to substitute")
            said.append((await consent.message()).text)
        assert table.seat_of(frank.id) == 1
        said.append(
            await eventually(
                lambda: "handed" in at_the_table(fake, table) and at_the_table(fake, table),
                what="the table message to tell of Frank taking the seat",
            )
        )
        said.append(
            (
                await (
                    await fake.slash(fake.member("alice"), fake.channel, "table close")
                ).message()
            ).text
        )
        for text in said:
            assert "rubber" not in text, text
        assert "for the rest of the game" in said[0] and "for the rest of the game" in said[-2]
        assert "The game in play ends unfinished" in said[-1], said[-1]
        assert not bot.handler_errors
