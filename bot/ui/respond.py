"""Answering members: the flows slash commands and buttons share.

A domain error (`EuchreError`) raised here propagates to the cog's error handler, which answers
it ephemerally; so these functions only write the happy path and the stale-button case.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.actions import ORDER, ORDER_ALONE, PASS, is_call, is_declaration, suit_called
from bot.engine.cards import SUIT_NAMES
from bot.engine.deal import (
    DEFEND_ALONE,
    DISCARD,
    JOKER_SUIT,
    PARTNER_ALONE,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
)
from bot.engine.errors import EuchreError
from bot.engine.variants import VariantDeal
from bot.numbers import SQLITE_MAX
from bot.storage import tables as store
from bot.tables.manager import Change, TableManager
from bot.tables.table import SEAT_NAMES, NotAtThisTable, Table, TableError
from bot.ui import coach, variant_views
from bot.ui.embeds import hand_embed, review_embed, safe, sits_out_text
from bot.ui.errors import fit_content, reason_of
from bot.ui.live_hands import state_key
from bot.ui.views import close_view, deal_number, hand_view

if TYPE_CHECKING:
    from bot.client import EuchreBot

log = logging.getLogger(__name__)

STALE = "That button belongs to an earlier deal or table. Here is your hand as it is now."
# A hand's button of a table at which the member no longer plays.
NOT_SEATED = "You no longer play at that table: this button is no longer in use."
HELD = "A computer is holding your seat: use /table back to take it again."
NOTHING_TO_DISCARD = (
    "There is nothing to discard now: that button was drawn for the discard, and the discard is"
    " made. Nothing was played. Here is your hand as it is now."
)
TIMED_OUT = (
    "Time ran out on your turn: a computer made that move for you, and this click was drawn"
    " for it, so it played nothing. Here is your hand as it is now."
)

# Where the deal stands before the first card, said to a member who tries to play or discard.
_BEFORE_THE_PLAY = {
    JOKER_SUIT: "The Joker is turned up: the dealer names the suit it stands for, then the bidding begins.",
    ROUND_ONE: "The bidding is on: no card is {verb} until trump is made.",
    ROUND_TWO: "The bidding is on: no card is {verb} until trump is made.",
    PARTNER_ALONE: (
        "Trump is made and the maker's partner may take it alone or play with partner: the play"
        " has not begun."
    ),
    DEFEND_ALONE: "A lone hand is declared and its adversaries may defend alone: the play has not begun.",
}
# To a maker alone his partner's pass is no playing with partner: it sits him out (RULES §4).
_BEFORE_A_LONE_MAKER = (
    "Trump is made by a lone hand, and the maker's partner may take it from him alone or let him"
    " play alone: the play has not begun."
)


def _command_of(declaration: str) -> str:
    """The slash command that makes a declaration (`call:H:alone` is /call)."""
    if declaration == PASS:
        return "/pass"
    if declaration in (ORDER, ORDER_ALONE):
        return "/order"
    if is_call(declaration):
        return "/call"
    return "/alone"  # alone, or defend alone


def _commands_open(legal: tuple[str, ...]) -> str:
    """The slash commands that make the declarations open now: `/pass or /order`."""
    names = list(dict.fromkeys(_command_of(a) for a in legal))
    if len(names) < 2:
        return names[0] if names else "/hand"
    return ", ".join(names[:-1]) + " or " + names[-1]


def phase_refusal(table: Table, user_id: int, action: str, verb: str = "played") -> str | None:
    """Why a seated member's action belongs to another part of the deal, or None.

    The engine reads whatever is not a declaration during the play as a card, so without
    this `/pass` in the play was answered "unknown card 'pass'", and a card during the
    bidding "'JH' is not a declaration open to you now". Said for every seated member (the
    phase is the same for all), with what they can do instead; and to a member who sits this
    hand out, whatever they try. Whatever else is wrong (not seated, no game, not their turn
    in the same phase) is left to the manager and the engine.

    Args:
        table: the channel's table.
        user_id: the member acting.
        action: an action code: a declaration (`pass`, `call:H:alone`) or a card (`JH`).
        verb: what the member meant to do with a card: `played`, or `discarded` (/discard).

    Returns:
        The answer to give the member (nothing is to change), or None to go on and act.
    """
    match = table.match
    seat = table.seat_of(user_id)
    if match is None or not table.playing or seat is None:
        return None
    deal = match.deal
    out = seat in deal.sitting_out
    if not deal.out_of_phase(action):
        if out and deal.to_act != seat:
            # Never their turn this deal: "It is not your turn" would have them wait for it.
            return sits_out_text(deal, seat)
        return None  # the engine says whether it is legal, and whose turn it is
    mine = deal.to_act == seat
    if is_declaration(action):
        if deal.phase == PLAY:
            head, command = "The bidding is over: it's the play now", "/play"
        else:
            head, command = "Trump is made: the dealer discards now", "/discard"
        if out:
            return f"{head}, and you sit out this hand."
        if mine:
            return f"{head}. Use {command} or the buttons in /hand."
        if deal.phase == PLAY:
            return f"{head}. Wait for your turn, then use /play or the buttons in /hand."
        return f"{head}. Wait for your turn."
    before = _BEFORE_THE_PLAY[deal.phase]
    if deal.phase == PARTNER_ALONE and deal.alone is not None:
        before = _BEFORE_A_LONE_MAKER
    before = before.format(verb=verb)
    if out:
        return f"{before} You sit out this hand."
    if mine:
        return (
            f"{before} Use {_commands_open(tuple(deal.legal_actions()))}, or the buttons in /hand."
        )
    return f"{before} Wait for your turn."


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server a command was used in (every command of the bot is used in one)."""
    if interaction.guild_id is None:
        raise TableError("this works in a server, not in direct messages")
    return interaction.guild_id


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel (or thread) a command or click was used in: where its table is."""
    if interaction.channel_id is None:
        raise TableError("this works in a server's channel, not in direct messages")
    return interaction.channel_id


def manager_of(interaction: discord.Interaction) -> TableManager:
    return _bot(interaction).manager


def _bot(interaction: discord.Interaction) -> EuchreBot:
    return interaction.client  # type: ignore[return-value]


async def answer(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    text = fit_content(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def hand_message(
    bot: EuchreBot, table: Table, user_id: int
) -> tuple[tuple[Any, ...], discord.Embed, discord.ui.View]:
    """A member's hand as it stands, drawn under the table's lock, so it never shows an
    action that is not yet stored.

    Returns:
        (the table's state it shows, the embed, the buttons).

    Raises:
        TableError: the member holds no seat here, or the table has closed.
    """
    manager = bot.manager
    async with manager.lock_for(table):
        if table.status == "closed":
            why = f" ({table.close_reason})" if table.close_reason else ""
            raise TableError(f"the table has closed{why}")
        with bot.card_looks.drawn_for(user_id):
            if table.variant is not None:
                seat, played = table.variant_view_for(user_id)
                return (
                    state_key(table),
                    variant_views.hand_embed(table, seat, played),
                    variant_views.hand_view(table, seat, played),
                )
            seat, view = table.view_for(user_id)
            return state_key(table), hand_embed(table, seat, view), hand_view(table, seat, view)


def private_message(interaction: discord.Interaction) -> bool:
    """Whether the message a click came from is one only the member sees: only such a message
    (a hand, a question asked of them) may be redrawn in answer. A hand drawn over a public
    message, as a click with a hand-made id on the table message would have it, shows the
    member's cards to the channel."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def show_hand(
    interaction: discord.Interaction, table: Table, edit: bool = False, note: str | None = None
) -> None:
    """The member's own hand, ephemeral; it becomes their live hand, which follows the game.

    A click from the hand edits that same message (with the click's fresh token); a command
    or the My hand button answers with a new one, and the hand shown before is closed.
    """
    bot = _bot(interaction)
    try:
        shown, message_id = await _send_hand(interaction, table, edit, note)
    except discord.HTTPException as error:
        if not bot.card_emojis.picture_refused(error):
            raise
        # A card's emoji is gone (deleted, or replaced by another process of the bot): the
        # hand is drawn again, its cards as text now, and a refused answer was never sent.
        shown, message_id = await _send_hand(interaction, table, edit, note)
    old = bot.live_hands.follow(
        table, interaction.user.id, interaction, message_id, shown, note=note
    )
    if old is not None:
        await bot.live_hands.close_old(old)


