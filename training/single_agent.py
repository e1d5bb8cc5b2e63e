"""A gymnasium view of a herozoo game for SB3 / sb3-contrib's MaskablePPO.

Competitive games: the learner takes one seat, drawn each episode, and the other seats are
played inside ``step()`` by opponents drawn from an :class:`OpponentSampler`. Cooperative games:
the learner plays every seat with one shared policy, except the seats that a partner sampler gives
to partner bots (a heuristic, a checkpoint, a pool snapshot) for the episode; one seat, drawn each
episode, is always the learner's. Either way the observation, mask and reward returned are always
the learner's own: the reward of a step is everything the learner's seat received from its own
action and from the moves of others up to its next decision (PettingZoo's SB3 self-play tutorial
once trained on the opponent's reward, PettingZoo#1147).

Table sizes: with ``player_counts`` (e.g. ``[2, 3, 4, 5]``; a repeated count is drawn more often)
each episode draws its player count. The observation and action spaces do not depend on the
count, so one policy learns every table.

With a ``teacher`` policy, every info of a learner decision carries ``teacher_action``: the
teacher's move in that position (training/kickstart.py distils the learner towards it).

The view drives the rules State directly (no AEC bookkeeping), and decisions with exactly one
legal action are never sent to a policy: an opponent's or partner's are played at once, and with
``auto_skip_forced`` the learner's too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import gymnasium as gym
import numpy as np

import envs
from envs.core.game import play_forced
from envs.core.options import split_options
from training.runtime.policies import Policy, RandomPolicy, seat_actor


class OpponentSampler(Protocol):
    def sample(self, rng: np.random.Generator) -> Policy: ...


class PartnerSampler(Protocol):
    def sample(self, rng: np.random.Generator) -> Policy | None:
        """A partner for one seat, or None: the learner plays that seat."""


class FixedOpponents:
    """Always the same opponent policy (or one drawn uniformly from a list)."""

    def __init__(self, policies: Policy | list[Policy]):
        self.policies = policies if isinstance(policies, list) else [policies]

    def sample(self, rng: np.random.Generator) -> Policy:
        return self.policies[int(rng.integers(len(self.policies)))]


class FixedPartners:
    """Each seat but the learner's anchor seat goes to ``policy`` with probability ``prob``."""

    def __init__(self, policy: Policy, prob: float = 1.0):
        self.policy, self.prob = policy, prob

    def sample(self, rng: np.random.Generator) -> Policy | None:
        return self.policy if rng.random() < self.prob else None


def resolve_player_counts(game_cls: type, options: dict[str, Any], player_counts: Sequence[int] | None) -> list[int]:
    """The table sizes to draw from: ``player_counts``, or the options' one count."""
    if player_counts is None or len(player_counts) == 0:
        spec = {o.name: o for o in game_cls.option_spec}["num_players"]
        return [spec.validate(options.get("num_players", spec.default))]
    if "num_players" in options:
        raise ValueError("give the table sizes either as player_counts or as the option num_players, not both")
    lo, hi = game_cls.min_players, game_cls.max_players
    for n in player_counts:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not lo <= n <= hi:
            raise ValueError(f"player count {n!r} is not allowed; {game_cls.env_id} is played by {lo} to {hi} players")
    return [int(n) for n in player_counts]


