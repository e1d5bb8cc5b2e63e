"""Declared, validated environment options, and the options every game shares.

Each game lists its options once as :class:`Option` rows; :func:`resolve_options` fills the
defaults and rejects unknown names and bad values with a message that says what is allowed.

The options every game has are declared here, once, with one vocabulary:

- the game's: ``num_players`` (:func:`num_players_option`), ``reward_scheme``
  (:func:`reward_scheme_option`, names from :data:`REWARD_SCHEMES` plus any a game adds) and
  ``observation_mode`` (:data:`OBSERVATION_MODE`);
- the AEC driver's (:data:`DRIVER_OPTIONS`): ``illegal_action``, ``auto_skip_forced``,
  ``render_mode`` and ``infos``. The rules never see them; :func:`split_options` separates them from a game's
  options for every caller that builds a Game from env options.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One environment option: its default, what it accepts, and what it does."""

    name: str
    default: Any
    allowed: str
    doc: str
    choices: tuple | None = None
    check: Callable[[Any], bool] | None = field(default=None, compare=False)

    def validate(self, value: Any) -> Any:
        ok = value in self.choices if self.choices is not None else True
        if ok and self.check is not None:
            try:
                ok = bool(self.check(value))
            except (TypeError, ValueError):
                ok = False
        if not ok:
            finite = " (finite: NaN and infinities are refused)" if _has_non_finite(value) else ""
            raise ValueError(f"option {self.name}={value!r} is not allowed; {self.name} must be {self.allowed}{finite}")
        return value


def is_finite_number(v: Any) -> bool:
    """An int or float (not a bool) that is finite: not NaN, an infinity or an int too large for a float."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(v)
    except OverflowError:  # an int too large for a float
        return False


def _has_non_finite(value: Any) -> bool:
    """``value`` is, or holds at the top of a list or dict, a NaN or an infinity."""
    items = value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else [value]
    return any(isinstance(v, float) and not math.isfinite(v) for v in items)


def is_int_in(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def is_number_at_least(low: float) -> Callable[[Any], bool]:
    return lambda v: is_finite_number(v) and v >= low


def resolve_options(spec: Iterable[Option], given: Mapping[str, Any], what: str) -> dict[str, Any]:
    """Defaults filled in, every value checked; unknown names are an error naming the allowed ones."""
    spec = list(spec)
    by_name = {o.name: o for o in spec}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise ValueError(f"{what}: unknown option(s) {unknown}; allowed options are {sorted(by_name)}")
    return {o.name: o.validate(given.get(o.name, o.default)) for o in spec}


def options_markdown_table(spec: Iterable[Option]) -> str:
    rows = ["| Option | Default | Allowed | Effect |", "|---|---|---|---|"]
    for o in spec:
        rows.append(f"| `{o.name}` | `{o.default!r}` | {o.allowed} | {o.doc} |")
    return "\n".join(rows)


# -- the options every game shares --------------------------------------------------------------

#: Reward schemes with one meaning in every game; a game picks those it supports and may add its own.
REWARD_SCHEMES: dict[str, str] = {
    "win_loss": "+1 every winning seat, -1 every other seat, at the end (cooperative: the whole team "
    "+1 on a win, -1 on a loss)",
    "rank": "1 - 2 (position - 1) / (n - 1) by final position, ties averaged (competitive)",
    "score_margin": "clip((own score - best other score) / scale, -1, 1) (competitive)",
    "score": "the final score, scaled into [-1, 1] as the game documents (cooperative: the score sheet)",
}


def num_players_option(low: int, high: int, default: int) -> Option:
    seats = f"an integer from {low} to {high}" if high > low else f"{low}"
    return Option("num_players", default, seats, "seats at the table", check=is_int_in(low, high))


def reward_scheme_option(default: str, schemes: Iterable[str], own: Mapping[str, str] | None = None) -> Option:
    """``reward_scheme`` with the shared ``schemes`` (names in :data:`REWARD_SCHEMES`) and the game's ``own``."""
    own = dict(own or {})
    names = list(schemes)
    unknown = [s for s in names if s not in REWARD_SCHEMES]
    if unknown:
        raise ValueError(f"unknown shared reward scheme(s) {unknown}; shared ones are {list(REWARD_SCHEMES)}")
    clash = [s for s in own if s in REWARD_SCHEMES]
    if clash:
        raise ValueError(f"reward scheme(s) {clash} are shared names with a fixed meaning; pick another name")
    names += list(own)
    if default not in names:
        raise ValueError(f"default reward scheme {default!r} is not among {names}")
    meaning = {**REWARD_SCHEMES, **own}
    doc = "; ".join(f"`{n}`: {meaning[n]}" for n in names)
    quoted = [f'"{n}"' for n in names]
    allowed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return Option("reward_scheme", default, allowed, doc, choices=tuple(names))


OBSERVATION_MODE = Option(
    "observation_mode", "vector", '"vector" or "dict"', "flat vector, or named arrays", choices=("vector", "dict")
)

DRIVER_OPTIONS: tuple[Option, ...] = (
    Option(
        "illegal_action",
        "raise",
        '"raise" or "penalize"',
        "raise IllegalActionError, or end the game with -1 for the offender and 0 for the others "
        "(cooperative games: -1 for the whole team)",
        choices=("raise", "penalize"),
    ),
    Option(
        "auto_skip_forced",
        False,
        "True or False",
        "let the engine play every decision that has exactly one legal action",
        check=is_bool,
    ),
    Option("render_mode", None, 'None, "ansi" or "human"', "text rendering", choices=(None, "ansi", "human")),
    Option(
        "infos",
        "lean",
        '"lean" or "rich"',
        "lean: the same numeric keys at every step (winners, end_reason); rich: plus the game's own facts",
        choices=("lean", "rich"),
    ),
)
DRIVER_NAMES = frozenset(o.name for o in DRIVER_OPTIONS)


def split_options(game_cls: Any, options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(driver options with defaults filled and checked, the game's options as given)``.

    Unknown names are a ValueError listing every option the env allows; the game's values are
    checked when the Game is built from them.
    """
    allowed = DRIVER_NAMES | {o.name for o in game_cls.option_spec}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValueError(f"{game_cls.env_id}: unknown option(s) {unknown}; allowed options are {sorted(allowed)}")
    driver = {o.name: o.validate(options.get(o.name, o.default)) for o in DRIVER_OPTIONS}
    return driver, {k: v for k, v in options.items() if k not in DRIVER_NAMES}
