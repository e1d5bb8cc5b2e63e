"""Smoke check of benchmarks/train_throughput.py: a tiny run end to end, and the zero-cost env."""

import json

import numpy as np

from benchmarks import train_throughput as tt


def test_zero_cost_env_is_fixed_length_with_fixed_mask():
    obs = np.linspace(-1, 1, 10, dtype=np.float32)
    mask = np.zeros(5, bool)
    mask[[1, 3]] = True
    env = tt.ZeroCostEnv(obs, mask, episode_length=4, num_actions=5)
    o, info = env.reset(seed=0)
    assert env.observation_space.contains(o) and info == {}
    ends = []
    for _ in range(8):
        o, r, term, trunc, _ = env.step(1)
        ends.append(term)
        assert not trunc and np.array_equal(o, obs)
        if term:
            assert r in (1.0, -1.0)
            env.reset()
    assert ends == [False, False, False, True] * 2
    assert np.array_equal(env.action_masks(), mask)


def test_tiny_run_writes_table_and_json(tmp_path, capsys):
    out = tmp_path / "result.json"
    tiny = [
        "--set",
        "ppo.n_steps=32",
        "--set",
        "ppo.batch_size=32",
        "--set",
        "ppo.n_epochs=1",
        "--set",
        "ppo.net_arch=[16,16]",
    ]
    assert tt.main(["--timesteps", "64", "--repeats", "1", "--breakdown-frames", "60", "--json", str(out), *tiny]) == 0
    text = capsys.readouterr().out
    assert "zero-cost env (ceiling)" in text and "Where a frame's CPU goes" in text
    data = json.loads(out.read_text())
    rows = {r["setting"]: r for r in data["results"]}
    assert set(rows) == set(tt.SETTINGS)
    assert rows["zero_cost"]["ratio_to_zero_cost"] == 1.0
    for r in rows.values():
        assert r["frames_measured"] >= 64 and r["frames_per_cpu_s"] > 0
        assert abs(r["env_share"] - (1 - r["ratio_to_zero_cost"])) < 1e-12
    assert rows["lh4_checkpoint"]["env_us_per_frame"] > rows["zero_cost"]["env_us_per_frame"]
    parts = data["breakdown"]["lh4_checkpoint"]["parts"]
    assert parts["opponent_act"]["calls_per_frame"] > 0  # the checkpoint opponents were really asked
    assert not list(tmp_path.glob(".train_throughput.*"))  # no temp file left behind


def test_opponent_paths(tmp_path):
    """seat_actor (as training plays a checkpoint) and act (the numpy forward pass)."""
    from training.config import load_config
    from training.runtime.inference import SeatActor

    cfg = load_config(None, ["ppo.net_arch=[16]", "ppo.n_steps=32", "ppo.batch_size=32"])
    checkpoint = tt.make_checkpoint(cfg, 0, tmp_path)
    specs = tt.make_specs(cfg, 0, checkpoint, tt.COMPARED_PATHS)
    assert tuple(specs) == tt.settings_for(tt.COMPARED_PATHS)
    seen = {}
    for setting in ("lh4_checkpoint", "lh4_checkpoint_act"):
        inner = tt.make_vec(specs[setting], 2, "dummy").venv
        inner.reset()
        for _ in range(20):
            inner.step(np.stack(inner.env_method("action_masks")).argmax(axis=1))
        seen[setting] = {type(a) for e in inner.envs for a in e.unwrapped._actors.values()}
    assert seen["lh4_checkpoint"] == {SeatActor}
    assert seen["lh4_checkpoint_act"] == {tt.PlainAct}


def test_compared_path_is_a_setting_of_its_own(tmp_path, capsys):
    out = tmp_path / "result.json"
    tiny = ["--set", "ppo.n_steps=32", "--set", "ppo.batch_size=32", "--set", "ppo.n_epochs=1"]
    args = ["--timesteps", "32", "--repeats", "1", "--breakdown-frames", "30", "--compare", "act", "--json", str(out)]
    assert tt.main([*args, *tiny, "--set", "ppo.net_arch=[16]"]) == 0
    assert "(numpy act)" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert [r["setting"] for r in data["results"]] == list(tt.settings_for(["act"]))
    assert data["breakdown"]["lh4_checkpoint_act"]["parts"]["opponent_act"]["calls_per_frame"] > 0
