"""Leagues, their fixtures and their corrections as organisers and members use them, through
the real bot and the fake Discord (QA's third round): what it found, each kept by a test."""

from __future__ import annotations

import discord

from bot.storage import fixtures, league_results, league_roles, leagues
from bot.tables.fixtures import DAY
from cogs.league_roles import role_sync
from tests.bot.helpers import act_once, eventually, private, public, running_bot, table_of
from tests.bot.test_fixtures_e2e import Clock, errors_of, league_with_pairs, posted
from tests.bot.test_leagues_qa_e2e import quick_league, seat_league_table
from tests.bot.test_nights_e2e import eventually_async
from tests.support.fake_discord import BOT_PERMISSIONS

pytest_plugins = ["tests.support.fixtures"]


async def pairs_league(fake, deadline: str) -> None:
    """`league_with_pairs`, its fixture's deadline rule `deadline`: Friday Night (a single
    game to 1 point), alice & bob v carol & dave in F1, two days to play it."""
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    assert "is open" in await private(
        fake, "organiser", "league create", name="Friday Night", preset="modern", points=1,
        match="game", format="fixtures",
    )  # fmt: skip
    for name in ("alice", "bob", "carol", "dave"):
        assert "You joined" in await private(fake, name, "league join", name="Friday Night")
    for first, second in (("alice", "bob"), ("carol", "dave")):
        assert "are registered" in await private(
            fake, first, "fixtures register", league="Friday Night", partner=fake.member(second)
        )
    made = await fake.slash(
        fake.member("organiser"), fake.channel, "fixtures make", league="Friday Night",
        kind="round_robin", window_days=2, deadline=deadline,
    )  # fmt: skip
    assert "F1" in (await made.message()).text


async def test_a_withdrawal_announces_the_forfeit_as_a_withdrawal_not_a_missed_window(
    fake_discord, tmp_path
):
    """alice & bob withdraw with two days of F1's window left: the channel was told "its window
    ended before it was played". It now says they withdrew, and nothing about the window."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await league_with_pairs(fake)
        assert "withdrew" in await private(
            fake, "alice", "fixtures withdraw", league="Friday Night"
        )
        result = await fake.wait_for(
            lambda: next(iter(posted(fake, "by forfeit")), None), what="F1 forfeited"
        )
        assert "alice & bob withdrew; won by carol & dave by forfeit" in result.text, result.text
        assert "window" not in result.text, result.text
        assert not bot.handler_errors


async def test_a_member_of_a_big_round_robin_finds_his_last_fixture_by_typing_its_id(
    fake_discord, tmp_path
):
    """A round robin of 27 pairs gives alice & bob 26 fixtures. Typing the last one's id into
    /fixtures play offered nothing: the choices were the 25 soonest, filtered after. Now what
    she types finds it, and an empty box still offers at most Discord's 25."""
    fake = fake_discord
    fake.add_member(
        fake.guild, "organiser", permissions=discord.Permissions(manage_guild=True).value
    )
    others = [fake.add_member(fake.guild, f"player{n}") for n in range(52)]
    alice, bob = fake.member("alice"), fake.member("bob")
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        assert "is open" in await private(
            fake, "organiser", "league create", name="Big", preset="modern", format="fixtures"
        )
        league = await leagues.find_league(bot.db, fake.guild.id, "Big")
        members = [alice, bob, *others]

        async def register(db) -> int:
            for member in members:
                await leagues.join_league(db, league, member.id, member.name)
            ids = [
                (
                    await fixtures.register_pair(
                        db, league, (a.id, a.name), (b.id, b.name), None, 0
                    )
                ).id
                for a, b in zip(members[::2], members[1::2], strict=True)
            ]
            return ids[0]

        pair = await bot.manager.writer.write(register)
        made = await fake.slash(
            fake.member("organiser"), fake.channel, "fixtures make", league="Big",
            kind="round_robin", window_days=1, deadline="forfeit",
        )  # fmt: skip
        assert not (await made.message()).ephemeral
        last = await bot.db.fetchval(
            "SELECT MAX(id) FROM fixtures WHERE ? IN (first_pair, second_pair)"
            " AND second_pair IS NOT NULL",
            (pair,),
        )
        mine = await bot.db.fetchval(
            "SELECT COUNT(*) FROM fixtures WHERE ? IN (first_pair, second_pair)"
            " AND second_pair IS NOT NULL",
            (pair,),
        )
        assert mine == 26
        typed = await fake.autocomplete(
            alice, fake.channel, "fixtures play", focused="fixture", value=f"F{last}"
        )
        assert [c["value"] for c in typed] == [f"F{last}"], typed
        offered = await fake.autocomplete(alice, fake.channel, "fixtures play", focused="fixture")
        assert len(offered) == 25 and all(len(c["name"]) <= 100 for c in offered)
        assert not bot.handler_errors


