"""`python -m bot review RECORD [--json]`: every seat's grades for any record the bot reads."""

from __future__ import annotations

import json
import random
from pathlib import Path

from bot import cli
from bot.ai.expert import ExpertPlayer
from bot.engine.match import Match
from bot.engine.records import match_to_record
from bot.engine.rules import build_options
from bot.engine.variants import VariantMatch, make_variant
from bot.engine.variants.records import variant_match_to_record

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "data" / "egn" / "examples"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _expert_record(path: Path) -> Path:
    """The bot's own record of two deals the expert played as the bot's experts do (seed 0),
    searching as many worlds as the review is told to (4)."""
    expert = ExpertPlayer(0, budget=4)
    match = Match(build_options("somerset"), 0, rng=random.Random(4))
    while len(match.deals) <= 2:
        seat = match.to_act
        match.apply(expert.choose(match.view_for(seat)), seat)
    path.write_text(json.dumps(match_to_record(match, ["Ann", "Bob", "Cy", "Di"])))
    return path


def test_review_of_an_egn_game_grades_every_seat(capsys):
    code, out, _ = run(
        capsys, str(EXAMPLES / "Six Points in Two Hands.egn"), "--json", "--budget", "4"
    )
    assert code == 0
    report = json.loads(out)
    assert report["kind"] == "egn" and report["budget"] == 4
    deals = report["matches"][0]["deals"]
    assert [d["number"] for d in deals] == [1, 2]
    for deal in deals:
        assert [s["seat"] for s in deal["seats"]] == [0, 1, 2, 3]
        for seat in deal["seats"]:
            costs = [g["cost"] for g in seat["grades"]]
            assert costs == sorted(costs, reverse=True)  # the costliest first
            assert seat["cost"] == sum(costs)
            for g in seat["grades"]:
                assert g["cost"] >= 0
                if g["action"] == g["best"]:
                    assert g["cost"] == 0


def test_review_of_the_bots_own_record_of_expert_play_costs_nothing(capsys, tmp_path):
    path = _expert_record(tmp_path / "match.json")
    code, out, _ = run(capsys, str(path), "--json", "--budget", "4", "--deal", "2")
    assert code == 0
    report = json.loads(out)
    match = report["matches"][0]
    assert match["players"] == ["Ann", "Bob", "Cy", "Di"]
    assert [d["number"] for d in match["deals"]] == [2]
    grades = [g for s in match["deals"][0]["seats"] for g in s["grades"]]
    assert grades and all(g["cost"] == 0 for g in grades)


def test_review_as_text_names_each_player_and_the_book(capsys, tmp_path):
    code, out, _ = run(capsys, str(EXAMPLES / "Six Points in Two Hands.egn"), "--budget", "4")
    assert code == 0
    assert out.startswith("Deal 1")
    assert "Florida (north)" in out and "the expert's choice" in out


def test_review_of_a_record_without_names_names_each_seat_once(capsys, tmp_path):
    """A record with no players' names names them by their seats: "north", not "north (north)"."""
    expert = ExpertPlayer(0, budget=4)
    match = Match(build_options("somerset"), 0, rng=random.Random(4))
    while len(match.deals) <= 1:
        match.apply(expert.choose(match.view_for(match.to_act)), match.to_act)
    path = tmp_path / "unnamed.json"
    path.write_text(json.dumps(match_to_record(match)))
    code, out, _ = run(capsys, str(path), "--budget", "4")
    assert code == 0 and "  north\n" in out, out
    assert "(north)" not in out


