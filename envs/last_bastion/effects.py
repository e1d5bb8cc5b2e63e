"""Last Bastion effects: who may suffer a primitive (:func:`eligible`), the effect task ``fx`` for the
closed vocabulary of content primitives (plus the board powers PLAGUE_WIND, SOUL_DRAIN and
SIEGE_BREACH), the Equipment tasks it raises (``discard_equip``, ``gain_color``), and the answers to
the decisions they open (CHOOSE_VICTIM, DISCARD_COLOR, GAIN_COLOR; PURIFY_TARGET is answered as the
Fountain's target in ``tiles.py``).

An effect task is ``["fx", prim, arg, source space or -1, victim or -1, origin]`` where origin is
"card", "board", "full" (a card drawn with every space full) or "die" (the Corruption die).
"""

from __future__ import annotations

from typing import Any

from envs.last_bastion import content as C
from envs.last_bastion.actions import COLOR_ID
from envs.last_bastion.content import IN
from envs.last_bastion.decisions import TASKS, abs_player, decide, player_id, tile_id
from envs.last_bastion.tokens import (
    gain_cta,
    gain_equip,
    gain_life,
    grasp_board,
    grasp_tile,
    lose_all_equip,
    lose_cta,
    lose_equip,
    lose_life,
)

#: prims that need an affected player (a neutral board-turn's controller chooses who among the eligible)
VICTIM_PRIMS = frozenset(
    (
        "LOSE_LIFE",
        "DISCARD_EQUIP",
        "DISCARD_ALL_EQUIP",
        "LOSE_CTA",
        "GRASP_HERE",
        "GRASP_BOARD",
        "CORRUPT",
        "TO_CENTRE",
        "PLAGUE_WIND",
        "SOUL_DRAIN",
    )
)


def eligible(state, prim: str, p: int) -> bool:
    """May player ``p`` suffer ``prim`` (a hero in play for whom it changes something)?"""
    if p < 0:
        return False
    h = state.heroes[p]
    if h["status"] != IN:  # in_play(p), inlined: asked for every player at a neutral effect
        return False
    if prim in ("DISCARD_EQUIP", "DISCARD_ALL_EQUIP"):
        return sum(h["equip"]) > 0
    if prim == "LOSE_CTA":
        return h["cta"] > 0
    if prim == "GRASP_HERE":
        return not state.grasped[h["tile"]]
    if prim == "GRASP_BOARD":
        return not h["board_grasped"]
    if prim == "CORRUPT":
        return not state.power_usable(p, C.THORGRIM)
    if prim == "TO_CENTRE":
        return h["tile"] != C.CENTRE
    return True


