"""The Last Heroes AEC environment (envs/core/aec.py driving envs/last_heroes): PettingZoo's tests with
dict observations, shaping and forced-decision skipping (the plain api_test and seed_test at 2-5 players
are the conformance kit's), mask/step consistency, illegal actions, option validation, call order,
forced-decision skipping, rendering and the env registry (docs/last_heroes.md sections 5, 6 and 10)."""

from __future__ import annotations

import json
import random
import re
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import envs
from envs.core.game import IllegalActionError
from envs.last_heroes.actions import LAYOUT
from envs.last_heroes.content import DEFAULT_CONTENT
from tests.envs.last_heroes.test_information import positions, redistribute_hidden, swap_one_hidden_card
from tests.helpers import play_aec

ENV_ID = "last_heroes_v0"
NUM_ACTIONS = 132
OBS_SIZE = 1036
END_TURN = LAYOUT.encode("END_TURN")


def make(**options):
    return envs.make(ENV_ID, **options)


# -- PettingZoo conformance ------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _quiet_pettingzoo_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations and non-NumPy observations
        yield


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_pettingzoo_api_test_passes_with_dict_observations(n):
    env = make(num_players=n, observation_mode="dict")
    api_test(env, num_cycles=1000)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)["observation"]
    assert set(obs) == {"global", "hand", "seats", "columns", "decks", "cards", "pending", "tiles"}
    assert obs["seats"].shape == (5, 98) and obs["columns"].shape == (5, 71)
    flat = make(num_players=n)
    flat.reset(seed=1)
    vector = flat.observe(flat.agent_selection)["observation"]
    assert np.array_equal(np.concatenate([obs[k].ravel() for k in obs]), vector)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_pettingzoo_seed_test_passes_with_shaping_and_forced_skipping(n):
    seed_test(lambda: make(num_players=n, shaping_coef=0.5, auto_skip_forced=True), num_cycles=500)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_spaces_are_the_same_for_every_player_count_and_contain_every_observation(n):
    env = make(num_players=n)
    assert env.possible_agents == [f"player_{i}" for i in range(n)]
    for agent in env.possible_agents:
        assert env.action_space(agent).n == NUM_ACTIONS
        assert env.observation_space(agent)["observation"].shape == (OBS_SIZE,)
        assert env.observation_space(agent)["action_mask"].shape == (NUM_ACTIONS,)

    def check(env, agent, obs, legal):
        for a in env.agents:
            o = env.observe(a)
            assert env.observation_space(a).contains(o)
            assert o["observation"].dtype == np.float32 and o["action_mask"].dtype == np.int8

    play_aec(env, seed=n, on_decision=check)


# -- masks and steps -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_masked_in_action_is_accepted_and_every_masked_out_one_raises(n):
    env = make(num_players=n)
    side = make(num_players=n)  # replays each legal action from a copy of the state
    checked = {"in": 0, "out": 0}

    def sweep(env, agent, obs, legal):
        if env.game_state.round % 3 != 1 and env.game_state.round != 0:
            return
        before = env.game_state.to_json()
        for a in range(NUM_ACTIONS):
            if obs["action_mask"][a]:
                side.reset_to_state(env.game_state.clone())
                side.step(a)
                checked["in"] += 1
                continue
            with pytest.raises(IllegalActionError) as err:
                env.step(a)
            message = str(err.value)
            assert isinstance(err.value, ValueError)
            assert f"action {a} ({env.describe_action(a)}) is illegal" in message
            assert "Legal actions: " in message
            shown = re.findall(r"(\d+) \(", message.split("Legal actions: ")[1])
            assert [int(x) for x in shown] == legal[:40]
            assert err.value.action == a and list(err.value.legal) == legal
            checked["out"] += 1
        # the rejected actions changed nothing
        assert env.game_state.to_json() == before and env.agent_selection == agent
        assert np.array_equal(env.observe(agent)["action_mask"], obs["action_mask"])

    play_aec(env, seed=10 + n, policy_seed=n, on_decision=sweep)
    assert checked["in"] > 100 and checked["out"] > 1000


