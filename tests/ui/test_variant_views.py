"""What a variant's table shows fits Discord's limits at every step of whole games, with the
longest names, the most seats and every phase; the hand offers exactly the legal actions; the
commitment shows while a deal is played and its seed once it is over."""

from __future__ import annotations

import random

import discord
import pytest

from bot.ai.variants import VariantPlayer, make_variant_player
from bot.engine.commitment import commitment
from bot.engine.rules import build_options
from bot.engine.variants import NAMES, make_variant, seats_allowed
from bot.tables.table import Occupant, Table
from bot.ui import emojis
from bot.ui import variant_views as vv
from bot.ui.emojis import CARDS, emoji_name

# Discord's limits: 5 rows of 5 buttons, a select of 25 options, 80 characters a label, an
# embed's 25 fields of 1,024 characters (256 a name), 6,000 characters in all.
LONG_NAME = "@everyone **" + "W" * 20  # 32 characters, the longest display name
# Escaping doubles every character of this one: the longest a name can be shown.
MARKDOWN_NAME = "_*`|~\\>" * 4 + "_" * 4


@pytest.fixture
def pictures():
    """Cards shown as the bot's emojis, with ids as long as Discord's (hidden again after)."""
    emojis.show(
        {
            card: discord.PartialEmoji(name=emoji_name(card), id=1_577_487_208_330_297_344 + i)
            for i, card in enumerate(CARDS)
        }
    )
    yield
    emojis.hide()


def embed_size(embed: discord.Embed) -> int:
    fields = sum(len(f.name or "") + len(f.value or "") for f in embed.fields)
    return (
        len(embed.title or "")
        + len(embed.description or "")
        + fields
        + len(embed.footer.text or "")
    )


def check_embed(embed: discord.Embed) -> None:
    assert embed_size(embed) <= 6000 and len(embed.fields) <= 25
    assert len(embed.description or "") <= 4096
    assert all(len(f.value or "") <= 1024 and len(f.name or "") <= 256 for f in embed.fields)
    assert "@everyone" not in (embed.description or "") + "".join(f.value for f in embed.fields)


def check_hand(view: discord.ui.View, legal: tuple[str, ...], phase: str) -> None:
    items = [getattr(child, "item", child) for child in view.children]  # inside DynamicItems
    rows: dict[int, int] = {}
    for item in items:
        rows[item.row or 0] = rows.get(item.row or 0, 0) + (
            5 if isinstance(item, discord.ui.Select) else 1
        )
    assert len(rows) <= 5 and all(n <= 5 for n in rows.values()), rows
    offered: set[str] = set()
    for item in items:
        if isinstance(item, discord.ui.Select):
            assert len(item.options) <= 25
            offered |= {o.value for o in item.options}
        elif isinstance(item, discord.ui.Button) and not item.disabled:
            assert len(item.label or "") <= 80
            offered.add(str(item.custom_id).split(":", 5)[5])
    assert offered == set(legal), (phase, offered, legal)


@pytest.mark.parametrize("variant", NAMES)
async def test_every_step_of_whole_games_fits_discords_limits(variant: str):
    play_whole_games(variant, LONG_NAME)


@pytest.mark.parametrize("variant", NAMES)
async def test_the_longest_names_shown_and_card_pictures_still_fit(variant: str, pictures):
    """Seven names whose every character is escaped, and each card an emoji's markup: a
    Napoleon Review of five tricks would pass 6,000 characters if it named everyone in them.
    Played by the standard computer, whose deals go to five tricks (random play's end early)."""
    tricks = play_whole_games(variant, MARKDOWN_NAME, make_variant_player("standard", seed=1))
    assert max(tricks) == 5


