"""RLlib sampling throughput beside MaskablePPO's frames per second, on the same game, in one run.

Needs the ``rllib`` extra. The game is Last Heroes at 3 players with the options of
``configs/rllib/last_heroes.yaml`` (``auto_skip_forced``, ``engine: compiled``, ``win_loss``),
a 256x256 tanh network for both, on a local Ray instance limited to ``--cpus`` (default 2).

Rows (see :mod:`training.rllib.bench` for what is timed):

| row | what |
|---|---|
| ``rllib sample, R runners x E envs`` | ``EnvRunner.sample`` only, pool self-play (main vs frozen snapshots) |
| ``rllib train, R runners x E envs`` | whole ``algo.train()`` iterations (sampling + PPO update) |
| ``maskable_ppo vs checkpoint`` | ``MaskablePPO.learn`` frames/s, 4 envs in-process (DummyVecEnv); opponents: a |
|  | fresh 256x256 checkpoint (numpy seat actors), as the self-play pool plays them |
| ``maskable_ppo vs random`` | the same, random opponents (the cheapest opponent) |

Units: env steps/s counts every seat's decisions (one AEC step each); learner steps/s only the
trained policy's decisions (the ``learner`` seat). A MaskablePPO frame is a learner decision, so
compare learner steps/s with frames/s. All rates are wall-clock, medians over ``--repeats``; on a
shared machine they are noisy, and only rows of the same run compare.

Usage (from the repository root)::

    python -m benchmarks.rllib_throughput                        # 0 runners x 1 and x 8 envs, and MaskablePPO
    python -m benchmarks.rllib_throughput --runners 0 2 --envs 1 8 --json rllib_bench.json
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 3


def maskable_ppo_fps(options: dict[str, Any], opponents: str, timesteps: int, repeats: int, seed: int = 0) -> dict:
    """MaskablePPO.learn frames per second (quickstart PPO settings, 256x256 tanh, 4 dummy envs)."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from training.config import config_from_dict
    from training.runtime.checkpoints import save_checkpoint
    from training.runtime.inference import CheckpointPolicy
    from training.runtime.policies import RandomPolicy
    from training.single_agent import FixedOpponents, SingleAgentEnv
    from training.train import build_model

    torch.set_num_threads(1)
    cfg = config_from_dict(
        {
            "env": {"env_id": "last_heroes_v0", "options": dict(options, num_players=PLAYERS)},
            "ppo": {"net_arch": [256, 256], "activation": "tanh"},
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = None
        if opponents == "checkpoint":
            probe = build_model(
                cfg,
                VecMonitor(
                    DummyVecEnv([lambda: SingleAgentEnv("last_heroes_v0", dict(options, num_players=PLAYERS), seed=0)])
                ),
                Path(tmp),
            )
            ckpt = save_checkpoint(probe, Path(tmp) / "opponent", {"env_id": "last_heroes_v0"})

        def factory(rank):
            def make():
                if ckpt is None:
                    opp = FixedOpponents(RandomPolicy(seed + rank))
                else:
                    opp = FixedOpponents(CheckpointPolicy(ckpt, "last_heroes_v0", deterministic=False, seed=rank))
                return SingleAgentEnv(
                    "last_heroes_v0", dict(options, num_players=PLAYERS), opponents=opp, seed=seed * 1000 + rank
                )

            return make

        vec = VecMonitor(DummyVecEnv([factory(i) for i in range(cfg.run.n_envs)]))
        model = build_model(cfg, vec, Path(tmp) / "tb")
        model.learn(cfg.ppo.n_steps * cfg.run.n_envs, reset_num_timesteps=True)  # warm-up (numba, first calls)
        rates, cpu_rates = [], []
        for _ in range(repeats):
            t, c = time.perf_counter(), time.process_time()
            model.learn(timesteps, reset_num_timesteps=True)
            rates.append(model.num_timesteps / (time.perf_counter() - t))
            cpu_rates.append(model.num_timesteps / (time.process_time() - c))
        vec.close()
    return {
        "frames_per_s": round(statistics.median(rates), 1),
        "frames_per_cpu_s": round(statistics.median(cpu_rates), 1),
        "repeats": [round(r, 1) for r in rates],
        "n_envs": cfg.run.n_envs,
        "n_steps": cfg.ppo.n_steps,
        "n_epochs": cfg.ppo.n_epochs,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.rllib_throughput", description=__doc__.split("\n\n")[0])
    ap.add_argument("--runners", type=int, nargs="+", default=[0], help="num_env_runners values (default: 0)")
    ap.add_argument("--envs", type=int, nargs="+", default=[1, 8], help="num_envs_per_env_runner values")
    ap.add_argument("--sample-steps", type=int, default=2000, help="env steps per sample() call (per runner)")
    ap.add_argument("--train-iterations", type=int, default=2, help="algo.train() calls per setting (0: none)")
    ap.add_argument("--train-batch", type=int, default=4000, help="ppo.train_batch_size of those iterations")
    ap.add_argument("--ppo-timesteps", type=int, default=4096, help="MaskablePPO frames per repeat (2 updates)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray instance")
    ap.add_argument("--skip-ppo", action="store_true", help="RLlib rows only")
    ap.add_argument("--json", default=None, help="also write the results here")
    args = ap.parse_args(argv)

    from training.rllib.bench import rllib_throughput
    from training.rllib.config import load_config

    base = load_config(ROOT / "configs" / "rllib" / "last_heroes.yaml")
    options = dict(base.env.options)
    results: dict[str, Any] = {
        "game": f"last_heroes_v0, {PLAYERS} players, options {options}",
        "machine": {
            "python": platform.python_version(),
            "cpus_visible": os.cpu_count(),
            "loadavg_start": os.getloadavg(),
        },
        "rows": [],
    }
    t_start = time.time()
    for runners in args.runners:
        for n_envs in args.envs:
            cfg = load_config(
                ROOT / "configs" / "rllib" / "last_heroes.yaml",
                [
                    f"env.player_counts=[{PLAYERS}]",
                    f"resources.num_env_runners={runners}",
                    f"resources.num_envs_per_env_runner={n_envs}",
                    f"ppo.train_batch_size={args.train_batch}",
                    f"ppo.minibatch_size={min(500, args.train_batch)}",
                ],
            )
            r = rllib_throughput(
                cfg,
                sample_steps=args.sample_steps,
                repeats=args.repeats,
                train_iterations=args.train_iterations,
                num_cpus=args.cpus,
            )
            r["row"] = f"rllib, {runners} runners x {n_envs} envs"
            results["rows"].append(r)
            print(
                f"{r['row']}: sample {r['sample_env_steps_per_s']} env steps/s "
                f"({r['sample_learner_steps_per_s']} learner steps/s); train {r['train_env_steps_per_s']} env steps/s "
                f"({r['train_learner_steps_per_s']} learner steps/s)",
                flush=True,
            )
    if not args.skip_ppo:
        for opponents in ("checkpoint", "random"):
            r = maskable_ppo_fps(options, opponents, args.ppo_timesteps, args.repeats)
            r["row"] = f"maskable_ppo vs {opponents}"
            results["rows"].append(r)
            print(
                f"{r['row']}: {r['frames_per_s']} frames/s, {r['frames_per_cpu_s']} per CPU-s "
                "(learner decisions, learn() incl. updates)",
                flush=True,
            )
    results["machine"]["loadavg_end"] = os.getloadavg()
    results["wall_s"] = round(time.time() - t_start, 1)

    print()
    print(results["game"])
    print(
        "| row | sampling env steps/s | per driver CPU-s | sampling learner steps/s | training env steps/s "
        "| training learner steps/s (MaskablePPO: frames/s) | training per driver CPU-s (MaskablePPO: frames) |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in results["rows"]:
        if r["row"].startswith("rllib"):
            print(
                f"| {r['row']} | {r['sample_env_steps_per_s']} | {r['sample_env_steps_per_driver_cpu_s']} "
                f"| {r['sample_learner_steps_per_s']} | {r['train_env_steps_per_s']} "
                f"| {r['train_learner_steps_per_s']} | {r['train_env_steps_per_driver_cpu_s']} |"
            )
        else:
            print(f"| {r['row']} | | | | | {r['frames_per_s']} | {r['frames_per_cpu_s']} |")
    print(f"load average {results['machine']['loadavg_start']} -> {results['machine']['loadavg_end']}")
    if args.json:
        from benchmarks.env_throughput import write_json_atomic

        write_json_atomic(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
