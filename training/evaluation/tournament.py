"""Tournaments between policies: win rates with Wilson intervals, seat advantage, ratings, plots.

    python -m training.evaluate ENV_ID --players N [N ...] --agents SPEC [SPEC ...] --games G
        [--variant KEY=V1,V2 ...] [--seed S] [--out DIR] [--option key=value ...] [--no-progress]

    python -m training.evaluate last_heroes_v0 --players 4 --agents heuristic random --games 200
    python -m training.evaluate last_bastion_v0 --players 1 2 3 4 --agents heuristic --games 400 \
        --variant difficulty=novice,normal,difficult,heroic

Several ``--players`` counts and ``--variant`` values run one evaluation per combination (each
in its own folder under ``--out``) and end with a table of them all (``summary.md``).

Competitive games report per agent (below). Cooperative games report the *team*: the line-up of
policies across the seats (one spec: that policy in every seat; ``ckpt heuristic``: the checkpoint
beside heuristic partners, rotated through the seats), its win rate with a Wilson interval, mean
score, mean game length in decisions and why games ended. A win is read from the state's
:class:`~envs.core.game.Outcome`, never guessed from scores.

Each SPEC is a policy spec of ``training.runtime.policies.load_policy``: ``random``, ``heuristic`` or a
checkpoint path. Games run on the rules State directly (no AEC bookkeeping); a decision with
exactly one legal action is played at once without asking the policy.

Who sits where (:func:`seat_schedule`)
--------------------------------------
With A agents and N seats:

- **A <= N**: every game seats the same *lineup*. The FIRST spec is the focus agent and sits once;
  the others fill the remaining N - 1 seats in order, cycling. ``heuristic random`` at 4 players
  is 1 heuristic + 3 random; ``ckpt heuristic random`` at 4 players is ckpt, heuristic, random,
  heuristic. The N cyclic rotations of that lineup form one *cycle* of N games. Rotations keep
  the order around the table, so who plays right after whom is the same in every game.
- **A > N**: each game seats N consecutive agents of the list (cyclically): A windows, each in
  its N rotations, so one cycle is A * N games and every agent plays N * N of them.

Either way every agent sits in every seat equally often over a cycle, so G is rounded UP to a
whole number of cycles (the output says so). All games of one cycle share one game seed
(duplicate format: each seating plays the same deals and the same first player), and the cycles'
seeds are derived from ``--seed``; policies get their own seeds derived from it too. The games
keep their own rules for who starts (random in Last Heroes, from the game seed).

The schedule is played in blocks of whole cycles (about 24 games); each block loads its policies
with seeds of its own. ``--workers K`` plays the blocks in K processes, and because no block
depends on another, the results are the same for every K (bar time-budgeted search, whose
simulation count follows the clock).

Results
-------
Agents are named by their policy's ``name`` (``random``, ``heuristic``, a checkpoint's stem); a
repeated name gets ``#2``, ``#3``. An agent seated in several seats of one game counts once per
seat: its ``games`` are seatings.
A *win* is a seat among the winners of the game's outcome (``state.outcome().winners``), so a
shared victory is a win for every co-winner; ``win_share`` gives such a win 1 / (number of winners) instead, so the
win shares of all seatings add up to the number of games won by anyone. Win rates come with a
Wilson 95% interval. Also per agent: mean game score (``scores()``), mean return (``returns()``),
win rate per seat, and an N-player rating (openskill Plackett-Luce: each seat is a team of one,
ranked winners first, then by final score; an agent in several seats of a game gets the mean of
its seats' updates). For the table as a whole: the win rate of each seat and of each turn
position (position 0 = the seat that decides first in the new game, i.e. first-player advantage).
A truncated game counts as its outcome says (no winner in Last Heroes; a cooperative team that
hits a turn cap has lost). In a cooperative game every game is a new deal.

Outputs (to ``--out``, default ``runs/eval/<env>__<time>/``), each written atomically:
``results.json``, ``results.md`` (printed too) and ``results.png`` (win rates with Wilson error
bars, and win rates per seat). Each agent's row in ``results.json`` keeps its spec and the
``weights_sha256`` of the checkpoints it played with (``weights``): a path such as the shipped
``checkpoints/<game>/<game>.json`` is overwritten by each release, the fingerprint is not.

Python: :func:`evaluate` returns the results dict (agents may be spec strings, loaded policy
objects or ``(name, spec_or_policy)`` pairs, e.g. from a training callback), and
:func:`write_outputs` writes the three files.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import math
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import envs
from envs.core.game import play_forced
from envs.core.options import split_options
from training.atomic import atomic_write_bytes, atomic_write_text
from training.runtime.policies import Policy, load_policy, observation_options, seat_actor, spec_weights

# --------------------------------------------------------------------------------------------
# Pure helpers
# --------------------------------------------------------------------------------------------


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a win rate ``wins / n`` (z = 1.96: 95%). ``n == 0`` gives (0, 1)."""
    if n < 0 or wins < 0 or wins > n:
        raise ValueError(f"wilson_interval needs 0 <= wins <= n, got wins={wins}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == n else min(1.0, centre + half)
    return (lo, hi)


def lineups(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """The distinct lineups (agent per seat, before rotation) described in the module doc."""
    if num_agents < 1:
        raise ValueError(f"need at least one agent, got {num_agents}")
    if num_players < 1:
        raise ValueError(f"need at least one seat, got {num_players}")
    a, n = num_agents, num_players
    if a <= n:
        if a == 1:
            return [(0,) * n]
        return [(0, *(1 + i % (a - 1) for i in range(n - 1)))]
    return [tuple((k + j) % a for j in range(n)) for k in range(a)]


def cycle_length(num_agents: int, num_players: int) -> int:
    """Games in one seat-balanced cycle: N if A <= N, else A * N."""
    return len(lineups(num_agents, num_players)) * num_players


def seat_schedule(num_agents: int, num_players: int, games: int) -> list[tuple[int, ...]]:
    """Agent index per seat for each game, ``games`` rounded up to whole cycles.

    Each cycle is every lineup in each of its ``num_players`` cyclic rotations, so every agent
    sits in every seat equally often over a cycle (see the module doc for the lineups).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    n = num_players
    cycle = [tuple(lineup[(s + r) % n] for s in range(n)) for lineup in lineups(num_agents, n) for r in range(n)]
    cycles = -(-games // len(cycle))
    return cycle * cycles


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` with the value read as JSON or a Python literal (3, 0.5, true, None, "x"),
    else kept as a string."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ValueError(f"option {text!r} is not of the form key=value")
    raw = raw.strip()
    words = {"true": True, "false": False, "none": None, "null": None}
    if raw.lower() in words:
        return key, words[raw.lower()]
    for parse in (json.loads, ast.literal_eval):
        try:
            return key, parse(raw)
        except (ValueError, SyntaxError):
            pass
    return key, raw


def _derived_seed(*entropy: int) -> int:
    return int(np.random.SeedSequence(list(entropy)).generate_state(1)[0])


def _ranks(winners: Sequence[int], scores: Sequence[float]) -> list[int]:
    """Openskill ranks (1 = best, ties shared): winners first, then by final score."""
    won = set(winners)
    keys = [(i in won, float(s)) for i, s in enumerate(scores)]
    return [1 + sum(k > key for k in keys) for key in keys]


# --------------------------------------------------------------------------------------------
# Setting up an evaluation
# --------------------------------------------------------------------------------------------


@dataclass
class Agent:
    name: str
    spec: str  # the spec string, or "<object ClassName>" for a policy passed in
    policy: Policy


@dataclass
class Setup:
    env_id: str
    num_players: int
    env_options: dict[str, Any]
    game: Any  # the Game
    agents: list[Agent]
    schedule: list[tuple[int, ...]]
    games_requested: int
    seed: int
    # what prepare() was given, so that a worker process can rebuild the same setup
    given_options: dict[str, Any] = field(default_factory=dict)
    deterministic: bool = True


def _spec_name(spec: str) -> str:
    """A short name: the spec word itself, or a checkpoint's file or folder name."""
    if spec in ("random", "heuristic", "human"):
        return spec
    return Path(spec).name or spec


def _unique(names: list[str]) -> list[str]:
    out, seen = [], {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    # a generated "x#2" may still collide with a given name: number again until unique
    return out if len(set(out)) == len(out) else [f"{n}@{i}" for i, n in enumerate(out)]


def prepare(
    env_id: str,
    num_players: int,
    agent_specs: Sequence[Any],
    games: int,
    seed: int = 0,
    env_options: dict[str, Any] | None = None,
    deterministic: bool = True,
) -> Setup:
    """Check every input and load the policies; raises ValueError saying what is allowed."""
    if env_id not in envs.ENV_IDS:
        raise ValueError(f"unknown env id {env_id!r}; registered ids are {list(envs.ENV_IDS)}")
    game_cls = envs.game_class(env_id)
    if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
        raise ValueError(f"num_players must be an integer, got {num_players!r}")
    lo, hi = game_cls.min_players, game_cls.max_players
    if not lo <= num_players <= hi:
        raise ValueError(f"{env_id} is played by {lo} to {hi} players, not {num_players}")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be an integer >= 1, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    if isinstance(agent_specs, (str, bytes)) or not agent_specs:
        raise ValueError("agent_specs must be a non-empty list of policy specs, policies or (name, policy) pairs")

    options = dict(env_options or {})
    if "num_players" in options:
        raise ValueError("give the player count as num_players (--players), not as an env option")
    _, options = split_options(game_cls, options)  # the driver's options do not change the rules
    game_cls(num_players=int(num_players), **options)  # raises a ValueError naming the allowed options

    names, specs, policies = [], [], []
    for i, item in enumerate(agent_specs):
        name = None
        if isinstance(item, tuple):
            if len(item) != 2 or not isinstance(item[0], str):
                raise ValueError(f"agent {i}: a pair must be (name, spec_or_policy), got {item!r}")
            name, item = item
        if isinstance(item, (str, os.PathLike)):
            spec = os.fspath(item)
            if spec == "human":
                raise ValueError(
                    "the 'human' policy cannot play in an evaluation; use random, heuristic or a checkpoint"
                )
            policy = load_policy(spec, env_id, seed=_derived_seed(seed, 1, i), deterministic=deterministic)
            names.append(name or str(getattr(policy, "name", "") or _spec_name(spec)))
            specs.append(spec)
        elif callable(getattr(item, "act", None)):
            policy = item
            names.append(name or str(getattr(item, "name", type(item).__name__)))
            specs.append(f"<object {type(item).__name__}>")
        else:
            raise ValueError(f"agent {i}: {item!r} is neither a policy spec string nor an object with act()")
        policies.append(policy)
    options = observation_options(env_id, policies, options)  # each checkpoint sees what it was trained on
    game = game_cls(num_players=int(num_players), **options)
    agents = [Agent(n, s, p) for n, s, p in zip(_unique(names), specs, policies)]
    schedule = seat_schedule(len(agents), int(num_players), int(games))
    return Setup(
        env_id,
        int(num_players),
        options,
        game,
        agents,
        schedule,
        int(games),
        int(seed),
        dict(env_options or {}),
        bool(deterministic),
    )


# --------------------------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------------------------


def play_game(game: Any, seat_policies: Sequence[Policy], seed: int) -> dict[str, Any]:
    """One game on the rules State; forced decisions (one legal action) skip the policy.

    The result's ``winners`` and ``reason`` are the state's :class:`~envs.core.game.Outcome`."""
    actors = [seat_actor(p) for p in seat_policies]
    state = game.new_state(seed)
    first = int(state.current_player)
    limit = 10 * game.max_game_length() + 1000
    decisions = 0
    while True:
        decisions += play_forced(state, limit=limit)
        if state.is_terminal() or state.is_truncated():
            break
        seat = state.current_player
        state.apply(int(actors[seat].act(state.observe(seat), state.legal_mask(), state)))
        decisions += 1
        if decisions > limit:
            raise RuntimeError(f"a game ran past {limit} decisions without ending (seed {seed})")
    outcome = state.outcome()
    if outcome is None:
        raise RuntimeError(f"{type(state).__name__} ended (seed {seed}) but its outcome() is None")
    return {
        "seed": seed,
        "first": first,
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "scores": [float(x) for x in state.scores()],
        "returns": [float(r) for r in state.returns()],
        "truncated": bool(outcome.truncated),
        "decisions": decisions,
    }


# A schedule is played in blocks of whole cycles; each block's policies draw from their own seed.
# So a tournament plays the same games, and its policies make the same random draws, whether its
# blocks run one after another or side by side in worker processes (``workers``).
BLOCK_GAMES = 24


def schedule_blocks(setup: Setup) -> list[range]:
    """The game indices of each block: whole cycles, about ``BLOCK_GAMES`` games a block."""
    cyc = cycle_length(len(setup.agents), setup.num_players)
    size = cyc * max(1, -(-BLOCK_GAMES // cyc))
    return [range(s, min(s + size, len(setup.schedule))) for s in range(0, len(setup.schedule), size)]


def _block_policies(setup: Setup, block: int) -> list[Policy]:
    """Block 0 plays the policies prepare() loaded; block b > 0 reloads each spec with its own seed
    (a policy object passed in has no spec to reload: it plays on)."""
    if block == 0:
        return [a.policy for a in setup.agents]
    return [
        a.policy
        if a.spec.startswith("<object")
        else load_policy(
            a.spec, setup.env_id, seed=_derived_seed(setup.seed, 1, i, block), deterministic=setup.deterministic
        )
        for i, a in enumerate(setup.agents)
    ]


def play_block(setup: Setup, block: int, games: range, on_game=None) -> list[dict[str, Any]]:
    """Play the games ``games`` of the schedule (block ``block`` of :func:`schedule_blocks`): their records."""
    policies = _block_policies(setup, block)
    cyc = cycle_length(len(setup.agents), setup.num_players)
    cooperative = bool(setup.game.cooperative)
    records = []
    for g in games:
        seating = setup.schedule[g]
        # Competitive: every seating of a cycle plays the same deal (duplicate format). Cooperative: a
        # new deal every game, so that n rotations of one team are n games' worth of evidence.
        game_seed = _derived_seed(setup.seed, 0, g if cooperative else g // cyc)
        r = play_game(setup.game, [policies[a] for a in seating], game_seed)
        records.append({"game": g, "seating": list(seating), **r})
        if on_game is not None:
            on_game()
    return records


def _recipe(setup: Setup) -> tuple:
    for a in setup.agents:
        if a.spec.startswith("<object"):
            raise ValueError(
                f"agent {a.name!r} is a policy object: a tournament on several workers needs every agent as a spec"
            )
    specs = [(a.name, a.spec) for a in setup.agents]
    return (setup.env_id, setup.num_players, specs, setup.games_requested, setup.seed, setup.given_options)


def _play_block_job(job: tuple) -> list[dict[str, Any]]:
    recipe, deterministic, block, start, stop = job
    import torch

    torch.set_num_threads(1)  # one process per core
    setup = prepare(*recipe, deterministic=deterministic)
    started = time.perf_counter()
    records = play_block(setup, block, range(start, stop))
    return records, time.perf_counter() - started


def play_setups(
    setups: Sequence[Setup], workers: int = 1, on_done=None, progress: bool = False
) -> list[dict[str, Any]]:
    """Play several tournaments, their blocks spread over ``workers`` processes; the results of
    each, in order. ``on_done(i, results)`` is called as each tournament completes."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    jobs = [(i, b, block) for i, setup in enumerate(setups) for b, block in enumerate(schedule_blocks(setup))]
    left = [sum(1 for j in jobs if j[0] == i) for i in range(len(setups))]
    records: list[list[dict[str, Any]]] = [[] for _ in setups]
    seconds = [0.0] * len(setups)  # time spent playing each tournament, over all workers
    out: list[dict[str, Any] | None] = [None] * len(setups)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=sum(len(s.schedule) for s in setups), desc=f"eval {setups[0].env_id}", unit="game")

    def finish(i: int, part: list[dict[str, Any]], took: float) -> None:
        records[i] += part
        seconds[i] += took
        left[i] -= 1
        if left[i] == 0:
            out[i] = results_from_records(setups[i], sorted(records[i], key=lambda r: r["game"]), seconds[i])
            if on_done is not None:
                on_done(i, out[i])

    if workers > 1 and len(jobs) > 1:
        payloads = [(_recipe(setups[i]), setups[i].deterministic, b, block.start, block.stop) for i, b, block in jobs]
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            for (i, _, block), (part, took) in zip(jobs, pool.map(_play_block_job, payloads)):
                if bar is not None:
                    bar.update(len(block))
                finish(i, part, took)
    else:
        for i, b, block in jobs:
            started = time.perf_counter()
            part = play_block(setups[i], b, block, on_game=None if bar is None else lambda: bar.update(1))
            finish(i, part, time.perf_counter() - started)
    if bar is not None:
        bar.close()
    return out  # type: ignore[return-value]


def run(setup: Setup, progress: bool = False, workers: int = 1) -> dict[str, Any]:
    """Play the schedule of ``setup`` (its blocks on ``workers`` processes) and gather the results dict."""
    return play_setups([setup], workers=workers, progress=progress)[0]


def results_from_records(setup: Setup, records: Sequence[dict[str, Any]], elapsed: float = 0.0) -> dict[str, Any]:
    """The results dict of a tournament from the records of its games, in schedule order
    (``elapsed``: the seconds spent playing them)."""
    from openskill.models import PlackettLuce

    n, agents = setup.num_players, setup.agents
    cyc = cycle_length(len(agents), n)
    model = PlackettLuce()
    ratings = [(model.mu, model.sigma) for _ in agents]

    a_count = len(agents)
    seatings = np.zeros(a_count, int)
    # games an agent sat in, and won: in a cooperative game its seats share one result, so its
    # interval counts games, not seats (four seats of one game are one observation, not four)
    played_in = np.zeros(a_count, int)
    won_in = np.zeros(a_count, int)
    wins = np.zeros(a_count, int)
    share = np.zeros(a_count)
    score_sum = np.zeros(a_count)
    return_sum = np.zeros(a_count)
    seat_games = np.zeros((a_count, n), int)
    seat_wins = np.zeros((a_count, n), int)
    table_seat_wins = np.zeros(n, int)
    table_seat_share = np.zeros(n)
    position_wins = np.zeros(n, int)
    truncated = shared = 0
    decisions = 0
    cooperative = bool(setup.game.cooperative)
    team_wins = 0
    team_score = 0.0
    reasons: dict[str, int] = {}
    for r in records:
        seating = r["seating"]
        winners = r["winners"]
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
        team_wins += bool(winners)
        team_score += float(np.mean(r["scores"]))
        truncated += r["truncated"]
        shared += len(winners) > 1
        decisions += r["decisions"]
        for seat, a in enumerate(seating):
            won = seat in winners
            seatings[a] += 1
            seat_games[a, seat] += 1
            wins[a] += won
            seat_wins[a, seat] += won
            share[a] += 1.0 / len(winners) if won else 0.0
            score_sum[a] += r["scores"][seat]
            return_sum[a] += r["returns"][seat]
        for a in set(seating):
            played_in[a] += 1
            won_in[a] += bool(winners)
        for w in winners:
            table_seat_wins[w] += 1
            table_seat_share[w] += 1.0 / len(winners)
            position_wins[(w - r["first"]) % n] += 1
        # ratings: each seat a team of one, starting from its agent's current rating (competitive only:
        # in a cooperative game every seat shares one result)
        teams = [[model.rating(mu=ratings[a][0], sigma=ratings[a][1])] for a in seating]
        new = None if cooperative else model.rate(teams, ranks=_ranks(winners, r["scores"]))
        for a in set(seating) if new is not None else ():
            seats = [s for s, x in enumerate(seating) if x == a]
            ratings[a] = (
                float(np.mean([new[s][0].mu for s in seats])),
                float(np.mean([new[s][0].sigma for s in seats])),
            )

    games = len(records)
    agent_rows = []
    for i, ag in enumerate(agents):
        m = int(seatings[i])
        lo, hi = wilson_interval(int(won_in[i]), int(played_in[i])) if cooperative else wilson_interval(int(wins[i]), m)
        mu, sigma = ratings[i]
        agent_rows.append(
            {
                "name": ag.name,
                "spec": ag.spec,
                "weights": spec_weights(ag.spec, setup.env_id),  # which network a checkpoint path held
                "games": m,
                "wins": int(wins[i]),
                "win_rate": wins[i] / m if m else 0.0,
                "win_rate_ci95": [lo, hi],
                "win_share": float(share[i]),
                "win_share_rate": float(share[i] / m) if m else 0.0,
                "mean_score": float(score_sum[i] / m) if m else 0.0,
                "mean_return": float(return_sum[i] / m) if m else 0.0,
                "per_seat": [
                    {
                        "seat": s,
                        "games": int(seat_games[i, s]),
                        "wins": int(seat_wins[i, s]),
                        "win_rate": float(seat_wins[i, s] / seat_games[i, s]) if seat_games[i, s] else None,
                    }
                    for s in range(n)
                ],
                "rating": None if cooperative else {"mu": mu, "sigma": sigma, "ordinal": mu - 3.0 * sigma},
            }
        )

    def table_row(key: str, index: int, count: int, won: int, extra: dict) -> dict:
        lo, hi = wilson_interval(won, count)
        return {key: index, "games": count, "wins": won, "win_rate": won / count, "win_rate_ci95": [lo, hi], **extra}

    team = None
    if cooperative:
        lo, hi = wilson_interval(team_wins, games)
        team = {
            "lineup": [agents[a].name for a in lineups(len(agents), n)[0]],
            "games": games,
            "wins": team_wins,
            "win_rate": team_wins / games,
            "win_rate_ci95": [lo, hi],
            "mean_score": team_score / games,
            "mean_decisions": decisions / games,
        }
    return {
        "env_id": setup.env_id,
        "kind": "cooperative" if cooperative else "competitive",
        "num_players": n,
        "env_options": setup.env_options,
        "seed": setup.seed,
        "games_requested": setup.games_requested,
        "games": games,
        "cycle_length": cyc,
        "schedule": (
            f"{games} games: {games // cyc} seat-balanced cycle(s) of {cyc} games"
            + (
                f" (requested {setup.games_requested}, rounded up to a multiple of {cyc})"
                if games != setup.games_requested
                else ""
            )
        ),
        "lineups": [[agents[a].name for a in lineup] for lineup in lineups(len(agents), n)],
        "agents": agent_rows,
        "seats": [
            table_row("seat", s, games, int(table_seat_wins[s]), {"win_share": float(table_seat_share[s])})
            for s in range(n)
        ],
        "turn_positions": [table_row("position", p, games, int(position_wins[p]), {}) for p in range(n)],
        "team": team,
        "reasons": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        "truncated_games": truncated,
        "shared_wins": shared,
        "decisions": decisions,
        "elapsed_seconds": elapsed,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "game_records": list(records),
    }


def evaluate(
    env_id: str,
    num_players: int,
    agent_specs: Sequence[Any],
    games: int,
    seed: int = 0,
    env_options: dict[str, Any] | None = None,
    progress: bool = False,
    out_dir: str | os.PathLike | None = None,
    deterministic: bool = True,
    workers: int = 1,
) -> dict[str, Any]:
    """Play a seat-balanced tournament and return the results dict (see the module doc).

    ``agent_specs``: spec strings (``random``, ``heuristic``, a checkpoint path), loaded policy
    objects (named by their ``name`` attribute) or ``(name, spec_or_policy)`` pairs; the first is
    the focus agent. ``games`` is rounded up to whole seat-balanced cycles. ``workers`` plays blocks
    of the schedule in that many processes (every agent must then be a spec); the results are the
    same for any number of workers. With ``out_dir`` the results are also written there
    (:func:`write_outputs`). Bad inputs raise ValueError.
    """
    setup = prepare(env_id, num_players, agent_specs, games, seed, env_options, deterministic)
    results = run(setup, progress=progress, workers=workers)
    if out_dir is not None:
        write_outputs(results, out_dir)
    return results


# --------------------------------------------------------------------------------------------
# Outputs
# --------------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _reasons_line(results: dict[str, Any]) -> str:
    return "Endings: " + "; ".join(f"{why}: {count}" for why, count in results["reasons"].items()) + "."


def _markdown_cooperative(results: dict[str, Any], opts: str) -> str:
    n, team = results["num_players"], results["team"]
    lo, hi = team["win_rate_ci95"]
    lines = [
        f"## {results['env_id']}, {n} players, team: {' / '.join(team['lineup'])}",
        "",
        f"{results['schedule']}; seed {results['seed']}; options: {opts}.",
        _reasons_line(results),
        "",
        "| Team (seat order before rotation) | Games | Team wins | Win rate | 95% CI | Mean score | Mean decisions |",
        "|---|---:|---:|---:|---|---:|---:|",
        f"| {' / '.join(team['lineup'])} | {team['games']} | {team['wins']} | {_pct(team['win_rate'])} | "
        f"{_pct(lo)} - {_pct(hi)} | {team['mean_score']:.2f} | {team['mean_decisions']:.1f} |",
    ]
    return "\n".join(lines) + "\n"


def markdown(results: dict[str, Any]) -> str:
    """The results as Markdown: a header, the agents table, the seat and turn-position tables
    (cooperative games: the team's win rate, score, length and endings)."""
    n = results["num_players"]
    opts = ", ".join(f"{k}={v!r}" for k, v in results["env_options"].items()) or "defaults"
    if results.get("kind") == "cooperative":
        return _markdown_cooperative(results, opts)
    lines = [
        f"## {results['env_id']}, {n} players: {', '.join(a['name'] for a in results['agents'])}",
        "",
        f"{results['schedule']}; seed {results['seed']}; options: {opts}.",
        f"Lineups (rotated through every seat): {'; '.join(' / '.join(x) for x in results['lineups'])}.",
        f"Shared wins: {results['shared_wins']}; truncated games: {results['truncated_games']}.",
        _reasons_line(results),
        "",
        "| Agent | Spec | Games | Wins | Win rate | 95% CI | Win share | Mean score | Mean return | "
        + " | ".join(f"Seat {s}" for s in range(n))
        + " | mu | sigma | ordinal |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|" + "---:|" * n + "---:|---:|---:|",
    ]
    for a in results["agents"]:
        lo, hi = a["win_rate_ci95"]
        seats = " | ".join(_pct(s["win_rate"]) for s in a["per_seat"])
        rt = a["rating"]
        lines.append(
            f"| {a['name']} | `{a['spec']}` | {a['games']} | {a['wins']} | {_pct(a['win_rate'])} | "
            f"{_pct(lo)} - {_pct(hi)} | {a['win_share']:.1f} | {a['mean_score']:.2f} | {a['mean_return']:+.3f} | "
            f"{seats} | {rt['mu']:.2f} | {rt['sigma']:.2f} | {rt['ordinal']:.2f} |"
        )
    lines += ["", "| Seat | Games | Wins (any agent) | Win rate | 95% CI |", "|---:|---:|---:|---:|---|"]
    for s in results["seats"]:
        lo, hi = s["win_rate_ci95"]
        lines.append(f"| {s['seat']} | {s['games']} | {s['wins']} | {_pct(s['win_rate'])} | {_pct(lo)} - {_pct(hi)} |")
    lines += [
        "",
        "| Turn position (0 = decides first) | Games | Wins | Win rate | 95% CI |",
        "|---:|---:|---:|---:|---|",
    ]
    for p in results["turn_positions"]:
        lo, hi = p["win_rate_ci95"]
        lines.append(
            f"| {p['position']} | {p['games']} | {p['wins']} | {_pct(p['win_rate'])} | {_pct(lo)} - {_pct(hi)} |"
        )
    return "\n".join(lines) + "\n"


def plot(results: dict[str, Any], path: str | os.PathLike) -> None:
    """PNG: win rate per agent with Wilson 95% error bars, and win rate per seat (atomic write)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = results["num_players"]
    agents = results["agents"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = [a["name"] for a in agents]
    rates = np.array([a["win_rate"] for a in agents])
    lo = np.array([a["win_rate_ci95"][0] for a in agents])
    hi = np.array([a["win_rate_ci95"][1] for a in agents])
    x = np.arange(len(agents))
    ax1.bar(x, rates, yerr=[rates - lo, hi - rates], capsize=5, color="tab:blue")
    ax1.axhline(1.0 / n, color="grey", linestyle="--", linewidth=1, label=f"1/{n}")
    ax1.set_xticks(x, names, rotation=20, ha="right")
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("win rate (Wilson 95% CI)")
    ax1.set_title("Win rate per agent")
    ax1.legend()

    groups = [(a["name"], [s["win_rate"] for s in a["per_seat"]]) for a in agents]
    groups.append(("all seats", [s["win_rate"] for s in results["seats"]]))
    width = 0.8 / len(groups)
    seats = np.arange(n)
    for k, (name, values) in enumerate(groups):
        ys = [np.nan if v is None else v for v in values]
        ax2.bar(seats - 0.4 + width * (k + 0.5), ys, width, label=name)
    ax2.axhline(1.0 / n, color="grey", linestyle="--", linewidth=1)
    ax2.set_xticks(seats, [f"seat {s}" for s in seats])
    ax2.set_ylim(0, 1)
    ax2.set_ylabel("win rate")
    ax2.set_title("Win rate per seat")
    ax2.legend(fontsize="small")
    fig.suptitle(f"{results['env_id']}, {n} players, {results['games']} games")
    fig.tight_layout()
    try:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100)
        atomic_write_bytes(path, buffer.getvalue())
    finally:
        plt.close(fig)


def write_outputs(results: dict[str, Any], out_dir: str | os.PathLike) -> dict[str, Path]:
    """Write results.json, results.md and results.png into ``out_dir`` (created), each atomically."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "results.json", "md": out / "results.md", "png": out / "results.png"}
    atomic_write_text(paths["json"], json.dumps(results, indent=1, default=float))
    atomic_write_text(paths["md"], markdown(results))
    plot(results, paths["png"])
    return paths


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m training.evaluate",
        description="Seat-balanced tournament between policies: win rates with Wilson intervals, "
        "seat advantage, openskill ratings; writes results.json, results.md and results.png.",
        epilog="The first --agents spec is the focus agent; with fewer specs than seats the others fill "
        "the remaining seats in order, cycling. Every agent sits in every seat equally often; --games "
        "is rounded up to a whole number of seat rotations.",
    )
    p.add_argument("env_id", help=f"one of {', '.join(envs.ENV_IDS)}")
    p.add_argument("--players", type=int, nargs="+", required=True, help="seats at the table (several: one run each)")
    p.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="policy specs: random, heuristic or a checkpoint path",
    )
    p.add_argument("--games", type=int, required=True, help="games to play (rounded up to whole rotations)")
    p.add_argument("--seed", type=int, default=0, help="evaluation seed (>= 0); game and policy seeds derive from it")
    p.add_argument("--out", default=None, help="output folder (default runs/eval/<env>__<time>/)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="env option, repeatable (e.g. artefacts=false)",
    )
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="also evaluate at each of these values of an env option, repeatable (e.g. difficulty=novice,heroic)",
    )
    p.add_argument(
        "--workers", type=int, default=1, help="processes (blocks of games side by side; same results for any count)"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def parse_variants(texts: Sequence[str]) -> list[dict[str, Any]]:
    """``["difficulty=novice,heroic", "x=1,2"]`` -> every combination as an options dict (``[{}]`` for none)."""
    combos: list[dict[str, Any]] = [{}]
    for text in texts:
        key, sep, values = text.partition("=")
        if not sep or not key.strip() or not values.strip():
            raise ValueError(f"variant {text!r} is not of the form key=value1,value2")
        parsed = [parse_option(f"{key}={v}")[1] for v in values.split(",")]
        combos = [{**c, key.strip(): v} for c in combos for v in parsed]
    return combos


def summary_markdown(all_results: Sequence[dict[str, Any]]) -> str:
    """One row per evaluation: table size, variant, the focus agent's (or the team's) win rate."""
    lines = [
        "| Players | Variant | Focus / team | Games | Win rate | 95% CI | Win share | Mean score |",
        "|---|---|---|---:|---:|---|---:|---:|",
    ]
    for r in all_results:
        variant = ", ".join(f"{k}={v}" for k, v in r.get("variant", {}).items()) or "-"
        if r["kind"] == "cooperative":
            row, who, share = r["team"], " / ".join(r["team"]["lineup"]), "-"
        else:
            row, who = r["agents"][0], r["agents"][0]["name"]
            share = f"{100 * row['win_share_rate']:.1f}%"
        lo, hi = row["win_rate_ci95"]
        lines.append(
            f"| {r['num_players']} | {variant} | {who} | {row['games']} | {_pct(row['win_rate'])} | "
            f"{_pct(lo)} - {_pct(hi)} | {share} | {row['mean_score']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be >= 1, got {args.workers}")
    try:
        options = dict(parse_option(o) for o in args.option)
        variants = parse_variants(args.variant)
        setups = [
            (n, variant, prepare(args.env_id, n, args.agents, args.games, args.seed, {**options, **variant}))
            for n in args.players
            for variant in variants
        ]
    except ValueError as e:
        parser.error(str(e))
    out = Path(args.out) if args.out else Path("runs/eval") / f"{args.env_id}__{time.strftime('%Y%m%d-%H%M%S')}"
    several = len(setups) > 1
    all_results = []
    for n, variant, setup in setups:
        results = run(setup, progress=not args.no_progress, workers=args.workers)
        results["variant"] = variant
        name = f"{n}p" + "".join(f"__{k}={v}" for k, v in variant.items())
        paths = write_outputs(results, out / name if several else out)
        print(markdown(results))
        print(f"wrote {paths['json']}, {paths['md']}, {paths['png']}\n")
        all_results.append(results)
    if several:
        table = summary_markdown(all_results)
        atomic_write_text(out / "summary.md", table)
        print(table)
        print(f"wrote {out / 'summary.md'}")
    return all_results


if __name__ == "__main__":
    main()
