"""MaskablePPO training throughput: frames per second with the real envs vs a zero-cost env.

Three settings are trained in the same run, with the PPO settings of ``configs/quickstart.yaml``
(read with ``training.config.load_config``; the model is built by ``training.train.build_model``,
so it is the network, optimiser and logging of a real training run):

| setting | env | opponents |
|---|---|---|
| ``lh2_random`` | Last Heroes, 2 players (``SingleAgentEnv``) | random |
| ``lh4_checkpoint`` | Last Heroes, 4 players (``SingleAgentEnv``) | a checkpoint (numpy inference) |
| ``zero_cost`` | :class:`ZeroCostEnv`: same spaces, fixed observation and mask, no game logic | none |

The checkpoint opponent is a freshly initialised MaskablePPO with the config's ``net_arch`` /
``activation``, written with ``save_checkpoint`` into a temporary folder and loaded as a
``CheckpointPolicy`` (sampling its moves unless ``selfplay.deterministic_opponents``), as the
self-play pool does. The zero-cost env is the ceiling: what PPO itself (rollout forward passes,
buffer, GAE, the updates, SB3's VecEnv and logging) costs per frame.

The checkpoint opponent plays as training plays it, through its seat actors (one compiled call
per decision, first layer updated from the changed observation entries). ``--compare act`` adds a
setting, interleaved with the others, where it plays through the numpy forward pass of ``act``
instead.

Reported per setting (medians over ``--repeats``; settings interleaved within each repeat):

- frames/s of wall-clock time (noisy on a shared machine);
- frames per CPU-second: CPU of this process, plus, with ``--vec-env subproc``, the CPU of the
  env worker processes. Those workers are started through a forkserver (as in training.train), so
  they are not our children and ``resource.getrusage(RUSAGE_CHILDREN)`` (which only counts reaped
  children anyway) never sees them: their CPU is read from ``/proc/<pid>/stat`` while they run;
- the ratio to the zero-cost env (taken within each repeat) and the env's share of training time,
  ``1 - ratio``: with t the CPU per frame, (t_env_setting - t_zero) / t_env_setting;
- the target: the env (opponents included) at most 15% of training time, i.e. >= 0.85x the
  zero-cost frames per CPU-second;
- the CPU per frame of the rollout phase and of the update phase (a callback reads the clocks at
  their boundaries), and the CPU spent inside the env's ``step`` / ``reset`` / ``action_masks``
  (a thin timing wrapper around every env, zero-cost one included, in whichever process it runs).

A breakdown for the Last Heroes settings follows: the same env played with random legal learner
moves for ``--timesteps`` frames outside PPO (as a plain rollout, then again with timers around the
rules-state calls and the opponent policy) showing how the env's time per learner frame splits
into opponent inference, observations (the learner's, and the ones made for opponent policies),
``apply``, ``legal_mask`` and the rest (SingleAgentEnv glue, rewards, terminal checks, info).

Usage (from the repository root)::

    python -m benchmarks.train_throughput --timesteps 8192 --repeats 3 [--json results.json]
    python -m benchmarks.train_throughput --n-envs 4 --vec-env subproc
    python -m benchmarks.train_throughput --compare act                  # and the numpy forward pass
    python -m benchmarks.train_throughput --profile 5000   # cProfile of the 4-player env rollout
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy / torch, as training.train does

import argparse
import gc
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from benchmarks.env_throughput import Picker, _n, clock_overhead, source_info, write_json_atomic

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = ROOT / "configs" / "quickstart.yaml"
BASELINE = "zero_cost"
TARGET_RATIO = 0.85
LABELS = {
    "lh2_random": "Last Heroes 2p vs random",
    "lh4_checkpoint": "Last Heroes 4p vs 3 checkpoint opponents",
    "lh4_checkpoint_act": "Last Heroes 4p vs 3 checkpoint opponents (numpy act)",
    "zero_cost": "zero-cost env (ceiling)",
}
PLAYERS = {"lh2_random": 2, "lh4_checkpoint": 4, "lh4_checkpoint_act": 4}
COMPARED_PATHS = ("act",)  # --compare: other ways of asking the checkpoint opponent


def settings_for(compare: list[str] | tuple[str, ...] = ()) -> tuple[str, ...]:
    """The settings of a run: the default three, with a 4-player setting per compared path."""
    return ("lh2_random", "lh4_checkpoint", *(f"lh4_checkpoint_{path}" for path in compare), BASELINE)


SETTINGS = settings_for()


# -- the envs ---------------------------------------------------------------------------------
class ZeroCostEnv(gym.Env):
    """The spaces of the real env, a fixed observation and mask, fixed-length episodes, no logic.

    Episodes last ``episode_length`` learner frames and end with a reward of +1 or -1 (alternately),
    like Last Heroes' win/loss reward; every other reward is 0 and the info dicts are empty.
    """

    metadata = {"render_modes": []}

    def __init__(self, observation: np.ndarray, mask: np.ndarray, episode_length: int, num_actions: int):
        obs = np.asarray(observation, np.float32).reshape(-1)
        self.observation_space = gym.spaces.Box(-1.0, 1.0, obs.shape, np.float32)
        self.action_space = gym.spaces.Discrete(num_actions)
        self._obs = obs
        self._mask = np.asarray(mask, bool).reshape(-1)
        self.episode_length = int(episode_length)
        self._t = 0
        self._episodes = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._t = 0
        return self._obs, {}

    def step(self, action: int):
        self._t += 1
        if self._t < self.episode_length:
            return self._obs, 0.0, False, False, {}
        self._episodes += 1
        return self._obs, (1.0 if self._episodes % 2 else -1.0), True, False, {}

    def action_masks(self) -> np.ndarray:
        return self._mask


class EnvTimer(gym.Wrapper):
    """CPU time (``time.process_time``) spent in the wrapped env's step, reset and action_masks."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.timer_cpu = 0.0
        self.timer_steps = 0
        self.timer_resets = 0

    def step(self, action):
        t0 = time.process_time()
        out = self.env.step(action)
        self.timer_cpu += time.process_time() - t0
        self.timer_steps += 1
        return out

    def reset(self, **kwargs):
        t0 = time.process_time()
        out = self.env.reset(**kwargs)
        self.timer_cpu += time.process_time() - t0
        self.timer_resets += 1
        return out

    def action_masks(self) -> np.ndarray:
        t0 = time.process_time()
        out = self.env.get_wrapper_attr("action_masks")()
        self.timer_cpu += time.process_time() - t0
        return out

    def timer_read(self) -> tuple[float, int, int]:
        return self.timer_cpu, self.timer_steps, self.timer_resets


