"""A euchre night's seating from round to round, as pure functions of who is there.

The night numbers its players as places (0..n-1, in the order they registered) and seats each
round in places: by the progressive schedule (`progressive.schedule`: partners rotate, every
pair partners once where the numbers allow) or by "winners move up"
(`progressive.winners_move_up`, from the last round's results). A table
``((a, b), (c, d))`` seats a at north and b at south against c at east and d at west.

Players who come and go (Keller's progressive euchre has none; a club night has them) are
handled one of two ways, the organiser's choice:

- ``computer``: the plan stays as it was drawn at the start. A player who leaves keeps their
  place, played by a computer. A latecomer plays from the next round, never later, without
  moving anyone else (`seat_latecomers`): in the first place a computer plays (a leaver's, in
  place order, then a computer's seat at an extra table), else at an extra table of latecomers,
  computers in its seats until more come.
- ``bye``: the plan follows the players present. Whenever they changed, the next round is
  drawn again: by the schedule, a fresh schedule for those present; by winners move up, the
  round the rule gives, its gaps filled by those waiting (the players sitting out first), and
  the foot tables broken up to fill the gaps left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.leagues.progressive import schedule, winners_move_up
from bot.leagues.rounds import Round, Table

COMPUTER, BYE = "computer", "bye"
SCHEDULE, WINNERS = "schedule", "winners_move_up"


def table_seats(table: Table) -> tuple[int, int, int, int]:
    """A table's places by seat, north to west: partners sit north-south and east-west."""
    (a, b), (c, d) = table
    return a, c, b, d


def new_plan(players: Sequence[int], first: int = 1) -> dict[str, Any]:
    """The plan of a night for these players (user ids, in place order), from round `first`:
    their progressive schedule, and how many partnerships it repeats."""
    drawn = schedule(len(players))
    return {
        "players": list(players),
        "rounds": [r.to_dict() for r in drawn.rounds],
        "first": first,
        "repeated": drawn.repeated_partnerships,
    }


def round_from_dict(data: dict[str, Any]) -> Round:
    tables = tuple(((int(a), int(b)), (int(c), int(d))) for (a, b), (c, d) in data["tables"])
    return Round(tables, tuple(int(p) for p in data["byes"]))


def scheduled_round(plan: dict[str, Any], number: int) -> Round:
    """Round `number` of the night by its plan (a plan shorter than the night starts over)."""
    rounds = plan["rounds"]
    return round_from_dict(rounds[(number - plan["first"]) % len(rounds)])


def side_that_won(points: tuple[int, int], tricks: tuple[int, int]) -> int:
    """The partnership that won a table's round: more points, then more tricks; north-south
    (the partnership that sat first) when even."""
    if points[0] != points[1]:
        return 0 if points[0] > points[1] else 1
    return 0 if tricks[0] >= tricks[1] else 1


def next_by_winners(
    last: Round, winners: Sequence[int], sat_out: Mapping[int, int] | None = None
) -> Round:
    """The next round by "winners move up" (the head table first in `last.tables`), the byes
    going to those who have sat out least (`sat_out`, by place)."""
    return winners_move_up(last, winners, sat_out)


def changed(plan: dict[str, Any], present: Sequence[int]) -> bool:
    """Whether the players present differ from the plan's (someone left, someone came)."""
    return set(plan["players"]) != set(present)


def take_over_places(plan: dict[str, Any], present: Sequence[int]) -> list[int]:
    """Latecomers take the places of players who left (the ``computer`` way), in order.

    Returns:
        The latecomers still waiting for a place.
    """
    places = plan["players"]
    here = set(present)
    waiting = [p for p in present if p not in places]
    for index, player in enumerate(places):
        if player not in here and waiting:
            places[index] = waiting.pop(0)
    return waiting


