"""The expert against OpenSpiel's ISMCTS bot, over duplicate deal pairs, the engines cross-checked.

    pip install -e '.[bench]'                      # open_spiel 2.0.2
    python bench/openspiel.py --pairs 400          # 1,000 simulations a decision, 2 workers
    python bench/openspiel.py --pairs 20 --simulations 200 --workers 1   # a quick look

Every pair is one shuffle, dealt from 0-0 in a game to ten, played twice: the expert's side at
seats 0 and 2, then at seats 1 and 3, so both sides hold the same cards over the pair. Each deal
is played in the bot's engine (the `modern` preset with `discard_turn_up` off, OpenSpiel's rule:
the dealer may not throw the turn-up) and in OpenSpiel's `euchre` (default rules) side by side,
through the bridge the tests use (tests/support/openspiel.py): at every step the seat to act, the
legal actions, every active seat's hand and the trump must agree, and so must the points at the
end; any disagreement stops the run with the position.

The bot's engine takes "order alone" as one declaration, before the dealer's discard; OpenSpiel
asks the maker "alone?" after it. So when ISMCTS makes the trump, it is asked the second question
at once on a copy of the state (the discard, unseen by the maker, is any legal card there unless
the maker is the dealer), and the answer is given to OpenSpiel when it asks.

ISMCTS is OpenSpiel's Python `ISMCTSBot` with a random-rollout evaluator, UCT constant 2, every
generator seeded from `--seed` and the pair, so a run repeats. Its search nodes are keyed by the
information-state string plus the trump: the string omits a trump named in round two, and
without it different deals' nodes merge (a KeyError in `expand_if_necessary`).

Prints the expert's points per deal less ISMCTS's, with a 95% interval over the pairs, the
pairs played, and each side's median time per decision (decisions with a choice only).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import make_player
from bot.engine.deal import (
    CALL,
    DISCARD,
    ORDER,
    ORDER_ALONE,
    PASS,
    PLAY,
    ROUND_ONE,
    ROUND_TWO,
)
from bot.engine.match import Match
from tests.support.openspiel import (
    OS_ALONE,
    OS_BID,
    OS_PASS,
    OS_SUITS,
    Mismatch,
    apply_both,
    check,
    check_result,
    options,
    os_deal,
    our_card,
    settle,
)


@dataclass
class PairResult:
    """One pair: the expert's points less ISMCTS's in each of its two deals, and the times."""

    index: int
    margins: list[int] = field(default_factory=list)
    expert_times: list[float] = field(default_factory=list)
    ismcts_times: list[float] = field(default_factory=list)


def _ismcts(game: Any, simulations: int, seed: int) -> Any:
    """A seeded ISMCTS bot whose nodes are keyed by the information string and the trump."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    class TrumpKeyedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        def get_state_key(self, state: Any) -> Any:
            player = state.current_player()
            return player, state.information_state_string(), int(state.trump_suit())

    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 1))
    bot = TrumpKeyedISMCTS(game, evaluator, 2.0, simulations, random_state=rs)
    draws = np.random.RandomState(seed + 2)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, draws.uniform))
    return bot


