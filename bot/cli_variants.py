"""The command line for the variants: `simulate --variant NAME` and the replay of their records.

`bot.cli` hands over to these when `simulate` is given `--variant`, and when `replay` reads
the bot's own record of a variant. Points are by seat where each plays for himself and by side
(side 0 = the even seats) where there are partnerships; Napoleon's points are its chips.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.ai.variant_duel import MAX_DEALS, play_game, run_variant_duel
from bot.ai.variants import VARIANT_LEVELS, make_variant_player
from bot.engine.commitment import deal_identity, new_seed, shuffled_pack
from bot.engine.errors import OptionsError
from bot.engine.scoring import EUCHRED, PASSED
from bot.engine.variants import NAMES, VariantMatch, make_variant
from bot.engine.variants.deal import VariantDeal
from bot.engine.variants.match import VariantDealFactory
from bot.engine.variants.records import variant_match_to_record, variant_result_to_dict
from bot.engine.variants.rules import Variant
from bot.numbers import parse_whole


class VariantCommandError(Exception):
    """A bad argument: `bot.cli` prints it and exits with code 2."""


def add_arguments(simulate: argparse.ArgumentParser) -> None:
    """The variant arguments of `simulate`."""
    simulate.add_argument(
        "--variant", choices=NAMES, help="play a variant of the rule books instead of a preset"
    )
    simulate.add_argument(
        "--players", type=int, help="players at a variant's table (default: its fewest)"
    )
    simulate.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="write the bot's own record of the matches played to FILE (a variant: the last match)",
    )


def simulate_variant(args: argparse.Namespace) -> dict[str, Any]:
    """Play `args.matches` games of the variant; `--a` plays side 0 (or seat 0), `--b` the rest.

    Random players choose among the legal actions; `easy` and `standard` play duplicate duels
    (`bot.ai.variant_duel`), `--matches` of them.

    Raises:
        VariantCommandError: a seat count the variant does not allow, or an unknown level.
    """
    try:
        variant = make_variant(args.variant, args.players, **variant_options(args.option))
    except OptionsError as exc:
        raise VariantCommandError(str(exc)) from None
    for level in (args.a, args.b):
        if level not in (*VARIANT_LEVELS, "random"):
            raise VariantCommandError(
                f"the variants offer the levels {', '.join(VARIANT_LEVELS)} and random, not {level!r}"
            )
    if args.a != "random" and args.b != "random" and args.a != args.b and not args.record:
        duel = run_variant_duel(variant, args.a, args.b, args.matches, args.seed)
        return {"duel": duel.to_dict()}
    stats = _Stats(variant)
    last: VariantMatch | None = None
    for number in range(args.matches):
        choosers = [
            _chooser(args.a if variant.side_of(s) == 0 else args.b, args.seed, s, number)
            for s in range(variant.players)
        ]
        # Recorded, each deal is dealt as a table deals it, from a seed of its own, so
        # `verify-deal` checks the record as it checks a table's.
        factory = (
            seeded_variant_deals(random.Random(f"{args.seed}/{number}/seeds"), number + 1)
            if args.record
            else None
        )
        last = play_game(variant, f"{args.seed}/{number}", choosers, deal_factory=factory)
        stats.add(last)
    if args.record and last is not None:
        text = json.dumps(variant_match_to_record(last), indent=1) + "\n"
        try:
            args.record.write_text(text)
        except OSError as error:
            raise VariantCommandError(
                f"cannot write {args.record}: {error.strerror or error}"
            ) from None
    return stats.report(args)


# The variants' options that are on or off; the others (`points`, `rounds`) are whole numbers.
_SWITCHES = ("declare_all", "euchre_deducts")
_ON, _OFF = ("true", "yes", "on"), ("false", "no", "off")


def variant_options(pairs: Sequence[str]) -> dict[str, Any]:
    """`--option NAME=VALUE ...` for a variant, typed as `make_variant` takes them (as
    `/table create` gives them): `points` and `rounds` whole numbers, `declare_all` and
    `euchre_deducts` true or false. An option the variant has not is refused by `make_variant`.

    Raises:
        VariantCommandError: not NAME=VALUE, or a value of the wrong kind.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not name:
            raise VariantCommandError(f"--option takes NAME=VALUE, not {pair!r}")
        if name in _SWITCHES:
            if text.lower() not in (*_ON, *_OFF):
                raise VariantCommandError(f"option '{name}' must be true or false, not {text!r}")
            options[name] = text.lower() in _ON
            continue
        number = parse_whole(text)
        options[name] = text if number is None else number  # a word: make_variant says why
    return options


def seeded_variant_deals(rng: random.Random, match_no: int) -> VariantDealFactory:
    """Deal as a variant's table deals: each deal's pack ordered by a seed of its own (drawn
    from `rng`, so a simulation's seed gives the same seeds), named by a table numbered 0."""
    number = 0

    def deal(variant: Variant, dealer: int) -> VariantDeal:
        nonlocal number
        number += 1
        seed = new_seed(rng)
        dealt = VariantDeal.from_deck(variant, dealer, shuffled_pack(seed, variant.pack))
        dealt.seed, dealt.deal_id = seed, deal_identity(0, match_no, number)
        return dealt

    return deal


def _chooser(level: str, seed: int, seat: int, number: int) -> Any:
    if level == "random":
        rng = random.Random(f"{seed}/{number}/{seat}")
        return lambda view: rng.choice(view.deal.legal)
    return make_variant_player(level, seed).choose


