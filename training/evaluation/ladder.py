"""The skill ladder of a game: random, heuristic, the shipped network and search at several budgets.

    python -m training.ladder last_heroes_v0 --players 2 3 --budgets 0.1 1 --games 100 --search-games 40
    python -m training.ladder last_bastion_v0 --players 1 2 3 4 --budgets 0.1 --games 200 --workers 2

Rungs (``--rungs``, plus one ``search`` rung per ``--budgets`` and ``--sims`` value and any
``--extra NAME=SPEC``):

| Rung | Spec |
|---|---|
| `random` | `random` |
| `heuristic` | `heuristic` |
| `network` | the shipped checkpoint (`checkpoints/<game>/<game>.json`) |
| `search-<B>s` | `search:prior=shipped,seconds=<B>`: PUCT over resampled worlds, the network as prior and value |
| `search-<N>sims` | `search:prior=shipped,sims=<N>` (``--sims N``): alike on any machine, so runs pool |

Every match is a seat-balanced ``training.evaluation.tournament`` tournament on seeds from ``--seed``
(default 60000, apart from training's and the releases' seeds; every match at one table size plays
the same deals):

- **competitive games**: at 2 players every pair of rungs head to head (the row's win rate); at
  N > 2 players every ordered pair, the row's rung in one seat against N - 1 copies of the column's
  (the row's win share, uniform 1/N). Ratings: OpenSkill (Plackett-Luce) over every game of the
  table size, each seat a team of one, ranked winners first, then by score;
- **cooperative games**: each rung's team alone (every seat), and each rung in one seat beside
  partners (heuristic, network) in the others: the team win rate.

Every rate has a Wilson 95% interval. Matches with a search rung play ``--search-games`` games
(default ``--games``): search costs its budget at every decision. ``--kinds team`` plays only the
matches of those kinds (here each rung's team alone, no partners).

A cell can grow across runs: ``python -m training.ladder GAME --merge A/ladder.json B/ladder.json
--out DIR`` plays nothing and pools the runs' games (the same match at the same table size adds
up; ratings are recomputed over every game). Runs to pool must use different ``--seed`` values, so
that no deal is counted twice; the merge refuses runs that share one at a table size, and runs whose
rung met different networks (each run keeps the ``weights_sha256`` of the checkpoints its rungs play
with, since ``network`` and ``prior=shipped`` name a path that each release overwrites). ``--workers`` plays blocks of
games (about 24 each, of every match) in parallel processes, so one long search match uses every
worker; the results do not depend on the number of workers. Writes ``ladder.md``, ``ladder.json`` and
``ladder.png`` to ``--out`` (default ``checkpoints/<game>/``), atomically.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import envs
from training.atomic import atomic_write_text
from training.evaluation.tournament import _ranks, play_setups, prepare, wilson_interval
from training.playing.session import game_name, shipped_checkpoint
from training.runtime.policies import spec_error, spec_weights

BASE_RUNGS = ("random", "heuristic", "network")
PARTNERS = ("heuristic", "network")


@dataclass(frozen=True)
class Match:
    """One tournament of the ladder: ``lineup`` (rung names; the first is the focus) at ``players``."""

    kind: str  # "head_to_head", "field" (one against N-1), "team", "beside"
    players: int
    lineup: tuple[str, ...]
    games: int


def rung_specs(
    env_id: str, rungs: Sequence[str], budgets: Sequence[float], extra: Sequence[str], sims: Sequence[int] = ()
) -> dict[str, str]:
    """Rung name -> policy spec, in ladder order; a ValueError for an unknown rung or a bad spec."""
    shipped = shipped_checkpoint(env_id)
    specs: dict[str, str] = {}
    for rung in rungs:
        if rung not in BASE_RUNGS:
            raise ValueError(f"unknown rung {rung!r}; the rungs are {list(BASE_RUNGS)} (plus --budgets and --extra)")
        if rung == "network":
            if shipped is None:
                raise ValueError(f"{env_id} has no shipped network for the 'network' rung")
            specs[rung] = _relative(shipped)
        else:
            specs[rung] = rung
    for budget in budgets:
        if not 0 < budget <= 60:
            raise ValueError(f"a search budget is CPU-seconds in (0, 60], got {budget!r}")
        if shipped is None:
            raise ValueError(f"{env_id} has no shipped network to guide the search")
        specs[f"search-{budget:g}s"] = f"search:prior=shipped,seconds={budget:g}"
    for count in sims:
        if not 1 <= count <= 100_000:
            raise ValueError(f"a search budget in simulations is an integer in [1, 100000], got {count!r}")
        if shipped is None:
            raise ValueError(f"{env_id} has no shipped network to guide the search")
        specs[f"search-{count}sims"] = f"search:prior=shipped,sims={count}"
    for item in extra:
        name, sep, spec = item.partition("=")
        if not sep or not name or not spec:
            raise ValueError(f"--extra takes NAME=SPEC, got {item!r}")
        why = spec_error(spec, ("random", "heuristic"))
        if why is not None:
            raise ValueError(f"--extra {name}: {why}")
        specs[name] = spec
    return specs


def rung_weights(env_id: str, specs: dict[str, str]) -> dict[str, list[str]]:
    """Rung -> the ``weights_sha256`` of every checkpoint its spec plays with (the network, a search's
    prior, leaf and partners), for the rungs that play with any. A ladder run keeps them because a
    rung's spec names a path (``checkpoints/<game>/<game>.json``, ``prior=shipped``) whose file
    changes with each release: the fingerprints tell which network a run really met, and a merge
    refuses to pool runs that met different ones under one name."""
    found = {rung: spec_weights(spec, env_id) for rung, spec in specs.items()}
    return {rung: weights for rung, weights in found.items() if weights}


def _relative(path: Path) -> str:
    """``path`` from the working folder when it lies below it (tables then read the same anywhere)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


