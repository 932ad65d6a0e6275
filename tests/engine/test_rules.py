"""Options and presets (RULES.md §1): every preset's values, overrides, refused combinations."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.errors import OptionsError
from bot.engine.rules import (
    DEFAULT_PRESET,
    LEFT_OF_DEALER,
    LEFT_OF_LONER,
    PRESETS,
    Options,
    build_options,
    options_from_dict,
)

# RULES.md §1, row by row: option -> (somerset, jerome, modern).
PRESET_TABLE = {
    "pack": (32, 32, 24),
    "joker": (False, False, False),
    "points": (5, 5, 10),
    "match": ("rubber", "game", "game"),
    "lap": (True, False, False),
    "double_game": (True, False, False),
    "march_points": (2, 2, 2),
    "made_points": (1, 1, 1),
    "euchred_points": (2, 2, 2),
    "lone_march_points": (4, 4, 4),
    "lone_made_points": (1, 1, 1),
    "lone_euchred_points": (4, 4, 2),
    "partner_alone": (True, True, False),
    "stick_the_dealer": (False, False, True),
    "defend_alone": (False, False, False),
    "discard_turn_up": (False, True, True),
    "loner_lead": (LEFT_OF_DEALER, LEFT_OF_DEALER, LEFT_OF_DEALER),
}


@pytest.mark.parametrize("column, preset", list(enumerate(["somerset", "jerome", "modern"])))
def test_presets_match_the_rules_table(column, preset):
    options = build_options(preset)
    assert options.preset == preset
    for name, values in PRESET_TABLE.items():
        assert getattr(options, name) == values[column], name


def test_somerset_is_the_default_preset():
    assert DEFAULT_PRESET == "somerset"
    assert build_options() == build_options("somerset") == Options()
    assert build_options(None) == PRESETS["somerset"]


def test_pack_sizes_give_the_lowest_rank():
    assert build_options("somerset").lowest_rank == "7"
    assert build_options("modern").lowest_rank == "9"


def test_options_are_frozen():
    options = build_options()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.points = 7  # type: ignore[misc]


def test_overrides_change_single_options():
    options = build_options("modern", joker=True, defend_alone="on", points="11")
    assert (options.joker, options.defend_alone, options.points) == (True, True, 11)
    assert options.changed() == {"joker": True, "defend_alone": True, "points": 11}
    assert options.stick_the_dealer  # the rest stay the preset's


def test_h_lone_march_points_option():
    assert build_options(lone_march_points=3).lone_march_points == 3


def test_loner_lead_option():
    assert build_options(loner_lead="left_of_loner").loner_lead == LEFT_OF_LONER
    assert build_options(loner_lead="LEFT_OF_LONER").loner_lead == LEFT_OF_LONER


def test_modern_rubber_option():
    options = build_options("modern", match="rubber")
    assert options.is_rubber and options.points == 10
    assert not options.lap and not options.double_game


def test_single_game_turns_rubber_only_options_off():
    options = build_options("somerset", match="game")
    assert not options.is_rubber
    assert not options.lap and not options.double_game


def test_lap_needs_a_game_longer_than_any_hand():
    """A lap is carried into the next game (S.1): a game of fewer points than one hand can
    score would begin the next game already won, so that combination is refused."""
    assert build_options(points=4).points == 4
    assert build_options(points=3, lap=False).points == 3
    assert build_options(match="game", points=1).points == 1


def test_none_overrides_are_ignored():
    assert build_options("jerome", joker=None, points=None) == PRESETS["jerome"]


@pytest.mark.parametrize(
    "preset, overrides, named",
    [
        ("nonesuch", {}, "nonesuch"),
        ("somerset", {"trumps": "H"}, "'trumps'"),
        ("somerset", {"pack": 28}, "'pack'"),
        ("somerset", {"pack": "many"}, "'pack'"),
        ("somerset", {"points": 0}, "'points'"),
        ("somerset", {"points": 101}, "'points'"),
        ("somerset", {"points": True}, "'points'"),
        ("somerset", {"joker": "perhaps"}, "'joker'"),
        ("somerset", {"match": "league"}, "'match'"),
        ("somerset", {"loner_lead": "right_of_dealer"}, "'loner_lead'"),
        ("somerset", {"lone_march_points": -1}, "'lone_march_points'"),
        ("somerset", {"defend_alone_points": 101}, "'defend_alone_points'"),
        ("somerset", {"match": "game", "lap": True}, "'lap'"),
        ("somerset", {"match": "game", "double_game": True}, "'double_game'"),
        ("jerome", {"lap": True}, "'lap'"),
        ("somerset", {"points": 3}, "lap needs"),
        ("somerset", {"lone_march_points": 6}, "lap needs"),
        ("somerset", {"defend_alone": True, "defend_alone_points": 6}, "lap needs"),
        ("modern", {"double_game": True}, "'double_game'"),
    ],
)
def test_invalid_options_refused_naming_the_option(preset, overrides, named):
    with pytest.raises(OptionsError) as caught:
        build_options(preset, **overrides)
    assert named in str(caught.value)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_options_round_trip_through_a_dict(preset):
    options = build_options(preset, joker=True, loner_lead=LEFT_OF_LONER)
    assert options_from_dict(options.to_dict()) == options


def test_options_from_dict_refuses_unknown_option_and_bad_combination():
    data = build_options().to_dict()
    with pytest.raises(OptionsError, match="'colour'"):
        options_from_dict({**data, "colour": "red"})
    with pytest.raises(OptionsError, match="'lap'"):
        options_from_dict({**data, "match": "game"})
    with pytest.raises(OptionsError, match="preset"):
        options_from_dict({**data, "preset": "nonesuch"})
