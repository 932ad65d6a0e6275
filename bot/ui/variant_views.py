"""The other variants at a table: the table message, a finished deal and the private hand.

Like `embeds.py` for the four-handed game, every renderer takes views, never the full state:
the table message is built from the public view, which holds no hand. Seats are named as the
table names them ("seat 5" beyond four); scores are shown in the variant's own unit (points to
a game, Napoleon's chips, set-back's countdown to 0).

A hand's declarations are buttons while they fit (at most ten under the two rows of cards);
six-handed bidding (pass, or five numbers of tricks in four suits: 21 choices) is a select
menu, whose 25 options hold it in one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from bot.engine import actions as act
from bot.engine.cards import (
    EFFECTIVE_SUIT,
    RANK_NAMES,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_name,
)
from bot.engine.commitment import commitment
from bot.engine.scoring import EUCHRED, MARCH, PASSED
from bot.engine.variants.deal import (
    BIDDING,
    DECLARE,
    DISCARD,
    OVER,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
    THROW_UP,
    TRUMP,
    VariantDeal,
    VariantDealView,
)
from bot.engine.variants.match import VariantMatchView
from bot.engine.variants.rules import (
    CHIPS,
    FRENCH,
    NAPOLEON,
    SET_BACK,
    SET_BACK_START,
    SETBACK,
    SIX_HANDED,
    THREE_HANDED,
    TITLES,
    TWO_HANDED,
    Variant,
)
from bot.engine.variants.scoring import VariantResult
from bot.tables.table import Table
from bot.ui.cards import card_button, card_style, card_text, cards_text, suit_text
from bot.ui.embeds import (
    EMBED_TOTAL,
    GOLD,
    GREEN,
    GREY,
    occupant_name,
    plural,
    proof_text,
    safe,
    seat_name,
)
from bot.ui.errors import reply_error
from bot.ui.views import DISCARD_VERB, Buttons, HandButton, Requesting, deal_number

FIELD = 1024  # what an embed field may hold
MAX_BUTTONS = 10  # declaration buttons under the two rows of cards; more go in a select menu

PHASE_WORDS = {
    ROUND_ONE: "order up the turn-up, or pass",
    DISCARD: "the dealer discards",
    ROUND_TWO: "name another suit, or pass",
    BIDDING: "bid, or pass",
    TRUMP: "the highest bidder names the trump",
    DECLARE: "the maker may declare all five",
    THROW_UP: "throw up the hand, or play it",
    PLAY: "play",
    OVER: "the deal is over",
}
# A pass once trump is made, on its button: what it does (as the auction tells it).
_PASS_AFTER_TRUMP = {DECLARE: "Play without declaring", THROW_UP: "Keep my hand to play"}


def phase_words(deal: Any) -> str:
    """What the player to act is asked: the dealer takes up the turn-up where the others order
    it up (RULES §7)."""
    if deal.phase == ROUND_ONE and deal.to_act is not None and deal.to_act == deal.dealer:
        return "take up the turn-up, or pass"
    if unopposed(deal):
        return "his cards are played for him (every other hand was thrown up)"
    return PHASE_WORDS[deal.phase]


def unopposed(deal: VariantDealView) -> bool:
    """Set-back: every other player threw up his hand, so the maker takes every trick
    whatever he plays, and the bot plays his cards for him (bot/tables/manager.py)."""
    return deal.phase == PLAY and deal.players - len(deal.thrown) == 1


def _clip(text: str, limit: int = FIELD) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _seat_title(table: Table, seat: int) -> str:
    return table.seat_label(seat).capitalize()


def side_name(table: Table, side: int) -> str:
    """A partnership by its seats: `North–South`, or `seats 1, 3, 5`."""
    if table.seat_count == 4:
        return ("North–South", "East–West")[side]
    seats = range(side, table.seat_count, 2)
    return "seats " + ", ".join(str(s + 1) for s in seats)


def _capital(words: str) -> str:
    """A side's name opening a sentence: `Seats 1, 3, 5 win the game!`."""
    return words[:1].upper() + words[1:]


def side_players(table: Table, side: int) -> str:
    seats = range(side, table.seat_count, 2)
    return ", ".join(seat_name(table, s) for s in seats)


