"""The other games of the rule books played through the buttons by members at every seat, with
bad input at their turns and a restart in the middle: what QA found, each kept by a test."""

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
    member_at,
    running_bot,
    table_of,
)
from tests.bot.helpers import (
    variant_act_once as act_once,
)
from tests.support.fake_discord import FakeDiscord, FakeMember

pytest_plugins = ["tests.support.fixtures"]

# Members whose names a message must show as typed: markdown, a mention, 32 characters.
ODD_NAMES = ("**bold** _it_", "@everyone", "<@123> ||x||", "~" * 32, "`code`", "> quote")


def seat_members(fake: FakeDiscord, count: int) -> list[FakeMember]:
    members = [fake.member("alice")]
    members += [fake.add_member(fake.guild, name) for name in ODD_NAMES[: count - 1]]
    return members


async def private(fake: FakeDiscord, member: FakeMember, command: str, **options) -> str:
    message = await (await fake.slash(member, fake.channel, command, **options)).message()
    assert message.ephemeral, message.text
    return message.text


async def open_table(bot, fake: FakeDiscord, variant: str) -> list[FakeMember]:
    game = GAMES[variant]
    members = seat_members(fake, game["seats"])
    await private(fake, members[0], "table create", variant=variant, **game)
    for member in members[1:]:
        assert "You sit at" in await private(fake, member, "table join")
    assert "dealt" in await private(fake, members[0], "table start")
    return members


async def play(bot, fake: FakeDiscord, moves: int | None) -> None:
    table = table_of(bot, fake)
    made = 0
    while table.playing and (moves is None or made < moves):
        await act_once(bot, fake)
        made += 1


@pytest.mark.parametrize("variant", NAMES)
async def test_members_play_every_variant_to_its_end_across_a_restart_their_names_as_typed(
    fake_discord, tmp_path, variant: str
):
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await open_table(bot, fake, variant)
        await play(bot, fake, moves=3)
        assert table_of(bot, fake).playing
    async with running_bot(fake, db) as bot:
        await fake.wait_for(
            lambda: any("restored" in m.content for m in fake.public_messages(fake.channel)),
            what="the restored table's word",
        )
        await play(bot, fake, moves=None)
        await fake.wait_for(
            lambda: any(
                any(end in m.content for end in ENDS) for m in fake.public_messages(fake.channel)
            ),
            what="the game's result",
        )
        table = table_of(bot, fake)
        status = await bot.db.fetchval(
            "SELECT status FROM variant_games WHERE id = ?", (table.match_id,)
        )
        assert status == "finished"
        for member in fake.guild.members.values():
            if member.name in ODD_NAMES:
                history = await (await fake.slash(member, fake.channel, "history")).message()
                assert not history.ephemeral, history.text
                board = await (
                    await fake.slash(
                        member, fake.channel, "stats", variant=variant, include_bots=True
                    )
                ).message()
                assert not board.ephemeral, board.text
        assert not bot.handler_errors
    assert unescaped_names(fake) == []


def unescaped_names(fake: FakeDiscord) -> list[tuple[str, str]]:
    """Every (name, text) where a message showed one of the odd names raw, or notified anyone
    but through a mention of a seated member."""
    found = []
    for message in fake.messages:
        found += [(name, message.text) for name in ODD_NAMES if name in message.text]
        if "everyone" in message.notified or any("role" in str(n) for n in message.notified):
            found.append(("notified", message.text))
    return found


