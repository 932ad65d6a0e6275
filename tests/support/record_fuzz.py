"""Inputs for fuzzing the record readers: the real example files changed at random, and records of
each kind the bot writes, changed the same way.

Used by the fuzz test of the suite (a few hundred inputs, chosen by hypothesis) and by
`bench/fuzz_records.py` (over a hundred thousand, chosen by a seeded `random.Random`). Either way
the claim is the same: every input is replayed or refused with a `RecordError`, never anything else.
"""

from __future__ import annotations

import base64
import copy
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from bot.cli import replay_summary, replay_text
from bot.engine.egn import match_to_egn
from bot.engine.errors import RecordError
from bot.engine.match import Match
from bot.engine.records import match_to_record, read_record
from bot.engine.rules import build_options

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "egn" / "examples"

# Values that have broken readers before, or break careless ones: wrong types, bounds, sizes.
AWKWARD: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    3,
    4,
    5.7,
    1.0,
    float("inf"),
    float("nan"),
    2**64,
    10**4000,
    "",
    "0",
    "x" * 3000,
    "\ud800",
    "Jh",
    "R",
    "Pass",
    "Order",
    "h",
    "MBfO2GloVJ5lmjSn87ZMJ9OMukM8tNk1AnT4n3A_Jg",
    [],
    {},
    [[[[[[]]]]]],
    ["p-01"],
    {"id": []},
)


@cache
def sources() -> tuple[tuple[str, Any], ...]:
    """The documents mutations start from: every example file, and the bot's own records."""
    found = [
        (str(path.relative_to(EXAMPLES)), json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(EXAMPLES.rglob("*"))
        if path.suffix in (".egn", ".emn", ".json")
    ]
    for preset, seed in (("somerset", 1), ("modern", 2), ("jerome", 3)):
        match = _played(preset, seed)
        found.append((f"own record ({preset})", match_to_record(match, ["A", "B", "C", "D"])))
        found.append((f"written EGN ({preset})", match_to_egn(match)[0]))
    return tuple(found)


def _played(preset: str, seed: int) -> Match:
    """A match part played at random (options EGN can write: no partner taking it alone)."""
    rng = random.Random(seed)
    match = Match(build_options(preset, partner_alone=False), rng.randrange(4), rng=rng)
    for _ in range(rng.randrange(40, 120)):
        if match.over:
            break
        match.apply(rng.choice(list(match.legal_actions())), match.to_act)
    return match


def random_json(rng: random.Random, depth: int = 3) -> Any:
    """Any JSON value, awkward values often, nested up to `depth`."""
    roll = rng.random()
    if depth <= 0 or roll < 0.5:
        return _awkward(rng) if rng.random() < 0.6 else rng.randrange(-5, 40)
    if roll < 0.75:
        return [random_json(rng, depth - 1) for _ in range(rng.randrange(5))]
    keys = ("dealer", "upCard", "calls", "tricks", "players", "id", "name", "number", "x")
    return {rng.choice(keys): random_json(rng, depth - 1) for _ in range(rng.randrange(4))}


def condensed(rng: random.Random) -> str:
    """A condensed deal string: random bits, often behind a version header."""
    raw = bytearray(rng.randrange(256) for _ in range(rng.randrange(1, 48)))
    if rng.random() < 0.7:
        raw[0] = rng.choice((0x10, 0x20, 0x30)) | (raw[0] & 0x0F)
    return base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")


def mutate(document: Any, rng: random.Random, changes: int = 3) -> Any:
    """A copy of `document` with a few random changes: a value replaced, a key or item dropped,
    a list item repeated or two swapped, a string cut or a number moved by one."""
    data = copy.deepcopy(document)
    for _ in range(changes):
        data = _change_one(data, rng)
    return data


def _change_one(data: Any, rng: random.Random) -> Any:
    parent, key = _pick(data, rng)
    if parent is None:
        return random_json(rng)
    value = parent[key]
    roll = rng.random()
    if roll < 0.3:
        parent[key] = random_json(rng)
    elif roll < 0.45:
        del parent[key]
    elif roll < 0.6 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    elif roll < 0.7 and isinstance(parent, list) and len(parent) > 1:
        other = rng.randrange(len(parent))
        parent[key], parent[other] = parent[other], parent[key]
    elif isinstance(value, str):
        parent[key] = value[: rng.randrange(len(value) + 1)] + rng.choice(("", "x", "h", "0"))
    elif type(value) is int:
        parent[key] = value + rng.choice((-1, 1, 4, -10))
    else:
        parent[key] = _awkward(rng)
    return data


def _awkward(rng: random.Random) -> Any:
    # A copy: the same list placed twice in a document, then changed, would change both.
    return copy.deepcopy(rng.choice(AWKWARD))


def _pick(data: Any, rng: random.Random) -> tuple[Any, Any]:
    """A random place in `data`, as (its container, its key or index); (None, None) for the root."""
    places: list[tuple[Any, Any]] = []
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list):
            for key, child in node.items() if isinstance(node, dict) else enumerate(node):
                places.append((node, key))
                stack.append(child)
    return rng.choice(places) if places and rng.random() > 0.01 else (None, None)


def replay_kind(data: Any) -> str:
    """Read a record as `python -m bot replay` does, and write both its outputs: "replayed",
    "replayed with warnings" or "refused". Any other exception is a bug, and is raised."""
    try:
        replay = read_record(data)
    except RecordError as exc:
        str(exc).encode("utf-8")  # the message itself must be writable
        return "refused"
    summary = replay_summary(replay)
    json.dumps(summary, ensure_ascii=False).encode("utf-8")
    replay_text(summary).encode("utf-8")
    return "replayed with warnings" if replay.warnings else "replayed"
