"""The coach: what the expert's search makes of one decision, and grades for a played deal.

`analyse(expert, view)` draws the worlds the expert draws for its choice (the same seed and
view give the same worlds), and more of them in the play, but weighs each by its weight where
the expert resamples a few by their weights: its figures are steadier than the expert's own
averages. It weighs every legal action, the ones the expert does not bother with too, and
keeps each world's ending: so it can say how often the makers take three tricks and five, how
rough those shares are, and what each action is worth. The expert's choice is its own
`choose(view)`, never changed here.

A grade is the worth of the action taken against the expert's choice, in the search's unit
(the chance of winning the game, or rubber points), with the expected points of the deal
beside it; zero when the two agree. `decisions(match)` replays a match and gives each
decision as its seat saw it, so any record the bot reads can be graded.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.ai.book import Advice, advise
from bot.ai.common import seeded_rng
from bot.ai.expert import _ending, _solve_from, card_tricks
from bot.ai.knowledge import Knowledge, read, side
from bot.ai.sampling import World, build_deal, quick_bid, weighted_worlds
from bot.ai.solver import Solver
from bot.ai.value import ScoreValue
from bot.engine.deal import OVER, PLAY, Deal
from bot.engine.errors import IllegalAction
from bot.engine.match import Match, MatchView

if TYPE_CHECKING:
    from bot.ai.expert import ExpertPlayer

# A world's ending for one action: the makers' side (None when the deal was passed out), the
# makers' tricks (0 for a euchre, 3 or 5), and the points to side 0 and side 1.
Ending = tuple[int | None, int, int, int]

# The coach's worlds, as a multiple of the ones the expert searches. The expert draws three
# times its count of candidate worlds and keeps its count of them, resampled by their weights:
# its averages swing with the draw (at the fourth trick, over 30 worlds, a "three tricks or
# more" share moved by 0.08 from seed to seed on average, and by up to 0.19 from a count over
# every placement). The coach weighs every candidate by its weight instead, and in the play,
# where a world takes little to search, draws more: over fixed positions the share's spread
# from seed to seed fell from 0.06 to 0.04 in the bidding, to 0.05 in the discard, from 0.04
# to 0.02 in the first three tricks and from 0.08 to 0.02 from the fourth, for about twice a
# hint's time (`bench/coach_figures.py`, `bench/README.md`). The discard stays the roughest:
# six times the worlds there gave 0.03, for twice its time again (up to 0.75 s of CPU).
BIDDING_FIGURES = 3  # the very candidates the expert draws
PLAY_FIGURES = 6
LATE_FIGURES = 24


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action's worth over the sampled worlds.

    Attributes:
        action: the action code.
        value: its average worth to the seat's side: the chance of winning the game (0 to 1),
            or in a rubber the rubber points to come divided by ten (see `value.ScoreValue`).
        points: the deal's expected points, the seat's side less the adversaries'.
    """

    action: str
    value: float
    points: float


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the search makes of one seat's decision.

    Attributes:
        seat: the seat deciding.
        phase: the deal's phase.
        choice: the expert's action.
        ranked: every legal action's worth, best first (empty for a forced action).
        worlds: the worlds the figures weigh (more than the expert's own search: see
            `figure_worlds`), each by its weight (`sampling.weighted_worlds`).
        makes: the share of worlds in which, after the choice, the makers take three tricks
            or more (a weighted share, as are the others).
        marches: the share in which they take all five.
        passed: the share in which the deal is passed out (the bidding only).
        rubber: whether the values are rubber points (else the chance of winning the game).
        advice: the book's word on the decision, if it has one.
        book: the standard (Somerset) player's choice, which the expert keeps unless the
            search finds another action better by more than `margin`.
        margin: that head start, in the values' unit.
        searched: the actions the expert itself weighs (in the bidding, a declaration without
            strength behind it is not; the coach weighs every legal action).
        ours: the share of worlds in which, after the choice, the seat's own side is the
            makers (in the play 1 or 0; in the bidding, who makes the trump varies by world).
        spread: how rough the shares are: the largest standard error among them, from the
            worlds' effective number (uneven weights count as fewer worlds).
        drawn: the worlds the expert's own search weighs for its choice.
    """

    seat: int
    phase: str
    choice: str
    ranked: tuple[ActionValue, ...]
    worlds: int
    makes: float
    marches: float
    passed: float
    rubber: bool
    advice: Advice | None
    book: str | None = None
    margin: float = 0.0
    searched: tuple[str, ...] = ()
    ours: float = 0.0
    spread: float = 0.0
    drawn: int = 0

    def value_of(self, action: str) -> ActionValue | None:
        """The worth of `action`, if it was weighed."""
        return next((a for a in self.ranked if a.action == action), None)


@dataclass(frozen=True, slots=True)
class Decision:
    """One action of a replayed deal, with the view its seat had before taking it.

    Attributes:
        deal: the deal's number in its match (from 1).
        game: the game the deal is in (from 0).
        seat: the seat that acted.
        view: what the seat saw then.
        action: what it did.
    """

    deal: int
    game: int
    seat: int
    view: MatchView
    action: str


@dataclass(frozen=True, slots=True)
class Grade:
    """The cost of one decision against the expert's choice.

    Attributes:
        deal: the deal's number (from 1).
        seat: the seat that acted.
        phase: the deal's phase at the decision.
        trick: the trick played to (from 1), in the play.
        action: what the seat did.
        best: the expert's choice.
        cost: what the action lost against the choice, in the analysis' unit (never below 0).
        points: what it lost in the deal's expected points.
        rubber: whether `cost` is in rubber points (else the chance of winning the game).
        advice: the book's word on the decision, if it has one.
    """

    deal: int
    seat: int
    phase: str
    trick: int | None
    action: str
    best: str
    cost: float
    points: float
    rubber: bool
    advice: Advice | None


def analyse(expert: ExpertPlayer, view: MatchView) -> Analysis:
    """The expert's choice for `view`, every legal action's worth, and the makers' chances.

    Raises:
        ValueError: the view offers its seat no action.
    """
    k = read(view)
    if not k.legal:
        raise ValueError("this seat has nothing to do")
    score = ScoreValue(view)
    choice = expert.choose(view)
    advice = advise(k)
    if len(k.legal) == 1:
        return Analysis(k.seat, k.phase, choice, (), 0, 0.0, 0.0, 0.0, score.rubber, advice)
    rng: random.Random = seeded_rng(expert.seed, view, "expert")
    worlds = weighted_worlds(k, figure_worlds(k, expert.world_count(k)), rng, even=True)
    endings: dict[str, list[Ending]] = {a: [] for a in k.legal}
    weights: list[float] = []
    for world in worlds:
        outcome = _world_endings(k, world)
        if outcome is None:
            continue
        weights.append(world.weight)
        for action, ending in outcome.items():
            endings[action].append(ending)
    used = len(weights)
    total = sum(weights)
    if not used:
        return Analysis(k.seat, k.phase, choice, (), 0, 0.0, 0.0, 0.0, score.rubber, advice)
    if total <= 0:  # no world fits the bidding model at all: count them alike
        weights, total = [1.0] * used, float(used)
    book, margin = expert.book_choice(k)
    my_side = side(k.seat)
    ranked = sorted(
        (_worth(action, ends, weights, total, score, my_side) for action, ends in endings.items()),
        key=lambda a: (-a.value, a.action != choice),
    )
    chosen = endings[choice]

    def share(test: Callable[[Ending], bool]) -> float:
        return sum(w for w, e in zip(weights, chosen, strict=True) if test(e)) / total

    makes = share(lambda e: e[0] is not None and e[1] >= 3)
    marches = share(lambda e: e[0] is not None and e[1] == 5)
    passed = share(lambda e: e[0] is None)
    ours = share(lambda e: e[0] == my_side)
    shares = (makes, marches, passed, ours, 1 - ours - passed)
    return Analysis(
        seat=k.seat,
        phase=k.phase,
        choice=choice,
        ranked=tuple(ranked),
        worlds=used,
        makes=makes,
        marches=marches,
        passed=passed,
        rubber=score.rubber,
        advice=advice,
        book=book,
        margin=margin,
        searched=tuple(expert.searched(k)),
        ours=ours,
        spread=max(_spread(x, weights, total) for x in shares),
        drawn=expert.world_count(k),
    )


def figure_worlds(k: Knowledge, count: int) -> int:
    """How many worlds the coach's figures weigh where the expert searches `count`."""
    if k.phase != PLAY:
        return count * BIDDING_FIGURES
    return count * (LATE_FIGURES if len(k.tricks) >= 3 else PLAY_FIGURES)


