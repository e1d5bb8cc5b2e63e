"""Heroes and Monsters, the game: its options and :class:`HeroesAndMonstersGame`, the immutable
configuration of one table (player count, Adversary, Generals, scaling) and the factory of its
states (``new_state`` runs ``setup.py``; ``state_from_json`` rebuilds a state from its JSON form).

The rules as implemented are in docs/heroes_and_monsters.md (section numbers refer to it).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from envs.core.game import Game
from envs.core.options import (
    OBSERVATION_MODE,
    Option,
    is_bool,
    is_finite_number,
    is_int_in,
    num_players_option,
    reward_scheme_option,
)
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT
from envs.heroes_and_monsters.content import ADVERSARY_KEYS, GENERAL_KEYS, GENERALS, INVADERS
from envs.heroes_and_monsters.effects import END_REASONS
from envs.heroes_and_monsters.observation import OBSERVATION_LAYOUT
from envs.heroes_and_monsters.setup import new_state
from envs.heroes_and_monsters.state import HeroesAndMonstersState
from envs.heroes_and_monsters.turn import PHASES
from envs.heroes_and_monsters.validation import check_state_json

#: Per-event weights of the "shaped" reward scheme (docs 7).
DEFAULT_SHAPING_WEIGHTS = {"defeat": 0.05, "marker": 0.01, "thwart": 0.15, "fortress_lost": -0.02, "heal": 0.02}
#: decisions one turn may take at most (the step cap is max_rounds * players * this, or max_steps)
MAX_STEPS_PER_TURN = 200


def _is_general_ref(v: Any) -> bool:
    if isinstance(v, str):
        return v in GENERAL_KEYS
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(GENERALS)


def _generals_ok(v: Any) -> bool:
    return v is None or (isinstance(v, (list, tuple)) and 1 <= len(v) <= C.MAX_PLAYERS and all(map(_is_general_ref, v)))


def _weights_ok(v: Any) -> bool:
    return v is None or (
        isinstance(v, dict) and set(v) <= set(DEFAULT_SHAPING_WEIGHTS) and all(is_finite_number(x) for x in v.values())
    )


def _thresholds_ok(v: Any) -> bool:
    return (
        isinstance(v, (list, tuple))
        and len(v) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        and 54 >= v[0] >= v[1] >= 0
    )


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(1, C.MAX_PLAYERS, 2),
    reward_scheme_option(
        "win_loss",
        ("win_loss",),
        {
            "shaped": "win_loss plus, to every seat when it happens: +0.05 per Invader defeated, +0.01 per "
            "marker, +0.15 per Plan thwarted, -0.02 per Fortress card destroyed or milled, +0.02 per card "
            "healed (weights: `shaping_weights`)"
        },
    ),
    Option(
        "shaping_weights",
        None,
        f"None or a dict with some of the keys {sorted(DEFAULT_SHAPING_WEIGHTS)} (numbers)",
        'overrides of the per-event weights of reward_scheme="shaped"',
        check=_weights_ok,
    ),
    Option(
        "adversary",
        "randall",
        '"randall", "sylvaen", "thargrim" or "random"',
        "the Adversary (random: drawn at setup)",
        choices=ADVERSARY_KEYS + ("random",),
    ),
    Option(
        "generals",
        None,
        f"None (random) or a list of num_players distinct General keys {list(GENERAL_KEYS)} or ids 0-5",
        "the General of each seat",
        check=_generals_ok,
    ),
    OBSERVATION_MODE,
    Option("max_rounds", 20, "an integer from 1 to 100", "round limit (a loss when reached)", check=is_int_in(1, 100)),
    Option(
        "rotate_first_player",
        True,
        "True or False",
        "the first-player marker passes clockwise each round",
        check=is_bool,
    ),
    Option(
        "support_window",
        "pre_combat",
        '"pre_combat" or "none"',
        "one window before Combat for the other players' discard-cost effects, or none",
        choices=("pre_combat", "none"),
    ),
    Option(
        "victory_target",
        None,
        "None or an integer from 1 to 60",
        "Invaders to defeat against Randall (None: 8/13/14/15 for 1-4 players)",
        check=lambda v: v is None or is_int_in(1, 60)(v),
    ),
    Option(
        "toughness",
        None,
        "None or an integer from -3 to 5",
        "added to every Invader health level, minimum 1 (None: -1/0/+1/+2 for 1-4 players)",
        check=lambda v: v is None or is_int_in(-3, 5)(v),
    ),
    Option(
        "threat_thresholds",
        (30, 15),
        "a pair of integers (a, b) with 54 >= a >= b >= 0",
        "Threat 2 when the Fortress deck is below a, Threat 3 when below b",
        check=_thresholds_ok,
    ),
    Option(
        "max_steps",
        20000,
        "an integer from 1 to 1000000",
        "safety truncation cap on decisions",
        check=is_int_in(1, 10**6),
    ),
)


def _general_id(ref: Any) -> int:
    return GENERAL_KEYS.index(ref) if isinstance(ref, str) else int(ref)


class HeroesAndMonstersGame(Game):
    """Heroes and Monsters, 1-4 cooperating players. See docs/heroes_and_monsters.md."""

    env_id = "heroes_and_monsters_v0"
    min_players = 1
    max_players = C.MAX_PLAYERS
    cooperative = True
    action_layout = LAYOUT
    observation_layout = OBSERVATION_LAYOUT
    option_spec = OPTION_SPEC
    end_reasons = tuple(END_REASONS.values())
    shaping_option = "reward_scheme"

    @classmethod
    def shaping_weight(cls, options: Mapping[str, Any]) -> float:
        """1 under ``reward_scheme="shaped"``: its event terms are what ``shaping_potentials()`` counts."""
        return 1.0 if options.get("reward_scheme") == "shaped" else 0.0

    @classmethod
    def shaping_bound(cls, options: Mapping[str, Any]) -> float:
        # a generous cap: 60 events of the heaviest weight (games end near 30 Invaders defeated)
        weights = dict(DEFAULT_SHAPING_WEIGHTS, **(options.get("shaping_weights") or {}))
        return 60.0 * max(abs(float(w)) for w in weights.values())

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        n = self.num_players
        self.generals: tuple[int, ...] | None = None
        if o["generals"] is not None:
            ids = tuple(_general_id(g) for g in o["generals"])
            if len(ids) != n:
                raise ValueError(
                    f"option generals={o['generals']!r} is not allowed; it must name {n} Generals, one per seat"
                )
            if len(set(ids)) != n:
                raise ValueError(f"option generals={o['generals']!r} is not allowed; the Generals must be distinct")
            races = [GENERALS[g].race for g in ids]
            if n <= 3 and len(set(races)) < n:
                warnings.warn(
                    "Generals of the same race with 3 or fewer players (the rulebook says to avoid it)", stacklevel=2
                )
            self.generals = ids
        self.toughness = C.TOUGHNESS[n - 1] if o["toughness"] is None else o["toughness"]
        #: each Invader type's health levels at this table: printed + toughness, at least 1 (4.4)
        self.invader_levels = tuple(tuple(max(1, h + self.toughness) for h in inv.health) for inv in INVADERS)
        self.victory_target = C.VICTORY_TARGET[n - 1] if o["victory_target"] is None else o["victory_target"]
        self.weights = dict(DEFAULT_SHAPING_WEIGHTS, **(o["shaping_weights"] or {}))
        self.shaped = o["reward_scheme"] == "shaped"
        self.thresholds = tuple(o["threat_thresholds"])
        self.step_cap = min(o["max_steps"], o["max_rounds"] * n * MAX_STEPS_PER_TURN)

    def max_game_length(self) -> int:
        return self.step_cap

    def new_state(self, seed: int | None = None) -> HeroesAndMonstersState:
        return new_state(self, seed)

    def state_from_json(self, data: Mapping[str, Any], *, check_box: bool = True) -> HeroesAndMonstersState:
        """Rebuild a state written by ``to_json`` (or by hand), after :func:`~.validation.check_state_json`
        has checked it: a ValueError names the first field no game could hold. ``check_box=False`` skips
        only the conservation of the box (for test positions with made-up piles, e.g. a deck of Ghouls)."""
        check_state_json(self, data, check_box)
        state = HeroesAndMonstersState.from_json(self, data)
        if state.result is None and not state.legal_mask().any():
            raise ValueError(f"phase: {PHASES[state.phase]} leaves seat {state.current_player} no legal action")
        return state
