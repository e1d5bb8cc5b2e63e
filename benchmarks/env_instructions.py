"""Machine instructions per decision through ``env()``, counted by valgrind: a load-proof speed check.

CPU-second rates move with whatever else the machine runs (a second process on a 2-core machine
shares caches and memory bandwidth), so two versions of an env measured an hour apart, or while a
training runs, compare badly. ``valgrind --tool=callgrind`` counts the instructions the process
executes instead: the same count for the same code and inputs whatever the load (two runs of the
same code agree to a few instructions in a hundred million). It is not a time: a numpy call and a
Python loop of the same instruction count need not take as long, so the README's ratios to
connect_four_v3 still come from ``benchmarks.env_throughput`` on a quiet machine. Use this one to
compare two versions of an env's code, before and after a change::

    python -m benchmarks.env_instructions --only lost_legends_v0 --players 3 5
    git stash; python -m benchmarks.env_instructions --only lost_legends_v0 --players 3 5; git stash pop

Method: the same seeded random legal play as ``benchmarks.env_throughput`` (its ``Picker``), one
env built and reset with a seed, ``--warmup`` decisions, then ``--decisions`` more (new games as
games end), in a child process under callgrind. The count covers the measured decisions only:
callgrind zeroes its counters when the child calls ``sched_get_priority_min`` (after the warm-up)
and dumps them when it calls ``sched_get_priority_max`` (after the last decision), two libc calls
nothing else here makes; imports, set-up and interpreter exit, which vary from run to run, stay
out. Under callgrind Python runs about 50 times slower: 2,000 decisions take 20-40 seconds.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import envs
from benchmarks.env_throughput import Picker

_ZERO, _DUMP = "sched_get_priority_min", "sched_get_priority_max"


def play(env, pick: Picker, decisions: int) -> None:
    """``decisions`` more random legal decisions through ``env``, going on from where it stands (a
    new game whenever one ends)."""
    done = 0
    while done < decisions:
        if not env.agents:
            env.reset()
        for _agent in env.agent_iter():
            _obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(pick(_obs["action_mask"]))
            done += 1
            if done >= decisions:
                return


def child(env_id: str, players: int, warmup: int, decisions: int, seed: int = 0) -> None:
    """What runs under callgrind: the warm-up, the zeroing call, the measured decisions, the dump call."""
    env = envs.make(env_id, num_players=players)
    env.reset(seed=seed)
    pick = Picker(seed)
    play(env, pick, warmup)
    os.sched_get_priority_min(os.SCHED_OTHER)  # callgrind: --zero-before
    play(env, pick, decisions)
    os.sched_get_priority_max(os.SCHED_OTHER)  # callgrind: --dump-before


def count(env_id: str, players: int, warmup: int, decisions: int) -> int:
    """Instructions of ``decisions`` decisions after ``warmup`` ones (callgrind's dump between the markers)."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--zero-before={_ZERO}",
            f"--dump-before={_DUMP}",
            f"--callgrind-out-file={tmp}/out",
            sys.executable,
            "-m",
            "benchmarks.env_instructions",
            "--child",
            env_id,
            str(players),
            str(warmup),
            str(decisions),
        ]
        environment = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        result = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
        dumps = sorted(glob.glob(f"{tmp}/out.*"))  # out.1: the dump at the second marker
        if result.returncode != 0 or len(dumps) != 1:
            raise RuntimeError(f"callgrind run failed ({' '.join(command)}):\n{result.stderr[-2000:]}")
        with open(dumps[0]) as f:
            found = re.search(r"^summary:\s*(\d+)", f.read(), re.MULTILINE)
        if found is None:
            raise RuntimeError(f"no summary line in callgrind's dump {dumps[0]}")
        return int(found.group(1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.env_instructions",
        description="Instructions per decision through env(), counted by callgrind (load-proof).",
    )
    parser.add_argument("--only", nargs="*", choices=envs.ENV_IDS, help="env ids (default: every registered one)")
    parser.add_argument("--players", nargs="*", type=int, help="table sizes (default: smallest and largest)")
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--child", nargs=4, metavar=("ENV", "PLAYERS", "WARMUP", "DECISIONS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        env_id, players, warmup, decisions = args.child
        child(env_id, int(players), int(warmup), int(decisions))
        return
    if args.decisions < 1 or args.warmup < 0:
        parser.error(f"--decisions must be at least 1 and --warmup at least 0, got {args.decisions}, {args.warmup}")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    print("| env | players | instructions / decision |")
    print("|---|---:|---:|")
    for env_id in args.only or envs.ENV_IDS:
        game_cls = envs.game_class(env_id)
        sizes = args.players or sorted({game_cls.min_players, game_cls.max_players})
        for n in sizes:
            if not game_cls.min_players <= n <= game_cls.max_players:
                continue
            total = count(env_id, n, args.warmup, args.decisions)
            print(f"| {env_id} | {n} | {total / args.decisions:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
