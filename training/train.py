"""Train a MaskablePPO agent by self-play.

    python -m training.train [CONFIG.yaml] [--set section.key=value ...] [--resume RUN_DIR]

Without CONFIG the embedded default (the quickstart: Last Heroes, 2 players) is used. A run lives
in ``runs/{env}__{exp}__{seed}__{time}/``: the resolved config, TensorBoard logs (``tb_*``), the
opponent pool (``pool/``), resumable checkpoints (``checkpoints/latest.zip``, written atomically
every ``run.checkpoint_every`` steps) and evaluation results. ``--resume RUN_DIR`` continues a
killed run from its last checkpoint. The final policy is a safe checkpoint (weights + JSON
metadata) in the run folder, ``checkpoints/final.{pt,json}``, evaluated at every table size of the
run; ``run.export_dir`` also exports it to ``<export_dir>/<game>/<exp_name>.{pt,json}``. Nothing
is written outside the run folder unless asked. Training ends with a short summary: the
evaluation table, where the checkpoint is, and how to evaluate or use it.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch: two threads made PPO 7-20x slower on 2 cores

import argparse
import json
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

import envs
from envs.core.options import split_options
from training.atomic import atomic_path, atomic_write_text
from training.config import TrainConfig, load_config, save_config, with_training_options
from training.kickstart import KickstartedPPO
from training.pool import OpponentPool, PoolSampler
from training.runtime.policies import load_policy
from training.single_agent import SingleAgentEnv

ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


def _seat_sampler(cfg: TrainConfig, pool_dir: Path, seed: int, weights: dict[str, float], rest: str) -> PoolSampler:
    return PoolSampler(
        pool_dir,
        cfg.env.env_id,
        sampling=cfg.selfplay.opponent_sampling,
        latest_prob=cfg.selfplay.latest_prob,
        weights=weights,
        pool_size=cfg.selfplay.pool_size,
        deterministic=cfg.selfplay.deterministic_opponents,
        seed=seed,
        rest=rest,
    )


def opponent_sampler(cfg: TrainConfig, pool_dir: Path, seed: int) -> PoolSampler:
    """Competitive games: each opponent seat's policy per episode (baselines, else the pool)."""
    return _seat_sampler(cfg, pool_dir, seed, cfg.selfplay.baselines, rest="pool")


def partner_sampler(cfg: TrainConfig, pool_dir: Path, seed: int) -> PoolSampler | None:
    """Cooperative games: each seat's partner per episode, or None where the learner plays it."""
    if not cfg.selfplay.partners:
        return None
    return _seat_sampler(cfg, pool_dir, seed, cfg.selfplay.partners, rest="learner")


def is_cooperative(cfg: TrainConfig) -> bool:
    return bool(envs.game_class(cfg.env.env_id).cooperative)


class _EnvFactory:
    """Picklable constructor of one training env (SubprocVecEnv sends it to a worker).

    It carries the env registry of this process, so a game registered with ``envs.register`` here
    is known in the worker processes too."""

    def __init__(self, cfg: TrainConfig, pool_dir: Path, rank: int):
        self.cfg, self.pool_dir, self.rank = cfg, pool_dir, rank
        self.registry = envs.registry()

    def __call__(self) -> SingleAgentEnv:
        for env_id, module in self.registry.items():
            envs.register(env_id, module)
        cfg = self.cfg
        seed = cfg.run.seed * 1000 + self.rank
        cooperative = is_cooperative(cfg)
        teacher = None
        if cfg.pretrain.kickstart_coef > 0:
            teacher = load_policy(cfg.pretrain.teacher, cfg.env.env_id, seed=seed)
        return SingleAgentEnv(
            cfg.env.env_id,
            cfg.env.options,
            opponents=None if cooperative else opponent_sampler(cfg, self.pool_dir, seed),
            partners=partner_sampler(cfg, self.pool_dir, seed) if cooperative else None,
            seed=seed,
            player_counts=cfg.env.player_counts or None,
            teacher=teacher,
        )


def make_vec_env(cfg: TrainConfig, pool_dir: Path):
    """``run.vec_env``: subproc (one worker process per env) or dummy (all here, one after the other)."""
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
        "player_counts": list(cfg.env.player_counts) or table_sizes(cfg),  # as drawn, repeats included
        "observation_size": game.observation_size,
        "num_actions": game.num_actions,
        "training_steps": int(steps),
        "seed": cfg.run.seed,
        "experiment": cfg.run.exp_name,
        **extra,
    }


