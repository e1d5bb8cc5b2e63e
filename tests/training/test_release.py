"""training.release: a bot copied beside the shipped ones, evaluated by its game's kind, recorded;
the bot's folder keeps the aggregates, the per-game records go elsewhere."""

import json
import shutil

import pytest

from training.config import load_config, save_config
from training.release import lineups, main, release, summarise
from training.runtime.checkpoints import read_checkpoint_metadata
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
        ckpt,
        tmp_path / "ship" / "lb",
        games=1,
        seed=5,
        variants=["difficulty=normal,novice"],
        progress=False,
        records=tmp_path / "records",
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
    assert (tmp_path / "ship" / "evaluation" / "summary.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_release_on_two_workers_plays_the_same_games(tmp_path):
    ckpt = _untrained_checkpoint(tmp_path, "configs/last_bastion.yaml", "env.player_counts=[2]")
    one = release(ckpt, tmp_path / "one" / "lb", games=3, seed=5, progress=False, records=tmp_path / "r1")
    two = release(ckpt, tmp_path / "two" / "lb", games=3, seed=5, progress=False, records=tmp_path / "r2", workers=2)
    assert two["rows"] == one["rows"] and two["table"] == one["table"]
    with pytest.raises(ValueError, match="workers must be a whole number >= 1, got 0"):
        release(ckpt, tmp_path / "three" / "lb", games=1, seed=5, progress=False, workers=0)


def _files(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_the_bots_folder_keeps_aggregates_and_the_records_folder_every_game(tmp_path):
    ckpt = _untrained_checkpoint(tmp_path, "configs/last_bastion.yaml", "env.player_counts=[2]")
    out = release(ckpt, tmp_path / "ship" / "lb", games=2, seed=5, progress=False, records=tmp_path / "records")
    ship, records = tmp_path / "ship" / "evaluation", tmp_path / "records" / "evaluation"
    assert out["records"] == tmp_path / "records"
    assert not list(ship.rglob("results.png"))  # per-cell plots stay with the records
    for name in ("team", "with_heuristic", "heuristic_team", "random_team"):
        brief = json.loads((ship / name / "2p" / "results.json").read_text())
        full = json.loads((records / name / "2p" / "results.json").read_text())
        assert "game_records" not in brief and len(full["game_records"]) == full["games"] == brief["games"]
        assert brief == {k: v for k, v in full.items() if k != "game_records"}
        assert (ship / name / "2p" / "results.md").read_text() == (records / name / "2p" / "results.md").read_text()
        assert (records / name / "2p" / "results.png").exists()
    with pytest.raises(ValueError, match="own folder"):
        release(ckpt, tmp_path / "ship" / "lb", games=1, seed=5, progress=False, records=tmp_path / "ship")


def test_summarise_reduces_a_folder_with_per_game_records_to_the_same_tables(tmp_path):
    ckpt = _untrained_checkpoint(tmp_path, None)  # Last Heroes at 2 players
    out = release(ckpt, tmp_path / "ship" / "lh", games=2, seed=5, progress=False, records=tmp_path / "records")
    ship = tmp_path / "ship" / "evaluation"
    lean = {f: (ship / f).read_bytes() for f in _files(ship) if not f.endswith(".png")}
    # the layout of a release before the split: the full files beside the bot
    shutil.copytree(tmp_path / "records" / "evaluation", ship, dirs_exist_ok=True)
    (ship / "summary.md").write_text("stale\n")
    assert "game_records" in json.loads((ship / "heuristic" / "2p" / "results.json").read_text())

    again = summarise(tmp_path / "ship", records=tmp_path / "kept")
    assert again["table"] == out["table"] and again["rows"] == out["rows"]
    assert {f: (ship / f).read_bytes() for f in _files(ship) if not f.endswith(".png")} == lean
    assert _files(ship) == sorted([*lean, "summary.png"])
    kept = json.loads((tmp_path / "kept" / "evaluation" / "heuristic" / "2p" / "results.json").read_text())
    assert len(kept["game_records"]) == kept["games"]
    summarise(tmp_path / "ship", records=tmp_path / "kept")  # again: the kept records are not overwritten
    kept_again = tmp_path / "kept" / "evaluation" / "random" / "2p" / "results.json"
    assert "game_records" in json.loads(kept_again.read_text())


def test_summarise_refuses_cells_its_checkpoint_does_not_record(tmp_path):
    ckpt = _untrained_checkpoint(tmp_path, None)
    release(ckpt, tmp_path / "ship" / "lh", games=2, seed=5, progress=False, records=tmp_path / "records")
    cells = tmp_path / "ship" / "evaluation" / "random"
    shutil.copytree(cells / "2p", cells / "3p")
    with pytest.raises(ValueError, match="not in lh.json"):
        summarise(tmp_path / "ship")
    shutil.rmtree(cells / "3p")
    changed = json.loads((cells / "2p" / "results.json").read_text())
    changed["agents"][0]["wins"] += 1
    (cells / "2p" / "results.json").write_text(json.dumps(changed))
    summary = (tmp_path / "ship" / "evaluation" / "summary.md").read_text()
    with pytest.raises(ValueError, match="differ from lh.json"):
        summarise(tmp_path / "ship")
    assert (tmp_path / "ship" / "evaluation" / "summary.md").read_text() == summary  # nothing written


def test_the_command_line_takes_a_run_or_a_folder_to_summarise(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["--summarise", str(tmp_path), "--to", str(tmp_path / "x")])
    with pytest.raises(SystemExit):
        main([str(tmp_path)])  # no --to
    assert "--to" in capsys.readouterr().err


def test_a_competitive_release_reports_win_shares(tmp_path):
    ckpt = _untrained_checkpoint(tmp_path, None)  # the quickstart: Last Heroes at 2 players
    out = release(ckpt, tmp_path / "ship" / "lh", games=2, seed=5, progress=False, records=tmp_path / "records")
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
    assert out["records"] == run / "release"  # a run's per-game records stay in its folder
    full = json.loads((run / "release" / "evaluation" / "heuristic" / "2p" / "results.json").read_text())
    assert len(full["game_records"]) == full["games"]
