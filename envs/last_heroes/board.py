"""The Last Heroes board from one seat: monster columns, artefacts, decks, discard, every Magazine.

Public (docs/last_heroes.md 5.2): the monsters, standees, artefacts, every Magazine, loaded
weapons, Jokers, wheels, kills, the discard pile, deck sizes and hand sizes, and the cards each
hand is known to hold (``known``). Hidden: the rest of another seat's hand and the deck orders.
"""

from __future__ import annotations

from typing import Any

from envs.core.board import card, empty, hidden, monster, section, token, track
from envs.last_heroes import actions as A
from envs.last_heroes.constants import HELD, JOKER, NO, PHASES, POWER_NAMES
from envs.last_heroes.content import JOKER_CAP, NUM_KINDS, NUM_LEVELS, ROUNDS

TYPE_COLORS = ("#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400")


def _kind_card(state: Any, k: int, key: str | None, count: int | None = None, tags=None) -> dict[str, Any]:
    g = state.game
    values = [["power", f"P{g.kind_power[k]}"], ["ammo", g.kind_ammo[k]]]
    if count is not None:
        values.insert(0, ["cards", count])
    return card(g.content.kind_name(k), key, values=values, tags=tags, color=TYPE_COLORS[g.kind_type[k] % 5])


def board(state: Any, seat: int) -> dict[str, Any]:
    c, n = state.game.content, state.n
    if state.end_case:
        status = f"game over (case {state.end_case})"
    else:
        status = f"round {state.round}/{ROUNDS}, {PHASES[state.phase]}, player_{state.current_player} to act"
    sections = []
    # The monster grid: one column per seat, Level 3 on top.
    cells = []
    for lv in reversed(range(NUM_LEVELS)):
        for col in range(n):
            m = state.board[col][lv]
            key = f"monster:{col}:{lv}"
            if m == NO:
                cells.append(empty("permanent breach" if state.permanent[col][lv] else "empty", key))
                continue
            need = state.required(col, lv)
            mon = c.monsters[m]
            tags = [f"standee player_{state.standee_on[col][lv]}" if state.standee_on[col][lv] != NO else ""]
            if state.covered(col, lv):
                tags.append("dark zone covered")
            values = [["level", mon.level], ["VP", mon.vp], ["P1", need[0]], ["P2", need[1]], ["P3", need[2]]]
            cells.append(monster(mon.name, key, values=values, tags=tags, text=f"column {col}"))
    for col in range(n):
        p = state.pedestal[col]
        cells.append(
            token(f"artefact {POWER_NAMES[p]}", key=f"pedestal:{col}", text=f"column {col}")
            if p != NO
            else empty("no artefact", f"pedestal:{col}")
        )
    sections.append(section("Monsters (Level 3 at the top) and artefacts", cells, layout="grid", columns=n))
    table = [token(f"deck L{lv + 1}", len(state.decks[lv]), key=f"deck:{lv}") for lv in range(NUM_LEVELS)]
    table += [_kind_card(state, k, f"discard:{k}", state.discard[k]) for k in range(NUM_KINDS) if state.discard[k]]
    sections.append(section("Decks and discard pile", table))
    for i in range(n):
        items = [
            track("score wheel", state.wheel[i], None, key=f"wheel:{i}"),
            track("Jokers", state.jokers[i], JOKER_CAP, key=f"jokers:{i}"),
            token("kills", len(state.kills[i]), values=[["VP", state.vp[i]]]),
        ]
        for slot in range(2):
            k = state.mag_kind[i][slot]
            key = f"mag:{i}:{slot}"
            if k == NO:
                items.append(empty(f"Magazine slot {slot}", key))
            else:
                mag = _kind_card(state, k, key, tags=[f"Magazine slot {slot}"])
                mag["values"].append(["left", state.mag_ammo[i][slot]])
                items.append(mag)
        for k in range(NUM_KINDS):
            if state.loaded[i][k]:
                items.append(_kind_card(state, k, None, state.loaded[i][k], tags=["loaded weapon"]))
        for p in state.artefacts[i]:
            used = state.tile_state[p] != HELD
            items.append(token(POWER_NAMES[p], key=f"power:{p}", tags=["used" if used else "held"]))
        hand = state.hands[i]
        if i == seat:
            items += [_kind_card(state, k, f"hand:{k}", hand[k], tags=["hand"]) for k in range(NUM_KINDS) if hand[k]]
        else:
            known = state.known[i]
            unknown = sum(hand) - sum(known)
            items += [
                _kind_card(state, k, None, known[k], tags=["known in hand"]) for k in range(NUM_KINDS) if known[k]
            ]
            if unknown:
                items.append(hidden("hand", unknown))
        sections.append(
            section(
                f"player_{i}",
                items,
                owner=i,
                you=i == seat,
                active=i == state.current_player and not state.end_case,
            )
        )
    return {"title": f"Last Heroes, {n} players", "status": status, "sections": sections}


def action_keys(state: Any, action: int) -> list[str]:
    name, args = A.LAYOUT.decode(action)
    me = state.current_player
    if name == "PLAY_AMMO":
        return [f"hand:{args[0]}", f"mag:{me}:{args[1]}"]
    if name in ("LOAD", "SELECT_HAND"):
        return [f"hand:{args[0]}"]
    if name in ("SOURCE", "L1_SWAP"):
        return [f"mag:{(me + args[0]) % state.n}:{args[1]}"]
    if name == "SOURCE_JOKER":
        return [f"jokers:{me}"]
    if name in ("ATTACK", "ATTACK_IMPACT"):
        return [f"monster:{args[0]}:{args[1]}"]
    if name == "EXCHANGE_TAKE":
        return [f"discard:{args[0]}"]
    if name == "POWER_JOKER":
        return [f"power:{JOKER}"]
    if name == "POWER_RELOAD":
        return [f"mag:{me}:{args[0]}"]
    return []
