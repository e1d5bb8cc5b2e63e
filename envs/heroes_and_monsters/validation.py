"""Heroes and Monsters, the checks ``Game.state_from_json`` runs on a JSON state before it builds one.

:func:`check_state_json` accepts exactly what the rules can produce: every field present (or one of
the few added after the first release), of its JSON type and in its range (card, Invader, Plan and
General ids known; seats of this table; no negative count), the structure the rules keep (a
sub-decision open exactly in its phases, the seat to decide, the active seat of the round, the used
cards in the piles they are said to be in), and, with ``supply``, the conservation of the box: every
card in exactly one place, the starting cards of each General, the Fortress cards, the Invaders and
the Plans adding up to what the game holds. Anything else is a ``ValueError`` naming the field by
its JSON path (``players[1].hand[3]``) and what is allowed there; no other exception escapes for
JSON-shaped input. ``clone`` and ``resample_hidden`` copy a state without these checks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from envs.core.chance import Chance
from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.content import (
    ADVERSARIES,
    ADVERSARY_KEYS,
    CARDS,
    CONSTRUCTION,
    GENERALS,
    INVADERS,
    PLANS,
    RESOURCE,
)
from envs.heroes_and_monsters.effects import END_REASONS, TERMINAL_RESULTS
from envs.heroes_and_monsters.state import JSON_DEFAULTS, JSON_FIELDS
from envs.heroes_and_monsters.turn import (
    CHOOSE_DISCARD,
    CHOOSE_OVERFLOW,
    CHOOSE_TRASH,
    COMBAT,
    EFFECTS,
    PAY_ANY,
    PHASES,
    RECRUIT,
    SOURCES,
    SUPPORT,
)

if TYPE_CHECKING:
    from envs.heroes_and_monsters.game import HeroesAndMonstersGame

COUNT_MAX = 10**6  # a bound for counters the rules leave open (ward, damage, markers placed...)
PLAYER_KEYS = ("general", "deck", "hand", "discard", "table", "gen_used")
PENDING_KEYS = ("seat", "src", "card", "effect", "at", "any", "trash", "overflow", "ret")
SUB_DECISIONS = (CHOOSE_DISCARD, CHOOSE_TRASH, CHOOSE_OVERFLOW, PAY_ANY)
_FORTRESS_SUPPLY = Counter(C.fortress_card_list())
_INVADER_SUPPLY = Counter(C.invader_list())
_STARTING_DECKS = tuple(Counter(C.starting_deck(g.id)) for g in GENERALS)
_FORTRESS_IDS = range(C.FIRST_FORTRESS_CARD, C.NUM_CARDS)


def _fail(path: str, allowed: str, value: Any = ..., got: str | None = None) -> None:
    if got is None and value is not ...:
        text = repr(value)
        got = text if len(text) <= 60 else text[:57] + "..."
    raise ValueError(f"{path}: {allowed}" + (f", got {got}" if got is not None else ""))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v: Any, path: str, low: int, high: int) -> int:
    if not _is_int(v) or not low <= v <= high:
        _fail(path, f"an integer from {low} to {high}", v)
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        _fail(path, "true or false", v)
    return v


def _number(v: Any, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        _fail(path, "a finite number", v)
    return float(v)


def _list(v: Any, path: str, size: int | None = None, max_size: int | None = None) -> list:
    if not isinstance(v, list):
        _fail(path, "a list", got=type(v).__name__)
    if size is not None and len(v) != size:
        _fail(path, f"a list of {size} entries", got=f"{len(v)} entries")
    if max_size is not None and len(v) > max_size:
        _fail(path, f"a list of at most {max_size} entries", got=f"{len(v)} entries")
    return v


def _mapping(v: Any, path: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> Mapping:
    if not isinstance(v, Mapping):
        _fail(path, "a JSON object", got=type(v).__name__)
    for key in keys:
        if key not in v and key not in optional:
            _fail(f"{path}.{key}" if path else key, "missing (a required field)")
    unknown = sorted(str(k) for k in v if k not in keys)
    if unknown:
        _fail(f"{path}.{unknown[0]}" if path else unknown[0], f"not a field here; the fields are {list(keys)}")
    return v


def _none(v: Any) -> bool:
    """The integer -1 that marks an empty place (an empty slot, no Plan, no card)."""
    return _is_int(v) and v == -1


def _cards(v: Any, path: str, ids: range = range(C.NUM_CARDS), what: str = "card id") -> list[int]:
    """A list of ids from ``ids`` (card ids unless told)."""
    for i, c in enumerate(_list(v, path)):
        if not _is_int(c) or c not in ids:
            _fail(f"{path}[{i}]", f"a {what} from {ids.start} to {ids.stop - 1}", c)
    return v


def _entries(v: Any, path: str, max_size: int, constructions: bool) -> list[list]:
    """A hand or a table: a list of ``[card id, used]`` pairs."""
    for i, entry in enumerate(_list(v, path, max_size=max_size)):
        where = f"{path}[{i}]"
        if not isinstance(entry, list) or len(entry) != 2:
            _fail(where, "a pair [card id, used]", entry)
        _int(entry[0], f"{where}[0]", 0, C.NUM_CARDS - 1)
        _bool(entry[1], f"{where}[1]")
        if constructions and CARDS[entry[0]].kind != CONSTRUCTION:
            _fail(f"{where}[0]", "a Construction (only Constructions lie on a table)", got=CARDS[entry[0]].name)
    return v


def check_state_json(game: HeroesAndMonstersGame, data: Any, supply: bool = True) -> None:
    """Raise a ValueError naming the first field of ``data`` that no game of ``game`` could hold."""
    fields = (*JSON_FIELDS, "players", "rewards", "chance", "env_id")
    _mapping(data, "", fields, optional=(*JSON_DEFAULTS, "rewards", "env_id"))
    if data.get("env_id", game.env_id) != game.env_id:
        _fail("env_id", f"{game.env_id!r} (this game)", data.get("env_id"))
    n = game.num_players
    players = _list(data["players"], "players", size=n)
    _check_players(players)

    d = data
    adversary = _int(d["adversary"], "adversary", 0, len(ADVERSARIES) - 1)
    adv = ADVERSARIES[adversary]
    if game.options["adversary"] != "random" and adv.key != game.options["adversary"]:
        _fail(
            "adversary",
            f"{ADVERSARY_KEYS.index(game.options['adversary'])} (this game is against {game.options['adversary']!r})",
            adversary,
        )
    if game.generals is not None:
        for i, p in enumerate(players):
            if p["general"] != game.generals[i]:
                _fail(f"players[{i}].general", f"{game.generals[i]} (this game's option generals)", p["general"])
    result = d["result"]
    if result is not None and (not isinstance(result, str) or result not in END_REASONS):
        _fail("result", f"null (the game runs) or one of {list(END_REASONS)}", result)
    running = result is None
    # the Fortress and the Area
    fortress = _cards(d["fortress"], "fortress", _FORTRESS_IDS, "Fortress card id")
    if running and not fortress:
        _fail("fortress", "a non-empty list while the game runs (an empty Fortress deck ends it)", got="[]")
    area = _list(d["area"], "area", size=C.NUM_SLOTS)
    for i, c in enumerate(area):
        if running and not (_is_int(c) and c in _FORTRESS_IDS):  # every card that leaves is replaced at once
            _fail(f"area[{i}]", f"a Fortress card id from {_FORTRESS_IDS.start} to {C.NUM_CARDS - 1}", c)
        if not running and not _none(c) and not (_is_int(c) and c in _FORTRESS_IDS):
            _fail(f"area[{i}]", f"-1 (empty) or a Fortress card id from {_FORTRESS_IDS.start} to {C.NUM_CARDS - 1}", c)
    _cards(d["rubble"], "rubble", _FORTRESS_IDS, "Fortress card id")
    _cards(d["box"], "box", _FORTRESS_IDS, "Fortress card id")
    _cards(d["exile"], "exile")
    # the Battlefield
    _cards(d["inv_deck"], "inv_deck", range(C.NUM_INVADER_TYPES), "Invader id")
    _cards(d["inv_discard"], "inv_discard", range(C.NUM_INVADER_TYPES), "Invader id")
    field = _list(d["field"], "field", size=C.NUM_COLUMNS)
    markers = _list(d["markers"], "markers", size=C.NUM_COLUMNS)
    attacked = _list(d["attacked"], "attacked", size=C.NUM_COLUMNS)
    for col in range(C.NUM_COLUMNS):
        iid = field[col]
        if not _none(iid):
            _int(iid, f"field[{col}]", 0, C.NUM_INVADER_TYPES - 1)
        _bool(attacked[col], f"attacked[{col}]")
        if _none(iid):
            _int(markers[col], f"markers[{col}]", 0, 0)
            if attacked[col]:
                _fail(f"attacked[{col}]", "false for an empty column", True)
        else:
            levels = len(INVADERS[iid].health)
            # paying the last level defeats the Invader, unless the game ended on the way (a Plan thwarted)
            _int(markers[col], f"markers[{col}]", 0, levels - 1 if running else levels)
    _int(d["ward"], "ward", 0, COUNT_MAX)
    # the round and the turn
    _int(d["round"], "round", 1, game.options["max_rounds"])
    first = _int(d["first"], "first", 0, n - 1)
    turns_done = _int(d["turns_done"], "turns_done", 0, n)
    active = _int(d["active"], "active", 0, n - 1)
    phase = _int(d["phase"], "phase", 0, len(PHASES) - 1)
    current = _int(d["current_player"], "current_player", -1, n - 1)
    res = _list(d["res"], "res", size=3)
    for x in range(3):
        _int(res[x], f"res[{x}]", -C.HAND_CAP, COUNT_MAX)
    _int(d["dmg"], "dmg", 0, COUNT_MAX)
    bonus = _list(d["bonus"], "bonus", size=3)
    for r in range(3):
        _int(bonus[r], f"bonus[{r}]", 0, COUNT_MAX)
    used_discarded = _cards(d["used_discarded"], "used_discarded")
    used_in_deck = _cards(d.get("used_in_deck", JSON_DEFAULTS["used_in_deck"]), "used_in_deck")
    _bool(d.get("hand_up", JSON_DEFAULTS["hand_up"]), "hand_up")
    _int(d.get("bought", JSON_DEFAULTS["bought"]), "bought", 0, len(C.FORTRESS_CARDS))
    # Plans
    _check_plans(d, adv, running, n)
    _int(d["thwarted"], "thwarted", 0, adv.plans_in_play)
    _int(d["defeated"], "defeated", 0, COUNT_MAX)
    _int(d["markers_placed"], "markers_placed", 0, COUNT_MAX)
    # the sub-decision, the support windows, the end
    pending = d["pending"]
    if pending is not None:
        _check_pending(pending, n)
    queue = _list(d["support_queue"], "support_queue", max_size=n - 1)
    for i, seat in enumerate(queue):
        _int(seat, f"support_queue[{i}]", 0, n - 1)
        if seat == active or seat in queue[:i]:
            _fail(f"support_queue[{i}]", "a seat other than the active one, at most once", seat)
    _int(d["steps"], "steps", 0, game.step_cap)
    total = _number(d["total"], "total")
    if not game.shaped:  # win_loss: nothing while the game runs, then +1, -1 or 0 (truncated) once
        want = 0.0 if result in (None, "truncated") else 1.0 if result == "victory" else -1.0
        if total != want:
            _fail("total", f"{want} (the win/loss reward so far, with result {result!r})", total)
    if "rewards" in d:
        rewards = _list(d["rewards"], "rewards", size=n)
        for i, r in enumerate(rewards):
            _number(r, f"rewards[{i}]")
    _check_chance(d["chance"])

    # -- the structure the rules keep ----------------------------------------------------------------
    p_active = players[active]
    if Counter(used_discarded) - Counter(p_active["discard"]):
        _fail("used_discarded", f"cards of players[{active}].discard (the active player's)", used_discarded)
    if Counter(used_in_deck) - Counter(p_active["deck"]):
        _fail("used_in_deck", f"cards of players[{active}].deck (the active player's)", used_in_deck)
    in_hand = [0, 0, 0]
    for c, _ in p_active["hand"]:
        if CARDS[c].kind == RESOURCE:
            in_hand[CARDS[c].provides] += 1
    for x in range(3):
        if res[x] + in_hand[x] < 0:
            _fail(
                f"res[{x}]",
                f"at least {-in_hand[x]} (the pool, res plus the resource cards in hand, is never negative)",
                res[x],
            )
    if result in TERMINAL_RESULTS and current != -1:
        _fail("current_player", "-1 once the game has ended", current)
    if running:
        _check_turn(d, players, n, first, turns_done, active, phase, current, pending)
    if supply:
        _check_supply(d, players, n, adv)


def _check_players(players: list) -> None:
    generals: dict[int, int] = {}
    for i, p in enumerate(players):
        path = f"players[{i}]"
        _mapping(p, path, PLAYER_KEYS)
        g = _int(p["general"], f"{path}.general", 0, C.NUM_GENERALS - 1)
        if g in generals:
            _fail(f"{path}.general", f"a General not already at the table (seat {generals[g]} has it)", g)
        generals[g] = i
        _cards(p["deck"], f"{path}.deck")
        _cards(p["discard"], f"{path}.discard")
        _entries(p["hand"], f"{path}.hand", C.HAND_CAP, constructions=False)
        _entries(p["table"], f"{path}.table", C.TABLE_CAP, constructions=True)
        _bool(p["gen_used"], f"{path}.gen_used")


def _check_plans(d: Mapping, adv: C.Adversary, running: bool, n: int) -> None:
    allowed = set(adv.plans)
    plan_ids = range(len(PLANS))
    plan_deck = _cards(d["plan_deck"], "plan_deck", plan_ids, "Plan id")
    box_plans = _cards(d["box_plans"], "box_plans", plan_ids, "Plan id")
    plan = d["plan"]
    if not _none(plan):
        _int(plan, "plan", 0, len(PLANS) - 1)
    for path, p in (
        [(f"plan_deck[{i}]", p) for i, p in enumerate(plan_deck)]
        + [(f"box_plans[{i}]", p) for i, p in enumerate(box_plans)]
        + ([("plan", plan)] if not _none(plan) else [])
    ):
        if p not in allowed:
            _fail(path, f"a Plan of {adv.name} ({sorted(allowed) or 'none'})", p)
    progress = _int(d["plan_progress"], "plan_progress", 0, COUNT_MAX)
    if plan != -1:
        _int(d["plan_countdown"], "plan_countdown", 0, PLANS[plan].countdown)
        required = PLANS[plan].required[n - 1]
        if running and progress >= required:
            _fail("plan_progress", f"less than {required} (the Plan is thwarted at {required})", progress)
    elif running:
        _int(d["plan_countdown"], "plan_countdown", 0, 0)
    else:  # the last Plan thwarted: it is gone, its countdown stays
        _int(d["plan_countdown"], "plan_countdown", 0, max(p.countdown for p in PLANS))


def _check_pending(pending: Any, n: int) -> None:
    _mapping(pending, "pending", PENDING_KEYS)
    _int(pending["seat"], "pending.seat", 0, n - 1)
    _int(pending["src"], "pending.src", 0, len(SOURCES) - 1)
    _int(pending["card"], "pending.card", -1, C.NUM_CARDS - 1)
    effect = pending["effect"]
    steps = 0
    if effect is not None:
        if (
            not isinstance(effect, list)
            or len(effect) != 2
            or not isinstance(effect[0], str)
            or effect[0] not in ("card", "general")
        ):
            _fail("pending.effect", 'null or ["card", card id] or ["general", General id]', effect)
        if effect[0] == "card":
            _int(effect[1], "pending.effect[1]", 0, C.NUM_CARDS - 1)
            if CARDS[effect[1]].effect is None:
                _fail("pending.effect[1]", "a card with an effect", got=CARDS[effect[1]].name)
            steps = len(CARDS[effect[1]].effect.do)
        else:
            _int(effect[1], "pending.effect[1]", 0, C.NUM_GENERALS - 1)
            steps = len(GENERALS[effect[1]].ability.do)
    _int(pending["at"], "pending.at", 0, steps)
    _int(pending["any"], "pending.any", 0, COUNT_MAX)
    _int(pending["trash"], "pending.trash", 0, COUNT_MAX)
    overflow = pending["overflow"]
    if not _none(overflow):
        _int(overflow, "pending.overflow", 0, C.NUM_CARDS - 1)
        if CARDS[overflow].kind != CONSTRUCTION:
            _fail("pending.overflow", "-1 or a Construction", got=CARDS[overflow].name)
    ret = pending["ret"]
    if not _is_int(ret) or ret not in (RECRUIT, EFFECTS, SUPPORT):
        _fail(
            "pending.ret",
            f"the phase to return to: {RECRUIT} (RECRUIT), {EFFECTS} (EFFECTS) or {SUPPORT} (SUPPORT)",
            ret,
        )


def _check_turn(d, players, n, first, turns_done, active, phase, current, pending) -> None:
    """While the game runs: whose turn it is, who decides, and the sub-decision open in its phase."""
    if turns_done >= n:
        _fail("turns_done", f"less than {n} while the game runs (the round ends after the last turn)", turns_done)
    if active != (first + turns_done) % n:
        _fail("active", f"(first + turns_done) % {n} = {(first + turns_done) % n}", active)
    if current == -1:
        _fail("current_player", "a seat while the game runs", current)
    if (phase in SUB_DECISIONS) != (pending is not None):
        if pending is None:
            _fail("pending", f"the open sub-decision of phase {PHASES[phase]}", None)
        _fail(
            "pending",
            f"null in phase {PHASES[phase]} (only {[PHASES[p] for p in SUB_DECISIONS]} hold one)",
            got="an object",
        )
    if pending is not None:
        if current != pending["seat"]:
            _fail("current_player", f"pending.seat ({pending['seat']}), the seat paying", current)
        needs_effect = phase in (CHOOSE_DISCARD, CHOOSE_TRASH, PAY_ANY)
        if needs_effect and pending["effect"] is None:
            _fail("pending.effect", f"the effect being paid for in phase {PHASES[phase]}", None)
        if phase == PAY_ANY:
            payer = players[current]
            pool = sum(1 for c, _ in payer["hand"] if CARDS[c].kind == RESOURCE)
            pool += sum(d["res"]) if current == active else 0
            if not 1 <= pending["any"] <= pool:
                _fail("pending.any", f"from 1 to {pool} in PAY_ANY (what seat {current} can still pay)", pending["any"])
        if phase == CHOOSE_TRASH and pending["trash"] < 1:
            _fail("pending.trash", "at least 1 in CHOOSE_TRASH", pending["trash"])
        if phase == CHOOSE_OVERFLOW:
            if pending["overflow"] == -1:
                _fail("pending.overflow", "the Construction just bought, in CHOOSE_OVERFLOW", -1)
            if len(players[current]["table"]) != C.TABLE_CAP:
                _fail(
                    f"players[{current}].table",
                    f"a full table ({C.TABLE_CAP}) in CHOOSE_OVERFLOW",
                    got=f"{len(players[current]['table'])} entries",
                )
    elif phase == SUPPORT:
        if current == active:
            _fail("current_player", "a seat other than the active one in a SUPPORT window", current)
    elif phase in (RECRUIT, EFFECTS, COMBAT) and current != active:
        _fail("current_player", f"the active seat ({active}) in {PHASES[phase]}", current)


def _check_supply(d, players, n, adv) -> None:
    """Every card in exactly one place, adding up to the box: the starting decks, the Fortress cards,
    the Invaders and the Plans."""
    # starting cards: each seat's own, plus the trashed ones in the Exile
    total_start: Counter = Counter()
    for i, p in enumerate(players):
        own = Counter(
            c for c in p["deck"] + p["discard"] + [e[0] for e in p["hand"] + p["table"]] if c < C.FIRST_FORTRESS_CARD
        )
        deck = _STARTING_DECKS[p["general"]]
        extra = own - deck
        if extra:
            c = min(extra)
            _fail(f"players[{i}]", f"at most {deck[c]} {CARDS[c].name} (its General's starting deck)", got=str(own[c]))
        total_start += deck
    exiled = Counter(c for c in d["exile"] if c < C.FIRST_FORTRESS_CARD)
    held = Counter(
        c
        for p in players
        for c in p["deck"] + p["discard"] + [e[0] for e in p["hand"] + p["table"]]
        if c < C.FIRST_FORTRESS_CARD
    )
    if held + exiled != total_start:
        c = min((held + exiled - total_start) + (total_start - held - exiled))
        _fail(
            "exile",
            f"{total_start[c]} {CARDS[c].name} in all (the starting decks), in the players' piles and the Exile",
            got=str(held[c] + exiled[c]),
        )
    # Fortress cards
    places: list[tuple[str, list[int]]] = [
        ("fortress", d["fortress"]),
        ("area", [c for c in d["area"] if c != -1]),
        ("rubble", d["rubble"]),
        ("box", d["box"]),
        ("exile", d["exile"]),
    ]
    for i, p in enumerate(players):
        places += [
            (f"players[{i}].deck", p["deck"]),
            (f"players[{i}].hand", [e[0] for e in p["hand"]]),
            (f"players[{i}].discard", p["discard"]),
            (f"players[{i}].table", [e[0] for e in p["table"]]),
        ]
    pending = d["pending"]
    if pending is not None and pending["overflow"] != -1:
        places.append(("pending.overflow", [pending["overflow"]]))
    counted: Counter = Counter()
    for _, cards in places:
        counted.update(c for c in cards if c >= C.FIRST_FORTRESS_CARD)
    if counted != _FORTRESS_SUPPLY:
        c = min((counted - _FORTRESS_SUPPLY) + (_FORTRESS_SUPPLY - counted))
        where = ", ".join(f"{path} {cards.count(c)}" for path, cards in places if c in cards) or "nowhere"
        path = next((path for path, cards in places if c in cards), "fortress")
        _fail(path, f"{_FORTRESS_SUPPLY[c]} {CARDS[c].name} in the whole game (the box)", got=f"{counted[c]} ({where})")
    excess = sum(_FORTRESS_SUPPLY.values()) - C.FORTRESS_DECK_SIZE
    if len(d["box"]) != excess:
        _fail("box", f"{excess} Fortress cards (set aside unseen at setup)", got=f"{len(d['box'])} cards")
    # Invaders
    on_field = [iid for iid in d["field"] if iid != -1]
    invaders = Counter(d["inv_deck"]) + Counter(d["inv_discard"]) + Counter(on_field)
    if invaders != _INVADER_SUPPLY:
        iid = min((invaders - _INVADER_SUPPLY) + (_INVADER_SUPPLY - invaders))
        _fail(
            "inv_deck",
            f"{_INVADER_SUPPLY[iid]} {INVADERS[iid].name} in the Invasion deck, its discard and the Battlefield",
            got=str(invaders[iid]),
        )
    # Plans: each in one place; those to come, the one in play, the thwarted and the unseen ones are the Adversary's
    seen: set[int] = set()
    plan = d["plan"]
    for path, p in (
        [(f"plan_deck[{i}]", p) for i, p in enumerate(d["plan_deck"])]
        + [(f"box_plans[{i}]", p) for i, p in enumerate(d["box_plans"])]
        + ([("plan", plan)] if not _none(plan) else [])
    ):
        if p in seen:
            _fail(path, "a Plan not already elsewhere (each Plan is in one place)", p)
        seen.add(p)
    plans = len(d["plan_deck"]) + len(d["box_plans"]) + (not _none(d["plan"])) + d["thwarted"]
    if plans != len(adv.plans):
        _fail(
            "plan_deck",
            f"with box_plans, plan and thwarted, the {len(adv.plans)} Plans of {adv.name}",
            got=f"{plans} in all",
        )


def _check_chance(chance: Any) -> None:
    _mapping(chance, "chance", ("rng", "script"), optional=("script",))
    for i, v in enumerate(_list(chance.get("script", []), "chance.script")):
        ok = (_is_int(v) and v >= 0) or (isinstance(v, float) and 0.0 <= v < 1.0)
        ok = ok or (isinstance(v, list) and all(_is_int(x) for x in v) and sorted(v) == list(range(len(v))))
        if not ok:
            _fail(f"chance.script[{i}]", "a draw: an integer >= 0, a number in [0, 1), or an order (a permutation)", v)
    if not isinstance(chance["rng"], Mapping):
        _fail("chance.rng", "a numpy bit generator state (an object)", got=type(chance["rng"]).__name__)
    try:
        Chance.from_json(dict(chance))
    except Exception as error:  # numpy's own checks of the bit generator state, whatever they raise
        _fail(
            "chance.rng",
            "a PCG64 bit generator state as Chance.to_json writes it",
            got=f"{type(error).__name__}: {error}",
        )
