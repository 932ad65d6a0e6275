"""Members and organisers doing anything at once to leagues, fixtures and euchre nights:
random /league, /fixtures and /night commands with sensible and nonsense values, clicks on
any button they can see, league tables played so matches end and count, from a fixed seed.
Whatever they do, the bot logs no error, answers privately where it should and within
Discord's limits, pings nobody but a night's players at their table, keeps each league's
standings and ratings equal to a recompute from its results, and seats no member twice at a
night, nor anyone not registered for it."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from bot.storage import league_results
from tests.interaction.helpers import command_for
from tests.support.fake_discord import notified
from tests.support.interactions import InteractionHarness

pytest_plugins = ["tests.support.fixtures"]

MEMBERS = ("alice", "bob", "carol", "dave", "erin", "frank")
ORGANISERS = ("owner", "admin")
STEPS = 200
LEAGUES = ("Friday Night", "Cup")
NAMES = (*LEAGUES, "friday night", " Cup ", "", "x" * 300, "@everyone", "<@1>", "Nowhere")
WORDS = ("", "x" * 300, "@everyone", "<@&1>", "-1", "0", "M", "F0", "M99999999999999999999")
NUMBERS = (-5, 0, 1, 2, 3, 10**9)

# Answers that are posted in the channel for all to read (a refusal is private all the same).
PUBLIC = {
    "league info",
    "league members",
    "league standings",
    "league ratings",
    "league rating",
    "league audit",
    "fixtures pairs",
    "fixtures make",
    "fixtures list",
    "fixtures standings",
}


def league(r: random.Random, h: InteractionHarness) -> str:
    return r.choice(LEAGUES) if r.random() < 0.8 else r.choice(NAMES)


def match_id(r: random.Random, h: InteractionHarness) -> str:
    known = getattr(h, "chaos_matches", [])
    if known and r.random() < 0.7:
        return r.choice((f"M{r.choice(known)}", str(r.choice(known)), f" m{r.choice(known)} "))
    return r.choice(WORDS)


def fixture_id(r: random.Random, h: InteractionHarness) -> str:
    known = getattr(h, "chaos_fixtures", [])
    if known and r.random() < 0.7:
        return r.choice((f"F{r.choice(known)}", str(r.choice(known))))
    return r.choice(WORDS)


def member(r: random.Random, h: InteractionHarness):
    return h.member(r.choice((*MEMBERS, "owner", "gina")))


def season(r: random.Random, h: InteractionHarness) -> str:
    return r.choice(("1", "2", "Season 1", "Autumn", *WORDS))


def page(r: random.Random, h: InteractionHarness) -> int:
    return r.choice((1, 1, 2, *NUMBERS))


# Each command with how each option is filled (a callable of the generator and the harness),
# and whether an option is left out now and then (only those Discord lets one leave out).
COMMANDS: dict[str, tuple[dict[str, Any], set[str]]] = {
    "league create": (
        {
            "name": lambda r, h: r.choice(NAMES),
            "preset": lambda r, h: r.choice(("modern", "somerset", "jerome")),
            "format": lambda r, h: r.choice(("ladder", "fixtures", "progressive")),
            "points": lambda r, h: r.choice((1, 1, 2, *NUMBERS)),
            "match": lambda r, h: r.choice(("game", "rubber")),
            "substitutes": lambda r, h: r.random() < 0.5,
        },
        {"format", "points", "match", "substitutes"},
    ),
    "league join": ({"name": league}, set()),
    "league leave": ({"name": league}, set()),
    "league info": ({"name": league}, set()),
    "league members": ({"name": league, "page": page}, {"page"}),
    "league match": ({"id": match_id}, set()),
    "league season start": ({"league": league, "name": season}, {"name"}),
    "league season end": ({"league": league}, set()),
    "league standings": ({"league": league, "season": season, "page": page}, {"season", "page"}),
    "league ratings": ({"league": league, "season": season, "page": page}, {"season", "page"}),
    "league rating": ({"league": league, "member": member}, set()),
    "league settings": (
        {
            "league": league,
            "min_games": lambda r, h: r.choice(NUMBERS),
            "hide_after_days": lambda r, h: r.choice(NUMBERS),
            "leaver": lambda r, h: r.choice(("forfeit", "no_contest")),
        },
        {"min_games", "hide_after_days", "leaver"},
    ),
    "league void": (
        {"league": league, "match": match_id, "reason": lambda r, h: r.choice(WORDS)},
        set(),
    ),
    "league unvoid": (
        {"league": league, "match": match_id, "reason": lambda r, h: r.choice(WORDS)},
        set(),
    ),
    "league replay": (
        {"league": league, "match": match_id, "reason": lambda r, h: r.choice(WORDS)},
        set(),
    ),
    "league award": (
        {
            "league": league,
            "match": match_id,
            "side": lambda r, h: r.choice(("north-south", "east-west")),
            "reason": lambda r, h: r.choice(WORDS),
        },
        set(),
    ),
    "league audit": ({"league": league, "page": page}, {"page"}),
    "league export": (
        {
            "league": league,
            "what": lambda r, h: r.choice(("standings", "ratings", "fixtures", "games")),
            "season": season,
        },
        {"season"},
    ),
    "league roles list": ({"league": league}, set()),
    "fixtures register": (
        {"league": league, "partner": member, "alternate": member},
        {"alternate"},
    ),
    "fixtures withdraw": ({"league": league}, set()),
    "fixtures pairs": ({"league": league, "page": page}, {"page"}),
    "fixtures make": (
        {
            "league": league,
            "kind": lambda r, h: r.choice(
                ("round_robin", "swiss", "single_elimination", "double_elimination")
            ),
            "window_days": lambda r, h: r.choice((1, 3, *NUMBERS)),
            "deadline": lambda r, h: r.choice(("forfeit", "double_forfeit", "extend")),
        },
        set(),
    ),
    "fixtures list": ({"league": league, "page": page}, {"page"}),
    "fixtures standings": ({"league": league, "page": page}, {"page"}),
    "fixtures play": ({"fixture": fixture_id}, set()),
    "night open": (
        {
            "league": league,
            "rounds": lambda r, h: r.choice((1, 2, *NUMBERS)),
            "deals_per_round": lambda r, h: r.choice((1, 2, *NUMBERS)),
            "minutes_per_round": lambda r, h: r.choice((1, 30, *NUMBERS)),
            "late": lambda r, h: r.choice(("computer", "bye")),
            "movement": lambda r, h: r.choice(("schedule", "winners_move_up")),
        },
        {"rounds", "deals_per_round", "minutes_per_round", "late", "movement"},
    ),
    "night join": ({}, set()),
    "night leave": ({}, set()),
    "night start": ({}, set()),
    "night close": ({}, set()),
    "table create": ({"league": league}, set()),
    "table join": ({}, set()),
    "table leave": ({}, set()),
    "table start": ({}, set()),
    "table addbot": ({"level": lambda r, h: "easy"}, set()),
    "table close": ({}, set()),
}


def places(h: InteractionHarness) -> list[Any]:
    """The channels members act in: #euchre, #lounge and every thread the bot made."""
    return [c for c in h.world.guild.channels.values() if c.name != "general"]


