"""The bot's own record of a variant's game: written, read by `read_record`, replayed exactly."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.engine.errors import RecordError
from bot.engine.records import read_record
from bot.engine.variants import VariantMatch, make_variant
from bot.engine.variants.records import variant_match_from_record, variant_match_to_record

TABLES = [
    ("two-handed", 2, {}),
    ("three-handed", 3, {}),
    ("french", 4, {}),
    ("napoleon", 7, {}),
    ("six-handed", 6, {}),
    ("set-back", 4, {"declare_all": True, "euchre_deducts": True}),
]


def played(
    name: str, players: int, options: dict[str, object], seed: int, actions: int | None = None
) -> VariantMatch:
    match = VariantMatch(make_variant(name, players, **options), 1 % players, random.Random(seed))
    rng = random.Random(seed)
    while not match.over and (actions is None or actions > 0):
        legal = list(match.legal_actions())
        bolder = [a for a in legal if a not in ("pass", "throw_up")] or legal
        match.apply(rng.choice(bolder), match.to_act)
        if actions is not None:
            actions -= 1
    return match


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_a_finished_variant_game_round_trips_through_its_json_record(
    name: str, players: int, options: dict[str, object]
) -> None:
    match = played(name, players, options, 5)
    record = json.loads(
        json.dumps(variant_match_to_record(match, [f"P{s}" for s in range(players)]))
    )
    replay = read_record(record)
    assert replay.kind == "variant" and replay.variant_match is not None
    again = replay.variant_match
    assert again.scores == match.scores and again.winner == match.winner and again.over
    assert [d.history for d in again.deals] == [d.history for d in match.deals]
    assert [d.result for d in again.deals] == [d.result for d in match.deals]
    assert replay.players == tuple(f"P{s}" for s in range(players))
    assert variant_match_to_record(again, replay.players) == record


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_an_unfinished_variant_game_replays_to_the_same_seat_and_phase(
    name: str, players: int, options: dict[str, object]
) -> None:
    match = played(name, players, options, 9, actions=23)
    again, _ = variant_match_from_record(json.loads(json.dumps(variant_match_to_record(match))))
    assert (again.deal.phase, again.to_act, again.deal.hands) == (
        match.deal.phase,
        match.to_act,
        match.deal.hands,
    )
    assert again.legal_actions() == match.legal_actions()


def test_the_record_holds_the_sides_auction_early_ends_and_chips() -> None:
    match = played("napoleon", 5, {}, 3)
    record = variant_match_to_record(match)
    assert record["variant"] == {"variant": "napoleon", "players": 5, "rounds": 1}
    first = record["deals"][0]
    assert len(first["hands"]) == 5 and first["turn_up"] is None
    assert any(action.startswith("bid:") for _, action in first["actions"])
    result = first["result"]
    assert set(result) >= {"maker", "bid", "tricks", "points", "early", "thrown"}
    assert sum(result["points"]) == 0


def _tampered(change) -> dict[str, object]:
    record = variant_match_to_record(played("french", 4, {}, 5))
    bad = copy.deepcopy(record)
    change(bad)
    return bad


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["deals"][0]["result"]["points"].reverse(), "the replay gives"),
        (
            lambda r: r["deals"][0]["hands"][0].__setitem__(0, r["deals"][0]["hands"][1][0]),
            "one 24-card pack",
        ),
        (lambda r: r["deals"][0]["actions"].insert(0, [2, "pass"]), "deal 1"),
        (lambda r: r.__setitem__("scores", [99, 0]), "scores"),
        (lambda r: r["variant"].__setitem__("players", 5), "french is played by 4 players"),
        (lambda r: r["variant"].__setitem__("variant", "railroad"), "unknown variant"),
        (lambda r: r["deals"][0].__setitem__("turn_up", "9S"), "turn-up"),
    ],
)
def test_a_record_the_replay_refuses_is_a_clear_record_error(change, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_record(_tampered(change))
