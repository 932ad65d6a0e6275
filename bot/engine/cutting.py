"""Forming a table by cutting cards (S.11-S.15, J.3): who plays, who partners whom, who deals.

Every cut is a card drawn from a freshly shuffled pack, the table's own (S.9: "every one must
cut from the same pack"; the 24-card pack has no 8 or 7 to cut, and a Joker, which has no rank
in the cut, is left out); jack is high, then A K Q 10 9 8 7, and suits do not rank (RULES.md §2). Where a tie decides nothing (the two lowest, or the two
highest, when only partnerships are at stake) it stands; where it does, the tied players cut
again among themselves (S.13, S.14). Every round of cards cut is returned, so the bot can show
them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from bot.engine.cards import Card, cut_value, make_pack

Player = Hashable


@dataclass(frozen=True, slots=True)
class Cut:
    """One round of cutting: each player's card, in the order they cut."""

    cards: tuple[tuple[Player, Card], ...]


@dataclass(frozen=True, slots=True)
class TableCut:
    """The result of cutting for partners and first deal.

    Attributes:
        seats: the players by seat, 0 to 3; seats 0 and 2 are partners, as are 1 and 3.
        dealer: the seat of the first dealer (the highest cut, S.11).
        cuts: every round of cards cut, in order, to show the table.
    """

    seats: tuple[Player, Player, Player, Player]
    dealer: int
    cuts: tuple[Cut, ...]


def _cut(players: Sequence[Player], rng: random.Random, lowest: str) -> Cut:
    pack = make_pack(lowest)
    rng.shuffle(pack)
    return Cut(tuple(zip(players, pack, strict=False)))


def rank_by_cut(
    players: Sequence[Player],
    rng: random.Random,
    boundaries: Sequence[int],
    cuts: list[Cut],
    lowest: str = "7",
) -> list[Player]:
    """Order players from highest cut to lowest, cutting again only where a tie matters.

    A tie matters when the tied players straddle one of `boundaries` (a position in the
    order: 1 separates the dealer from the rest, 2 the two highest from the two lowest, 4
    those who play from those who wait). Rounds cut are appended to `cuts`.
    """
    cut = _cut(players, rng, lowest)
    cuts.append(cut)
    value = {p: cut_value(c) for p, c in cut.cards}
    order = sorted(players, key=lambda p: -value[p])
    result: list[Player] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and value[order[j]] == value[order[i]]:
            j += 1
        group = order[i:j]
        inner = [b - i for b in boundaries if i < b < j]
        if len(group) > 1 and inner:
            group = rank_by_cut(group, rng, inner, cuts, lowest)
        result.extend(group)
        i = j
    return result


def cut_for_table(
    players: Sequence[Player], rng: random.Random | None = None, lowest: str = "7"
) -> tuple[list[Player], list[Player], list[Cut]]:
    """Choose the four who play from more than four candidates (S.11, S.12).

    The fifth and sixth highest belong to the table (S.12) and come in first, the fifth before
    the sixth, so ties across the fourth, fifth and sixth places are cut again too.

    Returns:
        (the four who play, those who wait in order of their cut, the rounds cut).
    """
    rng = rng or random.SystemRandom()
    cuts: list[Cut] = []
    if len(players) <= 4:
        return list(players), [], cuts
    order = rank_by_cut(players, rng, [b for b in (4, 5, 6) if b < len(players)], cuts, lowest)
    return order[:4], order[4:], cuts


def cut_for_partners(
    players: Sequence[Player], rng: random.Random | None = None, lowest: str = "7"
) -> TableCut:
    """Cut for partners and first deal among four players (S.11, S.13, S.14).

    The two highest play against the two lowest; the highest deals first (S.11). The highest
    cut takes seat 0 with the second highest opposite (seat 2); the other two sit between.
    A tie for the deal is cut again between the tied players even when they are partners.
    """
    if len(players) != 4:
        raise ValueError("cutting for partners needs four players")
    rng = rng or random.SystemRandom()
    cuts: list[Cut] = []
    order = rank_by_cut(players, rng, [1, 2], cuts, lowest)
    high, second, third, low = order
    # The dealer sits at seat 0 with his partner opposite; the others between them.
    seats = (high, third, second, low)
    return TableCut(seats=seats, dealer=0, cuts=tuple(cuts))


def who_goes_out(
    consecutive: dict[Player, int],
    count: int,
    rng: random.Random | None = None,
    lowest: str = "7",
) -> tuple[list[Player], list[Cut]]:
    """Who leaves the table at a rubber's end when candidates wait (S.15).

    Those who have played the most consecutive rubbers go out first; among equals the lowest
    cut goes out.

    Args:
        consecutive: each player's number of consecutive rubbers played.
        count: how many must go out (one per waiting candidate, at most four).
        lowest: the lowest rank of the table's pack, which is cut from ("9" for 24 cards).
    """
    rng = rng or random.SystemRandom()
    cuts: list[Cut] = []
    count = max(0, min(count, len(consecutive)))
    by_rubbers = sorted(consecutive, key=lambda p: -consecutive[p])
    out: list[Player] = []
    i = 0
    while len(out) < count:
        level = consecutive[by_rubbers[i]]
        group = [p for p in by_rubbers if consecutive[p] == level]
        need = count - len(out)
        if len(group) <= need:
            out.extend(group)
        else:
            # Lowest cut goes out: rank them and take from the bottom.
            ranked = rank_by_cut(group, rng, [len(group) - need], cuts, lowest)
            out.extend(ranked[len(group) - need :])
        i += len(group)
    return out, cuts