async def _send_hand(
    interaction: discord.Interaction, table: Table, edit: bool, note: str | None
) -> tuple[tuple[Any, ...], int | None]:
    """Answer with the member's hand (see `show_hand`): the state it shows, and its message."""
    shown, embed, buttons = await hand_message(_bot(interaction), table, interaction.user.id)
    message_id: int | None
    if edit and not interaction.response.is_done() and private_message(interaction):
        await interaction.response.edit_message(content=note, embed=embed, view=buttons)
        message_id = interaction.message.id if interaction.message else None
    elif interaction.response.is_done():
        sent = await interaction.followup.send(
            content=note or discord.utils.MISSING,
            embed=embed,
            view=buttons,
            ephemeral=True,
            wait=True,
        )
        message_id = sent.id
    else:
        response = await interaction.response.send_message(
            content=note, embed=embed, view=buttons, ephemeral=True
        )
        message_id = response.message_id
    return shown, message_id


async def act(
    interaction: discord.Interaction,
    action: str,
    *,
    drawn_for: tuple[int, int, int] | None = None,
    verb: str = "played",
) -> None:
    """Make a declaration or play a card, then show the hand as it now is.

    Args:
        drawn_for: for a click on a hand's button, the (table, match, deal) it was drawn for;
            a button of another table, match or deal is stale and changes nothing.
        verb: what a card is for, said when it comes in the wrong part of the deal:
            `played`, or `discarded` (/discard).
    """
    manager = manager_of(interaction)
    table = manager.tables.get(channel_id_of(interaction))
    from_hand = drawn_for is not None
    if drawn_for is not None and (
        table is None or drawn_for != (table.id, table.match_no, deal_number(table))
    ):
        if table is None or table.id != drawn_for[0]:
            await answer(
                interaction,
                await gone_text(interaction, drawn_for[0], ": this button is no longer in use."),
            )
            return
        if table.seat_of(interaction.user.id) is None:
            held = table.held_seat_of(interaction.user.id) is not None
            await answer(interaction, HELD if held else NOT_SEATED)
            return
        await show_hand(interaction, table, edit=True, note=STALE)
        return
    if table is None:
        raise NotAtThisTable("there is no table in this channel: start one with /table create")
    if from_hand and _played_for_meanwhile(interaction, table):
        # Read as a move of the turn now, the click would make one the member never chose (a
        # card meant for the trick the computer finished, led to the next).
        await show_hand(interaction, table, edit=True, note=TIMED_OUT)
        return
    if from_hand and verb == "discarded" and _discard_made(table):
        # The code of a card is the same to discard and to play: a Discard button left on an
        # older hand message must not play the card once the discard is made.
        await show_hand(interaction, table, edit=True, note=NOTHING_TO_DISCARD)
        return
    refusal = phase_refusal(table, interaction.user.id, action, verb)
    if refusal is not None:
        if from_hand:
            # A hand shown earlier in the deal: show it as it is now, with why.
            await show_hand(interaction, table, edit=True, note=refusal)
            return
        raise TableError(refusal)
    passes = names_the_suit_turned_down(table, interaction.user.id, action)
    try:
        # The position checked above: if the turn times out while this waits for the table,
        # the move is refused rather than made in the position the computer's move left.
        change = await manager.act(
            channel_id_of(interaction), interaction.user.id, action, seen=table.position
        )
    except EuchreError as error:
        if not from_hand or table.seat_of(interaction.user.id) is None:
            raise
        # A hand the bot no longer kept up to date (opened before a restart, or its token ran
        # out) still offers the turn it was drawn for: show it as it is now, with why (the
        # turn timed out as the click came, too).
        why = TIMED_OUT if _played_for_meanwhile(interaction, table) else reason_of(error)
        await show_hand(interaction, table, edit=True, note=fit_content(why or ""))
        return
    await show_hand(interaction, table, edit=from_hand, note=passes)
    await _bot(interaction).table_messages.table_changed(change)


