"""`python -m bot replay` on malformed records: a clear message naming the field and exit 2, never a
traceback. Each case is a real file read by the real command line (in this process, and once as a
process for what only a process shows: the exit code and the encoding of standard output)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.engine.errors import RecordError
from bot.engine.match import Match
from bot.engine.records import match_to_record, read_record
from bot.engine.rules import build_options

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "data" / "egn" / "examples"
EGN = json.loads((EXAMPLES / "Me and Bears.egn").read_text(encoding="utf-8"))
EMN = json.loads(
    (EXAMPLES / "combination examples" / "MotE W5 Match.emn").read_text(encoding="utf-8")
)


def _record() -> dict[str, Any]:
    rng = random.Random(5)
    match = Match(build_options("somerset"), 0, rng=rng)
    for _ in range(60):
        match.apply(rng.choice(list(match.legal_actions())), match.to_act)
    return match_to_record(match, players=["Ann", "Bob", "Cy", "Di"])


RECORD = _record()


def _changed(base: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(base)
    change(data)
    return data


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that sets one field, named by its keys and indexes (`deals.0.dealNumber`)."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isascii() and p.isdigit() else p for p in path.split(".")]
        for key in parents:
            data = data[key]
        data[last] = value

    return change


# Each file as text, and the words the message must hold.
MALFORMED = {
    "deep nesting": ("[" * 100_000 + "]" * 100_000, "nests its lists or objects too deeply"),
    "a number of 5,000 digits": (
        '{"fileType": "Euchre Game Notation", "initialScore": ' + "7" * 5_000 + "}",
        "holds a number too long to be read",
    ),
    "dealNumber as a string": (
        json.dumps(_changed(EGN, _set("deals.0.dealNumber", "0"))),
        "deal 1: dealNumber must be a whole number",
    ),
    "title as a number": (
        json.dumps(_changed(EGN, _set("metadata.title", 5))),
        "metadata 'title' must be text, not 5",
    ),
    "EMN players as a number": (
        json.dumps(_changed(EMN, _set("metadata.players", 4))),
        "EMN metadata 'players' must be a list, not 4",
    ),
    "a list as a player id": (
        json.dumps(_changed(EMN, _set("games.0.players.0", ["p-01"]))),
        "game 1: a player id must be text",
    ),
    "preset as a list": (
        json.dumps(_changed(RECORD, _set("options.preset", ["somerset"]))),
        "option 'preset' must be text",
    ),
    "points as 1e999": (
        json.dumps(_changed(RECORD, _set("options.points", 1.0))).replace(
            '"points": 1.0', '"points": 1e999'
        ),
        "option 'points' must be a whole number from 0 to 1000000, not inf",
    ),
    "points as 5.7": (
        json.dumps(_changed(RECORD, _set("options.points", 5.7))),
        "option 'points' must be a whole number from 0 to 1000000, not 5.7",
    ),
    "a deal numbered true": (
        json.dumps(_changed(RECORD, _set("deals.0.number", True))),
        "deal 1: 'number' must be a whole number",
    ),
    "a score written as floats": (
        json.dumps(
            _changed(RECORD, _set("final_score", [float(s) for s in RECORD["final_score"]]))
        ),
        "the record's final_score is",
    ),
    "a ruleset score as a float": (
        json.dumps(_changed(EGN, _set("metadata.ruleset.winning_score", 10.0))),
        "ruleset field 'winning_score' must be a whole number",
    ),
    "a lone surrogate in a title": (
        json.dumps(_changed(EGN, _set("metadata.title", "Finals \ud800"))),
        "metadata 'title' is not Unicode text",
    ),
    "a lone surrogate in a card": (
        json.dumps(_changed(RECORD, _set("deals.0.hands.0.0", "J\ud800"))),
        "deal 1: unknown card “J�”",
    ),
    "a condensed deal for no one": (
        json.dumps(_changed(EGN, _set("deals", ["MBfO2GloVJ5lmjSn87ZMJ9OMukM8tNk1AnT4n3A_Jg"]))),
        "deal 1: the condensed deal string cannot be decoded",
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_replay_of_a_malformed_record_names_the_field_and_exits_2(capsys, tmp_path, case):
    content, message = MALFORMED[case]
    path = tmp_path / "record.json"
    path.write_text(content, encoding="utf-8")
    code = cli.main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1, err


def test_a_long_value_is_quoted_briefly():
    data = _changed(EGN, _set("deals.0.initialState.upCard", "Q" * 100_000))
    with pytest.raises(RecordError, match="deal 1, up card: 'QQQ") as refused:
        read_record(data)
    assert len(str(refused.value)) < 200


def test_malformed_records_exit_2_without_a_traceback_as_a_process(tmp_path):
    for case in ("deep nesting", "a lone surrogate in a title", "points as 1e999"):
        path = tmp_path / "record.json"
        path.write_text(MALFORMED[case][0], encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "bot", "replay", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, (case, done.stderr)
        assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
