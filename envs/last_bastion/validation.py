"""Last Bastion's JSON states checked before ``state_from_json`` builds them (:func:`check_json`), and
the open decision checked against the position once it is built (:func:`check_decision`).

What is checked: the table (env id when given, one hero per player); every field's type and range
(no negative counts, seat and player indices in range, card ids known); the conservation the rules
keep (each of the 60 cards in exactly one place, tokens held plus the reserve make the box,
elements only where the rules put them); a task stack of real tasks with arguments of the right
kinds (``TASKS.check`` and the argument rules below); and an open decision whose legal ids are
exactly the ones the position offers, for the player who decides. Anything else is a ValueError
that names the field by its JSON path (``heroes[2].life``) and says what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from envs.last_bastion import content as C
from envs.last_bastion.actions import LAYOUT, NUM_ACTIONS
from envs.last_bastion.content import DEAD, DEPLOYED, GONE, HOME, IN, OUT, PARKED, RESULTS, SHAPED
from envs.last_bastion.decisions import TASKS

HERO_KEYS = ("hero", "status", "wounded", "life", "cta", "equip", "tile", "board_grasped")
ELEMENT_KEYS = ("state", "where", "seat")
#: what a decision of each kind holds besides its kind and legal ids
DECISION_EXTRAS = {
    "PLACE_CARD": ("card",),
    "CHOOSE_VICTIM": ("task", "src"),
    "DISCARD_COLOR": ("victim", "left"),
    "GAIN_COLOR": ("whites",),
    "TOWER_DEST": ("src",),
    "COMBAT_RESOLVE": ("targets", "dice"),
    "EFFECT_ORDER": ("order_kind", "items"),
}
#: the action blocks each decision kind's legal ids come from
DECISION_BLOCKS = {
    "MAIN": ("MOVE_TO", "ACTIVATE", "FIGHT", "FIGHT_BOTH", "CALL_TO_ARMS", "ENCHANT", "END_TURN"),
    "PLACE_CARD": ("SELECT_SPACE",),
    "CHOOSE_VICTIM": ("SELECT_PLAYER",),
    "DISCARD_COLOR": ("SELECT_COLOR",),
    "GAIN_COLOR": ("SELECT_COLOR",),
    "STANDARD_COLOR": ("SELECT_COLOR",),
    "QUARRY_SPACE": ("SELECT_SPACE",),
    "TREBUCHET_TARGET": ("SELECT_SPACE",),
    "TOMB_TARGET": ("SELECT_SPACE",),
    "TOWER_SOURCE": ("SELECT_SPACE",),
    "TOWER_DEST": ("SELECT_SPACE",),
    "FOUNTAIN_TARGET": ("SELECT_TILE", "SELECT_PLAYER", "SELECT_SPACE"),
    "DISPENSARY_TARGET": ("SELECT_PLAYER",),
    "PURIFY_TARGET": ("SELECT_TILE", "SELECT_PLAYER"),
    "COMBAT_RESOLVE": ("RESOLVE",),
    "EFFECT_ORDER": ("RESOLVE_EFFECT",),
}
#: the primitives an effect task may carry: the cards' (but the ongoing ones) and the board powers
FX_PRIMS = frozenset(C.PRIMITIVES) - C.ONGOING | {"PLAGUE_WIND", "SOUL_DRAIN", "SIEGE_BREACH"}
FX_ORIGINS = ("card", "board", "full", "die")
MAX_COUNT = C.NUM_CARDS  # the largest count an effect or a draw may carry


def fail(path: str, what: str) -> None:
    raise ValueError(f"{path}: {what}")


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def need_int(v: Any, path: str, lo: int, hi: int) -> int:
    if not is_int(v) or not lo <= v <= hi:
        fail(path, f"an integer {lo}..{hi}, got {v!r}")
    return v


def need_bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        fail(path, f"true or false, got {v!r}")
    return v


def need_choice(v: Any, path: str, choices) -> Any:
    if not isinstance(v, str) or v not in choices:
        fail(path, f"one of {sorted(choices)}, got {v!r}")
    return v


def need_list(v: Any, path: str, length: int | None = None, lo: int = 0, hi: int | None = None) -> list:
    if not isinstance(v, list):
        fail(path, f"a list, got {type(v).__name__}")
    if length is not None and len(v) != length:
        fail(path, f"a list of {length}, got {len(v)} items")
    if len(v) < lo or (hi is not None and len(v) > hi):
        fail(path, f"a list of {lo}..{hi} items, got {len(v)}")
    return v


def need_ints(v: Any, path: str, lo: int, hi: int, length: int | None = None) -> list[int]:
    for i, x in enumerate(need_list(v, path, length)):
        need_int(x, f"{path}[{i}]", lo, hi)
    return v


def need_object(v: Any, path: str, keys: tuple[str, ...]) -> Mapping:
    if not isinstance(v, Mapping):
        fail(path, f"an object with the keys {list(keys)}, got {type(v).__name__}")
    missing = [k for k in keys if k not in v]
    if missing:
        fail(f"{path}.{missing[0]}" if path else missing[0], f"missing (the keys are {list(keys)})")
    extra = sorted(str(k) for k in v if k not in keys)
    if extra:
        fail(f"{path}.{extra[0]}" if path else extra[0], f"not a key of this object (the keys are {list(keys)})")
    return v


# == the JSON, before a state is built ==============================================================
def check_json(game, data: Any, fields: tuple[str, ...]) -> None:
    """ValueError naming the first bad field of ``data`` (see the module doc); ``fields`` are the
    state's JSON fields besides ``heroes``, ``elements`` and ``chance``."""
    if not isinstance(data, Mapping):
        fail("state", f"a Last Bastion state is a JSON object, got {type(data).__name__}")
    if "env_id" in data and data["env_id"] != game.env_id:
        fail("env_id", f"the state is for {data['env_id']!r}, not {game.env_id!r}")
    keys = (*fields, "heroes", "elements", "chance")
    need_object({k: v for k, v in data.items() if k != "env_id"}, "", keys)
    n = game.num_players
    heroes = need_list(data["heroes"], "heroes")
    if len(heroes) != n:
        fail("heroes", f"one hero per player: the game has {n} players, the state {len(heroes)} heroes")
    for p, h in enumerate(heroes):
        _check_hero(h, f"heroes[{p}]")
    hero_ids = [h["hero"] for h in heroes]
    if len(set(hero_ids)) != n:
        fail("heroes", f"each hero at most once, got {[C.HEROES[i].name for i in hero_ids]}")
    _check_seats(data, n)
    layout = need_ints(data["layout"], "layout", 0, 8, 9)
    if sorted(layout) != list(range(9)):
        fail("layout", f"each of the 9 tile types 0..8 once, got {layout}")
    grasped = need_list(data["grasped"], "grasped", 9)
    for t, g in enumerate(grasped):
        need_bool(g, f"grasped[{t}]")
    on_boards = sum(h["board_grasped"] for h in heroes)
    if sum(grasped) + on_boards > C.GRASP_TOTAL:
        fail("grasped", f"{sum(grasped)} tiles and {on_boards} Hero boards grasped: the box has {C.GRASP_TOTAL} Grasps")
    spaces = need_ints(data["spaces"], "spaces", -1, C.NUM_CARDS - 1, 12)
    sanct = need_ints(data["sanct"], "sanct", -1, 3, 12)
    for s in range(12):
        if sanct[s] >= 0 and spaces[s] < 0:
            fail(f"sanct[{s}]", "only a card in play is sanctified, and space {s} is empty")
    for name in ("deck", "set_aside", "discard"):
        need_ints(data[name], name, 0, C.NUM_CARDS - 1)
    _check_tokens(data, heroes)
    need_int(data["board"], "board", 0, 3)
    need_int(data["active"], "active", -1, n - 1)
    for name in ("neutral", "acted", "moved", "power_used"):
        need_bool(data[name], name)
    if not data["neutral"] and data["active"] < 0:
        fail("active", "a hero's board-turn (neutral false) has an active player 0..n-1, got -1")
    need_int(data["board_turns"], "board_turns", 0, 10**9)
    need_int(data["vanquished"], "vanquished", 0, game.warlords)
    need_int(data["placing"], "placing", -1, C.NUM_CARDS - 1)
    need_int(data["current_player"], "current_player", -1, n - 1)
    result = data["result"]
    if result is not None:
        need_choice(result, "result", RESULTS)
    counters = need_object(data["counters"], "counters", tuple(SHAPED))
    for k, v in counters.items():
        need_int(v, f"counters.{k}", 0, 10**9)
    rewards = need_list(data["last_rewards"], "last_rewards", n)
    for i, r in enumerate(rewards):
        if not isinstance(r, (int, float)) or isinstance(r, bool) or not math.isfinite(r):
            fail(f"last_rewards[{i}]", f"a finite number, got {r!r}")
    _check_cards(data)
    _check_elements(data)
    _check_chance(data["chance"])
    _check_stack(data["stack"], n)
    decision = data["decision"]
    if result is not None:
        if decision is not None or data["stack"]:
            fail("decision" if decision is not None else "stack", f"the game is over ({result}): none is left")
        if data["current_player"] != -1:
            fail("current_player", "-1 once the game is over")
    else:
        if not any(h["status"] == IN for h in heroes):
            fail("heroes", "no hero is in play, so the game is over: result must be 'defeat_heroes'")
        _check_board_turn(data["stack"])
        if decision is not None:
            _check_decision_json(decision, data, n)
    placing_open = isinstance(decision, Mapping) and decision.get("kind") == "PLACE_CARD"
    if (data["placing"] >= 0) != placing_open:
        fail("placing", "a card is being placed (placing >= 0) exactly while a PLACE_CARD decision is open")


