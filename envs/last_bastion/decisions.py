"""Last Bastion's task table and decisions: :data:`TASKS`, where every phase module registers its
tasks (``@TASKS.task``), and the helpers a task uses to open a decision for the player in control.

A turn runs as tasks on ``state.stack`` (``envs.core.tasks``): each task is a plain function of the
state, and stops the run by opening a decision (``state.decision``: its kind, its legal ids, and
what the answer needs to resume) or by ending the game. The answer is handled by the function that
``state.DECISIONS`` names for that kind. Ids are in the frame of the player who decides; the
``*_id`` helpers turn absolute spaces, tiles and players into ids of that frame, the ``abs_*``
helpers turn an action's argument back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from envs.core.tasks import TaskTable
from envs.last_bastion import content as C
from envs.last_bastion.actions import NUM_ACTIONS, PLAYER_ID, SPACE_ID, TILE_ID


class Tasks(TaskTable):
    """The core task table, its functions readable: ``State.run`` pops the stack itself, since
    ``TaskTable.run`` calls its ``done()`` once per task, which costs about as much as a small task."""

    @property
    def functions(self) -> Mapping[str, Callable[..., None]]:
        """Task name -> function (the table's own dict: it sees tasks registered later)."""
        return self._functions


TASKS = Tasks("last_bastion_v0")

#: ids as a task offers them (a tuple) -> (the legal ids: sorted, no repeats; their mask). Offers
#: repeat all game long, and a dict lookup costs a fraction of sorted(set()) and a new mask.
_OFFERS: dict[tuple, tuple[list[int], np.ndarray]] = {}


def offer(ids) -> tuple[list[int], np.ndarray]:
    """``(sorted(set(ids)), their int8 mask)``, shared: the caller copies before it hands them out."""
    key = tuple(ids)
    hit = _OFFERS.get(key)
    if hit is None:
        legal = sorted(set(key))
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask.put(legal, 1)  # put: cheaper than fancy-index assignment from a list
        if len(_OFFERS) >= 20_000:  # a bound (a game offers a few thousand)
            _OFFERS.clear()
        hit = _OFFERS[key] = (legal, mask)
    return hit


def decide(state, kind: str, legal: list[int], **extra: Any) -> None:
    """Open a decision of ``kind`` for the player in control (``state.controller()``)."""
    state.current_player = state.controller()
    open_decision(state, kind, legal, extra)


def open_decision(state, kind: str, ids, extra: dict) -> None:
    """The decision of ``kind`` offering ``ids`` (any order, repeats allowed) to ``current_player``."""
    offered = state._mask_cache = _OFFERS.get(tuple(ids)) or offer(ids)  # the mask legal_mask() copies
    state.decision = {"kind": kind, "legal": list(offered[0]), **extra}


def decide_spaces(state, kind: str, spaces: list[int], **extra: Any) -> None:
    """:func:`decide` with absolute spaces, offered as SELECT_SPACE ids in the controller's frame."""
    state.current_player = state.controller()
    seat3 = 3 * state.seat_of[state.current_player]
    open_decision(state, kind, [SPACE_ID + (s - seat3) % 12 for s in spaces], extra)


# -- absolute -> ids of the deciding player's frame (call after setting current_player) --
def space_id(state, s: int) -> int:
    return SPACE_ID + (s - 3 * state.seat_of[state.current_player]) % 12


def tile_id(state, t: int) -> int:
    return TILE_ID + C.REL_TILE[state.seat_of[state.current_player]][t]


def player_id(state, p: int) -> int:
    return PLAYER_ID + (state.seat_of[p] - state.seat_of[state.current_player]) % 4


# -- an action's argument (deciding player's frame) -> absolute --
def abs_space(state, j: int) -> int:
    return (j + 3 * state.seat_of[state.current_player]) % 12


def abs_tile(state, t: int) -> int:
    return C.ABS_TILE[state.seat_of[state.current_player]][t]


def abs_player(state, o: int) -> int:
    return state.player_at[(state.seat_of[state.current_player] + o) % 4]
