"""The public table message, a finished deal, the review and the private hand, as embeds.

Renderers take views, never the engine's full state: the table message is built from the
public view, which holds no hand, so it cannot show an unplayed card. The review of a finished
deal shows the hands as dealt, which is no secret once the deal is over.

Every name a member chose is escaped (`safe`): a display name such as `@everyone`, `**x**` or
`<:AS:id>` is shown as typed and neither pings, changes the message's formatting nor is drawn
as a picture, a time or a link.
"""

from __future__ import annotations

import functools
import re

import discord

from bot.engine.actions import is_alone, makes_trump
from bot.engine.cards import EFFECTIVE_SUIT, JOKER, SUIT_NAMES
from bot.engine.commitment import commitment
from bot.engine.deal import (
    DEFEND_ALONE,
    DISCARD,
    JOKER_SUIT,
    OVER,
    PARTNER_ALONE,
    PASS,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
    Deal,
    DealView,
    HandResult,
    partner_of,
    side_of,
)
from bot.engine.match import GameResult, MatchView
from bot.engine.rules import Options
from bot.engine.scoring import EUCHRED, MARCH, PASSED
from bot.tables.table import CUT_LOWEST, SEAT_NAMES, TIMEOUT_TAKEOVER, Table
from bot.ui.cards import card_text, cards_text, said_text, suit_text

GREEN = discord.Colour.dark_green()
GOLD = discord.Colour.gold()
GREY = discord.Colour.light_grey()
SIDE_NAMES = ("North–South", "East–West")
SIDE_SHORT = ("NS", "EW")
PHASE_WORDS = {
    JOKER_SUIT: "the dealer names the Joker's suit",
    ROUND_ONE: "first round: order up, assist, take up or pass",
    PARTNER_ALONE: "the maker's partner chooses: alone, or play with partner",
    DISCARD: "the dealer discards",
    ROUND_TWO: "second round: name a suit or pass",
    DEFEND_ALONE: "an adversary may defend alone",
    PLAY: "play",
    OVER: "the hand is over",
}
# What a field may hold (Discord's limit is 1,024 characters), and a whole embed (6,000).
FIELD = 1024
EMBED_TOTAL = 6000


# Direction marks and overrides: in a name they would turn the rest of its line around.
_BIDI_CONTROLS = dict.fromkeys(
    map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)


# Characters that show nothing: an "invisible name" is made of these and spaces.
_BLANK = dict.fromkeys(
    map(ord, "\u200b\u200c\u200d\u2060\ufeff\u115f\u1160\u3164\uffa0\u2800\u00ad")
)
# What starts a list or a quote at a line's start, as a name often is, that escape_markdown
# leaves: `1. ` (an ordered list, the backslash goes before the dot), and a lone `*` or `>`
# (it escapes `*` only before another and `>` only before a space, yet the line goes on
# after the name) or a `+`. Discord reads `\.` as `.`: the name reads as typed.
_LINE_START = re.compile(r"^\s*(?:\d+\.|[>+*])")
# What a name that shows nothing reads as: a field or a line of nothing is refused by Discord.
NO_NAME = "(a member with no visible name)"


@functools.lru_cache(maxsize=4096)
def safe(name: str) -> str:
    """A member's name as typed, but unable to mention anyone, to format the message or to turn
    the rest of its line around (direction controls are dropped); a name that would show
    nothing reads `NO_NAME`.

    Discord draws `<…>` markup in a message as something else: `<:AS:id>` as a card's picture,
    `<t:0:R>` as a time, `<#id>` as a channel's link, `</cmd:id>` and `<id:home>` as links. An
    invisible space after each `<` leaves the name as it reads while none is drawn; like every
    other escape here it adds one character to one, so a name is never shown more than twice
    as long as typed (the limits of the messages that show names count on that).

    Kept once worked out: every message of a table shows the same few names many times."""
    plain = name.translate(_BIDI_CONTROLS)
    if not plain.translate(_BLANK).strip():
        return NO_NAME
    escaped = discord.utils.escape_markdown(discord.utils.escape_mentions(plain))
    escaped = _LINE_START.sub(lambda m: m[0][:-1] + "\\" + m[0][-1], escaped, count=1)
    return escaped.replace("<", "<\u200b")


def plural(count: int, word: str, words: str | None = None) -> str:
    """`1 trick`, `2 tricks`, `1 march`, `3 marches`."""
    if count == 1:
        return f"1 {word}"
    return f"{count} {words or word + 's'}"


