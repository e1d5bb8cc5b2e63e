"""Masked DQN self-play on a herozoo game with Tianshou 2.x, then a match against a random policy.

    python examples/tianshou_dqn.py last_heroes_v0 --players 2
    python examples/tianshou_dqn.py last_bastion_v0 --players 2 --param difficulty=novice --param reward_scheme=shaped
    python examples/tianshou_dqn.py last_bastion_v0 --players 1 --epochs 20 --episodes-per-epoch 32

The pattern of Tianshou's tic-tac-toe example: the env is wrapped in ``PettingZooEnv`` (its
observation becomes ``{"agent_id", "obs", "mask"}``, the mask a bool vector), a
``MultiAgentOffPolicyAlgorithm`` dispatches each row to the algorithm of its ``agent_id``, and a
``DiscreteQLearningPolicy`` takes the masked argmax. Here every seat holds the same ``DQN`` (one
shared network: self-play), and its Q-values are never read for an illegal action.

**The reward caveat (Tianshou issue #399).** Tianshou stores one row per env step:
``(obs, act, rew, obs_next)`` of the seat that moved, with ``rew`` the vector of every seat's
reward and ``obs_next`` the observation of the *next* seat to move. ``MultiAgentOffPolicyAlgorithm``
trains a seat on its own rows only, with its own column of ``rew``. So a seat never sees a reward
that arrives on another seat's move: when player_1's move ends the game, player_0's final reward
sits in player_1's row and is lost, and player_0's last row is not marked as terminal. Only the
seat whose move ended the game learns how it ended, and every target bootstraps from the next
seat's observation, the other player's point of view.

This example does not train on those rows. :class:`SeatAlignedTransitions`, a collector episode
hook, rebuilds every finished episode seat by seat: a seat's transition runs from one of its
decisions to its next one (``obs_next`` is then its own observation, with its own mask), its reward
is the sum of its column over every step in between (other seats' moves included), and its last
transition carries everything up to the end of the game and ``terminated=True``. The DQN learns
from that buffer only; the collector's own buffer is kept to inspect. Rewards that reach a seat
before its first decision have no decision to credit and are dropped (the default ``win_loss``
rewards only arrive at the end). A game stopped by a safety cap (``truncated``) ends every seat's
trajectory as if terminated: Tianshou's last row holds no observation of the other seats to
bootstrap from.

**A second caveat.** Epsilon-greedy reads ``is_within_training_step`` of the sub-policy, but Tianshou's
trainer only sets it on the ``MultiAgentPolicy``, so in the tic-tac-toe pattern ``eps_training`` is
never used. :func:`training_step` sets it on every sub-policy.

At the end the greedy policy plays a random policy (``MARLRandomDiscreteMaskedOffPolicyAlgorithm``)
from every seat in turn (competitive games), or takes every seat of the team and is compared with
a random team (cooperative games), and the win rates are printed.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, ReplayBuffer, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

import envs


def make_env(env_id: str, num_players: int, **params: Any) -> PettingZooEnv:
    """A herozoo env as Tianshou's ``PettingZooEnv`` (lean infos: fixed keys and shapes)."""
    return PettingZooEnv(envs.make(env_id, num_players=num_players, **params))


def make_venv(env_id: str, num_players: int, num_envs: int, seed: int, **params: Any) -> DummyVectorEnv:
    """``num_envs`` copies, env ``i`` seeded with ``seed + i`` (each then plays its own seeded sequence of games)."""
    venv = DummyVectorEnv([lambda: make_env(env_id, num_players, **params) for _ in range(num_envs)])
    venv.seed(seed)
    return venv


def make_learner(
    env: PettingZooEnv,
    hidden_sizes: Sequence[int] = (128, 128),
    lr: float = 1e-3,
    gamma: float = 0.99,
    n_step: int = 1,
    target_update_freq: int = 100,
    eps_training: float = 0.2,
) -> DQN:
    """One masked DQN for every seat (observations are seat-relative, so one network serves them all)."""
    obs_size = env.observation_space["observation"].shape[0]
    net = Net(state_shape=obs_size, action_shape=int(env.action_space.n), hidden_sizes=list(hidden_sizes))
    policy = DiscreteQLearningPolicy(
        model=net, action_space=env.action_space, eps_training=eps_training, eps_inference=0.0
    )
    return DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=lr),
        gamma=gamma,
        n_step_return_horizon=n_step,
        target_update_freq=target_update_freq,
    )


def seat_algorithms(
    env: PettingZooEnv, learner: DQN | None, learner_seats: Sequence[int] | None = None
) -> MultiAgentOffPolicyAlgorithm:
    """The ``MultiAgentOffPolicyAlgorithm`` with ``learner`` in ``learner_seats`` (default: every seat)
    and a masked random policy in the others (in every seat if ``learner`` is None)."""
    seats = range(len(env.agents)) if learner_seats is None else learner_seats
    algorithms = [
        learner
        if learner is not None and i in seats
        else MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
        for i in range(len(env.agents))
    ]
    return MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)