KINDS = ("head_to_head", "field", "team", "beside")


def plan(
    env_id: str,
    players: Sequence[int],
    rungs: Sequence[str],
    games: int,
    search_games: int,
    focus: str | None = None,
    kinds: Sequence[str] | None = None,
) -> list[Match]:
    """Every match of the ladder (see the module doc); with ``focus``, only those that rung plays in
    (the row: alone against each other rung, its team alone and beside each partner); with
    ``kinds``, only matches of those kinds (e.g. ``team``: every rung's team alone, no partners)."""
    cooperative = envs.game_class(env_id).cooperative

    def count(lineup: Sequence[str]) -> int:
        return search_games if any(r.startswith("search") for r in lineup) else games

    out = []
    for n in players:
        if cooperative:
            out += [Match("team", n, (r,), count([r])) for r in rungs]
            if n > 1:
                out += [
                    Match("beside", n, (r, p), count([r, p])) for r in rungs for p in PARTNERS if p in rungs and p != r
                ]
        elif n == 2:
            out += [
                Match("head_to_head", n, (a, b), count([a, b])) for i, a in enumerate(rungs) for b in rungs[i + 1 :]
            ]
        else:
            out += [Match("field", n, (a, b), count([a, b])) for a in rungs for b in rungs if a != b]
    if focus is not None:  # the focus rung's row, and every team alone (the cooperative baseline)
        out = [
            m
            for m in out
            if m.lineup[0] == focus or m.kind == "team" or (m.kind == "head_to_head" and focus in m.lineup)
        ]
    if kinds is not None:
        out = [m for m in out if m.kind in kinds]
    return out


