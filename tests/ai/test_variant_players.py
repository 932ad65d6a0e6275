"""The variants' computer players: always legal, repeatable, and their rules of thumb by name."""

from __future__ import annotations

import pytest

from bot.ai.variant_duel import play_game, run_variant_duel
from bot.ai.variants import EasyVariantPlayer, StandardVariantPlayer, make_variant_player
from bot.engine.variants import VariantMatch, make_variant
from bot.engine.variants.deal import VariantDeal
from bot.engine.variants.match import VariantMatchView
from tests.engine.variants.helpers import variant_deal

TABLES = [
    ("two-handed", 2),
    ("three-handed", 3),
    ("french", 4),
    ("napoleon", 3),
    ("napoleon", 7),
    ("six-handed", 6),
    ("set-back", 2),
    ("set-back", 4),
]


@pytest.mark.parametrize("level", ["easy", "standard"])
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_level_plays_whole_games_legally(level: str, name: str, players: int) -> None:
    variant = make_variant(name, players, **({"declare_all": True} if name == "set-back" else {}))
    player = make_variant_player(level, 1)
    game = play_game(variant, "legal", [player.choose] * players, max_deals=60)
    # Every action went through apply(), which refuses an illegal one: the deals were played out.
    assert all(d.result is not None for d in game.deals[:-1])
    assert game.over or len(game.deals) == 61


def test_the_same_seed_and_view_give_the_same_choice() -> None:
    variant = make_variant("french")
    first = play_game(variant, "again", [make_variant_player("standard", 3).choose] * 4)
    second = play_game(variant, "again", [make_variant_player("standard", 3).choose] * 4)
    assert [d.history for d in first.deals] == [d.history for d in second.deals]


def test_expert_is_not_offered_for_the_variants() -> None:
    with pytest.raises(ValueError, match="easy, standard"):
        make_variant_player("expert")


def _view(deal: VariantDeal, seat: int) -> VariantMatchView:
    match = VariantMatch(deal.variant, deal.dealer, deal_factory=lambda v, d: deal)
    return match.view_for(seat)


def test_easy_bids_three_with_three_trumps_and_a_bower() -> None:
    deal = variant_deal("french", {1: "JH AH KH 9C 9S"})
    assert EasyVariantPlayer().choose(_view(deal, 1)) == "bid:3"
    weak = variant_deal("french", {1: "AH KH 9C 9S TD"})
    assert EasyVariantPlayer().choose(_view(weak, 1)) == "pass"


def test_standard_bids_what_a_strong_hand_counts_for() -> None:
    deal = variant_deal("napoleon", {1: "JH JD AH KH QH"}, players=3)
    assert StandardVariantPlayer().choose(_view(deal, 1)) == "bid:5"


def test_standard_does_not_outbid_its_partner() -> None:
    deal = variant_deal("six-handed", {3: "JH JD AH KH QH"})
    deal.apply("bid:2:S", 1)
    deal.apply("pass", 2)
    # Seat 3 is seat 1's partner: the bid is theirs already.
    assert StandardVariantPlayer().choose(_view(deal, 3)) == "pass"


def test_every_level_throws_up_a_set_back_hand_with_no_trick_in_it() -> None:
    deal = variant_deal(
        "set-back", {1: "JH JD AH KH QH", 2: "9S 9C 8S 8C 7S"}, players=3, turn_up="TH"
    )
    deal.apply("order", 1)
    deal.apply(deal.legal_actions()[0], 0)
    assert deal.to_act == 2
    assert StandardVariantPlayer().choose(_view(deal, 2)) == "throw_up"
    assert EasyVariantPlayer().choose(_view(deal, 2)) == "throw_up"


@pytest.mark.parametrize("players", [2, 3])
def test_k_no_level_throws_up_its_hand_against_a_declaration_of_all_five(players: int) -> None:
    """K: a player who declares all five and takes them wins the game outright. A hand thrown
    up takes no trick, so were every other hand thrown up the declarer would take all five
    unopposed: a computer keeps even a hopeless hand against a declaration, where one trick
    sets the declarer back by his whole score."""
    weak = {0: "9S 9C 8S 8C 7S"} | ({2: "7C 8D 7D TC QS"} if players == 3 else {})
    deal = variant_deal(
        "set-back",
        {1: "JH JD AH KH QH", **weak},
        players=players,
        turn_up="TH",
        declare_all=True,
    )
    deal.apply("order", 1)
    deal.apply("9S", 0)  # the dealer's discard
    deal.apply("declare", 1)
    if players == 3:
        deal.apply("throw_up", 2)
    assert deal.to_act == 0
    assert StandardVariantPlayer().choose(_view(deal, 0)) == "pass"
    assert EasyVariantPlayer().choose(_view(deal, 0)) == "pass"