@contextmanager
def training_step(algorithm: MultiAgentOffPolicyAlgorithm, enabled: bool = True) -> Iterator[None]:
    """``policy_within_training_step`` on the multi-agent policy *and* every seat's policy."""
    policies = {id(p): p for p in [algorithm.policy, *algorithm.policy.policies.values()]}
    with ExitStack() as stack:
        for policy in policies.values():
            stack.enter_context(policy_within_training_step(policy, enabled))
        yield


class SeatAlignedTransitions:
    """Collector episode hook: every finished episode, rebuilt seat by seat, into ``buffer``.

    A seat's transition goes from one of its decisions to its next one; its reward is the seat's
    column of ``rew`` summed over every step in between, and its last transition runs to the end of
    the game with ``terminated=True`` (see the module doc).
    """

    def __init__(self, agents: Sequence[str], buffer: ReplayBuffer):
        self.agents = list(agents)
        self.buffer = buffer
        self.episodes = 0
        self.transitions = 0
        #: per episode: each seat's rewards in the rebuilt transitions, summed (what the seat learns from)
        self.seat_returns: list[np.ndarray] = []

    def __call__(self, episode: Batch) -> None:
        agent_ids = np.asarray(episode.obs.agent_id)
        rewards = np.asarray(episode.rew, dtype=np.float64).reshape(len(episode), len(self.agents))
        end = len(episode)
        terminal = bool(episode.terminated[-1] or episode.truncated[-1])
        returns = np.zeros(len(self.agents))
        for seat, agent in enumerate(self.agents):
            decisions = np.flatnonzero(agent_ids == agent)
            for k, row in enumerate(decisions):
                last = k + 1 == len(decisions)
                stop = end if last else decisions[k + 1]
                reward = float(rewards[row:stop, seat].sum())
                returns[seat] += reward
                obs_next = episode.obs_next[end - 1] if last else episode.obs[stop]
                self.buffer.add(
                    Batch(
                        obs=episode.obs[row],
                        act=episode.act[row],
                        rew=reward,
                        terminated=last and terminal,
                        truncated=False,
                        obs_next=obs_next,
                        info={},
                    )
                )
                self.transitions += 1
        self.episodes += 1
        self.seat_returns.append(returns)
        return None


@dataclass
class TrainResult:
    learner: DQN
    collector: Collector  # its buffer holds Tianshou's own rows (inspect, do not train on them)
    seat_buffer: ReplayBuffer  # the seat-aligned transitions the DQN learned from
    aligner: SeatAlignedTransitions
    losses: list[float] = field(default_factory=list)
    env_steps: int = 0
    episodes: int = 0
    seconds: float = 0.0


def seed_everything(seed: int) -> None:
    """Tianshou's exploration, random policy and buffer sampling draw from numpy's global generator."""
    np.random.seed(seed)
    torch.manual_seed(seed)


def train(
    env_id: str,
    num_players: int,
    *,
    epochs: int = 5,
    episodes_per_epoch: int = 16,
    updates_per_epoch: int = 50,
    batch_size: int = 64,
    num_envs: int = 4,
    seed: int = 0,
    buffer_size: int = 20_000,
    params: dict[str, Any] | None = None,
    **learner_options: Any,
) -> TrainResult:
    """Self-play: collect whole episodes with the shared DQN in every seat, learn from the seat-aligned buffer."""
    params = params or {}
    seed_everything(seed)
    env = make_env(env_id, num_players, **params)
    learner = make_learner(env, **learner_options)
    algorithm = seat_algorithms(env, learner)
    seat_buffer = ReplayBuffer(buffer_size)
    aligner = SeatAlignedTransitions(env.agents, seat_buffer)
    venv = make_venv(env_id, num_players, num_envs, seed, **params)
    # Tianshou's rows: each sub-buffer must hold a whole episode when the hook reads it
    collector = Collector(
        algorithm,
        venv,
        VectorReplayBuffer(2_000 * num_envs, num_envs),
        exploration_noise=True,
        on_episode_done_hook=aligner,
    )
    collector.reset()
    result = TrainResult(learner, collector, seat_buffer, aligner)
    start = time.perf_counter()
    for _ in range(epochs):
        with training_step(algorithm), torch_train_mode(algorithm, False):
            stats = collector.collect(n_episode=episodes_per_epoch)
        result.env_steps += stats.n_collected_steps
        result.episodes += stats.n_collected_episodes
        if len(seat_buffer) < batch_size:
            continue
        with training_step(algorithm):
            for _ in range(updates_per_epoch):
                result.losses.append(float(learner.update(buffer=seat_buffer, sample_size=batch_size).loss))
    result.seconds = time.perf_counter() - start
    return result


