"""The guide says what the bot does: /rules' topics name the buttons the hand really shows
(bot/ui/cards.py's labels), /help's page on a deal claims only what every preset scores, and
its line on /call names every part of a deal the bot sends players to /call in."""

from __future__ import annotations

from discord import app_commands

from bot.engine.actions import ALONE, PASS, is_call
from bot.engine.cards import JOKER, make_pack
from bot.engine.deal import JOKER_SUIT, PARTNER_ALONE, Deal
from bot.engine.rules import PRESETS, build_options
from bot.engine.variants.deal import PLAY as VARIANT_PLAY
from bot.ui.cards import action_label
from bot.ui.guide import HOW_A_DEAL_GOES, TOPICS, rules_embed
from bot.ui.respond import _commands_open
from cogs.play import Play
from cogs.tables import Tables
from tests.engine.variants.helpers import variant_deal


def test_partner_alone_names_each_button_the_maker_s_partner_is_offered():
    """A maker's partner is offered Take it alone, and Play with partner, or Let partner play
    alone when the maker declared alone (his pass then sits him out). The topic named only
    Play with partner, so a member whose partner went alone read of a button he never saw."""
    text = rules_embed(build_options("somerset"), "partner-alone", at_table=True).description
    assert text is not None
    seat, dealer = 1, 0
    for lone_maker in (False, True):
        for action in (ALONE, PASS):
            label = action_label(action, seat, dealer, PARTNER_ALONE, lone_maker)
            assert f"**{label}**" in text, (label, text)
    assert "when he made it alone, **Let partner play alone**, and you sit out" in text


def test_how_a_deal_goes_says_of_lone_hands_only_what_every_preset_scores():
    """The page is the same at every table. It said a lone hand scores more: at three or four
    tricks it scores what a partnership does (1), and euchred at modern it gives what a
    partnership does (2). Only a lone march scores more at every preset, and the topic it
    points to exists."""
    assert "A lone hand scores more." not in HOW_A_DEAL_GOES
    assert "A lone hand that takes all five scores more" in HOW_A_DEAL_GOES
    for options in PRESETS.values():
        assert options.lone_march_points > options.march_points
    assert any(f"*{t.title}*" in HOW_A_DEAL_GOES for t in TOPICS if t.key == "alone")


def test_help_on_call_names_each_part_of_a_deal_the_bot_sends_players_to_call():
    """/call names a trump in the second round, and also the suit of a turned-up Joker (the
    hand's refusals then send the dealer to /call) and the trump of the highest bidder at French
    euchre and Napoleon (the engine then asks only to "name the trump suit", every action open
    being a call). Its line in /help said only "Second round", so they read it was not theirs."""
    options = build_options("modern", joker=True)
    deck = [c for c in make_pack("9", joker=True) if c != JOKER]
    joker = Deal.from_deck(options, 0, deck[:20] + [JOKER] + deck[20:])
    assert joker.phase == JOKER_SUIT and _commands_open(joker.legal_actions()) == "/call"
    french = variant_deal("french", {})
    while not any(a.startswith("call:") for a in french.legal_actions()):
        assert french.phase != VARIANT_PLAY
        french.apply("bid:5" if "bid:5" in french.legal_actions() else "pass")
    assert all(is_call(a) for a in french.legal_actions())
    described = Play.call.description
    assert "round two" in described and "Joker" in described and "bidder" in described
    assert len(described) <= 100


def test_help_on_the_table_commands_holds_at_tables_of_single_games_and_the_other_games():
    """/help reads the commands' own descriptions. /table leave said a computer takes the seat
    if a rubber is under way, /table substitute offered the seat for the rest of the rubber
    and /table start needed four seated: at a table of single games (jerome, modern) there is
    no rubber, and the other games seat two to seven."""
    group = Tables.table
    leave, substitute, start = (group.get_command(n) for n in ("leave", "substitute", "start"))
    assert isinstance(leave, app_commands.Command) and "game is under way" in leave.description
    assert isinstance(substitute, app_commands.Command)
    assert "rest of the rubber or game" in substitute.description
    assert "rest of the rubber or game" in substitute.parameters[0].description
    assert isinstance(start, app_commands.Command) and "four" not in start.description
    assert "all seats taken" in start.description
    for command in (leave, substitute, start):
        assert len(command.description) <= 100
