"""Training configuration: typed dataclasses filled from one YAML file per experiment.

CleanRL keeps every hyperparameter in one typed dataclass with a line of help per field; the RL
Zoo keeps one YAML file per experiment. We do both: :class:`TrainConfig` has four sections
(``env``, ``ppo``, ``selfplay``, ``run``), each a dataclass whose fields carry their help text and
their allowed values in ``metadata``, and ``configs/*.yaml`` fill them::

    cfg = load_config("configs/last_heroes.yaml", ["run.seed=3", "ppo.net_arch=[64, 64]"])
    cfg = load_config(None)  # the dataclass defaults: the quickstart experiment

Rules:

- A file may leave out any key (the default is used) but may not add one: an unknown key anywhere
  is an error that names the full dotted key and lists the keys allowed there.
- Values are plain YAML data, never evaluated strings (``net_arch: [128, 128]``). The loader reads
  ``3e-4`` as a number (plain PyYAML would read it as a string) and rejects duplicate keys.
- Types are strict: ``true`` is not an int, ``"abc"`` is not a number, ``2.0`` is accepted for an
  int only because it is integral.
- ``env.options`` are checked by building the game itself (``envs.game_class(env_id)(**options)``),
  so the env's own error, naming what is allowed, is reported under ``env.options``.
- Every error is a :class:`ConfigError` (a ``ValueError``) listing every problem found.

``python -m training.config`` prints the table of every setting (:func:`describe_config`);
``python -m training.config FILE [section.key=value ...]`` prints the resolved config as YAML.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import yaml

from training.atomic import atomic_write_text
from training.runtime.policies import spec_error, spec_path
from training.schema import (
    ConfigError,
    describe_sections,
    range_errors,
    read_yaml_file,
    sections_from_dict,
    sections_to_dict,
    setting,
)
from training.schema import apply_overrides as schema_overrides

# Fixed baseline opponents a self-play run may mix in (policy specs of training.runtime.policies).
BASELINE_NAMES: tuple[str, ...] = ("random", "heuristic")
# Partners a cooperative run may seat beside the learner (pool: a snapshot of the run).
PARTNER_NAMES: tuple[str, ...] = ("random", "heuristic", "pool")
OPPONENT_SAMPLING: tuple[str, ...] = ("latest", "mostly_latest", "uniform")
ACTIVATIONS: tuple[str, ...] = ("tanh", "relu")
VEC_ENVS: tuple[str, ...] = ("subproc", "dummy")


# -- the sections ----------------------------------------------------------------------------------
@dataclass
class EnvConfig:
    """The game to learn."""

    env_id: str = setting("last_heroes_v0", "registered env id (envs.ENV_IDS)")
    options: dict[str, Any] = setting(
        {"auto_skip_forced": True},
        "env options passed to envs.make / the Game (num_players, reward_scheme, auto_skip_forced, ...); "
        "the env's own option table says what each allows. The game's training options "
        "(Game.training_options, e.g. Last Heroes' shaping_coef 1.0 and compiled engine) fill the ones not set",
    )
    player_counts: list[int] = setting(
        [],
        "table sizes to train on, one drawn per episode (repeat a count to draw it more often, e.g. "
        "[2, 2, 3, 4, 5]); empty: the one count of options.num_players. Evaluation runs at each count",
    )


@dataclass
class PPOConfig:
    """MaskablePPO (sb3-contrib) hyperparameters."""

    learning_rate: float = setting(3e-4, "Adam learning rate", gt=0)
    n_steps: int = setting(512, "steps collected per env per update (a rollout is n_steps * run.n_envs)", ge=1)
    batch_size: int = setting(256, "minibatch size; at most ppo.n_steps * run.n_envs", ge=2)
    n_epochs: int = setting(5, "passes over each rollout", ge=1)
    gamma: float = setting(0.995, "discount factor", ge=0, le=1)
    gae_lambda: float = setting(0.95, "GAE bias/variance trade-off", ge=0, le=1)
    clip_range: float = setting(0.2, "PPO policy clip range", gt=0)
    ent_coef: float = setting(0.01, "entropy bonus coefficient", ge=0)
    vf_coef: float = setting(0.5, "value loss coefficient", ge=0)
    max_grad_norm: float = setting(0.5, "gradient clipping norm", gt=0)
    net_arch: list[int] = setting([256, 256], "hidden layer sizes of the policy and value networks")
    activation: str = setting("tanh", "hidden layer activation", choices=ACTIVATIONS)


@dataclass
class SelfPlayConfig:
    """Opponents for the learner's seat: fixed baselines and a pool of its own past snapshots."""

    opponent_sampling: str = setting(
        "mostly_latest", "how a pool snapshot is drawn for an opponent seat", choices=OPPONENT_SAMPLING
    )
    latest_prob: float = setting(
        0.8, "with mostly_latest: chance of the latest snapshot (else uniform over the pool)", ge=0, le=1
    )
    baselines: dict[str, float] = setting(
        {"random": 0.2, "heuristic": 0.4},
        "competitive games: chance of a fixed opponent per seat per episode, by policy spec (random, "
        "heuristic, or a checkpoint path; sum <= 1); the rest goes to pool snapshots, and before the "
        "first snapshot only these play",
    )
    partners: dict[str, float] = setting(
        {},
        "cooperative games: chance that a seat is played by a partner instead of the learner, per seat "
        "per episode, by policy spec (random, heuristic, a checkpoint path, or pool: a snapshot of this "
        "run; sum <= 1); the rest is the learner, which always holds at least one seat",
    )
    snapshot_every: int = setting(50_000, "timesteps between snapshots added to the pool", ge=1)
    pool_size: int = setting(10, "how many of the most recent snapshots are sampled", ge=1)
    promote_games: int = setting(
        200,
        "games deciding whether a snapshot becomes the best (split over the table sizes): head-to-head "
        "against the best in competitive games, a team of the snapshot beside a team of the best on the "
        "same deals in cooperative ones",
        ge=1,
    )
    promote_threshold: float = setting(
        0.55,
        "competitive: the snapshot's win share against the best, in units of a fair 2-player share "
        "(0.5 is parity at any table size), needed for promotion; cooperative: the snapshot team's win "
        "rate must beat the best team's by this minus 0.5 (0.55: by 5 points)",
        ge=0,
        le=1,
    )
    deterministic_opponents: bool = setting(
        False, "checkpoint opponents and partners (pool snapshots and checkpoint paths) play their most likely action"
    )


