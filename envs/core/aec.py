"""TurnBasedEnv: the one PettingZoo AECEnv that drives any herozoo Game.

PettingZoo's classic envs repeat the same reset bookkeeping, dead-step guard and wrapper chain
in every file; here they are written once. The usual wrapper chain (TerminateIllegal,
AssertOutOfBounds, OrderEnforcing) costs about as much per decision as a whole small game
step, mostly in forwarded attribute lookups, so this class enforces call order, action bounds
and legality itself, in one layer. ``env()`` and ``raw_env()`` therefore return the same
checked class. A game's rules are ``State.apply_legal(action)``, ``apply()`` without the legality
check: the driver, which has just checked the action against the mask, calls it directly
(``State.apply()``, the shared check, raises IllegalActionError for any other caller). A State class
of its own making that overrides ``apply()`` only is driven through ``apply()``.

The driver's own options (``envs.core.options.DRIVER_OPTIONS``, declared there with the options
every game shares):

| Option | Default | Effect |
|---|---|---|
| `illegal_action` | `"raise"` | `"raise"`: IllegalActionError; `"penalize"`: the game ends, offender -1, others 0 |
| `auto_skip_forced` | `False` | `True`: the engine plays every decision that has exactly one legal action |
| `render_mode` | `None` | `"ansi"` returns the text board, `"human"` prints it |
| `infos` | `"lean"` | `"lean"`: the same numeric keys at every step (below); `"rich"`: plus the game's facts |

A penalized cooperative game is a loss for the whole team: every seat gets -1.

**Infos.** Libraries that store infos in buffers or specs (Tianshou, TorchRL) need the same keys,
shapes and dtypes at every step, from reset to the end. The lean infos (the default) are exactly:

| Key | Type | Meaning |
|---|---|---|
| `winners` | `int8[num_players]` | 1 for each seat that won (a cooperative win: every seat), 0 while the game runs |
| `end_reason` | `int` | 0 while the game runs, else the code of why it ended (`env.end_reasons[code]`) |

The codes are 0 ``"running"``, 1 ``"illegal action"`` (``illegal_action="penalize"``), then the
game's own ``Game.end_reasons`` in order (generated per game in its env docstring). ``infos="rich"``
adds the game's ``State.info()`` (phase, round, final scores... strings and lists included) and,
on a penalized step, ``illegal_action`` and ``offender``; the outcome itself is always
``env.game_state.outcome()``.

**State.** ``env.game_state`` is the rules state (:class:`~envs.core.game.State`). ``state()`` is
PettingZoo's global state: every seat's observation, concatenated in seat order
(``state_space``: a Box of ``num_players * observation_size`` floats), the usual input of a
centralised critic. It holds what the seats know together, not the hidden deck order.
``env.state`` used as the rules state is deprecated: it still works, with a DeprecationWarning.

**Seeding** follows Gymnasium: ``reset(seed=s)`` plays the game of seed ``s`` and seeds the
generator from which every later ``reset()`` without a seed draws its game's seed, so
``reset(seed=0); reset()`` gives the same two games every time.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs.core.game import Game, State, play_forced
from envs.core.options import DRIVER_OPTIONS, split_options

__all__ = [
    "DRIVER_OPTIONS",
    "GENERIC_END_REASONS",
    "TurnBasedEnv",
    "end_reason_names",
    "infos_markdown",
    "make_env_factories",
]

#: the end-reason codes every game shares; a game's own reasons follow them
GENERIC_END_REASONS = ("running", "illegal action")


def end_reason_names(game_cls: type[Game]) -> tuple[str, ...]:
    """The lean infos' ``end_reason`` codes of a game: ``names[code]`` is the reason in words."""
    return GENERIC_END_REASONS + tuple(game_cls.end_reasons)


def infos_markdown(game_cls: type[Game]) -> str:
    """The env docstring's Infos section: the lean keys and this game's ``end_reason`` codes."""
    rows = [
        "The lean infos (the default) have the same keys, shapes and dtypes at every step, so Tianshou's",
        "buffers and TorchRL's specs can hold them; `infos=\"rich\"` adds the game's own facts (`State.info()`).",
        "",
        "| Key | Type | Meaning |",
        "|---|---|---|",
        "| `winners` | `int8[num_players]` | 1 for each seat that won (a cooperative win: every seat), else 0 |",
        "| `end_reason` | `int` | the code below: 0 while the game runs |",
        "",
        "| `end_reason` | Meaning |",
        "|---:|---|",
    ]
    rows += [f"| {code} | {name} |" for code, name in enumerate(end_reason_names(game_cls))]
    return "\n".join(rows)


