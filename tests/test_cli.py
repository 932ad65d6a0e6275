"""The command line: `python -m bot replay` and `simulate`, their output and their exit codes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli
from bot.engine.egn import import_egn, import_emn
from bot.engine.match import Match
from bot.engine.records import match_to_record
from bot.engine.rules import build_options

EXAMPLES = Path(__file__).resolve().parent / "data" / "egn" / "examples"
GAME = EXAMPLES / "Me and Bears.egn"
ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _played(options, seed: int, stop: int | None = None) -> Match:
    rng = random.Random(seed)
    match = Match(options, rng.randrange(4), rng=rng)
    steps = 0
    while not match.over and (stop is None or steps < stop):
        match.apply(rng.choice(list(match.legal_actions())), match.to_act)
        steps += 1
    return match


def _write(tmp_path: Path, data: object, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------
# replay


def test_replay_prints_each_deal_and_the_final_score(capsys):
    game = import_egn(json.loads(GAME.read_text(encoding="utf-8")))
    code, out, err = run(capsys, "replay", str(GAME))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert sum(line.startswith("Deal ") for line in lines) == len(game.deals)
    first = game.deals[0].deal
    assert lines[2].startswith(
        f"Deal 1: dealer {game.players[first.dealer]}; maker {game.players[first.maker]}"
    )
    a, b = game.final_score
    assert lines[-1].startswith(f"Final score: {a}-{b}; side {game.match.winner} wins")


def test_replay_json_has_the_deals_and_the_final_score_by_side(capsys):
    game = import_egn(json.loads(GAME.read_text(encoding="utf-8")))
    code, out, _ = run(capsys, "replay", str(GAME), "--json")
    summary = json.loads(out)
    assert code == 0
    assert summary["final_score"] == list(game.final_score)
    assert len(summary["deals"]) == len(game.deals)
    for line, replayed in zip(summary["deals"], game.deals, strict=True):
        result = replayed.deal.result
        assert (line["dealer"], line["maker"], line["trump"], line["alone"]) == (
            result.dealer,
            result.maker,
            result.trump,
            result.alone,
        )
        assert line["tricks"] == list(result.tricks) and line["points"] == list(result.points)
    total = [
        sum(d["points"][side] for d in summary["deals"]) + summary["initial_score"][side]
        for side in (0, 1)
    ]
    assert total == summary["final_score"]


def test_replay_of_an_own_rubber_record_gives_each_game_and_the_rubber_points(capsys, tmp_path):
    match = _played(build_options("somerset"), 11)
    path = _write(tmp_path, match_to_record(match, players=["Ann", "Bob", "Cy", "Di"]))
    code, out, _ = run(capsys, "replay", str(path), "--json")
    summary = json.loads(out)
    assert code == 0
    assert [g["scores"] for g in summary["games"]] == [list(g.scores) for g in match.games]
    assert summary["rubber_points"] == list(match.rubber_points)
    assert summary["final_score"] == list(match.scores) and summary["winner"] == match.winner
    assert sum(1 for d in summary["deals"]) == len(match.hand_results)
    code, text, _ = run(capsys, "replay", str(path))
    assert f"rubber points {match.rubber_points[0]}-{match.rubber_points[1]}" in text
    assert text.count("Game ") >= 2 * len(match.games)


def test_replay_of_an_unfinished_record_says_so(capsys, tmp_path):
    match = _played(build_options("modern"), 2, stop=40)
    path = _write(tmp_path, match_to_record(match))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and out.rstrip().endswith("(not finished)")


def test_replay_of_an_emn_match_gives_each_game(capsys):
    path = EXAMPLES / "combination examples" / "MotE W5 Match.emn"
    games = import_emn(json.loads(path.read_text(encoding="utf-8")))
    code, out, _ = run(capsys, "replay", str(path), "--json")
    summary = json.loads(out)
    assert code == 0 and summary["format"] == "emn"
    assert [g["final_score"] for g in summary["games"]] == [list(g.final_score) for g in games]


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "is not JSON"),
        ('{"fileType": "Euchre Layout Template"}', "not a game record"),
        ("[1, 2]", "not a game record"),
    ],
)
def test_replay_of_a_bad_file_exits_2_with_the_reason(capsys, tmp_path, content, message):
    path = tmp_path / "bad.egn"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err


def test_replay_of_a_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "replay", str(tmp_path / "nothing.egn"))
    assert code == 2 and "cannot read" in err


JULY_4TH = EXAMPLES / "validation examples" / "July 4th Pairs Finals.egn"


def test_replay_of_deals_after_the_game_was_won_warns_and_exits_0(capsys):
    code, out, err = run(capsys, "replay", str(JULY_4TH))
    assert code == 0
    assert err == (
        "warning: deals 10 and 11 are played after the game was won: side 1 reached 10 in"
        " deal 9 (6-10): checked, but not scored\n"
    )
    assert "Deal 10 (after the game was won, not scored): " in out
    assert out.splitlines()[-1] == "Final score: 6-10; side 1 wins"
    code, out, err = run(capsys, "replay", str(JULY_4TH), "--json")
    summary = json.loads(out)
    assert [d["after_game"] for d in summary["deals"]] == [False] * 9 + [True] * 2
    assert summary["final_score"] == [6, 10] and err.startswith("warning: ")


def test_replay_strict_refuses_what_the_default_replays_with_a_warning(capsys):
    code, out, err = run(capsys, "replay", "--strict", str(JULY_4TH))
    assert code == 2 and out == ""
    assert err.startswith("error: deals 10 and 11 are played after the game was won")


def test_replay_of_a_record_the_rules_refuse_exits_2_naming_the_deal(capsys):
    path = EXAMPLES / "conversion examples" / "test.egn"
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert (
        err == "error: deal 1, trick 3: seat 3 plays QS, but QS is the up card taken up by seat 0\n"
    )


def test_python_m_bot_replay_runs_as_a_process(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(GAME), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "egn"
    missing = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(tmp_path / "none.egn")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2
    assert missing.stderr.startswith("error: ") and "Traceback" not in missing.stderr


# ---------------------------------------------------------------------------------------------
# simulate


def test_simulate_is_deterministic_for_a_seed(capsys):
    args = ("simulate", "--preset", "modern", "--matches", "4", "--json")
    first = run(capsys, *args, "--seed", "7")
    second = run(capsys, *args, "--seed", "7")
    other = run(capsys, *args, "--seed", "8")
    assert first[0] == 0 and first == second
    assert json.loads(first[1]) != json.loads(other[1])


def test_simulate_figures_add_up(capsys):
    code, out, _ = run(
        capsys, "simulate", "--preset", "somerset", "--matches", "5", "--seed", "1", "--json"
    )
    report = json.loads(out)
    assert code == 0 and report["matches"] == 5
    assert sum(report["wins_by_side"]) == 5
    assert report["win_share_by_seat"] == [report["wins_by_side"][s % 2] / 5 for s in range(4)]
    assert report["makers"]["hands"] + report["passed_out"] == report["deals"]
    assert report["makers"]["won"] + report["makers"]["euchred"] == report["makers"]["hands"]
    assert (
        report["lone_hands"]["made"] <= report["lone_hands"]["tried"] <= report["makers"]["hands"]
    )
    assert report["games"] >= 3 * 5  # every rubber plays at least three games
    assert report["hands_per_game"] == round(report["deals"] / report["games"], 4)


def test_simulate_text_names_every_figure(capsys):
    code, out, _ = run(
        capsys, "simulate", "--preset", "jerome", "--matches", "3", "--option", "joker=true"
    )
    assert code == 0
    for words in (
        "3 matches, preset jerome (joker=True)",
        "per game",
        "Makers:",
        "Lone hands:",
        "Share of wins: seat 0",
    ):
        assert words in out


def test_simulate_plays_computer_players_through_the_seam(capsys):
    code, out, _ = run(
        capsys, "simulate", "--preset", "modern", "--matches", "2", "--a", "easy", "--json"
    )
    assert code == 0 and json.loads(out)["levels"] == ["easy", "random"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "--a", "wizard"], "unknown level 'wizard'"),
        (["simulate", "--option", "jokers=true"], "unknown option 'jokers'"),
        (["simulate", "--option", "joker"], "NAME=VALUE"),
    ],
)
def test_simulate_bad_arguments_exit_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "--preset", "nope"], "invalid choice"),
        (["simulate", "--matches", "0"], "must be at least 1"),
        # A count without a bound played for days; a variant's simulation reads it too.
        (["simulate", "--matches", "10001"], "must be at most 10000"),
        (["simulate", "--variant", "napoleon", "--matches", "99999999"], "must be at most 10000"),
        # One rule for whole numbers (bot/numbers.py): int() read these as 10 and 1.
        (["simulate", "--matches", "1_0"], "'1_0' is not a whole number"),
        (["simulate", "--matches", "١"], "is not a whole number"),
        (["replay"], "required"),
    ],
)
def test_argument_errors_exit_2_with_usage(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# The seam for other modules' subcommands


def test_registered_subcommands_join_the_parser(capsys):
    def add_hello(subparsers) -> None:
        hello = subparsers.add_parser("hello", help="say hello")
        hello.add_argument("name")
        hello.set_defaults(handler=lambda args: print(f"hello {args.name}") or 0)

    cli.register(add_hello)
    try:
        assert run(capsys, "hello", "table") == (0, "hello table\n", "")
    finally:
        cli._REGISTRARS.remove(add_hello)
    with pytest.raises(SystemExit):
        cli.main(["hello", "table"])