def names_the_suit_turned_down(table: Table, user_id: int, action: str) -> str | None:
    """What a member who names the suit turned down in the second round is told: the engine
    takes it as their pass (S.78, J.6), so without a word they would see their hand and
    wonder where their trump went. None for any other action."""
    match = table.match
    seat = table.seat_of(user_id)
    if match is None or not table.playing or seat is None:
        return None
    deal = match.deal
    suit = suit_called(action)
    if deal.phase != ROUND_TWO or deal.to_act != seat or suit != deal.turn_up_suit:
        return None
    assert suit is not None  # a call, of the suit turned down
    return (
        f"{SUIT_NAMES[suit].capitalize()} was turned down, so naming it counts as a pass"
        " (S.78): you passed."
    )


def _played_for_meanwhile(interaction: discord.Interaction, table: Table) -> bool:
    """Whether a click comes from a hand drawn before the member's turn timed out: a computer
    made their last move (they have not acted since), and the hand clicked is not the one
    drawn for the table as it stands (its buttons are of the turn that timed out)."""
    seat = table.seat_of(interaction.user.id)
    if seat is None or not table.playing or not table.timeouts[seat]:
        return False
    message_id = interaction.message.id if interaction.message else None
    return not _bot(interaction).live_hands.shows_now(table, interaction.user.id, message_id)


