"""bot/ui/embeds.py: the table message's first line says the options a table changed from
its preset, as /rules does topic by topic."""

from __future__ import annotations

from bot.engine.rules import build_options
from bot.tables.table import Occupant, Table
from bot.ui.embeds import table_embed


def _description(preset: str, **options: object) -> str:
    table = Table(7, 1, 1, Occupant(1, "ann"), build_options(preset, **options))
    return table_embed(table, None).description or ""


def test_the_table_message_names_the_options_changed_from_the_preset() -> None:
    """A somerset table with stick the dealer and defending alone on said only "somerset
    rules": players took the Somerset laws for the table's. What the line says already (the
    Joker, the points, a single game and what goes with it) is not said twice."""
    changed = _description("somerset", stick_the_dealer=True, defend_alone=True, joker=True)
    assert changed.startswith(
        "**somerset** rules, 33 cards with the Joker, 5 points a game, a rubber (the best of"
        " three games)"
    )
    assert changed.endswith("; changed from the preset: stick the dealer on, defend alone on.")
    assert _description("jerome", partner_alone=False).endswith("partner alone off.")
    single = _description("somerset", match="game", points=7)
    assert single == "**somerset** rules, 32 cards, one game to 7 points."
    assert "changed" not in _description("modern")