def play_whole_games(variant: str, name: str, player: VariantPlayer | None = None) -> list[int]:
    """Whole games at the most seats, every step drawn and checked; the tricks of each deal."""
    assert len(name) == 32
    tricks = []
    seats = seats_allowed(variant)[1]
    rules = make_variant(variant, seats)
    host = Occupant(1, name)
    table = Table(9, 1, 1, host, build_options("modern"), rules)
    for seat in range(1, seats):
        table.seats[seat] = Occupant(seat + 1, name)
    table._rng = random.Random(7)
    table.start()
    rng = random.Random(11)
    match = table.variant_match
    assert match is not None
    steps = 0
    while table.playing and steps < 1000:
        public = match.public_view()
        committed = commitment(match.deal.seed, match.deal.deal_id)
        drawn = vv.table_embed(
            table, public, deadline=2_000_000_000, notes=["x" * 300] * 5, committed=committed
        )
        check_embed(drawn)
        assert f"`{committed}`" in [f.value for f in drawn.fields]
        seat = match.to_act
        assert seat is not None
        view = match.view_for(seat)
        check_embed(vv.hand_embed(table, seat, view))
        # An unopposed set-back maker is offered no card: the bot plays his for him.
        offered = () if vv.unopposed(view.deal) else tuple(view.deal.legal)
        check_hand(vv.hand_view(table, seat, view), offered, view.deal.phase)
        deal = match.deal
        legal = match.legal_actions()
        chosen = player.choose(view) if player else legal[rng.randrange(len(legal))]
        table.act_for_seat(seat, chosen)
        if deal.result is not None:
            tricks.append(len(deal.tricks))
            proof = vv.deal_proof(deal)
            assert proof is not None and deal.seed in proof
            finished = vv.finished_embed(
                table, 1, deal.public_view(), deal.result, match.public_view(), proof
            )
            check_embed(finished)
            assert proof in [f.value for f in finished.fields]
            review = vv.review_embed(table, 1, deal)
            check_embed(review)
            assert proof in [f.value for f in review.fields]
            assert vv.result_text(table, deal.result)
        steps += 1
    assert steps > 0
    return tricks


def test_napoleons_bid_of_five_is_called_napoleon():
    """Keller 1887: a bid of all five tricks "is called Napoleon"; in other games five is a
    plain bid of five."""
    from bot.engine import actions as act
    from bot.engine.variants.rules import FRENCH, NAPOLEON

    five = act.bid(5)
    assert vv.action_label(five, NAPOLEON) == "Napoleon (all five)"
    assert vv.said_text(five, NAPOLEON) == "went Napoleon (all five tricks)"
    assert vv.action_label(act.bid(4), NAPOLEON) == "Bid four"
    assert vv.action_label(five, FRENCH) == "Bid five"
    assert vv.said_text(five, FRENCH) == "bid five"


def test_the_dealer_takes_it_up_and_the_others_order_it_up():
    """RULES §7 (two- and three-handed, set-back): the dealer's word is his own."""
    from bot.engine import actions as act
    from bot.engine.variants.rules import TWO_HANDED

    assert vv.action_label(act.ORDER, TWO_HANDED, seat=1, dealer=1) == "Take up"
    assert vv.said_text(act.ORDER, TWO_HANDED, seat=1, dealer=1) == "took it up"
    assert vv.action_label(act.ORDER, TWO_HANDED, seat=0, dealer=1) == "Order up"
    assert vv.said_text(act.ORDER, TWO_HANDED, seat=0, dealer=1) == "ordered it up"


@pytest.mark.parametrize(
    ("players", "pack"),
    [(3, "24 cards, the nines up"), (5, "32 cards, the sevens up"), (7, "36 cards, the sixes up")],
)
def test_k_napoleon_rules_say_the_pack_and_that_a_failed_napoleon_pays_five_each(players, pack):
    """K: a made Napoleon collects ten from each opponent, but a failed bid pays each opponent
    one chip a trick bid, so a failed Napoleon pays five each, as the engine scores it; and the
    pack is 24 cards for four or fewer, with the sixes added for seven."""
    from bot.engine.variants.rules import NAPOLEON
    from tests.engine.variants.helpers import variant_deal

    variant = make_variant(NAPOLEON, players)
    text = vv.rules_embed(variant).description
    assert f"{pack}, for {players} players." in text
    assert "five for a failed Napoleon" in text and "pays each the same" not in text
    # Seat 1, the eldest, goes Napoleon with no trump and loses the first trick.
    deal = variant_deal(NAPOLEON, {1: "9S 9C TS TC 9D"}, players=players)
    deal.apply("bid:5", 1)
    deal.apply("call:H", 1)
    while not deal.is_over:
        deal.apply(min(deal.legal_actions()), deal.to_act)
    assert deal.result.outcome == "euchred"
    assert deal.result.points == tuple(-5 * (players - 1) if s == 1 else 5 for s in range(players))


