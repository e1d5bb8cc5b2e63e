"""A gymnasium view of a herozoo game for SB3 / sb3-contrib's MaskablePPO.

Competitive games: the learner takes one seat, drawn each episode, and the other seats are
played inside ``step()`` by opponents drawn from an :class:`OpponentSampler`. Cooperative games:
the learner plays every seat with one shared policy. Either way the observation, mask and reward
returned are always the learner's own: the reward of a step is everything the learner's seat
received from its own action and from the moves of others up to its next decision (PettingZoo's
SB3 self-play tutorial once trained on the opponent's reward, PettingZoo#1147).

The view drives the rules State directly (no AEC bookkeeping), and decisions with exactly one
legal action are never sent to a policy: an opponent's are played at once, and with
``auto_skip_forced`` the learner's too.
"""

from __future__ import annotations

from typing import Any, Protocol

import gymnasium as gym
import numpy as np

import envs
from envs.core.aec import DRIVER_OPTIONS
from training.policies import Policy, RandomPolicy, seat_actor

_DRIVER_NAMES = {o.name for o in DRIVER_OPTIONS}


class OpponentSampler(Protocol):
    def sample(self, rng: np.random.Generator) -> Policy: ...


class FixedOpponents:
    """Always the same opponent policy (or one drawn uniformly from a list)."""

    def __init__(self, policies: Policy | list[Policy]):
        self.policies = policies if isinstance(policies, list) else [policies]

    def sample(self, rng: np.random.Generator) -> Policy:
        return self.policies[int(rng.integers(len(self.policies)))]


