"""envs.demo plays a whole game of every registered env between heuristic bots."""

import pytest

import envs
from envs.demo import play


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_demo_plays_to_an_outcome(env_id, capsys):
    game_cls = envs.game_class(env_id)
    info = play(env_id, game_cls.max_players, seed=0, show=True)
    outcome = info["outcome"]
    assert outcome is not None and outcome["reason"]
    assert all(0 <= w < game_cls.max_players for w in outcome["winners"])
    assert "player_0" in capsys.readouterr().out
