"""Fixtures as Discord shows them: long names and many pairs still fit Discord's limits."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine.rules import build_options
from bot.leagues.fixtures import SwissRow
from bot.storage.fixtures import FixtureError, Pair, Series
from bot.storage.leagues import League
from bot.tables.fixtures import winner_of
from bot.ui.fixtures import DESCRIPTION_LIMIT, pairs_embed, shared_title, standings_lines
from bot.ui.fixtures import standings_embed as fixture_standings_embed

LONG = "_*" * 16  # 32 characters, each escaped: the longest a shown name gets

LEAGUE = League(
    1, 2, "L" * 40, build_options("modern").to_dict(), "fixtures", "games", False, 1, ""
)


def test_many_pairs_of_long_names_are_shown_whole_page_by_page():
    """Eighty pairs of the longest names, each with an alternate: the list showed fifty and
    "…and 30 more", with no way to see the rest. Every pair is on one of its pages, each page
    within an embed's limits; a page past the last is refused, saying how many there are."""
    pairs = [
        Pair(i, 1, (3 * i, LONG), (3 * i + 1, LONG), (3 * i + 2, LONG), False) for i in range(80)
    ]
    shown = []
    for page in range(1, 7):
        embed = pairs_embed(LEAGUE, pairs, page)
        assert len(embed.description) <= DESCRIPTION_LIMIT and len(embed) <= 6000
        assert "more" not in embed.description
        assert embed.footer.text.startswith(f"Page {page} of 6 · 80 pairs")
        shown += [line.split(". ")[0] for line in embed.description.split("\n")]
    assert shown == [str(n) for n in range(1, 81)]
    with pytest.raises(FixtureError, match="page 7 does not exist: the league's pairs fill 6"):
        pairs_embed(LEAGUE, pairs, 7)


def test_an_events_table_of_many_pairs_is_shown_whole_page_by_page():
    """A Swiss event of forty pairs of the longest names: its table stopped at what fitted
    one embed and said "…and N more". It has pages now, places counted over the whole table
    (a page's first row level with the last before it shares its place)."""
    pairs = {i: Pair(i, 1, (3 * i, LONG), (3 * i + 1, LONG), None, i % 2 == 0) for i in range(40)}
    rows = [SwissRow(i, Fraction(10 - i // 2, 2), Fraction(1), Fraction(1)) for i in range(40)]
    series = Series(1, 1, "swiss", 86400, "forfeit", 1, tuple(pairs), 0, None)
    places = []
    for page in (1, 2, 3):
        embed = fixture_standings_embed(LEAGUE, series, rows, pairs, page)
        assert len(embed.description) <= DESCRIPTION_LIMIT and len(embed) <= 6000
        assert "more" not in embed.description and f"Page {page} of 3" in embed.footer.text
        places += [line.split(". ")[0] for line in embed.description.split("\n")[1:]]
    assert places == [str(2 * (n // 2) + 1) for n in range(40)], places
    with pytest.raises(FixtureError, match="page 4 does not exist"):
        fixture_standings_embed(LEAGUE, series, rows, pairs, 4)


def test_a_table_shows_half_points_and_shares_as_percentages():
    pairs = {1: Pair(1, 1, (1, "ann"), (2, "bea"), None, False)}
    rows = [SwissRow(1, Fraction(5, 2), Fraction(1, 3), Fraction(2, 3))]
    assert standings_lines(rows, pairs) == [
        "1. ann & bea: 2½ match points · opponents 33% · games 67%"
    ]
    half = [SwissRow(1, Fraction(1, 2), Fraction(0), Fraction(0))]
    assert standings_lines(half, pairs)[0].startswith("1. ann & bea: ½ match points")


def test_the_winner_is_the_top_row_unless_the_next_is_level_on_every_count():
    top = SwissRow(1, Fraction(2), Fraction(1, 2), Fraction(3, 4))
    assert winner_of([top, SwissRow(2, Fraction(2), Fraction(1, 2), Fraction(1, 2))]) == 1
    assert winner_of([top, SwissRow(2, Fraction(2), Fraction(1, 2), Fraction(3, 4))]) is None
    assert winner_of([]) is None


def test_pairs_level_on_every_count_share_a_place_and_the_title_names_them():
    """Two pairs of a round robin whose one fixture was a double forfeit: the title was
    "shared" with no names, and the table still placed them 1. and 2. They share place 1
    now, and the line names who share the title (four at most, then how many more)."""
    pairs = {i: Pair(i, 1, (2 * i, f"a{i}"), (2 * i + 1, f"b{i}"), None, False) for i in range(8)}
    level = [SwissRow(i, Fraction(1, 2), Fraction(1, 2), Fraction(0)) for i in range(2)]
    below = SwissRow(2, Fraction(0), Fraction(1, 2), Fraction(0))
    lines = standings_lines([*level, below], pairs)
    assert [line.split(" ")[0] for line in lines] == ["1.", "1.", "3."], lines
    assert shared_title(level, pairs) == (
        "🏆 Level at the top on every count: a0 & b0 and a1 & b1 share the title."
    )
    many = [SwissRow(i, Fraction(1), Fraction(1, 2), Fraction(0)) for i in range(7)]
    assert shared_title(many, pairs) == (
        "🏆 Level at the top on every count: a0 & b0, a1 & b1, a2 & b2 and 4 more pairs share"
        " the title."
    )