def test_out_of_range_and_non_integer_actions_raise_clearly():
    env = make(num_players=3)
    env.reset(seed=0)
    for bad in (NUM_ACTIONS, -1, 10**6, 2**70, np.int64(-3)):
        with pytest.raises(
            IllegalActionError, match=rf"action {bad} \(not an id in 0..131\) is illegal.*Legal actions"
        ):
            env.step(bad)
    for bad in ("attack", " 97 ", 97.0, np.float32(97), True, np.bool_(True), float("inf"), [97]):
        with pytest.raises(IllegalActionError, match="an action is a Python int or numpy integer id, not a"):
            env.step(bad)
    assert env.game_state.setup_picks == 0  # nothing was played


def test_numpy_integer_actions_are_accepted():
    env = make(num_players=2)
    env.reset(seed=0)
    legal = np.flatnonzero(env.action_mask())
    env.step(np.int64(legal[0]))
    assert env.game_state.setup_picks == 1


@pytest.mark.parametrize("n", [2, 3, 5])
def test_penalize_ends_the_game_with_minus_one_for_the_offender_and_zero_for_the_others(n):
    env = make(num_players=n, illegal_action="penalize", infos="rich")
    env.reset(seed=4)
    rng = random.Random(0)
    for _ in range(25):  # into the game, past the setup
        env.step(rng.choice(np.flatnonzero(env.action_mask()).tolist()))
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.agents}
    assert env.infos[offender]["illegal_action"] == illegal
    assert env.end_reasons[env.infos[offender]["end_reason"]] == "illegal action"
    assert not env.infos[offender]["winners"].any()
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in env.agents)
    results = {}
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        assert term
        results[agent] = reward
        env.step(None)
    assert results == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.agents == []


def test_penalize_accepts_legal_actions_normally():
    totals, final = play_aec(make(num_players=3, illegal_action="penalize"), seed=3)
    winners = set(np.flatnonzero(final["player_0"]["winners"]).tolist())
    assert totals == {f"player_{i}": (1.0 if i in winners else -1.0) for i in range(3)}


# -- options -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options, message",
    [
        ({"num_players": 1}, r"num_players=1 is not allowed; num_players must be an integer from 2 to 5"),
        ({"num_players": 6}, r"num_players=6 is not allowed; num_players must be an integer from 2 to 5"),
        ({"num_players": "3"}, r"num_players='3' is not allowed; num_players must be an integer from 2 to 5"),
        ({"num_players": True}, r"num_players must be an integer from 2 to 5"),
        (
            {"colour": "red"},
            r"unknown option\(s\) \['colour'\]; allowed options are \[.*'num_players'.*'reward_scheme'",
        ),
        ({"reward_scheme": "x"}, r'reward_scheme must be "win_loss", "rank" or "score_margin"'),
        ({"num_players": 3, "first_player": 4}, r"first_player=4 is not allowed; it must be None or 0..2"),
        ({"num_players": 3, "first_player": 3}, r"first_player=3 is not allowed; it must be None or 0..2"),
        ({"first_player": -1}, r"first_player must be None \(random\) or a seat"),
        (
            {"content": "/no/such/content.json"},
            r"content file '/no/such/content.json' does not exist; pass 'default' or the path",
        ),
        ({"observation_mode": "image"}, r'observation_mode must be "vector" or "dict"'),
        ({"artefact_end": "never"}, r'artefact_end must be "immediate", "end_of_turn" or "end_of_round"'),
        ({"score_floor": 5}, r"score_floor must be None or 0"),
        ({"shaping_coef": -0.5}, r"shaping_coef must be a number >= 0"),
        ({"artefacts": "yes"}, r"artefacts must be True or False"),
        ({"illegal_action": "ignore"}, r'illegal_action must be "raise" or "penalize"'),
        ({"auto_skip_forced": 1}, r"auto_skip_forced must be True or False"),
        ({"render_mode": "rgb_array"}, r'render_mode must be None, "ansi" or "human"'),
    ],
)
def test_bad_options_raise_value_errors_that_say_what_is_allowed(options, message):
    with pytest.raises(ValueError, match=message):
        make(**options)


@pytest.mark.parametrize("value", [2.0, 3.0])
def test_a_float_player_count_is_rejected_with_a_value_error(value):
    with pytest.raises(ValueError, match="num_players must be an integer from 2 to 5"):
        make(num_players=value)


def test_bad_content_file_is_rejected_with_a_value_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ValueError, match="is not valid JSON"):
        make(content=str(broken))
    partial = tmp_path / "partial.json"
    partial.write_text('{"monsters": []}')
    with pytest.raises(ValueError, match=r"lacks the keys \['weapon_powers', 'weapon_types'\]"):
        make(content=str(partial))


