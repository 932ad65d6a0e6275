"""The command line: `python -m bot [run | replay | simulate | ...]`.

With no subcommand, or `run`, it starts the Discord bot (`bot.runner.run`, imported only then,
so the other commands work without Discord's settings). `replay` reads a game record of any kind
the bot knows and prints what happened; `simulate` plays matches between computer players.

Exit codes: 0 on success, 2 on a bad file or argument, with the reason on standard error.

Other modules add their own subcommands: list the module in `COMMAND_MODULES` and give it a
`register_commands(subparsers)` function, or call `register(...)` with a function of the same
shape before `main` runs. Each subcommand sets a `handler(args) -> int` with `set_defaults`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import cli_variants
from bot.engine.commitment import deal_identity, pack_order
from bot.engine.deal import SEATS, Deal
from bot.engine.egn import EgnGame
from bot.engine.errors import EuchreError
from bot.engine.match import Match, MatchView
from bot.engine.quoting import shown
from bot.engine.records import Replay, match_to_record, read_record, result_to_dict
from bot.engine.rules import PRESETS, Options, build_options
from bot.engine.scoring import EUCHRED, MADE, MARCH
from bot.numbers import parse_whole

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_USAGE = 2
# The most matches `simulate --matches` plays: a hundred times the default. Random players play
# them in a minute or so, experts in hours; a count without a bound ran for days.
MAX_MATCHES = 10_000

# Modules that may add subcommands with a `register_commands(subparsers)` function; a module
# that is not there yet is skipped.
COMMAND_MODULES: tuple[str, ...] = (
    "bot.storage.cli",
    "bot.proofs",
    "bot.leagues.cli",
    "bot.coach_cli",
    "bot.invite",
)

Subparsers = Any  # argparse's private _SubParsersAction
Registrar = Callable[[Subparsers], None]
_REGISTRARS: list[Registrar] = []


class CommandError(Exception):
    """A bad file or argument: the message goes to standard error and the exit code is 2."""


def register(registrar: Registrar) -> Registrar:
    """Add a function that adds subcommands to the parser (usable as a decorator)."""
    _REGISTRARS.append(registrar)
    return registrar


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand: this module's, then the registered ones."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="A Discord bot for Euchre.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for registrar in (_add_run, _add_replay, _add_simulate, *_REGISTRARS, *_module_registrars()):
        registrar(subparsers)
    return parser


def _module_registrars() -> list[Registrar]:
    found = []
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        found.append(module.register_commands)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Args:
        argv: the arguments (default: `sys.argv[1:]`).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", _run_bot)
    try:
        return handler(args)
    except (CommandError, EuchreError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as command-line tools do.
        sys.stdout = open(os.devnull, "w")  # so the interpreter's last flush does not fail again
        return EXIT_OK


# ---------------------------------------------------------------------------------------------
# run


def _add_run(subparsers: Subparsers) -> None:
    run = subparsers.add_parser("run", help="start the Discord bot (the default)")
    run.set_defaults(handler=_run_bot)


def _run_bot(args: argparse.Namespace) -> int:
    try:
        runner = importlib.import_module("bot.runner")
    except ModuleNotFoundError as exc:
        if exc.name != "bot.runner":
            raise
        raise CommandError(
            "the bot runner (bot/runner.py) is not installed in this checkout yet"
        ) from None
    code = runner.run()
    return code if isinstance(code, int) else EXIT_OK


# ---------------------------------------------------------------------------------------------
# replay


def _add_replay(subparsers: Subparsers) -> None:
    replay = subparsers.add_parser(
        "replay",
        help="replay a game record (EGN, EMN, or the bot's own) and print each deal",
    )
    replay.add_argument("file", type=Path, help="the record to replay")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument(
        "--strict",
        action="store_true",
        help="refuse deals after the game was won and repeated deal numbers (default: replay "
        "them with a warning)",
    )
    replay.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    replay = read_replay(args.file, strict=args.strict)
    summary = replay_summary(replay)
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        print(replay_text(summary))
    return EXIT_OK


def read_replay(path: Path, *, strict: bool = False) -> Replay:
    """Read a record file for a subcommand (`replay`, `review`), saying on standard error what
    a lenient reading read past: deals after the game was won, repeated deal numbers.

    Raises:
        CommandError: the file cannot be read or is not JSON.
        EuchreError: the record is refused (with `strict`, for what would be a warning).
    """
    replay = read_record(load_json(path), strict=strict)
    for warning in replay.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return replay


def load_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not a text file") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path} is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise CommandError(f"{path} nests its lists or objects too deeply to be read") from None
    except ValueError:
        # Python refuses to read a number of more than 4,300 digits (a guard against slow input).
        raise CommandError(f"{path} holds a number too long to be read") from None


def replay_summary(replay: Replay) -> dict[str, Any]:
    """What `replay --json` prints: the deals and the final score, by side (side 0 = seats 0 and 2).

    For the bot's own record of a rubber, also each game and the rubber points; for an EMN
    match, one such summary per game (the partnerships may change between games).
    """
    if replay.match is not None:  # the bot's own record
        return _match_summary(replay.match, replay.players)
    if replay.variant_match is not None:  # the bot's own record of a variant
        return cli_variants.variant_summary(replay.variant_match, replay.players)
    games = [_egn_summary(game) for game in replay.games]
    if replay.kind == "egn":
        return games[0]
    return {"format": "emn", "games": games}


def _match_summary(match: Match, players: tuple[str, ...]) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "format": "record",
        "players": list(players) or None,
        "options": match.options.to_dict(),
        "deals": _deal_summaries(match.deals, match.game_of_deal),
        "final_score": list(match.scores),
        "over": match.over,
        "winner": match.winner,
    }
    if match.options.is_rubber:
        summary["games"] = [
            {"scores": list(g.scores), "winner": g.winner, "value": g.value, "carried": g.carried}
            for g in match.games
        ]
        summary["rubber_points"] = list(match.rubber_points)
    return summary


def _egn_summary(game: EgnGame) -> dict[str, Any]:
    deals = [d.deal for d in game.deals]
    summaries = _deal_summaries(deals, [0] * len(deals))
    late = {number for number, d in enumerate(game.deals, start=1) if d.after_game}
    for summary in summaries:
        summary["after_game"] = summary["number"] in late
    return {
        "format": "egn",
        "title": game.title,
        "players": list(game.players) or None,
        "points": game.options.points,
        "initial_score": list(game.initial_score),
        "deals": summaries,
        "final_score": list(game.final_score),
        "over": game.over,
        "winner": game.match.winner,
    }


def _deal_summaries(deals: Sequence[Deal], games: Sequence[int]) -> list[dict[str, Any]]:
    """The facts of each deal in which something happened, by side for tricks and points."""
    summaries = []
    for number, (deal, game) in enumerate(zip(deals, games, strict=True), start=1):
        if not deal.history:
            continue  # dealt but not begun: nothing to tell
        result = result_to_dict(deal.result)
        summaries.append(
            {
                "number": number,
                "game": game,
                "dealer": deal.dealer,
                "turn_up": deal.turn_up,
                "maker": deal.maker,
                "trump": deal.trump,
                "alone": deal.alone,
                "defender": deal.defender,
                "outcome": result["outcome"] if result else None,
                "tricks": [deal.won[0] + deal.won[2], deal.won[1] + deal.won[3]],
                "points": result["points"] if result else [0, 0],
                "finished": result is not None,
            }
        )
    return summaries


def replay_text(summary: dict[str, Any]) -> str:
    """What `replay` prints without `--json`: a line per deal, then the final score."""
    if summary["format"] == "variant":
        return cli_variants.variant_text(summary)
    if summary["format"] == "emn":
        return "\n\n".join(
            f"Game {i}\n{_game_text(game)}" for i, game in enumerate(summary["games"], start=1)
        )
    return _game_text(summary)


def _game_text(summary: dict[str, Any]) -> str:
    players = summary.get("players") or []
    names = players if len(players) == SEATS else [f"seat {s}" for s in range(SEATS)]
    lines = []
    if summary.get("title"):
        lines.append(summary["title"])
    lines.append(
        "Seats: "
        + ", ".join(f"{s} {name}" for s, name in enumerate(names))
        + "  (side 0 = seats 0 and 2)"
    )
    if summary.get("initial_score") and summary["initial_score"] != [0, 0]:
        lines.append(f"Starting score {_pair(summary['initial_score'])}")
    game = None
    for deal in summary["deals"]:
        if summary["format"] == "record" and deal["game"] != game:
            game = deal["game"]
            lines.append(f"Game {game + 1}")
        lines.append(_deal_text(deal, names))
    for number, result in enumerate(summary.get("games", []), start=1):
        lines.append(
            f"Game {number}: {_pair(result['scores'])}, won by side {result['winner']}"
            f" (counts {result['value']}{', carries ' + str(result['carried']) if result['carried'] else ''})"
        )
    lines.append(_final_text(summary))
    return "\n".join(lines)


def _deal_text(deal: dict[str, Any], names: Sequence[str]) -> str:
    late = " (after the game was won, not scored)" if deal.get("after_game") else ""
    head = f"Deal {deal['number']}{late}: dealer {names[deal['dealer']]}"
    if deal["maker"] is None:
        return f"{head}, all passed" if deal["finished"] else f"{head}, bidding"
    alone = f", alone ({names[deal['alone']]})" if deal["alone"] is not None else ""
    defence = (
        f", defended alone by {names[deal['defender']]}" if deal["defender"] is not None else ""
    )
    play = (
        f"{deal['outcome']}, points {_pair(deal['points'])}" if deal["finished"] else "not finished"
    )
    return (
        f"{head}; maker {names[deal['maker']]}, trump {deal['trump']}{alone}{defence}; "
        f"tricks {_pair(deal['tricks'])}; {play}"
    )


def _final_text(summary: dict[str, Any]) -> str:
    text = f"Final score: {_pair(summary['final_score'])}"
    if summary.get("rubber_points"):
        text += f"; rubber points {_pair(summary['rubber_points'])}"
    if summary["winner"] is not None:
        text += f"; side {summary['winner']} wins"
    elif not summary["over"]:
        text += " (not finished)"
    return text


def _pair(values: Sequence[int]) -> str:
    return f"{values[0]}-{values[1]}"


# ---------------------------------------------------------------------------------------------
# simulate


Player = Callable[[MatchView, random.Random], str]


def random_player(view: MatchView, rng: random.Random) -> str:
    """A player that takes any legal action at random."""
    return rng.choice(view.deal.legal)


def player_for(level: str, seed: int) -> Player:
    """The player of a level: `random` here, the others from `bot.ai.make_player(level, seed)`.

    Raises:
        CommandError: a level no player is known for.
    """
    if level == "random":
        return random_player
    from bot.ai import make_player

    try:
        player = make_player(level, seed)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    # The computer players draw their own randomness from their seed.
    return lambda view, rng: player.choose(view)


def _add_simulate(subparsers: Subparsers) -> None:
    simulate = subparsers.add_parser(
        "simulate", help="play matches between computer players and print figures"
    )
    simulate.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        help="the rules of four-handed euchre (default somerset; not with --variant)",
    )
    simulate.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one option (repeatable); with --variant, that game's options (points,"
        " rounds, declare_all, euchre_deducts)",
    )
    simulate.add_argument(
        "--matches",
        type=_matches,
        default=100,
        help=f"how many matches, 1 to {MAX_MATCHES} (default 100)",
    )
    simulate.add_argument(
        "--seed", type=int, default=0, help="the seed: the same seed plays the same matches"
    )
    simulate.add_argument(
        "--a", default="random", metavar="LEVEL", help="side 0's players (seats 0 and 2)"
    )
    simulate.add_argument(
        "--b", default="random", metavar="LEVEL", help="side 1's players (seats 1 and 3)"
    )
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    cli_variants.add_arguments(simulate)
    simulate.set_defaults(handler=_simulate)


def _positive(text: str) -> int:
    value = parse_whole(text)  # the one rule for whole numbers (bot/numbers.py)
    if value is None:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _matches(text: str) -> int:
    """Matches to simulate: from 1 to `MAX_MATCHES`, so a simulation always ends."""
    value = _positive(text)
    if value > MAX_MATCHES:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_MATCHES}")
    return value


def _simulate(args: argparse.Namespace) -> int:
    if args.variant:
        if args.preset is not None:
            raise CommandError(
                "--preset is for four-handed euchre, not --variant: a variant's own options"
                " are given with --option (points, rounds, declare_all, euchre_deducts)"
            )
        try:
            report = cli_variants.simulate_variant(args)
        except cli_variants.VariantCommandError as exc:
            raise CommandError(str(exc)) from None
        print(json.dumps(report, indent=2) if args.json else cli_variants.simulate_text(report))
        return EXIT_OK
    if args.players is not None:
        raise CommandError("--players is for --variant: four-handed euchre has four players")
    options = build_options(args.preset or "somerset", **_overrides(args.option))
    if args.a != "random" or args.b != "random":
        if args.record:
            raise CommandError("--record is for matches between random players (no duel)")
        return _simulate_duel(args, options)
    sides = (player_for(args.a, args.seed), player_for(args.b, args.seed + 1))
    played: list[Match] | None = [] if args.record else None
    stats = simulate(options, args.matches, args.seed, sides, played)
    if args.record and played is not None:
        records = [match_to_record(match) for match in played]
        document: Any = records[0] if len(records) == 1 else records
        try:
            args.record.write_text(json.dumps(document, indent=1) + "\n")
        except OSError as exc:
            raise CommandError(f"cannot write {args.record}: {exc.strerror or exc}") from None
    report = stats.report(options, args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(_simulate_text(report))
    return EXIT_OK


def _simulate_duel(args: argparse.Namespace, options: Options) -> int:
    """Computer levels: duplicate matches (`bot.ai.duel`), each pack order played twice with
    the sides swapped; `--matches` is rounded up to an even number."""
    try:
        from bot.ai.duel import describe, run_duel
    except ImportError:
        raise CommandError(
            "computer levels need bot.ai, which is not there yet; use 'random'"
        ) from None
    try:
        result = run_duel(args.a, args.b, options, pairs=(args.matches + 1) // 2, seed=args.seed)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print("\n".join(describe(result)))
    return EXIT_OK


def _overrides(pairs: Sequence[str]) -> dict[str, str]:
    overrides = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise CommandError(f"--option takes NAME=VALUE, not {pair!r}")
        overrides[name.strip()] = value.strip()
    return overrides


@dataclass(slots=True)
class SimulationStats:
    """What `simulate` counts over its matches."""

    matches: int = 0
    games: int = 0
    deals: int = 0
    passed: int = 0
    made_trumps: int = 0
    makers_won: int = 0
    marches: int = 0
    euchres: int = 0
    lone_tried: int = 0
    lone_made: int = 0
    match_wins: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, match: Match) -> None:
        self.matches += 1
        self.games += len(match.games)
        if match.winner is not None:
            self.match_wins[match.winner] += 1
        for result in match.hand_results:
            self.deals += 1
            if result.maker is None:
                self.passed += 1
                continue
            self.made_trumps += 1
            self.makers_won += result.outcome in (MADE, MARCH)
            self.marches += result.outcome == MARCH
            self.euchres += result.outcome == EUCHRED
            if result.alone is not None:
                self.lone_tried += 1
                self.lone_made += result.outcome in (MADE, MARCH)

    def report(self, options: Options, args: argparse.Namespace) -> dict[str, Any]:
        """The figures, as `simulate --json` prints them."""
        return {
            "preset": options.preset,
            "options": options.changed(),
            "matches": self.matches,
            "seed": args.seed,
            "levels": [args.a, args.b],
            "games": self.games,
            "deals": self.deals,
            "hands_per_game": _ratio(self.deals, self.games),
            "passed_out": self.passed,
            "makers": {
                "hands": self.made_trumps,
                "won": self.makers_won,
                "success_rate": _ratio(self.makers_won, self.made_trumps),
                "marches": self.marches,
                "euchred": self.euchres,
            },
            "lone_hands": {"tried": self.lone_tried, "made": self.lone_made},
            "wins_by_side": list(self.match_wins),
            "win_share_by_seat": [
                _ratio(self.match_wins[seat % 2], self.matches) for seat in range(SEATS)
            ],
        }


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def simulate(
    options: Options,
    matches: int,
    seed: int,
    sides: tuple[Player, Player],
    played: list[Match] | None = None,
) -> SimulationStats:
    """Play `matches` matches, side 0 with `sides[0]` and side 1 with `sides[1]`; the same seed
    gives the same figures. With `played`, the matches are kept there, dealt as a table deals
    them: each deal from a seed of its own, with its commitment (for `--record`)."""
    stats = SimulationStats()
    for number in range(matches):
        rng = random.Random(f"{seed}/{number}")
        match = play_match(options, rng, sides, number + 1 if played is not None else None)
        stats.add(match)
        if played is not None:
            played.append(match)
    return stats


def seeded_deals(rng: random.Random, match_no: int) -> Callable[[Options, int], Deal]:
    """Deal as a table deals: each deal from a seed of its own (drawn from `rng`, so the same
    simulation seed gives the same seeds), named by a table numbered 0 for the simulation."""
    number = 0

    def deal(options: Options, dealer: int) -> Deal:
        nonlocal number
        number += 1
        seed = rng.getrandbits(256).to_bytes(32, "big").hex()
        dealt = Deal.from_deck(options, dealer, pack_order(seed, options.pack, options.joker))
        dealt.seed, dealt.deal_id = seed, deal_identity(0, match_no, number)
        return dealt

    return deal


def play_match(
    options: Options,
    rng: random.Random,
    sides: tuple[Player, Player],
    match_no: int | None = None,
) -> Match:
    """One match to its end: `rng` shuffles, cuts for the first dealer and drives the players.
    With `match_no`, every deal comes from a seed of its own (`seeded_deals`)."""
    first_dealer = rng.randrange(SEATS)
    shuffle = random.Random(rng.random())
    factory = seeded_deals(shuffle, match_no) if match_no is not None else None
    match = Match(options, first_dealer=first_dealer, rng=shuffle, deal_factory=factory)
    while not match.over:
        seat = match.to_act
        assert seat is not None  # someone is to act until the match is over
        match.apply(sides[seat % 2](match.view_for(seat), rng), seat)
    return match


def _simulate_text(report: dict[str, Any]) -> str:
    makers, lone = report["makers"], report["lone_hands"]
    shares = ", ".join(
        f"seat {s} {share:.1%}" for s, share in enumerate(report["win_share_by_seat"])
    )
    changed = ", ".join(f"{k}={v}" for k, v in report["options"].items())
    return "\n".join(
        [
            f"{report['matches']} matches, preset {report['preset']}{' (' + changed + ')' if changed else ''}, "
            f"seed {report['seed']}, side 0 {report['levels'][0]} vs side 1 {report['levels'][1]}",
            f"Games: {report['games']}; deals: {report['deals']} ({report['hands_per_game']:.2f} per game), "
            f"{report['passed_out']} passed out",
            f"Makers: {makers['won']} of {makers['hands']} made it ({makers['success_rate']:.1%}); "
            f"{makers['marches']} marches, {makers['euchred']} euchred",
            f"Lone hands: {lone['tried']} tried, {lone['made']} made",
            f"Matches won: side 0 {report['wins_by_side'][0]}, side 1 {report['wins_by_side'][1]}",
            f"Share of wins: {shares}",
        ]
    )