async def do_something(h: InteractionHarness, rng: random.Random, who: str) -> None:
    """One thing a member or an organiser might do: often what a table asks of him, else a
    command with any values, or a click on any button he can see."""
    channel = rng.choice(places(h)) if rng.random() < 0.3 else h.channel
    if rng.random() < 0.65 and await do_the_sensible_thing(h, rng, who, channel):
        return
    if rng.random() < 0.3:
        seen = [
            (m, b)
            for m in list(h.messages.values())
            if not m.deleted and (not m.ephemeral or m.visible_to == h.member(who).id)
            for b in m.all_components()
            if b.get("custom_id") and not b.get("disabled")
        ]
        if seen:
            message, button = rng.choice(seen)
            values = [rng.choice(button["options"])["value"]] if button.get("options") else None
            h.chaos_kinds[len(h.exchanges)] = "click"
            await h.click(who, button["custom_id"], message=message, values=values)
            return
    name = rng.choice(list(COMMANDS))
    fills, optional = COMMANDS[name]
    options = {
        key: fill(rng, h)
        for key, fill in fills.items()
        if key not in optional or rng.random() < 0.5
    }
    h.chaos_kinds[len(h.exchanges)] = name
    await h.command(who, name, channel=channel, **options)


async def do_the_sensible_thing(
    h: InteractionHarness, rng: random.Random, who: str, channel
) -> bool:
    """Join a league or a night, open, join or start a league table, or take a legal action
    where it is one's turn; False when nothing asks it of this member."""
    me = h.member(who)
    for table in list(h.bot.manager.tables.values()):
        match = table.match if table.playing else None
        if match is None or match.over or match.to_act is None:
            continue
        seated = table.seats[match.to_act]
        if seated is None or seated.is_bot or seated.user_id != me.id:
            continue
        action = rng.choice(list(match.deal.legal_actions()))
        name, options = command_for(action, match.deal.phase)
        where = h.world.find_channel(table.channel_id)
        h.chaos_kinds[len(h.exchanges)] = name
        await h.command(who, name, channel=where, **options)
        return True
    if who in ORGANISERS:
        return await organise(h, rng, who)
    roll = rng.random()
    if roll < 0.1:
        h.chaos_kinds[len(h.exchanges)] = "league join"
        await h.command(who, "league join", name=rng.choice(LEAGUES))
        return True
    if roll < 0.25:
        h.chaos_kinds[len(h.exchanges)] = "night join"
        await h.command(who, "night join", channel=lounge(h))
        return True
    if roll < 0.35:
        partner = h.member(rng.choice([m for m in MEMBERS if m != who]))
        h.chaos_kinds[len(h.exchanges)] = "fixtures register"
        await h.command(who, "fixtures register", league="Cup", partner=partner)
        return True
    if roll < 0.45 and h.chaos_fixtures:
        h.chaos_kinds[len(h.exchanges)] = "fixtures play"
        await h.command(
            who, "fixtures play", channel=channel, fixture=f"F{rng.choice(h.chaos_fixtures)}"
        )
        return True
    table = h.table(channel)
    if table is None:
        h.chaos_kinds[len(h.exchanges)] = "table create"
        await h.command(who, "table create", channel=channel, league=rng.choice(LEAGUES))
        return True
    if not table.playing:
        if table.seat_of(me.id) is None and not table.full:
            h.chaos_kinds[len(h.exchanges)] = "table join"
            await h.command(who, "table join", channel=channel)
            return True
        if table.full and table.host_id == me.id:
            h.chaos_kinds[len(h.exchanges)] = "table start"
            await h.command(who, "table start", channel=channel, keep_seats=True)
            return True
    return False