def run_ladder(
    env_id: str,
    players: Sequence[int],
    specs: dict[str, str],
    games: int,
    search_games: int,
    seed: int = 60000,
    workers: int = 1,
    focus: str | None = None,
    log=print,
    kinds: Sequence[str] | None = None,
) -> dict[str, Any]:
    rungs = list(specs)
    if focus is not None and focus not in rungs:
        raise ValueError(f"--focus {focus!r} is not a rung; the rungs are {rungs}")
    matches = plan(env_id, players, rungs, games, search_games, focus, kinds)
    if not matches:
        raise ValueError(f"no match to play: the kinds {list(kinds or KINDS)} leave none at these table sizes")
    # every match at one table size plays the same deals (cooperative: the same deal sequence), so
    # two teams' rates compare on the same games
    setups = [
        prepare(env_id, m.players, [(name, specs[name]) for name in m.lineup], m.games, seed + 1000 * m.players)
        for m in matches
    ]
    log(f"{env_id}: {len(matches)} matches, {sum(len(s.schedule) for s in setups)} games, {workers} worker(s)")
    started = time.perf_counter()
    played: list[dict[str, Any]] = []

    def done(i: int, results: dict[str, Any]) -> None:
        played.append({"match": matches[i].__dict__ | {"lineup": list(matches[i].lineup)}, "results": results})
        log(_progress(played[-1], len(played), len(matches), started))

    # blocks of every match share the workers, so one long match (search) uses them all
    play_setups(setups, workers=workers, on_done=done)
    return summarise(env_id, players, specs, played, seed, time.perf_counter() - started)


def _progress(done: dict[str, Any], i: int, total: int, started: float) -> str:
    m, r = done["match"], done["results"]
    focus = r["team"]["win_rate"] if r["team"] else r["agents"][0]["win_rate"]
    took = time.perf_counter() - started
    return f"  [{i}/{total}] {m['players']}p {m['kind']} {' vs '.join(m['lineup'])}: {focus:.1%} ({took:.0f} s)"


def summarise(
    env_id: str, players: Sequence[int], specs: dict[str, str], played: list[dict[str, Any]], seed: int, elapsed: float
) -> dict[str, Any]:
    """The ladder's tables from the played matches (rates with Wilson intervals; ratings)."""
    cooperative = envs.game_class(env_id).cooperative
    tables = []
    for n in players:
        here = [p for p in played if p["match"]["players"] == n]
        cells = []
        for p in here:
            m, r = p["match"], p["results"]
            if cooperative:
                team = r["team"]
                cells.append(_cell(m, team["wins"], team["games"]))
            else:
                focus = r["agents"][0]
                cell = _cell(m, focus["wins"], focus["games"])
                cell["win_share"] = focus["win_share"] / focus["games"]  # evaluate sums the shares
                # every side's own count: a shared victory is a win for each co-winner
                cell["sides"] = [
                    {"rung": name, "wins": a["wins"], "games": a["games"], "win_share": a["win_share"] / a["games"]}
                    for name, a in zip(m["lineup"], r["agents"])
                ]
                cells.append(cell)
        table: dict[str, Any] = {"players": n, "cells": cells}
        if not cooperative:
            # one row a game: the rung in each seat, the winners, the scores (what the ratings read,
            # kept so that a merge of runs can rate their games together)
            table["records"] = [
                [[names[a] for a in record["seating"]], list(record["winners"]), [float(x) for x in record["scores"]]]
                for p in here
                for names in [[a["name"] for a in p["results"]["agents"]]]
                for record in p["results"]["game_records"]
            ]
            table["ratings"] = ratings(specs, table["records"])
        tables.append(table)
    return {
        "env_id": env_id,
        "kind": "cooperative" if cooperative else "competitive",
        "rungs": specs,
        "weights": rung_weights(env_id, specs),
        "players": list(players),
        "seed": seed,
        "elapsed_seconds": elapsed,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "tables": tables,
        "command": None,
    }


