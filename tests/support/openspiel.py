"""The bot's engine and OpenSpiel's `euchre` side by side: one deal played in both, step by step.

OpenSpiel (DeepMind's library of games for research) has its own euchre, written apart from this
project: the 24-card pack, stick the dealer on or off, a lone defender allowed or not, the
dealer never throwing the turn-up. Playing the same deal in both and comparing them at every
step (whose turn, the legal actions, every hand, trump, the points) checks the bot's engine
against another's reading of the game. `tests/engine/test_openspiel_agreement.py` plays random
deals so; `bench/openspiel.py` plays the expert against OpenSpiel's ISMCTS through the same
bridge.

The engines word a lone hand differently: the bot's engine takes "order alone" as one
declaration, before the dealer's discard, and asks the adversaries whether one defends alone
after it; OpenSpiel asks the maker "alone?" after the discard, then each adversary. Those
questions are answered for OpenSpiel from what the bot's engine was told (`settle`). When a lone
maker's partner deals, the bot's engine skips his discard (he sits out) and OpenSpiel is given
any legal one.
"""

from __future__ import annotations

from typing import Any

from bot.engine.actions import DEFEND
from bot.engine.deal import (
    CALL,
    DEFEND_ALONE,
    DISCARD,
    ORDER,
    ORDER_ALONE,
    PASS,
    PLAY,
    Deal,
)
from bot.engine.rules import Options, build_options

# OpenSpiel's euchre: card = rank * 4 + suit, then the bids and the lone-hand questions.
OS_SUITS = "CDHS"
OS_RANKS = "9TJQKA"
OS_PASS = 24
OS_BID = 25  # + suit index: order up (round one) or name the suit (round two)
OS_ALONE = 29  # the maker plays alone; an adversary defends alone
OS_PARTNER = 30  # with the partner


class Mismatch(Exception):
    """The two engines disagree; the message gives the position."""


def os_card(card: str) -> int:
    return OS_RANKS.index(card[0]) * 4 + OS_SUITS.index(card[1])


