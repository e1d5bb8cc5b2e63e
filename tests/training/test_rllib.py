"""RLlib training (training/rllib/): a smoke run on Last Heroes 3p with an env that raises on any
illegal action, then its checkpoint played through load_policy in whole games.

Skipped when ray[rllib] is not installed (the ``rllib`` extra; .ci/run installs it). About 30-60 s
on 2 cores: one local Ray instance for the module, two PPO iterations of ~400 steps each.
"""

from __future__ import annotations

import os

os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # no ~/.ray/auth_token from a test
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (pip install -e '.[rllib]')")
torch = pytest.importorskip("torch")

import envs  # noqa: E402
from training.rllib.config import from_dict  # noqa: E402
from training.rllib.env import HerozooMultiAgentEnv  # noqa: E402
from training.rllib.export import CheckpointError, load_rllib_policy, read_module_weights  # noqa: E402
from training.runtime.policies import RandomPolicy, load_policy, seat_actor  # noqa: E402

SMOKE = {
    "env": {"env_id": "last_heroes_v0", "options": {"illegal_action": "raise"}, "player_counts": [3]},
    "selfplay": {"mode": "pool", "pool_size": 2, "snapshot_every": 1, "main_prob": 0.0},
    "ppo": {"train_batch_size": 400, "minibatch_size": 200, "num_epochs": 1, "net_arch": [64, 64]},
    "resources": {"num_env_runners": 0, "num_envs_per_env_runner": 2, "num_cpus": 2},
    "run": {"iterations": 2, "checkpoint_every": 0, "seed": 0},
}


# -- the env adapter, every registered env (no Ray instance needed) ---------------------------


def _random_episode(env: HerozooMultiAgentEnv, rng: np.random.Generator) -> dict:
    obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
    steps, finals = 0, {}
    while True:
        assert len(obs) >= 1
        acting = [a for a, o in obs.items() if o["action_mask"].any()]
        assert len(acting) == 1, obs.keys()
        agent = acting[0]
        action = int(rng.choice(np.flatnonzero(obs[agent]["action_mask"])))
        obs, rew, term, trunc, info = env.step({agent: action})
        steps += 1
        if term["__all__"] or trunc["__all__"]:
            finals = {a: i["herozoo"] for a, i in info.items()}
            assert set(finals) == set(obs) and set(rew) == set(obs)
            return {"steps": steps, "finals": finals, "rewards": rew}
        assert steps < 20000


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_env_adapter_plays_every_registered_env(env_id):
    game = envs.game_class(env_id)
    counts = list(range(game.min_players, game.max_players + 1))
    names = "seats" if game.cooperative else "learner"
    env = HerozooMultiAgentEnv(
        {
            "env_id": env_id,
            "player_counts": counts,
            "agent_names": names,
            "seed": 1,
            "options": {"auto_skip_forced": True},
        }
    )
    assert len(env.possible_agents) == max(counts)
    rng = np.random.default_rng(0)
    for _ in range(2):
        ep = _random_episode(env, rng)
        finals = ep["finals"]
        n = next(iter(finals.values()))["num_players"]
        assert len(finals) == n  # every seat's final observation and result
        if names == "learner":
            assert "learner" in finals
        if game.cooperative:
            assert len({r["won"] for r in finals.values()}) == 1  # the team wins or loses together


# -- the masked module -------------------------------------------------------------------------


def test_module_never_samples_a_masked_action():
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from training.rllib.module import MaskedPPOTorchRLModule, model_config

    env = envs.make("last_heroes_v0", num_players=3)
    module = RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=env.observation_space("player_0"),
        action_space=env.action_space("player_0"),
        model_config=model_config([32], "relu"),
    ).build()
    rng = np.random.default_rng(0)
    obs = torch.from_numpy(rng.random((64, 1036), dtype=np.float32))
    mask = torch.from_numpy((rng.random((64, 132)) < 0.05).astype(np.int8))
    mask[:, 7] = 1
    batch = {Columns.OBS: {"observation": obs, "action_mask": mask}}
    dist_cls = module.get_exploration_action_dist_cls()  # what the env runners sample from
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward(dict(batch))[Columns.ACTION_DIST_INPUTS]
        dist = dist_cls.from_logits(logits)
        for _ in range(50):
            actions = dist.sample()  # [64]
            assert bool(mask.gather(1, actions[:, None]).all()), forward.__name__
        assert bool(mask.gather(1, logits.argmax(1, keepdim=True)).all())
    values = module.compute_values(dict(batch))
    assert values.shape == (64,)


# -- the smoke run -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    import ray

    from training.rllib.train import MAIN, train

    threads = torch.get_num_threads()
    run_dir = tmp_path_factory.mktemp("rllib_smoke")
    seen = {}

    def inspect(algo, it, row):
        # Pool slots: the learner's and every env runner's copy must be the snapshot just taken.
        learner = algo.learner_group.get_weights()
        runner = algo.env_runner_group.foreach_env_runner(lambda er: er.module.get_state())[0]
        seen[it] = {
            "row": row,
            "learner": {m: {k: np.asarray(v).copy() for k, v in w.items()} for m, w in learner.items()},
            "runner": {m: {k: np.asarray(v).copy() for k, v in w.items()} for m, w in runner.items()},
        }

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        out = train(from_dict(SMOKE), run_dir=run_dir, log=lambda *a: None, on_iteration=inspect)
    finally:
        ray.shutdown()
        torch.set_num_threads(threads)
    out["seen"] = seen
    out["main"] = MAIN
    return out


