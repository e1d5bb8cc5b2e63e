"""Lost Legends, the game: :class:`LostLegendsGame`, its options (docs section 10) and the state factory.

Pure rules: no gymnasium or PettingZoo here. The package's roles: :mod:`~envs.lost_legends.content`
(cards, heroes, monsters as data), :mod:`~envs.lost_legends.actions` (the action ids),
:mod:`~envs.lost_legends.state` (the State: fields, legal mask, apply, JSON), the phases as plain
functions (:mod:`~envs.lost_legends.draft`, :mod:`~envs.lost_legends.combat`,
:mod:`~envs.lost_legends.scoring`, over the shared names of :mod:`~envs.lost_legends.common`),
:mod:`~envs.lost_legends.text`, :mod:`~envs.lost_legends.observation`, :mod:`~envs.lost_legends.heuristic`,
:mod:`~envs.lost_legends.board`, :mod:`~envs.lost_legends.docs` and :mod:`~envs.lost_legends.env`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envs.core.game import Game
from envs.core.options import (
    OBSERVATION_MODE,
    Option,
    is_bool,
    is_int_in,
    is_number_at_least,
    num_players_option,
    reward_scheme_option,
)
from envs.lost_legends import actions as A
from envs.lost_legends.common import END_REASONS
from envs.lost_legends.content import CARDS, HERO_NAMES, LEVEL_EQUIPMENT, MAX_PLAYERS
from envs.lost_legends.observation import OBSERVATION_LAYOUT
from envs.lost_legends.state import LostLegendsState
from envs.lost_legends.validation import check_state_json


def _heroes_ok(v: Any) -> bool:
    return v is None or (
        isinstance(v, (list, tuple)) and all(h in HERO_NAMES for h in v) and len(set(v)) == len(v) and 3 <= len(v) <= 5
    )


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(3, MAX_PLAYERS, 4),
    reward_scheme_option(
        "win_loss",
        ("win_loss", "rank", "score_margin"),
        {
            "shaped": "potential-based: each step the change of (own provisional score - mean of the others') "
            "/ shaped_scale, plus shaped_terminal_weight x win_loss at the end"
        },
    ),
    Option(
        "heroes",
        None,
        f"None (random distinct heroes) or a list of num_players distinct names from {list(HERO_NAMES)}",
        "the hero of each seat",
        check=_heroes_ok,
    ),
    Option(
        "starting_player",
        None,
        "None (random) or a seat 0..num_players-1",
        "the first starting player",
        check=lambda v: v is None or is_int_in(0, MAX_PLAYERS - 1)(v),
    ),
    Option("shaped_scale", 40.0, "a number >= 1", "divisor of the shaped potential", check=is_number_at_least(1.0)),
    Option(
        "shaped_terminal_weight",
        1.0,
        "a number >= 0",
        "weight of the win/loss reward added at the end under shaped",
        check=is_number_at_least(0.0),
    ),
    Option(
        "mask_useless_actions",
        True,
        "True or False",
        "hide legal but pointless uses (a block that prevents nothing, RESTORE at full mana)",
        check=is_bool,
    ),
    Option(
        "combat_turn_cap_per_player",
        12,
        "an integer from 1 to 100",
        "performed combat turns per player after which the phase end fires (termination safeguard)",
        check=is_int_in(1, 100),
    ),
    Option("max_steps", 50_000, "an integer from 100 to 1000000", "truncation safety net", check=is_int_in(100, 10**6)),
    OBSERVATION_MODE,
)


class LostLegendsGame(Game):
    """Lost Legends, 3-5 players. See docs/lost_legends.md for the rules as implemented."""

    env_id = "lost_legends_v0"
    min_players = 3
    max_players = MAX_PLAYERS
    cooperative = False
    action_layout = A.LAYOUT
    observation_layout = OBSERVATION_LAYOUT
    option_spec = OPTION_SPEC
    end_reasons = END_REASONS
    shaping_option = "reward_scheme"

    @classmethod
    def shaping_weight(cls, options: Mapping[str, Any]) -> float:
        """1 under ``reward_scheme="shaped"``, whose rewards are the change of ``State.potentials()``
        (plus the result at the end; the search takes it at ``shaped_terminal_weight`` 1, the default)."""
        return 1.0 if options.get("reward_scheme") == "shaped" else 0.0

    @classmethod
    def shaping_bound(cls, options: Mapping[str, Any]) -> float:
        # a seat's score minus the others' mean stays far under 200 points (a whole game scores ~80)
        return 200.0 / float(options.get("shaped_scale") or 40.0)

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        n = self.num_players
        if o["heroes"] is not None and len(o["heroes"]) != n:
            raise ValueError(
                f"option heroes={o['heroes']!r} is not allowed; give {n} distinct names from {list(HERO_NAMES)}"
            )
        if o["starting_player"] is not None and o["starting_player"] >= n:
            raise ValueError(
                f"option starting_player={o['starting_player']} is not allowed; it must be None or 0..{n - 1}"
            )
        # Equipment in play at this table: the removal by player number (1.4).
        self.equipment_in_play = tuple(tuple(c for c in ids if CARDS[c].players <= n) for ids in LEVEL_EQUIPMENT)
        self.equipment_removed = tuple(c for ids in LEVEL_EQUIPMENT for c in ids if CARDS[c].players > n)

    def max_game_length(self) -> int:
        return self.options["max_steps"]

    def new_state(self, seed: int | None = None) -> LostLegendsState:
        return LostLegendsState.new(self, seed)

    def state_from_json(self, data: dict[str, Any]) -> LostLegendsState:
        """The state written in ``data``, checked first (:mod:`~envs.lost_legends.validation`): a
        ValueError names the first field that is not a Lost Legends state of this table."""
        check_state_json(self, data)
        try:
            state = LostLegendsState.from_json(self, data)
        except (IndexError, KeyError, TypeError, AttributeError) as err:  # a safety net: the checks should catch it
            raise ValueError(
                f"tasks: the rule steps of this position cannot run ({type(err).__name__}: {err})"
            ) from err
        if data.get("decision") is None and not state.is_over():
            check_state_json(self, state.to_json())  # the decision the tasks ran to
        if not state.is_over() and not state.legal_mask().any():
            raise ValueError(f"decision: {data.get('decision') or 'the decision reached'} has no legal action here")
        return state