def our_card(action: int) -> str:
    return OS_RANKS[action // 4] + OS_SUITS[action % 4]


def options(stick_the_dealer: bool = True, defend_alone: bool = False) -> Options:
    """The bot's options for OpenSpiel's game with these parameters: the `modern` preset
    (24 cards, a lone hand euchred gives 2) with OpenSpiel's rule on the turn-up."""
    return build_options(
        "modern",
        discard_turn_up=False,
        stick_the_dealer=stick_the_dealer,
        defend_alone=defend_alone,
    )


def os_game(stick_the_dealer: bool = True, defend_alone: bool = False) -> Any:
    import pyspiel

    return pyspiel.load_game(
        "euchre", {"stick_the_dealer": stick_the_dealer, "allow_lone_defender": defend_alone}
    )


def os_deal(game: Any, deal: Deal) -> Any:
    """OpenSpiel's state with the same dealer, hands and turn-up as the bot's deal."""
    import pyspiel

    state = game.new_initial_state()
    state.apply_action(deal.dealer)
    # OpenSpiel deals one card at a time round the table from the dealer.
    for i in range(5):
        for n in range(4):
            seat = (deal.dealer + n) % 4
            state.apply_action(os_card(deal.hands[seat][i]))
    state.apply_action(os_card(deal.turn_up))
    if state.current_phase() != pyspiel.euchre.Phase.BIDDING:
        raise Mismatch(f"OpenSpiel not bidding after the deal:\n{state}")
    return state


def bid_or_card(deal: Deal, action: str) -> int:
    """OpenSpiel's action for the bot's `action` in its deal's present phase."""
    if deal.phase == DEFEND_ALONE:
        return OS_ALONE if action == DEFEND else OS_PARTNER
    if action == PASS:
        return OS_PASS
    if action in (ORDER, ORDER_ALONE):
        assert deal.turn_up_suit is not None
        return OS_BID + OS_SUITS.index(deal.turn_up_suit)
    if action.startswith(CALL):
        return OS_BID + OS_SUITS.index(action.split(":")[1])
    if deal.phase in (DISCARD, PLAY):
        return os_card(action)
    raise Mismatch(f"no OpenSpiel action for {action!r} in phase {deal.phase}")


def legal_as_os(deal: Deal) -> set[int]:
    return {bid_or_card(deal, action) for action in deal.legal_actions()}


def check(deal: Deal, state: Any, where: str) -> None:
    """Raise Mismatch with the position unless both engines agree on the turn, the legal
    actions, every hand in play and trump."""
    seat = deal.to_act
    problems = []
    if state.current_player() != seat:
        problems.append(f"to act: ours {seat}, OpenSpiel {state.current_player()}")
    ours, theirs = legal_as_os(deal), set(state.legal_actions())
    if ours != theirs:
        problems.append(
            f"legal: ours {sorted(deal.legal_actions())}, OpenSpiel "
            f"{sorted(state.action_to_string(a) for a in theirs)}"
        )
    holder = state.card_holder()
    # A lone maker's partner's cards are out of the deal (OpenSpiel's dealer picks up the
    # turn-up even then; the bot's does not).
    seats = deal.active if deal.phase == PLAY else range(4)
    for s in seats:
        if s in deal.sitting_out:
            continue
        os_hand = sorted(our_card(c) for c in range(24) if holder[c] == s)
        if deal.phase == DISCARD and s == deal.dealer:
            continue  # the bot's engine puts the turn-up in the hand at the discard
        if os_hand != sorted(deal.hands[s]):
            problems.append(f"seat {s} holds {sorted(deal.hands[s])}, OpenSpiel {os_hand}")
    if deal.trump is not None and deal.phase == PLAY:
        os_trump = int(state.trump_suit())
        if OS_SUITS[os_trump] != deal.trump:
            problems.append(f"trump: ours {deal.trump}, OpenSpiel {OS_SUITS[os_trump]}")
    if problems:
        raise Mismatch(
            f"{where}: " + "; ".join(problems) + f"\nhistory {deal.history}\nOpenSpiel:\n{state}"
        )


def settle(state: Any, deal: Deal, alone: dict[int, bool]) -> None:
    """Answer OpenSpiel's questions that the bot's engine has already settled: the maker's
    "alone?" (`alone`: each maker's answer, from his bid), the adversaries' "defend alone?"
    against a partnership, and a lone maker's partner's discard when he deals and sits out."""
    import pyspiel

    phase = pyspiel.euchre.Phase
    while not state.is_terminal():
        now = state.current_phase()
        player = state.current_player()
        if now == phase.GO_ALONE and player == deal.maker:
            state.apply_action(OS_ALONE if alone[player] else OS_PARTNER)
        elif now == phase.GO_ALONE and deal.alone is None:
            # OpenSpiel's lone defender may defend alone against a partnership too; the bot's
            # only against a lone hand (RULES.md), so against a partnership nobody does.
            state.apply_action(OS_PARTNER)
        elif now == phase.DISCARD and deal.phase != DISCARD:
            state.apply_action(state.legal_actions()[0])
        else:
            return


def check_result(deal: Deal, state: Any) -> None:
    """Both deals over, with the same points."""
    result = deal.result
    if result is None or not state.is_terminal():
        raise Mismatch(f"ours over: {result is not None}, OpenSpiel's: {state.is_terminal()}")
    returns = state.returns()
    ours = [result.points[0] - result.points[1], result.points[1] - result.points[0]]
    if [round(returns[0]), round(returns[1])] != ours:
        raise Mismatch(f"points: ours {result.points}, OpenSpiel {returns}:\n{state}")


def apply_both(deal: Deal, state: Any, action: str, seat: int, alone: dict[int, bool]) -> None:
    """Give `action` to OpenSpiel, noting a bid's "alone" for its later question; the caller
    applies it to the bot's engine (through its match, where there is one) after this."""
    os_action = bid_or_card(deal, action)
    if action in (ORDER, ORDER_ALONE) or action.startswith(CALL):
        alone[seat] = action.endswith("alone")
    state.apply_action(os_action)