def _is_action_id(action: Any) -> bool:
    """Python ints and numpy integers are action ids; bool, float, str and the rest are not."""
    if type(action) is int:  # the common case first (a bool's type is bool)
        return True
    return isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))


class _DeprecatedStateAlias:
    """``env.state`` in its old meaning: calling it is PettingZoo's ``state()``, reading an attribute
    reads the rules state (``env.game_state``) with a DeprecationWarning."""

    __slots__ = ("_env",)

    def __init__(self, env: TurnBasedEnv):
        object.__setattr__(self, "_env", env)

    def __call__(self) -> np.ndarray:
        return self._env.global_state()

    def __getattr__(self, name: str) -> Any:
        warnings.warn(
            "env.state as the rules state is deprecated: use env.game_state (env.state() is PettingZoo's global state)",
            DeprecationWarning,
            stacklevel=2,
        )
        game_state = self._env.game_state
        if game_state is None:
            raise RuntimeError("no game yet: call env.reset() first")
        return getattr(game_state, name)

    def __repr__(self) -> str:
        return f"<state() of {self._env!r}; the rules state is env.game_state>"


class TurnBasedEnv(AECEnv):
    """PettingZoo AEC view of a :class:`~envs.core.game.Game`.

    Agents are ``player_0 .. player_{n-1}`` (seat i is ``player_i``). Each observation is
    ``{"observation": float32 vector (or named arrays), "action_mask": int8[num_actions]}``; the
    mask is all zeros for every agent but the one selected. Rewards come from
    ``State.rewards()`` after every step.
    """

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game_cls: type[Game], **options: Any):
        super().__init__()
        driver, game_options = split_options(game_cls, options)
        self.game: Game = game_cls(**game_options)
        self.illegal_action: str = driver["illegal_action"]
        self.auto_skip_forced: bool = driver["auto_skip_forced"]
        self.render_mode: str | None = driver["render_mode"]
        self.rich_infos: bool = driver["infos"] == "rich"
        self.metadata = dict(self.metadata, name=game_cls.env_id)

        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._dict_obs = self.game.options.get("observation_mode", "vector") == "dict"
        layout = self.game.observation_layout
        if self._dict_obs:
            obs_space = spaces.Dict(
                {b.name: spaces.Box(layout.low, layout.high, b.shape, np.float32) for b in layout.blocks}
            )
        else:
            obs_space = spaces.Box(layout.low, layout.high, (layout.size,), np.float32)
        mask_space = spaces.Box(0, 1, (self.game.num_actions,), np.int8)
        self._observation_space = spaces.Dict({"observation": obs_space, "action_mask": mask_space})
        self._action_space = spaces.Discrete(self.game.num_actions)
        self.state_space = spaces.Box(layout.low, layout.high, (n * layout.size,), np.float32)
        self._zero_mask = np.zeros(self.game.num_actions, np.int8)
        self._num_actions = self.game.num_actions
        self.end_reasons: tuple[str, ...] = end_reason_names(game_cls)
        self._end_code = {reason: code for code, reason in enumerate(self.end_reasons)}
        self.game_state: State | None = None
        self._seed_rng: np.random.Generator | None = None
        self.agents = []

    # -- the rules state and PettingZoo's global state --------------------------------------
    @property
    def state(self) -> _DeprecatedStateAlias:
        """PettingZoo's ``state()`` (see :meth:`global_state`); the rules state is ``game_state``."""
        return _DeprecatedStateAlias(self)

    @state.setter
    def state(self, value: State | None) -> None:
        warnings.warn("setting env.state is deprecated: set env.game_state", DeprecationWarning, stacklevel=2)
        self.game_state = value

    def global_state(self) -> np.ndarray:
        """Every seat's observation, concatenated in seat order (``state_space``)."""
        state = self.game_state
        if state is None:
            raise RuntimeError("state() called before reset(): call env.reset() first")
        return np.concatenate([state.observe(seat) for seat in range(self.game.num_players)])

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # -- reset ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: the game of ``seed``, or the next seed of the generator that the last
        seeded reset seeded (Gymnasium's convention; OS entropy before any seeded reset).
        ``options`` is accepted for API compatibility and not used."""
        if seed is None:
            if self._seed_rng is None:
                self._seed_rng = np.random.default_rng()
            seed = int(self._seed_rng.integers(2**63))
        else:
            if not _is_action_id(seed) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
            self._seed_rng = np.random.default_rng(int(seed))
        self.game_state = self.game.new_state(int(seed))
        self._start()

    def reset_to_state(self, state: State) -> None:
        """Continue from a given state (a saved game, a test position)."""
        if not isinstance(state, State):
            raise TypeError(f"reset_to_state takes a herozoo State, got {type(state).__name__}")
        if state.game.env_id != self.game.env_id:
            raise ValueError(f"the state is of {state.game.env_id!r} but this env is {self.game.env_id!r}")
        if state.game.num_players != self.game.num_players:
            raise ValueError(f"the state has {state.game.num_players} players but this env has {self.game.num_players}")
        self.game_state = state
        self._start()

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self._lean_info(None) for a in self.agents}
        self._nonzero_rewards = True
        self._last_info = None
        # apply_legal(action): apply() without the legality check, which step() has just made.
        # Kept as (class, function): a bound method would keep the state alive after close().
        cls = type(self.game_state)
        rules = cls.apply if cls.apply_legal is State.apply_legal else cls.apply_legal
        self._apply_legal = (cls, rules)
        self._after_apply(None, self._skip_forced([0.0] * self.game.num_players))

    # -- step -----------------------------------------------------------------------------
    def step(self, action: Any) -> None:
        state = self.game_state
        if state is None:
            raise RuntimeError("step() called before reset(): call env.reset() first")
        if not self.agents:
            raise RuntimeError("step() called after the game ended and every agent stepped out: call env.reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._dead_step(action)
            return
        if action is None:
            raise ValueError(f"action None is only allowed for a terminated or truncated agent; {agent} is live")
        if not _is_action_id(action):
            raise state.illegal_action_error(
                action, f"an action is a Python int or numpy integer id, not a {type(action).__name__}"
            )
        action = int(action)
        if not (0 <= action < self._num_actions) or not state.is_legal(action):
            if self.illegal_action == "raise":
                raise state.illegal_action_error(action)
            self._penalize(agent, action)
            return
        cls, apply_legal = self._apply_legal
        if type(state) is cls:
            apply_legal(state, action)
        else:  # env.game_state was replaced by a state of another class without reset_to_state()
            state.apply(action)
        self._after_apply(agent, self._skip_forced(state.rewards()))

    def _skip_forced(self, rewards: list[float]) -> list[float]:
        """Play every forced decision (option ``auto_skip_forced``); returns the summed rewards."""
        if not self.auto_skip_forced:
            return rewards
        total = list(rewards)
        play_forced(self.game_state, total, apply=self._apply_legal[1])
        return total

    def _lean_info(self, state: State | None) -> dict[str, Any]:
        """The lean infos' two keys (see the module doc): their running values for ``None``."""
        winners = np.zeros(self.game.num_players, np.int8)
        if state is None:
            return {"winners": winners, "end_reason": 0}
        outcome = state.outcome()
        code = self._end_code.get(outcome.reason)
        if code is None:
            raise ValueError(
                f"{type(state).__name__}.outcome().reason {outcome.reason!r} is not one of "
                f"{type(self.game).__name__}.end_reasons {self.end_reasons[len(GENERIC_END_REASONS) :]}"
            )
        winners[list(outcome.winners)] = 1
        return {"winners": winners, "end_reason": code}

    def _after_apply(self, actor: str | None, rewards: list[float]) -> None:
        state = self.game_state
        agents = self.agents
        cumulative = self._cumulative_rewards
        if actor is not None:
            cumulative[actor] = 0.0
        if any(rewards) or self._nonzero_rewards:
            self.rewards = {a: float(rewards[self._seat[a]]) for a in agents}
            for a, r in self.rewards.items():
                cumulative[a] += r
            self._nonzero_rewards = any(rewards)
        if state.is_terminal() or state.is_truncated():
            done = state.is_terminal()
            self.terminations = {a: done for a in agents}
            self.truncations = {a: not done for a in agents}
            lean = self._lean_info(state)
            extra = state.info() if self.rich_infos else {}
            self.infos = {
                a: {**extra, "winners": lean["winners"].copy(), "end_reason": lean["end_reason"]} for a in agents
            }
            # Dead agents step out in seat order, starting from the one that acted last.
            self.agent_selection = actor if actor is not None else agents[0]
        else:
            if self.rich_infos:
                info = state.info()
                if info != self._last_info:  # skip rebuilding the per-agent dicts when nothing changed
                    self.infos = {a: {**info, **self._lean_info(None)} for a in agents}
                    self._last_info = info
            self.agent_selection = self.possible_agents[state.current_player]

    def _penalize(self, agent: str, action: int) -> None:
        agents = self.agents
        team = self.game.cooperative  # one team: the offender's loss is everyone's
        self.rewards = {a: (-1.0 if a == agent or team else 0.0) for a in agents}
        self._cumulative_rewards[agent] = 0.0
        for a, r in self.rewards.items():
            self._cumulative_rewards[a] += r
        self.terminations = {a: True for a in agents}
        self.truncations = {a: False for a in agents}
        extra = {"illegal_action": action, "offender": agent} if self.rich_infos else {}
        penalized = np.zeros(self.game.num_players, np.int8)
        self.infos = {a: {**extra, "winners": penalized.copy(), "end_reason": 1} for a in agents}

    def _dead_step(self, action: Any) -> None:
        if action is not None:
            raise ValueError(f"{self.agent_selection} is done: its only allowed action is None, got {action!r}")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        for a in self.agents:
            self.rewards[a] = 0.0
        if self.agents:
            self.agent_selection = self.agents[0]

    def last(self, observe: bool = True) -> tuple:
        """PettingZoo's ``last()``; once every agent has stepped out of a finished game, a clear error."""
        if not self.agents:
            raise RuntimeError("the game is over and every agent has stepped out: call env.reset() for a new game")
        return super().last(observe)

    # -- observe --------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        if state is None:
            raise RuntimeError("observe() called before reset(): call env.reset() first")
        seat = self._seat.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        vector = state.observe(seat)
        observation = self.game.observation_layout.split(vector) if self._dict_obs else vector
        if seat == state.current_player and not (self.terminations.get(agent) or self.truncations.get(agent)):
            mask = state.legal_mask().copy()
        else:
            mask = self._zero_mask.copy()
        return {"observation": observation, "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The legal-action mask of ``agent`` (default: the selected one), as MaskablePPO wants."""
        agent = self.agent_selection if agent is None else agent
        state = self.game_state
        if state is None or self._seat.get(agent) != state.current_player or self.terminations.get(agent, True):
            return self._zero_mask.copy()
        return state.legal_mask().copy()

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """The legal action ids of ``agent`` (default: the selected one); empty when it is not its turn."""
        return np.flatnonzero(self.action_mask(self._known_agent(agent))).tolist()

    def _known_agent(self, agent: str | None) -> str:
        if agent is None:
            return self.agent_selection
        if agent not in self._seat:
            raise ValueError(f"unknown agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return agent

    # -- text -----------------------------------------------------------------------------
    def action_meaning(self, agent: str, action: int) -> str:
        """Readable meaning of ``action`` for ``agent``: what it does now on that agent's turn, else the
        generic label of its action block (which cards or targets it names depends on the moment)."""
        agent = self._known_agent(agent)
        n = self.game.action_layout.num_actions
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < n:
            raise ValueError(f"action {action!r} is not an action id: ids are the integers 0..{n - 1}")
        state = self.game_state
        if state is not None and self._seat[agent] == state.current_player and not self.terminations.get(agent):
            return state.describe_action(int(action))
        return self.game.action_layout.label(int(action))

    def describe_action(self, action: int) -> str:
        """Readable meaning of ``action`` for the selected agent now."""
        if self.game_state is None:
            return self.game.action_layout.label(action)
        return self.game_state.describe_action(action)

    action_to_string = describe_action

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.game_state is None:
            raise RuntimeError("render() called before reset(): call env.reset() first")
        # The board as the seat to act sees it: a person playing bots must not see their hands.
        state = self.game_state
        text = state.render(None if state.is_terminal() or state.is_truncated() else state.current_player)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game_state = None


def make_env_factories(game_cls: type[Game]) -> tuple[Callable[..., TurnBasedEnv], Callable[..., TurnBasedEnv]]:
    """``(env, raw_env)`` factories for a game. Both return the checked driver (see module doc)."""

    def raw_env(**options: Any) -> TurnBasedEnv:
        return TurnBasedEnv(game_cls, **options)

    def env(**options: Any) -> TurnBasedEnv:
        return TurnBasedEnv(game_cls, **options)

    raw_env.__doc__ = f"The {game_cls.env_id} AEC environment (order, bounds and legality checked in one layer)."
    env.__doc__ = raw_env.__doc__
    return env, raw_env