@pytest.mark.parametrize("variant", ["two-handed", "three-handed", "set-back"])
async def test_the_dealer_who_took_it_up_is_told_to_discard_when_he_passes_or_bids(
    fake_discord, tmp_path, variant: str
):
    """After taking up the turn-up the dealer puts out a card: a pass, an order, a named suit
    or a bid from him is refused saying so (not "you do not hold that card"), and changes
    nothing."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await open_table(bot, fake, variant)
        table = table_of(bot, fake)
        match = table.variant_match
        dealer = match.deal.dealer
        while match.to_act != dealer:
            await private(fake, member_at(bot, fake, match.to_act), "pass")
        assert "took it up" in await private(fake, member_at(bot, fake, dealer), "order")
        assert match.deal.phase == "discard" and match.to_act == dealer
        before = list(table.actions)
        for command, options in (
            ("pass", {}),
            ("order", {}),
            ("call", {"suit": "hearts"}),
            ("bid", {"tricks": 2}),
        ):
            refused = await private(fake, member_at(bot, fake, dealer), command, **options)
            assert "put out one of your own cards" in refused, refused
        assert "do not hold" in await private(
            fake, member_at(bot, fake, dealer), "discard", card=next(
                c for c in ("AS", "KS", "QS", "JS", "AH", "KH") if c not in match.deal.hands[dealer]
            )
        )  # fmt: skip
        assert list(table.actions) == before
        assert not bot.handler_errors


async def test_a_variant_board_without_computers_says_a_game_with_one_is_left_out(
    fake_discord, tmp_path
):
    """bob played a Napoleon game against alice and a computer: /history lists it, and
    /stats variant:napoleon said "No Napoleon game has been recorded here yet". It says that
    no game without computers counts (include_bots counts it), and with include_bots ranks
    him."""
    fake = fake_discord
    alice, bob = fake.member("alice"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await private(fake, alice, "table create", variant="napoleon", seats=3)
        await private(fake, bob, "table join")
        await private(fake, alice, "table addbot", level="standard")
        await private(fake, alice, "table start")
        table = table_of(bot, fake)
        while table.playing:
            seat = table.variant_match.to_act
            if seat is not None and not table.seats[seat].is_bot:
                await act_once(bot, fake)
            else:
                await asyncio.sleep(0.005)
        history = await (await fake.slash(bob, fake.channel, "history")).message()
        assert f"V{table.match_id}" in history.text
        board = await (await fake.slash(bob, fake.channel, "stats", variant="napoleon")).message()
        assert "has been recorded" not in board.text
        assert "No Napoleon game without computers or substitutes" in board.text, board.text
        counted = await (
            await fake.slash(bob, fake.channel, "stats", variant="napoleon", include_bots=True)
        ).message()
        assert "Rank " in counted.text and "bob" in counted.text
        assert not bot.handler_errors


async def refused_unchanged(bot, fake: FakeDiscord, member: FakeMember, command: str, **options):
    """A command a member may not make now: answered privately, the game as it was."""
    table = table_of(bot, fake)
    before = list(table.actions)
    text = await private(fake, member, command, **options)
    assert list(table.actions) == before, (command, options, text)
    return text


def not_held(table, seat: int) -> str:
    hand = table.variant_match.view_for(seat).deal.hand
    return next(c for c in table.variant.pack if c not in hand)


@pytest.mark.parametrize("variant", NAMES)
async def test_bad_input_at_each_variant_is_refused_privately_and_changes_nothing(
    fake_discord, tmp_path, variant: str
):
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await open_table(bot, fake, variant)
        table = table_of(bot, fake)
        match = table.variant_match
        to_act = member_at(bot, fake, match.to_act)
        waiting = member_at(bot, fake, (match.to_act + 1) % table.seat_count)
        for command, options in (("pass", {}), ("bid", {"tricks": 2}), ("order", {})):
            text = await refused_unchanged(bot, fake, waiting, command, **options)
            assert "not your turn" in text.lower()
        text = await refused_unchanged(bot, fake, to_act, "call", suit="purple")
        assert "Unknown suit" in text
        text = await refused_unchanged(bot, fake, to_act, "play", card="ZZ")
        assert "Unknown card" in text
        if match.deal.phase == "bidding":
            text = await refused_unchanged(bot, fake, to_act, "bid", tricks=6)
            assert "above five" in text
            suited = variant == "six-handed"
            text = await refused_unchanged(
                bot, fake, to_act, "bid", tricks=2, **({} if suited else {"suit": "hearts"})
            )
            assert ("names its trump suit" if suited else "names no suit") in text, text
            await private(fake, to_act, "bid", tricks=3, **({"suit": "hearts"} if suited else {}))
            after = member_at(bot, fake, match.to_act)
            text = await refused_unchanged(
                bot, fake, after, "bid", tricks=2, **({"suit": "spades"} if suited else {})
            )
            assert "higher than three" in text
        else:  # a turn-up: round one takes an order or a pass, no bid and no named suit
            assert "not open to you now" in await refused_unchanged(
                bot, fake, to_act, "bid", tricks=2
            )
            assert "not open to you now" in await refused_unchanged(
                bot, fake, to_act, "call", suit="spades"
            )
        # On to the play: a card the member does not hold is refused there too.
        while table.playing and match.deal.phase != "play":
            await act_once(bot, fake)
        # (Unless every other hand was thrown up at set-back: the bot plays the maker's cards.)
        if table.playing and match.deal.phase == "play" and not match.deal.unopposed:
            seat = match.to_act
            player = member_at(bot, fake, seat)
            text = await refused_unchanged(bot, fake, player, "play", card=not_held(table, seat))
            assert "do not hold" in text or "not open" in text, text
            if variant == "set-back":
                await act_once(bot, fake)  # the first lead: too late to throw up now
                if match.deal.phase == "play":
                    thrower = member_at(bot, fake, match.to_act)
                    await refused_unchanged(bot, fake, thrower, "pass")
        assert not bot.handler_errors
