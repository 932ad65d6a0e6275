"""SHARD_COUNT and SHARD_IDS: which shards, and so which guilds, a process serves."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings


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
