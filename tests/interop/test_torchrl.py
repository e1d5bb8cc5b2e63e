"""examples/torchrl_rollout.py: herozoo envs pass TorchRL's check_env_specs, masked rollouts over
whole games never play an illegal action, and ``return_state=True`` carries ``env.state()``."""

from __future__ import annotations

import numpy as np
import pytest

from tests.interop.examples import load_example, torch_on_one_thread

pytest.importorskip("torchrl")
torch = pytest.importorskip("torch")

TABLES = [("last_heroes_v0", 2), ("last_bastion_v0", 1), ("last_bastion_v0", 2)]
STEPS = 160  # at least two whole games at every table


@pytest.fixture(scope="module")
def example():
    return load_example("torchrl_rollout")


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    yield from torch_on_one_thread()


@pytest.fixture(scope="module")
def rollouts(example):
    """Per table: the env and one rollout per policy (check_env_specs runs inside ``run``, see below)."""
    out = {}
    for env_id, n in TABLES:
        torch.manual_seed(0)
        env = example.make_env(env_id, n, seed=3)
        out[env_id, n] = (
            env,
            {
                "random": example.rollout(env, example.masked_random_policy(3), STEPS),
                "mlp": example.rollout(env, example.masked_mlp_policy(env), STEPS),
            },
        )
    return out


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_check_env_specs_passes_and_run_reports(example, table):
    reports = example.run(*table, steps=40, seed=1, policies=("random",))
    assert reports["random"]["steps"] == 40 and reports["random"]["illegal_actions"] == 0


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
@pytest.mark.parametrize("policy", ["random", "mlp"])
def test_rollout_actions_are_always_legal(example, rollouts, table, policy):
    env, tds = rollouts[table]
    td = tds[policy]
    acting = td.get(example.ACTING)
    assert acting.shape == (STEPS, table[1]) and (acting.sum(-1) == 1).all()
    seat = acting.int().argmax(-1)
    steps = torch.arange(STEPS)
    action = td.get(example.ACTION)[steps, seat]
    mask = td.get(example.ACTION_MASK)[steps, seat]
    assert mask[steps, action].all()
    # the acting seat's mask is the game's own legal mask, never empty; the others' rows are ignored
    assert (mask.sum(-1) >= 1).all()
    report = example.check_rollout(td)
    assert report["illegal_actions"] == 0 and report["games_finished"] >= 2
    assert len(report["wins_per_seat"]) == table[1]
    assert all(code >= 2 for code in report["end_reasons"])


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_state_is_every_seats_observation(example, rollouts, table):
    env, tds = rollouts[table]
    n = table[1]
    obs_size = env.observation_spec[example.OBS].shape[-1]
    assert env.observation_spec["state"].shape == (n * obs_size,)
    for td in tds.values():
        assert example.check_rollout(td)["state_is_concatenated_observations"]
        nxt = td.get("next")
        assert torch.equal(nxt.get("state"), nxt.get(example.OBS).flatten(-2))
        assert torch.isfinite(td.get("state")).all()


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_infos_rewards_and_done(example, rollouts, table):
    env, tds = rollouts[table]
    n = table[1]
    td = tds["random"]
    info = td.get(("next", example.GROUP, "info"))
    assert set(info.keys()) == {"winners", "end_reason"}
    assert info.get("winners").shape == (STEPS, n, n) and info.get("end_reason").shape == (STEPS, n)
    done = td.get(("next", "done")).squeeze(-1)
    reward = td.get(("next", example.GROUP, "reward")).squeeze(-1)  # [T, n]: every seat's reward each step
    assert (reward[~done] == 0).all()  # win_loss: rewards only at the end
    winners = info.get("winners")[done][:, 0]
    np.testing.assert_array_equal(reward[done].numpy(), np.where(winners.numpy() == 1, 1.0, -1.0))
    assert (info.get("end_reason")[~done] == 0).all()


def test_mlp_policy_gives_finite_log_probs(example, rollouts):
    _, tds = rollouts["last_heroes_v0", 2]
    log_prob = tds["mlp"].get((example.GROUP, "log_prob"))
    assert log_prob.shape == (STEPS, 2) and torch.isfinite(log_prob).all()


def test_seeded_rollouts_repeat(example):
    def actions(seed):
        env = example.make_env("last_heroes_v0", 2, seed=seed)
        return example.rollout(env, example.masked_random_policy(seed), 60).get(example.ACTION)

    assert torch.equal(actions(5), actions(5))
    assert not torch.equal(actions(5), actions(6))


def test_main_prints_the_checks(example, capsys):
    reports = example.main(["last_bastion_v0", "--players", "1", "--steps", "50", "--policy", "mlp"])
    out = capsys.readouterr().out
    assert "check_env_specs passed" in out and "0 illegal actions" in out
    assert reports["mlp"]["state_is_concatenated_observations"]