class _Stats:
    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.matches = self.deals = self.passed = self.made = self.euchred = 0
        self.early = self.thrown = self.unfinished = 0
        self.wins = [0] * variant.sides
        self.points = [0] * variant.sides

    def add(self, match: VariantMatch) -> None:
        self.matches += 1
        self.unfinished += not match.over
        if match.winner is not None:
            self.wins[match.winner] += 1
        for result in match.hand_results:
            self.deals += 1
            self.passed += result.outcome == PASSED
            self.made += result.outcome not in (PASSED, EUCHRED)
            self.euchred += result.outcome == EUCHRED
            self.early += result.early
            self.thrown += len(result.thrown)
            for i, p in enumerate(result.points):
                self.points[i] += p

    def report(self, args: argparse.Namespace) -> dict[str, Any]:
        by = "side" if self.variant.partners else "seat"
        return {
            "variant": self.variant.options(),
            "matches": self.matches,
            "seed": args.seed,
            "levels": [args.a, args.b],
            "deals": self.deals,
            "passed_out": self.passed,
            "makers": {"made": self.made, "euchred": self.euchred},
            "ended_early": self.early,
            "hands_thrown_up": self.thrown,
            "unfinished": self.unfinished,
            "points_by": by,
            "points": self.points,
            "wins": self.wins,
        }


def simulate_text(report: dict[str, Any]) -> str:
    """The figures of `simulate --variant` for reading."""
    if "duel" in report:
        d = report["duel"]
        low, high = d["interval95"]
        return (
            f"{d['variant']}, {d['players']} players: {d['pairs']} pack orders, {d['a']} in the "
            f"tested seats against {d['b']} there: share {d['share']:.1%} "
            f"(95% interval {low:.1%} to {high:.1%}); games won {d['a_wins']} against {d['b_wins']}"
        )
    v = report["variant"]
    choices = "".join(
        f", {key.replace('_', ' ')} {_shown_option(value)}"
        for key, value in v.items()
        if key not in ("variant", "players")
    )
    return "\n".join(
        [
            f"{report['matches']} games of {v['variant']}, {v['players']} players{choices}, seed "
            f"{report['seed']}, {report['levels'][0]} against {report['levels'][1]}",
            f"Deals: {report['deals']}, {report['passed_out']} passed; makers made "
            f"{report['makers']['made']}, euchred {report['makers']['euchred']}; ended early "
            f"{report['ended_early']}; hands thrown up {report['hands_thrown_up']}",
            f"Points by {report['points_by']}: {report['points']}; wins by "
            f"{report['points_by']}: {report['wins']}"
            + (
                f"; {report['unfinished']} unfinished after {MAX_DEALS} deals"
                if report["unfinished"]
                else ""
            ),
        ]
    )


def _shown_option(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def variant_summary(match: VariantMatch, players: Sequence[str]) -> dict[str, Any]:
    """What `replay --json` prints for a variant's record: every deal, the scores, the winner."""
    deals = []
    for number, deal in enumerate(match.deals, start=1):
        if not deal.history:
            continue  # dealt but not begun
        result = variant_result_to_dict(deal.result)
        deals.append(
            {
                "number": number,
                "dealer": deal.dealer,
                "turn_up": deal.turn_up,
                "maker": deal.maker,
                "trump": deal.trump,
                "bid": deal.bid,
                "outcome": result["outcome"] if result else None,
                "tricks": list(deal.won),
                "points": result["points"] if result else [0] * match.variant.sides,
                "thrown": list(deal.thrown),
                "early": deal.ended_early,
                "finished": result is not None,
            }
        )
    return {
        "format": "variant",
        "variant": match.variant.options(),
        "players": list(players) or None,
        "points_by": "side" if match.variant.partners else "seat",
        "deals": deals,
        "final_score": list(match.scores),
        "over": match.over,
        "winner": match.winner,
    }


def variant_text(summary: dict[str, Any]) -> str:
    """A variant's replay for reading."""
    v = summary["variant"]
    players = summary.get("players") or [f"seat {s}" for s in range(v["players"])]
    by = summary["points_by"]
    lines = [
        f"{v['variant']}, {v['players']} players: "
        + ", ".join(f"{s} {name}" for s, name in enumerate(players))
    ]
    for deal in summary["deals"]:
        head = f"Deal {deal['number']}: dealer {players[deal['dealer']]}"
        if deal["maker"] is None:
            lines.append(f"{head}, all passed" if deal["finished"] else f"{head}, bidding")
            continue
        bid = f", bid {deal['bid']}" if deal["bid"] is not None else ""
        end = " (ended early)" if deal["early"] else ""
        play = (
            f"{deal['outcome']}{end}, points by {by} {deal['points']}"
            if deal["finished"]
            else "not finished"
        )
        lines.append(
            f"{head}; maker {players[deal['maker']]}{bid}, trump {deal['trump']}; "
            f"tricks by seat {deal['tricks']}; {play}"
        )
    final = f"Final score by {by}: {summary['final_score']}"
    if summary["winner"] is not None:
        final += f"; {by} {summary['winner']} wins"
    elif summary["over"]:
        final += "; no single winner (a tie at the top)"
    else:
        final += " (not finished)"
    lines.append(final)
    return "\n".join(lines)


__all__ = [
    "VariantCommandError",
    "add_arguments",
    "simulate_text",
    "simulate_variant",
    "variant_summary",
    "variant_text",
]