def scorer_name(table: Table, variant: Variant, side: int, named: bool = True) -> str:
    """Who a score belongs to: a partnership, or a player (`named` False: his seat)."""
    if variant.partners:
        return side_name(table, side)
    return seat_name(table, side) if named else _seat_title(table, side)


def game_words(variant: Variant) -> str:
    """The variant in a line: who plays against whom, and how the game is won."""
    count = f"{variant.players} players"
    sides = "in two partnerships seated alternately" if variant.partners else "each for himself"
    if variant.scoring == CHIPS:
        deals = variant.rounds * variant.players
        each = "once" if variant.rounds == 1 else f"{variant.rounds} times"
        goal = (
            f"chips change hands each deal; the most chips after {deals} deals (each deals"
            f" {each}) wins"
        )
    elif variant.scoring == SET_BACK:
        goal = f"each counts down from {SET_BACK_START}; the first to reach 0 wins"
    else:
        goal = f"{plural(variant.game, 'point')} a game"
    return f"**{TITLES[variant.name]}**: {count} {sides}; {goal}.{options_words(variant)}"


def options_words(variant: Variant) -> str:
    """Set-back's options from K, when the table plays with them (after the game's line)."""
    words = ""
    if variant.declare_all:
        words += " The maker may declare all five: made, he wins the game; failed, he is set"
        words += " back by his score."
    if variant.euchre_deducts:
        words += " A euchre also lets each adversary deduct 2, unless he threw up his hand;"
        words += " should several reach 0 at once, the one nearest the dealer's left wins."
    return words


# Each variant's rules in a few lines (RULES.md §7-§8), for /rules at its table.
RULES = {
    TWO_HANDED: (
        "32 cards, five each; the eleventh card is turned up. The non-dealer may order it up or"
        " pass, then the dealer may take it up (and discards). If both pass, each in turn may name"
        " another suit; if both pass again, the deal passes. Three or four tricks score 1, all"
        " five 2; a euchred maker gives his adversary 2."
    ),
    THREE_HANDED: (
        "32 cards, five each, one turned up; the auction as two-handed (all pass twice and the"
        " deal passes). The maker plays against the other two: three or four tricks score him"
        " 1, all five 2; euchred, he gives each adversary 2. Should that bring both to the game,"
        " the higher score wins, then the one nearer the dealer's left."
    ),
    FRENCH: (
        "24 cards, no turn-up. From the eldest, each bids once a number of tricks higher than"
        " every earlier bid, or passes; five ends the bidding. The highest bidder names trump and"
        " the eldest leads. A side that makes its bid scores a point a trick but never more"
        " than the bid, so the bid, and its adversaries nothing; a side that fails its bid is"
        " euchred and the adversaries score the bid. No lone hands; if all pass, the deal"
        " passes."
    ),
    NAPOLEON: (
        "Each for himself, five cards each, dealt to the right. Each bids once, the dealer last,"
        " higher than any earlier bid; five (Napoleon) ends the bidding. The highest bidder names"
        " trump and leads. Made, each opponent pays him a chip a trick bid (ten each for"
        " Napoleon); failed, he pays each opponent a chip a trick bid (five for a failed"
        " Napoleon). The deal ends as soon as the bid is made or can no longer be made. If all"
        " pass, the deal passes."
    ),
    SIX_HANDED: (
        "Two partnerships of three in alternate seats; 30 cards (the black sevens out), all dealt."
        " Bidding as French euchre, but each bid names its trump suit; the eldest leads. A side"
        " that makes its bid scores the bid, never more, and its adversaries nothing; a side"
        " that fails scores nothing and the adversaries score the bid. No lone hands; if all"
        " pass, the deal passes."
    ),
    SETBACK: (
        "Each starts at 5 and the first down to 0 wins. The auction as two-handed (all pass"
        " twice and the deal passes); then each other player may throw up his hand before the"
        " first lead. The maker deducts 1 for three or four tricks, 2 for all five, and adds 2"
        " if euchred; anyone who takes no trick adds 1, unless he threw up his hand."
    ),
}


def pack_words(variant: Variant) -> str:
    """The pack in play: `24 cards, the nines up` (Napoleon's depends on the players, K)."""
    lowest = max((card[0] for card in variant.pack), key=RANKS.index)
    name = RANK_NAMES[lowest]
    return f"{len(variant.pack)} cards, the {name + ('es' if name.endswith('x') else 's')} up"


