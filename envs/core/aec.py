"""TurnBasedEnv: the one PettingZoo AECEnv that drives any herozoo Game.

PettingZoo's classic envs repeat the same reset bookkeeping, dead-step guard and wrapper chain
in every file; here they are written once. The usual wrapper chain (TerminateIllegal,
AssertOutOfBounds, OrderEnforcing) costs about as much per decision as a whole small game
step, mostly in forwarded attribute lookups, so this class enforces call order, action bounds
and legality itself, in one layer. ``env()`` and ``raw_env()`` therefore return the same
checked class. A State class may define ``apply_legal(action)``, ``apply()`` without its own
legality check: the driver, which has just checked the action against the mask, calls it instead
(``apply()`` itself still raises IllegalActionError for any other caller).

The driver's own options (``envs.core.options.DRIVER_OPTIONS``, declared there with the options
every game shares):

| Option | Default | Effect |
|---|---|---|
| `illegal_action` | `"raise"` | `"raise"`: IllegalActionError; `"penalize"`: the game ends, offender -1, others 0 |
| `auto_skip_forced` | `False` | `True`: the engine plays every decision that has exactly one legal action |
| `render_mode` | `None` | `"ansi"` returns the text board, `"human"` prints it |

A penalized cooperative game is a loss for the whole team: every seat gets -1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs.core.game import Game, State, play_forced
from envs.core.options import DRIVER_OPTIONS, split_options

__all__ = ["DRIVER_OPTIONS", "TurnBasedEnv", "make_env_factories"]


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
        self._zero_mask = np.zeros(self.game.num_actions, np.int8)
        self.state: State | None = None
        self.agents = []

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # -- reset ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``options`` is accepted for API compatibility and not used."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.state = self.game.new_state(seed)
        self._start()

    def reset_to_state(self, state: State) -> None:
        """Continue from a given state (a saved game, a test position)."""
        if state.game.num_players != self.game.num_players:
            raise ValueError(f"the state has {state.game.num_players} players but this env has {self.game.num_players}")
        self.state = state
        self._start()

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._nonzero_rewards = True
        self._last_info = None
        # A State class may offer apply_legal(action): apply() without its own legality check,
        # which step() has just made. Kept as (class, function): a bound method would keep the
        # state alive after close().
        cls = type(self.state)
        self._apply_legal = (cls, getattr(cls, "apply_legal", cls.apply))
        self._after_apply(None, self._skip_forced([0.0] * self.game.num_players))

    # -- step -----------------------------------------------------------------------------
    def step(self, action: Any) -> None:
        state = self.state
        if state is None:
            raise RuntimeError("step() called before reset(): call env.reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._dead_step(action)
            return
        if action is None:
            raise ValueError(f"action None is only allowed for a terminated or truncated agent; {agent} is live")
        try:
            action = int(action)
        except (TypeError, ValueError):
            raise state.illegal_action_error(action, "an action must be an integer") from None
        mask = state.legal_mask()
        if not (0 <= action < len(mask)) or not mask[action]:
            if self.illegal_action == "raise":
                raise state.illegal_action_error(action)
            self._penalize(agent, action)
            return
        cls, apply_legal = self._apply_legal
        if type(state) is cls:
            apply_legal(state, action)
        else:  # env.state was replaced by a state of another class without reset_to_state()
            state.apply(action)
        self._after_apply(agent, self._skip_forced(state.rewards()))

    def _skip_forced(self, rewards: list[float]) -> list[float]:
        """Play every forced decision (option ``auto_skip_forced``); returns the summed rewards."""
        if not self.auto_skip_forced:
            return rewards
        total = list(rewards)
        play_forced(self.state, total, apply=self._apply_legal[1])
        return total

    def _after_apply(self, actor: str | None, rewards: list[float]) -> None:
        state = self.state
        agents = self.agents
        cumulative = self._cumulative_rewards
        if actor is not None:
            cumulative[actor] = 0.0
        if any(rewards) or self._nonzero_rewards:
            self.rewards = {a: float(rewards[self._seat[a]]) for a in agents}
            for a, r in self.rewards.items():
                cumulative[a] += r
            self._nonzero_rewards = any(rewards)
        info = state.info()
        if state.is_terminal() or state.is_truncated():
            done = state.is_terminal()
            self.terminations = {a: done for a in agents}
            self.truncations = {a: not done for a in agents}
            self.infos = {a: info.copy() for a in agents}
            # Dead agents step out in seat order, starting from the one that acted last.
            self.agent_selection = actor if actor is not None else agents[0]
        else:
            if info != self._last_info:  # skip rebuilding the per-agent dicts when nothing changed
                self.infos = {a: info.copy() for a in agents}
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
        self.infos = {a: {"illegal_action": action, "offender": agent} for a in agents}

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

    # -- observe --------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        if state is None:
            raise RuntimeError("observe() called before reset(): call env.reset() first")
        seat = self._seat[agent]
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
        state = self.state
        if state is None or self._seat[agent] != state.current_player or self.terminations.get(agent, True):
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
        state = self.state
        if state is not None and self._seat[agent] == state.current_player and not self.terminations.get(agent):
            return state.describe_action(int(action))
        return self.game.action_layout.label(int(action))

    def describe_action(self, action: int) -> str:
        """Readable meaning of ``action`` for the selected agent now."""
        if self.state is None:
            return self.game.action_layout.label(action)
        return self.state.describe_action(action)

    action_to_string = describe_action

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.state is None:
            raise RuntimeError("render() called before reset(): call env.reset() first")
        # The board as the seat to act sees it: a person playing bots must not see their hands.
        state = self.state
        text = state.render(None if state.is_terminal() or state.is_truncated() else state.current_player)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None


def make_env_factories(game_cls: type[Game]) -> tuple[Callable[..., TurnBasedEnv], Callable[..., TurnBasedEnv]]:
    """``(env, raw_env)`` factories for a game. Both return the checked driver (see module doc)."""

    def raw_env(**options: Any) -> TurnBasedEnv:
        return TurnBasedEnv(game_cls, **options)

    def env(**options: Any) -> TurnBasedEnv:
        return TurnBasedEnv(game_cls, **options)

    raw_env.__doc__ = f"The {game_cls.env_id} AEC environment (order, bounds and legality checked in one layer)."
    env.__doc__ = raw_env.__doc__
    return env, raw_env
