"""Which Discord interaction the request being handled comes from.

The Discord layer sets `current_interaction` when an interaction reaches a command or a button
(before its callback runs, in the callback's own task); the game manager stores it with the
event the request adds, and the database keeps one event per interaction. So an interaction
Discord delivers twice (a resumed gateway session, or to a second process) is applied once.
"""

from __future__ import annotations

from contextvars import ContextVar

current_interaction: ContextVar[int | None] = ContextVar("current_interaction", default=None)


def take_interaction() -> int | None:
    """The interaction being handled, cleared as it is taken: it names one event only, and a
    task started after this (a computer's move, a timer) must not carry it."""
    interaction_id = current_interaction.get()
    if interaction_id is not None:
        current_interaction.set(None)
    return interaction_id
