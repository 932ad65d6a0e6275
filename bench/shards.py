"""Tables over several real bot processes on the fake Discord: how soon interactions are
acknowledged, and the REST requests the processes send together against Discord's global limit.

The parent runs the fake Discord (tests/support/fake_discord.py: REST and gateway on 127.0.0.1)
with `--processes` shards, servers on every shard, and starts one `python -m bot` per shard
(`SHARD_COUNT`, `SHARD_IDS`, `REST_BUDGET`, each as the service runs it) on one SQLite file, or
with `--postgres` on a throwaway PostgreSQL (tests/support/postgres.py). The fake keeps Discord's
global limit (`global_limit`, 50 counted requests in any second by default; interaction callbacks
and webhooks are not counted): a request over it gets a global 429.

Each table has four members in a server of its own shard's group. The host runs /table create,
the others /table join, the host /table start; then each member runs /hand once and plays every
declaration and card from that private message, which the bot keeps up to date: a member waits
until their hand offers enabled buttons, thinks `--think` ms (exponential), and clicks one at
random. A game over (the hand says so), the host runs /table start again.

The bot processes run through bench/stamped_bot.py: the same `python -m bot`, whose every REST
request carries the moment it left the bot (its `time.monotonic()`, the fake's clock too). The
fake counts a request against the global limit at that moment, not when its own event loop got
to it, so a stall of this process (the fake and the members) does not make a burst of requests
the bot sent a second apart. The same wrapper writes the bot's event loop lag and collector
pauses to a file (`BENCH_PROBE`). This process serves with uvloop and orjson when installed
(`--loop`, `--json`), and without its collector while the tables play.

After `--warmup` seconds of play, for `--seconds`:
- interaction acknowledged: from the fake sending INTERACTION_CREATE to the bot sending its
  callback, by the bot's stamp (what a Discord that keeps up receives then: loopback takes
  microseconds), and to the callback reaching the fake's loop (Discord's deadline is 3 s; the
  target here is a p99 under 500 ms);
- the REST requests Discord's global limit counts (`bot.rest_budget.counts_globally`), all
  processes together and each (by the channel they are for): the mean a second and the most in
  any one second (a sliding window) by the processes' stamps, and by when the fake read them;
  the global 429s the fake gave (target 0), and how many of them it read within a second after
  this process's event loop stalled;
- what the members feel of the queue of requests the budget holds back: from an action's
  acknowledgement to the first write of its table's channel after it (the table message
  showing it; when an edit of that table was already under way, that one may have been drawn
  just before it, and the action shows in the next), and to the next player's hand offering
  its buttons;
- actions a second, each process's CPU (and this one's: the fake and the members;
  PostgreSQL's; the whole machine's, and so what other work took), each bot's event loop lag
  and collector pauses, and the load average; with `--profile DIR`, what py-spy found on the
  CPU of each process.

Run from the repository root (not part of the test run):

    python bench/shards.py --quick                   # 24 tables, about 40 s
    python bench/shards.py --tables 200 --seconds 60
    python bench/shards.py --tables 100 --rest-budget 0    # no budget: what the bot would send
    python bench/shards.py --tables 100 --postgres
    python bench/shards.py --tables 2000 --postgres --profile /tmp/shards   # py-spy: pip install py-spy
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import math
import os
import platform
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # this process's event loop: the fake's REST and gateway serving, and the members
    import uvloop
except ImportError:  # pragma: no cover - optional
    uvloop = None
try:  # the fake's JSON (`--json`)
    import orjson
except ImportError:  # pragma: no cover - optional
    orjson = None

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stamped_bot import HEADER as SENT_AT
from bot.rest_budget import counts_globally
from tests.bot.helpers import enabled_actions
from tests.bot.test_service_e2e import BotProcess, bot_env
from tests.support import fake_discord
from tests.support.fake_discord import FakeDiscord, FakeMember, FakeMessage

ROOT = Path(__file__).resolve().parent.parent
CLOCK = time.monotonic  # the fake stamps requests and interactions with it
TARGET_ACK_P99_MS = 500.0
DISCORD_GLOBAL_LIMIT = 50
TABLES_A_SERVER = 25
CHANNEL_PATH = re.compile(r"^/channels/(\d+)")
MATCH_OVER = "The match is over"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def spread(values: list[float], unit: float = 1000.0) -> str:
    """n, p50, p90, p95, p99 and max of seconds, in ms."""
    if not values:
        return "none"
    p = [percentile(values, q) * unit for q in (0.5, 0.9, 0.95, 0.99)]
    return (
        f"n {len(values):,}, p50 {p[0]:,.0f} ms, p90 {p[1]:,.0f} ms, p95 {p[2]:,.0f} ms,"
        f" p99 {p[3]:,.0f} ms, max {max(values) * unit:,.0f} ms"
    )


def most_in_a_second(times: list[float]) -> int:
    """The most of these moments in any window of one second (sliding)."""
    times = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


def cpu_seconds(pid: int, children: bool = True) -> float:
    """User + system CPU seconds of a process, and of its children it waited for (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        counted = (11, 12, 13, 14) if children else (11, 12)
        return sum(int(fields[i]) for i in counted) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def machine_busy() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far, every core (Linux)."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def process_tree(root: int) -> list[int]:
    """`root` and every process under it (PostgreSQL's backends under its postmaster)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def tree_cpu(root: int) -> dict[int, float]:
    """The CPU seconds of each process of a tree (PostgreSQL: its postmaster and backends)."""
    return {pid: cpu_seconds(pid, children=False) for pid in process_tree(root)}


def tree_cpu_since(before: dict[int, float], root: int) -> float:
    """CPU seconds the tree used since `before` (a backend that ended meanwhile is left out)."""
    return sum(t - before.get(pid, 0.0) for pid, t in tree_cpu(root).items())


class Upkeep:
    """Keeps this process (the fake and the members) from pausing: it is the load driver, and a
    pause of its event loop would show as the bot's latency.

    While the tables play, the collector is off: what the fake keeps of every interaction is
    scanned again at every collection of the oldest generation (1.9 s pauses at 2,000 tables,
    25 s of 60 in all), and even frozen every second, the younger generations' collections
    took 8 s of 41. What reference cycles the members leave is memory for a few minutes (this
    process's size is printed). Every second it drops what each gateway session keeps for a
    RESUME but the last `KEEP` dispatches. It notes the collector's pauses, if any."""

    KEEP = 2000

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.pauses: list[float] = []
        self._started = 0.0
        gc.callbacks.append(self._timed)
        gc.disable()

    def _timed(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            for session in self.fake.sessions:
                del session.sent[: -self.KEEP]

    def close(self) -> None:
        gc.callbacks.remove(self._timed)
        gc.enable()


@dataclass(eq=False)
class Table:
    number: int
    process: int
    channel: Any
    members: list[FakeMember]
    hands: dict[int, int] = field(default_factory=dict)  # member id -> hand message id
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    pending: list[float] = field(default_factory=list)  # acks not yet shown in the channel


class Play:
    """The members of every table, and what they measure."""

    def __init__(self, fake: FakeDiscord, think_ms: float, seed: int, points: int) -> None:
        self.fake = fake
        self.points = points
        self.think = think_ms / 1000.0
        self.rng = random.Random(seed)
        self.tables: list[Table] = []
        self.by_hand: dict[int, Table] = {}
        self.by_channel: dict[int, Table] = {}
        self.measuring = False
        self.stopping = False
        self.shown: list[float] = []  # ack -> first write of the table's channel after it
        self.turns: list[float] = []  # ack -> the next player's buttons
        self.actions: list[float] = []  # when each action was acknowledged
        self.starts = 0  # games started again by a host
        self.refused = 0  # clicks answered with something else than the hand
        self._watch()

    def _watch(self) -> None:
        """Wake a table's members when its hands change; note when its channel shows news."""
        record = self.fake._record

        def watched(action: str, msg: FakeMessage) -> None:
            record(action, msg)
            table = self.by_hand.get(msg.id)
            if table is not None:
                table.changed.set()
            elif not msg.ephemeral and action != "delete":
                table = self.by_channel.get(msg.channel_id)
                if table is not None and table.pending:
                    now = CLOCK()
                    if self.measuring:
                        self.shown.extend(now - ack for ack in table.pending)
                    table.pending.clear()

        self.fake._record = watched  # type: ignore[method-assign]

    async def answered(self, handle: Any, what: str) -> FakeMessage:
        message = await handle.message(300)
        if "Traceback" in message.text:
            raise RuntimeError(f"{what}: {message.text}")
        return message

    async def seat(self, table: Table) -> None:
        fake, host = self.fake, table.members[0]
        created = await fake.slash(
            host, table.channel, "table create", preset="modern", points=self.points
        )
        await self.answered(created, "table create")
        for member in table.members[1:]:
            await self.answered(await fake.slash(member, table.channel, "table join"), "join")
        started = await fake.slash(host, table.channel, "table start", keep_seats=True)
        text = (await self.answered(started, "table start")).text
        if "dealt" not in text:
            raise RuntimeError(f"table {table.number} did not start: {text}")
        for member in table.members:
            hand = await self.answered(await fake.slash(member, table.channel, "hand"), "hand")
            table.hands[member.id] = hand.id
            self.by_hand[hand.id] = table

    async def wait(self, table: Table, seconds: float) -> None:
        table.changed.clear()
        # asyncio.timeout, not wait_for: wait_for makes a task of every wait (a tenth of this
        # process's time at 2,000 tables).
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await table.changed.wait()

    async def play(self, table: Table) -> None:
        """One table's members, until told to stop."""
        fake, rng = self.fake, random.Random(self.rng.random())
        last_ack: float | None = None
        while not self.stopping:
            turn = None
            for member in table.members:
                hand = fake.messages_by_id[table.hands[member.id]]
                actions = enabled_actions(hand)
                if actions:
                    turn = member, hand, actions
                    break
            if turn is None:
                host_hand = fake.messages_by_id[table.hands[table.members[0].id]]
                if MATCH_OVER in host_hand.text:
                    await self.new_game(table)
                    last_ack = None
                else:
                    await self.wait(table, 5.0)
                continue
            member, hand, actions = turn
            if last_ack is not None and self.measuring:
                self.turns.append(CLOCK() - last_ack)
            last_ack = None
            await asyncio.sleep(rng.expovariate(1.0 / self.think) if self.think else 0)
            if self.stopping:
                return
            try:
                handle = await fake.click(member, hand, actions[int(rng.random() * len(actions))])
            except (LookupError, ValueError):
                continue  # the hand changed while the member thought
            interaction = handle.interaction
            deadline = CLOCK() + 60
            while interaction.response is None and CLOCK() < deadline and not self.stopping:
                await self.wait(table, 0.5)
            ack = interaction.acknowledged_at
            if ack is None:
                continue
            if interaction.response is not None and interaction.response.type != 7:
                self.refused += 1  # a stale button, answered with a note
                continue
            interaction.payload = {}  # kept only to deliver it again: let it go (less to collect)
            last_ack = ack
            table.pending.append(ack)
            if self.measuring:
                self.actions.append(ack)

    async def new_game(self, table: Table) -> None:
        handle = await self.fake.slash(
            table.members[0], table.channel, "table start", keep_seats=True
        )
        with contextlib.suppress(TimeoutError):
            await handle.response(60)
        self.starts += 1
        await self.wait(table, 5.0)


class LoopLag:
    """How late this process's event loop wakes a sleeper (the fake and members share it)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.stalls: list[tuple[float, float]] = []  # (start, end) of each lag over 0.1 s

    async def run(self) -> None:
        while True:
            start = CLOCK()
            await asyncio.sleep(0.1)
            end = CLOCK()
            self.lags.append(end - start - 0.1)
            if end - start > 0.2:
                self.stalls.append((start + 0.1, end))

    def after_a_stall(self, at: float) -> bool:
        """Whether this loop stalled (over 0.1 s) within the second before `at`: requests that
        reached the fake meanwhile were stamped together when it woke."""
        return any(start <= at and end >= at - 1.0 for start, end in self.stalls)


async def gather_bounded(jobs: list[Awaitable[None]], at_once: int) -> None:
    gate = asyncio.Semaphore(at_once)

    async def one(job: Awaitable[None]) -> None:
        async with gate:
            await job

    await asyncio.gather(*(one(job) for job in jobs))


async def start_bot(fake: FakeDiscord, cwd: Path, db: Path, **env: str) -> BotProcess:
    """`python -m bot` as the service runs it, through bench/stamped_bot.py: each of its REST
    requests says when it left (`SENT_AT`)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bench" / "stamped_bot.py"),
        cwd=cwd,  # no .env there
        env=bot_env(fake, db, **env),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    return BotProcess(process)


async def _no_profiles() -> list[tuple[str, Path]]:
    return []


def _py_spy() -> str:
    """py-spy beside this interpreter (the bench extra installs it in the venv), else on PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else (shutil.which("py-spy") or "py-spy")


def profile(args: argparse.Namespace, processes: list[BotProcess]) -> Awaitable[list[Any]]:
    """With `--profile DIR`: py-spy samples each bot process and this one for the measured
    seconds (what is on each CPU). Returns what to await for the (name, file) of each."""
    if not args.profile:
        return _no_profiles()
    folder = Path(args.profile)
    folder.mkdir(parents=True, exist_ok=True)
    targets = [(f"process {n}", p.process.pid) for n, p in enumerate(processes)]
    targets.append(("this process", os.getpid()))

    async def sampled(name: str, pid: int) -> tuple[str, Path]:
        path = folder / f"{name.replace(' ', '-')}.txt"
        spy = await asyncio.create_subprocess_exec(
            *(_py_spy(), "record", "--nonblocking", "--rate", "50", "--format", "raw"),
            *("--duration", str(int(args.seconds)), "--pid", str(pid), "--output", str(path)),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await spy.wait()
        return name, path

    return asyncio.gather(*(sampled(name, pid) for name, pid in targets))


def print_profile(name: str, path: Path, top: int = 8) -> None:
    """The functions a py-spy profile (raw, collapsed stacks) found on the CPU most: by their
    own time, and the project's own code (bot/, cogs/, tests/support/, bench/) with what it
    called."""
    if not path.exists():
        print(f"  profile of {name}: none (is py-spy installed?)")
        return
    own: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")]
        own[frames[-1]] += n
        for frame in set(frames):
            if re.search(r"\((bot|cogs|tests/support|bench|shards\.py)", frame):
                inside[frame] += n
    if not total:
        return
    print(f"  on the CPU in {name} ({total:,} samples, by their own time):")
    for frame, n in own.most_common(top):
        print(f"    {n / total:5.1%} {frame}")
    print("    the project's code, with what it called:")
    for frame, n in inside.most_common(top):
        print(f"    {n / total:5.1%} {frame}")


def probed(path: Path, t0: float, t1: float) -> tuple[list[float], dict[int, list[float]]]:
    """A bot process's event loop lags, and its collector's pauses by generation, between t0
    and t1 (see bench/stamped_bot.py's `Probe`)."""
    lags: list[float] = []
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            kind, at, *rest = line.split()
            if t0 <= float(at) < t1:
                if kind == "lag":
                    lags.append(float(rest[0]))
                elif kind == "gc":
                    pauses[int(rest[0])].append(float(rest[1]))
    return lags, pauses


class OrJSON:
    """The `json` the fake serializes with, through orjson (`--json orjson`): the same JSON
    (without the spaces and with UTF-8 for non-ASCII text, both of which discord.py reads
    alike) in a fraction of the time. What orjson refuses (a key that is not a string) goes
    to the standard module."""

    @staticmethod
    def dumps(value: Any) -> str:
        try:
            return str(orjson.dumps(value).decode())
        except TypeError:
            return json.dumps(value)

    @staticmethod
    def loads(text: str | bytes) -> Any:
        return orjson.loads(text)


def shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count


async def run(args: argparse.Namespace) -> bool:
    k = args.processes
    print(
        f"euchre tables over {k} bot processes on the fake Discord: {args.tables} tables,"
        f" members thinking {args.think:g} ms a move (exponential), a modern game to"
        f" {args.points} then the next; REST_BUDGET {args.rest_budget:g}/s;"
        f" fake global limit {args.global_limit or 'off'}; "
        + ("PostgreSQL" if args.postgres else "SQLite")
    )
    print(
        f"  machine             : {platform.python_implementation()} {platform.python_version()},"
        f" {os.cpu_count()} cpus, load average {load_average()} at the start; this process's"
        f" event loop: {type(asyncio.get_running_loop()).__module__.split('.')[0]}; the fake's"
        f" JSON: {args.json}"
        + (
            f"; the bots freeze their objects every {args.bot_freeze:g} s"
            if args.bot_freeze
            else ""
        )
    )
    server = None
    processes: list[BotProcess] = []
    marks: list[int] = []
    ok = False  # until the bench has run to its end
    with tempfile.TemporaryDirectory(prefix="euchre-shards-") as tmp:
        directory = Path(tmp)
        env: dict[str, str] = {
            "SHARD_COUNT": str(k),
            "DEV_GUILD_ID": "",
            "REST_BUDGET": f"{args.rest_budget:g}",
            "LOG_LEVEL": "INFO",  # "ready as" is how BotProcess knows it is up
            # The bot of this checkout, whatever the virtualenv has installed.
            "PYTHONPATH": str(ROOT),
        }
        if args.postgres:
            from tests.support.postgres import Server

            server = Server.start()
            env.update(DATABASE_URL=await server.empty_database("shards"), DATABASE_PATH="")
            pid_file = server.root / "data" / "postmaster.pid"
            args.postmaster = int(pid_file.read_text().split()[0])
        try:
            async with FakeDiscord.serve() as fake:
                fake.keep_history = False
                fake.sent_at_header = SENT_AT
                fake.shard_count = k
                fake.global_limit = args.global_limit or None
                try:
                    ok = await bench(args, fake, env, directory, processes)
                finally:  # stopped while the fake still answers them
                    marks = [len(p.stderr) for p in processes]
                    stopping = CLOCK()
                    ended = await asyncio.gather(
                        *(p.end() for p in processes), return_exceptions=True
                    )
                    stuck = sum(1 for e in ended if isinstance(e, AssertionError))
                    print(
                        f"  SIGTERM to stopped  : {CLOCK() - stopping:.1f} s"
                        + (f"; {stuck} not stopped within 60 s, killed" if stuck else "")
                    )
        finally:
            for n, (process, mark) in enumerate(zip(processes, marks, strict=True)):
                for when, text in (
                    ("while playing", process.stderr[:mark]),
                    ("when stopped", process.stderr[mark:]),
                ):
                    ok &= report_errors(f"process {n}", when, text, args.logs)
            if server is not None:
                server.stop()
    return ok


def report_errors(name: str, when: str, text: str, logs: str | None) -> bool:
    """Tracebacks a bot process logged: how many, and the errors they ended with."""
    count = text.count("Traceback (most recent call last)")
    if not count:
        return True
    ends = Counter(
        line.strip()[:100]
        for line in text.splitlines()
        if re.match(r"^[A-Za-z_.]+(Error|Exception|Exit)\b", line.strip())
    )
    print(
        f"  {name} logged {count} tracebacks {when}: "
        + "; ".join(f"{n} x {line}" for line, n in ends.most_common(3))
    )
    if logs:
        path = Path(logs) / f"{name.replace(' ', '-')}-{when.replace(' ', '-')}.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"    (written to {path})")
    return False


async def bench(
    args: argparse.Namespace,
    fake: FakeDiscord,
    env: dict[str, str],
    directory: Path,
    processes: list[BotProcess],
) -> bool:
    k = args.processes
    play = Play(fake, args.think, args.seed, args.points)
    servers_a_shard = max(1, math.ceil(args.tables / k / TABLES_A_SERVER))
    guilds = [
        fake.add_guild(f"Club {s}-{n}", shard=(s, k))
        for s in range(k)
        for n in range(servers_a_shard)
    ]
    for number in range(args.tables):
        guild = guilds[(number % k) * servers_a_shard + (number // k) % servers_a_shard]
        channel = fake.add_channel(guild, f"euchre-{number}")
        members = [fake.add_member(guild, f"t{number}-{seat}") for seat in range(4)]
        table = Table(number, shard_of(guild.id, k), channel, members)
        play.tables.append(table)
        play.by_channel[channel.id] = table
    owner = {t.channel.id: t.process for t in play.tables}

    lag = LoopLag()
    lag_task = asyncio.create_task(lag.run())
    limited_at: list[tuple[float, float]] = []  # each global 429: (counted at, read at)
    global_wait = fake._global_wait

    def noted_wait(at: float | None = None) -> float | None:
        wait = global_wait(at)
        if wait is not None:
            now = CLOCK()
            limited_at.append((now if at is None else at, now))
        return wait

    fake._global_wait = noted_wait  # type: ignore[method-assign]

    started = CLOCK()
    db = directory / "euchre.db"
    for shard in range(k):
        probe = str(directory / f"probe-{shard}.txt")
        processes.append(
            await start_bot(
                fake,
                directory,
                db,
                SHARD_IDS=str(shard),
                BENCH_PROBE=probe,
                BENCH_FREEZE_EVERY=f"{args.bot_freeze:g}",
                **env,
            )
        )
    await asyncio.gather(*(p.wait_ready() for p in processes))
    ready = CLOCK()
    print(
        f"  start               : {k} processes ready in {ready - started:.1f} s"
        f" ({len(guilds)} servers)"
    )
    await gather_bounded([play.seat(t) for t in play.tables], args.seat_at_once)
    # The world is built: kept out of the collector's sight, as the bot keeps its tables.
    gc.collect()
    gc.freeze()
    upkeep = Upkeep(fake)
    upkeep_task = asyncio.create_task(upkeep.run())
    seated = CLOCK()
    print(
        f"  set-up              : {args.tables} tables created, joined, started and every hand"
        f" shown in {seated - ready:.1f} s ({len(fake.requests):,} REST requests so far)"
    )

    players = [asyncio.create_task(play.play(t)) for t in play.tables]
    await asyncio.sleep(args.warmup)
    play.measuring = True
    lag.lags.clear()
    upkeep.pauses.clear()
    first_request = len(fake.requests)
    limited_before = fake.global_limited
    cpu_before = [cpu_seconds(p.process.pid) for p in processes]
    own_before = time.process_time()
    postgres_before = tree_cpu(args.postmaster) if args.postmaster else {}
    machine_before = machine_busy()
    profiles = profile(args, processes)
    t0 = CLOCK()
    await asyncio.sleep(args.seconds)
    t1 = CLOCK()
    play.measuring = False
    cpu = [
        (cpu_seconds(p.process.pid) - c) / (t1 - t0)
        for p, c in zip(processes, cpu_before, strict=True)
    ]
    own = (time.process_time() - own_before) / (t1 - t0)
    postgres = tree_cpu_since(postgres_before, args.postmaster) if args.postmaster else 0.0
    machine_after = machine_busy()
    busy = machine_after[0] - machine_before[0]
    limited = fake.global_limited - limited_before
    last_request = len(fake.requests)
    await asyncio.sleep(min(10.0, args.seconds / 4))  # late acknowledgements still count
    play.stopping = True
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    lag_task.cancel()
    upkeep_task.cancel()
    upkeep.close()
    window = t1 - t0

    # Interactions sent in the window, and when each was acknowledged: by the bot's own stamp
    # of its callback (what a Discord that kept up would have received then: loopback takes
    # microseconds), and by when this process's event loop read it.
    sent = [
        i
        for i in fake.interactions.values()
        if i.dispatched_at is not None and t0 <= i.dispatched_at < t1
    ]
    acks = [
        (i.callback_sent_at or i.acknowledged_at) - i.dispatched_at
        for i in sent
        if i.acknowledged_at is not None and i.dispatched_at is not None
    ]
    read = [
        i.acknowledged_at - i.dispatched_at
        for i in sent
        if i.acknowledged_at is not None and i.dispatched_at is not None
    ]
    unanswered = sum(1 for i in sent if i.acknowledged_at is None)
    print(f"measured for {window:.0f} s after {args.warmup:g} s of play:")
    print(
        f"  actions             : {len(play.actions):,}, {len(play.actions) / window:,.1f}/s;"
        f" games started again: {play.starts}; stale clicks: {play.refused}"
    )
    print(f"  acknowledged        : {spread(acks)}; never: {unanswered}")
    print(f"    as the fake read it: {spread(read)}")
    p99 = percentile(acks, 0.99) * 1000 if acks else math.inf
    met = p99 < TARGET_ACK_P99_MS and unanswered == 0
    print(
        f"  ack p99 target      : < {TARGET_ACK_P99_MS:g} ms: {'met' if met else 'NOT met'}"
        f" ({p99:,.0f} ms)"
    )

    # The REST requests Discord's global limit counts, in the window: when the bot sent each
    # (its stamp) and when it reached this process's loop.
    counted: list[tuple[float, float, int | None]] = []
    exempt = 0
    for (_, path), at, sent_at in zip(
        fake.requests[first_request:last_request],
        fake.request_times[first_request:last_request],
        fake.request_sent_times[first_request:last_request],
        strict=True,
    ):
        if not counts_globally("/api/v10" + path):
            exempt += 1
            continue
        found = CHANNEL_PATH.match(path)
        counted.append((sent_at, at, owner.get(int(found.group(1))) if found else None))
    times = [sent_at for sent_at, _, _ in counted]
    print(
        f"  REST counted        : {len(times):,} in all, {len(times) / window:.1f}/s on average,"
        f" at most {most_in_a_second(times)} in any 1 s as the processes sent them"
        f" ({most_in_a_second([at for _, at, _ in counted])} as the fake read them; Discord:"
        f" {DISCORD_GLOBAL_LIMIT}; the budget: {args.rest_budget:g}); not counted (callbacks,"
        f" webhooks): {exempt:,} ({exempt / window:.0f}/s)"
    )
    for shard in range(k):
        mine = [sent_at for sent_at, _, p in counted if p == shard]
        print(
            f"    process {shard}         : {len(mine) / window:.1f}/s on average, at most"
            f" {most_in_a_second(mine)} in any 1 s (its share {args.rest_budget / k:g}/s)"
        )
    other = [sent_at for sent_at, _, p in counted if p is None]
    if other:
        print(f"    no channel          : {len(other)}")
    stalled = sum(1 for _, read_at in limited_at if lag.after_a_stall(read_at))
    print(
        f"  global 429s         : {limited} in the window, {fake.global_limited} in the whole run"
        f" (target 0; counted at the processes' stamps); {stalled} of them read within a"
        f" second after this process's loop stalled (> 0.1 s)"
    )
    phases = [("start-up", started, ready), ("set-up", ready, seated), ("play", seated, CLOCK())]
    whole = [
        at
        for (_, path), at in zip(fake.requests, fake.request_sent_times, strict=True)
        if counts_globally("/api/v10" + path)
    ]
    print(
        "    by phase          : "
        + "; ".join(
            f"{name} {sum(1 for at, _ in limited_at if a <= at < b)} 429s,"
            f" at most {most_in_a_second([t for t in whole if a <= t < b])} counted in 1 s"
            for name, a, b in phases
        )
    )
    print(f"  action -> channel   : {spread(play.shown)} (the first write of its channel after it)")
    print(f"  action -> next turn : {spread(play.turns)} (the next player's buttons)")
    shares = ", ".join(f"process {n} {c:.0%}" for n, c in enumerate(cpu))
    print(
        f"  CPU                 : {shares}; this process (fake, members) {own:.0%}"
        + (f"; PostgreSQL {postgres / window:.0%}" if args.postmaster else "")
        + f" of one core; the machine {busy / window:.0%} (of {os.cpu_count()} cores:"
        f" {os.cpu_count() or 1:.0%}), {(busy - postgres) / window - sum(cpu) - own:.0%} of it"
        " other work"
    )
    for shard in range(k):
        lags, pauses = probed(directory / f"probe-{shard}.txt", t0, t1)
        print(f"  process {shard}'s loop  : lag {spread(lags)}")
        print(
            "    its collector     : "
            + "; ".join(
                f"generation {g} {len(p):,} times, {sum(p):.2f} s, the longest"
                f" {max(p, default=0) * 1000:.0f} ms"
                for g, p in pauses.items()
            )
        )
    print(f"  this loop's lag     : {spread(lag.lags)}")
    pauses = sorted(upkeep.pauses)
    print(
        f"  its collector       : {len(pauses):,} collections, {sum(pauses):.2f} s in all,"
        f" the longest {pauses[-1] * 1000 if pauses else 0:.0f} ms; its size at most"
        f" {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB"
    )
    print(f"  load average        : {load_average()} at the end")
    for name, path in await profiles:
        print_profile(name, path)
    return met and limited == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=2000, help="tables (default 2000)")
    parser.add_argument("--processes", type=int, default=2, help="bot processes (default 2)")
    parser.add_argument("--seconds", type=float, default=60, help="measured seconds (default 60)")
    parser.add_argument("--warmup", type=float, default=20, help="seconds of play first (20)")
    parser.add_argument("--think", type=float, default=1000, help="mean ms a move (1000)")
    parser.add_argument(
        "--rest-budget", type=float, default=40.0, help="REST_BUDGET (default 40; 0: none)"
    )
    parser.add_argument(
        "--global-limit",
        type=int,
        default=DISCORD_GLOBAL_LIMIT,
        help="the fake's global limit a second (default 50; 0: off)",
    )
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL")
    parser.add_argument("--seat-at-once", type=int, default=50, help=argparse.SUPPRESS)
    parser.add_argument("--points", type=int, default=10, help="points a game (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", help="a folder to write the processes' tracebacks to")
    parser.add_argument("--quick", action="store_true", help="24 tables, 10 + 15 s")
    parser.add_argument(
        "--profile", help="a folder for py-spy's profiles of every process while measuring"
    )
    parser.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop" if uvloop else "asyncio",
        help="this process's event loop (uvloop when installed)",
    )
    parser.add_argument(
        "--bot-freeze",
        type=float,
        default=0.0,
        help="an experiment: each bot process freezes its collector's objects this often (s)",
    )
    parser.add_argument(
        "--json",
        choices=("orjson", "json"),
        default="orjson" if orjson else "json",
        help="what the fake serializes with (orjson when installed)",
    )
    args = parser.parse_args(argv)
    args.postmaster = None
    if args.json == "orjson":
        if orjson is None:
            parser.error("orjson is not installed (pip install orjson)")
        fake_discord.json = OrJSON  # type: ignore[assignment]
    if args.quick:
        args.tables, args.warmup, args.seconds = 24, 10, 15
    logging.basicConfig(level=logging.ERROR)
    if args.loop == "uvloop":
        if uvloop is None:
            parser.error("uvloop is not installed (pip install uvloop)")
        return 0 if uvloop.run(run(args)) else 1
    return 0 if asyncio.run(run(args)) else 1


if __name__ == "__main__":
    raise SystemExit(main())
