"""The rule of whether a match counts for its league, by itself: facts in, reasons out."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.rules import build_options
from bot.leagues.counting import (
    LeagueFacts,
    MatchFacts,
    Player,
    option_differences,
    reasons_not_counted,
)

RULES = build_options("modern").to_dict()
ALICE, BOB, CAROL, DAVE = (Player(i, n) for i, n in enumerate(("alice", "bob", "carol", "dave"), 1))
FOUR = (ALICE, BOB, CAROL, DAVE)
LEAGUE = LeagueFacts(league_id=7, options=RULES, substitutes=False, members=frozenset({1, 2, 3, 4}))
COUNTING = MatchFacts(league_id=7, status="finished", flagged=False, options=RULES, players=FOUR)


def test_a_finished_match_of_members_by_the_leagues_rules_counts():
    assert reasons_not_counted(COUNTING, LEAGUE) == []


def test_a_match_not_created_for_a_league_does_not_count():
    assert reasons_not_counted(replace(COUNTING, league_id=None), None) == [
        "it was not created for a league"
    ]


def test_a_match_of_another_league_does_not_count_for_this_one():
    reasons = reasons_not_counted(replace(COUNTING, league_id=8), LEAGUE)
    assert reasons == ["it was not created for a league"]


def test_a_player_not_a_member_is_named():
    league = replace(LEAGUE, members=frozenset({1, 2, 4}))
    assert reasons_not_counted(COUNTING, league) == [
        "carol played in it but is not a member of the league"
    ]


def test_every_player_not_a_member_is_named():
    reasons = reasons_not_counted(COUNTING, replace(LEAGUE, members=frozenset({1})))
    assert [r.split(" ")[0] for r in reasons] == ["bob", "carol", "dave"]


def test_a_computer_is_not_asked_to_be_a_member_but_flags_the_match():
    computer = Player(-1, "Computer (expert)", is_bot=True)
    match = replace(COUNTING, players=(ALICE, BOB, CAROL, computer), flagged=True)
    assert reasons_not_counted(match, LEAGUE) == [
        "a computer or a substitute played in it, and the league does not allow substitutes"
    ]


def test_a_flagged_match_counts_when_the_league_allows_substitutes():
    match = replace(COUNTING, flagged=True)
    assert reasons_not_counted(match, replace(LEAGUE, substitutes=True)) == []


def test_options_that_differ_name_the_option():
    options = build_options("modern", points=7, joker=True).to_dict()
    reasons = reasons_not_counted(replace(COUNTING, options=options), LEAGUE)
    assert reasons == [
        "its options differ from the league's: joker is on, the league's is off",
        "its options differ from the league's: points is 7, the league's is 10",
    ]


def test_a_match_still_played_is_not_finished():
    match = replace(COUNTING, status="playing", options=None, players=())
    assert reasons_not_counted(match, LEAGUE) == ["it is not finished yet"]


def test_an_abandoned_match_does_not_count():
    reasons = reasons_not_counted(replace(COUNTING, status="abandoned"), LEAGUE)
    assert reasons == ["it was abandoned before it finished"]


def test_every_reason_is_given_at_once():
    match = MatchFacts(
        league_id=7,
        status="abandoned",
        flagged=True,
        options=build_options("modern", points=7).to_dict(),
        players=FOUR,
    )
    reasons = reasons_not_counted(match, replace(LEAGUE, members=frozenset({1, 2, 3})))
    assert len(reasons) == 4
    assert reasons[0].startswith("dave") and "points is 7" in reasons[1]
    assert "substitute" in reasons[2] and "abandoned" in reasons[3]


def test_option_differences_only_of_the_options_given():
    assert option_differences(RULES, {"points": 10, "preset": "modern"}) == []
    assert option_differences(RULES, {"preset": "jerome"}) == [
        "preset is jerome, the league's is modern"
    ]
    assert option_differences(RULES, {"stick_the_dealer": False}) == [
        "stick_the_dealer is off, the league's is on"
    ]
