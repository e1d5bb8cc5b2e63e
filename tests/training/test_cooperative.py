"""Cooperative games end to end on the toy Relay game: the team's true win rate in evaluation,
partner bots beside the learner, several table sizes, and a tiny training run promoting on team
win rate."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers import play_random
from tests.toys import GAME as RelayGame
from training.config import load_config
from training.evaluation.tournament import evaluate, markdown
from training.runtime.policies import RandomPolicy
from training.single_agent import FixedPartners, SingleAgentEnv

ENV_ID = "relay_v0"


def _random_team_rate(n: int, games: int, target: int = 10) -> float:
    """The random team's win rate by direct simulation on the State (independent of evaluate)."""
    game = RelayGame(num_players=n, target=target)
    rng = np.random.default_rng(123)
    won = 0
    for g in range(games):
        state = play_random(game.new_state(10_000 + g), rng)
        won += state.outcome().team_won
    return won / games


def test_a_lost_cooperative_game_is_a_loss_for_every_seat(relay):
    result = evaluate(relay, 3, ["random"], 120, seed=1)
    assert result["kind"] == "cooperative"
    records = result["game_records"]
    lost = [r for r in records if r["returns"][0] < 0]
    assert lost, "random play loses some games"
    assert all(r["winners"] == [] for r in lost)
    assert all(r["winners"] in ([], [0, 1, 2]) for r in records)
    team = result["team"]
    assert team["wins"] == sum(bool(r["winners"]) for r in records)
    # one agent in all three seats: 360 seat-games, but 120 results, so its interval is the team's
    (agent,) = result["agents"]
    assert agent["games"] == 360 and agent["win_rate"] == team["win_rate"]
    assert agent["win_rate_ci95"] == team["win_rate_ci95"]
    assert set(result["reasons"]) <= {"target reached", "target overshot", "step cap reached"}


def test_team_win_rate_of_random_play_is_the_true_rate(relay):
    result = evaluate(relay, 2, ["random"], 600, seed=0)
    assert len({r["seed"] for r in result["game_records"]}) == 600  # a new deal every game
    team = result["team"]
    truth = _random_team_rate(2, 3000)
    lo, hi = team["win_rate_ci95"]
    assert lo - 0.02 <= truth <= hi + 0.02, (team, truth)
    assert 0.05 < truth < 0.95  # a rate worth measuring
    assert "| random / random | 600 |" in markdown(result)


def test_line_ups_with_partner_bots(relay):
    heuristic = evaluate(relay, 3, ["heuristic"], 60, seed=0)["team"]
    mixed = evaluate(relay, 3, ["random", "heuristic"], 60, seed=0)["team"]
    alone = evaluate(relay, 3, ["random"], 60, seed=0)["team"]
    assert heuristic["win_rate"] == 1.0  # the toy's heuristic plays perfectly
    assert mixed["lineup"] == ["random", "heuristic", "heuristic"]
    assert alone["win_rate"] < mixed["win_rate"] < 1.0


def test_partners_take_their_seats_and_the_learner_keeps_one():
    calls = []

    class Spy(RandomPolicy):
        def act(self, observation, action_mask, state=None):
            calls.append(state.current_player)
            return super().act(observation, action_mask, state)

    view = SingleAgentEnv(RelayGame, {"num_players": 4}, partners=FixedPartners(Spy(0), prob=0.5), seed=0)
    sizes = set()
    for _ in range(30):
        view.reset()
        assert 1 <= len(view.learner_seats) <= 4 and set(view.seat_policies).isdisjoint(view.learner_seats)
        sizes.add(len(view.learner_seats))
        while True:
            assert view.state.current_player in view.learner_seats
            _, reward, term, trunc, info = view.step(int(np.flatnonzero(view.action_masks())[0]))
            if term or trunc:
                break
        assert reward == view.state.returns()[0] and info["is_success"] == view.state.outcome().team_won
    assert calls and len(sizes) >= 3
    with pytest.raises(ValueError, match="partners sit beside the learner in cooperative games"):
        SingleAgentEnv("last_heroes_v0", {"num_players": 2}, partners=FixedPartners(RandomPolicy(0)))