@dataclass
class EnvSpec:
    """Everything an env worker needs to build one env of a setting (picklable)."""

    setting: str
    env_id: str
    env_options: dict[str, Any]
    seed: int
    checkpoint: str | None = None
    deterministic_opponents: bool = False
    zero_observation: np.ndarray | None = None
    zero_mask: np.ndarray | None = None
    zero_episode_length: int = 33
    num_actions: int = 0
    opponent_path: str = "seat_actor"

    def build(self, rank: int, timed: bool = True) -> gym.Env:
        """Env ``rank`` of the setting, with its own opponent sampler."""
        seed = self.seed * 1000 + rank  # as training.train's env factory
        if self.setting == BASELINE:
            env: gym.Env = ZeroCostEnv(
                self.zero_observation, self.zero_mask, self.zero_episode_length, self.num_actions
            )
            env.reset(seed=seed)
        else:
            from training.single_agent import SingleAgentEnv

            options = dict(self.env_options, num_players=PLAYERS[self.setting])
            env = SingleAgentEnv(self.env_id, options, opponents=self.opponents(seed), seed=seed)
        return EnvTimer(env) if timed else env

    def opponents(self, seed: int):
        """The opponent sampler of one env: random, or one checkpoint policy (seeded with ``seed``)."""
        from training.single_agent import FixedOpponents

        if self.checkpoint is None:
            from training.runtime.policies import RandomPolicy

            return FixedOpponents(RandomPolicy(seed))
        from training.runtime.inference import CheckpointPolicy

        policy = CheckpointPolicy(
            self.checkpoint, env_id=self.env_id, deterministic=self.deterministic_opponents, seed=seed
        )
        return FixedOpponents(OPPONENT_PATHS[self.opponent_path](policy))


class PlainAct:
    """A policy's ``act`` alone, without seat actors (``--opponent-path act``)."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name

    def act(self, observation, action_mask, state=None) -> int:
        return self.policy.act(observation, action_mask, state)


OPPONENT_PATHS = {"seat_actor": lambda policy: policy, "act": PlainAct}


class _Factory:
    """Picklable constructor of env ``rank`` of a setting (SubprocVecEnv sends it to a worker)."""

    def __init__(self, spec: EnvSpec, rank: int):
        self.spec, self.rank = spec, rank

    def __call__(self) -> gym.Env:
        return self.spec.build(self.rank)


def make_vec(spec: EnvSpec, n_envs: int, vec_env: str):
    """The setting's VecEnv (VecMonitor on top, as in training)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    factories = [_Factory(spec, i) for i in range(n_envs)]
    if vec_env == "subproc" and n_envs > 1:
        vec = SubprocVecEnv(factories, start_method="forkserver")  # as training.train.make_vec_env
    else:
        vec = DummyVecEnv(factories)
    return VecMonitor(vec)


