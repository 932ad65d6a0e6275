"""The public table message and the private hand, as Discord embeds.

Renderers take views, never the engine's full state: the table message is built from the
public view, which holds no hand, so it cannot show an unplayed card.
"""

from __future__ import annotations

import discord

from bot.engine.deal import (
    DEFEND_ALONE,
    DISCARD,
    JOKER_SUIT,
    OVER,
    PARTNER_ALONE,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
    HandResult,
)
from bot.engine.match import GameResult, MatchView
from bot.engine.scoring import EUCHRED, MARCH, PASSED
from bot.tables.table import SEAT_NAMES, Table
from bot.ui.cards import card_text, cards_text, said_text, suit_text

GREEN = discord.Colour.dark_green()
GOLD = discord.Colour.gold()
SIDE_NAMES = ("North–South", "East–West")
PHASE_WORDS = {
    JOKER_SUIT: "the dealer names the Joker's suit",
    ROUND_ONE: "first round: order up, assist, take up or pass",
    PARTNER_ALONE: "the maker's partner may take it alone",
    DISCARD: "the dealer discards",
    ROUND_TWO: "second round: name a suit or pass",
    DEFEND_ALONE: "an adversary may defend alone",
    PLAY: "play",
    OVER: "the hand is over",
}


def seat_name(table: Table, seat: int) -> str:
    occupant = table.seats[seat]
    return occupant.name if occupant else "(empty)"


def seat_mention(table: Table, seat: int) -> str:
    occupant = table.seats[seat]
    return occupant.mention if occupant else SEAT_NAMES[seat]


def outcome_words(result: HandResult) -> str:
    """A hand's end in the words players use: 'march', 'lone march', 'euchred!'."""
    if result.outcome == PASSED:
        return "everyone passed: the deal moves on"
    lone = result.alone is not None
    if result.outcome == MARCH:
        return "lone march!" if lone else "march!"
    if result.outcome == EUCHRED:
        return "euchred!"
    return "made it"


def result_text(table: Table, result: HandResult) -> str:
    if result.outcome == PASSED:
        return "All passed twice: the deal passes to the left."
    side = result.maker_side
    scorer = result.scoring_side
    points = result.points[scorer] if scorer is not None else 0
    return (
        f"{seat_name(table, result.maker)} ({SIDE_NAMES[side]}) {outcome_words(result)} "
        f"Tricks {result.tricks[0]}–{result.tricks[1]}; "
        f"{SIDE_NAMES[scorer]} score {points}."
    )


def game_text(game: GameResult, number: int) -> str:
    double = " (a double game: the losers scored nothing)" if game.double else ""
    lap = f", {game.carried} carried over" if game.carried else ""
    return (
        f"Game {number + 1} to {SIDE_NAMES[game.winner]}, {game.scores[0]}–{game.scores[1]}"
        f"{double}{lap}."
    )


def match_text(table: Table, view: MatchView) -> str:
    if view.winner is None:
        return "The match is over."
    if view.is_rubber:
        a, b = view.rubber_points
        return f"{SIDE_NAMES[view.winner]} win the rubber! Rubber points {a}–{b}."
    return f"{SIDE_NAMES[view.winner]} win the game!"