def _clip(text: str, limit: int = FIELD) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seat_name(table: Table, seat: int) -> str:
    """Who sits at `seat`, by name. Computers are named by their level, so two or more of
    the same level are told apart by their seats: "Computer (expert) at east" assisted,
    played a card or is waited for, not one of three "Computer (expert)" ("at seat 5" at a
    table not of four)."""
    occupant = table.seats[seat]
    if occupant is None:
        return "(empty)"
    name = safe(occupant.name)
    if occupant.is_bot and any(
        other is not None and other is not occupant and other.is_bot and other.name == occupant.name
        for other in table.seats
    ):
        name += f" at {table.seat_label(seat)}"
    return name


def occupant_name(table: Table, seat: int) -> str:
    """Who sits at `seat`, on a line that names the seat already."""
    occupant = table.seats[seat]
    return safe(occupant.name) if occupant else "(empty)"


def seat_mention(table: Table, seat: int) -> str:
    """A seated member's mention (it pings only where a message allows it), or a computer's name."""
    occupant = table.seats[seat]
    if occupant is None:
        return SEAT_NAMES[seat]
    return seat_name(table, seat) if occupant.is_bot else f"<@{occupant.user_id}>"


def side_players(table: Table, side: int) -> str:
    return f"{seat_name(table, side)} and {seat_name(table, side + 2)}"


def _tricks(result: HandResult, side: int) -> str:
    """`3 tricks to 2`, the side named first."""
    return f"{plural(result.tricks[side], 'trick')} to {result.tricks[1 - side]}"


def outcome_text(table: Table, result: HandResult) -> str:
    """How a deal ended, in the players' words, the makers' side first.

    Names who played alone (the partner who took it, when that happened, S.94), says "alone"
    on every lone hand, and says which side euchred whom.
    """
    if result.outcome == PASSED or result.maker is None:
        return "Everyone passed twice: the deal passes to the left."
    side = side_of(result.maker)
    other = 1 - side
    makers = f"**{SIDE_NAMES[side]}**"
    if result.alone is not None:
        lone = f"**{seat_name(table, result.alone)}**, alone for {SIDE_NAMES[side]}"
        if result.alone != result.maker:
            lone += f" (taking it from {seat_name(table, result.maker)})"
        makers = lone
    points = max(result.points)
    scorer = SIDE_NAMES[side] if result.outcome != EUCHRED else SIDE_NAMES[other]
    score = f"{plural(points, 'point')} to {scorer}"
    if result.outcome == EUCHRED:
        defenders = f"**{SIDE_NAMES[other]}**"
        if result.defender is not None:
            defenders = (
                f"**{seat_name(table, result.defender)}**, defending alone for {SIDE_NAMES[other]},"
            )
        return f"{defenders} euchred {makers}, who took {_tricks(result, side)}: {score}."
    if result.alone is not None:
        makers += ","  # closes "alone for ..."
    verb = "march" if result.alone is None else "marched"
    if result.outcome == MARCH:
        return f"{makers} {verb}, {_tricks(result, side)}: {score}."
    return f"{makers} made it, {_tricks(result, side)}: {score}."


def trump_text(table: Table, deal: DealView | Deal) -> str:
    if deal.trump is None or deal.maker is None:
        return "—"
    text = f"{suit_text(deal.trump)}, made by {seat_name(table, deal.maker)}"
    # A lone hand is said where trump is: a hand in play shows no declarations, and a member
    # who went alone (or is played against alone) is told it there too.
    if deal.alone is not None:
        text += f"; {seat_name(table, deal.alone)} plays alone"
    if deal.defender is not None:
        text += f"; {seat_name(table, deal.defender)} defends alone"
    return text


def score_text(view: MatchView) -> str:
    """The running score of the game, and of the rubber."""
    a, b = view.scores
    if view.over:
        last = view.games[-1].scores if view.games else view.scores
        a, b = last
    text = f"{SIDE_NAMES[0]} {a}, {SIDE_NAMES[1]} {b}"
    if view.is_rubber:
        won = [sum(1 for g in view.games if g.winner == side) for side in (0, 1)]
        number = len(view.games) if view.over else view.game_number + 1
        text += (
            f" in game {number} of the rubber; games won {won[0]}–{won[1]}, "
            f"rubber points {view.rubber_points[0]}–{view.rubber_points[1]}"
        )
    return text


