"""Last Bastion bookkeeping shared by every phase: Life, Calls to Arms and Equipment moving between
the reserve and the heroes, a hero taken out, Grasps of Evil on tiles and Hero boards, elements going
home, and cards leaving the spaces. Plain functions of the state; the reserves never go negative
(a gain takes what the reserve has).
"""

from __future__ import annotations

from envs.last_bastion import content as C
from envs.last_bastion.content import DEAD, DEPLOYED, GONE, HOME, OUT, PARKED


# == tokens ========================================================================================
def gain_life(state, p: int, n: int) -> None:
    k = min(n, state.reserve_life)
    state.reserve_life -= k
    state.heroes[p]["life"] += k
    state._heroes_ver += 1


def gain_cta(state, p: int, n: int) -> None:
    k = min(n, state.reserve_cta)
    state.reserve_cta -= k
    state.heroes[p]["cta"] += k
    state._heroes_ver += 1


def gain_equip(state, p: int, c: int) -> None:
    if state.reserve_equip[c] > 0:
        state.reserve_equip[c] -= 1
        state.heroes[p]["equip"][c] += 1
        state._heroes_ver += 1


def lose_equip(state, p: int, c: int) -> None:
    if state.heroes[p]["equip"][c] > 0:
        state.heroes[p]["equip"][c] -= 1
        state.reserve_equip[c] += 1
        state._heroes_ver += 1


def lose_all_equip(state, p: int) -> None:
    for c in range(5):
        state.reserve_equip[c] += state.heroes[p]["equip"][c]
        state.heroes[p]["equip"][c] = 0
    state._heroes_ver += 1


def lose_cta(state, p: int, n: int) -> None:
    k = min(n, state.heroes[p]["cta"])
    state.heroes[p]["cta"] -= k
    state.reserve_cta += k
    state._heroes_ver += 1


def lose_life(state, p: int, n: int) -> None:
    """One Life at a time; the hero is taken out at 0 (the rest of ``n`` is not lost)."""
    for _ in range(n):
        if not state.in_play(p):
            return
        h = state.heroes[p]
        h["life"] -= 1
        state.reserve_life += 1
        state._heroes_ver += 1
        state.counters["life_lost"] += 1
        if h["life"] == 0:
            take_out(state, p)
            return


def take_out(state, p: int) -> None:
    """Hero ``p`` leaves the Bastion (dead if already wounded); the game is lost with no hero in play."""
    h = state.heroes[p]
    lose_all_equip(state, p)
    lose_cta(state, p, h["cta"])
    h["tile"] = -1
    h["status"] = DEAD if h["wounded"] else OUT
    h["board_grasped"] = False
    state._heroes_ver += 1
    state._places_ver += 1
    state._board_ver += 1
    state._elements_ver += 1
    if h["hero"] == C.MYLFAAR and state.elements["enchantment"]["state"] in (HOME, PARKED):
        state.elements["enchantment"]["state"] = GONE
    if p == state.active:
        state.neutral = True
    if not any(state.in_play(q) for q in range(state.n)):
        state.result = "defeat_heroes"


# == Grasps of Evil ================================================================================
def grasp_tile(state, t: int) -> None:
    """A Grasp on tile ``t`` (none left in the box, or already grasped: nothing); a third is the defeat."""
    if t < 0 or state.grasped[t] or state.grasp_reserve() == 0:
        return
    state.grasped[t] = True
    state._board_ver += 1
    state._elements_ver += 1
    state.counters["grasp"] += 1
    for name, home in C.ELEMENT_HOME_TILE.items():
        if state.layout[t] == home and state.elements[name]["state"] == HOME:
            state.elements[name]["state"] = PARKED
    if sum(state.grasped) >= 3:
        state.result = "defeat_grasp"


def ungrasp_tile(state, t: int) -> None:
    state.grasped[t] = False
    state._board_ver += 1
    state._elements_ver += 1
    state.counters["purified"] += 1
    for name, home in C.ELEMENT_HOME_TILE.items():
        if state.layout[t] == home and state.elements[name]["state"] == PARKED:
            state.elements[name]["state"] = HOME


def grasp_board(state, p: int) -> None:
    h = state.heroes[p]
    if h["board_grasped"] or state.grasp_reserve() == 0:
        return
    h["board_grasped"] = True
    state._heroes_ver += 1
    state._places_ver += 1
    state._board_ver += 1
    state._elements_ver += 1
    ench = state.elements["enchantment"]
    if h["hero"] == C.MYLFAAR and ench["state"] == HOME:
        ench["state"] = PARKED


def ungrasp_board(state, p: int) -> None:
    h = state.heroes[p]
    h["board_grasped"] = False
    state._heroes_ver += 1
    state._places_ver += 1
    state._board_ver += 1
    state._elements_ver += 1
    state.counters["purified"] += 1
    ench = state.elements["enchantment"]
    if h["hero"] == C.MYLFAAR and ench["state"] == PARKED:
        ench["state"] = HOME


# == elements and cards ============================================================================
def return_element(state, name: str) -> None:
    """Element ``name`` goes back: home, parked (its home tile or Mylfaar's board grasped) or gone."""
    e = state.elements[name]
    e["where"], e["seat"] = -1, -1
    state._board_ver += 1
    state._elements_ver += 1
    if name == "enchantment":
        m = state.mylfaar()
        if m < 0 or not state.in_play(m) or state.heroes[m]["wounded"]:
            e["state"] = GONE
        else:
            e["state"] = PARKED if state.heroes[m]["board_grasped"] else HOME
    else:
        e["state"] = PARKED if state.grasped[state.tile_pos(C.ELEMENT_HOME_TILE[name])] else HOME


def remove_card(state, s: int) -> None:
    """The card on space ``s`` goes to the discard, with its mark; the Net and Enchantment on it go back."""
    card = state.spaces[s]
    state.spaces[s] = -1
    state.sanct[s] = -1
    state.discard.append(card)
    state._board_ver += 1
    for name in ("net", "enchantment"):
        e = state.elements[name]
        if e["state"] == DEPLOYED and e["where"] == s:
            return_element(state, name)


def move_card(state, src: int, dest: int) -> None:
    """The card on ``src`` with its mark, Net and Enchantment to the free space ``dest`` (a Trap there goes back)."""
    state.spaces[dest], state.spaces[src] = state.spaces[src], -1
    state.sanct[dest], state.sanct[src] = state.sanct[src], -1
    state._board_ver += 1
    state._elements_ver += 1
    for name in ("net", "enchantment"):
        e = state.elements[name]
        if e["state"] == DEPLOYED and e["where"] == src:
            e["where"] = dest
    trap = state.elements["trap"]
    if trap["state"] == DEPLOYED and trap["where"] == dest:
        return_element(state, "trap")
