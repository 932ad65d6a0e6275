"""Leagues and euchre nights against members who would game them and requests that cross:
a night closed twice at once, a night started from one of its threads, and league matches
ended at a chosen moment (closed mid-match, filled with computers), each either refused with
a clear answer or shown to the organiser in the audit."""

from __future__ import annotations

from tests.interaction.test_leagues_harden import queued_behind
from tests.interaction.test_nights import open_night

pytest_plugins = ["tests.support.fixtures"]


async def test_a_night_closed_twice_at_once_is_closed_once_and_the_second_told_so(interactions):
    """Two organisers pressed /night close together: both were told "The euchre night is
    closed: its final standings are posted", though only one closing was posted."""
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    night_id = (await h.bot.db.fetchone("SELECT id FROM nights"))["id"]
    async with h.bot.get_cog("Nights").runner._lock(night_id):
        first = await queued_behind(h, night_id, "owner", "night close")
        second = await queued_behind(h, night_id, "admin", "night close")
    closed, again = await first, await second
    assert "closed" in closed.text, closed.text
    assert again.ephemeral and again.text == "This euchre night is over", again.text
    closings = [m for m in h.public_messages() if "The euchre night is over" in m.text]
    assert len(closings) == 1, [m.text for m in closings]


async def test_a_night_started_from_a_thread_of_its_channel_starts(interactions):
    """The organiser ran /night start in a thread of the night's channel and was told a
    night is opened in a text channel, not a thread: the start is of the night there."""
    h = interactions
    await open_night(h)
    for name in ("alice", "bob", "carol", "dave"):
        await h.command(name, "night join")
    h.bot.get_cog("Nights").runner._stopped = True  # the harness seats no round in threads
    thread = h.world.add_thread(h.channel, "talk")
    await h.settle()
    started = await h.command("owner", "night start", channel=thread)
    assert started.ephemeral and "4 players" in started.text, started.text
    assert await h.bot.db.fetchval("SELECT status FROM nights") == "playing"
