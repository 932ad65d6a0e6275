"""The coach's private answers: a hint on one's turn, and the grades of one's deal.

Both speak only of the asker's own seat: a hint names an action open to it (a card of its own
hand or a declaration) and the search's figures; a deal's grades compare each of its actions
with the expert's choice, shown once the deal is over.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.ai.book import Advice
from bot.ai.coach import (
    ActionValue,
    Analysis,
    Grade,
    cost_text,
    decisions,
    lead_text,
    points_text,
    value_text,
)
from bot.engine.deal import JOKER_SUIT, ROUND_ONE, ROUND_TWO
from bot.engine.quoting import clip
from bot.storage import tables as store
from bot.tables.manager import TableManager
from bot.tables.table import Table
from bot.ui.cards import action_label, made_alone

TEAL = discord.Colour.teal()
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
# A deal's grades shown at most: the costliest first, so the ones that matter are never cut.
MAX_GRADES = 12
# The phases in which the trump is still to be made.
BIDDING = (JOKER_SUIT, ROUND_ONE, ROUND_TWO)
# Below this a difference is noise in the search, not a mistake worth listing.
NOISE = 0.0005


def book_text(
    advice: Advice, seat: int, dealer: int, phase: str | None = None, lone_maker: bool = False
) -> str:
    """The book's words, where they are, and what they favour here (in the deal's `phase`;
    `lone_maker`: the maker is alone, so his partner's pass lets him play alone)."""
    s = advice.suggestion
    favours = ", ".join(
        action_label(a, seat, dealer, phase, lone_maker) for a in advice.favours[:5]
    )
    if advice.falls_short:
        # The words say what it takes to make the trump; they favour a pass only because
        # this hand has less than that, which a learner would not read from them alone.
        favours += f", as this hand has less than these words ask for {s.asks}"
    note = f"\n{advice.note}" if advice.note else ""
    return clip(f"“{s.quote}”\n— {s.place}.{note}\nThe book favours: {favours}.", FIELD_LIMIT)


def shown_actions(
    analysis: Analysis, seat: int, dealer: int, lone_maker: bool = False
) -> tuple[list[ActionValue], str | None]:
    """The two actions a hint lists, and, when the expert's choice is not the search's best,
    why: the search's best is listed first and the choice beside it, so the hint never names
    an action its own figures put below two others without saying so."""
    ranked = analysis.ranked
    best, chosen = ranked[0], analysis.value_of(analysis.choice)
    if chosen is None or best.action == analysis.choice:
        return list(ranked[:2]), None
    gap = best.value - chosen.value
    if gap < NOISE:
        return [chosen, best], None  # as good as each other, by the search
    best_label = action_label(best.action, seat, dealer, analysis.phase, lone_maker)
    if analysis.choice == analysis.book and gap <= analysis.margin + NOISE:
        why = (
            f"The search puts {best_label} ahead by {lead_text(gap, analysis.rubber)}: less"
            f" than the {lead_text(analysis.margin, analysis.rubber)} the expert asks before it"
            " leaves the book's choice."
        )
    elif best.action not in analysis.searched:
        why = (
            f"The expert does not weigh {best_label} with this hand (too little strength for"
            " it): of the actions it weighs, its choice is the best."
        )
    else:
        why = (
            f"The expert's own search, over {analysis.drawn} of these deals drawn by their"
            " likelihood, finds its choice the best."
        )
    return [best, chosen], why