def ratings(rungs: Sequence[str], records: Sequence[Sequence[Any]]) -> dict[str, dict[str, float]]:
    """OpenSkill (Plackett-Luce) ratings of ``rungs`` over game ``records`` (``[rung per seat,
    winners, scores]``), in order; a game of one rung alone teaches nothing and is passed over."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated_so_far = {name: model.rating(name=name) for name in rungs}
    for names, winners, scores in records:
        if len(set(names)) < 2:
            continue
        teams = [[rated_so_far[x]] for x in names]
        rated = model.rate(teams, ranks=_ranks(winners, scores))
        for seat, x in enumerate(names):  # several seats of one rung: the last update stands
            rated_so_far[x] = rated[seat][0]
    return {x: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for x, r in rated_so_far.items()}


def runs_of(ladder: dict[str, Any]) -> list[dict[str, Any]]:
    """The runs a ladder pools: its own ``runs`` (a merge), else the one run it is."""
    if "runs" in ladder:
        return list(ladder["runs"])
    keys = ("command", "seed", "players", "elapsed_seconds", "created", "weights")
    return [{k: ladder.get(k) for k in keys}]


def merge(ladders: Sequence[dict[str, Any]], names: Sequence[str] | None = None) -> dict[str, Any]:
    """One ladder from the games of several runs of one game (``python -m training.ladder GAME
    --merge A.json B.json``): the cells of the same match at the same table size add up, so a cell
    can grow across sessions. A ValueError when the runs cannot be pooled: another game, one rung
    name for two specs, or two runs that played the same deals (the same ``--seed`` at a table size).
    Ratings are recomputed over every game when each run kept its game records."""
    names = list(names or [f"run {i + 1}" for i in range(len(ladders))])
    if len(ladders) < 2:
        raise ValueError("a merge needs at least two ladder runs")
    for name, ladder in zip(names, ladders):
        _check_ladder(name, ladder)
    env_id = ladders[0]["env_id"]
    specs: dict[str, str] = {}
    for name, ladder in zip(names, ladders):
        if ladder["env_id"] != env_id:
            raise ValueError(f"{name} is a ladder of {ladder['env_id']}, not of {env_id}")
        for rung, spec in ladder["rungs"].items():
            if specs.setdefault(rung, spec) != spec:
                raise ValueError(f"{name}: rung {rung!r} is {spec!r} there but {specs[rung]!r} in an earlier run")
    weights: dict[str, list[str]] = {}
    met: dict[str, str] = {}
    for name, ladder in zip(names, ladders):
        for run in runs_of(ladder):  # runs from before the fingerprints were kept have none to compare
            for rung, found in (run.get("weights") or {}).items():
                if weights.setdefault(rung, found) != found:
                    raise ValueError(
                        f"{name}: rung {rung!r} played with the weights {', '.join(x[:12] for x in found)} there but "
                        f"{', '.join(x[:12] for x in weights[rung])} in {met[rung]}: the same spec named different "
                        "networks (a release between the runs); pool runs of the same network only"
                    )
                met.setdefault(rung, name)
    players = sorted({int(t["players"]) for ladder in ladders for t in ladder["tables"]})
    seen: dict[tuple[int, int], str] = {}
    for name, ladder in zip(names, ladders):
        for run in runs_of(ladder):
            for n in run["players"]:
                key = (int(n), int(run["seed"]))
                if key in seen:
                    raise ValueError(
                        f"{name} and {seen[key]} both played the deals of --seed {run['seed']} at {n} players: "
                        "pool runs on different seeds only (their games would count twice)"
                    )
                seen[key] = name
    tables = []
    for n in players:
        parts = [t for ladder in ladders for t in ladder["tables"] if int(t["players"]) == n]
        pooled: dict[tuple, dict[str, Any]] = {}
        for t in parts:
            for cell in t["cells"]:
                key = (cell["kind"], tuple(cell["lineup"]))
                turned = (cell["kind"], tuple(reversed(cell["lineup"])))
                if cell["kind"] == "head_to_head" and key not in pooled and turned in pooled:
                    cell, key = _turned(cell), turned  # the same pair, seen from the other side
                pooled[key] = cell if key not in pooled else _pool(pooled[key], cell)
        table: dict[str, Any] = {"players": n, "cells": list(pooled.values())}
        if ladders[0]["kind"] == "competitive":
            if all("records" in t for t in parts):
                table["records"] = [r for t in parts for r in t["records"]]
                table["ratings"] = ratings(specs, table["records"])
            else:
                table["ratings"] = None  # a run from before the records were kept
        tables.append(table)
    runs = [run for ladder in ladders for run in runs_of(ladder)]
    return {
        "env_id": env_id,
        "kind": ladders[0]["kind"],
        "rungs": specs,
        "weights": weights,
        "players": players,
        "seed": runs[0]["seed"],
        "elapsed_seconds": sum(float(run.get("elapsed_seconds") or 0.0) for run in runs),
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "tables": tables,
        "command": None,
        "runs": runs,
    }


def _check_ladder(name: str, ladder: Any) -> None:
    """A ValueError naming what a ladder's JSON lacks for a merge (a damaged or foreign file)."""

    def need(ok: bool, where: str, what: str) -> None:
        if not ok:
            raise ValueError(f"{name}: not a ladder's JSON: {where} must be {what}")

    need(isinstance(ladder, dict), "the file", "an object")
    for key in ("env_id", "kind", "rungs", "players", "tables"):
        need(key in ladder, key, "present")
    need(ladder["kind"] in ("competitive", "cooperative"), "kind", '"competitive" or "cooperative"')
    need(isinstance(ladder["rungs"], dict), "rungs", "an object of rung -> spec")
    for r, run in enumerate(runs_of(ladder)):
        need(isinstance(run.get("seed"), int), f"runs[{r}].seed", "an integer")
        need(isinstance(run.get("players"), list), f"runs[{r}].players", "a list of table sizes")
        found = run.get("weights")
        ok = found is None or (
            isinstance(found, dict)
            and all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in found.values())
        )
        need(ok, f"runs[{r}].weights", "an object of rung -> list of sha256 strings")
    need(isinstance(ladder["tables"], list), "tables", "a list")
    for t, table in enumerate(ladder["tables"]):
        need(isinstance(table, dict) and isinstance(table.get("players"), int), f"tables[{t}].players", "an integer")
        need(isinstance(table.get("cells"), list), f"tables[{t}].cells", "a list")
        for c, cell in enumerate(table["cells"]):
            where = f"tables[{t}].cells[{c}]"
            need(isinstance(cell, dict) and cell.get("kind") in KINDS, f"{where}.kind", f"one of {list(KINDS)}")
            need(isinstance(cell.get("lineup"), list), f"{where}.lineup", "a list of rungs")
            wins, games = cell.get("wins"), cell.get("games")
            ok = isinstance(wins, int) and isinstance(games, int) and 0 <= wins <= games and games > 0
            need(ok, f"{where}.wins and games", "integers with 0 <= wins <= games, games > 0")
            if ladder["kind"] == "competitive":  # runs from before each side's count was kept cannot pool
                sides = cell.get("sides")
                ok = "win_share" in cell and isinstance(sides, list) and len(sides) == len(cell["lineup"])
                need(ok, f"{where}.sides", "each side's wins and win share (a ladder made before they were kept "
                     "cannot be pooled: play it again)")  # fmt: skip
        for g, record in enumerate(table.get("records", [])):
            ok = isinstance(record, list) and len(record) == 3 and all(isinstance(x, list) for x in record)
            ok = ok and all(name in ladder["rungs"] for name in record[0])
            need(ok, f"tables[{t}].records[{g}]", "[rung per seat, winners, scores] with rungs of this ladder")


