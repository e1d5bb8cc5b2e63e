"""The real training CLI, end to end in subprocesses: checkpoints that reload identically, and resume."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from training.runtime.inference import CheckpointPolicy

TINY = [
    "--set",
    "run.n_envs=1",
    "--set",
    "run.vec_env=dummy",
    "--set",
    "ppo.n_steps=256",
    "--set",
    "ppo.batch_size=64",
    "--set",
    "ppo.n_epochs=1",
    "--set",
    "ppo.net_arch=[32,32]",
    "--set",
    "selfplay.snapshot_every=256",
    "--set",
    "selfplay.promote_games=4",
    "--set",
    "run.checkpoint_every=256",
    "--set",
    "run.eval_every=100000",
    "--set",
    "run.eval_games=4",
    "--set",
    "run.progress=false",
]


def _train(tmp_path: Path, *extra: str, wait: bool = True):
    cmd = [
        sys.executable,
        "-m",
        "training.train",
        *TINY,
        "--set",
        f"run.runs_dir={tmp_path / 'runs'}",
        "--set",
        f"run.export_dir={tmp_path / 'export'}",
        *extra,
    ]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if not wait:
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _summary(stdout: str) -> dict[str, Path]:
    """The run folder and checkpoint named by the summary that training prints at its end."""
    found = {}
    for line in stdout.splitlines():
        for key, label in (("run_dir", "Run folder:"), ("checkpoint", "Checkpoint:")):
            if line.startswith(label):
                found[key] = Path(line[len(label) :].split("  (")[0].strip())
    assert set(found) == {"run_dir", "checkpoint"}, f"no summary in the output:\n{stdout}"
    return found


def _fixed_observations(n=20):
    from envs.last_heroes.game import LastHeroesGame

    game = LastHeroesGame(num_players=2)
    rng = np.random.default_rng(0)
    obs, masks = [], []
    state = game.new_state(0)
    while len(obs) < n:
        if state.is_terminal():
            state = game.new_state(len(obs))
        obs.append(state.observe(state.current_player))
        masks.append(state.legal_mask().astype(bool))
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return np.array(obs), np.array(masks)


def test_tiny_cli_run_writes_a_checkpoint_that_reloads_to_the_same_predictions(tmp_path):
    from sb3_contrib import MaskablePPO

    done = _train(tmp_path, "--set", "run.total_timesteps=512", "--set", "run.exp_name=tiny")
    summary = _summary(done.stdout)
    exported = summary["checkpoint"]
    assert exported == tmp_path / "export" / "last_heroes" / "tiny.json" and exported.with_suffix(".pt").exists()
    assert "| 2p | heuristic | 4 |" in done.stdout  # the results table
    meta = json.loads(exported.read_text())
    assert meta["env_id"] == "last_heroes_v0" and meta["training_steps"] == 512
    assert set(meta["evaluation"]) == {"2p"} and set(meta["evaluation"]["2p"]) == {"random", "heuristic"}
    run_dir = summary["run_dir"]
    assert (run_dir / "checkpoints" / "final.json").exists() and (run_dir / "final_evaluation.json").exists()
    assert (run_dir / "config.yaml").exists() and list(run_dir.glob("tb_*"))
    pool = json.loads((run_dir / "pool" / "pool.json").read_text())
    assert [s["steps"] for s in pool["snapshots"]] == [256, 512]
    assert pool["best"] in {"snapshot_000000256", "snapshot_000000512"}
    second = pool["snapshots"][1]
    assert 0.0 <= second["evaluation"]["promotion_score_vs_snapshot_000000256"] <= 1.0

    model = MaskablePPO.load(run_dir / "checkpoints" / "latest.zip", device="cpu")
    policy = CheckpointPolicy(exported, env_id="last_heroes_v0")
    obs, masks = _fixed_observations()
    expected, _ = model.predict(obs, action_masks=masks, deterministic=True)
    got = [policy.act(o, m) for o, m in zip(obs, masks)]
    assert got == expected.tolist()
    assert all(m[a] for m, a in zip(masks, got))


def test_a_killed_run_resumes_from_its_last_checkpoint(tmp_path):
    proc = _train(tmp_path, "--set", "run.total_timesteps=100000", "--set", "run.exp_name=killed", wait=False)
    latest = None
    deadline = time.time() + 300
    try:
        while time.time() < deadline:
            found = list((tmp_path / "runs").glob("*/checkpoints/latest.json"))
            if found:
                latest = found[0]
                break
            time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert latest is not None, "no checkpoint was written"
    saved = json.loads(latest.read_text())["timesteps"]
    assert saved >= 256
    run_dir = latest.parent.parent
    target = saved + 256
    cmd = [sys.executable, "-m", "training.train", "--resume", str(run_dir), "--set", f"run.total_timesteps={target}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"resuming {run_dir} at {saved} steps" in done.stderr
    assert json.loads(latest.read_text())["timesteps"] == target
    assert json.loads(_summary(done.stdout)["checkpoint"].read_text())["training_steps"] == target


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set", "ppo.learning_rat=0.1"], "unknown key 'ppo.learning_rat'"),
        (["--resume", "/nonexistent/run"], "no config.yaml there"),
    ],
)
def test_cli_rejects_bad_input_clearly(args, message):
    done = subprocess.run([sys.executable, "-m", "training.train", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr


def test_learning_curve_plot_from_eval_history(tmp_path):
    from training.evaluation.curves import plot_learning_curve, read_history, series

    rows = [
        {"timesteps": t, "results": {"2p": {"random": {"win_rate": w, "win_rate_ci95": [w - 0.125, w + 0.125]}}}}
        for t, w in ((2000, 0.75), (1000, 0.5))
    ]
    (tmp_path / "eval_history.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    assert series(read_history(tmp_path)) == {"2p random": [(1000, 0.5, 0.375, 0.625), (2000, 0.75, 0.625, 0.875)]}
    out = plot_learning_curve(tmp_path)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="does not exist"):
        plot_learning_curve(tmp_path / "missing")


def test_resume_takes_the_configs_ppo_settings_and_refuses_a_different_network(tmp_path):
    from training.config import load_config
    from training.train import apply_ppo_settings, build_model, make_vec_env

    small = ["run.n_envs=1", "run.vec_env=dummy", "ppo.n_steps=64", "ppo.batch_size=32"]
    cfg = load_config(None, small)
    vec_env = make_vec_env(cfg, tmp_path / "pool")
    try:
        model = build_model(cfg, vec_env, tmp_path)
        later = load_config(None, [*small, "ppo.learning_rate=1e-5", "ppo.clip_range=0.05", "ppo.ent_coef=0.02"])
        apply_ppo_settings(model, later)
        assert model.lr_schedule(1.0) == 1e-5 and model.clip_range(1.0) == 0.05 and model.ent_coef == 0.02
        with pytest.raises(ValueError, match=r"ppo.net_arch is fixed by the saved model \(\[256, 256\]\)"):
            apply_ppo_settings(model, load_config(None, [*small, "ppo.net_arch=[32, 32]"]))
        with pytest.raises(ValueError, match="ppo.n_steps is fixed"):
            apply_ppo_settings(model, load_config(None, [*small[:2], "ppo.n_steps=128", "ppo.batch_size=32"]))
    finally:
        vec_env.close()


@pytest.mark.slow  # kickstarting is tested in test_kickstart.py and resuming by the killed run above
def test_a_kickstarted_run_trains_and_resumes(tmp_path):
    from sb3_contrib import MaskablePPO

    kick = [
        "--set", "pretrain.teacher=heuristic", "--set", "pretrain.games=2", "--set", "pretrain.epochs=1",
        "--set", "pretrain.kickstart_coef=0.5", "--set", "pretrain.kickstart_decay_steps=1024",
    ]  # fmt: skip
    done = _train(tmp_path, *kick, "--set", "run.total_timesteps=512", "--set", "run.exp_name=kick")
    run_dir = _summary(done.stdout)["run_dir"]
    assert json.loads((run_dir / "checkpoints" / "final.json").read_text())["algorithm"] == "KickstartedPPO"
    assert MaskablePPO.load(run_dir / "checkpoints" / "latest.zip", device="cpu").num_timesteps == 512
    cmd = [sys.executable, "-m", "training.train", "--resume", str(run_dir), "--set", "run.total_timesteps=768"]
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert json.loads((run_dir / "checkpoints" / "final.json").read_text())["training_steps"] == 768
