"""Whether a match counts for its league, and every reason it does not.

A league fixes its rules and its members; a match counts for it only when it was played for the
league, by its members, by its rules, by the players themselves (unless the league allows
substitutes) and to its end. This is the one place that rule lives: storage-independent facts
in, reasons out, so a command, a standings job and a test all read the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FINISHED = "finished"
ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class Player:
    """Someone who played in a match, as the match recorded them."""

    user_id: int
    name: str
    is_bot: bool = False
    substitute: bool = False


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """What a stored match says about itself.

    Attributes:
        league_id: the league it was played for, or None.
        status: ``playing``, ``finished`` or ``abandoned``.
        flagged: a computer or a substitute played in it.
        options: the rules it was played by (``Options.to_dict()``); None while it is played.
        players: who played in it, as recorded when it ended (none while it is played).
    """

    league_id: int | None
    status: str
    flagged: bool
    options: Mapping[str, Any] | None
    players: tuple[Player, ...] = ()


@dataclass(frozen=True, slots=True)
class LeagueFacts:
    """What the rule needs of a league.

    Attributes:
        league_id: its id.
        options: its rules (``Options.to_dict()``).
        substitutes: whether matches a computer or a substitute played in still count.
        members: which of the match's players belong to it (others may be left out).
    """

    league_id: int
    options: Mapping[str, Any]
    substitutes: bool
    members: frozenset[int]


def option_differences(league: Mapping[str, Any], other: Mapping[str, Any]) -> list[str]:
    """Each option of ``other`` that differs from the league's, as ``"points is 7, the
    league's is 10"``, in the options' own order; options the league does not name are
    differences too."""
    differences = []
    for name, value in other.items():
        if name not in league:
            differences.append(f"{name} is {_shown(value)}, which the league does not set")
        elif league[name] != value:
            differences.append(f"{name} is {_shown(value)}, the league's is {_shown(league[name])}")
    return differences


def reasons_not_counted(match: MatchFacts, league: LeagueFacts | None) -> list[str]:
    """Every reason the match does not count for its league; an empty list when it counts.

    Args:
        match: the stored match.
        league: the league it was played for (None when it was played for none, or the league
            is gone).

    Returns:
        Sentences a member can read, most basic first.
    """
    reasons = []
    if match.league_id is None or league is None or league.league_id != match.league_id:
        reasons.append("it was not created for a league")
    else:
        for player in match.players:
            if not player.is_bot and player.user_id not in league.members:
                reasons.append(f"{player.name} played in it but is not a member of the league")
        if match.options is not None:
            reasons.extend(
                f"its options differ from the league's: {difference}"
                for difference in option_differences(league.options, match.options)
            )
        if match.flagged and not league.substitutes:
            reasons.append(
                "a computer or a substitute played in it, and the league does not allow substitutes"
            )
    if match.status == ABANDONED:
        reasons.append("it was abandoned before it finished")
    elif match.status != FINISHED:
        reasons.append("it is not finished yet")
    return reasons


SIDES = ("north–south", "east–west")


def sides_without_a_member(started: Mapping[int, bool]) -> list[str]:
    """Why a match whose side a computer played alone does not count: one sentence a side
    that no member sat in as the match started (`started`: whether a computer sat in each
    seat then; empty for a match whose seats were not kept), even where the league allows
    computers. A computer may stand in for a member; a side of computers is no opponent,
    and a member could otherwise climb the standings by beating the easiest computers."""
    return [
        f"{name} was played by computers alone from the start: a league match is played"
        " between members"
        for side, name in enumerate(SIDES)
        if started and all(started.get(seat, False) for seat in (side, side + 2))
    ]


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
