"""Clicks acknowledged while every player's hand follows the game, at many tables at once.

Each table has four members who each press My hand once and then play every card and
declaration from that private message, which the bot edits after every action at the table (a
background task per table). What is measured is what a member feels:
- the time from a click to Discord's acknowledgement of it (the interaction callback; Discord's
  deadline is 3 s), while the bot also redraws the other three hands at that table and at every
  other;
- how soon the next player's hand offers their turn's buttons after that acknowledgement.
A member thinks once their buttons are shown, as a player reacts to the hand changing.

It runs the real bot (discord.py's command tree and view store, the game manager, aiosqlite on a
file) through the interaction harness of the tests (tests/support/interactions.py): Discord's
HTTP is answered in-process, so the figures are the bot's own work, not a network's.

    python bench/hands.py                       # 1,000 tables, members think ~2 s a move
    python bench/hands.py --tables 200 --think 0   # saturated: members never think

Prints clicks acknowledged, p50/p90/p99/max of both times, hand edits made, and the event loop's
lag.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tables import GcPauses
from bot import collector
from tests.support.interactions import InteractionHarness


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


class Acks:
    """When each interaction was acknowledged: the harness's callback, timed."""

    def __init__(self, harness: InteractionHarness) -> None:
        self.at: dict[int, float] = {}
        answer = harness._callback

        def timed(exchange, body, files, params):  # type: ignore[no-untyped-def]
            self.at.setdefault(exchange.id, time.perf_counter())
            return answer(exchange, body, files, params)

        harness._callback = timed  # type: ignore[method-assign]


async def seat(h: InteractionHarness, number: int, points: int) -> tuple:
    world = h.world
    channel = world.add_channel(world.guild, f"table-{number}")
    members = [world.add_member(world.guild, f"t{number}p{k}") for k in range(4)]
    await h.command(members[0], "table create", channel=channel, preset="modern", points=points)
    for member in members[1:]:
        await h.command(member, "table join", channel=channel)
    await h.command(members[0], "table start", channel=channel, keep_seats=True)
    table = h.table(channel)
    hands = {}
    for seat_no, member in enumerate(members):
        message = h.messages[table.message_id]
        exchange = await h.click(member, f"euchre:table:{table.id}:hand", message=message)
        hands[seat_no] = exchange.reply.id
    return channel, table, members, hands


class Edits:
    """Wakes whoever waits for a message to change: the harness's message edits, signalled."""

    def __init__(self, harness: InteractionHarness) -> None:
        self.waiting: dict[int, asyncio.Event] = {}
        self.hands = 0  # private hands edited
        edit = harness._edit

        def signalled(message, *args, **kwargs):  # type: ignore[no-untyped-def]
            result = edit(message, *args, **kwargs)
            self.hands += message.ephemeral
            event = self.waiting.pop(message.id, None)
            if event is not None:
                event.set()
            return result

        harness._edit = signalled  # type: ignore[method-assign]

    async def next_edit(self, message_id: int) -> None:
        await self.waiting.setdefault(message_id, asyncio.Event()).wait()


def enabled_buttons(h, table, hands, seat) -> list[str]:
    prefix = f"euchre:hand:{table.id}:{table.match_no}:{len(table.match.deals)}:"
    return [
        b["custom_id"]
        for b in h.messages[hands[seat]].buttons
        if not b.get("disabled") and b["custom_id"].startswith(prefix)
    ]