def cards_words(variant: Variant) -> str:
    """How the cards rank and are followed, as in the regular game (H; K: "the rules of the
    regular game of Euchre govern"): the bowers, then the rest of the pack in play."""
    ranks = [r for r in RANKS if r != "J" and any(card[0] == r for card in variant.pack)]
    low = " ".join("10" if r == "T" else r for r in ranks)
    return (
        "The jack of trumps (the right bower) is the highest card, then the other jack of the"
        f" same colour (the left bower), then {low} of trumps. The left bower is a trump for"
        " every purpose: when trumps are led and it is your only trump, you must play it. Each"
        " must follow suit if he can; the highest trump wins the trick, else the highest card"
        " of the suit led."
    )


def rules_embed(variant: Variant) -> discord.Embed:
    """/rules at a variant's table: the game in a line, its rules in a paragraph (Napoleon's
    with the pack its number of players plays with) and how the cards rank."""
    embed = discord.Embed(title=f"Rules: {TITLES[variant.name]}", colour=GREY)
    rules = RULES[variant.name]
    if variant.name == NAPOLEON:
        rules = f"{pack_words(variant)}, for {variant.players} players. {rules}"
    embed.description = f"{game_words(variant)}\n\n{rules}\n\n{cards_words(variant)}"
    return embed


def score_text(table: Table, view: VariantMatchView, named: bool = True) -> str:
    """The scores in the variant's own unit; `named` False gives a player's by his seat."""
    v = view.variant
    if v.scoring == CHIPS:
        parts = [
            f"{scorer_name(table, v, s, named)}: {score:+d}" for s, score in enumerate(view.scores)
        ]
        deals = v.rounds * v.players
        return f"Chips: {' · '.join(parts)} (deal {min(view.deal_number, deals)} of {deals})"
    parts = [f"{scorer_name(table, v, s, named)}: {score}" for s, score in enumerate(view.scores)]
    if v.scoring == SET_BACK:
        return f"Counting down to 0: {' · '.join(parts)}"
    text = f"{' · '.join(parts)} ({plural(v.game, 'point')} a game)"
    # A field opens with a capital: six-handed's sides are "seats 1, 3, 5" (a member's name is
    # left as he wrote it).
    return "S" + text[1:] if text.startswith("seats ") else text


def _napoleon(game: str, parsed: act.Action) -> bool:
    """Whether a bid is Napoleon's bid of all five tricks, which the game calls by its own name."""
    return game == NAPOLEON and parsed.kind == act.KIND_BID and parsed.tricks == act.MAX_BID


def _game(table: Table) -> str:
    """The name of the variant a table plays ("" for none)."""
    return table.variant.name if table.variant is not None else ""


def _takes_up(parsed: act.Action, seat: int | None, dealer: int | None) -> bool:
    """Whether this is the dealer taking up the turn-up: he "takes it up", the others "order it
    up" (RULES §7, as four-handed in bot/ui/cards.py)."""
    return parsed.kind == act.KIND_ORDER and seat is not None and seat == dealer


def said_text(
    action: str, game: str = "", seat: int | None = None, dealer: int | None = None
) -> str:
    """An action of the auction as the table hears it: `bid three in hearts`, `passed`.

    Args:
        action: the declaration.
        game: the variant's name; in Napoleon the bid of five is "went Napoleon".
        seat, dealer: who said it and who deals; the dealer "took it up".
    """
    parsed = act.parse(action)
    if _napoleon(game, parsed):
        return "went Napoleon (all five tricks)"
    if _takes_up(parsed, seat, dealer):
        return "took it up"
    if parsed.kind == act.KIND_BID and parsed.tricks is not None:
        words = f"bid {act.NUMBER_WORDS.get(parsed.tricks, str(parsed.tricks))}"
        return words + (f" in {SUIT_NAMES[parsed.suit]}" if parsed.suit else "")
    if parsed.kind == act.KIND_CALL and parsed.suit:
        return f"named {SUIT_NAMES[parsed.suit]}"
    if parsed.kind == act.KIND_CARD and parsed.card:
        return f"discarded {card_name(parsed.card)}"
    return {
        act.KIND_PASS: "passed",
        act.KIND_ORDER: "ordered it up",
        act.KIND_DECLARE: "declared all five",
        act.KIND_THROW_UP: "threw up the hand",
    }.get(parsed.kind, "discarded" if action == act.HIDDEN_DISCARD else action)