def _discard_made(table: Table) -> bool:
    """Whether the deal in play is past its discard (a button drawn for it is old)."""
    match = table.any_match
    return match is not None and table.playing and match.deal.phase != DISCARD


async def _place_of(interaction: discord.Interaction, table_id: int) -> store.TablePlace | None:
    """Where table `table_id` of this server plays, and whether it is open (None: this server
    has no such table). The tables this process holds answer first; the stored ones next."""
    guild_id = interaction.guild_id
    for table in list(manager_of(interaction).tables.values()):
        if table.id == table_id and table.guild_id == guild_id:
            return store.TablePlace(table.channel_id, True)
    if guild_id is None or table_id > SQLITE_MAX:  # a number no table's id can be
        return None
    return await store.table_place(_bot(interaction).db, guild_id, table_id)


def _why_closed(place: store.TablePlace | None) -> str:
    """` (closed by the host)`: why a closed table closed, as its channel was told."""
    if place is None or place.open or not place.close_reason:
        return ""
    return f" ({place.close_reason})"


async def gone_text(interaction: discord.Interaction, table_id: int, then: str) -> str:
    """What a button of table `table_id` is answered where that table is not: the channel
    where it plays, when it is open in another; else that it closed and why (its host closed
    it, everyone left, it was idle...), then `then` (what the button is now)."""
    place = await _place_of(interaction, table_id)
    if place is not None and place.open and place.channel_id != interaction.channel_id:
        return f"That table plays in <#{place.channel_id}>: use its buttons there."
    return f"That table has closed{_why_closed(place)}{then}"


async def table_button(
    interaction: discord.Interaction, table_id: int, what: str, number: int | None = None
) -> None:
    """Clicks on the public table message's buttons (`number`: the substitute's request a
    Consent to substitute button was drawn for)."""
    manager = manager_of(interaction)
    table = manager.tables.get(channel_id_of(interaction))
    if table is None or table.id != table_id:
        await answer(
            interaction,
            await gone_text(interaction, table_id, ": start a new one with /table create."),
        )
        return
    listener = _bot(interaction).table_messages
    if what == "hand":
        if table.seat_of(interaction.user.id) is None:
            held = table.held_seat_of(interaction.user.id) is not None
            said = "Only the players seated at this table have a hand to see."
            if table.is_waiting(interaction.user.id):
                words = table.waiting_words()
                said = words[:1].upper() + words[1:] + "."
            await answer(interaction, HELD if held else said)
            return
        await show_hand(interaction, table)
    elif what == "join":
        change = await manager.join(
            channel_id_of(interaction), interaction.user.id, interaction.user.display_name
        )
        await answer(interaction, joined_text(change.table, interaction.user.id))
        await listener.table_changed(change)
    elif what == "start":
        change = await manager.start(channel_id_of(interaction), interaction.user.id)
        await answer(interaction, started_text(change.table))
        await listener.table_changed(change)
    elif what == "consent":
        # Named in the answer: the button does not say which request it consents to, and a
        # newer request (another player's) may have replaced the one the member saw.
        asked = table.substitution
        holding = table.seats[asked.seat] if asked is not None else None
        holder = safe(
            (asked.asked_by if asked else None) or (holding.name if holding else "a player")
        )
        change = await manager.consent(channel_id_of(interaction), interaction.user.id, number)
        async with manager.lock_for(table):  # drawn from stored state
            text = consented_text(change, holder)
        await answer(interaction, text)
        await listener.table_changed(change)


