"""The room's rules at a table: seating, the host, substitutes, computers, cutting out (S.11-S.18)."""

from __future__ import annotations

import random

import pytest

from bot.engine.errors import IllegalAction
from bot.engine.rules import build_options
from bot.tables.table import MAX_MEMBERS, PLAYING, SEATING, Occupant, Table, TableError, parse_seat


def new_table(preset: str = "somerset", **overrides) -> Table:
    return Table(1, 10, 100, Occupant(1, "ann"), build_options(preset, **overrides))


def full_table(**overrides) -> Table:
    table = new_table(**overrides)
    for user_id, name in ((2, "bob"), (3, "cat"), (4, "dan")):
        table.join(user_id, name)
    return table


def play_until_over(table: Table, rng: random.Random) -> None:
    match = table.match
    while not match.over:
        seat = match.to_act
        legal = match.legal_actions()
        table.act_for_seat(seat, legal[int(rng.random() * len(legal))], by_player=True)


def test_creator_is_host_and_sits_north():
    table = new_table()
    assert table.host_id == 1
    assert table.seat_of(1) == 0


def test_join_takes_first_free_seat_or_named_seat():
    table = new_table()
    assert table.join(2, "bob", parse_seat("south")) == "seated"
    assert table.seat_of(2) == 2
    assert table.join(3, "cat") == "seated"
    assert table.seat_of(3) == 1


def test_join_a_taken_seat_is_refused():
    table = new_table()
    with pytest.raises(TableError, match="north is taken by “ann”"):
        table.join(2, "bob", 0)


def test_join_twice_is_refused():
    table = new_table()
    with pytest.raises(TableError, match="already belong"):
        table.join(1, "ann")


def test_unknown_seat_is_refused():
    with pytest.raises(TableError, match="unknown seat"):
        parse_seat("middle")


def test_s12_at_most_six_belong_to_a_table():
    table = full_table()
    assert table.join(5, "eve") == "waiting"
    assert table.join(6, "fay") == "waiting"
    assert len(table.members) == MAX_MEMBERS
    with pytest.raises(TableError, match="full"):
        table.join(7, "gus")


def test_start_needs_four_seated_and_the_host():
    table = new_table()
    with pytest.raises(TableError, match="four players"):
        table.start()
    table = full_table()
    with pytest.raises(TableError, match="host"):
        table.require_host(2)


def test_s11_start_cuts_for_partners_and_deals():
    table = full_table()
    cut = table.start(rng=random.Random(4))
    assert table.status == PLAYING
    assert cut and all(len(card) == 2 for _, card in cut[0])
    assert sorted(o.user_id for o in table.seats) == [1, 2, 3, 4]
    # The highest cut deals first, at seat 0, with the second highest opposite.
    values = {name: card for name, card in cut[-1]}
    assert table.match.deal.dealer == 0
    assert table.seats[0].name in values


def test_keep_seats_does_not_cut():
    table = full_table()
    seats = list(table.seats)
    assert table.start(keep_seats=True, rng=random.Random(1)) == []
    assert table.seats == seats


def test_only_seated_players_act_and_only_on_their_turn():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(2))
    to_act = table.match.to_act
    other = next(s for s in range(4) if s != to_act)
    with pytest.raises(TableError, match="not your turn"):
        table.act(table.seats[other].user_id, "pass")
    with pytest.raises(TableError, match="not seated"):
        table.act(99, "pass")


def test_an_illegal_action_changes_nothing():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(3))
    before = (table.match.deal.phase, table.match.to_act, list(table.actions))
    with pytest.raises(IllegalAction):
        table.act(table.seats[table.match.to_act].user_id, "call:H")
    assert (table.match.deal.phase, table.match.to_act, list(table.actions)) == before


def test_joining_mid_rubber_waits_in_line():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(5))
    assert table.join(5, "eve") == "waiting"


def test_leaving_mid_rubber_leaves_a_computer_and_flags_the_rubber():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(6))
    seat = table.leave(2)
    assert table.seats[seat].is_bot
    assert table.flagged


def test_s18_substitute_needs_the_other_three_and_his_own_acceptance():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(7))
    asked = table.request_substitute(2, 9, "zed")
    assert table.substitution is asked and not asked.accepted and asked.number == 1
    assert sorted(table.substitute_consenters()) == [1, 3, 4]
    with pytest.raises(TableError, match="other three"):
        table.consent_substitute(2)
    assert table.consent_substitute(1) is False
    with pytest.raises(TableError, match="consented already: waiting for .zed. to take the seat"):
        table.consent_substitute(1)  # a second press changes nothing, and says so
    assert table.consent_substitute(3) is False
    assert table.consent_substitute(4) is False  # every consent, but zed has not accepted
    assert table.seat_of(9) is None and table.seat_of(2) == 1
    with pytest.raises(TableError, match="only .zed. can answer"):
        table.answer_substitute(1, table.match_no, asked.number, True)
    assert table.answer_substitute(9, table.match_no, asked.number, True) is True
    assert table.seat_of(9) == 1 and table.seats[1].substitute
    assert table.flagged and table.substitution is None


