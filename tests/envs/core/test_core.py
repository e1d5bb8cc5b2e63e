"""The shared machinery: action layouts, options, and the AEC driver on a cooperative toy game."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from envs.core import ActionLayout, IllegalActionError, Option, resolve_options
from envs.core.options import is_int_in
from tests.toys import LAYOUT as RELAY_LAYOUT
from tests.toys import relay_env


# -- ActionLayout ---------------------------------------------------------------------------
def test_layout_ids_round_trip_and_are_dense():
    layout = ActionLayout([("A", {"x": 3, "y": 2}), ("B", {}), ("C", {"k": 4})])
    assert layout.num_actions == 3 * 2 + 1 + 4
    seen = set()
    for a in range(layout.num_actions):
        name, args = layout.decode(a)
        assert layout.encode(name, *args) == a
        seen.add(a)
    assert seen == set(range(11))
    assert layout.encode("A", x=2, y=1) == 5  # row-major: the last argument varies fastest
    assert layout.encode("B") == 6
    assert layout.decode(7) == ("C", (0,))
    labels = [layout.label(a) for a in range(layout.num_actions)]
    assert len(set(labels)) == len(labels)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda lay: lay.encode("A", 3, 0), "x=3 is outside 0..2"),
        (lambda lay: lay.encode("A", 0), "takes 2 arguments"),
        (lambda lay: lay.encode("Z"), "no action block 'Z'"),
        (lambda lay: lay.decode(99), "outside 0..6"),
    ],
)
def test_layout_rejects_bad_input_clearly(call, message):
    layout = ActionLayout([("A", {"x": 3, "y": 2}), ("B", {})])
    with pytest.raises((ValueError, KeyError, TypeError), match=message):
        call(layout)


def test_layout_markdown_table_lists_every_block():
    table = RELAY_LAYOUT.markdown_table()
    assert "| 0-1 | `ADD` |" in table and "| 3 | `UNDO` |" in table and "Total: 4 actions" in table


# -- options ----------------------------------------------------------------------------------
def test_options_fill_defaults_and_reject_unknown_and_bad_values():
    spec = (
        Option("num_players", 2, "2..5", "", check=is_int_in(2, 5)),
        Option("mode", "a", '"a" or "b"', "", choices=("a", "b")),
    )
    assert resolve_options(spec, {}, "g") == {"num_players": 2, "mode": "a"}
    with pytest.raises(
        ValueError, match=r"unknown option\(s\) \['colour'\]; allowed options are \['mode', 'num_players'\]"
    ):
        resolve_options(spec, {"colour": 1}, "g")
    with pytest.raises(ValueError, match="num_players=7 is not allowed; num_players must be 2..5"):
        resolve_options(spec, {"num_players": 7}, "g")
    with pytest.raises(ValueError, match='mode must be "a" or "b"'):
        resolve_options(spec, {"mode": "c"}, "g")


# -- driver on the cooperative toy ------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_toy_passes_pettingzoo_api_and_seed_tests(n):
    api_test(relay_env(num_players=n), num_cycles=200)
    seed_test(lambda: relay_env(num_players=n), num_cycles=100)


def _play(env, seed, policy_seed=0):
    rng = np.random.default_rng(policy_seed)
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        trace.append((agent, reward, term, trunc))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return trace


def test_team_reward_reaches_every_agent_at_the_end():
    env = relay_env(num_players=3)
    outcomes = set()
    for seed in range(40):
        trace = _play(env, seed, seed)
        finals = [r for (_, r, term, trunc) in trace if term or trunc]
        assert len(finals) == 3
        assert len(set(finals)) == 1  # cooperative: everyone gets the same result
        outcomes.add(finals[0])
    assert outcomes == {1.0, -1.0}


def test_decision_by_a_seat_other_than_the_active_one_selects_that_agent():
    env = relay_env(num_players=3)
    found = False
    for seed in range(30):
        env.reset(seed=seed)
        env.step(RELAY_LAYOUT.encode("ADD", 0))  # player_0 adds; a bonus makes player_2 decide
        if env.game_state.phase == 1:
            assert env.agent_selection == "player_2"
            assert env.observe("player_0")["action_mask"].sum() == 0
            mask = env.observe("player_2")["action_mask"]
            assert np.flatnonzero(mask).tolist() == [RELAY_LAYOUT.encode("KEEP"), RELAY_LAYOUT.encode("UNDO")]
            found = True
            break
    assert found


def test_truncation_sets_truncations_not_terminations():
    env = relay_env(num_players=2, target=50, max_steps=3)
    env.reset(seed=1)
    for _ in range(3):
        env.step(RELAY_LAYOUT.encode("ADD", 0) if env.game_state.phase == 0 else RELAY_LAYOUT.encode("UNDO"))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.end_reasons[env.infos["player_0"]["end_reason"]] == "step cap reached"
    assert env.last()[1] == 0.0


def test_auto_skip_forced_plays_single_choice_decisions():
    env = relay_env(num_players=1, auto_skip_forced=True)
    env.reset(seed=0)
    # With one seat there is never a KEEP/UNDO decision, and every ADD decision has two choices.
    for _ in range(5):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        assert env.observe(env.agent_selection)["action_mask"].sum() == 2
        env.step(RELAY_LAYOUT.encode("ADD", 0))


def test_driver_rejects_illegal_and_out_of_range_actions():
    env = relay_env(num_players=2)
    with pytest.raises(RuntimeError, match="before reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"action 2 \(KEEP\) is illegal for seat 0.*Legal actions: 0 \(ADD"):
        env.step(RELAY_LAYOUT.encode("KEEP"))
    with pytest.raises(IllegalActionError, match="not an id in 0..3"):
        env.step(17)
    with pytest.raises(ValueError, match="only allowed for a terminated or truncated agent"):
        env.step(None)


def test_penalize_ends_a_cooperative_game_as_a_loss_for_the_whole_team():
    env = relay_env(num_players=3, illegal_action="penalize")
    env.reset(seed=0)
    env.step(RELAY_LAYOUT.encode("UNDO"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": -1.0, "player_2": -1.0}
    assert env.observe("player_0")["action_mask"].sum() == 0


def test_unknown_driver_or_game_option_is_named():
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['speed'\]; allowed options are \[.*'illegal_action'"):
        relay_env(speed=3)
    with pytest.raises(ValueError, match='illegal_action must be "raise" or "penalize"'):
        relay_env(illegal_action="ignore")


def test_num_legal_counts_the_mask_over_whole_games():
    from tests.toys import RelayGame

    game = RelayGame(num_players=3)
    rng = np.random.default_rng(0)
    for seed in range(20):
        state = game.new_state(seed)
        while not (state.is_terminal() or state.is_truncated()):
            mask = state.legal_mask()
            assert state.num_legal() == len(np.flatnonzero(mask)) == len(state.legal_actions())
            state.apply(int(rng.choice(np.flatnonzero(mask))))
        assert state.num_legal() == 0  # nothing is legal once the game is over


def test_legal_actions_and_action_meaning_per_agent():
    env = relay_env(num_players=3)
    env.reset(seed=3)
    actor = env.agent_selection
    waiting = next(a for a in env.agents if a != actor)
    legal = env.legal_actions(actor)
    assert legal == env.legal_actions() == np.flatnonzero(env.observe(actor)["action_mask"]).tolist() and legal
    assert env.legal_actions(waiting) == []
    assert env.action_meaning(actor, legal[0]) == env.describe_action(legal[0])
    assert env.action_meaning(waiting, legal[0]) == RELAY_LAYOUT.label(legal[0])  # not its turn: the generic label
    with pytest.raises(ValueError, match="unknown agent 'player_9': the agents are player_0, player_1, player_2"):
        env.legal_actions("player_9")
    with pytest.raises(ValueError, match="ids are the integers 0..."):
        env.action_meaning(actor, RELAY_LAYOUT.num_actions)
    with pytest.raises(ValueError, match="is not an action id"):
        env.action_meaning(actor, "1")