def _game_options(cfg: TrainConfig) -> dict[str, Any]:
    return split_options(envs.game_class(cfg.env.env_id), cfg.env.options)[1]


def _eval_options(cfg: TrainConfig) -> dict[str, Any]:
    """Game options for evaluation (the player count is its own argument there)."""
    return {k: v for k, v in _game_options(cfg).items() if k != "num_players"}


def _option_default(cfg: TrainConfig, name: str) -> Any:
    return {o.name: o.default for o in envs.game_class(cfg.env.env_id).option_spec}[name]


def table_sizes(cfg: TrainConfig) -> list[int]:
    """The player counts a run trains and evaluates at."""
    if cfg.env.player_counts:
        return sorted(set(cfg.env.player_counts))
    return [envs.game_class(cfg.env.env_id)(**_game_options(cfg)).num_players]


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    """The few numbers of one evaluation that a training log keeps."""
    if result["kind"] == "cooperative":
        team = result["team"]
        return {k: team[k] for k in ("win_rate", "win_rate_ci95", "mean_score", "mean_decisions", "games")}
    focus = result["agents"][0]
    return {k: focus[k] for k in ("win_rate", "win_rate_ci95", "win_share_rate", "mean_score", "games")}


def lineups_to_evaluate(cooperative: bool, policy: str, num_players: int) -> dict[str, list[str]]:
    """What a checkpoint is measured in: against each baseline (competitive), or as a team on its own
    and beside heuristic partners (cooperative)."""
    if not cooperative:
        return {"random": [policy, "random"], "heuristic": [policy, "heuristic"]}
    out = {"team": [policy]}
    if num_players > 1:
        out["with_heuristic"] = [policy, "heuristic"]
    return out


def evaluate_policy(
    cfg: TrainConfig, policy_path: Path, games: int, seed: int, extra_options: dict[str, Any] | None = None
) -> dict[str, dict[str, Any]]:
    """``{"<n>p": {line-up name: summary}}`` at every table size of the run (see lineups_to_evaluate)."""
    from training.evaluation.tournament import evaluate

    cooperative = is_cooperative(cfg)
    options = {**_eval_options(cfg), **(extra_options or {})}
    out: dict[str, dict[str, Any]] = {}
    for n in table_sizes(cfg):
        out[f"{n}p"] = {
            name: _summary(evaluate(cfg.env.env_id, n, agents, games, seed=seed, env_options=options))
            for name, agents in lineups_to_evaluate(cooperative, str(policy_path), n).items()
        }
    return out