@pytest.mark.parametrize("skip_forced", [False, True])
def test_partners_and_forced_moves_give_the_learner_its_own_view_and_the_team_reward(skip_forced):
    from tests.toys import HeuristicBot
    from training.runtime.policies import HeuristicPolicy

    class ToyHeuristic(HeuristicPolicy):
        def __init__(self):
            self.name, self.bot = "heuristic", HeuristicBot()

    options = {"num_players": 3, "cheer": True, "target": 14, "auto_skip_forced": skip_forced}
    view = SingleAgentEnv(RelayGame, options, partners=FixedPartners(ToyHeuristic(), prob=0.5), seed=1)
    forced_seen = 0
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs, info = view.reset()
        total = 0.0
        while True:
            state = view.state
            assert state.current_player in view.learner_seats
            assert np.array_equal(obs, state.observe(state.current_player))
            forced_seen += state.num_legal() == 1
            obs, reward, term, trunc, info = view.step(int(rng.choice(np.flatnonzero(view.action_masks()))))
            total += reward
            if term or trunc:
                break
        assert total == view.state.returns()[0]
    assert (forced_seen == 0) == skip_forced  # the learner decides its own forced moves unless skipped


def test_each_episode_draws_its_table_size():
    view = SingleAgentEnv(RelayGame, {}, player_counts=[1, 2, 2, 4], seed=3)
    drawn = []
    for _ in range(200):
        _, info = view.reset()
        drawn.append(info["num_players"])
        assert view.state.game.num_players == info["num_players"]
    counts = {n: drawn.count(n) for n in (1, 2, 4)}
    assert set(drawn) == {1, 2, 4} and counts[2] > counts[1] and counts[2] > counts[4]
    with pytest.raises(ValueError, match="is played by 1 to 4 players"):
        SingleAgentEnv(RelayGame, {}, player_counts=[2, 5])
    with pytest.raises(ValueError, match="either as player_counts or as the option num_players"):
        SingleAgentEnv(RelayGame, {"num_players": 2}, player_counts=[2, 3])


def test_tiny_cooperative_training_run(relay, tmp_path, capsys):
    from training.train import train

    cfg = load_config(
        None,
        [
            f"env.env_id={relay}",
            "env.options={}",
            "env.player_counts=[1, 3]",
            "selfplay.baselines={}",
            "selfplay.partners={heuristic: 0.3, pool: 0.2}",
            "selfplay.snapshot_every=256",
            "selfplay.promote_games=20",
            "ppo.n_steps=128",
            "ppo.batch_size=64",
            "ppo.n_epochs=1",
            "ppo.net_arch=[16]",
            "run.n_envs=2",
            "run.vec_env=dummy",
            "run.total_timesteps=768",
            "run.eval_every=512",
            "run.checkpoint_every=512",
            "run.eval_games=12",
            "run.eval_variants={target: [5]}",
            f"run.runs_dir={tmp_path}",
            "run.progress=false",
        ],
    )
    final = train(cfg)
    out = capsys.readouterr().out
    assert "| Table | Team |" in out and "| 3p | with_heuristic |" in out and "| 1p target=5 | team |" in out
    meta = json.loads(final.read_text())
    assert set(meta["evaluation"]) == {"1p", "3p"}
    assert set(meta["evaluation"]["1p"]) == {"team"} and set(meta["evaluation"]["3p"]) == {"team", "with_heuristic"}
    assert set(meta["evaluation_variants"]) == {"target=5"} and meta["player_counts"] == [1, 3]
    run_dir = final.parent.parent
    history = [json.loads(line) for line in (run_dir / "eval_history.jsonl").read_text().splitlines()]
    assert history and set(history[0]["results"]["3p"]) == {"team", "with_heuristic"}
    pool = json.loads((run_dir / "pool" / "pool.json").read_text())
    promoted = [s for s in pool["snapshots"] if s["evaluation"]]
    assert promoted and all(-0.5 <= v <= 1.5 for s in promoted for v in s["evaluation"].values())
