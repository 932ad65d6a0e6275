"""Fixtures as Discord shows them: long names and many pairs still fit Discord's limits."""

from __future__ import annotations

from fractions import Fraction

from bot.engine.rules import build_options
from bot.leagues.fixtures import SwissRow
from bot.storage.fixtures import Pair
from bot.storage.leagues import League
from bot.tables.fixtures import winner_of
from bot.ui.fixtures import DESCRIPTION_LIMIT, pairs_embed, shared_title, standings_lines

LONG = "_*" * 16  # 32 characters, each escaped: the longest a shown name gets

LEAGUE = League(
    1, 2, "L" * 40, build_options("modern").to_dict(), "fixtures", "games", False, 1, ""
)


def test_many_pairs_of_long_names_fit_an_embed_and_say_how_many_more():
    pairs = [
        Pair(i, 1, (3 * i, LONG), (3 * i + 1, LONG), (3 * i + 2, LONG), False) for i in range(80)
    ]
    embed = pairs_embed(LEAGUE, pairs)
    assert len(embed.description) <= DESCRIPTION_LIMIT and len(embed) <= 6000
    assert embed.description.endswith("more")
    assert "80 pairs" in embed.footer.text


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