def promotion_score(cfg: TrainConfig, candidate: Path, best: Path, seed: int) -> float:
    """How the candidate snapshot compares with the best, on the measure of the game's kind.

    Competitive: its win share head-to-head against the best (the candidate in one seat, the best
    in the others), times n / 2 so that 0.5 is parity at every table size, averaged over the table
    sizes. Cooperative: 0.5 + (its team's win rate - the best team's win rate) on the same deals.
    """
    from training.evaluation.tournament import evaluate

    sizes = table_sizes(cfg)
    games = max(1, cfg.selfplay.promote_games // len(sizes))
    options = _eval_options(cfg)
    scores = []
    for n in sizes:
        if is_cooperative(cfg):
            rates = [
                evaluate(cfg.env.env_id, n, [str(p)], games, seed=seed, env_options=options)["team"]["win_rate"]
                for p in (candidate, best)
            ]
            scores.append(0.5 + rates[0] - rates[1])
        else:
            result = evaluate(cfg.env.env_id, n, [str(candidate), str(best)], games, seed=seed, env_options=options)
            scores.append(result["agents"][0]["win_share_rate"] * n / 2)
    return float(np.mean(scores))


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
            score = promotion_score(cfg, self.pool.root / entry["path"], self.pool.path_of(best), seed=steps)
            self.pool.record(entry["name"], evaluation={f"promotion_score_vs_{best}": score})
            self.logger.record("selfplay/promotion_score_vs_best", score)
            if score >= cfg.selfplay.promote_threshold:
                self.pool.promote(entry["name"])
        self.logger.record("selfplay/pool_size", len(self.pool.snapshots))

    def evaluate(self) -> None:
        cfg = self.cfg
        path = export_policy(
            self.model, self.run_dir / "checkpoints" / "current", checkpoint_metadata(cfg, self.num_timesteps)
        )
        results = evaluate_policy(cfg, path, cfg.run.eval_games, seed=self.num_timesteps)
        for table, by_lineup in results.items():
            for name, r in by_lineup.items():
                self.logger.record(f"eval/{table}/win_rate_{name}", r["win_rate"])
        with open(self.run_dir / "eval_history.jsonl", "a") as f:
            f.write(json.dumps({"timesteps": self.num_timesteps, "time": time.time(), "results": results}) + "\n")


def export_policy(model, stem: Path, metadata: dict[str, Any]) -> Path:
    from training.runtime.checkpoints import save_checkpoint

    save_checkpoint(model, stem, metadata)
    return stem.with_suffix(".json")


def save_resumable(model, run_dir: Path) -> None:
    """The whole SB3 model (optimizer included) for --resume, swapped in atomically."""
    folder = run_dir / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    with atomic_path(folder / "latest.zip", suffix=".zip") as tmp:
        model.save(tmp)
    atomic_write_text(folder / "latest.json", json.dumps({"timesteps": int(model.num_timesteps)}))


def algorithm_class(cfg: TrainConfig) -> type[MaskablePPO]:
    """MaskablePPO, or its kickstarted form when pretrain.kickstart_coef > 0 (same policy, same save format)."""
    return KickstartedPPO if cfg.pretrain.kickstart_coef > 0 else MaskablePPO


def build_model(cfg: TrainConfig, vec_env, run_dir: Path) -> MaskablePPO:
    p = cfg.ppo
    return algorithm_class(cfg)(
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


def init_from_checkpoint(model: MaskablePPO, path: str, env_id: str) -> None:
    """Load a herozoo checkpoint's weights (policy and value heads) into ``model``'s network; a
    checkpoint of another game or shape, or without its value head, is a clear error."""
    from training.runtime.checkpoints import CheckpointError, load_checkpoint

    weights, meta = load_checkpoint(path, env_id=env_id)
    state = model.policy.state_dict()
    missing = sorted(k for k in state if k not in weights)
    if missing:
        raise CheckpointError(
            f"pretrain.init {path}: the checkpoint lacks {missing[:4]} (saved without its value head?)"
        )
    for key, tensor in state.items():
        if tuple(weights[key].shape) != tuple(tensor.shape):
            raise CheckpointError(
                f"pretrain.init {path}: {key} has shape {tuple(weights[key].shape)}, the network {tuple(tensor.shape)} "
                f"(the checkpoint's network is {meta['policy']}; set ppo.net_arch and ppo.activation to match)"
            )
    model.policy.load_state_dict({k: torch.as_tensor(weights[k]) for k in state})


def apply_ppo_settings(model: MaskablePPO, cfg: TrainConfig) -> None:
    """On --resume, the config's PPO settings replace the saved ones (a lower learning rate for the
    last stretch, say). The network and the rollout size are fixed by the saved model: changing
    them is an error rather than a silent no-op."""
    from stable_baselines3.common.utils import FloatSchedule

    p = cfg.ppo
    saved = model.policy.net_arch
    saved_arch = list(saved["pi"]) if isinstance(saved, dict) else list(saved)
    fixed = {
        "ppo.net_arch": (saved_arch, list(p.net_arch)),
        "ppo.activation": (model.policy.activation_fn, ACTIVATIONS[p.activation]),
        "ppo.n_steps": (model.n_steps, p.n_steps),
    }
    for key, (was, now) in fixed.items():
        if was != now:
            raise ValueError(f"--resume: {key} is fixed by the saved model ({was}); the config asks for {now}")
    model.learning_rate = p.learning_rate
    model._setup_lr_schedule()
    model.clip_range = FloatSchedule(p.clip_range)
    model.batch_size, model.n_epochs = p.batch_size, p.n_epochs
    model.gamma, model.gae_lambda = p.gamma, p.gae_lambda
    model.rollout_buffer.gamma, model.rollout_buffer.gae_lambda = p.gamma, p.gae_lambda
    model.ent_coef, model.vf_coef, model.max_grad_norm = p.ent_coef, p.vf_coef, p.max_grad_norm


def _fit_line(m: dict[str, Any]) -> str:
    """One epoch's (or a whole fit's) metrics as a log line."""
    line = f"epoch {m['epoch']}"
    if "loss" in m:
        line += f": loss {m['loss']:.3f}, accuracy {m['accuracy']:.3f}"
    if "holdout_loss" in m:
        line += f"; held out: loss {m['holdout_loss']:.3f}, accuracy {m['holdout_accuracy']:.3f}"
    if "best_epoch" in m:
        line += f"; kept epoch {m['best_epoch']} (held-out accuracy {m['best_holdout_accuracy']:.3f})"
    return line


def pretrain(cfg: TrainConfig, model: MaskablePPO, run_dir: Path) -> dict[str, Any]:
    """Behaviour cloning of ``cfg.pretrain.teacher`` before PPO, then ``dagger_rounds`` of DAgger;
    metrics (per round: the clone's agreement on its own positions, its mean result) go to
    pretrain.json."""
    from training.pretrain import ModelStudent, TeacherData, clone_into, collect_teacher_data
    from training.runtime.checkpoints import save_checkpoint

    p = cfg.pretrain
    started = time.time()

    def collect(
        games: int, seed: int, student=None, stats=None, teacher: str = p.teacher, target: str = "visits", others=None
    ):
        return collect_teacher_data(
            cfg.env.env_id,
            cfg.env.options,
            teacher,
            games,
            seed=seed,
            player_counts=cfg.env.player_counts,
            student=student,
            stats=stats,
            workers=p.workers,
            target=target,
            target_scale=p.exit_target_scale,
            others=others,
        )

    def fit(data, round_: int, epochs: int | None = None) -> dict[str, float]:
        return clone_into(
            model,
            data,
            epochs or (p.dagger_epochs if round_ else p.epochs),
            p.batch_size,
            p.learning_rate,
            p.value_coef,
            seed=cfg.run.seed + round_,
            log=lambda m: print(f"pretrain round {round_} {_fit_line(m)}", file=sys.stderr),
            holdout=p.holdout,
        )

    summary: dict[str, Any] = {"init": p.init or None, "teacher": p.teacher}
    if p.teacher != "none":
        data = collect(p.games, cfg.run.seed)
        collected = time.time()
        metrics = fit(data, 0)
        summary |= {
            "samples": len(data),
            "collect_seconds": collected - started,
            "fit_seconds": time.time() - collected,
            **metrics,
        }
    rounds = []
    for r in range(1, p.dagger_rounds + 1 if p.teacher != "none" else 1):
        stats: dict[str, float] = {}
        seed = cfg.run.seed + 7919 * r  # fresh deals every round
        data = data + collect(p.dagger_games, seed, student=ModelStudent(model, seed=seed), stats=stats)
        row = {"round": r, "samples": len(data), "student_agreement": stats["agreement"]}
        row["student_mean_result"] = stats["mean_result"]
        row.update(fit(data, r))
        print(
            f"dagger round {r}: the clone picked the teacher's move on {stats['agreement']:.1%} of its own "
            f"decisions, mean result {stats['mean_result']:+.3f}",
            file=sys.stderr,
        )
        rounds.append(row)
    if rounds:
        summary["dagger"] = rounds
    exit_rows, window = [], []

    def save_round(r: int) -> Path:
        # every round's refit is kept (exit/round_R), so each can be evaluated whatever follows it
        return save_checkpoint(
            model, run_dir / "exit" / f"round_{r}", checkpoint_metadata(cfg, model.num_timesteps, exit_round=r)
        )

    prior = save_round(0) if p.exit_rounds else None
    if p.exit_rounds:
        size, actions = model.observation_space.shape[0], model.action_space.n
        window = [TeacherData.load(path, cfg.env.env_id, size, actions) for path in p.exit_data]
    for r in range(1, p.exit_rounds + 1):
        # the search's prior and value: the network as fitted so far
        teacher = f"search:prior={prior},{p.exit_search}"
        stats: dict[str, float] = {}
        began = time.time()
        seed = cfg.run.seed + 104729 * r
        if p.exit_games:  # else the round refits on the saved data alone (pretrain.exit_data)
            window = [
                *window,
                collect(p.exit_games, seed, stats=stats, teacher=teacher, target=p.exit_target, others=p.exit_others),
            ]
            window[-1].save(run_dir / "exit" / f"round_{r}_data.npz", cfg.env.env_id)
        window = window[-p.exit_window :]
        data = window[0]
        for part in window[1:]:
            data = data + part
        row = {"round": r, "teacher": teacher if p.exit_games else None, "samples": len(data)}
        row["search_mean_result"] = stats.get("mean_result")
        row["prior_agreement"] = stats.get("prior_agreement")  # the network's favourite was the search's
        row["collect_seconds"] = time.time() - began
        row.update(fit(data, r, p.exit_epochs))
        prior = save_round(r)
        row["checkpoint"] = str(prior)
        searched = (
            f"{len(window[-1])} search decisions in {row['collect_seconds']:.0f} s (the network's favourite was "
            f"the search's on {stats.get('prior_agreement', 0):.1%}), "
            if p.exit_games
            else "no search (the saved data), "
        )
        print(f"expert iteration {r}: {searched}refit on {len(data)}: {_fit_line(row)}", file=sys.stderr)
        exit_rows.append(row)
    if exit_rows:
        summary["expert_iteration"] = exit_rows
    if rounds or exit_rows:
        summary["seconds"] = time.time() - started
    atomic_write_text(run_dir / "pretrain.json", json.dumps(summary, indent=1))
    return summary


def resumable_checkpoint(run_dir: Path) -> Path | None:
    """``RUN/checkpoints/latest.zip`` when ``--resume RUN`` can go on from it; None when the run saved
    none yet (it starts again from step 0). Refused with a ValueError naming the file and what to do
    when the files are there but cannot be resumed: training over again would be silent data loss."""
    folder = run_dir / "checkpoints"
    latest, marker = folder / "latest.zip", folder / "latest.json"
    redo = (
        f"restore it from a backup, or move {folder}/latest.* away to train this run again from step 0 "
        f"(or start a new run: python -m training.train {run_dir / 'config.yaml'})"
    )
    if not latest.exists():
        if marker.exists():
            raise ValueError(f"--resume {run_dir}: {latest} is missing, yet {marker.name} says it was saved; {redo}")
        return None
    try:
        with zipfile.ZipFile(latest) as z:
            bad = z.testzip()
    except Exception as e:  # not a zip, truncated, or a header damaged
        raise ValueError(f"--resume {run_dir}: {latest} is damaged ({type(e).__name__}: {e}); {redo}") from e
    if bad is not None:
        raise ValueError(f"--resume {run_dir}: {latest} is damaged (its member {bad} fails its CRC check); {redo}")
    return latest


def train(cfg: TrainConfig, run_dir: Path | None = None, resume: bool = False) -> Path:
    """Run (or resume) training; returns the exported final checkpoint's JSON path."""
    cfg = with_training_options(cfg)
    resume_from = resumable_checkpoint(run_dir) if resume and run_dir is not None else None
    torch.set_num_threads(cfg.run.torch_threads)
    started = time.time()
    if run_dir is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        run_dir = Path(cfg.run.runs_dir) / f"{cfg.env.env_id}__{cfg.run.exp_name}__{cfg.run.seed}__{stamp}"
    run_dir.mkdir(parents=True, exist_ok=True)
    save_config(cfg, run_dir / "config.yaml")
    pool = OpponentPool(run_dir / "pool", cfg.env.env_id)
    vec_env = make_vec_env(cfg, pool.root)
    try:
        if resume_from is not None:
            try:
                model = algorithm_class(cfg).load(resume_from, env=vec_env, device="cpu")
            except Exception as e:  # a zip of the right files whose contents do not load
                raise ValueError(
                    f"--resume {run_dir}: {resume_from} is damaged or not this run's ({type(e).__name__}: {e}); "
                    f"restore it from a backup, or move {resume_from.parent}/latest.* away to train this run again "
                    "from step 0"
                ) from e
            model.tensorboard_log = str(run_dir)
            apply_ppo_settings(model, cfg)
            print(f"resuming {run_dir} at {model.num_timesteps} steps", file=sys.stderr)
        else:
            if resume:
                print(f"--resume {run_dir}: no checkpoint saved yet; training from step 0", file=sys.stderr)
            model = build_model(cfg, vec_env, run_dir)
            if cfg.pretrain.init:
                init_from_checkpoint(model, cfg.pretrain.init, cfg.env.env_id)
            if cfg.pretrain.teacher != "none" or cfg.pretrain.exit_rounds > 0:
                pretrain(cfg, model, run_dir)
        remaining = cfg.run.total_timesteps - model.num_timesteps
        if isinstance(model, KickstartedPPO):
            model.configure_kickstart(cfg.pretrain.kickstart_coef, cfg.pretrain.kickstart_decay_steps)
        if remaining > 0:
            callback = SelfPlayCallback(cfg, run_dir, pool, progress=cfg.run.progress)
            model.learn(remaining, callback=callback, tb_log_name="tb", reset_num_timesteps=not resume)
            save_resumable(model, run_dir)
    finally:
        vec_env.close()
    steps = model.num_timesteps
    final = export_policy(model, run_dir / "checkpoints" / "final", checkpoint_metadata(cfg, steps))
    seed = cfg.run.seed + 12345
    results = evaluate_policy(cfg, final, cfg.run.eval_games, seed=seed)
    base = _eval_options(cfg)
    variants = {
        f"{key}={value}": evaluate_policy(cfg, final, cfg.run.eval_games, seed=seed, extra_options={key: value})
        for key, values in cfg.run.eval_variants.items()
        for value in values
        if base.get(key, _option_default(cfg, key)) != value  # the trained setting is the main table already
    }
    from training.runtime.checkpoints import update_checkpoint_metadata

    extra = {"evaluation": results, **({"evaluation_variants": variants} if variants else {}), "run_dir": str(run_dir)}
    update_checkpoint_metadata(final, **extra)
    atomic_write_text(run_dir / "final_evaluation.json", json.dumps(extra, indent=1))
    exported = final
    if cfg.run.export_dir:
        stem = Path(cfg.run.export_dir) / envs.game_name(cfg.env.env_id) / cfg.run.exp_name
        exported = export_policy(model, stem, checkpoint_metadata(cfg, steps, **extra))
    print(training_summary(cfg, run_dir, exported, steps, results, variants, time.time() - started))
    return exported


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def training_summary(
    cfg: TrainConfig,
    run_dir: Path,
    checkpoint: Path,
    steps: int,
    results: dict[str, dict[str, Any]],
    variants: dict[str, dict[str, dict[str, Any]]],
    seconds: float,
) -> str:
    """What a person reads when training ends: the results table and what to do next."""
    cooperative = is_cooperative(cfg)
    minutes, secs = divmod(int(seconds), 60)
    head = "Team" if cooperative else "Opponents"
    lines = [
        "",
        f"Trained {cfg.env.env_id} ({cfg.run.exp_name}) for {steps:,} steps in {minutes}m{secs:02d}s.",
        "",
        f"| Table | {head} | Games | Win rate | 95% CI |",
        "|---|---|---:|---:|---|",
    ]
    for label, table in [("", results)] + [(f" {k}", v) for k, v in variants.items()]:
        for size, by_lineup in table.items():
            for name, r in by_lineup.items():
                lo, hi = r["win_rate_ci95"]
                lines.append(
                    f"| {size}{label} | {name} | {r['games']} | {_pct(r['win_rate'])} | {_pct(lo)}-{_pct(hi)} |"
                )
    sizes = " ".join(str(n) for n in table_sizes(cfg))
    variant_args = "".join(
        f" --variant {key}={','.join(str(v) for v in values)}" for key, values in cfg.run.eval_variants.items()
    )
    lines += [
        "",
        f"Run folder:  {run_dir}  (config, TensorBoard logs, evaluation history, opponent pool)",
        f"Checkpoint:  {checkpoint}",
        f"Evaluate it: python -m training.evaluate {cfg.env.env_id} --players {sizes} --agents {checkpoint} "
        f"heuristic --games 400{variant_args}",
        f"Use it:      training.runtime.policies.load_policy({str(checkpoint)!r}, {cfg.env.env_id!r})",
    ]
    if cooperative:
        lines.append("             (--agents CHECKPOINT: the bot in every seat; CHECKPOINT heuristic: beside partners)")
    return "\n".join(lines)


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
