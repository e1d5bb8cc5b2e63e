"""Heroes and Monsters rules, the player turn (docs 2.2, 2.3) as a plain state machine: the phases
a state can wait in, the legality of every decision (6.2), and the functions that play each
decision of a Defender's turn (buying, effects and their payments, support windows, passing),
with the start and end of a turn.

A turn is RECRUIT, EFFECTS, the SUPPORT windows of the other players, then COMBAT. Paying for an
effect may open a sub-decision (CHOOSE_DISCARD, PAY_ANY, CHOOSE_TRASH, CHOOSE_OVERFLOW): the
state's ``pending`` record keeps what is being paid for and the phase to return to, and
:func:`finish_pending` resumes the effect where it stopped. There is no task stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from envs.heroes_and_monsters import content as C
from envs.heroes_and_monsters.actions import LAYOUT, NUM_ACTIONS
from envs.heroes_and_monsters.content import CARDS, CONSTRUCTION, GENERALS, UNIT
from envs.heroes_and_monsters.effects import ORIGIN_PLAYER, draw, primitive, take_from_area
from envs.heroes_and_monsters.invasion import end_round, invade

if TYPE_CHECKING:
    from envs.heroes_and_monsters.state import HeroesAndMonstersState

# -- the phases a state waits in, and the sources of a pending payment ----------------------------------
PHASES = ("RECRUIT", "EFFECTS", "SUPPORT", "COMBAT", "CHOOSE_DISCARD", "CHOOSE_TRASH", "CHOOSE_OVERFLOW", "PAY_ANY")
RECRUIT, EFFECTS, SUPPORT, COMBAT, CHOOSE_DISCARD, CHOOSE_TRASH, CHOOSE_OVERFLOW, PAY_ANY = range(8)
SOURCES = ("none", "hand card", "Construction", "General", "COPY")
SRC_NONE, SRC_HAND, SRC_TABLE, SRC_GENERAL, SRC_COPY = range(5)

# The action ids of each block, by argument (derived from the layout, never typed).
_BUY = [LAYOUT.encode("BUY", s) for s in range(C.NUM_SLOTS)]
_USE_HAND = [LAYOUT.encode("USE_HAND", h) for h in range(C.HAND_CAP)]
_USE_TABLE = [LAYOUT.encode("USE_TABLE", k) for k in range(C.TABLE_CAP)]
_USE_GENERAL = LAYOUT.encode("USE_GENERAL")
_COPY = [[LAYOUT.encode("COPY", r, k) for k in range(C.TABLE_CAP)] for r in range(C.MAX_PLAYERS)]
_ATTACK = [LAYOUT.encode("ATTACK", c) for c in range(C.NUM_COLUMNS)]
_SELECT_HAND = [LAYOUT.encode("SELECT_HAND", h) for h in range(C.HAND_CAP)]
_SELECT_TABLE = [LAYOUT.encode("SELECT_TABLE", k) for k in range(C.TABLE_CAP)]
_PAY = [LAYOUT.encode("PAY", x) for x in range(3)]
_PASS = LAYOUT.encode("PASS")
_PASS_PHASES = (RECRUIT, EFFECTS, SUPPORT, COMBAT, CHOOSE_TRASH)


# -- what a seat may pay ------------------------------------------------------------------------------
def discardable(card: int, pool: list[int]) -> bool:
    """A card its holder may give up: any non-resource card, or a resource card still unspent."""
    x = CARDS[card].provides
    return x < 0 or pool[x] >= 1


def has_discardable(s: HeroesAndMonstersState, seat: int, pool: list[int] | None = None) -> bool:
    """Whether ``seat`` holds a card it may give up (``pool``: its pool, if already known)."""
    if pool is None:
        pool = s.pool(seat)
    return any(discardable(c, pool) for c, _ in s.players[seat].hand)


def affordable(effect: C.Effect, pool: list[int]) -> bool:
    return all(pool[x] >= effect.res[x] for x in range(3)) and sum(pool) - sum(effect.res) >= effect.any


# -- legality (6.2) -------------------------------------------------------------------------------------
def legal_mask(s: HeroesAndMonstersState) -> np.ndarray:
    """The mask of the decision now (``State.legal_mask`` keeps it until the next action)."""
    m = np.zeros(NUM_ACTIONS, np.int8)
    if s.result is not None:
        return m
    seat = s.current_player
    p = s.players[seat]
    ph = s.phase
    if ph == RECRUIT:
        pool = s.pool(seat)
        for slot, c in enumerate(s.area):
            if c >= 0:
                cost = CARDS[c].cost
                if pool[0] >= cost[0] and pool[1] >= cost[1] and pool[2] >= cost[2]:
                    m[_BUY[slot]] = 1
        _mask_uses(s, m, seat, False, pool)
    elif ph == EFFECTS:
        pool = s.pool(seat)
        _mask_uses(s, m, seat, True, pool)
        ability = GENERALS[p.general].ability
        if ability.do[0][0] == "COPY" and not p.gen_used and affordable(ability, pool):
            for r in range(s.n):
                for k, (c, _) in enumerate(s.players[(seat + r) % s.n].table):
                    e = CARDS[c].effect
                    if e is not None and e.cost != "passive":
                        m[_COPY[r][k]] = 1
    elif ph == SUPPORT:
        _mask_uses(s, m, seat, False, s.pool(seat))
    elif ph == COMBAT:
        for c in range(C.NUM_COLUMNS):
            if s.field[c] >= 0 and s.dmg >= s.next_cost(c):
                m[_ATTACK[c]] = 1
    elif ph == CHOOSE_DISCARD or ph == CHOOSE_TRASH:
        pool = s.pool(seat)
        for h, (c, u) in enumerate(p.hand):
            if (h == 0 or p.hand[h - 1] != [c, u]) and discardable(c, pool):
                m[_SELECT_HAND[h]] = 1
    elif ph == CHOOSE_OVERFLOW:
        for k in range(len(p.table)):
            m[_SELECT_TABLE[k]] = 1
    elif ph == PAY_ANY:
        pool = s.pool(seat)
        for x in range(3):
            if pool[x] >= 1:
                m[_PAY[x]] = 1
    if ph in _PASS_PHASES:
        m[_PASS] = 1
    return m


def _usable(effect: C.Effect | None, resources: bool, pool: list[int], has_card: bool) -> bool:
    if effect is None or effect.cost == "passive" or effect.do[0][0] == "COPY":
        return False
    if effect.cost == "discard_self":
        return True
    if effect.cost == "discard_one":
        return has_card
    return resources and affordable(effect, pool)


def _mask_uses(s: HeroesAndMonstersState, m: np.ndarray, seat: int, resources: bool, pool: list[int]) -> None:
    """USE_HAND, USE_TABLE and USE_GENERAL of ``seat``, whose pool is ``pool``; resource-cost
    effects only if ``resources`` (the Effects phase)."""
    p = s.players[seat]
    has_card = has_discardable(s, seat, pool)
    prev = None
    for h, entry in enumerate(p.hand):
        if entry == prev:  # duplicate masking: the same (card, used) as the slot before
            continue
        prev = entry
        c, u = entry
        if u:
            continue
        card = CARDS[c]
        e = card.effect
        if card.kind == UNIT and e is not None and e.cost != "discard_one":
            if _usable(e, resources, pool, has_card):
                m[_USE_HAND[h]] = 1
    seen = set()
    for k, (c, u) in enumerate(p.table):
        if u or c in seen:
            continue
        seen.add(c)
        if _usable(CARDS[c].effect, resources, pool, has_card):
            m[_USE_TABLE[k]] = 1
    if not p.gen_used and _usable(GENERALS[p.general].ability, resources, pool, has_card):
        m[_USE_GENERAL] = 1


def _support_eligible(s: HeroesAndMonstersState, seat: int) -> bool:
    m = np.zeros(NUM_ACTIONS, np.int8)
    _mask_uses(s, m, seat, False, s.pool(seat))
    return bool(m.any())


# -- the decisions: buying, effects and their payments (docs 2.2, steps 2-4) -----------------------------
def buy(s: HeroesAndMonstersState, slot: int) -> None:
    """BUY: recruit the Area card of ``slot`` (a 4th Construction opens CHOOSE_OVERFLOW)."""
    c = s.area[slot]
    card = CARDS[c]
    for x in range(3):
        s.res[x] -= card.cost[x]
    p = s.players[s.active]
    s.bought += 1
    if card.kind == CONSTRUCTION:
        if len(p.table) < C.TABLE_CAP:
            p.table.append([c, False])
        else:
            suspend(s, CHOOSE_OVERFLOW, s.active, SRC_NONE, c, None, 0)
            s.pending["overflow"] = c
    else:
        p.discard.append(c)
    take_from_area(s, slot)


def use_hand_card(s: HeroesAndMonstersState, h: int) -> None:
    """USE_HAND: the effect of the Unit in hand slot ``h``."""
    seat = s.current_player
    p = s.players[seat]
    c = p.hand[h][0]
    e = CARDS[c].effect
    ref = ["card", c]
    if e.cost == "discard_self":
        del p.hand[h]
        p.discard.append(c)
        if seat == s.active:
            s.used_discarded.append(c)
        resolve(s, seat, ref, 0)
        return
    p.hand[h][1] = True
    p.hand.sort()
    pay_cost(s, seat, e, SRC_HAND, c, ref)


def use_construction(s: HeroesAndMonstersState, k: int) -> None:
    """USE_TABLE: the effect of the actor's own Construction ``k``."""
    seat = s.current_player
    entry = s.players[seat].table[k]
    entry[1] = True
    pay_cost(s, seat, CARDS[entry[0]].effect, SRC_TABLE, entry[0], ["card", entry[0]])