@dataclass
class RunConfig:
    """Bookkeeping: length, parallelism, seeds, checkpoints, evaluation, output folders."""

    exp_name: str = setting("quickstart", "experiment name, part of the run folder name (letters, digits, . _ -)")
    seed: int = setting(0, "seed of the learner, the envs and the opponent draws", ge=0)
    total_timesteps: int = setting(150_000, "learner timesteps to train", ge=1)
    n_envs: int = setting(4, "parallel environments", ge=1)
    vec_env: str = setting(
        "subproc", "vectorized env: one process per env (subproc) or all in this process (dummy)", choices=VEC_ENVS
    )
    checkpoint_every: int = setting(50_000, "timesteps between checkpoints", ge=1)
    eval_every: int = setting(50_000, "timesteps between evaluations against the baselines", ge=1)
    eval_games: int = setting(
        100, "games per opponent (cooperative: per line-up) and table size in each evaluation", ge=1
    )
    eval_variants: dict[str, list[Any]] = setting(
        {},
        "the final evaluation also runs at each of these option values, e.g. {difficulty: [novice, heroic]}",
    )
    runs_dir: str = setting("runs", "folder of run folders (logs, checkpoints, the resolved config)")
    export_dir: str = setting(
        "",
        "also export the final policy to <export_dir>/<game>/<exp_name>.{pt,json} (empty: only the run folder's "
        "final checkpoint; the shipped bots live in checkpoints/)",
    )
    torch_threads: int = setting(1, "torch.set_num_threads for the learner and each env worker", ge=1)
    progress: bool = setting(True, "show a progress bar")