@pytest.mark.parametrize("name", ["french", "six-handed"])
def test_k_french_and_six_handed_rules_say_the_adversaries_of_a_made_bid_score_nothing(name):
    """K: a side that makes its bid counts no trick beyond it, and a side that fails it gives
    the adversaries the bid. The engine scores the adversaries of a made bid nothing for the
    tricks they took, so /rules says so rather than "each trick scores a point"."""
    from tests.engine.variants.helpers import variant_deal

    text = vv.rules_embed(make_variant(name)).description
    assert "Each trick scores a point" not in text
    assert "its adversaries nothing" in text
    # Seat 1 bids three with the three top hearts and takes three; its adversaries take two.
    deal = variant_deal(name, {1: "JH JD AH 9S 9C"})
    deal.apply("bid:3:H" if name == "six-handed" else "bid:3", 1)
    while deal.phase == "bidding":
        deal.apply("pass", deal.to_act)
    if deal.phase == "trump":
        deal.apply("call:H", 1)
    while not deal.is_over:
        deal.apply(max(deal.legal_actions()), deal.to_act)
    taken = sum(deal.result.tricks[s] for s in range(1, deal.variant.players, 2))
    assert taken >= 3 and taken < 5
    assert deal.result.points == (0, 3)


def test_k_set_back_a_euchre_lets_only_the_adversaries_who_kept_their_hands_deduct_two():
    """K's option: a euchre also lets the adversaries deduct two. A hand thrown up takes no
    part in the deal (it is not set back for taking no trick), and the bot lets it deduct
    nothing either: the table's words say so."""
    from tests.engine.variants.helpers import act_all, variant_deal

    variant = make_variant("set-back", 3, euchre_deducts=True)
    assert "deduct 2, unless he threw up his hand;" in vv.game_words(variant)
    # Seat 1 orders up a weak hand; seat 2 throws up; seat 0, the dealer, keeps the top trumps.
    deal = variant_deal(
        "set-back",
        {0: "JH JD AH KH QH", 1: "9H 9S 9C 8S 8C", 2: "7S 7C 8D 7D TC"},
        players=3,
        turn_up="TH",
        euchre_deducts=True,
    )
    act_all(deal, (1, "order"), (0, "QH"), (2, "throw_up"), (0, "pass"))
    while not deal.is_over:
        deal.apply(max(deal.legal_actions()), deal.to_act)
    assert deal.result.outcome == "euchred"
    assert deal.result.points[2] == 0 and deal.result.points[0] == -2


def test_k_set_back_auction_words_each_pass_by_where_it_falls():
    """K's set-back: after the trump is made, the maker's pass is his not declaring all five,
    and an adversary's his keeping the hand to play it. "alice passed" right after "alice
    ordered it up" read as though she had gone back on her order."""
    from tests.engine.variants.helpers import act_all, variant_deal

    deal = variant_deal(
        "set-back",
        {0: "JH JD AH KH QH", 1: "9H 9S 9C 8S 8C", 2: "7S 7C 8D 7D TC"},
        players=3,
        turn_up="TH",
        declare_all=True,
    )
    act_all(deal, (1, "pass"), (2, "order"), (0, "QH"), (2, "pass"), (1, "throw_up"), (0, "pass"))
    host = Occupant(1, "alice")
    table = Table(9, 1, 1, host, build_options("modern"), make_variant("set-back", 3))
    table.seats[1], table.seats[2] = Occupant(2, "bob"), Occupant(3, "carol")
    alice, bob, carol = (vv.seat_name(table, seat) for seat in range(3))
    assert vv.auction_lines(table, deal.view_for(1), vv.seat_name) == [
        f"{bob} passed",
        f"{carol} ordered it up",
        f"{alice} discarded",
        f"{carol} did not declare all five",
        f"{bob} threw up the hand",
        f"{alice} kept the hand to play",
    ]


