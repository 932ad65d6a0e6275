"""Whist designs put together from designs on the blocks of a transversal design or of
another group divisible design.

Six constructions, for sizes where no design developed by a group is known
(`bot.leagues.transversal`, `bot.leagues.quintuples`, `bot.leagues.resolvable` and
`bot.leagues.pbd` give the blocks):

- **4m + 1 = k q + 1** (k = 4a + 1, q = 4b), from a transversal design of k groups of q points
  (or another group divisible design of groups of q and blocks of k: a design of blocks of five
  less a point, weighted, gives 177 = 16 x 11 + 1; the groups may differ in size, as for
  93 = 4 x 20 + 12 + 1, `bot.leagues.long_group`), designs for k and for each q + 1, and
  one more player, infinity. Its blocks and each group
  with infinity added cover every pair of players exactly once. Round x (x any player) puts
  together, for each block or group holding x, the round of that block's design in which x
  sits out. The blocks through x hold every other player exactly once, so x sits out and every
  other player sits at one table. Two players share one block, and each round of its design is
  used once, in the round of the player who sits it out: they partner once and oppose twice.
  Whist designs of 4m + 1 players put together this way on any such cover are again whist
  designs (the construction is Baker's, 1975).
- **4m + 1 on a shipped pairwise balanced design** (`bot.leagues.pbd`): the same closure on
  any blocks of sizes 4a + 1 that cover every pair once: 129, on Z_128 and infinity.
- **4m = k q** (k = 4a, q = 4b), from a transversal design of k groups of q points resolved into
  q parallel classes, and designs for k and for q players. Each round of the design for k on
  every block of one class is a round (q (k - 1) rounds), and each round of the design for q on
  every group at once (q - 1 more): k q - 1 rounds, in which two players of different groups
  meet only in their block's design, and two of one group only in the group's.
- **4m = k q + w, with a hole** (k = 4a + 1; w = 4b divides q), from a transversal design of k
  groups of q points (or, as above, another group divisible design: 180 = 16 x 11 + 4), a
  design for k on the blocks, w more players W, and on each group with W
  a design for q + w that holds a design for W in w - 1 of its rounds
  (`bot.leagues.whist_sub`). Round x, for x in a group, puts together the blocks' rounds in
  which x sits out (every player of the other groups) and one of the q other rounds of the
  design on x's group and W (W sits at different tables in those). In the last w - 1 rounds
  W plays a design for w, and each group the rest of its design's rounds that held W's. Two
  players of different groups meet in their block's design, two of a group, or one of a group
  and one of W, in the design on that group and W, and two of W in W's design.
- **4m = v m, weighted** (v = 4 mod 12, m at least 4), from a resolvable design of blocks of
  four on v points, a transversal design of 4 groups of m points resolved into m classes, and
  designs for 4 and 4m players. Each point stands for m players; each block of the master for
  a transversal design on its four points' players, so one master class gives m classes of
  blocks of four, and one master class is set apart: each of its blocks is a group of 4m
  players. Then, as for k q, the design for 4 on every block of a class is a round, and the
  design for 4m on every group at once. Two players of points in one master block meet in that
  block's transversal design, two of points in one set-apart block in its group's design.
  (v - 1) / 3 - 1 master classes make ((v - 1) / 3 - 1) m classes, three rounds each, and the
  groups 4m - 1 rounds: v m - 1 in all. 140 = 28 x 5 and 200 = 40 x 5.
- **4m = k q, the groups' byes at one table** (k = 4a, q = 4b + 1), from a transversal design
  of k groups of q points resolved into q parallel classes, and designs for k and for q
  players. A design for q seats all but one player of a group each round, each sitting out
  once. One class P is set apart: in round B, for each block B of P, every group plays the
  round of its design in which its point of B sits out, and B's k players, one from each
  group, play the first round of the design for k (q rounds). Each other class gives k - 1
  rounds, the design for k on every block at once, and P the rest of the design for k on its
  blocks (k - 2 rounds): q + (q - 1)(k - 1) + k - 2 = k q - 1. Two players of different groups
  meet only in their block's design, two of one group only in the group's. 132 = 4 x 33, on
  Wilson's transversal design of 5 groups of 33, less a group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from bot.leagues import long_group, pbd, quintuples, whist_sub
from bot.leagues.resolvable import resolvable_quadruples
from bot.leagues.rounds import Round, Table
from bot.leagues.transversal import resolvable_transversal_design, transversal_design

# A whist design for a number of players, or None (`bot.leagues.whist.design`).
Designs = Callable[[int], list[Round] | None]


def block_design(players: int, designs: Designs) -> list[Round] | None:
    """A whist design for `players` by one of the three constructions, from smaller designs
    given by `designs`; None when none applies."""
    if players % 4 == 1:
        return _with_infinity(players, designs) or _on_shipped_blocks(players, designs)
    if players % 4 == 0:
        return (
            _resolved(players, designs)
            or _with_a_hole(players, designs)
            or _inflated(players, designs)
            or _byes_at_one_table(players, designs)
        )
    return None


def _with_infinity(players: int, designs: Designs) -> list[Round] | None:
    infinity = players - 1
    for blocks, groups in _group_divisible_designs(players - 1, 0):
        covers = _covers([*blocks, *([*group, infinity] for group in groups)], designs)
        if covers is not None:
            return _closure(players, covers)
    return None


def _on_shipped_blocks(players: int, designs: Designs) -> list[Round] | None:
    """Baker's closure on the pairwise balanced design that ships for `players`
    (`bot.leagues.pbd`), its blocks of several sizes."""
    family = pbd.shipped(players)
    covers = None if family is None else _covers(family.blocks(), designs)
    return None if covers is None else _closure(players, covers)


def _covers(
    blocks: list[list[int]], designs: Designs
) -> list[tuple[list[int], list[Round]]] | None:
    """Each block with the design for its size; None when one of those is missing."""
    sized = {size: designs(size) for size in {len(block) for block in blocks}}
    covers = []
    for block in blocks:
        small = sized[len(block)]
        if small is None:
            return None
        covers.append((block, small))
    return covers


def _closure(players: int, covers: list[tuple[list[int], list[Round]]]) -> list[Round]:
    """Round x: for each cover holding x, the round of its design in which x sits out."""
    return [Round(tuple(t), (x,)) for x, t in enumerate(_sit_out_tables(players, covers))]


def _group_divisible_designs(
    grouped: int, w: int, size: int | None = None
) -> Iterator[tuple[list[list[int]], list[list[int]]]]:
    """The blocks (of sizes 4a + 1) and groups (of one size q = 4b, or only of `size`) of the
    group divisible designs here on `grouped` players, for a design of grouped + 1 (w = 0) or
    of grouped + w players with a hole of w (q at least 3w, so that W can sit apart):
    transversal designs of k groups of q, designs of blocks of five less a point, weighted
    (`bot.leagues.quintuples`), a shipped pairwise balanced design less its infinity
    (`bot.leagues.pbd`), and for 93 = 92 + 1 groups of four and one of twelve
    (`bot.leagues.long_group`)."""

    def fits(q: int) -> bool:
        return q % 4 == 0 and q >= max(4, 3 * w) and size in (None, q)

    for k in range(5, grouped, 4):
        q, rest = divmod(grouped, k)
        if rest or not fits(q) or (transversal := transversal_design(k, q)) is None:
            continue
        yield (
            [_points(block, q) for block in transversal],
            [list(range(g * q, g * q + q)) for g in range(k)],
        )
    for points in quintuples.sizes():
        weight, rest = divmod(grouped, points - 1)
        if rest or not fits(4 * weight):
            continue
        found = quintuples.group_divisible(points, weight)
        if found is not None:
            groups, blocks = found
            yield blocks, groups
    for groups, blocks in pbd.less_infinity(grouped + 1):
        one_size = len({len(group) for group in groups}) == 1
        if one_size and fits(len(groups[0])) and all(len(b) % 4 == 1 for b in blocks):
            yield blocks, groups
    # Groups of two sizes serve infinity only: each group with infinity is a block of its own.
    if w == 0 and size is None and (long := long_group.group_divisible(grouped)) is not None:
        groups, blocks = long
        yield blocks, groups


def _sit_out_tables(players: int, covers: list[tuple[list[int], list[Round]]]) -> list[list[Table]]:
    """For each player x, the tables of each cover (its players, then its design) holding x in
    the round of its design in which x sits out."""
    tables: list[list[Table]] = [[] for _ in range(players)]
    for members, rounds in covers:
        for rnd in rounds:
            (sitter,) = rnd.byes
            tables[members[sitter]] += _renamed(rnd.tables, members)
    return tables


def _with_a_hole(players: int, designs: Designs) -> list[Round] | None:
    for q, w in whist_sub.shipped_sizes():
        for blocks, groups in _group_divisible_designs(players - w, w, q):
            covers, hole = _covers(blocks, designs), designs(w)
            starting = whist_sub.shipped_starting(q, w)
            if covers is None or hole is None or starting is None:
                continue
            grouped = players - w  # the players of the groups; W are grouped..players - 1
            round_of = _sit_out_tables(grouped, covers)
            developed = whist_sub.developed_rounds(starting)
            cosets = whist_sub.coset_rounds(starting, hole)
            rounds = []
            for group in groups:
                members = [*group, *range(grouped, players)]
                for y, tables in enumerate(developed):
                    seated = round_of[group[y]] + _renamed(tables, members)
                    rounds.append(Round(tuple(seated)))
            for r, rnd in enumerate(hole):
                seated = _renamed(rnd.tables, range(grouped, players))
                for group in groups:
                    seated += _renamed(cosets[r], group)
                rounds.append(Round(tuple(seated)))
            return rounds
    return None


def _resolved(players: int, designs: Designs) -> list[Round] | None:
    for k in range(4, players, 4):
        q, rest = divmod(players, k)
        if rest or q % 4 or q < 4:
            continue
        classes = resolvable_transversal_design(k, q)
        if classes is None:
            continue
        blocks = [[_points(block, q) for block in cls] for cls in classes]
        groups = [list(range(g * q, g * q + q)) for g in range(k)]
        rounds = _class_by_class(blocks, groups, designs)
        if rounds is not None:
            return rounds
    return None


def _inflated(players: int, designs: Designs) -> list[Round] | None:
    for points in range(16, players, 12):
        m, rest = divmod(players, points)
        if rest or m < 4:
            continue
        master, weights = resolvable_quadruples(points), resolvable_transversal_design(4, m)
        if master is None or weights is None:
            continue
        # Player x * m + i is point x of the master design with weight i.
        holes, *classes = master
        blocks = [
            [
                [x * m + i for x, i in zip(block, small, strict=True)]
                for block in cls
                for small in wcls
            ]
            for cls in classes
            for wcls in weights
        ]
        groups = [[x * m + i for x in hole for i in range(m)] for hole in holes]
        rounds = _class_by_class(blocks, groups, designs)
        if rounds is not None:
            return rounds
    return None


def _byes_at_one_table(players: int, designs: Designs) -> list[Round] | None:
    for k in range(4, players, 4):
        q, rest = divmod(players, k)
        if rest or q % 4 != 1 or q < 5:
            continue
        classes, small, grouped = resolvable_transversal_design(k, q), designs(k), designs(q)
        if classes is None or small is None or grouped is None:
            continue
        apart, *others = [[_points(block, q) for block in cls] for cls in classes]
        groups = [list(range(g * q, g * q + q)) for g in range(k)]
        sitting_out = {rnd.byes: rnd for rnd in grouped}  # the group's round, by its bye
        rounds = []
        for block in apart:
            seated = _renamed(small[0].tables, block)
            for group, player in zip(groups, block, strict=True):
                seated += _renamed(sitting_out[(player - group[0],)].tables, group)
            rounds.append(Round(tuple(seated)))
        return rounds + _on_every_block(others, small) + _on_every_block([apart], small[1:])
    return None


def _class_by_class(
    classes: list[list[list[int]]], groups: list[list[int]], designs: Designs
) -> list[Round] | None:
    """The rounds of the design for a block's size on every block of one class at once, class
    by class, then those of the design for a group's size on every group at once; None when
    either design is missing. The classes hold one block size, the groups one size."""
    small, grouped = designs(len(classes[0][0])), designs(len(groups[0]))
    if small is None or grouped is None:
        return None
    return _on_every_block(classes, small) + _on_every_block([groups], grouped)


def _on_every_block(classes: list[list[list[int]]], small: Sequence[Round]) -> list[Round]:
    """Class by class, each round of `small` played on every block of the class at once."""
    return [
        Round(tuple(t for block in cls for t in _renamed(rnd.tables, block)))
        for cls in classes
        for rnd in small
    ]


def _points(block: Sequence[int], q: int) -> list[int]:
    return [g * q + y for g, y in enumerate(block)]


def _renamed(tables: Sequence[Table], members: Sequence[int]) -> list[Table]:
    """A small design's tables with its player i renamed members[i]."""
    return [((members[a], members[b]), (members[c], members[d])) for (a, b), (c, d) in tables]