def test_smoke_run_trains_main_only(smoke_run):
    history = smoke_run["history"]
    assert [r["iteration"] for r in history] == [1, 2]
    assert history[-1]["env_steps"] >= 800
    assert "policy_loss" in history[-1]
    assert history[0]["snapshot"] == "pool_0" and "snapshot" not in history[1]
    assert (smoke_run["run_dir"] / "progress.jsonl").read_text().count("\n") == 2


def test_snapshots_reach_learner_and_env_runners(smoke_run):
    first, second = smoke_run["seen"][1], smoke_run["seen"][2]
    key = "encoder.actor_encoder.net.mlp.0.weight"
    main_1 = first["learner"]["main"][key]
    np.testing.assert_array_equal(first["learner"]["pool_0"][key], main_1)
    np.testing.assert_array_equal(first["runner"]["pool_0"][key], main_1)
    # pool_1 kept the initial weights; main kept training; pool_0 stayed frozen in iteration 2
    assert not np.array_equal(first["learner"]["pool_1"][key], main_1)
    assert not np.array_equal(second["learner"]["main"][key], main_1)
    np.testing.assert_array_equal(second["learner"]["pool_0"][key], main_1)
    np.testing.assert_array_equal(second["runner"]["pool_0"][key], main_1)
    # the runner samples with the trained main
    np.testing.assert_array_equal(second["runner"]["main"][key], second["learner"]["main"][key])


def _play_games(env_id: str, n_players: int, policies, games: int, seed: int = 0) -> list:
    outcomes = []
    env = envs.make(env_id, num_players=n_players, illegal_action="raise")
    for g in range(games):
        env.reset(seed=seed + g)
        actors = {a: seat_actor(policies[i % len(policies)]) for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(
                None if term or trunc else actors[agent].act(obs["observation"], obs["action_mask"], env.game_state)
            )
        outcomes.append(env.game_state.outcome())
    return outcomes


def test_rllib_checkpoint_plays_whole_games(smoke_run):
    ckpt = smoke_run["rllib_checkpoint"]
    bot = load_rllib_policy(f"rllib:{ckpt}", "last_heroes_v0")
    assert bot.metadata["algorithm"] == "RLlibPPO" and bot.metadata["rllib"]["module_id"] == "main"
    outcomes = _play_games("last_heroes_v0", 3, [bot, RandomPolicy(1), load_policy("heuristic", "last_heroes_v0")], 3)
    assert all(o is not None for o in outcomes)
    # more table sizes than it was trained on: the spaces do not depend on the count
    assert all(o is not None for o in _play_games("last_heroes_v0", 5, [bot], 1))


def test_exported_checkpoint_matches_the_rllib_module(smoke_run):
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModule

    from training.rllib.module import MaskedPPOTorchRLModule

    exported = load_policy(str(smoke_run["policy"]), "last_heroes_v0")  # the herozoo format, no ray
    in_memory = load_rllib_policy(f"rllib:{smoke_run['rllib_checkpoint']}", "last_heroes_v0")
    module_dir = smoke_run["rllib_checkpoint"] / "learner_group" / "learner" / "rl_module" / "main"
    module = RLModule.from_checkpoint(module_dir)
    assert isinstance(module, MaskedPPOTorchRLModule)  # not RLlib's silent fallback to a bare RLModule

    env = envs.make("last_heroes_v0", num_players=3)
    rng = np.random.default_rng(0)
    obs_list, masks = [], []
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        obs_list.append(obs["observation"])
        masks.append(obs["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    o, m = np.stack(obs_list), np.stack(masks)
    with torch.no_grad():
        out = module.forward_inference(
            {Columns.OBS: {"observation": torch.from_numpy(o), "action_mask": torch.from_numpy(m)}}
        )
    rllib_logits = out[Columns.ACTION_DIST_INPUTS].numpy()
    rllib_actions = rllib_logits.argmax(axis=1)
    np.testing.assert_allclose(exported.logits(o)[m == 1], rllib_logits[m == 1], rtol=1e-4, atol=1e-4)
    assert [exported.act(x, y) for x, y in zip(o, m)] == rllib_actions.tolist()
    assert [in_memory.act(x, y) for x, y in zip(o, m)] == rllib_actions.tolist()


def test_load_policy_rllib_spec(smoke_run):
    spec = f"rllib:{smoke_run['rllib_checkpoint']}"
    try:
        bot = load_policy(spec, "last_heroes_v0")
    except ValueError as e:
        if "neither one of" in str(e):
            pytest.skip("training.runtime.policies.load_policy has no 'rllib:' dispatch yet (see docs/rllib.md)")
        raise
    assert bot.name.startswith("rllib:")
    assert all(o is not None for o in _play_games("last_heroes_v0", 3, [bot], 2))
    pool_bot = load_policy(spec + "#pool_0", "last_heroes_v0")
    assert pool_bot.metadata["rllib"]["module_id"] == "pool_0"


def test_export_errors_are_clear(smoke_run, tmp_path):
    ckpt = smoke_run["rllib_checkpoint"]
    with pytest.raises(CheckpointError, match="trained on 'last_heroes_v0'"):
        load_rllib_policy(f"rllib:{ckpt}", "lost_legends_v0")
    with pytest.raises(CheckpointError, match="no module 'nope'"):
        read_module_weights(ckpt, "nope")
    with pytest.raises(CheckpointError, match="not an RLlib checkpoint"):
        read_module_weights(tmp_path)
    bad = tmp_path / "evil" / "learner_group" / "learner" / "rl_module" / "main"
    bad.mkdir(parents=True)
    import pickle

    (bad / "module_state.pkl").write_bytes(pickle.dumps({"w": os.system}))
    with pytest.raises(CheckpointError, match="refused to load"):
        read_module_weights(tmp_path / "evil")