def _check_hero(h: Any, path: str) -> None:
    need_object(h, path, HERO_KEYS)
    need_int(h["hero"], f"{path}.hero", 0, len(C.HEROES) - 1)
    status = need_choice(h["status"], f"{path}.status", (IN, OUT, DEAD))
    need_bool(h["wounded"], f"{path}.wounded")
    need_bool(h["board_grasped"], f"{path}.board_grasped")
    need_ints(h["equip"], f"{path}.equip", 0, C.EQUIP_PER_COLOR, 5)
    if status == IN:
        need_int(h["life"], f"{path}.life", 1, C.LIFE_TOTAL)
        need_int(h["cta"], f"{path}.cta", 0, C.CTA_TOTAL)
        need_int(h["tile"], f"{path}.tile", 0, 8)
    else:  # taken out: the hero gave back everything and left the Bastion
        need_int(h["life"], f"{path}.life", 0, 0)
        need_int(h["cta"], f"{path}.cta", 0, 0)
        need_int(h["tile"], f"{path}.tile", -1, -1)
        if any(h["equip"]):
            fail(f"{path}.equip", f"a hero who is {status} holds no Equipment, got {h['equip']}")
        if h["board_grasped"]:
            fail(f"{path}.board_grasped", f"false for a hero who is {status}")


