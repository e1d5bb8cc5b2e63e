"""The skill ladder (training.evaluation.ladder): its plan, its tables and its files."""

from __future__ import annotations

import json

import pytest

from training.evaluation.ladder import main, plan, rung_specs


def test_the_plan_covers_every_pair_once_head_to_head_and_every_ordered_pair_at_a_larger_table():
    rungs = ["random", "heuristic", "network", "search-0.1s"]
    two = plan("last_heroes_v0", [2], rungs, games=10, search_games=4)
    assert len(two) == 6 and {m.kind for m in two} == {"head_to_head"}
    assert {frozenset(m.lineup) for m in two} == {frozenset((a, b)) for a in rungs for b in rungs if a != b}
    assert all(m.games == (4 if any(r.startswith("search") for r in m.lineup) else 10) for m in two)
    four = plan("last_heroes_v0", [4], rungs, games=10, search_games=4)
    assert len(four) == 12 and {m.lineup for m in four} == {(a, b) for a in rungs for b in rungs if a != b}
    team = plan("last_bastion_v0", [1, 3], rungs, games=10, search_games=4)
    assert [m.lineup for m in team if m.players == 1] == [(r,) for r in rungs]  # alone only, at one hero
    beside = {m.lineup for m in team if m.kind == "beside"}
    assert ("search-0.1s", "network") in beside and ("network", "network") not in beside


def test_rungs_are_checked():
    specs = rung_specs("last_heroes_v0", ["random", "network"], [0.5], ["deep=search:prior=shipped,sims=50"])
    assert specs["network"].endswith("checkpoints/last_heroes/last_heroes.json")
    assert specs["search-0.5s"] == "search:prior=shipped,seconds=0.5" and specs["deep"].endswith("sims=50")
    with pytest.raises(ValueError, match="unknown rung 'oracle'"):
        rung_specs("last_heroes_v0", ["oracle"], [], [])
    with pytest.raises(ValueError, match="--extra x: search spec 'search:sims=0'"):
        rung_specs("last_heroes_v0", [], [], ["x=search:sims=0"])
    with pytest.raises(ValueError, match="search budget"):
        rung_specs("last_heroes_v0", [], [0], [])


def test_a_cooperative_ladder_writes_its_tables(relay, tmp_path):
    ladder = main(
        [
            relay,
            "--players",
            "1",
            "2",
            "--rungs",
            "random",
            "heuristic",
            "--budgets",
            "--games",
            "6",
            "--out",
            str(tmp_path),
        ]
    )
    text = (tmp_path / "ladder.md").read_text()
    assert "| Rung | Team alone | Beside heuristic |" in text and (tmp_path / "ladder.png").stat().st_size > 0
    assert json.loads((tmp_path / "ladder.json").read_text())["tables"] == ladder["tables"]
    two = next(t for t in ladder["tables"] if t["players"] == 2)
    team = {tuple(c["lineup"]): c for c in two["cells"]}
    assert team[("heuristic",)]["rate"] > team[("random",)]["rate"]  # the toy's heuristic plays perfectly
    assert team[("random", "heuristic")]["games"] == 6


def test_a_competitive_ladder_rates_every_rung(tmp_path):
    ladder = main(["last_heroes_v0", "--players", "2", "--rungs", "random", "heuristic", "--budgets", "--games", "4",
                   "--out", str(tmp_path)])  # fmt: skip
    (table,) = ladder["tables"]
    (cell,) = table["cells"]
    assert cell["lineup"] == ["random", "heuristic"] and cell["games"] == 4 and 0 <= cell["rate"] <= 1
    assert table["ratings"]["heuristic"]["mu"] > table["ratings"]["random"]["mu"]
    sides = cell["sides"]  # each side's own wins: a shared victory counts for both
    assert [x["rung"] for x in sides] == ["random", "heuristic"] and sum(x["wins"] for x in sides) >= 4
