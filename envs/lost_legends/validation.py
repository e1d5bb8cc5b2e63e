"""Lost Legends, the checks ``Game.state_from_json`` runs before it builds a state.

A state read from JSON (a saved game, a test's or a curriculum's hand-made position) is checked
field by field: types and ranges (no negative counts, gold, life or markers; seats of this table;
known card ids of the right kind), the conservation the rules keep (every card of the box in
exactly one zone, the gold ledger, the trophy-token stacks, the slot rules), a task stack of real
tasks with arguments in range, and an open decision the rules can play on. Anything else is a
``ValueError`` naming the field by its JSON path (``players[2].life``) and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from envs.lost_legends.common import (
    ARTIFACT_SLOTS,
    ATTACK_BUILD,
    CHARGE_EXHAUST,
    CHOOSE_WEAPON,
    DECISIONS,
    DEFEND,
    DRAFT_BUY_COMMITTED,
    DRAFT_PICK,
    DRAFT_PLACE,
    GEAR_UP,
    KIND_SLOT,
    LIFE_BONUS,
    LOSE_SKILL,
    MANA_BONUS,
    NO,
    OVER,
    PHASES,
    SELECT_DRAWN,
    SELECT_OWN,
    SOURCES,
    SPELL_SLOTS,
    TASKS,
    UNARMED_W,
)
from envs.lost_legends.content import (
    CARDS,
    DRAFT_ROUNDS,
    HAND_SIZE,
    HERO_NAMES,
    KINDS,
    LEVEL_MONSTERS,
    MONSTER_TYPE_NAMES,
    NUM_CARDS,
    NUM_LEVELS,
    NUM_SLOTS,
    TRACK_MAX,
    TROPHY_STACKS,
    XP_THRESHOLDS,
    is_monster,
)

_MISSING = object()
_EQUIPMENT = "an equipment card id"
_MONSTER = "a monster card id"

# The arguments of every task, by kind: "seat" a seat of the table, "k" a count 0..n of seats
# gone through, "damage" an amount >= 0, "source" a damage-event source, "monster" a monster id.
TASK_ARGS: dict[str, tuple[str, ...]] = {
    "level_start": (),
    "draft_pick": ("k",),
    "draft_place": ("k",),
    "combat_start": (),
    "turn": ("seat",),
    "select": ("seat",),
    "select_drawn": ("seat",),
    "end_turn": ("seat",),
    "final_turn": ("seat",),
    "escape": ("seat",),
    "attack": ("seat",),
    "event": ("seat", "damage", "damage", "damage", "damage", "source"),
    "after_defeat": (),
    "charge": ("seat", "monster"),
    "level_reward": ("seat",),
    "kill_rest": ("seat", "monster"),
    "level_end": (),
}
assert set(TASK_ARGS) == set(TASKS.names()), set(TASK_ARGS) ^ set(TASKS.names())
# The tasks that always leave a successor (or end the game): one of them is at the bottom of the
# stack of a game in progress, so the rules never run out of steps.
_CONTINUING = ("level_start", "draft_pick", "draft_place", "combat_start", "turn", "end_turn", "level_end")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fail(path: str, allowed: str, got: Any = _MISSING) -> None:
    raise ValueError(f"{path}: {allowed}" + ("" if got is _MISSING else f", got {_show(got)}"))


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _field(obj: Mapping, key: str, path: str, default: Any = _MISSING) -> Any:
    where = f"{path}.{key}" if path else key
    if key in obj:
        return obj[key]
    if default is _MISSING:
        _fail(where, "missing (a required field)")
    return default


def _int(v: Any, path: str, lo: int, hi: int | None = None) -> int:
    if not _is_int(v) or v < lo or (hi is not None and v > hi):
        _fail(path, f"an integer from {lo} to {hi}" if hi is not None else f"an integer >= {lo}", v)
    return int(v)


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        _fail(path, "true or false", v)
    return bool(v)


def _list(v: Any, path: str, length: int | None = None, most: int | None = None) -> list:
    if not isinstance(v, list):
        _fail(path, "a list" if length is None else f"a list of {length}", v)
    if length is not None and len(v) != length:
        _fail(path, f"a list of exactly {length} entries, got {len(v)}")
    if most is not None and len(v) > most:
        _fail(path, f"a list of at most {most} entries, got {len(v)}")
    return v


def _card(v: Any, path: str, kind: str | None = None, none_ok: bool = False) -> int:
    """A card id (``kind``: _EQUIPMENT, _MONSTER or None for any), or NO if ``none_ok``."""
    if none_ok and _is_int(v) and v == NO:
        return NO
    what = kind or "a card id"
    allowed = f"{what} (0..{NUM_CARDS - 1}{' or -1 for none' if none_ok else ''})"
    if not _is_int(v) or not 0 <= v < NUM_CARDS:
        _fail(path, allowed, v)
    if (kind == _EQUIPMENT and is_monster(v)) or (kind == _MONSTER and not is_monster(v)):
        _fail(
            path,
            f"{allowed}; card {int(v)} is {_name(int(v))}, a {'monster' if is_monster(v) else 'piece of equipment'}",
        )
    return int(v)


def _cards(v: Any, path: str, kind: str | None, most: int | None = None) -> list[int]:
    return [_card(c, f"{path}[{k}]", kind) for k, c in enumerate(_list(v, path, most=most))]


def _name(c: int) -> str:
    return f"{CARDS[c].name} {CARDS[c].code}"


def _seat(v: Any, path: str, n: int, none_ok: bool = False) -> int:
    lo = NO if none_ok else 0
    if not _is_int(v) or not lo <= v < n:
        _fail(path, f"a seat 0..{n - 1}" + (" or -1 for none" if none_ok else ""), v)
    return int(v)


def check_state_json(game: Any, data: Any) -> None:
    """Raise a ValueError naming the first field of ``data`` that is not a state of ``game``."""
    if not isinstance(data, Mapping):
        _fail("state", "a Lost Legends state is a JSON object (a dict)", data)
    env_id = data.get("env_id", game.env_id)
    if env_id != game.env_id:
        _fail("env_id", f"this game is {game.env_id!r}", env_id)
    n = game.num_players
    players = _list(_field(data, "players", ""), "players")
    if len(players) != n:
        _fail("players", f"one entry per seat: this game has {n} players, the state has {len(players)}")
    options = data.get("options")
    if options is not None:
        if not isinstance(options, Mapping):
            _fail("options", "a JSON object of the game's options", options)
        if "num_players" in options and options["num_players"] != n:
            _fail("options.num_players", f"{n} (the table size of this game)", options["num_players"])

    level = _int(_field(data, "level", ""), "level", 0, NUM_LEVELS - 1)
    phase_name = _field(data, "phase", "")
    if phase_name not in PHASES:
        _fail("phase", f"one of {list(PHASES)}", phase_name)
    phase = PHASES.index(phase_name)
    _seat(_field(data, "start", ""), "start", n)
    _int(data.get("draft_round", 1), "draft_round", 1, DRAFT_ROUNDS)
    decision_name = data.get("decision")
    if decision_name is not None and decision_name not in DECISIONS:
        _fail("decision", f"null or one of {list(DECISIONS)}", decision_name)
    decision = NO if decision_name is None else DECISIONS.index(decision_name)
    current = _seat(_field(data, "current_player", ""), "current_player", n, none_ok=True)
    _seat(data.get("turn_seat", NO), "turn_seat", n, none_ok=True)
    _int(data.get("performed", 0), "performed", 0)
    _seat(data.get("trigger", NO), "trigger", n, none_ok=True)
    _int(data.get("level_ends", 0), "level_ends", 0, NUM_LEVELS)

    zones: dict[int, str] = {}  # card id -> the first zone it was found in

    def place(cards: list[int], path: str, one: bool = False) -> None:
        """Put the cards of the zone at ``path`` (``one``: the card at ``path``) in ``zones``."""
        for k, c in enumerate(cards):
            where = path if one else f"{path}[{k}]"
            if c in zones:
                _fail(where, f"each card in exactly one place; {_name(c)} is also in {zones[c]}")
            zones[c] = where

    seats = [_check_player(p, f"players[{i}]", n, place) for i, p in enumerate(players)]
    heroes = [s["hero"] for s in seats]
    for i, h in enumerate(heroes):
        if heroes.index(h) != i:
            _fail(f"players[{i}].hero", f"a hero no other seat plays; {h!r} is also players[{heroes.index(h)}]'s")

    # Trophy-token stacks and challenge trophies.
    taken = _list(data.get("stack_taken", [0] * len(TROPHY_STACKS)), "stack_taken", len(TROPHY_STACKS))
    for k, (stack, _, _, values) in enumerate(TROPHY_STACKS):
        _int(taken[k], f"stack_taken[{k}]", 0, len(values))
        held = sorted((s["tokens"][k] for s in seats if s["tokens"][k]), reverse=True)
        if held != list(values[: taken[k]]):
            _fail(
                f"stack_taken[{k}]",
                f"the {taken[k]} top tokens of {stack} ({list(values[: taken[k]])}) held by the players, "
                f"one each; the players hold {held}",
            )
    challenge = _list(data.get("challenge", [NO] * 4), "challenge", 4)
    for t, holder in enumerate(challenge):
        holder = _seat(holder, f"challenge[{t}]", n, none_ok=True)
        if holder != NO and not any(CARDS[m].type == t for m in seats[holder]["trophies"]):
            _fail(
                f"challenge[{t}]",
                f"a holder of the {MONSTER_TYPE_NAMES[t]} challenge owns a {MONSTER_TYPE_NAMES[t]} trophy",
            )

    # The other zones, and card conservation.
    for key, kind in (("decks", _EQUIPMENT), ("piles", _MONSTER), ("reserves", _MONSTER)):
        per_level = _list(data.get(key, [[], [], []]), key, NUM_LEVELS)
        for lv in range(NUM_LEVELS):
            path = f"{key}[{lv}]"
            cards = _cards(per_level[lv], path, kind)
            for k, c in enumerate(cards):
                if CARDS[c].level != lv:
                    _fail(f"{path}[{k}]", f"a card of level {lv + 1}; {_name(c)} is of level {CARDS[c].level + 1}")
                if key == "decks" and CARDS[c].players > n:
                    _fail(
                        f"{path}[{k}]", f"a card in play at {n} players; {_name(c)} is removed below {CARDS[c].players}"
                    )
            place(cards, path)
    for lv in range(NUM_LEVELS):
        piles, reserves, decks = (data.get(key, [[], [], []])[lv] for key in ("piles", "reserves", "decks"))
        if lv < level and piles:
            _fail(f"piles[{lv}]", f"empty: level {lv + 1} is over (the state is at level {level + 1})", piles)
        if lv > level and sorted(piles + reserves) != sorted(LEVEL_MONSTERS[lv]):
            _fail(f"piles[{lv}]", f"with reserves[{lv}], the 20 monsters of level {lv + 1}, still to come")
        if lv > level and sorted(decks) != sorted(game.equipment_in_play[lv]):
            _fail(
                f"decks[{lv}]", f"the {len(game.equipment_in_play[lv])} cards of level {lv + 1} in play, still to come"
            )
    removed = _cards(data.get("removed", []), "removed", _EQUIPMENT)
    for k, c in enumerate(removed):
        if CARDS[c].players <= n:
            _fail(f"removed[{k}]", f"a card removed at {n} players (needs more players); {_name(c)} is in play")
    place(removed, "removed")
    faceup = _card(data.get("faceup", NO), "faceup", _MONSTER, none_ok=True)
    if faceup != NO:
        place([faceup], "faceup", one=True)
    place(_cards(data.get("box", []), "box", None), "box")
    place(_cards(data.get("sixth", []), "sixth", _EQUIPMENT), "sixth")
    if len(zones) != NUM_CARDS:
        missing = [c for c in range(NUM_CARDS) if c not in zones]
        _fail(
            "state", f"every card of the box in exactly one zone; {len(missing)} are in none, e.g. {_name(missing[0])}"
        )

    # Gold.
    ledger = data.get("gold_ledger")
    if ledger is not None:
        ledger = _list(ledger, "gold_ledger", 3)
        initial, out, paid = (_int(v, f"gold_ledger[{k}]", 0) for k, v in enumerate(ledger))
        total = sum(s["gold"] for s in seats)
        if total != initial + out - paid:
            _fail(
                "gold_ledger",
                f"the players' gold ({total}) is the initial gold plus what the supply paid out, minus what "
                f"it received ({initial} + {out} - {paid} = {initial + out - paid})",
            )

    # The decision in progress.
    attack = data.get("attack")
    event = data.get("event")
    kinds = _list(data.get("exhaust_kinds", []), "exhaust_kinds")
    for k, kind in enumerate(kinds):
        _int(kind, f"exhaust_kinds[{k}]", 0, len(KINDS) - 1)
    _int(data.get("conversions", 0), "conversions", 0, NUM_SLOTS)
    _int(data.get("pending_rewards", 0), "pending_rewards", 0, len(XP_THRESHOLDS))
    _int(data.get("steps", 0), "steps", 0)
    _bool(data.get("truncated", False), "truncated")
    tasks = data.get("tasks", [])
    for i, task in enumerate(tasks if isinstance(tasks, list) else ()):
        if isinstance(task, list) and task and not isinstance(task[0], str):
            _fail(f"tasks[{i}][0]", "a task's name (a string)", task[0])
    tasks = TASKS.check(tasks, "tasks")
    _check_tasks(tasks, n, level, data)
    if phase != OVER and not tasks:
        _fail("tasks", "the rule steps still to run: never empty while the game runs (the last one ends it)")
    if phase != OVER and tasks[0][0] not in _CONTINUING:
        _fail(
            "tasks[0]",
            f"a task that carries the game on at the bottom of the stack, one of {list(_CONTINUING)}",
            tasks[0],
        )
    if phase == GEAR_UP:
        _check_draft(tasks, decision, current, seats, data)
    _check_chance(data.get("chance"))
    if attack is not None:
        _check_attack(attack, seats, current if decision in (CHOOSE_WEAPON, ATTACK_BUILD) else NO)
    if event is not None:
        _check_event(event, n, seats)
    if phase == OVER:
        return
    if decision == NO:
        if not tasks:
            _fail("decision", "a decision, or tasks that lead to one: the state has neither")
        for key, value in (("attack", attack), ("event", event)):
            if value is not None:
                _fail(key, "null while no decision is open (it belongs to an attack or a damage event)", value)
        return
    if current == NO:
        _fail("current_player", f"the seat that takes the decision {decision_name}, 0..{n - 1}", current)
    me = seats[current]
    needs = {
        DRAFT_PICK: (bool(me["hand"]), "the seat to pick has cards in hand"),
        DRAFT_PLACE: (me["pick"] != NO, "the seat to place has a pick"),
        DRAFT_BUY_COMMITTED: (me["pick"] != NO, "the seat to buy has a pick"),
        SELECT_OWN: (me["front"] != NO, "the seat to select has a monster in front"),
        SELECT_DRAWN: (me["front"] != NO, "the seat to select has a monster in front"),
        CHOOSE_WEAPON: (attack is not None and me["front"] != NO, "an attack and a monster in front"),
        ATTACK_BUILD: (
            attack is not None and me["front"] != NO and attack.get("weapon") != NO,
            "an attack with its weapon chosen, and a monster in front",
        ),
        DEFEND: (event is not None and event.get("seat") == current, "a damage event of the seat to defend"),
        LOSE_SKILL: (bool(me["skill_cards"]), "the seat to lose a skill card has one"),
        CHARGE_EXHAUST: (bool(kinds), "the kinds the charge exhausts (exhaust_kinds)"),
    }
    ok, what = needs.get(decision, (True, ""))
    if not ok:
        _fail("decision", f"{decision_name} needs {what}")
    if attack is not None and decision not in (CHOOSE_WEAPON, ATTACK_BUILD):
        _fail("attack", f"null outside CHOOSE_WEAPON and ATTACK_BUILD (the decision is {decision_name})", attack)
    if event is not None and decision != DEFEND:
        _fail("event", f"null outside DEFEND (the decision is {decision_name})", event)
    if kinds and decision != CHARGE_EXHAUST:
        _fail("exhaust_kinds", f"empty outside CHARGE_EXHAUST (the decision is {decision_name})", kinds)


def _check_player(p: Any, path: str, n: int, place) -> dict[str, Any]:
    """One seat's entry; its cards go to ``place``. Returns what the table-wide checks read."""
    if not isinstance(p, Mapping):
        _fail(path, "a JSON object (one seat of the table)", p)
    hero = _field(p, "hero", path)
    if hero not in HERO_NAMES:
        _fail(f"{path}.hero", f"one of {list(HERO_NAMES)}", hero)
    gold = _int(_field(p, "gold", path), f"{path}.gold", 0)
    life_base = _int(_field(p, "life_base", path), f"{path}.life_base", 0, TRACK_MAX)
    mana_base = _int(_field(p, "mana_base", path), f"{path}.mana_base", 0, TRACK_MAX)
    _int(p.get("xp", 0), f"{path}.xp", 0)
    _int(p.get("legend", 0), f"{path}.legend", 0)
    skill_cards = _cards(p.get("skill_cards", []), f"{path}.skill_cards", _EQUIPMENT)
    place(skill_cards, f"{path}.skill_cards")
    slots = _list(p.get("slots", [NO] * NUM_SLOTS), f"{path}.slots", NUM_SLOTS)
    names: dict[str, int] = {}
    for s, c in enumerate(slots):
        where = f"{path}.slots[{s}]"
        c = _card(c, where, _EQUIPMENT, none_ok=True)
        if c == NO:
            continue
        kind = KINDS[CARDS[c].kind]
        fixed = KIND_SLOT.get(kind)
        allowed = (fixed,) if fixed is not None else SPELL_SLOTS if kind[0] == "S" else ARTIFACT_SLOTS
        if s not in allowed:
            _fail(where, f"a card that goes in slot {s}; {_name(c)} goes in slot {' or '.join(map(str, allowed))}")
        if CARDS[c].name in names:
            _fail(where, f"one card of each name per hero; {CARDS[c].name} is also in slot {names[CARDS[c].name]}")
        names[CARDS[c].name] = s
        place([c], where, one=True)
    exhausted = _list(p.get("exhausted", [False] * NUM_SLOTS), f"{path}.exhausted", NUM_SLOTS)
    for s, e in enumerate(exhausted):
        if _bool(e, f"{path}.exhausted[{s}]") and slots[s] == NO:
            _fail(f"{path}.exhausted[{s}]", "false for an empty slot (only a card can be exhausted)", e)
    max_life = min(TRACK_MAX, life_base + sum(LIFE_BONUS[c] for c in slots if c != NO))
    max_mana = min(TRACK_MAX, mana_base + sum(MANA_BONUS[c] for c in slots if c != NO))
    _int(_field(p, "life", path), f"{path}.life", 0, max_life)
    _int(_field(p, "mana", path), f"{path}.mana", 0, max_mana)
    trophies = _cards(p.get("trophies", []), f"{path}.trophies", _MONSTER)
    place(trophies, f"{path}.trophies")
    tokens = _list(p.get("tokens", [0] * len(TROPHY_STACKS)), f"{path}.tokens", len(TROPHY_STACKS))
    for k, (stack, _, _, values) in enumerate(TROPHY_STACKS):
        if tokens[k] != 0 and (not _is_int(tokens[k]) or tokens[k] not in values):
            _fail(f"{path}.tokens[{k}]", f"0 (none) or a token value of {stack}: {list(values)}", tokens[k])
    defeated = _bool(p.get("defeated", False), f"{path}.defeated")
    front = _card(p.get("front", NO), f"{path}.front", _MONSTER, none_ok=True)
    markers = p.get("markers", 0)
    if front == NO:
        _int(markers, f"{path}.markers", 0, 0)
    else:
        if defeated:
            _fail(f"{path}.front", "-1 (none): a defeated hero holds no monster", front)
        _int(markers, f"{path}.markers", 0, CARDS[front].life - 1)
        place([front], f"{path}.front", one=True)
    hand = _cards(p.get("hand", []), f"{path}.hand", _EQUIPMENT, most=HAND_SIZE)
    place(hand, f"{path}.hand")
    pick = _card(p.get("pick", NO), f"{path}.pick", _EQUIPMENT, none_ok=True)
    if pick != NO:
        place([pick], f"{path}.pick", one=True)
    _cards(p.get("seen", []), f"{path}.seen", _EQUIPMENT)
    return {
        "hero": hero,
        "gold": gold,
        "slots": slots,
        "skill_cards": skill_cards,
        "trophies": trophies,
        "tokens": tokens,
        "front": front,
        "hand": hand,
        "pick": pick,
    }


