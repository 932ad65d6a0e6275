"""Options and presets: what a table plays by (RULES.md §1).

A table is created from a preset plus single overrides. `build_options` merges them, checks every
value and every combination, and returns a frozen `Options`, so the rest of the engine never has
to ask whether an option makes sense.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from bot.engine.errors import OptionsError

LEFT_OF_DEALER = "left_of_dealer"
LEFT_OF_LONER = "left_of_loner"
RUBBER = "rubber"
GAME = "game"


@dataclass(frozen=True, slots=True)
class Options:
    """Everything a four-handed table plays by. Field names are the option names players see."""

    preset: str = "somerset"
    pack: int = 32  # 32 or 24 cards
    joker: bool = False  # add a Joker, the highest trump (RULES.md §6)
    points: int = 5  # points for a game (S.2)
    match: str = RUBBER  # "rubber" (best of three, S.1) or "game"
    lap: bool = True  # points beyond a game carry into the next (S.1 glossary)
    double_game: bool = True  # a game counts two when the losers scored nothing (S.7)
    march_points: int = 2  # partnership takes all five tricks (S.2)
    made_points: int = 1  # makers take three or four tricks
    euchred_points: int = 2  # to the adversaries when the makers are euchred
    lone_march_points: int = 4  # lone hand takes all five (S.3; H scores 3)
    lone_made_points: int = 1
    lone_euchred_points: int = 4  # to the adversaries when a lone hand is euchred
    partner_alone: bool = True  # "I take it from you" (S.74-S.76, S.94)
    stick_the_dealer: bool = False  # the dealer must name a trump in round two
    defend_alone: bool = False  # an adversary may defend alone against a lone hand
    defend_alone_points: int = 4  # to a lone defender who euchres the lone hand
    discard_turn_up: bool = False  # may the dealer discard the turn-up? (S.88 says no)
    loner_lead: str = LEFT_OF_DEALER  # who leads to a lone hand (J.9), or left of the loner

    @property
    def is_rubber(self) -> bool:
        return self.match == RUBBER

    @property
    def lowest_rank(self) -> str:
        return "7" if self.pack == 32 else "9"

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, as stored in a table's settings and its game record."""
        # Every option is a str, int or bool, so this is what `asdict` gives, without its deep
        # copy of each field: recording a finished hand asks for it several times.
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    def changed(self) -> dict[str, Any]:
        """The options that differ from this preset's defaults."""
        base = PRESETS[self.preset]
        return {k: v for k, v in self.to_dict().items() if getattr(base, k) != v}


_OPTION_NAMES = tuple(f.name for f in fields(Options))


PRESETS: dict[str, Options] = {
    "somerset": Options(),
    "jerome": Options(
        preset="jerome",
        match=GAME,
        lap=False,
        double_game=False,
        discard_turn_up=True,
    ),
    "modern": Options(
        preset="modern",
        pack=24,
        points=10,
        match=GAME,
        lap=False,
        double_game=False,
        lone_euchred_points=2,
        partner_alone=False,
        stick_the_dealer=True,
        discard_turn_up=True,
    ),
}
DEFAULT_PRESET = "somerset"

_FIELD_TYPES = {f.name: f.type for f in fields(Options)}
_CHOICES = {
    "preset": tuple(PRESETS),
    "pack": (24, 32),
    "match": (RUBBER, GAME),
    "loner_lead": (LEFT_OF_DEALER, LEFT_OF_LONER),
}
_RUBBER_ONLY = ("lap", "double_game")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _coerce(name: str, value: Any) -> Any:
    kind = _FIELD_TYPES[name]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise OptionsError(f"option '{name}' must be true or false, not {value!r}")
    if kind == "int":
        if isinstance(value, bool):
            raise OptionsError(f"option '{name}' must be a whole number, not {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise OptionsError(f"option '{name}' must be a whole number, not {value!r}") from None
    return str(value).strip().lower()


def build_options(preset: str | None = None, **overrides: Any) -> Options:
    """A frozen `Options` from a preset (default `somerset`) and single overrides.

    Overrides whose value is None are ignored, so optional command arguments can be passed
    straight through. Choosing `match="game"` turns off the rubber-only options (lap, double
    game) unless they are set explicitly, in which case the combination is refused.

    Raises:
        OptionsError: an unknown preset or option, a bad value, or options that cannot go
            together; the message names the option.
    """
    name = (preset or DEFAULT_PRESET).strip().lower()
    if name not in PRESETS:
        raise OptionsError(f"unknown preset {preset!r}: choose {', '.join(PRESETS)}")
    given = {k: v for k, v in overrides.items() if v is not None}
    for key in given:
        if key not in _FIELD_TYPES or key == "preset":
            raise OptionsError(f"unknown option '{key}'")
    values = {key: _coerce(key, value) for key, value in given.items()}
    if values.get("match") == GAME:
        for key in _RUBBER_ONLY:
            values.setdefault(key, False)
    return validate(replace(PRESETS[name], **values))


def validate(options: Options) -> Options:
    """Check every value and combination of a built `Options`; return it unchanged.

    Raises:
        OptionsError: naming the first option at fault.
    """
    for key, allowed in _CHOICES.items():
        if getattr(options, key) not in allowed:
            shown = ", ".join(str(a) for a in allowed)
            raise OptionsError(
                f"option '{key}' must be one of {shown}, not {getattr(options, key)!r}"
            )
    if not 1 <= options.points <= 100:
        raise OptionsError("option 'points' must be from 1 to 100")
    for key in (
        "march_points",
        "made_points",
        "euchred_points",
        "lone_march_points",
        "lone_made_points",
        "lone_euchred_points",
        "defend_alone_points",
    ):
        if not 0 <= getattr(options, key) <= 100:
            raise OptionsError(f"option '{key}' must be from 0 to 100")
    if options.lap:
        # A lap is at most the largest hand less one; were it a whole game, the next game
        # would begin already won.
        largest = max(
            options.march_points,
            options.made_points,
            options.euchred_points,
            options.lone_march_points,
            options.lone_made_points,
            options.lone_euchred_points,
            options.defend_alone_points if options.defend_alone else 0,
        )
        if options.points < largest:
            raise OptionsError(
                f"lap needs a game of at least {largest} points, the most one hand can score"
            )
    if not options.is_rubber:
        for key in _RUBBER_ONLY:
            if getattr(options, key):
                raise OptionsError(
                    f"option '{key}' needs match 'rubber': a single game has nothing to carry into or double"
                )
    return options


def options_from_dict(data: dict[str, Any]) -> Options:
    """Options back from `Options.to_dict()` (a stored table or a record)."""
    data = dict(data)
    preset = data.pop("preset", DEFAULT_PRESET)
    known = {k: v for k, v in data.items() if k in _FIELD_TYPES}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise OptionsError(f"unknown option '{unknown[0]}'")
    # Rubber-only values are explicit here, so build from the preset and replace them all.
    if preset not in PRESETS:
        raise OptionsError(f"unknown preset {preset!r}: choose {', '.join(PRESETS)}")
    values = {k: _coerce(k, v) for k, v in known.items()}
    return validate(replace(PRESETS[preset], **values))