def table_embed(
    table: Table, view: MatchView | None, deadline: float | None = None
) -> discord.Embed:
    """The public table message: seats, score, the deal, the trick, whose turn."""
    embed = discord.Embed(title="Euchre table", colour=GREEN)
    options = table.options
    kind = "rubber" if options.is_rubber else "game"
    embed.description = (
        f"**{options.preset}** rules, {options.pack} cards, {options.points} points a game, "
        f"a {kind}{' with the Joker' if options.joker else ''}."
    )
    deal = view.deal if view else None
    lines = []
    for seat in range(4):
        marks = []
        if deal and deal.dealer == seat:
            marks.append("dealer")
        if deal and seat in deal.sitting_out:
            marks.append("sits out")
        if deal and deal.alone == seat:
            marks.append("alone")
        turn = "▶ " if deal and deal.to_act == seat else ""
        extra = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"{turn}**{SEAT_NAMES[seat].capitalize()}**: {seat_name(table, seat)}{extra}")
    if table.waiting:
        lines.append("Waiting: " + ", ".join(o.name for o in table.waiting))
    embed.add_field(name="Seats (North–South v East–West)", value="\n".join(lines), inline=False)
    if view is None:
        embed.add_field(
            name="Status",
            value="Seating: /table join, then the host runs /table start.",
            inline=False,
        )
        return embed
    score = f"{view.scores[0]} – {view.scores[1]}"
    if view.is_rubber:
        games = " ".join(
            f"G{i + 1}:{'NS' if g.winner == 0 else 'EW'}" for i, g in enumerate(view.games)
        )
        score += f"  (game {view.game_number + 1}{'; ' + games if games else ''}; rubber points {view.rubber_points[0]}–{view.rubber_points[1]})"
    embed.add_field(name="Score (NS – EW)", value=score, inline=False)
    embed.add_field(
        name="Turn-up",
        value=card_text(deal.turn_up) + (" (turned down)" if deal.turned_down else ""),
    )
    if deal.trump:
        maker = f"{seat_name(table, deal.maker)}" + (" alone" if deal.alone is not None else "")
        if deal.alone is not None and deal.alone != deal.maker:
            maker = f"{seat_name(table, deal.maker)}; {seat_name(table, deal.alone)} took it alone"
        embed.add_field(name="Trump", value=f"{suit_text(deal.trump)} (made by {maker})")
    said = [f"{seat_name(table, s)} {said_text(a, s, deal.dealer)}" for s, a in deal.declarations]
    if said:
        embed.add_field(name="Declarations", value="\n".join(said[-8:]), inline=False)
    if deal.trick:
        embed.add_field(
            name="On the table",
            value="  ".join(f"{seat_name(table, s)}: {card_text(c)}" for s, c in deal.trick),
            inline=False,
        )
    if deal.last_trick:
        embed.add_field(
            name="Last trick",
            value="  ".join(f"{seat_name(table, s)}: {card_text(c)}" for s, c in deal.last_trick)
            + f" — won by {seat_name(table, deal.last_winner)}",
            inline=False,
        )
    if deal.phase in (PLAY, OVER) and deal.trump:
        won = deal.tricks_won
        embed.add_field(name="Tricks", value=f"NS {won[0] + won[2]} – EW {won[1] + won[3]}")
    if view.over:
        embed.add_field(name="Result", value=match_text(table, view), inline=False)
    elif deal.to_act is not None:
        due = f" — due <t:{int(deadline)}:R>" if deadline else ""
        embed.add_field(
            name="Turn",
            value=f"{seat_mention(table, deal.to_act)}: {PHASE_WORDS[deal.phase]}{due}",
            inline=False,
        )
    embed.set_footer(text=f"Table {table.id} · deal {len(table.match.deals) if table.match else 0}")
    return embed


def hand_embed(table: Table, seat: int, view: MatchView) -> discord.Embed:
    """A player's own hand, for an ephemeral message."""
    deal = view.deal
    embed = discord.Embed(title=f"Your hand ({SEAT_NAMES[seat]})", colour=GOLD)
    embed.description = cards_text(list(deal.hand or ()))
    trump = suit_text(deal.trump) if deal.trump else f"turn-up {card_text(deal.turn_up)}"
    embed.add_field(name="Trump", value=trump)
    if deal.discard:
        embed.add_field(name="You discarded", value=card_text(deal.discard))
    if deal.trick:
        embed.add_field(
            name="On the table",
            value="  ".join(f"{seat_name(table, s)}: {card_text(c)}" for s, c in deal.trick),
            inline=False,
        )
    if seat in deal.sitting_out:
        embed.add_field(
            name="Your turn", value="Your partner plays alone: you sit this hand out.", inline=False
        )
    elif deal.to_act == seat:
        embed.add_field(name="Your turn", value=PHASE_WORDS[deal.phase], inline=False)
    elif deal.to_act is not None:
        embed.add_field(name="Waiting for", value=seat_name(table, deal.to_act), inline=False)
    return embed


def cut_text(cut: list[list[tuple[str, str]]]) -> str:
    """The cards cut for seats and deal, round by round."""
    rounds = []
    for i, cards in enumerate(cut):
        label = "Cut" if i == 0 else "Cut again"
        rounds.append(f"{label}: " + ", ".join(f"{name} {card_text(card)}" for name, card in cards))
    return "\n".join(rounds)