def test_s18_a_substitute_who_accepts_first_sits_with_the_last_consent():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(7))
    asked = table.request_substitute(2, 9, "zed")
    assert table.answer_substitute(9, table.match_no, asked.number, True) is False
    assert table.consent_substitute(1) is False and table.consent_substitute(3) is False
    assert table.consent_substitute(4) is True and table.seat_of(9) == 1


def test_s18_a_substitute_who_declines_is_not_seated_and_the_request_ends():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(7))
    asked = table.request_substitute(2, 9, "zed")
    for user_id in (1, 3, 4):
        table.consent_substitute(user_id)
    assert table.answer_substitute(9, table.match_no, asked.number, False) is False
    assert table.substitution is None and table.seat_of(9) is None and table.seat_of(2) == 1
    with pytest.raises(TableError, match="no longer open"):
        table.answer_substitute(9, table.match_no, asked.number, True)


def test_s18_an_answer_to_a_request_replaced_or_of_a_rubber_over_is_refused():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(7))
    first = table.request_substitute(2, 9, "zed")
    second = table.request_substitute(2, 8, "yan")
    assert second.number == first.number + 1
    with pytest.raises(TableError, match="replaced by a newer one"):
        table.answer_substitute(9, table.match_no, first.number, True)
    with pytest.raises(TableError, match="rubber is over"):
        table.answer_substitute(8, table.match_no - 1, second.number, True)
    assert table.substitution is second and not second.accepted
    # Stored and rebuilt, the request is the same one, answerable as before.
    state, options = table.to_state(), table.options.to_dict()
    again = Table.from_state(1, 10, 100, options, state, table.decks, table.actions)
    assert again.substitution == second and again.substitutions_asked == 2


def test_s18_a_request_remembers_who_asked_once_a_computer_plays_the_seat():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(7))
    asked = table.request_substitute(2, 9, "zed")
    assert asked.asked_by == "bob"
    table.leave(2)  # a computer plays the seat until zed takes it
    assert table.seats[1].is_bot and table.substitution is asked
    state, options = table.to_state(), table.options.to_dict()
    again = Table.from_state(1, 10, 100, options, state, table.decks, table.actions)
    assert again.substitution is not None and again.substitution.asked_by == asked.asked_by


def test_s18_removing_the_member_named_substitute_withdraws_the_request():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(7))
    assert table.join(9, "zed") == "waiting"
    asked = table.request_substitute(2, 9, "zed")
    table.kick(9)
    assert table.substitution is None and not table.is_waiting(9)
    with pytest.raises(TableError, match="no longer open"):
        table.answer_substitute(9, table.match_no, asked.number, True)


def test_two_timeouts_computer_holds_seat_until_back():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(8))
    table.take_over(3)
    assert table.seats[3].is_bot and table.seats[3].held_for == 4
    with pytest.raises(TableError, match="table back"):
        table.act(4, "pass")
    assert table.back(4) == 3
    assert table.seat_of(4) == 3


def test_s15_at_rubbers_end_the_longest_playing_go_out():
    table = full_table()
    rng = random.Random(9)
    table.start(keep_seats=True, rng=rng)
    table.join(5, "eve")
    play_until_over(table, rng)
    assert table.status == SEATING
    assert all(table.consecutive[u] == 1 for u in (1, 2, 3, 4))
    table.consecutive[3] = 2  # cat has played one more rubber in a row than the others
    table.start(rng=rng)
    assert table.seat_of(5) is not None
    assert table.is_waiting(3)


def test_computers_make_room_for_waiting_members_first():
    table = new_table()
    table.join(2, "bob")
    table.join(3, "cat")
    table.add_bot(None, "easy")
    rng = random.Random(10)
    table.start(keep_seats=True, rng=rng)
    table.join(5, "eve")
    play_until_over(table, rng)
    table.start(rng=rng)
    assert table.seat_of(5) is not None
    assert not any(o.is_bot for o in table.seats)