def test_computers_of_one_level_are_told_apart_by_their_seats_where_they_act():
    """alice played six-handed with five standard computers: her hand said "Waiting for
    Computer (standard)", tricks showed "Computer (standard)" five times over, and the game
    began "Computer (standard) deals first": her partners could not be told from the other
    side. Where a computer acts it is named with its seat; the seats' lines, which name the
    seat already, stay as they were, as does a lone computer."""
    from bot.tables.table import bot_occupant

    table = Table(
        9, 1, 1, Occupant(1, "alice"), build_options("modern"), make_variant("six-handed", 6)
    )
    for seat in range(1, 6):
        table.seats[seat] = bot_occupant(-seat, "standard")
    table._rng = random.Random(5)
    table.start()
    match = table.variant_match
    assert match is not None
    dealer = table.first_dealer
    assert f"Computer (standard) at seat {dealer + 1} deals first." in vv.started_text(table)
    while match.to_act != 0:
        seat = match.to_act
        fields = {f.name: f.value for f in vv.hand_embed(table, 0, match.view_for(0)).fields}
        assert fields["Waiting for"] == f"Computer (standard) at seat {seat + 1}"
        drawn = {f.name: f.value for f in vv.table_embed(table, match.public_view()).fields}
        assert drawn["Turn"].startswith(f"Computer (standard) at seat {seat + 1}: ")
        table.act_for_seat(seat, match.legal_actions()[0])
    said = [line for line in vv.auction_lines(table, match.deal, vv.seat_name)]
    assert said and all(" at seat " in line for line in said), said
    seats = {f.name: f.value for f in vv.table_embed(table, match.public_view()).fields}
    assert "**Seat 2**: Computer (standard)" in seats["Seats (seats 1, 3, 5 v seats 2, 4, 6)"]
    assert " at seat" not in seats["Seats (seats 1, 3, 5 v seats 2, 4, 6)"]
    # One computer among members needs no seat to be told apart.
    for seat in range(2, 6):
        table.seats[seat] = Occupant(seat + 1, f"p{seat}")
    assert "at seat" not in vv.seat_name(table, 1)


def test_a_tie_at_napoleon_names_who_tied_at_the_top_and_on_how_many_chips():
    """Napoleon's last deal left alice and carol on +5 chips each: the table message said
    only "no single winner (a tie at the top)", and the players had to work out from the
    scores who had tied. It names them and their chips."""
    from bot.engine.variants.match import VariantMatchView

    table = Table(
        9, 1, 1, Occupant(1, "alice"), build_options("modern"), make_variant("napoleon", 4)
    )
    for seat, name in enumerate(("bob", "*carol*", "dave"), start=1):
        table.seats[seat] = Occupant(seat + 1, name)
    table._rng = random.Random(5)
    table.start()
    assert table.variant_match is not None
    deal = table.variant_match.public_view().deal
    over = VariantMatchView(
        deal=deal,
        variant=table.variant,
        scores=(5, -7, 5, -3),
        deal_number=4,
        over=True,
        winner=None,
    )
    assert vv.match_text(table, over) == (
        "The game is over with no single winner: alice and \\*carol\\* tie at the top on"
        " +5 chips each."
    )
    three = VariantMatchView(
        deal=deal,
        variant=table.variant,
        scores=(1, 1, 1, -3),
        deal_number=4,
        over=True,
        winner=None,
    )
    assert "alice, bob and \\*carol\\* tie at the top on +1 chip each." in vv.match_text(
        table, three
    )


def test_six_handeds_sides_open_their_sentences_with_a_capital():
    """A six-handed game began "seats 1, 3, 5: alice, ...", its deals ended "**seats 1, 3, 5
    (bid by alice)** bid three" and the game "seats 1, 3, 5 (alice, ...) win the game!": each
    sentence opened in lower case. The side's name opens them with a capital."""
    table = Table(
        9, 1, 1, Occupant(1, "alice"), build_options("modern"), make_variant("six-handed", 6)
    )
    for seat in range(1, 6):
        table.seats[seat] = Occupant(seat + 1, f"p{seat}")
    table._rng = random.Random(5)
    table.start()
    match = table.variant_match
    assert match is not None
    assert (
        vv.started_text(table).splitlines()[1].startswith("Seats 1, 3, 5: alice, p2, p4; seats 2,")
    )
    player = make_variant_player("standard", seed=1)
    while not match.over:
        deal = match.deal
        table.act_for_seat(match.to_act, player.choose(match.view_for(match.to_act)))
        if deal.result is not None and deal.result.maker is not None:
            assert vv.result_text(table, deal.result).startswith("**Seats "), deal.result
    assert vv.match_text(table, match.public_view()).startswith("Seats ")
    assert vv.score_text(table, match.public_view()).startswith("Seats 1, 3, 5: ")


