"""The AEC environment: PettingZoo api_test at 1-4 players, masks only for the actor, illegal
actions, option validation, rendering, the versioned module and the generated docstring."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from envs import heroes_and_monsters_v0
from envs.core.game import IllegalActionError
from envs.heroes_and_monsters.env import env as make_env
from envs.heroes_and_monsters.game import HeroesAndMonstersGame


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_pettingzoo_api_test(n):
    api_test(make_env(num_players=n), num_cycles=300)


def test_pettingzoo_api_test_with_auto_skip_forced():
    api_test(make_env(num_players=3, auto_skip_forced=True, adversary="thargrim"), num_cycles=300)


def test_pettingzoo_api_test_dict_observations():
    api_test(make_env(num_players=2, observation_mode="dict", reward_scheme="shaped"), num_cycles=200)


@pytest.mark.parametrize("n", [1, 3])
def test_a_whole_game_through_the_aec_api(n):
    e = make_env(num_players=n, adversary="random")
    e.reset(seed=3)
    rng = random.Random(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=20000):
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(set(totals.values())) == 1 and list(totals.values())[0] in (1.0, -1.0)


def test_an_illegal_action_raises_a_clear_error():
    game = HeroesAndMonstersGame(num_players=2)
    s = game.new_state(0)
    bad = int(np.flatnonzero(s.legal_mask() == 0)[0])
    with pytest.raises(IllegalActionError, match="Legal actions"):
        s.apply(bad)
    with pytest.raises(IllegalActionError):
        s.apply(59)
    e = make_env(num_players=2)
    e.reset(seed=0)
    with pytest.raises(IllegalActionError, match="is illegal"):
        e.step(bad)


@pytest.mark.parametrize(
    "options, must_name",
    [
        ({"num_players": 5}, "num_players"),
        ({"num_players": 0}, "num_players"),
        ({"adversary": "bob"}, "randall"),
        ({"generals": ["wargosh", "wargosh"]}, "distinct"),
        ({"generals": ["wargosh"]}, "2 Generals"),
        ({"generals": ["nobody", "wargosh"]}, "General keys"),
        ({"support_window": "always"}, "pre_combat"),
        ({"reward_scheme": "sparse"}, "win_loss"),
        ({"shaping_weights": {"bogus": 1}}, "defeat"),
        ({"threat_thresholds": (10, 20)}, "54 >= a >= b"),
        ({"colour": "red"}, "allowed options"),
    ],
)
def test_bad_options_raise_value_error_naming_what_is_allowed(options, must_name):
    with pytest.raises(ValueError, match=must_name):
        make_env(**options)


def test_driver_options_are_not_game_options():
    names = {o.name for o in HeroesAndMonstersGame.option_spec}
    assert not names & {"illegal_action", "auto_skip_forced", "render_mode"}
    e = make_env(num_players=2, auto_skip_forced=True, render_mode="ansi")
    e.reset(seed=1)
    assert "Battlefield" in e.render()


def test_same_general_race_with_two_players_warns_but_is_accepted():
    with pytest.warns(UserWarning):
        HeroesAndMonstersGame(num_players=2, generals=["wargosh", "grizznak"])


def test_versioned_module_and_docstring():
    assert heroes_and_monsters_v0.GAME is HeroesAndMonstersGame
    assert heroes_and_monsters_v0.HeuristicBot.__name__ == "HeuristicBot"
    from envs.heroes_and_monsters import env as env_module

    doc = env_module.__doc__
    assert "`BUY`" in doc and "`battlefield`" in doc and "`auto_skip_forced`" in doc and "Discrete(59)" in doc
    assert HeroesAndMonstersGame().observation_size == 1924 and HeroesAndMonstersGame().num_actions == 59


def test_shaped_rewards_are_shared_and_include_events():
    game = HeroesAndMonstersGame(num_players=2, reward_scheme="shaped")
    s = game.new_state(4)
    rng = np.random.default_rng(4)
    seen_nonzero = False
    total = 0.0
    while not s.is_over():
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
        r = s.rewards()
        assert len(set(r)) == 1
        total += r[0]
        seen_nonzero |= r[0] != 0 and not s.is_over()
    # the rewards pay the result and the events: returns() is the result, shaping_potentials() the events
    assert seen_nonzero and s.returns()[0] in (-1.0, 0.0, 1.0)
    assert s.returns()[0] + s.shaping_potentials()[0] == pytest.approx(total)


def test_truncation_by_max_steps():
    game = HeroesAndMonstersGame(num_players=2, max_steps=10)
    s = game.new_state(0)
    while not s.is_over():
        s.apply(int(np.flatnonzero(s.legal_mask())[-1]))
    assert s.is_truncated() and not s.is_terminal() and s.steps == 10
    assert s.outcome().truncated and s.outcome().winners == () and s.returns() == [0.0, 0.0]
    assert game.max_game_length() == 10
