"""How each member's own private messages show cards: pictures or text (`/settings cards`).

Public messages (the table's) show cards one way for everyone: as pictures once the bot's card
emojis are in place (`bot.ui.emojis`). A member's hand and hints are his alone, so he may have
them as text: a screen reader reads a card emoji as its code ("J H"), and `J♥` as a jack and
a heart. The choices are kept here, loaded at the start and stored before they are answered,
and a private message is drawn inside `drawn_for(user_id)`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bot.storage import members
from bot.storage.database import Database
from bot.ui.emojis import cards_as_text

PICTURES, TEXT = "pictures", "text"
LOOKS = (PICTURES, TEXT)


class CardLooks:
    """Members' choices of pictures or text for their private messages, by user id."""

    def __init__(self) -> None:
        self._looks: dict[int, str] = {}

    async def load(self, db: Database) -> None:
        self._looks = await members.load_card_looks(db)

    def of(self, user_id: int) -> str | None:
        """The member's choice, or None: as the table's messages show cards."""
        return self._looks.get(user_id)

    async def choose(
        self,
        write: Callable[[Callable[[Database], Awaitable[None]]], Awaitable[Any]],
        user_id: int,
        look: str,
    ) -> None:
        """Store a member's choice through the bot's writer (``write``), then keep it.

        Raises:
            ValueError: not one of `LOOKS`.
            Whatever the write raised; nothing is kept then.
        """
        if look not in LOOKS:
            raise ValueError(f"unknown look {look!r}")

        async def store_it(db: Database) -> None:
            await members.set_card_look(db, user_id, look)

        await write(store_it)
        self._looks[user_id] = look

    @contextmanager
    def drawn_for(self, user_id: int) -> Iterator[None]:
        """Draw a private message of this member's inside: as text if he chose text."""
        with cards_as_text(self._looks.get(user_id) == TEXT):
            yield
