"""SHARD_COUNT and SHARD_IDS: which shards, and so which guilds, a process serves."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings, scope_text, scopes_overlap


def settings(**env: str):
    return load_settings({"DISCORD_TOKEN": "t", **env}, dotenv=False)


def test_by_default_one_process_serves_every_guild():
    s = settings()
    assert s.shard_count is None and s.shard_ids is None
    assert s.serves(1) and s.serves(2**60)


def test_a_process_serves_only_the_guilds_of_its_shards():
    s = settings(SHARD_COUNT="4", SHARD_IDS="3, 1")
    assert s.shard_count == 4 and s.shard_ids == (1, 3)
    assert [s.serves(shard << 22) for shard in range(4)] == [False, True, False, True]


def test_a_shard_count_without_ids_runs_every_shard_here():
    s = settings(SHARD_COUNT="2")
    assert s.shard_count == 2 and s.shard_ids is None and s.serves(1 << 22)


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be from 1"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must be from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "names a shard twice"),
    ],
)
def test_bad_shard_settings_are_refused_with_what_to_do(env, problem):
    with pytest.raises(ConfigError, match=problem):
        settings(**env)


def scope(**env: str):
    return settings(**env).shard_scope


def test_a_process_started_with_a_count_alone_serves_every_shard_of_it():
    assert scope() is None
    assert scope(SHARD_COUNT="3") == (3, (0, 1, 2))
    assert scope(SHARD_COUNT="4", SHARD_IDS="3,1") == (4, (1, 3))


@pytest.mark.parametrize(
    ("ours", "theirs", "overlap"),
    [
        ((2, (1,)), (2, (1,)), True),  # the same shards started twice
        ((4, (0, 1)), (4, (1, 2)), True),  # one shard in common
        ((4, (0, 1)), (4, (2, 3)), False),  # a proper split
        ((2, (1,)), (4, (3,)), True),  # guilds of shard 3 of 4 are on shard 1 of 2
        ((2, (1,)), (4, (2,)), False),  # those of shard 2 of 4 on shard 0 of 2
        ((3, (0,)), (2, (1,)), True),  # counts with no common factor share every pair
        (None, (8, (5,)), True),  # a process of every shard shares with any other
    ],
)
def test_two_processes_share_guilds_when_their_shards_agree_modulo_both_counts(
    ours, theirs, overlap
):
    assert scopes_overlap(ours, theirs) is overlap
    assert scopes_overlap(theirs, ours) is overlap
    # Checked against the guilds themselves: a guild numbered g is on shard g % count.
    served = [lambda g, s=s: s is None or g % s[0] in s[1] for s in (ours, theirs)]
    assert any(served[0](g) and served[1](g) for g in range(24)) is overlap


def test_a_process_names_its_shards_as_an_operator_set_them():
    assert scope_text(None) == "every shard"
    assert scope_text((4, (0, 1))) == "shards 0,1 of 4"
    assert scope_text((2, (1,))) == "shard 1 of 2"
    assert scope_text((3, (0, 1, 2))) == "all 3 shards"