def auction_lines(
    table: Table, deal: VariantDealView | VariantDeal, name: Callable[[Table, int], str]
) -> list[str]:
    """The auction as the table heard it, a line a declaration, each pass worded by where it
    falls: after the trump is made, the maker's pass means he did not declare all five, and an
    adversary's (set-back) that he kept his hand to play it rather than throw it up."""
    lines = []
    made = False
    game = _game(table)
    for seat, action in deal.declarations:
        kind = act.parse(action).kind
        if made and kind == act.KIND_PASS:
            words = "did not declare all five" if seat == deal.maker else "kept the hand to play"
        else:
            words = said_text(action, game, seat, deal.dealer)
        made = made or kind in (act.KIND_ORDER, act.KIND_CALL)
        lines.append(f"{name(table, seat)} {words}")
    return lines


def action_label(
    action: str,
    game: str = "",
    seat: int | None = None,
    dealer: int | None = None,
    phase: str | None = None,
) -> str:
    """Words for a declaration button or option: `Bid three`, `♥ Hearts`, `Throw up my hand`.

    Args:
        action: the declaration.
        game: the variant's name; in Napoleon the bid of five reads "Napoleon (all five)".
        seat, dealer: whose button it is and who deals; the dealer's reads "Take up".
        phase: the deal's phase; once trump is made a pass is said by what it does (set-back:
            the maker plays without declaring all five, an adversary keeps his hand to play).
    """
    parsed = act.parse(action)
    if parsed.kind == act.KIND_PASS and phase in _PASS_AFTER_TRUMP:
        return _PASS_AFTER_TRUMP[phase]
    if _napoleon(game, parsed):
        return "Napoleon (all five)"
    if _takes_up(parsed, seat, dealer):
        return "Take up"
    if parsed.kind == act.KIND_BID and parsed.tricks is not None:
        words = f"Bid {act.NUMBER_WORDS.get(parsed.tricks, str(parsed.tricks))}"
        return words + (f" in {SUIT_NAMES[parsed.suit]}" if parsed.suit else "")
    if parsed.kind == act.KIND_CALL and parsed.suit:
        return f"{SUIT_SYMBOLS[parsed.suit]} {SUIT_NAMES[parsed.suit].capitalize()}"
    return {
        act.KIND_PASS: "Pass",
        act.KIND_ORDER: "Order up",
        act.KIND_DECLARE: "Declare all five",
        act.KIND_THROW_UP: "Throw up my hand",
    }.get(parsed.kind, action)


def _bid_mark(table: Table, bid: int) -> str:
    """A maker's bid beside his seat: `bid 3`, or Napoleon's bid of five by its name (K)."""
    return "Napoleon" if _game(table) == NAPOLEON and bid == act.MAX_BID else f"bid {bid}"


def _marks(table: Table, deal: VariantDealView, seat: int) -> str:
    marks = []
    if deal.dealer == seat:
        marks.append("dealer")
    if deal.maker == seat and deal.trump:
        marks.append(_bid_mark(table, deal.bid) if deal.bid else "made trump")
    if seat in deal.thrown:
        marks.append("threw up")
    return f" ({', '.join(marks)})" if marks else ""


def seats_text(table: Table, deal: VariantDealView | None) -> str:
    lines = []
    for seat in range(table.seat_count):
        turn = "▶ " if deal and deal.to_act == seat else ""
        marks = _marks(table, deal, seat) if deal else ""
        name = occupant_name(table, seat)  # the line names the seat already
        lines.append(f"{turn}**{_seat_title(table, seat)}**: {name}{marks}")
    if table.waiting:
        lines.append("Waiting: " + ", ".join(safe(o.name) for o in table.waiting))
    return _clip("\n".join(lines))


def _seats_heading(table: Table) -> str:
    variant = table.variant
    if variant is not None and variant.partners:
        return f"Seats ({side_name(table, 0)} v {side_name(table, 1)})"
    return "Seats"


def _trick_line(
    table: Table, trick: tuple[tuple[int, str], ...], name: Callable[[Table, int], str] = seat_name
) -> str:
    return "  ".join(f"{name(table, s)}: {card_text(c)}" for s, c in trick)


