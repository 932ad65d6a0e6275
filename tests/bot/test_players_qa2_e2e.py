"""The four-handed table as players live it, where they do what the table did not expect,
through the real bot and the fake Discord: a button answered after someone else changed the
table (closed it, replaced a request); a seat handed to a substitute while the players whose
consent it waited for leave or time out, or after its player left; old hands pressed once
the table closed or their player left; what a hand says in the second round; refusals to a
player who sits the hand out, or who typed a direction control."""

from __future__ import annotations

import asyncio

from bot.engine.actions import PASS, is_card, suit_called
from bot.engine.cards import SUIT_NAMES
from bot.engine.deal import DISCARD, ROUND_TWO
from bot.ui.views import deal_number
from tests.bot.helpers import (
    current_table_message,
    enabled_actions,
    eventually,
    member_at,
    running_bot,
    seat_four,
    start,
    table_of,
)

pytest_plugins = ["tests.support.fixtures"]


async def test_keep_it_open_on_a_table_closed_meanwhile_says_it_is_closed(fake_discord, tmp_path):
    """Alice asks to close the table and is asked to confirm; before she answers, a moderator
    closes it. Her "Keep it open" cannot keep it open: the answer says the table is closed,
    not that it stays open."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        alice, mod = fake.member("alice"), fake.member("mod")
        asked = await (await fake.slash(alice, fake.channel, "table close")).message()
        theirs = await (await fake.slash(mod, fake.channel, "table close")).message()
        await (await fake.click(mod, theirs, label="Close the table")).response()
        assert table_of(bot, fake) is None
        kept = await (await fake.click(alice, asked, label="Keep it open")).message()
        assert kept.ephemeral and kept.id == asked.id
        assert "already closed" in kept.text and "stays open" not in kept.text
        assert not kept.buttons
        assert not bot.handler_errors


async def seat_four_kept(fake) -> None:
    """Alice (north, the host), Bob (east), Carol (south) and Dave (west), as they sat down."""
    await seat_four(fake)
    alice = fake.member("alice")
    await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()


def offer_to(fake, member):
    """The public message offering `member` a seat, with its Take the seat button."""
    return next(
        (
            m
            for m in reversed(fake.public_messages(fake.channel))
            if f"<@{member.id}>" in m.content and "Take the seat" in str(m.buttons)
        ),
        None,
    )


async def ask_substitute(fake, table, holder, substitute) -> None:
    """`holder` names `substitute`, who takes the seat; every other player consents."""
    named = await fake.slash(holder, fake.channel, "table substitute", member=substitute)
    await named.response()
    offer = await fake.wait_for(lambda: offer_to(fake, substitute))
    await (await fake.click(substitute, offer, label="Take the seat")).response()
    for occupant in list(table.seats):
        if occupant and not occupant.is_bot and occupant.user_id != holder.id:
            message = await current_table_message(fake, table)
            consent = await fake.click(
                fake.guild.members[occupant.user_id], message, label="Consent to substitute"
            )
            await consent.response()


def live(fake, message):
    """A message as Discord holds it now."""
    return fake.messages_by_id[message.id]


def live_table_message(fake, table):
    return fake.messages_by_id[table.message_id]


async def quiet(fake, span: float = 0.3) -> None:
    """Until the bot has sent no request for `span` seconds (its edits are done)."""
    while True:
        sent = len(fake.requests)
        await asyncio.sleep(span)
        if len(fake.requests) == sent:
            return


def at_the_table(fake, table) -> str:
    """The "At the table" lines of the table message."""
    message = fake.messages_by_id[table.message_id]
    fields = message.embeds[0].get("fields", []) if message.embeds else []
    return next((f["value"] for f in fields if f["name"] == "At the table"), "")


async def test_a_second_substitute_of_the_rubber_is_named_as_the_one_who_took_the_seat(
    fake_discord, tmp_path
):
    """Erin took Bob's seat (east) earlier in the rubber; now Frank takes Carol's (south). The
    table says Carol handed her seat to Frank, not to Erin, who sits at another seat."""
    fake = fake_discord
    erin, frank = fake.add_member(fake.guild, "erin"), fake.add_member(fake.guild, "frank")
    bob, carol = fake.member("bob"), fake.member("carol")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four_kept(fake)
        table = table_of(bot, fake)
        await ask_substitute(fake, table, bob, erin)
        await eventually(lambda: table.seat_of(erin.id) == 1, what="Erin at east")
        await ask_substitute(fake, table, carol, frank)
        await eventually(lambda: table.seat_of(frank.id) == 2, what="Frank at south")
        said = await eventually(
            lambda: "carol handed" in at_the_table(fake, table) and at_the_table(fake, table),
            what="the table message to tell of Carol's substitute",
        )
        assert "carol handed the seat to frank" in said, said
        assert "carol handed the seat to erin" not in said
        assert not bot.handler_errors


async def test_a_substitute_waiting_only_for_a_player_who_leaves_takes_the_seat(
    fake_discord, tmp_path
):
    """Bob names Erin, who accepts; Alice and Carol consent, Dave has not when he leaves the
    table (a computer plays west). No consent is wanting any more: Erin sits at east at once,
    and the table says so, rather than every press of Consent answering "waiting for the
    other players" when there are none."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    alice, bob, carol, dave = (fake.member(n) for n in ("alice", "bob", "carol", "dave"))
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four_kept(fake)
        table = table_of(bot, fake)
        named = await fake.slash(bob, fake.channel, "table substitute", member=erin)
        await named.response()
        offer = await fake.wait_for(lambda: offer_to(fake, erin))
        took = await (await fake.click(erin, offer, label="Take the seat")).message()
        assert "once the other players consent" in took.text
        for member in (alice, carol):
            message = await current_table_message(fake, table)
            consent = await fake.click(member, message, label="Consent to substitute")
            await consent.response()
        assert table.seat_of(erin.id) is None and table.substitute_consenters() == [dave.id]
        left = await (await fake.slash(dave, fake.channel, "table leave")).message()
        assert "you left" in left.text.lower()
        assert table.seat_of(erin.id) == 1 and table.seats[1].substitute
        assert table.substitution is None
        said = await eventually(
            lambda: "bob handed" in at_the_table(fake, table) and at_the_table(fake, table),
            what="the table message to tell of Erin taking the seat",
        )
        assert "dave left" in said and "bob handed the seat to erin" in said, said
        message = await current_table_message(fake, table)
        assert "Consent to substitute" not in [b.get("label") for b in message.buttons]
        assert not bot.handler_errors


