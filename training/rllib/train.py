"""Train a herozoo bot with RLlib PPO (new API stack): ``python -m training.rllib.train CONFIG [--address auto]``.

    python -m training.rllib.train configs/rllib/last_heroes.yaml
    python -m training.rllib.train configs/rllib/last_heroes.yaml --set run.iterations=20 \
        --set resources.num_env_runners=1
    python -m training.rllib.train configs/rllib/last_heroes.yaml --address auto      # on a running Ray cluster

Self-play (``selfplay.mode``):

- ``shared``: every seat is played by one module, ``shared``, which learns from every seat's
  experience. Cooperative games always train this way; it is also symmetric self-play for the
  competitive ones.
- ``pool`` (competitive games): the env names one seat per episode ``learner`` (module ``main``,
  the only one trained); every other seat is played by a frozen snapshot module ``pool_<k>``
  drawn uniformly per seat and episode (or by ``main`` itself with ``selfplay.main_prob``). All
  slots start as copies of the initial ``main``; every ``selfplay.snapshot_every`` iterations
  ``main`` is copied into the next slot (round robin), on the learner and on every env runner.

A run writes ``runs/rllib__{env}__{exp}__{seed}__{time}/``: ``config.yaml``, ``progress.jsonl``
(one line per iteration) and the same numbers for TensorBoard (``tb/``: ``rllib/*`` and the win
rates under ``selfplay/*``, read from the game's outcome), RLlib checkpoints ``checkpoints/iter_{n:06d}/`` every
``run.checkpoint_every`` iterations and ``checkpoints/final/`` (each with a ``herozoo.json``
beside RLlib's files, which the export reads), and the trained policy in herozoo's checkpoint
format, ``policy/final.{pt,json}``: ``load_policy("runs/.../policy/final.json", env_id)`` plays
it without ray, as ``load_policy("rllib:runs/.../checkpoints/final", env_id)`` does.

Without ``--address`` a local Ray instance is started (token auth off: ``RAY_AUTH_MODE=disabled``
unless set) and stopped at the end. See docs/rllib.md for clusters and the settings that matter.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch: the driver samples and learns on a small box

import argparse
import functools
import json
import random
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

import envs
from training.rllib import require_ray
from training.rllib.config import RLlibConfig, load_config

SHARED, MAIN = "shared", "main"
SIDECAR = "herozoo.json"


def pool_ids(cfg: RLlibConfig) -> list[str]:
    return [f"pool_{k}" for k in range(cfg.selfplay.pool_size)]


def map_shared(agent_id, episode, **kwargs) -> str:
    """Shared mode: every seat plays (and trains) the one module."""
    return SHARED


def map_pool(agent_id, episode, pool_size: int = 1, main_prob: float = 0.0, **kwargs) -> str:
    """Pool mode: the learner seat is ``main``; each other seat a random frozen slot (or main)."""
    if agent_id == "learner":
        return MAIN
    if main_prob > 0.0 and random.random() < main_prob:
        return MAIN
    return f"pool_{random.randrange(pool_size)}"


def env_config(cfg: RLlibConfig) -> dict[str, Any]:
    return {
        "env_id": cfg.env.env_id,
        "options": dict(cfg.env.options),
        "player_counts": list(cfg.env.player_counts),
        "agent_names": "learner" if cfg.selfplay_mode == "pool" else "seats",
        "seed": cfg.run.seed,
    }


def trained_module(cfg: RLlibConfig) -> str:
    return MAIN if cfg.selfplay_mode == "pool" else SHARED


def build_algo_config(cfg: RLlibConfig):
    """The ``PPOConfig`` of a herozoo config (see the module doc for the self-play modes)."""
    require_ray()
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from training.rllib.callbacks import HerozooCallbacks
    from training.rllib.env import HerozooMultiAgentEnv
    from training.rllib.module import MaskedPPOTorchRLModule, model_config

    spec = RLModuleSpec(
        module_class=MaskedPPOTorchRLModule, model_config=model_config(cfg.ppo.net_arch, cfg.ppo.activation)
    )
    if cfg.selfplay_mode == "pool":
        module_ids = [MAIN, *pool_ids(cfg)]
        mapping = functools.partial(map_pool, pool_size=cfg.selfplay.pool_size, main_prob=cfg.selfplay.main_prob)
        to_train = [MAIN]
    else:
        module_ids = [SHARED]
        mapping = map_shared
        to_train = [SHARED]
    res, ppo = cfg.resources, cfg.ppo
    config = (
        PPOConfig()
        .environment(HerozooMultiAgentEnv, env_config=env_config(cfg), disable_env_checking=True)
        .env_runners(
            num_env_runners=res.num_env_runners,
            num_envs_per_env_runner=res.num_envs_per_env_runner,
            num_cpus_per_env_runner=res.num_cpus_per_env_runner,
            rollout_fragment_length=res.rollout_fragment_length,
        )
        .learners(
            num_learners=res.num_learners,
            num_cpus_per_learner=res.num_cpus_per_learner,
            num_gpus_per_learner=res.num_gpus_per_learner,
        )
        .multi_agent(policies=set(module_ids), policy_mapping_fn=mapping, policies_to_train=to_train)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: spec for m in module_ids}))
        .training(
            lr=ppo.lr,
            train_batch_size_per_learner=ppo.train_batch_size,
            minibatch_size=ppo.minibatch_size,
            num_epochs=ppo.num_epochs,
            gamma=ppo.gamma,
            lambda_=ppo.lambda_,
            clip_param=ppo.clip_param,
            entropy_coeff=ppo.entropy_coeff,
            vf_loss_coeff=ppo.vf_loss_coeff,
            vf_clip_param=ppo.vf_clip_param,
            use_kl_loss=ppo.kl_coeff > 0,
            kl_coeff=ppo.kl_coeff,
            grad_clip=ppo.grad_clip,
        )
        .callbacks(HerozooCallbacks)
        .debugging(seed=cfg.run.seed)
    )
    return config


class SnapshotPool:
    """Pool mode: copies ``main`` into the frozen slots (learner and every env runner)."""

    def __init__(self, algo, slots: list[str]):
        self.algo, self.slots, self.next = algo, slots, 0
        self.filled_at: dict[str, int] = {}

    def _main_weights(self) -> dict:
        return self.algo.learner_group.get_weights(module_ids=[MAIN])[MAIN]

    def _set(self, slots: list[str], weights: dict) -> None:
        states = {s: weights for s in slots}
        self.algo.learner_group.set_weights(states)
        # A state without a weights_seq_no is always applied (sync_weights would drop it, see docs/rllib.md).
        self.algo.env_runner_group.foreach_env_runner(lambda er: er.set_state({"rl_module": states}))

    def fill_all(self, iteration: int = 0) -> None:
        self._set(self.slots, self._main_weights())
        self.filled_at = {s: iteration for s in self.slots}

    def snapshot(self, iteration: int) -> str:
        slot = self.slots[self.next % len(self.slots)]
        self.next += 1
        self._set([slot], self._main_weights())
        self.filled_at[slot] = iteration
        return slot


def make_run_dir(cfg: RLlibConfig) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    run_dir = Path(cfg.run.runs_dir) / f"rllib__{cfg.env.env_id}__{cfg.run.exp_name}__{cfg.run.seed}__{stamp}"
    run_dir.mkdir(parents=True, exist_ok=False)
    return run_dir


def save_rllib_checkpoint(algo, cfg: RLlibConfig, path: Path, iteration: int, env_steps: int) -> Path:
    """An RLlib checkpoint at ``path`` with the herozoo sidecar the export reads."""
    from training.atomic import atomic_write_text

    path = Path(algo.save(str(path.resolve())).checkpoint.path)
    sidecar = {
        "format": "herozoo-rllib",
        "format_version": 1,
        "env_id": cfg.env.env_id,
        "env_options": dict(cfg.env.options),
        "player_counts": list(cfg.env.player_counts),
        "selfplay_mode": cfg.selfplay_mode,
        "trained_module": trained_module(cfg),
        "policy": {
            "net_arch_pi": list(cfg.ppo.net_arch),
            "net_arch_vf": list(cfg.ppo.net_arch),
            "activation": cfg.ppo.activation,
        },
        "iterations": iteration,
        "training_steps": env_steps,
        "seed": cfg.run.seed,
        "config": cfg.to_dict(),
    }
    atomic_write_text(path / SIDECAR, json.dumps(sidecar, indent=2) + "\n")
    return path


def _summary(r: dict, trained: str, dt: float, steps_before: int) -> dict[str, Any]:
    er = r.get("env_runners", {})
    learner = r.get("learners", {}).get(trained, {})
    steps = int(er.get("num_env_steps_sampled_lifetime", 0) or r.get("num_env_steps_sampled_lifetime", 0) or 0)
    out = {
        "env_steps": steps,
        "iteration_s": round(dt, 3),
        "env_steps_per_s": round((steps - steps_before) / dt, 1) if dt > 0 else None,
        "episodes": er.get("num_episodes_lifetime"),
    }
    for k, v in sorted(er.items()):
        if isinstance(k, str) and k.startswith("herozoo/") and v == v:  # a window without new episodes is nan
            out[k.split("/", 1)[1]] = round(float(v), 4)
    for k in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var"):
        if k in learner:
            out[k] = round(float(learner[k]), 5)
    return out


def _tensorboard(path: Path):
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:  # tensorboard missing: progress.jsonl still has every number
        return None
    return SummaryWriter(str(path))


def train(
    cfg: RLlibConfig, address: str | None = None, run_dir: Path | None = None, log=print, on_iteration=None
) -> dict[str, Any]:
    """Run the config; return ``{"run_dir", "rllib_checkpoint", "policy", "history"}``.

    ``on_iteration(algo, iteration, row)`` is called after each iteration (and its snapshot), e.g.
    by tests that look inside the running algorithm. A Ray instance already running is used as it
    is (and left running); otherwise one is started (local, or ``address``) and shut down at the end.
    """
    if address is None:
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # local: no ~/.ray/auth_token is written
    ray = require_ray()
    import torch

    torch.set_num_threads(cfg.run.torch_threads)
    from training.rllib.export import export_checkpoint

    run_dir = Path(run_dir) if run_dir is not None else make_run_dir(cfg)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    started_ray = False
    if not ray.is_initialized():
        if address is None:
            ray.init(
                address="local",
                num_cpus=cfg.resources.num_cpus,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        else:
            # The cluster's nodes import herozoo from their own install (the same version everywhere).
            ray.init(address=address, log_to_driver=False)
        started_ray = True
    algo = writer = None
    history = []
    try:
        algo = build_algo_config(cfg).build_algo()
        trained = trained_module(cfg)
        pool = None
        if cfg.selfplay_mode == "pool":
            pool = SnapshotPool(algo, pool_ids(cfg))
            pool.fill_all(0)
        steps = 0
        writer = _tensorboard(run_dir / "tb")
        ckpt_dir = run_dir / "checkpoints"
        progress = run_dir / "progress.jsonl"
        log(
            f"herozoo RLlib run {run_dir} ({cfg.env.env_id}, {cfg.selfplay_mode} self-play, "
            f"{cfg.resources.num_env_runners} env runners x {cfg.resources.num_envs_per_env_runner} envs)"
        )
        for it in range(1, cfg.run.iterations + 1):
            t0 = time.perf_counter()
            r = algo.train()
            dt = time.perf_counter() - t0
            row = {"iteration": it, **_summary(r, trained, dt, steps)}
            steps = row["env_steps"]
            if pool is not None and it % cfg.selfplay.snapshot_every == 0 and it < cfg.run.iterations:
                row["snapshot"] = pool.snapshot(it)
            history.append(row)
            if writer is not None:
                for k, v in row.items():
                    if isinstance(v, (int, float)) and k not in ("iteration", "env_steps"):
                        writer.add_scalar(f"rllib/{k}" if "win_rate" not in k else f"selfplay/{k}", v, steps)
                writer.flush()
            if on_iteration is not None:
                on_iteration(algo, it, row)
            with open(progress, "a") as f:
                f.write(json.dumps(row) + "\n")
            log("  " + "  ".join(f"{k}={v}" for k, v in row.items()))
            if cfg.run.checkpoint_every and it % cfg.run.checkpoint_every == 0 and it < cfg.run.iterations:
                save_rllib_checkpoint(algo, cfg, ckpt_dir / f"iter_{it:06d}", it, steps)
        final = save_rllib_checkpoint(algo, cfg, ckpt_dir / "final", cfg.run.iterations, steps)
        policy = export_checkpoint(final, run_dir / "policy" / "final")
        out = {"run_dir": run_dir, "rllib_checkpoint": final, "policy": policy, "history": history}
        if cfg.run.export_dir:
            game = envs.game_name(cfg.env.env_id)
            out["exported"] = export_checkpoint(final, Path(cfg.run.export_dir) / game / cfg.run.exp_name)
        log(f"RLlib checkpoint: {final}")
        log(f"herozoo policy:   {policy}   (load_policy({str(policy)!r}, {cfg.env.env_id!r}))")
        log(f"evaluate:         python -m training.evaluate {cfg.env.env_id} --agents {policy} heuristic --games 200")
        return out
    finally:
        if writer is not None:
            writer.close()
        if algo is not None:
            algo.stop()
        if started_ray:
            ray.shutdown()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.rllib.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("config", nargs="?", help="YAML config (configs/rllib/*.yaml); none: the defaults")
    ap.add_argument(
        "--address",
        default=None,
        help="Ray cluster to join ('auto': the one this node belongs to); default: a local instance",
    )
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE", help="override a config key")
    ap.add_argument("--run-dir", default=None, help="write here instead of a new runs/rllib__... folder")
    args = ap.parse_args(argv)
    try:
        cfg = load_config(args.config, args.set)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    train(cfg, address=args.address, run_dir=Path(args.run_dir) if args.run_dir else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
