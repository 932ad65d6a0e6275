"""Leagues against a host who would game them, through the real bot and the fake Discord: a
league match closed mid-match by its host is no contest in the audit under his name, the
organiser awards it to the side it was taken from, and the standings, the export, a recompute
and the league's role then agree with what was played; and a season's end says where its
leaders' roles go from then on."""

from __future__ import annotations

import csv
import io

from bot.storage import league_results
from tests.bot.helpers import NAMES, act_once, eventually, private, public, running_bot, table_of
from tests.bot.test_league_roles_e2e import (
    league_id_of,
    play_league_game,
    quick_league,
    settled,
    world,
)
from tests.support.fake_discord import FakeDiscord

pytest_plugins = ["tests.support.fixtures"]


async def league_match(bot, fake: FakeDiscord, *, first: bool) -> object:
    """alice (north, with carol) against bob and dave, seats as they sat: the table, dealt."""
    if first:
        assert "for the league" in await private(fake, "alice", "table create", league="Quick")
        for name in NAMES[1:]:
            assert "You sit at" in await private(fake, name, "table join")
    assert "dealt" in await private(fake, "alice", "table start", keep_seats=True)
    return await eventually(lambda: table_of(bot, fake), what="the league's table")


async def test_a_host_closing_his_league_match_is_audited_and_the_award_moves_everything(
    fake_discord, tmp_path
):
    """Match 1 is played out; in match 2 alice, the host, closes the table mid-match. The
    audit lists it as no contest by her, and the organiser awards it to the side that lost
    match 1: all four have one game won in two matches (an award is at the fixed score, so
    points difference places them), and the standings, the export, a recompute and the
    league's role for the top two agree."""
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=2)
        table = await league_match(bot, fake, first=True)
        while table.playing:
            await act_once(bot, fake)
        lost = 1 - table.match.winner
        table = await league_match(bot, fake, first=False)
        closed_match = table.match_id
        await act_once(bot, fake)
        alice = fake.member("alice")
        asked = await (await fake.slash(alice, fake.channel, "table close")).message()
        clicked = await fake.click(alice, asked, label="Close the table")
        assert "closed" in (await clicked.message()).text
        audit = await public(fake, "bob", "league audit", league="Quick")
        assert f"M{closed_match} no contest by <@{alice.id}>: the host closed its table" in audit
        awarded = await private(
            fake, "organiser", "league award", league="Quick", match=f"M{closed_match}",
            side=("north-south", "east-west")[lost], reason="closed by the host mid-match",
        )  # fmt: skip
        assert "counts" in awarded, awarded
        shown = await public(fake, "bob", "league standings", league="Quick")
        assert shown.count("1 game won") == 4 and shown.count("2 matches") == 4, shown
        exported = await (
            await fake.slash(fake.member("bob"), fake.channel, "league export", league="Quick",
                             what="standings")
        ).message()  # fmt: skip
        text = exported.attachments[0].data.decode("utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(text)))
        assert {(r["player"], r["games"], r["played"]) for r in rows} == {
            (name, "1", "2") for name in NAMES
        }, rows
        for row in rows:  # the standings and the export place each member alike
            assert f"{row['rank']}. {row['player']}: 1 game won" in shown, (row, shown)
        top = {int(r["user_id"]) for r in rows if int(r["rank"]) <= 2}
        await fake.wait_for(lambda: set(champions.members) == top, what="the role for the top two")
        await settled(bot)
        assert await league_results.check_league(bot.db, await league_id_of(bot)) == []
        assert not bot.handler_errors


async def test_a_season_ended_says_its_leaders_roles_now_follow_the_standings_outside_seasons(
    fake_discord, tmp_path
):
    """The organiser ended the season and was told its standings were kept; the league's
    role for its leaders then went, at once and unannounced, to the leaders of the matches
    outside seasons (none here, so its winners lost it). The answer says where the roles go
    from now."""
    fake = fake_discord
    champions, _ = world(fake)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        await private(fake, "organiser", "league roles add", league="Quick", role=champions, top=2)
        await private(fake, "organiser", "league season start", league="Quick")
        _match_id, winners, _losers, _side = await play_league_game(bot, fake)
        await fake.wait_for(lambda: champions.members == winners, what="the winners' role")
        ended = await private(fake, "organiser", "league season end", league="Quick")
        assert ended.endswith(
            " The league's roles follow the standings outside seasons from now until the next"
            " season starts, and go to the leaders of those."
        ), ended
        await fake.wait_for(lambda: not champions.members, what="the role taken, as told")
        await settled(bot)
        assert not bot.handler_errors