@dataclass
class PretrainConfig:
    """Optional behaviour cloning from a teacher policy before PPO starts."""

    init: str = setting(
        "", "a checkpoint whose weights the network starts from (same game and network; empty: a fresh network)"
    )
    teacher: str = setting(
        "none",
        'policy to imitate before PPO: "none", "heuristic", a checkpoint path or a search: spec (at every seat)',
    )
    games: int = setting(2000, "teacher games whose decisions form the training set", ge=1)
    epochs: int = setting(8, "passes over the teacher data", ge=1)
    batch_size: int = setting(512, "minibatch size for cloning", ge=2)
    learning_rate: float = setting(1e-3, "Adam learning rate for cloning", gt=0)
    value_coef: float = setting(0.5, "weight of the value loss (targets: each seat's final result)", ge=0)
    dagger_rounds: int = setting(
        0, "DAgger rounds after the first fit: the clone plays, the teacher labels, refit on all data", ge=0
    )
    dagger_games: int = setting(500, "games the clone plays in each DAgger round", ge=1)
    dagger_epochs: int = setting(3, "passes over all the data in each DAgger refit (it starts from the last fit)", ge=1)
    exit_rounds: int = setting(
        0,
        "expert-iteration rounds after the first fit: search with the network as prior and value plays every "
        "seat, the network fits its visit shares and the results",
        ge=0,
    )
    exit_games: int = setting(
        200,
        "self-play games the search plays in each expert-iteration round (0: no search, the rounds refit on "
        "pretrain.exit_data alone)",
        ge=0,
    )
    exit_search: str = setting(
        "sims=64,temperature=1,noise=0.25",
        "the search of each round: keys of a search: spec (training.runtime.search) but prior, which is the network",
    )
    exit_target: str = setting(
        "visits",
        "the policy target of each search decision: its visit shares, or the prior improved by its values "
        "(improved: Gumbel MuZero's completed-Q target, SearchResult.improved_policy)",
        choices=("visits", "improved"),
    )
    exit_target_scale: float = setting(
        0.1, "c_scale of the improved target: how far the search's values move the prior", gt=0, le=10
    )
    exit_others: dict[str, float] = setting(
        {},
        "share of each round's search games played beside a fixed policy, by spec (random, heuristic or a "
        "checkpoint path; sum <= 1): the search holds one seat and models the others as that policy "
        "(others= of its spec), so the network learns to play beside heuristic partners or against a known "
        "opponent; the rest is self-play",
    )
    exit_epochs: int = setting(3, "passes over the kept search data in each expert-iteration refit", ge=1)
    exit_window: int = setting(2, "expert-iteration rounds whose search data each refit uses (the latest)", ge=1)
    exit_data: list[str] = setting(
        [],
        "search data saved by earlier runs (RUN/exit/round_K_data.npz), oldest first: the window starts with them, "
        "so a refit can be tried again without repeating the search",
    )
    holdout: float = setting(
        0.0,
        "fraction of each fit's samples (the last games) held out to measure it; each epoch then reports the "
        "held-out loss and agreement, and the epoch with the lowest held-out loss is kept (0: fit on all)",
        ge=0,
        le=0.5,
    )
    workers: int = setting(1, "processes that play the teacher's and the search's games (2 cores here)", ge=1)
    kickstart_coef: float = setting(
        0.0, "weight of the distillation towards the teacher on PPO's own rollouts after each update (0: off)", ge=0
    )
    kickstart_decay_steps: int = setting(
        0, "PPO steps over which kickstart_coef decays linearly to 0 (0: it stays)", ge=0
    )


