"""Random legal play through the AEC API: decisions per CPU-second for every herozoo env.

Every registered env id (``envs.ENV_IDS``) at every player count its Game supports is played with
uniformly random legal actions through the full ``env()`` AEC API, next to PettingZoo's
``connect_four_v3.env()`` and ``texas_holdem_v4.env()`` measured in the same run. The loop is the
same for every env::

    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        env.step(None if termination or truncation else pick(obs["action_mask"]))

Each herozoo env also gets a second row played on its rules ``State`` directly
(``state.observe(current_player)``, ``state.legal_mask()``, ``state.apply(a)``), which shows what
the AEC driver and the PettingZoo loop add per decision.

Method (see shared/notes/performance.md):

- time is the process's own CPU time (``time.process_time``), which stays stable on a shared,
  noisy machine where wall-clock rates vary a lot; only rates measured in the same run compare;
- each repeat runs every env in turn (interleaved, so a slow spell hits all of them) for whole
  games until ``--seconds`` of CPU have passed; the table shows the median over ``--repeats``;
  the ratio to connect_four_v3 is taken within each repeat, then the median;
- a decision is a ``step`` with an action (the dead-agent ``step(None)`` calls after the end are
  not counted, but their cost is); the rate covers the whole game loop: resets, ``last()``,
  ``step``, the end-of-game dead steps and the random pick;
- the pick is ``mask.nonzero()[0]`` (``np.flatnonzero`` for a 1-D mask) and one uniform float
  drawn in advance from a seeded numpy Generator (``legal[int(u * len(legal))]``), the same for
  every env; its cost is printed;
- each env is built and reset once with a seed outside the timed region (PettingZoo's RLCard envs
  rebuild the whole RLCard env on a seeded reset), then warmed up; timed resets are unseeded, as
  in a training loop. Reset time is the CPU time of ``env.reset()`` (``game.new_state()`` on the
  State rows), minus the cost of the two clock reads around it.

- the ratio to connect_four_v3 that the README quotes comes from paired slices (``--pairs``, on by
  default): for the smallest and largest table of every game, ``--pairs`` times ``--slice``
  CPU-seconds of the game then the same of connect_four_v3 (the order alternates pair by pair),
  the ratio of each pair, their median and their range. Contention slows the two sides of a
  pair alike only when they run seconds apart, so short slices keep the ratio honest;
- the load average is read before and after: above 1 (other work on the machine) the run warns,
  since a loaded machine slows the peer more than our games and the ratios come out too high.

Usage (from the repository root)::

    python -m benchmarks.env_throughput --seconds 3 --repeats 3 [--json results.json]
    python -m benchmarks.env_throughput --seconds 1 --repeats 1 --pairs 7 --slice 1.5   # the README's ratios
    python -m benchmarks.env_throughput --only last_heroes_v0 --players 4
    python -m benchmarks.env_throughput --profile 20000 --only last_heroes_v0   # hotspots, no table
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import envs
from training.atomic import atomic_write_text

BASELINE = "connect_four_v3"
PETTINGZOO_ENVS = {
    "connect_four_v3": "pettingzoo.classic.connect_four_v3",
    "texas_holdem_v4": "pettingzoo.classic.texas_holdem_v4",
}


# -- the random pick ----------------------------------------------------------------------------
class Picker:
    """A uniformly random legal action from an action mask, the same cheap way for every env.

    ``mask.nonzero()[0]`` (what ``np.flatnonzero`` does for the 1-D masks every env here returns,
    without its ~1 µs of Python wrapping), then one uniform float from a buffer drawn in advance
    from a seeded numpy Generator: ``legal[int(u * len(legal))]``. Indexing a Python float list
    costs far less than a ``Generator.integers`` call per decision.
    """

    __slots__ = ("_rng", "_block", "_buf", "_i")

    def __init__(self, seed: int, block: int = 1 << 16):
        self._rng = np.random.default_rng(seed)
        self._block = block
        self._buf: list[float] = []
        self._i = 0

    def __call__(self, mask: np.ndarray) -> int:
        legal = mask.nonzero()[0]
        i = self._i
        if i >= len(self._buf):
            self._buf = self._rng.random(self._block).tolist()
            i = 0
        self._i = i + 1
        n = len(legal)
        if not n:
            raise RuntimeError("the action mask of a live agent allows no action")
        return int(legal[int(self._buf[i] * n)])


# -- what is measured ---------------------------------------------------------------------------
@dataclass
class Case:
    key: str  # unique, e.g. "last_heroes_v0/n=3/env"
    env_id: str
    players: int
    api: str  # "env" (AEC API) or "state" (rules State directly)
    source: str  # "herozoo" or "pettingzoo"
    make: Callable[[], Any]  # builds the env (or the Game, for "state")
    engine: str | None = None  # the Game's rules engine, for games that offer a choice

    @property
    def label(self) -> str:
        if self.source == "pettingzoo":
            return f"{self.env_id} ({self.source})"
        return f"{self.env_id} [{self.engine}]" if self.engine else self.env_id


def _pettingzoo_module(env_id: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return importlib.import_module(PETTINGZOO_ENVS[env_id])


def build_cases(only: list[str] | None, players: list[int] | None) -> list[Case]:
    known = list(envs.ENV_IDS) + list(PETTINGZOO_ENVS)
    if only:
        unknown = sorted(set(only) - set(known))
        if unknown:
            raise SystemExit(f"--only: unknown env id(s) {unknown}; known ids are {known}")
    wanted = set(only) if only else set(known)
    wanted.add(BASELINE)  # the ratio's baseline is always measured
    cases: list[Case] = []
    for env_id in PETTINGZOO_ENVS:
        if env_id in wanted:
            module = _pettingzoo_module(env_id)
            n = len(module.env().possible_agents)
            cases.append(Case(f"{env_id}/n={n}/env", env_id, n, "env", "pettingzoo", module.env))
    for env_id in envs.ENV_IDS:
        if env_id not in wanted:
            continue
        game_cls = envs.game_class(env_id)
        # every rules engine of a game that has more than one (its "engine" option), else just one
        engine_option = next((o for o in game_cls.option_spec if o.name == "engine"), None)
        engines = engine_option.choices if engine_option is not None else (None,)
        for n in range(game_cls.min_players, game_cls.max_players + 1):
            if players and n not in players:
                continue
            for engine in engines:
                opts = {"num_players": n} if engine is None else {"num_players": n, "engine": engine}
                make_env = lambda e=env_id, o=opts: envs.make(e, **o)  # noqa: E731
                make_game = lambda g=game_cls, o=opts: g(**o)  # noqa: E731
                tag = f"/{engine}" if engine else ""
                cases.append(Case(f"{env_id}/n={n}{tag}/env", env_id, n, "env", "herozoo", make_env, engine))
                cases.append(Case(f"{env_id}/n={n}{tag}/state", env_id, n, "state", "herozoo", make_game, engine))
    return cases


# -- the two loops ------------------------------------------------------------------------------
def clock_overhead(samples: int = 20000) -> float:
    """CPU seconds that one ``time.process_time()`` call costs (median of 5 batches)."""
    pt = time.process_time
    costs = []
    for _ in range(5):
        t0 = pt()
        for _ in range(samples):
            pt()
        costs.append((pt() - t0) / samples)
    return statistics.median(costs)


def play_env(env, pick: Picker, seconds: float, max_decisions: int | None = None) -> dict[str, float]:
    """Whole games through the AEC API until ``seconds`` of CPU (or ``max_decisions``) have passed."""
    pt = time.process_time
    decisions = games = 0
    reset_cpu = 0.0
    start = pt()
    deadline = start + seconds
    while True:
        t0 = pt()
        env.reset()
        reset_cpu += pt() - t0
        for _agent in env.agent_iter():
            _obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
            else:
                env.step(pick(_obs["action_mask"]))
                decisions += 1
        games += 1
        if pt() >= deadline or (max_decisions is not None and decisions >= max_decisions):
            break
    return {"cpu_s": pt() - start, "decisions": decisions, "games": games, "reset_cpu_s": reset_cpu}


def play_state(game, pick: Picker, seconds: float, max_decisions: int | None = None) -> dict[str, float]:
    """The same random play on the rules State: observe the current player, mask, apply."""
    pt = time.process_time
    new_state = game.new_state
    decisions = games = 0
    reset_cpu = 0.0
    start = pt()
    deadline = start + seconds
    while True:
        t0 = pt()
        state = new_state(None)
        reset_cpu += pt() - t0
        while not (state.is_terminal() or state.is_truncated()):
            state.observe(state.current_player)
            state.apply(pick(state.legal_mask()))
            decisions += 1
        games += 1
        if pt() >= deadline or (max_decisions is not None and decisions >= max_decisions):
            break
    return {"cpu_s": pt() - start, "decisions": decisions, "games": games, "reset_cpu_s": reset_cpu}


class Runner:
    """One built env (or Game) per case, seeded and warmed up once, measured repeatedly."""

    def __init__(self, case: Case, seed: int, warmup_s: float):
        self.case = case
        self.obj = case.make()
        self.pick = Picker(seed)
        if case.api == "env":
            self.obj.reset(seed=seed)  # the one seeded reset, outside the timed region
        self.run(warmup_s)

    def run(self, seconds: float, max_decisions: int | None = None) -> dict[str, float]:
        play = play_env if self.case.api == "env" else play_state
        return play(self.obj, self.pick, seconds, max_decisions)


def measure(runner: Runner, seconds: float, clock_cost: float) -> dict[str, float]:
    gc.collect()
    wall0 = time.perf_counter()
    r = runner.run(seconds)
    wall = time.perf_counter() - wall0
    resets = r["games"]
    reset_s = max(r["reset_cpu_s"] / resets - 2 * clock_cost, 0.0)
    return {
        "decisions": r["decisions"],
        "games": r["games"],
        "cpu_s": r["cpu_s"],
        "wall_s": wall,
        "decisions_per_cpu_s": r["decisions"] / r["cpu_s"],
        "us_per_decision": 1e6 * r["cpu_s"] / r["decisions"],
        "decisions_per_game": r["decisions"] / r["games"],
        "reset_us": 1e6 * reset_s,
        "cpu_share": r["cpu_s"] / wall if wall > 0 else float("nan"),
    }


def picker_cost(seed: int, calls: int = 200_000) -> dict[str, float]:
    """CPU µs of one pick on a 7-action mask (all legal) and a 132-action mask (12 legal)."""
    out = {}
    small = np.ones(7, np.int8)
    large = np.zeros(132, np.int8)
    large[::11] = 1
    for name, mask in (("mask_7_of_7", small), ("mask_12_of_132", large)):
        pick = Picker(seed)
        t0 = time.process_time()
        for _ in range(calls):
            pick(mask)
        out[name] = 1e6 * (time.process_time() - t0) / calls
    return out


def paired_ratios(
    cases: list[Case], runners: dict[str, Runner], pairs: int, slice_s: float, clock_cost: float
) -> list[dict[str, Any]]:
    """Each game's env() rate over connect_four_v3's, from ``pairs`` back-to-back slices of each.

    Only the smallest and largest table of each herozoo game (every engine). A pair measures
    ``slice_s`` CPU-seconds of the game and of the peer, game first in even pairs and peer first
    in odd ones, so that neither side always meets the machine in the same state."""
    base = runners[next(c.key for c in cases if c.env_id == BASELINE)]
    sizes: dict[str, set[int]] = {}
    for c in cases:
        if c.source == "herozoo" and c.api == "env":
            sizes.setdefault(c.env_id, set()).add(c.players)
    out = []
    for c in cases:
        if c.source != "herozoo" or c.api != "env" or c.players not in (min(sizes[c.env_id]), max(sizes[c.env_id])):
            continue
        ratios, peer_us = [], []
        for i in range(pairs):
            if i % 2 == 0:
                game, peer = measure(runners[c.key], slice_s, clock_cost), measure(base, slice_s, clock_cost)
            else:
                peer, game = measure(base, slice_s, clock_cost), measure(runners[c.key], slice_s, clock_cost)
            ratios.append(game["decisions_per_cpu_s"] / peer["decisions_per_cpu_s"])
            peer_us.append(peer["us_per_decision"])
        med = statistics.median(ratios)
        out.append(
            {
                "key": c.key,
                "env_id": c.env_id,
                "players": c.players,
                "engine": c.engine,
                "pairs": pairs,
                "slice_s": slice_s,
                "ratio_median": med,
                "ratio_min": min(ratios),
                "ratio_max": max(ratios),
                "spread": (max(ratios) - min(ratios)) / med,
                "peer_us_median": statistics.median(peer_us),
                "ratios": ratios,
            }
        )
        progress(f"pairs {c.key}: {med:.2f}x connect_four_v3 ({min(ratios):.2f}-{max(ratios):.2f})")
    return out


def paired_table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| env | players | × connect_four_v3 (median of pairs) | range over pairs | connect_four_v3 µs / decision |",
        "|---|---:|---:|---|---:|",
    ]
    for r in rows:
        label = f"{r['env_id']} [{r['engine']}]" if r.get("engine") else r["env_id"]
        out.append(
            f"| {label} | {r['players']} | {r['ratio_median']:.2f} | {r['ratio_min']:.2f} - {r['ratio_max']:.2f} "
            f"| {r['peer_us_median']:.1f} |"
        )
    return "\n".join(out)


def load_warning(load: list[float] | None, when: str) -> str | None:
    """A warning when the 1-minute load average says other work shares the machine."""
    if load is None or load[0] <= 1.0:
        return None
    return (
        f"WARNING: load average {load[0]:.2f} {when} (above 1): other work shares the CPU, which slows "
        "connect_four_v3 more than these games; the ratios are not a quiet machine's. Measure again when "
        "`uptime` shows about 1 or less."
    )


# -- report ---------------------------------------------------------------------------------------
def summarize(cases: list[Case], runs: dict[str, list[dict[str, float]]]) -> list[dict[str, Any]]:
    base_key = next(c.key for c in cases if c.env_id == BASELINE)
    base = runs[base_key]
    rows = []
    for c in cases:
        reps = runs[c.key]
        rates = [r["decisions_per_cpu_s"] for r in reps]
        med = statistics.median(rates)
        rows.append(
            {
                "key": c.key,
                "env_id": c.env_id,
                "source": c.source,
                "players": c.players,
                "api": c.api,
                "engine": c.engine,
                "decisions_per_cpu_s": med,
                "us_per_decision": statistics.median(r["us_per_decision"] for r in reps),
                "decisions_per_game": statistics.median(r["decisions_per_game"] for r in reps),
                "reset_us": statistics.median(r["reset_us"] for r in reps),
                "ratio_to_connect_four_v3": statistics.median(
                    r["decisions_per_cpu_s"] / b["decisions_per_cpu_s"] for r, b in zip(reps, base)
                ),
                "spread": (max(rates) - min(rates)) / med,
                "decisions_measured": sum(r["decisions"] for r in reps),
                "games_measured": sum(r["games"] for r in reps),
                "repeats": reps,
            }
        )
    return rows


def _n(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def markdown_table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| env | players | API | decisions / CPU-s | µs CPU / decision | decisions / game | reset µs CPU "
        "| × connect_four_v3 | spread |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        api = "env() AEC" if r["api"] == "env" else "State (no driver)"
        label = f"{r['env_id']} (PettingZoo)" if r["source"] == "pettingzoo" else r["env_id"]
        if r.get("engine"):
            label += f" [{r['engine']}]"
        us = r["us_per_decision"]
        out.append(
            f"| {label} | {r['players']} | {api} | {_n(r['decisions_per_cpu_s'])} | {_n(us, 1 if us < 100 else 0)} "
            f"| {_n(r['decisions_per_game'], 1)} | {_n(r['reset_us'], 1 if r['reset_us'] < 100 else 0)} "
            f"| {r['ratio_to_connect_four_v3']:.2f} | {100 * r['spread']:.0f}% |"
        )
    return "\n".join(out)


def driver_overhead_lines(rows: list[dict[str, Any]]) -> list[str]:
    by = {(r["env_id"], r["players"], r.get("engine"), r["api"]): r for r in rows}
    lines = []
    for (env_id, n, engine, api), r in by.items():
        if api != "env" or (env_id, n, engine, "state") not in by:
            continue
        s = by[(env_id, n, engine, "state")]
        extra = r["us_per_decision"] - s["us_per_decision"]
        name = f"{env_id} [{engine}]" if engine else env_id
        lines.append(
            f"- {name}, {n} players: env() {r['us_per_decision']:.0f} µs vs State {s['us_per_decision']:.0f} µs "
            f"per decision: the AEC driver and loop add {extra:.0f} µs ({100 * extra / r['us_per_decision']:.0f}% "
            f"of the env() cost)"
        )
    return lines


def write_json_atomic(path: str, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, default=_json_default) + "\n")


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    raise TypeError(f"{type(obj).__name__} is not JSON serializable")


def machine_info() -> dict[str, Any]:
    import pettingzoo

    info = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pettingzoo": pettingzoo.__version__,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
    }
    try:
        import rlcard

        info["rlcard"] = getattr(rlcard, "__version__", "?")
    except ImportError:
        pass
    return info


def source_info(folders: tuple[str, ...] = ("envs",)) -> dict[str, Any]:
    """The measured code: git HEAD and the files changed since under ``folders`` (the tree may be mid-edit)."""
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(envs.__file__)))
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--", *folders], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return {}
    return {"git_head": head, "changed": [line[3:] for line in changed if line.strip()]}


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


# -- profile mode -------------------------------------------------------------------------------
def profile(cases: list[Case], decisions: int, seed: int, profiler: str, top: int, only: list[str] | None) -> None:
    """Profile ``decisions`` decisions of env() random play per case and print the hotspots.

    PettingZoo envs are profiled only when ``--only`` names them."""
    for case in cases:
        if case.api != "env" or (case.source == "pettingzoo" and case.env_id not in (only or ())):
            continue
        runner = Runner(case, seed, warmup_s=0.2)
        print(f"\n## {case.label}, {case.players} players: {profiler}, {decisions:,} decisions via env()\n")
        if profiler == "pyinstrument":
            from pyinstrument import Profiler

            prof = Profiler(interval=0.0002)
            prof.start()
            r = runner.run(float("inf"), decisions)
            prof.stop()
            print(
                f"{r['decisions']:,} decisions in {r['games']} games, {1e6 * r['cpu_s'] / r['decisions']:.0f} µs "
                "CPU per decision under the profiler\n"
            )
            print(prof.output_text(unicode=True, color=False, show_all=False))
            continue
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        r = runner.run(float("inf"), decisions)
        prof.disable()
        stats = pstats.Stats(prof)
        total = stats.total_tt
        print(
            f"{r['decisions']:,} decisions in {r['games']} games; {total:.2f} s profiled "
            f"({1e6 * total / r['decisions']:.0f} µs per decision under cProfile)\n"
        )
        entries = []
        for (filename, line, func), (_cc, nc, tt, ct, _callers) in stats.stats.items():
            where = _short_path(filename)
            name = f"{where}:{line}({func})" if line else func
            entries.append((tt, ct, nc, name))
        entries.sort(reverse=True)
        print("| function | calls / decision | own time | with callees |")
        print("|---|---:|---:|---:|")
        for tt, ct, nc, name in entries[:top]:
            print(f"| `{name}` | {nc / r['decisions']:.2f} | {100 * tt / total:.1f}% | {100 * ct / total:.1f}% |")


def _short_path(filename: str) -> str:
    for marker in ("site-packages/", "/work/main/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return os.path.basename(filename) if filename.startswith("/") else filename


# -- main ---------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per env per repeat (default 3)")
    p.add_argument("--repeats", type=int, default=3, help="repeats; the table shows medians (default 3)")
    p.add_argument("--json", metavar="PATH", help="also write every result as JSON (atomically)")
    p.add_argument(
        "--only",
        metavar="ENV_ID",
        action="append",
        help="measure only this env id (repeatable); connect_four_v3 is always kept as the baseline",
    )
    p.add_argument("--players", type=int, action="append", help="only this player count for herozoo envs (repeatable)")
    p.add_argument(
        "--pairs",
        type=int,
        default=7,
        help="paired slices of each game's smallest and largest table against connect_four_v3 (0: none)",
    )
    p.add_argument("--slice", type=float, default=1.5, help="CPU seconds of each side of a pair (default 1.5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random picks and of the first reset")
    p.add_argument("--warmup", type=float, default=0.3, help="untimed CPU seconds of play per env before measuring")
    p.add_argument(
        "--profile",
        type=int,
        metavar="DECISIONS",
        help="instead of the table: profile this many env() decisions per herozoo env/player count",
    )
    p.add_argument("--profiler", choices=("cprofile", "pyinstrument"), default="cprofile")
    p.add_argument("--top", type=int, default=25, help="rows of the cProfile hotspot table")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        p.error("--seconds must be > 0 and --repeats >= 1")
    if args.pairs < 0 or args.slice <= 0:
        p.error("--pairs must be >= 0 and --slice > 0")
    return args


SETTINGS = ("seconds", "repeats", "only", "players", "seed", "warmup", "pairs", "slice")


def progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    src = source_info()  # before the games' modules are imported
    cases = build_cases(args.only, args.players)
    if args.profile:
        profile(cases, args.profile, args.seed, args.profiler, args.top, args.only)
        return 0

    load_start = _loadavg()
    warnings_seen = [w for w in [load_warning(load_start, "at the start")] if w]
    for w in warnings_seen:
        progress(w)
    clock_cost = clock_overhead()
    picks = picker_cost(args.seed)
    progress(f"building and warming up {len(cases)} cases ...")
    runners = {c.key: Runner(c, args.seed, args.warmup) for c in cases}
    runs: dict[str, list[dict[str, float]]] = {c.key: [] for c in cases}
    wall0 = time.perf_counter()
    for rep in range(args.repeats):
        for c in cases:  # interleaved: every env once per repeat
            runs[c.key].append(measure(runners[c.key], args.seconds, clock_cost))
            r = runs[c.key][-1]
            progress(
                f"repeat {rep + 1}/{args.repeats} {c.key}: {r['decisions_per_cpu_s']:,.0f} decisions/CPU-s "
                f"(CPU/wall {r['cpu_share']:.2f})"
            )
    pairs = paired_ratios(cases, runners, args.pairs, args.slice, clock_cost) if args.pairs else []
    wall = time.perf_counter() - wall0
    rows = summarize(cases, runs)
    load_end = _loadavg()
    end_warning = load_warning(load_end, "at the end")
    if end_warning:
        warnings_seen.append(end_warning)
    shares = [r["cpu_share"] for reps in runs.values() for r in reps]

    info = machine_info()
    print(f"# Env throughput: random legal play, {args.repeats} repeats x {args.seconds:g} CPU-s per env (medians)\n")
    for w in warnings_seen:
        print(f"**{w}**\n")
    print(markdown_table(rows))
    print()
    if pairs:
        print(
            f"Ratio to connect_four_v3 from {args.pairs} paired slices of {args.slice:g} CPU-s each "
            "(the game then the peer, order alternating), smallest and largest table:\n"
        )
        print(paired_table(pairs))
        print()
    overhead = driver_overhead_lines(rows)
    if overhead:
        print("Driver overhead (env() AEC loop vs the rules State played directly):\n")
        print("\n".join(overhead))
        print()
    print(
        f"Notes: rates count decisions (steps with an action) per CPU-second of this process over whole games "
        f"(resets, last(), step, dead steps, the random pick included); spread = (max - min) / median of the "
        f"rate across repeats. Random pick: {picks['mask_7_of_7']:.2f} µs (7 of 7 legal), "
        f"{picks['mask_12_of_132']:.2f} µs (12 of 132). Clock read: {1e6 * clock_cost:.2f} µs. "
        f"Process CPU / wall per measurement: {min(shares):.2f}-{max(shares):.2f} "
        f"(below 1 = other processes took the CPU; CPU-time rates stay comparable). "
        f"Load average {load_start} at start, {load_end} at end; {wall:.0f} s wall. "
        f"Python {info['python']}, numpy {info['numpy']}, PettingZoo {info['pettingzoo']}, "
        f"{info['cpu_count']} CPUs."
    )
    if src:
        dirty = ", ".join(src["changed"]) or "none"
        print(f"\nMeasured code: git {src['git_head']}; files under envs/ changed since: {dirty}.")
    if args.json:
        write_json_atomic(
            args.json,
            {
                "benchmark": "env_throughput",
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "settings": {k: getattr(args, k) for k in SETTINGS},
                "machine": info,
                "source": src,
                "load_average": {"start": load_start, "end": load_end},
                "clock_read_us": 1e6 * clock_cost,
                "pick_us": picks,
                "results": rows,
                "paired_ratios": pairs,
                "warnings": warnings_seen,
            },
        )
        progress(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
