"""The variants' leaderboards and games in /stats and /history, each in the variant's own unit.

A variant's board ranks the server's members by games won and points (French, six-handed, two-
and three-handed), by net chips (Napoleon), or by wins (set-back, where a score counts down and
what a member shed is shown beside). They are never mixed into the four-handed rubbers.
"""

from __future__ import annotations

import discord

from bot.engine.variants.rules import CHIPS, SET_BACK, make_variant
from bot.storage.variant_games import GAME_PREFIX, VariantBoard, VariantGameLine, VariantRow
from bot.ui.embeds import plural, safe
from bot.ui.variant_views import TITLES

BLUE = discord.Colour.blue()
FIELD = 1024


def chips_text(chips: int) -> str:
    """Napoleon's chips won or lost, signed: `+1 chip`, `-12 chips`, `+0 chips`."""
    return f"{chips:+d} {'chip' if abs(chips) == 1 else 'chips'}"


def _unit_text(variant: str, row: VariantRow) -> str:
    """A member's line in the variant's unit."""
    scoring = make_variant(variant).scoring
    games = f"{row.games_won} won of {row.games_played}"
    if scoring == CHIPS:
        return f"{chips_text(row.points)} ({games})"
    if scoring == SET_BACK:
        # Points shed from the start of 5 over the games; set back past 5, a member sheds less
        # than nothing, which is said as what he was set back.
        if row.points < 0:
            return f"{games} (set back {plural(-row.points, 'point')} in all)"
        return f"{games} ({plural(row.points, 'point')} shed)"
    return f"{games}, {plural(row.points, 'point')}"


def variant_board_embed(board: VariantBoard, name: str) -> discord.Embed:
    """A variant's leaderboard, and the asking member's own line."""
    title = TITLES[board.variant]
    embed = discord.Embed(title=f"{title}: leaderboard", colour=BLUE)
    lines = [
        f"**{row.rank}.** {safe(row.name)} — {_unit_text(board.variant, row)}" for row in board.rows
    ]
    # Without include_bots a game a computer played in is left out, not missing: say so.
    unless = "" if board.include_bots else " without computers or substitutes (`include_bots`)"
    embed.description = "\n".join(lines) or f"No {title} game{unless} counts here yet."
    own = board.own
    embed.add_field(
        name=safe(name)[:256],
        value=(
            f"Rank {own.rank}: {_unit_text(board.variant, own)}"
            if own is not None
            else f"No {title} game of theirs counts here."
        )[:FIELD],
        inline=False,
    )
    if not board.include_bots:
        embed.set_footer(text="Games where computers or substitutes played are not counted.")
    return embed


def variant_history_text(games: list[VariantGameLine]) -> str:
    """A member's latest variant games, one line each, with the id /record takes."""
    lines = []
    for game in games:
        scoring = make_variant(game.variant).scoring
        unit = {CHIPS: chips_text(game.score), SET_BACK: f"ended at {game.score}"}.get(
            scoring, plural(game.score, "point")
        )
        result = "won" if game.won else ("no winner" if game.winner is None else "lost")
        flag = " (computers/substitutes)" if game.flagged else ""
        lines.append(
            f"**{GAME_PREFIX}{game.game_id}** {TITLES[game.variant]}, {game.players} players:"
            f" {result}, {unit}{flag}"
        )
    text = "\n".join(lines)
    return text if len(text) <= FIELD else text[: FIELD - 1] + "…"


__all__ = ["variant_board_embed", "variant_history_text"]
