"""The shipped Last Heroes bot loads safely, matches its env, and plays like its recorded results."""

from pathlib import Path

import pytest

from training.checkpoints import read_checkpoint_metadata
from training.evaluate import evaluate
from training.policies import load_policy

SHIPPED = Path(__file__).resolve().parents[2] / "checkpoints" / "last_heroes" / "last_heroes_2p.json"


def test_shipped_checkpoint_loads_and_records_its_evaluation():
    policy = load_policy(str(SHIPPED), "last_heroes_v0")
    meta = read_checkpoint_metadata(SHIPPED)
    assert meta["env_id"] == "last_heroes_v0" and meta["observation_size"] == 1036 and meta["num_actions"] == 132
    assert policy.metadata["weights_sha256"] == meta["weights_sha256"]
    ev = meta["evaluation"]
    assert ev["2p_vs_random"]["games"] >= 400 and ev["2p_vs_random"]["win_rate"] >= 0.95
    assert ev["2p_vs_heuristic"]["games"] >= 400 and ev["2p_vs_heuristic"]["win_rate"] >= 0.65
    assert ev["4p_vs_random"]["games"] >= 400 and ev["4p_vs_random"]["win_share_rate"] >= 0.5


@pytest.mark.parametrize("players", [2, 4])
def test_shipped_bot_beats_random_players_as_an_opponent_would_be_used(players):
    result = evaluate("last_heroes_v0", players, [str(SHIPPED), "random"], games=4 * players, seed=123)
    assert result["agents"][0]["win_rate"] >= 0.75