def labels(message) -> list[str]:
    return [str(b.get("label")) for b in message.buttons]


async def test_the_consent_button_is_shown_only_while_a_players_consent_is_awaited(
    fake_discord, tmp_path
):
    """Alice plays with Bob and two computers. While Bob's substitute waits for Alice, the
    table message offers "Consent to substitute"; once she has consented nobody is left to
    press it (every press would be refused), so it is gone, though the substitute has not yet
    taken the seat. At a table of one member and three computers it is never shown."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    alice, bob = fake.member("alice"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await (await fake.slash(alice, fake.channel, "table create")).response()
        await (await fake.slash(bob, fake.channel, "table join", seat="east")).response()
        for seat in ("south", "west"):
            await (await fake.slash(alice, fake.channel, "table addbot", seat=seat)).response()
        await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
        table = table_of(bot, fake)
        named = await fake.slash(bob, fake.channel, "table substitute", member=erin)
        await named.response()
        await fake.wait_for(lambda: offer_to(fake, erin))
        message = await eventually(
            lambda: (
                "Consent to substitute" in labels(live_table_message(fake, table))
                and live_table_message(fake, table)
            ),
            what="the Consent button",
        )
        await (await fake.click(alice, message, label="Consent to substitute")).response()
        assert table.substitution is not None and not table.substitute_consenters()
        await eventually(
            lambda: "Consent to substitute" not in labels(live_table_message(fake, table)),
            what="the Consent button to go once Alice consented",
        )
        assert table.seat_of(erin.id) is None  # she has not taken the seat yet
        assert not bot.handler_errors


async def test_no_consent_button_when_every_other_seat_is_a_computers(fake_discord, tmp_path):
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    alice = fake.member("alice")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await (await fake.slash(alice, fake.channel, "table create")).response()
        for seat in ("east", "south", "west"):
            await (await fake.slash(alice, fake.channel, "table addbot", seat=seat)).response()
        await (await fake.slash(alice, fake.channel, "table start", keep_seats=True)).response()
        table = table_of(bot, fake)
        message = await current_table_message(fake, table)
        edits = len(message.history)
        named = await fake.slash(alice, fake.channel, "table substitute", member=erin)
        await named.response()
        offer = await fake.wait_for(lambda: offer_to(fake, erin))
        assert "consent" not in offer.content.lower()  # the offer says none is needed
        # The table message is drawn again for the request (and not again after it).
        await fake.wait_for(lambda: len(live_table_message(fake, table).history) > edits)
        await quiet(fake)
        assert "Consent to substitute" not in labels(live_table_message(fake, table))
        await (await fake.click(erin, offer, label="Take the seat")).response()
        await eventually(lambda: table.seat_of(erin.id) == 0, what="Erin at north")
        assert not bot.handler_errors


def field(message, name: str) -> str:
    """The value of the embed field `name` of a message ("" when it has none)."""
    fields = message.embeds[0].get("fields", []) if message.embeds else []
    return next((f["value"] for f in fields if f["name"] == name), "")


async def test_the_hand_says_the_turn_up_was_turned_down_in_the_second_round(
    fake_discord, tmp_path
):
    """All four pass in the first round, each from the hand they opened: every hand, the one to
    act and those waiting, says the turn-up is turned down, as the table message does, not
    "turn-up J♥" as if it could still be ordered up."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        message = await current_table_message(fake, table)
        hands = {}
        for seat in range(4):
            member = member_at(bot, fake, seat)
            hands[seat] = await (await fake.click(member, message, label="My hand")).message()
        assert all("(turned down)" not in field(h, "Trump") for h in hands.values())
        for _ in range(4):
            seat = table.match.to_act
            passing = f"euchre:hand:{table.id}:{table.match_no}:1:pass"
            hand = await eventually(
                lambda seat=seat, passing=passing: (
                    passing in enabled_actions(live(fake, hands[seat])) and live(fake, hands[seat])
                ),
                what="the hand to offer its pass",
            )
            await (await fake.click(member_at(bot, fake, seat), hand, passing)).response()
        assert table.match.deal.phase == ROUND_TWO
        for seat in range(4):
            shown = await eventually(
                lambda seat=seat: (
                    live(fake, hands[seat]).text.count("passed") == 4 and live(fake, hands[seat])
                ),
                what="the hand to show the four passes",
            )
            assert field(shown, "Trump").endswith("(turned down)"), (seat, shown.text)
        assert not bot.handler_errors