def test_a_content_file_replaces_the_tables(tmp_path):
    data = json.loads(json.dumps(DEFAULT_CONTENT))
    data["monsters"][35][5] = 20  # the Dragon is worth 20 VP in this file
    path = tmp_path / "content.json"
    path.write_text(json.dumps(data))
    env = make(num_players=2, content=str(path), infos="rich")
    assert env.game.content.monsters[35].vp == 20
    totals, final = play_aec(env, seed=0)
    assert final["player_0"]["end_case"] in ("A", "B")
    data["monsters"][3][4] = [1]  # a level-1 monster with a dark zone
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="level-1 monster Skeleton cannot have a dark zone"):
        make(content=str(path))


def test_valid_options_are_accepted():
    for options in (
        {"num_players": 5, "first_player": 4, "reward_scheme": "rank", "score_floor": 0},
        {"artefacts": False, "artefact_end": "end_of_round", "shaping_coef": 1, "shape_artefacts": True},
        {"observation_mode": "dict", "open_hands": True, "render_mode": "ansi", "illegal_action": "penalize"},
    ):
        env = make(**options)
        env.reset(seed=0)
        assert env.agent_selection in env.possible_agents


def test_reset_to_state_rejects_a_state_of_another_player_count():
    other = envs.game_class(ENV_ID)(num_players=3).new_state(0)
    with pytest.raises(ValueError, match="the state has 3 players but this env has 2"):
        make(num_players=2).reset_to_state(other)


def test_out_of_range_action_under_penalize_ends_the_game():
    env = make(num_players=2, illegal_action="penalize")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(NUM_ACTIONS + 5)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.agents}


def test_first_player_option_fixes_the_first_agent():
    for fp in range(4):
        env = make(num_players=4, first_player=fp)
        for seed in range(3):
            env.reset(seed=seed)
            assert env.agent_selection == f"player_{fp}"


# -- call order ------------------------------------------------------------------------------------
def test_step_observe_and_render_before_reset_raise_clear_errors():
    env = make(num_players=2, render_mode="ansi")
    with pytest.raises(RuntimeError, match=r"step\(\) called before reset\(\)"):
        env.step(0)
    with pytest.raises(RuntimeError, match=r"observe\(\) called before reset\(\)"):
        env.observe("player_0")
    with pytest.raises(RuntimeError, match=r"render\(\) called before reset\(\)"):
        env.render()


def test_dead_agents_only_accept_none_and_live_agents_never_accept_none():
    env = make(num_players=3)
    env.reset(seed=2)
    with pytest.raises(ValueError, match="only allowed for a terminated or truncated agent"):
        env.step(None)
    rng = random.Random(2)
    while not any(env.terminations.values()):
        env.step(rng.choice(np.flatnonzero(env.action_mask()).tolist()))
    dead = env.agent_selection
    assert env.terminations[dead]
    with pytest.raises(ValueError, match=rf"{dead} is done: its only allowed action is None, got {END_TURN}"):
        env.step(END_TURN)
    assert dead in env.agents  # the bad call removed nobody
    env.step(None)
    assert dead not in env.agents


def test_rich_infos_give_phase_and_round_then_the_results():
    env = make(num_players=3, infos="rich")
    env.reset(seed=5)
    info = env.infos["player_0"]
    assert (info["phase"], info["round"], info["end_reason"], info["winners"].tolist()) == ("SETUP_PICK", 0, 0, [0] * 3)
    totals, final = play_aec(env, seed=5)
    assert set(final) == set(env.possible_agents)
    info = final["player_0"]
    assert info["end_case"] in ("A", "B") and len(info["final_scores"]) == 3 and len(info["monsters_killed"]) == 3
    assert all(f["end_case"] == info["end_case"] and f["final_scores"] == info["final_scores"] for f in final.values())
    best = max(zip(info["final_scores"], info["monsters_killed"]))
    winners = [i for i in range(3) if (info["final_scores"][i], info["monsters_killed"][i]) == best]
    assert np.flatnonzero(info["winners"]).tolist() == winners
    assert totals == {f"player_{i}": (1.0 if i in winners else -1.0) for i in range(3)}