def _spread(share: float, weights: list[float], total: float) -> float:
    """The standard error of a weighted share: as of a count over the worlds' effective number
    (Kish's, the square of the weights' sum over the sum of their squares)."""
    effective = total * total / sum(w * w for w in weights)
    return math.sqrt(max(0.0, share * (1 - share)) / effective)


def _worth(
    action: str,
    ends: list[Ending],
    weights: list[float],
    total: float,
    score: ScoreValue,
    my_side: int,
) -> ActionValue:
    pairs = list(zip(weights, ends, strict=True))
    value = sum(w * score.for_side(my_side, p0, p1) for w, (_, _, p0, p1) in pairs) / total
    points = sum(w * ((p0 - p1) if my_side == 0 else (p1 - p0)) for w, (_, _, p0, p1) in pairs)
    return ActionValue(action, value, points / total)


def _world_endings(k: Knowledge, world: World) -> dict[str, Ending] | None:
    """How the deal ends in `world` after each legal action (None: the world does not fit)."""
    deal = build_deal(k, world)
    if deal is None:
        return None
    if k.phase == PLAY:
        return _play_endings(k, deal)
    out: dict[str, Ending] = {}
    solved: dict[tuple, Ending] = {}
    for action in k.legal:
        after = build_deal(k, world)
        assert after is not None  # the same world built once already
        try:
            after.apply(action, k.seat)
            while after.phase not in (PLAY, OVER):
                seat = after.to_act
                assert seat is not None  # someone is to act until the deal is over
                after.apply(quick_bid(after, seat), seat)
        except IllegalAction:  # pragma: no cover - the quick model is legal
            return None
        if after.phase == OVER:
            out[action] = (None, 0, 0, 0)
            continue
        assert after.maker is not None and after.trump is not None  # in the play
        # Declarations that lead to the same deal to play are searched once.
        key = (
            after.trump,
            after.active,
            after.maker,
            after.alone,
            after.to_play,
            *(tuple(sorted(h)) for h in after.hands),
        )
        ending = solved.get(key)
        if ending is None:
            solver = Solver(after.trump, after.active, after.maker & 1)
            tricks = _solve_from(after, solver)
            ending = solved[key] = (after.maker & 1, tricks, *_ending(after, tricks))
        out[action] = ending
    return out


