"""A member's statistics on a server: the totals the leaderboards count, with partners and
opponents.

The totals are read from ``player_totals`` (kept by :mod:`bot.storage.results`), partners and
opponents from the member's own games, never a scan of the server's hands. Unless asked
(``include_bots=True``), results of matches in which a computer player or a substitute played
are left out (and counted apart, as ``excluded``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from bot.storage.buckets import ALL_BUCKET, COUNTERS
from bot.storage.database import Database
from bot.storage.errors import NoGamesYet
from bot.storage.names import shown_names
from bot.storage.seasons import period_range

MIN_PARTNER_GAMES = 3  # games together before a partner can be "best partner"
MIN_OPPONENT_GAMES = 3  # games against a pair before its record is shown


@dataclass(frozen=True, slots=True)
class Totals:
    """A player's totals (the counters of ``player_totals``, in the same order)."""

    rubbers_played: int = 0
    rubbers_won: int = 0
    rubber_points: int = 0
    games_played: int = 0
    games_won: int = 0
    points: int = 0
    hands_played: int = 0
    makes: int = 0
    makes_won: int = 0
    euchres_suffered: int = 0
    euchres_inflicted: int = 0
    marches: int = 0
    lone_tried: int = 0
    lone_made: int = 0

    @classmethod
    def of(cls, values: Any) -> Totals:
        return cls(*(int(v or 0) for v in values))

    def as_tuple(self) -> tuple[int, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    def __add__(self, other: Totals) -> Totals:
        return Totals(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    @property
    def rubber_win_rate(self) -> float | None:
        return self.rubbers_won / self.rubbers_played if self.rubbers_played else None

    @property
    def game_win_rate(self) -> float | None:
        return self.games_won / self.games_played if self.games_played else None

    @property
    def makers_success(self) -> float | None:
        return self.makes_won / self.makes if self.makes else None

    @property
    def lone_success(self) -> float | None:
        return self.lone_made / self.lone_tried if self.lone_tried else None


assert tuple(f.name for f in fields(Totals)) == COUNTERS, "Totals mirrors player_totals"


@dataclass(frozen=True, slots=True)
class PartnerRecord:
    """Games played with one partner."""

    user_id: int
    name: str
    games: int
    won: int

    @property
    def win_rate(self) -> float:
        return self.won / self.games


@dataclass(frozen=True, slots=True)
class OpponentRecord:
    """Games played against one pair of opponents."""

    user_ids: tuple[int, int]
    names: tuple[str, str]
    games: int
    won: int

    @property
    def lost(self) -> int:
        return self.games - self.won


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything the leaderboards count for one member, with partners and opponents.

    Attributes:
        totals: what counts under the chosen period, preset and ``include_bots``.
        excluded: what was left out because computer players or substitutes played (zero with
            ``include_bots``).
        best_partner: the partner with the best game win rate over at least
            :data:`MIN_PARTNER_GAMES` games together (ties: more games, then user id).
        most_frequent_partner: the partner of the most games (ties: more won, then user id).
        opponents: the record against every pair of opponents met in at least
            :data:`MIN_OPPONENT_GAMES` games, most met first.
    """

    guild_id: int
    user_id: int
    name: str
    period: str
    preset: str | None
    include_bots: bool
    totals: Totals
    excluded: Totals
    best_partner: PartnerRecord | None
    most_frequent_partner: PartnerRecord | None
    opponents: tuple[OpponentRecord, ...]
    season_name: str | None = None


async def player_stats(
    db: Database,
    guild_id: int,
    user_id: int,
    period: str = "all",
    preset: str | None = None,
    include_bots: bool = False,
    now: datetime | None = None,
) -> PlayerStats:
    """A member's statistics on a server.

    Partners and opponents are counted in games (a rubber has three or four), over the same
    period, preset and choice of matches as the totals; computer players are never partners or
    opponents here.

    Raises:
        NoGamesYet: the member has no recorded result on this server.
        StatsError: a bad period.
    """
    span = await period_range(db, guild_id, period, now)
    rows = await db.fetchall(
        "SELECT flagged, "
        + ", ".join(f"SUM({c})" for c in COUNTERS)
        # INDEXED BY: the planner would otherwise walk the whole bucket by the primary key.
        + " FROM player_totals INDEXED BY player_totals_by_user"
        " WHERE guild_id = ? AND user_id = ? AND bucket BETWEEN ? AND ?"
        " AND (CAST(? AS TEXT) IS NULL OR preset = ?) GROUP BY flagged",
        (guild_id, user_id, span.low, span.high, preset, preset),
    )
    by_flag = {r[0]: Totals.of(r[1:]) for r in rows}
    if not rows and span.low != ALL_BUCKET:
        known = await db.fetchval(
            "SELECT 1 FROM player_totals WHERE guild_id = ? AND user_id = ? AND bucket = ? LIMIT 1",
            (guild_id, user_id, ALL_BUCKET),
        )
    else:
        known = bool(rows)
    if not known:
        raise NoGamesYet("That member has no recorded games on this server yet.")
    clean = by_flag.get(0, Totals())
    flagged = by_flag.get(1, Totals())
    totals = clean + flagged if include_bots else clean
    excluded = Totals() if include_bots else flagged

    games = await db.fetchall(
        "SELECT g.id, g.winner, me.seat AS my_seat, o.seat, o.user_id, o.is_bot"
        " FROM game_players AS me"
        " CROSS JOIN games AS g"
        " JOIN matches AS m ON m.id = g.match_id"
        " JOIN game_players AS o ON o.game_id = g.id AND o.seat != me.seat"
        " WHERE g.id = me.game_id AND me.user_id = ? AND g.guild_id = ?"
        " AND g.day >= ? AND g.day <= ?"
        " AND m.flagged <= ? AND (CAST(? AS TEXT) IS NULL OR g.preset = ?)",
        (
            user_id,
            guild_id,
            span.first_day or "0000-00-00",
            span.last_day or "9999-12-31",
            int(include_bots),
            preset,
            preset,
        ),
    )
    seats: dict[int, dict[int, tuple[int, bool]]] = defaultdict(dict)
    outcome: dict[int, bool] = {}
    mine: dict[int, int] = {}
    for r in games:
        seats[r["id"]][r["seat"]] = (r["user_id"], bool(r["is_bot"]))
        outcome[r["id"]] = r["winner"] == r["my_seat"] % 2
        mine[r["id"]] = r["my_seat"]
    partner_games: Counter[int] = Counter()
    partner_won: Counter[int] = Counter()
    pair_games: Counter[tuple[int, int]] = Counter()
    pair_won: Counter[tuple[int, int]] = Counter()
    for game_id, others in seats.items():
        seat = mine[game_id]
        won = outcome[game_id]
        partner = others.get((seat + 2) % 4)
        if partner is not None and not partner[1] and partner[0] != user_id:
            partner_games[partner[0]] += 1
            partner_won[partner[0]] += won
        pair = [others.get((seat + 1) % 4), others.get((seat + 3) % 4)]
        if all(p is not None and not p[1] for p in pair):
            key = tuple(sorted(p[0] for p in pair if p is not None))
            if len(key) == 2:
                pair_games[key] += 1
                pair_won[key] += won
    wanted = {user_id} | set(partner_games) | {u for key in pair_games for u in key}
    names = await shown_names(db, guild_id, wanted)

    def name_of(uid: int) -> str:
        return names.get(uid, str(uid))

    partners = [
        PartnerRecord(uid, name_of(uid), partner_games[uid], partner_won[uid])
        for uid in partner_games
    ]
    frequent = min(partners, key=lambda p: (-p.games, -p.won, p.user_id), default=None)
    best = min(
        (p for p in partners if p.games >= MIN_PARTNER_GAMES),
        key=lambda p: (-p.win_rate, -p.games, p.user_id),
        default=None,
    )
    opponents = tuple(
        sorted(
            (
                OpponentRecord(key, (name_of(key[0]), name_of(key[1])), n, pair_won[key])
                for key, n in pair_games.items()
                if n >= MIN_OPPONENT_GAMES
            ),
            key=lambda o: (-o.games, -o.won, o.user_ids),
        )
    )
    return PlayerStats(
        guild_id=guild_id,
        user_id=user_id,
        name=name_of(user_id),
        period=span.period,
        preset=preset,
        include_bots=include_bots,
        totals=totals,
        excluded=excluded,
        best_partner=best,
        most_frequent_partner=frequent,
        opponents=opponents,
        season_name=span.season.name if span.season else None,
    )
