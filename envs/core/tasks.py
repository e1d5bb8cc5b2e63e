"""The task stack: a turn of many small rule steps, written as plain functions.

Games whose turn runs through many sub-steps (resolve a card, then its effects, then a fight that
may open a decision in the middle) keep the steps still to run on a stack in the state, so the
rules can stop at any decision and pick up exactly there after the action. A task is a list
``[name, *args]`` of JSON values, so the stack is part of the state's JSON like any other field.

Each game keeps one :class:`TaskTable`; a task is a plain function ``fn(state, *args)`` registered
under its own name with ``@TASKS.task``, so "who runs this task" is a search for the function
name, never a name built from strings::

    TASKS = TaskTable("last_bastion_v0")

    @TASKS.task
    def draw_monsters(state, count):
        ...
        push(state.stack, ["place_monster", card], ["draw_monsters", count - 1])

    TASKS.run(state, state.stack, lambda: state.decision is not None or state.result is not None)

:meth:`TaskTable.check` validates a stack read from JSON: every task names a registered task and
carries JSON scalars or lists only (a ValueError naming the entry otherwise).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Task = list  # [name, *args]


def push(stack: list, *tasks: Task) -> None:
    """Put ``tasks`` on ``stack`` so that the first one given runs first."""
    stack.extend(reversed(tasks))


class TaskTable:
    """The tasks of one game: name -> the plain function that runs it."""

    def __init__(self, game: str):
        self.game = game
        self._functions: dict[str, Callable[..., None]] = {}

    def task(self, fn: Callable[..., None]) -> Callable[..., None]:
        """Register ``fn`` as the task named ``fn.__name__`` (a decorator)."""
        name = fn.__name__
        if name in self._functions:
            raise ValueError(f"{self.game}: the task {name!r} is registered twice")
        self._functions[name] = fn
        return fn

    def names(self) -> tuple[str, ...]:
        return tuple(self._functions)

    def __contains__(self, name: object) -> bool:
        return name in self._functions

    def run(self, state: Any, stack: list, done: Callable[[], bool]) -> None:
        """Pop and run tasks until ``done()`` (a decision is open, or the game ended)."""
        functions = self._functions
        while not done():
            if not stack:
                raise RuntimeError(f"{self.game}: the task stack ran empty before a decision or the end")
            task = stack.pop()
            functions[task[0]](state, *task[1:])

    def check(self, stack: Any, path: str = "stack") -> list[Task]:
        """``stack`` (read from JSON) as a list of tasks, or a ValueError naming the bad entry."""
        if not isinstance(stack, list):
            raise ValueError(f"{path}: a task stack is a list of [name, *args], got {type(stack).__name__}")
        for i, task in enumerate(stack):
            where = f"{path}[{i}]"
            if not isinstance(task, list) or not task:
                raise ValueError(f"{where}: a task is a non-empty list [name, *args], got {task!r}")
            if not isinstance(task[0], str) or task[0] not in self._functions:
                known = sorted(self._functions)
                raise ValueError(f"{where}: {task[0]!r} is not a task of {self.game}; its tasks are {known}")
            _check_json_values(task[1:], where)
        return stack


def _check_json_values(values: Iterable[Any], where: str) -> None:
    for value in values:
        if isinstance(value, list):
            _check_json_values(value, where)
        elif value is not None and not isinstance(value, (bool, int, float, str)):
            raise ValueError(f"{where}: task arguments are JSON numbers, strings or lists, got {value!r}")
