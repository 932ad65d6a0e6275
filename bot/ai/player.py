"""What every computer player does before it thinks: read the view, take a forced action."""

from __future__ import annotations

from bot.ai.knowledge import Knowledge, read
from bot.engine.match import MatchView


class ComputerPlayer:
    """A level: `choose(view)` returns one of `view.deal.legal`; subclasses write `decide`."""

    level = ""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: MatchView) -> str:
        """One of `view.deal.legal` for this seat's view. A forced action takes no thought.

        Raises:
            ValueError: the view offers this seat no action.
        """
        k = read(view)
        if not k.legal:
            raise ValueError("this seat has nothing to do")
        if len(k.legal) == 1:
            return k.legal[0]
        action = self.decide(k)
        return action if action in k.legal else k.legal[0]

    def decide(self, k: Knowledge) -> str:
        """The action this level prefers, given what the seat knows."""
        raise NotImplementedError
