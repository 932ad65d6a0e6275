"""Words of the bidding outside the table's own messages: the Declarations field cut to a
field without losing the suit a turned-up Joker stands for, and the coach's words to the
partner of a maker alone, whose pass lets him play alone (RULES §4)."""

from __future__ import annotations

from bot.ai.coach import Analysis, Grade
from bot.engine.cards import JOKER, make_pack
from bot.engine.deal import PARTNER_ALONE, Deal, deal_hands
from bot.engine.rules import Options
from bot.ui.cards import made_alone
from bot.ui.coach import grades_embed, hint_embed
from bot.ui.embeds import FIELD, declarations_text, safe


def joker_deal() -> Deal:
    options = Options(joker=True)
    pack = [c for c in make_pack(joker=True) if c != JOKER]
    hands, _, kitty = deal_hands([*pack[:20], JOKER, *pack[20:]], dealer=0)
    return Deal(options, 0, hands, JOKER, kitty)


def test_the_jokers_naming_is_kept_and_the_cut_marked_whatever_the_names_length():
    deal = joker_deal()
    long = "*" * 32  # escaped to twice its length
    said = [f"{safe(long)} named hearts for the Joker"]
    said += [f"{safe(long)} lets {safe(long)} play alone"] * 11
    for most in (8, None):
        text = declarations_text(said, deal, most)
        assert len(text) <= FIELD
        lines = text.split("\n")
        assert lines[0] == said[0] and lines[1] == "…", lines
    # Nothing cut, no mark: the naming and the last eight are what the table shows.
    short = ["dave named hearts for the Joker", *["bob passed"] * 8]
    assert declarations_text(short, deal, 8) == "\n".join(short)


def test_the_coach_words_the_partner_of_a_lone_maker_as_his_buttons_do():
    deal = joker_deal()
    deal.declarations = [(0, "call:H"), (1, "order:alone")]  # the naming, then the making
    assert made_alone(deal)
    deal.declarations = [(0, "call:H"), (1, "order")]
    assert not made_alone(deal)
    analysis = Analysis(3, PARTNER_ALONE, "pass", (), 0, 0.0, 0.0, 0.0, False, None)
    hint = hint_embed(analysis, 3, 0, lone_maker=True).to_dict()
    assert hint["description"] == "The expert would: **Let partner play alone**"
    grade = Grade(1, 3, PARTNER_ALONE, None, "pass", "alone", 0.1, 0.2, False, None)
    grades = grades_embed([grade], 3, 0, 1, "West", lone_maker=True).to_dict()
    assert "Let partner play alone; the expert: Take it alone." in grades["description"]
