"""Last Bastion tile actions: the ``tile`` task (one tile's action, on activation or by a Call to
Arms), Kaela's second resolution (``kaela``), and the answers to the target decisions they open
(the Standard's colour, the Trap's space, the Net's Monster, the Tomb's Monster, the Tower's card and
space, the Fountain's or a PURIFY effect's Grasp or card, the Dispensary's hero).
"""

from __future__ import annotations

from envs.core.tasks import push
from envs.last_bastion import content as C
from envs.last_bastion.actions import COLOR_ID
from envs.last_bastion.content import DEPLOYED, IN, OUT
from envs.last_bastion.decisions import (
    TASKS,
    abs_player,
    abs_space,
    abs_tile,
    decide,
    decide_spaces,
    player_id,
    space_id,
    tile_id,
)
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
    sp = state.spaces
    if tile_type == C.STANDARD:
        decide(state, "STANDARD_COLOR", [COLOR_ID + c for c in range(5)])
    elif tile_type == C.QUARRY:
        trap = state.elements["trap"]
        at = trap["where"] if trap["state"] == DEPLOYED else -1
        decide_spaces(state, "QUARRY_SPACE", [s for s in range(12) if sp[s] < 0 and s != at])
    elif tile_type == C.TREBUCHET:
        decide_spaces(state, "TREBUCHET_TARGET", [s for s in range(12) if state.net_target(s)])
    elif tile_type == C.TOMB:
        decide_spaces(state, "TOMB_TARGET", [s for s in range(12) if sp[s] >= 0 and not C.CARDS[sp[s]].warlord])
    elif tile_type == C.TOWER:
        decide_spaces(state, "TOWER_SOURCE", [s for s in range(12) if sp[s] >= 0])
    elif tile_type == C.FOUNTAIN:
        state.current_player = state.controller()
        legal = [tile_id(state, t) for t in range(9) if state.grasped[t]]
        legal += [player_id(state, p) for p in range(state.n) if state.in_play(p) and state.heroes[p]["board_grasped"]]
        legal += [space_id(state, s) for s in range(12) if sp[s] >= 0]
        decide(state, "FOUNTAIN_TARGET", legal)
    elif tile_type == C.MARKET:
        faces = [state.chance.roll(6), state.chance.roll(6)]
        whites = sum(1 for f in faces if f == C.WHITE)
        for f in faces:
            if f != C.WHITE:
                gain_equip(state, state.active, f)
        push(state.stack, *[["gain_color", whites - i] for i in range(whites)])
    elif tile_type == C.DISPENSARY:
        state.current_player = state.controller()
        decide(
            state,
            "DISPENSARY_TARGET",
            [player_id(state, p) for p in range(state.n) if state.heroes[p]["status"] == OUT],
        )
    elif tile_type == C.GREAT_HALL:
        gain_life(state, state.active, 1)
        if not via_cta:
            gain_cta(state, state.active, 1)
        push(state.stack, ["draw", 1])


@TASKS.task
def kaela(state, tile_type: int) -> None:
    """Kaela's Devotion: the tile she activated resolves a second time."""
    if state.power_usable(state.active, C.KAELA) and not state.neutral:
        push(state.stack, ["tile", tile_type, False])


# == the answers to the tiles' target decisions ====================================================
def answer_standard_color(state, d: dict, name: str, args: tuple) -> None:
    std = state.elements["standard"]
    std.update(state=DEPLOYED, where=args[0], seat=state.seat_of[state.active])


def answer_quarry_space(state, d: dict, name: str, args: tuple) -> None:
    state.elements["trap"].update(state=DEPLOYED, where=abs_space(state, args[0]))


def answer_trebuchet_target(state, d: dict, name: str, args: tuple) -> None:
    state.elements["net"].update(state=DEPLOYED, where=abs_space(state, args[0]))


def answer_tomb_target(state, d: dict, name: str, args: tuple) -> None:
    remove_card(state, abs_space(state, args[0]))
    lose_life(state, state.active, 1)


def answer_tower_source(state, d: dict, name: str, args: tuple) -> None:
    src = abs_space(state, args[0])
    decide_spaces(state, "TOWER_DEST", [s for s in range(12) if state.spaces[s] < 0], src=src)


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


def answer_dispensary_target(state, d: dict, name: str, args: tuple) -> None:
    """The taken-out hero comes back wounded, with 3 Life and 1 Call to Arms, on the Dispensary."""
    q = abs_player(state, args[0])
    state.heroes[q].update(status=IN, wounded=True, tile=state.tile_pos(C.DISPENSARY))
    gain_life(state, q, 3)
    gain_cta(state, q, 1)
