"""The RLlib config (training/rllib/config.py): no ray needed, so these run in every environment."""

from pathlib import Path

import pytest

from training.rllib.config import agent_names, check_env_config, describe, from_dict, load_config
from training.schema import ConfigError

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted(ROOT.glob("configs/rllib/*.yaml"))


def test_every_registered_env_has_an_rllib_config():
    import envs

    ids = {load_config(p).env.env_id for p in CONFIGS}
    assert ids == set(envs.ENV_IDS)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_load(path):
    cfg = load_config(path)
    assert cfg.selfplay_mode == ("shared" if cfg.cooperative else "pool")
    assert cfg.resources.num_env_runners == 0 and cfg.resources.num_envs_per_env_runner == 8  # local by default


def test_unknown_keys_and_sections_are_errors():
    with pytest.raises(ConfigError, match=r"unknown key 'ppo.learning_rate'; allowed keys in section 'ppo' are"):
        from_dict({"ppo": {"learning_rate": 1e-4}})
    with pytest.raises(ConfigError, match=r"unknown key 'ppo.lrr' \(did you mean 'lr'\?\)"):
        from_dict({"ppo": {"lrr": 1e-4}})
    with pytest.raises(ConfigError, match="unknown key 'trainer'.*at the top level"):
        from_dict({"trainer": {}})
    with pytest.raises(ConfigError, match=r"resources.num_env_runners: expected an integer, got 'two'"):
        from_dict({"resources": {"num_env_runners": "two"}})
    with pytest.raises(ConfigError, match="expected section.key=value"):
        load_config(None, ["iterations=3"])


def test_the_rllib_config_shares_the_training_configs_schema():
    """The same strict types, ranges and YAML rules as training/config.py (training/schema.py)."""
    with pytest.raises(ConfigError, match=r"invalid RLlib config \(2 problems\)") as e:
        from_dict({"ppo": {"gamma": 1.5, "activation": "gelu"}})
    assert "ppo.gamma: 1.5 is out of range; it must be >= 0 and <= 1" in str(e.value)
    assert "allowed values are ['tanh', 'relu']" in str(e.value)
    with pytest.raises(ConfigError, match="expected a finite number"):
        from_dict({"ppo": {"lr": float("nan")}})
    with pytest.raises(ConfigError, match="expected an integer, got True"):
        from_dict({"run": {"iterations": True}})
    cfg = load_config(None, ["ppo.lr=1e-4", "run.exp_name=007", "resources.rollout_fragment_length=64"])
    assert cfg.ppo.lr == 1e-4 and cfg.run.exp_name == "007" and cfg.resources.rollout_fragment_length == 64
    with pytest.raises(ConfigError, match="rollout_fragment_length must be 'auto' or a positive int"):
        from_dict({"resources": {"rollout_fragment_length": "often"}})


def test_a_duplicate_key_in_the_file_is_an_error(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("run:\n  iterations: 3\n  iterations: 4\n")
    with pytest.raises(ConfigError, match="duplicate key 'iterations'"):
        load_config(path)
    with pytest.raises(ConfigError, match="RLlib config file not found"):
        load_config(tmp_path / "missing.yaml")


def test_bad_values_are_errors():
    with pytest.raises(ValueError, match="pool is for competitive games"):
        from_dict({"env": {"env_id": "last_bastion_v0"}, "selfplay": {"mode": "pool"}})
    with pytest.raises(ValueError, match="not registered"):
        from_dict({"env": {"env_id": "chess_v6"}})
    with pytest.raises(ValueError, match="player count 7"):
        from_dict({"env": {"env_id": "last_heroes_v0", "player_counts": [3, 7]}})
    with pytest.raises(ValueError, match="minibatch_size"):
        from_dict({"ppo": {"train_batch_size": 100, "minibatch_size": 200}})
    with pytest.raises(ValueError, match="observation_mode"):
        from_dict({"env": {"options": {"observation_mode": "dict"}}})


def test_overrides_and_table():
    cfg = load_config(ROOT / "configs" / "rllib" / "last_heroes.yaml", ["run.iterations=2", "ppo.net_arch=[64, 64]"])
    assert cfg.run.iterations == 2 and cfg.ppo.net_arch == [64, 64]
    assert "`resources.num_envs_per_env_runner`" in describe()


def test_agent_names():
    assert agent_names(3, None) == ["player_0", "player_1", "player_2"]
    assert agent_names(4, 2) == ["opponent_2", "opponent_3", "learner", "opponent_1"]
    cfg = check_env_config({"env_id": "lost_legends_v0", "player_counts": [3, 5], "agent_names": "learner"})
    assert cfg["player_counts"] == [3, 5]
    with pytest.raises(ValueError, match="cooperative"):
        check_env_config({"env_id": "heroes_and_monsters_v0", "agent_names": "learner"})


def test_bad_env_options_fail_at_load():
    with pytest.raises(ValueError, match="difficulty"):
        from_dict({"env": {"env_id": "last_bastion_v0", "options": {"difficulty": "impossible"}}})
