"""Last Heroes' JSON states checked before ``state_from_json`` builds them (:func:`validate`), and
the check only the built state can make (:func:`check_playable`). A problem is a ValueError naming
the field by its JSON path and what is allowed (envs.core.validate)."""

from __future__ import annotations

from typing import Any

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
    ROUNDS,
)


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
    if phase == "LOAD_SOURCE":
        _check_sources(game, data, load_kind)
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


def _check_sources(game: Any, data: dict[str, Any], load_kind: int) -> None:
    """A weapon being loaded can still be: the ammo it needs is at most what is left to source it
    from (each Magazine slot of its type once per load, with ammo left, and the loader's Jokers);
    otherwise the load would run into a decision with no legal action."""
    seat = data["current_player"]
    used = {tuple(u) for u in data["turn"].get("load_used", [])}
    wanted = game.kind_type[load_kind]
    slots = sum(
        1
        for i, p in enumerate(data["players"])
        for slot, (kind, ammo) in enumerate(p["magazine"])
        if kind is not None and kind != NO and ammo > 0 and game.kind_type[kind] == wanted and (i, slot) not in used
    )
    need = data["turn"].get("load_need", 0)
    have = slots + data["players"][seat].get("jokers", 0)
    if need < 1 or need > have:
        raise ValueError(
            f"state.turn.load_need: {need} ammo still to source, but {have} sources are left "
            "(Magazine slots of the weapon's type, and Jokers); a load needs 1 to that many"
        )