def leaves_book_text(
    analysis: Analysis, seat: int, dealer: int, lone_maker: bool = False
) -> str | None:
    """Why the expert's choice is none the book's words favour (None when it is one): the
    hint's quote and its action would otherwise contradict each other without a word."""
    advice = analysis.advice
    chosen = analysis.value_of(analysis.choice)
    if advice is None or advice.followed_by(analysis.choice) or chosen is None:
        return None
    weighed = [v for a in advice.favours if (v := analysis.value_of(a)) is not None]
    if not weighed:
        return None
    favoured = max(weighed, key=lambda v: v.value)
    label = action_label(favoured.action, seat, dealer, analysis.phase, lone_maker)
    choice = action_label(analysis.choice, seat, dealer, analysis.phase, lone_maker)
    gap = chosen.value - favoured.value
    if gap >= NOISE:
        return (
            f"The expert leaves the book here because its search finds {choice} worth"
            f" {lead_text(gap, analysis.rubber)} more than {label}."
        )
    # The book's other rules of thumb (the standard player's choice, which the expert keeps
    # unless the search finds a clear gain) play the choice; the search finds no such gain.
    return (
        f"The expert keeps to the book's other rules of thumb, which play {choice}: its"
        f" search finds {label} no better by the"
        f" {lead_text(analysis.margin, analysis.rubber)} it asks before it leaves them."
    )


# A share whose standard error is at least this is called rough, with its margin.
ROUGH = 0.02


def rough_text(analysis: Analysis) -> str:
    """How far the search's shares may be from what many more deals would give, when that is
    worth a word: about two standard errors, in percentage points."""
    if analysis.spread < ROUGH:
        return ""
    margin = round(200 * analysis.spread)
    return (
        f" These shares are rough: each is likely within {margin} points of what many more"
        " deals would give (each deal counts by how likely the bidding and the play so far"
        " make it)."
    )


def search_text(analysis: Analysis) -> str:
    """What the sampled deals come to after the expert's choice, told from the asker's side:
    "the makers" alone does not say whether they are the asker's side or the other; and, where
    the shares are rough, by about how much."""
    n, makes, marches = analysis.worlds, analysis.makes, analysis.marches
    rough = rough_text(analysis)
    if analysis.phase not in BIDDING:
        # The trump is made (the play, the discard, a lone hand's answers): the makers are
        # one side in every sampled deal.
        if analysis.ours >= 0.5:
            return (
                f"After it, your side, the makers, takes three tricks or more in {makes:.0%}"
                f" of {n} sampled deals, and all five in {marches:.0%}.{rough}"
            )
        return (
            f"After it, the makers, the other side, take three tricks or more in {makes:.0%}"
            f" of {n} sampled deals (all five in {marches:.0%}): your side euchres them in"
            f" {1 - makes:.0%}.{rough}"
        )
    theirs = 1 - analysis.ours - analysis.passed
    text = (
        f"After it, your side makes the trump in {analysis.ours:.0%} of {n} sampled deals"
        f" and the other side in {theirs:.0%}"
    )
    if analysis.passed:
        text += f"; the deal is passed out in {analysis.passed:.0%}"
    return (
        text + f". The makers take three tricks or more in {makes:.0%}, and all five in"
        f" {marches:.0%}.{rough}"
    )


def hint_embed(
    analysis: Analysis, seat: int, dealer: int, lone_maker: bool = False
) -> discord.Embed:
    """The hint for the asker's turn: the expert's action, the book's word, the figures
    (`lone_maker`: the maker is alone, as `action_label` words it)."""
    choice = action_label(analysis.choice, seat, dealer, analysis.phase, lone_maker)
    embed = discord.Embed(title="Hint", description=f"The expert would: **{choice}**", colour=TEAL)
    if analysis.advice is not None:
        said = book_text(analysis.advice, seat, dealer, analysis.phase, lone_maker)
        leaves = leaves_book_text(analysis, seat, dealer, lone_maker)
        embed.add_field(
            name=f"The book: {analysis.advice.suggestion.title}",
            value=clip(f"{said}\n{leaves}", FIELD_LIMIT) if leaves else said,
            inline=False,
        )
    if analysis.ranked:
        shown, why = shown_actions(analysis, seat, dealer, lone_maker)
        lines = [
            f"{action_label(a.action, seat, dealer, analysis.phase, lone_maker)}:"
            f" {value_text(a.value, analysis.rubber)},"
            f" {a.points:+.2f} points expected"
            + (" (the expert's choice)" if a.action == analysis.choice and why else "")
            for a in shown
        ]
        if why:
            lines.append(why)
        name = "The search's best, and the expert's choice" if why else "The best two actions"
        embed.add_field(name=name, value=clip("\n".join(lines), FIELD_LIMIT), inline=False)
        embed.add_field(name="The search", value=search_text(analysis), inline=False)
    else:
        embed.add_field(name="The search", value="A forced action: nothing to weigh.", inline=False)
    embed.set_footer(text="Only you see this hint; it is counted in your /stats.")
    return embed


