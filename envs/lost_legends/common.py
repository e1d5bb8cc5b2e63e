"""Lost Legends rules, the shared vocabulary: the task table, decision kinds, phases, slot tables and
the pure helpers (requirements, costs, damage modifiers, experience and gold scoring) every phase reads.

No state here. The phases (:mod:`~envs.lost_legends.draft`, :mod:`~envs.lost_legends.combat`,
:mod:`~envs.lost_legends.scoring`) register their rule steps in :data:`TASKS`;
:mod:`envs.lost_legends.state` runs them. Section numbers (2.4, 2.7.2...) refer to docs/lost_legends.md.
"""

from __future__ import annotations

from envs.core.tasks import TaskTable
from envs.lost_legends.content import (
    CARDS,
    GOLD_BONUS,
    XP_POINTS,
    XP_THRESHOLDS,
)

NO = -1

#: every rule step of the game, by name: the names are the first entries of the tasks on ``state.tasks``
#: (and in its JSON), e.g. ``["turn", 2]``
TASKS = TaskTable("lost_legends_v0")

# Decision kinds (the order is the observation's one-hot, docs 6.2).
DECISIONS = (
    "DRAFT_PICK",
    "DRAFT_PLACE",
    "DRAFT_BUY_COMMITTED",
    "SELECT_OWN",
    "SELECT_NONE",
    "SELECT_AFTER_PASS",
    "SELECT_DRAWN",
    "CHOOSE_WEAPON",
    "ATTACK_BUILD",
    "DEFEND",
    "HEAL",
    "LEVEL_REWARD",
    "LOSE_SKILL",
    "CHARGE_EXHAUST",
)
(
    DRAFT_PICK,
    DRAFT_PLACE,
    DRAFT_BUY_COMMITTED,
    SELECT_OWN,
    SELECT_NONE,
    SELECT_AFTER_PASS,
    SELECT_DRAWN,
    CHOOSE_WEAPON,
    ATTACK_BUILD,
    DEFEND,
    HEAL,
    LEVEL_REWARD,
    LOSE_SKILL,
    CHARGE_EXHAUST,
) = range(len(DECISIONS))

PHASES = ("gear-up", "combat", "final round", "over")
#: why a game ends (State.outcome().reason), in the order of the driver's end_reason codes
END_REASONS = ("three levels played", "step cap reached")
GEAR_UP, COMBAT, FINAL, OVER = range(len(PHASES))

# Damage-event sources (observation V8).
SOURCES = ("monster", "all", "charge")
SRC_MONSTER, SRC_ALL, SRC_CHARGE = range(3)

UNARMED_W = 3  # the attack context's weapon when attacking unarmed
ABSORB_ORDER = (3, 2, 1, 0)  # "any" blocks absorb chaos, magic, range, melee in that order

# Equipment slots (2.4): weapons by type, armor by piece, then spells and artifacts.
KIND_SLOT = {"W-mel": 0, "W-rng": 1, "W-mag": 2, "A-brp": 3, "A-shd": 4, "A-hlm": 5}
SPELL_SLOTS = (6, 7, 8)
ARTIFACT_SLOTS = (9, 10, 11)
PASSIVE_SLOTS = (3, 4)


# Per card id: the static totals the rules read often (0 for monsters).
CARD_TOTALS = {
    op: tuple(c.total(op) if hasattr(c, "total") else 0 for c in CARDS)
    for op in ("LIFE", "MANA", "REFRESH", "HEAL", "RESTORE")
}
LIFE_BONUS, MANA_BONUS, REFRESH_COST = CARD_TOTALS["LIFE"], CARD_TOTALS["MANA"], CARD_TOTALS["REFRESH"]


def cond_met(cond: tuple, levels: list[int]) -> bool:
    """A requirement (alternatives of all-lists) holds for these skill levels; () always holds."""
    if not cond:
        return True
    for alt in cond:
        for s, lv in alt:  # a plain loop: all() over a generator costs several times more
            if levels[s] < lv:
                break
        else:
            return True
    return False


def card_cost(card, levels: list[int]) -> int:
    """Base cost minus every satisfied discount box, floored at 0 (2.4)."""
    cost = card.cost
    for req, amount in card.discounts:
        if cond_met(req, levels):
            cost -= amount
    return max(0, cost)


#: cost_of's memo, (card id, skill levels as a tuple) -> cost; hot loops may read it first
COST_MEMO: dict[tuple, int] = {}


def cost_of(card_id: int, levels) -> int:
    """:func:`card_cost` of a card id, memoised on (card id, skill levels): a pure function of the
    content tables, so an entry is never stale (the table is cleared if it ever grows large)."""
    key = (card_id, tuple(levels))
    cost = COST_MEMO.get(key)
    if cost is None:
        if len(COST_MEMO) > 200_000:
            COST_MEMO.clear()
        cost = COST_MEMO[key] = card_cost(CARDS[card_id], levels)
    return cost


def apply_modifier(x: int, mod: str) -> int:
    if mod == "x2":
        return 2 * x
    if mod == "/2":
        return (x + 1) // 2
    if mod == "0":
        return 0
    return x


def xp_points(xp: int) -> int:
    for low, points in XP_POINTS:
        if xp >= low:
            return points
    return 0


def hero_level(xp: int) -> int:
    return 1 + sum(xp >= t for t in XP_THRESHOLDS)


def gold_bonus(golds: list[int]) -> list[int]:
    """6 for every player with the most gold, 3 for the second-highest distinct amount; 0 gold never scores."""
    amounts = sorted({g for g in golds if g > 0}, reverse=True)
    out = []
    for g in golds:
        if amounts and g == amounts[0]:
            out.append(GOLD_BONUS[0])
        elif len(amounts) > 1 and g == amounts[1]:
            out.append(GOLD_BONUS[1])
        else:
            out.append(0)
    return out
