"""Every game's training config runs end to end (a few hundred steps): cloning at every table size,
PPO against its opponents or beside its partners, snapshots, and the final evaluation by kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import envs
from training.config import load_config
from training.train import train

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TINY = [
    "ppo.n_steps=128",
    "ppo.batch_size=64",
    "ppo.n_epochs=1",
    "ppo.net_arch=[16]",
    "run.n_envs=1",
    "run.vec_env=dummy",
    "run.total_timesteps=256",
    "run.eval_every=100000",
    "run.checkpoint_every=100000",
    "run.eval_games=1",
    "run.eval_variants={}",
    "selfplay.snapshot_every=128",
    "selfplay.promote_games=3",
    "pretrain.games=2",
    "pretrain.epochs=1",
    "run.progress=false",
]


@pytest.mark.parametrize("name", ["last_bastion", "heroes_and_monsters", "lost_legends"])
def test_game_config_trains_end_to_end(name, tmp_path):
    cfg = load_config(CONFIGS / f"{name}.yaml", [*TINY, f"run.runs_dir={tmp_path}"])
    final = train(cfg)
    meta = json.loads(final.read_text())
    game_cls = envs.game_class(cfg.env.env_id)
    sizes = sorted(set(cfg.env.player_counts))  # the metadata keeps the drawn list, repeats and all
    assert sorted(set(meta["player_counts"])) == sizes and set(meta["evaluation"]) == {f"{n}p" for n in sizes}
    expected = {"team", "with_heuristic"} if game_cls.cooperative else {"random", "heuristic"}
    for n in sizes:
        lineups = set(meta["evaluation"][f"{n}p"])
        assert lineups == (expected - {"with_heuristic"} if n == 1 else expected)
    pool = json.loads((final.parent.parent / "pool" / "pool.json").read_text())
    assert [s["steps"] for s in pool["snapshots"]] == [128, 256]