class DealPlay:
    """One deal played in both engines, the expert's side at `expert_side`."""

    def __init__(
        self,
        game: Any,
        match: Match,
        expert_side: int,
        seed: int,
        simulations: int,
        budget: int | None = None,
    ) -> None:
        import pyspiel

        self.phase = pyspiel.euchre.Phase
        self.match = match
        self.deal = match.deal
        self.state = os_deal(game, self.deal)
        self.expert_side = expert_side
        self.experts = {
            s: make_player("expert", seed * 4 + s, budget) for s in range(4) if s % 2 == expert_side
        }
        self.bot = _ismcts(game, simulations, seed)
        self.alone: dict[int, bool] = {}  # the maker's answer to OpenSpiel's "alone?"
        self.discard: dict[int, int] = {}  # a discard ISMCTS chose while asked "alone?"
        self.expert_times: list[float] = []
        self.ismcts_times: list[float] = []

    def play(self) -> int:
        """Play the deal out; return the expert's side's points less the other side's."""
        deal, state = self.deal, self.state
        while deal.result is None:
            settle(state, deal, self.alone)
            check(deal, state, f"step {len(deal.history)}")
            seat = deal.to_act
            assert seat is not None
            if seat in self.experts:
                view = self.match.view_for(seat)
                start = time.perf_counter()
                action = self.experts[seat].choose(view)
                if len(view.deal.legal) > 1:
                    self.expert_times.append(time.perf_counter() - start)
            else:
                action = self._ismcts_choice(seat)
            apply_both(deal, state, action, seat, self.alone)
            self.match.apply(action, seat)
        settle(state, deal, self.alone)
        check_result(deal, state)
        result = deal.result
        assert result is not None
        mine = result.points[self.expert_side]
        return mine - result.points[1 - self.expert_side]

    def _step(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        start = time.perf_counter()
        action = int(self.bot.step(state))
        self.ismcts_times.append(time.perf_counter() - start)
        return action

    def _ismcts_choice(self, seat: int) -> str:
        deal, state = self.deal, self.state
        if deal.phase == DISCARD:
            got = self.discard.pop(seat, None)
            return our_card(got if got is not None else self._step(state))
        if deal.phase == PLAY:
            return our_card(self._step(state))
        action = self._step(state)
        if action == OS_PASS:
            return PASS
        # A bid: OpenSpiel asks "alone?" after the dealer's discard; ask it now on a copy.
        ahead = state.clone()
        ahead.apply_action(action)
        while ahead.current_phase() == self.phase.DISCARD:
            if ahead.current_player() == seat:
                self.discard[seat] = self._step(ahead)
                ahead.apply_action(self.discard[seat])
            else:
                ahead.apply_action(ahead.legal_actions()[0])
        if ahead.current_phase() != self.phase.GO_ALONE or ahead.current_player() != seat:
            raise Mismatch(f"OpenSpiel did not ask the maker 'alone?':\n{ahead}")
        alone = self._step(ahead) == OS_ALONE
        suit = OS_SUITS[action - OS_BID]
        if deal.phase == ROUND_ONE:
            return ORDER_ALONE if alone else ORDER
        if deal.phase == ROUND_TWO:
            return f"{CALL}{suit}:alone" if alone else f"{CALL}{suit}"
        raise Mismatch(f"ISMCTS bid {action} in phase {deal.phase}")


def play_pair(index: int, seed: int, simulations: int, budget: int | None = None) -> PairResult:
    """Pair `index`: one shuffle played twice, the expert at seats 0 and 2, then 1 and 3."""
    import pyspiel

    game = pyspiel.load_game("euchre")
    deck_seed = seed * 1_000_003 + index
    result = PairResult(index)
    for expert_side in (0, 1):
        match = Match(options(), index % 4, random.Random(deck_seed))
        play = DealPlay(game, match, expert_side, deck_seed % (2**31 - 8), simulations, budget)
        result.margins.append(play.play())
        result.expert_times += play.expert_times
        result.ismcts_times += play.ismcts_times
    return result


def _run(job: tuple[int, int, int, int | None]) -> PairResult:
    return play_pair(*job)


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean with a normal 95% interval from the spread of `values`."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    half = 1.96 * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=400, help="deal pairs (default 400)")
    parser.add_argument("--simulations", type=int, default=1000, help="ISMCTS simulations")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--budget", type=int, help="the expert's worlds per decision (default the table's)"
    )
    parser.add_argument(
        "--out", type=Path, help="write each pair's margins here (JSON), to compare two runs"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    jobs = [(i, args.seed, args.simulations, args.budget) for i in range(args.pairs)]
    pairs: list[PairResult] = []
    # Pairs come back in order, and the figures so far are printed (and written to --out) as
    # they do: a run stopped early still leaves its first pairs.
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        for pair in pool.map(_run, jobs):
            pairs.append(pair)
            if args.out:
                args.out.write_text(json.dumps({str(p.index): p.margins for p in pairs}))
            if len(pairs) % 25 == 0 and len(pairs) < args.pairs:
                mean, low, high = interval([sum(p.margins) / 2 for p in pairs])
                print(
                    f"  {len(pairs)} pairs: {mean:+.3f} ({low:+.3f} to {high:+.3f}), "
                    f"{time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    values = [sum(p.margins) / 2 for p in pairs]
    mean, low, high = interval(values)
    expert = [t for p in pairs for t in p.expert_times]
    ismcts = [t for p in pairs for t in p.ismcts_times]
    print(
        f"expert ({args.budget or 'default'} worlds) v ISMCTS ({args.simulations} simulations), "
        f"seed {args.seed}: "
        f"{len(pairs)} pairs ({2 * len(pairs)} deals)"
    )
    print(
        f"expert points per deal less ISMCTS's: {mean:+.3f} (95% interval {low:+.3f} to {high:+.3f})"
    )
    for name, ts in (("expert", expert), ("ISMCTS", ismcts)):
        median = 1000 * statistics.median(ts) if ts else 0.0
        print(f"  {name:7s} median {median:7.1f} ms a decision ({len(ts)} decisions with a choice)")
    if expert and ismcts:
        ratio = statistics.median(expert) / statistics.median(ismcts)
        print(f"  expert's median is {ratio:.2f} of ISMCTS's")
    print(f"{time.perf_counter() - start:.0f} s with {args.workers} workers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
