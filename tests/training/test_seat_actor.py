"""Seat actors: a checkpoint's compiled, incrementally updated decision equals the policy's own."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import envs
from tests.helpers import random_states
from tests.training.test_checkpoints import make_model
from training.evaluation.tournament import play_game
from training.runtime.checkpoints import save_checkpoint
from training.runtime.inference import CheckpointPolicy, SeatActor
from training.runtime.policies import RandomPolicy, seat_actor
from training.single_agent import FixedOpponents, SingleAgentEnv

ENV_ID = "last_heroes_v0"


def checkpoint(tmp_path, net_arch=(24, 16), activation=torch.nn.Tanh, seed=0):
    game = envs.game_class(ENV_ID)(num_players=4)
    model = make_model(
        list(net_arch), activation, obs_size=game.observation_size, num_actions=game.num_actions, seed=seed
    )
    # scaled down so that tanh units are not all saturated and the logits spread over a few units
    with torch.no_grad():
        for p in model.policy.parameters():
            p.mul_(0.3)
    name = f"lh_{'_'.join(map(str, net_arch)) or 'linear'}_{activation.__name__}"
    return save_checkpoint(model, tmp_path / name, {"env_id": ENV_ID, "env_options": {"num_players": 4}})


def seat_streams(games=3, players=4, seed=0):
    """(seat, observation, mask) of every decision of random 4-player games, in play order."""
    game = envs.game_class(ENV_ID)(num_players=players)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        for state in random_states(game, seed + g, rng=rng):
            seat = state.current_player
            out.append((seat, state.observe(seat), state.legal_mask().copy()))
    return out


@pytest.mark.parametrize(
    "net_arch, activation",
    [((24, 16), torch.nn.Tanh), ((20,), torch.nn.ReLU), ((8, 8, 8), torch.nn.ReLU), ((), torch.nn.Tanh)],
)
def test_seat_actors_choose_what_act_chooses_on_real_games(tmp_path, net_arch, activation):
    policy = CheckpointPolicy(checkpoint(tmp_path, net_arch, activation), env_id=ENV_ID)
    actors: dict[int, SeatActor] = {}
    decisions = 0
    for seat, obs, mask in seat_streams():
        actor = actors.setdefault(seat, seat_actor(policy))
        assert actor.act(obs, mask) == policy.act(obs, mask)
        np.testing.assert_allclose(actor.logits, policy._logits_one(obs), rtol=1e-4, atol=1e-4)
        decisions += 1
    updates = sum(a.incremental_updates for a in actors.values())
    rebuilds = sum(a.rebuilds for a in actors.values())
    assert updates + rebuilds == decisions
    assert updates > 10 * rebuilds  # successive observations of a seat are alike: mostly updates


def test_sampling_seat_actor_draws_as_act_draws(tmp_path):
    path = checkpoint(tmp_path)
    a = CheckpointPolicy(path, deterministic=False, seed=5)
    b = CheckpointPolicy(path, deterministic=False, seed=5)
    actors: dict[int, SeatActor] = {}
    stream = seat_streams(games=2, seed=3)
    got = [actors.setdefault(seat, a.seat_actor()).act(obs, mask) for seat, obs, mask in stream]
    assert got == [b.act(obs, mask) for _seat, obs, mask in stream]
    assert all(mask[x] for x, (_s, _o, mask) in zip(got, stream))
    assert a.rng.random() == b.rng.random()  # one uniform per decision, as act draws
    assert len(set(got)) > 5  # it samples, it does not repeat one action


def test_any_previous_observation_gives_the_same_choice(tmp_path):
    """One actor fed every seat's observations, random dense vectors and repeats: still act's choices."""
    policy = CheckpointPolicy(checkpoint(tmp_path), env_id=ENV_ID)
    actor = policy.seat_actor()
    rng = np.random.default_rng(1)
    stream = seat_streams(games=1, seed=7)
    size = policy.observation_size
    for i, (_seat, obs, mask) in enumerate(stream):
        if i % 10 == 5:
            obs = rng.uniform(-1, 1, size).astype(np.float32)  # all entries change: a rebuild
        for _ in range(1 + (i % 3 == 0)):  # sometimes the same observation twice (nothing changed)
            assert actor.act(obs, mask) == policy.act(obs, mask)
            np.testing.assert_allclose(actor.logits, policy._logits_one(obs), rtol=1e-4, atol=1e-4)
    assert actor.rebuilds >= len(stream) // 10


def test_rebuilds_bound_the_drift(tmp_path):
    policy = CheckpointPolicy(checkpoint(tmp_path), env_id=ENV_ID)
    actor = policy.seat_actor()
    rng = np.random.default_rng(2)
    obs = np.zeros(policy.observation_size, np.float32)
    mask = np.ones(policy.num_actions, bool)
    calls = 3 * (SeatActor.REBUILD_EVERY + 1) + 2
    for _ in range(calls):
        obs[rng.integers(policy.observation_size, size=3)] = rng.uniform(-1, 1, 3)
        actor.act(obs, mask)
    assert (actor.rebuilds, actor.incremental_updates) == (3, calls - 3)  # after every REBUILD_EVERY updates
    np.testing.assert_allclose(actor._pre, policy._layers[0][1] + obs @ policy._layers[0][0], rtol=1e-5, atol=1e-5)


def test_seat_actor_input_forms_and_errors(tmp_path):
    policy = CheckpointPolicy(checkpoint(tmp_path), env_id=ENV_ID)
    actor = policy.seat_actor()
    _seat, obs, mask = seat_streams(games=1)[10]
    expected = policy.act(obs, mask)
    assert actor.act(obs.astype(np.float64), mask.astype(bool)) == expected
    assert actor.act(obs.tolist(), mask.tolist()) == expected
    assert actor.act(obs, mask.astype(np.uint8)) == expected
    with pytest.raises(ValueError, match="allows no action"):
        actor.act(obs, np.zeros(policy.num_actions, np.int8))
    with pytest.raises(ValueError, match="length 5, the policy expects"):
        actor.act(np.zeros(5, np.float32), mask)
    with pytest.raises(ValueError, match="action mask has length 3"):
        actor.act(obs, [1, 0, 1])


def test_seat_actor_of_policies():
    random_policy = RandomPolicy(0)
    assert seat_actor(random_policy) is random_policy  # no seat_actor(): the policy plays every seat


def _transitions(env: SingleAgentEnv, episodes: int, seed: int):
    rng = np.random.default_rng(seed)
    out = []
    obs, _ = env.reset(seed=seed)
    out.append(obs.tobytes())
    for _ in range(episodes):
        done = False
        while not done:
            obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append((obs.tobytes(), reward))
            done = term or trunc
        out.append(env.reset()[0].tobytes())
    return out


class ActWithoutSeatActor:
    """The same policy, offering no seat_actor(): every decision through its numpy ``act``."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name

    def act(self, observation, action_mask, state=None):
        return self.policy.act(observation, action_mask, state)