def game_text(game: GameResult, number: int) -> str:
    double = " (a double game: the losers scored nothing)" if game.double else ""
    lap = f", {plural(game.carried, 'point')} carried into the next game" if game.carried else ""
    return (
        f"Game {number + 1} to {SIDE_NAMES[game.winner]}, {game.scores[game.winner]}–"
        f"{game.scores[1 - game.winner]}{double}{lap}."
    )


def match_text(table: Table, view: MatchView, named: bool = True) -> str:
    """Who won the match; `named` False leaves out the winners' names: the seats of a table
    between matches may be others' by now (a member left, a computer or one waiting sat)."""
    if view.winner is None:
        return "The match is over."
    winners = SIDE_NAMES[view.winner]
    if named:
        winners += f" ({side_players(table, view.winner)})"
    if view.is_rubber:
        a, b = view.rubber_points
        mine, theirs = (a, b) if view.winner == 0 else (b, a)
        return f"{winners} win the rubber, {mine} rubber points to {theirs}!"
    return f"{winners} win the game!"


def _seats_field(table: Table, deal: DealView | None) -> str:
    lines = []
    for seat in range(4):
        marks = []
        if deal and deal.dealer == seat:
            marks.append("dealer")
        if deal and seat in deal.sitting_out:
            marks.append("sits out")
        if deal and deal.alone == seat:
            marks.append("alone")
        if deal and deal.defender == seat:
            marks.append("defends alone")
        turn = "▶ " if deal and deal.to_act == seat else ""
        extra = f" ({', '.join(marks)})" if marks else ""
        name = occupant_name(table, seat)  # the line names the seat already
        lines.append(f"{turn}**{SEAT_NAMES[seat].capitalize()}**: {name}{extra}")
    if table.waiting:
        lines.append("Waiting: " + ", ".join(safe(o.name) for o in table.waiting))
    return _clip("\n".join(lines))


def said_lines(table: Table, deal: DealView | Deal) -> list[str]:
    """What each seat said, a line each, worded by the part of the deal it was said in.

    The declarations hold actions only, so the part is followed here: the dealer's first word
    on a turned-up Joker names its suit; the maker's partner's word straight after the making
    is his answer to it (to a maker alone, a pass lets him play alone: he sits out); any other
    pass once trump is made is an adversary not defending alone.
    """
    lines = []
    made = -1  # where the trump was made, and by whom
    maker = 0
    lone = False
    for i, (seat, action) in enumerate(deal.declarations):
        lone_maker = None
        if i == 0 and deal.turn_up == JOKER:
            phase: str | None = JOKER_SUIT
        elif made >= 0 and i == made + 1 and seat == partner_of(maker):
            phase = PARTNER_ALONE
            lone_maker = seat_name(table, maker) if lone else None
        elif action == PASS and made >= 0:
            phase = DEFEND_ALONE
        else:
            phase = None
            if made < 0 and makes_trump(action):
                made, maker, lone = i, seat, is_alone(action)
        lines.append(
            f"{seat_name(table, seat)} {said_text(action, seat, deal.dealer, phase, lone_maker)}"
        )
    return lines


def declarations_text(said: list[str], deal: DealView | Deal, most: int | None = None) -> str:
    """The declarations for a field: the last `most` (all by default) that fit in it, an "…"
    line where earlier ones are left out. A turned-up Joker's naming, the first, is kept:
    it says what the Joker stands for all the deal."""
    head = said[:1] if deal.turn_up == JOKER else []
    body = said[len(head) :]
    shown = body[-most:] if most else body
    while len(shown) > 1 and len("\n".join([*head, "…", *shown])) > FIELD:
        shown = shown[1:]
    cut = ["…"] if len(shown) < len(body) else []
    return _clip("\n".join([*head, *cut, *shown]))


def phase_words(deal: DealView | Deal, options: Options | None = None) -> str:
    """What the seat to act decides now. To a maker alone his partner does not "play with
    partner": a pass sits him out (RULES §4), so the choice is worded as it is; nor may a
    dealer stuck with stick the dealer (the table's `options`) pass in the second round."""
    if deal.phase == PARTNER_ALONE and deal.alone is not None:
        return "the maker plays alone: his partner takes it from him alone, or lets him play alone"
    if (
        deal.phase == ROUND_TWO
        and options is not None
        and options.stick_the_dealer
        and deal.to_act == deal.dealer
    ):
        return "second round: the dealer must name a suit (stick the dealer)"
    return PHASE_WORDS[deal.phase]


