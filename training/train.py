"""Train a MaskablePPO agent by self-play.

    python -m training.train [CONFIG.yaml] [--set section.key=value ...] [--resume RUN_DIR]

Without CONFIG the embedded default (the quickstart: Last Heroes, 2 players) is used. A run lives
in ``runs/{env}__{exp}__{seed}__{time}/``: the resolved config, TensorBoard logs (``tb_*``), the
opponent pool (``pool/``), resumable checkpoints (``checkpoints/latest.zip``, written atomically
every ``run.checkpoint_every`` steps) and evaluation results. ``--resume RUN_DIR`` continues a
killed run from its last checkpoint. The final policy is exported as a safe checkpoint
(weights + JSON metadata) under ``checkpoints/<game>/<exp_name>``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch: two threads made PPO 7-20x slower on 2 cores

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

import envs
from training.atomic import atomic_path, atomic_write_text
from training.config import TrainConfig, load_config, save_config
from training.pool import OpponentPool, PoolSampler
from training.single_agent import SingleAgentEnv

ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


def game_folder(env_id: str) -> str:
    """``last_heroes_v0`` -> ``last_heroes``."""
    return env_id.rsplit("_v", 1)[0]


def opponent_sampler(cfg: TrainConfig, pool_dir: Path, seed: int) -> PoolSampler:
    return PoolSampler(
        pool_dir,
        cfg.env.env_id,
        sampling=cfg.selfplay.opponent_sampling,
        latest_prob=cfg.selfplay.latest_prob,
        baselines=cfg.selfplay.baselines,
        pool_size=cfg.selfplay.pool_size,
        deterministic=cfg.selfplay.deterministic_opponents,
        seed=seed,
    )


class _EnvFactory:
    """Picklable constructor of one training env (SubprocVecEnv sends it to a worker).

    Each env draws its opponents from its own PoolSampler unless ``sampler`` is given: the
    batched vec env gives every env the same one, so that they share the loaded snapshot policies
    (decisions of the same batchable policy object are batched across envs).
    """

    def __init__(self, cfg: TrainConfig, pool_dir: Path, rank: int, sampler: PoolSampler | None = None):
        self.cfg, self.pool_dir, self.rank, self.sampler = cfg, pool_dir, rank, sampler

    def __call__(self) -> SingleAgentEnv:
        cfg = self.cfg
        seed = cfg.run.seed * 1000 + self.rank
        sampler = self.sampler if self.sampler is not None else opponent_sampler(cfg, self.pool_dir, seed)
        return SingleAgentEnv(cfg.env.env_id, cfg.env.options, opponents=sampler, seed=seed)


def make_vec_env(cfg: TrainConfig, pool_dir: Path):
    """``run.vec_env``: subproc (one worker process per env), dummy (all here, one after the other)
    or batched (all here, one shared sampler, batchable opponents' decisions batched across the envs)."""
    if cfg.run.vec_env == "batched":
        from training.vec_env import BatchedGameVecEnv

        shared = opponent_sampler(cfg, pool_dir, cfg.run.seed * 1000)
        return VecMonitor(BatchedGameVecEnv([_EnvFactory(cfg, pool_dir, i, shared) for i in range(cfg.run.n_envs)]))
    factories = [_EnvFactory(cfg, pool_dir, i) for i in range(cfg.run.n_envs)]
    if cfg.run.vec_env == "subproc" and cfg.run.n_envs > 1:
        vec = SubprocVecEnv(factories, start_method="forkserver")
    else:
        vec = DummyVecEnv(factories)
    return VecMonitor(vec)


def checkpoint_metadata(cfg: TrainConfig, steps: int, **extra: Any) -> dict[str, Any]:
    game = envs.game_class(cfg.env.env_id)(**_game_options(cfg))
    return {
        "env_id": cfg.env.env_id,
        "env_options": dict(cfg.env.options),
        "observation_size": game.observation_size,
        "num_actions": game.num_actions,
        "training_steps": int(steps),
        "seed": cfg.run.seed,
        "experiment": cfg.run.exp_name,
        **extra,
    }


def _game_options(cfg: TrainConfig) -> dict[str, Any]:
    from envs.core.aec import DRIVER_OPTIONS

    driver = {o.name for o in DRIVER_OPTIONS}
    return {k: v for k, v in cfg.env.options.items() if k not in driver}


def _eval_options(cfg: TrainConfig) -> dict[str, Any]:
    """Game options for evaluation (the player count is its own argument there)."""
    return {k: v for k, v in _game_options(cfg).items() if k != "num_players"}


def num_players(cfg: TrainConfig) -> int:
    return envs.game_class(cfg.env.env_id)(**_game_options(cfg)).num_players


def evaluate_against(cfg: TrainConfig, policy_path: Path, baselines: tuple[str, ...], games: int, seed: int):
    """Win rate of a checkpoint against each baseline, seat-balanced."""
    from training.evaluate import evaluate

    out = {}
    for baseline in baselines:
        result = evaluate(
            cfg.env.env_id,
            num_players(cfg),
            [str(policy_path), baseline],
            games,
            seed=seed,
            env_options=_eval_options(cfg),
        )
        focus = result["agents"][0]
        out[baseline] = {k: focus[k] for k in ("win_rate", "win_rate_ci95", "win_share_rate", "mean_score", "games")}
    return out


class SelfPlayCallback(BaseCallback):
    """Snapshots into the pool (with promotion), resumable checkpoints and periodic evaluation."""

    def __init__(self, cfg: TrainConfig, run_dir: Path, pool: OpponentPool, progress: bool):
        super().__init__()
        self.cfg, self.run_dir, self.pool = cfg, run_dir, pool
        self.progress = progress
        self.bar = None

    def _next(self, every: int) -> int:
        return (self.num_timesteps // every + 1) * every

    def _on_training_start(self) -> None:
        self.next_snapshot = self._next(self.cfg.selfplay.snapshot_every)
        self.next_checkpoint = self._next(self.cfg.run.checkpoint_every)
        self.next_eval = self._next(self.cfg.run.eval_every)
        if self.progress:
            from tqdm import tqdm

            self.bar = tqdm(
                total=self.cfg.run.total_timesteps,
                initial=self.num_timesteps,
                unit="step",
                desc=f"{self.cfg.env.env_id} {self.cfg.run.exp_name}",
                smoothing=0.05,
            )

    def _on_step(self) -> bool:
        if self.bar is not None:
            self.bar.update(self.num_timesteps - self.bar.n)
        if self.num_timesteps >= self.next_snapshot:
            self.next_snapshot = self._next(self.cfg.selfplay.snapshot_every)
            self.snapshot()
        if self.num_timesteps >= self.next_eval:
            self.next_eval = self._next(self.cfg.run.eval_every)
            self.evaluate()
        if self.num_timesteps >= self.next_checkpoint:
            self.next_checkpoint = self._next(self.cfg.run.checkpoint_every)
            save_resumable(self.model, self.run_dir)
        return True

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def snapshot(self) -> None:
        cfg = self.cfg
        steps = self.num_timesteps
        entry = self.pool.add_snapshot(self.model, steps, checkpoint_metadata(cfg, steps))
        best = self.pool.best
        if best is not None and best != entry["name"]:
            from training.evaluate import evaluate

            result = evaluate(
                cfg.env.env_id,
                num_players(cfg),
                [str(self.pool.root / entry["path"]), str(self.pool.path_of(best))],
                cfg.selfplay.promote_games,
                seed=steps,
                env_options=_eval_options(cfg),
            )
            rate = result["agents"][0]["win_rate"]
            self.pool.record(entry["name"], evaluation={f"vs_{best}": rate}, rating=result["agents"][0]["rating"])
            self.logger.record("selfplay/win_rate_vs_best", rate)
            if rate >= cfg.selfplay.promote_threshold:
                self.pool.promote(entry["name"])
        self.logger.record("selfplay/pool_size", len(self.pool.snapshots))

    def evaluate(self) -> None:
        cfg = self.cfg
        path = export_policy(
            self.model, self.run_dir / "checkpoints" / "current", checkpoint_metadata(cfg, self.num_timesteps)
        )
        results = evaluate_against(cfg, path, ("random", "heuristic"), cfg.run.eval_games, seed=self.num_timesteps)
        for baseline, r in results.items():
            self.logger.record(f"eval/win_rate_vs_{baseline}", r["win_rate"])
        history = self.run_dir / "eval_history.jsonl"
        with open(history, "a") as f:
            f.write(json.dumps({"timesteps": self.num_timesteps, "time": time.time(), **results}) + "\n")


def export_policy(model, stem: Path, metadata: dict[str, Any]) -> Path:
    from training.checkpoints import save_checkpoint

    save_checkpoint(model, stem, metadata)
    return stem.with_suffix(".json")


def save_resumable(model, run_dir: Path) -> None:
    """The whole SB3 model (optimizer included) for --resume, swapped in atomically."""
    folder = run_dir / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    with atomic_path(folder / "latest.zip", suffix=".zip") as tmp:
        model.save(tmp)
    atomic_write_text(folder / "latest.json", json.dumps({"timesteps": int(model.num_timesteps)}))


def build_model(cfg: TrainConfig, vec_env, run_dir: Path) -> MaskablePPO:
    p = cfg.ppo
    return MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=p.learning_rate,
        n_steps=p.n_steps,
        batch_size=p.batch_size,
        n_epochs=p.n_epochs,
        gamma=p.gamma,
        gae_lambda=p.gae_lambda,
        clip_range=p.clip_range,
        ent_coef=p.ent_coef,
        vf_coef=p.vf_coef,
        max_grad_norm=p.max_grad_norm,
        policy_kwargs={
            "net_arch": {"pi": list(p.net_arch), "vf": list(p.net_arch)},
            "activation_fn": ACTIVATIONS[p.activation],
        },
        tensorboard_log=str(run_dir),
        seed=cfg.run.seed,
        device="cpu",
        verbose=0,
    )


def pretrain(cfg: TrainConfig, model: MaskablePPO, run_dir: Path) -> dict[str, Any]:
    """Behaviour cloning of ``cfg.pretrain.teacher`` before PPO; metrics go to pretrain.json."""
    from training.pretrain import clone_into, collect_teacher_data

    p = cfg.pretrain
    started = time.time()
    data = collect_teacher_data(cfg.env.env_id, cfg.env.options, p.teacher, p.games, seed=cfg.run.seed)
    collected = time.time()
    metrics = clone_into(
        model,
        data,
        p.epochs,
        p.batch_size,
        p.learning_rate,
        p.value_coef,
        seed=cfg.run.seed,
        log=lambda m: print(
            f"pretrain epoch {m['epoch']}: loss {m['loss']:.3f}, accuracy {m['accuracy']:.3f}", file=sys.stderr
        ),
    )
    summary = {
        "teacher": p.teacher,
        "samples": len(data),
        "collect_seconds": collected - started,
        "fit_seconds": time.time() - collected,
        **metrics,
    }
    atomic_write_text(run_dir / "pretrain.json", json.dumps(summary, indent=1))
    return summary


def train(cfg: TrainConfig, run_dir: Path | None = None, resume: bool = False) -> Path:
    """Run (or resume) training; returns the exported final checkpoint's JSON path."""
    torch.set_num_threads(cfg.run.torch_threads)
    if run_dir is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        run_dir = Path(cfg.run.runs_dir) / f"{cfg.env.env_id}__{cfg.run.exp_name}__{cfg.run.seed}__{stamp}"
    run_dir.mkdir(parents=True, exist_ok=True)
    save_config(cfg, run_dir / "config.yaml")
    pool = OpponentPool(run_dir / "pool", cfg.env.env_id)
    vec_env = make_vec_env(cfg, pool.root)
    latest = run_dir / "checkpoints" / "latest.zip"
    try:
        if resume and latest.exists():
            model = MaskablePPO.load(latest, env=vec_env, device="cpu")
            model.tensorboard_log = str(run_dir)
            print(f"resuming {run_dir} at {model.num_timesteps} steps", file=sys.stderr)
        else:
            model = build_model(cfg, vec_env, run_dir)
            if cfg.pretrain.teacher != "none":
                pretrain(cfg, model, run_dir)
        remaining = cfg.run.total_timesteps - model.num_timesteps
        if remaining > 0:
            callback = SelfPlayCallback(cfg, run_dir, pool, progress=cfg.run.progress)
            model.learn(remaining, callback=callback, tb_log_name="tb", reset_num_timesteps=not resume)
            save_resumable(model, run_dir)
    finally:
        vec_env.close()
    steps = model.num_timesteps
    final = export_policy(model, run_dir / "checkpoints" / "final", checkpoint_metadata(cfg, steps))
    results = evaluate_against(cfg, final, ("random", "heuristic"), cfg.run.eval_games, seed=cfg.run.seed + 12345)
    from training.checkpoints import update_checkpoint_metadata

    update_checkpoint_metadata(final, evaluation=results, run_dir=str(run_dir))
    export_stem = Path(cfg.run.export_dir) / game_folder(cfg.env.env_id) / cfg.run.exp_name
    exported = export_policy(
        model, export_stem, checkpoint_metadata(cfg, steps, evaluation=results, run_dir=str(run_dir))
    )
    print(json.dumps({"run_dir": str(run_dir), "checkpoint": str(exported), "evaluation": results}, indent=1))
    return exported


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m training.train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("config", nargs="?", help="YAML experiment file (default: the embedded quickstart)")
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config value, e.g. --set run.total_timesteps=50000",
    )
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue a run from its last checkpoint")
    args = parser.parse_args(argv)
    try:
        if args.resume:
            run_dir = Path(args.resume)
            if not (run_dir / "config.yaml").exists():
                parser.error(f"--resume {run_dir}: no config.yaml there; is it a run folder?")
            cfg = load_config(str(run_dir / "config.yaml"), args.overrides)
            train(cfg, run_dir, resume=True)
        else:
            cfg = load_config(args.config, args.overrides)
            train(cfg)
    except ValueError as e:
        parser.error(str(e))


if __name__ == "__main__":
    main()
