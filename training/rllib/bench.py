"""RLlib sampling and training throughput (the ray side of ``benchmarks/rllib_throughput.py``).

:func:`rllib_throughput` builds the PPO algorithm of a herozoo config (``training.rllib.train``:
the masked module, the env adapter, pool or shared self-play) and measures

- sampling: ``EnvRunner.sample(num_timesteps=T)`` on the env runner(s) only, no learning; with
  ``num_env_runners=0`` the driver's local runner samples, otherwise every remote runner samples
  ``T`` steps at the same time (``foreach_env_runner``) and the steps add up;
- training: whole ``algo.train()`` iterations (sampling + learner update + weight sync).

Rates are per second of wall-clock time; with ``num_env_runners=0`` also per CPU-second of the
driver (where all the sampling happens), which a loaded machine disturbs much less.

Counted: env steps (every seat's decisions: one AEC step each) and learner steps (the decisions
of the trained module's seats: ``learner`` in pool mode, every seat in shared mode), per second
of wall-clock time. A MaskablePPO frame is one learner decision (its opponents play inside the
env's ``step``), so learner steps/s is the number to put beside MaskablePPO's frames per second.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import statistics
import time
from typing import Any

from training.rllib import require_ray
from training.rllib.config import RLlibConfig


def _count(episodes, learner_agents: str | None) -> tuple[int, int]:
    env_steps = learner_steps = 0
    for e in episodes:
        env_steps += e.env_steps()
        for agent_id, sa in e.agent_episodes.items():
            if learner_agents is None or agent_id == learner_agents:
                learner_steps += len(sa)
    return env_steps, learner_steps


def _sample_and_drain(er, steps: int, learner_agent: str | None) -> tuple[int, int]:
    """Sample ``steps`` env steps on one runner and read its metrics: otherwise the next
    ``algo.train()`` would count these steps too (it stops sampling on the runners' metrics)."""
    counts = _count(er.sample(num_timesteps=steps, explore=True), learner_agent)
    er.get_metrics()
    return counts


def rllib_throughput(
    cfg: RLlibConfig, sample_steps: int = 2000, repeats: int = 3, train_iterations: int = 2, num_cpus: int | None = 2
) -> dict[str, Any]:
    """Sampling and training rates of ``cfg`` (see the module doc); starts and stops a local Ray."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray = require_ray()
    import torch

    from training.rllib.train import SnapshotPool, build_algo_config, pool_ids

    torch.set_num_threads(cfg.run.torch_threads)
    learner_agent = "learner" if cfg.selfplay_mode == "pool" else None
    started = not ray.is_initialized()
    if started:
        ray.init(
            address="local", num_cpus=num_cpus, include_dashboard=False, log_to_driver=False, configure_logging=False
        )
    algo = None
    try:
        t0 = time.perf_counter()
        algo = build_algo_config(cfg).build_algo()
        build_s = time.perf_counter() - t0
        if cfg.selfplay_mode == "pool":
            SnapshotPool(algo, pool_ids(cfg)).fill_all(0)
        remote = cfg.resources.num_env_runners > 0
        group = algo.env_runner_group

        def sample_once() -> tuple[int, int, float, float]:
            t, c = time.perf_counter(), time.process_time()
            if remote:
                counts = group.foreach_env_runner(
                    lambda er: _sample_and_drain(er, sample_steps, learner_agent),
                    local_env_runner=False,
                )
            else:
                counts = [_sample_and_drain(group.local_env_runner, sample_steps, learner_agent)]
            dt, cpu = time.perf_counter() - t, time.process_time() - c
            return sum(n[0] for n in counts), sum(n[1] for n in counts), dt, cpu

        sample_once()  # warm-up: first episodes, numba / torch first calls
        rows = [sample_once() for _ in range(repeats)]
        env_rates = [s / dt for s, _, dt, _ in rows]
        learner_rates = [ls / dt for _, ls, dt, _ in rows]
        cpu_rates = [s / cpu for s, _, _, cpu in rows if cpu > 0]
        train_rows, train_cpu = [], []
        for _ in range(train_iterations):
            t, c = time.perf_counter(), time.process_time()
            r = algo.train()
            dt, cpu = time.perf_counter() - t, time.process_time() - c
            er = r.get("env_runners", {})
            steps = er.get("num_env_steps_sampled", 0)
            agent_steps = er.get("num_agent_steps_sampled", {}) or {}
            if learner_agent is None:
                learner = sum(agent_steps.values()) if isinstance(agent_steps, dict) else steps
            else:
                learner = agent_steps.get(learner_agent, 0) if isinstance(agent_steps, dict) else 0
            train_rows.append((steps, learner, dt))
            train_cpu.append(steps / cpu if cpu > 0 else float("nan"))
        return {
            "num_env_runners": cfg.resources.num_env_runners,
            "num_envs_per_env_runner": cfg.resources.num_envs_per_env_runner,
            "selfplay_mode": cfg.selfplay_mode,
            "build_s": round(build_s, 2),
            "sample_env_steps_per_s": round(statistics.median(env_rates), 1),
            "sample_learner_steps_per_s": round(statistics.median(learner_rates), 1),
            "sample_repeats": [round(x, 1) for x in env_rates],
            # driver CPU only: with remote runners the sampling CPU is theirs, so None
            "sample_env_steps_per_driver_cpu_s": None if remote else round(statistics.median(cpu_rates), 1),
            "train_env_steps_per_s": round(statistics.median(s / dt for s, _, dt in train_rows), 1)
            if train_rows
            else None,
            "train_learner_steps_per_s": round(statistics.median(ls / dt for _, ls, dt in train_rows), 1)
            if train_rows
            else None,
            "train_env_steps_per_driver_cpu_s": (
                None if remote or not train_cpu else round(statistics.median(train_cpu), 1)
            ),
            "train_iteration_s": [round(dt, 2) for _, _, dt in train_rows],
        }
    finally:
        if algo is not None:
            algo.stop()
        if started:
            ray.shutdown()


__all__ = ["rllib_throughput"]