def _check_tasks(tasks: list, n: int, level: int, data: Mapping) -> None:
    for i, task in enumerate(tasks):
        where = f"tasks[{i}]"
        name, args = task[0], task[1:]
        kinds = TASK_ARGS[name]
        if len(args) != len(kinds):
            _fail(where, f"[{name!r}] and {len(kinds)} arguments ({', '.join(kinds) or 'none'})", task)
        for k, (kind, v) in enumerate(zip(kinds, args)):
            at = f"{where}[{k + 1}]"
            if kind == "seat":
                _seat(v, at, n)
            elif kind == "k":
                _int(v, at, 0, n)
            elif kind == "damage":
                _int(v, at, 0)
            elif kind == "source":
                _int(v, at, 0, len(SOURCES) - 1)
            else:
                _card(v, at, _MONSTER)
        if name == "level_start":
            # The level it deals: the current one, or one more per level end that runs before it
            # (the stack runs from its end).
            dealt = level + sum(t[0] == "level_end" for t in tasks[i + 1 :])
            if dealt >= NUM_LEVELS:
                _fail(where, f"a level to deal; level {dealt + 1} does not exist")
            piles, decks = data.get("piles", [[], [], []]), data.get("decks", [[], [], []])
            if len(piles[dealt]) < n + 1 or len(decks[dealt]) < n * HAND_SIZE:
                _fail(
                    where,
                    f"a level to deal: {n + 1} monsters in piles[{dealt}] and {n * HAND_SIZE} cards in decks[{dealt}]",
                )


