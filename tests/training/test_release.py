"""training.release: a bot copied beside the shipped ones, evaluated by its game's kind, recorded."""

import json

from training.checkpoints import read_checkpoint_metadata
from training.config import load_config, save_config
from training.release import lineups, release
from training.train import build_model, checkpoint_metadata, export_policy, make_vec_env


def _untrained_checkpoint(tmp_path, config, *overrides):
    small = ["run.n_envs=1", "run.vec_env=dummy", "ppo.net_arch=[16]", "ppo.n_steps=64", "ppo.batch_size=64"]
    cfg = load_config(config, [*small, *overrides])
    vec_env = make_vec_env(cfg, tmp_path / "pool")
    try:
        model = build_model(cfg, vec_env, tmp_path)
    finally:
        vec_env.close()
    return export_policy(model, tmp_path / "run" / "final", checkpoint_metadata(cfg, 0))


def test_line_ups_by_kind():
    assert lineups(False, "bot", 3) == {"random": ["bot", "random"], "heuristic": ["bot", "heuristic"]}
    assert list(lineups(True, "bot", 1)) == ["team", "heuristic_team", "random_team"]  # no partners alone
    assert lineups(True, "bot", 2)["with_heuristic"] == ["bot", "heuristic"]


def test_a_cooperative_release_records_every_table_line_up_and_variant(tmp_path):
    ckpt = _untrained_checkpoint(tmp_path, "configs/last_bastion.yaml", "env.player_counts=[1, 3]")
    out = release(
        ckpt, tmp_path / "ship" / "lb", games=1, seed=5, variants=["difficulty=normal,novice"], progress=False
    )
    meta = read_checkpoint_metadata(out["checkpoint"])
    ev = meta["evaluation"]
    # normal is the trained difficulty: it is the main table, not a variant
    assert set(ev) == {"1p", "3p", "1p__difficulty=novice", "3p__difficulty=novice"}
    assert set(ev["1p"]) == {"team", "heuristic_team", "random_team"}
    assert set(ev["3p"]) == {"team", "with_heuristic", "heuristic_team", "random_team"}
    assert set(ev["3p__difficulty=novice"]) == {"team", "heuristic_team", "random_team"}
    row = ev["3p"]["with_heuristic"]
    assert row["games"] == 3 and 0 <= row["wins"] <= 3  # one seat rotation of the bot among partners
    assert meta["evaluation_games_per_table"] == 1
    table = out["summary"].read_text().splitlines()
    assert len(table) == 2 + len(out["rows"]) and "| 3 | difficulty=novice | heuristic_team |" in out["table"]
    stored = json.loads((tmp_path / "ship" / "evaluation" / "with_heuristic" / "3p" / "results.json").read_text())
    assert stored["team"]["lineup"][1] == "heuristic"


def test_a_competitive_release_reports_win_shares(tmp_path):
    ckpt = _untrained_checkpoint(tmp_path, None)  # the quickstart: Last Heroes at 2 players
    out = release(ckpt, tmp_path / "ship" / "lh", games=2, seed=5, progress=False)
    ev = read_checkpoint_metadata(out["checkpoint"])["evaluation"]
    assert set(ev) == {"2p"} and set(ev["2p"]) == {"random", "heuristic"}
    assert 0.0 <= ev["2p"]["heuristic"]["win_share_rate"] <= 1.0
    assert "| 2 | - | heuristic | " in out["table"] and "| 50.0% |" in out["table"]


def test_a_run_folder_release_names_the_run_not_this_machines_path(tmp_path):
    cfg = load_config(
        None, ["run.n_envs=1", "run.vec_env=dummy", "ppo.net_arch=[16]", "ppo.n_steps=64", "ppo.batch_size=64"]
    )
    run = tmp_path / "last_heroes_v0__tiny__0__20261202-000000"
    vec_env = make_vec_env(cfg, run / "pool")
    try:
        model = build_model(cfg, vec_env, run)
    finally:
        vec_env.close()
    export_policy(model, run / "checkpoints" / "final", {**checkpoint_metadata(cfg, 0), "run_dir": str(run)})
    save_config(cfg, run / "config.yaml")
    out = release(run, tmp_path / "ship" / "lh", games=1, seed=5, progress=False)
    assert read_checkpoint_metadata(out["checkpoint"])["run_dir"] == f"runs/{run.name}"
    assert (tmp_path / "ship" / "training_record" / "config.yaml").read_text() == (run / "config.yaml").read_text()
