"""Any registered herozoo env as an RLlib ``MultiAgentEnv`` (turn-based, AEC semantics).

``HerozooMultiAgentEnv(env_config)`` with ``env_config``::

    {"env_id": "last_heroes_v0",            # any id in envs.ENV_IDS
     "options": {...},                      # passed to envs.make (vector observations only)
     "player_counts": [3] or [2, 3, 4, 5],  # table size drawn per episode (or options.num_players)
     "agent_names": "seats" | "learner"}    # see below

Each step returns the observation of the one agent to act, ``{"observation": float32[N],
"action_mask": int8[A]}``, as the AEC env gives it. Rewards that reach an agent between its turns
arrive with its next observation (the AEC ``_cumulative_rewards``); when the game ends every agent
still in the game gets its final observation and reward, and ``"__all__"`` is done. This is the
logic of RLlib's ``PettingZooEnv``, written against the herozoo driver so that the table size may
change from one episode to the next (``possible_agents`` is the largest table).

Agent names: ``"seats"`` (shared policy; cooperative games, symmetric self-play) names the agents
``player_0 .. player_{n-1}``. ``"learner"`` (main vs frozen snapshots) draws one seat per episode
for the learner and names it ``learner``; the other seats are ``opponent_1 .. opponent_{n-1}``,
counted clockwise from the learner. The names are labels only: the observation says where a seat
sits. With them the policy mapping needs no per-episode state, for any table size.

At the end of a game every agent's info holds ``"herozoo"``: ``{"seat", "num_players",
"winners", "won", "cooperative", "reason", "truncated"}`` from ``State.outcome()`` (cooperative: ``won`` is
the team's result). Training logs its win rates from these, not from episode returns (RLlib
drops the final reward of an agent that never acted).

The env raises on an illegal action (the driver's default ``illegal_action="raise"``): with the
masked module it never happens. RLlib's env pre-check steps unmasked random actions, so training
passes ``disable_env_checking=True`` (see docs/rllib.md).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import envs
from training.rllib.config import AGENT_NAMES, agent_names, check_env_config

MAX_REDEALS = 100


class HerozooMultiAgentEnv(MultiAgentEnv):
    """A herozoo game for RLlib's multi-agent env runners (see the module doc)."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        cfg = check_env_config(dict(config or {}))
        self.env_id: str = cfg["env_id"]
        self.player_counts: list[int] = cfg["player_counts"]
        self.learner_mode: bool = cfg["agent_names"] == "learner"
        options = {k: v for k, v in cfg["options"].items() if k != "num_players"}
        self._aec = {n: envs.make(self.env_id, **options, num_players=n) for n in sorted(set(self.player_counts))}
        worker = getattr(config, "worker_index", 0) or 0  # EnvContext: distinct streams per runner and sub-env
        vector = getattr(config, "vector_index", 0) or 0
        base = cfg["seed"] if cfg["seed"] is not None else np.random.SeedSequence().entropy
        self._rng = np.random.default_rng([int(base), int(worker), int(vector)])
        any_env = next(iter(self._aec.values()))
        obs_space, act_space = any_env.observation_space("player_0"), any_env.action_space("player_0")
        self.possible_agents = agent_names(max(self.player_counts), 0 if self.learner_mode else None)
        self.agents = []
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)  # as RLlib's PettingZooEnv
        self.action_space = gym.spaces.Dict(self.action_spaces)
        self.env = None
        self._seat = {f"player_{i}": i for i in range(max(self.player_counts))}
        self._names: list[str] = []
        self.episodes_started = 0

    def get_observation_space(self, agent_id):
        return self.observation_spaces[agent_id]

    def get_action_space(self, agent_id):
        return self.action_spaces[agent_id]

    # -- gym API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        rng = self._rng
        n = self.player_counts[int(rng.integers(len(self.player_counts)))]
        self.env = self._aec[n]
        learner = int(rng.integers(n)) if self.learner_mode else None
        self._names = agent_names(n, learner)
        self.agents = list(self._names)
        for _ in range(MAX_REDEALS):  # a deal that ends before anybody decides has nothing to learn from
            self.env.reset(seed=int(rng.integers(2**63 - 1)))
            if self.env.agents and not self.env.terminations[self.env.agent_selection]:
                break
        else:
            raise RuntimeError(f"{self.env_id}: {MAX_REDEALS} deals in a row ended before the first decision")
        self.episodes_started += 1
        obs, _, _, _, _ = self.env.last()
        return {self._name(self.env.agent_selection): obs}, {}

    def _name(self, agent: str) -> str:
        return self._names[self._seat[agent]]

    def step(self, action_dict: dict[str, Any]):
        env = self.env
        actor = self._name(env.agent_selection)
        if actor not in action_dict:
            raise ValueError(f"{actor} is to act, but the actions given are for {sorted(action_dict)}")
        env.step(int(action_dict[actor]))
        obs_d, rew_d, term_d, trunc_d, info_d = {}, {}, {}, {}, {}
        while env.agents:
            agent = env.agent_selection
            obs, rew, terminated, truncated, _ = env.last()
            name = self._name(agent)
            obs_d[name] = obs
            rew_d[name] = float(rew)
            term_d[name] = bool(terminated)
            trunc_d[name] = bool(truncated)
            if terminated or truncated:
                info_d[name] = {"herozoo": self._result(agent)}
                env.step(None)
            else:
                break
        done = not env.agents
        term_d["__all__"] = done and all(term_d.values())
        trunc_d["__all__"] = done and not term_d["__all__"]
        if done:
            self.agents = []
        return obs_d, rew_d, term_d, trunc_d, info_d

    def _result(self, agent: str) -> dict[str, Any]:
        state = self.env.game_state
        seat = self._seat[agent]
        outcome = state.outcome()
        winners = list(outcome.winners) if outcome is not None else []
        return {
            "seat": seat,
            "num_players": len(self._names),
            "winners": winners,
            "won": seat in winners,
            "cooperative": bool(self.env.game.cooperative),
            "reason": outcome.reason if outcome is not None else "",
            "truncated": bool(outcome.truncated) if outcome is not None else bool(state.is_truncated()),
        }

    def render(self):
        return None if self.env is None else self.env.render()

    def close(self):
        for env in self._aec.values():
            env.close()


__all__ = ["AGENT_NAMES", "HerozooMultiAgentEnv", "agent_names", "check_env_config"]