def test_state_round_trip_mid_hand_replays_the_match():
    table = full_table()
    table.join(5, "eve")
    rng = random.Random(11)
    table.start(rng=rng)
    for _ in range(9):
        legal = table.match.legal_actions()
        table.act_for_seat(table.match.to_act, legal[0], by_player=True)
    copy = Table.from_state(
        table.id,
        table.guild_id,
        table.channel_id,
        table.options.to_dict(),
        table.to_state(),
        table.decks,
        table.actions,
    )
    assert copy.match.view_for(0) == table.match.view_for(0)
    assert [o.user_id for o in copy.seats] == [o.user_id for o in table.seats]
    assert [o.user_id for o in copy.waiting] == [o.user_id for o in table.waiting]
    assert len(copy.waiting) == 1  # five candidates: one was cut out (S.11)


# -- no member twice, computers with ids of their own ------------------------------------------


def test_s18_a_member_whose_seat_a_computer_holds_cannot_be_a_substitute():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(12))
    table.take_over(3)  # dan timed out twice: a computer holds west for him
    with pytest.raises(TableError, match="holding “dan”'s own seat"):
        table.request_substitute(2, 4, "dan")
    assert table.substitution is None and table.seating_problem() is None


def test_s18_a_member_whose_seat_a_computer_holds_is_told_to_take_it_back_to_name_one():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(12))
    table.take_over(3)  # dan timed out twice: a computer holds west for him
    with pytest.raises(TableError, match="a computer is holding your seat: take it back"):
        table.request_substitute(4, 5, "eve")
    assert table.substitution is None
    table.back(4)
    table.request_substitute(4, 5, "eve")
    assert table.substitution is not None and table.substitution.seat == 3


def test_s18_a_member_whose_seat_a_computer_holds_is_told_his_consent_is_not_awaited():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(12))
    table.take_over(3)  # dan timed out twice: a computer holds west for him
    table.request_substitute(2, 5, "eve")
    with pytest.raises(TableError, match="does not wait for your consent: take your seat back"):
        table.consent_substitute(4)
    assert 4 not in table.substitute_consenters() and table.substitution.approvals == set()
    table.back(4)
    assert 4 in table.substitute_consenters()
    assert table.consent_substitute(4) is False and table.substitution.approvals == {4}


def test_back_is_refused_to_a_member_who_plays_another_seat():
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(13))
    table.take_over(3)
    # Forced past the substitute check, as a stored state from before it would be.
    table.seats[1] = Occupant(4, "dan", substitute=True)
    assert table.seating_problem() is not None
    with pytest.raises(TableError, match="one seat each"):
        table.back(4)


def test_computers_get_ids_of_their_own_wherever_the_cut_seats_them():
    table = new_table()
    table.add_bot(1, "easy")
    table.add_bot(2, "standard")
    table.add_bot(3, "expert")
    table.start(rng=random.Random(14))  # the cut moves the computers to other seats
    computers = [o.user_id for o in table.seats if o.is_bot]
    assert len(set(computers)) == 3 and all(user_id < 0 for user_id in computers)
    # A member leaving mid-rubber is replaced by a computer with yet another id.
    table.join(2, "bob")
    play_until_over(table, random.Random(15))
    table.start(rng=random.Random(16))
    table.leave(2)
    ids = [o.user_id for o in table.seats]
    assert len(set(ids)) == 4 and table.seating_problem() is None
    play_until_over(table, random.Random(17))
    table.start(rng=random.Random(18))  # and the table starts again
    assert table.playing


def test_computers_are_named_by_level_not_by_a_seat():
    table = new_table()
    seat = table.add_bot(2, "easy")
    assert table.seats[seat].name == "Computer (easy)"


def test_stored_computers_that_share_an_id_are_given_ids_of_their_own():
    table = new_table()
    table.add_bot(1, "easy")
    table.add_bot(2, "easy")
    state = table.to_state()
    state["seats"][2]["user_id"] = state["seats"][1]["user_id"]  # as stored before the fix
    copy = Table.from_state(1, 10, 100, table.options.to_dict(), state, [], [])
    assert copy.seats[1].user_id != copy.seats[2].user_id
    assert copy.seating_problem() is None


def test_every_ping_not_yet_deleted_is_stored_and_an_old_states_one_ping_reads():
    """A restart deletes every ping whose delete had not gone out (several, when deletes wait
    for the REST budget), and a state stored when the table kept one ping still gives it."""
    table = new_table()
    table.pings = [501, 502]
    copy = Table.from_state(1, 10, 100, table.options.to_dict(), table.to_state(), [], [])
    assert copy.pings == [501, 502]
    old = table.to_state()
    del old["pings"]
    old["ping_message"] = 77
    assert Table.from_state(1, 10, 100, table.options.to_dict(), old, [], []).pings == [77]
    old["ping_message"] = None
    assert Table.from_state(1, 10, 100, table.options.to_dict(), old, [], []).pings == []