async def test_naming_the_suit_turned_down_says_it_counted_as_a_pass(fake_discord, tmp_path):
    """In the second round the eldest names the suit turned down with /call: the rules take
    it as a pass (S.78), and the answer says so, rather than showing the hand as if the call
    had made trump."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        for _ in range(4):
            member = member_at(bot, fake, table.match.to_act)
            await (await fake.slash(member, fake.channel, "pass")).response()
        deal = table.match.deal
        assert deal.phase == ROUND_TWO
        eldest = deal.to_act
        down = SUIT_NAMES[deal.turn_up_suit]
        member = member_at(bot, fake, eldest)
        answer = await (await fake.slash(member, fake.channel, "call", suit=down)).message()
        assert answer.ephemeral
        assert f"{down.capitalize()} was turned down" in answer.content
        assert "counts as a pass" in answer.content and "you passed" in answer.content
        assert "Your hand" in answer.text  # the hand as it now is, below the words
        assert table.match.deal.trump is None and table.match.to_act == (eldest + 1) % 4
        assert table.actions[-1][0] == eldest
        assert not bot.handler_errors


async def test_a_seat_taken_after_its_player_left_is_said_handed_over_by_that_player(
    fake_discord, tmp_path
):
    """Bob names Erin and the others consent; Bob leaves before she answers, and a computer
    plays east. When Erin takes the seat, the table and the offer say Bob handed it to her:
    the computer that sat there meanwhile handed nothing over."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    bob = fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four_kept(fake)
        table = table_of(bot, fake)
        named = await fake.slash(bob, fake.channel, "table substitute", member=erin)
        await named.response()
        offer = await fake.wait_for(lambda: offer_to(fake, erin))
        for name in ("alice", "carol", "dave"):
            message = await current_table_message(fake, table)
            consent = await fake.click(fake.member(name), message, label="Consent to substitute")
            await consent.response()
        await (await fake.slash(bob, fake.channel, "table leave")).response()
        assert table.seats[1].is_bot
        await (await fake.click(erin, offer, label="Take the seat")).response()
        await eventually(lambda: table.seat_of(erin.id) == 1, what="Erin at east")
        assert "erin takes bob's seat (east)" in live(fake, offer).content
        said = await eventually(
            lambda: "handed the seat" in at_the_table(fake, table) and at_the_table(fake, table),
            what="the table message to tell of Erin taking the seat",
        )
        assert "bob handed the seat to erin" in said and "Computer" not in said.split("\n")[-1]
        assert not bot.handler_errors


