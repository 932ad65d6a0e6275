"""Points for one four-handed hand (S.2, S.3, J.17, J.18 and the presets of RULES.md §1)."""

from __future__ import annotations

from bot.engine.rules import Options

# What happened to the makers, in the words players use.
PASSED = "passed"  # all passed twice: no trump, no points (S.77)
MADE = "made"  # three or four tricks
MARCH = "march"  # all five tricks
EUCHRED = "euchred"  # fewer than three tricks


def hand_outcome(maker_tricks: int) -> str:
    """`made`, `march` or `euchred` from the tricks the makers took."""
    if maker_tricks == 5:
        return MARCH
    return MADE if maker_tricks >= 3 else EUCHRED


def hand_points(
    options: Options, maker_tricks: int, alone: bool, defended_alone: bool = False
) -> tuple[bool, int]:
    """Who scores and how much for a played hand.

    Args:
        options: the table's options (the points of each outcome).
        maker_tricks: tricks taken by the maker's side.
        alone: the maker's side played a lone hand.
        defended_alone: an adversary defended alone against the lone hand.

    Returns:
        (makers_score, points): True when the makers score, False when their adversaries do.
    """
    outcome = hand_outcome(maker_tricks)
    if outcome == EUCHRED:
        if alone and defended_alone:
            return False, options.defend_alone_points
        return False, options.lone_euchred_points if alone else options.euchred_points
    if outcome == MARCH:
        return True, options.lone_march_points if alone else options.march_points
    return True, options.lone_made_points if alone else options.made_points
