"""benchmarks/env_instructions.py: the play it counts, and the count itself (valgrind, slow)."""

from __future__ import annotations

import shutil

import pytest

import envs
from benchmarks import env_instructions
from benchmarks.env_throughput import Picker


def _counted_env(made: list):
    env = envs.make("last_bastion_v0", num_players=1)
    step = env.step

    def counted(action):
        if action is not None:
            made.append(action)
        step(action)

    env.step = counted
    env.reset(seed=0)
    return env


def test_play_goes_on_for_exactly_the_decisions_asked_across_game_ends():
    made: list[int] = []
    env, pick = _counted_env(made), Picker(0)
    env_instructions.play(env, pick, 70)  # Last Bastion games last about 40 decisions
    env_instructions.play(env, pick, 80)
    assert len(made) == 150
    again: list[int] = []
    env_instructions.play(_counted_env(again), Picker(0), 150)
    assert again == made, "the warm-up and the measured part are one seeded play, cut in two"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_count_is_the_same_run_after_run():
    a = env_instructions.count("lost_legends_v0", 3, 20, 60)
    b = env_instructions.count("lost_legends_v0", 3, 20, 60)
    more = env_instructions.count("lost_legends_v0", 3, 20, 160)
    assert a == pytest.approx(b, rel=1e-4), "callgrind's count must not depend on the machine or its load"
    assert more > a * 1.5, "a hundred more decisions must cost instructions"