# -- forced decisions ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_auto_skip_forced_never_presents_a_single_choice_and_plays_the_same_game(n):
    """With auto_skip_forced=True no decision has exactly one legal action, and the game (final state
    and every reward) is the one obtained by playing those forced actions by hand."""
    skipped = 0
    for seed in range(6):
        auto = make(num_players=n, auto_skip_forced=True, shaping_coef=0.25)
        manual = make(num_players=n, shaping_coef=0.25)
        auto.reset(seed=seed)
        manual.reset(seed=seed)
        rng = random.Random(seed)
        auto_totals = dict.fromkeys(auto.possible_agents, 0.0)
        manual_totals = dict.fromkeys(manual.possible_agents, 0.0)
        for agent in auto.agent_iter(max_iter=5000):
            obs, reward, term, trunc, _ = auto.last()
            auto_totals[agent] += reward
            if term or trunc:
                auto.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            assert len(legal) >= 2, f"a forced decision was presented: {legal}"
            action = rng.choice(legal)
            # bring the manual env to the same decision, playing every forced action by hand
            while True:
                m_agent = manual.agent_selection
                m_obs, m_reward, _, _, _ = manual.last()
                manual_totals[m_agent] += m_reward
                m_legal = np.flatnonzero(m_obs["action_mask"]).tolist()
                if len(m_legal) == 1:
                    manual.step(m_legal[0])
                    skipped += 1
                    continue
                assert m_agent == agent and m_legal == legal
                assert np.array_equal(m_obs["observation"], obs["observation"])
                break
            auto.step(action)
            manual.step(action)
        # the manual env may still have forced actions left before its end
        for m_agent in manual.agent_iter(max_iter=5000):
            m_obs, m_reward, term, trunc, _ = manual.last()
            manual_totals[m_agent] += m_reward
            if term or trunc:
                manual.step(None)
                continue
            m_legal = np.flatnonzero(m_obs["action_mask"]).tolist()
            assert len(m_legal) == 1
            manual.step(m_legal[0])
            skipped += 1
        assert auto.state.to_json() == manual.state.to_json()
        assert auto.state.is_terminal() and auto.agents == [] and manual.agents == []
        assert auto_totals == pytest.approx(manual_totals)
        returns = auto.state.returns()
        assert auto_totals == pytest.approx({f"player_{i}": returns[i] for i in range(n)})
    assert skipped > 0


# -- text ------------------------------------------------------------------------------------------
def test_ansi_render_returns_the_board_and_human_render_prints_it(capsys):
    env = make(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "round" in text and "player_0" in text and "legal:" in text
    human = make(num_players=3, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    printed = capsys.readouterr().out
    assert "round" in printed and printed.strip() == text.strip()
    silent = make(num_players=3)
    silent.reset(seed=1)
    assert silent.render() is None


def test_rendered_board_shows_the_actors_hand_and_no_hidden_card_of_the_others():
    rng = random.Random(0)
    env = make(num_players=3, render_mode="ansi")
    checked = 0
    for s in positions(3, range(3), every=9):
        if s.is_terminal():
            continue
        actor = s.current_player
        env.reset_to_state(s)
        text = env.render()
        assert f"player_{actor}" in text
        other = redistribute_hidden(s, actor, rng)  # the others' hidden cards dealt again
        if other is not None:
            env.reset_to_state(other)
            assert env.render() == text, "the board shows cards hidden from the acting player"
            checked += 1
        mine = swap_one_hidden_card(s, actor, (actor + 1) % 3)  # control: the actor's own hand changes
        if mine is not None:
            env.reset_to_state(mine)
            assert env.render() != text
    assert checked > 5


def test_every_legal_action_has_a_distinct_readable_description():
    env = make(num_players=4)

    def check(env, agent, obs, legal):
        texts = [env.action_to_string(a) for a in legal]
        assert len(set(texts)) == len(texts) and all(t and not t.isdigit() for t in texts)

    play_aec(env, seed=8, on_decision=check)


# -- registry --------------------------------------------------------------------------------------
def test_registry_lists_the_env_and_rejects_unknown_ids():
    assert ENV_ID in envs.ENV_IDS
    env = envs.make(ENV_ID, num_players=4)
    assert env.metadata["name"] == ENV_ID and len(env.possible_agents) == 4
    assert envs.game_class(ENV_ID)(num_players=2).num_actions == NUM_ACTIONS
    with pytest.raises(ValueError, match=r"unknown env id 'chess_v9'; registered ids are \[.*'last_heroes_v0'.*\]"):
        envs.make("chess_v9")
    with pytest.raises(ValueError, match="registered ids are"):
        envs.make_raw("chess_v9")
