"""The shared rules machinery: the task stack of plain functions, and the one legality check of apply()."""

import numpy as np
import pytest

import envs
from envs.core import IllegalActionError
from envs.core.game import State
from envs.core.tasks import TaskTable, push


class Tally:
    def __init__(self):
        self.log: list[str] = []
        self.stack: list = []
        self.decision: str | None = None


TASKS = TaskTable("tally_v0")


@TASKS.task
def count(state, n):
    if n == 0:
        state.decision = "choose"
        return
    state.log.append(f"count {n}")
    push(state.stack, ["say", f"at {n}"], ["count", n - 1])


@TASKS.task
def say(state, word):
    state.log.append(word)


def test_tasks_run_in_the_order_pushed_until_a_decision():
    state = Tally()
    push(state.stack, ["count", 2], ["say", "after"])
    TASKS.run(state, state.stack, lambda: state.decision is not None)
    assert state.log == ["count 2", "at 2", "count 1", "at 1"]
    assert state.stack == [["say", "after"]]  # what runs once the decision is answered
    assert state.decision == "choose"


def test_a_stack_that_runs_dry_before_a_decision_is_a_clear_error():
    state = Tally()
    push(state.stack, ["say", "only"])
    with pytest.raises(RuntimeError, match="ran empty"):
        TASKS.run(state, state.stack, lambda: state.decision is not None)


def test_a_task_name_registered_twice_is_refused():
    table = TaskTable("twice_v0")
    table.task(say)
    with pytest.raises(ValueError, match="registered twice"):
        table.task(say)


@pytest.mark.parametrize(
    "stack, message",
    [
        ({"say": 1}, r"stack: a task stack is a list"),
        ([["say", "x"], []], r"stack\[1\]: a task is a non-empty list"),
        ([["_t_say", "x"]], r"stack\[0\]: '_t_say' is not a task of tally_v0; its tasks are \['count', 'say'\]"),
        ([["count", {"n": 1}]], r"stack\[0\]: task arguments are JSON"),
        ([[3]], r"stack\[0\]: 3 is not a task"),
        ([[["say"], "x"]], r"stack\[0\]: \['say'\] is not a task"),
    ],
)
def test_check_names_the_bad_entry(stack, message):
    with pytest.raises(ValueError, match=message):
        TASKS.check(stack)


def test_check_passes_a_real_stack_through():
    stack = [["count", 3], ["say", "x"], ["count", [1, [2, None]]]]
    assert TASKS.check(stack) is stack


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
@pytest.mark.parametrize("action", [True, np.bool_(True), 1.0, "1", None, -1, 10**9])
def test_apply_refuses_anything_but_a_legal_integer_id(env_id, action):
    state = envs.game_class(env_id)().new_state(seed=3)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_every_game_uses_the_shared_check(env_id):
    """apply() is written once, in the core: a game writes its rules as apply_legal()."""
    cls = type(envs.game_class(env_id)().new_state(seed=0))
    assert cls.apply is State.apply
    assert cls.apply_legal is not State.apply_legal


def test_the_compiled_last_heroes_engine_uses_the_shared_check_too():
    state = envs.game_class("last_heroes_v0")(engine="compiled").new_state(seed=0)
    assert type(state).apply is State.apply
    with pytest.raises(IllegalActionError):
        state.apply(True)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_apply_plays_a_legal_numpy_integer_like_an_int(env_id):
    game = envs.game_class(env_id)()
    a, b = game.new_state(seed=5), game.new_state(seed=5)
    action = int(np.flatnonzero(a.legal_mask())[-1])
    a.apply(action)
    b.apply(np.int64(action))
    assert a.to_json() == b.to_json()
