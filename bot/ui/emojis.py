"""Cards as pictures: one application emoji per card, kept in step with the faces the bot draws.

Discord lets an application own up to 2,000 emojis, usable by its bot in every server without
any permission. The bot draws a face for every card it can show (`bot.ui.card_faces`) and, in
the background after it logs in, makes sure its application holds exactly that face under the
card's name: it uploads the faces that are missing, replaces those whose picture changed, and
leaves the rest alone, so a restart uploads nothing.

Each emoji is named by its card's code as players read it (`JH`, `10D`, `BJ`), so hover text and
screen readers name the card. Only once every card has its emoji does the bot show pictures
(`emoji_of` answers None until then): a message never mixes pictures and text. When the set
cannot be made (Pillow missing, an upload refused, the application's limit reached) the bot logs
one warning and goes on showing cards as text.

An emoji may also go while the bot runs: the application's owner deletes it, or another process
of the same application (a rolling deploy with a redrawn face) replaces it under a new id. Discord
then refuses every message whose buttons show it, so the first such refusal (`picture_refused`)
turns the pictures off at once (the refused message is sent again with its cards as text) and
checks the set again in the background, to show pictures again once it is whole.

Discord may also refuse an emoji it still lists (one just uploaded, or one it has made
unavailable): the check then finds the set whole, with the very emojis refused. Showing them
again at once would have every hand refused, sent twice and checked again, so the bot stays in
text for a while (`BACKOFF`, doubled at each such check up to `BACKOFF_MAX`), warns once, and
only then tries the pictures again: a refusal costs at most one check per while.

The set shown is kept in this module, not passed to every renderer: a process runs one bot,
whose application owns one set, and a renderer needs nothing but the card to show it. A member
may choose text for his own private messages (`/settings cards`, for a screen reader, which reads
an emoji as its code): those are drawn inside `cards_as_text`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType

import aiohttp
import discord

from bot.engine.cards import make_pack

log = logging.getLogger(__name__)

#: Every card the bot can show: the pack down to the sixes (seven-handed Napoleon) and the Joker.
CARDS: tuple[str, ...] = tuple(make_pack("6", joker=True))

#: Seconds in text after a check found the refused set whole, doubled each time it happens again.
BACKOFF = 120.0
BACKOFF_MAX = 3600.0

# The one place where an emoji's name differs from the card's code: players write a ten as 10.
_TEN_CODE, _TEN_NAME = "T", "10"


def emoji_name(card: str) -> str:
    """The emoji name of a card: its code as players read it (`JH`, `10D` for `TD`, `BJ`)."""
    return _TEN_NAME + card[1:] if card.startswith(_TEN_CODE) else card


_CARD_OF_NAME = {emoji_name(card): card for card in CARDS}


def card_of_emoji(name: str) -> str | None:
    """The card an emoji name stands for (`10D` gives `TD`), or None for any other name."""
    return _CARD_OF_NAME.get(name)


# The emojis shown now, by card: empty, or the whole set (see `show`).
_shown: Mapping[str, discord.PartialEmoji] = MappingProxyType({})


# Set while a message is drawn for a member who chose to see cards as text (`/settings
# cards`): a context variable, so the other messages drawn meanwhile keep their pictures.
_as_text: ContextVar[bool] = ContextVar("cards_as_text", default=False)


def emoji_of(card: str) -> discord.PartialEmoji | None:
    """The emoji of a card while the bot shows cards as pictures, else None."""
    if _as_text.get():
        return None
    return _shown.get(card)


@contextmanager
def cards_as_text(on: bool = True) -> Iterator[None]:
    """Draw what is drawn inside as text (`J♥`) when ``on``: a member's own private message,
    for a member who chose text."""
    token = _as_text.set(on)
    try:
        yield
    finally:
        _as_text.reset(token)


def show(emojis: Mapping[str, discord.PartialEmoji]) -> None:
    """Show cards as these emojis from now on.

    Raises:
        ValueError: the set lacks a card; a hand would then mix pictures and text.
    """
    global _shown
    missing = [card for card in CARDS if card not in emojis]
    if missing:
        raise ValueError(f"no emoji for {', '.join(missing)}")
    _shown = MappingProxyType(dict(emojis))


def hide() -> None:
    """Show cards as text again (the bot is closing, or its emojis are gone)."""
    global _shown
    _shown = MappingProxyType({})


class CardEmojis:
    """Keeps the application's card emojis in step with the faces, in a background task.

    Args:
        client: the bot; it must be logged in (its application id known) before `start`.
    """

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.task: asyncio.Task[None] | None = None
        #: The emojis by card once the whole set is in place.
        self.emojis: dict[str, discord.PartialEmoji] = {}
        #: Emoji names uploaded and replaced by the last sync, for the log and the tests.
        self.created: list[str] = []
        self.replaced: list[str] = []
        #: The set Discord refused last, to tell a check that fixed nothing (see `_checked`).
        self.refused: dict[str, discord.PartialEmoji] = {}
        #: The next while in text, and how it is waited (a test gives its own).
        self.backoff = BACKOFF
        self.sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
        #: The wait in text before the pictures are tried again, while there is one.
        self.retry: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the sync in the background, once; cards show as text until it is done."""
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name="card-emojis")

    def picture_refused(self, error: discord.HTTPException) -> bool:
        """Whether Discord refused a message for a card's picture (its emoji is gone).

        The first refusal shows cards as text from now on and checks the set again in the
        background, which shows pictures again once every card has its emoji.

        Returns:
            Whether the message is to be drawn and sent again: its cards are text now.
        """
        if not _refuses_an_emoji(error):
            return False
        if self.emojis and not self.client.is_closed():
            # Once the bot has backed off for this set, its refusals are no news.
            level = logging.INFO if self.refused == self.emojis else logging.WARNING
            log.log(
                level, "Discord refused a card's emoji (%s); cards are shown as text", error.text
            )
            self.refused = self.emojis
            self.emojis = {}
            hide()
            # Pictures are shown only once a sync has ended: none is running now.
            self.task = asyncio.create_task(self._run(replace=False), name="card-emojis")
        return True

    async def close(self) -> None:
        """Stop the sync and the wait in text if they are still running, and show cards as
        text again."""
        for task in (self.task, self.retry):
            if task is not None and not task.done():
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
        if self.emojis:
            hide()

    async def _run(self, replace: bool = True) -> None:
        try:
            emojis = await self.sync(replace)
        except Exception:
            if self.client.is_closed():
                # The bot stopped in the middle (its session is gone): the next start goes on.
                log.info("the bot stopped before the card emojis were all made")
                return
            log.exception("card emojis could not be made; cards are shown as text")
            return
        if emojis is None:
            return
        if emojis == self.refused:
            self._back_off(emojis)
            return
        self.refused, self.backoff = {}, BACKOFF  # the check fixed what was refused
        self._show(emojis)
        log.info(
            "cards shown as pictures (%d emojis uploaded, %d replaced)",
            len(self.created),
            len(self.replaced),
        )

    def _show(self, emojis: dict[str, discord.PartialEmoji]) -> None:
        self.emojis = emojis
        show(emojis)

    def _back_off(self, emojis: dict[str, discord.PartialEmoji]) -> None:
        """The check found whole the very set Discord refused: stay in text for a while."""
        wait, self.backoff = self.backoff, min(self.backoff * 2, BACKOFF_MAX)
        # The refusal was warned of once (`picture_refused`): this says how long text lasts.
        log.info(
            "Discord refuses card emojis it still lists; cards are shown as text for %g minutes",
            wait / 60,
        )
        self.retry = asyncio.create_task(self._retry(emojis, wait), name="card-emojis-retry")

    async def _retry(self, emojis: dict[str, discord.PartialEmoji], wait: float) -> None:
        await self.sleep(wait)
        if not self.client.is_closed() and not self.emojis:
            self._show(emojis)  # refused again, it is checked again and the wait doubles

    async def sync(self, replace: bool = True) -> dict[str, discord.PartialEmoji] | None:
        """Make the application's emojis match the faces: upload the missing, replace the changed.

        Args:
            replace: whether an emoji whose picture differs from the face is replaced (at start),
                or kept as it is (a check while the bot runs: it may be the newer face of
                another process of the application, whose hands replacing it would break).

        Returns:
            The emoji of every card, or None (after one warning) when the set cannot be made.
        """
        try:
            from bot.ui import card_faces
        except ImportError as error:
            log.warning("cards are shown as text: the card faces cannot be drawn (%s)", error)
            return None
        # Drawing every face takes a few tenths of a second: not on the event loop.
        faces = await asyncio.to_thread(lambda: {card: card_faces.face_png(card) for card in CARDS})
        self.created, self.replaced = [], []
        # Without replacing, whatever picture an emoji has is kept: there is nothing to compare.
        same_picture = card_faces.same_picture if replace else None
        try:
            existing = {emoji.name: emoji for emoji in await self.client.fetch_application_emojis()}
            emojis = {}
            for card in CARDS:
                emoji = await self._emoji_for(emoji_name(card), faces[card], existing, same_picture)
                emojis[card] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
        except discord.HTTPException as error:
            log.warning(
                "cards are shown as text: Discord refused the card emojis (%s %s: %s)",
                error.status,
                error.code,
                error.text,
            )
            return None
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            if self.client.is_closed():
                raise  # the bot is stopping: `_run` says so
            # The network failed under a request: no bug of the bot's, and the next check
            # (a refused picture, or the next start) tries again.
            log.warning(
                "cards are shown as text: Discord could not be reached for the card emojis (%s)",
                error.__class__.__name__,
            )
            return None
        return emojis

    async def _emoji_for(
        self,
        name: str,
        face: bytes,
        existing: Mapping[str, discord.Emoji],
        same_picture: Callable[[bytes, bytes], bool] | None,
    ) -> discord.Emoji:
        emoji = existing.get(name)
        if emoji is not None:
            if same_picture is None:
                return emoji
            try:
                picture = await emoji.read()
            except (discord.DiscordException, aiohttp.ClientError, OSError) as error:
                # Not knowing is no reason to replace it: keep the emoji as it is.
                log.info("emoji %s could not be read to compare (%s); kept", name, error)
                return emoji
            if same_picture(face, picture):
                return emoji
            # An emoji's picture cannot be edited, and names are unique: delete, then upload.
            await emoji.delete()
            created = await self.client.create_application_emoji(name=name, image=face)
            self.replaced.append(name)
            return created
        created = await self.client.create_application_emoji(name=name, image=face)
        self.created.append(name)
        return created


def _refuses_an_emoji(error: discord.HTTPException) -> bool:
    # Discord's "Invalid Form Body" (50035) for a button whose emoji it does not know says
    # "Invalid emoji" at the field of that emoji.
    return error.status == 400 and error.code == 50035 and "emoji" in error.text.lower()