async def test_unvoiding_a_fixtures_match_after_its_replay_was_forfeited_says_so(
    fake_discord, tmp_path
):
    """F1's match is voided, so F1 is to be played again in a new window; nobody sits down and
    the window ends in a double forfeit. Un-voiding the match was refused as "F1 has been
    played again since: correct its new match instead", but there is no new match. The
    organiser is now told F1 was forfeited since; the standings, the audit and the export are
    as they were."""
    fake = fake_discord
    clock = Clock()
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=clock) as bot:
        await league_with_pairs(fake)
        for name in ("alice", "carol", "bob", "dave"):
            assert "You sit down" in await private(fake, name, "fixtures play", fixture="F1")
        table = table_of(bot, fake)
        while table.playing:
            await act_once(bot, fake)
        await fake.wait_for(lambda: next(iter(posted(fake, "**F1**, ")), None), what="F1 won")
        match = f"M{table.match_id}"
        voided = await private(
            fake, "organiser", "league void", league="Friday Night", match=match, reason="misdeal"
        )
        assert "F1 is to be played again" in voided, voided
        await private(fake, "alice", "table close")
        clock.now += 3 * DAY
        bot.fixtures.wake()
        await fake.wait_for(
            lambda: next(iter(posted(fake, "double forfeit")), None), what="F1 forfeited"
        )
        before = [
            await public(fake, "bob", "league standings", league="Friday Night"),
            await public(fake, "bob", "league audit", league="Friday Night"),
            await public(fake, "bob", "fixtures list", league="Friday Night"),
        ]
        refused = await private(
            fake, "organiser", "league unvoid", league="Friday Night", match=match, reason="oops"
        )
        assert "played again" not in refused and "forfeited since" in refused, refused
        assert "F1" in refused and match in refused
        assert before == [
            await public(fake, "bob", "league standings", league="Friday Night"),
            await public(fake, "bob", "league audit", league="Friday Night"),
            await public(fake, "bob", "fixtures list", league="Friday Night"),
        ]
        assert await league_results.check_league(bot.db, table.league_id) == []
        assert not errors_of(bot)


async def test_a_partner_of_a_registered_pair_is_told_to_withdraw_it_before_leaving_the_league(
    fake_discord, tmp_path
):
    """bob left the league with his pair alice & bob registered and F1 to play: the pair was
    still listed, bob was refused at F1's table (not a member), and alice & bob would lose F1
    at its deadline with nobody told why. He is now told to withdraw the pair first; once it
    has withdrawn (F1 forfeited at once), he may leave."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await league_with_pairs(fake)
        refused = await private(fake, "bob", "league leave", name="Friday Night")
        assert "alice & bob" in refused and "/fixtures withdraw" in refused, refused
        assert "bob" in await public(fake, "carol", "league members", name="Friday Night")
        assert "You sit down for F1" in await private(fake, "bob", "fixtures play", fixture="F1")
        assert "You left the table" in await private(fake, "bob", "table leave")
        assert "withdrew" in await private(fake, "bob", "fixtures withdraw", league="Friday Night")
        await fake.wait_for(
            lambda: next(iter(posted(fake, "by forfeit")), None), what="F1 forfeited"
        )
        assert "You left the league" in await private(
            fake, "bob", "league leave", name="Friday Night"
        )
        assert not errors_of(bot)


async def test_a_fixtures_match_abandoned_after_its_window_is_forfeited_not_replayed_by_a_past_time(
    fake_discord, tmp_path
):
    """F1's match was still being played when its window ended; then its host closed the table,
    so the match does not count. The channel was told F1 "is to be played again, by" the end of
    a window already gone, and F1 stayed open for minutes, unplayable. Now the deadline's rule
    applies at once: a double forfeit (both pairs showed), saying why."""
    fake = fake_discord
    clock = Clock()
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=clock) as bot:
        await league_with_pairs(fake)
        for name in ("alice", "carol", "bob", "dave"):
            assert "You sit down" in await private(fake, name, "fixtures play", fixture="F1")
        match_id = table_of(bot, fake).match_id
        await act_once(bot, fake)
        clock.now += 3 * DAY
        asked = await (
            await fake.slash(fake.member("alice"), fake.channel, "table close")
        ).message()
        await fake.click(fake.member("alice"), asked, label="Close the table")
        await eventually(lambda: table_of(bot, fake) is None, what="the table closed")
        bot.fixtures.wake()
        result = await fake.wait_for(
            lambda: next(iter(posted(fake, f"M{match_id} does not count")), None),
            what="F1's abandoned match noticed",
        )
        assert "played again" not in result.text, result.text
        assert "its window has ended; double forfeit" in result.text, result.text
        listed = await public(fake, "bob", "fixtures list", league="Friday Night")
        assert "double forfeit" in listed, listed
        assert not errors_of(bot)


async def test_partners_level_on_rating_share_their_place_on_the_rating_table(
    fake_discord, tmp_path
):
    """After one game, each pair of partners has exactly the same rating (and games), yet the
    rating table listed them 1., 2., 3., 4. by member id, while the standings rank them as
    tied. Partners level on the table now share a place, on its page and as a season ended."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        assert "has started" in await private(
            fake, "organiser", "league season start", league="Quick"
        )
        table = await seat_league_table(bot, fake)
        while table.playing:
            await act_once(bot, fake)
        await private(fake, "organiser", "league settings", league="Quick", min_games=1)
        winners = [o.name for s, o in enumerate(table.seats) if s % 2 == table.match.winner]
        assert "has ended" in await private(fake, "organiser", "league season end", league="Quick")
        for season in (None, "1"):
            options = {"season": season} if season else {}
            shown = await public(fake, "bob", "league ratings", league="Quick", **options)
            places = [line.split(". ")[0] for line in shown.split("\n") if ". " in line[:4]]
            assert places == ["1", "1", "3", "3"], shown
            top = {
                line.split(". ")[1].split(":")[0] for line in shown.split("\n") if line[:3] == "1. "
            }
            assert top == set(winners), shown
        assert not bot.handler_errors