def lounge(h: InteractionHarness):
    return next(c for c in h.world.guild.channels.values() if c.name == "lounge")


async def organise(h: InteractionHarness, rng: random.Random, who: str) -> bool:
    """What an organiser does: open a night in #lounge, start or close it, make fixtures."""
    name, options = rng.choice(
        (
            ("night open", {"league": "Friday Night", "rounds": 2, "deals_per_round": 1}),
            ("night start", {}),
            ("night start", {}),
            ("night close", {}),
            ("fixtures make", {"league": "Cup", "kind": rng.choice(("round_robin", "swiss",
                "single_elimination")), "window_days": 3, "deadline": "forfeit"}),
            ("league season start", {"league": rng.choice(LEAGUES)}),
            *(
                (f"league {what}", {"league": rng.choice(LEAGUES), "match": match_id(rng, h),
                    "reason": "chaos"})
                for what in ("void", "unvoid", "replay")
            ),
            ("league award", {"league": rng.choice(LEAGUES), "match": match_id(rng, h),
                "side": rng.choice(("north-south", "east-west")), "reason": "chaos"}),
            ("league settings", {"league": rng.choice(LEAGUES),
                "leaver": rng.choice(("forfeit", "no_contest"))}),
            ("league season end", {"league": rng.choice(LEAGUES)}),
        )
    )  # fmt: skip
    channel = lounge(h) if name.startswith("night") else h.channel
    h.chaos_kinds[len(h.exchanges)] = name
    await h.command(who, name, channel=channel, **options)
    return True


async def league_problems(h: InteractionHarness) -> list[str]:
    """What differs between each league's stored standings and ratings and a recompute."""
    cog = h.bot.get_cog("Leagues")
    found = []
    for row in await h.bot.db.fetchall("SELECT id FROM leagues", ()):
        await cog.recomputer.settle(row["id"])
        found += [
            f"league {row['id']}: {p}"
            for p in await league_results.check_league(h.bot.db, row["id"])
        ]
    return found


async def night_problems(h: InteractionHarness) -> list[str]:
    """A member seated at two tables of a night at once, or one not registered for it (or
    gone from it, or not of its league) seated at one."""
    db = h.bot.db
    found = []
    for night in await db.fetchall("SELECT id, league_id FROM nights WHERE status = 'playing'", ()):
        present = {
            r["user_id"]
            for r in await db.fetchall(
                "SELECT user_id FROM night_players WHERE night_id = ? AND left_round IS NULL",
                (night["id"],),
            )
        }
        members = {
            r["user_id"]
            for r in await db.fetchall(
                "SELECT user_id FROM league_members WHERE league_id = ?", (night["league_id"],)
            )
        }
        ids = {
            r["table_id"]
            for r in await db.fetchall(
                "SELECT table_id FROM night_tables WHERE night_id = ?", (night["id"],)
            )
        }
        seated: list[int] = []
        for table in h.bot.manager.tables.values():
            if table.id not in ids or not table.playing:
                continue
            for occupant in table.seats:
                if occupant is not None and not occupant.is_bot:
                    seated.append(occupant.user_id)
        for user in set(seated):
            if seated.count(user) > 1:
                found.append(f"night {night['id']}: {user} seated twice")
            if user not in present or user not in members:
                found.append(f"night {night['id']}: {user} seated, not a present league player")
    return found


