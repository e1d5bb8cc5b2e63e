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

from typing import Any

from envs.core.tasks import TaskTable
from envs.last_bastion import content as C
from envs.last_bastion.actions import PLAYER_ID, SPACE_ID, TILE_ID

TASKS = TaskTable("last_bastion_v0")


def decide(state, kind: str, legal: list[int], **extra: Any) -> None:
    """Open a decision of ``kind`` for the player in control (``state.controller()``)."""
    state.current_player = state.controller()
    state.decision = {"kind": kind, "legal": sorted(set(legal)), **extra}


def decide_spaces(state, kind: str, spaces: list[int], **extra: Any) -> None:
    """:func:`decide` with absolute spaces, offered as SELECT_SPACE ids in the controller's frame."""
    state.current_player = state.controller()
    seat3 = 3 * state.seat_of[state.current_player]
    state.decision = {"kind": kind, "legal": sorted({SPACE_ID + (s - seat3) % 12 for s in spaces}), **extra}


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