def _play_endings(k: Knowledge, deal: Deal) -> dict[str, Ending]:
    """Each card's ending with exact play after it (as the expert's play search finds it)."""
    assert deal.maker is not None  # in the play
    maker_side = deal.maker & 1
    return {
        card: (maker_side, tricks, *_ending(deal, tricks))
        for card, tricks in card_tricks(k, deal).items()
    }


# ---------------------------------------------------------------------------------------------
# Replaying and grading


def decisions(
    match: Match,
    initial: tuple[int, int] = (0, 0),
    deals: Iterable[int] | None = None,
    seats: Iterable[int] | None = None,
) -> list[Decision]:
    """Every decision of a match's finished deals, each with its seat's view before it.

    Args:
        match: a match played or replayed (its deals hold their hands and history).
        initial: the score the match started from (an EGN game may start from another).
        deals: the deal numbers (from 1) to take; every finished deal when None.
        seats: the seats to take; every seat when None.
    """
    wanted = set(deals) if deals is not None else None
    who = set(seats) if seats is not None else None
    queue = [_fresh(d) for d in match.deals if d.is_over]

    def next_deal(options: object, dealer: int) -> Deal:
        if queue:
            return queue.pop(0)
        # The replay wants a deal to stand at after the last one: never played.
        return Deal.shuffled(match.options, dealer, random.Random(0))

    replay = Match(match.options, match.first_dealer, deal_factory=next_deal)
    replay.scores = [initial[0], initial[1]]
    out: list[Decision] = []
    for number, deal in enumerate(match.deals, start=1):
        if not deal.is_over or replay.over:
            break
        take = wanted is None or number in wanted
        game = replay.game_number
        for seat, action in deal.history:
            if take and (who is None or seat in who):
                out.append(Decision(number, game, seat, replay.view_for(seat), action))
            replay.apply(action, seat)
    return out


