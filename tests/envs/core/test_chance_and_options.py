"""Scripted chance, play_forced, the outcome record and the shared options (envs.core)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from envs.core import Chance, Outcome, play_forced, split_options
from envs.core.chance import ScriptError
from envs.core.options import REWARD_SCHEMES, num_players_option, reward_scheme_option
from tests.toys import LAYOUT, RelayGame

ADD_1 = LAYOUT.encode("ADD", 0)
KEEP, UNDO = LAYOUT.encode("KEEP"), LAYOUT.encode("UNDO")


def _position(counter: int, n: int = 3):
    game = RelayGame(num_players=n, target=10)
    data = game.new_state(0).to_json()
    data.update(counter=counter, current_player=1, active=1)
    return game.state_from_json(json.loads(json.dumps(data)))


def test_a_scripted_die_decides_the_bonus():
    state = _position(8)
    state.chance.script([1])  # the die adds 1: the previous seat decides on the bonus
    state.apply(ADD_1)
    assert (state.counter, state.phase, state.current_player) == (10, 1, 0)
    state.apply(UNDO)
    assert state.counter == 9 and not state.is_over()
    state.chance.script([0])  # no bonus: seat 2 reaches the target
    state.apply(ADD_1)
    assert state.outcome() == Outcome((0, 1, 2), "target reached")
    assert state.outcome().team_won and state.returns() == [1.0, 1.0, 1.0]


def test_a_script_survives_json_and_clones_and_is_used_up_in_order():
    state = _position(2)
    state.chance.script([1, 0, 1])
    copy = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    twin = state.clone()
    assert copy.chance.scripted == twin.chance.scripted == (1, 0, 1)
    for s in (state, copy, twin):
        s.apply(ADD_1)
        s.apply(KEEP)
        s.apply(ADD_1)
    assert state.counter == copy.counter == twin.counter == 5 and state.chance.scripted == (1,)


def test_impossible_outcomes_are_refused_and_unscripted_draws_follow_the_seed():
    chance = Chance(7)
    chance.script([6])
    with pytest.raises(ScriptError, match=r"scripted outcome 6 cannot come from roll\(6\)"):
        chance.roll(6)
    chance.script([[2, 0, 1], 0.25, 3])
    items = ["a", "b", "c"]
    chance.shuffle(items)
    assert items == ["c", "a", "b"] and chance.random() == 0.25 and chance.integers(2, 5) == 3
    with pytest.raises(ScriptError, match="shuffle of 2 items"):
        chance.script([[0, 0]])
        chance.shuffle([1, 2])
    a, b = Chance(11), Chance(11)
    assert [a.roll(6) for _ in range(20)] == [b.roll(6) for _ in range(20)]
    assert Chance.from_json(json.loads(json.dumps(a.to_json()))).integers(1000) == b.integers(1000)


def test_play_forced_plays_only_forced_moves_and_sums_their_rewards():
    game = RelayGame(num_players=2, target=12, cheer=True)
    data = game.new_state(0).to_json()
    data.update(counter=10, current_player=0, active=0)
    state = game.state_from_json(data)
    state.chance.script([0])
    state.apply(LAYOUT.encode("ADD", 1))  # counter 12 = target, a multiple of 4: seat 1 must cheer first
    assert state.phase == 2 and state.num_legal() == 1 and state.outcome() is None
    assert play_forced(state, stop=lambda seat: seat == 1) == 0  # that seat decides itself
    totals = [0.0, 0.0]
    assert play_forced(state, totals) == 1 and totals == [1.0, 1.0] and state.outcome().team_won
    assert play_forced(state) == 0  # nothing to play once the game is over
    one = _cheer_position()
    mine = [0.0]
    assert play_forced(one, mine, seat=0) == 1 and mine == [1.0]
    with pytest.raises(RuntimeError, match="more than 0 forced decisions"):
        play_forced(_cheer_position(), limit=0)


def _cheer_position():
    game = RelayGame(num_players=2, target=12, cheer=True)
    data = game.new_state(0).to_json()
    data.update(counter=12, current_player=1, active=1, phase=2)
    return game.state_from_json(data)


def test_outcome_sorts_its_winners_and_says_why():
    outcome = Outcome([2, 0], "ten rounds played")
    assert outcome.winners == (0, 2) and outcome.to_json() == {
        "winners": [0, 2],
        "reason": "ten rounds played",
        "truncated": False,
    }
    assert not Outcome((), "fortress fell").team_won


def test_shared_options_have_one_vocabulary():
    option = reward_scheme_option("win_loss", ("win_loss", "score"), own={"shaped": "score sheet, per round"})
    assert option.choices == ("win_loss", "score", "shaped")
    assert REWARD_SCHEMES["win_loss"] in option.doc
    with pytest.raises(ValueError, match="unknown shared reward scheme"):
        reward_scheme_option("win_loss", ("win_loss", "victory_points"))
    with pytest.raises(ValueError, match="shared names with a fixed meaning"):
        reward_scheme_option("win_loss", ("win_loss",), own={"rank": "my own ranking"})
    with pytest.raises(ValueError, match="num_players=5 is not allowed; num_players must be an integer from 1 to 4"):
        num_players_option(1, 4, 2).validate(5)


def test_split_options_separates_the_driver_and_names_what_is_allowed():
    driver, game = split_options(RelayGame, {"num_players": 3, "auto_skip_forced": True, "target": 12})
    assert driver == {"illegal_action": "raise", "auto_skip_forced": True, "render_mode": None, "infos": "lean"}
    assert game == {"num_players": 3, "target": 12}
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['colour'\]; allowed options are"):
        split_options(RelayGame, {"colour": "red"})
    with pytest.raises(ValueError, match="illegal_action"):
        split_options(RelayGame, {"illegal_action": "ignore"})


def test_states_are_seeded_through_their_chance():
    game = RelayGame(num_players=2)
    a, b = game.new_state(5), game.new_state(5)
    rng = np.random.default_rng(0)
    while not a.is_over():
        action = int(rng.choice(np.flatnonzero(a.legal_mask())))
        a.apply(action)
        b.apply(action)
        assert a.to_json() == b.to_json()
