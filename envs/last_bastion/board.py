"""The Last Bastion play view (``board(state, seat)``, ``action_keys``): the 3x3 Bastion tiles with the 12
spaces around them, elements, heroes, for the browser and terminal play.

Everything on the table is public (docs/last_bastion.md); hidden are only the deck order and the
cards set aside, of which the board shows the deck's size alone.
"""

from __future__ import annotations

from typing import Any

from envs.core.board import card, empty, item, section, tile, token, track
from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT
from envs.last_bastion.text import element_place, space_marks

DEPLOYED = "deployed"
# Where each space sits on the 5x5 picture (the tiles fill the middle 3x3): s0-s2 below the bottom
# row (facing tiles 8, 7, 6), s3-s5 left of the left column, s6-s8 above, s9-s11 on the right.
SPACE_CELLS = {
    0: (4, 3),
    1: (4, 2),
    2: (4, 1),
    3: (3, 0),
    4: (2, 0),
    5: (1, 0),
    6: (0, 1),
    7: (0, 2),
    8: (0, 3),
    9: (1, 4),
    10: (2, 4),
    11: (3, 4),
}
COLOR_CSS = {"red": "#c0392b", "green": "#27ae60", "blue": "#2980b9", "yellow": "#d4ac0d", "black": "#333333"}


def _effect(e: Any) -> str:
    if e is None:
        return "-"
    arg = getattr(e, "arg", None)
    if e.prim == "GAIN_EQUIP" and isinstance(arg, int) and not isinstance(arg, bool):
        arg = C.COLORS[arg]
    return e.prim if arg in (None, 1) else f"{e.prim}({arg})"


def _space(state: Any, s: int) -> dict[str, Any]:
    key = f"space:{s}"
    board_color = C.COLORS[s // 3]
    cid = state.spaces[s]
    trap = state.elements["trap"]
    if cid < 0:
        name = "Trap" if trap["state"] == DEPLOYED and trap["where"] == s else f"s{s}"
        return empty(name, key, tags=[f"{board_color} board"])
    c = C.CARDS[cid]
    tags = space_marks(state, s)
    if c.warlord:
        tags.insert(0, "Warlord")
    values = [
        ["resistance", f"{state.effective_resistance(s)}/{c.resistance}"],
        ["in", _effect(c.entrance)],
        ["central", _effect(c.central)],
        ["out", _effect(c.exit)],
    ]
    return item(
        "monster",
        c.name,
        key,
        values=values,
        tags=tags,
        text=f"s{s} ({board_color} board)",
        color=COLOR_CSS[C.COLORS[c.color]],
    )


def board(state: Any, seat: int) -> dict[str, Any]:
    n = state.n
    controller = "neutral" if state.neutral else f"player_{state.active}"
    status = f"board-turn {state.board_turns}, {C.COLORS[state.board]} board ({controller})"
    if state.decision is not None and state.result is None:
        status += f", {state.decision['kind']} for player_{state.current_player}"
    if state.result is not None:
        status = f"game over: {state.result}"
    sealed = state.sealed_tiles()
    grid: list[dict[str, Any] | None] = [None] * 25
    for t in range(9):
        row, col = 1 + t // 3, 1 + t % 3
        tt = C.TILES[state.layout[t]]
        heroes = [
            f"player_{p} {C.HEROES[h['hero']].name}"
            for p, h in enumerate(state.heroes)
            if h["tile"] == t and h["status"] == "in"
        ]
        tags = heroes + ["grasped" if state.grasped[t] else "", "sealed" if t in sealed else ""]
        grid[5 * row + col] = tile(tt.name, f"tile:{t}", tags=tags, text=tt.action, values=[["tile", f"t{t}"]])
    for s, (row, col) in SPACE_CELLS.items():
        grid[5 * row + col] = _space(state, s)
    cells = [g if g is not None else item("blank", "") for g in grid]
    sections = [section("The Bastion (tiles) and the spaces of the four boards", cells, layout="grid", columns=5)]
    elements = []
    for name in C.ELEMENTS:
        where = element_place(state, name)
        elements.append(token(f"{name}: {state.elements[name]['state']}", None, key=f"element:{name}", tags=[where]))
    table = [
        track("Warlords vanquished", state.vanquished, state.W),
        token("deck", len(state.deck), key="deck"),
        token("discard", len(state.discard)),
        token("reserve Life", state.reserve_life),
        token("reserve Call to Arms", state.reserve_cta),
    ]
    table += [
        token(f"reserve {C.COLORS[c]}", k, key=f"color:{c}", color=COLOR_CSS[C.COLORS[c]])
        for c, k in enumerate(state.reserve_equip)
    ]
    sections.append(section("Horde and reserves", table + elements))
    d = state.decision
    if d is not None and d.get("kind") == "COMBAT_RESOLVE":
        dice = [token("die", C.DIE_FACES[f], color=COLOR_CSS.get(C.DIE_FACES[f], "#eeeeee")) for f in d["dice"]]
        pool = [token(f"pool {C.COLORS[c]}", k, color=COLOR_CSS[C.COLORS[c]]) for c, k in enumerate(state.pool()) if k]
        sections.append(section("Combat", dice + pool))
    for p, h in enumerate(state.heroes):
        hero = C.HEROES[h["hero"]]
        tile_name = f"t{h['tile']} {C.TILES[state.layout[h['tile']]].name}" if h["tile"] >= 0 else "-"
        items = [
            card(
                hero.name,
                f"hero:{p}",
                values=[["seat", C.COLORS[state.seat_of[p]]], ["on", tile_name]],
                tags=[h["status"], "wounded" if h["wounded"] else "", "board grasped" if h["board_grasped"] else ""],
                text=hero.power,
                color=COLOR_CSS[C.COLORS[state.seat_of[p]]],
            ),
            track("Life", h["life"], C.LIFE_TOTAL),
            track("Call to Arms", h["cta"], C.CTA_TOTAL),
        ]
        items += [
            token(f"{C.COLORS[c]} equipment", k, key=f"equip:{p}:{c}", color=COLOR_CSS[C.COLORS[c]])
            for c, k in enumerate(h["equip"])
            if k
        ]
        active = state.result is None and p == state.current_player
        sections.append(section(f"player_{p}", items, owner=p, you=p == seat, active=active))
    return {"title": f"Last Bastion, {n} player{'s' if n > 1 else ''}", "status": status, "sections": sections}


def action_keys(state: Any, action: int) -> list[str]:
    name, args = LAYOUT.decode(action)
    p = state.current_player if state.current_player >= 0 else 0
    seat = state.seat_of[p]
    if name in ("MOVE_TO", "CALL_TO_ARMS", "SELECT_TILE"):
        return [f"tile:{C.ABS_TILE[seat][args[0]]}"]
    if name in ("FIGHT", "ENCHANT", "SELECT_SPACE"):
        return [f"space:{(args[0] + 3 * seat) % 12}"]
    if name == "SELECT_PLAYER":
        q = state.player_at[(seat + args[0]) % 4]
        return [f"hero:{q}"] if q >= 0 else []
    if name == "SELECT_COLOR":
        return [f"color:{args[0]}"]
    if name == "ACTIVATE":
        return [f"tile:{state.heroes[p]['tile']}"]
    return []