# -- CPU clocks --------------------------------------------------------------------------------
_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_cpu(pid: int) -> float | None:
    """utime + stime of a live process, from /proc/<pid>/stat (Linux); None when unreadable."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    fields_after_name = data[data.rindex(b")") + 2 :].split()
    return (int(fields_after_name[11]) + int(fields_after_name[12])) / _CLK_TCK


def worker_pids(vec) -> list[int]:
    inner = getattr(vec, "venv", vec)
    return [p.pid for p in getattr(inner, "processes", [])]


def workers_cpu(pids: list[int]) -> float | None:
    """CPU seconds used so far by the env worker processes (0 for a DummyVecEnv)."""
    if not pids:
        return 0.0
    total = 0.0
    for pid in pids:
        c = _proc_cpu(pid)
        if c is None:
            try:
                import psutil  # type: ignore[import-not-found]

                t = psutil.Process(pid).cpu_times()
                c = t.user + t.system
            except Exception:
                return None
        total += c
    return total


def env_timer_read(vec) -> tuple[float, int, int]:
    """Summed (CPU s, steps, resets) of every env's EnvTimer, in whichever process it runs."""
    cpu = steps = resets = 0
    for c, s, r in vec.env_method("timer_read"):
        cpu += c
        steps += s
        resets += r
    return cpu, steps, resets


def _phase_callback():
    from stable_baselines3.common.callbacks import BaseCallback

    class PhaseClock(BaseCallback):
        """CPU (process + env workers) of the rollout phases and of what follows them (updates)."""

        def __init__(self, pids: list[int]):
            super().__init__()
            self.pids = pids
            self.rollout_cpu = 0.0
            self.marks: list[float] = []

        def _now(self) -> float:
            return time.process_time() + (workers_cpu(self.pids) or 0.0)

        def _on_rollout_start(self) -> None:
            self._t0 = self._now()

        def _on_rollout_end(self) -> None:
            self.rollout_cpu += self._now() - self._t0

        def _on_step(self) -> bool:
            return True

    return PhaseClock


# -- one setting ---------------------------------------------------------------------------------
@dataclass
class Case:
    setting: str
    spec: EnvSpec
    vec: Any = None
    model: Any = None
    pids: list[int] = field(default_factory=list)


def build_case(setting: str, spec: EnvSpec, cfg, n_envs: int, vec_env: str, run_dir: Path) -> Case:
    from training.train import build_model

    vec = make_vec(spec, n_envs, vec_env)
    model = build_model(cfg, vec, run_dir / setting)
    return Case(setting, spec, vec, model, worker_pids(vec))


def measure(case: Case, timesteps: int) -> dict[str, Any]:
    """One ``model.learn(timesteps)``: wall, CPU (process + workers), phases, env time."""
    clock = _phase_callback()(case.pids)
    gc.collect()
    env0 = env_timer_read(case.vec)
    k0 = workers_cpu(case.pids)
    w0 = time.perf_counter()
    c0 = time.process_time()
    case.model.learn(timesteps, callback=clock, reset_num_timesteps=True, tb_log_name=case.setting)
    c1 = time.process_time()
    w1 = time.perf_counter()
    k1 = workers_cpu(case.pids)
    env1 = env_timer_read(case.vec)
    frames = int(case.model.num_timesteps)
    proc = c1 - c0
    workers = None if k0 is None or k1 is None else k1 - k0
    cpu = proc + (workers or 0.0)
    wall = w1 - w0
    env_cpu = env1[0] - env0[0]
    return {
        "frames": frames,
        "wall_s": wall,
        "process_cpu_s": proc,
        "workers_cpu_s": workers,
        "cpu_s": cpu,
        "frames_per_s_wall": frames / wall,
        "frames_per_cpu_s": frames / cpu,
        "us_per_frame": 1e6 * cpu / frames,
        "rollout_us_per_frame": 1e6 * clock.rollout_cpu / frames,
        "update_us_per_frame": 1e6 * (cpu - clock.rollout_cpu) / frames,
        "env_us_per_frame": 1e6 * env_cpu / frames,
        "env_cpu_share": env_cpu / cpu,
        "episodes": env1[2] - env0[2],
        "cpu_per_wall": cpu / wall if wall > 0 else float("nan"),
    }


# -- the breakdown (env alone, random legal learner moves) ---------------------------------------
class TimedPolicy:
    """Times ``act`` of an opponent policy (and of the seat actors it gives)."""

    def __init__(self, policy, acc: dict[str, float]):
        self.policy, self.acc = policy, acc
        self.name = policy.name

    def seat_actor(self) -> TimedPolicy:
        from training.runtime.policies import seat_actor

        return TimedPolicy(seat_actor(self.policy), self.acc)

    def act(self, observation, action_mask, state=None) -> int:
        t0 = time.process_time()
        a = self.policy.act(observation, action_mask, state)
        self.acc["opponent_act"] += time.process_time() - t0
        self.acc["opponent_act_calls"] += 1
        return a


