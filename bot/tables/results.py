"""Turning a table's finished hands, games and matches into the records the leaderboards keep.

Called by the manager inside the same transaction that stores the action which finished them,
so a result and the action that made it are durable together.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.engine.deal import HandResult
from bot.engine.match import GameResult, Match
from bot.engine.records import deal_to_record, match_to_record
from bot.engine.variants import VariantMatch
from bot.engine.variants.records import variant_match_to_record
from bot.storage import league_results, leagues, results, variant_games
from bot.storage.database import Database
from bot.tables.table import Table


def seat_players(table: Table) -> tuple[results.SeatPlayer, ...]:
    """Who sits where now, as the leaderboards record them."""
    return tuple(
        results.SeatPlayer(
            seat=seat, user_id=o.user_id, name=o.name, is_bot=o.is_bot, substitute=o.substitute
        )
        for seat, o in enumerate(table.seats)
        if o is not None
    )


def seat_names(table: Table) -> list[str]:
    return [o.name if o else "" for o in table.seats]


# Who sits where, as plain values: (seat, user id, name, computer, substitute).
Seated = tuple[tuple[int, int, str, bool, bool], ...]


def seated_now(table: Table) -> Seated:
    """Who sits where as an action is taken, cheaply: the end of a match changes the seats in
    place (held seats go back), so every action takes this, and only one that records a result
    turns it into `players_of` and `names_of`."""
    return tuple(
        (seat, o.user_id, o.name, o.is_bot, o.substitute)
        for seat, o in enumerate(table.seats)
        if o is not None
    )


def players_of(seated: Seated) -> tuple[results.SeatPlayer, ...]:
    """`seat_players` as it was when `seated` was taken."""
    return tuple(results.SeatPlayer(*s) for s in seated)


def names_of(seated: Seated, seats: int) -> list[str]:
    """`seat_names` as it was when `seated` was taken."""
    names = [""] * seats
    for seat, _user, name, _bot, _sub in seated:
        names[seat] = name
    return names


class ResultsRecorder:
    """Writes results through `bot.storage.results`, inside the caller's transaction."""

    def __init__(self, clock: type[datetime] = datetime) -> None:
        self._clock = clock

    def _now(self) -> datetime:
        return self._clock.now(UTC)

    async def new_match(self, db: Database, table: Table) -> int:
        """Allocate the table's next match, marked with the league the table plays for (a
        variant's game is allocated among the variants' games, never among the matches)."""
        if table.variant is not None:
            return await variant_games.new_game_id(
                db, table.guild_id, table.id, table.variant.name, table.seat_count
            )
        match_id = await results.new_match_id(db, table.guild_id, table.id)
        if table.league_id is not None:
            await leagues.set_match_league(db, match_id, table.league_id)
            await league_results.match_started(db, match_id, seat_players(table))
        return match_id

    # Each of these takes `players`: who sat where when the action was taken. The end of a match
    # hands held seats back to their members, so reading the seats afterwards would credit them
    # with play a computer or a substitute made.

    def hand(
        self,
        table: Table,
        match: Match,
        result: HandResult,
        players: tuple[results.SeatPlayer, ...],
    ) -> results.HandRecord:
        """The record of the deal just finished, for `results.record_hands`: the writer stores
        the deals its transaction finishes together."""
        deal = match.deals[-1] if match.over else match.deals[-2]
        number = len(match.deals) - (1 if match.over else 2)
        return results.HandRecord(
            guild_id=table.guild_id,
            table_id=table.id,
            match_id=_match_id(table),
            game_number=match.game_of_deal[number],
            deal_number=number,
            dealer=result.dealer,
            maker=result.maker,
            trump=result.trump,
            alone=result.alone,
            defender=result.defender,
            players=players,
            tricks=result.tricks,
            points=result.points,
            outcome=result.outcome,
            preset=table.options.preset,
            options=table.options.to_dict(),
            record=mark_hints(deal_to_record(deal, number + 1, match.game_of_deal[number]), table),
            played_at=self._now(),
            flagged=table.flagged,
        )

    async def game(
        self,
        db: Database,
        table: Table,
        match: Match,
        number: int,
        game: GameResult,
        players: tuple[results.SeatPlayer, ...],
    ) -> None:
        played_at = self._now()
        game_id = await results.record_game(
            db,
            results.GameRecord(
                guild_id=table.guild_id,
                table_id=table.id,
                match_id=_match_id(table),
                game_number=number,
                players=players,
                scores=game.scores,
                winner=game.winner,
                value=game.value,
                preset=table.options.preset,
                options=table.options.to_dict(),
                played_at=played_at,
                flagged=table.flagged,
            ),
        )
        if table.league_id is not None:  # rated in the transaction that stores the game
            await league_results.game_ended(
                db,
                table.league_id,
                _match_id(table),
                game_id,
                players,
                game.winner,
                played_at,
                table.flagged,
                changed=number in table.changed_games,
            )

    async def match(
        self,
        db: Database,
        table: Table,
        match: Match,
        players: tuple[results.SeatPlayer, ...],
        names: list[str],
        abandoned: bool = False,
        closed_by: int | None = None,
    ) -> None:
        """Store a match as it ended, or as abandoned (`closed_by`: the member whose close of
        the table abandoned it, the host or a moderator, whom a league's audit names)."""
        await results.record_match(
            db,
            results.MatchRecord(
                guild_id=table.guild_id,
                table_id=table.id,
                match_id=_match_id(table),
                kind="rubber" if match.options.is_rubber else "game",
                players=players,
                games=tuple((g.scores, g.winner, g.value) for g in match.games),
                rubber_points=match.rubber_points,
                winner=match.winner,
                abandoned=abandoned,
                flagged=table.flagged,
                preset=table.options.preset,
                options=table.options.to_dict(),
                record=_mark_match_hints(match_to_record(match, players=names), table),
                played_at=self._now(),
            ),
        )
        if table.league_id is not None:  # its standing, in the transaction that stores it
            removed_by = None
            if table.removed_seats:
                removed_by = await league_results.who_removed(db, table.id, table.match_no)
            await league_results.match_ended(
                db,
                table.guild_id,
                _match_id(table),
                frozenset(table.left_seats),
                frozenset(table.removed_seats),
                closed_by=closed_by,
                by_host=closed_by == table.host_id,
                removed_by=removed_by,
                removed_by_host=removed_by is None or removed_by == table.host_id,
            )

    async def variant_game(
        self,
        db: Database,
        table: Table,
        match: VariantMatch,
        players: tuple[results.SeatPlayer, ...],
        names: list[str],
        abandoned: bool = False,
    ) -> None:
        """A variant's game as it ended (or was abandoned), with its own record."""
        variant = match.variant
        await variant_games.record_game(
            db,
            variant_games.VariantGameRecord(
                guild_id=table.guild_id,
                game_id=_match_id(table),
                variant=variant.name,
                players=tuple(
                    variant_games.VariantSeat(
                        p.seat, p.user_id, p.name, variant.side_of(p.seat), p.is_bot, p.substitute
                    )
                    for p in players
                ),
                scores=tuple(match.scores),
                winner=match.winner,
                deals=len(match.deals),
                record=variant_match_to_record(match, players=names),
                played_at=self._now(),
                flagged=table.flagged,
                abandoned=abandoned,
            ),
        )

    async def abandoned(
        self,
        db: Database,
        table: Table,
        match: Match | VariantMatch,
        closed_by: int | None = None,
    ) -> None:
        """Store the table's unfinished match as abandoned (`closed_by`: the member who closed
        the table, when one did)."""
        if isinstance(match, VariantMatch):
            if table.match_id is not None:
                await self.variant_game(
                    db, table, match, seat_players(table), seat_names(table), abandoned=True
                )
            return
        if table.match_id is not None:
            await self.match(
                db,
                table,
                match,
                seat_players(table),
                seat_names(table),
                abandoned=True,
                closed_by=closed_by,
            )


__all__ = [
    "ResultsRecorder",
    "Seated",
    "names_of",
    "players_of",
    "seat_names",
    "seat_players",
    "seated_now",
]


def _match_id(table: Table) -> int:
    """The stored match's id: set when the match starts, before any result is recorded."""
    if table.match_id is None:
        raise RuntimeError(f"table {table.id}: a result of a match that was never stored")
    return table.match_id


def mark_hints(record: dict[str, Any], table: Table) -> dict[str, Any]:
    """Mark a deal's record with the seats that played it with a hint (`"hints": [seats]`);
    a deal played without one has no such field, as in records written before hints."""
    seats = table.hinted.get(record["number"])
    if seats:
        record["hints"] = sorted(seats)
    return record


def _mark_match_hints(record: dict[str, Any], table: Table) -> dict[str, Any]:
    for deal in record["deals"]:
        mark_hints(deal, table)
    return record