def turn_up_text(deal: DealView | Deal) -> str:
    """The turn-up, and for a Joker the suit the dealer named for it (RULES §6)."""
    text = card_text(deal.turn_up)
    if deal.turn_up == JOKER and deal.turn_up_suit is not None:
        text += f" ({SUIT_NAMES[deal.turn_up_suit]})"
    return text


def _trick_line(table: Table, trick: tuple[tuple[int, str], ...]) -> str:
    return "  ".join(f"{seat_name(table, s)}: {card_text(c)}" for s, c in trick)


def _deal_fields(embed: discord.Embed, table: Table, deal: DealView) -> None:
    """Turn-up, trump, what was said, the trick on the table (or the last one), tricks won."""
    embed.add_field(
        name="Turn-up",
        value=turn_up_text(deal) + (" (turned down)" if deal.turned_down else ""),
    )
    if deal.trump:
        embed.add_field(name="Trump", value=trump_text(table, deal))
    said = said_lines(table, deal)
    if said:
        embed.add_field(name="Declarations", value=declarations_text(said, deal, 8), inline=False)
    if deal.trick:
        embed.add_field(
            name="On the table", value=_clip(_trick_line(table, deal.trick)), inline=False
        )
    if deal.last_trick and deal.last_winner is not None:
        embed.add_field(
            name="Last trick",
            value=_clip(
                _trick_line(table, deal.last_trick)
                + f" — won by {seat_name(table, deal.last_winner)}"
            ),
            inline=False,
        )
    if deal.phase in (PLAY, OVER) and deal.trump:
        won = deal.tricks_won
        embed.add_field(name="Tricks", value=f"NS {won[0] + won[2]} – EW {won[1] + won[3]}")


def pack_text(options: Options) -> str:
    """The pack a table plays with: `24 cards`, or `25 cards with the Joker` (the Joker is a
    card of the pack, counted in it as /rules counts it)."""
    return f"{options.pack + 1} cards with the Joker" if options.joker else f"{options.pack} cards"


# What the table message's first line says already (the pack, its Joker, the points, the game
# or rubber), and what only a rubber has: not repeated among the options changed.
_SAID = ("pack", "joker", "points", "match")
_RUBBER_ONLY = ("lap", "double_game")


def own_options_text(options: Options) -> str:
    """`; changed from the preset: stick the dealer on, defend alone on`, or "" when the
    table plays its preset as it is: else players reading "somerset rules" would take the
    preset's for the table's (/rules says the same, topic by topic)."""
    try:
        changed = options.changed()
    except KeyError:  # a preset this bot does not know: nothing to compare with
        return ""
    shown = [
        f"{name.replace('_', ' ')} {_option_value(value)}"
        for name, value in changed.items()
        if name not in _SAID and (options.is_rubber or name not in _RUBBER_ONLY)
    ]
    return f"; changed from the preset: {', '.join(shown)}" if shown else ""