@dataclass
class TrainConfig:
    """One experiment. The defaults are the quickstart (configs/quickstart.yaml)."""

    env: EnvConfig = field(default_factory=EnvConfig, metadata={"help": "the game"})
    ppo: PPOConfig = field(default_factory=PPOConfig, metadata={"help": "MaskablePPO"})
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig, metadata={"help": "opponents"})
    run: RunConfig = field(default_factory=RunConfig, metadata={"help": "bookkeeping"})
    pretrain: PretrainConfig = field(default_factory=PretrainConfig, metadata={"help": "behaviour cloning"})


SECTIONS: dict[str, type] = {f.name: f.default_factory for f in fields(TrainConfig)}  # type: ignore[misc]


# -- dict <-> dataclasses --------------------------------------------------------------------------
def config_to_dict(cfg: TrainConfig) -> dict[str, dict[str, Any]]:
    """Plain nested dicts (sections in order, keys in field order), ready for YAML."""
    return sections_to_dict(cfg, SECTIONS)


def config_from_dict(data: Mapping[str, Any], source: str | None = None) -> TrainConfig:
    """A validated TrainConfig from nested dicts; missing keys take their defaults.

    Raises :class:`ConfigError` listing every unknown key, bad type and bad value.
    """
    built, errors = sections_from_dict(data, SECTIONS)
    if errors:
        raise ConfigError(errors, source)
    cfg = TrainConfig(**built)
    errors = range_errors(built) + _semantic_errors(cfg)
    if errors:
        raise ConfigError(errors, source)
    return cfg


def validate_config(cfg: TrainConfig) -> TrainConfig:
    """Check a TrainConfig built or changed in code; returns a normalized copy (or raises ConfigError)."""
    if not isinstance(cfg, TrainConfig):
        raise ConfigError(f"expected a TrainConfig, got {type(cfg).__name__}")
    return config_from_dict(config_to_dict(cfg))


