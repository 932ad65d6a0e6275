"""The engine's exceptions.

Every message is written to be shown to a player as it is ("you must follow hearts"), so the
Discord layer can turn any of these into an ephemeral reply without rewording it.
"""

from __future__ import annotations


class EuchreError(Exception):
    """Base class of every error the rules engine raises on purpose."""


class CardError(EuchreError, ValueError):
    """A card code or name that names no card (`"ZZ"`, `"11H"`)."""


class OptionsError(EuchreError, ValueError):
    """An unknown option, a bad value, or options that cannot go together."""


class IllegalAction(EuchreError):
    """An action the rules do not allow now, by this seat."""


class RecordError(EuchreError, ValueError):
    """A game record that cannot be read, or that the rules refuse when replayed."""