def _check_seats(data: Mapping, n: int) -> None:
    seat_of = need_ints(data["seat_of"], "seat_of", 0, 3, n)
    if len(set(seat_of)) != n:
        fail("seat_of", f"a different seat 0..3 for each player, got {seat_of}")
    player_at = need_ints(data["player_at"], "player_at", -1, n - 1, 4)
    for b in range(4):
        want = seat_of.index(b) if b in seat_of else -1
        if player_at[b] != want:
            fail(f"player_at[{b}]", f"{want}, the player at seat {b} by seat_of {seat_of}, got {player_at[b]}")


def _check_tokens(data: Mapping, heroes: list) -> None:
    reserve = need_ints(data["reserve_equip"], "reserve_equip", 0, C.EQUIP_PER_COLOR, 5)
    for c in range(5):
        held = sum(h["equip"][c] for h in heroes)
        if reserve[c] + held != C.EQUIP_PER_COLOR:
            fail(
                f"reserve_equip[{c}]",
                f"{reserve[c]} {C.COLORS[c]} in the reserve and {held} held make {reserve[c] + held}; "
                f"the box has {C.EQUIP_PER_COLOR}",
            )
    for name, key, total in (("reserve_life", "life", C.LIFE_TOTAL), ("reserve_cta", "cta", C.CTA_TOTAL)):
        v = need_int(data[name], name, 0, total)
        held = sum(h[key] for h in heroes)
        if v + held != total:
            fail(name, f"{v} in the reserve and {held} held make {v + held}; the box has {total}")