@pytest.mark.parametrize(("maker_score", "choice"), [(2, "pass"), (1, "pass"), (3, "throw_up")])
def test_k_the_last_hand_against_a_maker_a_march_would_bring_to_zero_is_kept(
    maker_score: int, choice: str
) -> None:
    """K: a march deducts two, and the first to reach 0 wins. With every other hand thrown up
    the maker takes all five unopposed, so at two or less the last hand kept against him is
    kept, hopeless or not: it costs at most one point, where throwing it up gives him the
    game."""
    hands = {1: "JH JD AH KH QH", 0: "9S 9C 8S 8C 7S", 2: "7C 8D 7D TC QS"}
    deal = variant_deal("set-back", hands, players=3, turn_up="TH")
    for seat, action in ((1, "order"), (0, "9S"), (2, "throw_up")):
        deal.apply(action, seat)
    assert deal.to_act == 0
    match = VariantMatch(deal.variant, deal.dealer, deal_factory=lambda v, d: deal)
    match.scores[1] = maker_score
    assert StandardVariantPlayer().choose(match.view_for(0)) == choice
    assert EasyVariantPlayer().choose(match.view_for(0)) == choice
    # Where another kept his hand, the maker is not unopposed: a hopeless hand is thrown up.
    kept = variant_deal("set-back", hands, players=3, turn_up="TH")
    for seat, action in ((1, "order"), (0, "9S"), (2, "pass")):
        kept.apply(action, seat)
    match = VariantMatch(kept.variant, kept.dealer, deal_factory=lambda v, d: kept)
    match.scores[1] = maker_score
    assert StandardVariantPlayer().choose(match.view_for(0)) == "throw_up"


@pytest.mark.parametrize(
    ("score", "choice"), [(5, "declare"), (3, "declare"), (2, "pass"), (1, "pass")]
)
def test_k_standard_declares_all_five_only_where_a_plain_march_would_not_win(
    score: int, choice: str
) -> None:
    """K: a declaration of all five made wins the game outright; failed, the declarer is set
    back by his whole score. A plain march deducts two, so at two or less it wins the game
    already, and declaring would only risk the score."""
    deal = variant_deal(
        "set-back", {1: "JH JD AH KH QH"}, players=2, turn_up="TH", declare_all=True
    )
    deal.apply("order", 1)
    deal.apply(deal.legal_actions()[0], 0)  # the dealer's discard
    assert deal.to_act == 1 and "declare" in deal.legal_actions()
    match = VariantMatch(deal.variant, deal.dealer, deal_factory=lambda v, d: deal)
    match.scores[1] = score
    assert StandardVariantPlayer().choose(match.view_for(1)) == choice


def test_standard_maker_draws_trumps_with_the_best_one_left() -> None:
    deal = variant_deal("napoleon", {1: "JH JD AH 9S 9C"}, players=3)
    deal.apply("bid:3", 1)
    deal.apply("pass", 2)
    deal.apply("pass", 0)
    deal.apply("call:H", 1)
    assert StandardVariantPlayer().choose(_view(deal, 1)) == "JH"


def test_an_ally_of_the_maker_s_adversaries_lets_an_allys_winning_card_stand() -> None:
    # Napoleon, three players: seat 1 is the maker; seats 2 and 0 are allies against him.
    deal = variant_deal(
        "napoleon", {1: "9H 9S TS KD QD", 2: "AS KS QS JS AD", 0: "TH QH KH AH 9D"}, players=3
    )
    deal.apply("bid:1", 1)
    deal.apply("pass", 2)
    deal.apply("pass", 0)
    deal.apply("call:C", 1)
    deal.apply("9S", 1)
    deal.apply("AS", 2)
    # Seat 0 (the last to play) has no spade: the ally's ace holds, so it keeps its cards.
    choice = StandardVariantPlayer().choose(_view(deal, 0))
    assert choice == "9D"


def test_standard_beats_easy_in_a_short_duel_of_french_euchre() -> None:
    result = run_variant_duel(make_variant("french"), "standard", "easy", pairs=12, seed=1)
    assert len(result.scores) == 12 and result.share > 0.5


@pytest.mark.parametrize("players", [3, 4, 6])
def test_standard_set_back_players_throw_up_enough_for_their_games_to_end(players: int) -> None:
    variant = make_variant("set-back", players)
    for seed in ("a", "b", "c"):
        game = play_game(variant, seed, [make_variant_player("standard").choose] * players)
        assert game.over and game.winner is not None and game.scores[game.winner] == 0


@pytest.mark.parametrize("players", [5, 6])
def test_a_set_back_game_with_easy_computers_ends(players: int) -> None:
    """K: a player who takes no trick is set back one, unless he threw up his hand. Easy
    computers kept every hand: at five or six a game of theirs, a member playing the standard
    way among them, had not ended after 400 deals (their scores only grew)."""
    variant = make_variant("set-back", players)
    member, easy = make_variant_player("standard"), make_variant_player("easy")
    for seed in ("a", "b"):
        game = play_game(variant, seed, [member.choose] + [easy.choose] * (players - 1), 200)
        assert game.over and game.winner is not None and game.scores[game.winner] == 0