class TimedState:
    """A rules State whose observe / apply / legal_mask calls are timed; the rest passes through."""

    __slots__ = ("_s", "_acc", "_env")

    def __init__(self, state, acc: dict[str, float], env):
        self._s, self._acc, self._env = state, acc, env

    def observe(self, seat: int):
        t0 = time.process_time()
        out = self._s.observe(seat)
        key = "observe_learner" if seat == self._env.learner else "observe_opponents"
        self._acc[key] += time.process_time() - t0
        self._acc[key + "_calls"] += 1
        return out

    def apply(self, action: int) -> None:
        t0 = time.process_time()
        self._s.apply(action)
        self._acc["apply"] += time.process_time() - t0
        self._acc["apply_calls"] += 1

    def legal_mask(self):
        t0 = time.process_time()
        out = self._s.legal_mask()
        self._acc["legal_mask"] += time.process_time() - t0
        self._acc["legal_mask_calls"] += 1
        return out

    def __getattr__(self, name: str):
        return getattr(self._s, name)


TIMED_PARTS = ("opponent_act", "observe_opponents", "observe_learner", "apply", "legal_mask")


def _instrument(env, acc: dict[str, float]) -> None:
    game = env.game
    new_state = game.new_state
    game.new_state = lambda seed=None: TimedState(new_state(seed), acc, env)  # instance attribute
    for sampler in [env.opponents]:
        sampler.policies = [TimedPolicy(p, acc) for p in sampler.policies]


def rollout(env, frames: int, pick: Picker) -> dict[str, float]:
    """Random legal learner moves for ``frames`` frames (whole episodes after the first reset):
    CPU of env.reset + env.action_masks + env.step, as SB3 calls them, plus the pick."""
    pt = time.process_time
    n = episodes = 0
    t0 = pt()
    env.reset()
    while n < frames:
        _obs, _r, term, trunc, _info = env.step(pick(env.action_masks()))
        n += 1
        if term or trunc:
            episodes += 1
            env.reset()
    cpu = pt() - t0
    return {"frames": n, "episodes": episodes, "cpu_s": cpu}


def breakdown(setting: str, spec: EnvSpec, frames: int, seed: int, clock_cost: float) -> dict[str, Any]:
    """The env of ``setting`` alone: plain rollout, then a rollout with timed parts."""
    pick_cost = _pick_cost(seed)
    plain_env = spec.build(0, timed=False)
    rollout(plain_env, min(frames, 500), Picker(seed))  # warm-up
    plain = rollout(plain_env, frames, Picker(seed + 1))

    acc: dict[str, float] = {k: 0.0 for p in TIMED_PARTS for k in (p, p + "_calls")}
    timed_env = spec.build(0, timed=False)
    _instrument(timed_env, acc)
    rollout(timed_env, min(frames, 500), Picker(seed))
    for k in acc:
        acc[k] = 0.0
    timed = rollout(timed_env, frames, Picker(seed + 1))

    f = timed["frames"]
    parts = {}
    timed_total = 0.0
    for p in TIMED_PARTS:
        # each timed call reads the clock twice; one read's cost lands inside the interval
        cpu = max(acc[p] - acc[p + "_calls"] * clock_cost, 0.0)
        parts[p] = {
            "us_per_frame": 1e6 * cpu / f,
            "calls_per_frame": acc[p + "_calls"] / f,
            "us_per_call": 1e6 * cpu / acc[p + "_calls"] if acc[p + "_calls"] else 0.0,
        }
        timed_total += cpu
    plain_us = 1e6 * plain["cpu_s"] / plain["frames"] - pick_cost
    timed_us = 1e6 * timed["cpu_s"] / f - pick_cost
    # "rest" is taken against the plain rollout: the timers' own cost is left out of every part
    rest = max(plain_us - 1e6 * timed_total / f, 0.0)
    return {
        "setting": setting,
        "frames": plain["frames"],
        "episodes": plain["episodes"],
        "frames_per_episode": plain["frames"] / max(plain["episodes"], 1),
        "env_us_per_frame": plain_us,
        "instrumented_us_per_frame": timed_us,
        "pick_us": pick_cost,
        "parts": parts,
        "rest_us_per_frame": rest,
    }


def _pick_cost(seed: int, calls: int = 50_000) -> float:
    mask = np.zeros(132, bool)
    mask[::11] = True
    pick = Picker(seed)
    t0 = time.process_time()
    for _ in range(calls):
        pick(mask)
    return 1e6 * (time.process_time() - t0) / calls