class SingleAgentEnv(gym.Env):
    """The learner's seat(s) of ``env_id`` as a gymnasium env with ``action_masks()``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        env_id: str | type,
        env_options: dict[str, Any] | None = None,
        opponents: OpponentSampler | None = None,
        learner_seat: int | None = None,
        seed: int | None = None,
    ):
        options = dict(env_options or {})
        self.auto_skip_forced = bool(options.pop("auto_skip_forced", False))
        self.illegal_action = options.pop("illegal_action", "raise")
        if self.illegal_action not in ("raise", "penalize"):
            raise ValueError(f'option illegal_action={self.illegal_action!r} must be "raise" or "penalize"')
        for name in _DRIVER_NAMES & set(options):
            options.pop(name)  # illegal_action / render_mode concern the AEC driver only
        # A registered env id, or a Game class (tests use small games that are not registered).
        game_cls = env_id if isinstance(env_id, type) else envs.game_class(env_id)
        self.env_id = game_cls.env_id
        self.game = game_cls(**options)
        self.cooperative = self.game.cooperative
        n = self.game.num_players
        if learner_seat is not None and not 0 <= learner_seat < n:
            raise ValueError(f"learner_seat={learner_seat} is not a seat of a {n}-player game (0..{n - 1})")
        if self.cooperative and learner_seat is not None:
            raise ValueError("in a cooperative game the learner plays every seat; learner_seat must be None")
        self.fixed_seat = learner_seat
        self.opponents = opponents if opponents is not None else FixedOpponents(RandomPolicy(seed))
        layout = self.game.observation_layout
        self.observation_space = gym.spaces.Box(layout.low, layout.high, (layout.size,), np.float32)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self.state = None
        self._penalized = False
        self.learner = 0
        self.seat_policies: dict[int, Policy] = {}
        self.seat_actors: dict[int, Policy] = {}  # what plays each opponent seat this episode
        self.pending_seat: int | None = None
        self.pending_mask: np.ndarray | None = None
        self._reward = 0.0
        self._step_reward: Any = None
        self._illegal = -1
        if seed is not None:
            self.np_random, _ = gym.utils.seeding.np_random(seed)

    # -- gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.begin_reset(seed=seed, options=options)
        self._play_pending()
        return self.end_reset()

    def step(self, action: int):
        self.begin_step(action)
        self._play_pending()
        return self.end_step()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all False once the game is over)."""
        if self._penalized:
            return np.zeros(self.game.num_actions, bool)
        return self.state.legal_mask().astype(bool)

    def render(self) -> str:
        return self.state.render()

    # -- the same, in phases (training.vec_env.BatchedGameVecEnv drives many games this way) ----
    # ``reset`` is ``begin_reset``, then every pending opponent decision answered with
    # ``play_pending``, then ``end_reset``; ``step`` likewise. Between the phases ``pending_seat``
    # is the opponent seat whose policy must choose (None: the learner's turn or the game is over);
    # ``seat_policies[pending_seat]`` is that policy, ``seat_actors[pending_seat]`` what plays it
    # (training.policies.seat_actor) and ``pending_mask`` its legal actions.
    def begin_reset(self, *, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed)
        self._penalized = False
        rng = self.np_random
        n = self.game.num_players
        self.state = self.game.new_state(int(rng.integers(2**63 - 1)))
        if self.cooperative:
            self.seat_policies = {}
        else:
            self.learner = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
            self.seat_policies = {s: self.opponents.sample(rng) for s in range(n) if s != self.learner}
        self.seat_actors = {s: seat_actor(p) for s, p in self.seat_policies.items()}
        self._step_reward = None
        self._reward = 0.0
        self._run()

    def end_reset(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self._observation(), self._info(self._reward)

    def begin_step(self, action: int) -> None:
        state = self.state
        seat = self._seat()
        self._reward = 0.0
        if self.illegal_action == "penalize" and not state.legal_mask()[int(action)]:
            # As the AEC driver's "penalize": the episode ends with -1 for the offender.
            self._penalized = True
            self._illegal = int(action)
            self.pending_seat = None
            return
        state.apply(int(action))
        self._step_reward = state.rewards()[seat]
        self._run()

    def end_step(self) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._penalized:
            return self._observation(), -1.0, True, False, {"illegal_action": self._illegal}
        state = self.state
        reward = self._step_reward
        reward += self._reward
        terminated = state.is_terminal()
        truncated = state.is_truncated() and not terminated
        return self._observation(), float(reward), terminated, truncated, self._info(reward)

    def pending_observation(self) -> np.ndarray:
        """What the pending opponent seat observes."""
        return self.state.observe(self.pending_seat)

    def play_pending(self, action: int) -> None:
        """Play the pending opponent decision, then on to the next decision that needs a policy."""
        state = self.state
        state.apply(action)
        self._reward += state.rewards()[self.learner]
        self._run()

    # -- internals --------------------------------------------------------------------------
    def _seat(self) -> int:
        return self.state.current_player if self.cooperative else self.learner

    def _done(self) -> bool:
        return self.state.is_terminal() or self.state.is_truncated()

    def _play_pending(self) -> None:
        """Answer every pending opponent decision with its seat actor's ``act``."""
        while self.pending_seat is not None:
            seat = self.pending_seat
            state = self.state
            self.play_pending(self.seat_actors[seat].act(state.observe(seat), self.pending_mask, state))

    def _run(self) -> None:
        """Play forced moves until the learner has a real decision, the game ends (pending_seat None)
        or an opponent's policy must choose (pending_seat, pending_mask); the learner's rewards
        accumulate in ``_reward``."""
        state = self.state
        cooperative, learner, skip_forced = self.cooperative, self.learner, self.auto_skip_forced
        while not (state.is_terminal() or state.is_truncated()):
            seat = state.current_player
            if cooperative or seat == learner:
                if not skip_forced or state.num_legal() != 1:
                    break
                observer = seat
            else:
                if state.num_legal() != 1:
                    self.pending_seat = seat
                    self.pending_mask = state.legal_mask()
                    return
                observer = learner
            state.apply(int(state.legal_mask().argmax()))  # the one legal action
            self._reward += state.rewards()[observer]
        self.pending_seat = None
        self.pending_mask = None

    def _observation(self) -> np.ndarray:
        seat = self._seat() if not self._done() else (self.learner if not self.cooperative else 0)
        return self.state.observe(seat)

    def _info(self, reward: float) -> dict[str, Any]:
        info: dict[str, Any] = {"learner_seat": self.learner if not self.cooperative else None}
        if self._done():
            end = self.state.info()
            info.update(end)
            if "winners" in end and not self.cooperative:
                info["is_success"] = self.learner in end["winners"]
            elif self.cooperative:
                info["is_success"] = self.state.is_terminal() and self.state.returns()[0] > 0
        return info
