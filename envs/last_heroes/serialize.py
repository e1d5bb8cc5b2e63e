"""A Last Heroes state as JSON and back, and the copy that redeals what one seat cannot see."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.game import check_state_header
from envs.last_heroes.constants import NO, PHASES, POWER_NAMES, TILE_STATES
from envs.last_heroes.content import NUM_KINDS, NUM_POWERS


def resample_hidden(state: Any, seat: int, rng: np.random.Generator) -> Any:
    """A copy in which what ``seat`` cannot see is dealt anew (5.2): the opponents' cards that
    never entered a hand publicly, shuffled among the opponents (same hand sizes, same known
    cards), the order of every monster deck, and the generator's future draws."""
    data = state.to_json()
    opponents = [i for i in range(state.n) if i != seat]
    pool: list[int] = []
    for i in opponents:
        pool += [k for k in range(NUM_KINDS) for _ in range(state.hands[i][k] - state.known[i][k])]
    order = rng.permutation(len(pool))
    at = 0
    for i in opponents:
        size = sum(state.hands[i]) - sum(state.known[i])
        hand = list(state.known[i])
        for j in order[at : at + size]:
            hand[pool[j]] += 1
        data["players"][i]["hand"] = hand
        at += size
    for deck in data["decks"]:
        deck[:] = [deck[j] for j in rng.permutation(len(deck))]
    data["rng"] = np.random.default_rng(int(rng.integers(2**63))).bit_generator.state
    return state.game.state_from_json(data)


def to_json(state: Any) -> dict[str, Any]:
    n = state.n
    return {
        "env_id": state.game.env_id,
        "options": dict(state.game.options),
        "phase": PHASES[state.phase],
        "current_player": state.current_player,
        "first_player": state.first,
        "round": state.round,
        "setup_picks": state.setup_picks,
        "players": [
            {
                "hand": list(state.hands[i]),
                "known": list(state.known[i]),
                "magazine": [[state.mag_kind[i][s], state.mag_ammo[i][s]] for s in (0, 1)],
                "jokers": state.jokers[i],
                "wheel": state.wheel[i],
                "loaded": list(state.loaded[i]),
                "kills": list(state.kills[i]),
                "artefacts": [POWER_NAMES[p] for p in state.artefacts[i]],
                "standee": None if state.standee[i] == NO else [state.standee[i] // 3, state.standee[i] % 3],
                "turns_taken": state.turns_taken[i],
            }
            for i in range(n)
        ],
        "board": [[None if m == NO else m for m in state.board[c]] for c in range(n)],
        "permanent": [list(state.permanent[c]) for c in range(n)],
        "decks": [list(d) for d in state.decks],
        "discard": list(state.discard),
        "pedestals": [None if p == NO else POWER_NAMES[p] for p in state.pedestal[:n]],
        "tiles": {POWER_NAMES[p]: TILE_STATES[state.tile_state[p]] for p in range(NUM_POWERS)},
        "turn": {
            "attacks": state.attacks,
            "killed": state.killed_this_turn,
            "load_kind": None if state.load_kind == NO else state.load_kind,
            "load_need": state.load_need,
            "load_used": [list(u) for u in state.load_used],
            "exchange_kind": None if state.exchange_kind == NO else state.exchange_kind,
            "return_phase": PHASES[state.return_phase],
            "l1_target": None if state.l1_target is None else list(state.l1_target),
        },
        "all_artefacts_held": state.all_artefacts_held,
        "end_case": state.end_case,
        "counters": {"ammo_from_opponents": state.ammo_from_opponents, "penalty_lost": state.penalty_lost},
        "rng": state.rng.bit_generator.state,
    }


def from_json(cls: type, game: Any, data: dict[str, Any]) -> Any:
    """Rebuild a state; the standee positions and tile holders are derived, not stored twice."""
    check_state_header(game, data, len(data["players"]))
    s = cls.__new__(cls)
    s._blank(game)
    s.phase = PHASES.index(data["phase"])
    s.current_player = data["current_player"]
    s.first = data["first_player"]
    s.round = data["round"]
    s.setup_picks = data.get("setup_picks", 0)
    power_id = {name: i for i, name in enumerate(POWER_NAMES)}
    for i, p in enumerate(data["players"]):
        s.hands[i] = list(p["hand"])
        s.known[i] = list(p.get("known", [0] * NUM_KINDS))
        for slot, (kind, ammo) in enumerate(p["magazine"]):
            s.mag_kind[i][slot] = NO if kind is None else kind
            s.mag_ammo[i][slot] = ammo
        s.jokers[i] = p.get("jokers", 0)
        s.wheel[i] = p.get("wheel", 0)
        s.loaded[i] = list(p.get("loaded", [0] * NUM_KINDS))
        for k, v in enumerate(s.loaded[i]):
            s.loaded_power[i][game.kind_power[k] - 1] += v
        s.kills[i] = list(p.get("kills", []))
        s.vp[i] = sum(game.monster_vp[m] for m in s.kills[i])
        s.artefacts[i] = [power_id[name] for name in p.get("artefacts", [])]
        for pw in s.artefacts[i]:
            s.tile_holder[pw] = i
        if p.get("standee") is not None:
            col, lv = p["standee"]
            s.standee[i] = 3 * col + lv
            s.standee_on[col][lv] = i
        s.turns_taken[i] = p.get("turns_taken", 0)
    for c, column in enumerate(data["board"]):
        s.board[c] = [NO if m is None else m for m in column]
    for c, column in enumerate(data.get("permanent", [])):
        s.permanent[c] = list(column)
    s.decks = [list(d) for d in data["decks"]]
    s._count_hands()
    s.discard = list(data.get("discard", [0] * NUM_KINDS))
    for c, name in enumerate(data.get("pedestals", [])):
        s.pedestal[c] = NO if name is None else power_id[name]
    for name, st in data.get("tiles", {}).items():
        s.tile_state[power_id[name]] = TILE_STATES.index(st)
    t = data.get("turn", {})
    s.attacks = t.get("attacks", 0)
    s.killed_this_turn = t.get("killed", False)
    s.load_kind = NO if t.get("load_kind") is None else t["load_kind"]
    s.load_need = t.get("load_need", 0)
    s.load_used = [tuple(u) for u in t.get("load_used", [])]
    s.exchange_kind = NO if t.get("exchange_kind") is None else t["exchange_kind"]
    s.return_phase = PHASES.index(t.get("return_phase", "MAIN"))
    s.l1_target = None if t.get("l1_target") is None else tuple(t["l1_target"])
    s.all_artefacts_held = data.get("all_artefacts_held", False)
    s.end_case = data.get("end_case")
    counters = data.get("counters", {})
    s.ammo_from_opponents = counters.get("ammo_from_opponents", 0)
    s.penalty_lost = counters.get("penalty_lost", 0)
    s.rng = np.random.default_rng()
    if data.get("rng") is not None:
        s.rng.bit_generator.state = data["rng"]
    if s.end_case is not None:
        s.current_player = NO
    return s
