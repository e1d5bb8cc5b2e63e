"""training.evaluation.tournament: the seat-balanced schedule, Wilson intervals, a small tournament, the CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from training.evaluation.tournament import (
    cycle_length,
    evaluate,
    parse_option,
    seat_schedule,
    wilson_interval,
    write_outputs,
)
from training.runtime.policies import RandomPolicy

ENV = "last_heroes_v0"
REPO = Path(__file__).resolve().parents[2]


# -- schedule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "agents, players", [(1, 2), (2, 2), (2, 4), (3, 4), (4, 4), (2, 5), (3, 2), (5, 3), (4, 2), (6, 5)]
)
def test_seat_schedule_is_seat_balanced(agents, players):
    cyc = cycle_length(agents, players)
    schedule = seat_schedule(agents, players, 3 * cyc)
    assert len(schedule) == 3 * cyc
    assert all(len(seating) == players for seating in schedule)
    per_seat = [Counter(seating[s] for seating in schedule) for s in range(players)]
    for a in range(agents):
        counts = {per_seat[s][a] for s in range(players)}
        assert len(counts) == 1 and counts.pop() > 0, f"agent {a} is not in every seat equally often"
    if agents > players:  # every agent plays as many games as every other
        totals = Counter(a for seating in schedule for a in seating)
        assert len(set(totals.values())) == 1


def test_seat_schedule_lineup_focus_first_then_cycling():
    # 2 specs at 4 players: 1 focus + 3 of the other; 3 specs: focus, 1, 2, 1
    assert seat_schedule(2, 4, 4)[0] == (0, 1, 1, 1)
    assert seat_schedule(3, 4, 4)[0] == (0, 1, 2, 1)
    assert sorted(seat_schedule(2, 4, 4)) == sorted({(0, 1, 1, 1), (1, 1, 1, 0), (1, 1, 0, 1), (1, 0, 1, 1)})
    assert all(seating.count(0) == 1 for seating in seat_schedule(3, 4, 8))


def test_seat_schedule_rounds_up_to_whole_cycles():
    assert len(seat_schedule(2, 4, 1)) == 4
    assert len(seat_schedule(2, 4, 5)) == 8
    assert len(seat_schedule(3, 2, 7)) == 12  # A > N: cycles of A * N
    with pytest.raises(ValueError, match="at least 1"):
        seat_schedule(2, 2, 0)


# -- Wilson interval ---------------------------------------------------------------------------


def _wilson_closed_form(k, n, z=1.96):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("wins, n", [(0, 10), (5, 10), (10, 10), (1, 3), (37, 200), (199, 200)])
def test_wilson_interval_matches_closed_form(wins, n):
    lo, hi = wilson_interval(wins, n)
    want_lo, want_hi = _wilson_closed_form(wins, n)
    assert lo == pytest.approx(max(0.0, want_lo), abs=1e-12)
    assert hi == pytest.approx(min(1.0, want_hi), abs=1e-12)
    assert 0.0 <= lo <= wins / n <= hi <= 1.0


def test_wilson_interval_known_values():
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


# -- a small tournament --------------------------------------------------------------------------


def test_heuristic_beats_random_and_writes_outputs(tmp_path):
    res = evaluate(ENV, 2, ["heuristic", "random"], games=40, seed=3, out_dir=tmp_path)
    assert res["games"] == 40
    heur, rand = res["agents"]
    assert (heur["name"], rand["name"]) == ("heuristic", "random")
    assert heur["games"] == rand["games"] == 40
    assert heur["win_rate"] > rand["win_rate"]
    assert heur["rating"]["mu"] > rand["rating"]["mu"]
    assert heur["mean_score"] > rand["mean_score"]
    lo, hi = heur["win_rate_ci95"]
    assert lo <= heur["win_rate"] <= hi
    assert [s["games"] for s in heur["per_seat"]] == [20, 20]
    # win shares add up to the games someone won
    assert heur["win_share"] + rand["win_share"] == pytest.approx(40 - res["truncated_games"])
    assert sum(s["games"] for s in res["seats"]) == 2 * 40

    data = json.loads((tmp_path / "results.json").read_text())
    assert data["agents"][0]["wins"] == heur["wins"]
    assert set(data["agents"][0]["rating"]) == {"mu", "sigma", "ordinal"}
    md = (tmp_path / "results.md").read_text()
    assert "| heuristic |" in md and "| random |" in md and "95% CI" in md
    assert (tmp_path / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_same_seed_same_results_and_rounding():
    a = evaluate(ENV, 3, ["random", "random"], games=4, seed=7)
    b = evaluate(ENV, 3, ["random", "random"], games=4, seed=7)
    assert a["games"] == 6 and a["games_requested"] == 4 and "rounded up" in a["schedule"]
    assert a["game_records"] == b["game_records"]
    assert [x["name"] for x in a["agents"]] == ["random", "random#2"]
    assert a["agents"][1]["games"] == 2 * 6  # the second agent fills two of the three seats


def test_loaded_policy_objects_with_names(tmp_path):
    res = evaluate(
        ENV, 2, [("mine", RandomPolicy(seed=1)), RandomPolicy(seed=2)], games=2, env_options={"artefacts": False}
    )
    assert [a["name"] for a in res["agents"]] == ["mine", "random"]
    assert res["agents"][0]["spec"] == "<object RandomPolicy>"
    assert res["env_options"] == {"artefacts": False}
    paths = write_outputs(res, tmp_path / "sub")
    assert all(p.exists() for p in paths.values())


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"env_id": "nope_v0"}, "unknown env id"),
        ({"num_players": 1}, "2 to 5 players"),
        ({"num_players": 9}, "2 to 5 players"),
        ({"agent_specs": ["heuristic", "bogus"]}, "neither one of"),
        ({"agent_specs": ["heuristic", "/no/such/checkpoint.pt"]}, "existing checkpoint path"),
        ({"agent_specs": []}, "non-empty"),
        ({"games": 0}, "games must be"),
        ({"seed": -1}, "seed must be"),
        ({"env_options": {"colour": "red"}}, "unknown option"),
        ({"env_options": {"num_players": 3}}, "--players"),
    ],
)
def test_bad_inputs_raise_clear_errors(kwargs, message):
    args = {"env_id": ENV, "num_players": 2, "agent_specs": ["heuristic", "random"], "games": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        evaluate(**args)


def test_parse_option():
    assert parse_option("artefacts=false") == ("artefacts", False)
    assert parse_option("shaping_coef=0.5") == ("shaping_coef", 0.5)
    assert parse_option("first_player=None") == ("first_player", None)
    assert parse_option("reward_scheme=rank") == ("reward_scheme", "rank")
    with pytest.raises(ValueError, match="key=value"):
        parse_option("artefacts")


# -- command line ------------------------------------------------------------------------------


def _cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "training.evaluation.tournament", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_tiny_run(tmp_path):
    out = tmp_path / "eval"
    proc = _cli(
        ENV, "--players", "4", "--agents", "heuristic", "random", "--games", "3", "--seed", "1",
        "--out", str(out), "--option", "artefacts=false", "--no-progress", cwd=REPO,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "| heuristic |" in proc.stdout and "rounded up to a multiple of 4" in proc.stdout
    data = json.loads((out / "results.json").read_text())
    assert data["games"] == 4 and data["num_players"] == 4
    assert data["env_options"] == {"artefacts": False}
    assert (out / "results.md").exists() and (out / "results.png").exists()


def test_cli_bad_input_is_an_argparse_error(tmp_path):
    proc = _cli(ENV, "--players", "7", "--agents", "random", "--games", "2", "--no-progress", cwd=REPO)
    assert proc.returncode == 2
    assert "2 to 5 players" in proc.stderr
    proc = _cli(ENV, "--players", "2", "--agents", "missing.pt", "--games", "2", "--no-progress", cwd=REPO)
    assert proc.returncode == 2 and "checkpoint path" in proc.stderr


def test_cli_several_counts_and_variants_write_one_folder_each_and_a_summary(tmp_path):
    out = tmp_path / "eval"
    proc = _cli(
        ENV, "--players", "2", "3", "--agents", "heuristic", "random", "--games", "3",
        "--variant", "artefact_end=immediate,end_of_round", "--out", str(out), "--no-progress", cwd=REPO,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    folders = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert folders == [
        "2p__artefact_end=end_of_round",
        "2p__artefact_end=immediate",
        "3p__artefact_end=end_of_round",
        "3p__artefact_end=immediate",
    ]
    data = json.loads((out / "3p__artefact_end=end_of_round" / "results.json").read_text())
    assert data["num_players"] == 3 and data["env_options"] == {"artefact_end": "end_of_round"}
    summary = (out / "summary.md").read_text()
    assert summary.count("| heuristic |") == 4 and "| 3 | artefact_end=end_of_round | heuristic |" in summary
    bad = _cli(ENV, "--players", "2", "--agents", "random", "--games", "2", "--variant", "artefact_end", cwd=REPO)
    assert bad.returncode == 2 and "key=value1,value2" in bad.stderr


def test_each_agent_row_keeps_the_weights_of_the_checkpoints_it_played_with():
    from training.runtime.checkpoints import read_checkpoint_metadata

    shipped = "checkpoints/last_heroes/last_heroes.json"
    sha = read_checkpoint_metadata(shipped)["weights_sha256"]
    res = evaluate("last_heroes_v0", 2, [shipped, "heuristic"], games=2, seed=5)
    assert [a["weights"] for a in res["agents"]] == [[sha], []]  # the path alone would not say which release
    res = evaluate("last_heroes_v0", 2, ["search:prior=shipped,sims=2", RandomPolicy(seed=1)], games=2, seed=5)
    assert [a["weights"] for a in res["agents"]] == [[sha], []]
