"""Last Bastion combat: the dice (:func:`combat_dice`), the cheapest token spending that vanquishes a
set of targets (:func:`plan`), the legal outcomes (:func:`combat_outcomes`: every achievable one, but
never declining a free kill), the COMBAT_RESOLVE answer (tokens paid, Warlords counted, exit effects),
and the tasks after it (``exit``, ``remove``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from envs.core.tasks import push
from envs.last_bastion import content as C
from envs.last_bastion.actions import OUTCOME_TARGETS, RESOLVE_ID
from envs.last_bastion.decisions import TASKS, decide
from envs.last_bastion.tokens import lose_equip, remove_card


@lru_cache(maxsize=1 << 16)
def _plan(info: tuple, dice: tuple, pool: tuple | None):
    """:func:`plan` on its inputs alone ((colour, effective resistance, warded) per target, the
    dice, the token pool or None), memoised: a combat asks the same questions up to 5 times, and
    the inputs take few values. Returns tuples (the caller copies them)."""
    k = len(info)
    if k == 1:  # one target: the search's answer in closed form (every matching die on it)
        colour, res, ward = info[0]
        short = max(0, res - dice.count(C.WHITE) - dice.count(colour))  # the matching dice (colour is not white)
        if short and (ward or pool is None or short > pool[colour]):
            return None
        need = [0] * 5
        need[colour] = short
        return tuple(need), (short,)
    best = None
    for assign in product(range(k + 1), repeat=len(dice)):
        counts = [0] * k
        for d, t in zip(dice, assign):
            if t < k and (d == C.WHITE or d == info[t][0]):
                counts[t] += 1
        need = [0] * 5
        shorts = []
        ok = True
        for t, (colour, res, ward) in enumerate(info):
            short = max(0, res - counts[t])
            if short and (ward or pool is None):
                ok = False
                break
            need[colour] += short
            shorts.append(short)
        if not ok or (pool is not None and any(need[c] > pool[c] for c in range(5))):
            continue
        if best is None or sum(shorts) < sum(best[1]):
            best = (tuple(need), tuple(shorts))
    return best


def combat_dice(state) -> int:
    """Dice the active hero rolls: 3, Brakka 4, one fewer per active ONG_DIM (at least 1)."""
    n = 4 if state.power_usable(state.active, C.BRAKKA) else 3
    return max(1, n - state.ongoing_count("ONG_DIM"))


def plan(state, targets: list[int], dice: list[int], pool: list[int] | None):
    """Cheapest token spending (per colour, per target) that vanquishes every space in
    ``targets`` with these dice, or None. ``pool=None``: dice alone."""
    info = []
    for s in targets:
        card = C.CARDS[state.spaces[s]]
        info.append(
            (
                card.color,
                state.effective_resistance(s),
                not state.suppressed(s) and card.central is not None and card.central.prim == "ONG_WARD",
            )
        )
    best = _plan(tuple(info), tuple(dice), None if pool is None else tuple(pool))
    return None if best is None else (list(best[0]), list(best[1]))


def combat_outcomes(state, targets: list[int], dice: list[int]) -> list[int]:
    """The legal RESOLVE outcomes: achievable with the pool, and not fewer cards than the dice kill alone."""
    pool = state.pool()
    subsets = {1: [0], 2: [1], 3: [0, 1]} if len(targets) == 2 else {1: [0]}
    achievable = {0: True}
    free = {0: True}
    for o, idx in subsets.items():
        ts = [targets[i] for i in idx]
        achievable[o] = plan(state, ts, dice, pool) is not None
        free[o] = plan(state, ts, dice, None) is not None
    legal = []
    for o in achievable:
        if not achievable[o]:
            continue
        mine = set(subsets.get(o, []))
        if any(free[q] and set(subsets.get(q, [])) > mine for q in free):
            continue
        legal.append(o)
    return legal


def start_combat(state, targets: list[int]) -> None:
    """The active hero fights ``targets`` (one space, or a corner's two): roll, then COMBAT_RESOLVE."""
    state.acted = True
    dice = [state.chance.roll(6) for _ in range(combat_dice(state))]
    decide(
        state,
        "COMBAT_RESOLVE",
        [RESOLVE_ID + o for o in combat_outcomes(state, targets, dice)],
        targets=targets,
        dice=dice,
    )


def combat_resolve_legal(state, d: dict) -> list[int]:
    return [RESOLVE_ID + o for o in combat_outcomes(state, d["targets"], d["dice"])]


def answer_combat_resolve(state, d: dict, name: str, args: tuple) -> None:
    """COMBAT_RESOLVE: pay the tokens, count the vanquished, then their exit effects and removal."""
    targets = d["targets"]
    idx = OUTCOME_TARGETS[args[0]]
    if not idx:
        return
    chosen = [targets[i] for i in idx]
    need, _ = plan(state, chosen, d["dice"], state.pool())
    payers = state.pool_heroes()
    for c in range(5):
        for p in payers:
            while need[c] > 0 and state.heroes[p]["equip"][c] > 0:
                lose_equip(state, p, c)
                need[c] -= 1
    for s in chosen:  # vanquished now; the exit effects follow while the cards are still on their spaces
        if C.CARDS[state.spaces[s]].warlord:
            state.vanquished += 1
            state.counters["warlord"] += 1
        else:
            state.counters["monster"] += 1
    # card by card, FIRST then SECOND (2.9 step 7): a card with an exit effect resolves it, then
    # leaves; one without just leaves. Two exit effects are ordered by the controller (EFFECT_ORDER).
    items = [[k, ["exit", s, state.spaces[s]]] for k, s in enumerate(chosen) if C.CARDS[state.spaces[s]].exit]
    if len(items) == 2:
        push(state.stack, ["order", "exit", items], ["victory"])
    else:
        tasks = [["exit" if C.CARDS[state.spaces[s]].exit else "remove", s, state.spaces[s]] for s in chosen]
        push(state.stack, *tasks, ["victory"])


@TASKS.task
def exit(state, s: int, card: int) -> None:  # shadows the builtin: the task's name in saved stacks
    """The exit effect of the vanquished ``card`` on ``s``, then it leaves."""
    if state.spaces[s] != card:
        return
    state.stack.append(["remove", s, card])
    e = C.CARDS[card].exit
    if e is not None:
        state.stack.append(["fx", e.prim, e.arg, s, -1, "card"])


@TASKS.task
def remove(state, s: int, card: int) -> None:
    """The vanquished ``card`` leaves ``s`` (if it is still there)."""
    if state.spaces[s] == card:
        remove_card(state, s)
