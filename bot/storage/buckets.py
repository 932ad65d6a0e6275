"""The keys and counters of the totals rows, shared by everything that writes or reads them.

``player_totals`` holds a row per player, preset and flag in each *bucket*: ``all``, a day
(``day:2026-12-03``) and a season (``season:<key>``); ``board_totals`` holds the boards built
from them (:mod:`bot.storage.boards`). Both carry the same counters, in this column order.
Seasons (:mod:`bot.storage.seasons`) and boards both need these, and neither needs the other
for them: here they import from neither.
"""

from __future__ import annotations

ALL_BUCKET = "all"
DAY_PREFIX = "day:"
SEASON_PREFIX = "season:"

# Identifiers, never input: the counters in column order (player_totals and board_totals).
COUNTERS: tuple[str, ...] = (
    "rubbers_played",
    "rubbers_won",
    "rubber_points",
    "games_played",
    "games_won",
    "points",
    "hands_played",
    "makes",
    "makes_won",
    "euchres_suffered",
    "euchres_inflicted",
    "marches",
    "lone_tried",
    "lone_made",
)
