"""The night's message and answers fit Discord's limits, and names are shown escaped."""

from __future__ import annotations

from bot.storage.nights import Night, NightPlayer, Total
from bot.ui import nights as texts

LONG = "x" * 32


def night(status: str = "playing", **changes) -> Night:
    values = dict(
        id=1,
        guild_id=1,
        channel_id=2,
        league_id=3,
        organiser_id=4,
        status=status,
        rounds=15,
        deals_per_round=2,
        minutes_per_round=None,
        late="computer",
        movement="schedule",
        message_id=None,
        plan=None,
        round=3,
    )
    values.update(changes)
    return Night(**values)


def test_the_standings_of_200_long_names_fit_an_embed():
    totals = [Total(n, f"{LONG}{n}", 200 - n, 30, True) for n in range(200)]
    embed = texts.night_embed(night(), "L" * 40, [], totals)
    assert len(embed.description) <= 4096 and "more" in embed.description
    assert len(embed) <= 6000


def test_registration_of_200_long_names_fits_an_embed():
    players = [NightPlayer(n, f"{LONG}{n}", 0, None) for n in range(200)]
    embed = texts.night_embed(night("open", round=0), "League", players, None)
    assert len(embed.description) <= 4096 and "Registered (200)" in embed.description


def test_names_are_escaped_and_equal_totals_share_a_place():
    lines = texts.standings_lines(
        [
            Total(1, "**bold**", 5, 2, True),
            Total(2, "@everyone", 5, 2, False),
            Total(3, "c", 1, 2, True),
        ]
    )
    assert lines[0].startswith("1. \\*\\*bold\\*\\*") and lines[1].startswith("1. ")
    assert "@\u200beveryone" in lines[1] and "(left)" in lines[1]
    assert lines[2].startswith("3. c: 1 point")


def test_the_round_and_closing_messages_fit_a_message():
    byes = [LONG] * 100
    assert len(texts.round_text(night(), 2, list(range(10**17, 10**17 + 50)), byes)) <= 2000
    totals = [Total(n, LONG, 3, 1, True) for n in range(200)]
    assert len(texts.closed_text(night("closed"), "its last round is over", totals)) <= 2000


def test_the_closing_message_of_many_tied_winners_keeps_its_ending_and_whole_names():
    # 200 tied at the top, names full of markdown: the names that fit, whole (no escape cut
    # in two), how many more, and the sentence about the standings and the record.
    name = "*_`|~>" * 5
    totals = [Total(n, name, 3, 1, True) for n in range(200)]
    text = texts.closed_text(night("closed"), "its last round is over", totals)
    assert len(text) <= 2000
    assert text.endswith(" Final standings above; the night's record (EMN) is attached.")
    shown = text.split("Top score, 3 points: ")[1].split(" and ")[0].split(", ")
    assert all(n == texts.safe(name) for n in shown)
    assert f" and {200 - len(shown)} more." in text


def test_my_place_tells_a_player_where_he_stands_among_200_with_the_places_around():
    totals = [Total(n, f"{LONG}{n}", 200 - n // 2, 30, True) for n in range(200)]
    text = texts.place_text(totals, 150)  # 150 and 151 share 125 points, places 151 and 152
    assert text.startswith("You are joint 151st of 200: 125 points from 30 deals.")
    shown = text.splitlines()[1:]
    assert len(shown) == 2 * texts.AROUND + 1
    assert f"**151. {LONG}150: 125 points (30 deals)**" in shown
    assert len(text) <= 2000  # a message's content
    assert texts.place_text(totals, 0).startswith("You are joint 1st of 200")
    assert "not registered" in texts.place_text(totals, 999)


def test_ordinals():
    assert [texts.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111, 112)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
        "111th",
        "112th",
    ]


def test_the_night_message_offers_my_place_from_the_start_and_join_until_the_close():
    labels = {
        status: [item.item.label for item in texts.night_view(night(status)).children]
        for status in ("open", "playing", "closed")
    }
    assert labels == {"open": ["Join"], "playing": ["Join", "My place"], "closed": ["My place"]}


def test_the_start_of_a_night_says_how_many_sit_out_in_good_english():
    """A night of five was told "1 player sit out each round"."""
    assert "1 player sits out each round, in turn." in texts.started_text(night(), 5, 0)
    assert "3 players sit out each round, in turn." in texts.started_text(night(), 7, 0)
    assert "sit out" not in texts.started_text(night(), 8, 0)


def test_a_night_closed_before_any_deal_names_no_top_score():
    """A night its organiser closed before it started announced "Top score, 0 points:" and
    every player registered, as if all eight had won it."""
    totals = [Total(n, f"p{n}", 0, 0, True) for n in range(8)]
    text = texts.closed_text(night("closed"), "closed by the organiser", totals)
    assert "Top score" not in text and "No deal was played, so nobody scored." in text, text
    assert "nobody scored" in texts.closed_text(night("closed"), "closed by the organiser", [])
    played = [Total(0, "p0", 2, 1, True), *totals[1:]]
    assert "Top score, 2 points: p0." in texts.closed_text(night("closed"), "over", played)


def test_a_round_with_no_table_left_says_so_rather_than_list_none():
    """A round whose players had all left but the one sitting it out read "**Round 2 of 15**
    is seated (2 deals a round): ." with no table after the colon."""
    text = texts.round_text(night(), 2, [], ["eve"])
    assert text == "**Round 2 of 15** has no table: all due to play it have left. Sitting out: eve."


def test_a_round_of_minutes_is_announced_without_brackets_in_brackets():
    """A round of minutes was announced "is seated (5 minutes a round (the deal in play is
    finished)): ..."."""
    timed = night(deals_per_round=None, minutes_per_round=5)
    text = texts.round_text(timed, 2, [10**17], [])
    assert "((" not in text and "))" not in text, text
    assert "(5 minutes a round, the deal in play finished)" in text, text