# -- report ---------------------------------------------------------------------------------------
def summarize(runs: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    base = runs[BASELINE]
    rows = []
    for setting in runs:
        reps = runs[setting]
        med = lambda key, reps=reps: statistics.median(r[key] for r in reps)  # noqa: E731
        cpu_rates = [r["frames_per_cpu_s"] for r in reps]
        ratio = statistics.median(r["frames_per_cpu_s"] / b["frames_per_cpu_s"] for r, b in zip(reps, base))
        ratio_wall = statistics.median(r["frames_per_s_wall"] / b["frames_per_s_wall"] for r, b in zip(reps, base))
        workers = [r["workers_cpu_s"] for r in reps]
        rows.append(
            {
                "setting": setting,
                "label": LABELS[setting],
                "frames_per_s_wall": med("frames_per_s_wall"),
                "frames_per_cpu_s": statistics.median(cpu_rates),
                "us_per_frame": med("us_per_frame"),
                "rollout_us_per_frame": med("rollout_us_per_frame"),
                "update_us_per_frame": med("update_us_per_frame"),
                "env_us_per_frame": med("env_us_per_frame"),
                "env_cpu_share_timed": med("env_cpu_share"),
                "ratio_to_zero_cost": ratio,
                "env_share": 1.0 - ratio,
                "ratio_to_zero_cost_wall": ratio_wall,
                "meets_target": ratio >= TARGET_RATIO,
                "cpu_per_wall": med("cpu_per_wall"),
                "workers_cpu_counted": all(w is not None for w in workers),
                "frames_per_episode": statistics.median(r["frames"] / max(r["episodes"], 1) for r in reps),
                "spread": (max(cpu_rates) - min(cpu_rates)) / statistics.median(cpu_rates),
                "frames_measured": sum(r["frames"] for r in reps),
                "repeats": reps,
            }
        )
    return rows


def markdown_table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| setting | frames/s wall | frames / CPU-s | µs CPU / frame | rollout µs / frame | update µs / frame "
        "| in env µs / frame | × zero-cost (CPU) | env share (1 - ratio) | × zero-cost (wall) | target ≥ 0.85× "
        "| spread |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        base = r["setting"] == BASELINE
        verdict = (
            "(ceiling)"
            if base
            else ("met" if r["meets_target"] else f"missed by {TARGET_RATIO - r['ratio_to_zero_cost']:.2f}×")
        )
        out.append(
            f"| {r['label']} | {_n(r['frames_per_s_wall'])} | {_n(r['frames_per_cpu_s'])} | {_n(r['us_per_frame'])} "
            f"| {_n(r['rollout_us_per_frame'])} | {_n(r['update_us_per_frame'])} | {_n(r['env_us_per_frame'])} "
            f"| {r['ratio_to_zero_cost']:.2f} | {100 * r['env_share']:.0f}% | {r['ratio_to_zero_cost_wall']:.2f} "
            f"| {verdict} | {100 * r['spread']:.0f}% |"
        )
    return "\n".join(out)


def breakdown_table(rows: list[dict[str, Any]], bds: dict[str, dict[str, Any]]) -> str:
    by = {r["setting"]: r for r in rows}
    zero = by[BASELINE]
    names = {
        "opponent_act": "opponent policy act()",
        "observe_opponents": "state.observe for opponent policies",
        "observe_learner": "state.observe for the learner",
        "apply": "state.apply (rules)",
        "legal_mask": "state.legal_mask",
    }
    cols = list(bds)
    head = "| µs CPU per learner frame | " + " | ".join(LABELS[s] for s in cols) + " |"
    out = [head, "|---|" + "---:|" * len(cols)]

    def line(label: str, values: list[str]) -> None:
        out.append(f"| {label} | " + " | ".join(values) + " |")

    line("**training, total** (median of the timed runs)", [_n(by[s]["us_per_frame"]) for s in cols])
    line("zero-cost training (PPO alone)", [_n(zero["us_per_frame"]) for _ in cols])
    line(
        "difference = what the env costs in training", [_n(by[s]["us_per_frame"] - zero["us_per_frame"]) for s in cols]
    )
    line("in env.step/reset/action_masks during training (timer)", [_n(by[s]["env_us_per_frame"]) for s in cols])
    line("PPO (training total - env timer)", [_n(by[s]["us_per_frame"] - by[s]["env_us_per_frame"]) for s in cols])
    line("**env alone, random legal learner moves**", [_n(bds[s]["env_us_per_frame"]) for s in cols])
    for p in TIMED_PARTS:
        line(
            f"&nbsp;&nbsp;{names[p]}",
            [
                f"{_n(bds[s]['parts'][p]['us_per_frame'])} ({bds[s]['parts'][p]['calls_per_frame']:.2f} × "
                f"{_n(bds[s]['parts'][p]['us_per_call'], 1)})"
                for s in cols
            ],
        )
    line(
        "&nbsp;&nbsp;rest: SingleAgentEnv glue, rewards, terminal checks, info",
        [_n(bds[s]["rest_us_per_frame"]) for s in cols],
    )
    line("frames per episode", [_n(bds[s]["frames_per_episode"], 1) for s in cols])
    return "\n".join(out)


def diagnosis(rows: list[dict[str, Any]], bds: dict[str, dict[str, Any]]) -> list[str]:
    by = {r["setting"]: r for r in rows}
    zero_us = by[BASELINE]["us_per_frame"]
    budget = zero_us * (1 / TARGET_RATIO - 1)  # env µs per frame allowed by the target
    lines = [
        f"- Target: env at most 15% of training time, i.e. at most {budget:.0f} µs CPU per frame on top of the "
        f"zero-cost {zero_us:.0f} µs."
    ]
    for s in by:
        if s == BASELINE:
            continue
        r = by[s]
        extra = r["us_per_frame"] - zero_us
        if r["meets_target"]:
            lines.append(
                f"- {LABELS[s]}: {r['ratio_to_zero_cost']:.2f}× the ceiling: target met "
                f"(env share {100 * r['env_share']:.0f}%)."
            )
            continue
        msg = (
            f"- {LABELS[s]}: {r['ratio_to_zero_cost']:.2f}× the ceiling, target missed by "
            f"{TARGET_RATIO - r['ratio_to_zero_cost']:.2f}× (env share {100 * r['env_share']:.0f}% instead of <= 15%); "
            f"the env costs {extra:.0f} µs per frame in training, {extra - budget:.0f} µs over the "
            f"{budget:.0f} µs budget"
        )
        if s in bds:
            b = bds[s]
            parts = sorted(((v["us_per_frame"], k) for k, v in b["parts"].items()), reverse=True)
            parts.append((b["rest_us_per_frame"], "rest"))
            parts.sort(reverse=True)
            share = ", ".join(f"{k} {us:.0f} µs ({100 * us / b['env_us_per_frame']:.0f}%)" for us, k in parts)
            msg += f". Alone the env takes {b['env_us_per_frame']:.0f} µs per frame: {share}"
        lines.append(msg + ".")
    return lines


def machine_info() -> dict[str, Any]:
    import sb3_contrib
    import stable_baselines3
    import torch

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
        "stable_baselines3": stable_baselines3.__version__,
        "sb3_contrib": sb3_contrib.__version__,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
    }