def test_a_set_back_maker_left_alone_is_told_his_cards_are_played_for_him():
    """bob and carol threw up their hands against alice's trump. The bot plays her cards
    for her (every trick is hers), yet her hand said "Your turn: play" with her cards to
    click, a click racing the bot's own. Her hand says her cards are played for her and
    offers none; the table message says so too."""
    table = Table(
        9, 1, 1, Occupant(1, "alice"), build_options("modern"), make_variant("set-back", 3)
    )
    table.seats[1], table.seats[2] = Occupant(2, "bob"), Occupant(3, "carol")
    table._rng = random.Random(5)
    table.start()
    match = table.variant_match
    assert match is not None
    deal = match.deal
    while not deal.unopposed:
        seat, legal = match.to_act, match.legal_actions()
        assert deal.phase != "play"
        if seat == 0:  # alice makes trump at her first turn
            action = next((a for a in legal if a != "pass"), legal[0])
        elif "throw_up" in legal:
            action = "throw_up"
        else:
            action = "pass" if "pass" in legal else legal[0]
        table.act_for_seat(seat, action)
    assert match.to_act == 0
    view = match.view_for(0)
    fields = {f.name: f.value for f in vv.hand_embed(table, 0, view).fields}
    assert "Your turn" not in fields and "played for you" in fields["This deal"], fields
    items = [getattr(c, "item", c) for c in vv.hand_view(table, 0, view).children]
    assert items and all(getattr(i, "disabled", False) for i in items), items
    drawn = {f.name: f.value for f in vv.table_embed(table, match.public_view()).fields}
    assert "played for him" in drawn["Turn"], drawn["Turn"]


def test_between_games_the_table_message_names_no_one_by_seats_that_changed_since():
    """A Napoleon game ended with p1 on the most chips; the host then removed p1 from the
    table. The table message went on drawing the last deal against the seats as they stood:
    "(empty) wins the game!", "(empty): +15" in the chips, "(empty)" in the auction and the
    last trick. Between games it shows the table as it stands and the last game's chips and
    winner by seat (the game's end line and the deal's message keep who played)."""
    table = Table(
        9, 1, 1, Occupant(1, "alice"), build_options("modern"), make_variant("napoleon", 3)
    )
    table.seats[1], table.seats[2] = Occupant(2, "p1"), Occupant(3, "p2")
    table._rng = random.Random(5)
    table.start()
    match = table.variant_match
    assert match is not None
    player = make_variant_player("standard", seed=1)
    while not match.over:
        table.act_for_seat(match.to_act, player.choose(match.view_for(match.to_act)))
    table.status = "seating"  # as the table stands once its game is over
    winner = match.winner if match.winner is not None else 0
    table.seats[winner] = None
    drawn = vv.table_embed(table, match.public_view())
    text = "\n".join(f"{f.name}\n{f.value}" for f in drawn.fields)
    assert "(empty)" in text.split("\nLast game")[0]  # the seat, as it stands
    last = {f.name: f.value for f in drawn.fields}["Last game"]
    assert "(empty)" not in last and f"Seat {winner + 1}: " in last, last
    assert "Auction" not in text and "Last trick" not in text and "Trump" not in text, text
    assert "(dealer" not in text and "Seating: /table join" in text


def test_a_pass_once_trump_is_made_is_labelled_by_what_it_does():
    """At set-back with the declaration of all five, the maker's hand offered "Declare all
    five" and "Pass", and each adversary's "Throw up my hand" and "Pass": a pass there bids
    nothing, it plays on. The buttons say so: "Play without declaring", "Keep my hand to
    play" (as the auction tells it); a pass in the auction is still "Pass"."""
    variant = make_variant("set-back", 3, declare_all=True)
    table = Table(9, 1, 1, Occupant(1, "alice"), build_options("modern"), variant)
    table.seats[1], table.seats[2] = Occupant(2, "bob"), Occupant(3, "carol")
    table._rng = random.Random(5)
    table.start()
    match = table.variant_match
    assert match is not None
    labels: dict[str, set[str]] = {}
    while match.deal.phase != "play":
        seat, phase = match.to_act, match.deal.phase
        view = match.view_for(seat)
        items = [getattr(c, "item", c) for c in vv.hand_view(table, seat, view).children]
        found = {str(i.label) for i in items if str(getattr(i, "custom_id", "")).endswith(":pass")}
        labels.setdefault(phase, set()).update(found)
        legal = match.legal_actions()
        if phase in ("round_one", "round_two"):  # the first to speak makes trump
            action = next(a for a in legal if a != "pass")
        else:
            action = "pass" if "pass" in legal else legal[0]
        table.act_for_seat(seat, action)
    assert labels["declare"] == {"Play without declaring"}, labels
    assert labels["throw_up"] == {"Keep my hand to play"}, labels
    assert labels.get("round_one", {"Pass"}) == {"Pass"}


