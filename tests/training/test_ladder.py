"""The skill ladder (training.evaluation.ladder): its plan, its tables and its files."""

from __future__ import annotations

import json

import pytest

from training.evaluation.ladder import main, plan, ratings, rung_specs


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
    assert rung_specs("last_heroes_v0", [], [], [], [300]) == {"search-300sims": "search:prior=shipped,sims=300"}
    with pytest.raises(ValueError, match="search budget in simulations"):
        rung_specs("last_heroes_v0", [], [], [], [0])


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


def _coop(relay, out, seed, *extra):
    args = [relay, "--players", "2", "--rungs", "random", "heuristic", "--budgets", "--games", "4"]
    return main([*args, "--seed", str(seed), "--out", str(out), *extra])


def test_kinds_team_plays_each_team_alone_and_no_partners(relay, tmp_path):
    ladder = _coop(relay, tmp_path, 1, "--kinds", "team")
    (table,) = ladder["tables"]
    assert sorted(tuple(c["lineup"]) for c in table["cells"]) == [("heuristic",), ("random",)]
    with pytest.raises(SystemExit):  # a kind this game never plays leaves nothing to play
        _coop(relay, tmp_path, 1, "--kinds", "field")


def test_a_merge_adds_the_games_of_runs_on_other_seeds(relay, tmp_path, capsys):
    a = _coop(relay, tmp_path / "a", 1)
    b = _coop(relay, tmp_path / "b", 2)
    merged = main([relay, "--merge", str(tmp_path / "a/ladder.json"), str(tmp_path / "b/ladder.json"),
                   "--out", str(tmp_path / "m")])  # fmt: skip
    cells = {tuple(c["lineup"]): c for c in merged["tables"][0]["cells"]}
    for lineup, cell in cells.items():
        parts = [next(c for c in x["tables"][0]["cells"] if tuple(c["lineup"]) == lineup) for x in (a, b)]
        assert cell["games"] == sum(p["games"] for p in parts) == 8
        assert cell["wins"] == sum(p["wins"] for p in parts) and cell["rate"] == cell["wins"] / 8
    text = (tmp_path / "m/ladder.md").read_text()
    assert "The games of 2 runs pooled" in text and "seeds from 1, 2" in text
    # a merged ladder merges again, and its runs keep their seeds
    c = _coop(relay, tmp_path / "c", 3)
    again = main([relay, "--merge", str(tmp_path / "m/ladder.json"), str(tmp_path / "c/ladder.json"),
                  "--out", str(tmp_path / "m2")])  # fmt: skip
    assert [r["seed"] for r in again["runs"]] == [1, 2, 3] and c["tables"]
    assert next(x for x in again["tables"][0]["cells"] if x["lineup"] == ["random"])["games"] == 12


def test_a_merge_refuses_what_cannot_be_pooled(relay, tmp_path, capsys):
    _coop(relay, tmp_path / "a", 1)
    _coop(relay, tmp_path / "b", 1)
    a, b = str(tmp_path / "a/ladder.json"), str(tmp_path / "b/ladder.json")
    with pytest.raises(SystemExit):
        main([relay, "--merge", a, b, "--out", str(tmp_path / "m")])
    assert "both played the deals of --seed 1 at 2 players" in capsys.readouterr().err
    data = json.loads(open(b).read())
    data["seed"] = 2
    data["rungs"]["random"] = "heuristic"
    (tmp_path / "b/ladder.json").write_text(json.dumps(data))
    with pytest.raises(SystemExit):
        main([relay, "--merge", a, b, "--out", str(tmp_path / "m")])
    assert "rung 'random' is 'heuristic' there but 'random' in an earlier run" in capsys.readouterr().err
    data["rungs"]["random"] = "random"
    data["tables"][0]["cells"][0]["wins"] = 99
    (tmp_path / "b/ladder.json").write_text(json.dumps(data))
    with pytest.raises(SystemExit):
        main([relay, "--merge", a, b, "--out", str(tmp_path / "m")])
    assert "tables[0].cells[0].wins and games must be integers with 0 <= wins <= games" in capsys.readouterr().err
    (tmp_path / "b/ladder.json").write_text("{")
    with pytest.raises(SystemExit):
        main([relay, "--merge", a, b, "--out", str(tmp_path / "m")])
    assert "not JSON" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["last_heroes_v0", "--merge", a, a.replace("a/", "c/"), "--out", str(tmp_path / "m")])
    assert "cannot read it" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()  # nothing written by a refused merge


