"""Every /table command, the play commands, and every refusal, through the real bot and the fake Discord."""

from __future__ import annotations

import pytest

from bot.engine.cards import card_name
from tests.bot.helpers import eventually, member_at, running_bot, table_of
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


async def reply(handle) -> str:
    """The text of an interaction's ephemeral answer (asserting it is ephemeral)."""
    message = await handle.message()
    assert message.ephemeral, message.text
    return message.text.lower()


async def slash(fake: FakeDiscord, name: str, command: str, **options) -> str:
    return await reply(await fake.slash(fake.member(name), fake.channel, command, **options))


async def open_full_table(fake: FakeDiscord, preset: str = "modern") -> None:
    assert "your table is open" in await slash(fake, "alice", "table create", preset=preset)
    for name in ("bob", "carol", "dave"):
        assert "you sit at" in await slash(fake, name, "table join")


@pytest.fixture
def db(tmp_path):
    return tmp_path / "euchre.db"


async def test_create_posts_a_public_table_message_and_seats_the_host(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        text = await slash(fake, "alice", "table create", preset="somerset", points=7, joker=True)
        assert "north" in text
        table = table_of(bot, fake)
        assert table.options.points == 7 and table.options.joker
        message = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "Euchre table" in m.text), None
            )
        )
        assert "alice" in message.text and not message.ephemeral


async def test_a_second_table_in_the_channel_is_refused(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db):
        await slash(fake, "alice", "table create")
        assert "already has a table" in await slash(fake, "bob", "table create")


