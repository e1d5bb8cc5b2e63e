"""A checkpoint trained with an observation option (Last Bastion's obs_hints) brings it along when
it is evaluated or played, and a contradicting option is a clear error."""

import pytest
from sb3_contrib import MaskablePPO

from training.evaluation.tournament import prepare
from training.playing.session import Session
from training.runtime.checkpoints import save_checkpoint
from training.single_agent import SingleAgentEnv


@pytest.fixture(scope="module")
def hinted_checkpoint(tmp_path_factory):
    options = {"obs_hints": True}
    env = SingleAgentEnv("last_bastion_v0", {**options, "num_players": 2}, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [16]}, device="cpu")
    stem = tmp_path_factory.mktemp("ckpt") / "hinted"
    meta = {"env_id": "last_bastion_v0", "env_options": options, "observation_size": env.observation_space.shape[0]}
    meta["num_actions"] = int(env.action_space.n)
    save_checkpoint(model, stem, meta)
    return str(stem.with_suffix(".json"))


def test_evaluation_plays_the_checkpoint_with_its_observation_options(hinted_checkpoint):
    setup = prepare("last_bastion_v0", 2, [hinted_checkpoint, "heuristic"], games=2, seed=0)
    assert setup.env_options["obs_hints"] is True
    assert setup.game.observation_size == setup.agents[0].policy.observation_size
    plain = prepare("last_bastion_v0", 2, ["heuristic"], games=2, seed=0)
    assert "obs_hints" not in plain.env_options and plain.game.observation_size < setup.game.observation_size


def test_a_contradicting_observation_option_is_a_clear_error(hinted_checkpoint):
    with pytest.raises(ValueError, match="trained with obs_hints=True"):
        prepare("last_bastion_v0", 2, [hinted_checkpoint], games=2, seed=0, env_options={"obs_hints": False})


def test_a_play_session_gives_the_bot_the_observation_it_was_trained_on(hinted_checkpoint):
    session = Session.new("last_bastion_v0", 2, seats=[hinted_checkpoint, hinted_checkpoint], seed=3)
    assert session.game.options["obs_hints"] is True
    assert session.state.is_terminal() or session.state.is_truncated()  # the two bots played it out
