"""The four-handed table as players live it, through the real bot and the fake Discord (round
6): a table of single games (the jerome and modern presets) named as such to the members who
join it, hand their seat over, make room at the next game or close it, not as a rubber; a
dealer stuck with stick the dealer told to name a suit, not to pass; and hands opened once
that show, through a whole game with the Joker and every kind of lone hand, their holder's
cards and exactly the actions open."""

from __future__ import annotations

import random

from tests.bot.helpers import (
    current_table_message,
    enabled_actions,
    eventually,
    member_at,
    running_bot,
    table_of,
)
from tests.bot.test_players_qa2_e2e import at_the_table, offer_to
from tests.bot.test_table_life_e2e import hand_buttons, live, open_hands, seat_and_start

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


def _hand_problems(table, seat: int, message) -> list[str]:
    """What a live hand shows wrong for `seat`: other cards than its holder's, a button
    enabled that is not a legal action of the turn, or a legal one missing."""
    _, view = table.view_for(table.seats[seat].user_id)
    deal = view.deal
    if view.over:
        return [] if not enabled_actions(message) else ["buttons once the match is over"]
    codes = [b["custom_id"].split(":", 5)[5] for b in message.buttons]
    problems = []
    if sorted(c for c in codes if c in (deal.hand or ())) != sorted(deal.hand or ()):
        problems.append(f"cards {codes}, hand {deal.hand}")
    enabled = sorted(a.split(":", 5)[5] for a in hand_buttons(message, table))
    wanted = sorted(deal.legal) if deal.to_act == seat else []
    if enabled != wanted:
        problems.append(f"enabled {enabled}, legal {wanted}")
    if ("Your turn" in message.text) != (deal.to_act == seat):
        problems.append("the turn shown wrong")
    return problems


async def test_hands_opened_once_show_their_holders_cards_and_the_legal_buttons_throughout(
    fake_discord, tmp_path
):
    """A game with the Joker, lone hands taken from a partner and defended alone, played from
    hands each member opened once, choosing at random: once the hands are drawn after each
    action, every one shows its holder's cards alone and, to the member to act, exactly the
    actions open (none to the others)."""
    fake = fake_discord
    rng = random.Random(1)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(
            fake, preset="modern", points=5, joker=True, partner_alone=True, defend_alone=True
        )
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)

        def drawn():
            return all(
                bot.live_hands.shows_now(table, table.seats[s].user_id, hands[s].id)
                for s in range(4)
            )

        actions = 0
        while table.playing:
            await eventually(drawn, what="every hand drawn for the table as it stands")
            for seat, message in hands.items():
                shown = live(fake, message)
                assert not _hand_problems(table, seat, shown), (seat, shown.text)
            seat = table.match.to_act
            hand = live(fake, hands[seat])
            clicked = await fake.click(
                member_at(bot, fake, seat), hand, rng.choice(hand_buttons(hand, table))
            )
            await clicked.response()
            actions += 1
            assert actions < 1000
        assert not bot.handler_errors


async def test_a_dealer_stuck_in_the_second_round_is_told_to_name_a_suit_not_to_pass(
    fake_discord, tmp_path
):
    """Modern sticks the dealer: when the other three pass in the second round he must name a
    suit, and his hand offers no Pass. His hand, the table message's turn and his ping all
    said "second round: name a suit or pass"; /pass then told him he could not."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", timers=True) as bot:
        await seat_and_start(fake, preset="modern", ping="every turn")
        table = table_of(bot, fake)
        hands = await open_hands(bot, fake)
        for _ in range(7):  # everyone passes in the first round, and all but the dealer next
            seat = table.match.to_act
            hand = await eventually(
                lambda seat=seat: (
                    hand_buttons(live(fake, hands[seat]), table) and live(fake, hands[seat])
                ),
                what="the hand of the member to act",
            )
            passing = next(b for b in hand_buttons(hand, table) if b.endswith(":pass"))
            await (await fake.click(member_at(bot, fake, seat), hand, passing)).response()
        assert table.match.to_act == table.match.deal.dealer
        dealer = member_at(bot, fake, table.match.deal.dealer)
        hand = await eventually(
            lambda: (
                "Your turn" in live(fake, hands[table.match.deal.dealer]).text
                and live(fake, hands[table.match.deal.dealer])
            ),
            what="the dealer's hand to show his turn",
        )
        assert "pass" not in [b.split(":", 5)[5] for b in hand_buttons(hand, table)]
        stuck = "second round: the dealer must name a suit (stick the dealer)"
        assert stuck in hand.text and "name a suit or pass" not in hand.text, hand.text
        message = await eventually(
            lambda: stuck in (m := fake.messages_by_id[table.message_id]).text and m,
            what="the table message's turn line",
        )
        assert "name a suit or pass" not in message.text
        ping = await eventually(
            lambda: next(
                (
                    m
                    for m in fake.public_messages(fake.channel)
                    if f"<@{dealer.id}>, it is your turn" in m.content and not m.deleted
                ),
                None,
            ),
            what="the dealer's ping",
        )
        assert stuck in ping.content, ping.content
        assert not bot.handler_errors


async def test_a_member_making_room_at_a_table_of_single_games_sits_out_a_game(
    fake_discord, tmp_path
):
    """Five belong to a table of single games: at the next game the one who played the most
    in a row makes room (S.15). The cut said they sat out this rubber, having played the most
    rubbers in a row: there are none at this table."""
    fake = fake_discord
    rng = random.Random(2)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_and_start(fake, preset="modern", points=1)
        table = table_of(bot, fake)
        await (
            await fake.slash(fake.add_member(fake.guild, "erin"), fake.channel, "table join")
        ).response()
        hands = await open_hands(bot, fake)
        while table.playing:
            seat = table.match.to_act
            hand = await eventually(
                lambda seat=seat: (
                    hand_buttons(live(fake, hands[seat]), table) and live(fake, hands[seat])
                ),
                what="the hand of the member to act",
            )
            choice = rng.choice(hand_buttons(hand, table))
            await (await fake.click(member_at(bot, fake, seat), hand, choice)).response()
        await (await fake.slash(fake.member("alice"), fake.channel, "table start")).response()
        cut = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if "sits out this" in m.text), None
            )
        )
        assert "sits out this game: has played the most games in a row" in cut.text, cut.text
        assert "rubber" not in cut.text
        assert not bot.handler_errors