async def open_hand_of_the_one_to_act(bot, fake):
    """The member to act presses My hand: (member, their hand message)."""
    table = table_of(bot, fake)
    member = member_at(bot, fake, table.match.to_act)
    message = await current_table_message(fake, table)
    return member, await (await fake.click(member, message, label="My hand")).message()


async def test_a_hand_from_before_a_restart_pressed_once_the_table_closed_says_so(
    fake_discord, tmp_path
):
    """A hand opened before a restart keeps its buttons (nothing follows it since). The table
    is closed after the restart: a press is answered that the table has closed, not that it
    "has moved on", and nothing else happens."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        member, hand = await open_hand_of_the_one_to_act(bot, fake)
    async with running_bot(fake, db) as bot:
        alice = fake.member("alice")
        asked = await (await fake.slash(alice, fake.channel, "table close")).message()
        await (await fake.click(alice, asked, label="Close the table")).response()
        assert table_of(bot, fake) is None
        stale = live(fake, hand)
        clicked = await fake.click(member, stale, enabled_actions(stale)[0])
        answer = await clicked.message()
        assert answer.ephemeral and answer.visible_to == member.id
        assert "That table has closed" in answer.text and "moved on" not in answer.text
        assert table_of(bot, fake) is None
        assert not bot.handler_errors


async def act_by_command(fake, member, table) -> None:
    """`member`, to act, passes if they may, else makes the first declaration or plays the
    first card open to them, by slash command."""
    legal = list(table.match.legal_actions())
    action = PASS if PASS in legal else legal[0]
    if action == PASS:
        handle = await fake.slash(member, fake.channel, "pass")
    elif is_card(action):
        discarding = table.match.deal.phase == DISCARD
        handle = await fake.slash(
            member, fake.channel, "discard" if discarding else "play", card=action
        )
    elif action.startswith("order"):
        handle = await fake.slash(member, fake.channel, "order")
    elif suit_called(action) is not None:
        suit = SUIT_NAMES[suit_called(action)]
        handle = await fake.slash(member, fake.channel, "call", suit=suit)
    else:
        handle = await fake.slash(member, fake.channel, "alone")
    await handle.response()


async def test_a_hand_of_an_earlier_deal_pressed_by_a_player_who_left_says_they_left(
    fake_discord, tmp_path
):
    """The player to act opens their hand, the bot restarts, they leave (a computer plays the
    seat) and the deal is played out. A press of their old hand's button, drawn for the deal
    before, tells them they no longer play at the table (not that the table "has moved on"),
    and nothing is played."""
    fake = fake_discord
    db = tmp_path / "euchre.db"
    async with running_bot(fake, db) as bot:
        await seat_four(fake)
        await start(fake)
        leaver, hand = await open_hand_of_the_one_to_act(bot, fake)
        assert enabled_actions(hand)
    async with running_bot(fake, db) as bot:
        table = table_of(bot, fake)
        await (await fake.slash(leaver, fake.channel, "table leave")).response()
        while deal_number(table) == 1:
            # The computers move at once after each member: wait for a member's turn.
            await eventually(
                lambda: deal_number(table) > 1 or not table.seats[table.match.to_act].is_bot,
                what="a member's turn, or the next deal",
            )
            if deal_number(table) == 1:
                await act_by_command(fake, member_at(bot, fake, table.match.to_act), table)
        assert deal_number(table) == 2
        stale = live(fake, hand)
        actions = len(table.actions)
        clicked = await fake.click(leaver, stale, enabled_actions(stale)[0])
        answer = await clicked.message()
        assert answer.ephemeral and "You no longer play at that table" in answer.text
        assert len(table.actions) == actions
        assert not bot.handler_errors


async def test_a_substitute_waiting_only_for_a_player_who_times_out_twice_takes_the_seat(
    fake_discord, tmp_path
):
    """As when Dave leaves, but he times out twice: a computer holds west, and gives no
    consent. Erin sits at east with that second time-out, and the table says so."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    alice, bob, carol, dave = (fake.member(n) for n in ("alice", "bob", "carol", "dave"))
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four_kept(fake)
        table = table_of(bot, fake)
        named = await fake.slash(bob, fake.channel, "table substitute", member=erin)
        await named.response()
        offer = await fake.wait_for(lambda: offer_to(fake, erin))
        await (await fake.click(erin, offer, label="Take the seat")).response()
        for member in (alice, carol):
            message = await current_table_message(fake, table)
            consent = await fake.click(member, message, label="Consent to substitute")
            await consent.response()
        timeouts = 0
        while timeouts < 2:
            if table.match.to_act == 3:  # Dave's turn
                await bot.manager.time_out_now(table)
                timeouts += 1
            else:
                await act_by_command(fake, member_at(bot, fake, table.match.to_act), table)
        assert table.seats[3].held_for == dave.id
        assert table.seat_of(erin.id) == 1 and table.substitution is None
        said = await eventually(
            lambda: "bob handed" in at_the_table(fake, table) and at_the_table(fake, table),
            what="the table message to tell of Erin taking the seat",
        )
        assert "dave timed out twice" in said and "bob handed the seat to erin" in said, said
        assert not bot.handler_errors


