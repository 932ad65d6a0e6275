"""Buttons that survive restarts: every id carries what its click needs.

Buttons are `DynamicItem`s whose `custom_id` names the table, the match and the deal they were
drawn for (`euchre:hand:12:2:3:call:H`), so after a restart discord.py still routes a click to
them, and a click on a message from an earlier deal, or from the same deal number of an earlier
match at the table, is recognised as stale and answered politely.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections import deque
from typing import Any

import discord

from bot.engine.actions import PASS
from bot.engine.deal import DISCARD, PLAY
from bot.engine.match import MatchView
from bot.tables.requests import current_interaction
from bot.tables.table import Table
from bot.ui.cards import action_label, card_button, card_style
from bot.ui.errors import reply_error

log = logging.getLogger(__name__)

# Actions are card codes or declarations such as `call:H:alone` or a variant's `throw_up`:
# letters, digits, colons and underscores.
_ACTION = r"[A-Za-z0-9:_]+"

DISCARD_VERB = "Discard"
"""The word on the dealer's card buttons while he discards. A card's code is the same to discard
and to play, so a click is read as a discard by what its button said."""


def says_discard(label: str | None) -> bool:
    """Whether a card button's label (`Discard`, or `Discard J♥` while cards are text) is one
    drawn for the discard."""
    return label is not None and (label == DISCARD_VERB or label.startswith(DISCARD_VERB + " "))


class Buttons(discord.ui.View):
    """Buttons as drawn on a message. Every item is a `DynamicItem`, which discord.py routes by
    its custom id through the items registered at start, so the view itself need not listen: it
    is finished as soon as it is made. Otherwise discord.py keeps each view sent in a private
    message alive, with a timer, for 15 minutes, and thousands of tables' hands pile up for the
    garbage collector to scan.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()


# How many of the latest clicks a bot remembers, to know one delivered again: a gateway replays
# the events of a resumed session within seconds, so the latest few thousand are plenty.
REMEMBERED_CLICKS = 4096


class _Taken:
    """The ids of the clicks a bot took lately, the oldest forgotten first."""

    def __init__(self) -> None:
        self._ids: set[int] = set()
        self._order: deque[int] = deque()

    def take(self, interaction_id: int) -> bool:
        """Whether this click is new (and remember it taken)."""
        if interaction_id in self._ids:
            return False
        self._ids.add(interaction_id)
        self._order.append(interaction_id)
        if len(self._order) > REMEMBERED_CLICKS:
            self._ids.discard(self._order.popleft())
        return True


_taken: weakref.WeakKeyDictionary[discord.Client, _Taken] = weakref.WeakKeyDictionary()


class Requesting:
    """A button that asks the tables for something: it names its interaction to the game
    manager, which applies one interaction once (`bot.tables.requests`). discord.py runs an
    item's `interaction_check` in the task that then runs its callback.

    A click delivered again (a resumed gateway session replays it) was answered the first
    time: it is let go here, since a second answer is refused by Discord (40060) and, once
    the table has moved on, the click would be read afresh (after the match it ended, as a
    move with no match). A click delivered to another process of the bot too is applied once
    by the manager, and its refused answer let go (`answer_failed`)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if not _taken.setdefault(interaction.client, _Taken()).take(interaction.id):
            log.info("interaction %s delivered again: answered already", interaction.id)
            return False
        current_interaction.set(interaction.id)
        return True


ANSWERED_ALREADY = 40060  # Discord's code for an interaction acknowledged before


async def answer_failed(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a click that failed, unless the failure is that it was answered already: the
    same click delivered twice, answered by its first delivery (maybe in another process)."""
    if isinstance(error, discord.HTTPException) and error.code == ANSWERED_ALREADY:
        log.info("interaction %s was answered already: %s", interaction.id, error)
        return
    await reply_error(interaction, error)


def deal_number(table: Table) -> int:
    """The number of the deal being played (0 before any), as written into button ids."""
    match = table.any_match
    return len(match.deals) if match else 0