def _turned(cell: dict[str, Any]) -> dict[str, Any]:
    """A head-to-head cell with its sides swapped (its lineup reversed, the other side's count first)."""
    sides = list(reversed(cell["sides"]))
    out = _cell({"kind": cell["kind"], "lineup": list(reversed(cell["lineup"]))}, sides[0]["wins"], sides[0]["games"])
    return out | {"win_share": sides[0]["win_share"], "sides": sides}


def _pool(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two cells of one match as one: wins and games add, shares weighted by games."""
    out = _cell(a, a["wins"] + b["wins"], a["games"] + b["games"])
    if "win_share" in a:
        out["win_share"] = (a["win_share"] * a["games"] + b["win_share"] * b["games"]) / out["games"]
    if "sides" in a:
        out["sides"] = [
            {
                "rung": x["rung"],
                "wins": x["wins"] + y["wins"],
                "games": x["games"] + y["games"],
                "win_share": (x["win_share"] * x["games"] + y["win_share"] * y["games"]) / (x["games"] + y["games"]),
            }
            for x, y in zip(a["sides"], b["sides"])
        ]
    return out


def _cell(match: dict[str, Any], wins: int, games: int) -> dict[str, Any]:
    lo, hi = wilson_interval(int(wins), int(games))
    return {
        "kind": match["kind"],
        "lineup": match["lineup"],
        "wins": int(wins),
        "games": int(games),
        "rate": wins / games,
        "ci95": [lo, hi],
    }


def _rate(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return "-"
    lo, hi = cell["ci95"]
    return f"{cell['rate']:.0%} ({lo:.0%}-{hi:.0%}, {cell['games']})"


def markdown(ladder: dict[str, Any]) -> str:
    rungs = list(ladder["rungs"])
    lines = [f"# Skill ladder: {ladder['env_id']}", ""]
    runs = runs_of(ladder)
    if "runs" in ladder:
        lines += [f"The games of {len(runs)} runs pooled (`python -m training.ladder --merge`):", ""]
        lines += [
            f"- `{r.get('command') or '(no command recorded), seed ' + str(r['seed'])}` in "
            f"{float(r.get('elapsed_seconds') or 0) / 60:.0f} minutes"
            for r in runs
        ]
        lines.append("")
    elif ladder.get("command"):
        lines += [f"Made with `{ladder['command']}` in {ladder['elapsed_seconds'] / 60:.0f} minutes.", ""]
    weights = ladder.get("weights") or {}
    if weights:  # which network each rung met: its spec's path holds whichever was shipped last
        lines += ["| Rung | Spec | Weights (sha256) |", "|---|---|---|"]
        lines += [
            f"| {r} | `{s}` | {', '.join(x[:12] for x in weights.get(r, [])) or '-'} |"
            for r, s in ladder["rungs"].items()
        ]
        lines.append("")
    else:
        lines += ["| Rung | Spec |", "|---|---|"] + [f"| {r} | `{s}` |" for r, s in ladder["rungs"].items()] + [""]
    seeds = ", ".join(str(r["seed"]) for r in runs)
    lines.append(f"Rates with Wilson 95% intervals and the number of games, seat-balanced, seeds from {seeds}.")
    for table in ladder["tables"]:
        n = table["players"]
        cells = table["cells"]
        lines += ["", f"## {n} player{'s' if n > 1 else ''}", ""]
        if ladder["kind"] == "cooperative":
            partners = [p for p in PARTNERS if p in rungs]
            head = ["Rung", "Team alone"] + ([f"Beside {p}" for p in partners] if n > 1 else [])
            lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            for r in rungs:
                row = [r, _rate(_find(cells, "team", (r,)))]
                if n > 1:
                    row += [_rate(_find(cells, "beside", (r, p))) for p in partners]
                lines.append("| " + " | ".join(row) + " |")
            continue
        what = (
            "win rate head to head (a shared victory is a win for both sides, so a pair can sum past 100%)"
            if n == 2
            else f"win share alone against {n - 1} of the column (uniform {1 / n:.0%})"
        )
        lines += [f"Row's {what}:", "", "| | " + " | ".join(rungs) + " |", "|---|" + "---|" * len(rungs)]
        for a in rungs:
            row = []
            for b in rungs:
                if a == b:
                    row.append("-")
                    continue
                if n == 2:
                    cell = _find(cells, "head_to_head", (a, b))
                    if cell is None:
                        cell = _find(cells, "head_to_head", (b, a))
                        cell = cell and _flip(cell)
                    row.append(_rate(cell))
                else:
                    cell = _find(cells, "field", (a, b))
                    row.append("-" if cell is None else f"{cell['win_share']:.0%} ({cell['games']})")
            lines.append(f"| {a} | " + " | ".join(row) + " |")
        if table.get("ratings") is None:
            lines += ["", "Ratings: not recomputed (a pooled run kept no game records)."]
            continue
        rated = sorted(table["ratings"].items(), key=lambda kv: -kv[1]["ordinal"])
        lines += ["", "| Rung | OpenSkill mu | sigma | mu - 3 sigma |", "|---|---:|---:|---:|"]
        lines += [f"| {r} | {x['mu']:.1f} | {x['sigma']:.1f} | {x['ordinal']:.1f} |" for r, x in rated]
    return "\n".join(lines) + "\n"


def _find(cells: list[dict[str, Any]], kind: str, lineup: tuple[str, ...]) -> dict[str, Any] | None:
    return next((c for c in cells if c["kind"] == kind and tuple(c["lineup"]) == lineup), None)


def _flip(cell: dict[str, Any]) -> dict[str, Any]:
    """A head-to-head cell from the other side: its own wins (a shared victory counts for both)."""
    side = cell["sides"][1]
    lo, hi = wilson_interval(side["wins"], side["games"])
    return cell | {"wins": side["wins"], "games": side["games"], "rate": side["wins"] / side["games"], "ci95": [lo, hi]}


def plot(ladder: dict[str, Any], path: str | os.PathLike) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rungs = list(ladder["rungs"])
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.8 / max(len(ladder["tables"]), 1)
    for t, table in enumerate(ladder["tables"]):
        if ladder["kind"] == "cooperative":
            cells = [_find(table["cells"], "team", (r,)) for r in rungs]
            none = {"rate": np.nan, "ci95": [np.nan, np.nan]}  # a rung this ladder did not field alone
            cells = [c or none for c in cells]
            ys = [c["rate"] for c in cells]
            err = np.array([[c["rate"] - c["ci95"][0], c["ci95"][1] - c["rate"]] for c in cells]).T
            ax.bar(np.arange(len(rungs)) + t * width, ys, width, yerr=err, label=f"{table['players']}p", capsize=2)
            ax.set_ylabel("team win rate alone")
        elif table.get("ratings") is not None:
            ys = [table["ratings"][r]["mu"] for r in rungs]
            err = [3 * table["ratings"][r]["sigma"] for r in rungs]
            ax.bar(np.arange(len(rungs)) + t * width, ys, width, yerr=err, label=f"{table['players']}p", capsize=2)
            ax.set_ylabel("OpenSkill mu (+-3 sigma)")
    ax.set_xticks(np.arange(len(rungs)) + width * (len(ladder["tables"]) - 1) / 2, rungs)
    ax.set_title(f"{ladder['env_id']}: skill ladder")
    if ax.get_legend_handles_labels()[0]:  # a pooled run without game records has no ratings to draw
        ax.legend()
    fig.tight_layout()
    tmp = Path(path).with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, path)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training.ladder", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("env_id", choices=list(envs.ENV_IDS))
    parser.add_argument("--players", type=int, nargs="+", default=None, help="table sizes (default: smallest)")
    parser.add_argument("--rungs", nargs="+", default=list(BASE_RUNGS), help=f"from {list(BASE_RUNGS)}")
    parser.add_argument("--budgets", type=float, nargs="*", default=[0.1, 1.0], help="search CPU-seconds a decision")
    parser.add_argument("--sims", type=int, nargs="*", default=[], help="search budgets in simulations a decision")
    parser.add_argument("--extra", nargs="*", default=[], metavar="NAME=SPEC", help="more rungs by policy spec")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--search-games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=60000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--focus", default=None, help="only the matches of this rung (its row of the ladder)")
    parser.add_argument(
        "--kinds", nargs="+", choices=KINDS, default=None, help="only matches of these kinds (e.g. team: no partners)"
    )
    parser.add_argument("--out", default=None, help="folder (default: checkpoints/<game>/)")
    parser.add_argument(
        "--merge",
        nargs="+",
        default=None,
        metavar="LADDER.json",
        help="play nothing: pool the games of these runs' ladder.json files (different seeds) into --out",
    )
    return parser


def main(argv: list[str] | None = None) -> dict[str, Any]:
    import sys

    parser = build_parser()
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else Path("checkpoints") / game_name(args.env_id)
    if args.merge is not None:
        played = [f"--{k.replace('_', '-')}" for k, v in vars(args).items() if k not in ("env_id", "out", "merge")
                  and v != parser.get_default(k)]  # fmt: skip
        if played:
            parser.error(f"--merge plays nothing, so {', '.join(played)} would be ignored: leave them out")
        try:
            ladder = merge([_read_ladder(path) for path in args.merge], args.merge)
        except ValueError as e:
            parser.error(str(e))
        if ladder["env_id"] != args.env_id:
            parser.error(f"the runs are ladders of {ladder['env_id']}, not of {args.env_id}")
        return _write(ladder, out)
    game_cls = envs.game_class(args.env_id)
    players = args.players or [game_cls.min_players]
    for n in players:
        if not game_cls.min_players <= n <= game_cls.max_players:
            parser.error(
                f"{args.env_id} is played by {game_cls.min_players} to {game_cls.max_players} players, not {n}"
            )
    for key in ("games", "search_games", "workers"):
        value = getattr(args, key)
        if value is not None and value < 1:
            parser.error(f"--{key.replace('_', '-')} must be >= 1, got {value}")
    try:
        specs = rung_specs(args.env_id, args.rungs, args.budgets, args.extra, args.sims)
        if args.focus is not None and args.focus not in specs:
            raise ValueError(f"--focus {args.focus!r} is not a rung; the rungs are {list(specs)}")
    except ValueError as e:
        parser.error(str(e))
    if args.kinds is not None and not plan(args.env_id, players, list(specs), 1, 1, args.focus, args.kinds):
        parser.error(f"--kinds {' '.join(args.kinds)} leaves no match of {args.env_id} at these table sizes")
    ladder = run_ladder(
        args.env_id,
        players,
        specs,
        args.games,
        args.search_games or args.games,
        args.seed,
        args.workers,
        args.focus,
        kinds=args.kinds,
    )
    ladder["command"] = "python -m training.ladder " + " ".join(argv if argv is not None else sys.argv[1:])
    return _write(ladder, out)


def _read_ladder(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise ValueError(f"{path}: cannot read it ({e.strerror or e})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a ladder's JSON (a {type(data).__name__}, not an object)")
    return data


def _write(ladder: dict[str, Any], out: Path) -> dict[str, Any]:
    text = markdown(ladder)  # everything rendered before anything is written
    payload = json.dumps(ladder, indent=1)
    out.mkdir(parents=True, exist_ok=True)
    plot(ladder, out / "ladder.png")
    atomic_write_text(out / "ladder.md", text)
    atomic_write_text(out / "ladder.json", payload)
    print(text)
    print(f"written: {out / 'ladder.md'}, {out / 'ladder.json'}, {out / 'ladder.png'}")
    return ladder


if __name__ == "__main__":
    main()
