"""Many SingleAgentEnv games in one process, with the opponents' batchable decisions batched.

:class:`BatchedGameVecEnv` runs ``n`` games (each a :class:`~training.single_agent.SingleAgentEnv`)
in this process and advances their opponents in lockstep rounds: every game whose next decision
belongs to an opponent policy with ``act_batch`` and no seat actors (a policy that gains from
batches, such as a network on an accelerator) is gathered, the decisions are grouped by policy
object, each group is answered by one ``act_batch`` call, and the round repeats until every game
waits for its learner. Every other policy plays through each game's seat actors, one decision at a
time, as in SingleAgentEnv: random and heuristic policies, and checkpoints
(:class:`~training.checkpoints.NumpyMLPPolicy`), whose seat actor is one compiled call with an
incrementally updated first layer and costs less per decision than its share of a batched product
(with 8 Last Heroes 4-player games, about 2.7 decisions of one policy wait at once: the env cost
37% less per frame with seat actors than with ``act_batch``, ``benchmarks/train_throughput.py
--n-envs 8 --vec-env batched``). Games that end are reset at once (their reset's opponent moves
join the same rounds), as SB3's VecEnvs do, with the last observation in
``infos[i]["terminal_observation"]``.

Only opponents that are the *same object* share a batch: give the games one opponent sampler (or
the same policies) to batch across games (``run.vec_env: batched`` in training.train does). With
deterministic opponents the transitions are exactly those of ``DummyVecEnv`` over the same
SingleAgentEnvs (up to exact ties between logits, which a batched matrix product may round
differently); a sampling opponent plays from the same distributions, but when it is batched the
games that share it take its random numbers in another order than one after the other.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvObs, VecEnvStepReturn

from training.single_agent import SingleAgentEnv

_PHASE_API = ("begin_reset", "end_reset", "begin_step", "end_step", "play_pending", "pending_observation")


def _batchable(policy: Any) -> bool:
    """Answered by ``act_batch`` across games. A policy that offers seat actors plays through them
    instead: a checkpoint's seat actor (one compiled call per decision) costs less than its share
    of a batched product (measured with benchmarks/train_throughput.py --vec-env batched)."""
    return callable(getattr(policy, "act_batch", None)) and not callable(getattr(policy, "seat_actor", None))


class BatchedGameVecEnv(VecEnv):
    """An SB3 VecEnv over ``len(env_fns)`` SingleAgentEnvs (or anything with their phase methods).

    ``env_fns`` are called once each, here; they must return distinct, unwrapped games. The games'
    ``action_masks`` are reached with ``env_method("action_masks")`` (what sb3-contrib's
    MaskablePPO calls).
    """

    def __init__(self, env_fns: Sequence[Callable[[], SingleAgentEnv]]):
        games = [fn() for fn in env_fns]
        if not games:
            raise ValueError("BatchedGameVecEnv needs at least one env")
        for g in games:
            missing = [m for m in _PHASE_API if not callable(getattr(g, m, None))]
            if missing:
                raise TypeError(
                    f"BatchedGameVecEnv drives SingleAgentEnv games through their phase methods; "
                    f"{type(g).__name__} has no {missing} (wrappers cannot be batched: pass the SingleAgentEnv itself)"
                )
        if len({id(g) for g in games}) != len(games):
            raise ValueError("env_fns returned the same env instance more than once; each must build a new one")
        self.envs = games
        first = games[0]
        super().__init__(len(games), first.observation_space, first.action_space)
        for g in games[1:]:
            if g.observation_space != first.observation_space or g.action_space != first.action_space:
                raise ValueError("all games must have the same observation and action spaces")
        shape, dtype = first.observation_space.shape, first.observation_space.dtype
        self.buf_obs = np.zeros((self.num_envs, *shape), dtype=dtype)
        self.buf_rews = np.zeros(self.num_envs, dtype=np.float32)
        self.buf_dones = np.zeros(self.num_envs, dtype=bool)
        self.buf_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self.metadata = getattr(first, "metadata", {})
        self.actions: np.ndarray | None = None
        self._resetting = [False] * self.num_envs
        self.batch_calls = 0  # act_batch calls so far
        self.batched_decisions = 0  # opponent decisions answered by them

    # -- VecEnv API ---------------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        for i, env in enumerate(self.envs):
            options = self._options[i]
            env.begin_reset(seed=self._seeds[i], **({"options": options} if options else {}))
            self._resetting[i] = True
        self._settle(range(self.num_envs))
        self._reset_seeds()
        self._reset_options()
        return self.buf_obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        actions = self.actions
        if actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        self.actions = None
        for i, env in enumerate(self.envs):
            env.begin_step(actions[i])
            self._resetting[i] = False
        self._settle(range(self.num_envs))
        return self.buf_obs.copy(), self.buf_rews.copy(), self.buf_dones.copy(), copy.deepcopy(self.buf_infos)

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [_get(env, attr_name) for env in self._targets(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for env in self._targets(indices):
            setattr(env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        return [_get(env, method_name)(*method_args, **method_kwargs) for env in self._targets(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        from stable_baselines3.common import env_util

        return [env_util.is_wrapped(env, wrapper_class) for env in self._targets(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        if self.render_mode != "rgb_array":
            return [None for _ in self.envs]
        return [env.render() for env in self.envs]

    # -- the lockstep ---------------------------------------------------------------------------
    def _settle(self, indices) -> None:
        """Answer the pending opponent decisions of the games ``indices`` in lockstep rounds until
        each waits on its learner; a finished step's results go to the buffers, and a game whose
        episode ended is reset (and settled) in the same rounds."""
        envs = self.envs
        active = list(indices)
        while active:
            groups: dict[int, tuple[Any, list[int]]] = {}
            for i in active:
                env = envs[i]
                while True:
                    seat = env.pending_seat
                    if seat is None:
                        if self._finish(i):
                            break
                        continue  # the episode ended and the game was reset: settle its reset too
                    policy = env.seat_policies[seat]
                    if _batchable(policy):
                        group = groups.get(id(policy))
                        if group is None:
                            groups[id(policy)] = (policy, [i])
                        else:
                            group[1].append(i)
                        break
                    state = env.state
                    env.play_pending(int(env.seat_actors[seat].act(state.observe(seat), env.pending_mask, state)))
            active = []
            for policy, idx in groups.values():
                games = [envs[i] for i in idx]
                obs = np.stack([g.pending_observation() for g in games])
                masks = np.stack([g.pending_mask for g in games])
                actions = policy.act_batch(obs, masks)
                self.batch_calls += 1
                self.batched_decisions += len(idx)
                for g, a in zip(games, actions.tolist()):
                    g.play_pending(a)
                active.extend(idx)

    def _finish(self, i: int) -> bool:
        """Game ``i`` waits on its learner (or has ended): record its step or reset. False when its
        episode ended and it was reset, so that it has opponent moves to settle again."""
        env = self.envs[i]
        if self._resetting[i]:
            self.buf_obs[i], self.reset_infos[i] = env.end_reset()
            return True
        obs, reward, terminated, truncated, info = env.end_step()
        done = terminated or truncated
        self.buf_rews[i] = reward
        self.buf_dones[i] = done
        info["TimeLimit.truncated"] = truncated and not terminated
        self.buf_infos[i] = info
        if not done:
            self.buf_obs[i] = obs
            return True
        info["terminal_observation"] = obs
        env.begin_reset()
        self._resetting[i] = True
        return False

    def _targets(self, indices: VecEnvIndices) -> list[Any]:
        return [self.envs[i] for i in self._get_indices(indices)]


def _get(env: Any, name: str) -> Any:
    get = getattr(env, "get_wrapper_attr", None)
    return get(name) if get is not None else getattr(env, name)


__all__ = ["BatchedGameVecEnv"]