class HandButton(
    Requesting,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"euchre:hand:(?P<table>[0-9]+):(?P<match>[0-9]+):(?P<deal>[0-9]+):(?P<action>{_ACTION})",
):
    """A card to play or discard, or a declaration, on a player's private hand."""

    def __init__(
        self,
        table_id: int,
        match_no: int,
        deal: int,
        action: str,
        label: str | None = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        emoji: discord.PartialEmoji | str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                row=row,
                emoji=emoji,
                custom_id=f"euchre:hand:{table_id}:{match_no}:{deal}:{action}",
            )
        )
        self.table_id, self.match_no, self.deal, self.action = table_id, match_no, deal, action
        # A button of a hand the bot could not take its buttons from (a restart came between,
        # or its token ran out) may say Discard once the play has begun.
        self.discard = says_discard(label)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        button = cls(int(match["table"]), int(match["match"]), int(match["deal"]), match["action"])
        # The button as the member saw it, on the message clicked.
        button.discard = says_discard(getattr(item, "label", None))
        return button

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.act(
                interaction,
                self.action,
                drawn_for=(self.table_id, self.match_no, self.deal),
                verb="discarded" if self.discard else "played",
            )
        except Exception as error:  # every click gets an answer
            await answer_failed(interaction, error)


class OldHandButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"euchre:act:(?P<table>[0-9]+):(?P<rest>.+)"
):
    """A hand button drawn before buttons named their match: always stale, answered politely."""

    def __init__(self, table_id: int, rest: str) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"euchre:act:{table_id}:{rest}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OldHandButton:
        return cls(int(match["table"]), match["rest"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.act(interaction, "", drawn_for=(self.table_id, -1, -1))
        except Exception as error:  # every click gets an answer
            await answer_failed(interaction, error)


class TableButton(
    Requesting,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"euchre:table:(?P<table>[0-9]+):(?P<what>hand|join|start|consent)(?::(?P<number>[0-9]+))?",
):
    """A button on the public table message. It carries no hidden information.

    Consent to substitute names the request it was drawn for: a request may replace it before
    a member's click arrives, and the consent is to the member the player saw named (one
    drawn before it named them carries no number and consents to the request waiting)."""

    LABELS = {
        "hand": "My hand",
        "join": "Join",
        "start": "Start",
        "consent": "Consent to substitute",
    }
    STYLES = {
        "hand": discord.ButtonStyle.primary,
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.secondary,
        "consent": discord.ButtonStyle.success,
    }

    def __init__(self, table_id: int, what: str, number: int | None = None) -> None:
        suffix = f":{number}" if number is not None else ""
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[what],
                style=self.STYLES[what],
                custom_id=f"euchre:table:{table_id}:{what}{suffix}",
            )
        )
        self.table_id, self.what, self.number = table_id, what, number

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        number = match["number"]
        return cls(int(match["table"]), match["what"], int(number) if number else None)

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.table_button(interaction, self.table_id, self.what, self.number)
        except Exception as error:  # every click gets an answer
            await answer_failed(interaction, error)


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"euchre:review:(?P<table>[0-9]+):(?P<match>[0-9]+):(?P<deal>[0-9]+)",
):
    """On a finished deal's message: shows anyone, privately, how the deal was played."""

    def __init__(self, table_id: int, match_no: int, deal: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Review",
                style=discord.ButtonStyle.secondary,
                custom_id=f"euchre:review:{table_id}:{match_no}:{deal}",
            )
        )
        self.table_id, self.match_no, self.deal = table_id, match_no, deal

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        return cls(int(match["table"]), int(match["match"]), int(match["deal"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.review(interaction, self.table_id, self.match_no, self.deal)
        except Exception as error:  # every click gets an answer
            await answer_failed(interaction, error)


class CloseButton(
    Requesting,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"euchre:close:(?P<table>[0-9]+):(?:(?P<match>[0-9]+):)?(?P<answer>yes|no)",
):
    """The confirmation of /table close: close it, or keep playing.

    It names the match in play when it was asked (0: none), which its warning spoke of: a
    match begun since is not ended without a word (one drawn before it named it: no number)."""

    def __init__(self, table_id: int, answer: str, match_no: int | None = None) -> None:
        yes = answer == "yes"
        asked = f"{match_no}:" if match_no is not None else ""
        super().__init__(
            discord.ui.Button(
                label="Close the table" if yes else "Keep it open",
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"euchre:close:{table_id}:{asked}{answer}",
            )
        )
        self.table_id, self.answer, self.match_no = table_id, answer, match_no

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CloseButton:
        asked = match["match"]
        return cls(int(match["table"]), match["answer"], int(asked) if asked else None)

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.close_answer(
                interaction, self.table_id, self.answer == "yes", self.match_no
            )
        except Exception as error:  # every click gets an answer
            await answer_failed(interaction, error)


class SubstituteButton(
    Requesting,
    discord.ui.DynamicItem[discord.ui.Button],
    template=(
        r"euchre:sub:(?P<table>[0-9]+):(?P<match>[0-9]+):(?P<number>[0-9]+)"
        r":(?P<user>[0-9]+):(?P<answer>take|decline)"
    ),
):
    """The named substitute's answer to a request for their seat: take it, or decline. The id
    names the member asked (only they may answer) and the match and request it was drawn for
    (an answer to a request answered or replaced, or of a rubber over, is stale)."""

    def __init__(self, table_id: int, match_no: int, number: int, user_id: int, answer: str):
        take = answer == "take"
        super().__init__(
            discord.ui.Button(
                label="Take the seat" if take else "Decline",
                style=discord.ButtonStyle.success if take else discord.ButtonStyle.secondary,
                custom_id=f"euchre:sub:{table_id}:{match_no}:{number}:{user_id}:{answer}",
            )
        )
        self.table_id, self.match_no, self.number = table_id, match_no, number
        self.user_id, self.answer = user_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SubstituteButton:
        return cls(
            int(match["table"]),
            int(match["match"]),
            int(match["number"]),
            int(match["user"]),
            match["answer"],
        )

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            await respond.substitute_answer(
                interaction,
                (self.table_id, self.match_no, self.number, self.user_id),
                self.answer == "take",
            )
        except Exception as error:  # every click gets an answer
            await answer_failed(interaction, error)


def substitute_view(table: Table) -> Buttons:
    """The buttons of the message asking the named substitute to take the seat."""
    sub = table.substitution
    assert sub is not None  # drawn for a request waiting
    view = Buttons()
    for answer in ("take", "decline"):
        view.add_item(SubstituteButton(table.id, table.match_no, sub.number, sub.user_id, answer))
    return view


def close_view(table: Table) -> Buttons:
    view = Buttons()
    in_play = table.match_no if table.playing else 0
    view.add_item(CloseButton(table.id, "yes", in_play))
    view.add_item(CloseButton(table.id, "no", in_play))
    return view


def table_view(table: Table) -> Buttons:
    """The public table message's buttons: My hand while playing; Join and Start while seating;
    Consent to substitute while a substitute waits for a player's consent (not when the other
    seats are computers', or every consent is given: a button that only refuses misleads)."""
    view = Buttons()
    if table.playing:
        view.add_item(TableButton(table.id, "hand"))
    else:
        view.add_item(TableButton(table.id, "join"))
        view.add_item(TableButton(table.id, "start"))
    if table.substitute_consenters():
        assert table.substitution is not None  # consenters are of the request waiting
        view.add_item(TableButton(table.id, "consent", table.substitution.number))
    return view


def finished_view(table_id: int, match_no: int, deal: int) -> Buttons:
    """A finished deal's message: only Review."""
    view = Buttons()
    view.add_item(ReviewButton(table_id, match_no, deal))
    return view


def hand_view(table: Table, seat: int, view: MatchView) -> Buttons:
    """A player's hand as card buttons (only legal ones enabled) and the declarations open now."""
    deal = view.deal
    number = deal_number(table)
    items = Buttons()
    if view.over:
        return items
    legal = set(deal.legal)
    cards_act = deal.phase in (PLAY, DISCARD) and deal.to_act == seat
    # Only the dealer discards: the others' cards, not theirs to discard, do not say Discard.
    discards = deal.phase == DISCARD and deal.to_act == seat
    for i, card in enumerate(deal.hand or ()):
        label, emoji = card_button(card, DISCARD_VERB if discards else None)
        items.add_item(
            HandButton(
                table.id,
                table.match_no,
                number,
                card,
                label=label,
                emoji=emoji,
                style=card_style(card),
                disabled=not (cards_act and card in legal),
                row=i // 5,
            )
        )
    if deal.to_act == seat and not cards_act:
        for i, action in enumerate(deal.legal):
            items.add_item(
                HandButton(
                    table.id,
                    table.match_no,
                    number,
                    action,
                    label=action_label(
                        action, seat, deal.dealer, deal.phase, deal.alone is not None
                    ),
                    style=discord.ButtonStyle.primary
                    if action != PASS
                    else discord.ButtonStyle.secondary,
                    row=2 + i // 5,
                )
            )
    return items


DYNAMIC_ITEMS = (
    HandButton,
    OldHandButton,
    TableButton,
    ReviewButton,
    CloseButton,
    SubstituteButton,
)