def grades_embed(
    grades: Sequence[Grade],
    seat: int,
    dealer: int,
    number: int,
    seat_name: str,
    lone_maker: bool = False,
) -> discord.Embed:
    """One seat's decisions in a finished deal, costliest first, against the expert's choices
    (`lone_maker`: the maker declared alone, as `action_label` words it)."""
    embed = discord.Embed(title=f"Your decisions in deal {number} ({seat_name})", colour=TEAL)
    mistakes = [g for g in grades if g.cost >= NOISE]
    if not grades:
        embed.description = "You had no decision to make in this deal: every action was forced."
        return embed
    if not mistakes:
        embed.description = (
            "Your one decision was as good as the expert's choice."
            if len(grades) == 1
            else f"All {len(grades)} of your decisions were as good as the expert's choice."
        )
        return embed
    lines = []
    for g in mistakes[:MAX_GRADES]:
        where = f"Trick {g.trick}" if g.trick else g.phase.replace("_", " ").capitalize()
        line = (
            f"**{where}**: {action_label(g.action, seat, dealer, g.phase, lone_maker)}; the"
            f" expert: {action_label(g.best, seat, dealer, g.phase, lone_maker)}."
            f" Cost: {cost_text(g.cost, g.rubber)}; {points_text(g.points)}."
        )
        if g.advice is not None:
            said = "as" if g.advice.followed_by(g.action) else "against"
            s = g.advice.suggestion
            line += f" You played {said} the book: “{s.quote}” ({s.chapter}, p. {s.page})"
            if g.advice.falls_short:
                line += f"; it passes with this hand, which has less than it asks for {s.asks}"
            if g.advice.note:
                line += f". {g.advice.note}"
        lines.append(line)
    good = len(grades) - len(mistakes)
    # Every decision listed: no line says that none other was as good.
    tail = (
        f"\n{good} other decision{'s' if good != 1 else ''} as good as the expert's."
        if good
        else ""
    )
    body = "\n".join(lines)
    embed.description = clip(body, DESCRIPTION_LIMIT - len(tail)) + tail
    return embed


__all__ = [
    "book_text",
    "grades_embed",
    "hint_embed",
    "leaves_book_text",
    "rough_text",
    "search_text",
    "send_grades",
    "shown_actions",
]


async def send_grades(
    interaction: discord.Interaction,
    manager: TableManager,
    table: Table,
    match_no: int,
    number: int,
) -> None:
    """After a finished deal's review, the clicker's own grades for it, privately: the
    decisions the clicker took, whoever holds the seat now (a substitute is graded on his own
    moves, not on the ones of the player he replaced; a computer's moves for a member who
    timed out are nobody's). A member who took no action in the deal gets none. The search
    runs in the computer players' workers."""
    user_id = interaction.user.id
    if table.variant is not None:
        return
    async with manager.lock_for(table):
        match = table.match
        if match is None or table.match_no != match_no or not 0 < number <= len(match.deals):
            return
        deal = match.deals[number - 1]
        if not deal.is_over:
            return
        actors = await store.match_actors(manager.db, table.id, match_no)
        before = sum(len(d.history) for d in match.deals[: number - 1])
        if len(actors) != len(table.actions):
            return  # the stored actions do not match the table's: grade no one rather than wrongly
        chosen = [
            d
            for i, d in enumerate(decisions(match, deals=[number]))
            if actors[before + i] == user_id
        ]
    if not chosen:
        return
    seat = chosen[0].seat
    grades = await manager.computers.grade(table.id, chosen)
    embed = grades_embed(
        grades, seat, deal.dealer, number, table.seat_label(seat), made_alone(deal)
    )
    await interaction.followup.send(embed=embed, ephemeral=True)
