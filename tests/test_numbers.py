"""The one rule for ids and whole numbers read from people: ASCII digits, bounded."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from bot.numbers import SQLITE_MAX, parse_whole


@pytest.mark.parametrize(
    "text, value", [("0", 0), ("42", 42), (" 7 ", 7), (str(SQLITE_MAX), SQLITE_MAX)]
)
def test_ascii_digits_are_a_whole_number(text, value):
    assert parse_whole(text) == value


@pytest.mark.parametrize(
    "text",
    ["", " ", "²", "٣", "１２", "1_000", "-1", "+1", "1.0", "1e3", str(SQLITE_MAX + 1), "9" * 5000],
)
def test_anything_else_is_not(text):
    assert parse_whole(text) is None


def test_a_bound_of_its_own():
    assert parse_whole("100", high=100) == 100 and parse_whole("101", high=100) is None


@pytest.mark.parametrize("name", ["OWNER_IDS", "DEV_GUILD_ID", "TURN_TIMEOUT"])
@pytest.mark.parametrize("value", ["１２", "1_000", "9" * 30])
def test_settings_read_numbers_by_the_same_rule(name, value):
    with pytest.raises(ConfigError, match=f"{name} must be a whole number"):
        load_settings({"DISCORD_TOKEN": "t", name: value}, dotenv=False)