@TASKS.task
def fx(state, prim: str, arg: Any, src: int, victim: int, origin: str) -> None:
    if prim in C.GAINS:
        if state.neutral or not state.in_play(state.active):
            return
        p = state.active
        if prim == "GAIN_LIFE":
            gain_life(state, p, arg)
        elif prim == "GAIN_CTA":
            gain_cta(state, p, arg)
        elif arg == C.ANY:
            state.stack.append(["gain_color", 0])
        else:
            gain_equip(state, p, arg)
        return
    if prim == "DRAW_HORDE":
        state.stack.append(["draw", arg])
        return
    if prim == "GRASP_FRONT":
        if src >= 0:
            grasp_tile(state, C.SPACE_FACES[src])
        return
    if prim == "SIEGE_BREACH":
        if state.grasped[C.SIEGE_TILE]:
            state.stack.append(["fx", "LOSE_LIFE", 1, -1, -1, origin])
        else:
            grasp_tile(state, C.SIEGE_TILE)
        return
    if prim == "PURIFY":
        if any(state.grasped) or any(state.in_play(p) and h["board_grasped"] for p, h in enumerate(state.heroes)):
            state.current_player = state.controller()
            decide(state, "PURIFY_TARGET", purify_target_legal(state, None))
        return
    # an effect with an affected player
    if victim < 0:
        if not state.neutral:
            if not eligible(state, prim, state.active):
                return
            victim = state.active
        else:
            if not any(eligible(state, prim, p) for p in range(state.n)):
                return
            state.current_player = state.controller()
            task = ["fx", prim, arg, src, -1, origin]
            decide(state, "CHOOSE_VICTIM", choose_victim_legal(state, {"task": task}), task=task, src=src)
            return
    if not eligible(state, prim, victim):
        return
    h = state.heroes[victim]
    if prim == "LOSE_LIFE":
        lose_life(state, victim, arg)
    elif prim == "DISCARD_EQUIP":
        state.stack.append(["discard_equip", victim, arg])
    elif prim == "DISCARD_ALL_EQUIP":
        lose_all_equip(state, victim)
    elif prim == "LOSE_CTA":
        lose_cta(state, victim, arg)
    elif prim == "GRASP_HERE":
        grasp_tile(state, h["tile"])
    elif prim == "GRASP_BOARD":
        grasp_board(state, victim)
    elif prim == "TO_CENTRE":
        h["tile"] = C.CENTRE
        state._heroes_ver += 1
        state._places_ver += 1
    elif prim == "CORRUPT":
        face = C.CORRUPTION_FACES[state.chance.roll(6)]
        if face is not None:
            state.stack.append(["fx", face.prim, face.arg, src, victim, "die"])
    elif prim == "PLAGUE_WIND":
        if sum(h["equip"]) > 0:
            lose_all_equip(state, victim)
        else:
            lose_life(state, victim, 1)
    elif prim == "SOUL_DRAIN":
        if h["cta"] > 0:
            lose_cta(state, victim, 1)
        else:
            lose_life(state, victim, 1)


def purify_target_legal(state, d: dict | None) -> list[int]:
    """A Grasp to remove: a grasped tile, or the grasped Hero board of a hero in play."""
    tiles = [tile_id(state, t) for t in range(9) if state.grasped[t]]
    boards = [p for p in range(state.n) if state.in_play(p) and state.heroes[p]["board_grasped"]]
    return tiles + [player_id(state, p) for p in boards]


def choose_victim_legal(state, d: dict) -> list[int]:
    prim = d["task"][1]
    return [player_id(state, p) for p in range(state.n) if eligible(state, prim, p)]


def answer_choose_victim(state, d: dict, name: str, args: tuple) -> None:
    """CHOOSE_VICTIM: the pending effect again, with its victim."""
    task = list(d["task"])
    task[4] = abs_player(state, args[0])
    state.stack.append(task)


@TASKS.task
def discard_equip(state, victim: int, n: int) -> None:
    """``victim`` discards ``n`` Equipment, one colour choice (DISCARD_COLOR) at a time."""
    if n <= 0 or not state.in_play(victim) or sum(state.heroes[victim]["equip"]) == 0:
        return
    state.current_player = state.controller()
    decide(state, "DISCARD_COLOR", discard_color_legal(state, {"victim": victim}), victim=victim, left=n)


def discard_color_legal(state, d: dict) -> list[int]:
    return [COLOR_ID + c for c in range(5) if state.heroes[d["victim"]]["equip"][c] > 0]


def answer_discard_color(state, d: dict, name: str, args: tuple) -> None:
    lose_equip(state, d["victim"], args[0])
    state.stack.append(["discard_equip", d["victim"], d["left"] - 1])


@TASKS.task
def gain_color(state, whites: int) -> None:
    """The active hero takes an Equipment of a colour of their choice (GAIN_COLOR); ``whites``: the
    Market's white faces still to convert, this one included (0 for an effect's choice)."""
    if state.neutral or not state.in_play(state.active):
        return
    if any(state.reserve_equip):
        decide(state, "GAIN_COLOR", gain_color_legal(state, None), whites=whites)


def gain_color_legal(state, d: dict | None) -> list[int]:
    return [COLOR_ID + c for c in range(5) if state.reserve_equip[c] > 0]


def answer_gain_color(state, d: dict, name: str, args: tuple) -> None:
    gain_equip(state, state.active, args[0])