async def substitute_answer(
    interaction: discord.Interaction, drawn_for: tuple[int, int, int, int], accept: bool
) -> None:
    """The named substitute's Take the seat or Decline, on the message that asked them.

    Args:
        drawn_for: the (table, match, request, member asked) the button was drawn for: only
            that member may answer, and a button of a closed table, a rubber over or a request
            answered or replaced changes nothing.
    """
    table_id, match_no, number, asked = drawn_for
    if interaction.user.id != asked:
        await answer(
            interaction,
            "Only the member this seat was offered to can answer: the buttons are theirs.",
        )
        return
    manager = manager_of(interaction)
    table = manager.tables.get(channel_id_of(interaction))
    if table is None or table.id != table_id:
        await answer(
            interaction,
            await gone_text(interaction, table_id, ", so its seat is no longer offered."),
        )
        return
    if interaction.message is None or interaction.message.id == table.message_id:
        # The answer is drawn over the offer's message: on the table's message (a hand-made
        # request) it would take the table's place and its buttons.
        await answer(interaction, "That button answers the offer of a seat: use it there.")
        return
    change = await manager.answer_substitute(
        channel_id_of(interaction), interaction.user.id, match_no, number, accept
    )
    assert change.seat is not None
    async with manager.lock_for(table):  # drawn from stored state
        seat = table.seat_label(change.seat)
        span = table.match_word
        occupant = table.seats[change.seat]
        at = safe(occupant.name) if occupant is not None else "a player"
    listener = _bot(interaction).table_messages
    if change.note in ("declined", "seated"):  # the offer is redrawn below, without buttons
        listener.offer_answered(table, interaction.message.id if interaction.message else None)
    if change.note == "declined":  # the table is told, on the message that asked
        named = safe(change.who or "the member asked")
        await interaction.response.edit_message(
            content=fit_content(f"{named} declined to take {at}'s seat ({seat})."), view=None
        )
    elif change.note == "seated":
        left = safe(change.who or "a player")
        await interaction.response.edit_message(
            content=fit_content(f"{at} takes {left}'s seat ({seat}) for the rest of the {span}."),
            view=None,
        )
        await answer(
            interaction,
            f"You play {seat} now. Press **My hand** (or use /hand) to see your hand.",
        )
    else:
        await answer(
            interaction,
            f"You accepted: you take {seat} once the other players consent.",
        )
    await listener.table_changed(change)


def consented_text(change: Change, holder: str) -> str:
    """What a member who consents to a substitute is told: to whom, for whose seat, and what
    the request waits for now (or that the substitute sits)."""
    table = change.table
    span = table.match_word
    handed = change.handed
    if handed is not None:
        sub = table.seats[handed.seat]
        name = safe(sub.name) if sub is not None else "the substitute"
        seat = table.seat_label(handed.seat)
        return f"You consent: {name} takes {holder}'s seat ({seat}) for the rest of the {span}."
    asked = table.substitution
    if asked is None:  # answered meanwhile
        return "You consent to the substitute."
    name = safe(asked.name)
    waits = [] if asked.accepted else [f"{name} to take the seat"]
    if table.substitute_consenters():
        waits.append("the other players to consent")
    return (
        f"You consent to {name} taking {holder}'s seat ({table.seat_label(asked.seat)}) for"
        f" the rest of the {span}: waiting for {' and '.join(waits)}."
    )


def started_text(table: Table) -> str:
    """To the host who started: whether cards were cut (for partners, or for who plays), and
    where to see one's hand. Seats kept as they are, and the other games, cut nothing."""
    done = "The cards are cut and dealt." if table.last_cut else "The cards are dealt."
    return done + " Press My hand (or use /hand) to see yours: it then follows the game."


def joined_text(table: Table, user_id: int) -> str:
    """What a member who joined is told: where they sit, and whether the cut decides."""
    seat = table.seat_of(user_id)
    members = len(table.members)
    if table.variant is not None:
        if table.playing:
            return "A game is being played: you wait in line and play from the next one."
        if seat is not None:
            return f"You sit at {table.seat_label(seat)}."
        return "The seats are full: you wait in line for the next game."
    match = table.match_word
    if table.playing:
        return f"A {match} is being played: you wait in line and play from the next one (S.15)."
    if members > 4:
        count = {5: "Five", 6: "Six"}.get(members, str(members))
        cut = (
            f"{count} belong to the table now, so when the host starts, everyone cuts and the "
            "four highest play (S.11)."
        )
        if seat is not None:
            return f"You sit at {SEAT_NAMES[seat]} for now. {cut}"
        return f"The four seats are taken: you wait in line. {cut}"
    if seat is not None:
        return f"You sit at {SEAT_NAMES[seat]}."
    return f"The seats are full: you wait in line for the next {match}."


