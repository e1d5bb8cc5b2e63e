"""The Last Bastion AEC environment: dict observations, spaces, team rewards of every scheme through
the AEC API, the game's options and its illegal-action message. PettingZoo's api_test and seed_test at
1-4 players, unknown options and player counts and the env's illegal actions are the conformance kit's
(tests/test_conformance.py)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from envs import last_bastion_v0
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.game import LastBastionGame


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_api_test_dict_observations():
    api_test(last_bastion_v0.env(num_players=2, observation_mode="dict"), num_cycles=100)


def test_spaces_do_not_depend_on_the_player_count():
    sizes = {
        (
            last_bastion_v0.env(num_players=n).observation_space("player_0")["observation"].shape,
            last_bastion_v0.env(num_players=n).action_space("player_0").n,
        )
        for n in (1, 2, 3, 4)
    }
    assert sizes == {((1243,), 82)}


@pytest.mark.parametrize("scheme", ["win_loss", "score_sheet", "shaped"])
def test_random_games_give_team_rewards(scheme):
    env = last_bastion_v0.env(num_players=3, reward_scheme=scheme, infos="rich")
    rng = random.Random(0)
    for seed in range(3):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(max_iter=20_000):
            obs, reward, term, trunc, info = env.last()
            totals[agent] += reward
            if term or trunc:
                assert "result" in info and "score" in info
                env.step(None)
                continue
            assert obs["action_mask"].sum() >= 1
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert len(set(round(v, 9) for v in totals.values())) == 1
        if scheme == "win_loss":
            assert set(totals.values()) <= {-1.0, 0.0, 1.0}


def test_the_state_refuses_an_action_of_another_decision():
    s = LastBastionGame(num_players=2).new_state(0)
    with pytest.raises(ValueError, match="illegal"):
        s.apply(LAYOUT.encode("RESOLVE", 3))


@pytest.mark.parametrize(
    "options, word",
    [
        ({"difficulty": "easy"}, "heroic"),
        ({"heroes": ["Brakka", "Nobody"]}, "Thorgrim"),
        ({"num_players": 2, "heroes": ["Brakka"]}, "exactly"),
        ({"reward_scheme": "rank"}, "score_sheet"),
        ({"obs_card_ids": "yes"}, "True or False"),
        ({"obs_hints": 1}, "True or False"),
        ({"tile_layout": ["Market"] * 9}, "9 tile names"),
    ],
)
def test_bad_options_raise_value_error(options, word):
    with pytest.raises(ValueError, match=word):
        last_bastion_v0.env(**options)


def test_heroes_option_sets_agent_order():
    s = LastBastionGame(num_players=3, heroes=["Oswin", "Kaela", "Brakka"]).new_state(7)
    from envs.last_bastion.content import HEROES

    assert [HEROES[h["hero"]].name for h in s.heroes] == ["Oswin", "Kaela", "Brakka"]
    assert sorted(s.seat_of) == sorted(set(s.seat_of)) and s.board == s.seat_of[0]