def test_s11_more_than_four_at_the_first_rubber_all_cut_and_the_four_highest_play():
    table = full_table()
    table.join(5, "eve")
    table.join(6, "fay")
    table.start(rng=random.Random(19))
    # Those out are the two lowest of one cut among all six: seated members may go out too.
    assert len(table.waiting) == 2
    assert {o.why for o in table.sat_out} == {"cut lowest"}
    assert [o.user_id for o in table.sat_out] == [o.user_id for o in table.waiting]
    everyone = {o.user_id for o in table.seats} | {o.user_id for o in table.waiting}
    assert everyone == {1, 2, 3, 4, 5, 6}
    first_cut = dict(table.last_cut[0])
    assert set(first_cut) == {"ann", "bob", "cat", "dan", "eve", "fay"}


def test_s15_who_sits_out_at_a_later_rubber_is_told_with_the_reason():
    table = full_table()
    rng = random.Random(20)
    table.start(keep_seats=True, rng=rng)
    table.join(5, "eve")
    play_until_over(table, rng)
    table.start(rng=rng)
    assert [o.why for o in table.sat_out] == ["most rubbers"]
    assert table.sat_out[0].user_id == table.waiting[0].user_id


def test_parse_seat_takes_numbered_seats_at_a_table_not_of_four():
    assert (
        parse_seat("seat 1", 6) == 0 and parse_seat("Seat6", 6) == 5 and parse_seat(" 3 ", 6) == 2
    )
    assert parse_seat(4, 6) == 4  # a seat number as the engine counts, from 0
    for wrong in ("seat 7", "0", "north", "seat ٣", "seat"):
        with pytest.raises(TableError, match="this table has 6 seats, seat 1 to seat 6"):
            parse_seat(wrong, 6)
    with pytest.raises(TableError, match="choose north, east, south or west"):
        parse_seat("seat 1")


def test_s9_a_24_card_table_cuts_for_partners_from_its_own_pack():
    """S.9: the players of a modern table (24 cards) cut from its pack: no 8 or 7 is shown."""
    shown = set()
    for seed in range(40):
        table = full_table(preset="modern")
        table.start(rng=random.Random(seed))
        shown |= {card for cut in table.last_cut for _, card in cut}
    assert shown and not any(card[:-1] in ("7", "8") for card in shown)


@pytest.mark.parametrize(("preset", "word"), [("somerset", "rubber"), ("modern", "game")])
def test_refusals_name_the_tables_match_a_rubber_or_a_single_game(preset: str, word: str):
    """A table of single games (jerome, modern) plays no rubber: its refusals say game."""
    table = full_table(preset=preset)
    assert table.match_word == word
    with pytest.raises(TableError, match=f"^between {word}s, simply /table leave"):
        table.request_substitute(2, 9, "zed")
    table.kick(4)
    table.add_bot(None)
    table.start(rng=random.Random(1))
    with pytest.raises(TableError, match=f"^computer players join between {word}s"):
        table.add_bot(None)
    computer = next(o for o in table.seats if o and o.is_bot)
    with pytest.raises(TableError, match=f"until the {word} ends$"):
        table.kick(computer.user_id)


def test_the_games_a_seat_changed_hands_in_are_kept_through_a_restart():
    """A league keeps rated the games no seat changed hands in: a computer holding a seat and
    its member coming back mark the game they happened in, a leaver the game he left in."""
    table = full_table()
    table.start(keep_seats=True, rng=random.Random(8))
    table.take_over(3)  # dan timed out twice in game 1 (number 0) and came back
    table.back(4)
    rng = random.Random(3)
    while not table.match.games:
        legal = table.match.legal_actions()
        table.act_for_seat(table.match.to_act, legal[int(rng.random() * len(legal))], True)
    assert table.changed_games == {0}
    table.leave(2)  # bob leaves in game 2
    assert table.changed_games == {0, 1}
    state, options = table.to_state(), table.options.to_dict()
    again = Table.from_state(1, 10, 100, options, state, table.decks, table.actions)
    assert again.changed_games == {0, 1}
    # a table stored before the games were told apart: every game so far may have changed
    del state["changed_games"]
    again = Table.from_state(1, 10, 100, options, state, table.decks, table.actions)
    assert again.changed_games == {0, 1}
    play_until_over(table, rng)
    table.start(keep_seats=True, rng=random.Random(8))  # the next match starts afresh
    assert table.changed_games == set()