def trump_text(table: Table, deal: VariantDealView) -> str:
    if deal.trump is None or deal.maker is None:
        return "—"
    bid = ""
    if deal.bid:
        napoleon = _game(table) == NAPOLEON and deal.bid == act.MAX_BID
        bid = ", went Napoleon" if napoleon else f", bid {act.NUMBER_WORDS[deal.bid]}"
    return f"{suit_text(deal.trump)}, made by {seat_name(table, deal.maker)}{bid}"


def _deal_fields(embed: discord.Embed, table: Table, deal: VariantDealView) -> None:
    """The turn-up, trump, the auction so far, the trick on the table, tricks won."""
    if deal.turn_up is not None:
        embed.add_field(
            name="Turn-up",
            value=card_text(deal.turn_up) + (" (turned down)" if deal.turned_down else ""),
        )
    if deal.trump:
        embed.add_field(name="Trump", value=trump_text(table, deal))
    said = auction_lines(table, deal, seat_name)
    if said:
        embed.add_field(name="Auction", value=_clip("\n".join(said[-10:])), inline=False)
    if deal.trick:
        embed.add_field(
            name="On the table", value=_clip(_trick_line(table, deal.trick)), inline=False
        )
    elif deal.tricks:
        winner, last = deal.tricks[-1]
        embed.add_field(
            name="Last trick",
            value=_clip(_trick_line(table, last) + f" — won by {seat_name(table, winner)}"),
            inline=False,
        )
    if deal.phase in (PLAY, OVER) and deal.trump:
        won = [
            f"{seat_name(table, s)}: {n}"  # "Computer (standard) at seat 5: 3", not "… 5 3"
            for s, n in enumerate(deal.tricks_won)
            if n or s not in deal.thrown
        ]
        embed.add_field(name="Tricks", value=_clip(", ".join(won)), inline=False)


def match_text(table: Table, view: VariantMatchView, named: bool = True) -> str:
    """Who won the game; `named` False names seats, not players: the seats of a table between
    games may be others' by now (a player left or was removed, one waiting sat)."""
    v = view.variant
    name = seat_name if named else _seat_title
    if view.winner is None:
        # Napoleon's chips alone can tie at the top: who tied, and on how many.
        best = max(view.scores)
        tied = [name(table, s) for s, score in enumerate(view.scores) if score == best]
        who = ", ".join(tied[:-1]) + f" and {tied[-1]}" if len(tied) > 1 else "".join(tied)
        chips = f"{best:+d} {'chip' if abs(best) == 1 else 'chips'}"
        return f"The game is over with no single winner: {who} tie at the top on {chips} each."
    if v.partners:
        side = _capital(side_name(table, view.winner))
        players = f" ({side_players(table, view.winner)})" if named else ""
        return f"{side}{players} win the game!"
    return f"{name(table, view.winner)} wins the game!{_tie_words(table, view, name)}"


def _tie_words(table: Table, view: VariantMatchView, name: Callable[[Table, int], str]) -> str:
    """Why the winner won when another player reached the game in the same deal: three-handed's
    euchre gives both adversaries two, set-back's `euchre_deducts` lets each deduct two
    (bot/engine/variants/match.py settles it; the books do not)."""
    v, scores, winner = view.variant, view.scores, view.winner
    if v.scoring == SET_BACK:
        reached = [s for s, score in enumerate(scores) if score == 0]
        goal = "0"
    elif v.scoring == CHIPS:
        return ""
    else:
        reached = [s for s, score in enumerate(scores) if score >= v.game]
        goal = str(v.game)
    others = [s for s in reached if s != winner]
    if winner is None or not others:
        return ""
    who = ", ".join(name(table, s) for s in others)
    if v.scoring != SET_BACK and scores[winner] > max(scores[s] for s in others):
        why = "the higher score wins"
    elif v.scoring == SET_BACK and winner == view.deal.maker:
        why = "the maker wins"
    else:
        why = "the one nearest the dealer's left wins"
    return f" ({who} reached {goal} in the same deal: {why}.)"