def answer_problems(h: InteractionHarness, first: int) -> list[str]:
    """Answers since exchange ``first``: none public where it should be private, none
    missing."""
    found = []
    for index, exchange in enumerate(h.exchanges[first:], start=first):
        kind = h.chaos_kinds.get(index)
        if kind is None or kind == "click":
            continue
        if not exchange.messages:
            found.append(f"/{kind} got no answer")
        for message in exchange.messages:
            if not message.ephemeral and kind not in PUBLIC:
                found.append(f"/{kind} answered in public: {message.text[:200]!r}")
    return found


async def ping_problems(h: InteractionHarness, first: int) -> list[str]:
    """Who the bot's messages since call ``first`` notified: nobody but, in a night's thread,
    the members seated at its table (as the night stored them: the table may be closed
    since)."""
    found = []
    seats = {
        r["thread_id"]: {u for u in json.loads(r["seats"]) if u is not None}
        for r in await h.bot.db.fetchall("SELECT thread_id, seats FROM night_tables", ())
    }
    for call in h.calls[first:]:
        if call.method not in ("POST", "PATCH") or not call.content:
            continue
        data = call.message_data
        pinged = notified(call.content, data.get("allowed_mentions"))
        if not pinged:
            continue
        parts = call.path.strip("/").split("/")
        channel = h.world.find_channel(int(parts[1])) if parts[0] == "channels" else None
        seated = seats.get(channel.id, set()) if channel is not None else set()
        if channel is None or not channel.is_thread or not pinged <= seated:
            found.append(f"{call.route} pinged {pinged}: {call.content[:200]!r}")
    return found


def to_act(h: InteractionHarness, rng: random.Random, crowd: list[str]) -> list[str]:
    """Members whose turn it is at some table, most of them (so matches end)."""
    out = []
    for table in list(h.bot.manager.tables.values()):
        match = table.match if table.playing else None
        seated = table.seats[match.to_act] if match and match.to_act is not None else None
        if seated is not None and not seated.is_bot and rng.random() < 0.8:
            name = h.world.guild.members[seated.user_id].name
            if name not in crowd and name not in out:
                out.append(name)
    return out


async def remember_ids(h: InteractionHarness) -> None:
    """The match and fixture ids members may name."""
    db = h.bot.db
    h.chaos_matches = [r["id"] for r in await db.fetchall("SELECT id FROM matches", ())]
    h.chaos_fixtures = [r["id"] for r in await db.fetchall("SELECT id FROM fixtures", ())]


async def set_up(h: InteractionHarness) -> None:
    """A ladder league of single games to one point and a league of fixtures, everyone in
    both, and a night open in #lounge."""
    for name, form in zip(LEAGUES, ("ladder", "fixtures"), strict=True):
        made = await h.command(
            "owner", "league create", name=name, preset="modern", points=1, match="game",
            format=form,
        )  # fmt: skip
        assert "is open" in made.text, made.text
        for who in MEMBERS:
            assert "You joined" in (await h.command(who, "league join", name=name)).text


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_league_members_doing_anything_at_once_break_nothing(tmp_path, seed: int):
    rng = random.Random(seed)
    h = await InteractionHarness.open(tmp_path / "euchre.db")
    h.chaos_kinds = {}
    try:
        await set_up(h)
        for _step in range(STEPS):
            await remember_ids(h)
            crowd = rng.sample(MEMBERS, rng.randint(1, 3))
            if rng.random() < 0.4:
                crowd.append(rng.choice(ORGANISERS))
            crowd += to_act(h, rng, crowd)
            first_exchange, first_call = len(h.exchanges), len(h.calls)
            await asyncio.gather(*(do_something(h, rng, who) for who in crowd))
            await h.settle()
            assert h.problems() == []
            assert answer_problems(h, first_exchange) == []
            assert await ping_problems(h, first_call) == []
            for table in h.bot.manager.tables.values():
                assert table.seating_problem() is None
            assert await night_problems(h) == []
            assert await league_problems(h) == []
        counted = await h.bot.db.fetchval("SELECT COUNT(*) FROM league_results", (), 0)
        # The chaos still plays: league matches end and count.
        assert counted >= 1, counted
    finally:
        await h.close()
    assert h.problems() == []
