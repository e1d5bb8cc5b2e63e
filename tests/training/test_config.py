"""Training configs: the YAML files load, defaults are the quickstart, bad configs fail clearly."""

from dataclasses import fields
from pathlib import Path

import pytest
import yaml

import envs
from training.config import (
    SECTIONS,
    ConfigError,
    EnvConfig,
    PPOConfig,
    RunConfig,
    SelfPlayConfig,
    TrainConfig,
    apply_overrides,
    config_from_dict,
    config_to_dict,
    describe_config,
    dump_config,
    load_config,
    main,
    save_config,
    validate_config,
    with_training_options,
)

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"
CONFIG_FILES = sorted(CONFIG_DIR.glob("*.yaml"))


# -- the shipped files ------------------------------------------------------------------------------
def test_the_expected_config_files_exist():
    names = {p.name for p in CONFIG_FILES}
    assert {"quickstart.yaml", "last_heroes.yaml"} <= names


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.name)
def test_every_config_file_loads_and_lists_every_key(path):
    cfg = load_config(path)
    assert isinstance(cfg, TrainConfig)
    raw = yaml.safe_load(path.read_text())
    assert list(raw) == list(SECTIONS), "every file lists every section, in the usual order"
    for name, cls in SECTIONS.items():
        assert set(raw[name]) == {f.name for f in fields(cls)}, f"{path.name}: section {name} is incomplete"
    assert cfg.run.exp_name == path.stem


def test_player_counts_of_the_shipped_files():
    quick = load_config(CONFIG_DIR / "quickstart.yaml")  # the game's default table size: 2 players
    rules = {k: v for k, v in quick.env.options.items() if k != "auto_skip_forced"}
    assert "num_players" not in rules and envs.game_class(quick.env.env_id)(**rules).num_players == 2
    shipped = load_config(CONFIG_DIR / "last_heroes.yaml")
    assert sorted(set(shipped.env.player_counts)) == [2, 3, 4, 5] and "num_players" not in shipped.env.options


@pytest.mark.parametrize(
    "section, message",
    [
        (
            {"env": {"player_counts": [2, 6]}},
            "env.player_counts[1]: 6 is out of range; last_heroes_v0 is played by 2 to 5",
        ),
        (
            {"env": {"player_counts": [2, 3], "options": {"num_players": 2}}},
            "env.player_counts and env.options.num_players both set the table size",
        ),
        ({"selfplay": {"partners": {"heuristic": 0.5}}}, "selfplay.partners: last_heroes_v0 is competitive"),
        ({"selfplay": {"baselines": {"no/such/checkpoint.json": 0.5}}}, "nor an existing checkpoint path"),
        ({"run": {"eval_variants": {"artefact_end": ["sometimes"]}}}, "run.eval_variants.artefact_end"),
    ],
)
def test_table_sizes_partners_and_variants_are_checked(section, message):
    with pytest.raises(ConfigError) as info:
        config_from_dict(section)
    assert message in str(info.value)


def test_defaults_are_the_quickstart():
    default = load_config(None)
    assert default == with_training_options(TrainConfig()) == load_config(CONFIG_DIR / "quickstart.yaml")
    assert "quickstart" in TrainConfig.__doc__
    assert TrainConfig().env == EnvConfig(env_id="last_heroes_v0", options={"auto_skip_forced": True})
    # the game's training options fill what the config leaves out
    assert default.env.options == {"auto_skip_forced": True, "shaping_coef": 1.0, "engine": "compiled"}
    assert default.run.exp_name == "quickstart"
    # modest enough to train on 2 cores in minutes; the rollout holds several minibatches
    assert default.run.total_timesteps <= 300_000
    assert default.ppo.n_steps * default.run.n_envs % default.ppo.batch_size == 0
    assert validate_config(default) == default


def test_mutable_defaults_are_not_shared():
    a, b = TrainConfig(), TrainConfig()
    a.ppo.net_arch.append(8)
    a.env.options["num_players"] = 3
    a.selfplay.baselines["random"] = 0.0
    assert b.ppo.net_arch == [256, 256] and b.env.options == {"auto_skip_forced": True}
    assert b.selfplay.baselines == {"random": 0.2, "heuristic": 0.4}


def test_describe_config_documents_every_field():
    table = describe_config()
    for name, cls in SECTIONS.items():
        for f in fields(cls):
            assert f.metadata["help"], f"{name}.{f.name} has no help"
            assert f"| `{name}.{f.name}` |" in table
    assert "| `ppo.net_arch` | list[int] | `[256, 256]` |" in table
    assert '"latest", "mostly_latest", "uniform"' in table


