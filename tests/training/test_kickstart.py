"""Kickstarting: the teacher's move rides in the env's info, lines up with the rollout buffer, and
the distillation pass pulls the policy towards it."""

import numpy as np
import pytest
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

from training.kickstart import NO_LABEL, KickstartedPPO
from training.runtime.policies import HeuristicPolicy
from training.single_agent import SingleAgentEnv


class LastLegalTeacher:
    """A teacher whose move can be read back from the mask alone: the highest legal action id."""

    name = "last-legal"

    def act(self, observation, action_mask, state=None) -> int:
        return int(np.flatnonzero(action_mask)[-1])


def _vec(teacher, n_envs=2, vec_cls=DummyVecEnv):
    factories = [
        (lambda rank=rank: SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=rank, teacher=teacher))
        for rank in range(n_envs)
    ]
    return VecMonitor(vec_cls(factories))


def test_the_env_tells_the_teachers_move_at_every_learner_decision():
    env = SingleAgentEnv("last_heroes_v0", {"num_players": 3}, seed=3, teacher=HeuristicPolicy("last_heroes_v0"))
    obs, info = env.reset()
    checked = 0
    done = False
    while not done:
        mask = env.action_masks()
        assert mask[info["teacher_action"]]  # the teacher's move is legal where the learner stands
        want = HeuristicPolicy("last_heroes_v0").act(obs, mask, env.state)
        assert info["teacher_action"] == want
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        done = terminated or truncated
        checked += 1
    assert checked > 10
    assert "teacher_action" not in info  # nothing to label once the game is over
    assert "teacher_action" not in SingleAgentEnv("last_heroes_v0", {"num_players": 2}, seed=0).reset()[1]


@pytest.mark.parametrize("vec_cls", [DummyVecEnv, pytest.param(SubprocVecEnv, marks=pytest.mark.slow)])
def test_labels_line_up_with_the_stored_positions_across_episode_ends(vec_cls):
    model = KickstartedPPO(
        "MlpPolicy", _vec(LastLegalTeacher(), vec_cls=vec_cls), n_steps=256, batch_size=64, n_epochs=1,
        policy_kwargs={"net_arch": [16]}, seed=0, device="cpu",
    )  # fmt: skip
    model.configure_kickstart(0.0, 0)  # labels are still gathered; the pass itself is off
    model.learn(256 * 2)
    labels = model._teacher_actions
    buffer = model.rollout_buffer
    # After train(), the buffer is flattened env-major: row e * n_steps + t is step t of env e.
    stored = buffer.action_masks.reshape(2, 256, -1).swapaxes(0, 1) > 0.5
    assert (labels != NO_LABEL).all()
    want = np.array([[np.flatnonzero(stored[t, e])[-1] for e in range(2)] for t in range(256)])
    assert np.array_equal(labels, want)
    assert buffer.episode_starts.sum() > 2  # several episodes began inside the rollout
    model.env.close()


def test_distillation_pulls_the_policy_towards_the_teacher():
    def agreement(coef: float) -> float:
        model = KickstartedPPO(
            "MlpPolicy", _vec(LastLegalTeacher()), n_steps=128, batch_size=64, n_epochs=1, learning_rate=3e-3,
            policy_kwargs={"net_arch": [32]}, seed=1, device="cpu",
        )  # fmt: skip
        model.configure_kickstart(coef, 0)
        model.learn(128 * 2 * 6)
        obs = model.rollout_buffer.observations.reshape(128 * 2, -1)
        masks = model.rollout_buffer.action_masks.reshape(128 * 2, -1) > 0.5
        pred, _ = model.predict(obs, action_masks=masks, deterministic=True)
        want = np.array([np.flatnonzero(m)[-1] for m in masks])
        return float(np.mean(pred == want))

    plain, kicked = agreement(0.0), agreement(2.0)
    assert kicked > 0.8 and kicked > plain + 0.2


def test_the_coefficient_decays_linearly_from_the_start_of_kickstarting():
    model = KickstartedPPO("MlpPolicy", _vec(None, 1), n_steps=64, batch_size=32, device="cpu")
    model.num_timesteps = 1000
    model.configure_kickstart(0.5, 400)
    assert model.current_kickstart_coef() == 0.5
    model.num_timesteps = 1200
    assert model.current_kickstart_coef() == pytest.approx(0.25)
    model.num_timesteps = 5000
    assert model.current_kickstart_coef() == 0.0
    model.configure_kickstart(0.5, 0)
    assert model.current_kickstart_coef() == 0.5


def test_kickstarting_needs_a_teacher():
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="kickstart_coef"):
        load_config(None, ["pretrain.kickstart_coef=0.5"])
    cfg = load_config(None, ["pretrain.kickstart_coef=0.5", "pretrain.teacher=heuristic"])
    assert cfg.pretrain.kickstart_coef == 0.5
