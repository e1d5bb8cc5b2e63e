"""The Lost Legends AEC environment: dict observations, rewards of every scheme through the AEC API,
the illegal-action messages of the rules, the game's options, forced-decision skipping, rendering (docs
sections 5-7, 10). PettingZoo's api_test and seed_test at 3-5 players, unknown options and the env's
illegal actions are the conformance kit's (tests/test_conformance.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from envs import lost_legends_v0
from envs.lost_legends import actions as A
from envs.lost_legends.common import SELECT_NONE
from envs.lost_legends.game import LostLegendsGame
from tests.envs.lost_legends.builders import Position
from tests.helpers import play_aec

H4 = ["Warrior", "Hunter", "Assassin", "Sorceress"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def play(env, seed: int):
    """A whole game of random legal actions through the AEC API, where only the acting agent ever has
    a legal action: (summed rewards, final infos)."""

    def others_have_none(env, agent, obs, legal):
        for other in env.agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0

    return play_aec(env, seed, on_decision=others_have_none)


def test_pettingzoo_api_test_dict_observations():
    env = lost_legends_v0.env(num_players=4, observation_mode="dict")
    api_test(env, num_cycles=300)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)["observation"]
    assert obs["seats"].shape == (5, 493) and obs["hand"].shape == (6, 34)
    flat = lost_legends_v0.env(num_players=4)
    flat.reset(seed=1)
    vector = flat.observe(flat.agent_selection)["observation"]
    assert np.array_equal(np.concatenate([obs[k].ravel() for k in obs]), vector)


@pytest.mark.parametrize("n", [3, 5])
def test_win_loss_rewards_match_the_outcome(n):
    env = lost_legends_v0.env(num_players=n, infos="rich")
    totals, final = play(env, seed=n)
    winners = np.flatnonzero(final["player_0"]["winners"]).tolist()
    assert winners and final["player_0"]["final_score"] == [
        float(sum(b.values())) for b in final["player_0"]["breakdown"]
    ]
    for i, agent in enumerate(env.possible_agents):
        assert totals[agent] == (1.0 if i in winners else -1.0)


def test_rank_and_score_margin_rewards():
    for scheme in ("rank", "score_margin"):
        env = lost_legends_v0.env(num_players=4, reward_scheme=scheme, infos="rich")
        totals, final = play(env, seed=2)
        scores = final["player_0"]["final_score"]
        values = [totals[f"player_{i}"] for i in range(4)]
        assert all(-1.0 <= v <= 1.0 for v in values)
        best = max(range(4), key=lambda i: scores[i])
        assert values[best] == max(values)
        if scheme == "rank":
            assert sum(values) == pytest.approx(0.0)


def test_shaped_rewards_telescope():
    game = LostLegendsGame(num_players=4, reward_scheme="shaped")
    s = game.new_state(4)
    start = s.potentials()
    total = [0.0] * 4
    rng = np.random.default_rng(4)
    nonzero_mid_game = False
    while not s.is_over():
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
        total = [t + r for t, r in zip(total, s.rewards())]
        nonzero_mid_game |= not s.is_over() and any(s.rewards())
    final = s.potentials()
    won = set(s.winners())
    for i in range(4):
        expected = final[i] - start[i] + (1.0 if i in won else -1.0)
        assert total[i] == pytest.approx(expected)
    assert nonzero_mid_game


def test_an_illegal_action_names_the_decision():
    s = LostLegendsGame(num_players=3).new_state(0)
    with pytest.raises(ValueError, match="the decision is: pick a card from the hand"):
        s.apply(A.STRIKE)
    with pytest.raises(ValueError, match="not an id"):
        s.apply(999)


@pytest.mark.parametrize(
    "options,words",
    [
        ({"num_players": 2}, "from 3 to 5"),
        ({"num_players": 6}, "from 3 to 5"),
        ({"reward_scheme": "points"}, "shaped"),
        ({"heroes": ["Barbarian", "Barbarian", "Hunter"]}, "distinct"),
        ({"num_players": 3, "heroes": ["Barbarian", "Hunter"]}, "distinct"),
        ({"heroes": ["Paladin", "Hunter", "Warrior", "Assassin"]}, "Sorceress"),
        ({"num_players": 3, "starting_player": 3}, "0..2"),
        ({"combat_turn_cap_per_player": 0}, "from 1 to 100"),
    ],
)
def test_bad_options_raise_value_error_naming_what_is_allowed(options, words):
    with pytest.raises(ValueError, match=words):
        lost_legends_v0.env(**options)


def test_driver_options_are_not_game_options():
    names = {o.name for o in LostLegendsGame.option_spec}
    assert not names & {"auto_skip_forced", "illegal_action", "render_mode"}
    env = lost_legends_v0.env(num_players=3, auto_skip_forced=True, render_mode="ansi")
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter(max_iter=100_000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() >= 2  # forced decisions were played by the driver
        env.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert steps > 50
    env.reset(seed=3)
    text = env.render()
    assert "Lost Legends" in text and "legal:" in text


def test_forced_decisions_are_played_by_the_driver_when_asked():
    # Seat 1 has no monster: its selection (take or draw) is a real choice, where the driver stops.
    state = Position(4, H4, level=1).front(0, "1-M01").front(1, None).attacking(0).state()
    assert state.legal_actions() == [A.UNARMED]
    env = lost_legends_v0.env(num_players=4, auto_skip_forced=True)
    env.reset_to_state(state)
    assert state.markers[0] == 1  # UNARMED, STRIKE and the forced ACCEPT_DAMAGE were played
    assert env.agent_selection == "player_1" and state.decision == SELECT_NONE
    assert np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).size >= 2
    plain = lost_legends_v0.env(num_players=4)
    state = Position(4, H4, level=1).front(0, "1-M01").front(1, None).attacking(0).state()
    plain.reset_to_state(state)
    assert state.markers[0] == 0 and plain.agent_selection == "player_0"


def test_heroes_and_starting_player_options():
    game = LostLegendsGame(num_players=3, heroes=["Sorceress", "Hunter", "Barbarian"], starting_player=2)
    s = game.new_state(0)
    assert [s.gold[i] for i in range(3)] == [7, 6, 6] and s.start == 2 and s.current_player == 2
    picked = {tuple(LostLegendsGame(num_players=5).new_state(seed).heroes) for seed in range(5)}
    assert all(sorted(h) == [0, 1, 2, 3, 4] for h in picked) and len(picked) > 1