def seat_latecomers(plan: dict[str, Any], present: Sequence[int]) -> list[Table]:
    """Seat the ``computer`` way's latecomers from the next round, in the order they came.

    Why this way: the schedule of those who came on time is the night's promise to them (every
    two partners once), so a latecomer never reshapes it. A place a computer plays is a place
    a person should have: a leaver's place in the schedule first (in place order), then a
    computer's seat at an extra table. Whoever still waits forms extra tables of four, at the
    foot (computers in the seats nobody takes), which play every round beside the schedule's,
    their partners turning each round (`extra_tables`). Everyone scores their own side's
    points, as at every table, so a latecomer's total is comparable with everyone's (only
    shorter). Places of computers are None in ``plan["players"]``.

    Returns:
        The extra tables formed now, in places (each ``((a, b), (c, d))``).
    """
    waiting = take_over_places(plan, present)
    places = plan["players"]
    extra = plan.setdefault("extra", [])
    formed: list[Table] = []
    while waiting:
        group, waiting = waiting[:4], waiting[4:]
        first = len(places)
        places.extend([*group, *[None] * (4 - len(group))])
        extra.append([first, first + 1, first + 2, first + 3])
        formed.append(((first, first + 1), (first + 2, first + 3)))
    return formed


def extra_tables(plan: dict[str, Any], number: int) -> tuple[Table, ...]:
    """The extra tables of latecomers in round `number`: the same four places, the partners
    turning round by round (each of the three ways to pair four, in turn)."""
    tables = []
    for a, b, c, d in plan.get("extra", []):
        pairings = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
        tables.append(pairings[number % 3])
    return tuple(tables)


@dataclass(frozen=True, slots=True)
class LatePlace:
    """Where a latecomer will sit from the next round: in the place of a leaver (`instead_of`,
    a user id), at a computer's seat of an extra table, or at a new extra table with
    `computers` computers (0-3)."""

    kind: str  # "place", "extra_seat" or "new_table"
    instead_of: int | None = None
    computers: int = 0


def late_place(plan: dict[str, Any], present: Sequence[int], user_id: int) -> LatePlace | None:
    """Where `user_id`, registered late, sits from the next round if nobody else comes or goes
    meanwhile (`seat_latecomers` on a copy of the plan); None when he has a place already."""
    if user_id in plan["players"]:
        return None
    trial = {**plan, "players": list(plan["players"]), "extra": [*plan.get("extra", [])]}
    before = list(trial["players"])
    formed = seat_latecomers(trial, present)
    index = trial["players"].index(user_id)
    if index < len(before):
        instead = before[index]
        if any(index in table for table in plan.get("extra", [])):
            return LatePlace("extra_seat")
        return LatePlace("place", instead_of=instead)
    for (a, b), (c, d) in formed:
        if index in (a, b, c, d):
            computers = sum(1 for p in (a, b, c, d) if trial["players"][p] is None)
            return LatePlace("new_table", computers=computers)
    raise AssertionError("a latecomer is always seated")  # pragma: no cover


def redrawn(
    plan: dict[str, Any], present: Sequence[int], number: int, movement: str, seated: Round
) -> dict[str, Any] | None:
    """The ``bye`` way: a plan for the players present, from round `number`.

    Args:
        plan: the plan so far.
        present: the players present, in the order they registered.
        number: the round about to be seated.
        movement: ``schedule`` or ``winners_move_up``.
        seated: the round `number` as the old plan seats it (in its places).

    Returns:
        The new plan, or None when fewer than four are present.
    """
    if len(present) < 4:
        return None
    here = set(present)
    old = plan["players"]
    stayed = [p for p in old if p in here]
    latecomers = [p for p in present if p not in old]
    if movement == SCHEDULE:
        return new_plan([*stayed, *latecomers], first=number)
    tables = [[old[p] for side in table for p in side] for table in seated.tables]
    waiting = [old[p] for p in seated.byes if old[p] in here] + latecomers
    holes = [[p if p in here else None for p in table] for table in tables]
    while any(None in table for table in holes):
        for table in holes:
            for i, player in enumerate(table):
                if player is None and waiting:
                    table[i] = waiting.pop(0)
        if any(None in table for table in holes):
            foot = holes.pop()  # the foot table breaks up to fill the gaps above it
            waiting.extend(p for p in foot if p is not None)
    order = [p for table in holes for p in table] + waiting
    count = len(holes)
    rnd = Round(
        tuple(((4 * t, 4 * t + 1), (4 * t + 2, 4 * t + 3)) for t in range(count)),
        tuple(range(4 * count, len(order))),
    )
    return {"players": order, "rounds": [rnd.to_dict()], "first": number, "repeated": 0}
