"""BatchedGameVecEnv: the transitions of separate SingleAgentEnvs, with opponent decisions batched
(for policies with ``act_batch`` and no seat actors) or played by seat actors (checkpoints)."""

from __future__ import annotations

import numpy as np
import pytest
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from tests.toys import RelayGame
from training.checkpoints import TORCH_MIN_BATCH, NumpyMLPPolicy, SeatActor
from training.single_agent import FixedOpponents, SingleAgentEnv
from training.vec_env import BatchedGameVecEnv

ENV = "last_heroes_v0"


def mlp(seed: int, deterministic: bool = True, hidden=(48, 32)) -> NumpyMLPPolicy:
    """A checkpoint-like policy with random weights that separate the actions' logits well."""
    probe = SingleAgentEnv(ENV, {"num_players": 2})
    size, actions = probe.observation_space.shape[0], int(probe.action_space.n)
    rng = np.random.default_rng(seed)
    weights, prev = {}, size
    for i, h in enumerate(hidden):
        weights[f"mlp_extractor.policy_net.{2 * i}.weight"] = rng.normal(0, 1 / np.sqrt(prev), (h, prev))
        weights[f"mlp_extractor.policy_net.{2 * i}.bias"] = rng.normal(0, 0.3, h)
        prev = h
    weights["action_net.weight"] = rng.normal(0, 3 / np.sqrt(prev), (actions, prev))
    weights["action_net.bias"] = rng.normal(0, 1, actions)
    weights = {k: v.astype(np.float32) for k, v in weights.items()}
    meta = {
        "observation_size": size,
        "num_actions": actions,
        "policy": {"net_arch_pi": list(hidden), "activation": "tanh"},
    }
    return NumpyMLPPolicy(weights, meta, deterministic=deterministic, seed=seed, name=f"mlp{seed}")


class BatchOnly:
    """A policy with ``act`` and ``act_batch`` but no seat actors (as a policy on an accelerator
    would be): the batched env answers its decisions in batches."""

    def __init__(self, policy: NumpyMLPPolicy):
        self.policy, self.name = policy, policy.name

    def act(self, observation, action_mask, state=None) -> int:
        return self.policy.act(observation, action_mask, state)

    def act_batch(self, obs_batch, mask_batch):
        return self.policy.act_batch(obs_batch, mask_batch)


class FirstLegal:
    """Deterministic and without act_batch: acts one by one inside the batched env."""

    name = "first_legal"

    def __init__(self):
        self.calls = 0

    def act(self, observation, action_mask, state=None) -> int:
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])


@pytest.fixture(scope="module")
def opponents():
    return [BatchOnly(mlp(1)), BatchOnly(mlp(2)), FirstLegal()]


def factories(opponents, n: int, players=(4, 3), options=None, base_seed: int = 100):
    def make(i):
        opts = {"num_players": players[i % len(players)], "auto_skip_forced": True, **(options or {})}
        return lambda: SingleAgentEnv(ENV, opts, opponents=FixedOpponents(opponents), seed=base_seed + i)

    return [make(i) for i in range(n)]


def separate_rollout(fns, steps: int, seed: int, reset_seed: int | None = None):
    """What ``steps`` vec steps would give, played on separate SingleAgentEnvs (SB3 auto-reset rules)."""
    envs = [fn() for fn in fns]
    rng = np.random.default_rng(seed)
    obs = []
    for i, env in enumerate(envs):
        o, _ = env.reset(seed=None if reset_seed is None else reset_seed + i)
        obs.append(o)
    trace = [("reset", np.stack(obs))]
    for _ in range(steps):
        masks = np.stack([env.action_masks() for env in envs])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = [], [], [], []
        for env, a in zip(envs, actions):
            o, r, term, trunc, info = env.step(a)
            info["TimeLimit.truncated"] = trunc and not term
            if term or trunc:
                info["terminal_observation"] = o
                o, _ = env.reset()
            obs.append(o)
            rewards.append(r)
            dones.append(term or trunc)
            infos.append(info)
        trace.append((masks, np.stack(obs), np.array(rewards, np.float32), np.array(dones), infos))
    return trace


def vec_rollout(vec, steps: int, seed: int, reset_seed: int | None = None):
    rng = np.random.default_rng(seed)
    if reset_seed is not None:
        vec.seed(reset_seed)
    trace = [("reset", vec.reset())]
    for _ in range(steps):
        masks = get_action_masks(vec)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        trace.append((masks, obs, rewards, dones, infos))
    return trace


def assert_same(a, b, where="trace"):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), where
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), where
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), f"{where}: {sorted(a)} != {sorted(b)}"
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b and type(a) is type(b), f"{where}: {a!r} != {b!r}"


# ---------------------------------------------------------------------------------------------


