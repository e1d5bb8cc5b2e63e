"""The learner's gymnasium view: SB3 compatibility, the learner's own masks and rewards."""

import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env

import envs
from tests.toys import RelayGame
from training.runtime.policies import HeuristicPolicy, RandomPolicy
from training.single_agent import FixedOpponents, SingleAgentEnv


def test_sb3_check_env_passes():
    check_env(SingleAgentEnv("last_heroes_v0", {"num_players": 3, "illegal_action": "penalize"}, seed=0))


@pytest.mark.parametrize("n", [2, 4])
def test_action_masks_equal_the_learners_aec_mask(n):
    view = SingleAgentEnv("last_heroes_v0", {"num_players": n}, seed=1)
    aec = envs.make("last_heroes_v0", num_players=n)
    rng = np.random.default_rng(0)
    view.reset(seed=3)
    for _ in range(60):
        mask = view.action_masks()
        aec.reset_to_state(view.state.clone())
        learner = f"player_{view.learner}"
        assert aec.agent_selection == learner
        assert np.array_equal(aec.observe(learner)["action_mask"].astype(bool), mask)
        assert np.array_equal(aec.observe(learner)["observation"], view._observation())
        _, _, term, trunc, _ = view.step(int(rng.choice(np.flatnonzero(mask))))
        if term or trunc:
            view.reset()


def test_rewards_are_the_learners_own():
    # A random learner against the heuristic bot loses most games; the reward must follow the
    # learner's result (not the opponent's), and only arrive at the end.
    view = SingleAgentEnv(
        "last_heroes_v0",
        {"num_players": 2},
        opponents=FixedOpponents(HeuristicPolicy("last_heroes_v0", seed=0)),
        seed=5,
    )
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(30):
        obs, info = view.reset()
        rewards = []
        while True:
            obs, reward, term, trunc, info = view.step(int(rng.choice(np.flatnonzero(view.action_masks()))))
            rewards.append(reward)
            if term or trunc:
                break
        assert all(r == 0.0 for r in rewards[:-1])
        won = view.learner in info["winners"]
        assert rewards[-1] == (1.0 if won else -1.0)
        assert info["is_success"] == won
        assert rewards[-1] == view.state.returns()[view.learner]
        seen.add(won)
    assert False in seen  # at least one scripted loss delivered -1


def test_learner_seat_is_drawn_each_episode_and_can_be_fixed():
    view = SingleAgentEnv("last_heroes_v0", {"num_players": 3}, seed=0)
    seats = set()
    for _ in range(30):
        view.reset()
        seats.add(view.learner)
    assert seats == {0, 1, 2}
    fixed = SingleAgentEnv("last_heroes_v0", {"num_players": 3}, learner_seat=2, seed=0)
    for _ in range(5):
        fixed.reset()
        assert fixed.state.current_player == 2


def test_auto_skip_forced_never_asks_the_learner_a_forced_decision():
    view = SingleAgentEnv("last_heroes_v0", {"num_players": 2, "auto_skip_forced": True}, seed=2)
    rng = np.random.default_rng(0)
    for _ in range(5):
        view.reset()
        done = False
        while not done:
            mask = view.action_masks()
            assert mask.sum() >= 2
            _, _, term, trunc, _ = view.step(int(rng.choice(np.flatnonzero(mask))))
            done = term or trunc


def test_cooperative_mode_plays_every_seat_with_the_team_reward():
    view = SingleAgentEnv(RelayGame, {"num_players": 3}, seed=0)
    results = set()
    for _ in range(40):
        view.reset()
        seats = set()
        while True:
            seats.add(view.state.current_player)
            mask = view.action_masks()
            _, reward, term, trunc, info = view.step(int(np.flatnonzero(mask)[0]))
            if term or trunc:
                break
        assert reward == view.state.returns()[0]
        results.add(reward)
        assert info["learner_seat"] is None
    assert results <= {1.0, -1.0, 0.0} and len(results) >= 2
    with pytest.raises(ValueError, match="learner plays every seat"):
        SingleAgentEnv(RelayGame, {"num_players": 2}, learner_seat=0)


def test_penalize_ends_the_episode_with_minus_one():
    view = SingleAgentEnv("last_heroes_v0", {"num_players": 2, "illegal_action": "penalize"}, seed=0)
    view.reset()
    illegal = int(np.flatnonzero(~view.action_masks())[0])
    _, reward, term, _, info = view.step(illegal)
    assert (reward, term, info["illegal_action"]) == (-1.0, True, illegal)


def test_opponent_policies_move_inside_step():
    calls = []

    class Spy(RandomPolicy):
        def act(self, observation, action_mask, state=None):
            calls.append(state.current_player)
            return super().act(observation, action_mask, state)

    view = SingleAgentEnv(
        "last_heroes_v0", {"num_players": 3}, opponents=FixedOpponents(Spy(0)), learner_seat=0, seed=0
    )
    view.reset()
    while True:
        _, _, term, trunc, _ = view.step(int(np.flatnonzero(view.action_masks())[0]))
        if term or trunc:
            break
    assert calls and set(calls) == {1, 2}
