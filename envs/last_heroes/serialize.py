"""A Last Heroes state as JSON and back, and the copy that redeals what one seat cannot see."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.game import check_state_header
from envs.core.validate import JsonReader, check_choice, check_int, check_list
from envs.last_heroes.constants import NO, PHASES, POWER_NAMES, TILE_STATES
from envs.last_heroes.content import (
    CARDS_DEALT,
    JOKER_CAP,
    MAGAZINE_PICKS,
    MAX_PLAYERS,
    NUM_KINDS,
    NUM_LEVELS,
    NUM_POWERS,
    ROUNDS,
)


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
    return state.game.state_from_json(data, check=False)  # the rules' own data, redealt: no need to check


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
    } | set_aside(state)


def set_aside(state: Any) -> dict[str, Any]:
    """``{"set_aside": ...}``: the cards of the box a hand-made position leaves out of play (weapon
    counts per kind, monster ids), or ``{}`` for every state the rules reach, where each card is
    in play. Derived, not stored: what the box holds minus what the state places."""
    game = state.game
    weapons = [game.content.kind_copies[k] if k in game.kinds_in_play else 0 for k in range(NUM_KINDS)]
    for i in range(state.n):
        for k in range(NUM_KINDS):
            weapons[k] -= state.hands[i][k] + state.loaded[i][k]
        for kind in state.mag_kind[i]:
            if kind != NO:
                weapons[kind] -= 1
    for k in range(NUM_KINDS):
        weapons[k] -= state.discard[k]
    if state.load_kind != NO:
        weapons[state.load_kind] -= 1
    placed = {m for column in state.board[: state.n] for m in column if m != NO}
    placed.update(m for deck in state.decks for m in deck)
    placed.update(m for kills in state.kills for m in kills)
    monsters = [m for m in range(len(game.monster_vp)) if m not in placed]
    weapons = [max(w, 0) for w in weapons]  # a hand-made position may hold more than the box (check_box)
    if not any(weapons) and not monsters:
        return {}
    return {"set_aside": {"weapons": weapons, "monsters": monsters}}


def validate(game: Any, data: Any, check_box: bool = True) -> None:
    """Every field of a JSON state checked before anything is built (a ValueError names the JSON
    path and what is allowed): types and ranges, the table size, each weapon card in exactly one
    place (hands, loaded, magazines, discard: the box's copies of each kind in play), each monster
    in exactly one place (board, decks, trophies), each artefact held once and each standee on a
    slot of its own, and a decision that fits the phase. The compiled engine is only given states
    that passed (its arrays are indexed by these values without bounds checks).

    ``check_box=False`` (hand-made positions: puzzles, scenario tests) skips only the totals of the
    box: more copies of a kind than the box holds, or monsters left out of the position, are then
    allowed; every type, range and one-place-only check still runs."""
    r = JsonReader(data)
    players = r.items("players")
    check_state_header(game, data, len(players))
    n = game.num_players
    kinds = range(NUM_KINDS)
    num_monsters = len(game.monster_vp)
    r.choice("phase", PHASES)
    end_case = r.choice("end_case", (None, "A", "B"), default=None)
    seat_or_none = (-1, n - 1) if end_case is not None else (0, n - 1)
    r.int("current_player", *seat_or_none)
    r.int("first_player", 0, n - 1)
    r.int("round", 0, ROUNDS)
    r.int("setup_picks", 0, MAGAZINE_PICKS - 1, default=0)
    copies = [0] * NUM_KINDS  # the cards found, per kind
    monsters: dict[int, str] = {}  # monster id -> where it was found

    def place(monster: int, where: str) -> None:
        if monster in monsters:
            raise ValueError(f"{where}: monster {monster} is also at {monsters[monster]}; each monster is in one place")
        monsters[monster] = where

    held: dict[str, str] = {}
    standees: dict[tuple[int, int], str] = {}
    for p in players:
        hand = p.ints("hand", NUM_KINDS, 0, CARDS_DEALT * MAX_PLAYERS)
        known = p.ints("known", NUM_KINDS, 0, None, default=[0] * NUM_KINDS)
        for k in kinds:
            if known[k] > hand[k]:
                raise p.fail("known", f"{known[k]} cards of kind {k} known but only {hand[k]} in the hand")
            copies[k] += hand[k]
        magazine = p.list("magazine", 2)
        for slot, entry in enumerate(magazine):
            where = f"{p.at('magazine')}[{slot}]"
            check_list(entry, where, 2)
            kind, ammo = entry
            if kind is None or kind == NO:  # an empty slot (to_json writes NO)
                check_int(ammo, f"{where}[1]", 0, 0)
            else:
                check_int(kind, f"{where}[0]", 0, NUM_KINDS - 1)
                check_int(ammo, f"{where}[1]", 0, game.kind_ammo[kind])
                copies[kind] += 1
        p.int("jokers", 0, JOKER_CAP, default=0)
        p.int("wheel", -2 * ROUNDS, 10 * CARDS_DEALT * MAX_PLAYERS, default=0)
        loaded = p.ints("loaded", NUM_KINDS, 0, None, default=[0] * NUM_KINDS)
        for k in kinds:
            copies[k] += loaded[k]
        for j, m in enumerate(p.ints("kills", None, 0, num_monsters - 1, default=[])):
            place(m, f"{p.at('kills')}[{j}]")
        for j, name in enumerate(p.list("artefacts", default=[])):
            where = f"{p.at('artefacts')}[{j}]"
            check_choice(name, where, POWER_NAMES)
            if name in held:
                raise ValueError(f"{where}: the artefact {name} is also held at {held[name]}")
            held[name] = where
        standee = p.raw("standee", None)
        if standee is not None:
            where = p.at("standee")
            check_list(standee, where, 2)
            spot = (
                check_int(standee[0], f"{where}[0]", 0, n - 1),
                check_int(standee[1], f"{where}[1]", 0, NUM_LEVELS - 1),
            )
            if spot in standees:
                raise ValueError(f"{where}: the breach {list(spot)} already holds the standee of {standees[spot]}")
            standees[spot] = where
        p.int("turns_taken", 0, ROUNDS, default=0)
    for c, column in enumerate(r.list("board", n)):
        where = f"{r.at('board')}[{c}]"
        for lv, m in enumerate(check_list(column, where, NUM_LEVELS)):
            if m is not None:
                check_int(m, f"{where}[{lv}]", 0, num_monsters - 1)
                if game.monster_level[m] != lv + 1:
                    raise ValueError(f"{where}[{lv}]: monster {m} is a level {game.monster_level[m]} monster")
                place(m, f"{where}[{lv}]")
    for c, column in enumerate(r.list("permanent", n, default=[[False] * NUM_LEVELS] * n)):
        for lv, flag in enumerate(check_list(column, f"{r.at('permanent')}[{c}]", NUM_LEVELS)):
            if not isinstance(flag, bool):
                raise ValueError(f"{r.at('permanent')}[{c}][{lv}]: expected true or false, got {flag!r}")
    for lv, deck in enumerate(r.list("decks", NUM_LEVELS)):
        where = f"{r.at('decks')}[{lv}]"
        for j, m in enumerate(check_list(deck, where)):
            check_int(m, f"{where}[{j}]", 0, num_monsters - 1)
            if game.monster_level[m] != lv + 1:
                raise ValueError(f"{where}[{j}]: monster {m} is a level {game.monster_level[m]} monster")
            place(m, f"{where}[{j}]")
    aside = r.object("set_aside", default={})
    aside.only_keys(("weapons", "monsters"))
    for j, m in enumerate(aside.ints("monsters", None, 0, num_monsters - 1, default=[])):
        place(m, f"{aside.at('monsters')}[{j}]")
    for k, count in enumerate(aside.ints("weapons", NUM_KINDS, 0, None, default=[0] * NUM_KINDS)):
        copies[k] += count
    missing = sorted(set(range(num_monsters)) - set(monsters))
    if missing and check_box:
        raise r.fail(
            None, f"monsters {missing} are nowhere (board, decks, kills or set_aside); each monster is in one place"
        )
    pedestals = r.list("pedestals", n, default=[None] * n)
    for c, name in enumerate(pedestals):
        if name is not None:
            check_choice(name, f"{r.at('pedestals')}[{c}]", POWER_NAMES)
    tiles = r.object("tiles", default={})
    tiles.only_keys(POWER_NAMES)
    for name in tiles.data:
        tiles.choice(name, TILE_STATES)
    turn = r.object("turn", default={})
    turn.int("attacks", 0, 2, default=0)
    turn.bool("killed", default=False)
    load_kind = turn.optional_int("load_kind", 0, NUM_KINDS - 1, default=None)
    if load_kind is not None:  # the card being loaded, between the hand and the loaded row
        copies[load_kind] += 1
    turn.int("load_need", 0, 3, default=0)
    phase = data["phase"]
    for needed, key in (("LOAD_SOURCE", "load_kind"), ("EXCHANGE_GIVE", "exchange_kind"), ("L1_GIVE", "l1_target")):
        if (phase == needed) != (turn.raw(key, None) is not None):
            raise turn.fail(key, f"is set exactly when the phase is {needed} (the phase is {phase})")
    for j, entry in enumerate(turn.list("load_used", default=[])):
        where = f"{turn.at('load_used')}[{j}]"
        check_list(entry, where, 2)
        check_int(entry[0], f"{where}[0]", 0, n - 1)
        check_int(entry[1], f"{where}[1]", 0, 1)
    turn.optional_int("exchange_kind", 0, NUM_KINDS - 1, default=None)
    turn.choice("return_phase", PHASES, default="MAIN")
    target = turn.raw("l1_target", None)
    if target is not None:
        where = turn.at("l1_target")
        check_list(target, where, 2)
        check_int(target[0], f"{where}[0]", 0, n - 1)
        check_int(target[1], f"{where}[1]", 0, 1)
    discard = r.ints("discard", NUM_KINDS, 0, None, default=[0] * NUM_KINDS)
    in_play = set(game.kinds_in_play)
    for k in kinds:
        copies[k] += discard[k]
        box = game.content.kind_copies[k] if k in in_play else 0
        if copies[k] != box and check_box:
            raise r.fail(
                "players",
                f"{copies[k]} cards of weapon kind {k} in hands, magazines, loaded, the discard and set_aside; "
                f"the box has {box}",
            )
    r.bool("all_artefacts_held", default=False)
    counters = r.object("counters", default={})
    counters.int("ammo_from_opponents", 0, None, default=0)
    counters.int("penalty_lost", 0, None, default=0)
    r.rng_state("rng", default=None)


def check_playable(state: Any) -> None:
    """What only the built state can tell: the seat to play has a legal action (the running game's
    contract), so a decision that does not fit its phase is refused here rather than steps later."""
    if state.end_case is None and not state.legal_mask().any():
        raise ValueError(
            f"state: seat {state.current_player} has no legal action in phase {PHASES[state.phase]}; "
            "the decision does not fit the position"
        )


def from_json(cls: type, game: Any, data: dict[str, Any], check: bool = True, check_box: bool = True) -> Any:
    """Rebuild a state; the standee positions and tile holders are derived, not stored twice.
    ``check=False`` only for data the rules just wrote (resample_hidden): it skips :func:`validate`."""
    if check:
        validate(game, data, check_box)
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
    if check:
        check_playable(s)
    return s