async def test_join_a_named_seat_and_a_taken_seat(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await slash(fake, "alice", "table create")
        assert "south" in await slash(fake, "bob", "table join", seat="south")
        assert "taken" in await slash(fake, "carol", "table join", seat="south")
        assert table_of(bot, fake).seat_of(fake.member("bob").id) == 2


async def test_joining_a_full_table_is_refused(fake_discord, db):
    fake = fake_discord
    for name in ("erin", "frank", "gina"):
        fake.add_member(fake.guild, name)
    async with running_bot(fake, db):
        await open_full_table(fake)
        assert "wait in line" in await slash(fake, "erin", "table join")
        assert "wait in line" in await slash(fake, "frank", "table join")
        assert "full" in await slash(fake, "gina", "table join")


async def test_host_commands_by_someone_else_are_refused(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await open_full_table(fake)
        assert "host" in await slash(fake, "bob", "table start")
        assert "host" in await slash(fake, "bob", "table addbot")
        assert "host" in await reply(
            await fake.slash(
                fake.member("bob"), fake.channel, "table kick", member=fake.member("carol")
            )
        )
        assert "host" in await slash(fake, "bob", "table close")
        assert not table_of(bot, fake).playing


async def test_manage_channels_may_close_a_table(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await slash(fake, "alice", "table create")
        asked = await (await fake.slash(fake.member("mod"), fake.channel, "table close")).message()
        assert asked.ephemeral and "close the table" in asked.text.lower()
        assert table_of(bot, fake) is not None  # nothing closes before it is confirmed
        clicked = await fake.click(fake.member("mod"), asked, label="Close the table")
        assert "closed" in (await clicked.message()).text
        assert table_of(bot, fake) is None


async def test_addbot_kick_leave_and_start_with_computers(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await slash(fake, "alice", "table create", preset="modern")
        await slash(fake, "bob", "table join")
        assert "computer" in await slash(fake, "alice", "table addbot", seat="south", level="easy")
        assert "computer" in await slash(fake, "alice", "table addbot")
        table = table_of(bot, fake)
        assert sum(o.is_bot for o in table.seats) == 2
        assert "removed" in await reply(
            await fake.slash(
                fake.member("alice"), fake.channel, "table kick", member=fake.member("bob")
            )
        )
        assert table.seat_of(fake.member("bob").id) is None
        await slash(fake, "carol", "table join")
        assert "dealt" in await slash(fake, "alice", "table start")
        assert table.playing
        await fake.wait_for(
            lambda: any("The cut" in m.text for m in fake.public_messages(fake.channel))
        )


async def test_out_of_turn_and_bad_cards_are_refused_and_change_nothing(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await open_full_table(fake)
        await slash(fake, "alice", "table start")
        table = table_of(bot, fake)
        to_act = table.match.to_act
        waiting = member_at(bot, fake, (to_act + 1) % 4)
        before = len(table.actions)
        assert "not your turn" in await reply(await fake.slash(waiting, fake.channel, "pass"))
        actor = member_at(bot, fake, to_act)
        assert "hearts cannot be named now: in the first round" in await reply(
            await fake.slash(actor, fake.channel, "call", suit="hearts")
        )
        assert "unknown suit" in await reply(
            await fake.slash(actor, fake.channel, "call", suit="roses")
        )
        assert "unknown card" in await reply(
            await fake.slash(actor, fake.channel, "play", card="11Z")
        )
        assert len(table.actions) == before
        # A card not held, by the seat to play, once play begins.
        await reply(await fake.slash(actor, fake.channel, "order"))
        deal = table.match.deal
        if deal.phase == "partner_alone":
            await reply(await fake.slash(member_at(bot, fake, deal.to_act), fake.channel, "pass"))
        if deal.phase == "discard":
            dealer = member_at(bot, fake, deal.dealer)
            card = next(c for c in deal.hands[deal.dealer] if c != deal.turn_up)
            await reply(await fake.slash(dealer, fake.channel, "discard", card=card_name(card)))
        player = member_at(bot, fake, table.match.to_act)
        not_held = next(c for c in deal.kitty)
        count = len(table.actions)
        assert "do not hold" in await reply(
            await fake.slash(player, fake.channel, "play", card=not_held)
        )
        assert len(table.actions) == count


async def test_not_seated_members_have_no_hand(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db):
        await open_full_table(fake)
        await slash(fake, "alice", "table start")
        assert "not seated" in await slash(fake, "mod", "hand")
        assert "not seated" in await slash(fake, "mod", "pass")


async def test_play_autocomplete_offers_only_legal_cards(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await open_full_table(fake)
        await slash(fake, "alice", "table start")
        table = table_of(bot, fake)
        seat = table.match.to_act
        member = member_at(bot, fake, seat)
        choices = await fake.autocomplete(member, fake.channel, "play", focused="card", value="")
        hand = set(table.match.view_for(seat).deal.hand)
        assert {c["value"] for c in choices} <= hand and choices


async def test_card_option_accepts_every_spelling(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await open_full_table(fake, preset="jerome")
        await slash(fake, "alice", "table start")
        table = table_of(bot, fake)
        # Everyone passes round one; the eldest names a suit; the discard is skipped.
        while table.match.deal.phase == "round_one":
            await reply(
                await fake.slash(member_at(bot, fake, table.match.to_act), fake.channel, "pass")
            )
        deal = table.match.deal
        suit = next(s for s in "SHDC" if s != deal.turn_up_suit)
        name = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[suit]
        await reply(
            await fake.slash(
                member_at(bot, fake, table.match.to_act), fake.channel, "call", suit=name
            )
        )
        if deal.phase == "partner_alone":
            await reply(await fake.slash(member_at(bot, fake, deal.to_act), fake.channel, "pass"))
        seat = table.match.to_act
        card = deal.legal_actions()[0]
        spelled = "10" + card[1].lower() if card[0] == "T" else card_name(card)
        await reply(
            await fake.slash(member_at(bot, fake, seat), fake.channel, "play", card=spelled)
        )
        assert table.actions[-1] == (seat, card)


async def test_show_posts_the_table_anew(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db):

        def table_messages() -> int:
            return len([m for m in fake.public_messages(fake.channel) if "Euchre table" in m.text])

        await slash(fake, "alice", "table create")
        # The table message is posted after the answer: count it only once it is there.
        await fake.wait_for(lambda: table_messages() == 1)
        await slash(fake, "bob", "table show")
        await fake.wait_for(lambda: table_messages() == 2)


async def test_leave_between_rubbers_frees_the_seat(fake_discord, db):
    fake = fake_discord
    async with running_bot(fake, db) as bot:
        await slash(fake, "alice", "table create")
        await slash(fake, "bob", "table join")
        assert "left" in await slash(fake, "bob", "table leave")
        assert table_of(bot, fake).seats[1] is None
        assert "not at this table" in await slash(fake, "bob", "table leave")


async def test_substitute_with_consent_buttons(fake_discord, db):
    fake = fake_discord
    fake.add_member(fake.guild, "erin")
    async with running_bot(fake, db) as bot:
        await open_full_table(fake)
        assert "dealt" in await slash(fake, "alice", "table start")
        text = await reply(
            await fake.slash(
                fake.member("bob"), fake.channel, "table substitute", member=fake.member("erin")
            )
        )
        assert "consent" in text
        table = table_of(bot, fake)

        def consent_message():
            message = fake.messages_by_id.get(table.message_id)
            return (
                message
                if message
                and any(b.get("label") == "Consent to substitute" for b in message.buttons)
                else None
            )

        message = await eventually(consent_message)
        for name in ("alice", "carol", "dave"):
            await reply(await fake.click(fake.member(name), message, label="Consent to substitute"))
        erin = fake.member("erin")
        assert table.seat_of(erin.id) is None  # not seated before she accepts
        offer = await eventually(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if f"<@{erin.id}>" in m.content),
                None,
            )
        )
        took = await (await fake.click(erin, offer, label="Take the seat")).message()
        assert not took.ephemeral and "erin takes bob's seat" in took.text.lower()
        assert table.seat_of(erin.id) is not None
        assert table.flagged


async def test_bad_token_exits_with_code_2_and_a_message(tmp_path, monkeypatch, capsys):
    from bot.runner import run

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert run() == 2
    err = capsys.readouterr().err
    assert "discord.com/developers" in err and ".env" in err


async def test_a_wrong_token_exits_with_code_2_and_never_logs_the_token(fake_discord, tmp_path):
    import asyncio
    import os
    import sys

    env = {
        **os.environ,
        "DISCORD_TOKEN": "wrong.token.value",
        "DISCORD_API_BASE": fake_discord.api_base,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
        "DATABASE_PATH": str(tmp_path / "euchre.db"),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    text = (out + err).decode()
    assert "refused the token" in text and "Traceback" not in text
    assert "wrong.token.value" not in text
