"""/rules' topics name the buttons the hand really shows (bot/ui/cards.py's labels)."""

from __future__ import annotations

from bot.engine.actions import ALONE, PASS
from bot.engine.deal import PARTNER_ALONE
from bot.engine.rules import build_options
from bot.ui.cards import action_label
from bot.ui.guide import rules_embed


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