async def test_a_player_sitting_the_hand_out_is_told_so_not_to_wait_for_a_turn(
    fake_discord, tmp_path
):
    """The eldest orders it up alone: his partner sits this hand out. Whatever the partner
    tries with a card, /play or /discard, the answer says he sits the hand out (as /pass was
    told already), never "It is not your turn", a turn that will not come this deal. Nothing
    changes."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        eldest = table.match.to_act
        maker = member_at(bot, fake, eldest)
        await (await fake.slash(maker, fake.channel, "order", alone=True)).response()
        partner_seat = (eldest + 2) % 4
        assert partner_seat in table.match.deal.sitting_out
        partner = member_at(bot, fake, partner_seat)
        card = table.match.deal.hands[partner_seat][0]
        actions = len(table.actions)
        for command, options in (
            ("play", {"card": card}),
            ("discard", {"card": card}),
            ("pass", {}),
        ):
            answer = await (await fake.slash(partner, fake.channel, command, **options)).message()
            assert answer.ephemeral
            said = answer.text.lower()
            assert "you sit this hand out" in said or "you sit out this hand" in said, said
            assert "not your turn" not in answer.text.lower()
        assert len(table.actions) == actions
        assert not bot.handler_errors


async def test_the_table_message_counts_the_joker_in_the_pack_as_rules_does(fake_discord, tmp_path):
    """A modern table with the Joker plays 25 cards: the table message says so, as /rules
    does, not "24 cards ... with the Joker"."""
    fake = fake_discord
    alice = fake.member("alice")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake, joker=True)
        await start(fake)
        table = table_of(bot, fake)
        message = await current_table_message(fake, table)
        rules = await (await fake.slash(alice, fake.channel, "rules", topic="joker")).message()
        assert "(25 cards)" in rules.text
        described = message.embeds[0]["description"]
        assert "25 cards with the Joker" in described and "24 cards" not in described
        assert not bot.handler_errors


async def test_a_card_typed_with_a_direction_control_is_refused_the_right_way_round(
    fake_discord, tmp_path
):
    """`/play card:` typed with U+202E before it: the refusal quotes what was typed without
    the control, so the rest of the sentence is not shown right to left."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four(fake)
        await start(fake)
        table = table_of(bot, fake)
        member = member_at(bot, fake, table.match.to_act)
        answer = await (await fake.slash(member, fake.channel, "play", card="\u202ezz")).message()
        assert answer.ephemeral and "Unknown card “zz”" in answer.content
        assert "\u202e" not in answer.content
        assert not bot.handler_errors


