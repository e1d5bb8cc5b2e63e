"""Last Bastion, the Hero phase: the ``hero`` task that opens the active hero's MAIN decision, the
legal MAIN actions (:func:`main_legal`), and their answer (move, activate the tile, fight, Call to
Arms, Mylfaar's Enchantment, end the phase). Tile actions are in ``tiles.py``, combat in ``combat.py``.
"""

from __future__ import annotations

from envs.core.tasks import push
from envs.last_bastion import content as C
from envs.last_bastion.actions import ACTIVATE, CTA_ID, ENCHANT_ID, END_TURN, FIGHT_BOTH, FIGHT_ID, MOVE_ID
from envs.last_bastion.combat import start_combat
from envs.last_bastion.content import DEPLOYED
from envs.last_bastion.decisions import TASKS, abs_space, abs_tile, decide
from envs.last_bastion.tokens import lose_cta

#: per tile: the adjacent tiles, and every other tile (Ysolde), in increasing order
_NEIGHBOURS = tuple(tuple(u for u in range(9) if C.adjacent(u, t)) for t in range(9))
_OTHERS = tuple(tuple(u for u in range(9) if u != t) for t in range(9))


@TASKS.task
def hero(state) -> None:
    """The active hero's MAIN decision (again after each action but END_TURN)."""
    if state.neutral or not state.in_play(state.active):
        return
    state.current_player = state.active
    decide(state, "MAIN", main_legal(state))


def main_legal(state) -> list[int]:
    """The active hero's legal MAIN ids: END_TURN, one move, one act (activate or fight), any Calls
    to Arms, Mylfaar's Enchantment once."""
    p = state.active
    h = state.heroes[p]
    seat = state.seat_of[p]
    rel_t, t = C.REL_TILE[seat], h["tile"]
    legal = [END_TURN]
    if not state.moved:
        ysolde = state.power_usable(p, C.YSOLDE)
        legal += [MOVE_ID + rel_t[u] for u in (_OTHERS[t] if ysolde else _NEIGHBOURS[t])]
    if not state.acted:
        if not state.grasped[t] and not state.sealed(t) and state.completable(state.layout[t]):
            legal.append(ACTIVATE)
        for s in C.TILE_SPACES[t]:
            if state.spaces[s] >= 0:
                legal.append(FIGHT_ID + (s - 3 * seat) % 12)
        if t == C.CENTRE and state.power_usable(p, C.TWINDALLI):
            legal += [FIGHT_ID + (s - 3 * seat) % 12 for s in C.MIDDLE_SPACES if state.spaces[s] >= 0]
        if t in C.CORNERS and all(state.spaces[s] >= 0 for s in C.TILE_SPACES[t]):
            legal.append(FIGHT_BOTH)
    if h["cta"] > 0 and state.ongoing_count("ONG_NO_CTA") == 0:
        completable = state.completable_types()
        legal += [CTA_ID + rel_t[u] for u in range(9) if completable[state.layout[u]]]
    if not state.power_used and state.power_usable(p, C.MYLFAAR) and state.available("enchantment"):
        ench = state.elements["enchantment"]
        for s in range(12):
            if state.spaces[s] >= 0 and not (ench["state"] == DEPLOYED and ench["where"] == s):
                legal.append(ENCHANT_ID + (s - 3 * seat) % 12)
    return legal


def answer_main(state, d: dict, name: str, args: tuple) -> None:
    """MAIN: play the action; the Hero phase goes on (a new MAIN) unless it was END_TURN."""
    p = state.active
    h = state.heroes[p]
    state.stack.append(["hero"])
    if name == "END_TURN":
        state.stack.pop()
    elif name == "MOVE_TO":
        h["tile"] = abs_tile(state, args[0])
        state._heroes_ver += 1
        state._places_ver += 1
        state.moved = True
    elif name == "ACTIVATE":
        state.acted = True
        tile_type = state.layout[h["tile"]]
        if state.power_usable(p, C.KAELA):
            push(state.stack, ["tile", tile_type, False], ["kaela", tile_type])
        else:
            state.stack.append(["tile", tile_type, False])
    elif name == "FIGHT":
        start_combat(state, [abs_space(state, args[0])])
    elif name == "FIGHT_BOTH":
        start_combat(state, list(C.TILE_SPACES[h["tile"]]))
    elif name == "CALL_TO_ARMS":
        lose_cta(state, p, 1)
        state.stack.append(["tile", state.layout[abs_tile(state, args[0])], True])
    elif name == "ENCHANT":
        state.power_used = True
        state.elements["enchantment"].update(state=DEPLOYED, where=abs_space(state, args[0]))
        state._board_ver += 1
        state._elements_ver += 1
