"""examples/supersuit_wrappers.py: the SuperSuit wrappers that apply play whole herozoo games (on the
AEC env, after turn_based_aec_to_parallel, as a vector env of seats), and those that do not apply
fail the way the example says."""

from __future__ import annotations

import numpy as np
import pytest

from tests.interop.examples import load_example

pytest.importorskip("supersuit")

import envs  # noqa: E402
from envs.core.game import IllegalActionError  # noqa: E402

TABLES = [("last_heroes_v0", 2), ("last_bastion_v0", 1), ("last_bastion_v0", 2), ("lost_legends_v0", 3)]


@pytest.fixture(scope="module")
def example():
    return load_example("supersuit_wrappers")


@pytest.fixture(scope="module")
def surveys(example):
    return {table: {row.wrapper: row for row in example.survey(*table, games=2, seed=4)} for table in TABLES[:3]}


@pytest.mark.parametrize("table", TABLES[:3], ids=lambda t: f"{t[0]}-{t[1]}p")
def test_each_group_works_or_fails_as_documented(example, surveys, table):
    rows = surveys[table]
    working = {**example.AEC_WRAPPERS, **example.PARALLEL_WRAPPERS, **example.VECTOR_WRAPPERS}
    for name in working:
        assert rows[name].works, (name, rows[name].detail)
        assert rows[name].report.games == 2 and len(rows[name].report.returns) == 2
    for name in {**example.BOX_ONLY_WRAPPERS, **example.MASK_BREAKING_WRAPPERS}:
        assert not rows[name].works, name
    for name in example.MASK_BREAKING_WRAPPERS:
        assert rows[name].detail.startswith(("IllegalActionError", "NoLegalAction")), (name, rows[name].detail)


@pytest.mark.parametrize("table", TABLES[:3], ids=lambda t: f"{t[0]}-{t[1]}p")
def test_reward_wrappers_change_rewards_only(surveys, table):
    rows = surveys[table]
    plain = rows["action_lambda_v1(identity)"].report
    clipped = rows["clip_reward_v0(-0.5, 0.5)"].report
    scaled = rows["reward_lambda_v0(10 * r)"].report
    assert plain.moves == clipped.moves == scaled.moves  # same seed, same games
    np.testing.assert_allclose(np.array(clipped.returns), np.clip(plain.returns, -0.5, 0.5))
    np.testing.assert_allclose(np.array(scaled.returns), 10 * np.array(plain.returns))


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_parallel_conversion_plays_the_same_whole_games(example, table):
    env_id, n = table
    aec = example.play_aec(envs.make(env_id, num_players=n), games=3, seed=2)
    parallel = example.play_parallel(example.turn_based_aec_to_parallel(envs.make(env_id, num_players=n)), 3, seed=2)
    assert parallel.games == 3 and parallel.moves == aec.moves
    assert parallel.returns == aec.returns and parallel.end_reasons == aec.end_reasons
    assert all(code >= 2 for code in parallel.end_reasons)  # natural ends, no illegal action


@pytest.mark.parametrize("table", TABLES[:3], ids=lambda t: f"{t[0]}-{t[1]}p")
def test_vector_env_of_seats_plays_whole_games(example, table):
    env_id, n = table
    build = example.VECTOR_WRAPPERS["pettingzoo_env_to_vec_env_v1 + concat_vec_envs_v1(2)"]
    venv = build(envs.make(env_id, num_players=n))
    assert venv.num_envs == 2 * n
    observations, infos = venv.reset(seed=1)
    assert observations["action_mask"].shape[0] == 2 * n and len(infos) == 2 * n
    report = example.play_vector(venv, n, games=4, seed=1)
    assert report.games >= 4
    # win_loss rewards at the end: +1 to every winner, -1 to the others (cooperative: all the same)
    assert all(set(r) <= {-1.0, 1.0} for r in report.returns)
    if envs.game_class(env_id).cooperative:
        assert all(len(set(r)) == 1 for r in report.returns)
    else:
        assert all(r.count(1.0) >= 1 for r in report.returns)
    # SuperSuit's auto-reset merges the new game's infos over the final step's (the lean keys are the same),
    # so the outcome has to come from the rewards (or info["terminal_observation"])
    assert report.end_reasons == [0] * report.games
    # one seat acts in each copy: the other slots show an all-zero mask
    observations, _ = venv.reset(seed=1)
    acting = observations["action_mask"].reshape(2, n, -1).any(axis=2)
    assert (acting.sum(axis=1) == 1).all()


def test_mask_breaking_wrapper_raises_herozoo_illegal_action(example):
    env = example.MASK_BREAKING_WRAPPERS["sticky_actions_v0(0.5)"](envs.make("last_heroes_v0", num_players=2))
    with pytest.raises(IllegalActionError):
        example.play_aec(env, games=5, seed=0)


def test_seat_indicator_keeps_the_mask(example):
    env = example.seat_indicator(envs.make("last_heroes_v0", num_players=2))
    size = envs.make("last_heroes_v0", num_players=2).observation_space("player_0")["observation"].shape[0]
    assert env.observation_space("player_1")["observation"].shape == (size + 2,)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    seat = int(env.agent_selection.rsplit("_", 1)[1])
    assert obs["observation"][size + seat] == 1.0 and obs["action_mask"].any()
    assert env.observation_space(env.agent_selection).contains(obs)


def test_tictactoe_rejects_the_same_observation_wrappers(example):
    pytest.importorskip("pettingzoo.classic")
    rows = example.tictactoe_box_only()
    assert rows and not any(row.works for row in rows)


def test_main_prints_every_group(example, capsys):
    rows = example.main(["last_bastion_v0", "--players", "1", "--games", "1", "--no-tictactoe"])
    out = capsys.readouterr().out
    assert "work on the AEC env" in out and "break the action mask" in out
    assert sum(row.works for row in rows) == len(example.AEC_WRAPPERS) + 4