def table_embed(
    table: Table,
    view: VariantMatchView | None,
    deadline: float | None = None,
    notes: list[str] | tuple[str, ...] = (),
    committed: str | None = None,
) -> discord.Embed:
    """The public table message of a variant's table, with the commitment to the deal's cards
    (`committed`) while the deal is played (bot/engine/commitment.py)."""
    assert table.variant is not None
    embed = discord.Embed(title=f"Euchre table: {TITLES[table.variant.name]}", colour=GREEN)
    embed.description = game_words(table.variant)
    deal = view.deal if view else None
    # Between games the seats are the table as it stands for the next one: who sits where may
    # have changed since the last deal (a player left or was removed, one waiting sat), so that
    # deal is not drawn against them, nor its winners named by them. The deal's own message
    # and the game's end line, kept in the channel, name who played.
    over = view is not None and view.over
    embed.add_field(
        name=_seats_heading(table), value=seats_text(table, None if over else deal), inline=False
    )
    if notes:
        embed.add_field(name="At the table", value=_clip("\n".join(notes[-5:])), inline=False)
    if view is None or deal is None or over or not table.playing:
        if view is not None and over:
            embed.add_field(
                name="Last game",
                value=_clip(
                    f"{score_text(table, view, named=False)}\n"
                    f"{match_text(table, view, named=False)}"
                ),
                inline=False,
            )
        embed.add_field(
            name="Status",
            value="Seating: /table join, then the host runs /table start.",
            inline=False,
        )
        if over:
            embed.set_footer(text=f"Table {table.id}")
        return embed
    embed.add_field(name="Score", value=_clip(score_text(table, view)), inline=False)
    _deal_fields(embed, table, deal)
    if deal.to_act is not None:
        due = f" — due <t:{int(deadline)}:R>" if deadline else ""
        occupant = table.seats[deal.to_act]
        if occupant is None:
            who = table.seat_label(deal.to_act)
        else:
            who = seat_name(table, deal.to_act) if occupant.is_bot else f"<@{occupant.user_id}>"
        embed.add_field(name="Turn", value=f"{who}: {phase_words(deal)}{due}", inline=False)
    if committed:
        embed.add_field(
            name="Commitment to this deal's cards", value=f"`{committed}`", inline=False
        )
    embed.set_footer(text=f"Table {table.id} · deal {deal_number(table)}")
    return embed


def result_text(table: Table, result: VariantResult) -> str:
    """How a deal ended, in the players' words."""
    if result.outcome == PASSED or result.maker is None:
        return "Everyone passed: the deal passes to the next dealer."
    variant = table.variant
    assert variant is not None
    maker = seat_name(table, result.maker)
    if variant.partners:
        maker = f"{_capital(side_name(table, variant.side_of(result.maker)))} (bid by {maker})"
    taken = sum(
        t
        for s, t in enumerate(result.tricks)
        if variant.side_of(s) == variant.side_of(result.maker)
    )
    bid = f" bid {act.NUMBER_WORDS[result.bid]} and" if result.bid else ""
    if variant.name == NAPOLEON and result.bid == act.MAX_BID:
        bid = " went Napoleon and"  # the bid of all five "is called Napoleon" (K), as it is said
    how = {
        MARCH: "marched",
        EUCHRED: "was euchred",
    }.get(result.outcome, "made it")
    if result.declared:
        # Set-back's declaration of all five (K): three or four tricks do not make it.
        bid = " declared all five and"
        how = (
            "wins the game outright"
            if result.outcome == MARCH
            else "the declaration failed, so he is set back by his score"
        )
    early = " The deal ended as soon as the bid was settled." if result.early else ""
    thrown = (
        " Threw up: " + ", ".join(seat_name(table, s) for s in result.thrown) + "."
        if result.thrown
        else ""
    )
    changes = ", ".join(
        f"{scorer_name(table, variant, s)} {p:+d}" for s, p in enumerate(result.points) if p
    )
    unit = {CHIPS: "Chips", SET_BACK: "Set back (+) or down (−)"}.get(variant.scoring, "Points")
    return f"**{maker}**{bid} took {taken}: {how}.{early}{thrown}" + (
        f"\n{unit}: {changes}." if changes else ""
    )