class _FinalInfos:
    """Episode hook keeping each finished episode's last info (``winners``) and per-seat return."""

    def __init__(self) -> None:
        self.winners: list[np.ndarray] = []
        self.returns: list[np.ndarray] = []

    def __call__(self, episode: Batch) -> None:
        self.winners.append(np.asarray(episode.info.winners[-1]).copy())
        self.returns.append(np.asarray(episode.rew).sum(axis=0))
        return None


def play(
    env_id: str,
    num_players: int,
    learner: DQN | None,
    learner_seats: Sequence[int],
    episodes: int,
    seed: int,
    **params: Any,
) -> _FinalInfos:
    """``episodes`` greedy games with ``learner`` in ``learner_seats`` and random play elsewhere
    (``learner=None``: random everywhere)."""
    env = make_env(env_id, num_players, **params)
    algorithm = seat_algorithms(env, learner, learner_seats)
    finals = _FinalInfos()
    venv = make_venv(env_id, num_players, min(4, episodes), seed, **params)
    collector = Collector(
        algorithm, venv, VectorReplayBuffer(2_000 * venv.env_num, venv.env_num), on_episode_done_hook=finals
    )
    with training_step(algorithm, False), torch_train_mode(algorithm, False):
        collector.collect(n_episode=episodes, reset_before_collect=True)
    venv.close()
    return finals


def evaluate(
    env_id: str, num_players: int, learner: DQN, episodes: int = 20, seed: int = 10_000, **params: Any
) -> dict[str, Any]:
    """Win rates against random play: the learner in each seat in turn among random seats (competitive),
    or the learner's team against a random team (cooperative)."""
    cooperative = envs.game_class(env_id).cooperative
    random_finals = play(env_id, num_players, None, [], episodes, seed, **params)
    if cooperative:
        finals = play(env_id, num_players, learner, list(range(num_players)), episodes, seed, **params)
        return {
            "team_win_rate": float(np.mean([w[0] for w in finals.winners])),
            "random_team_win_rate": float(np.mean([w[0] for w in random_finals.winners])),
            "team_return": float(np.mean([r[0] for r in finals.returns])),
            "random_team_return": float(np.mean([r[0] for r in random_finals.returns])),
            "episodes": len(finals.winners),
        }
    wins, games = 0, 0
    for seat in range(num_players):
        share = max(1, episodes // num_players)
        finals = play(env_id, num_players, learner, [seat], share, seed + 1_000 * seat, **params)
        wins += sum(int(w[seat]) for w in finals.winners)
        games += len(finals.winners)
    return {
        "win_rate_vs_random": wins / games,
        "random_seat_win_rate": float(np.mean([w.mean() for w in random_finals.winners])),
        "episodes": games,
    }


def _param(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--param wants KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id", nargs="?", default="last_heroes_v0", choices=envs.ENV_IDS)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--episodes-per-epoch", type=int, default=16)
    parser.add_argument("--updates-per-epoch", type=int, default=50)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--envs", type=int, default=4, help="parallel envs in the collector (DummyVectorEnv)")
    parser.add_argument("--eval-episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--param", type=_param, action="append", default=[], help="a game option, KEY=VALUE")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    # the collector's summary of the per-seat return vectors warns that it flattens them; the win rates are our own
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    params = dict(args.param)

    result = train(
        args.env_id,
        args.players,
        epochs=args.epochs,
        episodes_per_epoch=args.episodes_per_epoch,
        updates_per_epoch=args.updates_per_epoch,
        batch_size=args.batch_size,
        num_envs=args.envs,
        seed=args.seed,
        params=params,
    )
    loss = f"{np.mean(result.losses[-10:]):.4f}" if result.losses else "n/a"
    print(
        f"{args.env_id} ({args.players} players): {result.episodes} self-play episodes, {result.env_steps} env steps, "
        f"{result.aligner.transitions} seat-aligned transitions, {len(result.losses)} DQN updates "
        f"(last loss {loss}) in {result.seconds:.1f}s"
    )
    report = evaluate(args.env_id, args.players, result.learner, args.eval_episodes, args.seed + 10_000, **params)
    if "team_win_rate" in report:
        print(
            f"team win rate {report['team_win_rate']:.2f} (random team {report['random_team_win_rate']:.2f}), "
            f"mean team return {report['team_return']:+.2f} (random team {report['random_team_return']:+.2f}) "
            f"over {report['episodes']} games"
        )
    else:
        print(
            f"win rate vs random {report['win_rate_vs_random']:.2f} over {report['episodes']} games, every seat in "
            f"turn (a random seat wins {report['random_seat_win_rate']:.2f})"
        )
    return report


if __name__ == "__main__":
    main()
