"""The RLlib training config: a YAML file with the sections below; unknown keys are an error.

    python -m training.rllib.train configs/rllib/last_heroes.yaml [--set section.key=value ...]

This module imports no ray: configs are checked (and documented) without the extra.
``python -m training.rllib.config`` prints every key with its default and meaning.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import envs
from training.schema import (
    ConfigError,
    apply_overrides,
    describe_sections,
    range_errors,
    read_yaml_file,
    sections_from_dict,
    setting,
)
from training.single_agent import resolve_player_counts


@dataclass
class EnvSection:
    env_id: str = setting("last_heroes_v0", "a registered env id (envs.ENV_IDS)")
    options: dict[str, Any] = setting({}, "env options passed to envs.make")
    player_counts: list[int] = setting(
        [], "table size drawn per episode, e.g. [2, 3, 4, 5]; [] uses options.num_players"
    )


@dataclass
class SelfPlaySection:
    mode: str = setting(
        "auto",
        "shared: one policy plays every seat (cooperative games; symmetric self-play); "
        "pool: a main policy vs frozen snapshots of itself (competitive games only); "
        "auto: pool for competitive games, shared for cooperative ones",
        choices=("auto", "shared", "pool"),
    )
    pool_size: int = setting(4, "pool mode: frozen snapshot slots (modules pool_0..)", ge=1)
    snapshot_every: int = setting(5, "pool mode: copy main into the next pool slot every N iterations", ge=1)
    main_prob: float = setting(
        0.0, "pool mode: chance that an opponent seat is played (and trained) by main itself", ge=0, le=1
    )


@dataclass
class PPOSection:
    lr: float = setting(3.0e-4, "Adam learning rate", gt=0)
    train_batch_size: int = setting(4000, "env steps per training iteration (per learner)", ge=1)
    minibatch_size: int = setting(500, "SGD minibatch size", ge=1)
    num_epochs: int = setting(5, "passes over each train batch", ge=1)
    gamma: float = setting(0.995, "discount", ge=0, le=1)
    lambda_: float = setting(0.95, "GAE lambda", ge=0, le=1)
    clip_param: float = setting(0.2, "PPO clip range", gt=0)
    entropy_coeff: float = setting(0.01, "entropy bonus", ge=0)
    vf_loss_coeff: float = setting(0.5, "value loss weight", ge=0)
    vf_clip_param: float = setting(10.0, "value clipping (rewards are about +-1)", gt=0)
    kl_coeff: float = setting(0.0, "KL penalty coefficient; 0 turns the KL loss off", ge=0)
    grad_clip: float = setting(0.5, "gradient norm clip", gt=0)
    net_arch: list[int] = setting([256, 256], "hidden layers (policy and value)")
    activation: str = setting("tanh", "tanh or relu", choices=("tanh", "relu"))


@dataclass
class ResourcesSection:
    num_env_runners: int = setting(
        0, "sampling actors; 0 samples in the driver (a 2-core box), raise it on a cluster", ge=0
    )
    num_envs_per_env_runner: int = setting(
        8, "sub-envs per runner, stepped as a batch (the biggest lever on one box)", ge=1
    )
    num_cpus_per_env_runner: float = setting(1, "CPUs Ray reserves per env runner", ge=0)
    num_learners: int = setting(0, "learner actors; 0 learns in the driver", ge=0)
    num_cpus_per_learner: float = setting(1, "CPUs per learner actor (num_learners > 0)", ge=0)
    num_gpus_per_learner: float = setting(0, "GPUs per learner actor", ge=0)
    rollout_fragment_length: int | str = setting(
        "auto", "steps per sub-env per sample call; auto fills the train batch"
    )
    num_cpus: int | None = setting(None, "local runs only: CPUs given to the local Ray instance (null: all)")


@dataclass
class RunSection:
    exp_name: str = setting("rllib", "run folder name part")
    seed: int = setting(0, "seed of RLlib and of the envs")
    iterations: int = setting(100, "training iterations (algo.train() calls)", ge=1)
    checkpoint_every: int = setting(10, "RLlib checkpoint every N iterations (0: only at the end)", ge=0)
    runs_dir: str = setting("runs", "runs/rllib__{env}__{exp}__{seed}__{time}/")
    export_dir: str = setting("", "also export the final policy to <export_dir>/<game>/<exp_name>.{pt,json}")
    torch_threads: int = setting(1, "torch threads of the driver (learner, local sampling)", ge=1)


AGENT_NAMES = ("seats", "learner")
CONFIG_KEYS = ("env_id", "options", "player_counts", "agent_names", "seed")


def check_env_config(env_config: dict[str, Any], build: bool = False) -> dict[str, Any]:
    """``env_config`` completed with defaults; a ValueError names what is wrong. ``build``: also
    make the env at each table size, so that bad options fail here with the env's own message."""
    cfg = dict(env_config or {})
    unknown = sorted(set(cfg) - set(CONFIG_KEYS))
    if unknown:
        raise ValueError(f"unknown env_config keys {unknown}; allowed: {list(CONFIG_KEYS)}")
    env_id = cfg.get("env_id")
    if env_id not in envs.ENV_IDS:
        raise ValueError(f"env_config env_id {env_id!r} is not registered; registered ids are {list(envs.ENV_IDS)}")
    options = dict(cfg.get("options") or {})
    if options.get("observation_mode", "vector") != "vector":
        raise ValueError("the RLlib module reads flat observations: leave observation_mode at 'vector'")
    game_cls = envs.game_class(env_id)
    counts = resolve_player_counts(game_cls, options, cfg.get("player_counts") or None)
    names = cfg.get("agent_names", "seats")
    if names not in AGENT_NAMES:
        raise ValueError(f"env_config agent_names must be one of {list(AGENT_NAMES)}, got {names!r}")
    if names == "learner" and game_cls.cooperative:
        raise ValueError(f"{env_id} is cooperative: its seats share one policy (agent_names 'seats')")
    if build:
        rest = {k: v for k, v in options.items() if k != "num_players"}
        for n in sorted(set(counts)):
            envs.make(env_id, **rest, num_players=n).close()
    return {
        "env_id": env_id,
        "options": options,
        "player_counts": counts,
        "agent_names": names,
        "seed": cfg.get("seed"),
    }