def finished_embed(
    table: Table,
    number: int,
    deal: VariantDealView,
    result: VariantResult,
    view: VariantMatchView,
    proof: str | None = None,
) -> discord.Embed:
    """A deal once over: the last trick stays on view, with the result, the score and the
    deal's seed, now shown (`proof`)."""
    embed = discord.Embed(title=f"Deal {number}: over", colour=GREY)
    embed.description = result_text(table, result)
    embed.add_field(name=_seats_heading(table), value=seats_text(table, deal), inline=False)
    _deal_fields(embed, table, deal)
    embed.add_field(name="Score", value=_clip(score_text(table, view)), inline=False)
    if proof:
        embed.add_field(name="The deal's seed, now shown", value=_clip(proof), inline=False)
    embed.set_footer(text=f"Table {table.id} · deal {number}")
    return embed


def deal_proof(deal: VariantDeal) -> str | None:
    """A finished deal's seed with its commitment, or None for a deal dealt without one."""
    if deal.seed is None or deal.deal_id is None or not deal.is_over:
        return None
    return proof_text(deal.seed, commitment(deal.seed, deal.deal_id), deal.deal_id)


def review_embed(table: Table, number: int, deal: VariantDeal) -> discord.Embed:
    """A finished deal, every card: the hands as dealt, the turn-up and discard, the auction
    and each trick (no secret once the deal is over).

    Seven long names, escaped, in every trick and the auction can pass Discord's 6,000
    characters an embed: then those name the seats (the hands' fields say who sits where)."""
    embed = _review_embed(table, number, deal, seat_name)
    if len(embed) > EMBED_TOTAL:
        embed = _review_embed(table, number, deal, _seat_title)
    return embed


def _review_embed(
    table: Table, number: int, deal: VariantDeal, name: Callable[[Table, int], str]
) -> discord.Embed:
    embed = discord.Embed(title=f"Review of deal {number}", colour=GREY)
    result = deal.result
    embed.description = result_text(table, result) if result else "The deal is not over."
    for seat in range(table.seat_count):
        marks = " (dealer)" if seat == deal.dealer else ""
        embed.add_field(
            name=f"{_seat_title(table, seat)}: {occupant_name(table, seat)}{marks}"[:256],
            value=cards_text(list(deal.dealt[seat])),
        )
    if deal.turn_up is not None:
        turn_up = card_text(deal.turn_up)
        if deal.discarded:
            turn_up += f"; the dealer discarded {card_text(deal.discarded)}"
        embed.add_field(name="Turn-up", value=turn_up, inline=False)
    proof = deal_proof(deal)
    if proof:
        embed.add_field(name="Seed", value=_clip(proof), inline=False)
    said = auction_lines(table, deal, name)
    if said:
        embed.add_field(name="Auction", value=_clip("\n".join(said)), inline=False)
    for i, (winner, trick) in enumerate(deal.tricks, start=1):
        line = _trick_line(table, tuple(trick), name) + f" — won by {name(table, winner)}"
        embed.add_field(name=f"Trick {i}", value=_clip(line), inline=False)
    return embed


def hand_embed(table: Table, seat: int, view: VariantMatchView) -> discord.Embed:
    """A player's own hand, for the private message that follows the game."""
    deal = view.deal
    embed = discord.Embed(title=f"Your hand ({table.seat_label(seat)})", colour=GOLD)
    embed.description = cards_text(list(deal.hand or ()))
    if deal.trump:
        embed.add_field(name="Trump", value=trump_text(table, deal))
    elif deal.turn_up is not None:
        embed.add_field(name="Turn-up", value=card_text(deal.turn_up))
    if deal.discard:
        embed.add_field(name="You discarded", value=card_text(deal.discard))
    said = auction_lines(table, deal, seat_name)
    if said and deal.phase != PLAY:
        embed.add_field(name="Auction", value=_clip("\n".join(said[-10:])), inline=False)
    if deal.trick:
        embed.add_field(
            name="On the table", value=_clip(_trick_line(table, deal.trick)), inline=False
        )
    if view.over:
        embed.add_field(name="The game is over", value=match_text(table, view), inline=False)
    elif seat in deal.thrown and deal.phase == PLAY:
        embed.add_field(name="This deal", value="You threw up your hand.", inline=False)
    elif unopposed(deal):
        embed.add_field(
            name="This deal",
            value="Every other player threw up his hand: every trick is yours, and your cards"
            " are played for you.",
            inline=False,
        )
    elif deal.to_act == seat:
        embed.add_field(name="Your turn", value=_your_turn(deal), inline=False)
    elif deal.to_act is not None:
        embed.add_field(name="Waiting for", value=seat_name(table, deal.to_act), inline=False)
    embed.add_field(name="Score", value=_clip(score_text(table, view)), inline=False)
    embed.set_footer(text=f"Table {table.id} · deal {deal_number(table)}")
    return embed