def test_a_competitive_merge_rates_every_game_of_both_runs(tmp_path):
    args = ["last_heroes_v0", "--players", "2", "--rungs", "random", "heuristic", "--budgets", "--games", "4"]
    a = main([*args, "--seed", "5", "--out", str(tmp_path / "a")])
    b = main([*args, "--seed", "6", "--out", str(tmp_path / "b")])
    merged = main(["last_heroes_v0", "--merge", str(tmp_path / "a/ladder.json"), str(tmp_path / "b/ladder.json"),
                   "--out", str(tmp_path / "m")])  # fmt: skip
    (table,) = merged["tables"]
    assert table["records"] == a["tables"][0]["records"] + b["tables"][0]["records"] and len(table["records"]) == 8
    assert table["ratings"] == ratings(["random", "heuristic"], table["records"])
    assert table["ratings"] != a["tables"][0]["ratings"]
    (cell,) = table["cells"]
    assert cell["games"] == 8 and [s["games"] for s in cell["sides"]] == [8, 8]
    # a run kept from before game records were kept still pools; its ratings are not made up
    old = json.loads((tmp_path / "a/ladder.json").read_text())
    del old["tables"][0]["records"]
    (tmp_path / "a/ladder.json").write_text(json.dumps(old))
    merged = main(["last_heroes_v0", "--merge", str(tmp_path / "a/ladder.json"), str(tmp_path / "b/ladder.json"),
                   "--out", str(tmp_path / "m")])  # fmt: skip
    assert merged["tables"][0]["ratings"] is None
    assert "Ratings: not recomputed" in (tmp_path / "m/ladder.md").read_text()


def test_a_merge_pools_a_pair_played_in_either_order_and_refuses_what_it_cannot_pool(tmp_path, capsys):
    base = ["last_heroes_v0", "--players", "2", "--budgets", "--games", "4"]
    a = main([*base, "--rungs", "random", "heuristic", "--seed", "5", "--out", str(tmp_path / "a")])
    b = main([*base, "--rungs", "heuristic", "random", "--seed", "6", "--out", str(tmp_path / "b")])
    files = [str(tmp_path / "a/ladder.json"), str(tmp_path / "b/ladder.json")]
    merged = main(["last_heroes_v0", "--merge", *files, "--out", str(tmp_path / "m")])
    (cell,) = merged["tables"][0]["cells"]
    (ca,), (cb,) = a["tables"][0]["cells"], b["tables"][0]["cells"]
    assert cell["lineup"] == ["random", "heuristic"] and cell["games"] == 8
    assert cell["wins"] == ca["wins"] + cb["sides"][1]["wins"]  # random's wins, from either side
    assert [x["wins"] for x in cell["sides"]] == [ca["sides"][0]["wins"] + cb["sides"][1]["wins"],
                                                 ca["sides"][1]["wins"] + cb["sides"][0]["wins"]]  # fmt: skip
    with pytest.raises(SystemExit):
        main(["last_heroes_v0", "--merge", *files, "--games", "9", "--out", str(tmp_path / "m")])
    assert "--merge plays nothing, so --games would be ignored" in capsys.readouterr().err
    old = json.loads(open(files[1]).read())  # a ladder from before each side's count was kept
    for cell in old["tables"][0]["cells"]:
        del cell["sides"]
    (tmp_path / "b/ladder.json").write_text(json.dumps(old))
    with pytest.raises(SystemExit):
        main(["last_heroes_v0", "--merge", *files, "--out", str(tmp_path / "old")])
    assert "cannot be pooled: play it again" in capsys.readouterr().err and not (tmp_path / "old").exists()


def test_each_run_keeps_the_weights_its_rungs_met_and_a_merge_refuses_two_networks_under_one_name(
    relay, tmp_path, capsys
):
    from training.evaluation.ladder import rung_weights
    from training.runtime.checkpoints import read_checkpoint_metadata

    specs = rung_specs("last_heroes_v0", ["random", "network"], [0.3], ["partnered=search:sims=8,others=shipped"])
    shipped = read_checkpoint_metadata(specs["network"])["weights_sha256"]
    assert rung_weights("last_heroes_v0", specs) == {"network": [shipped], "search-0.3s": [shipped],
                                                     "partnered": [shipped]}  # fmt: skip
    _coop(relay, tmp_path / "a", 1)
    _coop(relay, tmp_path / "b", 2)
    files = [str(tmp_path / "a/ladder.json"), str(tmp_path / "b/ladder.json")]

    def stamp(path, weights):
        data = json.loads(open(path).read())
        data["weights"] = weights
        open(path, "w").write(json.dumps(data))

    stamp(files[0], {"heuristic": ["a" * 64]})
    stamp(files[1], {"heuristic": ["b" * 64]})  # another network under the same rung and spec
    with pytest.raises(SystemExit):
        main([relay, "--merge", *files, "--out", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert "rung 'heuristic' played with the weights bbbbbbbbbbbb there but aaaaaaaaaaaa" in err
    assert not (tmp_path / "m").exists()
    stamp(files[1], {"heuristic": ["a" * 64]})
    merged = main([relay, "--merge", *files, "--out", str(tmp_path / "m")])
    assert (
        merged["weights"] == {"heuristic": ["a" * 64]}
        and "| heuristic | `heuristic` | aaaaaaaaaaaa |" in (tmp_path / "m/ladder.md").read_text()
    )
    stamp(files[1], None)  # a run from before the fingerprints were kept pools with any
    assert main([relay, "--merge", *files, "--out", str(tmp_path / "m2")])["weights"] == {"heuristic": ["a" * 64]}
    stamp(files[1], {"heuristic": "b"})
    with pytest.raises(SystemExit):
        main([relay, "--merge", *files, "--out", str(tmp_path / "m3")])
    assert "runs[0].weights must be an object of rung -> list of sha256 strings" in capsys.readouterr().err
