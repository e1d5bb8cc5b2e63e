"""examples/tianshou_dqn.py: Tianshou's collector plays whole herozoo games, its buffer holds the lean
infos with fixed shapes, no illegal action is played, seeded runs repeat, and the seat-aligned buffer
the DQN learns from gives every seat its own final reward (Tianshou issue #399)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.interop.examples import load_example, torch_on_one_thread

pytest.importorskip("tianshou")
torch = pytest.importorskip("torch")

TABLES = [("last_heroes_v0", 2), ("last_bastion_v0", 1), ("last_bastion_v0", 2)]
EPISODES = 12  # 2 epochs x 6, over 3 envs


@pytest.fixture(scope="module")
def example():
    return load_example("tianshou_dqn")


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    yield from torch_on_one_thread()


def _train(example, env_id, players, seed=7, epochs=2):
    return example.train(
        env_id,
        players,
        epochs=epochs,
        episodes_per_epoch=6,
        updates_per_epoch=3,
        batch_size=32,
        num_envs=3,
        seed=seed,
        buffer_size=5_000,
        hidden_sizes=(32,),
    )


@pytest.fixture(scope="module")
def runs(example):
    return {table: _train(example, *table) for table in TABLES}


def _rows(result):
    buffer = result.collector.buffer
    return buffer, buffer[np.sort(buffer.sample_indices(0))]


def _episodes(rows):
    """The finished episodes in the collector's rows, as row indices. Each env has its own sub-buffer,
    filled in order from the start (none wraps here), so the sorted rows are each env's steps in order."""
    episodes = []
    for env_id in np.unique(rows.info.env_id):
        steps = np.flatnonzero(rows.info.env_id == env_id)
        ends = np.flatnonzero(rows.done[steps])
        episodes += [steps[start : end + 1] for start, end in zip(np.r_[0, ends[:-1] + 1], ends)]
    return episodes


def _as_set(vectors):
    return sorted(tuple(float(x) for x in v) for v in vectors)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_collection_plays_whole_episodes_without_nans(runs, table):
    result = runs[table]
    buffer, rows = _rows(result)
    assert result.episodes == EPISODES == result.aligner.episodes
    assert int(rows.done.sum()) == EPISODES  # every finished episode ends in exactly one done row
    assert not buffer.hasnull()
    assert np.isfinite(rows.rew).all() and np.isfinite(rows.obs.obs).all()
    assert rows.rew.shape == (len(rows), table[1])
    assert result.losses and np.isfinite(result.losses).all()


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_buffer_infos_have_fixed_shapes(runs, table):
    _, rows = _rows(runs[table])
    n = table[1]
    assert set(rows.info.get_keys()) == {"winners", "end_reason", "env_id"}  # env_id is Tianshou's own
    assert rows.info.winners.shape == (len(rows), n) and rows.info.winners.dtype == np.int8
    assert rows.info.end_reason.shape == (len(rows),) and np.issubdtype(rows.info.end_reason.dtype, np.integer)
    running = ~rows.done
    assert (rows.info.end_reason[running] == 0).all() and (rows.info.winners[running] == 0).all()
    assert (rows.info.end_reason[rows.done] >= 2).all()  # a game's own end reason, never "illegal action" (1)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_no_illegal_action_is_played(runs, table):
    _, rows = _rows(runs[table])
    mask = np.asarray(rows.obs.mask, dtype=bool)
    assert mask.any(axis=1).all()
    assert mask[np.arange(len(rows)), rows.act].all()
    seat = np.array([int(a.rsplit("_", 1)[1]) for a in rows.obs.agent_id])
    assert (seat < table[1]).all()


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}p")
def test_every_seat_learns_its_own_final_reward(runs, table):
    result = runs[table]
    _, rows = _rows(result)
    n = table[1]
    winners = [rows.info.winners[episode[-1]] for episode in _episodes(rows)]
    assert len(winners) == EPISODES
    # win_loss: +1 to each winner, -1 to everyone else; the hook saw the same episodes in the same order
    expected = [np.where(w == 1, 1.0, -1.0) for w in winners]
    assert _as_set(result.aligner.seat_returns) == _as_set(expected)
    seats = result.seat_buffer[np.arange(len(result.seat_buffer))]
    assert result.aligner.transitions == len(seats)
    last = seats.terminated
    assert int(last.sum()) == EPISODES * len({a for a in rows.obs.agent_id})  # one terminal transition per seat
    # a non-terminal transition goes to the same seat's next decision, with a mask to act on
    assert (seats.obs.agent_id[~last] == seats.obs_next.agent_id[~last]).all()
    assert np.asarray(seats.obs_next.mask, dtype=bool)[~last].any(axis=1).all()
    if n == 2 and table[0] == "last_heroes_v0":
        # Tianshou's own split (each seat's rows, its own column) loses the loser's -1: issue #399
        own_rows = [
            [rows.rew[e][rows.obs.agent_id[e] == f"player_{s}", s].sum() for s in range(n)] for e in _episodes(rows)
        ]
        assert _as_set(own_rows) != _as_set(expected)
        assert all(sum(map(abs, r)) == 1.0 for r in own_rows)  # only the seat that ended the game sees its reward


def test_identical_seeds_give_identical_data(example, runs):
    first = runs[("last_heroes_v0", 2)]
    again = _train(example, "last_heroes_v0", 2)
    (_, a), (_, b) = _rows(first), _rows(again)
    for key in ("act", "rew", "terminated"):
        np.testing.assert_array_equal(a[key], b[key])
    np.testing.assert_array_equal(a.obs.obs, b.obs.obs)
    np.testing.assert_array_equal(a.info.winners, b.info.winners)
    assert first.losses == again.losses
    other = _train(example, "last_heroes_v0", 2, seed=8, epochs=1)
    assert not np.array_equal(other.collector.buffer.act[:50], first.collector.buffer.act[:50])


def test_evaluate_against_random_both_kinds(example, runs):
    competitive = example.evaluate("last_heroes_v0", 2, runs[("last_heroes_v0", 2)].learner, episodes=4, seed=3)
    assert competitive["episodes"] == 4 and 0.0 <= competitive["win_rate_vs_random"] <= 1.0
    cooperative = example.evaluate("last_bastion_v0", 2, runs[("last_bastion_v0", 2)].learner, episodes=4, seed=3)
    assert cooperative["episodes"] == 4 and 0.0 <= cooperative["team_win_rate"] <= 1.0
    assert -1.0 <= cooperative["team_return"] <= 1.0 and -1.0 <= cooperative["random_team_return"] <= 1.0


def test_main_prints_a_win_rate(example, capsys):
    argv = ["last_bastion_v0", "--players", "1", "--epochs", "1", "--episodes-per-epoch", "4", "--updates-per-epoch"]
    report = example.main([*argv, "2", "--batch-size", "16", "--envs", "2", "--eval-episodes", "2", "--seed", "1"])
    out = capsys.readouterr().out
    assert "self-play episodes" in out and "team win rate" in out
    assert 0.0 <= report["team_win_rate"] <= 1.0
