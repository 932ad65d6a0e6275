"""The guide says what the bot does: /rules' topics name the buttons the hand really shows
(bot/ui/cards.py's labels), and /help's page on a deal claims only what every preset scores."""

from __future__ import annotations

from bot.engine.actions import ALONE, PASS
from bot.engine.deal import PARTNER_ALONE
from bot.engine.rules import PRESETS, build_options
from bot.ui.cards import action_label
from bot.ui.guide import HOW_A_DEAL_GOES, TOPICS, rules_embed


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
