"""Computer players: pure functions of what one seat may see, at three levels.

    player = make_player("expert", seed=7)
    action = player.choose(match.view_for(seat))   # one of view.deal.legal

A player reads only its seat's `MatchView` (its hand, the turn-up, every public declaration and
card, the score and the options). The same seed and the same view always give the same choice.
Players are plain synchronous objects with no shared state that changes, so a game manager may
call them from a thread or process pool.

- `easy`: legal, plain habits (three trumps with a bower to make it, aces first, cheapest
  winner or lowest loser).
- `standard`: the rules of thumb of the Somerset Club's "Suggestions about the play" (1888).
- `expert`: samples the hands the other seats may hold, consistently with everything seen, and
  chooses the action with the best expected worth for the match at the current score.
"""

from __future__ import annotations

from typing import Protocol

from bot.engine.match import MatchView

LEVELS = ("easy", "standard", "expert")
DEFAULT_LEVEL = "expert"


class Player(Protocol):
    level: str

    def choose(self, view: MatchView) -> str: ...


def make_player(level: str, seed: int | None = None, budget: int | None = None) -> Player:
    """A computer player of `level` (one of `LEVELS`).

    Args:
        level: `easy`, `standard` or `expert`.
        seed: makes the player's choices repeatable; None is seed 0.
        budget: the expert's search effort (sampled worlds per decision); None is the table
            default. Tests pass a small one. Other levels ignore it.

    Raises:
        ValueError: an unknown level.
    """
    name = (level or DEFAULT_LEVEL).strip().lower()
    if name == "easy":
        from bot.ai.easy import EasyPlayer

        return EasyPlayer(seed)
    if name == "standard":
        from bot.ai.standard import StandardPlayer

        return StandardPlayer(seed)
    if name == "expert":
        from bot.ai.expert import ExpertPlayer

        return ExpertPlayer(seed, budget=budget)
    raise ValueError(f"unknown level {level!r}: choose {', '.join(LEVELS)}")


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Player", "make_player"]