def load_info() -> dict[str, Any]:
    info: dict[str, Any] = {}
    try:
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    return info


# -- profile mode ---------------------------------------------------------------------------------
def profile(spec: EnvSpec, frames: int, seed: int, top: int) -> None:
    import cProfile
    import pstats

    env = spec.build(0, timed=False)
    rollout(env, 500, Picker(seed))
    prof = cProfile.Profile()
    prof.enable()
    r = rollout(env, frames, Picker(seed + 1))
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt
    print(f"## {LABELS[spec.setting]}: cProfile of {r['frames']:,} learner frames (random legal moves)\n")
    print(f"{1e6 * total / r['frames']:.0f} µs per frame under cProfile\n")
    print("| function | calls / frame | own time | with callees |")
    print("|---|---:|---:|---:|")
    entries = []
    for (filename, line, func), (_cc, nc, tt, ct, _callers) in stats.stats.items():
        where = filename.split("site-packages/", 1)[-1].split(str(ROOT) + "/", 1)[-1]
        entries.append((tt, ct, nc, f"{where}:{line}({func})" if line else func))
    entries.sort(reverse=True)
    for tt, ct, nc, name in entries[:top]:
        print(f"| `{name}` | {nc / r['frames']:.2f} | {100 * tt / total:.1f}% | {100 * ct / total:.1f}% |")


# -- main -----------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--timesteps",
        type=int,
        default=8192,
        help="learner frames per setting per repeat (rounded up to whole rollouts; default 8192)",
    )
    p.add_argument("--repeats", type=int, default=3, help="repeats; the table shows medians (default 3)")
    p.add_argument("--n-envs", type=int, default=1, help="parallel envs per setting (default 1)")
    p.add_argument(
        "--vec-env",
        choices=("dummy", "subproc"),
        default="dummy",
        help="DummyVecEnv (default) or SubprocVecEnv (one worker process per env)",
    )
    p.add_argument(
        "--compare",
        nargs="+",
        choices=COMPARED_PATHS,
        default=[],
        help="also measure the 4-player setting with the checkpoint opponent deciding through its numpy act "
        "instead of its seat actors, interleaved with the others",
    )
    p.add_argument("--config", default=str(DEFAULT_CONFIG), help="training config for the PPO settings")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config value, e.g. --set ppo.n_steps=256",
    )
    p.add_argument("--seed", type=int, default=None, help="seed (default: the config's run.seed)")
    p.add_argument(
        "--breakdown-frames",
        type=int,
        default=None,
        help="frames of the env-alone rollouts of the breakdown (default: --timesteps)",
    )
    p.add_argument("--no-breakdown", action="store_true", help="skip the env-alone breakdown")
    p.add_argument("--json", metavar="PATH", help="also write every result as JSON (atomically)")
    p.add_argument(
        "--profile",
        type=int,
        metavar="FRAMES",
        help="instead of the table: cProfile this many frames of the 4-player checkpoint env alone",
    )
    p.add_argument("--top", type=int, default=25, help="rows of the --profile table")
    args = p.parse_args(argv)
    if args.timesteps < 1 or args.repeats < 1 or args.n_envs < 1:
        p.error("--timesteps, --repeats and --n-envs must be >= 1")
    return args


def progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def make_specs(cfg, seed: int, checkpoint: str, compare: list[str] | tuple[str, ...] = ()) -> dict[str, EnvSpec]:
    from training.single_agent import SingleAgentEnv

    env_id = cfg.env.env_id
    options = {k: v for k, v in cfg.env.options.items() if k != "num_players"}
    probe = SingleAgentEnv(env_id, dict(options, num_players=2), seed=seed)
    obs, _ = probe.reset(seed=seed)
    mask = probe.action_masks()
    lengths = []
    for _ in range(20):  # a typical episode length for the zero-cost env
        probe.reset()
        n, done = 0, False
        while not done:
            legal = np.flatnonzero(probe.action_masks())
            _o, _r, term, trunc, _i = probe.step(int(legal[probe.np_random.integers(len(legal))]))
            n += 1
            done = term or trunc
        lengths.append(n)
    common = {
        "env_id": env_id,
        "env_options": options,
        "seed": seed,
        "deterministic_opponents": cfg.selfplay.deterministic_opponents,
    }
    return {
        "lh2_random": EnvSpec("lh2_random", **common),
        "lh4_checkpoint": EnvSpec("lh4_checkpoint", checkpoint=checkpoint, **common),
        **{
            f"lh4_checkpoint_{path}": EnvSpec(
                f"lh4_checkpoint_{path}", checkpoint=checkpoint, opponent_path=path, **common
            )
            for path in compare
        },
        "zero_cost": EnvSpec(
            "zero_cost",
            zero_observation=obs.copy(),
            zero_mask=mask.copy(),
            zero_episode_length=int(round(statistics.median(lengths))),
            num_actions=int(probe.action_space.n),
            **common,
        ),
    }