def use_general(s: HeroesAndMonstersState) -> None:
    """USE_GENERAL: the actor's General's ability."""
    seat = s.current_player
    p = s.players[seat]
    p.gen_used = True
    pay_cost(s, seat, GENERALS[p.general].ability, SRC_GENERAL, -1, ["general", p.general])


def copy_construction(s: HeroesAndMonstersState, rel: int, k: int) -> None:
    """COPY: pay the General's COPY ability, resolve the Construction ``k`` of the seat ``rel`` places on."""
    seat = s.current_player
    p = s.players[seat]
    p.gen_used = True
    target = s.players[(seat + rel) % s.n].table[k][0]
    pay_cost(s, seat, GENERALS[p.general].ability, SRC_COPY, target, ["card", target])


def pay_cost(s: HeroesAndMonstersState, seat: int, cost: C.Effect, src: int, card: int, ref: list) -> None:
    """Pay ``cost`` (opening CHOOSE_DISCARD or PAY_ANY when needed), then resolve ``ref``."""
    if cost.cost == "discard_one":
        suspend(s, CHOOSE_DISCARD, seat, src, card, ref, 0)
        return
    if cost.cost == "resources":
        for x in range(3):
            s.res[x] -= cost.res[x]
        if cost.any:
            suspend(s, PAY_ANY, seat, src, card, ref, 0)
            s.pending["any"] = cost.any
            return
    resolve(s, seat, ref, 0)