def test_the_command_line_prints_help_and_resolved_configs(capsys):
    assert main(["--help"]) == 0
    assert "| `run.seed` |" in capsys.readouterr().out
    assert main([str(CONFIG_DIR / "quickstart.yaml"), "run.seed=5"]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["run"]["seed"] == 5
    assert main(["missing.yaml"]) == 2
    assert "config file not found: missing.yaml" in capsys.readouterr().err


# -- unknown keys ---------------------------------------------------------------------------------
def test_unknown_top_level_key_names_it_and_the_sections():
    with pytest.raises(ConfigError, match=r"unknown key 'ppo2' \(did you mean 'ppo'\?\)") as info:
        config_from_dict({"ppo2": {}})
    assert "['env', 'ppo', 'selfplay', 'run', 'pretrain']" in str(info.value)


def test_unknown_key_in_a_section_names_the_dotted_key_and_the_allowed_ones():
    with pytest.raises(ConfigError) as info:
        config_from_dict({"ppo": {"lr": 1e-3}})
    message = str(info.value)
    assert "unknown key 'ppo.lr'" in message
    assert "allowed keys in section 'ppo' are ['learning_rate', 'n_steps'," in message


def test_unknown_key_in_a_file_names_the_file(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text("run:\n  seeds: 3\n")
    with pytest.raises(ConfigError, match=r"exp\.yaml: invalid training config: unknown key 'run\.seeds'"):
        load_config(path)


def test_every_problem_is_reported_at_once():
    with pytest.raises(ConfigError) as info:
        config_from_dict({"ppo": {"lr": 1, "n_steps": "x"}, "extra": 1})
    assert len(info.value.errors) == 3
    assert "(3 problems)" in str(info.value)


def test_unknown_baseline_name():
    with pytest.raises(ConfigError, match=r"unknown key 'selfplay\.baselines\.greedy'.*\['random', 'heuristic'\]"):
        config_from_dict({"selfplay": {"baselines": {"greedy": 0.1}}})


# -- types and values -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data, message",
    [
        ({"run": {"seed": "abc"}}, "run.seed: expected an integer, got 'abc' (str)"),
        ({"run": {"seed": True}}, "run.seed: expected an integer, got True (bool)"),
        ({"run": {"n_envs": 2.5}}, "run.n_envs: expected an integer, got 2.5 (float)"),
        ({"ppo": {"learning_rate": "fast"}}, "ppo.learning_rate: expected a number, got 'fast' (str)"),
        ({"ppo": {"learning_rate": False}}, "ppo.learning_rate: expected a number, got False (bool)"),
        ({"run": {"progress": "yes please"}}, "run.progress: expected true or false"),
        ({"run": {"exp_name": 12}}, "run.exp_name: expected a string, got 12 (int)"),
        ({"ppo": {"net_arch": 64}}, "ppo.net_arch: expected a list (list[int]), got 64 (int)"),
        ({"ppo": {"net_arch": [64, "wide"]}}, "ppo.net_arch[1]: expected an integer, got 'wide' (str)"),
        ({"selfplay": {"baselines": {"random": "often"}}}, "selfplay.baselines.random: expected a number"),
        ({"env": {"options": [2]}}, "env.options: expected a mapping (dict), got [2] (list)"),
        ({"ppo": 3}, "ppo: expected a mapping of settings, got 3 (int)"),
    ],
)
def test_type_errors_name_the_key_the_type_and_the_value(data, message):
    with pytest.raises(ConfigError) as info:
        config_from_dict(data)
    assert message in str(info.value)


def test_numbers_are_converted_where_exact():
    cfg = config_from_dict({"run": {"total_timesteps": 1.5e5}, "ppo": {"learning_rate": 1, "n_steps": 64.0}})
    assert cfg.run.total_timesteps == 150_000 and type(cfg.run.total_timesteps) is int
    assert cfg.ppo.learning_rate == 1.0 and type(cfg.ppo.learning_rate) is float
    assert cfg.ppo.n_steps == 64 and type(cfg.ppo.n_steps) is int


def test_exponent_floats_without_a_dot_are_numbers(tmp_path):
    # plain PyYAML reads 3e-4 as the string "3e-4"; the loader reads it as YAML 1.2 does
    path = tmp_path / "lr.yaml"
    path.write_text("ppo:\n  learning_rate: 3e-4\nrun:\n  total_timesteps: 2e5\n")
    cfg = load_config(path)
    assert cfg.ppo.learning_rate == pytest.approx(3e-4)
    assert cfg.run.total_timesteps == 200_000


@pytest.mark.parametrize(
    "data, message",
    [
        ({"ppo": {"activation": "gelu"}}, "ppo.activation: 'gelu' is not allowed; allowed values are ['tanh', 'relu']"),
        ({"run": {"vec_env": "ray"}}, "allowed values are ['subproc', 'dummy']"),
        ({"selfplay": {"opponent_sampling": "best"}}, "allowed values are ['latest', 'mostly_latest', 'uniform']"),
    ],
)
def test_enumerated_strings_list_the_allowed_values(data, message):
    with pytest.raises(ConfigError) as info:
        config_from_dict(data)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"ppo": {"learning_rate": 0}}, "ppo.learning_rate: 0.0 is out of range; it must be > 0"),
        ({"run": {"n_envs": 0}}, "run.n_envs: 0 is out of range; it must be >= 1"),
        ({"run": {"seed": -1}}, "run.seed: -1 is out of range"),
        ({"ppo": {"gamma": 1.5}}, "ppo.gamma: 1.5 is out of range; it must be >= 0 and <= 1"),
        ({"selfplay": {"latest_prob": -0.1}}, "selfplay.latest_prob: -0.1 is out of range"),
        ({"ppo": {"net_arch": [64, 0]}}, "ppo.net_arch[1]: 0 is out of range"),
        ({"ppo": {"batch_size": 4096}}, "ppo.batch_size=4096 is larger than one rollout, ppo.n_steps * run.n_envs"),
        ({"selfplay": {"baselines": {"random": 0.6, "heuristic": 0.5}}}, "the weights sum to 1.1; it must be <= 1"),
        ({"selfplay": {"baselines": {"random": -0.2}}}, "selfplay.baselines.random: -0.2 is out of range"),
        ({"run": {"exp_name": "a/b"}}, "run.exp_name: 'a/b' is not allowed"),
    ],
)
def test_out_of_range_values(data, message):
    with pytest.raises(ConfigError) as info:
        config_from_dict(data)
    assert message in str(info.value)