async def test_consent_to_a_substitute_names_the_request_consented_to(fake_discord, tmp_path):
    """Bob asks Erin to take his seat; then Carol asks Frank to take hers, which replaces
    Bob's request (one waits at a time). Alice, who saw Bob's, presses Consent: the answer
    names what she consented to, Frank for Carol's seat, and what it waits for, rather than
    "You consent to the substitute"."""
    fake = fake_discord
    erin, frank = fake.add_member(fake.guild, "erin"), fake.add_member(fake.guild, "frank")
    alice, bob, carol = fake.member("alice"), fake.member("bob"), fake.member("carol")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four_kept(fake)
        table = table_of(bot, fake)
        for holder, substitute in ((bob, erin), (carol, frank)):
            named = await fake.slash(holder, fake.channel, "table substitute", member=substitute)
            await named.response()
            await fake.wait_for(lambda substitute=substitute: offer_to(fake, substitute))
        message = await current_table_message(fake, table)
        consent = await fake.click(alice, message, label="Consent to substitute")
        said = (await consent.message()).text
        assert "frank taking carol's seat (south)" in said, said
        assert "waiting for frank to take the seat and the other players to consent" in said
        offer = offer_to(fake, frank)
        await (await fake.click(frank, offer, label="Take the seat")).response()
        message = await current_table_message(fake, table)
        dave = fake.member("dave")
        last = await (await fake.click(dave, message, label="Consent to substitute")).message()
        assert "waiting for the other players to consent" in last.text, last.text
        message = await current_table_message(fake, table)
        consent = await fake.click(bob, message, label="Consent to substitute")
        seated = (await consent.message()).text
        assert "You consent: frank takes carol's seat (south)" in seated, seated
        assert table.seat_of(frank.id) == 2
        assert not bot.handler_errors


async def test_a_member_named_substitute_whom_the_host_removes_takes_no_seat(
    fake_discord, tmp_path
):
    """Erin waits in line; Bob names her his substitute; Alice, the host, removes her from the
    table. The request naming her is withdrawn, and the table says so; her offer loses its
    Take the seat, which would seat her no more than any removed member."""
    fake = fake_discord
    erin = fake.add_member(fake.guild, "erin")
    alice, bob = fake.member("alice"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await seat_four_kept(fake)
        table = table_of(bot, fake)
        await (await fake.slash(erin, fake.channel, "table join")).response()
        assert table.is_waiting(erin.id)
        named = await fake.slash(bob, fake.channel, "table substitute", member=erin)
        await named.response()
        offer = await fake.wait_for(lambda: offer_to(fake, erin))
        await (await fake.slash(alice, fake.channel, "table kick", member=erin)).response()
        assert table.substitution is None and not table.is_waiting(erin.id)
        said = await eventually(
            lambda: "erin was removed" in at_the_table(fake, table) and at_the_table(fake, table),
            what="the table message to tell of Erin's removal",
        )
        assert "bob's request that they take east is withdrawn" in said, said
        # Her offer loses its Take the seat: there is no button left to seat her.
        await fake.wait_for(lambda: not live(fake, offer).buttons, what="the offer's buttons to go")
        assert table.seat_of(erin.id) is None and table.seat_of(bob.id) == 1
        assert not bot.handler_errors