async def play(h, acks, edits, table, members, hands, think, rng, times, stop) -> int:
    """One table's members: each waits for their hand to offer their turn's buttons, thinks,
    and clicks one; `times` gets each click's acknowledgement and how long after the last
    click at the table the next player's buttons appeared."""
    clicks = 0
    last_ack: float | None = None
    while table.playing and time.perf_counter() < stop:
        seat = table.match.to_act
        if not enabled_buttons(h, table, hands, seat):
            # The hand's edit for this turn is on its way (or the deal is being dealt).
            try:
                await asyncio.wait_for(edits.next_edit(hands[seat]), timeout=0.5)
            except TimeoutError:
                pass
            continue
        if last_ack is not None:
            times["ready"].append(time.perf_counter() - last_ack)
        if think:
            await asyncio.sleep(rng.expovariate(1.0 / think))
        enabled = enabled_buttons(h, table, hands, seat)
        start = time.perf_counter()
        exchange = await h.click(members[seat], rng.choice(enabled), message=hands[seat])
        last_ack = acks.at[exchange.id]
        times["ack"].append(last_ack - start)
        clicks += 1
    return clicks


async def lag_probe(lags: list[float], stop: float) -> None:
    while time.perf_counter() < stop:
        start = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append(time.perf_counter() - start - 0.005)


async def run(tables: int, think_ms: float, seconds: float, seed: int, settle: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="euchre-hands-") as tmp:
        h = await InteractionHarness.open(Path(tmp) / "bench.db")
        h.keep_history = False  # the harness's own bookkeeping, not the bot's work
        try:
            acks = Acks(h)
            edits = Edits(h)
            rng = random.Random(seed)
            set_up = time.perf_counter()
            seated = [await seat(h, n, points=10) for n in range(tables)]
            print(f"{tables} tables seated and dealt in {time.perf_counter() - set_up:.1f} s")
            if settle:
                # What the service does every ten minutes (bot/collector.py), done once here.
                start = time.perf_counter()
                frozen = collector.settle()
                print(
                    f"collector settled: {frozen} objects frozen, a pause of "
                    f"{(time.perf_counter() - start) * 1000:.0f} ms (once per ten minutes)"
                )
            times: dict[str, list[float]] = {"ack": [], "ready": []}
            lags: list[float] = []
            edits_before = edits.hands
            began = time.perf_counter()
            stop = began + seconds
            probe = asyncio.create_task(lag_probe(lags, stop))
            pauses = GcPauses()
            clicks = await asyncio.gather(
                *(
                    play(
                        h,
                        acks,
                        edits,
                        table,
                        members,
                        hands,
                        think_ms / 1000,
                        random.Random(rng.random()),
                        times,
                        stop,
                    )
                    for _, table, members, hands in seated
                )
            )
            elapsed = time.perf_counter() - began
            await probe
            print(
                f"{sum(clicks)} clicks in {elapsed:.1f} s ({sum(clicks) / elapsed:.0f}/s), "
                f"{edits.hands - edits_before} hand edits"
            )
            for name, label in (
                ("ack", "acknowledgement"),
                ("ready", "next player's buttons shown after the click's acknowledgement"),
            ):
                ms = [t * 1000 for t in times[name]]
                print(
                    f"{label}, ms: p50 {percentile(ms, 0.5):.1f}  p90 {percentile(ms, 0.9):.1f}"
                    f"  p99 {percentile(ms, 0.99):.1f}  max {max(ms, default=float('nan')):.1f}"
                )
            pauses.stop()
            print(f"garbage collector: {pauses.summary()}, longest {pauses.longest * 1000:.0f} ms")
            lag_ms = [x * 1000 for x in lags]
            print(
                f"event loop lag ms: p50 {percentile(lag_ms, 0.5):.1f}  p99 {percentile(lag_ms, 0.99):.1f}"
            )
            problems = h.problems()
            print(
                f"problems the harness saw: {len(problems)}"
                + (f" (first: {problems[0]})" if problems else "")
            )
        finally:
            await h.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--think", type=float, default=2000, help="mean ms a member thinks")
    parser.add_argument("--seconds", type=float, default=120, help="how long to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-settle",
        action="store_true",
        help="leave the collector unsettled (the service settles it: bot/collector.py)",
    )
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.think, args.seconds, args.seed, not args.no_settle))


if __name__ == "__main__":
    main()
