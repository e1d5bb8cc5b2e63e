"""Last Heroes: the Game (table configuration) and the choice of rules engine.

The engine is chosen here, above both: ``engine="python"`` plays
:class:`~envs.last_heroes.state.LastHeroesState` (the readable reference), ``engine="compiled"``
wraps the same setup in
:class:`~envs.last_heroes.compiled.CompiledState` (the same rules in numba). Neither engine module
imports this one.
"""

from __future__ import annotations

from typing import Any

from envs.core.game import Game, State
from envs.core.options import (
    OBSERVATION_MODE,
    Option,
    is_bool,
    is_number_at_least,
    num_players_option,
    reward_scheme_option,
)
from envs.last_heroes import actions as A
from envs.last_heroes import compiled
from envs.last_heroes.constants import END_REASONS
from envs.last_heroes.content import MAX_PLAYERS, NUM_KINDS, Content, load_content
from envs.last_heroes.observation import OBSERVATION_LAYOUT
from envs.last_heroes.state import LastHeroesState


def _artefact_end_ok(v: Any) -> bool:
    return v in ("immediate", "end_of_turn", "end_of_round")


def _content_ok(v: Any) -> bool:
    return isinstance(v, str)


OPTION_SPEC: tuple[Option, ...] = (
    num_players_option(2, MAX_PLAYERS, 2),
    reward_scheme_option("win_loss", ("win_loss", "rank", "score_margin")),
    Option(
        "shaping_coef", 0.0, "a number >= 0", "weight of potential-based score shaping", check=is_number_at_least(0.0)
    ),
    Option(
        "shape_artefacts", False, "True or False", "count 5 per held artefact in the shaping potential", check=is_bool
    ),
    OBSERVATION_MODE,
    Option(
        "open_hands",
        False,
        "True or False",
        "reveal every hand in the known-cards block (debugging, teachers)",
        check=is_bool,
    ),
    Option("artefacts", True, "True or False", "False: no artefacts or powers; only the 10-round end", check=is_bool),
    Option(
        "artefact_end",
        "immediate",
        '"immediate", "end_of_turn" or "end_of_round"',
        "when the game ends once every artefact is held",
        check=_artefact_end_ok,
    ),
    Option("score_floor", None, "None or 0", "lower bound of the Scoring Wheel", choices=(None, 0)),
    Option(
        "first_player",
        None,
        "None (random) or a seat 0..num_players-1",
        "fix the first player",
        check=lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_PLAYERS),
    ),
    Option(
        "content",
        "default",
        '"default" or a path to a JSON content file',
        "weapon and monster tables",
        check=_content_ok,
    ),
    Option(
        "engine",
        "python",
        '"python" or "compiled"',
        "rules engine: the Python reference, or the same rules compiled with numba (several times "
        "faster per step; same transitions, observations and rewards)",
        choices=("python", "compiled"),
    ),
)


class LastHeroesGame(Game):
    """Last Heroes, 2-5 players. See docs/last_heroes.md for the rules as implemented."""

    env_id = "last_heroes_v0"
    min_players = 2
    max_players = MAX_PLAYERS
    action_layout = A.LAYOUT
    option_spec = OPTION_SPEC
    end_reasons = tuple(END_REASONS.values())
    shaping_option = "shaping_coef"

    observation_layout = OBSERVATION_LAYOUT
    training_options = {"shaping_coef": 1.0, "engine": "compiled"}

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        n = self.num_players
        if o["first_player"] is not None and o["first_player"] >= n:
            raise ValueError(f"option first_player={o['first_player']} is not allowed; it must be None or 0..{n - 1}")
        self.content: Content = load_content(o["content"])
        c = self.content
        self.kind_type = c.kind_type
        self.kind_power = c.kind_power
        self.kind_ammo = c.kind_ammo
        self.kinds_in_play = tuple(k for k in range(NUM_KINDS) if c.kind_type[k] < n)
        self.use_artefacts: bool = o["artefacts"]
        self.level_ids = tuple(tuple(m.id for m in c.monsters if m.level == lv) for lv in (1, 2, 3))

        def counts(powers):
            return (powers.count(1), powers.count(2), powers.count(3))

        self.req_full = tuple(counts(m.impacts) for m in c.monsters)
        self.req_bright = tuple(counts(m.bright) for m in c.monsters)
        self.monster_vp = tuple(m.vp for m in c.monsters)
        self.monster_level = tuple(m.level for m in c.monsters)
        self.compiled = o["engine"] == "compiled"
        if self.compiled:
            self.compiled_array = compiled.game_array(self)

    def max_game_length(self) -> int:
        # 2 setup picks each, 8 decisions per turn at most, 7 for the one-off powers (docs 6.3).
        return 82 * self.num_players + 7

    def new_state(self, seed: int | None = None) -> State:
        return self._engine_state(LastHeroesState.new(self, seed))

    def state_from_json(self, data: dict[str, Any], *, check: bool = True, check_box: bool = True) -> State:
        """The state of ``data`` (``State.to_json()``), every field checked first: a damaged state is a
        ValueError naming its JSON path (validation.validate). ``check_box=False`` admits hand-made
        positions that hold more copies of a card than the box, or leave monsters out; ``check=False``
        is for data the rules themselves just wrote."""
        return self._engine_state(LastHeroesState.from_json(self, data, check, check_box))

    def _engine_state(self, state: LastHeroesState) -> State:
        return compiled.CompiledState(self, state) if self.compiled else state
