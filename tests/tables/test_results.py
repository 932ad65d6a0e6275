"""Results a table records: who sat where when the cards were played."""

from __future__ import annotations

import json
import random

from tests.tables.managers import open_manager, seated_table, shut, to_act


async def test_a_match_ending_with_a_held_seat_records_the_computer_not_the_member(tmp_path):
    db, manager = await open_manager(tmp_path / "euchre.db")
    try:
        table = await seated_table(manager, 3, points=1)
        held = table.seats[1].user_id
        table.take_over(1)  # as after two time-outs
        rng = random.Random(5)
        while table.playing:
            if table.seats[table.match.to_act].is_bot:
                await manager._computer_move(table, table.match.to_act, "easy", kind="action")
                continue
            legal = table.match.legal_actions()
            await manager.act(table.channel_id, to_act(table), legal[rng.randrange(len(legal))])
        # The end of the match gave the seat back to its member...
        assert table.seats[1].user_id == held
        # ...but the records say a computer played it, and the match is flagged.
        row = await db.fetchone("SELECT id, flagged, record FROM matches ORDER BY id DESC LIMIT 1")
        assert row["flagged"]
        seated = await db.fetchall(
            "SELECT seat, user_id, is_bot FROM match_players WHERE match_id = ? ORDER BY seat",
            (row["id"],),
        )
        assert [(r["seat"], bool(r["is_bot"])) for r in seated if r["seat"] == 1] == [(1, True)]
        assert held not in [r["user_id"] for r in seated]
        assert json.loads(row["record"])["players"][1].endswith("(computer)")
        # The other three seats name the members who played them.
        assert [r["user_id"] for r in seated if r["seat"] != 1] == [
            table.seats[s].user_id for s in (0, 2, 3)
        ]
    finally:
        await shut(db, manager)