def test_same_transitions_as_separate_single_agent_envs(opponents, monkeypatch):
    sizes = []
    for policy in opponents[:2]:
        original = policy.act_batch
        monkeypatch.setattr(policy, "act_batch", lambda o, m, f=original: sizes.append(len(o)) or f(o, m))
    fns = factories(opponents, 6)
    vec = BatchedGameVecEnv(fns)
    expected = separate_rollout(fns, 120, seed=7)
    got = vec_rollout(vec, 120, seed=7)
    assert_same(expected, got)
    dones = sum(int(step[3].sum()) for step in got[1:])
    assert dones >= 5  # episodes ended and were reset inside the window
    assert any("is_success" in info for step in got[1:] for info in step[4])
    # the network decisions really went through act_batch, several games at a time
    assert vec.batched_decisions > vec.batch_calls > 0
    assert max(sizes) >= TORCH_MIN_BATCH  # batches large enough for the torch matrix products
    assert opponents[2].calls > 0  # and the policy without act_batch played one by one


def test_checkpoints_play_through_seat_actors():
    """A policy with seat actors is not batched: each game's seats play through their own actors,
    and the transitions are those of separate SingleAgentEnvs (the same actors' decisions)."""

    def fns():  # new policies each time: the sampling one's generator starts afresh
        return factories([mlp(5), mlp(6, deterministic=False, hidden=(24,))], 5, base_seed=300)

    vec = BatchedGameVecEnv(fns())
    assert_same(separate_rollout(fns(), 80, seed=2), vec_rollout(vec, 80, seed=2))
    assert vec.batch_calls == 0
    actors = [a for game in vec.envs for a in game.seat_actors.values()]
    assert actors and all(isinstance(a, SeatActor) for a in actors)
    assert sum(a.incremental_updates for a in actors) > 0


def test_same_transitions_as_dummy_vec_env_after_seed(opponents):
    dummy = DummyVecEnv(factories(opponents, 3, players=(4,)))
    batched = BatchedGameVecEnv(factories(opponents, 3, players=(4,)))
    assert_same(vec_rollout(dummy, 60, seed=1, reset_seed=42), vec_rollout(batched, 60, seed=1, reset_seed=42))
    assert_same(dummy.reset_infos, batched.reset_infos)


def test_cooperative_games_and_truncation():
    # No opponents at all; max_steps truncates some episodes (TimeLimit.truncated in the infos).
    def make(i):
        return lambda: SingleAgentEnv(RelayGame, {"num_players": 3, "target": 40, "max_steps": 15}, seed=i)

    fns = [make(i) for i in range(3)]
    expected = separate_rollout(fns, 80, seed=3)
    got = vec_rollout(BatchedGameVecEnv(fns), 80, seed=3)
    assert_same(expected, got)
    assert any(info["TimeLimit.truncated"] for step in got[1:] for info in step[4])


def test_auto_reset_keeps_the_terminal_observation(opponents):
    fns = factories(opponents, 3, players=(2,))
    vec = BatchedGameVecEnv(fns)
    vec.reset()
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(200):
        masks = get_action_masks(vec)
        obs, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for i in np.flatnonzero(dones):
            info = infos[i]
            terminal = info["terminal_observation"]
            assert terminal.shape == obs[i].shape and not np.array_equal(terminal, obs[i])
            assert rewards[i] in (-1.0, 1.0) and info["is_success"] == (rewards[i] > 0)
            assert "winners" in info and info["TimeLimit.truncated"] is False
            # the new episode is ready: the learner's turn, fresh state
            game = vec.envs[i]
            assert not game.state.is_terminal() and game.pending_seat is None
            assert np.array_equal(obs[i], game.state.observe(game.learner))
            assert np.array_equal(masks_now := vec.env_method("action_masks", indices=int(i))[0], game.action_masks())
            assert masks_now.any()
            seen += 1
        for i in np.flatnonzero(~dones):
            assert "terminal_observation" not in infos[i]
    assert seen >= 3


def test_action_masks_through_env_method(opponents):
    vec = BatchedGameVecEnv(factories(opponents, 4))
    vec.reset()
    assert is_masking_supported(vec) and vec.has_attr("action_masks")
    masks = vec.env_method("action_masks")
    assert isinstance(masks, list) and len(masks) == 4
    for m, game in zip(masks, vec.envs):
        assert m.dtype == bool and m.shape == (vec.action_space.n,)
        assert np.array_equal(m, game.state.legal_mask().astype(bool)) and m.sum() >= 2  # auto_skip_forced
        assert game.state.current_player == game.learner
    assert np.array_equal(get_action_masks(vec), np.stack(masks))
    assert len(vec.env_method("action_masks", indices=[1, 3])) == 2