def test_single_agent_env_and_evaluation_play_checkpoints_through_seat_actors(tmp_path):
    path = checkpoint(tmp_path)
    options = {"num_players": 4, "auto_skip_forced": True}
    fast = SingleAgentEnv(ENV_ID, options, opponents=FixedOpponents(CheckpointPolicy(path)), seed=4)
    plain = SingleAgentEnv(
        ENV_ID, options, opponents=FixedOpponents(ActWithoutSeatActor(CheckpointPolicy(path))), seed=4
    )
    assert _transitions(fast, 4, seed=4) == _transitions(plain, 4, seed=4)
    assert all(isinstance(a, SeatActor) for a in fast._actors.values()) and len(fast._actors) == 3
    game = envs.game_class(ENV_ID)(num_players=4)
    policy = CheckpointPolicy(path)
    for seed in range(3):
        assert play_game(game, [policy] * 4, seed) == play_game(game, [ActWithoutSeatActor(policy)] * 4, seed)


def test_without_numba_a_seat_actor_is_the_policys_act(tmp_path, monkeypatch):
    import training.runtime.inference as inference

    policy = CheckpointPolicy(checkpoint(tmp_path), env_id=ENV_ID, deterministic=False, seed=2)
    twin = CheckpointPolicy(checkpoint(tmp_path), env_id=ENV_ID, deterministic=False, seed=2)
    monkeypatch.setattr(inference, "seat_step", None)
    actor = policy.seat_actor()
    stream = seat_streams(games=1, seed=5)
    assert [actor.act(o, m) for _s, o, m in stream] == [twin.act(o, m) for _s, o, m in stream]
    assert actor.incremental_updates == actor.rebuilds == 0  # the compiled path was never taken