async def review(
    interaction: discord.Interaction, table_id: int, match_no: int, number: int
) -> None:
    """A finished deal of this table's match, every card, privately to whoever asks."""
    manager = manager_of(interaction)
    table = manager.tables.get(channel_id_of(interaction))
    if table is None or table.id != table_id:
        await answer(interaction, await _elsewhere(interaction, table_id))
        return
    async with manager.lock_for(table):
        match = table.any_match
        dealt = len(match.deals) if match is not None and table.match_no == match_no else 0
        deal = match.deals[number - 1] if match is not None and 0 < number <= dealt else None
        embed = None
        if deal is not None and deal.is_over:
            with _bot(interaction).card_looks.drawn_for(interaction.user.id):
                if isinstance(deal, VariantDeal):
                    embed = variant_views.review_embed(table, number, deal)
                else:
                    embed = review_embed(table, number, deal)
    if embed is None:
        if table.match_no > match_no > 0:
            text = "That deal is from an earlier match at this table: /history and /record have it."
        elif table.match_no != match_no:
            text = (
                f"This table has played no match {match_no}: the match now is match"
                f" {table.match_no}."
                if table.match_no
                else f"This table has played no match {match_no}: none has started yet."
            )
        elif deal is not None:
            text = "That deal is not over yet."
        elif dealt == 0:
            text = "No deal has been dealt in this match yet."
        else:
            text = (
                f"There is no deal {number} in this match: its deals are numbered 1 to {dealt}."
                if dealt > 1
                else f"There is no deal {number} in this match: it has one deal so far, deal 1."
            )
        await answer(interaction, text)
        return
    await interaction.response.send_message(embed=embed, ephemeral=True)
    with _bot(interaction).card_looks.drawn_for(interaction.user.id):
        await coach.send_grades(interaction, manager, table, match_no, number)


async def _elsewhere(interaction: discord.Interaction, table_id: int) -> str:
    """Why a deal of table `table_id` is not reviewed here: the table plays in another channel
    of this server, it has closed (and why, as its other buttons say), or this server has no
    such table (another server's tables are never named)."""
    guild_id = guild_id_of(interaction)
    # A number no table's id can be (a button id edited by hand) is looked up nowhere: the
    # database stores none so large, and would refuse the query.
    place = (
        await store.table_place(_bot(interaction).db, guild_id, table_id)
        if table_id <= SQLITE_MAX
        else None
    )
    if place is None:
        return (
            f"This server has no table {table_id}: check the deal's id (table:match:deal, shown"
            " with the deal's commitment)."
        )
    if not place.open:
        return f"That table has closed{_why_closed(place)}: its games can be had with /record."
    return (
        f"That table plays in <#{place.channel_id}>: ask there, with the deal's number or its id."
    )


def _close_question(table: Table) -> str:
    playing = (
        f" The {table.match_word} in play ends unfinished (recorded as abandoned)."
        if table.playing
        else ""
    )
    return f"Close the table in this channel?{playing}"


async def ask_to_close(interaction: discord.Interaction, table: Table) -> None:
    """/table close: ask first, with a button, since closing ends the match for everyone."""
    await answer(interaction, _close_question(table), view=close_view(table))


async def close_answer(
    interaction: discord.Interaction, table_id: int, yes: bool, asked: int | None = None
) -> None:
    """The answer to the close confirmation (`asked`: the match in play when it was asked,
    0 for none; None from a button drawn before it said)."""
    manager = manager_of(interaction)
    table = manager.tables.get(channel_id_of(interaction))
    if not private_message(interaction):
        # The question is asked privately: a public message (the table's own) is never
        # redrawn as its answer.
        await answer(interaction, "That button answers the question /table close asks.")
        return
    if table is None or table.id != table_id:
        # Closed meanwhile (by someone else, or it closed itself): "Keep it open" cannot keep
        # it, and "stays open" would say what is not so.
        place = await _place_of(interaction, table_id)
        await interaction.response.edit_message(
            content=fit_content(f"That table is already closed{_why_closed(place)}."), view=None
        )
        return
    if not yes:
        await interaction.response.edit_message(content="The table stays open.", view=None)
        return
    in_play = table.match_no if table.playing else 0
    if asked is not None and in_play and in_play != asked:
        # A match began since the question, which warned of none (or of an earlier one):
        # closing would end it unfinished without a word. Ask again, as things are now.
        await interaction.response.edit_message(
            content=f"A {table.match_word} has begun since you asked. {_close_question(table)}",
            view=close_view(table),
        )
        return
    may_manage = interaction.guild_id is not None and interaction.permissions.manage_channels
    change = await manager.close_table(channel_id_of(interaction), interaction.user.id, may_manage)
    await interaction.response.edit_message(content="The table is closed.", view=None)
    await _bot(interaction).table_messages.table_changed(change)


__all__ = [
    "act",
    "answer",
    "close_answer",
    "hand_message",
    "phase_refusal",
    "review",
    "show_hand",
    "substitute_answer",
    "table_button",
    "EuchreError",
]