def _check_draft(tasks: list, decision: int, current: int, seats: list[dict], data: Mapping) -> None:
    """The draft in progress: who has picked matches the pending pick and place steps, and every hand
    holds a card for each pick still to come this level (2.2)."""
    n = len(seats)
    start = data["start"]
    left = DRAFT_ROUNDS - data.get("draft_round", 1)  # rounds after this one
    placing = decision in (DRAFT_PLACE, DRAFT_BUY_COMMITTED) or any(t[0] == "draft_place" for t in tasks)
    if decision == DRAFT_PICK and seats[current]["pick"] != NO:
        _fail(
            f"players[{current}].pick",
            "-1 (none) for the seat to pick: it has not picked this round",
            seats[current]["pick"],
        )
    for i, task in enumerate(tasks):
        if task[0] in ("draft_pick", "draft_place"):
            done = [(start + j) % n for j in range(task[1])]
            if decision != NO and current not in done:
                _fail(
                    "current_player",
                    f"a seat whose turn in this draft step has come ({done}; tasks[{i}] is {task})",
                    current,
                )
            if decision == DRAFT_PICK and current != done[-1]:
                _fail("current_player", f"the seat to pick now, {done[-1]} (tasks[{i}] is {task})", current)
            for seat in done:
                if task[0] == "draft_pick" and seat != current and seats[seat]["pick"] == NO:
                    _fail(f"players[{seat}].pick", f"its pick of this round (tasks[{i}] is {task})", NO)
            for j in range(task[1], n):
                seat = (start + j) % n
                if (seats[seat]["pick"] != NO) != (task[0] == "draft_place"):
                    want = "a pick to place" if task[0] == "draft_place" else "-1 (none): it picks later this round"
                    _fail(f"players[{seat}].pick", f"{want} (tasks[{i}] is {task})", seats[seat]["pick"])
    for i, seat in enumerate(seats):
        need = left if placing else left + 1 - (seat["pick"] != NO)
        if len(seat["hand"]) < need:
            _fail(
                f"players[{i}].hand",
                f"at least {need} cards: one for each pick still to come in this draft (round "
                f"{data.get('draft_round', 1)} of {DRAFT_ROUNDS}), got {len(seat['hand'])}",
            )