def test_vec_env_interface(opponents):
    vec = BatchedGameVecEnv(factories(opponents, 3))
    n, size = vec.num_envs, vec.observation_space.shape[0]
    assert n == 3 and vec.observation_space == vec.envs[0].observation_space
    assert vec.seed(9) == [9, 10, 11]
    obs = vec.reset()
    assert obs.shape == (n, size) and obs.dtype == np.float32
    assert all(vec.observation_space.contains(o) for o in obs)
    rng = np.random.default_rng(2)
    for _ in range(40):
        masks = get_action_masks(vec)
        assert masks.shape == (n, vec.action_space.n) and masks.any(axis=1).all()
        obs, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        assert obs.shape == (n, size) and obs.dtype == np.float32
        assert all(vec.observation_space.contains(o) for o in obs)
        assert rewards.shape == (n,) and rewards.dtype == np.float32
        assert dones.shape == (n,) and dones.dtype == bool
        assert isinstance(infos, list) and len(infos) == n and all(isinstance(i, dict) for i in infos)
        assert all("learner_seat" in i and "TimeLimit.truncated" in i for i in infos)
    assert vec.get_attr("env_id") == [ENV] * n
    assert vec.get_attr("learner", indices=[0]) == [vec.envs[0].learner]
    vec.set_attr("illegal_action", "penalize", indices=[2])
    assert vec.get_attr("illegal_action") == ["raise", "raise", "penalize"]
    assert vec.env_is_wrapped(VecMonitor) == [False] * n
    with pytest.raises(AttributeError):
        vec.get_attr("no_such_attribute")
    # penalize: an illegal action ends that game's episode with -1 and auto-resets it
    masks = get_action_masks(vec)
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    actions[2] = np.flatnonzero(~masks[2])[0]
    _, rewards, dones, infos = vec.step(actions)
    assert dones[2] and rewards[2] == -1.0 and infos[2]["illegal_action"] == actions[2]
    assert get_action_masks(vec)[2].any()
    vec.close()


def test_refuses_wrapped_or_shared_envs(opponents):
    import gymnasium as gym

    env = SingleAgentEnv(ENV, {"num_players": 2}, seed=0)
    with pytest.raises(ValueError, match="same env instance"):
        BatchedGameVecEnv([lambda: env, lambda: env])
    with pytest.raises(TypeError, match="phase methods"):
        BatchedGameVecEnv([lambda: gym.wrappers.RecordEpisodeStatistics(SingleAgentEnv(ENV, {"num_players": 2}))])


def test_sampling_opponents_stay_legal():
    sampler = FixedOpponents([BatchOnly(mlp(3, deterministic=False)), BatchOnly(mlp(4, deterministic=False))])
    fns = [lambda i=i: SingleAgentEnv(ENV, {"num_players": 4}, opponents=sampler, seed=i) for i in range(4)]
    vec = BatchedGameVecEnv(fns)
    trace = vec_rollout(vec, 60, seed=0)
    assert vec.batched_decisions > vec.batch_calls > 0
    assert sum(int(step[3].sum()) for step in trace[1:]) >= 1


def test_maskable_ppo_learns_on_it(opponents, tmp_path):
    from sb3_contrib import MaskablePPO

    vec = VecMonitor(BatchedGameVecEnv(factories(opponents, 4)))
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, policy_kwargs={"net_arch": [32]}, seed=0, device="cpu"
    )
    model.learn(256)
    assert model.num_timesteps == 256
    obs = vec.reset()
    actions, _ = model.predict(obs, action_masks=get_action_masks(vec), deterministic=True)
    masks = get_action_masks(vec)
    assert all(masks[i, a] for i, a in enumerate(actions))
    vec.close()


def test_training_config_builds_it_with_one_shared_sampler(tmp_path):
    from training.config import load_config
    from training.pool import OpponentPool
    from training.train import build_model, checkpoint_metadata, make_vec_env

    cfg = load_config(
        None,
        [
            "run.vec_env=batched",
            "run.n_envs=3",
            "ppo.n_steps=32",
            "ppo.batch_size=32",
            "ppo.net_arch=[16]",
            "selfplay.baselines={}",  # snapshots only
            "env.options.num_players=3",
        ],
    )
    pool = OpponentPool(tmp_path / "pool", cfg.env.env_id)
    vec = make_vec_env(cfg, pool.root)
    model = build_model(cfg, vec, tmp_path / "run")
    pool.add_snapshot(model, 0, checkpoint_metadata(cfg, 0))
    inner = vec.venv
    assert isinstance(inner, BatchedGameVecEnv) and inner.num_envs == 3
    assert len({id(game.opponents) for game in inner.envs}) == 1
    model.learn(96)
    actors = [a for game in inner.envs for a in game.seat_actors.values()]  # the snapshot in every seat
    assert actors and all(isinstance(a, SeatActor) for a in actors) and inner.batch_calls == 0
    assert sum(a.incremental_updates for a in actors) > 0
    vec.close()