def agent_names(num_players: int, learner_seat: int | None) -> list[str]:
    """Agent name of each seat: ``player_i``, or ``learner`` / ``opponent_k`` (k seats after it)."""
    if learner_seat is None:
        return [f"player_{i}" for i in range(num_players)]
    return [
        "learner" if i == learner_seat else f"opponent_{(i - learner_seat) % num_players}" for i in range(num_players)
    ]


SECTIONS = {
    "env": EnvSection,
    "selfplay": SelfPlaySection,
    "ppo": PPOSection,
    "resources": ResourcesSection,
    "run": RunSection,
}


@dataclass
class RLlibConfig:
    env: EnvSection = field(default_factory=EnvSection)
    selfplay: SelfPlaySection = field(default_factory=SelfPlaySection)
    ppo: PPOSection = field(default_factory=PPOSection)
    resources: ResourcesSection = field(default_factory=ResourcesSection)
    run: RunSection = field(default_factory=RunSection)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def cooperative(self) -> bool:
        return bool(envs.game_class(self.env.env_id).cooperative)

    @property
    def selfplay_mode(self) -> str:
        """``shared`` or ``pool``, after ``auto`` is resolved."""
        if self.selfplay.mode == "auto":
            return "shared" if self.cooperative else "pool"
        return self.selfplay.mode


KIND = "RLlib config"


def validate(cfg: RLlibConfig, where: str = "") -> RLlibConfig:
    """Check what types and ranges alone do not; a ConfigError (a ValueError) names the key."""
    errors = range_errors({name: getattr(cfg, name) for name in SECTIONS})
    if errors:
        raise ConfigError(errors, where or None, kind=KIND)
    if cfg.env.env_id not in envs.ENV_IDS:
        raise ConfigError(
            f"env.env_id {cfg.env.env_id!r} is not registered; registered: {list(envs.ENV_IDS)}",
            where or None,
            kind=KIND,
        )
    if cfg.selfplay.mode == "pool" and cfg.cooperative:
        raise ConfigError(
            f"selfplay.mode pool is for competitive games; {cfg.env.env_id} is cooperative", where or None, kind=KIND
        )
    try:
        check_env_config(
            {
                "env_id": cfg.env.env_id,
                "options": cfg.env.options,
                "player_counts": cfg.env.player_counts,
                "agent_names": "learner" if cfg.selfplay_mode == "pool" else "seats",
            },
            build=True,
        )
    except ValueError as e:
        raise ConfigError(f"env: {e}", where or None, kind=KIND) from e
    problems = []
    if cfg.ppo.minibatch_size > cfg.ppo.train_batch_size:
        problems.append(f"ppo.minibatch_size ({cfg.ppo.minibatch_size}) exceeds ppo.train_batch_size")
    if not cfg.ppo.net_arch or any(h <= 0 for h in cfg.ppo.net_arch):
        problems.append(f"ppo.net_arch must be a non-empty list of positive layer sizes, got {cfg.ppo.net_arch}")
    rfl = cfg.resources.rollout_fragment_length
    if not (rfl == "auto" or (isinstance(rfl, int) and rfl > 0)):
        problems.append(f"resources.rollout_fragment_length must be 'auto' or a positive int, got {rfl!r}")
    if cfg.resources.num_cpus is not None and cfg.resources.num_cpus < 1:
        problems.append(f"resources.num_cpus must be null (all) or at least 1, got {cfg.resources.num_cpus}")
    if problems:
        raise ConfigError(problems, where or None, kind=KIND)
    return cfg


def from_dict(data: Any, where: str = "") -> RLlibConfig:
    """A config from nested dicts (a loaded YAML file); unknown sections or keys are an error."""
    built, errors = sections_from_dict(data, SECTIONS)
    if errors:
        raise ConfigError(errors, where or None, kind=KIND)
    return validate(RLlibConfig(**built), where)


def load_config(path: str | Path | None, overrides: list[str] | None = None) -> RLlibConfig:
    """The config of a YAML file (None: the defaults), with ``--set`` overrides."""
    data = {} if path is None else read_yaml_file(path, "RLlib config")
    if data is None:
        data = {}
    if overrides:
        if not isinstance(data, dict):
            return from_dict(data, where=str(path))  # names what the file holds instead of sections
        data = apply_overrides(data, list(overrides), SECTIONS, KIND)
    return from_dict(data, where=str(path) if path is not None else "")


def describe() -> str:
    """Every key with its type, default and help, as a Markdown table."""
    return describe_sections(SECTIONS)


if __name__ == "__main__":
    sys.stdout.write(describe() + "\n")


__all__ = ["RLlibConfig", "describe", "from_dict", "load_config"]
