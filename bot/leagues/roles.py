"""League roles: who should hold each of a league's rank roles, and what to change on Discord.

A rank role (``top`` N) belongs to the members ranked 1 to N in the league's current standings:
tied members share a rank, so a tie on the boundary gives the role to all of them. The bot
keeps its own list of whom it gave each role, and a sync changes only the differences between
that list and who should hold the role now: a member the organiser gave the role by hand is
never touched.

Whether the bot may manage a role at all is decided here too, from facts the Discord layer
reads, so that the refusal at configuration and the warning after a result say the same thing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

TOP_LIMIT = 100  # a rank role covers at most the top hundred
ROLES_LIMIT = 10  # rank roles a league may have


@dataclass(frozen=True, slots=True)
class RankRole:
    """A role held by the members ranked 1 to `top` in a league's standings."""

    role_id: int
    top: int


@dataclass(frozen=True, slots=True)
class RoleChange:
    """One member's role to give (`add`) or take back."""

    role_id: int
    user_id: int
    add: bool


@dataclass(frozen=True, slots=True)
class RoleFacts:
    """What Discord says of a role, as far as managing it goes.

    Attributes:
        name: how messages show it (the Discord layer gives its mention).
        everyone: it is the server's @everyone role.
        managed: an integration (a bot or a booster role) owns it: nobody may give it.
        below_bot: it sits below the bot's highest role, as Discord requires of a role the bot
            gives or takes.
    """

    name: str
    everyone: bool = False
    managed: bool = False
    below_bot: bool = True


def check_top(top: int) -> int:
    """`top` if a rank role may cover that many places.

    Raises:
        ValueError: not 1 to `TOP_LIMIT`; the message is for the organiser.
    """
    if not 1 <= top <= TOP_LIMIT:
        raise ValueError(
            f"top is the number of places the role covers, 1 to {TOP_LIMIT}: not {top}"
        )
    return top


def wanted_holders(
    ranks: Iterable[tuple[int, int]], roles: Iterable[RankRole]
) -> dict[int, set[int]]:
    """Who should hold each rank role.

    Args:
        ranks: (rank, user id) of every member in the standings, tied members sharing a rank.
        roles: the league's rank roles.

    Returns:
        Each role's id with the members ranked within its `top`.
    """
    ranked = list(ranks)
    return {r.role_id: {user for rank, user in ranked if rank <= r.top} for r in roles}


def present_ranks(ranks: Iterable[tuple[int, int]], gone: Collection[int]) -> list[tuple[int, int]]:
    """The ranks among the members still in the server, for the rank roles: a member known to
    have left keeps his place in the standings, but a role cannot be given to him, so each one
    ranked below him moves up a place (ties still share one).

    Args:
        ranks: (rank, user id) as `wanted_holders` takes them.
        gone: the members Discord said are no longer in the server.
    """
    ranked = list(ranks)
    gone_ranks = sorted(rank for rank, user in ranked if user in gone)
    return [
        (rank - sum(1 for r in gone_ranks if r < rank), user)
        for rank, user in ranked
        if user not in gone
    ]


def differences(wanted: Mapping[int, set[int]], held: Mapping[int, set[int]]) -> list[RoleChange]:
    """The role changes that turn `held` (whom the bot gave each role) into `wanted`.

    Roles only in `held` are left alone: they are no longer the league's to manage. Removals
    come first, each role and member in order, so the same inputs give the same calls.
    """
    removals = [
        RoleChange(role, user, add=False)
        for role in sorted(wanted)
        for user in sorted(held.get(role, set()) - wanted[role])
    ]
    additions = [
        RoleChange(role, user, add=True)
        for role in sorted(wanted)
        for user in sorted(wanted[role] - held.get(role, set()))
    ]
    return removals + additions


def why_not_manageable(manage_roles: bool, role: RoleFacts) -> str | None:
    """Why the bot may not give or take `role`, in words for the organiser; None if it may.

    Args:
        manage_roles: whether the bot has the Manage Roles permission in the server.
        role: the role's facts.
    """
    if role.everyone:
        return "every member holds the everyone role already: choose another role"
    if role.managed:
        return f"the role {role.name} belongs to an integration: nobody can give it by hand"
    if not manage_roles:
        return "the bot needs the Manage Roles permission to give league roles"
    if not role.below_bot:
        return (
            f"the role {role.name} is not below the bot's highest role: move the bot's role"
            " above it under Server Settings > Roles"
        )
    return None