async def test_a_bot_down_past_a_fixtures_extension_forfeits_it_without_extending_to_a_past_time(
    fake_discord, tmp_path
):
    """F1 (two days, extended once at its end) had carol & dave seated when the bot stopped;
    it came back after both the window and its extension had ended. The channel was told F1
    "is extended once, to" a time already gone, and F1 stayed open, unplayable, for minutes
    before its forfeit. Now the forfeit is applied at once, with no extension announced."""
    fake, db = fake_discord, tmp_path / "euchre.db"
    clock = Clock()
    async with running_bot(fake, db, fixture_clock=clock):
        await pairs_league(fake, deadline="extend")
        for name in ("carol", "dave"):
            assert "You sit down" in await private(fake, name, "fixtures play", fixture="F1")
    clock.now += 5 * DAY
    async with running_bot(fake, db, fixture_clock=clock) as bot:
        result = await fake.wait_for(
            lambda: next(iter(posted(fake, "by forfeit")), None), what="F1 forfeited"
        )
        assert "won by carol & dave by forfeit" in result.text, result.text
        assert not posted(fake, "it is extended once"), posted(fake, "it is extended once")[0].text
        listed = await public(fake, "bob", "fixtures list", league="Friday Night")
        assert "won by carol & dave by forfeit" in listed, listed
        assert not errors_of(bot)


async def test_a_league_role_deleted_on_discord_is_no_longer_listed(fake_discord, tmp_path):
    """An organiser deleted the league's role in Discord: /league roles list still named it
    (Discord shows "@deleted-role") until the league's next result. It is forgotten at once."""
    fake = fake_discord
    fake.bot_permissions = BOT_PERMISSIONS | discord.Permissions(manage_roles=True).value
    fake.move_role(fake.guild, fake.bot_role(fake.guild), 50)
    champions = fake.add_role(fake.guild, "Champions", position=10)
    async with running_bot(fake, tmp_path / "euchre.db") as bot:
        await quick_league(fake)
        added = await private(
            fake, "organiser", "league roles add", league="Quick", role=champions, top=1
        )
        assert f"<@&{champions.id}>" in added
        league = await leagues.find_league(bot.db, fake.guild.id, "Quick")
        await eventually(lambda: role_sync(bot).settled(league.id), what="the roles' sync")
        fake.delete_role(fake.guild, champions)

        async def forgotten():
            return await league_roles.rank_roles(bot.db, league.id) == []

        await eventually_async(forgotten, "the deleted role forgotten")
        listed = await private(fake, "bob", "league roles list", league="Quick")
        assert "gives no roles" in listed and str(champions.id) not in listed, listed
        assert not bot.handler_errors


async def test_a_fixtures_match_abandoned_in_its_window_is_to_be_played_again_at_once(
    fake_discord, tmp_path
):
    """The host closed F1's table mid-match, so its match does not count. The channel heard
    nothing of it for minutes (the scheduler looked again only at its next round). It is now
    told as the table closes that F1 is to be played again, and its players sit down at a new
    table."""
    fake = fake_discord
    async with running_bot(fake, tmp_path / "euchre.db", fixture_clock=Clock()) as bot:
        await league_with_pairs(fake)
        for name in ("alice", "carol", "bob", "dave"):
            assert "You sit down" in await private(fake, name, "fixtures play", fixture="F1")
        match_id = table_of(bot, fake).match_id
        await act_once(bot, fake)
        asked = await (
            await fake.slash(fake.member("alice"), fake.channel, "table close")
        ).message()
        await fake.click(fake.member("alice"), asked, label="Close the table")
        again = await fake.wait_for(
            lambda: next(iter(posted(fake, f"M{match_id} does not count")), None),
            what="F1 to be played again",
        )
        assert "to be played again" in again.text, again.text
        assert "Its table is open" in await private(fake, "carol", "fixtures play", fixture="F1")
        assert not errors_of(bot)
