"""/hand and the declarations of the game: /pass, /order, /call, /alone, /discard, /play."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import actions
from bot.engine.cards import SUIT_NAMES, SUITS, card_label, card_name, parse_card, parse_suit
from bot.engine.deal import DISCARD, PLAY, ROUND_ONE, ROUND_TWO, round_one_word
from bot.engine.errors import EuchreError
from bot.tables.table import TableError
from bot.ui import respond
from bot.ui.variant_views import HandSelect

if TYPE_CHECKING:
    from bot.client import EuchreBot


class Play(commands.Cog):
    """Seeing one's hand and making one's declarations and plays."""

    def __init__(self, bot: EuchreBot) -> None:
        self.bot = bot

    @property
    def manager(self):
        return self.bot.manager

    async def _legal_cards(self, interaction: discord.Interaction) -> list[str]:
        """The cards the member may play or discard now (empty when it is not their turn)."""
        channel = interaction.channel_id
        table = self.manager.tables.get(channel) if channel is not None else None
        if table is None or table.seat_of(interaction.user.id) is None or table.any_match is None:
            return []
        try:
            # Under the table's lock: a card still being stored is not yet out of the hand.
            _, seat, match_view = await self.manager.view(table.channel_id, interaction.user.id)
        except EuchreError:
            return []
        view = match_view.deal
        if view.to_act != seat:
            return list(view.hand or ())
        return [a for a in view.legal if actions.is_card(a)] or list(view.hand or ())

    def _refuse_other_card_phase(
        self, interaction: discord.Interaction, phase: str, reason: str
    ) -> None:
        """A card's action code is the same to discard and to play: without this, /discard
        during the play would play the card, and /play during the discard discard it."""
        table = self.manager.tables.get(interaction.channel_id)
        match = table.any_match if table is not None else None
        if table is None or match is None or not table.playing:
            return
        deal = match.deal
        if deal.phase == phase and deal.to_act == table.seat_of(interaction.user.id):
            raise TableError(reason)

    async def card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        try:
            # A whole card in any form /play takes (`JH`, `J♥`, `10h`, `jack of hearts`) is
            # that card alone: `ts` is the ten of spades, not every card of hearts too.
            exact: str | None = parse_card(typed) if typed else None
        except EuchreError:
            exact = None
        choices = []
        for card in await self._legal_cards(interaction):
            label = f"{card_label(card)} {card_name(card)}"
            wanted = card == exact if exact else (not typed or typed in label.lower())
            if wanted:
                choices.append(app_commands.Choice(name=label, value=card))
        return choices[:25]

    @app_commands.command(name="hand")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        """See your hand (only you see it) with the declarations open to you now."""
        table = self.manager.table_in(interaction.channel_id)
        table.seat_for(interaction.user.id)  # refuses a member not seated, saying why
        await respond.show_hand(interaction, table)

    @app_commands.command(name="pass")
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass (or play with partner, let a lone partner play alone, or do not defend alone)."""
        await respond.act(interaction, actions.PASS)

    @app_commands.command(name="order")
    @app_commands.guild_only()
    @app_commands.describe(alone="play it alone")
    async def order(self, interaction: discord.Interaction, alone: bool = False) -> None:
        """First round: order the turn-up (order up, assist or take up, by your seat)."""
        await respond.act(interaction, actions.order(alone))

    @app_commands.command(name="call")
    @app_commands.guild_only()
    @app_commands.describe(suit="the suit to make trump", alone="play it alone")
    async def call(self, interaction: discord.Interaction, suit: str, alone: bool = False) -> None:
        """Name trump: in round two (not the suit turned down), for a turned-up Joker, or as top bidder."""
        named = parse_suit(suit)
        await respond.act(interaction, actions.call(named, alone))

    @call.autocomplete("suit")
    async def suit_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=SUIT_NAMES[s], value=SUIT_NAMES[s])
            for s in SUITS
            if SUIT_NAMES[s].startswith(typed)
        ]

    @app_commands.command(name="bid")
    @app_commands.guild_only()
    @app_commands.describe(
        tricks="how many tricks you bid to take (1-5)",
        suit="the trump, where each bid names its suit (six-handed)",
    )
    async def bid(
        self,
        interaction: discord.Interaction,
        tricks: app_commands.Range[int, 1, 5],
        suit: str | None = None,
    ) -> None:
        """Bid a number of tricks (French euchre, Napoleon, six-handed); /pass to pass."""
        # Discord checks the range only in its own client: the engine refuses a bid above five
        # (or below one) with the rule's own words.
        table = self.manager.tables.get(interaction.channel_id)
        if table is not None and table.variant is None:
            raise TableError(
                "nobody bids a number of tricks at this table: trump is made with /order,"
                " /call or /pass (bids are for French euchre, Napoleon and six-handed)"
            )
        named = parse_suit(suit) if suit else None
        await respond.act(interaction, actions.bid(int(tricks), named))

    bid.autocomplete("suit")(suit_autocomplete)

    @app_commands.command(name="alone")
    @app_commands.guild_only()
    async def alone(self, interaction: discord.Interaction) -> None:
        """Take it alone from your partner when offered (or defend alone, where allowed)."""
        table = self.manager.table_in(interaction.channel_id)
        legal = table.match.deal.legal_actions() if table.match else ()
        if table.match is not None:
            # /alone answers a partner who made trump: a member who types it to make the trump
            # alone is told the command that does.
            dealer = table.match.deal.dealer
            seat = table.seat_of(interaction.user.id)
            word = round_one_word(seat, dealer) if seat is not None else "order up"
            self._refuse_other_card_phase(
                interaction,
                ROUND_ONE,
                f"you cannot take it alone from your partner now: to {word} the turn-up and"
                " play alone, use /order with alone: True",
            )
            self._refuse_other_card_phase(
                interaction,
                ROUND_TWO,
                "you cannot take it alone from your partner now: to name a suit and play"
                " alone, use /call with alone: True",
            )
        await respond.act(interaction, actions.DEFEND if actions.DEFEND in legal else actions.ALONE)

    @app_commands.command(name="discard")
    @app_commands.guild_only()
    @app_commands.describe(card="the card to discard, like 9S, 9♠ or nine of spades")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        """As dealer, discard a card after taking up the turn-up."""
        self._refuse_other_card_phase(
            interaction, PLAY, "there is nothing to discard now: play a card with /play"
        )
        await respond.act(interaction, parse_card(card), verb="discarded")

    @app_commands.command(name="play")
    @app_commands.guild_only()
    @app_commands.describe(card="the card to play, like JH, J♥, 10h or jack of hearts")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        """Play a card to the trick."""
        self._refuse_other_card_phase(interaction, DISCARD, "the dealer discards now: use /discard")
        await respond.act(interaction, parse_card(card))

    discard.autocomplete("card")(card_autocomplete)
    play.autocomplete("card")(card_autocomplete)


async def setup(bot: EuchreBot) -> None:
    bot.add_dynamic_items(HandSelect)
    await bot.add_cog(Play(bot))