def test_review_says_when_the_book_passes_with_a_hand_short_of_its_words(capsys, tmp_path):
    """The review quoted the order with three medium trumps against an order the book passes
    on, as the bot's grades did: it says the hand has less than the words ask for, in its text
    and its JSON."""
    from tests.ai.positions import B, position

    match = position({B: "9S TC QD KS 9D"}, "9H", ["order"], preset="modern")
    while not match.deals[0].is_over:
        seat = match.to_act
        match.apply(match.view_for(seat).deal.legal[0], seat)
    path = tmp_path / "short.json"
    path.write_text(json.dumps(match_to_record(match, ["Ann", "Bob", "Cy", "Di"])))
    code, out, _ = run(capsys, str(path), "--budget", "8", "--deal", "1")
    assert code == 0
    assert "it passes with this hand, which has less than it asks for to order up" in out, out
    code, out, _ = run(capsys, str(path), "--budget", "8", "--deal", "1", "--json")
    ordered = json.loads(out)["matches"][0]["deals"][0]["seats"][1]["grades"]
    book = next(g["book"] for g in ordered if g["action"] == "order")
    assert book["suggestion"] == "eldest_orders" and book["favours"] == ["pass"]
    assert book["falls_short"] == "to order up" and book["note"] is None


def test_review_refuses_a_variant_and_a_bad_file(capsys, tmp_path):
    variant = VariantMatch(make_variant("two-handed"), 0, rng=random.Random(1))
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(variant_match_to_record(variant)))
    code, _, err = run(capsys, str(path))
    assert code == 2 and "four-handed" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, _, err = run(capsys, str(bad))
    assert code == 2 and "not JSON" in err
    code, _, err = run(capsys, str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err


def test_review_of_a_deal_the_record_does_not_have_names_it(capsys):
    code, out, err = run(capsys, str(EXAMPLES / "Six Points in Two Hands.egn"), "--deal", "99")
    assert code == 2 and out == ""
    assert "there is no deal 99 in this record: its deals are numbered 1 to 2" in err


JULY_4TH = EXAMPLES / "validation examples" / "July 4th Pairs Finals.egn"
AFTER_THE_GAME = (
    "warning: deals 10 and 11 are played after the game was won: side 1 reached 10 in"
    " deal 9 (6-10): checked, but not scored\n"
)


def test_review_of_deals_after_the_game_was_won_warns_as_replay_does(capsys):
    """The same words on standard error as `replay`, and the same exit codes as without them."""
    assert cli.main(["replay", str(JULY_4TH)]) == 0
    assert capsys.readouterr().err == AFTER_THE_GAME
    code, out, err = run(capsys, str(JULY_4TH), "--deal", "9", "--budget", "1")
    assert code == 0 and out.startswith("Deal 9") and err == AFTER_THE_GAME
    code, out, err = run(capsys, str(JULY_4TH), "--json", "--deal", "9", "--budget", "1")
    assert code == 0 and json.loads(out)["kind"] == "egn" and err == AFTER_THE_GAME
    # The deals not scored are not reviewed: asked for, they are refused as before, and the
    # warning says why the record has them.
    code, out, err = run(capsys, str(JULY_4TH), "--deal", "10")
    assert code == 2 and out == ""
    assert err == AFTER_THE_GAME + (
        "error: there is no deal 10 in this record: its deals are numbered 1 to 9\n"
    )


def test_review_reads_its_numbers_by_the_one_rule_and_bounds_the_budget(capsys):
    """`--deal ١` (an Arabic-Indic one) and `--budget 1_0` were read as 1 and 10, unlike every
    other whole number the command line reads; a `--deal` of 5,000 digits was quoted whole in
    the error; and `--budget 100000000` searched for hours. Each now exits 2 with a short
    reason."""
    game = str(EXAMPLES / "Six Points in Two Hands.egn")
    for args, reason in (
        (["--deal", "١"], "is not a whole number"),
        (["--budget", "1_0"], "is not a whole number"),
        (["--deal", "9" * 5000], "is not a whole number"),
        (["--budget", "100000000"], "it must be at most 10000"),
        (["--budget", "0"], "it must be 1 or more"),
    ):
        try:
            code = cli.main(["review", game, *args])
        except SystemExit as stop:
            code = stop.code
        err = capsys.readouterr().err
        assert code == 2 and reason in err, (args, code, err[-300:])
        assert len(err) < 1000 and "Traceback" not in err, (args, len(err))
