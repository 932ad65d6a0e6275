"""Knock-out brackets for fixed partnerships: single and double elimination.

Entrants are given in seed order (the best first). The bracket has room for the next power of
two; the places left over are byes, and they go to the top seeds, who go straight to the second
round. Seeds are placed so that, if the better seed always wins, the top two meet only in the
final, the top four only in the semi-finals, and so on (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight).

A match is fed by two slots: an entrant, or the winner or loser of an earlier match. A double
elimination bracket adds the losers' bracket, where each loser of the winners' bracket drops in
and a second loss puts out, and a grand final between the two brackets' winners. The matches
against a bye are settled at once and left out, so every match listed is one to play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WINNERS, LOSERS, GRAND_FINAL = "W", "L", "GF"


@dataclass(frozen=True)
class Slot:
    """Who fills one side of a match: an entrant, or the winner or loser of a match."""

    kind: str  # "entrant", "winner" or "loser"
    ref: int | str  # the entrant, or the match id

    def __str__(self) -> str:
        return str(self.ref) if self.kind == "entrant" else f"{self.kind} of {self.ref}"


@dataclass(frozen=True)
class BracketMatch:
    """A match to play: id ("W1.2": winners' bracket, round 1, match 2), its two slots."""

    id: str
    bracket: str
    round: int
    top: Slot
    bottom: Slot


@dataclass(frozen=True)
class Bracket:
    """A whole bracket: its matches in the order they can be played, and the final's id."""

    matches: tuple[BracketMatch, ...]
    final: str

    def entrants_of(self, match_id: str, winners: Mapping[str, int]) -> tuple[int, int] | None:
        """The two entrants of a match, or None while one is not known yet.

        Args:
            match_id: the match.
            winners: the winner of each match played so far, by match id.
        """
        match = self._by_id()[match_id]
        top, bottom = self._fill(match.top, winners), self._fill(match.bottom, winners)
        return None if top is None or bottom is None else (top, bottom)

    def playable(self, winners: Mapping[str, int]) -> list[BracketMatch]:
        """The matches not played yet whose two entrants are known."""
        return [
            m
            for m in self.matches
            if m.id not in winners and self.entrants_of(m.id, winners) is not None
        ]

    def champion(self, winners: Mapping[str, int]) -> int | None:
        """The winner of the final, once it is played."""
        return winners.get(self.final)

    def _by_id(self) -> dict[str, BracketMatch]:
        return {m.id: m for m in self.matches}

    def _fill(self, slot: Slot, winners: Mapping[str, int]) -> int | None:
        if slot.kind == "entrant":
            assert isinstance(slot.ref, int)
            return slot.ref
        assert isinstance(slot.ref, str)
        if slot.ref not in winners:
            return None
        if slot.kind == "winner":
            return winners[slot.ref]
        pair = self.entrants_of(slot.ref, winners)
        assert pair is not None
        return pair[1] if winners[slot.ref] == pair[0] else pair[0]


def seed_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of `size` (a power of two): each
    first-round match pairs seeds adding up to size + 1, and the halves keep the top seeds
    apart."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


# While building, a slot may also be a bye; such matches are settled and removed afterwards.
_BYE = Slot("bye", "")


def single_elimination(seeds: Sequence[int]) -> Bracket:
    """A single elimination bracket for the entrants in seed order.

    Raises:
        ValueError: fewer than two entrants, or one named twice.
    """
    matches, final = _winners_bracket(seeds)
    return _settle_byes(matches, final)


def double_elimination(seeds: Sequence[int]) -> Bracket:
    """A double elimination bracket: the winners' bracket, the losers' bracket and a grand
    final between their winners (one match: the losers' bracket winner has lost once, the
    other never).

    The losers' bracket alternates two kinds of rounds: its survivors play each other, then
    they meet the losers dropping from the next winners' round. Each dropping round is taken
    in reverse order every other time, so that two entrants who met in the winners' bracket
    do not meet again at once.

    Raises:
        ValueError: fewer than two entrants, or one named twice.
    """
    matches, winners_final = _winners_bracket(seeds)
    by_round: dict[int, list[BracketMatch]] = {}
    for m in matches:
        by_round.setdefault(m.round, []).append(m)
    rounds = len(by_round)
    losers: list[BracketMatch] = []
    # Losers' round 1: the losers of winners' round 1, two by two.
    first = [Slot("loser", m.id) for m in by_round[1]]
    number = 0
    survivors = first  # two entrants: the one loser goes straight to the grand final
    if len(first) > 1:
        number = 1
        survivors = _play(losers, 1, list(zip(first[::2], first[1::2], strict=True)))
    for w_round in range(2, rounds + 1):
        dropping = [Slot("loser", m.id) for m in by_round[w_round]]
        if w_round % 2 == 0:
            dropping.reverse()
        number += 1
        survivors = _play(losers, number, list(zip(dropping, survivors, strict=True)))
        if len(survivors) > 1:
            number += 1
            survivors = _play(
                losers, number, list(zip(survivors[::2], survivors[1::2], strict=True))
            )
    grand = BracketMatch(GRAND_FINAL, GRAND_FINAL, 1, Slot("winner", winners_final), survivors[0])
    return _settle_byes([*matches, *losers, grand], GRAND_FINAL)


def _play(out: list[BracketMatch], round_no: int, pairs: list[tuple[Slot, Slot]]) -> list[Slot]:
    new = [
        BracketMatch(f"{LOSERS}{round_no}.{i}", LOSERS, round_no, top, bottom)
        for i, (top, bottom) in enumerate(pairs, start=1)
    ]
    out.extend(new)
    return [Slot("winner", m.id) for m in new]


def _winners_bracket(seeds: Sequence[int]) -> tuple[list[BracketMatch], str]:
    if len(set(seeds)) != len(seeds):
        raise ValueError("an entrant is named twice")
    if len(seeds) < 2:
        raise ValueError("a bracket needs at least two entrants")
    size = 1
    while size < len(seeds):
        size *= 2
    slots = [Slot("entrant", seeds[s - 1]) if s <= len(seeds) else _BYE for s in seed_order(size)]
    matches: list[BracketMatch] = []
    round_no = 0
    while len(slots) > 1:
        round_no += 1
        new = [
            BracketMatch(
                f"{WINNERS}{round_no}.{i}", WINNERS, round_no, slots[2 * i - 2], slots[2 * i - 1]
            )
            for i in range(1, len(slots) // 2 + 1)
        ]
        matches.extend(new)
        slots = [Slot("winner", m.id) for m in new]
    return matches, matches[-1].id


def _settle_byes(matches: list[BracketMatch], final: str) -> Bracket:
    """Remove every match with a bye in it: its winner is the other side (a bye if both are
    byes), its loser a bye; slots that named it name what it resolves to."""
    resolved: dict[tuple[str, str], Slot] = {}  # (kind, match id) -> the slot it stands for

    def resolve(slot: Slot) -> Slot:
        if slot.kind in ("winner", "loser"):
            return resolved.get((slot.kind, str(slot.ref)), slot)
        return slot

    kept = []
    for m in matches:
        top, bottom = resolve(m.top), resolve(m.bottom)
        if top == _BYE or bottom == _BYE:
            resolved[("winner", m.id)] = bottom if top == _BYE else top
            resolved[("loser", m.id)] = _BYE
            continue
        kept.append(BracketMatch(m.id, m.bracket, m.round, top, bottom))
    if final not in {m.id for m in kept}:
        raise ValueError("a bracket needs at least two entrants")  # pragma: no cover
    return Bracket(tuple(kept), final)
