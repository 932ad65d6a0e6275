"""A euchre night's seating from round to round, and its EMN record, as pure functions."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import jsonschema
import referencing
import referencing.jsonschema

from bot.engine.egn import import_emn
from bot.engine.match import Match
from bot.engine.rules import build_options
from bot.leagues import night as plans
from bot.leagues.night_export import PlayedTable, night_emn
from bot.leagues.rounds import Round, pair

SCHEMAS = Path(__file__).resolve().parents[1] / "data" / "egn" / "schemas"


def emn_validator() -> jsonschema.Draft7Validator:
    """The EMN schema, with the EGN schema it names by a relative path."""
    base = "https://example.org/egn/schemas/"
    resources = [
        (
            base + path,
            referencing.Resource.from_contents(
                json.loads((SCHEMAS / name).read_text(encoding="utf-8")),
                referencing.jsonschema.DRAFT7,
            ),
        )
        for path, name in (
            ("emn/emn-schema-v1.json", "emn-schema-v1.json"),
            ("egn-schema-v1.json", "egn-schema-v1.json"),
        )
    ]
    registry = referencing.Registry().with_resources(resources)
    return jsonschema.Draft7Validator({"$ref": base + "emn/emn-schema-v1.json"}, registry=registry)


def test_table_seats_partners_north_south_and_east_west():
    assert plans.table_seats(((1, 2), (3, 4))) == (1, 3, 2, 4)


def test_a_plan_of_16_partners_everyone_once_over_15_rounds():
    plan = plans.new_plan(list(range(100, 116)))
    assert len(plan["rounds"]) == 15 and plan["repeated"] == 0
    partners = Counter()
    for number in range(1, 16):
        for (a, b), (c, d) in plans.scheduled_round(plan, number).tables:
            partners[pair(a, b)] += 1
            partners[pair(c, d)] += 1
    assert len(partners) == 16 * 15 // 2 and set(partners.values()) == {1}


def test_a_plan_shorter_than_the_night_starts_over():
    plan = plans.new_plan(list(range(4)))  # 3 rounds
    assert plans.scheduled_round(plan, 4) == plans.scheduled_round(plan, 1)


def test_a_plan_of_5_gives_each_player_one_bye():
    plan = plans.new_plan(list(range(5)))
    byes = [p for n in range(1, 6) for p in plans.scheduled_round(plan, n).byes]
    assert sorted(byes) == [0, 1, 2, 3, 4]


def test_side_that_won_is_on_points_then_tricks_then_north_south():
    assert plans.side_that_won((1, 2), (5, 0)) == 1
    assert plans.side_that_won((2, 2), (2, 3)) == 1
    assert plans.side_that_won((0, 0), (0, 0)) == 0


def test_latecomers_take_the_places_of_leavers_in_order():
    plan = {"players": [1, 2, 3, 4]}
    waiting = plans.take_over_places(plan, [1, 3, 4, 5, 6])
    assert plan["players"] == [1, 5, 3, 4] and waiting == [6]


def test_a_latecomer_takes_a_leavers_place_first():
    plan = plans.new_plan([1, 2, 3, 4])
    formed = plans.seat_latecomers(plan, [1, 3, 4, 5])
    assert plan["players"] == [1, 5, 3, 4] and formed == [] and plan["extra"] == []


def test_latecomers_with_no_place_free_form_an_extra_table_with_computers():
    plan = plans.new_plan([1, 2, 3, 4])
    formed = plans.seat_latecomers(plan, [1, 2, 3, 4, 5, 6])
    assert formed == [((4, 5), (6, 7))]
    assert plan["players"] == [1, 2, 3, 4, 5, 6, None, None]  # two computers' places
    # The schedule's own tables do not move.
    assert plans.scheduled_round(plan, 2) == plans.scheduled_round(plans.new_plan([1, 2, 3, 4]), 2)


def test_a_later_latecomer_takes_a_computers_seat_at_the_extra_table():
    plan = plans.new_plan([1, 2, 3, 4])
    plans.seat_latecomers(plan, [1, 2, 3, 4, 5])
    assert plans.seat_latecomers(plan, [1, 2, 3, 4, 5, 6]) == []
    assert plan["players"] == [1, 2, 3, 4, 5, 6, None, None]


def test_nine_latecomers_form_three_extra_tables_the_last_with_three_computers():
    plan = plans.new_plan([1, 2, 3, 4])
    formed = plans.seat_latecomers(plan, list(range(1, 14)))
    assert len(formed) == 3 and plan["players"][-3:] == [None, None, None]
    assert all(p in plan["players"] for p in range(1, 14))  # everyone has a place


def test_an_extra_tables_partners_turn_each_round():
    plan = plans.new_plan([1, 2, 3, 4])
    plans.seat_latecomers(plan, list(range(1, 9)))
    partnerships = {frozenset(side) for n in (1, 2, 3) for side in plans.extra_tables(plan, n)[0]}
    assert len(partnerships) == 6  # every two of the four are partners once in three rounds


def test_late_place_says_where_a_latecomer_will_sit():
    plan = plans.new_plan([1, 2, 3, 4])
    assert plans.late_place(plan, [1, 3, 4, 5], 5) == plans.LatePlace("place", instead_of=2)
    assert plans.late_place(plan, [1, 2, 3, 4, 5], 5) == plans.LatePlace("new_table", computers=3)
    plans.seat_latecomers(plan, [1, 2, 3, 4, 5])
    assert plans.late_place(plan, [1, 2, 3, 4, 5, 6], 6) == plans.LatePlace("extra_seat")
    assert plans.late_place(plan, [1, 2, 3, 4, 5, 6], 5) is None  # he has his place
    assert plan["players"] == [1, 2, 3, 4, 5, None, None, None]  # a look changes nothing


def test_by_the_schedule_with_byes_a_fresh_schedule_is_drawn_for_those_present():
    plan = plans.new_plan([1, 2, 3, 4, 5])
    present = [2, 3, 4, 5, 6, 7, 8]
    seated = plans.scheduled_round(plan, 3)
    redrawn = plans.redrawn(plan, present, 3, plans.SCHEDULE, seated)
    assert redrawn is not None and redrawn["first"] == 3
    assert sorted(redrawn["players"]) == [2, 3, 4, 5, 6, 7, 8]
    assert redrawn["players"][:4] == [2, 3, 4, 5]  # those who stayed keep their order


def test_with_byes_fewer_than_four_present_end_the_night():
    plan = plans.new_plan([1, 2, 3, 4])
    assert plans.redrawn(plan, [1, 2, 3], 2, plans.SCHEDULE, plans.scheduled_round(plan, 2)) is None


def test_winners_move_up_with_byes_fills_a_gap_from_those_sitting_out():
    plan = {"players": [10, 11, 12, 13, 14, 15, 16, 17, 18], "rounds": [], "first": 1}
    seated = Round((((0, 1), (2, 3)), ((4, 5), (6, 7))), (8,))
    redrawn = plans.redrawn(plan, [10, 11, 12, 14, 15, 16, 17, 18], 2, plans.WINNERS, seated)
    assert redrawn is not None
    rnd = plans.scheduled_round(redrawn, 2)
    players = redrawn["players"]
    first = [players[p] for side in rnd.tables[0] for p in side]
    assert first == [10, 11, 12, 18]  # 13 left; 18, who sat out, takes the gap
    assert len(rnd.tables) == 2 and rnd.byes == ()


def test_winners_move_up_with_byes_breaks_up_the_foot_table_to_fill_gaps():
    plan = {"players": list(range(20, 28)), "rounds": [], "first": 1}
    seated = Round((((0, 1), (2, 3)), ((4, 5), (6, 7))), ())
    redrawn = plans.redrawn(plan, [20, 21, 22, 24, 25, 26, 27], 2, plans.WINNERS, seated)
    assert redrawn is not None
    rnd = plans.scheduled_round(redrawn, 2)
    players = redrawn["players"]
    assert len(rnd.tables) == 1
    assert [players[p] for side in rnd.tables[0] for p in side] == [20, 21, 22, 24]
    assert sorted(players[p] for p in rnd.byes) == [25, 26, 27]


def played_match(seed: int, deals: int) -> Match:
    """A match of `deals` deals played with random legal actions."""
    rng = random.Random(seed)
    match = Match(build_options("modern"), 0, rng=rng)
    while len(match.deals) <= deals and not match.over:
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    return match


def test_a_night_exports_to_schema_valid_emn_that_imports_again():
    tables = [
        PlayedTable(
            r,
            p,
            tuple((str(10 * r + p * 4 + s), f"P{s}") for s in range(4)),
            played_match(r * 7 + p, 2),
        )
        for r in (1, 2)
        for p in (1, 2)
    ]
    totals = [("11", "P1", 4), ("12", "P2", 4), ("13", "P3", 1)]
    emn = night_emn(3, "Euchre night of Club", "2026-11-24", tables, totals)
    emn_validator().validate(emn)
    assert emn["metadata"]["matchFormat"] == {"type": "PROGRESSIVE"}
    assert emn["metadata"]["result"]["winner"] == ["11", "12"]
    games = import_emn(emn)
    assert len(games) == len(emn["games"]) >= 4
    assert games[0].players == ("P0", "P1", "P2", "P3")
