"""Fixtures as Discord shows them: long names and many pairs still fit Discord's limits."""

from __future__ import annotations

from bot.engine.rules import build_options
from bot.storage.fixtures import Pair
from bot.storage.leagues import League
from bot.ui.fixtures import DESCRIPTION_LIMIT, pairs_embed

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