def _fresh(deal: Deal) -> Deal:
    """The deal as dealt, before any action."""
    kitty = [c for c in deal.kitty if c != deal.discarded]
    return Deal.from_hands(deal.options, deal.dealer, deal.dealt, deal.turn_up, kitty)


def grade(expert: ExpertPlayer, decision: Decision) -> Grade | None:
    """The grade of one decision (None for a forced action: there was nothing to decide)."""
    view = decision.view
    if len(view.deal.legal) <= 1:
        return None
    analysis = analyse(expert, view)
    taken = analysis.value_of(decision.action)
    best = analysis.value_of(analysis.choice)
    cost = points = 0.0
    if taken is not None and best is not None and decision.action != analysis.choice:
        cost = max(0.0, best.value - taken.value)
        points = best.points - taken.points
    trick = len(view.deal.tricks) + 1 if view.deal.phase == PLAY else None
    return Grade(
        deal=decision.deal,
        seat=decision.seat,
        phase=view.deal.phase,
        trick=trick,
        action=decision.action,
        best=analysis.choice,
        cost=cost,
        points=points,
        rubber=analysis.rubber,
        advice=advise(read(view), decision.action),
    )


def grade_all(expert: ExpertPlayer, chosen: Sequence[Decision]) -> list[Grade]:
    """The grades of `chosen` decisions, costliest first (forced actions left out)."""
    grades = [g for d in chosen if (g := grade(expert, d)) is not None]
    # A stable sort: equal costs stay in the order they were played.
    return sorted(grades, key=lambda g: -g.cost)


# ---------------------------------------------------------------------------------------------
# Words


def value_text(value: float, rubber: bool) -> str:
    """A worth in players' words: a chance of winning the game, or rubber points to come."""
    if rubber:
        # Rounded first, so a value just below zero does not read "-0.00".
        return f"{round(value * 10, 2) + 0.0:+.2f} rubber points"
    return f"{value:.0%} to win the game"


def cost_text(cost: float, rubber: bool) -> str:
    """A difference of worth (a grade's cost, a margin) in players' words."""
    if rubber:
        return f"{cost * 10:.2f} rubber points"
    return f"{cost * 100:.1f}% less chance to win the game"


def lead_text(lead: float, rubber: bool) -> str:
    """How far one action's worth is ahead of another's, or a margin, in players' words."""
    if rubber:
        return f"{lead * 10:.2f} rubber points"
    return f"{lead * 100:.1f}% of the chance to win the game"


def points_text(points: float) -> str:
    """What a grade's action lost in the deal's expected points, in players' words."""
    if points >= 0.005:
        return f"{points:.2f} points fewer expected"
    if points <= -0.005:
        return f"{-points:.2f} points more expected, but worth less at this score"
    return "as many points expected"


__all__ = [
    "ActionValue",
    "Analysis",
    "Decision",
    "Grade",
    "analyse",
    "cost_text",
    "decisions",
    "grade",
    "grade_all",
    "lead_text",
    "points_text",
    "value_text",
]