def make_checkpoint(cfg, seed: int, folder: Path) -> str:
    """A freshly initialised MaskablePPO (the config's net_arch) on the 4-player env, saved."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.runtime.checkpoints import save_checkpoint
    from training.train import build_model

    options = dict(cfg.env.options, num_players=4)
    spec = EnvSpec("lh4_checkpoint", cfg.env.env_id, options, seed)  # random opponents: only the spaces matter
    vec = DummyVecEnv([_Factory(spec, 0)])
    model = build_model(cfg, vec, folder / "init_tb")
    path = save_checkpoint(
        model, folder / "opponent", {"env_id": cfg.env.env_id, "env_options": options, "training_steps": 0}
    )
    vec.close()
    return str(path)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch

    from training.config import load_config

    cfg = load_config(args.config, args.overrides)
    torch.set_num_threads(cfg.run.torch_threads)
    seed = cfg.run.seed if args.seed is None else args.seed
    src = source_info(("envs", "training"))
    load_start = load_info()
    with tempfile.TemporaryDirectory(prefix="train_throughput.") as tmp:
        tmp_dir = Path(tmp)
        checkpoint = make_checkpoint(cfg, seed, tmp_dir)
        specs = make_specs(cfg, seed, checkpoint, args.compare)
        settings = settings_for(args.compare)
        if args.profile:
            profile(specs["lh4_checkpoint"], args.profile, seed, args.top)
            return 0
        clock_cost = clock_overhead()
        cases: dict[str, Case] = {}
        try:
            for s in settings:
                progress(f"building and warming up {s} ({args.n_envs} env(s), {args.vec_env}) ...")
                cases[s] = build_case(s, specs[s], cfg, args.n_envs, args.vec_env, tmp_dir / "tb")
                cases[s].model.learn(cfg.ppo.n_steps * args.n_envs, reset_num_timesteps=True, tb_log_name="warmup")
            runs: dict[str, list[dict[str, Any]]] = {s: [] for s in settings}
            wall0 = time.perf_counter()
            for rep in range(args.repeats):
                order = settings[rep % len(settings) :] + settings[: rep % len(settings)]  # rotate the order
                for s in order:
                    r = measure(cases[s], args.timesteps)
                    runs[s].append(r)
                    progress(
                        f"repeat {rep + 1}/{args.repeats} {s}: {r['frames_per_cpu_s']:,.0f} frames/CPU-s, "
                        f"{r['frames_per_s_wall']:,.0f} frames/s wall (CPU/wall {r['cpu_per_wall']:.2f}), "
                        f"in env {r['env_us_per_frame']:.0f} µs/frame"
                    )
            wall = time.perf_counter() - wall0
        finally:
            for c in cases.values():
                c.vec.close()
        rows = summarize(runs)
        bds: dict[str, dict[str, Any]] = {}
        if not args.no_breakdown:
            frames = args.breakdown_frames or args.timesteps
            for s in settings[:-1]:
                progress(f"breakdown: {s} alone, {frames} frames ...")
                bds[s] = breakdown(s, specs[s], frames, seed, clock_cost)
    load_end = load_info()

    info = machine_info()
    shares = [r["cpu_per_wall"] for reps in runs.values() for r in reps]
    p = cfg.ppo
    config_name = " ".join([Path(args.config).name, *args.overrides])
    vec_name = "SubprocVecEnv" if args.vec_env == "subproc" and args.n_envs > 1 else "DummyVecEnv"
    print(
        f"# MaskablePPO training throughput: {args.repeats} repeats x {args.timesteps:,} frames per setting "
        f"(medians), {args.n_envs} env(s), {vec_name}\n"
    )
    print(markdown_table(rows))
    print()
    workers_note = ""
    if args.vec_env == "subproc" and args.n_envs > 1:
        counted = all(r["workers_cpu_counted"] for r in rows)
        workers_note = (
            " CPU includes the env worker processes (read from /proc/<pid>/stat; they are forkserver children, "
            "invisible to getrusage(RUSAGE_CHILDREN))."
            if counted
            else " WARNING: the env workers' CPU could not be read (no /proc, no psutil): CPU rates count only this "
            "process and overstate throughput."
        )
    print(
        f"Notes: CPU = process_time of this process{' plus the env workers' if workers_note else ''}; × zero-cost "
        f"is the ratio of frames per CPU-second within each repeat (median), env share = 1 - ratio. "
        f"'in env' is the CPU inside env.step/reset/action_masks (timing wrapper). "
        f"PPO: {config_name}, n_steps {p.n_steps}, "
        f"batch {p.batch_size}, {p.n_epochs} epochs, net_arch {list(p.net_arch)} {p.activation}; "
        f"torch threads {info['torch_threads']}, OMP_NUM_THREADS={info['OMP_NUM_THREADS']}.{workers_note} "
        f"CPU / wall per measurement {min(shares):.2f}-{max(shares):.2f} (above 1 with workers in parallel; "
        f"below 1 = other processes took the CPU). Load average {load_start.get('load_average')} at start, "
        f"{load_end.get('load_average')} at end; {wall:.0f} s wall for the repeats. "
        f"Python {info['python']}, torch {info['torch']}, SB3 {info['stable_baselines3']}, "
        f"sb3-contrib {info['sb3_contrib']}, {info['cpu_count']} CPUs."
    )
    if src:
        print(
            f"\nMeasured code: git {src['git_head']}; changed since under envs/ and training/: "
            f"{', '.join(src['changed']) or 'none'}."
        )
    if bds:
        print("\n## Where a frame's CPU goes\n")
        print(breakdown_table(rows, bds))
        print()
        print(
            "Env-alone rows: SingleAgentEnv.reset/action_masks/step with random legal learner moves (pick cost "
            "removed), each part's CPU per learner frame as calls per frame × µs per call; 'rest' is the plain "
            "rollout minus the timed parts (the timers' own cost excluded)."
        )
        print()
        print("\n".join(diagnosis(rows, bds)))
    if args.json:
        write_json_atomic(
            args.json,
            {
                "benchmark": "train_throughput",
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "settings": {
                    "timesteps": args.timesteps,
                    "repeats": args.repeats,
                    "n_envs": args.n_envs,
                    "vec_env": args.vec_env,
                    "compare": args.compare,
                    "config": args.config,
                    "overrides": args.overrides,
                    "seed": seed,
                    "target_ratio": TARGET_RATIO,
                    "ppo": {
                        k: getattr(p, k)
                        for k in (
                            "learning_rate",
                            "n_steps",
                            "batch_size",
                            "n_epochs",
                            "gamma",
                            "gae_lambda",
                            "clip_range",
                            "ent_coef",
                            "vf_coef",
                            "max_grad_norm",
                            "net_arch",
                            "activation",
                        )
                    },
                    "env_options": dict(cfg.env.options),
                    "zero_cost_episode_length": specs[BASELINE].zero_episode_length,
                },
                "machine": info,
                "source": src,
                "load": {"start": load_start, "end": load_end},
                "clock_read_us": 1e6 * clock_cost,
                "results": rows,
                "breakdown": bds,
            },
        )
        progress(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
