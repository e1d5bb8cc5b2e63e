"""Search speed: simulations per CPU-second for every registered game, table size and evaluator.

For every env id at its smallest and largest table, ``--positions`` positions are taken from
games the heuristic plays (seeded, the same in every run); each search configuration searches
each position for ``--sims`` simulations. A row is the median over ``--repeats`` of the
simulations per CPU-second (``time.process_time``, the process's own time), with the spread
(lowest to highest repeat). Configurations (``--configs``):

| Name | Spec | What a simulation costs |
|---|---|---|
| `network` | `search:prior=shipped` | a world, the descent, one policy and one value pass per seat (value leaf) |
| `random` | `search:leaf=random` | a world, the descent, a random playout to the end |
| `heuristic` | `search:leaf=heuristic` | a world, the descent, a heuristic playout to the end |

``--whole-game S`` also plays one whole game per env id and table size with search at ``S``
CPU-seconds a decision in every seat (``search:prior=shipped,seconds=S``) and reports the longest
decision in wall-clock and CPU time: what a person waits for one bot move in play.

The load average is printed before and after; above 1 the numbers are not to be quoted (another
job was sharing the two cores).

    python -m benchmarks.search_throughput --repeats 3      # network and random, 100 simulations
    python -m benchmarks.search_throughput --configs heuristic --sims 20   # heuristic playouts cost ~ms each
    python -m benchmarks.search_throughput --only last_heroes_v0 --configs network --whole-game 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import numpy as np

import envs
from envs.core.game import play_forced
from training.atomic import atomic_write_text
from training.runtime.policies import observation_options
from training.runtime.search import SearchPolicy, parse_spec

CONFIGS = {"network": "search:prior=shipped", "random": "search:leaf=random", "heuristic": "search:leaf=heuristic"}


def positions(env_id: str, num_players: int, count: int, options: dict[str, Any], seed: int = 0) -> list:
    """``count`` decisions from heuristic games: one every few decisions, from several games."""
    game = envs.game_class(env_id)(num_players=num_players, **options)
    bot = envs.heuristic_bot(env_id, seed=seed)
    found, g = [], 0
    rng = np.random.default_rng(seed)
    while len(found) < count:
        state = game.new_state(seed + g)
        g += 1
        while not state.is_over() and len(found) < count:
            play_forced(state)
            if state.is_over():
                break
            if state.num_legal() > 1 and rng.random() < 0.1:
                found.append(state.clone())
            state.apply(int(bot.act_state(state)))
    return found


def measure(env_id: str, num_players: int, spec: str, sims: int, count: int, repeats: int) -> dict[str, Any]:
    policy = SearchPolicy(env_id, parse_spec(f"{spec},sims={sims},seed=0"))
    options = observation_options(env_id, [policy], {})
    states = positions(env_id, num_players, count, options)
    policy.analyse(states[0])  # warm-up (first-use compilation, caches)
    rates = []
    for _ in range(repeats):
        done, cpu = 0, 0.0
        for state in states:
            result = policy.analyse(state)
            done += result.simulations
            cpu += result.cpu_seconds
        rates.append(done / cpu)
    return {
        "env_id": env_id,
        "players": num_players,
        "spec": spec,
        "sims_per_cpu_s": statistics.median(rates),
        "spread": [min(rates), max(rates)],
        "repeats": rates,
    }


def whole_game(env_id: str, num_players: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    policy = SearchPolicy(env_id, parse_spec(f"search:prior=shipped,seconds={seconds:g},seed={seed}"))
    game = envs.game_class(env_id)(num_players=num_players, **observation_options(env_id, [policy], {}))
    state = game.new_state(seed)
    walls, cpus = [], []
    while True:
        play_forced(state)
        if state.is_over():
            break
        wall, cpu = time.perf_counter(), time.process_time()
        state.apply(policy.act(None, state.legal_mask(), state))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {
        "env_id": env_id,
        "players": num_players,
        "seconds": seconds,
        "decisions": len(walls),
        "longest_wall_s": max(walls),
        "longest_cpu_s": max(cpus),
        "median_wall_s": statistics.median(walls),
        "winners": list(state.outcome().winners),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search_throughput", description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="env ids (default: every registered one)")
    parser.add_argument("--configs", nargs="*", default=["network", "random"], choices=list(CONFIGS))
    parser.add_argument("--sims", type=int, default=100)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--whole-game", type=float, default=None, metavar="S")
    parser.add_argument("--json", default=None, help="also write the results here")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    print(f"load average before: {load_before:.2f}" + ("  (above 1: do not quote these numbers)" * (load_before > 1)))
    rows, games = [], []
    print("| Game | Players | Search | Simulations per CPU-s (median) | Spread over repeats |")
    print("|---|---:|---|---:|---|")
    for env_id in args.only or envs.ENV_IDS:
        game_cls = envs.game_class(env_id)
        for n in sorted({game_cls.min_players, game_cls.max_players}):
            for name in args.configs:
                row = measure(env_id, n, CONFIGS[name], args.sims, args.positions, args.repeats)
                rows.append(row)
                lo, hi = row["spread"]
                print(f"| {env_id} | {n} | {name} | {row['sims_per_cpu_s']:,.0f} | {lo:,.0f} - {hi:,.0f} |", flush=True)
            if args.whole_game:
                games.append(whole_game(env_id, n, args.whole_game))
    if games:
        print(f"\nWhole games, search at {args.whole_game:g} CPU-s a decision in every seat:\n")
        print("| Game | Players | Decisions | Longest decision (wall) | Longest (CPU) | Median (wall) |")
        print("|---|---:|---:|---:|---:|---:|")
        for g in games:
            print(
                f"| {g['env_id']} | {g['players']} | {g['decisions']} | {g['longest_wall_s']:.2f} s | "
                f"{g['longest_cpu_s']:.2f} s | {g['median_wall_s']:.2f} s |"
            )
    load_after = os.getloadavg()[0]
    print(f"\nload average after: {load_after:.2f}" + ("  (above 1: do not quote these numbers)" * (load_after > 1)))
    out = {"rows": rows, "whole_games": games, "load_average": [load_before, load_after], "sims": args.sims}
    if args.json:
        atomic_write_text(args.json, json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