def resolve(s: HeroesAndMonstersState, seat: int, ref: list, at: int) -> None:
    """Resolve the primitives of ``ref`` (``["card", id]`` or ``["general", id]``) from index ``at``;
    TRASH may pause for CHOOSE_TRASH."""
    effect = CARDS[ref[1]].effect if ref[0] == "card" else GENERALS[ref[1]].ability
    do = effect.do
    for i in range(at, len(do)):
        prim = do[i]
        if prim[0] == "TRASH":
            if prim[1] > 0 and has_discardable(s, seat):
                suspend(s, CHOOSE_TRASH, seat, SRC_NONE, -1, ref, i + 1)
                s.pending["trash"] = prim[1]
                return
            continue
        primitive(s, prim, ORIGIN_PLAYER, seat)


def suspend(s: HeroesAndMonstersState, phase: int, seat: int, src: int, card: int, ref: list | None, at: int) -> None:
    """Open the sub-decision ``phase`` for ``seat``; the effect ``ref`` resumes at ``at`` once it closes."""
    ret = s.pending["ret"] if s.pending else s.phase
    s.pending = {
        "seat": seat,
        "src": src,
        "card": card,
        "effect": ref,
        "at": at,
        "any": 0,
        "trash": 0,
        "overflow": -1,
        "ret": ret,
    }
    s.phase = phase
    s.current_player = seat


def finish_pending(s: HeroesAndMonstersState) -> None:
    """Close the sub-decision and resolve the rest of its effect."""
    pend = s.pending
    s.pending = None
    s.phase = pend["ret"]
    s.current_player = pend["seat"]
    if pend["effect"] is not None:
        resolve(s, pend["seat"], pend["effect"], pend["at"])