def _check_chance(chance: Any) -> None:
    if chance is None:
        return
    if not isinstance(chance, Mapping) or "rng" not in chance:
        _fail("chance", "null or the random source's JSON ({'rng': ..., 'script': [...]})", chance)
    from envs.core.chance import Chance

    try:
        Chance.from_json(chance)
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as err:
        raise ValueError(f"chance.rng: not a state of numpy's PCG64 generator ({err})") from None
    script = _list(chance.get("script", []), "chance.script")
    for k, outcome in enumerate(script):
        # After the setup Lost Legends only shuffles, so a scripted outcome is a shuffle's new order.
        order = outcome if isinstance(outcome, list) else [-1]
        if sorted(x if _is_int(x) else -1 for x in order) != list(range(len(order))):
            _fail(f"chance.script[{k}]", "the order of a shuffle: a permutation of 0..len-1", outcome)


def _slots_used(v: Any, path: str, slots: list[int] | None) -> None:
    used = _list(v, path, most=NUM_SLOTS)
    for k, s in enumerate(used):
        _int(s, f"{path}[{k}]", 0, NUM_SLOTS - 1)
        if used.index(s) != k:
            _fail(f"{path}[{k}]", "each slot used once", s)
        if slots is not None and slots[s] == NO:
            _fail(f"{path}[{k}]", "a slot of the hero that holds a card", s)


