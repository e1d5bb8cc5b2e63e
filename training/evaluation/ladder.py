"""The skill ladder of a game: random, heuristic, the shipped network and search at several budgets.

    python -m training.ladder last_heroes_v0 --players 2 3 --budgets 0.1 1 --games 100 --search-games 40
    python -m training.ladder last_bastion_v0 --players 1 2 3 4 --budgets 0.1 --games 200 --workers 2

Rungs (``--rungs``, plus one ``search`` rung per ``--budgets`` value and any ``--extra NAME=SPEC``):

| Rung | Spec |
|---|---|
| `random` | `random` |
| `heuristic` | `heuristic` |
| `network` | the shipped checkpoint (`checkpoints/<game>/<game>.json`) |
| `search-<B>s` | `search:prior=shipped,seconds=<B>`: PUCT over resampled worlds, the network as prior and value |

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
(default ``--games``): search costs its budget at every decision. ``--workers`` plays blocks of
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
from training.runtime.policies import spec_error

BASE_RUNGS = ("random", "heuristic", "network")
PARTNERS = ("heuristic", "network")


@dataclass(frozen=True)
class Match:
    """One tournament of the ladder: ``lineup`` (rung names; the first is the focus) at ``players``."""

    kind: str  # "head_to_head", "field" (one against N-1), "team", "beside"
    players: int
    lineup: tuple[str, ...]
    games: int


def rung_specs(env_id: str, rungs: Sequence[str], budgets: Sequence[float], extra: Sequence[str]) -> dict[str, str]:
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
    for item in extra:
        name, sep, spec = item.partition("=")
        if not sep or not name or not spec:
            raise ValueError(f"--extra takes NAME=SPEC, got {item!r}")
        why = spec_error(spec, ("random", "heuristic"))
        if why is not None:
            raise ValueError(f"--extra {name}: {why}")
        specs[name] = spec
    return specs


def _relative(path: Path) -> str:
    """``path`` from the working folder when it lies below it (tables then read the same anywhere)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def plan(
    env_id: str, players: Sequence[int], rungs: Sequence[str], games: int, search_games: int, focus: str | None = None
) -> list[Match]:
    """Every match of the ladder (see the module doc); with ``focus``, only those that rung plays in
    (the row: alone against each other rung, its team alone and beside each partner)."""
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
) -> dict[str, Any]:
    rungs = list(specs)
    if focus is not None and focus not in rungs:
        raise ValueError(f"--focus {focus!r} is not a rung; the rungs are {rungs}")
    matches = plan(env_id, players, rungs, games, search_games, focus)
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
    from openskill.models import PlackettLuce

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
            model = PlackettLuce()
            ratings = {name: model.rating(name=name) for name in specs}
            for p in here:
                lineup_names = [a["name"] for a in p["results"]["agents"]]
                for record in p["results"]["game_records"]:
                    names = [lineup_names[a] for a in record["seating"]]
                    if len(set(names)) < 2:
                        continue
                    teams = [[ratings[x]] for x in names]
                    rated = model.rate(teams, ranks=_ranks(record["winners"], record["scores"]))
                    for seat, x in enumerate(names):  # several seats of one rung: the last update stands
                        ratings[x] = rated[seat][0]
            table["ratings"] = {
                x: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for x, r in ratings.items()
            }
        tables.append(table)
    return {
        "env_id": env_id,
        "kind": "cooperative" if cooperative else "competitive",
        "rungs": specs,
        "players": list(players),
        "seed": seed,
        "elapsed_seconds": elapsed,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "tables": tables,
        "command": None,
    }


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
    if ladder.get("command"):
        lines += [f"Made with `{ladder['command']}` in {ladder['elapsed_seconds'] / 60:.0f} minutes.", ""]
    lines += ["| Rung | Spec |", "|---|---|"] + [f"| {r} | `{s}` |" for r, s in ladder["rungs"].items()] + [""]
    lines.append(
        f"Rates with Wilson 95% intervals and the number of games, seat-balanced, seeds from {ladder['seed']}."
    )
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
        ratings = sorted(table["ratings"].items(), key=lambda kv: -kv[1]["ordinal"])
        lines += ["", "| Rung | OpenSkill mu | sigma | mu - 3 sigma |", "|---|---:|---:|---:|"]
        lines += [f"| {r} | {x['mu']:.1f} | {x['sigma']:.1f} | {x['ordinal']:.1f} |" for r, x in ratings]
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
        else:
            ys = [table["ratings"][r]["mu"] for r in rungs]
            err = [3 * table["ratings"][r]["sigma"] for r in rungs]
            ax.bar(np.arange(len(rungs)) + t * width, ys, width, yerr=err, label=f"{table['players']}p", capsize=2)
            ax.set_ylabel("OpenSkill mu (+-3 sigma)")
    ax.set_xticks(np.arange(len(rungs)) + width * (len(ladder["tables"]) - 1) / 2, rungs)
    ax.set_title(f"{ladder['env_id']}: skill ladder")
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
    parser.add_argument("--extra", nargs="*", default=[], metavar="NAME=SPEC", help="more rungs by policy spec")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--search-games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=60000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--focus", default=None, help="only the matches of this rung (its row of the ladder)")
    parser.add_argument("--out", default=None, help="folder (default: checkpoints/<game>/)")
    return parser


def main(argv: list[str] | None = None) -> dict[str, Any]:
    import sys

    parser = build_parser()
    args = parser.parse_args(argv)
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
        specs = rung_specs(args.env_id, args.rungs, args.budgets, args.extra)
        if args.focus is not None and args.focus not in specs:
            raise ValueError(f"--focus {args.focus!r} is not a rung; the rungs are {list(specs)}")
    except ValueError as e:
        parser.error(str(e))
    ladder = run_ladder(
        args.env_id, players, specs, args.games, args.search_games or args.games, args.seed, args.workers, args.focus
    )
    ladder["command"] = "python -m training.ladder " + " ".join(argv if argv is not None else sys.argv[1:])
    out = Path(args.out) if args.out else Path("checkpoints") / game_name(args.env_id)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "ladder.json", json.dumps(ladder, indent=1))
    text = markdown(ladder)
    atomic_write_text(out / "ladder.md", text)
    plot(ladder, out / "ladder.png")
    print(text)
    print(f"written: {out / 'ladder.md'}, {out / 'ladder.json'}, {out / 'ladder.png'}")
    return ladder


if __name__ == "__main__":
    main()