@pytest.mark.parametrize("name", NAMES)
def test_rules_at_every_variant_say_how_the_bowers_rank_and_when_a_deal_passes(name):
    """H: the jack of trumps is the right bower, the other jack of its colour the left bower,
    "considered a trump" when trumps are led; K plays every variant by the regular game's
    rules. /rules at a variant's table (whatever topic was asked, the bowers' included) showed
    its auction and scoring only: the cards rank as the book says, with the pack in play, and
    the page says what happens when all pass and, in the bidding games, that no one plays
    alone."""
    variant = make_variant(name)
    text = vv.rules_embed(variant).description
    assert "the right bower" in text and "the left bower" in text, text
    assert "you must play it" in text
    low = "A K Q 10 9 of trumps" if len(variant.pack) == 24 else "A K Q 10 9 8 7 of trumps"
    assert low in text, text
    assert "the deal passes" in text, text
    if variant.auction != "turn_up":
        assert "No lone hands" in text or name == "napoleon", text
    assert len(text) <= 4096


def test_a_napoleon_bid_of_five_is_called_napoleon_in_the_deals_result_too():
    """K: a bid of all five "is called Napoleon"; the auction said "went Napoleon (all five
    tricks)", but the deal's result, in its message and its review, read "bid five and took
    5: marched". It says he went Napoleon, made or failed; a bid of four stays a bid."""
    from bot.engine.variants.scoring import VariantResult

    table = Table(
        9, 1, 1, Occupant(1, "alice"), build_options("modern"), make_variant("napoleon", 3)
    )
    for seat, name in enumerate(("bob", "carol"), start=1):
        table.seats[seat] = Occupant(seat + 1, name)
    made = VariantResult(0, "march", 1, "H", 5, (0, 5, 0), (-10, 20, -10))
    assert vv.result_text(table, made).startswith("**bob** went Napoleon and took 5: marched.")
    failed = VariantResult(0, "euchred", 1, "H", 5, (1, 0, 0), (5, -10, 5), early=True)
    assert vv.result_text(table, failed).startswith("**bob** went Napoleon and took 0: was")
    four = VariantResult(0, "made", 1, "H", 4, (0, 4, 0), (-4, 8, -4), early=True)
    assert vv.result_text(table, four).startswith("**bob** bid four and took 4: made it.")
    french = Table(9, 1, 1, Occupant(1, "alice"), build_options("modern"), make_variant("french"))
    for seat in range(1, 4):
        french.seats[seat] = Occupant(seat + 1, f"p{seat}")
    five = VariantResult(0, "march", 1, "H", 5, (0, 3, 0, 2), (0, 5))
    assert "bid five and took 5: marched." in vv.result_text(french, five)


def _finish_with(match, deal, *steps):
    """Take the steps, then play the deal out through the match, each its highest card."""
    from bot.engine.cards import POWER

    for seat, action in steps:
        match.apply(action, seat)
    while not deal.is_over:
        power = POWER[deal.trump]
        match.apply(max(match.legal_actions(), key=lambda c: (power[c], c)), match.to_act)