# -- value checks ----------------------------------------------------------------------------------
def _semantic_errors(cfg: TrainConfig) -> list[str]:
    errors: list[str] = []
    ppo, sp, run = cfg.ppo, cfg.selfplay, cfg.run
    for i, width in enumerate(ppo.net_arch):
        if width < 1:
            errors.append(f"ppo.net_arch[{i}]: {width} is out of range; layer sizes must be >= 1")
    rollout = ppo.n_steps * run.n_envs
    if ppo.batch_size > rollout:
        errors.append(
            f"ppo.batch_size={ppo.batch_size} is larger than one rollout, "
            f"ppo.n_steps * run.n_envs = {ppo.n_steps} * {run.n_envs} = {rollout}"
        )

    for key, words, rest in (("baselines", BASELINE_NAMES, "the pool"), ("partners", PARTNER_NAMES, "the learner")):
        weights = getattr(sp, key)
        for name, weight in weights.items():
            why = spec_error(name, words)
            if why is not None:
                errors.append(f"unknown key 'selfplay.{key}.{name}': {why}")
            elif not 0.0 <= weight <= 1.0:
                errors.append(f"selfplay.{key}.{name}: {weight!r} is out of range; it must be >= 0 and <= 1")
        total = sum(weights.values())
        if total > 1.0 + 1e-9:
            errors.append(f"selfplay.{key}: the weights sum to {total:g}; it must be <= 1 (the rest goes to {rest})")

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", run.exp_name):
        errors.append(
            f"run.exp_name: {run.exp_name!r} is not allowed; use letters, digits, '.', '_' and '-' "
            "(it is part of the run folder name)"
        )
    if not run.runs_dir.strip():
        errors.append("run.runs_dir: must not be empty")
    if cfg.pretrain.exit_rounds > 0:
        from training.runtime.search import parse_spec

        if cfg.pretrain.teacher == "none" and not cfg.pretrain.init:
            errors.append(
                "pretrain.exit_rounds > 0 searches with the network: start it from pretrain.init or fit it to "
                "pretrain.teacher first"
            )
        keys = [item.partition("=")[0].strip() for item in cfg.pretrain.exit_search.split(",")]
        if "prior" in keys:
            errors.append("pretrain.exit_search: leave out prior; the search's prior is the network being trained")
        elif "others" in keys:
            errors.append("pretrain.exit_search: leave out others; pretrain.exit_others says which games have them")
        else:
            try:
                parse_spec(f"search:prior=uniform,leaf=random,{cfg.pretrain.exit_search}")
            except ValueError as e:
                errors.append(f"pretrain.exit_search: {e}")
    if cfg.pretrain.exit_rounds > 0 and cfg.pretrain.exit_games == 0 and not cfg.pretrain.exit_data:
        errors.append(
            "pretrain.exit_games: 0 plays no search games, so the refits need saved search data: "
            "list RUN/exit/round_K_data.npz files in pretrain.exit_data, or set exit_games >= 1"
        )
    for name, share in cfg.pretrain.exit_others.items():
        why = spec_error(name, ("random", "heuristic")) or (
            "a search cannot be the model inside a search" if name.startswith("search:") else None
        )
        if why is not None:
            errors.append(f"unknown key 'pretrain.exit_others.{name}': {why}")
        elif not 0.0 <= share <= 1.0:
            errors.append(f"pretrain.exit_others.{name}: {share!r} is out of range; it must be >= 0 and <= 1")
    if sum(cfg.pretrain.exit_others.values()) > 1.0 + 1e-9:
        errors.append(
            f"pretrain.exit_others: the shares sum to {sum(cfg.pretrain.exit_others.values()):g}; it must be <= 1 "
            "(the rest is self-play)"
        )
    if cfg.pretrain.exit_data and cfg.pretrain.exit_rounds == 0:
        errors.append("pretrain.exit_data: set pretrain.exit_rounds too; the saved search data feeds its refits")
    for path in cfg.pretrain.exit_data:
        if not Path(path).is_file():
            errors.append(f"pretrain.exit_data: {path!r} is not an existing file (RUN/exit/round_K_data.npz)")
    if cfg.pretrain.init and not spec_path(cfg.pretrain.init).exists():
        errors.append(f"pretrain.init: {cfg.pretrain.init!r} is not an existing checkpoint path")
    if cfg.pretrain.teacher != "none":
        why = spec_error(cfg.pretrain.teacher, ("heuristic", "random"))
        if why is not None:
            errors.append(f"pretrain.teacher: {why}")
    if cfg.pretrain.kickstart_coef > 0 and cfg.pretrain.teacher == "none":
        errors.append("pretrain.kickstart_coef > 0 distils towards pretrain.teacher; set a teacher (e.g. heuristic)")

    errors.extend(_env_errors(cfg))
    return errors


def _env_errors(cfg: TrainConfig) -> list[str]:
    """Build the Game from env.options at every table size, as the trainer will, and report its complaints."""
    import envs
    from envs.core.options import DRIVER_OPTIONS

    env = cfg.env
    try:
        game_cls = envs.game_class(env.env_id)
    except ValueError as e:
        return [f"env.env_id: {e}"]
    driver = {o.name: o for o in DRIVER_OPTIONS}
    allowed = sorted(set(driver) | {o.name for o in game_cls.option_spec})
    options = dict(env.options)
    unknown = [k for k in options if k not in allowed]
    if unknown:
        return [
            f"env.options: unknown option(s) {[f'env.options.{k}' for k in unknown]}; "
            f"allowed options of {env.env_id} are {allowed}"
        ]
    errors = []
    for name in driver.keys() & options.keys():
        try:
            driver[name].validate(options.pop(name))
        except ValueError as e:
            errors.append(f"env.options.{name}: {e}")
    lo, hi = game_cls.min_players, game_cls.max_players
    counts = list(env.player_counts)
    if counts and "num_players" in options:
        errors.append("env.player_counts and env.options.num_players both set the table size; keep one")
    for i, n in enumerate(counts):
        if not lo <= n <= hi:
            errors.append(
                f"env.player_counts[{i}]: {n} is out of range; {env.env_id} is played by {lo} to {hi} players"
            )
    if errors:
        return errors
    for n in sorted(set(counts)) or [None]:
        try:
            game = game_cls(**options, **({} if n is None else {"num_players": n}))
        except (ValueError, TypeError, OSError) as e:
            errors.append(f"env.options: {e}")
            break
    else:
        mode = game.options.get("observation_mode", "vector")
        if mode != "vector":
            errors.append(f"env.options.observation_mode: training needs flat observations; use 'vector', not {mode!r}")
        if cfg.selfplay.partners and not game_cls.cooperative:
            errors.append(
                f"selfplay.partners: {env.env_id} is competitive; partners sit beside the learner in cooperative "
                "games (use selfplay.baselines for opponents)"
            )
        for key, values in cfg.run.eval_variants.items():
            if key == "num_players" or key in driver:
                errors.append(
                    f"run.eval_variants.{key}: not a game variant; table sizes are env.player_counts, and the "
                    "driver's options do not change the rules"
                )
                continue
            for value in values:
                try:
                    game_cls(**{**options, key: value})
                except (ValueError, TypeError, OSError) as e:
                    errors.append(f"run.eval_variants.{key}: {e}")
    return errors