def test_baselines_may_be_empty_or_fill_every_seat():
    assert config_from_dict({"selfplay": {"baselines": {}}}).selfplay.baselines == {}
    cfg = config_from_dict({"selfplay": {"baselines": {"random": 0.5, "heuristic": 0.5}}})
    assert sum(cfg.selfplay.baselines.values()) == 1.0


# -- env options ----------------------------------------------------------------------------------
def test_env_options_the_game_rejects_name_env_options():
    with pytest.raises(ConfigError, match=r"env\.options: option num_players=9 is not allowed.*2 to 5"):
        config_from_dict({"env": {"options": {"num_players": 9}}})


def test_unknown_env_option_lists_the_game_and_driver_options():
    with pytest.raises(ConfigError) as info:
        config_from_dict({"env": {"options": {"num_player": 3}}})
    message = str(info.value)
    assert "env.options.num_player" in message
    assert "'num_players'" in message and "'auto_skip_forced'" in message


def test_driver_options_are_checked_too():
    cfg = config_from_dict({"env": {"options": {"num_players": 3, "auto_skip_forced": True}}})
    assert cfg.env.options == {"num_players": 3, "auto_skip_forced": True}
    with pytest.raises(ConfigError, match=r"env\.options\.illegal_action: .*\"raise\" or \"penalize\""):
        config_from_dict({"env": {"options": {"illegal_action": "ignore"}}})


def test_training_needs_vector_observations_and_a_known_env():
    with pytest.raises(ConfigError, match=r"env\.options\.observation_mode"):
        config_from_dict({"env": {"options": {"observation_mode": "dict"}}})
    with pytest.raises(ConfigError, match=r"env\.env_id: unknown env id 'chess_v0'"):
        config_from_dict({"env": {"env_id": "chess_v0"}})


# -- overrides ------------------------------------------------------------------------------------
def test_overrides_set_scalars_lists_and_nested_env_options():
    base = TrainConfig()
    cfg = apply_overrides(
        base, ["run.seed=3", "ppo.net_arch=[64,64]", "env.options.num_players=4", "run.progress=false"]
    )
    assert cfg.run.seed == 3 and cfg.ppo.net_arch == [64, 64] and cfg.run.progress is False
    assert cfg.env.options == {"num_players": 4, "auto_skip_forced": True}
    assert base == TrainConfig(), "the input config is not changed"