def _your_turn(deal: VariantDealView) -> str:
    """What to do now, and, as at a four-handed table, why some cards are greyed out: the
    suit led must be followed, and a led left bower is a trump (H)."""
    words = phase_words(deal)
    hand = deal.hand or ()
    if deal.phase == PLAY and deal.trick and deal.trump and len(deal.legal) < len(hand):
        suit = EFFECTIVE_SUIT[deal.trump][deal.trick[0][1]]
        return f"{words}: you must follow {SUIT_NAMES[suit]}, so only those cards are enabled."
    return words


# Actions are codes such as `bid:3:H` or `throw_up`.
_ACTION = re.compile(r"[A-Za-z0-9:_]+")


class HandSelect(
    Requesting,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"euchre:pick:(?P<table>[0-9]+):(?P<match>[0-9]+):(?P<deal>[0-9]+)",
):
    """A select menu of declarations on a hand, where there are more than buttons can hold."""

    def __init__(
        self,
        table_id: int,
        match_no: int,
        deal: int,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"euchre:pick:{table_id}:{match_no}:{deal}",
                placeholder="Bid (tricks and trump) or pass",
                options=options or [discord.SelectOption(label="Pass", value=act.PASS)],
                row=row,
            )
        )
        self.table_id, self.match_no, self.deal = table_id, match_no, deal

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandSelect:
        return cls(int(match["table"]), int(match["match"]), int(match["deal"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        from bot.ui import respond

        try:
            values = self.item.values  # filled from the interaction before the callback
            chosen = values[0] if values else ""
            await respond.act(
                interaction,
                chosen if _ACTION.fullmatch(chosen) else "",
                drawn_for=(self.table_id, self.match_no, self.deal),
            )
        except Exception as error:  # every choice gets an answer
            await reply_error(interaction, error)


def hand_view(table: Table, seat: int, view: VariantMatchView) -> Buttons:
    """A player's hand as card buttons (only legal ones enabled) and the declarations open now:
    buttons while they fit, else one select menu."""
    deal = view.deal
    number = deal_number(table)
    items = Buttons()
    if view.over:
        return items
    legal = set(deal.legal)
    mine = deal.to_act == seat
    # An unopposed maker's cards are played for him: a click would race the bot's.
    cards_act = deal.phase in (PLAY, DISCARD) and mine and not unopposed(deal)
    for i, card in enumerate(deal.hand or ()):
        label, emoji = card_button(card, DISCARD_VERB if deal.phase == DISCARD else None)
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
    if not mine or cards_act or unopposed(deal):
        return items
    if len(deal.legal) <= MAX_BUTTONS:
        for i, action in enumerate(deal.legal):
            items.add_item(
                HandButton(
                    table.id,
                    table.match_no,
                    number,
                    action,
                    label=action_label(action, _game(table), seat, deal.dealer, deal.phase),
                    style=discord.ButtonStyle.secondary
                    if action == act.PASS
                    else discord.ButtonStyle.primary,
                    row=2 + i // 5,
                )
            )
    else:
        options = [
            discord.SelectOption(
                label=action_label(a, _game(table), seat, deal.dealer, deal.phase), value=a
            )
            for a in deal.legal
        ]
        items.add_item(HandSelect(table.id, table.match_no, number, options[:25], row=2))
    return items


def started_text(table: Table) -> str:
    """The start of a variant's game: who plays with whom and who deals first."""
    variant = table.variant
    assert variant is not None
    lines = [game_words(variant)]
    if variant.partners:
        lines.append(
            f"{_capital(side_name(table, 0))}: {side_players(table, 0)}; "
            f"{side_name(table, 1)}: {side_players(table, 1)}."
        )
    lines.append(f"{seat_name(table, table.first_dealer)} deals first.")
    return "\n".join(lines)


__all__ = [
    "HandSelect",
    "PHASE_WORDS",
    "phase_words",
    "TITLES",
    "action_label",
    "finished_embed",
    "hand_embed",
    "hand_view",
    "match_text",
    "result_text",
    "review_embed",
    "rules_embed",
    "said_text",
    "score_text",
    "started_text",
    "table_embed",
]