def _check_cards(data: Mapping) -> None:
    """Each of the 60 cards in exactly one place: the deck, set aside, the discard, a space, or being placed."""
    where: dict[int, str] = {}
    places = [(f"deck[{i}]", c) for i, c in enumerate(data["deck"])]
    places += [(f"set_aside[{i}]", c) for i, c in enumerate(data["set_aside"])]
    places += [(f"discard[{i}]", c) for i, c in enumerate(data["discard"])]
    places += [(f"spaces[{s}]", c) for s, c in enumerate(data["spaces"]) if c >= 0]
    if data["placing"] >= 0:
        places.append(("placing", data["placing"]))
    for path, c in places:
        if c in where:
            fail(path, f"card {c} ({C.CARDS[c].name}) is already at {where[c]}: each card is in one place")
        where[c] = path
    missing = [c for c in range(C.NUM_CARDS) if c not in where]
    if missing:
        c = missing[0]
        fail(
            "set_aside",
            f"card {c} ({C.CARDS[c].name}) is nowhere: each of the {C.NUM_CARDS} cards is in the deck, "
            "set_aside, the discard, on a space or being placed",
        )


def _check_elements(data: Mapping) -> None:
    elements = need_object(data["elements"], "elements", C.ELEMENTS)
    spaces = data["spaces"]
    for name in C.ELEMENTS:
        path = f"elements.{name}"
        e = need_object(elements[name], path, ELEMENT_KEYS)
        states = (HOME, DEPLOYED, PARKED, GONE) if name == "enchantment" else (HOME, DEPLOYED, PARKED)
        state = need_choice(e["state"], f"{path}.state", states)
        if state != DEPLOYED:
            need_int(e["where"], f"{path}.where", -1, -1)
            need_int(e["seat"], f"{path}.seat", -1, -1)
        elif name == "standard":
            need_int(e["where"], f"{path}.where", 0, 4)  # a colour
            need_int(e["seat"], f"{path}.seat", 0, 3)  # the board of its planter
        else:
            s = need_int(e["where"], f"{path}.where", 0, 11)
            need_int(e["seat"], f"{path}.seat", -1, -1)
            if name == "trap" and spaces[s] >= 0:
                fail(f"{path}.where", f"the Trap waits on an empty space, and space {s} holds a card")
            if name != "trap" and spaces[s] < 0:
                fail(f"{path}.where", f"the {name} lies on a card, and space {s} is empty")
            if name == "net" and spaces[s] >= 0 and C.CARDS[spaces[s]].warlord:
                fail(f"{path}.where", f"the Net lies on a Monster, and space {s} holds a Warlord")


def _check_chance(chance: Any) -> None:
    from envs.core.chance import Chance

    need_object(chance, "chance", ("rng", "script"))
    script = need_list(chance["script"], "chance.script")
    for i, x in enumerate(script):
        if not is_int(x) and not (isinstance(x, list) and all(is_int(y) for y in x)):
            fail(f"chance.script[{i}]", f"a scripted outcome is an integer or a list of integers, got {x!r}")
    rng = need_object(chance["rng"], "chance.rng", ("bit_generator", "state", "has_uint32", "uinteger"))
    if rng["bit_generator"] != "PCG64":
        fail("chance.rng.bit_generator", f"'PCG64', got {rng['bit_generator']!r}")
    inner = need_object(rng["state"], "chance.rng.state", ("state", "inc"))
    for k in ("state", "inc"):
        need_int(inner[k], f"chance.rng.state.{k}", 0, 2**128 - 1)
    need_int(rng["has_uint32"], "chance.rng.has_uint32", 0, 1)
    need_int(rng["uinteger"], "chance.rng.uinteger", 0, 2**32 - 1)
    try:
        Chance.from_json(chance)
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        fail("chance.rng", f"not a PCG64 state numpy accepts ({e})")