def _option_value(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")


def table_embed(
    table: Table,
    view: MatchView | None,
    deadline: float | None = None,
    notes: list[str] | tuple[str, ...] = (),
    committed: str | None = None,
) -> discord.Embed:
    """The public table message: seats, score, the deal, the trick, whose turn, and the
    commitment to the deal's cards (`committed`), shown before any card is played."""
    embed = discord.Embed(title="Euchre table", colour=GREEN)
    options = table.options
    points = plural(options.points, "point")
    play = (
        f"{points} a game, a rubber (the best of three games)"
        if options.is_rubber
        else f"one game to {points}"
    )
    embed.description = (
        f"**{options.preset}** rules, {pack_text(options)}, {play}{own_options_text(options)}."
    )
    if table.league_name is not None:
        embed.description += f" Plays for the league **{safe(table.league_name)}**."
    deal = view.deal if view else None
    # Between matches the seats are the table as it stands for the next one: who sits where
    # may have changed since the last deal (a member left, a computer or one waiting sat), so
    # that deal's dealer, what was said and the last trick are not drawn against them. The
    # deal's own message, kept in the channel, shows it as it was played, by who played it.
    over = view is not None and view.over
    embed.add_field(
        name="Seats (North–South v East–West)",
        value=_seats_field(table, None if over else deal),
        inline=False,
    )
    if notes:
        embed.add_field(name="At the table", value=_clip("\n".join(notes[-5:])), inline=False)
    if view is None or deal is None or over:
        if view is not None and over:
            embed.add_field(
                name=f"Last {'rubber' if view.is_rubber else 'game'}",
                value=f"{score_text(view)}\n{match_text(table, view, named=False)}",
                inline=False,
            )
        embed.add_field(
            name="Status",
            value="Seating: /table join, then the host runs /table start.",
            inline=False,
        )
        if over:
            embed.set_footer(text=_footer(table))
        return embed
    embed.add_field(name="Score", value=score_text(view), inline=False)
    _deal_fields(embed, table, deal)
    if deal.to_act is not None:
        due = f" — due <t:{int(deadline)}:R>" if deadline else ""
        embed.add_field(
            name="Turn",
            value=f"{seat_mention(table, deal.to_act)}: {phase_words(deal, table.options)}{due}",
            inline=False,
        )
    if committed:
        embed.add_field(
            name="Commitment to this deal's cards", value=f"`{committed}`", inline=False
        )
    embed.set_footer(text=_footer(table))
    return embed


def _footer(table: Table) -> str:
    return f"Table {table.id} · deal {len(table.match.deals) if table.match else 0}"


def proof_text(seed: str, committed: str, deal_id: str) -> str:
    """A finished deal's seed, revealed, with what to check it against."""
    return (
        f"Seed `{seed}`\nCommitment `{committed}` to `{deal_id}`\n"
        "Anyone can check the cards: `python -m bot verify-deal` on the match's record (/record)."
    )


def finished_embed(
    table: Table,
    number: int,
    deal: DealView,
    result: HandResult,
    view: MatchView,
    proof: str | None = None,
) -> discord.Embed:
    """A deal once it is over: the last trick stays on view, with the result and the score."""
    embed = discord.Embed(title=f"Deal {number}: over", colour=GREY)
    embed.description = outcome_text(table, result)
    embed.add_field(
        name="Seats (North–South v East–West)", value=_seats_field(table, deal), inline=False
    )
    _deal_fields(embed, table, deal)
    embed.add_field(name="Score", value=score_text(view), inline=False)
    if proof:
        embed.add_field(name="The deal's seed, now shown", value=_clip(proof), inline=False)
    embed.set_footer(text=f"Table {table.id} · deal {number} · Review shows every card played")
    return embed


def review_embed(table: Table, number: int, deal: Deal) -> discord.Embed:
    """A finished deal, every card: the hands as dealt, the turn-up, the discard, each trick."""
    embed = discord.Embed(title=f"Review of deal {number}", colour=GREY)
    result = deal.result
    embed.description = outcome_text(table, result) if result else "The deal is not over."
    for seat in range(4):
        marks = " (dealer)" if seat == deal.dealer else ""
        embed.add_field(
            name=f"{SEAT_NAMES[seat].capitalize()}: {occupant_name(table, seat)}{marks}"[:256],
            value=cards_text(list(deal.dealt[seat])),
        )
    turn_up = turn_up_text(deal)
    if deal.discarded:
        turn_up += f"; the dealer discarded {card_text(deal.discarded)}"
    elif deal.trump and deal.maker is not None and deal.turn_up_suit == deal.trump:
        turn_up += " (not taken up: the dealer sat out)"
    embed.add_field(name="Turn-up", value=turn_up, inline=False)
    if deal.trump:
        embed.add_field(name="Trump", value=trump_text(table, deal), inline=False)
    if deal.seed is not None and deal.deal_id is not None:
        proof = proof_text(deal.seed, commitment(deal.seed, deal.deal_id), deal.deal_id)
        embed.add_field(name="Seed", value=_clip(proof), inline=False)
    said = said_lines(table, deal)
    if said:
        embed.add_field(name="Declarations", value=declarations_text(said, deal), inline=False)
    for i, (winner, trick) in enumerate(deal.tricks, start=1):
        embed.add_field(
            name=f"Trick {i}",
            value=_clip(_trick_line(table, tuple(trick)) + f" — won by {seat_name(table, winner)}"),
            inline=False,
        )
    return embed


def hand_embed(table: Table, seat: int, view: MatchView) -> discord.Embed:
    """A player's own hand, for a private message that follows the game."""
    deal = view.deal
    embed = discord.Embed(title=f"Your hand ({SEAT_NAMES[seat]})", colour=GOLD)
    embed.description = cards_text(list(deal.hand or ()))
    # Before trump is made: the turn-up, and in the second round that it was turned down (its
    # suit is no longer to be had), as the table message says it.
    turned = " (turned down)" if deal.turned_down else ""
    trump = suit_text(deal.trump) if deal.trump else f"turn-up {turn_up_text(deal)}{turned}"
    if deal.trump and deal.maker is not None:
        trump = trump_text(table, deal)
    embed.add_field(name="Trump", value=trump)
    if deal.discard:
        embed.add_field(name="You discarded", value=card_text(deal.discard))
    said = said_lines(table, deal)
    if said and deal.phase != PLAY:
        embed.add_field(name="Declarations", value=declarations_text(said, deal, 8), inline=False)
    if deal.trick:
        embed.add_field(
            name="On the table", value=_clip(_trick_line(table, deal.trick)), inline=False
        )
    elif deal.last_trick and deal.last_winner is not None:
        embed.add_field(
            name="Last trick",
            value=_clip(
                _trick_line(table, deal.last_trick)
                + f" — won by {seat_name(table, deal.last_winner)}"
            ),
            inline=False,
        )
    timed_out = table.timeouts[seat] if table.playing else 0
    if timed_out and not view.over:
        # Said to the member alone, before the next time-out gives their seat to a computer.
        left = TIMEOUT_TAKEOVER - timed_out
        embed.add_field(
            name="Time ran out",
            value=(
                "Time ran out on your last turn, and a computer made that move for you."
                + (
                    f" If {'your next turn runs' if left == 1 else f'{left} more turns run'}"
                    " out too, a computer holds your seat until you use `/table back`."
                    if left > 0
                    else ""
                )
            ),
            inline=False,
        )
    if view.over:
        over = f"The {'rubber' if view.is_rubber else 'game'} is over"  # as the table names it
        embed.add_field(name=over, value=match_text(table, view), inline=False)
    elif seat in deal.sitting_out:
        embed.add_field(name="This hand", value=sits_out_text(deal, seat), inline=False)
    elif deal.to_act == seat:
        embed.add_field(name="Your turn", value=_your_turn(deal, table.options), inline=False)
    elif deal.to_act is not None:
        embed.add_field(name="Waiting for", value=seat_name(table, deal.to_act), inline=False)
    embed.add_field(name="Score", value=score_text(view), inline=False)
    embed.set_footer(text=f"Table {table.id} · deal {len(table.match.deals) if table.match else 0}")
    return embed


def sits_out_text(deal: DealView | Deal, seat: int) -> str:
    """Why a seat sits this hand out: its partner plays, or defends, alone."""
    why = (
        "Your partner plays alone"
        if deal.alone == partner_of(seat)
        else "Your partner defends alone"
    )
    return f"{why}: you sit this hand out."


def _your_turn(deal: DealView, options: Options) -> str:
    """What to do now, and why some of the cards are greyed out."""
    words = phase_words(deal, options)
    hand = deal.hand or ()
    if deal.phase == PLAY and deal.trick and len(deal.legal) < len(hand):
        # The suit the led card stands for: a led bower or Joker is a trump.
        suit = EFFECTIVE_SUIT[deal.trump][deal.trick[0][1]]
        return f"{words}: you must follow {SUIT_NAMES[suit]}, so only those cards are enabled."
    if deal.phase == DISCARD and deal.turn_up in hand and deal.turn_up not in deal.legal:
        return f"{words}: the turn-up {card_text(deal.turn_up)} cannot be discarded (S.88)."
    return words


def cut_text(table: Table, cut: list[list[tuple[str, str]]]) -> str:
    """The start of a rubber: the cards cut, who plays, who partners whom, who deals first,
    and who sits out and why (S.11-S.15)."""
    rounds = []
    for i, cards in enumerate(cut):
        label = "Cut" if i == 0 else "Cut again"
        rounds.append(
            f"{label}: " + ", ".join(f"{safe(name)} {card_text(card)}" for name, card in cards)
        )
    lines = ["**The cut** (jack high):", *rounds] if rounds else []
    lines.append(
        f"{SIDE_NAMES[0]}: {side_players(table, 0)}; {SIDE_NAMES[1]}: {side_players(table, 1)}."
    )
    if table.match is not None:
        lines.append(f"{seat_name(table, table.first_dealer)} deals first.")
    match = "rubber" if table.options.is_rubber else "game"  # a table of single games: game
    for out in table.sat_out:
        why = (
            "cut lowest of everyone at the table (S.11)"
            if out.why == CUT_LOWEST
            else f"has played the most {match}s in a row, so makes room (S.15)"
        )
        host = " (still the host)" if out.user_id == table.host_id else ""
        lines.append(f"{safe(out.name)}{host} sits out this {match}: {why}.")
    return "\n".join(lines)