def select_hand_card(s: HeroesAndMonstersState, h: int) -> None:
    """SELECT_HAND: discard hand slot ``h`` as a cost (CHOOSE_DISCARD) or trash it (CHOOSE_TRASH)."""
    seat = s.current_player
    p = s.players[seat]
    c, used = p.hand.pop(h)
    if s.phase == CHOOSE_DISCARD:
        p.discard.append(c)
        if used and seat == s.active:
            s.used_discarded.append(c)
        finish_pending(s)
        return
    s.exile.append(c)  # CHOOSE_TRASH
    s.pending["trash"] -= 1
    if s.pending["trash"] <= 0 or not has_discardable(s, seat):
        finish_pending(s)


def select_construction(s: HeroesAndMonstersState, k: int) -> None:
    """SELECT_TABLE: Construction ``k`` goes to the Rubble to make room for the one just bought."""
    p = s.players[s.current_player]
    s.rubble.append(p.table.pop(k)[0])
    p.table.append([s.pending["overflow"], False])
    finish_pending(s)


def pay_any(s: HeroesAndMonstersState, x: int) -> None:
    """PAY: one unit of the pending 'any' cost with resource ``x``."""
    s.res[x] -= 1
    s.pending["any"] -= 1
    if s.pending["any"] == 0:
        finish_pending(s)


def pass_phase(s: HeroesAndMonstersState) -> None:
    """PASS: end RECRUIT, end EFFECTS (gather damage, open the support windows), leave a support
    window, end the turn after COMBAT, or stop trashing."""
    ph = s.phase
    if ph == RECRUIT:
        s.phase = EFFECTS
    elif ph == EFFECTS:
        _gather(s)
        s.support_queue = (
            [(s.active + i) % s.n for i in range(1, s.n)] if s.game.options["support_window"] == "pre_combat" else []
        )
        _next_support(s)
    elif ph == SUPPORT:
        _next_support(s)
    elif ph == COMBAT:
        end_turn(s)
    elif ph == CHOOSE_TRASH:
        finish_pending(s)


# -- turn structure (2.3) ------------------------------------------------------------------------------
def start_turn(s: HeroesAndMonstersState) -> None:
    """The turn of the next seat in order: its Reserve, fresh cards, passive Constructions."""
    s.active = (s.first + s.turns_done) % s.n
    p = s.players[s.active]
    s.res = list(GENERALS[p.general].reserve)
    s.dmg = 0
    s.bonus = [0, 0, 0]
    s.used_discarded = []
    s.used_in_deck = []
    s.bought = 0
    s.hand_up = True
    for q in s.players:
        q.gen_used = False
        for entry in q.table:
            entry[1] = False
        for entry in q.hand:
            entry[1] = False
        q.hand.sort()
    s.attacked = [False] * C.NUM_COLUMNS
    s.phase = RECRUIT
    s.current_player = s.active
    for c, _ in list(p.table):
        e = CARDS[c].effect
        if e is not None and e.cost == "passive":
            for prim in e.do:
                primitive(s, prim, ORIGIN_PLAYER, s.active)


def _gather(s: HeroesAndMonstersState) -> None:
    """End of EFFECTS: General + Units in hand + race bonuses (2.3.3)."""
    p = s.players[s.active]
    g = GENERALS[p.general]
    total = g.dmg
    count = [0, 0, 0, 0]
    for c, _ in p.hand:
        card = CARDS[c]
        if card.kind == UNIT:
            total += card.dmg
            count[card.race] += 1
    for r in range(3):
        total += s.bonus[r] * (count[r] + (1 if g.race == r else 0))
    s.dmg += total


def _next_support(s: HeroesAndMonstersState) -> None:
    while s.support_queue:
        seat = s.support_queue.pop(0)
        if _support_eligible(s, seat):
            s.phase = SUPPORT
            s.current_player = seat
            return
    s.phase = COMBAT
    s.current_player = s.active


def end_turn(s: HeroesAndMonstersState) -> None:
    """Discard the hand, draw a new one; after the last turn of the round, the Invasion and the next round."""
    p = s.players[s.active]
    p.discard += [c for c, _ in p.hand]
    p.hand = []
    s.hand_up = False  # the new hand is private until the owner's next turn
    s.used_discarded = []
    s.used_in_deck = []
    s.bought = 0
    draw(s, s.active, GENERALS[p.general].draw)
    s.res = [0, 0, 0]
    s.dmg = 0
    s.bonus = [0, 0, 0]
    s.turns_done += 1
    if s.turns_done >= s.n:
        invade(s)
        end_round(s)
    start_turn(s)