# == the task stack =================================================================================
def _space(v, path):
    return need_int(v, path, 0, 11)


def _card(v, path):
    return need_int(v, path, 0, C.NUM_CARDS - 1)


def _tile_type(v, path):
    return need_int(v, path, 0, len(C.TILES) - 1)


def _count(v, path):
    return need_int(v, path, 0, MAX_COUNT)


def check_task(task: Any, path: str, n: int) -> None:
    """One task of the stack (or of a decision): a registered task with its arguments in range."""
    if not isinstance(task, list) or not task:
        fail(path, f"a task is a non-empty list [name, *args], got {task!r}")
    if not isinstance(task[0], str) or task[0] not in TASKS:
        fail(f"{path}[0]", f"{task[0]!r} is not a task of last_bastion_v0; its tasks are {sorted(TASKS.names())}")
    name, args = task[0], task[1:]
    rules = {
        "turn_start": (),
        "recurring": (),
        "power": (),
        "hero": (),
        "turn_end": (),
        "victory": (),
        "rec": (_space, _card),
        "exit": (_space, _card),
        "remove": (_space, _card),
        "draw": (_count,),
        "gain_color": (_count,),
        "discard_equip": (lambda v, p: need_int(v, p, 0, n - 1), _count),
        "tile": (_tile_type, need_bool),
        "kaela": (_tile_type,),
        "order": (lambda v, p: need_choice(v, p, ("rec", "exit")), need_list),
        "fx": (
            lambda v, p: need_choice(v, p, FX_PRIMS),
            lambda v, p: v,  # checked below, by primitive
            lambda v, p: need_int(v, p, -1, 11),
            lambda v, p: need_int(v, p, -1, n - 1),
            lambda v, p: need_choice(v, p, FX_ORIGINS),
        ),
    }[name]
    if len(args) != len(rules):
        fail(path, f"the task {name!r} takes {len(rules)} arguments, got {len(args)}")
    for i, (rule, v) in enumerate(zip(rules, args)):
        rule(v, f"{path}[{i + 1}]")
    if name == "fx":
        prim, arg = args[0], args[1]
        if prim == "GAIN_EQUIP":
            if arg != C.ANY:
                need_int(arg, f"{path}[2]", 0, 4)
        else:
            _count(arg, f"{path}[2]")
    if name == "order":
        check_items(args[0], args[1], f"{path}[2]", n)


def check_items(kind: str, items: Any, path: str, n: int) -> None:
    """The items ``[k, task]`` of an ordering: distinct k 0..2, each a ``rec`` or ``exit`` task (as ``kind``)."""
    need_list(items, path, hi=3)
    seen = set()
    for i, item in enumerate(items):
        where = f"{path}[{i}]"
        need_list(item, where, 2)
        k = need_int(item[0], f"{where}[0]", 0, 2)
        if k in seen:
            fail(f"{where}[0]", f"each item has its own number, and {k} is taken")
        seen.add(k)
        task = need_list(item[1], f"{where}[1]", 3)
        if task[0] != kind:
            fail(f"{where}[1][0]", f"an item of a {kind!r} ordering is a {kind!r} task, got {task[0]!r}")
        check_task(task, f"{where}[1]", n)


def _check_board_turn(stack: list) -> None:
    """A running game's stack holds its board-turn's end at the bottom, once: ``turn_end`` (or
    ``turn_start`` between two board-turns), so the tasks never run out."""
    ends = [i for i, task in enumerate(stack) if task[0] in ("turn_end", "turn_start")]
    if ends != [0]:
        fail(
            "stack" if not stack else f"stack[{ends[1] if ends and ends[0] == 0 else 0}]",
            "a running game's stack has one ['turn_end'] (or ['turn_start'] between board-turns), at its bottom "
            f"(stack[0]), got {stack}",
        )


def _check_stack(stack: Any, n: int) -> None:
    need_list(stack, "stack")
    for i, task in enumerate(stack):  # first: TASKS.check would hash a name that is a list
        check_task(task, f"stack[{i}]", n)
    TASKS.check(stack, "stack")


