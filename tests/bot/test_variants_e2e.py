"""A whole game of each variant through the real bot and the fake Discord: one member and
computers in the other seats, with a restart in the middle of a deal."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.variants import NAMES
from tests.bot.helpers import (
    VARIANT_ENDS as ENDS,
)
from tests.bot.helpers import (
    VARIANT_GAMES as GAMES,
)
from tests.bot.helpers import (
    current_table_message,
    member_at,
    running_bot,
    table_of,
)
from tests.bot.helpers import (
    variant_act_once as act_once,
)
from tests.support.fake_discord import FakeDiscord, FakeMessage

pytest_plugins = ["tests.support.fixtures"]


async def play_member_turns(bot, fake: FakeDiscord, moves: int | None) -> None:
    """alice plays her turns (the computers theirs) until the game ends or `moves` are made."""
    alice = fake.member("alice")
    table = table_of(bot, fake)
    made = 0
    while table.playing and (moves is None or made < moves):
        match = table.variant_match
        if match.to_act is not None and table.seats[match.to_act].user_id == alice.id:
            await act_once(bot, fake)
            made += 1
        else:
            await asyncio.sleep(0.005)


@pytest.mark.parametrize("variant", NAMES)
async def test_a_whole_variant_game_with_computers_across_a_restart(
    fake_discord, tmp_path, variant: str
):
    fake = fake_discord
    alice = fake.member("alice")
    db = tmp_path / "euchre.db"
    game = GAMES[variant]
    async with running_bot(fake, db) as bot:
        created = await (
            await fake.slash(alice, fake.channel, "table create", variant=variant, **game)
        ).message()
        assert created.ephemeral and f"{game['seats']} players" in created.text
        for _ in range(game["seats"] - 1):
            await (
                await fake.slash(alice, fake.channel, "table addbot", level="standard")
            ).response()
        started = await (await fake.slash(alice, fake.channel, "table start")).message()
        assert "dealt" in started.text
        await play_member_turns(bot, fake, moves=2)
        table = table_of(bot, fake)
        assert table.playing, "the game ended before the restart: make it longer"
        before = list(table.actions)
    async with running_bot(fake, db) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.content for m in fake.public_messages(fake.channel)),
            what="the restored table's word",
        )
        table = table_of(bot, fake)
        assert table.variant is not None and table.variant.name == variant
        assert table.actions[: len(before)] == before
        await play_member_turns(bot, fake, moves=None)
        await fake.wait_for(
            lambda: any(
                any(end in m.content for end in ENDS) for m in fake.public_messages(fake.channel)
            ),
            what="the game's result",
        )
        status = await bot.db.fetchval(
            "SELECT status FROM variant_games WHERE id = ?", (table.match_id,)
        )
        assert status == "finished"
        assert not bot.handler_errors


def hand_buttons(hand: FakeMessage) -> dict[str, dict]:
    """The hand's enabled buttons by action (`pass`, `order`, a card)."""
    return {
        b["custom_id"].split(":", 5)[5]: b
        for b in hand.buttons
        if not b.get("disabled") and b.get("custom_id", "").startswith("euchre:hand:")
    }


def live_text(fake: FakeDiscord, table) -> str:
    return fake.messages_by_id[table.message_id].text


@pytest.mark.parametrize("variant", ["two-handed", "three-handed"])
async def test_the_dealer_takes_it_up_where_the_others_order_it_up(
    variant: str, fake_discord: FakeDiscord, tmp_path
):
    """RULES §7: the others may order up the turn-up, then the dealer may take it up; his button
    and the auction say so, as at four hands."""
    fake = fake_discord
    seats = GAMES[variant]["seats"]
    members = [fake.member(name) for name in ("alice", "bob", "carol")[:seats]]
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        create = fake.slash(members[0], fake.channel, "table create", variant=variant, seats=seats)
        await (await create).message()
        for member in members[1:]:
            await (await fake.slash(member, fake.channel, "table join")).response()
        await (await fake.slash(members[0], fake.channel, "table start")).message()
        table = table_of(bot, fake)
        match = table.variant_match
        dealer = match.deal.dealer
        labels = []
        while True:
            seat = match.to_act
            member = member_at(bot, fake, seat)
            table_message = await current_table_message(fake, table)
            hand = await (await fake.click(member, table_message, label="My hand")).message()
            buttons = hand_buttons(hand)
            labels.append(buttons["order"]["label"])
            # The turn line says the same, in the hand and on the table.
            asked = "take up" if seat == dealer else "order up"
            assert f"{asked} the turn-up, or pass" in hand.text, hand.text
            await fake.wait_for(
                lambda a=asked: f"{a} the turn-up, or pass" in live_text(fake, table),
                what="the table's turn line",
            )
            if seat == dealer:
                break
            await (await fake.click(member, hand, buttons["pass"]["custom_id"])).response()
        assert labels == ["Order up"] * (seats - 1) + ["Take up"], labels
        await (await fake.click(member, hand, buttons["order"]["custom_id"])).response()
        name = table.seats[dealer].name
        auction = await fake.wait_for(
            lambda: (
                f"{name} took it up" in fake.messages_by_id[table.message_id].text
                and fake.messages_by_id[table.message_id].text
            ),
            what="the dealer's taking it up on the table",
        )
        assert f"{name} ordered it up" not in auction
