"""Last Bastion's Game: :class:`LastBastionGame` (one table's configuration and the factory of its
states) and its options (:data:`OPTION_SPEC`). The state and the rules are in ``state.py`` and the
phase modules it names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envs.core.game import Game
from envs.core.options import OBSERVATION_MODE, Option, is_int_in, num_players_option, reward_scheme_option
from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.observation import OBSERVATION_LAYOUT, observation_layout
from envs.last_bastion.state import LastBastionState, new_state, state_from_json


def _heroes_ok(v: Any) -> bool:
    if v is None:
        return True
    names = list(v)
    return all(n in C.HERO_BY_NAME for n in names) and len(set(names)) == len(names) and 1 <= len(names) <= 4


def _layout_ok(v: Any) -> bool:
    return v is None or (sorted(v) == sorted(t.name for t in C.TILES))


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(1, 4, 4),
    reward_scheme_option(
        "win_loss",
        ("win_loss",),
        {
            "score_sheet": "victory 1 + S/20 (S the score-sheet total), defeat -1, truncation 0",
            "shaped": "win_loss plus dense team terms: +0.02 per Monster and +0.2 per Warlord vanquished, "
            "-0.03 per Life lost, -0.1 per tile grasped, +0.05 per Grasp removed",
        },
    ),
    Option(
        "difficulty",
        "normal",
        '"novice", "normal", "difficult" or "heroic"',
        "deck size, Warlords, Novice extras",
        choices=C.DIFFICULTIES,
    ),
    Option(
        "heroes",
        None,
        "None (random) or a list of num_players distinct hero names " + ", ".join(h.name for h in C.HEROES),
        "heroes in agent order (player_0 first)",
        check=_heroes_ok,
    ),
    Option(
        "effect_order",
        "choose",
        '"choose" or "fixed"',
        "the controller orders simultaneous differing effects, or slot order",
        choices=("choose", "fixed"),
    ),
    Option(
        "max_board_turns",
        400,
        "an integer 1..10000",
        "truncation cap in board-turns (neutral ones included)",
        check=is_int_in(1, 10_000),
    ),
    Option(
        "obs_card_ids",
        False,
        "True or False",
        "append a card-id one-hot per space and for the pending card (+780 floats)",
        check=lambda v: isinstance(v, bool),
    ),
    Option(
        "obs_hints",
        False,
        "True or False",
        "append the rule-based bot's worth of each MAIN choice (envs/last_bastion/hints.py, +52 floats)",
        check=lambda v: isinstance(v, bool),
    ),
    Option(
        "tile_layout",
        None,
        "None (random) or a list of the 9 tile names",
        "fixed Bastion layout, by position 0-8",
        check=_layout_ok,
    ),
    OBSERVATION_MODE,
)


class LastBastionGame(Game):
    env_id = "last_bastion_v0"
    min_players, max_players = 1, 4
    cooperative = True
    option_spec = OPTION_SPEC
    end_reasons = tuple(C.RESULTS.values())
    observation_options = ("obs_card_ids", "obs_hints")
    shaping_option = "reward_scheme"

    action_layout = LAYOUT
    observation_layout = OBSERVATION_LAYOUT

    def __init__(self, **options: Any):
        super().__init__(**options)
        heroes = self.options["heroes"]
        if heroes is not None and len(list(heroes)) != self.num_players:
            raise ValueError(
                f"option heroes={heroes!r} must name exactly num_players={self.num_players} distinct heroes "
                f"among {[h.name for h in C.HEROES]}"
            )
        self.warlords = C.WARLORD_COUNT[self.options["difficulty"]]
        self.observation_layout = observation_layout(self.options["obs_card_ids"], self.options["obs_hints"])

    @classmethod
    def shaping_weight(cls, options: Mapping[str, Any]) -> float:
        """1 under ``reward_scheme="shaped"``: its event terms are what ``shaping_potentials()`` counts."""
        return 1.0 if options.get("reward_scheme") == "shaped" else 0.0

    @classmethod
    def shaping_bound(cls, options: Mapping[str, Any]) -> float:
        return C.SHAPING_BOUND

    def max_game_length(self) -> int:
        return self.options["max_board_turns"] * 200

    def new_state(self, seed: int | None = None) -> LastBastionState:
        return new_state(self, seed)

    def state_from_json(self, data: dict[str, Any]) -> LastBastionState:
        return state_from_json(self, data)