def test_a_game_two_reach_in_one_deal_says_why_the_winner_won():
    """Three-handed: a euchre gives both adversaries two, so both can reach the game at once;
    set-back's euchre_deducts can bring several to 0. The end of the game said only "carol
    wins the game!", though bob stood on the game too: it says why (the higher score, else the
    one nearest the dealer's left), as the match settles it."""
    from bot.engine.variants import VariantMatch
    from tests.engine.variants.helpers import variant_deal

    def seated(variant):
        table = Table(9, 1, 1, Occupant(1, "alice"), build_options("modern"), variant)
        for seat, name in enumerate(("bob", "carol"), start=1):
            table.seats[seat] = Occupant(seat + 1, name)
        return table

    # Three-handed, alice deals: bob orders up a hopeless hand and is euchred.
    deal = variant_deal(
        "three-handed",
        {1: "9C 9S 8C 8S 7C", 0: "JH JD AH KH QH", 2: "AS KS QS JS TS"},
        turn_up="TH",
    )
    match = VariantMatch(deal.variant, 0, deal_factory=lambda v, dealer: deal)
    match.scores = [3, 4, 4]
    _finish_with(match, deal, (1, "order"), (0, "QH"))
    assert match.over and match.scores == [5, 4, 6] and match.winner == 2
    table = seated(deal.variant)
    assert vv.match_text(table, match.public_view()) == (
        "carol wins the game! (alice reached 5 in the same deal: the higher score wins.)"
    )
    # Set-back with euchre_deducts: the dealer and carol both reach 0; carol is nearer.
    deal = variant_deal(
        "set-back",
        {1: "JH 9C 9S 8C 8S", 0: "AC KC QC JC TC", 2: "AS KS QS JS TS"},
        players=3,
        turn_up="TH",
        euchre_deducts=True,
    )
    match = VariantMatch(deal.variant, 0, deal_factory=lambda v, dealer: deal)
    match.scores = [1, 5, 2]
    _finish_with(match, deal, (1, "order"), (0, "TC"), (2, "pass"), (0, "pass"))
    assert match.over and match.scores == [0, 7, 0] and match.winner == 2
    said = vv.match_text(seated(deal.variant), match.public_view())
    assert said == (
        "carol wins the game! (alice reached 0 in the same deal: the one nearest the dealer's"
        " left wins.)"
    )
    # /rules says so.
    rules = vv.rules_embed(make_variant("three-handed")).description
    assert "the higher score wins, then the one nearer the dealer's left" in rules
    rules = vv.rules_embed(deal.variant).description
    assert "should several reach 0 at once, the one nearest the dealer's left wins" in rules
    # One alone at the game: no more than the winner.
    view = match.public_view()
    alone = type(view)(view.deal, view.variant, (0, 7, 2), view.deal_number, True, 0)
    assert vv.match_text(seated(deal.variant), alone) == "alice wins the game!"


def test_a_hand_that_must_follow_says_why_its_other_cards_are_greyed_out():
    """Two-handed, hearts trumps: the ace of hearts is led and bob holds the jack of diamonds,
    the left bower, with diamonds and clubs, and the ten of hearts he took up. Only the bower
    and the ten are enabled (the bower is a trump for every purpose, H), and his hand said
    only "play", where a four-handed hand says what must be
    followed: it says he must follow hearts."""
    from bot.engine.variants import VariantMatch
    from tests.engine.variants.helpers import variant_deal

    deal = variant_deal(
        "two-handed", {0: "JH AH KH QH 9S", 1: "JD AD KD AC KC"}, dealer=1, turn_up="TH"
    )
    match = VariantMatch(deal.variant, 1, deal_factory=lambda v, dealer: deal)
    table = Table(9, 1, 1, Occupant(1, "alice"), build_options("modern"), deal.variant)
    table.seats[1] = Occupant(2, "bob")
    table.variant_match = match
    match.apply("order", 0)
    match.apply("AC", 1)  # bob, the dealer, takes up the ten of hearts and puts out a club
    match.apply("AH", 0)
    view = match.view_for(1)
    assert sorted(view.deal.legal) == ["JD", "TH"]  # the left bower is a trump
    turn = next(f.value for f in vv.hand_embed(table, 1, view).fields if f.name == "Your turn")
    assert turn == "play: you must follow hearts, so only those cards are enabled."
    # The bower wins the trick; leading, with every card playable, he is told only to play.
    match.apply("JD", 1)
    view = match.view_for(1)
    assert view.deal.to_act == 1 and not view.deal.trick
    turn = next(f.value for f in vv.hand_embed(table, 1, view).fields if f.name == "Your turn")
    assert turn == "play"
