"""Last Bastion, the Hero phase: the ``hero`` task that opens the active hero's MAIN decision, the
legal MAIN actions (:func:`main_legal`), and their answer (move, activate the tile, fight, Call to
Arms, Mylfaar's Enchantment, end the phase). Tile actions are in ``tiles.py``, combat in ``combat.py``.
"""

from __future__ import annotations

from envs.core.tasks import push
from envs.last_bastion import content as C
from envs.last_bastion.actions import ACTIVATE, CTA_ID, ENCHANT_ID, END_TURN, FIGHT_BOTH, FIGHT_ID, MOVE_ID
from envs.last_bastion.combat import start_combat
from envs.last_bastion.content import DEPLOYED, IN
from envs.last_bastion.decisions import TASKS, abs_space, abs_tile, open_decision
from envs.last_bastion.tokens import lose_cta

#: per tile: the adjacent tiles, and every other tile (Ysolde), in increasing order
_NEIGHBOURS = tuple(tuple(u for u in range(9) if C.adjacent(u, t)) for t in range(9))
_OTHERS = tuple(tuple(u for u in range(9) if u != t) for t in range(9))
#: [seat][tile][Ysolde's power usable]: the MOVE_TO ids from that tile, in that seat's frame
_MOVES = tuple(
    tuple(
        tuple(tuple(MOVE_ID + C.REL_TILE[seat][u] for u in tiles[t]) for tiles in (_NEIGHBOURS, _OTHERS))
        for t in range(9)
    )
    for seat in range(4)
)
_NO_EXTRA: dict = {}


@TASKS.task
def hero(state) -> None:
    """The active hero's MAIN decision (again after each action but END_TURN)."""
    p = state.active
    if state.neutral or p < 0 or state.heroes[p]["status"] != IN:
        return
    state.current_player = p  # the controller: the active hero in play
    open_decision(state, "MAIN", main_legal(state), _NO_EXTRA)


def main_legal(state) -> list[int]:
    """The active hero's legal MAIN ids (any order: the decision sorts them): END_TURN, one move, one
    act (activate or fight), any Calls to Arms, Mylfaar's Enchantment once."""
    p = state.active
    h = state.heroes[p]
    seat = state.seat_of[p]
    t = h["tile"]
    # power_usable(p), once: the hero whose power is usable, else -1
    power = h["hero"] if h["status"] == IN and not h["wounded"] and not h["board_grasped"] else -1
    _, ongoing, sealed = state.central_effects()
    legal = [END_TURN]
    if not state.moved:
        legal += _MOVES[seat][t][power == C.YSOLDE]
    completable = state.completable_tuple() if not state.acted or h["cta"] > 0 else None
    if not state.acted:
        spaces = state.spaces
        if not state.grasped[t] and t not in sealed and completable[state.layout[t]]:
            legal.append(ACTIVATE)
        faced = C.TILE_SPACES[t]
        for s in faced:
            if spaces[s] >= 0:
                legal.append(FIGHT_ID + (s - 3 * seat) % 12)
        if t == C.CENTRE and power == C.TWINDALLI:
            legal += [FIGHT_ID + (s - 3 * seat) % 12 for s in C.MIDDLE_SPACES if spaces[s] >= 0]
        if t in C.CORNERS and spaces[faced[0]] >= 0 and spaces[faced[1]] >= 0:
            legal.append(FIGHT_BOTH)
    if h["cta"] > 0 and ongoing["ONG_NO_CTA"] == 0:
        rel_t, layout = C.REL_TILE[seat], state.layout
        legal += [CTA_ID + rel_t[u] for u in range(9) if completable[layout[u]]]
    if not state.power_used and power == C.MYLFAAR and state.available("enchantment"):
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