# -- loading, overrides, saving --------------------------------------------------------------------
def load_config(path: str | os.PathLike | None, overrides: Iterable[str] = ()) -> TrainConfig:
    """The config in ``path`` (None: the defaults, i.e. the quickstart), then ``overrides`` applied,
    then the game's training options for the env options not set (:func:`with_training_options`)."""
    cfg = TrainConfig() if path is None else config_from_dict(read_yaml_file(path, "config"), source=str(path))
    overrides = list(overrides)
    return with_training_options(apply_overrides(cfg, overrides) if overrides else cfg)


def with_training_options(cfg: TrainConfig) -> TrainConfig:
    """``cfg`` with ``Game.training_options`` added to ``env.options`` where the config does not set
    them, so the run's saved config names every option it trained with."""
    import envs

    extra = {k: v for k, v in envs.game_class(cfg.env.env_id).training_options.items() if k not in cfg.env.options}
    if not extra:
        return cfg
    return replace(cfg, env=replace(cfg.env, options={**cfg.env.options, **extra}))


def apply_overrides(cfg: TrainConfig, overrides: Iterable[str]) -> TrainConfig:
    """A new config with ``section.key=value`` overrides applied (the input is not changed).

    Values are YAML (``ppo.net_arch=[64,64]``, ``run.progress=false``); a string setting takes the
    text as written (``run.exp_name=007`` stays ``"007"``). A dotted path may go into
    ``env.options`` (``env.options.num_players=4``).
    """
    return config_from_dict(schema_overrides(config_to_dict(cfg), overrides, SECTIONS, "training config"))


def dump_config(cfg: TrainConfig) -> str:
    """The config as YAML text (every section and key)."""
    return yaml.safe_dump(config_to_dict(cfg), sort_keys=False, default_flow_style=None, allow_unicode=True)


def save_config(cfg: TrainConfig, path: str | os.PathLike) -> Path:
    """Write the config as YAML atomically (temporary file in the same folder, then os.replace)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    text = "# herozoo training config, resolved (load with training.config.load_config)\n" + dump_config(cfg)
    atomic_write_text(p, text)
    return p


# -- documentation ---------------------------------------------------------------------------------
def describe_config() -> str:
    """A Markdown table of every setting: key, type, default, help (with the allowed values)."""
    return describe_sections(SECTIONS)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.split("\n\n")[0].strip(), end="\n\n")
        print("usage: python -m training.config [FILE.yaml [section.key=value ...]]\n")
        print(describe_config())
        return 0
    try:
        cfg = load_config(argv[0], argv[1:])
    except ConfigError as e:
        print(e, file=sys.stderr)
        return 2
    print(dump_config(cfg), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