# == the open decision ==============================================================================
def _check_decision_json(d: Any, data: Mapping, n: int) -> None:
    if not isinstance(d, Mapping):
        fail("decision", f"null or an object with a kind and legal ids, got {type(d).__name__}")
    kind = need_choice(d.get("kind"), "decision.kind", DECISION_BLOCKS)
    need_object(d, "decision", ("kind", "legal", *DECISION_EXTRAS.get(kind, ())))
    legal = need_ints(d["legal"], "decision.legal", 0, NUM_ACTIONS - 1)
    if not legal or legal != sorted(set(legal)):
        fail("decision.legal", f"a non-empty list of distinct action ids in increasing order, got {legal}")
    for i, a in enumerate(legal):
        if LAYOUT.decode(a)[0] not in DECISION_BLOCKS[kind]:
            fail(f"decision.legal[{i}]", f"a {kind} decision offers {DECISION_BLOCKS[kind]}, not {LAYOUT.decode(a)}")
    if data["current_player"] < 0:
        fail("current_player", "the player who decides (0..n-1) while a decision is open, got -1")
    spaces = data["spaces"]
    if kind == "MAIN":
        if data["neutral"] or data["heroes"][data["active"]]["status"] != IN:
            fail("decision.kind", "MAIN is the Hero phase of an active hero in play")
    elif kind == "PLACE_CARD":
        if d["card"] != data["placing"]:
            fail("decision.card", f"the card being placed (placing = {data['placing']}), got {d['card']!r}")
    elif kind == "CHOOSE_VICTIM":
        task = need_list(d["task"], "decision.task", 6)
        if task[0] != "fx":
            fail("decision.task[0]", f"'fx': the effect that waits for its victim, got {task[0]!r}")
        check_task(task, "decision.task", n)
        need_int(d["src"], "decision.src", -1, 11)
    elif kind == "DISCARD_COLOR":
        victim = need_int(d["victim"], "decision.victim", 0, n - 1)
        if data["heroes"][victim]["status"] != IN:
            fail("decision.victim", f"a hero in play discards, and player {victim} is not in play")
        _count(d["left"], "decision.left")
    elif kind == "GAIN_COLOR":
        _count(d["whites"], "decision.whites")
    elif kind == "TOWER_DEST":
        src = _space(d["src"], "decision.src")
        if spaces[src] < 0:
            fail("decision.src", f"the space of the card the Tower moves, and space {src} is empty")
    elif kind == "COMBAT_RESOLVE":
        targets = need_ints(d["targets"], "decision.targets", 0, 11)
        if not 1 <= len(targets) <= 2 or len(set(targets)) != len(targets):
            fail("decision.targets", f"one or two different spaces, got {targets}")
        for i, s in enumerate(targets):
            if spaces[s] < 0:
                fail(f"decision.targets[{i}]", f"a space with a card to fight, and space {s} is empty")
        dice = need_ints(d["dice"], "decision.dice", 0, len(C.DIE_FACES) - 1)
        if not 1 <= len(dice) <= 4:
            fail("decision.dice", f"1..4 dice, got {len(dice)}")
    elif kind == "EFFECT_ORDER":
        order_kind = need_choice(d["order_kind"], "decision.order_kind", ("rec", "exit"))
        check_items(order_kind, d["items"], "decision.items", n)


def check_decision(state) -> None:
    """Once built: the open decision belongs to the player who decides now, with exactly the legal
    ids the position offers (a hand-edited list could offer an action the rules cannot play)."""
    from envs.last_bastion.state import DECISIONS

    d = state.decision
    if d is None:
        return
    decider = state.active if d["kind"] == "MAIN" else state.controller()
    if state.current_player != decider:
        fail("current_player", f"player {decider} decides {d['kind']} in this position, got {state.current_player}")
    want = sorted(set(DECISIONS[d["kind"]].legal(state, d)))
    if d["legal"] != want:
        fail("decision.legal", f"the position offers {want} for this {d['kind']} decision, got {d['legal']}")