def _check_attack(attack: Any, seats: list[dict], seat: int) -> None:
    """The attack in progress; ``seat`` is its attacker (NO: the decision is not an attack's)."""
    if not isinstance(attack, Mapping):
        _fail("attack", "null or {'weapon': ..., 'used': [...], 'fors': [...]}", attack)
    slots = seats[seat]["slots"] if seat != NO else None
    weapon = _int(_field(attack, "weapon", "attack"), "attack.weapon", NO, UNARMED_W)
    if slots is not None and weapon not in (NO, UNARMED_W) and slots[weapon] == NO:
        _fail("attack.weapon", "a weapon slot of the attacker that holds a weapon (3: unarmed)", weapon)
    _slots_used(_field(attack, "used", "attack"), "attack.used", slots)
    fors = _list(_field(attack, "fors", "attack"), "attack.fors", NUM_SLOTS)
    for k, v in enumerate(fors):
        _int(v, f"attack.fors[{k}]", 0)


def _check_event(event: Any, n: int, seats: list[dict]) -> None:
    if not isinstance(event, Mapping):
        _fail("event", "null or {'seat': ..., 'inc': [...], 'used': [...], 'source': ...}", event)
    seat = _seat(_field(event, "seat", "event"), "event.seat", n)
    inc = _list(_field(event, "inc", "event"), "event.inc", 4)
    for k, v in enumerate(inc):
        _int(v, f"event.inc[{k}]", 0)
    _slots_used(_field(event, "used", "event"), "event.used", seats[seat]["slots"])
    _int(_field(event, "source", "event"), "event.source", 0, len(SOURCES) - 1)