MAX_REDEALS = 100  # deals that may end before the learner's first decision, before reset() gives up


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
        player_counts: Sequence[int] | None = None,
        partners: PartnerSampler | None = None,
        teacher: Policy | None = None,
    ):
        # A registered env id, or a Game class (tests use small games that are not registered).
        game_cls = env_id if isinstance(env_id, type) else envs.game_class(env_id)
        driver, options = split_options(game_cls, dict(env_options or {}))
        self.auto_skip_forced: bool = driver["auto_skip_forced"]
        self.illegal_action: str = driver["illegal_action"]
        self.env_id = game_cls.env_id
        counts = resolve_player_counts(game_cls, options, player_counts)
        self.player_counts = counts
        self.games = {n: game_cls(**{**options, "num_players": n}) for n in sorted(set(counts))}
        self.game = self.games[counts[0]]
        self.cooperative = game_cls.cooperative
        if learner_seat is not None and not all(0 <= learner_seat < n for n in counts):
            raise ValueError(f"learner_seat={learner_seat} is not a seat of every table size {sorted(set(counts))}")
        if self.cooperative and learner_seat is not None:
            raise ValueError("in a cooperative game the learner plays every seat; learner_seat must be None")
        if not self.cooperative and partners is not None:
            raise ValueError("partners sit beside the learner in cooperative games; a competitive game has opponents")
        self.fixed_seat = learner_seat
        self.opponents = opponents if opponents is not None else FixedOpponents(RandomPolicy(seed))
        self.partners = partners
        self.teacher = teacher
        self._teacher_actors: dict[int, Policy] = {}  # the teacher's actor per learner seat, this episode
        layout = self.game.observation_layout
        self.observation_space = gym.spaces.Box(layout.low, layout.high, (layout.size,), np.float32)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self.state = None
        self._penalized = False
        self.learner = 0  # the learner's seat (cooperative: the seat it plays now, or played last)
        self.learner_seats: frozenset[int] = frozenset()
        self.seat_policies: dict[int, Policy] = {}  # the other seats' policies this episode
        self._actors: dict[int, Policy] = {}  # what plays each of those seats (training.runtime.policies.seat_actor)
        if seed is not None:
            self.np_random, _ = gym.utils.seeding.np_random(seed)

    # -- gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._penalized = False
        for _ in range(MAX_REDEALS):
            self._deal()
            if not self._done():
                return self._observation(), self._info()
        raise RuntimeError(
            f"{self.env_id}: {MAX_REDEALS} deals in a row ended before the learner's first decision "
            "(the other seats or forced moves finish the game); give the learner more seats or another table"
        )

    def _deal(self) -> float:
        """A new game with its table size and seats drawn, played up to the learner's first decision."""
        rng = self.np_random
        counts = self.player_counts
        n = counts[int(rng.integers(len(counts)))] if len(counts) > 1 else counts[0]
        self.game = self.games[n]
        self.state = self.game.new_state(int(rng.integers(2**63 - 1)))
        if self.cooperative:
            anchor = int(rng.integers(n))
            drawn = {s: (self.partners.sample(rng) if self.partners else None) for s in range(n) if s != anchor}
            self.seat_policies = {s: p for s, p in drawn.items() if p is not None}
            self.learner = anchor
        else:
            self.learner = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
            self.seat_policies = {s: self.opponents.sample(rng) for s in range(n) if s != self.learner}
        self.learner_seats = frozenset(s for s in range(n) if s not in self.seat_policies)
        self._actors = {s: seat_actor(p) for s, p in self.seat_policies.items()}
        if self.teacher is not None:
            self._teacher_actors = {s: seat_actor(self.teacher) for s in self.learner_seats}
        return self._run()

    def step(self, action: int):
        state = self.state
        action = int(action)
        if self.illegal_action == "penalize" and not state.legal_mask()[action]:
            # As the AEC driver's "penalize": the episode ends with -1 for the offender.
            self._penalized = True
            return self._observation(), -1.0, True, False, {"illegal_action": action}
        seat = state.current_player
        state.apply(action)
        reward = state.rewards()[seat] + self._run()
        terminated = state.is_terminal()
        truncated = state.is_truncated() and not terminated
        return self._observation(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all False once the game is over)."""
        if self._penalized:
            return np.zeros(self.game.num_actions, bool)
        return self.state.legal_mask().astype(bool)

    def render(self) -> str:
        return self.state.render()

    # -- internals --------------------------------------------------------------------------
    def _run(self) -> float:
        """Play the other seats and forced moves until the learner has a real decision or the game
        ends; returns the learner's rewards from those moves. (In a cooperative game every seat
        gets the same reward, so the learner's seat of the moment stands for the team.)"""
        state = self.state
        mine = self.learner_seats
        learner = self.learner
        total = [0.0]
        keep = None if self.auto_skip_forced else mine.__contains__  # the learner decides its own forced moves
        while True:
            play_forced(state, total, stop=keep, seat=learner)
            if state.is_terminal() or state.is_truncated():
                break
            seat = state.current_player
            if seat in mine:
                self.learner = seat
                break
            action = self._actors[seat].act(state.observe(seat), state.legal_mask(), state)
            state.apply(int(action))
            total[0] += state.rewards()[learner]
        return total[0]

    def _observation(self) -> np.ndarray:
        return self.state.observe(self.learner)

    def _done(self) -> bool:
        return self.state.is_terminal() or self.state.is_truncated()

    def _info(self) -> dict[str, Any]:
        state = self.state
        info: dict[str, Any] = {
            "learner_seat": None if self.cooperative else self.learner,
            "num_players": state.game.num_players,
        }
        outcome = state.outcome()
        if outcome is not None:
            info.update(state.info())
            info["outcome"] = outcome.to_json()
            info["is_success"] = outcome.team_won if self.cooperative else self.learner in outcome.winners
        elif self.teacher is not None and not self._penalized:
            actor = self._teacher_actors[self.learner]
            info["teacher_action"] = int(actor.act(self._observation(), state.legal_mask(), state))
        return info
