"""Last Heroes in words: what an action id means in a state, and the whole table as text."""

from __future__ import annotations

from typing import Any

from envs.last_heroes import actions as A
from envs.last_heroes.constants import EXCHANGE_GIVE, HELD, L1_GIVE, NO, PHASES, POWER_NAMES, SETUP_PICK
from envs.last_heroes.content import NUM_LEVELS, ROUNDS


def monster_text(state: Any, m: int) -> str:
    mon = state.game.content.monsters[m]
    return f"{mon.name} (L{mon.level}, {mon.vp} VP)"


def slot_text(state: Any, seat: int, slot: int) -> str:
    k = state.mag_kind[seat][slot]
    if k == NO:
        return "(empty)"
    return f"{state.game.content.kind_name(k)} [{state.mag_ammo[seat][slot]}/{state.game.kind_ammo[k]}]"


def describe_action(state: Any, action: int) -> str:
    name, args = A.LAYOUT.decode(int(action))
    seat = state.current_player if state.current_player != NO else 0
    kn = state.game.content.kind_name
    if name == "PLAY_AMMO":
        k, slot = args
        return f"share {kn(k)} as Ammo into your slot {slot}"
    if name == "LOAD":
        return f"load {kn(args[0])} as a weapon"
    if name in ("SOURCE", "L1_SWAP"):
        rel, slot = args
        owner = state._abs(rel, seat)
        whose = "your" if rel == 0 else f"player_{owner}'s"
        what = slot_text(state, owner, slot) if rel < state.n else "(no such seat)"
        verb = "take 1 Ammo from" if name == "SOURCE" else "Level 1 effect: replace"
        return f"{verb} {whose} slot {slot}: {what}"
    if name in ("ATTACK", "ATTACK_IMPACT"):
        c, lv = args
        m = state.board[c][lv] if c < state.n else NO
        target = monster_text(state, m) if m != NO else "an empty slot"
        extra = " with IMPACT" if name == "ATTACK_IMPACT" else ""
        return f"attack column {c} level {lv + 1}: {target}{extra}"
    if name == "SELECT_HAND":
        what = {
            SETUP_PICK: "put into your Magazine",
            L1_GIVE: "give to the Magazine",
            EXCHANGE_GIVE: "give to the discard",
        }
        return f"{what.get(state.phase, 'choose')}: {kn(args[0])}"
    if name == "EXCHANGE_TAKE":
        return f"EXCHANGE: take {kn(args[0])} from the discard pile"
    if name == "POWER_RELOAD":
        return f"RELOAD your slot {args[0]}"
    words = {
        "SOURCE_JOKER": "use a Joker for the load",
        "L1_SKIP": "skip the Level 1 effect",
        "POWER_JOKER": "JOKER: gain a Joker",
        "END_TURN": "end the turn",
        "END_TURN_IMMUNITY": "end the turn with IMMUNITY",
    }
    return words[name]


def render(state: Any, seat: int | None = None) -> str:
    c = state.game.content
    lines = []
    status = f"round {state.round}/{ROUNDS}, {PHASES[state.phase]}"
    if state.end_case:
        status = f"game over (case {state.end_case}); scores {state.scores()}; winners {state.winners()}"
    else:
        status += f", player_{state.current_player} to act"
    lines.append(f"Last Heroes, {state.n} players: {status}")
    lines.append(f"decks L1/L2/L3: {[len(d) for d in state.decks]}")
    for col in range(state.n):
        ped = state.pedestal[col]
        art = POWER_NAMES[ped] if ped != NO else "-"
        cells = []
        for lv in range(NUM_LEVELS):
            m = state.board[col][lv]
            if m == NO:
                cell = "[permanent breach]" if state.permanent[col][lv] else "[empty]"
            else:
                need = state.required(col, lv)
                cell = f"{c.monsters[m].name} ({c.monsters[m].vp} VP) needs {need[0]}xP1 {need[1]}xP2 {need[2]}xP3"
                if state.standee_on[col][lv] != NO:
                    cell += f" <player_{state.standee_on[col][lv]}>"
            cells.append(cell)
        lines.append(f"col {col} artefact {art}: " + " | ".join(cells))
    for i in range(state.n):
        hand_visible = seat is None or seat == i
        hand = (
            ", ".join(f"{c.kind_name(k)}x{v}" for k, v in enumerate(state.hands[i]) if v)
            if hand_visible
            else f"{sum(state.hands[i])} cards"
        )
        loaded = ", ".join(f"{c.kind_name(k)}x{v}" for k, v in enumerate(state.loaded[i]) if v) or "-"
        powers = (
            ", ".join(POWER_NAMES[p] + ("" if state.tile_state[p] == HELD else " (used)") for p in state.artefacts[i])
            or "-"
        )
        lines.append(
            f"player_{i}{' *' if i == state.current_player else ''}: wheel {state.wheel[i]}, "
            f"jokers {state.jokers[i]}, kills {len(state.kills[i])} ({state.vp[i]} VP), "
            f"magazine {slot_text(state, i, 0)} {slot_text(state, i, 1)}; loaded {loaded}; "
            f"artefacts {powers}; hand {hand}"
        )
    if state.end_case is None and (seat is None or seat == state.current_player):
        legal = ", ".join(f"{a}: {describe_action(state, a)}" for a in state.legal_actions())
        lines.append(f"legal: {legal}")
    return "\n".join(lines)
