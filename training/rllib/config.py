"""The RLlib training config: a YAML file with the sections below; unknown keys are an error.

    python -m training.rllib.train configs/rllib/last_heroes.yaml [--set section.key=value ...]

This module imports no ray: configs are checked (and documented) without the extra.
``python -m training.rllib.config`` prints every key with its default and meaning.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

import envs
from training.single_agent import resolve_player_counts


@dataclass
class EnvSection:
    env_id: str = field(default="last_heroes_v0", metadata={"help": "a registered env id (envs.ENV_IDS)"})
    options: dict = field(default_factory=dict, metadata={"help": "env options passed to envs.make"})
    player_counts: list = field(
        default_factory=list,
        metadata={"help": "table size drawn per episode, e.g. [2, 3, 4, 5]; [] uses options.num_players"},
    )


@dataclass
class SelfPlaySection:
    mode: str = field(
        default="auto",
        metadata={
            "help": "shared: one policy plays every seat (cooperative games; symmetric self-play); "
            "pool: a main policy vs frozen snapshots of itself (competitive games only); "
            "auto: pool for competitive games, shared for cooperative ones"
        },
    )
    pool_size: int = field(default=4, metadata={"help": "pool mode: frozen snapshot slots (modules pool_0..)"})
    snapshot_every: int = field(
        default=5, metadata={"help": "pool mode: copy main into the next pool slot every N iterations"}
    )
    main_prob: float = field(
        default=0.0,
        metadata={"help": "pool mode: chance that an opponent seat is played (and trained) by main itself"},
    )


@dataclass
class PPOSection:
    lr: float = field(default=3.0e-4, metadata={"help": "Adam learning rate"})
    train_batch_size: int = field(default=4000, metadata={"help": "env steps per training iteration (per learner)"})
    minibatch_size: int = field(default=500, metadata={"help": "SGD minibatch size"})
    num_epochs: int = field(default=5, metadata={"help": "passes over each train batch"})
    gamma: float = field(default=0.995, metadata={"help": "discount"})
    lambda_: float = field(default=0.95, metadata={"help": "GAE lambda"})
    clip_param: float = field(default=0.2, metadata={"help": "PPO clip range"})
    entropy_coeff: float = field(default=0.01, metadata={"help": "entropy bonus"})
    vf_loss_coeff: float = field(default=0.5, metadata={"help": "value loss weight"})
    vf_clip_param: float = field(default=10.0, metadata={"help": "value clipping (rewards are about +-1)"})
    kl_coeff: float = field(default=0.0, metadata={"help": "KL penalty coefficient; 0 turns the KL loss off"})
    grad_clip: float = field(default=0.5, metadata={"help": "gradient norm clip"})
    net_arch: list = field(default_factory=lambda: [256, 256], metadata={"help": "hidden layers (policy and value)"})
    activation: str = field(default="tanh", metadata={"help": "tanh or relu"})


@dataclass
class ResourcesSection:
    num_env_runners: int = field(
        default=0, metadata={"help": "sampling actors; 0 samples in the driver (a 2-core box), raise it on a cluster"}
    )
    num_envs_per_env_runner: int = field(
        default=8, metadata={"help": "sub-envs per runner, stepped as a batch (the biggest lever on one box)"}
    )
    num_cpus_per_env_runner: float = field(default=1, metadata={"help": "CPUs Ray reserves per env runner"})
    num_learners: int = field(default=0, metadata={"help": "learner actors; 0 learns in the driver"})
    num_cpus_per_learner: float = field(default=1, metadata={"help": "CPUs per learner actor (num_learners > 0)"})
    num_gpus_per_learner: float = field(default=0, metadata={"help": "GPUs per learner actor"})
    rollout_fragment_length: Any = field(
        default="auto", metadata={"help": "steps per sub-env per sample call; auto fills the train batch"}
    )
    num_cpus: Any = field(
        default=None, metadata={"help": "local runs only: CPUs given to the local Ray instance (null: all)"}
    )


@dataclass
class RunSection:
    exp_name: str = field(default="rllib", metadata={"help": "run folder name part"})
    seed: int = field(default=0, metadata={"help": "seed of RLlib and of the envs"})
    iterations: int = field(default=100, metadata={"help": "training iterations (algo.train() calls)"})
    checkpoint_every: int = field(
        default=10, metadata={"help": "RLlib checkpoint every N iterations (0: only at the end)"}
    )
    runs_dir: str = field(default="runs", metadata={"help": "runs/rllib__{env}__{exp}__{seed}__{time}/"})
    export_dir: str = field(
        default="", metadata={"help": "also export the final policy to <export_dir>/<game>/<exp_name>.{pt,json}"}
    )
    torch_threads: int = field(default=1, metadata={"help": "torch threads of the driver (learner, local sampling)"})


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


def _where(path: Any) -> str:
    return f"{path}: " if path else ""


def _check_type(section: str, f: dataclasses.Field, value: Any, where: str) -> Any:
    default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
    name = f"{section}.{f.name}"
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int) and not isinstance(default, bool):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, str) and f.name != "rollout_fragment_length":
        ok = isinstance(value, str)
    elif isinstance(default, dict):
        ok = isinstance(value, dict)
        value = value if value is not None else {}
    elif isinstance(default, list):
        ok = isinstance(value, list)
    else:
        ok = True
    if not ok:
        raise ValueError(f"{where}{name} must be a {type(default).__name__}, got {value!r}")
    return value


def validate(cfg: RLlibConfig, where: str = "") -> RLlibConfig:
    """Check values that types alone do not (a ValueError names the key)."""
    if cfg.env.env_id not in envs.ENV_IDS:
        raise ValueError(f"{where}env.env_id {cfg.env.env_id!r} is not registered; registered: {list(envs.ENV_IDS)}")
    if cfg.selfplay.mode not in ("auto", "shared", "pool"):
        raise ValueError(f"{where}selfplay.mode must be auto, shared or pool, got {cfg.selfplay.mode!r}")
    if cfg.selfplay.mode == "pool" and cfg.cooperative:
        raise ValueError(f"{where}selfplay.mode pool is for competitive games; {cfg.env.env_id} is cooperative")
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
        raise ValueError(f"{where}env: {e}") from e
    positive = {
        "selfplay.pool_size": cfg.selfplay.pool_size,
        "selfplay.snapshot_every": cfg.selfplay.snapshot_every,
        "ppo.train_batch_size": cfg.ppo.train_batch_size,
        "ppo.minibatch_size": cfg.ppo.minibatch_size,
        "ppo.num_epochs": cfg.ppo.num_epochs,
        "resources.num_envs_per_env_runner": cfg.resources.num_envs_per_env_runner,
        "run.iterations": cfg.run.iterations,
        "run.torch_threads": cfg.run.torch_threads,
    }
    for key, v in positive.items():
        if v <= 0:
            raise ValueError(f"{where}{key} must be positive, got {v!r}")
    for key, v in {
        "resources.num_env_runners": cfg.resources.num_env_runners,
        "resources.num_learners": cfg.resources.num_learners,
        "run.checkpoint_every": cfg.run.checkpoint_every,
    }.items():
        if v < 0:
            raise ValueError(f"{where}{key} must be >= 0, got {v!r}")
    if not 0.0 <= cfg.selfplay.main_prob <= 1.0:
        raise ValueError(f"{where}selfplay.main_prob must be in [0, 1], got {cfg.selfplay.main_prob}")
    if cfg.ppo.minibatch_size > cfg.ppo.train_batch_size:
        raise ValueError(f"{where}ppo.minibatch_size ({cfg.ppo.minibatch_size}) exceeds ppo.train_batch_size")
    if cfg.ppo.activation not in ("tanh", "relu"):
        raise ValueError(f"{where}ppo.activation must be tanh or relu, got {cfg.ppo.activation!r}")
    if not cfg.ppo.net_arch or any(isinstance(h, bool) or not isinstance(h, int) or h <= 0 for h in cfg.ppo.net_arch):
        raise ValueError(
            f"{where}ppo.net_arch must be a non-empty list of positive layer sizes, got {cfg.ppo.net_arch}"
        )
    rfl = cfg.resources.rollout_fragment_length
    if not (rfl == "auto" or (isinstance(rfl, int) and not isinstance(rfl, bool) and rfl > 0)):
        raise ValueError(f"{where}resources.rollout_fragment_length must be 'auto' or a positive int, got {rfl!r}")
    return cfg


def from_dict(data: Any, where: str = "") -> RLlibConfig:
    """A config from nested dicts (a loaded YAML file); unknown sections or keys are an error."""
    where = _where(where)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ValueError(f"{where}the config must be a mapping of sections {list(SECTIONS)}, got {type(data).__name__}")
    unknown = sorted(set(data) - set(SECTIONS))
    if unknown:
        raise ValueError(f"{where}unknown config section(s) {unknown}; the sections are {list(SECTIONS)}")
    built = {}
    for name, cls in SECTIONS.items():
        values = data.get(name) or {}
        if not isinstance(values, dict):
            raise ValueError(f"{where}section {name!r} must be a mapping, got {values!r}")
        known = {f.name: f for f in fields(cls)}
        bad = sorted(set(values) - set(known))
        if bad:
            raise ValueError(f"{where}unknown key(s) {[f'{name}.{k}' for k in bad]}; {name} has {list(known)}")
        built[name] = cls(**{k: _check_type(name, known[k], v, where) for k, v in values.items()})
    return validate(RLlibConfig(**built), where)


def apply_overrides(data: dict, overrides: list[str]) -> dict:
    """``section.key=value`` strings (value read as YAML) applied to nested dicts."""
    for item in overrides:
        key, sep, raw = item.partition("=")
        section, dot, name = key.partition(".")
        if not sep or not dot or not name:
            raise ValueError(f"--set needs section.key=value, got {item!r}")
        data.setdefault(section, {})
        if not isinstance(data[section], dict):
            raise ValueError(f"--set {item!r}: section {section!r} is not a mapping")
        data[section][name] = yaml.safe_load(raw)
    return data


def load_config(path: str | Path | None, overrides: list[str] | None = None) -> RLlibConfig:
    """The config of a YAML file (None: the defaults), with ``--set`` overrides."""
    data: dict = {}
    if path is not None:
        try:
            data = yaml.safe_load(Path(path).read_text()) or {}
        except FileNotFoundError:
            raise ValueError(f"config file {path} not found") from None
        except yaml.YAMLError as e:
            raise ValueError(f"{path}: not valid YAML: {e}") from e
    data = apply_overrides(data, list(overrides or []))
    return from_dict(data, where=str(path) if path is not None else "")


def describe() -> str:
    """Every key with its default and help, as a Markdown table."""
    rows = ["| key | default | meaning |", "|---|---|---|"]
    for name, cls in SECTIONS.items():
        for f in fields(cls):
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
            rows.append(f"| `{name}.{f.name}` | `{default!r}` | {f.metadata.get('help', '')} |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(describe() + "\n")


__all__ = ["RLlibConfig", "describe", "from_dict", "load_config"]