def test_overrides_on_a_loaded_file_keep_its_other_values():
    cfg = load_config(CONFIG_DIR / "last_heroes.yaml", ["env.options.reward_scheme=rank", "ppo.gamma=0.9"])
    assert cfg.env.player_counts == [2, 2, 3, 4, 5] and cfg.env.options["reward_scheme"] == "rank"
    assert cfg.ppo.gamma == 0.9
    cfg = apply_overrides(TrainConfig(), ["env.options={num_players: 3}", "selfplay.baselines.random=0.1"])
    assert cfg.env.options == {"num_players": 3}
    assert cfg.selfplay.baselines == {"random": 0.1, "heuristic": 0.4}


def test_string_overrides_keep_the_text_as_written():
    cfg = apply_overrides(TrainConfig(), ["run.exp_name=007", "run.runs_dir=/tmp/runs"])
    assert cfg.run.exp_name == "007" and cfg.run.runs_dir == "/tmp/runs"


@pytest.mark.parametrize(
    "override, message",
    [
        ("ppo.lr=1", "unknown key 'ppo.lr'"),
        ("foo.bar=1", "unknown key 'foo'"),
        ("run.seed", "expected section.key=value"),
        ("seed=3", "expected section.key=value"),
        ("run.seed=abc", "run.seed: expected an integer, got 'abc' (str)"),
        ("run.seed.x=1", "run.seed holds 0, not a mapping"),
        ("ppo.net_arch=[64,", "invalid YAML value"),
        ("env.options.num_players=9", "env.options: option num_players=9 is not allowed"),
        ("env.options.colour=red", "env.options.colour"),
    ],
)
def test_bad_overrides_fail_clearly(override, message):
    with pytest.raises(ConfigError) as info:
        apply_overrides(TrainConfig(), [override])
    assert message in str(info.value)


# -- files ----------------------------------------------------------------------------------------
def test_save_and_load_round_trip(tmp_path):
    cfg = load_config(
        CONFIG_DIR / "last_heroes.yaml", ["run.seed=7", "ppo.learning_rate=1.0e-5", "selfplay.baselines={}"]
    )
    path = save_config(cfg, tmp_path / "run" / "config.yaml")
    assert load_config(path) == cfg
    assert config_from_dict(config_to_dict(cfg)) == cfg
    assert [p.name for p in path.parent.iterdir()] == ["config.yaml"], "no temporary file is left behind"
    save_config(TrainConfig(), path)  # replaces the file
    assert load_config(path) == with_training_options(TrainConfig())


def test_dumped_yaml_lists_every_section_and_plain_values():
    data = yaml.safe_load(dump_config(TrainConfig()))
    assert list(data) == ["env", "ppo", "selfplay", "run", "pretrain"]
    assert data["ppo"]["net_arch"] == [256, 256] and data["env"]["options"] == {"auto_skip_forced": True}


def test_missing_file_and_invalid_yaml_name_the_path(tmp_path):
    with pytest.raises(ConfigError, match=r"config file not found: .*nope\.yaml"):
        load_config(tmp_path / "nope.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("ppo:\n  net_arch: [64,\n")
    with pytest.raises(ConfigError, match=r"invalid YAML in config file .*bad\.yaml"):
        load_config(bad)
    dup = tmp_path / "dup.yaml"
    dup.write_text("run:\n  seed: 1\n  seed: 2\n")
    with pytest.raises(ConfigError, match=r"duplicate key 'seed'"):
        load_config(dup)
    top = tmp_path / "list.yaml"
    top.write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match=r"list\.yaml: invalid training config: expected a mapping of sections"):
        load_config(top)


def test_empty_file_and_empty_sections_mean_defaults(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing set\n")
    assert load_config(empty) == with_training_options(TrainConfig())
    sections = tmp_path / "sections.yaml"
    sections.write_text("env:\nppo:\nselfplay:\nrun:\n  seed: 2\n")
    assert load_config(sections) == with_training_options(TrainConfig(run=RunConfig(seed=2)))


def test_configs_built_in_code_are_validated():
    cfg = TrainConfig(ppo=PPOConfig(n_steps=8, batch_size=64), selfplay=SelfPlayConfig(pool_size=0))
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    assert len(info.value.errors) == 2


def test_the_default_config_trains_any_game_and_an_explicit_option_wins():
    """No option of one game in the generic default: another env id takes its own training options."""
    for env_id in envs.ENV_IDS:
        cfg = load_config(None, [f"env.env_id={env_id}"])
        assert cfg.env.options == {"auto_skip_forced": True, **envs.game_class(env_id).training_options}
    explicit = load_config(None, ["env.options.engine=python"])
    assert explicit.env.options["engine"] == "python" and explicit.env.options["shaping_coef"] == 1.0
