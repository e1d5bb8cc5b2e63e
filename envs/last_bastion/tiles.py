"""Last Bastion tile actions: the ``tile`` task (one tile's action, on activation or by a Call to
Arms), Kaela's second resolution (``kaela``), and the answers to the target decisions they open
(the Standard's colour, the Trap's space, the Net's Monster, the Tomb's Monster, the Tower's card and
space, the Fountain's or a PURIFY effect's Grasp or card, the Dispensary's hero).
"""

from __future__ import annotations

from envs.core.tasks import push
from envs.last_bastion import content as C
from envs.last_bastion.actions import COLOR_ID, SPACE_ID
from envs.last_bastion.content import DEPLOYED, IN, OUT
from envs.last_bastion.decisions import (
    TASKS,
    abs_player,
    abs_space,
    abs_tile,
    decide,
    open_decision,
    player_id,
)
from envs.last_bastion.effects import purify_target_legal
from envs.last_bastion.tokens import (
    gain_cta,
    gain_equip,
    gain_life,
    lose_life,
    move_card,
    remove_card,
    ungrasp_board,
    ungrasp_tile,
)


@TASKS.task
def tile(state, tile_type: int, via_cta: bool) -> None:
    """Resolve the action of a tile of ``tile_type`` for the active hero (if it can still complete)."""
    if not state.in_play(state.active) or state.neutral or not state.completable(tile_type):
        return
    if tile_type in _TARGET_DECISION:  # a tile whose action has a target: the controller chooses it
        kind = _TARGET_DECISION[tile_type]
        state.current_player = state.controller()  # the targets' ids are in its frame
        open_decision(state, kind, TARGETS[kind](state, None), {})
    elif tile_type == C.MARKET:
        faces = [state.chance.roll(6), state.chance.roll(6)]
        whites = sum(1 for f in faces if f == C.WHITE)
        for f in faces:
            if f != C.WHITE:
                gain_equip(state, state.active, f)
        push(state.stack, *[["gain_color", whites - i] for i in range(whites)])
    elif tile_type == C.GREAT_HALL:
        gain_life(state, state.active, 1)
        if not via_cta:
            gain_cta(state, state.active, 1)
        state.stack.append(["draw", 1])


@TASKS.task
def kaela(state, tile_type: int) -> None:
    """Kaela's Devotion: the tile she activated resolves a second time."""
    if state.power_usable(state.active, C.KAELA) and not state.neutral:
        state.stack.append(["tile", tile_type, False])


# == the tiles' target decisions: their legal ids, and their answers ===============================
def _spaces(state, spaces) -> list[int]:
    """``space_id`` of each of ``spaces``."""
    seat3 = 3 * state.seat_of[state.current_player]
    return [SPACE_ID + (s - seat3) % 12 for s in spaces]


def quarry_space_legal(state, d: dict | None) -> list[int]:
    trap = state.elements["trap"]
    at = trap["where"] if trap["state"] == DEPLOYED else -1
    return _spaces(state, [s for s in range(12) if state.spaces[s] < 0 and s != at])


def fountain_target_legal(state, d: dict | None) -> list[int]:
    """A Grasp to remove (tile, Hero board), or a card to sanctify."""
    legal = purify_target_legal(state, d)
    return legal + _spaces(state, [s for s in range(12) if state.spaces[s] >= 0])


#: decision kind -> its legal ids (in the frame of ``state.current_player``) for ``(state, decision)``
TARGETS = {
    "STANDARD_COLOR": lambda state, d: [COLOR_ID + c for c in range(5)],
    "QUARRY_SPACE": quarry_space_legal,
    "TREBUCHET_TARGET": lambda state, d: _spaces(state, [s for s in range(12) if state.net_target(s)]),
    "TOMB_TARGET": lambda state, d: _spaces(
        state, [s for s in range(12) if state.spaces[s] >= 0 and not C.CARDS[state.spaces[s]].warlord]
    ),
    "TOWER_SOURCE": lambda state, d: _spaces(state, [s for s in range(12) if state.spaces[s] >= 0]),
    "TOWER_DEST": lambda state, d: _spaces(state, [s for s in range(12) if state.spaces[s] < 0]),
    "FOUNTAIN_TARGET": fountain_target_legal,
    "DISPENSARY_TARGET": lambda state, d: [
        player_id(state, p) for p in range(state.n) if state.heroes[p]["status"] == OUT
    ],
}
#: the tiles whose action opens a target decision
_TARGET_DECISION = {
    C.STANDARD: "STANDARD_COLOR",
    C.QUARRY: "QUARRY_SPACE",
    C.TREBUCHET: "TREBUCHET_TARGET",
    C.TOMB: "TOMB_TARGET",
    C.TOWER: "TOWER_SOURCE",
    C.FOUNTAIN: "FOUNTAIN_TARGET",
    C.DISPENSARY: "DISPENSARY_TARGET",
}


def answer_standard_color(state, d: dict, name: str, args: tuple) -> None:
    std = state.elements["standard"]
    std.update(state=DEPLOYED, where=args[0], seat=state.seat_of[state.active])
    state._board_ver += 1
    state._elements_ver += 1


def answer_quarry_space(state, d: dict, name: str, args: tuple) -> None:
    state.elements["trap"].update(state=DEPLOYED, where=abs_space(state, args[0]))
    state._board_ver += 1
    state._elements_ver += 1


def answer_trebuchet_target(state, d: dict, name: str, args: tuple) -> None:
    state.elements["net"].update(state=DEPLOYED, where=abs_space(state, args[0]))
    state._board_ver += 1
    state._elements_ver += 1


def answer_tomb_target(state, d: dict, name: str, args: tuple) -> None:
    remove_card(state, abs_space(state, args[0]))
    lose_life(state, state.active, 1)


def answer_tower_source(state, d: dict, name: str, args: tuple) -> None:
    src = abs_space(state, args[0])
    state.current_player = state.controller()
    decide(state, "TOWER_DEST", TARGETS["TOWER_DEST"](state, None), src=src)


def answer_tower_dest(state, d: dict, name: str, args: tuple) -> None:
    move_card(state, d["src"], abs_space(state, args[0]))


def answer_fountain_target(state, d: dict, name: str, args: tuple) -> None:
    """FOUNTAIN_TARGET and PURIFY_TARGET: a Grasp off a tile or a Hero board, or a card sanctified."""
    if name == "SELECT_TILE":
        ungrasp_tile(state, abs_tile(state, args[0]))
    elif name == "SELECT_PLAYER":
        ungrasp_board(state, abs_player(state, args[0]))
    else:
        state.sanct[abs_space(state, args[0])] = state.seat_of[state.active]
        state._board_ver += 1


def answer_dispensary_target(state, d: dict, name: str, args: tuple) -> None:
    """The taken-out hero comes back wounded, with 3 Life and 1 Call to Arms, on the Dispensary."""
    q = abs_player(state, args[0])
    state.heroes[q].update(status=IN, wounded=True, tile=state.tile_pos(C.DISPENSARY))
    state._heroes_ver += 1
    state._places_ver += 1
    gain_life(state, q, 3)
    gain_cta(state, q, 1)
